//! Buffer writer: addresses, backpressure, limit, buffer-full, faults, misaligned PMBPTR.
mod common;
use common::*;
use spe_defs::impdef::RECORD_SIZE_LOG2;

/// The default preset's record slot.
const RECORD_SIZE: usize = 1 << RECORD_SIZE_LOG2;
use spe_defs::packet::op_class;
use spe_defs::regs::{pmblimitr, pmbsr, RegId};
use spe_defs::Config;

/// Takes one sample of latency 2 and returns the cycle its completion was reported in.
fn one_sample(tb: &mut Tb) {
    tb.sample_after(1);
    tb.dispatch_until_tag(0x3000, op_class::OTHER, 0, 4);
    tb.step();
    tb.complete(true);
}

#[test]
fn record_beats_go_to_increasing_addresses_at_pmbptr() {
    let mut tb = Tb::new(&Config::default());
    tb.enable(4, 0);
    one_sample(&mut tb);
    let mut beats = vec![];
    for _ in 0..20 {
        let out = tb.step();
        if out.wr_valid {
            beats.push(out.wr_addr);
            assert_eq!(out.wr_strb, 0xFF);
        }
    }
    let want: Vec<u64> = (0..8).map(|b| BASE + 8 * b).collect();
    assert_eq!(beats, want);
    assert_eq!(tb.read_reg(RegId::Pmbptr), BASE + RECORD_SIZE as u64);
}

#[test]
fn backpressure_of_any_length_holds_the_beat_and_loses_nothing() {
    let seed = seed("backpressure_of_any_length_holds_the_beat_and_loses_nothing");
    let mut rng = Rng(seed);
    let mut reference = Tb::new(&Config::default());
    reference.enable(4, 0);
    one_sample(&mut reference);
    reference.steps(20);
    let want = reference.record_at(BASE).unwrap();

    let mut tb = Tb::new(&Config::default());
    tb.enable(4, 0);
    one_sample(&mut tb);
    let mut held: Option<(u64, u64)> = None;
    let mut cycles = 0;
    while tb.record_at(BASE).is_none() {
        // Long stalls mixed with short ones.
        tb.inp.wr_ready = if rng.chance(0.05) {
            true
        } else {
            rng.chance(0.01)
        };
        let stall_burst = rng.chance(0.01);
        if stall_burst {
            tb.inp.wr_ready = false;
            for _ in 0..rng.below(5000) {
                let out = tb.step();
                assert!(out.wr_valid);
                if let Some(h) = held {
                    assert_eq!(h, (out.wr_addr, out.wr_data), "beat changed while stalled");
                }
                held = Some((out.wr_addr, out.wr_data));
            }
            continue;
        }
        let ready = tb.inp.wr_ready;
        let out = tb.step();
        if out.wr_valid {
            if let Some(h) = held {
                assert_eq!(h, (out.wr_addr, out.wr_data), "beat changed while stalled");
            }
            held = if ready {
                None
            } else {
                Some((out.wr_addr, out.wr_data))
            };
        }
        cycles += 1;
        assert!(cycles < 10_000_000);
    }
    assert_eq!(tb.record_at(BASE).unwrap(), want);
}

#[test]
fn buffer_full_sets_service_status_and_interrupt_and_stops_profiling() {
    let mut tb = Tb::new(&Config::default());
    tb.enable(4, 0);
    // Room for exactly two records below the limit.
    let limit = BASE + 0x1000;
    tb.write_reg(RegId::Pmbptr, limit - 2 * RECORD_SIZE as u64);
    tb.write_reg(RegId::Pmblimitr, limit | pmblimitr::E.place(1));
    one_sample(&mut tb);
    tb.steps(12);
    assert!(!tb.step().thr[0].irq, "room for one more record");
    one_sample(&mut tb);
    tb.steps(12);
    let out = tb.step();
    assert!(out.thr[0].irq);
    let bsr = tb.read_reg(RegId::Pmbsr);
    assert!(pmbsr::S.is_set(bsr));
    assert_eq!(pmbsr::EC.get(bsr), pmbsr::EC_BUF);
    assert_eq!(pmbsr::BSC.get(bsr), pmbsr::BSC_FULL);
    assert!(!pmbsr::DL.is_set(bsr), "nothing lost");
    assert_eq!(tb.read_reg(RegId::Pmbptr), limit);
    // Profiling stopped: no population.
    tb.op(0, 0, op_class::OTHER, 0);
    assert_eq!(tb.step().thr[0].pmu_sample_pop, 0);
    // Software clears PMBSR and rewinds: profiling resumes.
    tb.write_reg(RegId::Pmbptr, BASE);
    tb.write_reg(RegId::Pmbsr, 0);
    assert!(!tb.step().thr[0].irq);
    tb.op(0, 0, op_class::OTHER, 0);
    assert_eq!(tb.step().thr[0].pmu_sample_pop, 1);
}

#[test]
fn buffer_full_leaves_dl_and_ea_as_they_were() {
    for (dl, ea) in [(false, false), (true, false), (false, true), (true, true)] {
        let mut tb = Tb::new(&Config::default());
        tb.enable(4, 0);
        // Room for one record; PMBSR holds DL / EA from before (S = 0: profiling runs).
        let limit = BASE + 0x1000;
        tb.write_reg(RegId::Pmbptr, limit - 2 * RECORD_SIZE as u64);
        tb.write_reg(RegId::Pmblimitr, limit | pmblimitr::E.place(1));
        tb.write_reg(
            RegId::Pmbsr,
            pmbsr::DL.place(dl.into()) | pmbsr::EA.place(ea.into()),
        );
        one_sample(&mut tb);
        tb.steps(12);
        one_sample(&mut tb);
        tb.steps(12);
        assert!(tb.step().thr[0].irq);
        let bsr = tb.read_reg(RegId::Pmbsr);
        assert!(pmbsr::S.is_set(bsr));
        assert_eq!(pmbsr::EC.get(bsr), pmbsr::EC_BUF);
        assert_eq!(pmbsr::BSC.get(bsr), pmbsr::BSC_FULL);
        assert_eq!(
            (pmbsr::DL.is_set(bsr), pmbsr::EA.is_set(bsr)),
            (dl, ea),
            "buffer full changes neither DL nor EA (PMBSR {bsr:#x})"
        );
    }
}

#[test]
fn records_are_never_written_at_or_past_the_limit() {
    let seed = seed("records_are_never_written_at_or_past_the_limit");
    let mut rng = Rng(seed);
    for _ in 0..200 {
        let mut tb = Tb::new(&Config::default());
        tb.enable(4, 0);
        let limit = (rng.below(64) + 1) << 12;
        let ptr = rng.below(limit + 0x200);
        tb.write_reg(RegId::Pmbptr, ptr);
        tb.write_reg(RegId::Pmblimitr, limit | pmblimitr::E.place(1));
        for _ in 0..4 {
            if tb.step().thr[0].irq {
                break; // buffer full: profiling stopped
            }
            one_sample(&mut tb);
            tb.steps(12);
        }
        for &a in tb.mem.keys() {
            assert!(
                a + 8 <= limit,
                "beat at {a:#x} crosses limit {limit:#x} (ptr {ptr:#x})"
            );
        }
        let bsr = tb.read_reg(RegId::Pmbsr);
        if (ptr & !63) + 64 > limit {
            assert!(tb.mem.is_empty());
            assert!(
                pmbsr::S.is_set(bsr) && pmbsr::DL.is_set(bsr),
                "no room: buffer full with data loss"
            );
        }
    }
}

#[test]
fn a_write_fault_sets_ec_fsc_and_ea_by_kind_and_dl_unless_at_the_first_byte() {
    // D17.8.3/D17.8.4: stage-1 faults (and external aborts) report EC 100100, stage-2
    // faults 100101; MSS holds the FSC (010000 for an external abort); EA set by an
    // external abort and left as it was by an MMU fault (D17.8.3: "The other fields in
    // PMBSR_ELx ... are unchanged"); DL is set unless the faulting write is the record's
    // first byte, where it stays as it was. The reserved kind 11 is an external abort.
    let kinds = [
        (pmbsr::ERR_EXTERNAL, 0u8),
        (pmbsr::ERR_STAGE1, 0b000111),
        (pmbsr::ERR_STAGE2, 0b001101),
        (pmbsr::ERR_RESERVED, 0b101010),
    ];
    for (kind, fsc) in kinds {
        for bad_beat in [0u64, 5] {
            for (old_dl, old_ea) in [(false, false), (true, false), (false, true)] {
                let ctx = format!(
                    "kind {kind:#04b} FSC {fsc:#08b} beat {bad_beat} DL was {old_dl} EA was {old_ea}"
                );
                let mut tb = Tb::new(&Config::default());
                tb.enable(4, 0);
                tb.write_reg(
                    RegId::Pmbsr,
                    pmbsr::DL.place(u64::from(old_dl)) | pmbsr::EA.place(u64::from(old_ea)),
                );
                one_sample(&mut tb);
                let mut accepted = 0;
                loop {
                    tb.inp.wr_err = accepted == bad_beat;
                    tb.inp.wr_err_kind = if tb.inp.wr_err { kind } else { 0 };
                    tb.inp.wr_err_fsc = if tb.inp.wr_err { fsc } else { 0 };
                    let out = tb.step();
                    if out.wr_valid && out.wr_addr == BASE + 8 * bad_beat {
                        break;
                    }
                    if out.wr_valid {
                        accepted += 1;
                    }
                }
                tb.inp.wr_err = false;
                // No further beats, ever.
                for _ in 0..50 {
                    tb.op(0, 0, op_class::OTHER, 0);
                    let out = tb.step();
                    assert!(!out.wr_valid, "{ctx}");
                    assert!(out.thr[0].irq, "{ctx}");
                }
                let external = kind == pmbsr::ERR_EXTERNAL || kind == pmbsr::ERR_RESERVED;
                let bsr = tb.read_reg(RegId::Pmbsr);
                assert!(pmbsr::S.is_set(bsr), "{ctx}");
                let ec = if kind == pmbsr::ERR_STAGE2 {
                    pmbsr::EC_FAULT_S2
                } else {
                    pmbsr::EC_FAULT_S1
                };
                assert_eq!(pmbsr::EC.get(bsr), ec, "{ctx}");
                let want_fsc = if external {
                    pmbsr::FSC_EXTERNAL_ABORT
                } else {
                    u64::from(fsc)
                };
                assert_eq!(pmbsr::FSC.get(bsr), want_fsc, "{ctx}");
                assert_eq!(pmbsr::EA.is_set(bsr), external || old_ea, "{ctx}");
                assert_eq!(pmbsr::DL.is_set(bsr), bad_beat != 0 || old_dl, "{ctx}");
                assert_eq!(
                    tb.read_reg(RegId::Pmbptr),
                    BASE + 8 * bad_beat,
                    "PMBPTR holds the faulting address ({ctx})"
                );
                assert_eq!(tb.mem.len() as u64, bad_beat, "{ctx}");
            }
        }
    }
}

#[test]
fn a_last_beat_taken_after_software_set_s_raises_no_management_event() {
    // D17.8.2/D17.8.3, J1 OtherSPEManagementEvent: buffer-full and fault events only "if
    // PMBSR_ELx.S is 0". Software sets S (with a syndrome of its own) while the record's
    // last beat is offered and held: the beat lands when taken (the port's rule, choice
    // stopped-write) and PMBPTR moves past it (to it when it faulted), but PMBSR keeps what
    // software wrote: no buffer-full although the record was the last that fitted, no fault
    // syndrome for an error on the beat.
    let sw = pmbsr::S.place(1) | pmbsr::EC.place(pmbsr::EC_BUF) | pmbsr::MSS.place(0x2a);
    let last = BASE + SIZE - RECORD_SIZE as u64;
    for err in [false, true] {
        let mut tb = Tb::new(&Config::default());
        tb.enable(4, 0);
        tb.write_reg(RegId::Pmbptr, last);
        one_sample(&mut tb);
        let mut taken = 0;
        for _ in 0..100 {
            if taken == 7 {
                break;
            }
            if tb.step().wr_valid {
                taken += 1;
            }
        }
        assert_eq!(taken, 7, "err {err}: seven beats taken");
        tb.inp.wr_ready = false;
        let out = tb.step();
        assert!(
            out.wr_valid && out.wr_addr == last + 56,
            "err {err}: the last beat offered"
        );
        tb.write_reg(RegId::Pmbsr, sw);
        tb.inp.wr_ready = true;
        tb.inp.wr_err = err;
        tb.inp.wr_err_kind = pmbsr::ERR_STAGE1;
        tb.inp.wr_err_fsc = 0b000111;
        let out = tb.step();
        assert!(
            out.wr_valid && out.wr_addr == last + 56,
            "err {err}: still offered, taken"
        );
        tb.inp.wr_err = false;
        for _ in 0..20 {
            assert!(!tb.step().wr_valid, "err {err}: no beat after");
        }
        assert_eq!(
            tb.read_reg(RegId::Pmbsr),
            sw,
            "err {err}: PMBSR as software wrote it"
        );
        let ptr = if err { last + 56 } else { last + 64 };
        assert_eq!(tb.read_reg(RegId::Pmbptr), ptr, "err {err}: PMBPTR");
    }
}

#[test]
fn misaligned_pmbptr_writes_the_aligned_down_slot() {
    let mut tb = Tb::new(&Config::default());
    tb.enable(4, 0);
    tb.write_reg(RegId::Pmbptr, BASE + 0x47);
    one_sample(&mut tb);
    tb.steps(12);
    assert!(tb.record_at(BASE + 0x40).is_some());
    assert_eq!(tb.read_reg(RegId::Pmbptr), BASE + 0x80);
}

#[test]
fn software_write_wins_over_a_hardware_update_in_the_same_cycle() {
    let mut tb = Tb::new(&Config::default());
    tb.enable(4, 0);
    one_sample(&mut tb);
    // Find the cycle of the last beat and write PMBPTR in it.
    let mut n = 0;
    loop {
        if tb.m.regs().get(RegId::Pmbptr) != BASE {
            panic!("missed the last beat");
        }
        if let spe_model::Phase::Writing(w) = tb.m.phase() {
            if w.beat == 7 {
                break;
            }
        }
        tb.step();
        n += 1;
        assert!(n < 30);
    }
    tb.write_reg(RegId::Pmbptr, 0x5000);
    assert_eq!(tb.read_reg(RegId::Pmbptr), 0x5000);
}
