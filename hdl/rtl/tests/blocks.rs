//! Block tests under rust-hdl's simulator: each block on its own, short runs, each test
//! named after the behaviour it checks. (The whole unit is checked against the golden
//! model in `verif/hdlsim`.)

use rust_hdl::prelude::*;
use spe_defs::regs::{self as r, pmbsr, pmscr, RegId};
use spe_defs::{impdef, Config, PRESETS};
use spe_rtl::arbiter::SpeArbiter;
use spe_rtl::bundles::{BufferUpdate, SamplePhase, Slot, WriteReq};
use spe_rtl::capture::SpeCapture;
use spe_rtl::filter::SpeFilter;
use spe_rtl::latency::SpeLatency;
use spe_rtl::regs::SpeRegs;
use spe_rtl::room::SpeRoom;
use spe_rtl::sampler::SpeSampler;
use spe_rtl::serializer::SpeSerializer;
use spe_rtl::sim::{comb, cycle, start};
use spe_rtl::tracker::SpeTracker;
use spe_rtl::writer::SpeWriter;

fn cfg() -> &'static Config {
    &PRESETS[0] // default: W=4, 12-bit counters, minimum interval 1024
}

fn b<const N: usize>(v: u64) -> Bits<N> {
    Bits::<N>::from(v & spe_defs::low_mask(N.min(64) as u32))
}

fn v<const N: usize>(x: Bits<N>) -> u64 {
    u64::from(x)
}

// ---------------------------------------------------------------- sampler

fn sampler() -> SpeSampler<4> {
    sampler_for(cfg())
}

/// [`sampler`] of the unit `cfg` (W = 4): profiling on at EL0 and EL1, the minimum interval.
fn sampler_for(cfg: &Config) -> SpeSampler<4> {
    let mut s = SpeSampler::<4>::new(cfg);
    start(&mut s);
    s.reset.next = false;
    s.ctl.next.prof_en = true;
    s.prof_allowed.next = true;
    s.ctl.next.el1_e0spe = true;
    s.ctl.next.el1_e1spe = true;
    s.disp_el.next = b(0);
    s.ctl.next.interval = b(u64::from(cfg.min_interval() >> 8));
    s
}

/// PMSICR after the group of the last cycle: the sampler applies a group's count in the
/// next cycle (`count_now`, from the PMSICR flop's value, here held by the test).
fn count_after(s: &mut SpeSampler<4>) -> u64 {
    comb(s, |s| s.disp_valid.next = b(0), |s| v(s.count_now.val()))
}

#[test]
fn sampler_tags_the_op_that_brings_the_counter_to_zero() {
    let mut s = sampler();
    let (tag, pop) = cycle(
        &mut s,
        |s| {
            s.ctl.next.count = b(3);
            s.disp_valid.next = b(0b1111);
        },
        |s| (v(s.tag.val()), v(s.pop.val())),
    );
    let next = count_after(&mut s);
    assert_eq!(tag, 0b0100, "the third population op brings 3 to 0");
    assert_eq!(pop, 4);
    assert_eq!(
        next,
        u64::from(cfg().min_interval()),
        "the fourth op finds zero and reloads"
    );
}

#[test]
fn sampler_reports_a_collision_instead_of_a_tag_while_busy() {
    let mut s = sampler();
    let (tag, coll) = cycle(
        &mut s,
        |s| {
            s.ctl.next.count = b(1);
            s.disp_valid.next = b(0b0001);
            s.phase.next = SamplePhase::Writing;
        },
        |s| (v(s.tag.val()), s.collision.val()),
    );
    assert_eq!((tag, coll), (0, true));
}

#[test]
fn sampler_leaves_ops_at_el3_in_aarch32_or_not_allowed_out_of_the_population() {
    let mut s = sampler();
    for setup in [
        (3u64, false, true), // EL3
        (0, true, true),     // AArch32
        (0, false, false),   // profiling not allowed
    ] {
        let pop = cycle(
            &mut s,
            |s| {
                s.ctl.next.count = b(1);
                s.disp_valid.next = b(0b1111);
                s.disp_el.next = b(setup.0);
                s.disp_aarch32.next = setup.1;
                s.prof_allowed.next = setup.2;
            },
            |s| v(s.pop.val()),
        );
        let next = count_after(&mut s);
        assert_eq!((pop, next), (0, 1), "{setup:?}");
    }
}

#[test]
fn sampler_uses_the_interval_as_written_below_the_minimum_zero_as_one_with_lfsr_jitter() {
    // J1 SPEResetSampleCounter: no clamp to PMSIDR.Interval; INTERVAL = 0 (UNKNOWN interval)
    // is used as 1.
    for (interval, reload) in [(1u64, 256u64), (0, 256), (2, 512)] {
        let mut s = sampler();
        // Reset, then count cycles so the LFSR state is known.
        cycle(&mut s, |s| s.reset.next = true, |_| ());
        let mut lfsr = impdef::LFSR_SEED;
        for _ in 0..5 {
            cycle(&mut s, |s| s.reset.next = false, |_| ());
            lfsr = impdef::lfsr_step(lfsr);
        }
        cycle(
            &mut s,
            |s| {
                s.ctl.next.count = b(0);
                s.disp_valid.next = b(0b0001);
                s.ctl.next.interval = b(interval);
                s.ctl.next.rnd = true;
            },
            |_| (),
        );
        let next = count_after(&mut s);
        assert_eq!(next, reload | u64::from(lfsr & 0xFF), "INTERVAL {interval}");
    }
}

#[test]
fn sampler_with_ernd_delays_the_sample_by_the_lfsr_byte_loaded_into_ecount() {
    // FEAT_SPE_ERnd (v1p2x), RND = 1: the op that brings COUNT to zero loads PMSICR.ECOUNT
    // with the LFSR's low byte k of that cycle and is not sampled (k > 0); the k-th
    // population op after it is (J1 SPEToCollectSample). The test keeps the PMSICR flop
    // (`ctl.count` <- `count_now`) as the register block does. Without the option the
    // sampler has no ECOUNT at all.
    assert!(SpeSampler::<4>::new(cfg()).ecount_rd.is_empty());
    let v1p2x = Config::preset("v1p2x").unwrap();
    // Warm-up cycles after reset until the LFSR's low byte is a small k > 4.
    let (mut lfsr, mut warm) = (impdef::LFSR_SEED, 0);
    while !(5..=40).contains(&(lfsr & 0xff)) {
        lfsr = impdef::lfsr_step(lfsr);
        warm += 1;
    }
    let k = u64::from(lfsr & 0xff);
    // Interval 1024 (v1p2x's minimum): no second expiry in this test.
    let mut s = sampler_for(v1p2x);
    s.ctl.next.rnd = true;
    cycle(&mut s, |s| s.reset.next = true, |_| ());
    s.reset.next = false;
    for _ in 0..warm {
        cycle(&mut s, |s| s.ctl.next.count = b(100), |_| ());
    }
    // The expiry: one op brings COUNT from 1 to 0.
    let (tag, count) = cycle(
        &mut s,
        |s| {
            s.ctl.next.count = b(1);
            s.disp_valid.next = b(0b0001);
        },
        |s| (v(s.tag.val()), v(s.count_now.val())),
    );
    assert_eq!(tag, 0, "ECOUNT {k} > 0: the expiring op is not sampled");
    let mut count = count;
    // Groups of four ops: the k-th op after the expiry is tagged, and no other.
    let mut ops = 0u64;
    let mut tagged = None;
    while ops < k + 8 {
        let (tag, next) = cycle(
            &mut s,
            |s| {
                s.ctl.next.count = b(count);
                s.disp_valid.next = b(0b1111);
            },
            |s| (v(s.tag.val()), v(s.count_now.val())),
        );
        count = next;
        if tag != 0 {
            assert!(tagged.is_none(), "a second tag");
            tagged = Some(ops + u64::from(tag.trailing_zeros()) + 1);
        }
        ops += 4;
    }
    assert_eq!(tagged, Some(k), "ECOUNT loaded with the LFSR byte {k}");
}

// ---------------------------------------------------------------- capture

type Capture = SpeCapture<4, 224, 8, 32>;

/// A capture block out of reset.
fn capture() -> Capture {
    capture_for(cfg())
}

/// [`capture`] of the unit `cfg` (W = 4).
fn capture_for(cfg: &Config) -> Capture {
    let mut c = Capture::new(cfg);
    start(&mut c);
    cycle(&mut c, |c| c.reset.next = true, |_| ());
    c.reset.next = false;
    c
}

/// Picks slot `slot` of a group whose slot i has PC 0x1000 + 4i, class `class`, payload
/// `subclass` and condition flag `cond` in an Idle cycle; then, with the phase out of Idle,
/// runs a cycle with another group on the inputs; returns the slot seen after it.
fn pick(c: &mut Capture, slot: usize, class: u64, subclass: u64, cond: bool) -> Slot {
    cycle(
        c,
        |c| {
            c.phase.next = SamplePhase::Idle;
            c.pick.next = b(1 << slot);
            c.disp_pc.next = (0..4).fold(b(0), |acc: Bits<224>, i| {
                acc | (b::<224>(0x1000 + 4 * i) << (56 * i))
            });
            c.disp_class.next = b((0..4).fold(0, |acc, i| acc | (class << (2 * i))));
            c.disp_subclass.next = b((0..4).fold(0, |acc, i| acc | (subclass << (8 * i))));
            c.disp_cond.next = b(if cond { 0xf } else { 0 });
        },
        |_| (),
    );
    cycle(
        c,
        |c| {
            c.phase.next = SamplePhase::Tracking;
            c.pick.next = b(1);
            c.disp_pc.next = b(0x7777);
            c.disp_class.next = b(0);
            c.disp_subclass.next = b(0);
            c.disp_cond.next = b(0);
        },
        |_| (),
    );
    comb(c, |_| (), |c| c.slot.val())
}

#[test]
fn capture_holds_the_tagged_slot_of_the_tag_cycle_group_and_classifies_it() {
    let mut c = capture();
    let s = pick(&mut c, 2, 1, 0, false);
    assert_eq!(v(s.pc), 0x1008, "slot 2's PC, held out of Idle");
    assert_eq!((v(s.op_class), v(s.op_payload)), (1, 0));
    assert!(s.is_ldst && s.is_load && !s.is_store && !s.is_branch && !s.cond);
    let s = pick(&mut c, 3, 2, 0, true);
    assert_eq!(v(s.pc), 0x100c);
    assert!(s.is_branch && !s.is_ldst && !s.is_load && s.cond);
}

#[test]
fn capture_records_a_reserved_class_as_other_and_a_returning_atomic_as_load_and_store() {
    let mut c = capture();
    let s = pick(&mut c, 0, 3, 0xff, false);
    assert_eq!((v(s.op_class), v(s.op_payload)), (0, 0));
    assert!(!s.is_ldst && !s.is_branch && !s.is_load && !s.is_store);
    let at =
        u64::from(spe_defs::packet::subclass::LDST_EXT | spe_defs::packet::subclass::LDST_EXT_AT);
    let s = pick(&mut c, 1, 1, at, false);
    assert!(s.is_load && s.is_store);
}

#[test]
fn capture_classifies_a_no_return_atomic_as_a_store_and_not_a_load() {
    let mut c = capture();
    let stadd = u64::from(
        spe_defs::packet::subclass::LDST_EXT
            | spe_defs::packet::subclass::LDST_EXT_AT
            | spe_defs::packet::subclass::LDST_ST,
    );
    assert_eq!(stadd, 0x07, "STADD's payload, `49 07`");
    let s = pick(&mut c, 2, 1, stadd, false);
    assert!(s.is_store && !s.is_load);
}

#[test]
fn capture_masks_op_type_bits_of_features_not_built_fpf_crr_gcs() {
    use spe_defs::packet::subclass as sc;
    let mut c = capture();
    // Class Other: ASE and FP (FEAT_SPE_FPF) are cleared, COND is kept; an SVE-other
    // payload (b3 set) passes whole, its FP flag included.
    for (sub, want) in [
        (0x06u8, 0x00u8),
        (0x07, 0x01),
        (0x02, 0x00),
        (0x04, 0x00),
        (
            sc::OTHER_SVE | sc::SVE_FP | sc::SVE_PRED,
            sc::OTHER_SVE | sc::SVE_FP | sc::SVE_PRED,
        ),
    ] {
        let s = pick(&mut c, 1, 0, u64::from(sub), false);
        assert_eq!(v(s.op_payload), u64::from(want), "Other {sub:#04x}");
        assert_eq!(
            u64::from(sc::recorded_payload(0, sub, cfg())),
            u64::from(want)
        );
    }
    // Branch: GCS (b2) and CR (b4:3, FEAT_SPE_CRR) are cleared, COND and IND kept.
    for sub in 0u8..=0x1f {
        let s = pick(&mut c, 2, 2, u64::from(sub), false);
        assert_eq!(v(s.op_payload), u64::from(sub & 0x03), "Branch {sub:#04x}");
        assert_eq!(sc::recorded_payload(2, sub, cfg()), sub & 0x03);
    }
    // Load/store subclasses pass through (the GCS load/store subclass among them).
    for sub in [0x00u8, 0x05, 0x25, 0x41, 0x8b, 0xe8] {
        let s = pick(&mut c, 0, 1, u64::from(sub), false);
        assert_eq!(v(s.op_payload), u64::from(sub), "Load/store {sub:#04x}");
    }
}

#[test]
fn capture_records_encodings_reserved_without_feat_spe_sme_as_the_architecture_allows() {
    // D18.2.7 (choice sme-reserved): an SME array op (Other, 0b1xxx1xx0) is recorded as
    // Other with payload 0; EVL 0b111 (> 2048 bits) in an SVE vector op or an SVE/SME
    // load/store as 0b110; the same payload with EVL 0b110 passes whole.
    use spe_defs::packet::subclass as sc;
    let evl = |e: u8| e << sc::VL_SHIFT;
    // v1p4 without FEAT_SPE_SME (no preset): FEAT_SPE_EFT's type flags of the reserved
    // encodings too.
    let v1p4 = Config::preset("v1p4").unwrap();
    let no_sme = Config {
        options: spe_defs::Options {
            sme: false,
            ..v1p4.options
        },
        ..*v1p4
    };
    for cfg in [cfg(), Config::preset("v1p2x").unwrap(), &no_sme] {
        let mut c = capture_for(cfg);
        for (class, sub, want) in [
            (0u8, sc::OTHER_SME | sc::SVE_FP, 0u8),
            (0, sc::OTHER_SME | evl(0b101), 0),
            (
                0,
                sc::OTHER_SVE | sc::SVE_FP | evl(0b111),
                sc::OTHER_SVE | sc::SVE_FP | evl(0b110),
            ),
            (0, sc::OTHER_SVE | evl(0b110), sc::OTHER_SVE | evl(0b110)),
            (
                1,
                sc::LDST_SVE_SME | sc::LDST_ST | evl(0b111),
                sc::LDST_SVE_SME | sc::LDST_ST | evl(0b110),
            ),
            (
                1,
                sc::LDST_SVE_SME | evl(0b011),
                sc::LDST_SVE_SME | evl(0b011),
            ),
        ] {
            let s = pick(&mut c, 1, u64::from(class), u64::from(sub), false);
            let ctx = format!("{} class {class} payload {sub:#04x}", cfg.name);
            assert_eq!(v(s.op_class), u64::from(class), "{ctx}");
            assert_eq!(v(s.op_payload), u64::from(want), "{ctx}");
            assert_eq!(sc::recorded_payload(class, sub, cfg), want, "{ctx}");
            if !c.attr_fp.is_empty() {
                // The SME array op is neither; SVE ops are SIMD (choice eft-simd).
                let sme = sc::is_sme_array(class, sub);
                assert_eq!(c.attr_simd[0].val(), !sme, "{ctx}: SIMD");
                let fp = class == 0 && !sme && sub & sc::SVE_FP != 0;
                assert_eq!(c.attr_fp[0].val(), fp, "{ctx}: FP");
                assert_eq!(sc::fp_simd(class, sub, false), Some((fp, !sme)), "{ctx}");
            }
        }
    }
}

#[test]
fn capture_keeps_the_fp_and_simd_flags_of_other_ops_with_feat_spe_fpf_and_sme_encodings_with_feat_spe_sme(
) {
    // FEAT_SPE_FPF (v1p4; D18.2.7): class Other that is not SVE/SME keeps COND, FP (b1)
    // and SIMD (b2); bits 7:4 are cleared. FEAT_SPE_SME (v1p4): an SVE-other payload and
    // an SME array op (0b1xxx1xx0) pass whole, EVL 0b111 and ETS included; for
    // FEAT_SPE_EFT an SME array op is SIMD, and FP by its FP flag (b1; J1
    // SPESampleOpSMEArrayOther), an SVE-other op SIMD and FP by b1 (choice eft-simd).
    use spe_defs::packet::subclass as sc;
    let v1p4 = Config::preset("v1p4").unwrap();
    assert!(v1p4.options.sme && v1p4.options.eft);
    let mut c = capture_for(v1p4);
    for sub in 0u8..=0xff {
        let want = if sub & sc::OTHER_SVE_SME_BIT == 0 {
            sub & 0x07
        } else {
            sub
        };
        let s = pick(&mut c, 1, 0, u64::from(sub), false);
        assert_eq!(v(s.op_payload), u64::from(want), "Other {sub:#04x}");
        assert_eq!(sc::recorded_payload(0, sub, v1p4), want);
        let (sme, sve) = (sub & 0x89 == 0x88, sub & 0x89 == 0x08);
        let simd = sme || sve || (sub & 0x08 == 0 && sub & 0x04 != 0);
        assert_eq!(c.attr_simd[0].val(), simd, "Other {sub:#04x}: SIMD");
        assert_eq!(c.attr_fp[0].val(), sub & 0x02 != 0, "Other {sub:#04x}: FP");
    }
}

#[test]
fn capture_keeps_a_branch_s_cr_and_a_call_or_return_s_gcs_with_feat_spe_crr() {
    // FEAT_SPE_CRR (v1p4; J1 SPEConstructClass, choice crr): CR 01 (call) and 10 (return)
    // are kept with their GCS bit; 11 (other) is kept without it; 00 is recorded as 11.
    // COND and IND pass, and so do bits 7:5 (as without the option: not a branch field).
    let mut c = capture_for(Config::preset("v1p4").unwrap());
    for sub in 0u8..=0xff {
        let cr = match (sub >> 3) & 3 {
            0 => 3,
            x => x,
        };
        let gcs = if cr == 1 || cr == 2 { sub & 0x04 } else { 0 };
        let want = (sub & 0xe3) | gcs | cr << 3;
        let s = pick(&mut c, 2, 2, u64::from(sub), false);
        assert_eq!(v(s.op_payload), u64::from(want), "Branch {sub:#04x}");
        assert_eq!(
            spe_defs::packet::subclass::recorded_payload(2, sub, Config::preset("v1p4").unwrap()),
            want
        );
    }
}

#[test]
fn capture_classifies_a_call_or_return_with_gcs_as_a_store_or_load_with_feat_spe_crr() {
    // D17.6.3 and J1 SPEFilterByType's is_gcs_ldst (review finding N1): with FEAT_SPE_CRR
    // (v1p4) a procedure return (CR 10) with GCS set pops the Guarded Control Stack and is
    // a load for the filters and SAMPLE_FEED_LD, a branch with link (CR 01) with GCS set
    // pushes it and is a store; every other branch is neither, and so is every branch of a
    // unit without the option (it does not record GCS); such a call or return takes its
    // GCS access's translation and memory reports (`is_ldst`). The rule of `spe_defs` the
    // model uses agrees on the recorded payload.
    use spe_defs::packet::subclass as sc;
    for (p, crr) in [("v1p4", true), ("default", false)] {
        let cfg = Config::preset(p).unwrap();
        assert_eq!(cfg.options.crr, crr);
        let mut c = capture_for(cfg);
        let (mut loads, mut stores) = (0, 0);
        for sub in 0u8..=0xff {
            let s = pick(&mut c, 1, 2, u64::from(sub), false);
            let gcs = crr && sub & sc::BR_GCS != 0;
            let cr = sc::br_cr(sub);
            // Its GCS access's reports are taken as a load or store's (N1 part 2).
            assert!(s.is_branch, "{p} Branch {sub:#04x}");
            assert_eq!(
                s.is_ldst,
                s.is_load || s.is_store,
                "{p} Branch {sub:#04x}: a data access?"
            );
            assert_eq!(
                s.is_load,
                gcs && cr == sc::CR_RET,
                "{p} Branch {sub:#04x}: a load?"
            );
            assert_eq!(
                s.is_store,
                gcs && cr == sc::CR_BL,
                "{p} Branch {sub:#04x}: a store?"
            );
            let rec = sc::recorded_payload(2, sub, cfg);
            assert_eq!(sc::br_gcs_is_load(rec), s.is_load, "{p} {sub:#04x}");
            assert_eq!(sc::br_gcs_is_store(rec), s.is_store, "{p} {sub:#04x}");
            loads += u32::from(s.is_load);
            stores += u32::from(s.is_store);
        }
        // 32 payloads each: GCS and the CR fixed, bits 7:5, IND and COND free.
        let want = if crr { 32 } else { 0 };
        assert_eq!((loads, stores), (want, want), "{p}");
    }
}

// ---------------------------------------------------------------- tracker

/// A tracker out of reset, collecting context and timestamps at EL1.
fn tracker() -> SpeTracker {
    tracker_for(cfg())
}

/// [`tracker`] of the unit `cfg`.
fn tracker_for(cfg: &Config) -> SpeTracker {
    let mut t = SpeTracker::new(cfg);
    start(&mut t);
    cycle(&mut t, |t| t.reset.next = true, |_| ());
    t.reset.next = false;
    t.ctl.next.el1_cx = true;
    t.ctl.next.el1_ts = true;
    t
}

/// Tags an op at EL1 (a load when `ldst`, else an op of class Other) whose slot the
/// capture block gives as PC 0x1008; returns the phase seen in the next cycle.
fn tag(t: &mut SpeTracker, ldst: bool) -> SamplePhase {
    cycle(
        t,
        |t| {
            t.tag_valid.next = true;
            t.disp_el.next = b(1);
            t.ctx_el1.next = b(0x1234);
            t.cnt_virt.next = b(0x5555);
        },
        |_| (),
    );
    t.tag_valid.next = false;
    t.slot.next.pc = b(0x1008);
    t.slot.next.op_class = b(u64::from(ldst));
    t.slot.next.is_ldst = ldst;
    t.slot.next.is_load = ldst;
    comb(t, |_| (), |t| t.phase.val())
}

/// One cycle with `set` applied; the phase and `psb_done` seen after it.
fn next(t: &mut SpeTracker, set: &dyn Fn(&mut SpeTracker)) -> (SamplePhase, bool) {
    cycle(t, |t| set(t), |_| ());
    comb(t, |_| (), |t| (t.phase.val(), t.psb_done.val()))
}

/// The completion report of a retired op.
fn complete(t: &mut SpeTracker) {
    t.cpl.next.done = true;
    t.cpl.next.retired = true;
}

#[test]
fn tracker_records_the_collection_decided_at_the_tag() {
    let mut t = tracker();
    assert_eq!(tag(&mut t, true), SamplePhase::Tracking);
    let s = t.sample.val();
    assert_eq!(v(s.pc), 0x1008, "the capture block's slot");
    assert_eq!(v(s.op_class), 1);
    assert_eq!(v(s.el), 1);
    assert!(s.cx1 && !s.cx2 && s.ts_en && !s.pa_en);
    assert_eq!((v(s.ctx1), v(s.ts)), (0x1234, 0x5555));
    let view = t.view.val();
    assert!(view.is_load && !view.is_store && !view.is_branch);
}

#[test]
fn tracker_drops_an_nv2_access_s_va_and_pa_unless_profiling_is_enabled_at_el2() {
    // D17.6.4.2, J1 SPEConstructRecord (choice nv2-address): an NV2 access (load/store
    // subclass 0x30/0x31) has no data VA, and so no PA, unless EL2 owns the buffer and
    // PMSCR_EL2.E2SPE is set at the tag; another load keeps both.
    for (payload, el2_owns, e2spe, want) in [
        (0x30u64, false, true, false),
        (0x31, true, false, false),
        (0x30, true, true, true),
        (0x00, false, false, true),
    ] {
        let ctx = format!("payload {payload:#x} EL2 owns {el2_owns} E2SPE {e2spe}");
        let mut t = tracker();
        t.regime.next.el2_en = true;
        t.regime.next.e2pb = b(if el2_owns { 0 } else { 3 });
        t.ctl.next.el1_pa = true;
        t.ctl.next.el2_pa = true;
        t.ctl.next.el2_e2spe = e2spe;
        assert_eq!(tag(&mut t, true), SamplePhase::Tracking, "{ctx}");
        t.slot.next.op_payload = b(payload);
        next(&mut t, &|t| t.xl.next.start = true);
        t.xl.next.start = false;
        next(&mut t, &|t| t.xl.next.done = true);
        t.xl.next.done = false;
        comb(&mut t, |_| (), |_| ());
        let s = t.sample.val();
        assert_eq!(s.xl_started, want, "VA: {ctx}");
        assert!(s.xl_done, "{ctx}");
        assert_eq!(s.pa_en, want, "PA: {ctx}");
    }
}

#[test]
fn tracker_accepts_each_hook_once_while_tracking_and_flags_the_rest_as_stray() {
    let mut t = tracker();
    // Outside tracking every report is stray.
    let stray = comb(&mut t, |t| t.iss_valid.next = true, |t| t.hook_stray.val());
    assert!(stray);
    t.iss_valid.next = false;
    tag(&mut t, true);
    let first = cycle(&mut t, |t| t.mem.next.done = true, |t| t.hook_stray.val());
    let again = cycle(&mut t, |_| (), |t| t.hook_stray.val());
    t.mem.next.done = false;
    assert!(!first, "the first memory report is accepted");
    assert!(again, "a second one is stray");
    let branch = cycle(&mut t, |t| t.br.next.done = true, |t| t.hook_stray.val());
    t.br.next.done = false;
    assert!(branch, "a branch report for a load is stray");
    let xl_done = cycle(&mut t, |t| t.xl.next.done = true, |t| t.hook_stray.val());
    t.xl.next.done = false;
    assert!(xl_done, "translation done without a start is stray");
    assert!(
        t.sample.val().ds_en,
        "the accepted memory report makes a Data Source packet"
    );
    assert!(!t.progress.val().issued);
}

#[test]
fn tracker_phase_runs_tracking_filter_check_writing_idle_and_ends_a_record_without_room() {
    let mut t = tracker();
    // (filtrate, write_en, no room in the check): written, dropped, discarded, no room.
    for (kept, write_en, check_end) in [
        (true, true, false),
        (false, true, false),
        (true, false, false),
        (true, true, true),
    ] {
        assert_eq!(tag(&mut t, false), SamplePhase::Tracking);
        assert_eq!(next(&mut t, &|_| ()).0, SamplePhase::Tracking);
        let (p, _) = next(&mut t, &|t| complete(t));
        t.cpl.next.done = false;
        assert_eq!(p, SamplePhase::Filter);
        assert!(t
            .sample
            .val()
            .events
            .get_bit(spe_defs::events::RETIRED as usize));
        let (p, _) = next(&mut t, &|t| {
            t.filtrate.next = kept;
            t.write_en.next = write_en;
            t.grant.next = kept && write_en;
        });
        t.filtrate.next = false;
        t.grant.next = false;
        if !(kept && write_en) {
            assert_eq!(p, SamplePhase::Idle, "a record not kept is never written");
            continue;
        }
        assert_eq!(p, SamplePhase::Check);
        let (p, _) = next(&mut t, &|t| t.check_end.next = check_end);
        t.check_end.next = false;
        if check_end {
            assert_eq!(
                p,
                SamplePhase::Idle,
                "no room: the record ends in its check"
            );
            continue;
        }
        assert_eq!(p, SamplePhase::Writing, "the check cycle found room");
        assert_eq!(next(&mut t, &|_| ()).0, SamplePhase::Writing, "held");
        let (p, _) = next(&mut t, &|t| t.wr_done.next = true);
        t.wr_done.next = false;
        assert_eq!(p, SamplePhase::Idle);
    }
}

#[test]
fn tracker_waits_for_the_grant_and_drops_a_waiting_record_when_writing_stops() {
    let mut t = tracker();
    for drop_it in [false, true] {
        assert_eq!(tag(&mut t, false), SamplePhase::Tracking);
        let (p, _) = next(&mut t, &|t| complete(t));
        t.cpl.next.done = false;
        assert_eq!(p, SamplePhase::Filter);
        t.write_en.next = true;
        // Not kept: no ask.
        assert!(!comb(&mut t, |_| (), |t| t.ask.val()));
        // Kept but not granted: it asks, and waits.
        t.filtrate.next = true;
        assert!(comb(&mut t, |_| (), |t| t.ask.val()), "a kept record asks");
        let (p, done) = next(&mut t, &|_| ());
        t.filtrate.next = false;
        assert_eq!(p, SamplePhase::Waiting);
        t.psb_req.next = true;
        assert!(
            !done && !comb(&mut t, |_| (), |t| t.psb_done.val()),
            "a waiting record holds the PSB"
        );
        t.psb_req.next = false;
        assert!(comb(&mut t, |_| (), |t| t.ask.val()), "and keeps asking");
        assert_eq!(
            next(&mut t, &|_| ()).0,
            SamplePhase::Waiting,
            "held without a grant"
        );
        if drop_it {
            t.write_en.next = false;
            assert!(
                !comb(&mut t, |_| (), |t| t.ask.val()),
                "not written: no ask"
            );
            let (p, _) = next(&mut t, &|t| t.grant.next = true);
            t.grant.next = false;
            assert_eq!(
                p,
                SamplePhase::Idle,
                "dropped when records stop being written"
            );
            continue;
        }
        let (p, _) = next(&mut t, &|t| t.grant.next = true);
        t.grant.next = false;
        assert_eq!(p, SamplePhase::Check, "granted: its check next");
        let (p, _) = next(&mut t, &|t| t.check_end.next = true);
        t.check_end.next = false;
        assert_eq!(p, SamplePhase::Idle);
    }
}

#[test]
fn tracker_keeps_the_previous_branch_target_of_a_taken_branch_report_with_feat_spe_pbt() {
    // FEAT_SPE_PBT (v1p2x): the register the core reports with the accepted branch report
    // goes to the serializer (which clears bits 60:56) when the branch was taken, the register
    // valid and the branch retired (D17.6.3.1: not for a flushed one); a later (stray)
    // report does not replace it. Without the option: no such logic.
    assert!(SpeTracker::new(cfg()).pbt_en.is_empty());
    let reg = 0xa0ff_8000_1020_3000u64;
    for (taken, valid, retired) in [
        (true, true, true),
        (false, true, true),
        (true, false, true),
        (true, true, false),
    ] {
        let mut t = SpeTracker::new(Config::preset("v1p2x").unwrap());
        start(&mut t);
        cycle(&mut t, |t| t.reset.next = true, |_| ());
        t.reset.next = false;
        assert_eq!(tag(&mut t, false), SamplePhase::Tracking);
        t.slot.next.op_class = b(2);
        t.slot.next.is_branch = true;
        next(&mut t, &|t| {
            t.br.next.done = true;
            t.br.next.taken = taken;
            t.prev_target[0].next = b(reg | 0x1f << 56);
            t.prev_valid[0].next = valid;
        });
        let stray = cycle(
            &mut t,
            |t| {
                t.br.next.taken = true;
                t.prev_target[0].next = b(0x1234);
                t.prev_valid[0].next = true;
            },
            |t| t.hook_stray.val(),
        );
        t.br.next.done = false;
        assert!(stray, "a second branch report is stray");
        next(&mut t, &|t| {
            t.cpl.next.done = true;
            t.cpl.next.retired = retired;
        });
        t.cpl.next.done = false;
        comb(&mut t, |_| (), |_| ());
        let want = taken && valid && retired;
        assert_eq!(
            t.pbt_en[0].val(),
            want,
            "taken {taken} valid {valid} retired {retired}"
        );
        if want {
            assert_eq!(v(t.pbt_addr[0].val()), reg | 0x1f << 56);
        }
    }
}

#[test]
fn tracker_psb_drops_a_tracked_sample_and_completes_only_after_the_record_is_written() {
    let mut t = tracker();
    t.write_en.next = true;
    // No request: never done.
    assert!(!comb(&mut t, |_| (), |t| t.psb_done.val()));
    // Idle: done in the request's own cycle.
    assert!(comb(
        &mut t,
        |t| t.psb_req.next = true,
        |t| t.psb_done.val()
    ));
    t.psb_req.next = false;
    // Tracking: done at once, and the sample is gone after the edge (no filter cycle).
    assert_eq!(tag(&mut t, false), SamplePhase::Tracking);
    assert!(comb(
        &mut t,
        |t| t.psb_req.next = true,
        |t| t.psb_done.val()
    ));
    let (p, _) = next(&mut t, &|t| {
        t.psb_req.next = true;
        complete(t);
    });
    t.psb_req.next = false;
    t.cpl.next.done = false;
    assert_eq!(
        p,
        SamplePhase::Idle,
        "a tracked sample is dropped, even in its completion cycle"
    );
    // A record past its completion is finished first: not done in Filter, Check, Writing.
    assert_eq!(tag(&mut t, false), SamplePhase::Tracking);
    let (p, _) = next(&mut t, &|t| complete(t));
    t.cpl.next.done = false;
    assert_eq!(p, SamplePhase::Filter);
    t.psb_req.next = true;
    assert!(!comb(&mut t, |_| (), |t| t.psb_done.val()), "filter cycle");
    let (p, done) = next(&mut t, &|t| {
        t.filtrate.next = true;
        t.grant.next = true;
    });
    t.filtrate.next = false;
    t.grant.next = false;
    assert_eq!((p, done), (SamplePhase::Check, false));
    let (p, done) = next(&mut t, &|_| ());
    assert_eq!((p, done), (SamplePhase::Writing, false));
    let (p, done) = next(&mut t, &|_| ());
    assert_eq!((p, done), (SamplePhase::Writing, false), "beats held back");
    let (p, done) = next(&mut t, &|t| t.wr_done.next = true);
    t.wr_done.next = false;
    assert_eq!(
        (p, done),
        (SamplePhase::Idle, true),
        "done after the last beat"
    );
    // Reset forces the output low.
    assert!(!comb(&mut t, |t| t.reset.next = true, |t| t.psb_done.val()));
    t.reset.next = false;
    t.psb_req.next = false;
}

// ---------------------------------------------------------------- registers

fn regs() -> SpeRegs<12> {
    let mut g = SpeRegs::<12>::new(cfg());
    start(&mut g);
    cycle(&mut g, |g| g.reset.next = true, |_| ());
    g.reset.next = false;
    g
}

fn write(g: &mut SpeRegs<12>, id: RegId, data: u64) {
    cycle(
        g,
        |g| {
            g.reg_en.next = true;
            g.reg_we.next = true;
            g.reg_addr.next = b(u64::from(r::reg(id).addr()));
            g.reg_wdata.next = b(data);
        },
        |_| (),
    );
    g.reg_we.next = false;
}

fn read(g: &mut SpeRegs<12>, id: RegId) -> u64 {
    cycle(
        g,
        |g| {
            g.reg_en.next = true;
            g.reg_we.next = false;
            g.reg_addr.next = b(u64::from(r::reg(id).addr()));
        },
        |g| v(g.reg_rdata.val()),
    )
}

#[test]
fn register_writes_drop_res0_bits_and_read_back() {
    let mut g = regs();
    for def in r::REGS
        .iter()
        .filter(|d| !d.read_only && d.id != RegId::Pmsicr)
    {
        write(&mut g, def.id, u64::MAX);
        assert_eq!(
            read(&mut g, def.id),
            def.writable_mask(cfg()),
            "{}",
            def.name
        );
    }
}

#[test]
fn pmscr_pct_bit_7_is_res0_without_feat_ecv_and_writable_with_it() {
    // D24.7.8: PCT<1> is RES0 unless FEAT_ECV (only the `wide` preset has it).
    let mut g = regs();
    for id in [RegId::PmscrEl1, RegId::PmscrEl2] {
        write(&mut g, id, pmscr::PCT.place(3));
        assert_eq!(
            read(&mut g, id),
            pmscr::PCT.place(1),
            "default: 11 reads as 01"
        );
    }
    let wide = Config::preset("wide").unwrap();
    assert!(wide.feat_ecv);
    let mut g = SpeRegs::<16>::new(wide);
    start(&mut g);
    cycle(&mut g, |g| g.reset.next = true, |_| ());
    g.reset.next = false;
    for id in [RegId::PmscrEl1, RegId::PmscrEl2] {
        cycle(
            &mut g,
            |g| {
                g.reg_en.next = true;
                g.reg_we.next = true;
                g.reg_addr.next = b(u64::from(r::reg(id).addr()));
                g.reg_wdata.next = b(pmscr::PCT.place(3));
            },
            |_| (),
        );
        g.reg_we.next = false;
        let got = cycle(
            &mut g,
            |g| {
                g.reg_en.next = true;
                g.reg_addr.next = b(u64::from(r::reg(id).addr()));
            },
            |g| v(g.reg_rdata.val()),
        );
        assert_eq!(
            got,
            pmscr::PCT.place(3),
            "wide (FEAT_ECV): 11 reads as written"
        );
    }
}

#[test]
fn read_only_registers_ignore_writes_and_advertise_the_configuration() {
    let mut g = regs();
    for id in [RegId::Pmsidr, RegId::Pmbidr] {
        write(&mut g, id, 0);
        assert_eq!(read(&mut g, id), r::read_only_value(id, cfg()));
    }
}

#[test]
fn a_port_write_wins_over_a_hardware_update_in_the_same_cycle() {
    let mut g = regs();
    cycle(
        &mut g,
        |g| {
            g.count_now.next = b(77);
            g.reg_en.next = true;
            g.reg_we.next = true;
            g.reg_addr.next = b(u64::from(r::reg(RegId::Pmsicr).addr()));
            g.reg_wdata.next = b(5);
        },
        |_| (),
    );
    g.reg_we.next = false;
    assert_eq!(
        v(g.sample_ctl.val().count),
        5,
        "the PMSICR flop took the write"
    );
}

#[test]
fn a_management_event_keeps_the_collision_flag_and_raises_the_interrupt() {
    let mut g = regs();
    g.count_now.next = b(0);
    cycle(&mut g, |g| g.coll_set.next = true, |_| ());
    let irq_before = g.irq.val();
    cycle(
        &mut g,
        |g| {
            g.coll_set.next = false;
            g.upd.next.abort = true;
        },
        |_| (),
    );
    g.upd.next.abort = false;
    let bsr = read(&mut g, RegId::Pmbsr);
    assert!(!irq_before);
    assert!(
        pmbsr::COLL.is_set(bsr)
            && pmbsr::S.is_set(bsr)
            && pmbsr::EA.is_set(bsr)
            && pmbsr::DL.is_set(bsr)
    );
    assert_eq!(pmbsr::EC.get(bsr), pmbsr::EC_FAULT_S1);
    assert!(g.irq.val());
    assert!(!g.sample_ctl.val().prof_en, "S stops profiling");
    assert!(!g.write_en.val(), "nor are records written");
}

#[test]
fn a_write_fault_sets_ec_fsc_and_ea_by_kind_and_keeps_dl_at_the_first_byte() {
    // D17.8.3/D17.8.4 (`pmbsr::fault`): EC by stage, MSS the FSC (010000 and EA for an
    // external abort, the reserved kind included), DL unchanged at the first byte, EA
    // unchanged by an MMU fault.
    for (kind, fsc) in [(0u64, 0u64), (1, 0b000111), (2, 0b001101), (3, 0b101010)] {
        for first in [false, true] {
            for (old_dl, old_ea) in [(false, false), (true, false), (false, true)] {
                let old = pmbsr::DL.place(u64::from(old_dl)) | pmbsr::EA.place(u64::from(old_ea));
                let mut g = regs();
                g.count_now.next = b(0);
                write(&mut g, RegId::Pmbsr, old);
                cycle(
                    &mut g,
                    |g| {
                        g.upd.next.abort = true;
                        g.upd.next.abort_kind = b(kind);
                        g.upd.next.abort_fsc = b(fsc);
                        g.upd.next.abort_first = first;
                    },
                    |_| (),
                );
                g.upd.next.abort = false;
                let bsr = read(&mut g, RegId::Pmbsr);
                let want = pmbsr::fault(old, kind as u8, fsc as u8, first);
                let ctx = format!(
                    "kind {kind} FSC {fsc:#x} first {first} DL was {old_dl} EA was {old_ea}"
                );
                assert_eq!(bsr, want, "{ctx}");
                let external = kind == 0 || kind == 3;
                assert_eq!(pmbsr::EA.is_set(bsr), external || old_ea, "{ctx}");
                assert_eq!(pmbsr::DL.is_set(bsr), !first || old_dl);
                assert_eq!(
                    pmbsr::EC.get(bsr),
                    if kind == 2 { 0b100101 } else { 0b100100 }
                );
                assert_eq!(pmbsr::FSC.get(bsr), if external { 0b010000 } else { fsc });
            }
        }
    }
}

// ---------------------------------------------------------------- latency counters

#[test]
fn a_buffer_full_event_leaves_dl_and_ea_and_a_lost_record_sets_dl() {
    for (dl, ea, lost) in [
        (true, true, false),
        (false, true, false),
        (false, false, true),
    ] {
        let mut g = regs();
        g.count_now.next = b(0);
        write(
            &mut g,
            RegId::Pmbsr,
            pmbsr::DL.place(dl.into()) | pmbsr::EA.place(ea.into()),
        );
        cycle(
            &mut g,
            |g| {
                g.upd.next.full = true;
                g.upd.next.full_dl = lost;
            },
            |_| (),
        );
        g.upd.next.full = false;
        g.upd.next.full_dl = false;
        let bsr = read(&mut g, RegId::Pmbsr);
        assert!(pmbsr::S.is_set(bsr) && g.irq.val());
        assert_eq!(pmbsr::EC.get(bsr), pmbsr::EC_BUF);
        assert_eq!(pmbsr::BSC.get(bsr), pmbsr::BSC_FULL);
        assert_eq!(pmbsr::DL.is_set(bsr), dl || lost, "DL (PMBSR {bsr:#x})");
        assert_eq!(pmbsr::EA.is_set(bsr), ea, "EA (PMBSR {bsr:#x})");
    }
}

/// Latency counters of an active thread, cleared (Idle) and then tracking.
fn latency() -> SpeLatency<12> {
    let mut l = SpeLatency::<12>::new(cfg());
    start(&mut l);
    l.active.next = true;
    cycle(&mut l, |l| l.phase.next = SamplePhase::Idle, |_| ());
    l.phase.next = SamplePhase::Tracking;
    l
}

#[test]
fn latency_counters_advance_only_while_the_thread_is_active() {
    let mut l = latency();
    l.progress.next.xl_started = true;
    // Active, inactive, active, active: three cycles counted.
    for active in [true, false, true, true] {
        cycle(&mut l, |l| l.active.next = active, |_| ());
    }
    assert_eq!((v(l.total.val()), v(l.issue.val())), (3, 3));
    assert_eq!(v(l.xlat.val()), 3);
    // A translation start restarts the translation counter even when inactive.
    cycle(
        &mut l,
        |l| {
            l.active.next = false;
            l.progress.next.xl_restart = true;
        },
        |_| (),
    );
    assert_eq!((v(l.total.val()), v(l.xlat.val())), (3, 0));
}

#[test]
fn latency_counters_saturate_at_the_counter_width() {
    let mut l = latency();
    for _ in 0..4200 {
        cycle(&mut l, |_| (), |_| ());
    }
    assert_eq!(v(l.total.val()), 4095);
    assert_eq!(
        v(l.issue.val()),
        4095,
        "never issued: issue counts to completion"
    );
    assert_eq!(v(l.xlat.val()), 0, "no translation");
}

#[test]
fn translation_latency_counts_from_the_start_report_to_the_done_report() {
    let mut l = latency();
    cycle(&mut l, |l| l.progress.next.xl_restart = true, |_| ());
    l.progress.next.xl_restart = false;
    l.progress.next.xl_started = true;
    for _ in 0..7 {
        cycle(&mut l, |_| (), |_| ());
    }
    l.progress.next.xl_done = true;
    for _ in 0..3 {
        cycle(&mut l, |_| (), |_| ());
    }
    assert_eq!(v(l.xlat.val()), 7);
    assert_eq!(v(l.total.val()), 11);
}

// ---------------------------------------------------------------- filter

fn filter() -> SpeFilter<12> {
    let mut f = SpeFilter::<12>::new(cfg());
    f.connect_all();
    f.phase.next = SamplePhase::Filter;
    f
}

#[test]
fn filter_drops_records_below_min_latency() {
    let mut f = filter();
    for (lat, kept) in [(99u64, false), (100, true), (4000, true)] {
        let got = comb(
            &mut f,
            |f| {
                f.ctl.next.fl = true;
                f.minlat.next = b(100);
                f.lat_total.next = b(lat);
            },
            |f| (f.feed.val(), f.filtrate.val()),
        );
        assert_eq!(got, (true, kept), "latency {lat}");
    }
}

#[test]
fn filter_keeps_only_records_with_every_selected_event_and_none_of_the_inverted() {
    let mut f = filter();
    for (events, kept) in [(0b0110u64, true), (0b0010, false), (0b1110, false)] {
        let got = comb(
            &mut f,
            |f| {
                f.ctl.next.fe = true;
                f.ctl.next.evfr = b(0b0110);
                f.ctl.next.fne = true;
                f.ctl.next.nevfr = b(0b1000);
                f.view.next.events = b(events);
            },
            |f| f.filtrate.val(),
        );
        assert_eq!(got, kept, "events {events:#b}");
    }
}

#[test]
fn filter_with_ft_but_no_type_bit_passes_everything() {
    let mut f = filter();
    let got = comb(&mut f, |f| f.ctl.next.ft = true, |f| f.filtrate.val());
    assert!(got);
    let got = comb(&mut f, |f| f.ctl.next.b = true, |f| f.filtrate.val());
    assert!(!got, "B set and the op is not a branch");
}

#[test]
fn filter_raises_the_spev1p2_feed_events_whether_or_not_the_filters_are_enabled() {
    // SAMPLE_FEED_BR/LD/ST/OP/EVENT/LAT (v1p2x; J1 SPEFilterByType, SPEFilterByEvents,
    // SPEFilterByLatency): in the filter cycle, from the sample and the filter registers
    // with FT, FE, FnE and FL clear (every record kept); nothing outside it.
    assert!(SpeFilter::<12>::new(cfg()).feed_br.is_empty());
    let mut f = SpeFilter::<12>::new(Config::preset("v1p2x").unwrap());
    f.connect_all();
    let feeds = |f: &SpeFilter<12>| {
        [
            f.feed_br[0].val(),
            f.feed_ld[0].val(),
            f.feed_st[0].val(),
            f.feed_op[0].val(),
            f.feed_event[0].val(),
            f.feed_lat[0].val(),
        ]
    };
    // A load with events 0b0110 and latency 30; PMSFCR.LD, PMSEVFR 0b0110, PMSNEVFR
    // 0b1000, MINLAT 20: BR no, LD yes, ST no, OP yes, EVENT yes, LAT yes.
    let load = |f: &mut SpeFilter<12>| {
        f.view.next.is_load = true;
        f.view.next.events = b(0b0110);
        f.lat_total.next = b(30);
        f.ctl.next.ld = true;
        f.ctl.next.evfr = b(0b0110);
        f.ctl.next.nevfr = b(0b1000);
        f.minlat.next = b(20);
    };
    let got = comb(
        &mut f,
        |f| {
            f.phase.next = SamplePhase::Filter;
            load(f);
        },
        |f| (feeds(f), f.filtrate.val()),
    );
    assert_eq!(got, ([false, true, false, true, true, true], true));
    // The same sample below MINLAT, with a PMSNEVFR event, as a branch with only B set.
    let got = comb(
        &mut f,
        |f| {
            f.view.next.is_load = false;
            f.view.next.is_branch = true;
            f.ctl.next.ld = false;
            f.ctl.next.b = true;
            f.view.next.events = b(0b1110);
            f.lat_total.next = b(19);
        },
        |f| (feeds(f), f.filtrate.val()),
    );
    assert_eq!(got, ([true, false, false, true, false, false], true));
    // Outside the filter cycle: none.
    let got = comb(
        &mut f,
        |f| f.phase.next = SamplePhase::Tracking,
        |f| feeds(f),
    );
    assert_eq!(got, [false; 6]);
}

#[test]
fn pmbsr_s_with_pmblimitr_pmfz_and_e_freezes_the_pmu_only_where_pmfz_is_built() {
    // PMBLIMITR.PMFZ (v1p2x; J1 SPEFreezeOnEvent, SPEProfilingStopped): pmu_freeze is
    // PMFZ & E & PMBSR.S, from the cycle after the event or the write; PMFZ is RES0 (and
    // there is no freeze output) without the option.
    let pmfz = 1u64 << 5;
    let limit = 0x8000_1000u64;
    let mut g = regs();
    assert!(g.freeze.is_empty());
    write(&mut g, RegId::Pmblimitr, limit | pmfz | 1);
    assert_eq!(read(&mut g, RegId::Pmblimitr), limit | 1, "PMFZ is RES0");
    let mut g = SpeRegs::<12>::new(Config::preset("v1p2x").unwrap());
    start(&mut g);
    cycle(&mut g, |g| g.reset.next = true, |_| ());
    g.reset.next = false;
    write(&mut g, RegId::Pmblimitr, limit | pmfz | 1);
    assert_eq!(read(&mut g, RegId::Pmblimitr), limit | pmfz | 1);
    assert!(!g.freeze[0].val(), "not stopped");
    // A buffer-full event stops profiling: frozen from the next cycle.
    cycle(&mut g, |g| g.upd.next.full = true, |_| ());
    g.upd.next.full = false;
    assert!(comb(&mut g, |_| (), |g| g.freeze[0].val()), "S set: frozen");
    // Clearing E (PMFZ kept) thaws it; so does clearing S with E set again.
    write(&mut g, RegId::Pmblimitr, limit | pmfz);
    assert!(!comb(&mut g, |_| (), |g| g.freeze[0].val()), "E clear");
    write(&mut g, RegId::Pmblimitr, limit | pmfz | 1);
    assert!(comb(&mut g, |_| (), |g| g.freeze[0].val()), "E and S again");
    write(&mut g, RegId::Pmbsr, 0);
    assert!(!comb(&mut g, |_| (), |g| g.freeze[0].val()), "S cleared");
    // In reset: low whatever the registers say.
    write(&mut g, RegId::Pmbsr, 1 << 17);
    assert!(comb(&mut g, |_| (), |g| g.freeze[0].val()), "S written");
    assert!(
        !comb(&mut g, |g| g.reset.next = true, |g| g.freeze[0].val()),
        "in reset"
    );
}

// ---------------------------------------------------------------- serializer

/// The record a serializer out of reset makes of the sample `set` gives: its eight beats.
fn serialize(set: impl Fn(&mut SpeSerializer<12>)) -> Vec<u8> {
    serialize_for(cfg(), set)
}

/// [`serialize`] with the serializer of `cfg` (12-bit counters): its eight beats, or
/// sixteen (the second half with `beat_hi`) for 128-byte records.
fn serialize_for(cfg: &Config, set: impl Fn(&mut SpeSerializer<12>)) -> Vec<u8> {
    let mut s = SpeSerializer::<12>::new(cfg);
    s.connect_all();
    let mut rec = Vec::new();
    for beat in 0..cfg.record_beats() as u64 {
        rec.extend(comb(
            &mut s,
            |s| {
                set(s);
                s.beat.next = b(beat % 8);
                for h in s.beat_hi.iter_mut() {
                    h.next = beat >= 8;
                }
            },
            |s| v(s.beat_data.val()).to_le_bytes(),
        ));
    }
    rec
}

#[test]
fn serializer_places_packets_at_their_fixed_offsets() {
    let rec = serialize(|s| {
        s.sample.next.pc = b(0xaaaa_d000_1000);
        s.sample.next.ns = true;
        s.sample.next.op_class = b(1);
        s.lat_total.next = b(0x123);
        s.sample.next.ts_en = true;
        s.sample.next.ts = b(0x1122_3344_5566_7788);
    });
    use spe_defs::impdef::layout;
    let at = |slot: impdef::Slot| &rec[slot.offset..slot.offset + slot.len];
    assert_eq!(
        at(layout::PC),
        &[0xB0, 0x00, 0x10, 0x00, 0xd0, 0xaa, 0xaa, 0x00, 0x80]
    );
    assert_eq!(at(layout::LAT_TOTAL), &[0x98, 0x23, 0x01]);
    assert_eq!(at(layout::OP_TYPE)[0], 0x49);
    assert_eq!(
        at(layout::END_OR_TS),
        &[0x71, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11]
    );
    assert!(
        at(layout::CONTEXT_EL1).iter().all(|&x| x == 0),
        "absent packets are padding"
    );
    assert_eq!(rec.len(), cfg().record_size());
}

#[test]
fn serializer_data_pa_ns_is_the_access_pa_space_not_the_pe_security_state() {
    // D18.2.1: the data PA's NS is its physical address space; the PC keeps the PE's.
    use spe_defs::impdef::layout;
    for (pe_ns, pa_ns) in [(true, true), (false, false), (false, true), (true, false)] {
        let rec = serialize(|s| {
            s.sample.next.pc = b(0xaaaa_d000_1000);
            s.sample.next.ns = pe_ns;
            s.sample.next.op_class = b(1);
            s.sample.next.pa_en = true;
            s.sample.next.xl_started = true;
            s.sample.next.xl_done = true;
            s.sample.next.pa = b(0x8_8000_1238);
            s.sample.next.pa_ns = pa_ns;
        });
        let top = |slot: impdef::Slot| rec[slot.offset + slot.len - 1];
        assert_eq!(rec[layout::PA.offset], 0xb3);
        assert_eq!(
            top(layout::PA) >> 7,
            u8::from(pa_ns),
            "PA NS ({pe_ns}, {pa_ns})"
        );
        assert_eq!(
            top(layout::PC) >> 7,
            u8::from(pe_ns),
            "PC NS ({pe_ns}, {pa_ns})"
        );
    }
}

#[test]
fn serializer_puts_the_previous_branch_target_in_the_pa_slot_with_feat_spe_pbt() {
    // FEAT_SPE_PBT (v1p2x): with pbt_en the PA slot holds Address packet index 4 with the
    // tracker's value, bits 60:56 recorded as 0 (reference §7.3's bytes); without it,
    // padding (a branch has no PA).
    use spe_defs::impdef::layout;
    let v1p2x = Config::preset("v1p2x").unwrap();
    for en in [true, false] {
        let rec = serialize_for(v1p2x, |s| {
            s.sample.next.op_class = b(2);
            s.sample.next.br_resolved = true;
            s.pbt_addr[0].next = b(0xa0ff_8000_1020_3000 | 0x1f << 56);
            s.pbt_en[0].next = en;
        });
        let pa = &rec[layout::PA.offset..layout::PA.offset + layout::PA.len];
        if en {
            assert_eq!(pa, &[0xb4, 0x00, 0x30, 0x20, 0x10, 0x00, 0x80, 0xff, 0xa0]);
        } else {
            assert!(pa.iter().all(|&x| x == 0));
        }
    }
}

#[test]
fn serializer_branch_target_carries_the_el_and_ns_at_the_target() {
    // D18.2.1: the target packet's EL and NS are those at the target (an ERET from EL1 to
    // EL0 records EL0), the PC packet's the op's.
    use spe_defs::impdef::layout;
    for (el, ns, tel, tns) in [
        (1u64, true, 0u64, true),
        (2, false, 1, true),
        (0, true, 0, false),
    ] {
        let rec = serialize(|s| {
            s.sample.next.pc = b(0xffff_8000_1010_0040 & 0x00ff_ffff_ffff_ffff);
            s.sample.next.el = b(el);
            s.sample.next.ns = ns;
            s.sample.next.op_class = b(2);
            s.sample.next.br_resolved = true;
            s.sample.next.target = b(0xaaaa_d000_1300);
            s.sample.next.target_el = b(tel);
            s.sample.next.target_ns = tns;
        });
        let top = |slot: impdef::Slot| u64::from(rec[slot.offset + slot.len - 1]);
        assert_eq!(rec[layout::TGT_OR_VA.offset], 0xb1);
        assert_eq!(top(layout::TGT_OR_VA), (u64::from(tns) << 7) | (tel << 5));
        assert_eq!(top(layout::PC), (u64::from(ns) << 7) | (el << 5));
    }
}

// ---------------------------------------------------------------- writer

/// A writer whose phase input follows its own `check_end` / `wr_done` outputs, as the
/// tracker's phase does in the unit (a kept record goes from Filter to Check).
struct Writer {
    w: SpeWriter,
    phase: SamplePhase,
}

impl Writer {
    fn new(ptr: u64, limit: u64) -> Writer {
        Writer::of(cfg(), ptr, limit)
    }

    /// A writer of the unit `c`.
    fn of(c: &Config, ptr: u64, limit: u64) -> Writer {
        let mut w = SpeWriter::new(c);
        start(&mut w);
        w.ctl.next.ptr = b(ptr);
        w.ctl.next.limit = b(limit);
        Writer {
            w,
            phase: SamplePhase::Idle,
        }
    }

    /// One cycle: `filtrate` offers a granted record (its filter cycle), `ready` / `err` are
    /// the memory's response; returns the outputs seen during the cycle.
    fn cycle(&mut self, filtrate: bool, ready: bool, err: bool) -> (WriteReq, BufferUpdate) {
        if filtrate {
            self.phase = SamplePhase::Filter;
        }
        let phase = self.phase;
        let (req, upd, check_end, done) = cycle(
            &mut self.w,
            |w| {
                w.phase.next = phase;
                w.resp.next.ready = ready;
                w.resp.next.err = err;
            },
            |w| (w.wr.val(), w.upd.val(), w.check_end.val(), w.wr_done.val()),
        );
        self.phase = match phase {
            SamplePhase::Filter => SamplePhase::Check,
            SamplePhase::Check if check_end => SamplePhase::Idle,
            SamplePhase::Check => SamplePhase::Writing,
            SamplePhase::Writing if done => SamplePhase::Idle,
            p => p,
        };
        (req, upd)
    }
}

#[test]
fn writer_writes_eight_beats_in_address_order_and_holds_a_beat_under_backpressure() {
    let mut w = Writer::new(0x1000, 0x2000);
    w.cycle(true, false, false);
    let mut addrs = Vec::new();
    let mut ptr = None;
    for c in 0..20 {
        let ready = c % 2 == 1; // every other cycle stalls
        let (req, upd) = w.cycle(false, ready, false);
        if req.valid && ready {
            addrs.push(v(req.addr));
        }
        if upd.ptr_we {
            ptr = Some(v(upd.ptr));
        }
    }
    assert_eq!(addrs, (0..8).map(|i| 0x1000 + 8 * i).collect::<Vec<_>>());
    assert_eq!(ptr, Some(0x1040));
    assert_eq!(w.phase, SamplePhase::Idle, "the last beat ends the record");
}

#[test]
fn writer_never_writes_at_or_past_the_limit() {
    let mut w = Writer::new(0x1FC0 + 0x40, 0x2000);
    let (_, upd) = w.cycle(true, false, false);
    assert!(
        !upd.full,
        "the filter cycle takes the record; the next cycle checks it"
    );
    let (req, upd) = w.cycle(false, true, false);
    assert!(!req.valid);
    assert!(
        upd.full && upd.full_dl,
        "no room: buffer full with data loss"
    );
    let (req, _) = w.cycle(false, true, false);
    assert!(!req.valid);
}

#[test]
fn writer_reports_the_fault_kind_fsc_and_whether_the_first_beat_faulted() {
    for bad in [0u64, 3] {
        let mut w = Writer::new(0x1000, 0x2000);
        w.cycle(true, false, false);
        w.cycle(false, true, false); // the check cycle
        for _ in 0..bad {
            w.cycle(false, true, false);
        }
        w.w.resp.next.err_kind = b(2);
        w.w.resp.next.err_fsc = b(0b001110);
        let (_, upd) = w.cycle(false, true, true);
        assert!(upd.abort);
        assert_eq!((v(upd.abort_kind), v(upd.abort_fsc)), (2, 0b001110));
        assert_eq!(upd.abort_first, bad == 0, "fault at beat {bad}");
        assert_eq!(v(upd.ptr), 0x1000 + 8 * bad);
    }
}

#[test]
fn writer_raises_no_event_for_a_held_last_beat_taken_after_profiling_stopped() {
    // D17.8.2/D17.8.3 (an event only "if PMBSR_ELx.S is 0", choice stopped-write): the last
    // beat of the last record that fits is held when S rises; taken, it raises neither
    // buffer-full nor a fault; PMBPTR moves past it (to it when it faulted).
    for err in [false, true] {
        let mut w = Writer::new(0x1FC0, 0x2000);
        w.cycle(true, false, false);
        w.cycle(false, true, false); // the check cycle
        for _ in 0..7 {
            let (req, _) = w.cycle(false, true, false);
            assert!(req.valid, "err {err}");
        }
        let (req, _) = w.cycle(false, false, false);
        assert!(
            req.valid && v(req.addr) == 0x1FF8,
            "err {err}: the last beat, held"
        );
        w.w.stopped.next = true;
        let (req, upd) = w.cycle(false, true, err);
        assert!(
            req.valid,
            "err {err}: the held beat stays offered and is taken"
        );
        assert!(
            !upd.full && !upd.abort,
            "err {err}: no management event while S is set"
        );
        assert!(upd.ptr_we, "err {err}");
        assert_eq!(v(upd.ptr), if err { 0x1FF8 } else { 0x2000 }, "err {err}");
        assert_eq!(w.phase, SamplePhase::Idle, "err {err}: the record ended");
    }
}

#[test]
fn writer_stops_on_a_write_error_with_the_pointer_at_the_faulting_beat() {
    let mut w = Writer::new(0x1000, 0x2000);
    w.cycle(true, false, false);
    w.cycle(false, true, false); // the check cycle
    w.cycle(false, true, false);
    w.cycle(false, true, false);
    let (_, upd) = w.cycle(false, true, true);
    assert!(upd.abort);
    assert_eq!(v(upd.ptr), 0x1010, "third beat faulted");
    let (req, _) = w.cycle(false, true, false);
    assert!(!req.valid, "no further writes");
}

// ---------------------------------------------------------------- arbiter

/// The arbiter against the rule of docs/smt.md, for `T` threads over random asks and
/// writer answers (seeded; replay by the printed seed): in a free cycle the first asking
/// thread after the one granted last (wrapping, from thread 0 after reset) is granted,
/// none while the writer holds a record; `cur`/`tid` name the last grant from the next
/// cycle; the held record is in its check the cycle after its grant, then in its beats
/// unless the check ends it, until the writer's `wr_done` (`checking`, `writing`); a
/// thread that keeps asking is granted before any other thread is granted twice.
fn arbiter_follows_round_robin<const T: usize, const TIDW: usize>(seed: u64) {
    println!("arbiter T={T} seed {seed:#x} (cargo test -p spe-rtl --test blocks arbiter)");
    let mut a = SpeArbiter::<T, TIDW>::new();
    start(&mut a);
    cycle(&mut a, |a| a.reset.next = true, |_| ());
    a.reset.next = false;
    let mut rng = seed;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    // The thread granted last (round robin starts after it; none yet: T - 1, as the
    // model's) and the thread `cur` names (thread 0 from reset).
    let (mut last, mut owner) = (T - 1, 0);
    // The held record's phase: (in its check, in its beats).
    let (mut chk, mut wr) = (false, false);
    // Grants to other threads since each thread started asking (None: not asking).
    let mut waited: [Option<usize>; T] = [None; T];
    let mut grants = [0u32; T];
    let (mut checks_ended, mut beats_ended) = (0u32, 0u32);
    for i in 0..4000 {
        let r = next();
        let ask = r & ((1 << T) - 1);
        let check_end = (r >> 8) % 4 == 0;
        let wr_done = (r >> 12) % 3 == 0;
        let (grant, cur, tid, checking, writing) = cycle(
            &mut a,
            |a| {
                a.ask.next = b(ask);
                a.check_end.next = check_end;
                a.wr_done.next = wr_done;
            },
            |a| {
                (
                    v(a.grant.val()),
                    v(a.cur.val()),
                    v(a.tid.val()),
                    a.checking.val(),
                    a.writing.val(),
                )
            },
        );
        assert_eq!(cur, 1 << owner, "cycle {i}: cur names the last grant");
        assert_eq!(tid, owner as u64, "cycle {i}: tid names the last grant");
        assert_eq!(
            (checking, writing),
            (chk, wr),
            "cycle {i}: the held record's phase"
        );
        let want = if chk || wr {
            None
        } else {
            (1..=T).map(|k| (last + k) % T).find(|&t| ask >> t & 1 == 1)
        };
        assert_eq!(
            grant,
            want.map_or(0, |t| 1 << t),
            "cycle {i}: ask {ask:#b}, checking {chk}, writing {wr}, last {last}"
        );
        for (t, waits) in waited.iter_mut().enumerate() {
            if ask >> t & 1 == 1 {
                let w = waits.get_or_insert(0);
                if want.is_some_and(|g| g != t) {
                    *w += 1;
                }
                assert!(*w < T, "cycle {i}: thread {t} passed over {w} times");
            }
            if ask >> t & 1 == 0 || want == Some(t) {
                *waits = None;
            }
        }
        checks_ended += u32::from(chk && check_end);
        beats_ended += u32::from(wr && wr_done);
        (chk, wr) = (want.is_some(), (chk && !check_end) || (wr && !wr_done));
        if let Some(g) = want {
            (last, owner) = (g, g);
            grants[g] += 1;
        }
    }
    assert!(
        grants.iter().all(|&n| n > 100) && checks_ended > 100 && beats_ended > 100,
        "every thread granted: {grants:?}; checks ended {checks_ended}, beats ended {beats_ended}"
    );
    // Reset: cur back to thread 0, no grant, the writer free.
    let grant = cycle(
        &mut a,
        |a| {
            a.reset.next = true;
            a.ask.next = b((1 << T) - 1);
            a.check_end.next = false;
            a.wr_done.next = false;
        },
        |a| v(a.grant.val()),
    );
    assert_eq!(grant, 0, "no grant in reset");
    a.reset.next = false;
    let after = comb(
        &mut a,
        |_| (),
        |a| (v(a.cur.val()), a.checking.val(), a.writing.val()),
    );
    assert_eq!(
        after,
        (1, false, false),
        "cur resets to thread 0, the writer free"
    );
}

#[test]
fn arbiter_grants_round_robin_one_record_at_a_time_two_threads() {
    arbiter_follows_round_robin::<2, 1>(0x5eed_0002);
}

#[test]
fn arbiter_grants_round_robin_one_record_at_a_time_four_threads() {
    arbiter_follows_round_robin::<4, 2>(0x5eed_0004);
}

// ---------------------------------------------------------------- room (T > 1)

/// A thread's room check says, one cycle later, whether the 64-byte slot at PMBPTR reaches
/// the limit (bits 63:12 of both, in two halves), as the writer's own check does.
#[test]
fn room_check_flags_a_slot_at_or_past_the_limit_one_cycle_later() {
    let mut r = SpeRoom::new(spe_defs::Config::preset("smt2").unwrap());
    start(&mut r);
    cycle(&mut r, |r| r.reset.next = true, |_| ());
    r.reset.next = false;
    let limit = 0xffff_8000_0010_0000u64;
    for (ptr, gone) in [
        (limit - 64, false),
        (limit - 1, false), // bits 5:0 ignored: the slot at limit - 64
        (limit, true),
        (limit + 0x40_0000_0000, true),  // upper half greater
        (limit - 0x40_0000_0000, false), // upper half smaller, lower half greater
        (0, false),
    ] {
        cycle(
            &mut r,
            |r| {
                r.ctl.next.ptr = b(ptr);
                r.ctl.next.limit = b(limit);
            },
            |_| (),
        );
        let after = comb(&mut r, |_| (), |r| r.gone.val());
        assert_eq!(after, gone, "PMBPTR {ptr:#x}, limit {limit:#x}");
    }
}

// ------------------------------------------------- FEAT_SPE_EFT and FEAT_SPE_FDS (v1p4)

/// The filter block of preset v1p4 (FEAT_SPE_EFT and FEAT_SPE_FDS built), in its filter
/// cycle.
fn filter_v1p4() -> SpeFilter<12> {
    let cfg = Config::preset("v1p4").unwrap();
    assert!(cfg.options.eft && cfg.options.fds && cfg.options.feed_events);
    let mut f = SpeFilter::<12>::new(cfg);
    f.connect_all();
    f.phase.next = SamplePhase::Filter;
    f
}

#[test]
fn filter_with_feat_spe_eft_ors_the_unmasked_types_and_ands_the_masked_ones() {
    // J1 SPEFilterByType over every TYPE (B, LD, ST, FP, SIMD from bit 0), every TYPEm and
    // every op flag set, against the rule stated type by type: each masked type's flag
    // equals its TYPE bit, and of the unmasked selected types (if any) the op has one.
    let mut f = filter_v1p4();
    for ctrl in 0u64..32 {
        for mask in 0u64..32 {
            for flags in 0u64..32 {
                let on = |x: u64, t: u64| x >> t & 1 == 1;
                let and_ok = (0..5).all(|t| !on(mask, t) || on(flags, t) == on(ctrl, t));
                let ors: Vec<u64> = (0..5).filter(|&t| on(ctrl, t) && !on(mask, t)).collect();
                let or_ok = ors.is_empty() || ors.iter().any(|&t| on(flags, t));
                let is_op = and_ok && or_ok;
                let got = comb(
                    &mut f,
                    |f| {
                        f.ctl.next.ft = true;
                        f.ctl.next.b = on(ctrl, 0);
                        f.ctl.next.ld = on(ctrl, 1);
                        f.ctl.next.st = on(ctrl, 2);
                        f.eft_type[0].next = b(ctrl >> 3);
                        f.eft_mask[0].next = b(mask);
                        f.view.next.is_branch = on(flags, 0);
                        f.view.next.is_load = on(flags, 1);
                        f.view.next.is_store = on(flags, 2);
                        f.attr_fp[0].next = on(flags, 3);
                        f.attr_simd[0].next = on(flags, 4);
                        f.attr_simd_fp_ldst[0].next = false;
                        f.fp_scalar[0].next = false;
                    },
                    |f| {
                        (
                            f.filtrate.val(),
                            f.feed_op[0].val(),
                            f.feed_fp[0].val(),
                            f.feed_simd[0].val(),
                        )
                    },
                );
                let want = (is_op, is_op && ctrl | mask != 0, on(flags, 3), on(flags, 4));
                assert_eq!(
                    got, want,
                    "TYPE {ctrl:05b} TYPEm {mask:05b} flags {flags:05b}"
                );
            }
        }
    }
    // FT clear: every op kept; SAMPLE_FEED_OP still follows the type test.
    let got = comb(
        &mut f,
        |f| {
            f.ctl.next.ft = false;
            f.ctl.next.b = true;
            f.ctl.next.ld = false;
            f.ctl.next.st = false;
            f.eft_type[0].next = b(0);
            f.eft_mask[0].next = b(0);
            f.view.next.is_branch = false;
            f.view.next.is_load = true;
            f.view.next.is_store = true;
            f.attr_fp[0].next = true;
            f.attr_simd[0].next = true;
        },
        |f| (f.filtrate.val(), f.feed_op[0].val()),
    );
    assert_eq!(got, (true, false));
    // A SIMD&FP load or store is FP when its access was scalar, else SIMD (D17.5.1), for
    // the type terms and SAMPLE_FEED_FP and _SIMD; the op's own attributes OR in.
    for (attr_fp, attr_simd, ldst, scalar, fp, simd) in [
        (false, false, true, true, true, false),
        (false, false, true, false, false, true),
        (false, false, false, true, false, false),
        (true, false, true, false, true, true),
        (false, true, true, true, true, true),
    ] {
        let got = comb(
            &mut f,
            |f| {
                f.ctl.next.ft = true;
                f.ctl.next.b = false;
                f.ctl.next.ld = false;
                f.ctl.next.st = false;
                f.eft_type[0].next = b(0b01);
                f.eft_mask[0].next = b(0);
                f.attr_fp[0].next = attr_fp;
                f.attr_simd[0].next = attr_simd;
                f.attr_simd_fp_ldst[0].next = ldst;
                f.fp_scalar[0].next = scalar;
            },
            |f| (f.feed_fp[0].val(), f.feed_simd[0].val(), f.filtrate.val()),
        );
        assert_eq!(
            got,
            (fp, simd, fp),
            "fp {attr_fp} simd {attr_simd} ldst {ldst} scalar {scalar}"
        );
    }
}

#[test]
fn filter_with_feat_spe_fds_drops_the_loads_whose_data_source_pmsdsfr_does_not_select() {
    // J1 SPEFilterByDataSource: the source's bits 5:0 index PMSDSFR; with FDS a sample with
    // a data source (a load whose memory report came) is dropped when the bit is clear;
    // SAMPLE_FEED_DS when it is set, whatever FDS says; no data source: kept, no event. It
    // filters the op types Load and LoadAtomic only: a branch with a data source (a return
    // with GCS under FEAT_SPE_CRR) is kept, with no event, whatever its source.
    let mut f = filter_v1p4();
    let dsfr = (1u64 << 63) | (1 << 14) | 1;
    for (fds, ds_en, src, branch, kept, feed_ds) in [
        (true, true, 14u64, false, true, true),
        (true, true, 0x40 | 14, false, true, true),
        (true, true, 0xc0 | 63, false, true, true),
        (true, true, 0, false, true, true),
        (true, true, 8, false, false, false),
        (true, true, 0x80 | 8, false, false, false),
        (false, true, 8, false, true, false),
        (false, true, 14, false, true, true),
        (true, false, 8, false, true, false),
        (true, true, 8, true, true, false),
        (true, true, 14, true, true, false),
    ] {
        let got = comb(
            &mut f,
            |f| {
                f.dsfr[0].next = b(dsfr);
                f.fcr_fds[0].next = fds;
                f.ds_en[0].next = ds_en;
                f.ds_src[0].next = b(src);
                f.view.next.is_branch = branch;
            },
            |f| (f.filtrate.val(), f.feed_ds[0].val()),
        );
        assert_eq!(
            got,
            (kept, feed_ds),
            "FDS {fds} data source {ds_en} {src:#x} branch {branch}"
        );
    }
}

#[test]
fn regs_with_eft_and_fds_store_pmsfcr_s_new_bits_and_pmsdsfr_and_read_them_back() {
    // Preset v1p4: PMSFCR's FP, SIMD (bits 20:19) and TYPEm (52:48) beside its storage,
    // FDS (bit 4) in it; PMSDSFR at its own address, every bit. The default preset has
    // none of them: PMSFCR keeps its own fields and PMSDSFR's address reads zero.
    let v1p4 = Config::preset("v1p4").unwrap();
    let mut g = SpeRegs::<12>::new(v1p4);
    start(&mut g);
    cycle(&mut g, |g| g.reset.next = true, |_| ());
    g.reset.next = false;
    write(&mut g, RegId::Pmsfcr, u64::MAX);
    let fcr = r::reg(RegId::Pmsfcr).writable_mask(v1p4);
    assert_eq!(fcr, 0x001f_0000_001f_001f, "FE FT FL FnE FDS, TYPE, TYPEm");
    assert_eq!(read(&mut g, RegId::Pmsfcr), fcr);
    write(&mut g, RegId::Pmsdsfr, 0x8000_0000_0000_4001);
    assert_eq!(read(&mut g, RegId::Pmsdsfr), 0x8000_0000_0000_4001);
    // TYPE bits 4:3, TYPEm, FDS and PMSDSFR as the block gives them to the filter.
    let outs = |g: &mut SpeRegs<12>| {
        comb(
            g,
            |_| (),
            |g| {
                (
                    v(g.eft_type[0].val()),
                    v(g.eft_mask[0].val()),
                    g.fds[0].val(),
                    v(g.dsfr[0].val()),
                )
            },
        )
    };
    assert_eq!(outs(&mut g), (0b11, 0b11111, true, 0x8000_0000_0000_4001));
    write(&mut g, RegId::Pmsfcr, spe_defs::regs::pmsfcr::FPM.place(1));
    assert_eq!(read(&mut g, RegId::Pmsfcr), 1 << 51);
    assert_eq!(outs(&mut g), (0, 0b01000, false, 0x8000_0000_0000_4001));
    // The default preset (no FEAT_SPE_FnE either: bit 3 is RES0).
    let mut g = regs();
    write(&mut g, RegId::Pmsfcr, u64::MAX);
    assert_eq!(read(&mut g, RegId::Pmsfcr), 0x0007_0007);
    write(&mut g, RegId::Pmsdsfr, u64::MAX);
    assert_eq!(read(&mut g, RegId::Pmsdsfr), 0);
    assert!(g.eft_type.is_empty() && g.dsfr.is_empty());
}

// ------------------------------- events above bit 15: SVE (v1p2x, v1p4) and SPEv1p4 (v1p4)

/// The tracker's Events bits 31:16 as the serializer and filter see them now, in place
/// (the word carries event 16 at bit 0).
fn events_hi(t: &mut SpeTracker) -> u64 {
    comb(t, |_| (), |t| v(t.events_hi[0].val()) << 16)
}

#[test]
fn tracker_takes_the_completion_s_predicate_flags_as_sve_events_e17_and_e18() {
    // FEAT_SPEv1p1 (v1p2x): E[17] partial or empty predicate, E[18] empty predicate (which
    // implies E[17]), from the completion report only; held while the record is filtered
    // and written. Without the option: no such ports and no bits above 15.
    use spe_defs::events::{bit, EMPTY_PREDICATE, PARTIAL_PREDICATE};
    let t = SpeTracker::new(cfg());
    assert!(t.pred_not_full.is_empty() && t.events_hi.is_empty());
    let (e17, e18) = (bit(PARTIAL_PREDICATE), bit(EMPTY_PREDICATE));
    for (not_full, empty, want) in [
        (false, false, 0),
        (true, false, e17),
        (false, true, e17 | e18),
        (true, true, e17 | e18),
    ] {
        let mut t = tracker_for(Config::preset("v1p2x").unwrap());
        assert_eq!(tag(&mut t, false), SamplePhase::Tracking);
        let flags = |t: &mut SpeTracker, nf: bool, e: bool| {
            t.pred_not_full[0].next = nf;
            t.pred_empty[0].next = e;
        };
        // Flags without a completion report are not taken.
        next(&mut t, &|t| flags(t, true, true));
        assert_eq!(events_hi(&mut t), 0, "flags before the completion");
        let (p, _) = next(&mut t, &|t| {
            flags(t, not_full, empty);
            complete(t);
        });
        t.cpl.next.done = false;
        assert_eq!(p, SamplePhase::Filter, "completed");
        assert_eq!(events_hi(&mut t), want, "not full {not_full} empty {empty}");
        // Flags after the completion change nothing.
        next(&mut t, &|t| flags(t, !not_full, !empty));
        assert_eq!(events_hi(&mut t), want, "held after the completion");
    }
}

#[test]
fn tracker_records_the_spev1p4_memory_flags_of_a_load_and_none_of_a_store() {
    // FEAT_SPEv1p4 (v1p4): each of the five memory-hook flags, in port order
    // (`V1P4_PORT_ORDER`), becomes its event bit for a load whose memory report counted;
    // a store has none of them (D18.2.6: "not a load" reads 0); flags without the report,
    // or with a second (stray) report, are not taken. The SVE bits OR in beside them.
    use spe_defs::events::{bit, EMPTY_PREDICATE, PARTIAL_PREDICATE, V1P4_PORT_ORDER};
    assert!(SpeTracker::new(cfg()).v4_in.is_empty());
    let cfg = Config::preset("v1p4").unwrap();
    for (j, &ev) in V1P4_PORT_ORDER.iter().enumerate() {
        for load in [true, false] {
            let mut t = tracker_for(cfg);
            tag(&mut t, true);
            t.slot.next.is_load = load;
            t.slot.next.is_store = !load;
            let only = |t: &mut SpeTracker, k: Option<usize>| {
                for (i, s) in t.v4_in.iter_mut().enumerate() {
                    s.next = k.is_none_or(|k| k == i);
                }
            };
            next(&mut t, &|t| only(t, None));
            assert_eq!(events_hi(&mut t), 0, "flags without a memory report");
            next(&mut t, &|t| {
                only(t, Some(j));
                t.mem.next.done = true;
            });
            let want = if load { bit(ev) } else { 0 };
            assert_eq!(events_hi(&mut t), want, "port {j} load {load}");
            let stray = cycle(&mut t, |t| only(t, None), |t| t.hook_stray.val());
            assert!(stray, "a second memory report is stray");
            t.mem.next.done = false;
            assert_eq!(events_hi(&mut t), want, "kept over a stray report");
            next(&mut t, &|t| {
                complete(t);
                t.pred_empty[0].next = true;
            });
            let sve = bit(PARTIAL_PREDICATE) | bit(EMPTY_PREDICATE);
            assert_eq!(events_hi(&mut t), want | sve, "with the SVE bits");
        }
    }
}

#[test]
fn filter_applies_fe_and_fne_and_sample_feed_event_to_the_events_above_bit_15() {
    // v1p4: PMSEVFR/PMSNEVFR bits 31:16 (a 16-bit word, event 16 at bit 0) filter beside
    // bits 15:0 (J1 SPEFilterByEvents: every selected event set, none of the inverted
    // ones); SAMPLE_FEED_EVENT follows the same test over all the bits whether or not FE /
    // FnE are set.
    use spe_defs::events::{bit, DATA_SNOOPED, L2D_MISS, PARTIAL_PREDICATE, RETIRED};
    let mut f = filter_v1p4();
    let (e17, e20, e23) = (bit(PARTIAL_PREDICATE), bit(L2D_MISS), bit(DATA_SNOOPED));
    let retired = bit(RETIRED);
    for (fe, fne, low, hi, kept, feed) in [
        (true, true, retired, e17 | e20, true, true),
        (true, true, retired, e17, false, false),
        (true, true, 0, e17 | e20, false, false),
        (true, true, retired, e17 | e20 | e23, false, false),
        (false, true, retired, e17, true, false),
        (false, true, retired, e23, false, false),
        (true, false, retired, e17 | e20 | e23, true, false),
        (false, false, 0, e23, true, false),
    ] {
        let got = comb(
            &mut f,
            |f| {
                f.ctl.next.fe = fe;
                f.ctl.next.evfr = b(retired);
                f.evfr_hi[0].next = b((e17 | e20) >> 16);
                f.ctl.next.fne = fne;
                f.ctl.next.nevfr = b(0);
                f.nevfr_hi[0].next = b(e23 >> 16);
                f.view.next.events = b(low);
                f.ev_hi[0].next = b(hi >> 16);
            },
            |f| (f.filtrate.val(), f.feed_event[0].val()),
        );
        assert_eq!(
            got,
            (kept, feed),
            "FE {fe} FnE {fne} events {:#x}",
            low | hi
        );
    }
    assert!(
        filter().ev_hi.is_empty(),
        "no high events in the default preset"
    );
}

#[test]
fn serializer_of_a_128_byte_record_gives_the_data_addresses_places_of_their_own() {
    // v1p4 records GCS (FEAT_SPE_CRR): a call or return with a GCS access has its target
    // and its data VA and PA (D17.6.3), so each has its own place: the target at 28 (the
    // shared place), the VA at 64, the PA at 80, Timestamp / End at 96; the previous-branch
    // target alone at 37. Sixteen beats, the second half with `beat_hi`.
    use spe_defs::impdef::layout;
    let cfg = Config::preset("v1p4").unwrap();
    assert!(cfg.long_records() && cfg.options.pbt);
    let va = 0x0000_7fff_efff_fff8u64;
    for (ts_en, pbt_en) in [(true, true), (false, false)] {
        let rec = serialize_for(cfg, |s| {
            s.sample.next.op_class = b(2);
            s.sample.next.br_resolved = true;
            s.sample.next.target = b(0xaaaa_d000_4000);
            s.sample.next.xl_started = true;
            s.sample.next.va = b(va);
            s.sample.next.xl_done = true;
            s.sample.next.pa_en = true;
            s.sample.next.pa = b(0x00c0_1234_5ff8);
            s.sample.next.pa_ns = true;
            s.pbt_addr[0].next = b(0x8000_0000_0000_1234);
            s.pbt_en[0].next = pbt_en;
            s.sample.next.ts_en = ts_en;
            s.sample.next.ts = b(0x1122_3344_5566_7788);
        });
        assert_eq!(rec.len(), 128);
        let at = |slot: impdef::Slot| rec[slot.offset..slot.offset + slot.len].to_vec();
        assert_eq!(at(layout::LONG_TGT)[..3], [0xb1, 0x00, 0x40], "the target");
        let mut want_va = vec![0xb2];
        want_va.extend_from_slice(&va.to_le_bytes());
        assert_eq!(at(layout::va(cfg)), want_va, "the data VA at 64");
        let pa = spe_defs::packet::addr_payload::physical(0x00c0_1234_5ff8, true);
        let mut want_pa = vec![0xb3];
        want_pa.extend_from_slice(&pa.to_le_bytes());
        assert_eq!(at(layout::pa(cfg)), want_pa, "the data PA at 80");
        assert_eq!(
            at(layout::LONG_PBT)[0],
            if pbt_en { 0xb4 } else { 0 },
            "the previous-branch target alone at 37"
        );
        let end = layout::end_or_ts(cfg);
        assert_eq!(end.offset, 96);
        let want: Vec<u8> = if ts_en {
            vec![0x71, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11]
        } else {
            [vec![0x01], vec![0; 8]].concat()
        };
        assert_eq!(at(end), want);
        // Nothing else in the second half, and no Timestamp / End in the first.
        let placed = |o: usize| [64..73, 80..89, 96..105].iter().any(|r| r.contains(&o));
        assert!(
            (55..128).filter(|&o| !placed(o)).all(|o| rec[o] == 0),
            "{rec:02x?}"
        );
    }
}

#[test]
fn serializer_with_a_4_byte_events_payload_moves_timestamp_or_end_two_bytes_on() {
    // v1p2x's Events packet is 4 bytes (header 0x62) at 50..54: bits 15:0 from the sample,
    // bits 31:16 from the tracker's events_hi; Timestamp (0x71 and 8 bytes) or End (0x01
    // and padding) at 55..63.
    use spe_defs::impdef::layout;
    let cfg = Config::preset("v1p2x").unwrap();
    assert_eq!(impdef::events_payload(cfg), 4);
    for ts_en in [true, false] {
        let rec = serialize_for(cfg, |s| {
            s.sample.next.op_class = b(1);
            s.sample.next.events = b(0x8002);
            s.ev_hi[0].next = b((1 << 17 | 1 << 23 | 1 << 30) >> 16);
            s.sample.next.ts_en = ts_en;
            s.sample.next.ts = b(0x1122_3344_5566_7788);
        });
        let at = |slot: impdef::Slot| rec[slot.offset..slot.offset + slot.len].to_vec();
        assert_eq!(rec.len(), cfg.record_size());
        assert_eq!(layout::events(cfg).offset, 50);
        assert_eq!(at(layout::events(cfg)), [0x62, 0x02, 0x80, 0x82, 0x40]);
        assert_eq!(at(layout::OP_TYPE)[0], 0x49, "Operation Type kept");
        let end = layout::end_or_ts(cfg);
        assert_eq!((end.offset, end.len), (55, 9));
        let want: Vec<u8> = if ts_en {
            vec![0x71, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11]
        } else {
            [vec![0x01], vec![0; 8]].concat()
        };
        assert_eq!(at(end), want, "timestamp {ts_en}");
    }
}

#[test]
fn regs_store_pmsevfr_and_pmsnevfr_bits_above_15_only_where_events_are_built() {
    // v1p4 builds E[17], E[18], E[19..23] and E[24], E[25] (FEAT_SPE_SME): PMSEVFR and
    // PMSNEVFR keep them (and no other bit above 15) and give them to the filter; the
    // default preset reads them 0.
    let v1p4 = Config::preset("v1p4").unwrap();
    let hi = spe_defs::events::filterable_mask(v1p4) & !0xffff;
    assert_eq!(hi, 0x03fe_0000);
    let mut g = SpeRegs::<12>::new(v1p4);
    start(&mut g);
    cycle(&mut g, |g| g.reset.next = true, |_| ());
    g.reset.next = false;
    let outs = |g: &mut SpeRegs<12>| {
        comb(
            g,
            |_| (),
            |g| (v(g.evfr_hi[0].val()) << 16, v(g.nevfr_hi[0].val()) << 16),
        )
    };
    write(&mut g, RegId::Pmsevfr, u64::MAX);
    let evfr = read(&mut g, RegId::Pmsevfr);
    assert_eq!(evfr & !0xffff, hi);
    assert_eq!(evfr, spe_defs::events::filterable_mask(v1p4));
    assert_eq!(outs(&mut g), (hi, 0));
    write(&mut g, RegId::Pmsnevfr, 1 << 20 | 1 << 40);
    assert_eq!(read(&mut g, RegId::Pmsnevfr), 1 << 20);
    assert_eq!(outs(&mut g), (hi, 1 << 20));
    write(&mut g, RegId::Pmsevfr, 1 << 1);
    assert_eq!(read(&mut g, RegId::Pmsevfr), 1 << 1);
    assert_eq!(outs(&mut g), (0, 1 << 20));
    // The default preset: no events above bit 15, and no FEAT_SPE_FnE (PMSNEVFR reads as
    // zero, PMSFCR.FnE and PMSEVFR.E[6] are RES0).
    let mut g = regs();
    write(&mut g, RegId::Pmsevfr, u64::MAX);
    assert_eq!(read(&mut g, RegId::Pmsevfr) >> 16, 0);
    assert!(g.evfr_hi.is_empty() && g.nevfr_hi.is_empty());
    assert_eq!(read(&mut g, RegId::Pmsevfr) & (1 << 6), 0);
    write(&mut g, RegId::Pmsnevfr, u64::MAX);
    assert_eq!(read(&mut g, RegId::Pmsnevfr), 0);
    write(&mut g, RegId::Pmsfcr, spe_defs::regs::pmsfcr::FNE.place(1));
    assert_eq!(read(&mut g, RegId::Pmsfcr), 0);
}

#[test]
fn writer_ignores_an_external_abort_on_a_write_exactly_where_spev1p3_is_built() {
    // PMBIDR.EA = 1 (Options::v1p3, preset v1p4; choice external-abort): an external abort
    // on a beat (kind 00, or the reserved 11 counted as one) is no error: the beat counts as
    // written. A stage 1 or 2 fault (01, 10) stops the record, as every kind does elsewhere.
    for p in PRESETS {
        for kind in 0..4u64 {
            let mut w = Writer::of(p, 0x1000, 0x2000);
            w.cycle(true, false, false);
            w.cycle(false, true, false); // the check cycle
            w.w.resp.next.err_kind = b(kind);
            let (_, upd) = w.cycle(false, true, true);
            let ignored = p.options.v1p3 && (kind == 0 || kind == 3);
            assert_eq!(upd.abort, !ignored, "{} kind {kind}", p.name);
            assert_eq!(
                upd.ptr_we, !ignored,
                "{} kind {kind}: PMBPTR at the fault",
                p.name
            );
        }
    }
    assert!(Config::preset("v1p4").unwrap().options.v1p3);
}
