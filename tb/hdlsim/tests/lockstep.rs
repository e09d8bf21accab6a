//! The RTL under rust-hdl's simulator against the golden model, cycle by cycle on every
//! output, driven by the core stimulus model (realistic dispatch, hooks, register
//! programming by the driver, memory backpressure and faults).
//!
//! Seeds: `SPE_HDLSIM_SEED=<n>` replays a run; the default is fixed so CI is repeatable.
//! Cycles: `SPE_HDLSIM_CYCLES` (default sized for CI: rust-hdl's simulator is slow).

use spe_defs::{Config, PRESETS};
use spe_hdlsim::{rtl_sim, Lockstep};
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

/// Runs one lockstep case and fails with the first divergence and a replay line.
fn lockstep(
    test: &str,
    cfg: &Config,
    workload: &str,
    settings: &SampleSettings,
    mem: &MemoryProfile,
) {
    let seed = env_u64("SPE_HDLSIM_SEED", 0x5EED_0003);
    let cycles = env_u64("SPE_HDLSIM_CYCLES", 6_000);
    eprintln!(
        "{test}: preset {} workload {workload} seed {seed:#x} cycles {cycles} \
         (replay: SPE_HDLSIM_SEED={seed} cargo test -p spe-hdlsim --test lockstep {test})",
        cfg.name
    );
    let mut ls = Lockstep::new(cfg, rtl_sim(cfg));
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
    if let Some(d) = &ls.first {
        panic!(
            "{test}: RTL diverged from the model: {d} (preset {}, workload {workload}, seed {seed})",
            cfg.name
        );
    }
    eprintln!(
        "  ok: {} records, {} samples, {} collisions",
        r.stats.records_written, r.stats.samples, r.stats.collisions
    );
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
        );
    }
}
