//! Filter behaviour, including each CONSTRAINED UNPREDICTABLE choice.
mod common;
use common::*;
use spe_defs::packet::{op_class, subclass};
use spe_defs::regs::{pmblimitr, pmsfcr, RegId};
use spe_defs::{events as ev, Config};

/// What one sample does: (fed, kept by the filters, record written).
fn outcome(
    setup: &dyn Fn(&mut Tb),
    class: u8,
    sub: u8,
    hooks: &dyn Fn(&mut spe_ports::Inputs),
    latency: u64,
) -> (bool, bool, bool) {
    outcome_on(&Config::default(), setup, class, sub, hooks, latency)
}

/// [`outcome`] on a unit of `cfg`.
fn outcome_on(
    cfg: &Config,
    setup: &dyn Fn(&mut Tb),
    class: u8,
    sub: u8,
    hooks: &dyn Fn(&mut spe_ports::Inputs),
    latency: u64,
) -> (bool, bool, bool) {
    let mut tb = Tb::new(cfg);
    tb.enable(4, 0);
    setup(&mut tb);
    tb.sample_after(1);
    tb.dispatch_until_tag(0x2000, class, sub, 4);
    tb.steps(latency - 1);
    hooks(&mut tb.inp);
    tb.inp.thr[0].cpl.done = true;
    tb.inp.thr[0].cpl.retired = true;
    tb.step();
    // Its filter and check cycles and its beats (eight, or sixteen in a 128-byte slot).
    tb.steps(4 + cfg.record_beats() as u64);
    (
        tb.feeds == 1,
        tb.filtrates == 1,
        tb.record_at(BASE).is_some(),
    )
}

fn none(_: &mut spe_ports::Inputs) {}

/// Op types (class, subclass) of the type-filter and feed-event tests: a load, a store, and
/// an atomic that returns a value (a load and a store).
const LOAD: (u8, u8) = (op_class::LD_ST_ATOMIC, subclass::LDST_GP);
const STORE: (u8, u8) = (
    op_class::LD_ST_ATOMIC,
    subclass::LDST_GP | subclass::LDST_ST,
);
const ATOMIC: (u8, u8) = (
    op_class::LD_ST_ATOMIC,
    subclass::LDST_EXT | subclass::LDST_EXT_AT,
);

/// Every selection of PMSFCR's B, LD and ST with FT set: the bits and the register value.
fn type_selections() -> impl Iterator<Item = ((bool, bool, bool), u64)> {
    (1u64..8).map(|bits| {
        let (b, ld, st) = (bits & 1 != 0, bits & 2 != 0, bits & 4 != 0);
        let fcr = pmsfcr::FT.place(1)
            | pmsfcr::B.place(b as u64)
            | pmsfcr::LD.place(ld as u64)
            | pmsfcr::ST.place(st as u64);
        ((b, ld, st), fcr)
    })
}

#[test]
fn type_filter_keeps_only_selected_classes_and_a_no_return_atomic_is_a_store_not_a_load() {
    let (load, store, atomic) = (LOAD, STORE, ATOMIC);
    // STADD and the other atomics that return no value: ST set (`49 07`).
    let no_return_atomic = (
        op_class::LD_ST_ATOMIC,
        subclass::LDST_EXT | subclass::LDST_EXT_AT | subclass::LDST_ST,
    );
    let branch = (op_class::BRANCH, 0);
    let other = (op_class::OTHER, 0);
    for ((b, ld, st), fcr) in type_selections() {
        let set = move |tb: &mut Tb| tb.write_reg(RegId::Pmsfcr, fcr);
        for (what, (c, s), keep) in [
            ("load", load, ld),
            ("store", store, st),
            ("atomic", atomic, ld || st),
            ("no-return atomic", no_return_atomic, st),
            ("branch", branch, b),
            ("other", other, false),
        ] {
            let (fed, kept, written) = outcome(&set, c, s, &none, 3);
            assert!(fed);
            assert_eq!(kept, keep, "{what} with B={b} LD={ld} ST={st}");
            assert_eq!(written, keep);
        }
    }
}

#[test]
fn a_call_or_return_with_gcs_is_also_a_store_or_load_for_the_type_filter_and_the_feed_events() {
    // D17.6.3: an op that executes a branch and a Guarded Control Stack access "is treated
    // as both a branch and a load or store for the purposes of filtering"; J1
    // SPEFilterByType's is_gcs_ldst: a procedure return with GCS (CR 10) is a load, a
    // branch with link with GCS (CR 01) a store, and SAMPLE_FEED_LD/ST count them (review
    // finding N1). v1p4 records GCS (FEAT_SPE_CRR); without the option the bit is not
    // recorded and such a branch is a branch only.
    let v1p4 = Config::preset("v1p4").unwrap();
    assert!(v1p4.options.crr && v1p4.options.feed_events);
    let cr = |c: u8| c << subclass::BR_CR_SHIFT;
    let ret = (op_class::BRANCH, subclass::BR_IND | cr(subclass::CR_RET));
    let gcs_ret = (ret.0, ret.1 | subclass::BR_GCS);
    let bl = (op_class::BRANCH, cr(subclass::CR_BL));
    let gcs_bl = (bl.0, bl.1 | subclass::BR_GCS);
    // GCS with any other branch kind is not recorded (choice crr): a branch only.
    let gcs_other = (
        op_class::BRANCH,
        cr(subclass::CR_NON_BL_RET) | subclass::BR_GCS,
    );
    for ((b, ld, st), fcr) in type_selections() {
        let set = move |tb: &mut Tb| tb.write_reg(RegId::Pmsfcr, fcr);
        for (what, (c, s), keep) in [
            ("RET", ret, b),
            ("RET with GCS", gcs_ret, b || ld),
            ("BL", bl, b),
            ("BL with GCS", gcs_bl, b || st),
            ("other branch with GCS", gcs_other, b),
        ] {
            let (fed, kept, written) = outcome_on(v1p4, &set, c, s, &none, 3);
            assert!(fed);
            assert_eq!(kept, keep, "{what} with B={b} LD={ld} ST={st}");
            assert_eq!(written, keep);
        }
    }
    let no_regs = |_: &mut Tb| {};
    //                                 BR LD ST OP EV LAT
    for (what, op, want) in [
        ("RET", ret, [1, 0, 0, 0, 1, 1]),
        ("RET with GCS", gcs_ret, [1, 1, 0, 0, 1, 1]),
        ("BL", bl, [1, 0, 0, 0, 1, 1]),
        ("BL with GCS", gcs_bl, [1, 0, 1, 0, 1, 1]),
        ("other branch with GCS", gcs_other, [1, 0, 0, 0, 1, 1]),
    ] {
        assert_eq!(feed_events(v1p4, &no_regs, op, true, 3).0, want, "{what}");
    }
    // A unit that does not record GCS (default: no FEAT_SPE_CRR) filters it as a branch.
    let ld_only =
        |tb: &mut Tb| tb.write_reg(RegId::Pmsfcr, pmsfcr::FT.place(1) | pmsfcr::LD.place(1));
    assert_eq!(
        outcome(&ld_only, gcs_ret.0, gcs_ret.1, &none, 3),
        (true, false, false),
        "default: a RET with GCS is no load"
    );
}

#[test]
fn type_filter_with_no_type_bit_passes_everything() {
    let set = |tb: &mut Tb| tb.write_reg(RegId::Pmsfcr, pmsfcr::FT.place(1));
    assert_eq!(
        outcome(&set, op_class::OTHER, 0, &none, 3),
        (true, true, true)
    );
}

#[test]
fn event_filter_requires_every_selected_event() {
    let want = ev::bit(ev::RETIRED) | ev::bit(ev::L1D_REFILL);
    let set = move |tb: &mut Tb| {
        tb.write_reg(RegId::Pmsevfr, want);
        tb.write_reg(RegId::Pmsfcr, pmsfcr::FE.place(1));
    };
    let refill = |i: &mut spe_ports::Inputs| {
        i.thr[0].mem.done = true;
        i.thr[0].mem.l1d_refill = true;
    };
    assert!(
        outcome(&set, op_class::LD_ST_ATOMIC, 0, &refill, 3).1,
        "retired + refill kept"
    );
    assert!(
        !outcome(&set, op_class::LD_ST_ATOMIC, 0, &none, 3).1,
        "no refill dropped"
    );
}

#[test]
fn event_filter_with_empty_selection_passes_everything() {
    let set = |tb: &mut Tb| tb.write_reg(RegId::Pmsfcr, pmsfcr::FE.place(1));
    assert!(outcome(&set, op_class::OTHER, 0, &none, 3).1);
}

fn fne() -> &'static Config {
    let cfg = Config::preset("v1p2x").unwrap();
    assert!(cfg.options.fne);
    cfg
}

#[test]
fn inverted_event_filter_drops_records_with_any_selected_event() {
    let set = |tb: &mut Tb| {
        tb.write_reg(
            RegId::Pmsnevfr,
            ev::bit(ev::L1D_REFILL) | ev::bit(ev::TLB_WALK),
        );
        tb.write_reg(RegId::Pmsfcr, pmsfcr::FNE.place(1));
    };
    let refill = |i: &mut spe_ports::Inputs| {
        i.thr[0].mem.done = true;
        i.thr[0].mem.l1d_refill = true;
    };
    assert!(!outcome_on(fne(), &set, op_class::LD_ST_ATOMIC, 0, &refill, 3).1);
    assert!(outcome_on(fne(), &set, op_class::LD_ST_ATOMIC, 0, &none, 3).1);
    // Without FEAT_SPE_FnE (the default preset) PMSNEVFR and PMSFCR.FnE are RES0: kept.
    assert!(outcome(&set, op_class::LD_ST_ATOMIC, 0, &refill, 3).1);
}

#[test]
fn without_fne_pmsnevfr_fne_and_the_not_taken_filter_are_res0() {
    // A2.2.8: FEAT_SPE_FnE goes with SPEv1p2; the default preset is SPEv1p1. PMSEVFR.E[6]
    // and PMSFCR.FnE are RAZ/WI, PMSNEVFR reads as zero (D24.7.11, D24.7.12, D24.7.17).
    let plain = Config::default();
    assert!(!plain.options.fne);
    let mut tb = Tb::new(&plain);
    tb.write_reg(RegId::Pmsnevfr, ev::bit(ev::RETIRED));
    tb.write_reg(
        RegId::Pmsevfr,
        ev::bit(ev::NOT_TAKEN) | ev::bit(ev::RETIRED),
    );
    tb.write_reg(RegId::Pmsfcr, pmsfcr::FE.place(1) | pmsfcr::FNE.place(1));
    assert_eq!(tb.read_reg(RegId::Pmsnevfr), 0);
    assert_eq!(tb.read_reg(RegId::Pmsevfr), ev::bit(ev::RETIRED));
    assert_eq!(tb.read_reg(RegId::Pmsfcr), pmsfcr::FE.place(1));
    // A retired op without the Not-taken event is kept: E[6] is not filtered on, and
    // PMSNEVFR's RETIRED does not apply.
    let set = |tb: &mut Tb| {
        tb.write_reg(RegId::Pmsnevfr, ev::bit(ev::RETIRED));
        tb.write_reg(RegId::Pmsevfr, ev::bit(ev::NOT_TAKEN));
        tb.write_reg(RegId::Pmsfcr, pmsfcr::FE.place(1) | pmsfcr::FNE.place(1));
    };
    assert!(outcome(&set, op_class::OTHER, 0, &none, 3).1);
    // With it (v1p2x) the same settings drop the record twice over.
    assert!(!outcome_on(fne(), &set, op_class::OTHER, 0, &none, 3).1);
}

#[test]
fn the_same_event_in_both_filters_drops_every_record() {
    let set = |tb: &mut Tb| {
        tb.write_reg(RegId::Pmsevfr, ev::bit(ev::RETIRED));
        tb.write_reg(RegId::Pmsnevfr, ev::bit(ev::RETIRED));
        tb.write_reg(RegId::Pmsfcr, pmsfcr::FE.place(1) | pmsfcr::FNE.place(1));
    };
    assert_eq!(
        outcome_on(fne(), &set, op_class::OTHER, 0, &none, 3),
        (true, false, false)
    );
}

#[test]
fn filter_drops_records_below_min_latency() {
    for (minlat, latency, keep) in [
        (10, 9, false),
        (10, 10, true),
        (10, 11, true),
        (0, 1, true),
        (0xFFF, 5000, true),
    ] {
        let set = move |tb: &mut Tb| {
            tb.write_reg(RegId::Pmslatfr, minlat);
            tb.write_reg(RegId::Pmsfcr, pmsfcr::FL.place(1));
        };
        assert_eq!(
            outcome(&set, op_class::OTHER, 0, &none, latency).1,
            keep,
            "MINLAT {minlat} latency {latency}"
        );
    }
}

#[test]
fn bit_zero_cannot_be_selected_in_either_event_filter() {
    for cfg in [&Config::default(), fne()] {
        let mut tb = Tb::new(cfg);
        tb.write_reg(RegId::Pmsevfr, u64::MAX);
        tb.write_reg(RegId::Pmsnevfr, u64::MAX);
        let want = ev::filterable_mask(cfg);
        assert_eq!(want & 1, 0);
        assert_eq!(tb.read_reg(RegId::Pmsevfr), want);
        assert_eq!(
            tb.read_reg(RegId::Pmsnevfr),
            if cfg.options.fne { want } else { 0 }
        );
    }
}

#[test]
fn discard_mode_counts_filtrate_but_writes_nothing() {
    let set = |tb: &mut Tb| {
        tb.write_reg(
            RegId::Pmblimitr,
            (BASE + SIZE) | pmblimitr::E.place(1) | pmblimitr::FM.place(pmblimitr::FM_DISCARD),
        )
    };
    assert_eq!(
        outcome(&set, op_class::OTHER, 0, &none, 3),
        (true, true, false)
    );
}

#[test]
fn reserved_fill_modes_behave_as_fill() {
    for fm in [0b01, 0b11] {
        let set = move |tb: &mut Tb| {
            tb.write_reg(
                RegId::Pmblimitr,
                (BASE + SIZE) | pmblimitr::E.place(1) | pmblimitr::FM.place(fm),
            )
        };
        assert_eq!(
            outcome(&set, op_class::OTHER, 0, &none, 3),
            (true, true, true),
            "FM={fm:#b}"
        );
    }
}

/// The SPEv1p2 PMU events of one sample on `cfg` (BR, LD, ST, OP, EVENT, LAT, each counted
/// over the run: the feed cycle's pulses), and whether its record was written.
fn feed_events(
    cfg: &Config,
    setup: &dyn Fn(&mut Tb),
    (class, sub): (u8, u8),
    retired: bool,
    latency: u64,
) -> ([u64; 6], bool) {
    let mut tb = Tb::new(cfg);
    tb.enable(4, 0);
    setup(&mut tb);
    tb.sample_after(1);
    tb.dispatch_until_tag(0x2000, class, sub, 4);
    let mut n = [0u64; 6];
    let mut count = |o: &spe_ports::Outputs| {
        let x = &o.thr[0];
        for (k, on) in [
            x.pmu_sample_feed_br,
            x.pmu_sample_feed_ld,
            x.pmu_sample_feed_st,
            x.pmu_sample_feed_op,
            x.pmu_sample_feed_event,
            x.pmu_sample_feed_lat,
        ]
        .into_iter()
        .enumerate()
        {
            n[k] += u64::from(on);
        }
        // Only with SAMPLE_FEED.
        assert!(!x.pmu_sample_feed_lat || x.pmu_sample_feed);
    };
    for _ in 1..latency {
        let o = tb.step();
        count(&o);
    }
    tb.inp.thr[0].cpl.done = true;
    tb.inp.thr[0].cpl.retired = retired;
    for _ in 0..13 {
        let o = tb.step();
        count(&o);
    }
    assert_eq!(tb.feeds, 1);
    (n, tb.record_at(BASE).is_some())
}

#[test]
fn spev1p2_feed_events_follow_the_sample_and_the_filter_registers_whether_or_not_filters_are_on() {
    // J1 SPEFilterByType / SPEFilterByEvents / SPEFilterByLatency raise SAMPLE_FEED_* from
    // the op and PMSFCR's type bits, PMSEVFR / PMSNEVFR and MINLAT, with FT, FE, FnE and FL
    // all clear here: nothing is filtered, every record is written.
    let cfg = Config::preset("v1p2x").unwrap();
    assert!(cfg.options.feed_events);
    let (load, store, atomic) = (LOAD, STORE, ATOMIC);
    let branch = (op_class::BRANCH, 0);
    let other = (op_class::OTHER, 0);
    let no_regs = |_: &mut Tb| {};
    //                          BR LD ST OP EV LAT
    for (what, op, want) in [
        ("load", load, [0, 1, 0, 0, 1, 1]),
        ("store", store, [0, 0, 1, 0, 1, 1]),
        ("atomic", atomic, [0, 1, 1, 0, 1, 1]),
        ("branch", branch, [1, 0, 0, 0, 1, 1]),
        ("other", other, [0, 0, 0, 0, 1, 1]),
    ] {
        let (n, written) = feed_events(cfg, &no_regs, op, true, 3);
        assert_eq!(n, want, "{what}, no filter register set");
        assert!(written, "{what}");
    }
    // OP: a type selected in PMSFCR.{B, LD, ST} (FT clear) and the op is of it.
    let ld_only = |tb: &mut Tb| tb.write_reg(RegId::Pmsfcr, pmsfcr::LD.place(1));
    assert_eq!(
        feed_events(cfg, &ld_only, load, true, 3).0[3],
        1,
        "load, LD"
    );
    assert_eq!(
        feed_events(cfg, &ld_only, atomic, true, 3).0[3],
        1,
        "atomic, LD"
    );
    assert_eq!(
        feed_events(cfg, &ld_only, branch, true, 3).0[3],
        0,
        "branch, LD"
    );
    let (n, written) = feed_events(cfg, &ld_only, store, true, 3);
    assert_eq!((n[3], written), (0, true), "store, LD, FT clear: kept");
    // EVENT: every PMSEVFR event set and none of PMSNEVFR (FE, FnE clear).
    let want_retired = |tb: &mut Tb| tb.write_reg(RegId::Pmsevfr, ev::bit(ev::RETIRED));
    assert_eq!(feed_events(cfg, &want_retired, load, true, 3).0[4], 1);
    let (n, written) = feed_events(cfg, &want_retired, load, false, 3);
    assert_eq!(
        (n[4], written),
        (0, true),
        "not retired: no EVENT, still kept"
    );
    let not_retired = |tb: &mut Tb| tb.write_reg(RegId::Pmsnevfr, ev::bit(ev::RETIRED));
    assert_eq!(feed_events(cfg, &not_retired, load, true, 3).0[4], 0);
    assert_eq!(feed_events(cfg, &not_retired, load, false, 3).0[4], 1);
    // LAT: total latency at least MINLAT (FL clear).
    let minlat = |tb: &mut Tb| tb.write_reg(RegId::Pmslatfr, 6);
    let (n, written) = feed_events(cfg, &minlat, load, true, 3);
    assert_eq!(
        (n[5], written),
        (0, true),
        "latency below MINLAT: no LAT, kept"
    );
    assert_eq!(feed_events(cfg, &minlat, load, true, 10).0[5], 1);
    // A unit without the option has none of them.
    let (n, _) = feed_events(&Config::default(), &no_regs, branch, true, 3);
    assert_eq!(n, [0; 6]);
}

/// One sample of op `(class, sub)` on `cfg` after `setup`, completed (retired) in the
/// cycle after its tag with `report` applied to that cycle's inputs: whether the filters kept
/// it, and thread 0's outputs in every cycle from that one on.
fn one_sample(
    cfg: &Config,
    setup: &dyn Fn(&mut Tb),
    (class, sub): (u8, u8),
    report: &dyn Fn(&mut spe_ports::Inputs),
) -> (bool, Vec<spe_ports::ThreadOutputs>) {
    let mut tb = Tb::new(cfg);
    tb.enable(4, 0);
    setup(&mut tb);
    tb.sample_after(1);
    tb.dispatch_until_tag(0x2000, class, sub, 4);
    let mut outs = vec![tb.step().thr[0]];
    report(&mut tb.inp);
    tb.inp.thr[0].cpl.done = true;
    tb.inp.thr[0].cpl.retired = true;
    for _ in 0..14 {
        outs.push(tb.step().thr[0]);
    }
    assert_eq!(tb.feeds, 1);
    (tb.filtrates == 1, outs)
}

/// Cycles of `outs` in which the output `f` reads is high.
fn pulses(outs: &[spe_ports::ThreadOutputs], f: fn(&spe_ports::ThreadOutputs) -> bool) -> u64 {
    outs.iter().filter(|x| f(x)).count() as u64
}

/// [`one_sample`] with PMSFCR = `fcr` and the memory report (if any) saying `scalar`:
/// (kept, SAMPLE_FEED_OP, SAMPLE_FEED_FP, SAMPLE_FEED_SIMD).
fn eft_outcome(
    cfg: &Config,
    fcr: u64,
    op: (u8, u8),
    scalar: Option<bool>,
) -> (bool, u64, u64, u64) {
    let (kept, outs) = one_sample(cfg, &|tb| tb.write_reg(RegId::Pmsfcr, fcr), op, &|i| {
        if let Some(s) = scalar {
            i.thr[0].mem.done = true;
            i.thr[0].mem_fp_scalar = s;
        }
    });
    (
        kept,
        pulses(&outs, |x| x.pmu_sample_feed_op),
        pulses(&outs, |x| x.pmu_sample_feed_fp),
        pulses(&outs, |x| x.pmu_sample_feed_simd),
    )
}

#[test]
fn eft_type_filter_ors_the_unmasked_types_and_ands_the_masked_ones() {
    // FEAT_SPE_EFT (preset v1p4), J1 SPEFilterByType: TYPE = {B, LD, ST, FP, SIMD} from
    // PMSFCR bit 16, TYPEm from bit 48. The kept sets below are worked out by hand from
    // the rule (D17.5: a masked type must equal its TYPE bit; of the unmasked selected
    // types the op must be one), not from the model's function.
    use subclass as sc;
    let cfg = Config::preset("v1p4").unwrap();
    assert!(cfg.options.eft);
    let other = |v: u8| (op_class::OTHER, v);
    let ldst = |v: u8| (op_class::LD_ST_ATOMIC, v);
    // (name, op, its memory report's mem_fp_scalar, FP, SIMD)
    type Op = (&'static str, (u8, u8), Option<bool>, bool, bool);
    let ops: [Op; 13] = [
        ("FP other", other(sc::OTHER_FP), None, true, false),
        ("SIMD other", other(sc::OTHER_SIMD), None, false, true),
        // D17.5.1 (choice eft-simd): SVE data processing and SVE/SME loads/stores are SIMD.
        (
            "SVE FP other",
            other(sc::OTHER_SVE | sc::SVE_FP),
            None,
            true,
            true,
        ),
        ("SVE integer other", other(sc::OTHER_SVE), None, false, true),
        ("SVE load", ldst(sc::LDST_SVE_SME), Some(false), false, true),
        // With FEAT_SPE_SME (v1p4): SIMD, and FP by its FP flag (J1
        // SPESampleOpSMEArrayOther), as an SVE FP other op. Without it the encoding is
        // reserved and the op neither (choice sme-reserved: tests/capture.rs).
        (
            "SME FP array op",
            other(sc::OTHER_SME | sc::SVE_FP),
            None,
            true,
            true,
        ),
        (
            "scalar SIMD&FP store",
            ldst(sc::LDST_SIMD_FP | sc::LDST_ST),
            Some(true),
            true,
            false,
        ),
        (
            "vector SIMD&FP store",
            ldst(sc::LDST_SIMD_FP | sc::LDST_ST),
            Some(false),
            false,
            true,
        ),
        (
            "scalar SIMD&FP load",
            ldst(sc::LDST_SIMD_FP),
            Some(true),
            true,
            false,
        ),
        ("GP load", LOAD, Some(true), false, false),
        ("GP store", STORE, Some(false), false, false),
        ("branch", (op_class::BRANCH, 0), None, false, false),
        ("plain other", other(0), None, false, false),
    ];
    const B: u64 = 1;
    const LD: u64 = 2;
    const ST: u64 = 4;
    const FP: u64 = 8;
    const SIMD: u64 = 16;
    let all: Vec<&str> = ops.iter().map(|o| o.0).collect();
    let but = |gone: &[&str]| -> Vec<&str> {
        all.iter().copied().filter(|n| !gone.contains(n)).collect()
    };
    for (what, ctrl, mask, kept) in [
        (
            "FP",
            FP,
            0,
            vec![
                "FP other",
                "SVE FP other",
                "SME FP array op",
                "scalar SIMD&FP store",
                "scalar SIMD&FP load",
            ],
        ),
        (
            "FP or SIMD",
            FP | SIMD,
            0,
            but(&["GP load", "GP store", "branch", "plain other"]),
        ),
        ("FP stores", ST | FP, ST, vec!["scalar SIMD&FP store"]),
        (
            "not SIMD",
            0,
            SIMD,
            but(&[
                "SIMD other",
                "SVE FP other",
                "SME FP array op",
                "SVE integer other",
                "SVE load",
                "vector SIMD&FP store",
            ]),
        ),
        ("loads that are not FP", LD, FP, vec!["GP load", "SVE load"]),
        (
            "branches or stores, not SIMD",
            B | ST,
            SIMD,
            vec!["scalar SIMD&FP store", "GP store", "branch"],
        ),
        ("nothing selected", 0, 0, all.clone()),
    ] {
        let fcr = pmsfcr::FT.place(1) | pmsfcr::TYPE.place(ctrl) | pmsfcr::TYPEM.place(mask);
        for (name, op, scalar, is_fp, is_simd) in ops {
            let (keep, feed_op, feed_fp, feed_simd) = eft_outcome(cfg, fcr, op, scalar);
            assert_eq!(keep, kept.contains(&name), "{name} with FT and {what}");
            // SAMPLE_FEED_OP: TYPE or TYPEm selects something and the op passes.
            assert_eq!(
                feed_op,
                u64::from(keep && ctrl | mask != 0),
                "{name}, {what}: OP"
            );
            assert_eq!(
                (feed_fp, feed_simd),
                (u64::from(is_fp), u64::from(is_simd)),
                "{name}: FP, SIMD"
            );
        }
    }
    // Without the option FP, SIMD and TYPEm are RES0: they read as zero and filter nothing
    // (FT with no type bit passes every op: choice ft-no-type-bit); no FP/SIMD events.
    let plain = Config::default();
    assert!(!plain.options.eft);
    let fcr = pmsfcr::FT.place(1) | pmsfcr::TYPE.place(FP) | pmsfcr::TYPEM.place(SIMD);
    let mut tb = Tb::new(&plain);
    tb.write_reg(RegId::Pmsfcr, fcr);
    assert_eq!(tb.read_reg(RegId::Pmsfcr), pmsfcr::FT.place(1));
    for (name, op, scalar, _, _) in ops {
        assert_eq!(
            eft_outcome(&plain, fcr, op, scalar),
            (true, 0, 0, 0),
            "{name}"
        );
    }
}

/// [`one_sample`] with PMSFCR = `fcr` and PMSDSFR = `dsfr`, the memory report (if any)
/// giving data source `source`: (kept, SAMPLE_FEED_DS).
fn fds_outcome(cfg: &Config, fcr: u64, dsfr: u64, op: (u8, u8), source: Option<u8>) -> (bool, u64) {
    let setup = |tb: &mut Tb| {
        tb.write_reg(RegId::Pmsfcr, fcr);
        tb.write_reg(RegId::Pmsdsfr, dsfr);
    };
    let (kept, outs) = one_sample(cfg, &setup, op, &|i| {
        if let Some(s) = source {
            i.thr[0].mem.done = true;
            i.thr[0].mem.source = s;
        }
    });
    (kept, pulses(&outs, |x| x.pmu_sample_feed_ds))
}

#[test]
fn fds_keeps_the_loads_whose_data_source_pmsdsfr_selects_and_passes_every_other_op() {
    // FEAT_SPE_FDS (preset v1p4), J1 SPEFilterByDataSource: with PMSFCR.FDS a load (or a
    // load atomic) with a data source is kept when PMSDSFR's bit at the source's bits 5:0 is
    // set; a load without a memory report, a store and any other op pass. SAMPLE_FEED_DS
    // follows PMSDSFR whatever FDS says.
    use spe_defs::impdef::data_source as src;
    use spe_defs::regs::pmsdsfr;
    let cfg = Config::preset("v1p4").unwrap();
    assert!(cfg.options.fds);
    let dsfr = (1 << src::DRAM) | (1 << src::L1D);
    for (what, op, source, selected) in [
        ("load from DRAM", LOAD, Some(src::DRAM), Some(true)),
        ("load from L2", LOAD, Some(src::L2), Some(false)),
        (
            "load from 0x4e (bits 7:6 not in the index)",
            LOAD,
            Some(0x40 | src::DRAM),
            Some(true),
        ),
        ("load from 0x88", LOAD, Some(0x80 | src::L2), Some(false)),
        ("atomic from L2", ATOMIC, Some(src::L2), Some(false)),
        ("atomic from L1D", ATOMIC, Some(src::L1D), Some(true)),
        ("load without a memory report", LOAD, None, None),
        ("store from L2", STORE, Some(src::L2), None),
        ("branch", (op_class::BRANCH, 0), None, None),
    ] {
        let on = pmsfcr::FDS.place(1);
        let (kept, ds) = fds_outcome(cfg, on, dsfr, op, source);
        assert_eq!(kept, selected != Some(false), "{what} with FDS");
        assert_eq!(
            ds,
            u64::from(selected == Some(true)),
            "{what}: SAMPLE_FEED_DS"
        );
        let (kept, ds_off) = fds_outcome(cfg, 0, dsfr, op, source);
        assert!(kept, "{what} without FDS");
        assert_eq!(ds_off, ds, "{what}: SAMPLE_FEED_DS without FDS");
    }
    // PMSDSFR is a 64-bit register: every bit reads back.
    let mut tb = Tb::new(cfg);
    tb.write_reg(RegId::Pmsdsfr, 0x8000_0000_0000_4001);
    assert_eq!(tb.read_reg(RegId::Pmsdsfr), 0x8000_0000_0000_4001);
    assert_eq!(pmsdsfr::S.width, 64);
    // Without the option PMSDSFR is unmapped (reads 0) and FDS is RES0: nothing filtered.
    let plain = Config::default();
    let mut tb = Tb::new(&plain);
    tb.write_reg(RegId::Pmsdsfr, u64::MAX);
    tb.write_reg(RegId::Pmsfcr, pmsfcr::FDS.place(1));
    assert_eq!(
        (tb.read_reg(RegId::Pmsdsfr), tb.read_reg(RegId::Pmsfcr)),
        (0, 0)
    );
    assert_eq!(
        fds_outcome(&plain, pmsfcr::FDS.place(1), 0, LOAD, Some(src::L2)),
        (true, 0)
    );
}
