#!/usr/bin/env bash
# The FPGA prototype's bitstreams with the demo program in the RAM: PicoRV32 on the two iCE40
# boards (iCEBreaker, HX8K breakout), VexRiscv Lite on the HX8K and VexRiscv Full (its data
# cache) on the ULX3S's ECP5 (nextpnr-ecp5 and ecppack from PyPI, installed into .deps/ on
# first use; so is the UP5K's nextpnr-ice40 0.11, whose router2 routes the nearly full UP5K). Each must meet its
# system clock and leave its bitstream; the pin files in constraints/ must be current.
# Yosys and nextpnr each use one core, so the builds run SPE_FPGA_JOBS at a time (default:
# the number of cores), the longest first; each build's output goes to OUTDIR/fpga-<name>.txt
# and is printed when it ends. Prints each build's wall time.
# Usage: scripts/fpga-check.sh SPE OUTDIR
set -euo pipefail
source "$(dirname "$0")/lib.sh"
[ $# -eq 2 ] || { echo "usage: $0 SPE OUTDIR" >&2; exit 2; }
SPE=$1
mkdir -p "$2"
OUT=$(cd "$2" && pwd)
cd "$(repo_root)"
jobs=${SPE_FPGA_JOBS:-$(nproc)}
case "$jobs" in
    '' | *[!0-9]* | 0) echo "error: SPE_FPGA_JOBS must be a positive number, not '$jobs'" >&2; exit 2 ;;
esac

step bash scripts/soc-sw.sh "$OUT/sw"
step bash scripts/soc-sw.sh --core vexriscv "$OUT/sw-vexriscv"
step bash scripts/soc-sw.sh --core vexriscv-full "$OUT/sw-vexriscv-full"
step "$SPE" fpga constraints --check constraints

# board:core, the longest build first (the UP5K is nearly full: its nextpnr runs longest).
builds=(icebreaker:picorv32 hx8k:picorv32 ulx3s:vexriscv-full hx8k:vexriscv)

# One build: the command's output into its log, then the checks; exit status 0 when met.
build_one() {
    local board=$1 core=$2 name=$3 elf=$4 ext=$5 log=$6
    local t0=$SECONDS
    echo "==> $SPE fpga build --board $board --core $core --elf $elf --out $OUT/fpga-$name" >"$log"
    if ! "$SPE" fpga build --board "$board" --core "$core" --elf "$elf" --out "$OUT/fpga-$name" >>"$log" 2>&1; then
        echo "error: the $name build failed" >>"$log"
        return 1
    fi
    grep -q '^Fmax [0-9.]* MHz (system clock [0-9.]* MHz, met)' "$log" || { echo "error: $name missed its clock" >>"$log"; return 1; }
    test -s "$OUT/fpga-$name/$name.$ext" || { echo "error: no $name.$ext" >>"$log"; return 1; }
    echo "<== $((SECONDS - t0)) s: $name" >>"$log"
}

echo
echo "==> ${#builds[@]} bitstreams, $jobs at a time"
declare -A pid_name=()
failed=()
finish_one() {
    # Waits for any running build, prints its log, records a failure.
    local pid rc=0
    wait -n -p pid || rc=$?
    local name=${pid_name[$pid]}
    unset "pid_name[$pid]"
    echo
    cat "$OUT/fpga-$name.txt"
    [ "$rc" = 0 ] || failed+=("$name")
}
t_all=$SECONDS
for b in "${builds[@]}"; do
    board=${b%:*} core=${b#*:}
    name=$board elf="$OUT/sw/spe-demo.elf" ext=bin
    if [ "$core" != picorv32 ]; then name=$board-$core elf="$OUT/sw-$core/spe-demo.elf"; fi
    if [ "$board" = ulx3s ]; then ext=bit; fi
    while [ "${#pid_name[@]}" -ge "$jobs" ]; do finish_one; done
    build_one "$board" "$core" "$name" "$elf" "$ext" "$OUT/fpga-$name.txt" &
    pid_name[$!]=$name
done
while [ "${#pid_name[@]}" -gt 0 ]; do finish_one; done
echo
if [ "${#failed[@]}" -gt 0 ]; then
    echo "error: ${#failed[@]} bitstream(s) failed: ${failed[*]}" >&2
    exit 1
fi
echo "all ${#builds[@]} bitstreams meet their clocks ($((SECONDS - t_all)) s, $jobs at a time)"
