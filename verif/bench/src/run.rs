//! The runner: wires the core model, the software driver and the memory around any
//! [`Dut`], one `step` per clock cycle, and reports what happened.
//!
//! Sequence: reset for [`RESET_CYCLES`]; `cycles` cycles of the workload while the driver
//! programs the unit, services its interrupts and, with `switch_every`, stops and restarts
//! profiling at random moments (context switches); then the driver's final stop (PSB, the
//! last output collected). Nothing here reads the unit's state; the core model's own
//! tracked op holds back the PSB request (a core raises `psb_req` after the completion
//! reports of the ops older than the PSB). Each cycle: core, driver and memory
//! fill the inputs, the DUT steps, then each observes the outputs.

use crate::driver::{AuxRecord, Driver, MgmtEvent, SampleSettings};
use crate::memory::{Memory, MemoryProfile, Violation};
use spe_defs::config::{Config, MAX_THREADS};
use spe_defs::regs::pmbsr;
use spe_ports::{Dut, Inputs, Outputs};
use spe_stim::core::Core;
use spe_stim::core_params::CoreParams;
use spe_stim::rng::Rng;
use spe_stim::workload::Workload;
use std::collections::BTreeMap;
use std::fmt;
use std::fmt::Write as _;

/// Cycles of reset before the run.
pub const RESET_CYCLES: u64 = 4;
/// Cycles between progress calls.
pub const PROGRESS_EVERY: u64 = 1 << 20;
/// Longest final stop (cycles) before giving up on the PSB completing.
pub const DRAIN_LIMIT: u64 = 1 << 22;

/// Declares [`Stats`] from the one list of its counters (each a `u64` with its
/// documentation) and [`Stats::counters`], which gives every counter by name (the JSON
/// summary's fields); a test checks that the text form shows every counter.
macro_rules! stats {
    ($($(#[$m:meta])* $name:ident,)*) => {
        /// What a run did.
        #[derive(Clone, Debug, Default, PartialEq, Eq)]
        pub struct Stats {
            $($(#[$m])* pub $name: u64,)*
            /// The final stop gave up waiting for the PSB to complete.
            pub drain_timed_out: bool,
            /// Per PC: ops in the population (ground truth).
            pub ground_truth: BTreeMap<u64, u64>,
            /// Per PC: ops tagged.
            pub samples_per_pc: BTreeMap<u64, u64>,
        }

        impl Stats {
            /// Every counter as (name, value), in the order declared.
            pub fn counters(&self) -> Vec<(&'static str, u64)> {
                vec![$((stringify!($name), self.$name)),*]
            }

            /// Every counter as (name, place), in the order declared.
            pub fn counters_mut(&mut self) -> Vec<(&'static str, &mut u64)> {
                vec![$((stringify!($name), &mut self.$name)),*]
            }
        }
    };
}

stats! {
    /// Clock cycles stepped (reset and drain included).
    cycles,
    /// Ops dispatched.
    ops_dispatched,
    /// Ops in the sample population (sum of SAMPLE_POP).
    population,
    /// Ops tagged.
    samples,
    /// SAMPLE_COLLISION pulses.
    collisions,
    /// SAMPLE_FEED pulses.
    sample_feed,
    /// SAMPLE_FILTRATE pulses.
    sample_filtrate,
    /// Samples that reached the filters and were dropped (feed - filtrate).
    filter_drops,
    /// Records drained (bytes / 64).
    records_written,
    /// Record bytes the driver drained.
    bytes_drained,
    /// Interrupts serviced with PMBSR.S set.
    management_events,
    /// `hook_stray` pulses.
    stray_reports,
    /// `sample_timeout` pulses: samples dropped because their completion never came.
    timeouts,
    /// Stray reports the core injected on purpose.
    stray_injected,
    /// Memory write-protocol violations.
    protocol_violations,
    /// Tag or population outputs that broke the dispatch contract.
    tag_anomalies,
    /// Write beats the memory accepted.
    beats_accepted,
    /// Write errors the memory injected.
    write_errors_injected,
    /// Wrong-path ops dispatched.
    wrong_path_ops,
    /// Mispredicted branches.
    mispredicts,
    /// Exceptions.
    exceptions,
    /// Context switches (stop, later start) the driver made.
    context_switches,
    /// Sampled ops a PSB met younger than it, whose samples it dropped
    /// (`CoreParams::psb_young_rate`).
    psb_young_drops,
    /// SPEv1p2's PMU event pulses (a unit built with `Options::feed_events`):
    /// SAMPLE_FEED_BR, _LD, _ST, _OP, _EVENT, _LAT and SAMPLE_BUFFER_FULL.
    feed_br,
    feed_ld,
    feed_st,
    feed_op,
    feed_event,
    feed_lat,
    /// SAMPLE_FEED_FP and _SIMD (`Options::eft` with `Options::feed_events`).
    feed_fp,
    feed_simd,
    /// SAMPLE_FEED_DS (`Options::fds` with `Options::feed_events`).
    feed_ds,
    buffer_full_events,
    /// Cycles with `pmu_freeze` high (PMBLIMITR.PMFZ, `Options::pmfz`).
    freeze_cycles,
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} cycles: {} ops dispatched ({} wrong path, {} mispredicts, {} exceptions), {} in the population",
            self.cycles, self.ops_dispatched, self.wrong_path_ops, self.mispredicts, self.exceptions, self.population
        )?;
        writeln!(
            f,
            "samples {} (collisions {}), feed {}, filtrate {} (filtered out {}), records {} ({} bytes, {} beats), management events {}, context switches {}{}",
            self.samples, self.collisions, self.sample_feed, self.sample_filtrate, self.filter_drops, self.records_written, self.bytes_drained, self.beats_accepted, self.management_events, self.context_switches,
            // Only with CoreParams::psb_young_rate: other runs print as before.
            if self.psb_young_drops > 0 {
                format!(" ({} samples younger than their PSB dropped)", self.psb_young_drops)
            } else {
                String::new()
            }
        )?;
        write!(
            f,
            "stray hook reports {} ({} injected), completion timeouts {}, memory protocol violations {}, tag anomalies {}, write errors injected {}{}",
            self.stray_reports,
            self.stray_injected,
            self.timeouts,
            self.protocol_violations,
            self.tag_anomalies,
            self.write_errors_injected,
            if self.drain_timed_out { ", DRAIN TIMED OUT" } else { "" }
        )?;
        let v1p2 = [
            self.feed_br,
            self.feed_ld,
            self.feed_st,
            self.feed_op,
            self.feed_event,
            self.feed_lat,
            self.buffer_full_events,
            self.freeze_cycles,
            self.feed_fp,
            self.feed_simd,
            self.feed_ds,
        ];
        if v1p2.iter().any(|&n| n > 0) {
            write!(
                f,
                "\nSPEv1p2 PMU events: SAMPLE_FEED_BR {}, _LD {}, _ST {}, _OP {}, _EVENT {}, _LAT {}, SAMPLE_BUFFER_FULL {}; pmu_freeze high {} cycles",
                v1p2[0], v1p2[1], v1p2[2], v1p2[3], v1p2[4], v1p2[5], v1p2[6], v1p2[7]
            )?;
            if v1p2[8] + v1p2[9] > 0 {
                write!(f, "; SAMPLE_FEED_FP {}, _SIMD {}", v1p2[8], v1p2[9])?;
            }
            if v1p2[10] > 0 {
                write!(f, "; SAMPLE_FEED_DS {}", v1p2[10])?;
            }
        }
        Ok(())
    }
}

impl Stats {
    /// The summary as JSON (`spe sim --summary-json`): every counter, the drain flag and
    /// the run's seed.
    pub fn json(&self, seed: u64) -> String {
        let mut fields = self.counters();
        fields.push(("drain_timed_out", u64::from(self.drain_timed_out)));
        fields.push(("seed", seed));
        let body: Vec<String> = fields
            .iter()
            .map(|(k, v)| format!("  \"{k}\": {v}"))
            .collect();
        format!("{{\n{}\n}}\n", body.join(",\n"))
    }

    /// The `n` PCs with the most population ops, each with its share of the population
    /// (the ground truth) and its share of the samples (`spe sim --per-pc`).
    pub fn per_pc_table(&self, n: usize) -> String {
        let pop: u64 = self.ground_truth.values().sum();
        let samples: u64 = self.samples_per_pc.values().sum();
        let mut hot: Vec<_> = self.ground_truth.iter().collect();
        hot.sort_by(|x, y| y.1.cmp(x.1).then(x.0.cmp(y.0)));
        let share = |x: u64, of: u64| 100.0 * x as f64 / of.max(1) as f64;
        let mut s = format!(
            "{:>18}  {:>12} {:>7}  {:>9} {:>7}\n",
            "pc", "population", "share", "samples", "share"
        );
        for (pc, g) in hot.into_iter().take(n) {
            let k = self.samples_per_pc.get(pc).copied().unwrap_or(0);
            let _ = writeln!(
                s,
                "{pc:#18x}  {g:>12} {:>6.2}%  {k:>9} {:>6.2}%",
                share(*g, pop),
                share(k, samples)
            );
        }
        s
    }
}

/// What the driver of one more hardware thread drained (threads 1.. of a multithreaded
/// unit; thread 0's is [`RunResult`]'s own).
#[derive(Clone, Debug)]
pub struct ThreadOutput {
    pub aux: Vec<u8>,
    pub events: Vec<MgmtEvent>,
    pub aux_records: Vec<AuxRecord>,
}

/// Everything a run produced.
#[derive(Clone, Debug)]
pub struct RunResult {
    /// The drained record bytes (perf AUX data) of thread 0 (the only one at T = 1).
    pub aux: Vec<u8>,
    pub stats: Stats,
    /// Every interrupt serviced (and the final drain), with PMBSR and PMBPTR.
    pub events: Vec<MgmtEvent>,
    /// Every AUX output the driver ended (offset, size, truncated and collision flags).
    pub aux_records: Vec<AuxRecord>,
    /// Threads 1.. of a multithreaded unit, each its own CPU and buffer.
    pub other_threads: Vec<ThreadOutput>,
    /// The first memory protocol violations.
    pub violations: Vec<Violation>,
    /// The first tag/population anomalies.
    pub anomalies: Vec<String>,
    pub seed: u64,
}

impl RunResult {
    /// What broke the bench's side of the contract in this run (the DUT's own verdict
    /// aside): the first ten memory protocol violations and tag anomalies, and a final
    /// drain that never saw the unit go quiet. Empty: nothing.
    pub fn problems(&self) -> Vec<String> {
        let mut p: Vec<String> = self
            .violations
            .iter()
            .take(10)
            .map(|v| format!("memory protocol violation: {v}"))
            .collect();
        p.extend(
            self.anomalies
                .iter()
                .take(10)
                .map(|a| format!("tag anomaly: {a}")),
        );
        if self.stats.drain_timed_out {
            p.push("the unit did not go quiet at the end of the run".into());
        }
        p
    }
}

/// Bytes between two threads' buffers (each thread's window is the settings' one, moved
/// up by this much per thread).
pub const THREAD_BUFFER_STRIDE: u64 = 1 << 32;

/// The testbench around one DUT: one core model and one driver per hardware thread (each
/// thread a CPU with its own buffer), one memory behind the shared write port.
struct Bench<'a> {
    dut: &'a mut dyn Dut,
    cores: Vec<Core>,
    drivers: Vec<Driver>,
    memory: Memory,
    /// The driver that had the register port last (round robin between the drivers).
    port_last: usize,
    /// Per thread, during a PSB request: whether it met a sampled op younger than it.
    young: [Option<bool>; MAX_THREADS],
    /// Per thread, during a PSB request: whether the op older than it held it back, and
    /// the cycles it still lags that op's completion (`CoreParams::psb_lag_max`).
    psb_held: [bool; MAX_THREADS],
    psb_lag: [u32; MAX_THREADS],
    /// What each driver drives into (the fields the bench takes from it cleared first).
    scratch: Inputs,
    cycle: u64,
    stats: Stats,
    /// The unit's record slot (`Config::record_size`).
    record_size: usize,
}

impl Bench<'_> {
    fn step(&mut self) -> Outputs {
        let c = self.cycle;
        let mut inp = Inputs::default();
        let n = self.cores.len();
        // Each core executes its driver's PSB as the port contract asks: it raises psb_req
        // only once the op it tracks (older than the PSB) has sent its completion report,
        // in an earlier cycle. This is the core's own state, as in a real core.
        let mut pending = [false; MAX_THREADS];
        for (p, core) in pending.iter_mut().zip(&self.cores) {
            *p = core.is_tracking();
        }
        for core in &mut self.cores {
            core.drive(c, &mut inp);
        }
        // The drivers share the register port: one access a cycle, round robin; the
        // others retry the next cycle. The first driver to want it writes the port. Each
        // drives into `scratch`, whose fields the bench reads from it (the register port's
        // and the driver's thread's PSB request and firmware controls) are cleared first.
        let mut granted = None;
        for k in 1..=n {
            let t = (self.port_last + k) % n;
            let mine = &mut self.scratch;
            (mine.reg_en, mine.reg_we, mine.reg_tid) = (false, false, 0);
            (mine.reg_addr, mine.reg_wdata) = (0, 0);
            let x = &mut mine.thr[t];
            (x.psb_req, x.mdcr_pmsee, x.scr_ea, x.hcr_tea) = (false, 0, false, false);
            self.drivers[t].drive(c, mine);
            if self.drivers[t].wants_port() {
                if granted.is_none() {
                    granted = Some(t);
                    inp.reg_en = mine.reg_en;
                    inp.reg_we = mine.reg_we;
                    inp.reg_tid = mine.reg_tid;
                    inp.reg_addr = mine.reg_addr;
                    inp.reg_wdata = mine.reg_wdata;
                } else {
                    self.drivers[t].blocked();
                }
            }
            let x = &mine.thr[t];
            // A PSB that meets a sampled op younger than it (CoreParams::psb_young_rate)
            // need not wait for that op: decided once per PSB.
            if !x.psb_req {
                self.young[t] = None;
            } else if pending[t] && self.young[t].is_none() {
                self.young[t] = Some(self.cores[t].psb_meets_young(c));
            }
            // Held back by the op older than it, the PSB reaches the unit some cycles
            // after that op's completion (CoreParams::psb_lag_max; the next cycle at 0).
            let held = pending[t] && self.young[t] != Some(true);
            if !x.psb_req {
                (self.psb_held[t], self.psb_lag[t]) = (false, 0);
            } else if held {
                self.psb_held[t] = true;
            } else if self.psb_held[t] {
                self.psb_held[t] = false;
                self.psb_lag[t] = self.cores[t].psb_lag();
            }
            let lagging = self.psb_lag[t] > 0;
            if lagging {
                self.psb_lag[t] -= 1;
            }
            inp.thr[t].psb_req = x.psb_req && !held && !lagging;
            // The firmware's FEAT_SPE_EXC controls, which the driver's settings hold.
            inp.thr[t].mdcr_pmsee = x.mdcr_pmsee;
            inp.thr[t].scr_ea = x.scr_ea;
            inp.thr[t].hcr_tea = x.hcr_tea;
        }
        if let Some(t) = granted {
            self.port_last = t;
        }
        self.memory.drive(c, &mut inp);
        let out = self.dut.step(&inp);
        for (t, core) in self.cores.iter_mut().enumerate() {
            if out.thr[t].psb_done && self.young[t] == Some(true) {
                core.psb_dropped();
            }
            core.observe(c, &out);
        }
        self.memory.observe(c, &out);
        for d in &mut self.drivers {
            d.observe(c, &out, &mut self.memory);
        }
        let s = &mut self.stats;
        for o in &out.thr[..n] {
            s.collisions += u64::from(o.pmu_sample_collision);
            s.sample_feed += u64::from(o.pmu_sample_feed);
            s.sample_filtrate += u64::from(o.pmu_sample_filtrate);
            s.stray_reports += u64::from(o.hook_stray);
            s.timeouts += u64::from(o.sample_timeout);
            s.feed_br += u64::from(o.pmu_sample_feed_br);
            s.feed_ld += u64::from(o.pmu_sample_feed_ld);
            s.feed_st += u64::from(o.pmu_sample_feed_st);
            s.feed_op += u64::from(o.pmu_sample_feed_op);
            s.feed_event += u64::from(o.pmu_sample_feed_event);
            s.feed_lat += u64::from(o.pmu_sample_feed_lat);
            s.feed_fp += u64::from(o.pmu_sample_feed_fp);
            s.feed_simd += u64::from(o.pmu_sample_feed_simd);
            s.feed_ds += u64::from(o.pmu_sample_feed_ds);
            s.buffer_full_events += u64::from(o.pmu_sample_buffer_full);
            s.freeze_cycles += u64::from(o.pmu_freeze);
        }
        self.cycle += 1;
        out
    }

    fn drivers_done(&self) -> bool {
        self.drivers.iter().all(Driver::done)
    }

    /// Stats with the cores', drivers' and memory's counts merged in.
    fn snapshot(&self) -> Stats {
        let mut s = self.stats.clone();
        s.cycles = self.cycle;
        for core in &self.cores {
            let k = core.counters();
            s.ops_dispatched += k.dispatched;
            s.population += k.population;
            s.samples += k.samples;
            s.stray_injected += k.stray_injected;
            s.psb_young_drops += k.psb_dropped;
            s.tag_anomalies += k.anomalies;
            s.wrong_path_ops += k.wrong_path;
            s.mispredicts += k.mispredicts;
            s.exceptions += k.exceptions;
            for (&pc, &v) in core.ground_truth() {
                *s.ground_truth.entry(pc).or_insert(0) += v;
            }
            for (&pc, &v) in core.samples_per_pc() {
                *s.samples_per_pc.entry(pc).or_insert(0) += v;
            }
        }
        s.filter_drops = s.sample_feed.saturating_sub(s.sample_filtrate);
        s.bytes_drained = self.drivers.iter().map(|d| d.aux().len() as u64).sum();
        s.records_written = s.bytes_drained / self.record_size as u64;
        s.management_events = self
            .drivers
            .iter()
            .flat_map(|d| d.events())
            .filter(|e| pmbsr::S.is_set(e.pmbsr))
            .count() as u64;
        s.protocol_violations = self.memory.violation_count();
        s.beats_accepted = self.memory.beats();
        s.write_errors_injected = self.memory.errors_injected();
        s
    }
}

/// One CPU's context switches (`SampleSettings::switch_every`): its draws and state.
struct Switcher {
    rng: Rng,
    /// The draws of `switch_after_tag` (a stream of their own).
    tag_rng: Rng,
    resume_at: Option<u64>,
    /// The thread's sample was kept in the last cycle.
    kept: bool,
    /// A tag (of any thread) in the last cycle.
    tagged: bool,
}

impl Switcher {
    /// Thread `t`'s: thread 0's streams are the run's own, the others' derived with `t`.
    fn new(seed: u64, t: usize) -> Switcher {
        let salt = (t as u64) << 40;
        Switcher {
            rng: Rng::derive(seed, 0xC7_5317 + salt),
            tag_rng: Rng::derive(seed, 0x7A6_5317 + salt),
            resume_at: None,
            kept: false,
            tagged: false,
        }
    }

    /// This cycle's decision: stop `driver` (a switch out) or start it again.
    fn step(&mut self, s: &SampleSettings, cycle: u64, driver: &mut Driver, stats: &mut Stats) {
        match self.resume_at {
            None if ((s.switch_after_keep > 0.0
                && self.kept
                && self.rng.chance(s.switch_after_keep))
                || self.rng.chance(1.0 / s.switch_every as f64)
                || (s.switch_after_tag > 0.0
                    && self.tagged
                    && self.tag_rng.chance(s.switch_after_tag)))
                && driver.switch_out() =>
            {
                stats.context_switches += 1;
                self.resume_at = Some(cycle + s.switch_off.max(1));
            }
            Some(t) if cycle >= t && driver.switch_in() => self.resume_at = None,
            _ => {}
        }
    }
}

/// Runs `workload` on `dut` for `cycles` cycles with software `settings` and a memory
/// behaving per `memory`; every random choice derives from `seed`. `progress` is called
/// every [`PROGRESS_EVERY`] cycles. Errors are invalid configurations or settings.
#[allow(clippy::too_many_arguments)]
pub fn run(
    dut: &mut dyn Dut,
    cfg: &Config,
    workload: &Workload,
    settings: &SampleSettings,
    memory: &MemoryProfile,
    cycles: u64,
    seed: u64,
    progress: &mut dyn FnMut(u64, &Stats),
) -> Result<RunResult, String> {
    memory.validate()?;
    let params = CoreParams {
        vhe_host: settings.host,
        ..workload.params
    };
    // One core and one driver per hardware thread; thread t's buffer is the settings'
    // window moved up by t strides, its seed derived from the run's.
    let mut mem = Memory::new(*memory, seed);
    mem.ignore_external_aborts(cfg.options.v1p3);
    mem.set_record_size(cfg.record_size());
    let (mut cores, mut drivers) = (Vec::new(), Vec::new());
    for t in 0..cfg.threads {
        let s = SampleSettings {
            buffer_base: settings.buffer_base + t as u64 * THREAD_BUFFER_STRIDE,
            ..settings.clone()
        };
        let thread_seed = if t == 0 {
            seed
        } else {
            Rng::derive(seed, 0x7_0000 + t as u64).next_u64()
        };
        cores.push(Core::for_thread(
            cfg,
            workload.program.clone(),
            params,
            thread_seed,
            t,
        )?);
        let (base, limit) = s.window();
        mem.set_window(t, base, limit);
        drivers.push(Driver::for_thread(s, t, cfg.record_size())?);
    }
    let mut b = Bench {
        dut,
        cores,
        drivers,
        memory: mem,
        port_last: cfg.threads - 1,
        young: [None; MAX_THREADS],
        psb_held: [false; MAX_THREADS],
        psb_lag: [0; MAX_THREADS],
        scratch: Inputs::default(),
        cycle: 0,
        stats: Stats::default(),
        record_size: cfg.record_size(),
    };

    for _ in 0..RESET_CYCLES {
        b.dut.step(&Inputs {
            reset: true,
            ..Inputs::default()
        });
        b.cycle += 1;
    }
    let end = b.cycle + cycles;
    // Context switches: a stop, then a start `switch_off` cycles later, from `switch_from`
    // workload cycles on; on thread 0's CPU, or with `switch_every_thread` on each
    // thread's, each with draws of its own (thread 0's as without it).
    let switches_from = b.cycle + settings.switch_from;
    let switching = if settings.switch_every_thread {
        cfg.threads
    } else {
        1
    };
    let mut switchers: Vec<Switcher> = (0..switching).map(|t| Switcher::new(seed, t)).collect();
    while b.cycle < end {
        if settings.switch_every > 0 && b.cycle >= switches_from {
            for (t, sw) in switchers.iter_mut().enumerate() {
                sw.step(settings, b.cycle, &mut b.drivers[t], &mut b.stats);
            }
        }
        let out = b.step();
        for (t, sw) in switchers.iter_mut().enumerate() {
            // The thread's sample kept (for `switch_after_keep`); a tag of any thread (for
            // `switch_after_tag`).
            sw.kept = out.thr[t].pmu_sample_filtrate;
            sw.tagged = out.tag != 0;
        }
        if b.cycle.is_multiple_of(PROGRESS_EVERY) {
            progress(b.cycle, &b.snapshot());
        }
    }

    // The final stop, as software does it: PMSCR = 0, PSB (the record in flight lands or is
    // dropped), PMBLIMITR = 0, then the status and the last output.
    for d in &mut b.drivers {
        d.finish();
    }
    let start = b.cycle;
    while !b.drivers_done() && b.cycle - start < DRAIN_LIMIT {
        b.step();
    }
    b.stats.drain_timed_out = !b.drivers_done();

    let stats = b.snapshot();
    progress(b.cycle, &stats);
    let mut threads: Vec<ThreadOutput> = b
        .drivers
        .iter_mut()
        .map(|d| ThreadOutput {
            aux: d.take_aux(),
            events: d.events().to_vec(),
            aux_records: d.aux_records().to_vec(),
        })
        .collect();
    let first = threads.remove(0);
    Ok(RunResult {
        aux: first.aux,
        events: first.events,
        aux_records: first.aux_records,
        other_threads: threads,
        violations: b.memory.violations().to_vec(),
        anomalies: b
            .cores
            .iter()
            .flat_map(|c| c.anomalies().to_vec())
            .collect(),
        stats,
        seed,
    })
}

#[cfg(test)]
mod tests {
    use super::Stats;

    /// The text form shows every counter: each set to a value of its own, each value is in
    /// the text (a counter added to the list and not to the text fails here).
    #[test]
    fn the_text_shows_every_counter() {
        let mut st = Stats::default();
        for (i, (_, v)) in st.counters_mut().into_iter().enumerate() {
            *v = 900_001 + i as u64;
        }
        let counters = st.counters();
        for (i, (name, v)) in counters.iter().enumerate() {
            assert_eq!(
                *v,
                900_001 + i as u64,
                "{name}: counters and counters_mut agree"
            );
        }
        let text = st.to_string();
        for (name, v) in counters {
            assert!(text.contains(&v.to_string()), "{name} missing from: {text}");
        }
    }
}
