//! Sampler behaviour: population, interval reload rule, jitter, slot order, collisions.
mod common;
use common::*;
use spe_defs::packet::op_class;
use spe_defs::regs::{pmbsr, pmscr, pmsicr, pmsirr, RegId};
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

/// `preset` with FEAT_SPE_ERnd built in.
fn with_ernd(preset: &str) -> Config {
    let mut c = *Config::preset(preset).unwrap();
    c.options.ernd = true;
    c
}

/// Independent reference of J1 `SPEToCollectSample` with FEAT_SPE_ERnd and RND = 1
/// (docs/spe-reference.md §6.1, the J1 text): per population op, a zero COUNT reloads
/// (low byte 0 with ERnd); otherwise COUNT decrements, and the op that brings it to zero
/// loads ECOUNT with the random byte `rand(op)` and is sampled if that is zero; any other
/// op decrements a nonzero ECOUNT and is sampled when it reaches zero. Returns the sampled
/// op indices and the expiries (ops that brought COUNT to zero).
fn reference_ernd(reload: u64, rand: &[u8]) -> (Vec<u64>, Vec<u64>) {
    let (mut count, mut ecount) = (0u64, 0u8);
    let (mut out, mut expiries) = (vec![], vec![]);
    for (op, &r) in rand.iter().enumerate() {
        let op = op as u64;
        if count == 0 {
            count = reload;
        } else {
            count -= 1;
            if count == 0 {
                expiries.push(op);
                ecount = r;
                if ecount == 0 {
                    out.push(op);
                }
                continue;
            }
        }
        if ecount != 0 {
            ecount -= 1;
            if ecount == 0 {
                out.push(op);
            }
        }
    }
    (out, expiries)
}

/// Dispatches `ops` ops in slot 0, one per cycle or, with `gaps`, after 0 to 3 idle
/// cycles each (seeded: an irregular stream), completing each sample at once (so no
/// selection collides); returns the sampled op indices and, per op, the jitter source's low
/// byte in its cycle (the model's LFSR starts from thread 0's seed and steps every cycle).
fn run_ops(tb: &mut Tb, ops: u64, mut gaps: Option<&mut Rng>) -> (Vec<u64>, Vec<u8>) {
    let lfsr_at = |cycle: u64| {
        let mut s = spe_defs::impdef::LFSR_SEEDS[0];
        for _ in 0..cycle {
            s = spe_defs::impdef::lfsr_step(s);
        }
        s
    };
    let mut lfsr = lfsr_at(tb.cycle);
    let (mut sampled, mut rand) = (vec![], vec![]);
    for n in 0..ops {
        if let Some(rng) = gaps.as_deref_mut() {
            for _ in 0..rng.below(4) {
                tb.step();
                lfsr = spe_defs::impdef::lfsr_step(lfsr);
            }
        }
        tb.op(0, 0x1000, op_class::OTHER, 0);
        rand.push((lfsr & 0xFF) as u8);
        let tagged = tb.step().tag != 0;
        lfsr = spe_defs::impdef::lfsr_step(lfsr);
        if tagged {
            sampled.push(n);
            tb.complete(true);
            tb.steps(12);
            for _ in 0..13 {
                lfsr = spe_defs::impdef::lfsr_step(lfsr);
            }
        }
    }
    (sampled, rand)
}

#[test]
fn ernd_puts_the_random_delay_in_ecount_and_keeps_the_interval_exact() {
    let cfg = with_ernd("minimal");
    let mut tb = Tb::new(&cfg);
    tb.enable(4, 0);
    tb.write_reg(
        RegId::Pmsirr,
        pmsirr::INTERVAL.place(4) | pmsirr::RND.place(1),
    );
    let mut rng = Rng(seed("ernd_puts_the_random_delay_in_ecount"));
    let (sampled, rand) = run_ops(&mut tb, 400_000, Some(&mut rng));
    let (expect, expiries) = reference_ernd(1024, &rand);
    assert!(expect.len() > 300);
    assert_eq!(sampled, expect);
    // The expiries are exactly reload + 1 ops apart; each sample is 0..=255 ops after
    // its expiry, and the delays vary.
    assert!(expiries.windows(2).all(|w| w[1] - w[0] == 1025));
    let delays: std::collections::BTreeSet<u64> =
        sampled.iter().zip(&expiries).map(|(s, e)| s - e).collect();
    assert!(delays.iter().all(|&d| d <= 255), "{delays:?}");
    assert!(delays.len() > 100, "the delay must vary: {delays:?}");
}

#[test]
fn ernd_random_zero_samples_the_op_that_expired_count_and_reload_ops_step_ecount() {
    // Directed: ECOUNT written through the port counts population ops (the reload op
    // too) and samples the op that brings it to zero; RND = 0 leaves ECOUNT alone at an
    // expiry, which then samples at once.
    let cfg = with_ernd("minimal");
    let mut tb = Tb::new(&cfg);
    tb.enable(4, 0);
    // COUNT = 0 (the next op reloads), ECOUNT = 3: ops 0 (reload), 1, 2: op 2 sampled.
    tb.write_reg(RegId::Pmsicr, pmsicr::ECOUNT.place(3));
    assert_eq!(tb.read_reg(RegId::Pmsicr), pmsicr::ECOUNT.place(3));
    let mut tags = vec![];
    for n in 0..3000u64 {
        tb.op(0, 0x1000, op_class::OTHER, 0);
        if tb.step().tag != 0 {
            tags.push(n);
            tb.complete(true);
            tb.steps(12);
        }
    }
    // Then RND = 0: plain expiries, 1025 ops apart from the reload at op 0.
    assert_eq!(tags, vec![2, 1024, 2049]);
    assert_eq!(pmsicr::ECOUNT.get(tb.read_reg(RegId::Pmsicr)), 0);
}

#[test]
fn ecount_and_pmsidr_ernd_exist_only_with_feat_spe_ernd() {
    for (cfg, ernd) in [
        (*Config::preset("minimal").unwrap(), false),
        (with_ernd("minimal"), true),
    ] {
        let mut tb = Tb::new(&cfg);
        tb.write_reg(RegId::Pmsicr, u64::MAX);
        let want = if ernd {
            0xFF00_0000_FFFF_FFFF
        } else {
            0xFFFF_FFFF
        };
        assert_eq!(tb.read_reg(RegId::Pmsicr), want, "ERnd {ernd}");
        let idr = tb.read_reg(RegId::Pmsidr);
        assert_eq!(spe_defs::regs::pmsidr::ERND.get(idr), u64::from(ernd));
    }
}

/// Mean sample period (in population ops) over `ops` ops with RND = 1 and INTERVAL = 4
/// (an irregular stream: `run_ops` with gaps from `seed`), its standard error and the
/// number of periods.
fn mean_period(cfg: &Config, ops: u64, seed: u64) -> (f64, f64, usize) {
    let mut tb = Tb::new(cfg);
    tb.enable(4, 0);
    tb.write_reg(
        RegId::Pmsirr,
        pmsirr::INTERVAL.place(4) | pmsirr::RND.place(1),
    );
    let (sampled, _) = run_ops(&mut tb, ops, Some(&mut Rng(seed)));
    let gaps: Vec<f64> = sampled.windows(2).map(|w| (w[1] - w[0]) as f64).collect();
    let n = gaps.len() as f64;
    let mean = gaps.iter().sum::<f64>() / n;
    let var = gaps.iter().map(|g| (g - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, (var / n).sqrt(), gaps.len())
}

#[test]
fn ernd_mean_period_is_interval_times_256_plus_1_and_jitter_s_is_plus_128() {
    // With ERnd the random delay moves each sample but not the interval: the mean period
    // is INTERVAL x 256 + 1. Without it the random low byte of the reload (0..=255, mean
    // 127.5) lengthens every period: INTERVAL x 256 + 1 + 127.5. Each mean is checked
    // within 3 standard errors, and the two are told apart.
    let ops = 2_000_000;
    let s = seed("ernd_mean_period");
    let (m_e, se_e, n_e) = mean_period(&with_ernd("minimal"), ops, s);
    let (m_j, se_j, n_j) = mean_period(Config::preset("minimal").unwrap(), ops, s);
    let (want_e, want_j) = (4.0 * 256.0 + 1.0, 4.0 * 256.0 + 1.0 + 127.5);
    println!(
        "ERnd:    mean period {m_e:.2} over {n_e} periods, want {want_e} +- {:.2} (3 sigma)",
        3.0 * se_e
    );
    println!(
        "no ERnd: mean period {m_j:.2} over {n_j} periods, want {want_j} +- {:.2} (3 sigma)",
        3.0 * se_j
    );
    assert!((m_e - want_e).abs() <= 3.0 * se_e, "ERnd mean {m_e}");
    assert!((m_j - want_j).abs() <= 3.0 * se_j, "jitter mean {m_j}");
    assert!(
        (m_j - want_e).abs() > 3.0 * se_j,
        "the test tells the two apart"
    );
}
