//! The stimulus against the golden model (`spe_model::Model`): the named workloads run for
//! a while, samples are taken, records reach memory and the driver, and neither side sees
//! a protocol breach.

mod common;

use common::seed;
use spe_bench::{run, Backpressure, MemoryProfile, RunResult, SampleSettings};
use spe_defs::{Config, PRESETS};
use spe_model::Model;
use spe_stim::Workload;

const FILE: &str = "model";

fn run_model(
    cfg: &Config,
    name: &str,
    s: &SampleSettings,
    mem: &MemoryProfile,
    cycles: u64,
    seed: u64,
) -> RunResult {
    let w = Workload::by_name(name).unwrap();
    let mut dut = Model::new(cfg);
    run(&mut dut, cfg, &w, s, mem, cycles, seed, &mut |_, _| {}).unwrap()
}

fn assert_sane(what: &str, r: &RunResult) {
    let s = &r.stats;
    eprintln!("{what}:\n{s}");
    assert!(s.samples > 0, "{what}: no samples");
    assert!(s.records_written > 0, "{what}: no records");
    assert_eq!(s.protocol_violations, 0, "{what}: {:?}", r.violations);
    assert_eq!(s.tag_anomalies, 0, "{what}: {:?}", r.anomalies);
    assert_eq!(
        s.stray_reports, s.stray_injected,
        "{what}: the core reported outside the tracked window"
    );
    assert_eq!(s.ground_truth.values().sum::<u64>(), s.population, "{what}");
    assert!(!s.drain_timed_out, "{what}");
}

#[test]
fn loop_and_mix_run_on_the_golden_model() {
    let seed = seed(FILE, "loop_and_mix_run_on_the_golden_model");
    let cfg = Config::default();
    let s = SampleSettings {
        buffer_size: 64 << 10,
        ..SampleSettings::perf_default(&cfg)
    };
    for name in ["loop", "mix"] {
        let r = run_model(&cfg, name, &s, &MemoryProfile::default(), 200_000, seed);
        assert_sane(name, &r);
    }
}

#[test]
fn every_workload_runs_on_every_preset_with_backpressure_and_jitter() {
    let seed = seed(
        FILE,
        "every_workload_runs_on_every_preset_with_backpressure_and_jitter",
    );
    let mem = MemoryProfile {
        backpressure: Backpressure::Stalls {
            p_stall: 0.02,
            min: 1,
            max: 300,
        },
        ..MemoryProfile::default()
    };
    for cfg in PRESETS {
        for name in Workload::names() {
            let s = SampleSettings {
                jitter: true,
                buffer_size: 16 << 10,
                ..SampleSettings::perf_default(cfg)
            };
            let r = run_model(cfg, name, &s, &mem, 60_000, seed);
            assert_sane(&format!("{name} on {}", cfg.name), &r);
        }
    }
}

#[test]
fn a_psb_that_meets_a_younger_sample_drops_it_and_its_reports_stop() {
    let seed = seed(
        FILE,
        "a_psb_that_meets_a_younger_sample_drops_it_and_its_reports_stop",
    );
    let cfg = Config::default();
    // Context switches now and then and right after a third of the tags: their PSBs come
    // while samples are tracked. Without the lever each waits for the op's completion;
    // with it every such PSB that comes within `YOUNG_WINDOW` cycles of the tag finds the
    // op younger, the unit drops the sample and the core reports nothing more for it (no
    // stray report, no new tag while it still follows the op).
    let s = SampleSettings {
        buffer_size: 64 << 10,
        switch_every: 5_000,
        switch_off: 500,
        switch_after_tag: 0.3,
        ..SampleSettings::perf_default(&cfg)
    };
    let mut w = Workload::by_name("mix").unwrap();
    let mut dut = Model::new(&cfg);
    let mem = MemoryProfile::default();
    let r = run(&mut dut, &cfg, &w, &s, &mem, 400_000, seed, &mut |_, _| {}).unwrap();
    assert_sane("PSBs after completions", &r);
    assert_eq!(r.stats.psb_young_drops, 0);
    w.params.psb_young_rate = 1.0;
    let mut dut = Model::new(&cfg);
    let r = run(&mut dut, &cfg, &w, &s, &mem, 400_000, seed, &mut |_, _| {}).unwrap();
    assert_sane("PSBs that meet younger samples", &r);
    assert!(
        r.stats.psb_young_drops >= 5,
        "{} samples dropped by a PSB in {} context switches",
        r.stats.psb_young_drops,
        r.stats.context_switches
    );
}

#[test]
fn a_psb_held_back_by_the_tracked_op_lags_its_completion_by_zero_to_psb_lag_max_cycles() {
    let seed = seed(
        FILE,
        "a_psb_held_back_by_the_tracked_op_lags_its_completion_by_zero_to_psb_lag_max_cycles",
    );
    let cfg = Config::default();
    // Switches right after half the tags: each stop's PSB comes while the sample is
    // tracked and, no op being younger, waits for the op's completion report. The run
    // is watched at the ports: the cycles from the completion to `psb_req`.
    let s = SampleSettings {
        buffer_size: 64 << 10,
        switch_every: 1 << 40,
        switch_off: 50,
        switch_after_tag: 0.5,
        ..SampleSettings::perf_default(&cfg)
    };
    let lags = |max: u32| {
        let mut w = Workload::by_name("mix").unwrap();
        w.params.psb_lag_max = max;
        let mut dut = Watch {
            inner: Model::new(&cfg),
            last_cpl: None,
            psb: false,
            lags: Vec::new(),
        };
        let mem = MemoryProfile::default();
        let r = run(&mut dut, &cfg, &w, &s, &mem, 300_000, seed, &mut |_, _| {}).unwrap();
        assert_sane(&format!("psb_lag_max {max}"), &r);
        dut.lags
    };
    let (at0, at3) = (lags(0), lags(3));
    eprintln!("psb_req after a completion, cycles: {at0:?}, then with psb_lag_max 3: {at3:?}");
    assert!(at0.len() >= 5 && at3.len() >= 5, "too few held PSBs");
    assert!(
        at0.iter().all(|&l| l == 1),
        "without a lag the PSB comes the next cycle"
    );
    assert!(at3.iter().all(|&l| (1..=4).contains(&l)));
    assert!(at3.contains(&2), "none in the cycle after the next");
}

/// A unit wrapper that measures, for each `psb_req` rising within 8 cycles of a completion
/// report, the cycles since that report.
struct Watch<D: spe_ports::Dut> {
    inner: D,
    last_cpl: Option<u64>,
    psb: bool,
    lags: Vec<u64>,
}

impl<D: spe_ports::Dut> spe_ports::Dut for Watch<D> {
    fn step(&mut self, i: &spe_ports::Inputs) -> spe_ports::Outputs {
        self.last_cpl = self.last_cpl.map(|c| c + 1);
        let x = &i.thr[0];
        if x.psb_req && !self.psb {
            if let Some(c) = self.last_cpl.filter(|&c| c <= 8) {
                self.lags.push(c);
            }
        }
        self.psb = x.psb_req;
        if x.cpl.done {
            self.last_cpl = Some(0);
        }
        self.inner.step(i)
    }
}
