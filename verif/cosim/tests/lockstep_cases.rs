//! Directed lockstep cases: the golden model against the RTL on two backends, the
//! Verilated Verilog of gen/ and the rust-hdl design under rust-hdl's simulator, cycle by
//! cycle on every output, driven by the core stimulus model (realistic dispatch, hooks,
//! register programming by the driver, memory backpressure and faults). The random
//! regression (`spe regress`) covers far more; these pin down named situations.
//!
//! Seeds: `SPE_LOCKSTEP_SEED=<n>` replays a run; the default is fixed so CI is repeatable.
//! Cycles: `SPE_LOCKSTEP_CYCLES` (default sized per backend: rust-hdl's simulator is slow,
//! the Verilated model runs 20 times longer in the same time).

use spe_bench::driver::SampleSettings;
use spe_bench::memory::MemoryProfile;
use spe_bench::run::{run, RunResult};
use spe_cosim::lockstep::Lockstep;
use spe_cosim::{make_dut, Backend};
use spe_defs::{Config, PRESETS};
use spe_stim::workload::Workload;

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Runs one case on both RTL backends and fails with the first divergence and a replay line;
/// returns each backend's run.
fn lockstep(
    test: &str,
    cfg: &Config,
    workload: &str,
    settings: &SampleSettings,
    mem: &MemoryProfile,
    default_cycles: u64,
) -> Vec<RunResult> {
    let mut runs = Vec::new();
    // rust-hdl's simulator serves one-thread presets (spe_hdlsim::rtl_sim).
    let backends = [(Backend::Hdlsim, 1), (Backend::Verilator, 20)];
    let skip = usize::from(cfg.threads > 1);
    for &(backend, scale) in &backends[skip..] {
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
        runs.push(r);
    }
    runs
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
        fault: MemoryProfile::parse_fault(errors).unwrap(),
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
fn ernd_delays_each_sample_by_a_random_ecount_and_the_rtl_matches_the_model() {
    // FEAT_SPE_ERnd (preset v1p2x) with PMSIRR.RND = 1: the interval is exact and each
    // sample comes ECOUNT (the LFSR's byte at the expiry) population ops after it, on both
    // RTL backends; the chaos regression adds software's PMSICR.ECOUNT writes.
    let cfg = preset("v1p2x");
    assert!(cfg.options.ernd);
    let s = SampleSettings {
        jitter: true,
        ..fast(cfg)
    };
    let runs = lockstep(
        "ernd_delays_each_sample_by_a_random_ecount_and_the_rtl_matches_the_model",
        cfg,
        "mix",
        &s,
        &MemoryProfile::default(),
        8_000,
    );
    assert!(runs.iter().all(|r| r.stats.samples > 10));
}

#[test]
fn spev1p2_feed_events_pulse_with_sample_feed_and_buffer_full_with_each_full_buffer() {
    // SAMPLE_FEED_BR/_LD/_ST/_OP/_EVENT/_LAT (J1 SPEFilterByType, SPEFilterByEvents,
    // SPEFilterByLatency: raised whether or not the filter is enabled) and
    // SAMPLE_BUFFER_FULL (J1 SPECompleteSample), preset v1p2x, on both RTL backends
    // against the model on every output; a 4 KiB buffer fills again and again (PMFZ set).
    let cfg = preset("v1p2x");
    assert!(cfg.options.feed_events && cfg.options.pmfz);
    let name = "spev1p2_feed_events_pulse_with_sample_feed_and_buffer_full_with_each_full_buffer";
    let s = SampleSettings {
        load_filter: true,
        event_filter: 0b10,
        inv_event_filter: 0b1000_0000,
        min_latency: 6,
        ..fast(cfg)
    };
    for r in &lockstep(name, cfg, "mix", &s, &MemoryProfile::default(), 30_000) {
        let st = &r.stats;
        eprintln!("  {st}");
        // Every event happened, and none more often than the samples fed.
        for (name, n) in [
            ("BR", st.feed_br),
            ("LD", st.feed_ld),
            ("ST", st.feed_st),
            ("OP", st.feed_op),
            ("EVENT", st.feed_event),
            ("LAT", st.feed_lat),
        ] {
            assert!(n > 0 && n <= st.sample_feed, "SAMPLE_FEED_{name}: {n}");
        }
        // LD is the only type selected: OP counts the loads.
        assert_eq!(st.feed_op, st.feed_ld, "SAMPLE_FEED_OP with LD selected");
        assert!(st.feed_event < st.sample_feed && st.feed_lat < st.sample_feed);
        // Kept records pass every enabled filter, so each is an EVENT and a LAT sample.
        assert!(st.sample_filtrate <= st.feed_event.min(st.feed_lat));
        assert_eq!(st.buffer_full_events + st.freeze_cycles, 0);
    }
    // No filter: EVENT and LAT on every sample (empty masks, MINLAT 0), OP on none (no
    // type selected); a 4 KiB buffer fills again and again, with PMFZ set.
    let s = SampleSettings {
        buffer_size: 4096,
        pmfz: true,
        ..fast(cfg)
    };
    for r in &lockstep(name, cfg, "loop", &s, &MemoryProfile::default(), 30_000) {
        let st = &r.stats;
        eprintln!("  {st}");
        assert_eq!(st.feed_event, st.sample_feed);
        assert_eq!(st.feed_lat, st.sample_feed);
        assert_eq!(st.feed_op, 0);
        assert!(st.buffer_full_events > 0, "no buffer-full event");
        assert_eq!(
            st.buffer_full_events, st.management_events,
            "one SAMPLE_BUFFER_FULL per buffer-full interrupt (no faults here)"
        );
        assert!(st.freeze_cycles > 0, "PMFZ set: frozen while stopped");
    }
}

#[test]
fn pbt_records_the_previous_branch_target_of_a_taken_branch_and_the_rtl_matches_the_model() {
    // FEAT_SPE_PBT (preset v1p2x, with ERnd's jitter on): a taken branch's record carries
    // the previous-branch target the core reports with it (Address packet index 4, in the
    // PA slot), on both RTL backends against the model on every output. The core model
    // leaves the register invalid now and then and puts junk in bits 60:56, which the
    // unit records as 0; a not-taken branch, a flushed one (D17.6.3.1) and any other op
    // have no such packet.
    let cfg = preset("v1p2x");
    assert!(cfg.options.pbt && cfg.options.ernd);
    let name =
        "pbt_records_the_previous_branch_target_of_a_taken_branch_and_the_rtl_matches_the_model";
    let s = SampleSettings {
        jitter: true,
        ..fast(cfg)
    };
    for r in &lockstep(name, cfg, "branchy", &s, &MemoryProfile::default(), 10_000) {
        let d = spe_decode::decode(&r.aux);
        let (mut with, mut taken) = (0, 0);
        for rec in &d.records {
            let branch = rec
                .op
                .is_some_and(|o| o.class == spe_defs::packet::op_class::BRANCH);
            let not_taken = rec
                .events
                .is_some_and(|e| e & spe_defs::events::bit(spe_defs::events::NOT_TAKEN) != 0);
            if branch && rec.branch_target.is_some() && !not_taken {
                taken += 1;
            }
            let Some(p) = rec.prev_branch_target else {
                continue;
            };
            with += 1;
            let retired = rec
                .events
                .is_some_and(|e| e & spe_defs::events::bit(spe_defs::events::RETIRED) != 0);
            assert!(
                branch && rec.branch_target.is_some() && !not_taken && retired,
                "PBT on {rec:?}"
            );
            assert_eq!(p >> 56 & 0x1f, 0, "PBT payload {p:#x}: NSE and bits 59:56");
            assert!(rec.data_pa.is_none());
        }
        eprintln!("  {with} of {taken} taken branch records have a previous-branch target");
        assert!(with > 5 && with <= taken, "{with} of {taken}");
    }
    // A unit without the option ignores the inputs the core model drives all the same.
    for r in &lockstep(
        name,
        preset("default"),
        "branchy",
        &fast(preset("default")),
        &MemoryProfile::default(),
        3_000,
    ) {
        let d = spe_decode::decode(&r.aux);
        assert!(d.records.iter().all(|rec| rec.prev_branch_target.is_none()));
        assert!(!d.records.is_empty());
    }
}

#[test]
fn crr_records_calls_returns_and_other_branches_and_the_rtl_matches_the_model() {
    // FEAT_SPE_CRR (preset v1p4): the core model reports calls with CR 01, returns with
    // CR 10 and other branches with CR 00, which the unit records as 11 (choice crr); the
    // default preset records CR 00 for all. Both RTL backends against the model on every
    // output; the chaos regression adds random payloads (GCS among them).
    use spe_defs::packet::subclass as sc;
    let name = "crr_records_calls_returns_and_other_branches_and_the_rtl_matches_the_model";
    for (p, crr) in [("v1p4", true), ("default", false)] {
        let cfg = preset(p);
        assert_eq!(cfg.options.crr, crr);
        let s = SampleSettings {
            branch_filter: true,
            ..fast(cfg)
        };
        let runs = lockstep(name, cfg, "mix", &s, &MemoryProfile::default(), 20_000);
        let r = runs.last().unwrap();
        let mut cr = [0u32; 4];
        for rec in &spe_decode::decode(&r.aux).records {
            if let Some(op) = rec
                .op
                .filter(|o| o.class == spe_defs::packet::op_class::BRANCH)
            {
                cr[usize::from(sc::br_cr(op.subclass))] += 1;
                assert_eq!(op.subclass & sc::BR_GCS, 0, "no GCS from the core model");
            }
        }
        eprintln!("  {p}: branch records by CR 00/01/10/11: {cr:?}");
        if crr {
            assert_eq!(cr[0], 0, "CR 00 is recorded as 11");
            assert!(cr[1] > 0 && cr[2] > 0 && cr[3] > 0, "{cr:?}");
        } else {
            assert!(cr[0] > 0 && cr[1..] == [0, 0, 0], "{cr:?}");
        }
    }
}

#[test]
fn fpf_records_the_fp_and_simd_flags_of_other_ops_and_the_rtl_matches_the_model() {
    // FEAT_SPE_FPF (preset v1p4): the core model's FP and SIMD ops of class Other keep
    // their flags in the Operation Type; the default preset records them as 0. Both RTL
    // backends against the model on every output.
    use spe_defs::packet::subclass as sc;
    let name = "fpf_records_the_fp_and_simd_flags_of_other_ops_and_the_rtl_matches_the_model";
    for (p, fpf) in [("v1p4", true), ("default", false)] {
        let cfg = preset(p);
        assert_eq!(cfg.options.fpf, fpf);
        let runs = lockstep(
            name,
            cfg,
            "mix",
            &fast(cfg),
            &MemoryProfile::default(),
            10_000,
        );
        let r = runs.last().unwrap();
        let (mut fp, mut simd) = (0, 0);
        for rec in &spe_decode::decode(&r.aux).records {
            if let Some(op) = rec
                .op
                .filter(|o| o.class == spe_defs::packet::op_class::OTHER)
            {
                if op.subclass & sc::OTHER_SVE_SME_BIT == 0 {
                    fp += u32::from(op.subclass & sc::OTHER_FP != 0);
                    simd += u32::from(op.subclass & sc::OTHER_SIMD != 0);
                }
            }
        }
        eprintln!("  {p}: other-op records with FP {fp}, with SIMD {simd}");
        if fpf {
            assert!(fp > 0 && simd > 0, "FP {fp} SIMD {simd}");
        } else {
            assert_eq!((fp, simd), (0, 0));
        }
    }
}

#[test]
fn eft_type_filters_keep_fp_ops_or_fp_stores_and_the_rtl_matches_the_model() {
    // FEAT_SPE_EFT (preset v1p4), as perf programs it: `float_filter` keeps the
    // floating-point ops (FP ops of class Other, scalar SIMD&FP loads and stores);
    // `float_filter` with `store_filter` and `store_filter_mask` keeps FP stores only (ST an
    // AND term). Both RTL backends against the model on every output (SAMPLE_FEED_FP and
    // _SIMD among them).
    use spe_defs::packet::{op_class, subclass as sc};
    let name = "eft_type_filters_keep_fp_ops_or_fp_stores_and_the_rtl_matches_the_model";
    let cfg = preset("v1p4");
    assert!(cfg.options.eft && cfg.options.fpf);
    let fp_ops = SampleSettings {
        float_filter: true,
        ..fast(cfg)
    };
    let fp_stores = SampleSettings {
        float_filter: true,
        store_filter: true,
        store_filter_mask: true,
        ..fast(cfg)
    };
    for (what, s, stores_only) in [
        ("float_filter", fp_ops, false),
        ("FP stores", fp_stores, true),
    ] {
        let runs = lockstep(name, cfg, "mix", &s, &MemoryProfile::default(), 10_000);
        let r = runs.last().unwrap();
        // Records by kind: FP other (FPF keeps the flag), SIMD&FP load, SIMD&FP store.
        let mut n = [0u32; 3];
        for rec in &spe_decode::decode(&r.aux).records {
            let op = rec.op.expect("every record has an Operation Type");
            let k = match op.class {
                op_class::OTHER if op.subclass & sc::OTHER_FP != 0 => 0,
                op_class::LD_ST_ATOMIC
                    if op.subclass & sc::LDST_SIMD_FP_MASK == sc::LDST_SIMD_FP =>
                {
                    1 + usize::from(op.subclass & sc::LDST_ST != 0)
                }
                _ => panic!("{what}: a record of an op that is not floating-point: {op:?}"),
            };
            n[k] += 1;
        }
        eprintln!("  {what}: records of FP other ops, SIMD&FP loads, SIMD&FP stores: {n:?}");
        if stores_only {
            assert!(n[0] == 0 && n[1] == 0 && n[2] > 0, "{n:?}");
        } else {
            assert!(n.iter().all(|&k| k > 0), "{n:?}");
        }
    }
}

#[test]
fn sve_events_mark_partial_and_empty_predicates_and_filter_on_them_and_the_rtl_matches_the_model() {
    // The SVE events (preset v1p2x: a 4-byte Events payload): on the `sve` workload the
    // core reports each SVE op's predicate; records carry E[17] (partial or empty) and
    // E[18] (empty), E[18] never without E[17], and none for other ops. PMSEVFR with E[17]
    // keeps only records that have it; PMSNEVFR with E[18] drops those that have it. Both
    // RTL backends against the model on every output.
    use spe_defs::events as ev;
    use spe_defs::packet::subclass as sc;
    let name =
        "sve_events_mark_partial_and_empty_predicates_and_filter_on_them_and_the_rtl_matches_the_model";
    let cfg = preset("v1p2x");
    assert!(cfg.options.sve_events);
    let (e17, e18) = (ev::bit(ev::PARTIAL_PREDICATE), ev::bit(ev::EMPTY_PREDICATE));
    for (what, event_filter, inv_event_filter) in [
        ("no filter", 0, 0),
        ("E[17]", e17, 0),
        ("not E[18]", 0, e18),
    ] {
        let s = SampleSettings {
            event_filter,
            inv_event_filter,
            ..fast(cfg)
        };
        let runs = lockstep(name, cfg, "sve", &s, &MemoryProfile::default(), 10_000);
        let r = runs.last().unwrap();
        // Records of SVE ops by predicate: full, partial, empty; records of other ops.
        let (mut n, mut other) = ([0u32; 3], 0u32);
        for rec in &spe_decode::decode(&r.aux).records {
            let op = rec.op.expect("every record has an Operation Type");
            let e = rec.events.expect("every record has Events");
            assert!(
                e & e18 == 0 || e & e17 != 0,
                "{what}: E[18] without E[17]: {e:#x}"
            );
            if sc::is_sve_sme(op.class, op.subclass) {
                n[usize::from(e & e17 != 0) + usize::from(e & e18 != 0)] += 1;
            } else {
                assert_eq!(e & ev::SVE_MASK, 0, "{what}: SVE events on {op:?}");
                other += 1;
            }
        }
        eprintln!("  {what}: SVE op records with a full, partial, empty predicate: {n:?}; other records {other}");
        match (event_filter, inv_event_filter) {
            (0, 0) => assert!(n.iter().all(|&k| k > 0) && other > 0, "{n:?} {other}"),
            (0, _) => assert!(n[0] > 0 && n[1] > 0 && n[2] == 0 && other > 0, "{n:?}"),
            _ => assert!(
                n[0] == 0 && n[1] > 0 && n[2] > 0 && other == 0,
                "{n:?} {other}"
            ),
        }
    }
}

#[test]
fn v1p4_events_mark_loads_by_cache_level_and_filter_on_them_and_the_rtl_matches_the_model() {
    // The SPEv1p4 events (preset v1p4): on the `memory` workload a load's record carries
    // E[19] (L2D access) and E[20] (L2D miss) as its data source says, E[23] (snooped) for
    // a peer cache's data; a store's record has none of them. PMSEVFR with E[20] keeps only
    // loads that missed L2; PMSNEVFR with E[19] drops every load that reached L2. Both RTL
    // backends against the model on every output.
    use spe_defs::events as ev;
    use spe_defs::impdef::data_source as ds;
    use spe_defs::packet::{op_class, subclass as sc};
    let name =
        "v1p4_events_mark_loads_by_cache_level_and_filter_on_them_and_the_rtl_matches_the_model";
    let cfg = preset("v1p4");
    assert!(cfg.options.v1p4_events);
    let (l2a, l2m, snoop) = (
        ev::bit(ev::L2D_ACCESS),
        ev::bit(ev::L2D_MISS),
        ev::bit(ev::DATA_SNOOPED),
    );
    for (what, event_filter, inv_event_filter) in [
        ("no filter", 0, 0),
        ("L2D miss", l2m, 0),
        ("not L2D access", 0, l2a),
    ] {
        let s = SampleSettings {
            event_filter,
            inv_event_filter,
            ..fast(cfg)
        };
        let runs = lockstep(name, cfg, "memory", &s, &MemoryProfile::default(), 10_000);
        let r = runs.last().unwrap();
        // Load records that hit L1, hit L2, missed L2; store records; others.
        let (mut n, mut stores, mut other) = ([0u32; 3], 0u32, 0u32);
        for rec in &spe_decode::decode(&r.aux).records {
            let op = rec.op.expect("every record has an Operation Type");
            let e = rec.events.expect("every record has Events");
            let load = op.class == op_class::LD_ST_ATOMIC && sc::ldst_is_load(op.subclass);
            match (load, rec.data_source) {
                (true, Some(src)) => {
                    let src = src as u8;
                    assert_eq!(e & l2a != 0, src != ds::L1D, "{what}: {e:#x} from {src:#x}");
                    assert_eq!(
                        e & l2m != 0,
                        src != ds::L1D && src != ds::L2,
                        "{what}: {e:#x} from {src:#x}"
                    );
                    let peer = matches!(src, ds::PEER_CORE | ds::LOCAL_CLUSTER | ds::PEER_CLUSTER);
                    assert_eq!(e & snoop != 0, peer, "{what}: {e:#x} from {src:#x}");
                    n[usize::from(e & l2a != 0) + usize::from(e & l2m != 0)] += 1;
                }
                (true, None) => assert_eq!(e & ev::V1P4_MASK, 0, "{what}: no memory report"),
                (false, _) => {
                    assert_eq!(e & ev::V1P4_MASK, 0, "{what}: SPEv1p4 events on {op:?}");
                    if op.class == op_class::LD_ST_ATOMIC {
                        stores += 1;
                    } else {
                        other += 1;
                    }
                }
            }
        }
        eprintln!("  {what}: load records from L1, L2, beyond: {n:?}; store records {stores}; other records {other}");
        match (event_filter, inv_event_filter) {
            (0, 0) => assert!(n.iter().all(|&k| k > 0) && stores > 0, "{n:?} {stores}"),
            (0, _) => assert!(n[0] > 0 && n[1] == 0 && n[2] == 0 && stores > 0, "{n:?}"),
            _ => assert!(
                n[0] == 0 && n[1] == 0 && n[2] > 0 && stores == 0,
                "{n:?} {stores}"
            ),
        }
    }
}

#[test]
fn sme_events_mark_streaming_and_smcu_ops_and_filter_on_them_and_the_rtl_matches_the_model() {
    // FEAT_SPE_SME (preset v1p4): the core reports with each completion whether the op ran
    // in Streaming SVE mode (E[24]) and on the SME compute unit (E[25]); on the `sve`
    // workload the stimulus puts about half of the SVE ops in streaming mode and half of
    // those on the SMCU (and a quarter of the other ops in streaming mode). Records carry
    // exactly what was reported: E[25] only with E[24] and only on SVE or SME ops. PMSEVFR
    // with E[24] keeps only streaming records; PMSNEVFR with E[25] drops the SMCU ones.
    // Both RTL backends against the model on every output.
    use spe_defs::events as ev;
    use spe_defs::packet::subclass as sc;
    let name =
        "sme_events_mark_streaming_and_smcu_ops_and_filter_on_them_and_the_rtl_matches_the_model";
    let cfg = preset("v1p4");
    assert!(cfg.options.sme);
    let (e24, e25) = (ev::bit(ev::STREAMING_SVE), ev::bit(ev::SMCU));
    for (what, event_filter, inv_event_filter) in [
        ("no filter", 0, 0),
        ("E[24]", e24, 0),
        ("not E[25]", 0, e25),
    ] {
        let s = SampleSettings {
            event_filter,
            inv_event_filter,
            ..fast(cfg)
        };
        let runs = lockstep(name, cfg, "sve", &s, &MemoryProfile::default(), 10_000);
        let r = runs.last().unwrap();
        // Records: not streaming, streaming, streaming on the SMCU.
        let mut n = [0u32; 3];
        for rec in &spe_decode::decode(&r.aux).records {
            let op = rec.op.expect("every record has an Operation Type");
            let e = rec.events.expect("every record has Events");
            if e & e25 != 0 {
                assert!(e & e24 != 0, "{what}: E[25] without E[24]: {e:#x}");
                assert!(
                    sc::is_sve_sme(op.class, op.subclass),
                    "{what}: E[25] on {op:?}"
                );
            }
            n[usize::from(e & e24 != 0) + usize::from(e & e25 != 0)] += 1;
        }
        eprintln!("  {what}: records not streaming, streaming, on the SMCU: {n:?}");
        match (event_filter, inv_event_filter) {
            (0, 0) => assert!(n.iter().all(|&k| k > 0), "{n:?}"),
            (0, _) => assert!(n[0] > 0 && n[1] > 0 && n[2] == 0, "{n:?}"),
            _ => assert!(n[0] == 0 && n[1] > 0 && n[2] > 0, "{n:?}"),
        }
    }
}

#[test]
fn fds_keeps_the_loads_of_the_selected_data_sources_and_the_rtl_matches_the_model() {
    // FEAT_SPE_FDS (preset v1p4), as perf programs it: `inv_data_src_filter` with every
    // source but DRAM and L2 (PMSDSFR = its complement, PMSFCR.FDS): every load record's
    // data source is one of the two, and other ops are kept; without the filter the same
    // run has loads from other sources. Both RTL backends against the model on every output
    // (SAMPLE_FEED_DS among them).
    use spe_defs::impdef::data_source as src;
    use spe_defs::packet::op_class;
    let name = "fds_keeps_the_loads_of_the_selected_data_sources_and_the_rtl_matches_the_model";
    let cfg = preset("v1p4");
    assert!(cfg.options.fds);
    let keep = (1u64 << src::DRAM) | (1 << src::L2);
    for inv in [!keep, 0] {
        let s = SampleSettings {
            inv_data_src_filter: inv,
            ..fast(cfg)
        };
        let runs = lockstep(name, cfg, "mix", &s, &MemoryProfile::default(), 10_000);
        let r = runs.last().unwrap();
        // Load records by data source selected or not, and records of other ops.
        let (mut sel, mut other_src, mut not_loads) = (0u32, 0u32, 0u32);
        for rec in &spe_decode::decode(&r.aux).records {
            match rec.data_source {
                Some(ds)
                    if keep >> (ds & u64::from(spe_defs::regs::pmsdsfr::SOURCE_INDEX_MASK)) & 1
                        != 0 =>
                {
                    sel += 1
                }
                Some(_) => other_src += 1,
                None => {
                    not_loads +=
                        u32::from(rec.op.is_some_and(|o| o.class != op_class::LD_ST_ATOMIC))
                }
            }
        }
        eprintln!("  inv_data_src_filter {inv:#x}: load records from DRAM or L2 {sel}, from other sources {other_src}; records of other ops {not_loads}");
        assert!(sel > 0 && not_loads > 0);
        if inv != 0 {
            assert_eq!(other_src, 0);
        } else {
            assert!(other_src > 0);
        }
    }
}

#[test]
fn rtl_matches_model_with_filters_and_write_errors() {
    // (fastsim has no inverted event filter: FEAT_SPE_FnE comes with SPEv1p2.)
    let cfg = preset("fastsim");
    let s = SampleSettings {
        load_filter: true,
        branch_filter: true,
        event_filter: 0b10,
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

#[test]
fn rtl_matches_model_with_context_switches_under_long_write_stalls() {
    // The driver stops (PMSCR = 0, PSB, PMBLIMITR = 0, status, PMBPTR, PMSICR) and restarts
    // profiling every ~3,000 cycles while the memory stalls beats for up to 2,000 cycles:
    // many PSBs wait for a record mid-write. The driver's checks (each output holds exactly
    // the whole records below the PMBPTR it read; no beat after a stop's PSB) must hold.
    let cfg = preset("fastsim");
    let s = SampleSettings {
        switch_every: 3_000,
        switch_off: 500,
        buffer_size: 8192,
        ..fast(cfg)
    };
    for r in lockstep(
        "rtl_matches_model_with_context_switches_under_long_write_stalls",
        cfg,
        "memory",
        &s,
        &memory("stalls:0.05:100:2000", "none"),
        30_000,
    ) {
        assert_eq!(r.stats.protocol_violations, 0, "{:?}", r.violations);
        assert!(!r.stats.drain_timed_out);
        assert!(
            r.stats.context_switches >= 3,
            "{}",
            r.stats.context_switches
        );
        assert!(r.stats.records_written > 0);
        eprintln!(
            "  {} context switches, {} AUX outputs",
            r.stats.context_switches,
            r.aux_records.len()
        );
    }
}

#[test]
fn an_eret_from_el1_to_el0_records_its_target_at_el0_and_perf_reads_it_without_a_0xff_top_byte() {
    // The `modes` workload enters the kernel (EL1) often and leaves it by an ERET to user
    // code (EL0). Branch records only, a short interval: the ERETs sampled must carry the
    // target's EL (0), not the branch's (1), in their target packet (Arm ARM D18.2.1), so
    // perf's arm_spe_calc_ip leaves the target's top byte clear.
    let cfg = preset("fastsim");
    let s = SampleSettings {
        branch_filter: true,
        ..fast(cfg)
    };
    let runs = lockstep(
        "an_eret_from_el1_to_el0_records_its_target_at_el0_and_perf_reads_it_without_a_0xff_top_byte",
        cfg,
        "modes",
        &s,
        &MemoryProfile::default(),
        40_000,
    );
    let mut erets = Vec::new();
    for r in &runs {
        let d = spe_decode::decode(&r.aux);
        let (mut n, mut branches) = (0, 0);
        for rec in &d.records {
            let (Some(pc), Some(tgt)) = (rec.pc, rec.branch_target) else {
                continue;
            };
            branches += 1;
            let (pc_el, tgt_el) = (spe_decode::payload_el(pc), spe_decode::payload_el(tgt));
            let to_ip = spe_decode::calc_ip(1, tgt);
            // VA[55] selects the half: user code is at 0x0000_aaaa_..., the kernel at
            // 0xffff_8000_...; a target in user code is at EL0, one in the kernel at EL1.
            let user_target = spe_decode::payload_addr(tgt) >> 55 == 0;
            assert_eq!(
                tgt_el == 0,
                user_target,
                "target {to_ip:#x} recorded at EL{tgt_el} (branch at EL{pc_el})"
            );
            if pc_el == 1 && tgt_el == 0 {
                n += 1;
                assert_eq!(to_ip >> 56, 0, "perf's to_ip {to_ip:#x} of an ERET to EL0");
            }
        }
        eprintln!("  {branches} branch records, {n} ERETs from EL1 to EL0");
        erets.push(n);
    }
    // The Verilated run (the long one) must have met ERETs in lockstep.
    assert!(
        erets.last().is_some_and(|&n| n > 0),
        "no ERET from EL1 to EL0 recorded: {erets:?}"
    );
}

#[test]
fn a_stage1_fault_on_a_records_first_beat_keeps_dl_and_an_external_abort_on_beat_5_sets_ea_and_dl()
{
    // Arm ARM D17.8.3/D17.8.4: the fault kind sets EC, the FSC and EA; DL stays as it was
    // when the faulting write is the record's first byte. `beat:N` faults the N-th beat
    // accepted in the run (beat 8 is the second record's first).
    use spe_defs::regs::pmbsr;
    let cfg = preset("fastsim");
    let cases = [
        ("beat:0@s1:0x07", pmbsr::EC_FAULT_S1, 0x07, false, false),
        (
            "beat:5@ext",
            pmbsr::EC_FAULT_S1,
            pmbsr::FSC_EXTERNAL_ABORT,
            true,
            true,
        ),
        ("beat:8@s2:0x0d", pmbsr::EC_FAULT_S2, 0x0d, false, false),
        ("beat:13@s1:0x0b", pmbsr::EC_FAULT_S1, 0x0b, false, true),
    ];
    for (errors, ec, fsc, ea, dl) in cases {
        for r in lockstep(
            "a_stage1_fault_on_a_records_first_beat_keeps_dl_and_an_external_abort_on_beat_5_sets_ea_and_dl",
            cfg,
            "mix",
            &fast(cfg),
            &memory("ready", errors),
            20_000,
        ) {
            let e = r
                .events
                .iter()
                .find(|e| e.is_fault())
                .unwrap_or_else(|| panic!("{errors}: no fault event in {:?}", r.events));
            let bsr = e.pmbsr;
            eprintln!("  {errors}: PMBSR {bsr:#x}");
            assert!(pmbsr::S.is_set(bsr), "{errors}: {bsr:#x}");
            assert_eq!(pmbsr::EC.get(bsr), ec, "{errors}: EC of {bsr:#x}");
            assert_eq!(pmbsr::FSC.get(bsr), fsc, "{errors}: FSC of {bsr:#x}");
            assert_eq!(pmbsr::EA.is_set(bsr), ea, "{errors}: EA of {bsr:#x}");
            assert_eq!(pmbsr::DL.is_set(bsr), dl, "{errors}: DL of {bsr:#x}");
        }
    }
}

#[test]
fn the_v1p4_preset_ignores_external_aborts_on_buffer_writes_and_still_reports_stage_faults() {
    // FEAT_SPEv1p3's PMBIDR.EA = 1 (preset v1p4): the PE ignores an external abort on a
    // buffer write, so the unit writes on: no fault event and every record whole, where
    // v1p2x (EA = 0) stops with PMBSR.EA. A stage 1 fault is reported in both. Both RTL
    // backends against the model on every output.
    use spe_defs::regs::pmbsr;
    let name =
        "the_v1p4_preset_ignores_external_aborts_on_buffer_writes_and_still_reports_stage_faults";
    for (p, errors, fault) in [
        ("v1p4", "random:0.05@ext", false),
        ("v1p2x", "random:0.05@ext", true),
        ("v1p4", "beat:13@s1:0x0b", true),
    ] {
        let cfg = preset(p);
        for r in lockstep(
            name,
            cfg,
            "mix",
            &fast(cfg),
            &memory("ready", errors),
            10_000,
        ) {
            let faults: Vec<_> = r.events.iter().filter(|e| e.is_fault()).collect();
            let records = spe_decode::decode(&r.aux).records.len();
            let injected = r.stats.write_errors_injected;
            eprintln!(
                "  {p} {errors}: {injected} errors injected, {} fault events, {records} records",
                faults.len()
            );
            assert!(injected > 0, "{p} {errors}: no error injected");
            assert_eq!(!faults.is_empty(), fault, "{p} {errors}: {:?}", r.events);
            if let Some(e) = faults.first() {
                let ext = errors.ends_with("@ext");
                assert_eq!(
                    pmbsr::EA.is_set(e.pmbsr),
                    ext,
                    "{p} {errors}: {:#x}",
                    e.pmbsr
                );
            } else {
                // Every record whole, and more written than errors injected.
                assert!(records as u64 > injected, "{p} {errors}: {records} records");
                assert_eq!(r.aux.len() % cfg.record_size(), 0);
            }
        }
    }
}

#[test]
fn a_vhe_host_driver_s_pmscr_el1_redirected_to_pmscr_el2_samples_el2_and_host_el0_with_contextidr_el2(
) {
    // In a VHE host (HCR_EL2.E2H = TGE = 1) the kernel runs at EL2; Linux's driver writes
    // PMSCR_EL1, which the core redirects to PMSCR_EL2 (the port address with op1 = 4,
    // gen/spe_tables.md `reg_addr`): the bench's driver in host mode writes PMSCR_EL2 and
    // leaves PMSCR_EL1 zero. Samples are taken at EL2 (E2SPE) and at EL0 in the host
    // (E0HSPE), never at EL1, and their context packet is CONTEXTIDR_EL2's (0x65).
    let cfg = preset("fastsim");
    let s = SampleSettings {
        host: true,
        cx: true,
        ..fast(cfg)
    };
    for r in lockstep(
        "a_vhe_host_driver_s_pmscr_el1_redirected_to_pmscr_el2_samples_el2_and_host_el0_with_contextidr_el2",
        cfg,
        "modes",
        &s,
        &MemoryProfile::default(),
        30_000,
    ) {
        let d = spe_decode::decode(&r.aux);
        let (mut per_el, mut contexts) = ([0u64; 4], 0);
        for rec in &d.records {
            let pc = rec.pc.expect("every record has a PC");
            per_el[usize::from(spe_decode::payload_el(pc))] += 1;
            if let Some(c) = rec.context {
                assert_eq!(c.el(), 2, "a host sample's context is CONTEXTIDR_EL2: {c:?}");
                contexts += 1;
            }
        }
        eprintln!("  records by EL: {per_el:?}, {contexts} with CONTEXTIDR_EL2");
        assert_eq!(contexts, d.records.len(), "PMSCR_EL2.CX: every record has a context");
        assert!(per_el[0] > 0 && per_el[2] > 0, "host EL0 and EL2 sampled: {per_el:?}");
        assert_eq!(per_el[1] + per_el[3], 0, "nothing at EL1 or EL3: {per_el:?}");
    }
}

/// A directed bench for the PSB case: the golden model and one RTL backend in lockstep,
/// driven cycle by cycle by the test (dispatch, completion, memory, register port, PSB).
struct Psb {
    ls: Lockstep,
    /// The last cycle's outputs (the tag to complete, the beat offered).
    out: spe_ports::Outputs,
    /// The memory holds `wr_ready` low while this is non-zero.
    stall: u64,
    beats: u64,
    pc: u64,
    /// Once set, a beat accepted is an error (writes after the PSB completed).
    no_writes: bool,
}

impl Psb {
    /// The bench for `cfg` on `backend`, after four reset cycles.
    fn after_reset(cfg: &'static Config, backend: Backend) -> Psb {
        let mut t = Psb {
            ls: Lockstep::new(cfg, make_dut(cfg, backend).unwrap()),
            out: Default::default(),
            stall: 0,
            beats: 0,
            pc: 0xffff_0000_0000_1000,
            no_writes: false,
        };
        for _ in 0..4 {
            t.step(false, |i| i.reset = true);
        }
        t
    }

    /// One cycle: two EL1 ops dispatched (unless `dispatch` is off), the tagged op
    /// completed the cycle after its tag, memory ready unless stalled, plus `set`'s
    /// register access or PSB request.
    fn step(
        &mut self,
        dispatch: bool,
        set: impl FnOnce(&mut spe_ports::Inputs),
    ) -> spe_ports::Outputs {
        let mut inp = spe_ports::Inputs::default();
        inp.thr[0].disp_el = 1;
        inp.thr[0].prof_allowed = true;
        if dispatch {
            for slot in &mut inp.disp[..2] {
                slot.valid = true;
                slot.pc = self.pc;
                self.pc += 4;
            }
        }
        if self.out.tag != 0 {
            inp.thr[0].cpl.done = true;
            inp.thr[0].cpl.retired = true;
        }
        inp.wr_ready = self.stall == 0;
        self.stall = self.stall.saturating_sub(1);
        set(&mut inp);
        let out = self.ls.step(&inp);
        if out.wr_valid && inp.wr_ready {
            assert!(
                !self.no_writes,
                "a record beat was written after the PSB completed"
            );
            self.beats += 1;
        }
        self.out = out.clone();
        out
    }

    /// Linux's start: the buffer (PMBPTR, PMBLIMITR), then the interval and counter, then
    /// the control.
    fn linux_start(&mut self, base: u64, limitr: u64, interval: u64, pmscr: u64) {
        self.write(RegId::Pmbptr, pmbptr::PTR.place(base));
        self.write(RegId::Pmblimitr, limitr);
        self.write(
            RegId::Pmsirr,
            pmsirr::INTERVAL.place(interval >> pmsirr::INTERVAL.lsb),
        );
        self.write(RegId::Pmsicr, pmsicr::COUNT.place(interval));
        self.write(RegId::PmscrEl1, pmscr);
    }

    /// Steps until two whole records and three beats of the third are written; the next
    /// cycle offers the third record's fourth beat (beat 3).
    fn until_third_record_beat_3(&mut self) {
        let mut cycles = 0;
        while !(self.beats == 16 + 3 && self.out.wr_valid) {
            self.step(true, |_| ());
            cycles += 1;
            assert!(cycles < 100_000, "no third record");
        }
    }

    fn write(&mut self, id: RegId, v: u64) {
        self.step(true, |i| {
            i.reg_en = true;
            i.reg_we = true;
            i.reg_addr = reg(id).addr();
            i.reg_wdata = v;
        });
    }

    fn read(&mut self, id: RegId) -> u64 {
        self.step(true, |i| {
            i.reg_en = true;
            i.reg_addr = reg(id).addr();
        })
        .reg_rdata
    }
}

use spe_defs::regs::{pmblimitr, pmbptr, pmbsr, pmscr, pmsicr, pmsirr, reg, RegId};
use spe_ports::Dut;

#[test]
fn psb_waits_for_a_record_stalled_10000_cycles_mid_write_and_keeps_the_pmbptr_written_after_it() {
    const STALL: u64 = 10_000;
    let cfg = preset("fastsim");
    let base: u64 = 0xffff_8000_2000_0000;
    let head = base + 0x800; // the restart's PMBPTR: a perf AUX head mid-buffer
    let limit =
        pmblimitr::LIMIT.place((base + 0x1000) >> pmblimitr::LIMIT.lsb) | pmblimitr::E.place(1);
    let enable = pmscr::E0SPE.place(1) | pmscr::E1SPE.place(1) | pmscr::TS.place(1);
    let interval = u64::from(cfg.min_interval());
    for backend in [Backend::Hdlsim, Backend::Verilator] {
        eprintln!("psb case: {} backend, preset {}", backend.name(), cfg.name);
        let mut t = Psb::after_reset(cfg, backend);
        t.linux_start(base, limit, interval, enable);
        // Two whole records, then the memory stalls the third at its fourth beat.
        t.until_third_record_beat_3();
        t.stall = STALL;
        // Linux's stop: PMSCR = 0, PSB (held until done), PMBLIMITR = 0, read PMBPTR.
        t.write(RegId::PmscrEl1, 0);
        let mut waited = 0;
        while !t.step(true, |i| i.thr[0].psb_req = true).thr[0].psb_done {
            waited += 1;
            assert!(waited < STALL + 100, "the PSB never completed");
        }
        assert!(
            waited >= STALL - 2,
            "the PSB completed after {waited} cycles, before the stalled record was written"
        );
        assert!(
            waited <= STALL + 10,
            "PSB took {waited} cycles for a {STALL}-cycle stall"
        );
        assert_eq!(
            t.beats, 24,
            "the stalled record landed whole before the PSB completed"
        );
        t.no_writes = true;
        t.write(RegId::Pmblimitr, 0);
        let status = t.read(RegId::Pmbsr);
        assert!(!pmbsr::S.is_set(status), "no management event: {status:#x}");
        let ptr = t.read(RegId::Pmbptr);
        assert_eq!(
            ptr,
            base + 3 * 64,
            "PMBPTR after the PSB is the end of the last whole record"
        );
        for _ in 0..200 {
            t.step(true, |_| ());
        }
        assert_eq!(t.read(RegId::Pmbptr), ptr, "PMBPTR moved while stopped");
        // Restart at a new head; the unit never writes PMBPTR back below it.
        t.no_writes = false;
        t.write(RegId::Pmbptr, pmbptr::PTR.place(head));
        t.write(RegId::Pmblimitr, limit);
        t.write(RegId::Pmsicr, pmsicr::COUNT.place(interval));
        t.write(RegId::PmscrEl1, enable);
        let restart_beats = t.beats;
        for _ in 0..5_000 {
            // The read shows the state before this cycle's edge.
            let records = (t.beats - restart_beats) / 8;
            let out = t.step(true, |i| {
                i.reg_en = true;
                i.reg_addr = reg(RegId::Pmbptr).addr();
            });
            assert_eq!(
                out.reg_rdata,
                head + 64 * records,
                "PMBPTR after the restart: the head plus the records written since"
            );
            if out.wr_valid {
                assert!(
                    out.wr_addr >= head,
                    "a write below the new head: {:#x}",
                    out.wr_addr
                );
            }
        }
        assert!(
            t.beats - restart_beats >= 16,
            "records are written after the restart"
        );
        if let Some(d) = t.ls.first() {
            panic!(
                "RTL ({} backend) diverged from the model: {d}",
                backend.name()
            );
        }
        eprintln!("  ok: {} cycles, PSB waited {waited} cycles", t.ls.cycles());
    }
}

#[test]
fn pmbsr_s_set_by_software_mid_record_stops_it_at_the_next_beat_and_a_held_beat_still_lands() {
    // J1 SPEWriteToBuffer writes no byte while SPEProfilingStopped (PMBSR.S = 1) and
    // advances PMBPTR per byte written (gen/spe_tables.md `stopped-write`): a beat offered
    // when S rises stays offered until taken (the port's valid/ready rule), then the
    // record ends; PMBPTR is the first byte not written; clearing S resumes at its slot.
    let cfg = preset("fastsim");
    let base: u64 = 0xffff_8000_2000_0000;
    let limit =
        pmblimitr::LIMIT.place((base + 0x1000) >> pmblimitr::LIMIT.lsb) | pmblimitr::E.place(1);
    let enable = pmscr::E0SPE.place(1) | pmscr::E1SPE.place(1);
    let interval = u64::from(cfg.min_interval());
    let stop = pmbsr::S.place(1);
    for backend in [Backend::Hdlsim, Backend::Verilator] {
        eprintln!("stopped-write case: {} backend", backend.name());
        let mut t = Psb::after_reset(cfg, backend);
        t.linux_start(base, limit, interval, enable);
        // Every beat since `base` was whole records or the stopped one's first beats, so
        // PMBPTR is the byte after the last beat written: base + 8 x beats.
        // (a) The fourth beat of the third record is offered and stalled; S is set while
        // it waits: it stays offered, lands, and no further beat follows.
        t.until_third_record_beat_3();
        t.stall = 6;
        let out = t.step(true, |i| {
            i.reg_en = true;
            i.reg_we = true;
            i.reg_addr = reg(RegId::Pmbsr).addr();
            i.reg_wdata = stop;
        });
        assert!(out.wr_valid, "no beat offered in the cycle S is written");
        let held = (out.wr_addr, out.wr_data);
        while t.stall > 0 {
            let out = t.step(true, |_| ());
            assert!(out.thr[0].irq, "PMBIRQ low with S set");
            assert!(
                out.wr_valid && (out.wr_addr, out.wr_data) == held,
                "the beat offered before S rose changed or went before it was taken"
            );
        }
        // The stall ends: the held beat is taken, then nothing more.
        for _ in 0..300 {
            t.step(true, |_| ());
        }
        assert_eq!(t.beats, 16 + 4, "beats after S was set");
        assert_eq!(
            t.read(RegId::Pmbptr),
            base + 8 * 20,
            "PMBPTR after the stop: the first byte not written"
        );
        assert_eq!(t.read(RegId::Pmbsr), stop, "PMBSR changed by the stop");
        // (b) Clearing S resumes at the slot PMBPTR is in (its bits 5:0 ignored: the
        // stopped record's slot is rewritten); S set in the cycle a beat is taken stops the
        // record before its next beat.
        t.write(RegId::Pmbsr, 0);
        let slot = base + 2 * 64;
        let restart = t.beats;
        let mut cycles = 0;
        while t.beats < restart + 8 + 3 {
            let out = t.step(true, |_| ());
            if out.wr_valid && t.beats == restart + 1 {
                assert_eq!(out.wr_addr, slot, "the first beat after S was cleared");
            }
            cycles += 1;
            assert!(cycles < 100_000, "no records after S was cleared");
        }
        let out = t.step(true, |i| {
            i.reg_en = true;
            i.reg_we = true;
            i.reg_addr = reg(RegId::Pmbsr).addr();
            i.reg_wdata = stop;
        });
        let taken = u64::from(out.wr_valid);
        for _ in 0..300 {
            let out = t.step(true, |_| ());
            assert!(!out.wr_valid, "a beat offered while S was set");
        }
        let beats = t.beats - restart;
        assert_eq!(beats, 8 + 3 + taken, "beats of the restart");
        assert_eq!(
            t.read(RegId::Pmbptr),
            slot + 8 * beats,
            "PMBPTR after the second stop"
        );
        if let Some(d) = t.ls.first() {
            panic!(
                "RTL ({} backend) diverged from the model: {d}",
                backend.name()
            );
        }
        eprintln!("  ok: {} cycles", t.ls.cycles());
    }
}

/// A directed bench for the buffer-owner cases: the golden model and one RTL backend in
/// lockstep, fed blocks of loads at one EL after another under a fixed EL2 state (the
/// `el2_en`, `mdcr_e2pb`, `hcr_tge`, `hcr_e2h` inputs). The sampled load reports its
/// translation the cycle after its tag and completes the cycle after that; memory is
/// always ready and every beat is kept, by address.
struct OwnerBench {
    ls: Lockstep,
    /// The group-wide inputs of every cycle (EL2 state, Security state, counters).
    group: spe_ports::Inputs,
    /// Cycles since the last tag (None: no sample in flight).
    since_tag: Option<u64>,
    mem: std::collections::BTreeMap<u64, u8>,
    pc: u64,
}

impl OwnerBench {
    fn step(&mut self, dispatch_el: Option<u8>, set: impl FnOnce(&mut spe_ports::Inputs)) {
        let mut inp = self.group.clone();
        inp.wr_ready = true;
        if let Some(el) = dispatch_el {
            inp.thr[0].disp_el = el;
            for slot in &mut inp.disp[..2] {
                slot.valid = true;
                slot.pc = self.pc;
                slot.class = spe_defs::packet::op_class::LD_ST_ATOMIC;
                self.pc += 4;
            }
        }
        match self.since_tag {
            Some(1) => {
                inp.thr[0].xl.start = true;
                inp.thr[0].xl.done = true;
                inp.thr[0].xl.va = 0x0000_ffff_8000_1230;
                inp.thr[0].xl.pa = 0x0000_0008_8000_1230;
                inp.thr[0].xl.pa_ns = true;
            }
            Some(2) => {
                inp.thr[0].cpl.done = true;
                inp.thr[0].cpl.retired = true;
            }
            _ => {}
        }
        set(&mut inp);
        let out = self.ls.step(&inp);
        self.since_tag = match self.since_tag {
            Some(k) if k < 2 => Some(k + 1),
            _ => None,
        };
        if out.tag != 0 {
            assert!(
                self.since_tag.is_none(),
                "a tag while a sample is in flight"
            );
            self.since_tag = Some(1);
        }
        if out.wr_valid {
            for (i, b) in out.wr_data.to_le_bytes().iter().enumerate() {
                self.mem.insert(out.wr_addr + i as u64, *b);
            }
        }
    }

    fn write(&mut self, id: RegId, v: u64) {
        self.step(None, |i| {
            i.reg_en = true;
            i.reg_we = true;
            i.reg_addr = reg(id).addr();
            i.reg_wdata = v;
        });
    }

    /// Blocks of 1028 loads (514 cycles of two) at EL0, EL1 and EL2, `rounds` times. With
    /// the interval 256 and PMSICR = 256 the sampled population ops are numbers
    /// 256 + 257 k (a zero count reloads on the next op), so a profiled block of
    /// 4 x 257 ops holds exactly 4 samples and an unprofiled one none.
    fn run_blocks(&mut self, rounds: u32) {
        for _ in 0..rounds {
            for el in 0..3u8 {
                for _ in 0..514 {
                    self.step(Some(el), |_| ());
                }
            }
        }
        for _ in 0..40 {
            self.step(None, |_| ());
        }
    }
}

/// What one 64-byte record slot holds (fixed packet offsets, gen/spe_tables.md).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Collected {
    cx1: bool,
    cx2: bool,
    pa: bool,
    /// The timestamp's value, if any.
    ts: Option<u64>,
}

/// One phase of an owner case: records per EL, and what each EL's records collected.
type PhaseResult = ([u32; 4], [Option<Collected>; 4]);

/// Runs the owner case on both RTL backends; returns per backend the records per EL and
/// what each EL's records collected (every record of one EL must collect the same).
fn owner_case(
    test: &str,
    regime: (bool, u8, bool, bool),
    phases: &[(bool, u8, bool, bool)],
) -> Vec<Vec<PhaseResult>> {
    use spe_defs::impdef::layout;
    let cfg = preset("fastsim");
    let base: u64 = 0xffff_8000_4000_0000;
    let size: u64 = 0x1_0000;
    let mut all = Vec::new();
    for backend in [Backend::Hdlsim, Backend::Verilator] {
        eprintln!("{test}: {} backend, preset {}", backend.name(), cfg.name);
        let (el2, e2pb, tge, e2h) = regime;
        let mut b = OwnerBench {
            ls: Lockstep::new(cfg, make_dut(cfg, backend).unwrap()),
            group: spe_ports::Inputs {
                thr: [spe_ports::ThreadInputs {
                    prof_allowed: true,
                    disp_ns: true,
                    el2_en: el2,
                    mdcr_e2pb: e2pb,
                    hcr_tge: tge,
                    hcr_e2h: e2h,
                    cnt_virt: 0x0000_0014_20b3_0000,
                    ..Default::default()
                }; spe_defs::config::MAX_THREADS],
                cnt_phys: 0x0000_0099_0000_0000,
                ..Default::default()
            },
            since_tag: None,
            mem: Default::default(),
            pc: 0xffff_8000_0010_0000,
        };
        for _ in 0..4 {
            b.step(None, |i| i.reset = true);
        }
        // Sampling at every EL, CONTEXTIDR at both: PMSCR_EL1 asks for neither a
        // timestamp nor the PA, PMSCR_EL2 for both, with the physical counter.
        b.write(
            RegId::PmscrEl2,
            pmscr::E0SPE.place(1)
                | pmscr::E1SPE.place(1)
                | pmscr::CX.place(1)
                | pmscr::TS.place(1)
                | pmscr::PA.place(1)
                | pmscr::PCT.place(pmscr::PCT_PHYSICAL),
        );
        b.write(RegId::Pmbptr, pmbptr::PTR.place(base));
        b.write(
            RegId::Pmblimitr,
            pmblimitr::LIMIT.place((base + size) >> pmblimitr::LIMIT.lsb) | pmblimitr::E.place(1),
        );
        b.write(RegId::Pmsirr, pmsirr::INTERVAL.place(1));
        b.write(RegId::Pmsicr, pmsicr::COUNT.place(256));
        b.write(
            RegId::PmscrEl1,
            pmscr::E0SPE.place(1) | pmscr::E1SPE.place(1) | pmscr::CX.place(1),
        );
        let mut results = Vec::new();
        for &(el2, e2pb, tge, e2h) in phases {
            b.group.thr[0].el2_en = el2;
            b.group.thr[0].mdcr_e2pb = e2pb;
            b.group.thr[0].hcr_tge = tge;
            b.group.thr[0].hcr_e2h = e2h;
            let start = b.mem.keys().next_back().map_or(base, |a| a + 1);
            b.run_blocks(2);
            let (mut per_el, mut what) = ([0u32; 4], [None; 4]);
            let mut slot = start;
            while b.mem.contains_key(&slot) {
                let rec: Vec<u8> = (0..64).map(|i| b.mem[&(slot + i)]).collect();
                let le = |o: usize| u64::from_le_bytes(rec[o..o + 8].try_into().unwrap());
                let el = spe_decode::payload_el(le(layout::PC.offset + 1));
                let c = Collected {
                    cx1: rec[layout::CONTEXT_EL1.offset] == 0x64,
                    cx2: rec[layout::CONTEXT_EL2.offset] == 0x65,
                    pa: rec[layout::PA.offset] == 0xb3,
                    ts: (rec[layout::END_OR_TS.offset] == spe_defs::packet::TIMESTAMP)
                        .then(|| le(layout::END_OR_TS.offset + 1)),
                };
                let e = usize::from(el);
                per_el[e] += 1;
                if let Some(seen) = what[e] {
                    assert_eq!(seen, c, "{test}: the EL{el} records differ");
                }
                what[e] = Some(c);
                slot += 64;
            }
            eprintln!(
                "  EL2 state {:?}: records per EL {per_el:?}, collected {what:?}",
                (el2, e2pb, tge, e2h)
            );
            results.push((per_el, what));
        }
        if let Some(d) = b.ls.first() {
            panic!(
                "{test}: RTL ({} backend) diverged from the model: {d}",
                backend.name()
            );
        }
        eprintln!("  ok: {} cycles", b.ls.cycles());
        all.push(results);
    }
    all
}

#[test]
fn an_el2_owned_buffer_samples_el0_el1_and_el2_with_pmscr_el2_s_timestamp_and_pa_at_every_el() {
    // MDCR_EL2.E2PB = 00 (a hypervisor owns the buffer while its EL1/EL0 guest runs;
    // HCR_EL2.{E2H,TGE} = 00). J1 StatisticalProfilingEnabled: EL0, EL1 and EL2 are all
    // at or below the owner, so 2 rounds x 4 samples at each. CollectTimeStamp and
    // CollectPhysicalAddress follow the owner, EL2: PMSCR_EL2.TS and PA apply at every EL
    // (PMSCR_EL1's are 0), and PCT_el2 = 01 gives the physical count. CollectContextIDR1:
    // not at EL2; CollectContextIDR2: everywhere (EL2 enabled).
    let test =
        "an_el2_owned_buffer_samples_el0_el1_and_el2_with_pmscr_el2_s_timestamp_and_pa_at_every_el";
    let el2_owner = (true, 0b00, false, false);
    for r in owner_case(test, el2_owner, &[el2_owner]) {
        let (per_el, what) = r[0];
        assert_eq!(per_el, [8, 8, 8, 0], "records per EL");
        for (el, c) in what.iter().take(3).enumerate() {
            let c = c.unwrap();
            assert_eq!(c.cx1, el != 2, "EL{el}: CONTEXTIDR_EL1");
            assert!(c.cx2, "EL{el}: CONTEXTIDR_EL2");
            assert!(c.pa, "EL{el}: PA by PMSCR_EL2.PA (owner EL2)");
            assert_eq!(
                c.ts,
                Some(0x0000_0099_0000_0000),
                "EL{el}: physical timestamp"
            );
        }
    }
}

#[test]
fn an_el1_owned_buffer_samples_nothing_under_tge_and_then_el0_el1_with_pmscr_el1_s_controls() {
    // MDCR_EL2.E2PB = 11 (the buffer is EL1's). With HCR_EL2.TGE = 1 (a VHE host's
    // E2H = TGE = 1) J1 StatisticalProfilingEnabled is FALSE at every EL: no record. With
    // TGE = 0 (E2H still 1) EL0 and EL1 are sampled (4 per block, 2 rounds) and EL2, above
    // the owner, never. The owner is EL1: PMSCR_EL1.TS = 0 gives no timestamp although
    // PMSCR_EL2.TS = 1, and PMSCR_EL1.PA = 0 vetoes PMSCR_EL2.PA; CONTEXTIDR_EL1 (TGE = 0)
    // and CONTEXTIDR_EL2 are collected.
    let test =
        "an_el1_owned_buffer_samples_nothing_under_tge_and_then_el0_el1_with_pmscr_el1_s_controls";
    let tge = (true, 0b11, true, true);
    let no_tge = (true, 0b11, false, true);
    for r in owner_case(test, tge, &[tge, no_tge]) {
        assert_eq!(r[0].0, [0, 0, 0, 0], "records per EL under TGE = 1");
        let (per_el, what) = r[1];
        assert_eq!(per_el, [8, 8, 0, 0], "records per EL with TGE = 0");
        for (el, c) in what.iter().take(2).enumerate() {
            let c = c.unwrap();
            assert_eq!(
                c,
                Collected {
                    cx1: true,
                    cx2: true,
                    pa: false,
                    ts: None
                },
                "EL{el}"
            );
        }
    }
}

#[test]
fn a_lost_completion_is_dropped_after_the_timeout_and_sampling_resumes() {
    // fastsim (completion timeout 2^14 cycles): the first sampled op never completes. The
    // RTL drops it 2^14 cycles after its tag, as the model does (sample_timeout pulses once,
    // no record), and the next selections are sampled and written again.
    let cfg = preset("fastsim");
    let timeout = 1u64 << cfg.cpl_timeout_log2;
    let base: u64 = 0xffff_8000_3000_0000;
    for backend in [Backend::Hdlsim, Backend::Verilator] {
        eprintln!(
            "timeout case: {} backend, preset {}",
            backend.name(),
            cfg.name
        );
        let mut t = Psb::after_reset(cfg, backend);
        t.write(RegId::Pmbptr, pmbptr::PTR.place(base));
        t.write(
            RegId::Pmblimitr,
            pmblimitr::LIMIT.place((base + 0x10000) >> pmblimitr::LIMIT.lsb)
                | pmblimitr::E.place(1),
        );
        t.write(RegId::Pmsirr, pmsirr::INTERVAL.place(1));
        t.write(RegId::Pmsicr, pmsicr::COUNT.place(8));
        t.write(RegId::PmscrEl1, pmscr::E1SPE.place(1));
        let (mut tag_cycle, mut pulses, mut lost) = (None, Vec::new(), true);
        for c in 0..timeout + 2_000 {
            let out = t.step(true, |i| {
                if lost {
                    i.thr[0].cpl.done = false;
                }
            });
            if out.tag != 0 && tag_cycle.is_none() {
                tag_cycle = Some(c);
            }
            if out.thr[0].sample_timeout {
                pulses.push(c);
                lost = false;
            }
        }
        let tagged = tag_cycle.expect("a sample was tagged");
        assert_eq!(
            pulses,
            [tagged + timeout],
            "one timeout, 2^14 cycles after the tag"
        );
        assert!(
            t.beats >= 8,
            "records are written after the timeout: {} beats",
            t.beats
        );
        if let Some(d) = t.ls.first() {
            panic!(
                "RTL ({} backend) diverged from the model: {d}",
                backend.name()
            );
        }
        eprintln!(
            "  ok: tagged at {tagged}, dropped at {}, {} beats written after",
            pulses[0], t.beats
        );
    }
}

#[test]
fn pmfz_freezes_the_pmu_while_e_is_set_and_profiling_is_stopped_by_a_full_buffer_or_software() {
    // PMBLIMITR.PMFZ (FEAT_SPEv1p2, preset v1p2x): `pmu_freeze` is PMFZ and E and PMBSR.S
    // (Arm ARM D13.5.2.2, J1 SPEFreezeOnEvent and SPEProfilingStopped), registered: it
    // rises with PMBIRQ on the buffer-full event, and follows each register write the
    // cycle after it. Both RTL backends against the model on every output.
    let cfg = preset("v1p2x");
    assert!(cfg.options.pmfz);
    let limit: u64 = 0xffff_8000_3000_1000;
    let base = limit - 2 * 64;
    let fz = pmblimitr::PMFZ.place(1);
    let e = pmblimitr::E.place(1);
    let limitr = pmblimitr::LIMIT.place(limit >> pmblimitr::LIMIT.lsb);
    let enable = pmscr::E0SPE.place(1) | pmscr::E1SPE.place(1);
    for backend in [Backend::Hdlsim, Backend::Verilator] {
        eprintln!("PMFZ case: {} backend", backend.name());
        let mut t = Psb::after_reset(cfg, backend);
        t.linux_start(base, limitr | fz | e, u64::from(cfg.min_interval()), enable);
        assert_eq!(t.read(RegId::Pmblimitr), limitr | fz | e, "PMFZ reads back");
        // (a) Two records fill the buffer: PMBSR.S, PMBIRQ and the freeze rise together.
        let mut cycles = 0;
        loop {
            let out = t.step(true, |_| ());
            assert_eq!(
                out.thr[0].pmu_freeze, out.thr[0].irq,
                "freeze and PMBIRQ differ at cycle {cycles} (PMFZ and E set)"
            );
            if out.thr[0].irq {
                break;
            }
            cycles += 1;
            assert!(cycles < 100_000, "the buffer never filled");
        }
        assert_eq!(t.beats, 16, "two records before the buffer-full event");
        let full = t.read(RegId::Pmbsr);
        assert!(pmbsr::S.is_set(full), "buffer full sets S");
        // (b) PMFZ, then E, cleared by software: no freeze while S stays set; each back.
        let freeze_after = |t: &mut Psb, id: RegId, v: u64| {
            t.write(id, v);
            let out = t.step(true, |_| ());
            out.thr[0].pmu_freeze
        };
        assert!(
            !freeze_after(&mut t, RegId::Pmblimitr, limitr | e),
            "PMFZ clear"
        );
        assert!(t.step(true, |_| ()).thr[0].irq, "S stays set");
        assert!(
            !freeze_after(&mut t, RegId::Pmblimitr, limitr | fz),
            "E clear"
        );
        assert!(
            freeze_after(&mut t, RegId::Pmblimitr, limitr | fz | e),
            "both set"
        );
        // (c) Software clears S: the freeze ends; software sets S: it is back.
        assert!(!freeze_after(&mut t, RegId::Pmbsr, 0), "S clear");
        assert!(
            freeze_after(&mut t, RegId::Pmbsr, pmbsr::S.place(1)),
            "S set by software"
        );
        // (d) Low while reset is high (PMFZ, E and S are still set in its first cycle).
        let out = t.step(false, |i| i.reset = true);
        assert!(!out.thr[0].pmu_freeze, "freeze high during reset");
        assert!(!t.step(false, |_| ()).thr[0].pmu_freeze, "after reset");
        if let Some(d) = t.ls.first() {
            panic!(
                "RTL ({} backend) diverged from the model: {d}",
                backend.name()
            );
        }
        eprintln!("  ok: the buffer filled after {cycles} cycles");
    }
    // A unit without the option: PMFZ is RES0 and there is no port (zero).
    let cfg = preset("default");
    let mut t = Psb::after_reset(cfg, Backend::Verilator);
    t.write(RegId::Pmblimitr, limitr | fz | e);
    assert_eq!(
        t.read(RegId::Pmblimitr),
        limitr | e,
        "PMFZ is RES0 without it"
    );
    t.write(RegId::Pmbsr, pmbsr::S.place(1));
    assert!(!t.step(true, |_| ()).thr[0].pmu_freeze);
    assert!(t.ls.first().is_none());
}

/// Runs a [`Lockstep`] and records what the write port said of each beat's address space
/// (`wr_addr_space`, `wr_mem_attr`); between register accesses it points the read port at
/// PMBIDR_EL1, so that its AddrMode is compared every cycle.
struct AddrSpaceSpy<O: spe_ports::Dut> {
    inner: Lockstep<O>,
    seen: std::collections::BTreeMap<(u8, u32), u64>,
}

impl<O: spe_ports::Dut> spe_ports::Dut for AddrSpaceSpy<O> {
    fn step(&mut self, inputs: &spe_ports::Inputs) -> spe_ports::Outputs {
        let mut inp = inputs.clone();
        if !inp.reg_en {
            inp.reg_addr = spe_defs::regs::reg(spe_defs::regs::RegId::Pmbidr).addr();
        }
        let out = self.inner.step(&inp);
        if out.wr_valid {
            *self
                .seen
                .entry((out.wr_addr_space, out.wr_mem_attr))
                .or_default() += 1;
        }
        out
    }
    fn verdict(&mut self) -> Result<Option<String>, String> {
        self.inner.verdict()
    }
}

#[test]
fn nvm_writes_the_buffer_by_ipa_under_an_el1_owner_and_by_pa_under_el2_with_pmbmar_s_attributes() {
    // FEAT_SPE_nVM (Arm ARM D17.7.2, J1 EffectivePMBLIMITR_EL1_nVM) on preset v1p5, both RTL
    // backends against the model on every output: the bench programs PMBMAR and PMBLIMITR.nVM,
    // and EL2's boot state sets PMSCR_EL2.EnVM for an EL1 owner. Every beat of a non-VHE
    // kernel (EL1 owns the buffer, EL2 enabled) is an IPA, of a VHE host (EL2 owns it) a
    // PA, each with PMBMAR's SH and Attr; without nVM a VA with no attributes.
    use spe_defs::regs::pmbmar;
    let name = "nvm_writes_the_buffer_by_ipa_under_an_el1_owner_and_by_pa_under_el2_with_pmbmar_s_attributes";
    let cfg = *preset("v1p5");
    // Normal memory, Inner/Outer Write-Back (MAIR 0xFF), Inner Shareable.
    let mar = pmbmar::SH.place(0b11) | pmbmar::ATTR.place(0xFF);
    let rows = [
        (false, Some(mar), (pmbmar::SPACE_IPA, mar as u32)),
        (true, Some(mar), (pmbmar::SPACE_PA, mar as u32)),
        (false, None, (pmbmar::SPACE_VA, 0)),
    ];
    for ((host, nvm, want), (backend, scale)) in rows
        .into_iter()
        .flat_map(|r| [(r, (Backend::Hdlsim, 1)), (r, (Backend::Verilator, 20))])
    {
        let seed = env_u64("SPE_LOCKSTEP_SEED", 0x5EED_0003);
        let cycles = env_u64("SPE_LOCKSTEP_CYCLES", 6_000 * scale);
        eprintln!(
            "{name}: {} backend, v1p5, host {host}, nVM {nvm:?}, seed {seed:#x} cycles {cycles} \
             (replay: SPE_LOCKSTEP_SEED={seed} SPE_LOCKSTEP_CYCLES={cycles} cargo test --release -p spe-cosim --test lockstep_cases {name})",
            backend.name()
        );
        let mut spy = AddrSpaceSpy {
            inner: Lockstep::new(&cfg, make_dut(&cfg, backend).unwrap()),
            seen: Default::default(),
        };
        let s = SampleSettings {
            host,
            nvm,
            ..fast(&cfg)
        };
        let r = run(
            &mut spy,
            &cfg,
            &Workload::by_name("mix").unwrap(),
            &s,
            &MemoryProfile::default(),
            cycles,
            seed,
            &mut |_, _| {},
        )
        .unwrap();
        if let Some(d) = spy.inner.first() {
            panic!(
                "{name}: RTL ({}) diverged from the model: {d} (host {host}, nVM {nvm:?})",
                backend.name()
            );
        }
        eprintln!(
            "  ok: {} records, beats by (space, attributes): {:?}",
            r.stats.records_written, spy.seen
        );
        assert!(r.stats.records_written > 0, "no record written");
        assert_eq!(
            spy.seen.keys().copied().collect::<Vec<_>>(),
            vec![want],
            "host {host}, nVM {nvm:?}"
        );
    }
}

/// Drives FEAT_SPE_EXC's core inputs of thread 0 (MDCR_EL3.PMSEE, SCR_EL3.EA, HCR_EL2.TEA)
/// into a [`Lockstep`], points the idle read port at `watch` (so that register is compared
/// every cycle), counts the cycles each exception output and PMBIRQ are high, and, unless
/// `higher_handlers`, hides `exc_el2` and `exc_el3` from the driver (no EL2 or EL3 handler:
/// their events stay in their banks).
struct ExcSpy<O: spe_ports::Dut> {
    inner: Lockstep<O>,
    pmsee: u8,
    scr_ea: bool,
    hcr_tea: bool,
    watch: spe_defs::regs::RegId,
    higher_handlers: bool,
    /// Cycles high: irq, exc_el1, exc_el2, exc_el3.
    high: [u64; 4],
}

impl<O: spe_ports::Dut> spe_ports::Dut for ExcSpy<O> {
    fn step(&mut self, inputs: &spe_ports::Inputs) -> spe_ports::Outputs {
        let mut inp = inputs.clone();
        inp.thr[0].mdcr_pmsee = self.pmsee;
        inp.thr[0].scr_ea = self.scr_ea;
        inp.thr[0].hcr_tea = self.hcr_tea;
        if !inp.reg_en {
            inp.reg_addr = spe_defs::regs::reg(self.watch).addr();
        }
        let mut out = self.inner.step(&inp);
        let o = &mut out.thr[0];
        for (n, on) in self
            .high
            .iter_mut()
            .zip([o.irq, o.exc_el1, o.exc_el2, o.exc_el3])
        {
            *n += u64::from(on);
        }
        if !self.higher_handlers {
            o.exc_el2 = false;
            o.exc_el3 = false;
        }
        out
    }
    fn verdict(&mut self) -> Result<Option<String>, String> {
        self.inner.verdict()
    }
}

/// One run of the FEAT_SPE_EXC cases: `v1p5` on `backend` (cycles 12,000 times `scale`)
/// in lockstep with the model under an [`ExcSpy`] driving `(PMSEE, SCR_EL3.EA,
/// HCR_EL2.TEA)` and watching `watch`, the driver programming `s` over `mix`, `errors` on
/// the memory. Prints the seed and its replay of test `name` first; panics on a
/// divergence. The run and the cycles each of irq, exc_el1, exc_el2, exc_el3 was high.
#[allow(clippy::too_many_arguments)]
fn exc_run(
    name: &str,
    what: &str,
    (backend, scale): (Backend, u64),
    default_seed: u64,
    (pmsee, scr_ea, hcr_tea): (u8, bool, bool),
    watch: spe_defs::regs::RegId,
    higher_handlers: bool,
    s: &SampleSettings,
    errors: &str,
) -> (RunResult, [u64; 4]) {
    let cfg = *preset("v1p5");
    let seed = env_u64("SPE_LOCKSTEP_SEED", default_seed);
    let cycles = env_u64("SPE_LOCKSTEP_CYCLES", 12_000 * scale);
    eprintln!(
        "{name}: {} backend, v1p5, {what}, seed {seed:#x} cycles {cycles} \
         (replay: SPE_LOCKSTEP_SEED={seed} SPE_LOCKSTEP_CYCLES={cycles} cargo test --release -p spe-cosim --test lockstep_cases {name})",
        backend.name()
    );
    let mut spy = ExcSpy {
        inner: Lockstep::new(&cfg, make_dut(&cfg, backend).unwrap()),
        pmsee,
        scr_ea,
        hcr_tea,
        watch,
        higher_handlers,
        high: [0; 4],
    };
    let r = run(
        &mut spy,
        &cfg,
        &Workload::by_name("mix").unwrap(),
        s,
        &memory("ready", errors),
        cycles,
        seed,
        &mut |_, _| {},
    )
    .unwrap();
    if let Some(d) = spy.inner.first() {
        panic!(
            "{name}: {what}: RTL ({}) diverged from the model: {d}",
            backend.name()
        );
    }
    (r, spy.high)
}

#[test]
fn exc_reports_each_management_event_in_the_bank_and_as_the_exception_report_spe_event_picks() {
    // FEAT_SPE_EXC (Arm ARM D17.8, J1 ReportSPEEvent, CheckForSPEException,
    // SPEInterruptEnabled) on preset v1p5, both RTL backends against the model on every
    // output, the watched bank compared every cycle. Faults on buffer writes and the buffer filling make the
    // events; each row says which outputs must rise and which must not.
    use spe_defs::regs::{mdcr_pmsee, RegId};
    let name =
        "exc_reports_each_management_event_in_the_bank_and_as_the_exception_report_spe_event_picks";
    let cfg = *preset("v1p5");
    // (what, PMSEE, SCR_EL3.EA, HCR_EL2.TEA, PMSCR_EL1.EE, PMSCR_EL2.EE, errors, bank
    // watched, [irq, exc_el1, exc_el2, exc_el3] must be high at some cycle)
    type Row = (
        &'static str,
        u8,
        bool,
        bool,
        u8,
        u8,
        &'static str,
        RegId,
        [bool; 4],
    );
    let rows: [Row; 6] = [
        (
            "EL1 exceptions",
            mdcr_pmsee::DELEGATED,
            false,
            false,
            0b11,
            0b01,
            "random:0.01@s1:0x07",
            RegId::Pmbsr,
            [false, true, false, false],
        ),
        (
            "PMSEE 00: interrupts",
            mdcr_pmsee::DISABLED,
            false,
            false,
            0b11,
            0b11,
            "random:0.01@s1:0x07",
            RegId::Pmbsr,
            [true, false, false, false],
        ),
        (
            "EL2 takes stage 2",
            mdcr_pmsee::DELEGATED,
            false,
            false,
            0b00,
            0b10,
            "random:0.01@s2:0x07",
            RegId::PmbsrEl2,
            [false, false, true, false],
        ),
        (
            "EL2 leaves stage 1",
            mdcr_pmsee::DELEGATED,
            false,
            false,
            0b00,
            0b10,
            "random:0.01@s1:0x07",
            RegId::PmbsrEl2,
            [true, false, false, false],
        ),
        (
            "EL3 traps all",
            mdcr_pmsee::TRAP_ALL,
            false,
            false,
            0b11,
            0b11,
            "random:0.01@s1:0x07",
            RegId::PmbsrEl3,
            [false, false, false, true],
        ),
        (
            "EL3 takes an SEA",
            mdcr_pmsee::ENABLED,
            true,
            false,
            0b00,
            0b00,
            "random:0.01@s1:0x10",
            RegId::PmbsrEl3,
            [false, false, false, true],
        ),
    ];
    for ((what, pmsee, scr_ea, hcr_tea, ee1, ee2, errors, watch, want), backend) in rows
        .into_iter()
        .flat_map(|r| [(r, (Backend::Hdlsim, 1)), (r, (Backend::Verilator, 20))])
    {
        let s = SampleSettings {
            exc_ee: ee1,
            el2_ee: ee2,
            on_fault: spe_bench::driver::FaultAction::Restart,
            ..fast(&cfg)
        };
        let (r, high) = exc_run(
            name,
            what,
            backend,
            0x5EED_0003,
            (pmsee, scr_ea, hcr_tea),
            watch,
            false,
            &s,
            errors,
        );
        eprintln!(
            "  ok: {} records, {} errors injected; cycles high: irq {}, exc_el1 {}, exc_el2 {}, exc_el3 {}",
            r.stats.records_written, r.stats.write_errors_injected, high[0], high[1], high[2], high[3]
        );
        assert!(
            r.stats.write_errors_injected > 0,
            "{what}: no fault injected"
        );
        assert_eq!(
            high.map(|n| n > 0),
            want,
            "{what}: [irq, exc_el1, exc_el2, exc_el3]"
        );
    }
}

#[test]
fn exc_events_for_el2_and_el3_are_reflected_to_el1_and_profiling_goes_on() {
    // FEAT_SPE_EXC with an EL2 or EL3 handler (the bench driver's: read the bank, write
    // its syndrome to the kernel's status register, clear the bank): every event the unit
    // reports above the kernel reaches its driver, which restarts the buffer, so that a
    // run meets many events (without the handler the first one stops profiling for good).
    // A VHE host's `PMBSR_EL1` accesses reach PMBSR_EL2 while its EE is not 00 (D24.7.5):
    // with EE = 11 its own events are PMBSR_EL2's and `exc_el2` is its interrupt, and
    // EL3's handler reflects into PMBSR_EL2. Both RTL backends against the model, the
    // watched bank compared every cycle.
    use spe_defs::regs::{mdcr_pmsee, pmbsr, RegId};
    let name = "exc_events_for_el2_and_el3_are_reflected_to_el1_and_profiling_goes_on";
    let cfg = *preset("v1p5");
    // (what, PMSEE, the kernel's PMSCR.EE (PMSCR_EL2's in a host), PMSCR_EL2.EE (EL2's
    // boot state, non-VHE), bank, index of its exception output, VHE host)
    let rows: [(&str, u8, u8, u8, RegId, usize, bool); 5] = [
        (
            "EL2 takes all",
            mdcr_pmsee::DELEGATED,
            0b00,
            0b11,
            RegId::PmbsrEl2,
            2,
            false,
        ),
        (
            "EL2 takes all, EL1 exceptions",
            mdcr_pmsee::DELEGATED,
            0b11,
            0b11,
            RegId::PmbsrEl2,
            2,
            false,
        ),
        (
            "EL3 traps all",
            mdcr_pmsee::TRAP_ALL,
            0b00,
            0b00,
            RegId::PmbsrEl3,
            3,
            false,
        ),
        (
            "a VHE host's own events in PMBSR_EL2",
            mdcr_pmsee::DELEGATED,
            0b11,
            0b00,
            RegId::PmbsrEl2,
            2,
            true,
        ),
        (
            "EL3 traps all, reflected to a VHE host's PMBSR_EL2",
            mdcr_pmsee::TRAP_ALL,
            0b11,
            0b00,
            RegId::PmbsrEl3,
            3,
            true,
        ),
    ];
    for ((what, pmsee, ee1, ee2, watch, out, host), backend) in rows
        .into_iter()
        .flat_map(|r| [(r, (Backend::Hdlsim, 1)), (r, (Backend::Verilator, 20))])
    {
        let s = SampleSettings {
            exc_ee: ee1,
            el2_ee: ee2,
            pmsee,
            host,
            on_fault: spe_bench::driver::FaultAction::Restart,
            ..fast(&cfg)
        };
        let (r, high) = exc_run(
            name,
            what,
            backend,
            0x5EED_0004,
            (pmsee, false, false),
            watch,
            true,
            &s,
            "random:0.05@s1:0x07",
        );
        let serviced = r.events.iter().filter(|e| pmbsr::S.is_set(e.pmbsr)).count();
        eprintln!(
            "  ok: {} records, {serviced} events serviced; cycles high: irq {}, exc_el1 {}, exc_el2 {}, exc_el3 {}",
            r.stats.records_written, high[0], high[1], high[2], high[3]
        );
        assert!(
            high[out] > 0,
            "{what}: the exception to the bank never rose"
        );
        assert!(
            serviced >= 2,
            "{what}: {serviced} events reached the kernel's driver: the higher EL's handler did not reflect them"
        );
        if host {
            // The host's status register is PMBSR_EL2: nothing reaches PMBSR_EL1 (no
            // PMBIRQ), and its events, its own or EL3's reflected, raise exc_el2.
            assert!(
                high[0] == 0 && high[2] > 0,
                "{what}: a VHE host's events went through PMBSR_EL1 (irq high {} cycles, exc_el2 {})",
                high[0],
                high[2]
            );
        }
        assert!(r.violations.is_empty(), "{what}: {:?}", r.violations);
    }
}
