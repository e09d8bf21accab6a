#!/usr/bin/env bash
# The integrator's first bench (examples/bringup/spe_bringup_tb.v), built as an integrator
# builds it: from a folder outside the repository, with a copy of gen/ and only the file
# lists gen/ ships:
#   - Icarus Verilog: `iverilog -c $SPE_GEN/minimal/env.f` (the list through $SPE_GEN);
#   - Yosys (elaboration only): the paths of env.f, substituted by the shell;
#   - Verilator 5: `verilator -F $SPE_GEN/minimal/verilator.f` (relative to itself: it
#     gives `--timescale 1ns/1ps`, since the bench declares a `timescale and the generated
#     files do not, which Verilator otherwise refuses, TIMESCALEMOD, and `-F files.f`).
# Each simulator writes the buffer; the two must be byte-identical, and `spe decode
# --expect-records N` must find exactly the N records the bench counted (one per tag).
# Usage: examples/bringup/run.sh [SPE]   (default: target/release/spe)
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
source "$REPO/scripts/lib.sh"
need iverilog iverilog
need verilator verilator
need yosys yosys
SPE=$(realpath "${1:-$REPO/target/release/spe}")
[ -x "$SPE" ] || { echo "error: $SPE is not built (cargo build --release --bin spe)" >&2; exit 1; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/spe-bringup.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
# An integrator's tree: a vendored copy of gen/ and their own bench, nothing else.
cp -r "$REPO/gen" "$WORK/spe-gen"
cp "$REPO/examples/bringup/spe_bringup_tb.v" "$WORK/"
cd "$WORK"
export SPE_GEN=$WORK/spe-gen

step iverilog -g2012 -o tb.vvp -c "$SPE_GEN/minimal/env.f" spe_bringup_tb.v
step vvp -n tb.vvp +buffer=icarus.bin | tee icarus.log
grep -q '^PASS' icarus.log || { echo "error: the bench failed under Icarus" >&2; exit 1; }

step verilator --binary --timing -j 2 \
    -F "$SPE_GEN/minimal/verilator.f" spe_bringup_tb.v --top-module spe_bringup_tb -Mdir obj \
    > verilator-build.log 2>&1 || { cat verilator-build.log >&2; exit 1; }
step ./obj/Vspe_bringup_tb +buffer=verilator.bin | tee verilator.log
grep -q '^PASS' verilator.log || { echo "error: the bench failed under Verilator" >&2; exit 1; }

# Why verilator.f has --timescale: without it Verilator refuses the mix (checked through
# env.f, the list without the option). If this stops failing, gen/ declares a timescale and
# docs/integration.md's Bring-up section must say so.
echo
echo "==> verilator --lint-only -f \$SPE_GEN/minimal/env.f spe_bringup_tb.v (must fail: TIMESCALEMOD)"
if verilator --lint-only -f "$SPE_GEN/minimal/env.f" spe_bringup_tb.v --top-module spe_bringup_tb \
    > lint.log 2>&1 || ! grep -q TIMESCALEMOD lint.log; then
    cat lint.log >&2
    echo "error: Verilator did not refuse the bench's timescale beside gen/'s files" >&2
    exit 1
fi
grep -m1 TIMESCALEMOD lint.log

# Yosys reads no list file without Verific: the list's paths, substituted by the shell.
step yosys -q -p "read_verilog $(sed -e '/^\/\//d' -e "s|\${SPE_GEN}|$SPE_GEN|" "$SPE_GEN/minimal/env.f" | tr '\n' ' '); hierarchy -check -top spe_top_minimal"

step cmp icarus.bin verilator.bin
records=$(sed -n 's/^PASS: \([0-9]*\) records/\1/p' icarus.log)
step "$SPE" decode icarus.bin --quiet --check-slots --expect-records "$records"
echo
echo "bring-up bench: $records records, identical under Icarus and Verilator, decoded (from $WORK)"
