//! The software driver's register accesses land at the right port addresses with the right
//! field values (seen by a fake unit recording them), interrupts are serviced like Linux
//! does, and every record reaches the output stream.

mod common;

use common::{seed, FakeDut};
use spe_bench::{run, ErrorInjection, FaultAction, MemoryProfile, RunResult, SampleSettings};
use spe_defs::events;
use spe_defs::regs::{
    pmblimitr, pmbptr, pmbsr, pmscr, pmsfcr, pmsicr, pmsirr, pmslatfr, reg, RegId,
};
use spe_defs::Config;
use spe_ports::{Dut, Inputs, Outputs};
use spe_stim::Workload;

const FILE: &str = "driver_registers";

fn run_with(
    s: &SampleSettings,
    mem: &MemoryProfile,
    every: u64,
    cycles: u64,
    seed: u64,
) -> (RunResult, FakeDut) {
    let cfg = Config::default();
    let w = Workload::by_name("loop").unwrap();
    let mut dut = FakeDut::new(cfg.dispatch_width, every);
    let r = run(&mut dut, &cfg, &w, s, mem, cycles, seed, &mut |_, _| {}).unwrap();
    (r, dut)
}

fn addr(id: RegId) -> u8 {
    reg(id).addr()
}

#[test]
fn start_up_writes_land_at_the_right_addresses_with_the_right_fields() {
    let s = SampleSettings {
        interval: 4096,
        jitter: true,
        branch_filter: true,
        load_filter: true,
        event_filter: events::bit(events::L1D_REFILL),
        inv_event_filter: events::bit(events::TLB_WALK),
        // A unit with FEAT_SPE_FnE (the driver writes PMSNEVFR only then, as Linux does).
        fne: true,
        min_latency: 20,
        kernel: false,
        pa: true,
        pct: true,
        cx: false,
        buffer_base: 0xffff_8000_4000_0000,
        buffer_size: 1 << 20,
        ..SampleSettings::default()
    };
    let (_, dut) = run_with(&s, &MemoryProfile::default(), 1 << 40, 100, 1);
    let w = &dut.writes;
    // arm_spe_pmu_start: the buffer first, filters, interval, counter, control last.
    let order = [
        RegId::PmscrEl2,
        RegId::Pmbptr,
        RegId::Pmblimitr,
        RegId::Pmsfcr,
        RegId::Pmsevfr,
        RegId::Pmsnevfr,
        RegId::Pmslatfr,
        RegId::Pmsirr,
        RegId::Pmsicr,
        RegId::PmscrEl1,
    ];
    assert!(w.len() >= order.len());
    for (i, id) in order.iter().enumerate() {
        assert_eq!(w[i].1, addr(*id), "write {i} should be {id:?}");
        assert_eq!(
            w[i].0,
            w[0].0 + i as u64,
            "one access per cycle, back to back"
        );
    }
    let v = |i: usize| w[i].2;
    // EL2 boot state: PA and physical counter allowed, no EL2 sampling.
    assert_eq!(
        (
            pmscr::PA.get(v(0)),
            pmscr::PCT.get(v(0)),
            pmscr::E0SPE.get(v(0)),
            pmscr::E1SPE.get(v(0))
        ),
        (1, pmscr::PCT_PHYSICAL, 0, 0)
    );
    assert_eq!(pmbptr::PTR.get(v(1)), s.buffer_base);
    let lim = v(2);
    assert!(pmblimitr::E.is_set(lim));
    assert_eq!(pmblimitr::FM.get(lim), pmblimitr::FM_FILL);
    assert_eq!(
        pmblimitr::LIMIT.get(lim) << pmblimitr::LIMIT.lsb,
        s.buffer_base + s.buffer_size / 2,
        "the first output ends at the AUX ring's wakeup watermark (half the ring)"
    );
    let fcr = v(3);
    assert!(
        pmsfcr::FT.is_set(fcr)
            && pmsfcr::B.is_set(fcr)
            && pmsfcr::LD.is_set(fcr)
            && !pmsfcr::ST.is_set(fcr)
    );
    assert!(pmsfcr::FE.is_set(fcr) && pmsfcr::FNE.is_set(fcr) && pmsfcr::FL.is_set(fcr));
    assert_eq!(v(4), 1 << events::L1D_REFILL);
    assert_eq!(v(5), 1 << events::TLB_WALK);
    assert_eq!(pmslatfr::MINLAT_FIELD.get(v(6)), 20);
    assert_eq!(pmsirr::INTERVAL.get(v(7)), 4096 >> 8);
    assert!(pmsirr::RND.is_set(v(7)));
    assert_eq!(pmsicr::COUNT.get(v(8)), 4096);
    let scr = v(9);
    assert!(pmscr::E0SPE.is_set(scr) && !pmscr::E1SPE.is_set(scr) && !pmscr::CX.is_set(scr));
    assert!(pmscr::PA.is_set(scr) && pmscr::TS.is_set(scr));
    assert_eq!(pmscr::PCT.get(scr), pmscr::PCT_PHYSICAL);
}

#[test]
fn perf_defaults_program_no_filters_and_both_exception_levels() {
    let s = SampleSettings::default();
    let (_, dut) = run_with(&s, &MemoryProfile::default(), 1 << 40, 100, 1);
    let at = |id: RegId| {
        dut.writes
            .iter()
            .find(|w| w.1 == addr(id))
            .map(|w| w.2)
            .unwrap()
    };
    assert_eq!(at(RegId::Pmsfcr), 0);
    // The default preset has no FEAT_SPE_FnE: PMSNEVFR (UNDEFINED there) is never written.
    assert!(!s.fne);
    assert!(!dut.writes.iter().any(|w| w.1 == addr(RegId::Pmsnevfr)));
    assert_eq!(
        pmsirr::INTERVAL.get(at(RegId::Pmsirr)),
        Config::default().min_interval_field()
    );
    let scr = at(RegId::PmscrEl1);
    assert!(
        pmscr::E0SPE.is_set(scr)
            && pmscr::E1SPE.is_set(scr)
            && pmscr::TS.is_set(scr)
            && pmscr::CX.is_set(scr)
    );
    assert_eq!(pmscr::PCT.get(scr), pmscr::PCT_VIRTUAL);
}

#[test]
fn a_vhe_host_enables_sampling_through_pmscr_el2_last() {
    let s = SampleSettings {
        host: true,
        ..SampleSettings::default()
    };
    let (r, dut) = run_with(&s, &MemoryProfile::default(), 97, 20_000, 1);
    // The start sequence: ten writes, nine without FEAT_SPE_FnE (no PMSNEVFR).
    assert!(!s.fne);
    let start: Vec<_> = dut.writes.iter().take(9).collect();
    let last = start.last().unwrap();
    assert_eq!(last.1, addr(RegId::PmscrEl2));
    assert!(pmscr::E0SPE.is_set(last.2) && pmscr::E1SPE.is_set(last.2));
    assert_eq!(start[start.len() - 2].1, addr(RegId::PmscrEl1));
    assert_eq!(start[start.len() - 2].2, 0);
    assert!(
        r.stats.samples > 0,
        "host EL0 ops are sampled through E0HSPE"
    );
}

#[test]
fn discard_mode_sets_fm_and_nothing_is_written() {
    let s = SampleSettings {
        discard: true,
        ..SampleSettings::default()
    };
    let (r, dut) = run_with(&s, &MemoryProfile::default(), 97, 20_000, 1);
    let lim = dut
        .writes
        .iter()
        .find(|w| w.1 == addr(RegId::Pmblimitr))
        .unwrap()
        .2;
    assert_eq!(pmblimitr::FM.get(lim), pmblimitr::FM_DISCARD);
    assert!(pmblimitr::E.is_set(lim));
    assert!(r.stats.samples > 0);
    assert_eq!(dut.records, 0);
    assert!(r.aux.is_empty());
    assert_eq!(r.stats.protocol_violations, 0);
}

#[test]
fn buffer_full_interrupts_are_serviced_and_every_record_drained() {
    let seed = seed(
        FILE,
        "buffer_full_interrupts_are_serviced_and_every_record_drained",
    );
    let s = SampleSettings {
        buffer_size: 8 << 10,
        ..SampleSettings::default()
    };
    let (r, dut) = run_with(&s, &MemoryProfile::default(), 13, 150_000, seed);
    assert!(r.stats.management_events >= 2, "{}", r.stats);
    let full: Vec<_> = r
        .events
        .iter()
        .filter(|e| pmbsr::S.is_set(e.pmbsr))
        .collect();
    assert!(
        full.iter().all(|e| e.is_full() && !e.is_fault()),
        "{full:?}"
    );
    assert_eq!(r.stats.records_written, dut.records);
    assert_eq!(r.aux.len() as u64, dut.records * 64);
    for (i, w) in r.aux.chunks(8).enumerate() {
        assert_eq!(
            u64::from_le_bytes(w.try_into().unwrap()),
            ((i / 8) as u64) << 32 | (i % 8) as u64,
            "word {i}"
        );
    }
    // Each service (arm_spe_pmu_irq_handler): PSB, read PMBSR, read PMBPTR, then the next
    // output of the ring (PMBPTR = the head, where the last one ended; PMBLIMITR at the next
    // watermark boundary or the ring's end) and PMBSR = 0.
    let status_reads: Vec<u64> = dut
        .reads
        .iter()
        .filter(|r| r.1 == addr(RegId::Pmbsr) && pmbsr::S.is_set(r.2))
        .map(|r| r.0)
        .collect();
    assert_eq!(status_reads.len() as u64, r.stats.management_events);
    // The run ends with the driver's stop (PMSCR = 0, PSB, PMBLIMITR = 0, status): an event
    // still pending then is read by the stop, which restarts nothing. Only the interrupt
    // services before it start a new output.
    let stop = dut
        .writes
        .iter()
        .rev()
        .find(|w| w.1 == addr(RegId::PmscrEl1) && w.2 == 0)
        .map_or(u64::MAX, |w| w.0);
    let half = s.buffer_size / 2;
    for c in status_reads.into_iter().filter(|&c| c < stop) {
        let ptr = dut
            .reads
            .iter()
            .find(|r| r.0 == c + 1 && r.1 == addr(RegId::Pmbptr))
            .expect("PMBPTR read right after PMBSR")
            .2;
        let after: Vec<(u8, u64)> = dut
            .writes
            .iter()
            .filter(|w| w.0 > c)
            .take(3)
            .map(|w| (w.1, w.2))
            .collect();
        let head = if ptr - s.buffer_base >= s.buffer_size {
            s.buffer_base
        } else {
            ptr
        };
        assert_eq!(after[0], (addr(RegId::Pmbptr), head), "the ring's head");
        assert_eq!(after[1].0, addr(RegId::Pmblimitr));
        let limit = pmblimitr::LIMIT.get(after[1].1) << pmblimitr::LIMIT.lsb;
        assert_eq!(
            limit,
            s.buffer_base + ((head - s.buffer_base) / half + 1) * half,
            "the next watermark boundary"
        );
        assert_eq!(after[2], (addr(RegId::Pmbsr), 0));
    }
    // The end of the run (arm_spe_pmu_stop): PMSCR = 0, PSB, PMBLIMITR = 0, PSB, read
    // PMBSR and PMBPTR, read PMSICR.
    let stop = dut
        .writes
        .iter()
        .rposition(|w| w.1 == addr(RegId::PmscrEl1) && w.2 == 0)
        .expect("sampling disabled at the end");
    let tail: Vec<u8> = dut.writes[stop..].iter().map(|w| w.1).collect();
    // A buffer-full event still pending at the stop is read there and its status cleared
    // (PMBSR = 0), as Linux's stop does; otherwise nothing follows the buffer disable.
    let pending = dut
        .reads
        .iter()
        .rev()
        .find(|r| r.1 == addr(RegId::Pmbsr))
        .is_some_and(|r| pmbsr::S.is_set(r.2));
    let mut want = vec![addr(RegId::PmscrEl1), addr(RegId::Pmblimitr)];
    if pending {
        want.push(addr(RegId::Pmbsr));
    }
    assert_eq!(
        tail, want,
        "after the stop: the buffer disable, and the status cleared if an event was pending"
    );
    let last_reads: Vec<u8> = dut.reads.iter().rev().take(3).map(|r| r.1).collect();
    assert_eq!(
        last_reads,
        vec![addr(RegId::Pmsicr), addr(RegId::Pmbptr), addr(RegId::Pmbsr)]
    );
}

#[test]
fn a_write_error_stops_profiling_like_linux_or_restarts_on_request() {
    let seed = seed(
        FILE,
        "a_write_error_stops_profiling_like_linux_or_restarts_on_request",
    );
    let mem = MemoryProfile {
        errors: ErrorInjection::AtBeat(20),
        ..MemoryProfile::default()
    };
    let s = SampleSettings {
        buffer_size: 64 << 10,
        ..SampleSettings::default()
    };
    let (r, dut) = run_with(&s, &mem, 13, 50_000, seed);
    assert_eq!(r.stats.write_errors_injected, 1);
    assert_eq!(r.stats.management_events, 1);
    assert!(r.events[0].is_fault());
    assert_eq!(
        dut.records, 2,
        "beat 20 is in the third record; nothing after it"
    );
    assert_eq!(r.aux.len(), 2 * 64);
    let lim_writes: Vec<u64> = dut
        .writes
        .iter()
        .filter(|w| w.1 == addr(RegId::Pmblimitr))
        .map(|w| w.2)
        .collect();
    assert_eq!(
        lim_writes.last(),
        Some(&0),
        "buffer disabled after the fault"
    );

    let restart = SampleSettings {
        on_fault: FaultAction::Restart,
        ..s
    };
    let (r, dut) = run_with(&restart, &mem, 13, 50_000, seed);
    assert!(r.events[0].is_fault());
    assert!(dut.records > 2, "profiling resumed after the fault");
    assert_eq!(r.stats.records_written, dut.records);
}

/// `arm_spe_pmu_stop` saves the whole PMSICR (`period_left`) and `arm_spe_pmu_start` writes
/// it back: with FEAT_SPE_ERnd (`v1p2x`) an ECOUNT pending at a context switch survives it.
/// A driver that kept only COUNT would write ECOUNT = 0 at the next start.
#[test]
fn a_stop_saves_the_whole_pmsicr_and_the_next_start_restores_it() {
    let seed = seed(
        FILE,
        "a_stop_saves_the_whole_pmsicr_and_the_next_start_restores_it",
    );
    let cfg = Config::preset("v1p2x").unwrap();
    assert!(cfg.options.ernd, "v1p2x builds FEAT_SPE_ERnd");
    let s = SampleSettings {
        interval: 256,
        jitter: true,
        switch_every: 2_000,
        switch_off: 100,
        buffer_size: 64 << 10,
        ..SampleSettings::perf_default(cfg)
    };
    /// The golden model, with the PMSICR reads and writes on the register port noted.
    struct Spy {
        unit: spe_model::Model,
        reads: Vec<u64>,
        writes: Vec<u64>,
    }
    impl Dut for Spy {
        fn step(&mut self, inp: &Inputs) -> Outputs {
            let out = self.unit.step(inp);
            if inp.reg_en && inp.reg_addr == addr(RegId::Pmsicr) {
                if inp.reg_we {
                    self.writes.push(inp.reg_wdata);
                } else {
                    self.reads.push(out.reg_rdata);
                }
            }
            out
        }
    }
    let mut dut = Spy {
        unit: spe_model::Model::new(cfg),
        reads: Vec::new(),
        writes: Vec::new(),
    };
    let w = Workload::by_name("loop").unwrap();
    let mem = MemoryProfile::default();
    run(&mut dut, cfg, &w, &s, &mem, 200_000, seed, &mut |_, _| {}).unwrap();
    assert!(dut.reads.len() >= 10, "only {} stops", dut.reads.len());
    assert!(
        dut.reads
            .iter()
            .enumerate()
            .any(|(i, &v)| pmsicr::ECOUNT.get(v) != 0 && dut.writes.len() > i + 1),
        "no stop followed by a start caught a pending ECOUNT in {} stops (the test could not tell)",
        dut.reads.len()
    );
    // The first write is the first start's; each later one restores the read before it.
    assert_eq!(dut.writes[0], pmsicr::COUNT.place(s.interval));
    for (i, &read) in dut.reads.iter().enumerate() {
        if let Some(&written) = dut.writes.get(i + 1) {
            assert_eq!(
                written,
                read,
                "start {}: PMSICR written {written:#x}, read at the stop before {read:#x}",
                i + 1
            );
        }
    }
}

/// FEAT_SPE_EFT's AND terms at context switches (`and_term_reroll`): each start after a
/// switch back writes the settings' own type filter plus at most one term, and the terms
/// come cyclically, each of the ten (a type, its bit set or clear) once in every ten; with
/// `and_term_always` at every switch back, otherwise at about half of them.
#[test]
fn and_terms_at_switch_backs_come_each_once_in_every_ten() {
    let name = "and_terms_at_switch_backs_come_each_once_in_every_ten";
    let seed = seed(FILE, name);
    let cfg = Config::preset("v1p4").unwrap();
    assert!(cfg.options.eft, "v1p4 builds FEAT_SPE_EFT");
    // Type k's bit and its mask bit (J1 `SPEFilterByType`'s TYPE and TYPEm).
    let ty_bit = |k: usize| pmsfcr::TYPE.place(1 << k);
    let mask_bit = |k: usize| pmsfcr::TYPEM.place(1 << k);
    for always in [true, false] {
        let s = SampleSettings {
            interval: 256,
            load_filter: true,
            switch_every: 2_000,
            switch_off: 100,
            buffer_size: 64 << 10,
            and_term_reroll: Some(seed ^ u64::from(always)),
            and_term_always: always,
            ..SampleSettings::perf_default(cfg)
        };
        let mut dut = FakeDut::new(cfg.dispatch_width, 1 << 40);
        let w = Workload::by_name("loop").unwrap();
        let mem = MemoryProfile::default();
        run(&mut dut, cfg, &w, &s, &mem, 300_000, seed, &mut |_, _| {}).unwrap();
        let fcrs: Vec<u64> = dut
            .writes
            .iter()
            .filter(|w| w.1 == addr(RegId::Pmsfcr))
            .map(|w| w.2)
            .collect();
        assert!(
            fcrs.len() >= 41,
            "always {always}: only {} starts",
            fcrs.len()
        );
        // The first start programs the settings' own filter: LD, no AND term.
        let own = fcrs[0];
        assert_eq!(
            own,
            pmsfcr::FT.place(1) | pmsfcr::LD.place(1),
            "the first start's PMSFCR"
        );
        // Each later start: the own filter, or it with one mask bit more and that type's
        // bit set or clear (the term: type index, set).
        let mut terms = Vec::new();
        for (i, &f) in fcrs.iter().enumerate().skip(1) {
            let diff = f ^ own;
            if diff == 0 {
                continue;
            }
            let masks: Vec<usize> = (0..5).filter(|&k| diff & mask_bit(k) != 0).collect();
            assert_eq!(masks.len(), 1, "start {i}: PMSFCR {f:#x}, own {own:#x}");
            let ty = masks[0];
            let rest = diff & !mask_bit(ty) & !ty_bit(ty);
            assert_eq!(
                rest, 0,
                "start {i}: PMSFCR {f:#x} changes more than one term"
            );
            terms.push((ty, f & ty_bit(ty) != 0));
        }
        let starts = fcrs.len() - 1;
        if always {
            assert_eq!(terms.len(), starts, "a term at every switch back");
        } else {
            assert!(
                terms.len() > starts / 4 && terms.len() < starts * 3 / 4,
                "{} terms in {starts} switch backs, about half expected",
                terms.len()
            );
        }
        assert!(
            terms.len() >= 20,
            "always {always}: only {} terms",
            terms.len()
        );
        for (c, chunk) in terms.chunks_exact(10).enumerate() {
            let mut sorted = chunk.to_vec();
            sorted.sort_unstable();
            let all: Vec<(usize, bool)> = (0..5).flat_map(|t| [(t, false), (t, true)]).collect();
            assert_eq!(
                sorted,
                all,
                "always {always}: terms {} to {}",
                c * 10,
                c * 10 + 9
            );
        }
    }
}
