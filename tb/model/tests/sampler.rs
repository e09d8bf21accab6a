//! Sampler behaviour: population, interval reload rule, jitter, slot order, collisions.
mod common;
use common::*;
use spe_defs::packet::op_class;
use spe_defs::regs::{pmbsr, pmscr, pmsirr, RegId};
use spe_defs::{Config, PRESETS};

/// Independent reference of the reload rule (docs/spe-reference.md §6.1, no ERnd): the indices of the
/// sampled ops in a stream of `n` population ops, starting from COUNT = `count`.
fn reference_samples(mut count: u64, reload: u64, n: u64) -> Vec<u64> {
    let mut out = vec![];
    for op in 0..n {
        if count == 0 {
            count = reload;
        } else {
            count -= 1;
            if count == 0 {
                out.push(op);
            }
        }
    }
    out
}

#[test]
fn consecutive_samples_are_reload_plus_one_ops_apart() {
    let mut tb = Tb::new(Config::preset("minimal").unwrap());
    tb.enable(4, 0);
    let mut op_index = vec![];
    let mut n = 0u64;
    for _ in 0..5000 {
        tb.op(0, 0x1000, op_class::OTHER, 0);
        let out = tb.step();
        if out.tag != 0 {
            op_index.push(n);
            // Complete the sample right away so the next is not a collision.
            tb.complete(true);
            tb.steps(12);
        }
        n += 1;
    }
    assert_eq!(op_index, reference_samples(0, 1024, n));
    assert_eq!(op_index[1] - op_index[0], 1025);
}

#[test]
fn interval_counting_follows_slot_order_at_every_width() {
    // Random valid patterns; the op stream (in slot order) must be sampled exactly as the
    // serial pseudocode says, whatever the width.
    for cfg in PRESETS {
        let seed = seed(&format!(
            "interval_counting_follows_slot_order_{}",
            cfg.name
        ));
        let mut rng = Rng(seed);
        let mut tb = Tb::new(cfg);
        tb.enable(cfg.min_interval_field(), 0);
        let reload = u64::from(cfg.min_interval());
        let mut sampled = vec![];
        let mut n = 0u64;
        for _ in 0..20_000 {
            let mut slots = vec![];
            for i in 0..cfg.dispatch_width {
                if rng.chance(0.7) {
                    tb.op(i, 0x4000 + 4 * i as u64, op_class::OTHER, 0);
                    slots.push(i);
                }
            }
            let out = tb.step();
            assert_eq!(u64::from(out.thr[0].pmu_sample_pop), slots.len() as u64);
            if out.tag != 0 {
                let slot = out.tag.trailing_zeros() as usize;
                let pos = slots
                    .iter()
                    .position(|&s| s == slot)
                    .expect("tag on a valid slot");
                sampled.push(n + pos as u64);
                tb.complete(true);
                tb.steps(12);
            }
            n += slots.len() as u64;
        }
        let expect = reference_samples(0, reload, n);
        assert!(!expect.is_empty());
        assert_eq!(sampled, expect, "preset {}", cfg.name);
    }
}

#[test]
fn jitter_perturbs_only_the_low_byte_of_the_reload() {
    let mut tb = Tb::new(Config::preset("minimal").unwrap());
    tb.enable(4, 0);
    tb.write_reg(
        RegId::Pmsirr,
        pmsirr::INTERVAL.place(4) | pmsirr::RND.place(1),
    );
    let mut last = None;
    let mut gaps = std::collections::BTreeSet::new();
    let mut n = 0u64;
    while gaps.len() < 40 && n < 2_000_000 {
        tb.op(0, 0x1000, op_class::OTHER, 0);
        if tb.step().tag != 0 {
            if let Some(l) = last {
                let gap = n - l;
                assert!((1025..=1025 + 255).contains(&gap), "gap {gap}");
                gaps.insert(gap);
            }
            last = Some(n);
            tb.complete(true);
            tb.steps(12);
        }
        n += 1;
    }
    assert!(gaps.len() >= 40, "jitter must vary the interval: {gaps:?}");
}

#[test]
fn interval_below_the_advertised_minimum_is_used_as_written_and_zero_as_one() {
    // J1 SPEResetSampleCounter: COUNT<31:8> = PMSIRR.INTERVAL, no clamp to PMSIDR.Interval.
    // INTERVAL = 0 leaves the interval UNKNOWN; this unit uses 1 (256 ops).
    for (interval, period) in [(0u64, 256u64), (1, 256), (3, 768), (4, 1024), (6, 1536)] {
        let mut tb = Tb::new(Config::preset("minimal").unwrap());
        tb.enable(interval, 0);
        assert_eq!(
            pmsirr::INTERVAL.get(tb.read_reg(RegId::Pmsirr)),
            interval,
            "reads back as written"
        );
        let mut tags = vec![];
        for n in 0..(3 * period + 10) {
            tb.op(0, 0, op_class::OTHER, 0);
            if tb.step().tag != 0 {
                tags.push(n);
                tb.complete(true);
                tb.steps(12);
            }
        }
        // From COUNT = 0: the first op reloads, the op `period` later is sampled, and the
        // next samples are `period + 1` ops apart.
        assert_eq!(
            tags,
            vec![period, 2 * period + 1, 3 * period + 2],
            "INTERVAL {interval}"
        );
    }
}

#[test]
fn pmsicr_write_sets_the_counter_and_reads_back() {
    let mut tb = Tb::new(Config::preset("minimal").unwrap());
    tb.enable(4, 0);
    tb.sample_after(5);
    assert_eq!(tb.read_reg(RegId::Pmsicr), 5);
    let mut n = 0;
    loop {
        tb.op(0, 0, op_class::OTHER, 0);
        n += 1;
        if tb.step().tag != 0 {
            break;
        }
    }
    assert_eq!(n, 5);
    assert_eq!(tb.read_reg(RegId::Pmsicr), 0);
}

#[test]
fn a_selection_while_one_is_in_flight_is_a_collision_without_interrupt() {
    let mut tb = Tb::new(Config::preset("minimal").unwrap());
    tb.enable(4, 0);
    tb.sample_after(1);
    tb.dispatch_until_tag(0x100, op_class::OTHER, 0, 10);
    // Never complete: the next selection collides.
    tb.sample_after(1);
    tb.op(0, 0x104, op_class::OTHER, 0);
    let out = tb.step();
    assert_eq!(out.tag, 0, "no second op in flight");
    assert!(out.thr[0].pmu_sample_collision);
    let bsr = tb.read_reg(RegId::Pmbsr);
    assert!(pmbsr::COLL.is_set(bsr));
    assert!(
        !pmbsr::S.is_set(bsr),
        "a collision is not a management event"
    );
    assert!(!tb.step().thr[0].irq);
}

/// Arm ARM J1.1.1.126 `StatisticalProfilingEnabled(el)` with J1.1.1.67
/// `ProfilingBufferOwner`, transcribed: `allowed` stands for the rest of
/// `ProfilingBufferEnabled` (the `prof_allowed` input), the buffer itself is enabled.
#[allow(clippy::too_many_arguments)]
fn j1_statistical_profiling_enabled(
    el: u8,
    el2_enabled: bool,
    e2pb: u8,
    tge: bool,
    aarch32: bool,
    allowed: bool,
    (e0spe, e1spe, e0hspe, e2spe): (bool, bool, bool, bool),
) -> bool {
    if aarch32 || !allowed {
        return false;
    }
    let tge_set = el2_enabled && tge;
    let owning_el = if el2_enabled && e2pb == 0b00 { 2 } else { 1 };
    if owning_el < el || (tge_set && owning_el == 1) {
        return false;
    }
    match el {
        2 => e2spe,
        1 => e1spe,
        0 => {
            if tge_set {
                e0hspe
            } else {
                e0spe
            }
        }
        _ => unreachable!("EL3 is above every owner"),
    }
}

#[test]
fn population_follows_j1_statistical_profiling_enabled_over_every_el_owner_and_enable() {
    // Exhaustive over EL, EL2 enabled, MDCR_EL2.E2PB, HCR_EL2.TGE and E2H, AArch32,
    // prof_allowed and the four EL enables (E0SPE, E1SPE, E0HSPE, E2SPE).
    let cfg = Config::preset("default").unwrap();
    let mut per_el = [0u32; 4];
    for bits in 0u32..(1 << 13) {
        let el = (bits & 3) as u8;
        let el2 = bits & 4 != 0;
        let e2pb = ((bits >> 3) & 3) as u8;
        let tge = bits & 32 != 0;
        let e2h = bits & 64 != 0;
        let aarch32 = bits & 128 != 0;
        let allowed = bits & 256 != 0;
        let en = (
            bits & 512 != 0,
            bits & 1024 != 0,
            bits & 2048 != 0,
            bits & 4096 != 0,
        );
        let mut tb = Tb::new(cfg);
        tb.enable(4, 0);
        tb.write_reg(
            RegId::PmscrEl1,
            pmscr::E0SPE.place(en.0 as u64) | pmscr::E1SPE.place(en.1 as u64),
        );
        tb.write_reg(
            RegId::PmscrEl2,
            pmscr::E0SPE.place(en.2 as u64) | pmscr::E1SPE.place(en.3 as u64),
        );
        tb.inp.thr[0].disp_el = el;
        tb.inp.thr[0].el2_en = el2;
        tb.inp.thr[0].mdcr_e2pb = e2pb;
        tb.inp.thr[0].hcr_tge = tge;
        tb.inp.thr[0].hcr_e2h = e2h;
        tb.inp.thr[0].disp_aarch32 = aarch32;
        tb.inp.thr[0].prof_allowed = allowed;
        for i in 0..cfg.dispatch_width {
            tb.op(i, 0, op_class::OTHER, 0);
        }
        let pop = tb.step().thr[0].pmu_sample_pop;
        let on = j1_statistical_profiling_enabled(el, el2, e2pb, tge, aarch32, allowed, en);
        per_el[usize::from(el)] += u32::from(on);
        let expect = if on { cfg.dispatch_width as u8 } else { 0 };
        assert_eq!(
            pop, expect,
            "el={el} el2_en={el2} e2pb={e2pb:02b} tge={tge} e2h={e2h} aarch32={aarch32} allowed={allowed} (E0SPE, E1SPE, E0HSPE, E2SPE)={en:?}"
        );
    }
    // Every EL but EL3 is profiled in some combinations (the check above can fail both
    // ways): EL2 only with EL2 enabled, E2PB = 00 and E2SPE, AArch64 and allowed; any
    // TGE and E2H, any of the three other enables.
    eprintln!("profiled combinations per EL: {per_el:?}");
    assert!(per_el[0] > 0 && per_el[1] > 0 && per_el[2] > 0);
    assert_eq!(per_el[2], 2 * 2 * 8, "EL2: owner EL2 with E2SPE");
    assert_eq!(per_el[3], 0);
}

#[test]
fn no_population_while_the_buffer_is_disabled_or_stopped() {
    let cfg = Config::preset("w2").unwrap();
    let mut tb = Tb::new(cfg);
    tb.enable(4, 0);
    tb.op(0, 0, op_class::OTHER, 0);
    assert_eq!(tb.step().thr[0].pmu_sample_pop, 1);
    tb.write_reg(RegId::Pmbsr, pmbsr::S.place(1));
    tb.op(0, 0, op_class::OTHER, 0);
    let out = tb.step();
    assert_eq!(out.thr[0].pmu_sample_pop, 0, "S=1 stops profiling");
    assert!(out.thr[0].irq);
    tb.write_reg(RegId::Pmbsr, 0);
    tb.write_reg(RegId::Pmblimitr, 0);
    tb.op(0, 0, op_class::OTHER, 0);
    assert_eq!(tb.step().thr[0].pmu_sample_pop, 0, "E=0 stops profiling");
}

#[test]
fn only_valid_slots_below_the_configured_width_count() {
    let cfg = Config::preset("w2").unwrap();
    let mut tb = Tb::new(cfg);
    tb.enable(4, 0);
    for i in 0..8 {
        tb.op(i, 0, op_class::OTHER, 0);
    }
    assert_eq!(tb.step().thr[0].pmu_sample_pop, 2);
}

#[test]
fn jitter_source_restarts_from_its_seed_after_reset() {
    // Two units, one reset mid-run: after the reset both must tag identically when driven
    // identically from their reset.
    let cfg = Config::preset("minimal").unwrap();
    let run = |tb: &mut Tb| {
        tb.enable(4, 0);
        tb.write_reg(
            RegId::Pmsirr,
            pmsirr::INTERVAL.place(4) | pmsirr::RND.place(1),
        );
        let mut v = vec![];
        for n in 0..20_000u64 {
            tb.op(0, 0, op_class::OTHER, 0);
            if tb.step().tag != 0 {
                v.push(n);
                tb.complete(true);
                tb.steps(12);
            }
        }
        v
    };
    let mut a = Tb::new(cfg);
    let first = run(&mut a);
    let mut b = Tb::new(cfg);
    b.steps(777);
    b.inp.reset = true;
    b.step();
    let second = run(&mut b);
    assert_eq!(first, second);
}
