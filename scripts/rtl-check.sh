#!/usr/bin/env bash
# Tool checks of the generated Verilog, for every preset in gen/ (or the presets named):
#   verilator --lint-only -Wall   (no waivers: rust-hdl output is post-processed to be clean;
#                                  the list relative to itself, -F files.f)
#   iverilog -g2005               (compiles; in the repository's gen/, from the list relative
#                                  to the repository root, -c sources.f)
#   yosys synth + check -assert   (synthesizable, no latches, no driver conflicts)
#   verilator --lint-only -Wall   of the SystemVerilog wrapper spe_<preset>_sv and its package
# Usage: scripts/rtl-check.sh [GEN_DIR] [PRESET...]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$(repo_root)"
need verilator verilator
need iverilog iverilog
need yosys yosys

GEN=${1:-gen}
shift || true
if [ $# -gt 0 ]; then presets=("$@"); else
    presets=()
    # Every preset folder (gen/soc/ is the demo SoC, not a preset: PicoRV32's own Verilog
    # does not pass -Wall; the Verilator build and `spe fpga build` compile it).
    for f in "$GEN"/*/files.f; do
        p=$(basename "$(dirname "$f")")
        [ -f "$GEN/$p/spe_top_$p.v" ] && presets+=("$p")
    done
fi
[ ${#presets[@]} -gt 0 ] || { echo "error: no presets under $GEN (run spe gen first)" >&2; exit 1; }

LOG=$(mktemp -d)
trap 'rm -rf "$LOG"' EXIT
for p in "${presets[@]}"; do
    list="$GEN/$p/files.f"
    top="spe_top_$p"
    echo
    echo "==> preset $p ($top)"
    step verilator --lint-only -Wall -F "$list" --top-module "$top"
    # The SystemVerilog wrapper over the same files.
    step verilator --lint-only -Wall -F "$list" "$GEN/$p/spe_${p}_pkg.sv" "$GEN/$p/spe_${p}_sv.sv" \
        --top-module "spe_${p}_sv"
    if [ "$GEN" = gen ]; then
        # The repository's gen/: iverilog and Yosys take the list relative to the
        # repository root, as an integrator uses it from there.
        files=$(tr '\n' ' ' < "gen/$p/sources.f")
        step iverilog -g2005 -s "$top" -o "$LOG/$p.vvp" -c "gen/$p/sources.f"
    else
        # Source files in order, resolved relative to the list file.
        files=$(grep -v '^//' "$list" | sed "s|^|$GEN/$p/|" | tr '\n' ' ')
        # shellcheck disable=SC2086
        step iverilog -g2005 -s "$top" -o "$LOG/$p.vvp" $files
    fi
    echo "==> yosys -p 'read_verilog <files>; synth -top $top; check -assert' (log: latches counted)"
    yosys -q -l "$LOG/$p.yosys" -p "read_verilog $files; synth -top $top; check -assert; flatten; stat" >/dev/null
    if grep -q "Latch inferred" "$LOG/$p.yosys"; then
        grep "Latch inferred" "$LOG/$p.yosys" >&2
        echo "error: $top infers latches" >&2
        exit 1
    fi
    # Totals from the last `stat` (of the flattened design; synth prints one of its own first).
    total=$(tac "$LOG/$p.yosys" | sed -n "1,/=== $top ===/p")
    cells=$(echo "$total" | grep -E "^ +Number of cells:" | tail -1 | awk '{print $4}')
    ffs=$(echo "$total" | grep -E '\$_S?DFF' | awk '{s+=$2} END {print s+0}')
    echo "    $top: lint clean, compiles, synthesizes: $cells generic cells, $ffs flip-flops, 0 latches"
done
echo
echo "rtl checks passed for: ${presets[*]}"
