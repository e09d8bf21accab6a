#!/usr/bin/env bash
# The golden model as a C library (tools/capi: libspe_capi.a / .so, tools/capi/include/spe_model.h):
#   1. the header declares exactly the functions the library exports;
#   2. tools/capi/examples/replay.c builds against the header and the static library with
#      -Wall -Wextra -Werror;
#   3. it replays `spe sim --vectors` runs (two presets, two workloads) through the library
#      and writes the records the model wrote: they must be byte for byte what `spe sim`
#      drained from the buffer (--out);
#   4. tools/capi/examples/replay.py does the same through ctypes.
# Usage: scripts/capi-check.sh [SPE]   (default: target/release/spe)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$(repo_root)"
need gcc gcc
need binutils nm

SPE=${1:-target/release/spe}
OUT=target/capi
mkdir -p "$OUT"
[ -x "$SPE" ] || step cargo build --release --quiet --bin spe
step cargo build --release --quiet -p spe-capi
LIB=target/release

# 1. Header against library: the spe_model_* and spe_scoreboard_* functions on both sides.
declared=$(sed -n 's/^[a-zA-Z0-9_ *]*[ *]\(spe_\(model\|scoreboard\)_[a-z_]*\)(.*/\1/p' tools/capi/include/spe_model.h | sort)
exported=$(nm -D --defined-only "$LIB/libspe_capi.so" | awk '$3 ~ /^spe_(model|scoreboard)_/ {print $3}' | sort)
if [ "$declared" != "$exported" ]; then
    echo "error: spe_model.h and libspe_capi.so disagree:" >&2
    diff <(echo "$declared") <(echo "$exported") >&2 || true
    exit 1
fi
echo "header: $(echo "$declared" | wc -l) functions, all exported"

# 2. The example, warnings as errors.
step gcc -std=c11 -Wall -Wextra -Werror -O2 -I tools/capi/include -o "$OUT/replay" \
    tools/capi/examples/replay.c "$LIB/libspe_capi.a" -lpthread -ldl -lm

# 3. Replays.
for run in "default mix" "fastsim memory"; do
    set -- $run
    echo
    echo "==> $SPE sim --preset $1 --workload $2 --cycles 100000 --vectors $OUT/$1.vec --out $OUT/$1.bin"
    "$SPE" sim --preset "$1" --workload "$2" --cycles 100000 --quiet \
        --vectors "$OUT/$1.vec" --out "$OUT/$1.bin" | tail -1
    "$OUT/replay" -o "$OUT/$1.c.bin" "$OUT/$1.vec" | tail -1
    if ! cmp "$OUT/$1.bin" "$OUT/$1.c.bin"; then
        echo "error: the C library's records differ from spe sim's buffer ($1, $2)" >&2
        exit 1
    fi
    rm -f "$OUT/$1.vec"
done
# 4. The same library from Python through ctypes (what a cocotb bench does), on a shorter
#    run (about 6k cycles/s: one call per port lane and cycle).
need python3 python3
echo
echo "==> tools/capi/examples/replay.py $LIB/libspe_capi.so (ctypes)"
"$SPE" sim --preset default --workload branchy --cycles 20000 --quiet \
    --vectors "$OUT/py.vec" --out "$OUT/py.bin" | tail -1
python3 tools/capi/examples/replay.py "$LIB/libspe_capi.so" "$OUT/py.vec" "$OUT/py.c.bin"
if ! cmp "$OUT/py.bin" "$OUT/py.c.bin"; then
    echo "error: the library through ctypes gives other records than spe sim's buffer" >&2
    exit 1
fi
rm -f "$OUT/py.vec"
echo
echo "capi-check: the C library replays spe sim's runs to the same records, from C and Python"
