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
                let before = tb.m.regs().read(a, false);
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
                        assert_eq!(got, regs::read_only_value(d.id, cfg), "{}", d.name);
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

#[test]
fn registers_reset_to_zero_and_id_registers_to_their_values() {
    for cfg in PRESETS {
        let mut tb = Tb::new(cfg);
        for d in regs::REGS {
            assert_eq!(tb.read_reg(d.id), d.reset_value(cfg), "{}", d.name);
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
