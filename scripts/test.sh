#!/usr/bin/env bash
# The whole test suite. Installs what it needs on a fresh machine, then runs, in order:
# formatting and lint, every unit/property test in the workspace (model, decoder, RTL block
# tests, RTL-vs-model lockstep under rust-hdl's simulator), the gen/ drift check, the RTL
# tool checks (Verilator lint, iverilog, Yosys), and the end-to-end acceptance run (model
# simulation -> buffer -> decoder).
# Each step prints the command that reproduces it.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$(repo_root)"

# Debian tools the suite uses, installed with apt-get when missing.
command -v cargo >/dev/null || { echo "error: cargo (Rust toolchain) is required" >&2; exit 1; }
need verilator verilator
need iverilog iverilog
need yosys yosys

step cargo fmt --all -- --check
step cargo clippy --workspace --all-targets --quiet -- -D warnings
step cargo test --workspace --quiet
step cargo build --release --quiet --bin spe

SPE=target/release/spe
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
step "$SPE" gen --check gen
step "$SPE" gen --out "$OUT/gen"
step diff -r gen "$OUT/gen"
step scripts/rtl-check.sh gen
step "$SPE" sim --workload loop --cycles 2000000 --interval 1024 --jitter --out "$OUT/loop.bin" --summary-json "$OUT/loop.json"
step "$SPE" decode "$OUT/loop.bin" --quiet --check-slots --expect-records "$(sed -n 's/.*"records_written": *\([0-9]*\).*/\1/p' "$OUT/loop.json")"
step "$SPE" sim --workload mix --cycles 1000000 --ts --cx --pa --preset wide --out "$OUT/mix.bin" --summary-json "$OUT/mix.json"
step "$SPE" decode "$OUT/mix.bin" --quiet --check-slots --expect-records "$(sed -n 's/.*"records_written": *\([0-9]*\).*/\1/p' "$OUT/mix.json")"
echo
echo "all checks passed"
