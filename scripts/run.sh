#!/usr/bin/env bash
# The main job: build the `spe` tool, generate the Verilog of every preset into out/gen (and
# say whether the committed gen/ matches it), run the `loop` workload through the golden
# model with perf's default settings plus jitter, decode the buffer it wrote, then run the
# `mix` workload on the Verilated RTL and the model in lockstep.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$(repo_root)"
command -v cargo >/dev/null || { echo "error: cargo (Rust toolchain) is required" >&2; exit 1; }
# The Verilated RTL is built into `spe` (verif/verilator-sys).
need verilator verilator

step cargo build --release --quiet --bin spe
mkdir -p out
step target/release/spe gen --out out/gen
step target/release/spe gen --check gen
step target/release/spe sim --workload loop --cycles 2000000 --interval 1024 --jitter --ts --cx --out out/loop.bin
echo
echo "==> target/release/spe decode out/loop.bin | head -40"
target/release/spe decode out/loop.bin | head -40 || true
step target/release/spe decode out/loop.bin --summary
step target/release/spe sim --backend lockstep --workload mix --cycles 2000000 --out out/mix-lockstep.bin
