#!/usr/bin/env bash
# The demo SoC end to end: builds the program (scripts/soc-sw.sh), runs it on the Verilated
# SoC (`spe soc run`: PicoRV32 and the unit, the unit checked against the golden model every
# cycle, the UART dump decoded from the TX pin), then asks real Linux perf for the profile:
#   perf report -i soc.data --itrace=i1i --stdio --sort sym
# and checks every hot function's sample share (perf's column) against its exact share of
# the ops the unit counted into its sampling population (the ground truth `spe soc run`
# takes from the unit's dispatch port and PMU output, beside the RVFI retire count): within
# 3 sigma of the binomial bound sqrt(p(1-p)/n) for n samples. A function is hot when it holds
# at least SPE_SOC_HOT (default 0.02) of the population. The program runs its workloads
# SPE_SOC_ROUNDS times (default 6: about 1,300 samples). The run is deterministic (the
# unit's LFSR starts from reset), so a failure replays with the printed command.
# The program stops and restarts profiling once mid-run through the SoC's PSB register
# (Linux's stop and start); the dump must hold exactly the records the unit wrote.
# The three SoCs (PicoRV32, VexRiscv Lite with three broken adapters, VexRiscv Full with
# one) run at the same time, each part's output printed when it ends.
# Usage: scripts/soc-check.sh [SPE_BINARY]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$(repo_root)"
SPE=${1:-target/release/spe}
HOT=${SPE_SOC_HOT:-0.02}
ROUNDS=${SPE_SOC_ROUNDS:-6}
need linux-perf perf
need python3 python3
OUT=$(mktemp -d)
# The parts run in the background: an interrupted or failed run stops them before $OUT goes.
stop_parts() {
    local rc=$? pids
    pids=$(jobs -p)
    if [ -n "$pids" ]; then
        # Each part is a process group of its own (set -m below): its simulations go too.
        for p in $pids; do kill -- "-$p" 2>/dev/null || true; done
        wait 2>/dev/null || true
    fi
    rm -rf "$OUT" || true
    return "$rc"
}
trap stop_parts EXIT

protocol_clean() {
    local n
    n=$(grep -c "^SPE protocol: rule" "$1" || true)
    [ "$n" -eq 0 ] || { grep -m3 "^SPE protocol: rule" "$1" >&2; echo "error: the protocol checker found $n violation(s) of the hook rules" >&2; exit 1; }
    echo "protocol checker (bound to the unit): 0 violations"
}

# PicoRV32: the profile against the exact per-function shares, the PSBs, the dump.
pico_soc() {
# --check: on PicoRV32 nothing is flushed, so no record may lack RETIRED.
step "$SPE" soc run --elf "$OUT/fw/spe-demo.elf" --out "$OUT/soc.bin" --perf "$OUT/soc.data" --truth "$OUT/truth.tsv" --check --quiet 2>&1 | tee "$OUT/run.txt"
# The program stops and restarts profiling mid-run (a context switch: PSB, send, start
# mid-buffer) besides its final stop; `spe soc run` fails unless the dump holds exactly the
# records the unit wrote.
# The SystemVerilog protocol checker (hdl/sv/spe_protocol_checker.sv) is bound to the unit
# in the Verilated SoC: each violation prints "SPE protocol: rule <key>: ...".
protocol_clean "$OUT/run.txt"
psbs=$(sed -n 's/^sync: \([0-9]*\) PSBs completed.*/\1/p' "$OUT/run.txt")
[ "${psbs:-0}" -ge 4 ] || { echo "error: expected the stop/restart and the final stop to complete PSBs, got ${psbs:-none}" >&2; exit 1; }
# The buffer holds whole 64-byte records that perf and our decoder read alike.
step "$SPE" decode "$OUT/soc.bin" --quiet --check-slots
echo
echo "==> perf report -i soc.data --itrace=i1i --stdio --sort sym"
perf report -i "$OUT/soc.data" --itrace=i1i --stdio --sort sym >"$OUT/perf.txt" 2>"$OUT/perf.err" \
    || { cat "$OUT/perf.err"; echo "error: perf report failed" >&2; exit 1; }
python3 - "$OUT/truth.tsv" "$OUT/perf.txt" "$HOT" <<'EOF'
import math, re, sys
truth_path, perf_path, hot = sys.argv[1], sys.argv[2], float(sys.argv[3])
truth = {}
with open(truth_path) as f:
    next(f)
    for line in f:
        name, retired, pop, pop_share, samples, share, bound = line.rstrip("\n").split("\t")
        truth[name] = (int(retired), int(pop), float(pop_share), int(samples))
text = open(perf_path).read()
# "# Samples: 1K of event ..." is rounded; the event count (one per sample) is exact.
m = re.search(r"^# Event count \(approx\.\): (\d+)", text, re.M)
if not m:
    sys.exit("error: perf printed no event count")
n = int(m.group(1))
perf = {}
for line in text.splitlines():
    m = re.match(r"^\s+([0-9.]+)%\s+\[\.\]\s+(\S+)\s*$", line)
    if m:
        perf[m.group(2)] = float(m.group(1)) / 100.0
total_samples = sum(t[3] for t in truth.values())
print(f"perf: {n} samples; spe soc run: {total_samples} records with a named PC")
if n == 0 or n != total_samples:
    sys.exit(f"error: perf has {n} samples, the buffer {total_samples} records")
hot_funcs = [k for k, t in truth.items() if t[2] >= hot]
if len(hot_funcs) < 2:
    sys.exit(f"error: fewer than two hot functions (>= {hot:.0%} of the population): {hot_funcs}")
print(f"{'function':<20} {'retired':>9} {'population':>10} {'exact %':>8} {'perf %':>8} {'3σ %':>7} {'z':>6}")
bad = []
for k in sorted(hot_funcs, key=lambda k: -truth[k][2]):
    retired, pop, p, _ = truth[k]
    got = perf.get(k, 0.0)
    sigma = math.sqrt(p * (1 - p) / n)
    z = (got - p) / sigma
    ok = abs(got - p) <= 3 * sigma + 0.5 / n / 100  # perf prints 2 decimals of a percent
    print(f"{k:<20} {retired:>9} {pop:>10} {100*p:>8.2f} {100*got:>8.2f} {300*sigma:>7.2f} {z:>6.2f}{'' if ok else '  <-- outside 3 sigma'}")
    if not ok:
        bad.append(k)
others = sorted(set(perf) - set(truth))
if others:
    sys.exit(f"error: perf names symbols the ELF has no ground truth for: {others}")
if bad:
    sys.exit(f"error: {len(bad)} hot function(s) outside 3 sigma: {bad}")
print(f"all {len(hot_funcs)} hot functions within 3 sigma of their exact share")
EOF
}

# The same program (plus the branch workload) on the VexRiscv SoCs, 5-stage pipelines that
# dispatch wrong-path instructions and flush them, hooked by spe_vexriscv_hooks.v: exit
# code 0, its dump stream holding exactly what the unit wrote, the unit in lockstep with
# the golden model, no hook report the unit ignored, no protocol violation. Lite has no
# data cache; Full's throws a load that misses away in write-back and dispatches it again
# (its program adds `misses`, whose loads all miss), and takes data-access faults there.
vex_soc() {
    local core=$1 fw="$OUT/fw-$1" run="$OUT/run-$1.txt" dec="$OUT/decode-$1.txt"
    echo
    # --check: the share of records without RETIRED against the exact share of flushed
    # instructions among the dispatched ones, and each hot function's share of the retired
    # samples against its exact share of the retirements, each within 3 sigma; the exact
    # counts come from the core's own pipeline signals (core_disp_*, RVFI), not the hooks.
    step "$SPE" soc run --core "$core" --elf "$fw/spe-demo.elf" --out "$OUT/soc-$core.bin" \
        --perf "$OUT/soc-$core.data" --check --quiet 2>&1 | tee "$run"
    grep -q "exit code 0," "$run" || { echo "error: the $core SoC did not end with exit code 0" >&2; exit 1; }
    protocol_clean "$run"
    # Records of flushed samples and of retired ones, both, as our decoder reads them.
    step "$SPE" decode "$OUT/soc-$core.bin" --check-slots >"$dec"
    local with without exc redo events records
    with=$(grep -c "^#[0-9].*| EV [^|]*RETIRED" "$dec" || true)
    without=$(grep "^#[0-9]" "$dec" | grep -vc "| EV [^|]*RETIRED" || true)
    exc=$(grep -c "^#[0-9].*| EV [^|]*EXCEPTION-GEN" "$dec" || true)
    echo "spe decode: $with records with RETIRED, $without without (flushed samples and $exc exceptions: EXCEPTION-GEN)"
    [ "$with" -gt 0 ] && [ "$without" -gt 0 ] || { echo "error: expected records with and without RETIRED" >&2; exit 1; }
    # crt0_vexriscv.S's traps: sampled ECALLs and misaligned loads complete as exceptions.
    [ "$exc" -gt 0 ] || { echo "error: expected records of exceptions (EXCEPTION-GEN)" >&2; exit 1; }
    if [ "$core" = vexriscv-full ]; then
        # Loads flushed in `misses`: redone misses, the load behind each (flushed from M
        # when the one in WB is redone) and those behind the loop's exit. Their records
        # cannot tell which; the check is that sampled ops of this path are present.
        local lo size
        read -r lo size < <(riscv64-unknown-elf-nm -S "$fw/spe-demo.elf" | awk '$4 == "misses" { print $1, $2 }') \
            || { echo "error: no function misses in $fw/spe-demo.elf" >&2; exit 1; }
        local pc
        redo=0
        while read -r pc; do
            if ((pc >= 16#$lo && pc < 16#$lo + 16#$size)); then redo=$((redo + 1)); fi
        done < <(grep "^#[0-9].*| LD " "$dec" | grep -v "| EV [^|]*RETIRED" | grep -v "EXCEPTION-GEN" \
            | sed -n 's/.* PC \(0x[0-9a-f]*\) .*/\1/p')
        echo "spe decode: $redo flushed loads in misses (redone misses of the data cache and the loads flushed behind them)"
        [ "$redo" -gt 0 ] || { echo "error: expected records of loads the data cache threw away (redo)" >&2; exit 1; }
    fi
    # Real perf reads every record.
    perf report -i "$OUT/soc-$core.data" --itrace=i1i --stdio --sort sym >"$OUT/perf-$core.txt" 2>"$OUT/perf-$core.err" \
        || { cat "$OUT/perf-$core.err"; echo "error: perf report failed on the $core buffer" >&2; exit 1; }
    events=$(sed -n 's/^# Event count (approx\.): \([0-9]*\)/\1/p' "$OUT/perf-$core.txt")
    records=$(sed -n 's/^buffer: [0-9]* bytes, \([0-9]*\) records.*/\1/p' "$run")
    echo "perf report: $events samples; the buffer: $records records"
    [ -n "$events" ] && [ "$events" = "$records" ] || { echo "error: perf read ${events:-no} samples of $records records" >&2; exit 1; }
}

# Adapters broken on purpose (spe_vexriscv_hooks.v's fault input): each must be caught, by
# the check named here.
caught() {
    local core=$1 fault=$2 want=$3 log="$OUT/fault-$1-$2.txt"
    echo
    echo "==> $SPE soc run --core $core --hook-fault $fault --check (must fail: $want)"
    if "$SPE" soc run --core "$core" --elf "$OUT/fw-$core/spe-demo.elf" --out "$OUT/fault-$core.bin" \
        --check --quiet --hook-fault "$fault" >"$log" 2>&1; then
        cat "$log"; echo "error: the broken adapter ($fault) passed every check" >&2; exit 1
    fi
    grep -q -- "$want" "$log" || { cat "$log"; echo "error: $fault was not caught by '$want'" >&2; exit 1; }
    grep -m2 -- "$want" "$log"
}
vex_part() {
    vex_soc vexriscv
    caught vexriscv flush-as-retired "flushed-share.*outside 3 sigma"
    caught vexriscv dispatch-at-retire "flushed-share.*outside 3 sigma"
    caught vexriscv issue-at-dispatch "SPE protocol: rule window"
    grep -q "hook_stray" "$OUT/fault-vexriscv-issue-at-dispatch.txt" || { echo "error: the unit did not report the stray issue (hook_stray)" >&2; exit 1; }
}
# Full: the adapter's other data path (CACHED) and its write-back ends; the faults that do
# not depend on the core were caught above.
full_part() {
    vex_soc vexriscv-full
    caught vexriscv-full flush-as-retired "flushed-share.*outside 3 sigma"
}

# The three programs first, one after another (soc-sw.sh installs the RISC-V toolchain when
# missing, and two apt-get runs at once would fight over its lock).
ROUNDS=$ROUNDS step bash scripts/soc-sw.sh "$OUT/fw"
for core in vexriscv vexriscv-full; do
    ROUNDS=$ROUNDS step bash scripts/soc-sw.sh --core "$core" "$OUT/fw-$core"
done
# The three SoCs at a time (each simulation is one process on one core), each part's output
# kept in a log and printed, in this order, when it has ended.
declare -A pid=()
set -m
for part in picorv32:pico_soc vexriscv:vex_part vexriscv-full:full_part; do
    "${part#*:}" >"$OUT/part-${part%%:*}.txt" 2>&1 &
    pid[${part%%:*}]=$!
done
set +m
failed=()
for name in picorv32 vexriscv vexriscv-full; do
    rc=0
    wait "${pid[$name]}" || rc=$?
    echo
    echo "==> the $name SoC"
    cat "$OUT/part-$name.txt"
    [ "$rc" = 0 ] || failed+=("$name")
done
[ "${#failed[@]}" = 0 ] || { echo "error: the SoC check failed on ${failed[*]}" >&2; exit 1; }
echo "replay: SPE_SOC_ROUNDS=$ROUNDS SPE_SOC_HOT=$HOT bash scripts/soc-check.sh $SPE   (deterministic)"
