#!/usr/bin/env bash
# The SystemVerilog example of the record-level scoreboard (docs/integration.md):
#   1. builds the replay bench gen/default/spe_default_replay.sv with +define+SPE_SCOREBOARD:
#      spe_top_default driven from a replayed trace, every port fed each cycle to the
#      scoreboard of hdl/sv/spe_scoreboard.sv (DPI-C on libspe_capi.a), with Verilator 5;
#   2. replays a `spe sim --vectors` run (mix, back-pressure): the scoreboard must pass;
#   3. builds the same bench on a deliberately broken copy of the RTL (the serializer flips
#      bit 0 of the translation latency): the run must fail, and the record it names must
#      be the first record the model writes with a translation latency packet (found
#      independently, by replaying the vectors through the C library: tools/capi/examples).
# Usage: scripts/sv-example.sh [SPE]   (default: target/release/spe)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$(repo_root)"
need verilator verilator
need gcc gcc

SPE=${1:-target/release/spe}
OUT=target/sv-example
PRESET=default
TOP=spe_${PRESET}_replay
rm -rf "$OUT"
mkdir -p "$OUT"
[ -x "$SPE" ] || step cargo build --release --quiet --bin spe
step cargo build --release --quiet -p spe-capi
LIB=$PWD/target/release/libspe_capi.a

# build DIR SOURCES_F: the scoreboard bench on the RTL listed in SOURCES_F, into DIR.
# The model's C++ is one translation unit (VM_PARALLEL_BUILDS=0): Verilator's makefile
# otherwise compiles each of its files apart, each parsing verilated.h again.
build() {
    local dir=$1 sources=$2
    step verilator --binary --timing --assert -Wall -Wno-DECLFILENAME -j 2 -MAKEFLAGS VM_PARALLEL_BUILDS=0 +define+SPE_SCOREBOARD \
        -f "$sources" hdl/sv/spe_protocol_checker.sv hdl/sv/spe_scoreboard.sv \
        "gen/$PRESET/spe_scoreboard_monitor_$PRESET.sv" "gen/$PRESET/$TOP.sv" \
        --top-module "$TOP" -Mdir "$dir" "$LIB" -LDFLAGS "-lpthread -ldl -lm" >"$dir.log" 2>&1 || {
        cat "$dir.log" >&2
        echo "error: the scoreboard bench does not build ($sources)" >&2
        exit 1
    }
}

# Every preset's generated scoreboard monitor (gen/<preset>/spe_scoreboard_monitor_<preset>.sv,
# bindable with `.*`) passes Verilator's -Wall lint with the scoreboard package.
for dir in gen/*/; do
    p=$(basename "$dir")
    [ -f "$dir/spe_scoreboard_monitor_$p.sv" ] || continue
    step verilator --lint-only -Wall -Wno-DECLFILENAME hdl/sv/spe_scoreboard.sv \
        "$dir/spe_scoreboard_monitor_$p.sv" --top-module "spe_scoreboard_monitor_$p"
done

# 1-2. The bench on gen/, a replayed run.
VEC=$OUT/mix.vec
echo
echo "==> $SPE sim --preset $PRESET --workload mix --cycles 50000 --backpressure random:0.8 --vectors $VEC"
"$SPE" sim --preset "$PRESET" --workload mix --cycles 50000 --backpressure random:0.8 --quiet \
    --vectors "$VEC" | tail -1
build "$OUT/obj_good" "gen/$PRESET/sources.f"
echo "==> $OUT/obj_good/V$TOP +vectors=$VEC (must pass)"
if ! "$OUT/obj_good/V$TOP" "+vectors=$VEC" >"$OUT/good.log" 2>&1; then
    cat "$OUT/good.log" >&2
    echo "error: the scoreboard failed the RTL of gen/$PRESET" >&2
    exit 1
fi
grep "^spe scoreboard:\|^spe replay:" "$OUT/good.log"
grep -q "^spe scoreboard: .* 0 mismatches" "$OUT/good.log" || {
    echo "error: no passing scoreboard summary in $OUT/good.log" >&2
    exit 1
}

# 3. A broken copy: bit 0 of the translation latency's payload flipped in the serializer.
mkdir -p "$OUT/broken/$PRESET"
cp gen/spe_rff.v "$OUT/broken/"
cp gen/$PRESET/*.v "$OUT/broken/$PRESET/"
ser=$OUT/broken/$PRESET/spe_serializer_$PRESET.v
sed -i 's/rec\[(136)+:(16)\] = xlat16;/rec[(136)+:(16)] = xlat16 ^ 16'"'"'h0001;/' "$ser"
if cmp -s "$ser" "gen/$PRESET/spe_serializer_$PRESET.v"; then
    echo "error: the break did not apply: the serializer's translation latency line changed" >&2
    exit 1
fi
sed "s|^gen/|$OUT/broken/|" "gen/$PRESET/sources.f" >"$OUT/broken/sources.f"
build "$OUT/obj_broken" "$OUT/broken/sources.f"
echo "==> $OUT/obj_broken/V$TOP +vectors=$VEC (must fail, naming the first record with a translation latency)"
if bash -c '"$0" "$1" >"$2" 2>&1' "$OUT/obj_broken/V$TOP" "+vectors=$VEC" "$OUT/broken.log" 2>/dev/null; then
    cat "$OUT/broken.log" >&2
    echo "error: the scoreboard passed the broken RTL" >&2
    exit 1
fi
said=$(grep -m1 "spe scoreboard: MISMATCH" "$OUT/broken.log" || true)
echo "$said"
got=$(echo "$said" | sed -n 's/.*: record \([0-9]*\) (thread.*beat 2: byte 17 .*/\1/p')

# The record that must be named, found without the RTL: the model's records of the same
# vectors (the C replay), the first whose bytes 16..18 are a translation latency packet.
step gcc -std=c11 -O2 -I tools/capi/include -o "$OUT/replay" tools/capi/examples/replay.c "$LIB" \
    -lpthread -ldl -lm
"$OUT/replay" -o "$OUT/model.bin" "$VEC" | tail -1
want=$(python3 -c '
import sys
b = open(sys.argv[1], "rb").read()
print(next(k for k in range(len(b) // 64) if b[64 * k + 16] == 0x9a))
' "$OUT/model.bin")
if [ -z "$got" ] || [ "$got" != "$want" ]; then
    echo "error: the scoreboard named record '${got:-none}', the first with a translation latency is $want" >&2
    exit 1
fi
# docs/integration.md shows both lines as this run printed them: a drift fails here.
for line in "$(grep -m1 '^spe scoreboard: .* 0 mismatches' "$OUT/good.log")" "$said"; do
    grep -qF -- "$line" docs/integration.md || {
        echo "error: docs/integration.md does not show this output of the example; update it to:" >&2
        echo "  $line" >&2
        exit 1
    }
done
echo
echo "sv-example: the scoreboard passes gen/$PRESET and names record $want (the first with a translation latency) on the broken copy"
