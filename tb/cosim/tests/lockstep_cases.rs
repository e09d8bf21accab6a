//! Directed lockstep cases: the golden model against the RTL on two backends, the
//! Verilated Verilog of gen/ and the rust-hdl design under rust-hdl's simulator, cycle by
//! cycle on every output, driven by the core stimulus model (realistic dispatch, hooks,
//! register programming by the driver, memory backpressure and faults). The random
//! regression (`spe regress`) covers far more; these pin down named situations.
//!
//! Seeds: `SPE_LOCKSTEP_SEED=<n>` replays a run; the default is fixed so CI is repeatable.
//! Cycles: `SPE_LOCKSTEP_CYCLES` (default sized per backend: rust-hdl's simulator is slow,
//! the Verilated model runs 20 times longer in the same time).

use spe_cosim::lockstep::Lockstep;
use spe_cosim::{make_dut, Backend};
use spe_defs::{Config, PRESETS};
use spe_stim::driver::SampleSettings;
use spe_stim::memory::MemoryProfile;
use spe_stim::run::run;
use spe_stim::workload::Workload;

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Runs one case on both RTL backends and fails with the first divergence and a replay line.
fn lockstep(
    test: &str,
    cfg: &Config,
    workload: &str,
    settings: &SampleSettings,
    mem: &MemoryProfile,
    default_cycles: u64,
) {
    for (backend, scale) in [(Backend::Hdlsim, 1), (Backend::Verilator, 20)] {
        let seed = env_u64("SPE_LOCKSTEP_SEED", 0x5EED_0003);
        let cycles = env_u64("SPE_LOCKSTEP_CYCLES", default_cycles * scale);
        eprintln!(
            "{test}: {} backend, preset {} workload {workload} seed {seed:#x} cycles {cycles} \
             (replay: SPE_LOCKSTEP_SEED={seed} SPE_LOCKSTEP_CYCLES={cycles} cargo test --release -p spe-cosim --test lockstep_cases {test})",
            backend.name(),
            cfg.name
        );
        let mut ls = Lockstep::new(cfg, make_dut(cfg, backend).unwrap());
        let w = Workload::by_name(workload).unwrap();
        let r = run(
            &mut ls,
            cfg,
            &w,
            settings,
            mem,
            cycles,
            seed,
            &mut |_, _| {},
        )
        .unwrap();
        if let Some(d) = ls.first() {
            panic!(
                "{test}: RTL ({} backend) diverged from the model: {d} (preset {}, workload {workload}, seed {seed})",
                backend.name(),
                cfg.name
            );
        }
        eprintln!(
            "  ok: {} cycles, {} records, {} samples, {} collisions, {} management events, {} stray reports",
            ls.cycles(),
            r.stats.records_written,
            r.stats.samples,
            r.stats.collisions,
            r.stats.management_events,
            r.stats.stray_reports
        );
    }
}

fn fast(cfg: &Config) -> SampleSettings {
    SampleSettings {
        interval: 256,
        ..SampleSettings::perf_default(cfg)
    }
}

#[test]
fn rtl_matches_model_on_every_preset_with_default_settings() {
    for cfg in PRESETS {
        lockstep(
            "rtl_matches_model_on_every_preset_with_default_settings",
            cfg,
            "mix",
            &fast(cfg),
            &MemoryProfile::default(),
            6_000,
        );
    }
}

fn preset(name: &str) -> &'static Config {
    Config::preset(name).unwrap()
}

fn memory(backpressure: &str, errors: &str) -> MemoryProfile {
    MemoryProfile {
        backpressure: MemoryProfile::parse_backpressure(backpressure).unwrap(),
        errors: MemoryProfile::parse_errors(errors).unwrap(),
    }
}

#[test]
fn rtl_matches_model_with_every_collection_enabled_under_backpressure() {
    for name in ["fastsim", "wide"] {
        let cfg = preset(name);
        let s = SampleSettings {
            ts: true,
            cx: true,
            pa: true,
            pct: true,
            jitter: true,
            ..fast(cfg)
        };
        lockstep(
            "rtl_matches_model_with_every_collection_enabled_under_backpressure",
            cfg,
            "memory",
            &s,
            &memory("stalls:0.2:1:40", "none"),
            20_000,
        );
    }
}

#[test]
fn rtl_matches_model_with_filters_and_write_errors() {
    let cfg = preset("fastsim");
    let s = SampleSettings {
        load_filter: true,
        branch_filter: true,
        event_filter: 0b10,
        inv_event_filter: 0b1000_0000,
        min_latency: 3,
        ..fast(cfg)
    };
    lockstep(
        "rtl_matches_model_with_filters_and_write_errors",
        cfg,
        "branchy",
        &s,
        &memory("random:0.7", "random:0.02"),
        30_000,
    );
}

#[test]
fn rtl_matches_model_when_the_buffer_fills_and_in_the_el2_host() {
    let cfg = preset("fastsim");
    let s = SampleSettings {
        buffer_size: 4096,
        host: true,
        ..fast(cfg)
    };
    lockstep(
        "rtl_matches_model_when_the_buffer_fills_and_in_the_el2_host",
        cfg,
        "modes",
        &s,
        &MemoryProfile::default(),
        30_000,
    );
    let d = SampleSettings {
        discard: true,
        ..fast(cfg)
    };
    lockstep(
        "rtl_matches_model_when_the_buffer_fills_and_in_the_el2_host",
        cfg,
        "mix",
        &d,
        &MemoryProfile::default(),
        30_000,
    );
}
