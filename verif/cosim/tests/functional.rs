//! The functional coverage observer (`spe_cosim::functional`) on scripted port traces: each
//! situation counts on its own point and on no other, and a job of the regression counts
//! the points the golden model and the RTL meet.

use spe_cosim::functional::{holes, Observer, Plan};
use spe_defs::packet::op_class::{BRANCH, LD_ST_ATOMIC, OTHER, RESERVED};
use spe_defs::regs::pmbsr;
use spe_defs::Config;
use spe_ports::{Dut, Inputs, Outputs};

/// A unit that gives the scripted outputs, one per cycle (then all zero).
struct Script {
    outs: Vec<Outputs>,
    at: usize,
}

impl Dut for Script {
    fn step(&mut self, _: &Inputs) -> Outputs {
        self.at += 1;
        self.outs.get(self.at - 1).cloned().unwrap_or_default()
    }
}

/// Runs `steps` (inputs, outputs per cycle) through an observer of `cfg`; returns the
/// points hit, with their counts, by name.
fn observe(cfg: &Config, steps: &[(Inputs, Outputs)]) -> Vec<(String, u64)> {
    let outs = steps.iter().map(|(_, o)| o.clone()).collect();
    let mut obs = Observer::new(Script { outs, at: 0 }, cfg, true);
    for (i, _) in steps {
        obs.step(i);
    }
    let hits = obs.hits().unwrap();
    let plan = Plan::new(cfg);
    plan.points
        .iter()
        .zip(&hits.counts)
        .filter(|(_, &n)| n > 0)
        .map(|((name, _), &n)| (name.clone(), n))
        .collect()
}

fn idle() -> (Inputs, Outputs) {
    (Inputs::default(), Outputs::default())
}

/// A tag of slot 1 holding an op of `class`.
fn tag(class: u8) -> (Inputs, Outputs) {
    let (mut i, mut o) = idle();
    i.disp[1].valid = true;
    i.disp[1].class = class;
    o.tag = 0b10;
    (i, o)
}

/// A tag of slot 0 holding a branch with payload `sub`.
fn tag_branch(sub: u8) -> (Inputs, Outputs) {
    let (mut i, mut o) = idle();
    i.disp[0].valid = true;
    i.disp[0].class = BRANCH;
    i.disp[0].subclass = sub;
    o.tag = 0b1;
    (i, o)
}

fn completion(retired: bool) -> (Inputs, Outputs) {
    let (mut i, o) = idle();
    i.thr[0].cpl.done = true;
    i.thr[0].cpl.retired = retired;
    (i, o)
}

fn feed(kept: bool) -> (Inputs, Outputs) {
    let (i, mut o) = idle();
    o.thr[0].pmu_sample_feed = true;
    o.thr[0].pmu_sample_filtrate = kept;
    (i, o)
}

/// A beat at `addr` offered, taken when `ready`, faulting with `err` (its kind).
fn beat(addr: u64, data: u64, ready: bool, err: Option<u8>) -> (Inputs, Outputs) {
    let (mut i, mut o) = idle();
    o.wr_valid = true;
    o.wr_addr = addr;
    o.wr_data = data;
    i.wr_ready = ready;
    if let Some(k) = err {
        i.wr_err = true;
        i.wr_err_kind = k;
    }
    (i, o)
}

fn names(hits: &[(String, u64)]) -> Vec<&str> {
    hits.iter().map(|(n, _)| n.as_str()).collect()
}

#[test]
fn each_sample_outcome_counts_on_its_own_point_by_the_tagged_op_s_class() {
    let cfg = Config::default();
    let kept = observe(
        &cfg,
        &[
            tag(LD_ST_ATOMIC),
            idle(),
            completion(true),
            idle(),
            feed(true),
        ],
    );
    assert_eq!(names(&kept), ["sample/kept/load-store"]);
    let flushed = observe(&cfg, &[tag(BRANCH), completion(false), idle(), feed(true)]);
    assert_eq!(names(&flushed), ["sample/kept-flushed/branch"]);
    let filtered = observe(&cfg, &[tag(OTHER), completion(true), feed(false)]);
    assert_eq!(names(&filtered), ["sample/filtered/other"]);
    // The reserved class counts as other.
    let filtered = observe(&cfg, &[tag(RESERVED), completion(true), feed(false)]);
    assert_eq!(names(&filtered), ["sample/filtered/other"]);
    let mut timeout = idle();
    timeout.1.thr[0].sample_timeout = true;
    assert_eq!(
        names(&observe(&cfg, &[tag(LD_ST_ATOMIC), idle(), timeout])),
        ["sample/timed-out/load-store"]
    );
    // A PSB before the completion drops the sample; its rise is counted in its phase.
    let mut psb = idle();
    psb.0.thr[0].psb_req = true;
    assert_eq!(
        names(&observe(
            &cfg,
            &[tag(BRANCH), idle(), psb.clone(), feed(true)]
        )),
        ["sample/psb-dropped/branch", "psb/tracking"]
    );
    // After the completion it does not: the feed decides.
    assert_eq!(
        names(&observe(
            &cfg,
            &[tag(BRANCH), completion(true), psb.clone(), feed(true)]
        )),
        ["sample/kept/branch", "psb/completing"]
    );
    assert_eq!(names(&observe(&cfg, &[idle(), psb])), ["psb/idle"]);
    let mut reset = idle();
    reset.0.reset = true;
    assert_eq!(
        names(&observe(&cfg, &[tag(OTHER), reset, feed(true)])),
        ["sample/reset-dropped"]
    );
    // A feed with nothing in flight is no outcome.
    assert!(observe(&cfg, &[feed(true)]).is_empty());
}

#[test]
fn a_write_fault_counts_at_its_beat_index_and_kind_and_a_stall_at_the_offered_beat() {
    let cfg = Config::default();
    let base = 0x8000_0000u64;
    for (kind, name) in [(0u8, "ea"), (1, "stage1"), (2, "stage2"), (3, "reserved")] {
        for at in 0..cfg.record_beats() {
            let mut steps: Vec<_> = (0..at)
                .map(|b| beat(base + 8 * b as u64, 0, true, None))
                .collect();
            // A stall on the faulting beat first, then the fault with the handshake.
            steps.push(beat(base + 8 * at as u64, 0, false, None));
            steps.push(beat(base + 8 * at as u64, 0, true, Some(kind)));
            let hits = observe(&cfg, &steps);
            assert_eq!(
                names(&hits),
                [
                    format!("fault/{name}/beat{at}"),
                    format!("backpressure/beat{at}")
                ],
                "kind {kind} at beat {at}"
            );
        }
    }
    // The next record starts at beat 0 again, and so does a beat that does not follow.
    let steps = [
        beat(base, 0, true, None),
        beat(base + 8, 0, true, Some(pmbsr::ERR_EXTERNAL)),
        beat(base + 16, 0, true, Some(pmbsr::ERR_EXTERNAL)),
        beat(base + 64, 0, true, None),
        beat(base + 200, 0, true, Some(pmbsr::ERR_STAGE2)),
    ];
    assert_eq!(
        observe(&cfg, &steps),
        [
            ("fault/ea/beat0".to_string(), 1),
            ("fault/ea/beat1".to_string(), 1),
            ("fault/stage2/beat0".to_string(), 1),
        ]
    );
}

#[test]
fn an_external_abort_ends_the_record_but_on_a_unit_with_spev1p3_which_ignores_it() {
    // A record's beats with an external abort at beat 3, then a stage 1 fault on the next
    // beat: without SPEv1p3 the abort ended the record, so beats 4 to 7 began another and
    // the fault is at its beat 4; with it (v1p4, sixteen beats a record) the first record
    // ran to its end and the fault is at the next record's first beat.
    let base = 0x4000u64;
    for (p, next) in [
        ("default", "fault/stage1/beat4"),
        ("v1p4", "fault/stage1/beat0"),
    ] {
        let cfg = Config::preset(p).unwrap();
        let n = cfg.record_beats();
        let mut steps: Vec<_> = (0..n)
            .map(|b| beat(base + 8 * b as u64, 0, true, (b == 3).then_some(0)))
            .collect();
        steps.push(beat(base + 8 * n as u64, 0, true, Some(pmbsr::ERR_STAGE1)));
        assert_eq!(
            names(&observe(cfg, &steps)),
            ["fault/ea/beat3", next],
            "{p}"
        );
    }
}

#[test]
fn a_whole_record_counts_its_packets_events_and_saturated_counters() {
    // A record as the default unit lays it out (impdef::layout): a load with TOT at the
    // counter maximum, events RETIRED (bit 1) and L1D refill (bit 3), End.
    use spe_defs::impdef::layout;
    let cfg = Config::default();
    let mut rec = [0u8; 64];
    let put = |rec: &mut [u8; 64], off: usize, bytes: &[u8]| {
        rec[off..off + bytes.len()].copy_from_slice(bytes)
    };
    let max = cfg.counter_width.max() as u16;
    put(
        &mut rec,
        layout::LAT_TOTAL.offset,
        &[0x98, max as u8, (max >> 8) as u8],
    );
    put(&mut rec, layout::LAT_ISSUE.offset, &[0x99, 1, 0]);
    put(
        &mut rec,
        layout::PC.offset,
        &[0xb0, 0x40, 0x10, 0, 0, 0, 0, 0, 0x80],
    );
    put(
        &mut rec,
        layout::TGT_OR_VA.offset,
        &[0xb2, 0, 0x20, 0, 0, 0, 0, 0, 0],
    );
    put(&mut rec, layout::OP_TYPE.offset, &[0x49, 0]);
    put(&mut rec, layout::EVENTS.offset, &[0x52, 0b1010, 0]);
    put(
        &mut rec,
        layout::events(&cfg).offset + layout::events(&cfg).len,
        &[0x01],
    );
    let steps: Vec<_> = (0..cfg.record_beats())
        .map(|b| {
            let w = u64::from_le_bytes(rec[8 * b..8 * b + 8].try_into().unwrap());
            beat(0x1000 + 8 * b as u64, w, true, None)
        })
        .collect();
    let hits = observe(&cfg, &steps);
    assert_eq!(
        names(&hits),
        [
            "event/E1",
            "event/E3",
            "packet/counter-total",
            "packet/counter-issue",
            "packet/address-pc",
            "packet/address-data-va",
            "packet/op-type-load-store",
            "packet/events",
            "packet/end",
            "latency/total-saturated",
        ]
    );
    // Seven beats are no record.
    assert!(observe(&cfg, &steps[..cfg.record_beats() - 1]).is_empty());
}

#[test]
fn every_preset_s_plan_has_unique_points_and_only_those_it_builds() {
    for cfg in spe_defs::PRESETS {
        let plan = Plan::new(cfg);
        let mut names: Vec<_> = plan.points.iter().map(|(n, _)| n.clone()).collect();
        let n = names.len();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), n, "{}: a point named twice", cfg.name);
        let has = |p: &str| plan.points.iter().any(|(n, _)| n == p);
        assert_eq!(has("smt/thread1/kept"), cfg.threads > 1, "{}", cfg.name);
        assert_eq!(has("feed/br"), cfg.options.feed_events, "{}", cfg.name);
        assert_eq!(
            has("packet/address-prev-branch-target"),
            cfg.options.pbt,
            "{}",
            cfg.name
        );
        assert_eq!(has("event/E19"), cfg.options.v1p4_events, "{}", cfg.name);
        // A plan with nothing hit: every point is a hole.
        let zero = spe_cosim::functional::Hits {
            preset: cfg.name,
            counts: vec![0; n],
        };
        assert_eq!(holes(&plan, &zero).len(), n);
    }
}

#[test]
fn a_regression_job_counts_the_outcomes_its_statistics_count() {
    // A job of the regression (model and Verilated RTL in lockstep, chaos and all) with the
    // observer on: its kept and filtered samples are the SAMPLE_FILTRATE and dropped
    // counts of the bench, and the records it wrote have PC and Events packets.
    use spe_cosim::regress::{run_job, Job, JobOptions};
    let job = Job {
        index: 0,
        preset: Config::preset("v1p2x").unwrap(),
        seed: 3,
        cycles: 200_000,
    };
    eprintln!(
        "job {} (replay: cargo run --release --bin spe -- regress --job {})",
        job.spec(),
        job.spec()
    );
    let opts = JobOptions {
        functional: true,
        ..JobOptions::default()
    };
    let r = run_job(&job, &opts, &mut |_| {}).unwrap();
    assert_eq!(r.mismatches, 0, "{:?}", r.first);
    let hits = r.functional.clone().expect("hits counted");
    let plan = Plan::new(job.preset);
    let count = |prefix: &str| -> u64 {
        plan.points
            .iter()
            .zip(&hits.counts)
            .filter(|((n, _), _)| n.starts_with(prefix))
            .map(|(_, &c)| c)
            .sum()
    };
    let kept = count("sample/kept/") + count("sample/kept-flushed/");
    let filtered = count("sample/filtered/");
    eprintln!(
        "kept {kept}, filtered {filtered}; bench: filtrate {}, filter drops {}, records {}",
        r.stats.sample_filtrate,
        r.stats.filter_drops,
        r.records()
    );
    assert!(kept > 0);
    assert_eq!(kept, r.stats.sample_filtrate);
    assert_eq!(filtered, r.stats.filter_drops);
    assert!(count("packet/address-pc") > 0 && count("packet/events") > 0);
    assert!(count("packet/address-pc") <= r.records());
    // Without the option nothing is counted.
    let r = run_job(&job, &JobOptions::default(), &mut |_| {}).unwrap();
    assert!(r.functional.is_none());
}

#[test]
fn a_sampled_call_or_return_with_gcs_counts_where_the_unit_records_gcs() {
    // N1: on v1p4 (FEAT_SPE_CRR) a return with GCS (CR 10, bit 2) and a call with GCS
    // (CR 01) are their own points, kept or filtered; a return without GCS, or any branch
    // on a unit that does not record GCS, is not.
    use spe_defs::packet::subclass as sc;
    let ret = sc::BR_IND | sc::CR_RET << sc::BR_CR_SHIFT;
    let call = sc::CR_BL << sc::BR_CR_SHIFT;
    let v1p4 = Config::preset("v1p4").unwrap();
    // The feed with SAMPLE_FEED_LD for a return, _ST for a call, as N1 has it.
    let run = |cfg: &Config, sub: u8, kept: bool| {
        let mut f = feed(kept);
        f.1.thr[0].pmu_sample_feed_ld = sub & sc::BR_GCS != 0 && sub >> sc::BR_CR_SHIFT & 3 == 2;
        f.1.thr[0].pmu_sample_feed_st = sub & sc::BR_GCS != 0 && sub >> sc::BR_CR_SHIFT & 3 == 1;
        observe(cfg, &[tag_branch(sub), completion(true), f])
    };
    assert_eq!(
        names(&run(v1p4, ret | sc::BR_GCS, true)),
        ["sample/kept/branch", "feed/ld", "gcs/return/kept"]
    );
    assert_eq!(
        names(&run(v1p4, call | sc::BR_GCS, false)),
        ["sample/filtered/branch", "feed/st", "gcs/call/filtered"]
    );
    assert_eq!(names(&run(v1p4, ret, true)), ["sample/kept/branch"]);
    // A GCS return fed without SAMPLE_FEED_LD (the unit missed N1) is not counted.
    assert_eq!(
        names(&observe(
            v1p4,
            &[tag_branch(ret | sc::BR_GCS), completion(true), feed(true)]
        )),
        ["sample/kept/branch"]
    );
    assert_eq!(
        names(&run(&Config::default(), ret | sc::BR_GCS, true)),
        ["sample/kept/branch"]
    );
}

#[test]
fn a_psb_meets_a_kept_record_before_its_first_beat_and_buffer_full_follows_the_last_beat() {
    // Kept, no beat offered yet (the writer's wait or check cycle): psb/kept, not idle.
    let cfg = Config::default();
    let mut psb = idle();
    psb.0.thr[0].psb_req = true;
    assert_eq!(
        names(&observe(
            &cfg,
            &[tag(LD_ST_ATOMIC), completion(true), feed(true), psb.clone()]
        )),
        ["sample/kept/load-store", "psb/kept"]
    );
    // Once a beat was offered the record is no longer waiting.
    assert_eq!(
        names(&observe(
            &cfg,
            &[
                tag(LD_ST_ATOMIC),
                completion(true),
                feed(true),
                beat(0x100, 0, true, None),
                idle(),
                psb
            ]
        )),
        ["sample/kept/load-store", "psb/idle"]
    );
    // SAMPLE_BUFFER_FULL with the last beat: after the last beat, also when the beat's
    // external abort is ignored (SPEv1p3, v1p4); on a unit without SPEv1p3 (v1p2x) the
    // abort ended the record at that beat, so the event belongs to no last beat.
    let full = |p: &str| {
        let cfg = Config::preset(p).unwrap();
        let mut steps: Vec<_> = (0..cfg.record_beats())
            .map(|b| beat(0x2000 + 8 * b as u64, 0, true, None))
            .collect();
        let last = cfg.record_beats() - 1;
        steps[last].0.wr_err = true;
        steps[last].0.wr_err_kind = pmbsr::ERR_EXTERNAL;
        steps[last].1.thr[0].pmu_sample_buffer_full = true;
        observe(cfg, &steps)
            .into_iter()
            .map(|(n, _)| n)
            .filter(|n| n.starts_with("mgmt/"))
            .collect::<Vec<_>>()
    };
    assert_eq!(full("v1p4"), ["mgmt/buffer-full-after-last-beat"]);
    assert_eq!(full("v1p2x"), ["mgmt/buffer-full-at-check"]);
}

#[test]
fn known_holes_hold_a_run_to_its_list_both_ways() {
    use spe_cosim::functional::{check_known, known_holes, write_holes};
    let h = |p: &str, x: &str| (p.to_string(), x.to_string());
    let holes = vec![h("default", "sample/timed-out/other"), h("v1p5", "exc/el3")];
    let text = write_holes(&holes, "CI's jobs");
    assert!(text.contains("2 holes"), "{text}");
    let known = known_holes(&text).unwrap();
    assert_eq!(known, holes);
    assert_eq!(check_known(&holes, &known), Ok(()));
    // A point no longer hit fails, naming it; so does a known hole now hit.
    let lost = [holes.clone(), vec![h("default", "psb/idle")]].concat();
    let e = check_known(&lost, &known).unwrap_err();
    assert!(
        e.contains("1 point(s) no longer hit") && e.contains("default psb/idle"),
        "{e}"
    );
    let e = check_known(&holes[..1], &known).unwrap_err();
    assert!(
        e.contains("1 known hole(s) now hit") && e.contains("v1p5 exc/el3"),
        "{e}"
    );
    // Bad lines are named: a point the preset's plan has not, an unknown preset, a pair
    // listed twice, a malformed line.
    for (bad, why) in [
        ("default exc/el1", "default has no point \"exc/el1\""),
        ("huge psb/idle", "no preset \"huge\""),
        (
            "default psb/idle\ndefault psb/idle # again",
            "line 2: default psb/idle listed twice",
        ),
        ("default", "expected `<preset> <point>`"),
    ] {
        let e = known_holes(bad).unwrap_err();
        assert!(e.contains(why), "{bad:?}: {e}");
    }
}

#[test]
fn the_timeouts_job_times_out_each_class_saturates_each_counter_and_meets_a_kept_record() {
    // `default`'s timeouts job of CI's run (model and Verilated RTL in lockstep), phase by
    // phase: its stall phase times out a sample of each op class; its latency phase writes
    // a record with each latency counter saturated; its switch phase has a PSB rising in
    // a kept record's check cycle (at T = 1 the one cycle a kept record waits).
    use spe_cosim::regress::{
        all_presets, plan_jobs, run_job, JobOptions, DEFAULT_JOB_CYCLES, DEFAULT_TOTAL_CYCLES,
    };
    let presets = all_presets();
    let jobs = plan_jobs(1, DEFAULT_TOTAL_CYCLES, DEFAULT_JOB_CYCLES, &presets);
    let job = jobs
        .iter()
        .find(|j| j.preset.name == "default" && j.cycles > DEFAULT_JOB_CYCLES)
        .expect("CI's run has a timeouts job for default");
    eprintln!(
        "job {} (replay: cargo run --release --bin spe -- regress --job {} --verbose)",
        job.spec(),
        job.spec()
    );
    let opts = JobOptions {
        functional: true,
        ..JobOptions::default()
    };
    let r = run_job(job, &opts, &mut |_| {}).unwrap();
    assert_eq!(r.mismatches, 0, "{:?}", r.first);
    let hits = r.functional.clone().expect("hits counted");
    let plan = Plan::new(job.preset);
    let hit = |name: &str| -> u64 {
        let k = plan.points.iter().position(|(n, _)| n == name).unwrap();
        hits.counts[k]
    };
    let want = [
        "sample/timed-out/other",
        "sample/timed-out/load-store",
        "sample/timed-out/branch",
        "latency/total-saturated",
        "latency/issue-saturated",
        "latency/translation-saturated",
        "psb/kept",
    ];
    let counts: Vec<_> = want.iter().map(|p| (*p, hit(p))).collect();
    eprintln!("{counts:?}");
    for (p, n) in counts {
        assert!(n > 0, "the timeouts job did not hit {p}");
    }
}

#[test]
fn a_sample_under_an_eft_and_term_counts_on_its_row_of_each_masked_type() {
    // v1p4 (FEAT_SPE_EFT): PMSFCR written with FT, B and Bm (branches an AND term, kept
    // only if a branch) and LDm (loads an AND term with LD clear: kept only if not a
    // load). A branch at the filters meets `br/set-is` and `ld/clear-isnt`; a write
    // takes effect from the next cycle, and without FT no row counts.
    use spe_defs::regs::{pmsfcr, reg, RegId};
    let cfg = Config::preset("v1p4").unwrap();
    let write = |v: u64| {
        let (mut i, o) = idle();
        i.reg_en = true;
        i.reg_we = true;
        i.reg_addr = reg(RegId::Pmsfcr).addr();
        i.reg_wdata = v;
        (i, o)
    };
    let mut branch_fed = feed(true);
    branch_fed.1.thr[0].pmu_sample_feed_br = true;
    let fcr = pmsfcr::FT.place(1) | pmsfcr::B.place(1) | pmsfcr::BM.place(1) | pmsfcr::LDM.place(1);
    let eft = |steps: &[(Inputs, Outputs)]| -> Vec<String> {
        observe(cfg, steps)
            .into_iter()
            .map(|(n, _)| n)
            .filter(|n| n.starts_with("eft/"))
            .collect()
    };
    assert_eq!(
        eft(&[
            write(fcr),
            tag(BRANCH),
            completion(true),
            branch_fed.clone()
        ]),
        ["eft/br/set-is", "eft/ld/clear-isnt"]
    );
    // An op that is neither: the branch row's `isnt`, the load row's `isnt`.
    assert_eq!(
        eft(&[write(fcr), tag(OTHER), completion(true), feed(false)]),
        ["eft/br/set-isnt", "eft/ld/clear-isnt"]
    );
    // Without FT the masks are no terms; a unit without EFT has no such points.
    assert!(eft(&[
        write(fcr & !pmsfcr::FT.place(1)),
        tag(BRANCH),
        completion(true),
        branch_fed.clone()
    ])
    .is_empty());
    assert!(!Plan::new(&Config::default())
        .points
        .iter()
        .any(|(n, _)| n.starts_with("eft/")));
}

#[test]
fn a_group_at_el3_with_profiling_allowed_counts_once_per_cycle_and_only_then() {
    // `mode/el3`: a cycle with a valid slot at EL3, AArch64, prof_allowed high. Not
    // without a valid slot, with prof_allowed low, in AArch32, or at EL1; at T = 2 only
    // for the thread whose slot it is.
    let at = |el: u8, allowed: bool, a32: bool, valid: bool| {
        let (mut i, o) = idle();
        i.disp[0].valid = valid;
        i.disp[2].valid = valid;
        i.thr[0].disp_el = el;
        i.thr[0].prof_allowed = allowed;
        i.thr[0].disp_aarch32 = a32;
        (i, o)
    };
    let el3 = |cfg: &Config, steps: &[(Inputs, Outputs)]| -> u64 {
        observe(cfg, steps)
            .into_iter()
            .find(|(n, _)| n == "mode/el3")
            .map_or(0, |(_, k)| k)
    };
    let cfg = &Config::default();
    assert_eq!(el3(cfg, &[at(3, true, false, true), idle()]), 1);
    assert_eq!(
        el3(cfg, &[at(3, true, false, true), at(3, true, false, true)]),
        2
    );
    for (el, allowed, a32, valid) in [
        (3, false, false, true),
        (3, true, true, true),
        (3, true, false, false),
        (1, true, false, true),
    ] {
        assert_eq!(
            el3(cfg, &[at(el, allowed, a32, valid)]),
            0,
            "EL{el} allowed {allowed} AArch32 {a32} valid {valid}"
        );
    }
    // smt2: slots 0 and 2 are thread 0's, so thread 1 at EL3 with no slot of its own
    // counts nothing.
    let smt = Config::preset("smt2").unwrap();
    let (mut i, o) = idle();
    i.disp[0].valid = true;
    i.thr[1].disp_el = 3;
    i.thr[1].prof_allowed = true;
    assert_eq!(el3(smt, &[(i.clone(), o.clone())]), 0);
    i.disp[1].valid = true;
    i.disp[1].tid = 1;
    assert_eq!(el3(smt, &[(i, o)]), 1);
}
