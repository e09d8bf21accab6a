#!/usr/bin/env bash
# The record-level scoreboard from Python: a cocotb test (verif/cocotb/test_spe_scoreboard.py,
# cocotb from PyPI at a pinned version in .deps/cocotb) drives spe_top_default, Verilated,
# from a replayed `spe sim --vectors` trace and checks it through libspe_capi.so by ctypes:
# every port every cycle, every register read at the end, the scoreboard's verdict; it
# fails on a mismatch or when fewer records were checked than `spe sim` wrote. Then the
# same test on a broken copy of the RTL (the serializer flips bit 0 of the translation
# latency, as scripts/sv-example.sh does) must fail, naming a record.
# cocotb 1.8.1 is the last release that supports Verilator 5.006 (1.9 needs 5.022).
# Usage: scripts/cocotb-check.sh [SPE]   (default: target/release/spe)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$(repo_root)"
need verilator verilator
need make make
need g++ g++
need python3 python3

SPE=${1:-target/release/spe}
VERSION=1.8.1
DEPS=$PWD/.deps/cocotb
OUT=$PWD/target/cocotb
PRESET=default
pip_dep cocotb "$VERSION" "$DEPS"
[ -x "$SPE" ] || step cargo build --release --quiet --bin spe
step cargo build --release --quiet -p spe-capi
mkdir -p "$OUT"

VEC=$OUT/run.vec

# cocotb ROOT NAME: the test on the RTL of ROOT/gen/$PRESET (results in $OUT/NAME.xml, log
# in $OUT/NAME.log); its exit status is make's (a failed test still exits 0).
cocotb() {
    local root=$1 name=$2
    rm -f "$OUT/$name.xml"
    PATH="$DEPS/bin:$PATH" PYTHONPATH="$DEPS" \
        SPE_VECTORS="$VEC" SPE_CAPI_LIB="$PWD/target/release/libspe_capi.so" \
        SPE_REGS_H="$PWD/gen/spe_regs.h" SPE_EXPECT_RECORDS="$records" \
        make -C verif/cocotb REPO="$root" PRESET="$PRESET" SIM_BUILD="$OUT/build_$name" \
        COCOTB_RESULTS_FILE="$OUT/$name.xml" >"$OUT/$name.log" 2>&1
}
echo
echo "==> $SPE sim --preset $PRESET --workload mix --cycles 60000 --backpressure random:0.8 --vectors $VEC"
# 60,000 cycles: the trace must hold a record with a translation latency, which the broken
# copy below gets wrong (30,000 cycles of the mix held none after 174ffb3).
"$SPE" sim --preset "$PRESET" --workload mix --cycles 60000 --backpressure random:0.8 --quiet \
    --vectors "$VEC" --summary-json "$OUT/run.json" | tail -1
records=$(sed -n 's/.*"records_written": *\([0-9]*\).*/\1/p' "$OUT/run.json")

echo
echo "==> make -C verif/cocotb SIM=verilator PRESET=$PRESET (cocotb $VERSION; must pass)"
cocotb "$PWD" good || {
    tail -40 "$OUT/good.log" >&2
    echo "error: the cocotb run failed (log: $OUT/good.log)" >&2
    exit 1
}
grep -E "scoreboard:|PASS|FAIL" "$OUT/good.log" | grep -v "TESTS=" | tail -4
if [ ! -f "$OUT/good.xml" ] || grep -q "<failure" "$OUT/good.xml" || ! grep -q "<testcase" "$OUT/good.xml"; then
    echo "error: the cocotb test failed or did not run (log: $OUT/good.log)" >&2
    exit 1
fi

# The broken copy, in a tree shaped like the repository's gen/.
BROKEN=$OUT/broken
rm -rf "$BROKEN"
mkdir -p "$BROKEN/gen/$PRESET"
cp gen/spe_rff.v "$BROKEN/gen/"
cp gen/$PRESET/*.v gen/$PRESET/sources.f "$BROKEN/gen/$PRESET/"
ser=$BROKEN/gen/$PRESET/spe_serializer_$PRESET.v
sed -i 's/rec\[(136)+:(16)\] = xlat16;/rec[(136)+:(16)] = xlat16 ^ 16'"'"'h0001;/' "$ser"
if cmp -s "$ser" "gen/$PRESET/spe_serializer_$PRESET.v"; then
    echo "error: the break did not apply: the serializer's translation latency line changed" >&2
    exit 1
fi
echo
echo "==> make -C verif/cocotb SIM=verilator PRESET=$PRESET REPO=$BROKEN (the broken copy; must fail)"
cocotb "$BROKEN" broken || true
grep -m1 "scoreboard: MISMATCH" "$OUT/broken.log" || true
if ! grep -q "<failure" "$OUT/broken.xml" 2>/dev/null || ! grep -q "MISMATCH .*: record [0-9]* (thread" "$OUT/broken.log"; then
    echo "error: the cocotb test did not fail on the broken RTL naming a record (log: $OUT/broken.log)" >&2
    exit 1
fi
echo
echo "cocotb-check: the scoreboard through ctypes passes spe_top_$PRESET on a replayed trace ($records records) and fails the broken copy"
