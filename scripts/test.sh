#!/usr/bin/env bash
# The whole test suite (CI runs it through .ci/run). Installs what it needs on a fresh
# machine, runs the quick gate first (scripts/check.sh: formatting, clippy, every workspace
# test, the gen/ drift check, rtl-check of the default preset, a 1e7-cycle lockstep
# regression over every preset, spe mutate's fixed sample), then only what the gate does
# not run:
# the RTL tool checks of the other presets (Verilator lint, iverilog, Yosys), the
# SystemVerilog protocol checker on the stimulus core and on broken stimuli
# (scripts/protocol-check.sh), the timing diagrams' drift (scripts/diagrams.sh --check),
# the golden model as a C library (scripts/capi-check.sh), the record-level scoreboard in a
# SystemVerilog bench and a cocotb test (scripts/sv-example.sh, scripts/cocotb-check.sh),
# the integrator's bring-up bench under Icarus and Verilator (examples/bringup/run.sh),
# the formal proofs of the default preset and their mutants (scripts/formal.sh),
# the timing guard (spe synth --guard: default on the HX8K, Yosys and
# nextpnr-ice40, held to the floors of scripts/synth-floors.txt), the FPGA prototype's
# bitstreams for the iCEBreaker and the HX8K breakout
# with PicoRV32, for the HX8K with VexRiscv Lite and for the ULX3S (ECP5) with VexRiscv Full
# (spe fpga build: each meets its clock),
# the end-to-end runs (model simulation -> buffer -> decoder; Verilated RTL and model give
# byte-identical buffers), real perf on the perf.data files `spe` writes
# (scripts/perf-check.sh), the demo SoC (scripts/soc-check.sh: a C program on PicoRV32 and
# on VexRiscv Lite and Full with the unit under Verilator, the unit in lockstep with the golden model, the
# protocol checker bound, perf's per-function profile against the exact retire counts, the
# flushed samples against the core's flush count, the data cache's redone loads, broken hook
# adapters caught), the random lockstep regression (SPE_REGRESS_CYCLES
# cycles, 1e8 by default, master seed 1: other seeds than the gate's; half the jobs stop and
# restart profiling at random moments) and the mutant checks (the regression must catch
# each deliberately broken RTL).
# After the gate, the checks that use one core each run in a second lane (lane B, in the
# background) beside the ones that use every core; a failure in either fails the suite.
# Each step prints the command that reproduces it and its wall time; at the end (or when a
# step fails) a table of every step's time, slowest first, and the total.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$(repo_root)"
SPE_STEP_TIMES=$(mktemp)
export SPE_STEP_TIMES
suite_start=$SECONDS
LANE_B=
report_times() {
    local rc=$?
    if [ -n "$LANE_B" ]; then
        # The foreground lane failed or was interrupted before lane B was waited for: stop
        # lane B's process group, and let its processes go before $OUT is removed.
        local how="was stopped"
        if kill -0 "$LANE_B" 2>/dev/null; then
            kill -- "-$LANE_B" 2>/dev/null || true
            for _ in $(seq 50); do
                kill -0 -- "-$LANE_B" 2>/dev/null || break
                sleep 0.1
            done
        else
            how="had ended"
        fi
        wait "$LANE_B" 2>/dev/null || true
        echo
        echo "==> lane B $how; its output (last 40 lines):"
        tail -n 40 "$OUT/lane-b.log" || true
    fi
    step_times "$SPE_STEP_TIMES" $((SECONDS - suite_start))
    rm -f "$SPE_STEP_TIMES"
    [ -n "${OUT:-}" ] && rm -rf "$OUT"
    return "$rc"
}
trap report_times EXIT

# Debian tools the suite uses, installed with apt-get when missing.
command -v cargo >/dev/null || { echo "error: cargo (Rust toolchain) is required" >&2; exit 1; }
need verilator verilator
need iverilog iverilog
need yosys yosys
need linux-perf perf
need python3 python3
need nextpnr-ice40 nextpnr-ice40
need fpga-icestorm icepack

# The quick gate: fmt, clippy, workspace tests, release build of spe, gen --check,
# rtl-check of the default preset, a short regression over every preset.
step bash scripts/check.sh

SPE=target/release/spe
OUT=$(mktemp -d)
# After the gate the checks run in two lanes at once on the machine's cores. Lane B (in the
# background) holds the checks that use one core each; the foreground lane the ones that
# use every core (bitstreams two at a time, proofs, the SoCs, the regression, the mutants).
# Lane B's output is printed when it ends; a failure in either lane fails the suite. Only
# the foreground lane may install Debian packages (soc-check's RISC-V compiler): apt-get
# takes a lock, so lane B's tools are installed above and here, before the lanes start.
need gcc gcc
need g++ g++
need make make
need binutils nm
lane_b() {
    export SPE_STEP_LANE=B
    # The RTL tool checks of every other preset (the gate checked `default`).
    others=()
    for f in gen/*/spe_top_*.v; do
        p=$(basename "$(dirname "$f")")
        [ "$p" != default ] && others+=("$p")
    done
    step scripts/rtl-check.sh gen "${others[@]}"
    # FuseSoC (PyPI, pinned): gen/spe.core's lint target of one preset.
    step scripts/fusesoc-check.sh default
    # The SV protocol checker: passes the stimulus core's runs, names each broken rule.
    step scripts/protocol-check.sh default "$SPE"
    # The golden model as a C library: header = exports, a C program replays runs to the
    # same records as spe sim.
    step scripts/capi-check.sh "$SPE"
    # The record-level scoreboard in SystemVerilog (DPI-C) and in cocotb (ctypes): each passes
    # spe_top_default on a replayed trace and fails a broken copy of it, naming the record.
    step scripts/sv-example.sh "$SPE"
    # The integrator's first bench (examples/bringup): a hand-written Verilog bench built from a
    # folder outside the repository with a copy of gen/ and its file lists, under Icarus and
    # Verilator; both buffers identical, and they decode to the records the bench counted.
    step bash examples/bringup/run.sh "$SPE"
    step scripts/cocotb-check.sh "$SPE"
    # The timing diagrams of docs/timing: JSON and SVG as a fresh generation renders them.
    SPE="$SPE" step scripts/diagrams.sh --check
    # The timing guard: each of these presets' Fmax within 5 % of its floor and its LUT4
    # within 5 % above it (scripts/synth-floors.txt: the best of nextpnr seeds 1-3 at
    # 100 MHz on the HX8K; about a minute alone). A failure names the preset and its new
    # critical path. The other presets (v1p4's options, smt2's arbiter) are left to
    # `spe synth --guard scripts/synth-floors.txt` by hand: with default and v1p4 this step
    # took 291 s beside lane A and CI 24.9 minutes.
    step "$SPE" synth --guard scripts/synth-floors.txt --only default --out "$OUT/synth"
    step "$SPE" sim --workload loop --cycles 2000000 --interval 1024 --jitter --out "$OUT/loop.bin" --summary-json "$OUT/loop.json"
    step "$SPE" decode "$OUT/loop.bin" --quiet --check-slots --expect-records "$(sed -n 's/.*"records_written": *\([0-9]*\).*/\1/p' "$OUT/loop.json")"
    step "$SPE" sim --workload mix --cycles 1000000 --ts --cx --pa --preset wide --out "$OUT/mix.bin" --summary-json "$OUT/mix.json"
    step "$SPE" decode "$OUT/mix.bin" --quiet --check-slots --expect-records "$(sed -n 's/.*"records_written": *\([0-9]*\).*/\1/p' "$OUT/mix.json")"
    # The Verilated RTL and the golden model produce byte-identical buffers.
    step "$SPE" sim --backend verilator --workload mix --cycles 5000000 --quiet --out "$OUT/v.bin"
    step "$SPE" sim --backend model --workload mix --cycles 5000000 --quiet --out "$OUT/m.bin"
    step cmp "$OUT/v.bin" "$OUT/m.bin"
    # The record-level scoreboard on the RTL: records and register reads under back-pressure
    # and write faults, one and two threads (verif/scoreboard; its tests break a model copy).
    for p in default smt2; do
        step "$SPE" sim --backend lockstep --compare records --preset "$p" --workload mix --cycles 2000000 \
            --backpressure random:0.7 --mem-errors random:0.0002 --quiet
    done
    # Real Linux perf reads the buffers (perf.data from `spe sim --perf`) and agrees with spe decode.
    step scripts/perf-check.sh "$SPE"
}
set -m
lane_b </dev/null >"$OUT/lane-b.log" 2>&1 &
LANE_B=$!
set +m
echo
echo "==> lane B started in the background (pid $LANE_B): RTL tool checks of the other presets, FuseSoC,"
echo "    protocol checker, C API, SV and cocotb scoreboards, bring-up bench, diagrams, synth, end-to-end"
echo "    runs, perf; its output follows when it ends"
# Bitstreams of the FPGA prototype with the demo program in the RAM: PicoRV32 on both iCE40
# boards, VexRiscv Lite on the HX8K and Full on the ULX3S's ECP5, two at a time (about 5 minutes); each
# must meet its system clock. The pin files in constraints/ must be current.
step scripts/fpga-check.sh "$SPE" "$OUT/fpga"
# Formal proofs of the safety properties on the default preset (SymbiYosys, k-induction),
# and every mutant caught with a counterexample (about 2 minutes on 2 cores; SPE_FORMAL_ALL=1 adds
# the other presets).
step scripts/formal.sh "$SPE"
# The demo SoC: PicoRV32 runs C workloads profiled by the unit; perf's profile matches the
# exact per-function shares within 3 sigma (installs the RISC-V toolchain when missing).
step scripts/soc-check.sh "$SPE"
# The random lockstep regression on every preset (SPE_REGRESS_CYCLES scales it). With CI's
# jobs (SPE_REGRESS_CYCLES unset) it also counts the functional cover points: each hole must
# be one scripts/functional-holes.txt lists, and each listed one still a hole, so a stimulus
# change that loses a point fails here (docs/coverage.md).
if [ -z "${SPE_REGRESS_CYCLES:-}" ]; then
    step "$SPE" regress --vcd-dir "$OUT/regress" --known-holes scripts/functional-holes.txt
else
    step "$SPE" regress --vcd-dir "$OUT/regress"
fi
# spe mutate's fixed sample of default is the quick gate's last step (scripts/check.sh).
# The regression must catch each deliberate RTL bug, with a first-divergence report: the
# mutants of hdl/defs/src/mutants.rs that carry regression cycles (filter-latency: the
# latency filter's >= made >; psb-early: the PSB completes while a record is still being
# written; ernd-no-delay: v1p2x's FEAT_SPE_ERnd samples the op that expires COUNT instead of
# delaying it by the random ECOUNT; pbt-not-taken: v1p2x gives a branch not taken the
# previous-branch target too), as `spe regress --mutant list` prints them.
listed=$("$SPE" regress --mutant list)
mapfile -t regress_mutants <<<"$listed"
[ -n "$listed" ] || { echo "error: spe regress lists no mutants" >&2; exit 1; }
for m in "${regress_mutants[@]}"; do
    read -r name _ cycles <<<"$m"
    echo
    echo "==> $SPE regress --mutant $name --cycles $cycles (must fail)"
    t0=$SECONDS
    if "$SPE" regress --mutant "$name" --cycles "$cycles" --quiet --vcd-dir "$OUT/mutant-$name" >"$OUT/mutant.log" 2>&1; then
        cat "$OUT/mutant.log"
        echo "error: the regression did not catch the $name mutant" >&2
        exit 1
    fi
    grep -E "MISMATCH|replay:|VCD window" "$OUT/mutant.log" || true
    grep -q "MISMATCH in job" "$OUT/mutant.log" || { cat "$OUT/mutant.log"; echo "error: the $name mutant failed without a divergence report" >&2; exit 1; }
    printf '%s\t%s\n' $((SECONDS - t0)) "$SPE regress --mutant $name --cycles $cycles (must fail)" >>"$SPE_STEP_TIMES"
done
lane_b_rc=0
wait "$LANE_B" || lane_b_rc=$?
LANE_B=
echo
echo "==> lane B's output"
cat "$OUT/lane-b.log"
[ "$lane_b_rc" = 0 ] || { echo "error: a step of lane B failed (exit status $lane_b_rc; its output is above)" >&2; exit 1; }
echo
echo "all checks passed"
