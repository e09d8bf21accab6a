//! Register port semantics: RES0, read-only, unmapped addresses, reset values, reset.
mod common;
use common::*;
use spe_defs::packet::op_class;
use spe_defs::regs::{self, RegId};
use spe_defs::{Config, PRESETS};

#[test]
fn every_port_address_reads_masked_writes_and_ignores_read_only() {
    // Exhaustive over the 32 addresses and a set of patterns, for every preset.
    for cfg in PRESETS {
        for pattern in [u64::MAX, 0, 0xAAAA_AAAA_AAAA_AAAA, 0x5555_5555_5555_5555] {
            for a in 0u8..32 {
                let mut tb = Tb::new(cfg);
                let before = tb.m.regs().read(a, true);
                tb.inp.reg_en = true;
                tb.inp.reg_we = true;
                tb.inp.reg_addr = a;
                tb.inp.reg_wdata = pattern;
                tb.step();
                tb.inp.reg_en = true;
                tb.inp.reg_addr = a;
                let got = tb.step().reg_rdata;
                match regs::reg_at(a) {
                    None => assert_eq!(got, 0, "unmapped {a}"),
                    Some(d) if d.read_only => {
                        assert_eq!(got, before);
                        assert_eq!(got, id_value(d.id, cfg), "{}", d.name);
                    }
                    Some(d) => assert_eq!(
                        got,
                        pattern & d.writable_mask(cfg),
                        "{} ({})",
                        d.name,
                        cfg.name
                    ),
                }
            }
        }
    }
}

/// An ID register's value as the test bench's thread reads it: its EL1 owns the buffer with
/// EL2 enabled and PMSCR_EL2.EnVM is 0 after reset, so PMBIDR.AddrMode reads 00 (the
/// nVM test checks the other regimes).
fn id_value(id: RegId, cfg: &Config) -> u64 {
    let v = regs::read_only_value(id, cfg);
    if id == RegId::Pmbidr {
        v & !regs::pmbidr::ADDRMODE.mask()
    } else {
        v
    }
}

#[test]
fn registers_reset_to_zero_and_id_registers_to_their_values() {
    for cfg in PRESETS {
        let mut tb = Tb::new(cfg);
        for d in regs::REGS {
            let want = if d.read_only {
                id_value(d.id, cfg)
            } else {
                d.reset_value(cfg)
            };
            assert_eq!(tb.read_reg(d.id), want, "{}", d.name);
        }
    }
}

#[test]
fn reads_have_no_side_effects() {
    let mut tb = Tb::new(&PRESETS[0]);
    tb.enable(4, 0);
    tb.write_reg(RegId::Pmbsr, spe_defs::regs::pmbsr::COLL.place(1));
    for _ in 0..3 {
        assert_eq!(
            tb.read_reg(RegId::Pmbsr),
            spe_defs::regs::pmbsr::COLL.place(1)
        );
    }
}

#[test]
fn reset_in_any_phase_returns_to_a_clean_state() {
    // Run a scenario, resetting at cycle k, for every k; after the reset cycle the unit must
    // equal a fresh one (same registers, same phase) and produce no outputs.
    let fresh = spe_model::Model::new(&PRESETS[0]);
    for k in 0..60u64 {
        let mut tb = Tb::new(&PRESETS[0]);
        tb.enable(4, 0);
        tb.sample_after(1);
        let mut n = 0;
        loop {
            if n == k {
                tb.inp.reset = true;
                tb.op(0, 0, op_class::OTHER, 0);
                tb.inp.thr[0].cpl.done = true;
                let out = tb.step();
                assert_eq!(out.tag, 0);
                assert!(
                    !out.wr_valid
                        && !out.thr[0].pmu_sample_feed
                        && !out.thr[0].hook_stray
                        && out.thr[0].pmu_sample_pop == 0
                );
                break;
            }
            match n {
                0..=3 => tb.op(0, 0x10, op_class::OTHER, 0),
                8 => tb.inp.thr[0].cpl.done = true,
                _ => {}
            }
            tb.step();
            n += 1;
        }
        assert_eq!(
            tb.m.regs(),
            fresh.regs(),
            "registers after reset at cycle {k}"
        );
        assert_eq!(
            tb.m.phase(),
            fresh.phase(),
            "phase after reset at cycle {k}"
        );
    }
}

#[test]
fn nvm_registers_and_pmbidr_addr_mode_follow_the_effective_envm() {
    // FEAT_SPE_nVM (Arm ARM D24.7.1-3, D24.7.9): PMBLIMITR.nVM, PMSCR_EL2.EnVM and PMBMAR
    // exist only in a unit that builds it; PMBIDR.AddrMode reads 01 while EnVM is
    // effectively 1 (EL2 disabled, EL2 owning the buffer, or EnVM set) and 00 under an
    // EL1 owner with EL2 enabled and EnVM clear.
    use spe_defs::regs::{mdcr_e2pb, pmbidr, pmblimitr, pmbmar, pmscr};
    let v1p4 = Config::preset("v1p4").unwrap();
    let nvm = Config {
        name: "v1p4_nvm",
        options: spe_defs::config::Options {
            nvm: true,
            ..v1p4.options
        },
        ..*v1p4
    };
    let addr_mode = |tb: &mut Tb| pmbidr::ADDRMODE.get(tb.read_reg(RegId::Pmbidr));
    let mut tb = Tb::new(&nvm);
    tb.write_reg(RegId::Pmbmar, u64::MAX);
    assert_eq!(
        tb.read_reg(RegId::Pmbmar),
        pmbmar::SH.mask() | pmbmar::ATTR.mask()
    );
    tb.write_reg(RegId::Pmblimitr, pmblimitr::NVM.mask());
    assert_eq!(tb.read_reg(RegId::Pmblimitr), pmblimitr::NVM.mask());
    // EL2 disabled: EnVM is effectively 1.
    tb.inp.thr[0].el2_en = false;
    assert_eq!(addr_mode(&mut tb), pmbidr::ADDRMODE_VA_PA);
    tb.inp.thr[0].el2_en = true;
    tb.inp.thr[0].mdcr_e2pb = mdcr_e2pb::EL2_OWNS;
    assert_eq!(
        addr_mode(&mut tb),
        pmbidr::ADDRMODE_VA_PA,
        "EL2 owns the buffer"
    );
    tb.inp.thr[0].mdcr_e2pb = mdcr_e2pb::EL1_OWNS;
    assert_eq!(addr_mode(&mut tb), 0, "EL1 owner, EnVM = 0");
    tb.write_reg(RegId::PmscrEl2, pmscr::ENVM.mask());
    assert_eq!(tb.read_reg(RegId::PmscrEl2), pmscr::ENVM.mask());
    assert_eq!(
        addr_mode(&mut tb),
        pmbidr::ADDRMODE_VA_PA,
        "EL1 owner, EnVM = 1"
    );
    assert_eq!(tb.m.regs().buffer_space(true), (pmbmar::SPACE_IPA, 0x3FF));
    assert_eq!(tb.m.regs().buffer_space(false), (pmbmar::SPACE_PA, 0x3FF));
    tb.write_reg(RegId::PmscrEl2, 0);
    assert_eq!(
        tb.m.regs().buffer_space(true),
        (pmbmar::SPACE_VA, 0),
        "EnVM = 0"
    );
    // PMSCR_EL1's bit 11 stays RES0 (reserved for software only with FEAT_NV).
    tb.write_reg(RegId::PmscrEl1, pmscr::ENVM.mask());
    assert_eq!(tb.read_reg(RegId::PmscrEl1), 0);
    // Without the option: all RES0 / unmapped, AddrMode 00.
    let mut tb = Tb::new(v1p4);
    tb.write_reg(RegId::Pmbmar, u64::MAX);
    tb.write_reg(RegId::Pmblimitr, pmblimitr::NVM.mask());
    tb.write_reg(RegId::PmscrEl2, pmscr::ENVM.mask());
    assert_eq!(tb.read_reg(RegId::Pmbmar), 0);
    assert_eq!(tb.read_reg(RegId::Pmblimitr), 0);
    assert_eq!(tb.read_reg(RegId::PmscrEl2), 0);
    assert_eq!(addr_mode(&mut tb), 0);
    assert_eq!(tb.m.regs().buffer_space(false), (pmbmar::SPACE_VA, 0));
}

#[test]
fn exc_routes_each_management_event_to_the_bank_report_spe_event_picks() {
    // FEAT_SPE_EXC (Arm ARM D17.8 RHJXHT, J1 ReportSPEEvent, SPEProfilingStopped,
    // SPEInterruptEnabled), checked on the model's register file from the rule text.
    use spe_defs::regs::{mdcr_pmsee, pmbsr, pmscr};
    use spe_model::regs::{ExcInputs, Regs};
    let v1p4 = Config::preset("v1p4").unwrap();
    let cfg = Config {
        name: "v1p4_exc",
        options: spe_defs::config::Options {
            exc: true,
            ..v1p4.options
        },
        ..*v1p4
    };
    let ee = |v: u64| pmscr::EE.place(v);
    let el1_owner = ExcInputs {
        pmsee: mdcr_pmsee::DELEGATED,
        el2: true,
        owner_el2: false,
        scr_ea: false,
        hcr_tea: false,
    };
    let s = |r: &Regs, id: RegId| pmbsr::S.is_set(r.get(id));
    // (inputs, PMSCR_EL1.EE, PMSCR_EL2.EE, fault (kind, FSC) or buffer full, bank, irq)
    type Case = (ExcInputs, u64, u64, Option<(u8, u8)>, RegId, bool);
    let cases: &[Case] = &[
        // PMSEE = 00: everything as without the feature, whatever EE says.
        (
            ExcInputs {
                pmsee: mdcr_pmsee::DISABLED,
                ..el1_owner
            },
            0b11,
            0b11,
            None,
            RegId::Pmbsr,
            true,
        ),
        // Delegated, EL1's EE = 11: PMBSR_EL1 with an exception, no PMBIRQ.
        (el1_owner, 0b11, 0b01, None, RegId::Pmbsr, false),
        // EL1's EE = 01 (FEAT_NV's): used as 00, so PMBIRQ.
        (el1_owner, 0b01, 0b01, None, RegId::Pmbsr, true),
        // EL2's EE = 11: every event in PMBSR_EL2.
        (el1_owner, 0b00, 0b11, None, RegId::PmbsrEl2, false),
        // EL2's EE = 10: buffer full and a stage-1 fault of an EL1 owner stay at EL1, a
        // stage-2 fault goes to EL2, a stage-1 fault of an EL2 owner too.
        (el1_owner, 0b00, 0b10, None, RegId::Pmbsr, true),
        (
            el1_owner,
            0b00,
            0b10,
            Some((pmbsr::ERR_STAGE1, 0b000101)),
            RegId::Pmbsr,
            true,
        ),
        (
            el1_owner,
            0b00,
            0b10,
            Some((pmbsr::ERR_STAGE2, 0b000101)),
            RegId::PmbsrEl2,
            false,
        ),
        (
            ExcInputs {
                owner_el2: true,
                ..el1_owner
            },
            0b00,
            0b10,
            Some((pmbsr::ERR_STAGE1, 0b000101)),
            RegId::PmbsrEl2,
            false,
        ),
        // A synchronous external abort on a walk with HCR_EL2.TEA: EL2; without: EL1.
        (
            ExcInputs {
                hcr_tea: true,
                ..el1_owner
            },
            0b00,
            0b10,
            Some((pmbsr::ERR_STAGE1, 0b010101)),
            RegId::PmbsrEl2,
            false,
        ),
        (
            el1_owner,
            0b00,
            0b10,
            Some((pmbsr::ERR_STAGE1, 0b010101)),
            RegId::Pmbsr,
            true,
        ),
        // EL2 not enabled: EL2's EE is effectively 01 (no EL2 bank).
        (
            ExcInputs {
                el2: false,
                ..el1_owner
            },
            0b00,
            0b11,
            None,
            RegId::Pmbsr,
            true,
        ),
        // PMSEE = 11: everything in PMBSR_EL3; 10: only an external abort with SCR_EL3.EA.
        (
            ExcInputs {
                pmsee: mdcr_pmsee::TRAP_ALL,
                ..el1_owner
            },
            0b11,
            0b11,
            None,
            RegId::PmbsrEl3,
            false,
        ),
        (
            ExcInputs {
                pmsee: mdcr_pmsee::ENABLED,
                ..el1_owner
            },
            0b00,
            0b00,
            Some((pmbsr::ERR_EXTERNAL, 0)),
            RegId::Pmbsr,
            true,
        ),
        (
            ExcInputs {
                pmsee: mdcr_pmsee::ENABLED,
                scr_ea: true,
                ..el1_owner
            },
            0b00,
            0b00,
            Some((pmbsr::ERR_EXTERNAL, 0)),
            RegId::PmbsrEl3,
            false,
        ),
    ];
    for (i, &(inp, ee1, ee2, fault, bank, irq)) in cases.iter().enumerate() {
        let mut r = Regs::new(&cfg);
        r.set_exc_inputs(inp);
        r.write(regs::reg(RegId::PmscrEl1).addr(), ee(ee1));
        r.write(regs::reg(RegId::PmscrEl2).addr(), ee(ee2));
        assert!(!r.stopped(), "case {i}");
        r.set_collision();
        match fault {
            None => r.management_event(pmbsr::EC_BUF, pmbsr::BSC_FULL, false, false),
            Some((kind, fsc)) => r.fault_event(kind, fsc, false),
        }
        for b in [RegId::Pmbsr, RegId::PmbsrEl2, RegId::PmbsrEl3] {
            assert_eq!(s(&r, b), b == bank, "case {i}: {b:?} S");
        }
        assert!(r.stopped(), "case {i}: the event's bank stops profiling");
        assert_eq!(r.irq(), irq, "case {i}: PMBIRQ");
        let (pending, _) = r.exceptions();
        let want = [
            bank == RegId::Pmbsr && !irq,
            bank == RegId::PmbsrEl2,
            bank == RegId::PmbsrEl3,
        ];
        assert_eq!(pending, want, "case {i}: exceptions");
    }
    // An S left in a bank whose exceptions are off does not stop profiling: PMBSR_EL2.S
    // with EL2's EE = 01.
    let mut r = Regs::new(&cfg);
    r.set_exc_inputs(el1_owner);
    r.write(regs::reg(RegId::PmbsrEl2).addr(), pmbsr::S.mask());
    r.write(regs::reg(RegId::PmscrEl2).addr(), ee(0b01));
    assert!(!r.stopped());
    r.write(regs::reg(RegId::PmscrEl2).addr(), ee(0b10));
    assert!(r.stopped());
    // The KE masks: PMSCR_EL1.KE; PMSCR_EL2.KE only with EE = 11.
    r.write(regs::reg(RegId::PmscrEl1).addr(), pmscr::KE.mask());
    r.write(
        regs::reg(RegId::PmscrEl2).addr(),
        pmscr::KE.mask() | ee(0b10),
    );
    assert_eq!(r.exceptions().1, [true, false]);
    r.write(
        regs::reg(RegId::PmscrEl2).addr(),
        pmscr::KE.mask() | ee(0b11),
    );
    assert_eq!(r.exceptions().1, [true, true]);
    // PMBSR_EL3 has its own port address, 27.
    assert_eq!(regs::reg(RegId::PmbsrEl3).addr(), 27);
}
