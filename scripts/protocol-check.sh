#!/usr/bin/env bash
# The SystemVerilog protocol checker (hdl/sv/spe_protocol_checker.sv) on the stimulus core:
#   1. builds the replay bench gen/<preset>/spe_<preset>_replay.sv (the checker bound to
#      spe_top_<preset>) with Verilator 5 (--binary --timing --assert, lint-clean -Wall);
#   2. replays runs of every named workload (spe sim --vectors): the checker must pass;
#   3. replays runs that break one of the core's rules each (spe sim --break RULE): the
#      checker must fire, naming that rule, in the cycle spe sim says it broke it.
# lost-completion needs a run longer than the completion timeout: it runs on `fastsim`
# (2^14 cycles) whatever the preset.
# Usage: scripts/protocol-check.sh [PRESET] [SPE]   (default: default, target/release/spe)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$(repo_root)"
need verilator verilator

PRESET=${1:-default}
SPE=${2:-target/release/spe}
OUT=target/protocol
mkdir -p "$OUT"
[ -x "$SPE" ] || step cargo build --release --quiet --bin spe

# build PRESET: the replay bench of PRESET, once per run of this script.
# The model's C++ is one translation unit (VM_PARALLEL_BUILDS=0): Verilator's makefile
# otherwise compiles each of its files apart, each parsing verilated.h again.
build() {
    local p=$1 top=spe_$1_replay
    step verilator --binary --timing --assert -Wall -j 2 -MAKEFLAGS VM_PARALLEL_BUILDS=0 -f "gen/$p/sources.f" \
        hdl/sv/spe_protocol_checker.sv "gen/$p/$top.sv" --top-module "$top" \
        -Mdir "$OUT/obj_$p" >"$OUT/build_$p.log" 2>&1 || {
        cat "$OUT/build_$p.log" >&2
        echo "error: the replay bench of $p does not build" >&2
        exit 1
    }
}

# replay PRESET VEC LOG: runs the bench; its exit status is the caller's to judge (a
# violation ends it with $fatal, which Verilator turns into an abort: the inner shell keeps
# bash's "Aborted" notice out of the output).
replay() {
    bash -c '"$0" "$1" >"$2" 2>&1' "$OUT/obj_$1/Vspe_$1_replay" "+vectors=$2" "$3" 2>/dev/null
}

build "$PRESET"
failed=0
for w in loop mix memory branchy modes; do
    vec="$OUT/$PRESET-$w.vec"
    echo
    echo "==> $SPE sim --preset $PRESET --workload $w --cycles 50000 --vectors $vec (must pass)"
    "$SPE" sim --preset "$PRESET" --workload "$w" --cycles 50000 --quiet --vectors "$vec" >"$OUT/$w.sim"
    if replay "$PRESET" "$vec" "$OUT/$w.log"; then
        grep "spe replay:" "$OUT/$w.log"
    else
        cat "$OUT/$w.log" >&2
        echo "FAIL: the checker fired on the clean $w stimulus" >&2
        failed=1
    fi
    rm -f "$vec"
done

# must_fire PRESET RULE: a run that breaks RULE; the checker must name it at that cycle.
must_fire() {
    local p=$1 rule=$2 vec="$OUT/$1-break-$2.vec"
    echo
    echo "==> $SPE sim --preset $p --workload mix --cycles 40000 --break $rule --vectors $vec (must fire)"
    "$SPE" sim --preset "$p" --workload mix --cycles 40000 --quiet --break "$rule" \
        --vectors "$vec" >"$OUT/break-$rule.sim"
    local at
    at=$(sed -n "s/^broke rule $rule at cycle \([0-9]*\).*/\1/p" "$OUT/break-$rule.sim")
    if replay "$p" "$vec" "$OUT/break-$rule.log"; then
        cat "$OUT/break-$rule.log" >&2
        echo "FAIL: the checker passed a stimulus that breaks rule $rule" >&2
        failed=1
    elif [ "$rule" = lost-completion ] \
        && grep -q "rule $rule: " "$OUT/break-$rule.log"; then
        # Fires when the unit times the op out, 2^k cycles after the break.
        grep -m1 "rule $rule: " "$OUT/break-$rule.log"
    elif grep -q "rule $rule: .*(cycle $at)" "$OUT/break-$rule.log"; then
        grep -m1 "rule $rule: " "$OUT/break-$rule.log"
    else
        cat "$OUT/break-$rule.log" >&2
        echo "FAIL: the checker did not name rule $rule at cycle $at" >&2
        failed=1
    fi
    rm -f "$vec"
}

for rule in window once class translation-order reg-port wr-response; do
    must_fire "$PRESET" "$rule"
done
[ "$PRESET" = fastsim ] || build fastsim
must_fire fastsim lost-completion

if [ "$failed" != 0 ]; then
    echo "protocol-check: FAILED" >&2
    exit 1
fi
echo
echo "protocol-check: the checker passes every workload and names every broken rule"
