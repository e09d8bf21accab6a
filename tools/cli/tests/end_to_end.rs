//! Whole runs: stimulus → golden model → memory → driver → buffer → independent decoder.
//! Oracles: the decoder sees exactly the records the driver drained, with no bad packet;
//! every 64-byte slot passes the docs/spe-reference.md §7.5 checklist; nothing is lost under
//! backpressure; a memory fault stops writing with S/EA/DL; samples spread over PCs as the
//! ground truth says.

use spe_bench::{
    run, Backpressure, ErrorInjection, FaultAction, MemoryProfile, RunResult, SampleSettings,
};
use spe_decode::{check_record_rules, decode};
use spe_defs::regs::pmbsr;
use spe_defs::{Config, PRESETS};
use spe_model::Model;
use spe_stim::Workload;

fn seed(test: &str) -> u64 {
    let s = std::env::var("SPE_E2E_SEED")
        .map(|v| v.parse().expect("SPE_E2E_SEED: integer"))
        .unwrap_or(7);
    eprintln!(
        "seed={s} replay: SPE_E2E_SEED={s} cargo test -p spe-cli --test end_to_end -- {test}"
    );
    s
}

fn run_on(
    cfg: &Config,
    workload: &str,
    s: &SampleSettings,
    mem: &MemoryProfile,
    cycles: u64,
    seed: u64,
) -> RunResult {
    let mut dut = Model::new(cfg);
    run(
        &mut dut,
        cfg,
        &Workload::by_name(workload).unwrap(),
        s,
        mem,
        cycles,
        seed,
        &mut |_, _| {},
    )
    .unwrap()
}

/// Decodes the run's buffers (one per hardware thread) and checks them against the run's
/// own counts.
fn check_buffer(what: &str, r: &RunResult, cfg: &Config) {
    let st = &r.stats;
    assert_eq!(st.protocol_violations, 0, "{what}: {:?}", r.violations);
    assert_eq!(st.tag_anomalies, 0, "{what}: {:?}", r.anomalies);
    assert!(!st.drain_timed_out, "{what}");
    let mut records = 0;
    let buffers = std::iter::once(&r.aux).chain(r.other_threads.iter().map(|t| &t.aux));
    for (t, aux) in buffers.enumerate() {
        assert_eq!(
            aux.len() % cfg.record_size(),
            0,
            "{what}: thread {t}: whole slots only"
        );
        for (i, slot) in aux.chunks(cfg.record_size()).enumerate() {
            let problems = check_record_rules(slot);
            assert!(
                problems.is_empty(),
                "{what}: thread {t} slot {i}: {problems:?}"
            );
        }
        let d = decode(aux);
        assert!(
            d.bad_offsets.is_empty() && d.truncated_offsets.is_empty(),
            "{what}: thread {t}: bad packets"
        );
        assert!(
            d.abandoned.is_empty() && d.unterminated_tail.is_none(),
            "{what}: thread {t}"
        );
        records += d.records.len() as u64;
    }
    assert_eq!(records, st.records_written, "{what}: decoded vs written");
}

#[test]
fn every_preset_and_workload_writes_records_that_decode_cleanly() {
    let seed = seed("every_preset_and_workload_writes_records_that_decode_cleanly");
    let mut n = seed;
    for cfg in PRESETS {
        for w in Workload::names() {
            // Vary the collection settings with the run.
            n = n
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let bit = |k: u32| (n >> (33 + k)) & 1 == 1;
            let s = SampleSettings {
                jitter: bit(0),
                ts: bit(1),
                cx: bit(2),
                pa: bit(3),
                pct: bit(4),
                buffer_size: 16 << 10,
                ..SampleSettings::perf_default(cfg)
            };
            let r = run_on(cfg, w, &s, &MemoryProfile::default(), 150_000, seed);
            let what = format!("{w} on {} ({s:?})", cfg.name);
            assert!(r.stats.records_written > 0, "{what}: no records");
            check_buffer(&what, &r, cfg);
        }
    }
}

#[test]
fn backpressure_of_any_length_loses_no_kept_record() {
    let seed = seed("backpressure_of_any_length_loses_no_kept_record");
    let cfg = Config::preset("fastsim").unwrap();
    for bp in [
        Backpressure::Random { p_ready: 0.1 },
        Backpressure::Stalls {
            p_stall: 0.001,
            min: 1000,
            max: 20_000,
        },
    ] {
        let s = SampleSettings {
            jitter: true,
            buffer_size: 1 << 20,
            ..SampleSettings::perf_default(cfg)
        };
        let mem = MemoryProfile {
            backpressure: bp,
            ..MemoryProfile::default()
        };
        let r = run_on(cfg, "mix", &s, &mem, 400_000, seed);
        let what = format!("{bp:?}");
        check_buffer(&what, &r, cfg);
        let st = &r.stats;
        // Every sample that passed the filters was written: none lost, stalls show up as
        // collisions instead.
        assert_eq!(st.records_written, st.sample_filtrate, "{what}: {st}");
        assert!(
            st.collisions > 0,
            "{what}: long stalls must cause collisions: {st}"
        );
    }
}

#[test]
fn filters_and_discard_change_what_is_written_not_what_is_sampled() {
    let seed = seed("filters_and_discard_change_what_is_written_not_what_is_sampled");
    let cfg = &Config::default();
    let base = SampleSettings {
        buffer_size: 1 << 20,
        ..SampleSettings::perf_default(cfg)
    };
    let loads_only = SampleSettings {
        load_filter: true,
        ..base.clone()
    };
    let r = run_on(
        cfg,
        "mix",
        &loads_only,
        &MemoryProfile::default(),
        300_000,
        seed,
    );
    check_buffer("load filter", &r, cfg);
    assert!(r.stats.filter_drops > 0);
    for rec in decode(&r.aux).records {
        let op = rec.op.expect("op type");
        assert_eq!(
            op.class,
            spe_defs::packet::op_class::LD_ST_ATOMIC,
            "only loads and atomics pass"
        );
    }
    let slow = SampleSettings {
        min_latency: 100,
        ..base.clone()
    };
    let r = run_on(
        cfg,
        "memory",
        &slow,
        &MemoryProfile::default(),
        300_000,
        seed,
    );
    check_buffer("min latency", &r, cfg);
    assert!(decode(&r.aux)
        .records
        .iter()
        .all(|rec| rec.total_latency.unwrap() >= 100));
    let discard = SampleSettings {
        discard: true,
        ..base
    };
    let r = run_on(
        cfg,
        "mix",
        &discard,
        &MemoryProfile::default(),
        300_000,
        seed,
    );
    assert!(r.stats.samples > 0 && r.stats.sample_filtrate > 0);
    assert_eq!(r.stats.records_written, 0);
    assert_eq!(r.stats.beats_accepted, 0, "discard mode writes nothing");
}

#[test]
fn a_memory_fault_stops_writing_with_s_ea_and_dl_unless_at_a_records_first_byte() {
    let seed = seed("a_memory_fault_stops_writing_with_s_ea_and_dl_unless_at_a_records_first_byte");
    let cfg = &Config::default();
    for beat in [0u64, 5, 37] {
        let s = SampleSettings {
            buffer_size: 1 << 20,
            on_fault: FaultAction::Stop,
            ..SampleSettings::perf_default(cfg)
        };
        let mem = MemoryProfile {
            backpressure: Backpressure::AlwaysReady,
            errors: ErrorInjection::AtBeat(beat),
            ..MemoryProfile::default()
        };
        let r = run_on(cfg, "loop", &s, &mem, 300_000, seed);
        assert_eq!(r.stats.protocol_violations, 0, "{:?}", r.violations);
        let fault = r
            .events
            .iter()
            .find(|e| pmbsr::EA.is_set(e.pmbsr))
            .expect("a fault event");
        assert!(pmbsr::S.is_set(fault.pmbsr));
        // D17.8.4: DL stays as it was (0) when the fault is at a record's first byte.
        assert_eq!(
            pmbsr::DL.is_set(fault.pmbsr),
            beat % 8 != 0,
            "beat {beat}: {:#x}",
            fault.pmbsr
        );
        assert_eq!(pmbsr::EC.get(fault.pmbsr), pmbsr::EC_FAULT_S1);
        assert_eq!(
            r.stats.beats_accepted,
            beat + 1,
            "no beat after the faulting one"
        );
    }
}

#[test]
fn samples_follow_the_per_pc_ground_truth_with_jitter() {
    // With jitter the loop's PCs are sampled in proportion to how often they run (no
    // aliasing): each hot PC's share of samples is within a few points of its share of
    // the population.
    let seed = seed("samples_follow_the_per_pc_ground_truth_with_jitter");
    let cfg = Config::preset("fastsim").unwrap();
    let s = SampleSettings {
        jitter: true,
        interval: 256,
        buffer_size: 4 << 20,
        ..SampleSettings::perf_default(cfg)
    };
    let r = run_on(cfg, "loop", &s, &MemoryProfile::default(), 2_000_000, seed);
    let st = &r.stats;
    let pop: u64 = st.ground_truth.values().sum();
    let samples: u64 = st.samples_per_pc.values().sum();
    assert!(samples > 5000, "{st}");
    for (pc, &n) in &st.ground_truth {
        let truth = n as f64 / pop as f64;
        if truth < 0.02 {
            continue;
        }
        let got = st.samples_per_pc.get(pc).copied().unwrap_or(0) as f64 / samples as f64;
        assert!(
            (got - truth).abs() < 0.25 * truth + 0.005,
            "pc {pc:#x}: {:.3}% of samples vs {:.3}% of ops",
            100.0 * got,
            100.0 * truth
        );
    }
}

#[test]
fn spe_cli_reports_bad_input_clearly_and_decode_fails_on_corruption() {
    let exe = env!("CARGO_BIN_EXE_spe");
    let dir = std::env::temp_dir().join(format!("spe-e2e-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = std::process::Command::new(exe)
        .args(["sim", "--workload", "nosuch"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("valid names: loop"));
    let out = std::process::Command::new(exe)
        .args(["sim", "--preset", "huge"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("valid presets"));
    // A good buffer decodes; the same buffer with one corrupted header fails with its offset.
    let bin = dir.join("a.bin");
    let st = std::process::Command::new(exe)
        .args(["sim", "--cycles", "100000", "--quiet", "--out"])
        .arg(&bin)
        .status()
        .unwrap();
    assert!(st.success());
    let st = std::process::Command::new(exe)
        .args(["decode", "--summary", "--check-slots"])
        .arg(&bin)
        .status()
        .unwrap();
    assert!(st.success());
    let mut bytes = std::fs::read(&bin).unwrap();
    bytes[spe_defs::impdef::layout::PC.offset] = 0xB8; // an Address header with SZ=01: bad
    std::fs::write(&bin, &bytes).unwrap();
    let out = std::process::Command::new(exe)
        .args(["decode", "--summary"])
        .arg(&bin)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains(&format!(
        "bad packet at offset {:#x}",
        spe_defs::impdef::layout::PC.offset
    )));
    std::fs::remove_dir_all(&dir).ok();
}
