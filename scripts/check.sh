#!/usr/bin/env bash
# The quick gate, run before every commit (about 3 minutes on a warm build, 2 cores):
#   1. cargo fmt --check
#   2. cargo clippy -D warnings (every target; SPE_VSYS_CHECK_ONLY: nothing is linked, so
#      verif/verilator-sys's build script builds no Verilated model for it)
#   3. the workspace tests (model, decoder, RTL blocks, Verilator bindings, the directed
#      lockstep cases on the Verilated RTL and under rust-hdl's simulator; each under ~30 s)
#   4. spe gen --check gen (gen/ is current: no stale, missing or stray file)
#   5. scripts/rtl-check.sh on the default preset (Verilator -Wall lint, iverilog, Yosys)
#   6. a random lockstep regression of SPE_CHECK_CYCLES cycles (1e7 by default) over every
#      preset, with its own master seed (SPE_CHECK_SEED), so that it adds to the
#      regression of scripts/test.sh rather than repeating its first jobs.
#   7. spe mutate's fixed sample of default (10 mutants, 95 % killed): the sample is drawn
#      from the list of mutation sites, which any change to a generated line of default
#      redraws, so a survivor shows here, before the commit, not in CI (docs/mutation.md).
# Each step prints the command that reproduces it; the gate prints its wall time at the end.
# The full suite (scripts/test.sh, CI) runs this first, then the long checks.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$(repo_root)"
start=$(date +%s)

command -v cargo >/dev/null || { echo "error: cargo (Rust toolchain) is required" >&2; exit 1; }
# The Verilator bindings (verif/verilator-sys) need Verilator at build time; rtl-check.sh
# installs its own tools the same way.
need verilator verilator

CHECK_CYCLES=${SPE_CHECK_CYCLES:-10000000}
CHECK_SEED=${SPE_CHECK_SEED:-0xc4ec}

step cargo fmt --all -- --check
# Clippy links nothing: the Verilated models are built once, for the release tests below.
SPE_VSYS_CHECK_ONLY=1 step cargo clippy --workspace --all-targets --quiet -- -D warnings
# The tests in the release profile: their dependencies are the same build as the `spe`
# binary below (one compilation instead of a debug and a release one), and the simulation
# tests run about 3 times faster (271 s -> 90 s of test time). The tests' own crates keep
# their debug assertions and overflow checks ([profile.bench] in Cargo.toml).
step cargo test --workspace --release --quiet
step cargo build --release --quiet --bin spe
SPE=target/release/spe
step "$SPE" gen --check gen
step scripts/rtl-check.sh gen default
step "$SPE" regress --cycles "$CHECK_CYCLES" --job-cycles 500000 --seed "$CHECK_SEED" --quiet \
    --vcd-dir target/spe-check/regress
# Mutation score on a fixed sample (the default seed's first 10 draws; docs/mutation.md):
# about half a minute on 2 cores, every built mutant but 5 % must be killed; a drawn mutant
# read and argued equivalent (scripts/mutants-equivalent.txt) runs but is not counted.
step "$SPE" mutate --preset default --sample 10 --require 95 --equivalent scripts/mutants-equivalent.txt \
    --dir target/spe-check/mutate

echo
echo "quick gate passed in $(($(date +%s) - start)) s (scripts/check.sh)"
