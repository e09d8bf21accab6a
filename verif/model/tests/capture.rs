//! Capture and latency behaviour: what the record holds, per hook, per control bit.
mod common;
use common::*;
use spe_defs::impdef::layout;
use spe_defs::packet::{self, op_class, subclass};
use spe_defs::regs::{pmscr, RegId};
use spe_defs::{events as ev, Config};

/// Runs one sampled op through: tag, then the scripted hooks at cycle offsets after the tag,
/// then waits for its record; returns the record bytes.
/// A hook report scripted `k` cycles after the tag cycle.
type Script<'a> = [(u64, &'a dyn Fn(&mut spe_ports::Inputs))];

fn sample_with(tb: &mut Tb, class: u8, sub: u8, script: &Script) -> Vec<u8> {
    let before = tb.m.regs().get(RegId::Pmbptr);
    tb.sample_after(1);
    let t = tb.dispatch_until_tag(0xaaaa_d000_1000, class, sub, 4);
    let last = script.iter().map(|s| s.0).max().unwrap_or(1);
    for k in 1..=last {
        assert_eq!(tb.cycle, t + k);
        for (at, f) in script {
            if *at == k {
                f(&mut tb.inp);
            }
        }
        tb.step();
    }
    // Its filter and check cycles and its beats (eight, or sixteen in a 128-byte slot).
    tb.steps(4 + tb.cfg.record_beats() as u64);
    tb.record_at(before).expect("record written")
}

fn u16_at(r: &[u8], o: usize) -> u64 {
    u64::from(u16::from_le_bytes([r[o], r[o + 1]]))
}
fn u64_at(r: &[u8], o: usize) -> u64 {
    u64::from_le_bytes(r[o..o + 8].try_into().unwrap())
}

#[test]
fn total_issue_and_translation_latencies_count_cycles_between_reports() {
    let mut tb = Tb::new(&Config::default());
    tb.enable(4, 0);
    let rec = sample_with(
        &mut tb,
        op_class::LD_ST_ATOMIC,
        subclass::LDST_GP,
        &[
            (4, &|i| i.thr[0].iss_valid = true),
            (6, &|i| {
                i.thr[0].xl.start = true;
                i.thr[0].xl.va = 0xffff_e000_1238;
            }),
            (9, &|i| {
                i.thr[0].xl.done = true;
                i.thr[0].xl.pa = 0x8_8000_1238;
            }),
            (42, &|i| {
                i.thr[0].cpl.done = true;
                i.thr[0].cpl.retired = true;
            }),
        ],
    );
    assert_eq!(rec[layout::LAT_TOTAL.offset], 0x98);
    assert_eq!(u16_at(&rec, layout::LAT_TOTAL.offset + 1), 42);
    assert_eq!(rec[layout::LAT_ISSUE.offset], 0x99);
    assert_eq!(u16_at(&rec, layout::LAT_ISSUE.offset + 1), 4);
    assert_eq!(rec[layout::LAT_XLAT.offset], 0x9a);
    assert_eq!(u16_at(&rec, layout::LAT_XLAT.offset + 1), 3);
}

#[test]
fn translation_start_and_done_in_one_cycle_is_zero_latency() {
    let mut tb = Tb::new(&Config::default());
    tb.enable(4, 0);
    let rec = sample_with(
        &mut tb,
        op_class::LD_ST_ATOMIC,
        0,
        &[
            (2, &|i| {
                i.thr[0].xl.start = true;
                i.thr[0].xl.done = true;
            }),
            (3, &|i| {
                i.thr[0].cpl.done = true;
            }),
        ],
    );
    assert_eq!(u16_at(&rec, layout::LAT_XLAT.offset + 1), 0);
}

#[test]
fn issue_latency_equals_total_when_the_op_never_issued() {
    let mut tb = Tb::new(&Config::default());
    tb.enable(4, 0);
    let rec = sample_with(
        &mut tb,
        op_class::OTHER,
        0,
        &[(17, &|i| i.thr[0].cpl.done = true)],
    );
    assert_eq!(u16_at(&rec, layout::LAT_TOTAL.offset + 1), 17);
    assert_eq!(u16_at(&rec, layout::LAT_ISSUE.offset + 1), 17);
    assert_eq!(
        rec[layout::LAT_XLAT.offset],
        packet::PAD,
        "no translation, no XLAT counter"
    );
}

#[test]
fn latency_counters_saturate_at_the_counter_width() {
    for name in ["default", "c16"] {
        let cfg = Config::preset(name).unwrap();
        let max = cfg.counter_width.max();
        let mut tb = Tb::new(cfg);
        tb.enable(4, 0);
        let wait = max + 100;
        let rec = sample_with(
            &mut tb,
            op_class::OTHER,
            0,
            &[(wait, &|i| i.thr[0].cpl.done = true)],
        );
        assert_eq!(u16_at(&rec, layout::LAT_TOTAL.offset + 1), max, "{name}");
        assert_eq!(u16_at(&rec, layout::LAT_ISSUE.offset + 1), max, "{name}");
    }
}

#[test]
fn an_nv2_access_has_no_data_va_or_pa_unless_profiling_is_enabled_at_el2() {
    // D17.6.4.2: "If Statistical Profiling is disabled at EL2, the virtual address for the
    // memory access is not recorded" (J1 SPEConstructRecord: !StatisticalProfilingEnabled(EL2)
    // and an NV2 access); D17.6.4: no data PA packet without the data VA packet. Enabled at
    // EL2: EL2 owns the buffer (MDCR_EL2.E2PB = 00) and PMSCR_EL2.E2SPE = 1.
    let nv2 = subclass::LDST_NV2_SYSREG;
    for (sub, el2_owns, e2spe, want) in [
        (nv2, false, true, false),
        (nv2 | subclass::LDST_ST, true, false, false),
        (nv2, true, true, true),
        (nv2 | subclass::LDST_ST, true, true, true),
        (subclass::LDST_GP, false, false, true),
    ] {
        let ctx = format!("subclass {sub:#x} EL2 owns {el2_owns} E2SPE {e2spe}");
        let mut tb = Tb::new(&Config::default());
        if el2_owns {
            tb.inp.thr[0].mdcr_e2pb = 0;
        }
        tb.enable(4, pmscr::PA.place(1));
        tb.write_reg(
            RegId::PmscrEl2,
            pmscr::PA.place(1) | pmscr::E1SPE.place(u64::from(e2spe)),
        );
        let rec = sample_with(
            &mut tb,
            op_class::LD_ST_ATOMIC,
            sub,
            &[
                (1, &|i| {
                    i.thr[0].xl.start = true;
                    i.thr[0].xl.va = 0x1238;
                }),
                (2, &|i| {
                    i.thr[0].xl.done = true;
                    i.thr[0].xl.pa = 0x8_8000_1238;
                }),
                (3, &|i| i.thr[0].cpl.done = true),
            ],
        );
        assert_eq!(
            rec[layout::TGT_OR_VA.offset] == 0xb2,
            want,
            "data VA: {ctx}"
        );
        assert_eq!(rec[layout::PA.offset] == 0xb3, want, "data PA: {ctx}");
    }
}

#[test]
fn physical_address_only_when_collection_is_enabled() {
    // EL1 regime: PMSCR_EL1.PA and PMSCR_EL2.PA must both be set.
    for (pa1, pa2) in [(false, false), (true, false), (false, true), (true, true)] {
        let mut tb = Tb::new(&Config::default());
        tb.enable(4, pmscr::PA.place(pa1 as u64));
        tb.write_reg(RegId::PmscrEl2, pmscr::PA.place(pa2 as u64));
        let rec = sample_with(
            &mut tb,
            op_class::LD_ST_ATOMIC,
            0,
            &[
                (1, &|i| {
                    i.thr[0].xl.start = true;
                    i.thr[0].xl.va = 0x1238;
                }),
                (2, &|i| {
                    i.thr[0].xl.done = true;
                    i.thr[0].xl.pa = 0x8_8000_1238;
                    i.thr[0].xl.pa_ns = true;
                }),
                (3, &|i| i.thr[0].cpl.done = true),
            ],
        );
        let has_pa = rec[layout::PA.offset] == 0xb3;
        assert_eq!(has_pa, pa1 && pa2, "PMSCR_EL1.PA={pa1} PMSCR_EL2.PA={pa2}");
        assert_eq!(rec[layout::TGT_OR_VA.offset], 0xb2, "VA is always recorded");
        if has_pa {
            assert_eq!(
                u64_at(&rec, layout::PA.offset + 1),
                0x8000_0008_8000_1238,
                "NS=1, CH=0, PAT=0"
            );
        } else {
            assert!(rec[layout::PA.offset..layout::PA.offset + layout::PA.len]
                .iter()
                .all(|&b| b == 0));
        }
    }
}

#[test]
fn data_pa_ns_is_the_access_pa_space_not_the_pe_security_state() {
    // D18.2.1: the data PA packet's NS is the physical address space of the access (J1
    // uses addrdesc.paddress.paspace); the PC packet's NS is the PE's Security state.
    for (pe_ns, pa_ns) in [(true, true), (false, false), (false, true)] {
        let mut tb = Tb::new(&Config::default());
        tb.enable(4, pmscr::PA.place(1));
        tb.inp.thr[0].disp_ns = pe_ns;
        let rec = sample_with(
            &mut tb,
            op_class::LD_ST_ATOMIC,
            0,
            &[
                (1, &move |i| {
                    i.thr[0].xl.start = true;
                    i.thr[0].xl.va = 0x1238;
                    i.thr[0].disp_ns = pe_ns;
                }),
                (2, &move |i| {
                    i.thr[0].xl.done = true;
                    i.thr[0].xl.pa = 0x8_8000_1238;
                    i.thr[0].xl.pa_ns = pa_ns;
                }),
                (3, &|i| i.thr[0].cpl.done = true),
            ],
        );
        assert_eq!(rec[layout::PA.offset], 0xb3);
        assert_eq!(
            u64_at(&rec, layout::PA.offset + 1),
            (u64::from(pa_ns) << 63) | 0x8_8000_1238,
            "PE NS={pe_ns}, access PA space NS={pa_ns}"
        );
        assert_eq!(
            u64_at(&rec, layout::PC.offset + 1) >> 63,
            u64::from(pe_ns),
            "the PC packet keeps the PE's state"
        );
    }
}

#[test]
fn context_packets_only_when_cx_is_set() {
    for (cx1, cx2, el) in [
        (false, false, 0u8),
        (true, false, 0),
        (false, true, 0),
        (true, true, 1),
        (true, true, 2),
    ] {
        let mut tb = Tb::new(&Config::default());
        tb.enable(4, pmscr::CX.place(cx1 as u64));
        tb.write_reg(
            RegId::PmscrEl2,
            pmscr::CX.place(cx2 as u64) | pmscr::E1SPE.place(1),
        );
        tb.inp.thr[0].disp_el = el;
        // EL2 is sampled only when EL2 owns the buffer (MDCR_EL2.E2PB = 00).
        if el == 2 {
            tb.inp.thr[0].mdcr_e2pb = 0b00;
        }
        tb.inp.thr[0].ctx_el1 = 1234;
        tb.inp.thr[0].ctx_el2 = 99;
        let rec = sample_with(
            &mut tb,
            op_class::OTHER,
            0,
            &[(2, &|i| i.thr[0].cpl.done = true)],
        );
        let c1 = rec[layout::CONTEXT_EL1.offset] == 0x64;
        let c2 = rec[layout::CONTEXT_EL2.offset] == 0x65;
        assert_eq!(c1, cx1 && el != 2, "CONTEXTIDR_EL1 is not collected at EL2");
        assert_eq!(c2, cx2);
        if c1 {
            assert_eq!(
                &rec[0..5],
                &[0x64, 0xd2, 0x04, 0x00, 0x00],
                "docs/spe-reference.md §7.1 context bytes"
            );
        }
    }
}

/// What a sample collects per the Arm ARM J1 functions, transcribed: J1.1.1.52
/// `CollectContextIDR1`, J1.1.1.53 `CollectContextIDR2`, J1.1.1.54
/// `CollectPhysicalAddress`, J1.1.1.55 `CollectTimeStamp` (with J1.1.1.67
/// `ProfilingBufferOwner` and `IsInHost`). Returns (CX1, CX2, PA, TS, physical counter).
/// The reserved PCT = 10 is the unit's choice `pct-reserved`: used as 00.
#[allow(clippy::too_many_arguments)]
fn j1_collect(
    el: u8,
    el2_enabled: bool,
    e2pb: u8,
    tge: bool,
    e2h: bool,
    pmscr_el1: u64,
    pmscr_el2: u64,
    feat_ecv: bool,
) -> (bool, bool, bool, bool, bool) {
    let owning_el = if el2_enabled && e2pb == 0b00 { 2 } else { 1 };
    let bit = |v: u64, f: spe_defs::Field| f.is_set(v);
    let cx1 = el != 2 && !(el2_enabled && tge) && bit(pmscr_el1, pmscr::CX);
    let cx2 = el2_enabled && bit(pmscr_el2, pmscr::CX);
    let pa = if el2_enabled {
        bit(pmscr_el2, pmscr::PA) && (owning_el == 2 || bit(pmscr_el1, pmscr::PA))
    } else {
        bit(pmscr_el1, pmscr::PA)
    };
    let ts = if owning_el == 2 {
        bit(pmscr_el2, pmscr::TS)
    } else {
        bit(pmscr_el1, pmscr::TS)
    };
    let in_host = match el {
        2 => el2_enabled && e2h,
        0 => el2_enabled && e2h && tge,
        _ => false,
    };
    let pct = |v: u64| {
        let p = if feat_ecv {
            pmscr::PCT.get(v)
        } else {
            pmscr::PCT.get(v) & 1
        };
        if p == 0b10 {
            0b00
        } else {
            p
        }
    };
    let pct_el1 = pct(pmscr_el1);
    // TimeStamp_Virtual is the only non-physical outcome (OffsetPhysical is physical here).
    let physical = 'ts: {
        if el2_enabled {
            match pct(pmscr_el2) {
                0b00 => break 'ts in_host,
                0b01 if owning_el == 2 => break 'ts true,
                0b01 => {}
                0b11 => {
                    break 'ts if owning_el == 1 && pct_el1 == 0b00 {
                        in_host
                    } else {
                        true
                    }
                }
                _ => unreachable!(),
            }
        }
        match pct_el1 {
            0b00 => in_host,
            _ => true,
        }
    };
    (cx1, cx2, pa, ts, physical)
}

#[test]
fn collection_follows_the_j1_collect_functions_by_owner_over_every_control() {
    // Exhaustive over the sample's EL (0..2), EL2 enabled, MDCR_EL2.E2PB, HCR_EL2.TGE and
    // E2H, and PMSCR_EL1/EL2 CX, PA, TS and PCT (both bits), with and without FEAT_ECV;
    // only where the EL is profiled (J1 Collect* return nothing otherwise).
    use spe_model::capture::Sample;
    use spe_model::regs::Regs;
    let fields = |b: u64| {
        pmscr::CX.place(b & 1)
            | pmscr::PA.place((b >> 1) & 1)
            | pmscr::TS.place((b >> 2) & 1)
            | pmscr::PCT.place((b >> 3) & 3)
    };
    for name in ["default", "wide"] {
        let cfg = Config::preset(name).unwrap();
        let (mut checked, mut seen) = (0u32, [[0u32; 2]; 5]);
        for bits in 0u32..(1 << 17) {
            let el = (bits & 3) as u8;
            if el == 3 {
                continue;
            }
            let el2 = bits & 4 != 0;
            let e2pb = ((bits >> 3) & 3) as u8;
            let tge = bits & 32 != 0;
            let e2h = bits & 64 != 0;
            let owner = if el2 && e2pb == 0 { 2 } else { 1 };
            if el > owner || (el2 && tge && owner == 1) {
                continue;
            }
            let (v1, v2) = (
                fields(u64::from(bits >> 7) & 31),
                fields(u64::from(bits >> 12)),
            );
            let mut regs = Regs::new(cfg);
            regs.write(addr(RegId::PmscrEl1), v1);
            regs.write(addr(RegId::PmscrEl2), v2);
            let mut inp = spe_ports::Inputs {
                cnt_phys: 0x2222,
                ..Default::default()
            };
            inp.thr[0] = spe_ports::ThreadInputs {
                disp_el: el,
                el2_en: el2,
                mdcr_e2pb: e2pb,
                hcr_tge: tge,
                hcr_e2h: e2h,
                cnt_virt: 0x1111,
                ..Default::default()
            };
            let s = Sample::tag(&regs, &inp, 0, 0, &Config::default());
            let got = (
                s.collect.context_el1,
                s.collect.context_el2,
                s.collect.phys_addr,
                s.collect.timestamp,
                s.timestamp == 0x2222,
            );
            let want = j1_collect(el, el2, e2pb, tge, e2h, v1, v2, cfg.feat_ecv);
            assert_eq!(
                got, want,
                "{name}: el={el} el2_en={el2} e2pb={e2pb:02b} tge={tge} e2h={e2h} PMSCR_EL1={v1:#x} PMSCR_EL2={v2:#x}: (CX1, CX2, PA, TS, physical)"
            );
            checked += 1;
            for (k, b) in [want.0, want.1, want.2, want.3, want.4]
                .into_iter()
                .enumerate()
            {
                seen[k][usize::from(b)] += 1;
            }
        }
        eprintln!("{name}: {checked} combinations; (false, true) per outcome: {seen:?}");
        assert!(
            seen.iter().all(|s| s[0] > 0 && s[1] > 0),
            "every outcome both ways"
        );
    }
}

#[test]
fn pct_bit_7_is_res0_without_feat_ecv_and_pct_reads_as_0_colon_pct0() {
    // D24.7.8: without FEAT_ECV, PCT<1> (bit 7) is RES0; J1 CollectTimeStamp then reads PCT
    // as '0':PCT<0>. So 11 reads back and records as 01 (physical), 10 as 00 (virtual).
    // With FEAT_ECV (`wide`) the field is two bits wide and reads back as written.
    for name in ["default", "wide"] {
        let cfg = Config::preset(name).unwrap();
        for (pct, phys) in [(0u64, false), (1, true), (2, false), (3, true)] {
            let mut tb = Tb::new(cfg);
            tb.enable(4, pmscr::TS.place(1) | pmscr::PCT.place(pct));
            tb.write_reg(RegId::PmscrEl2, pmscr::PCT.place(pct));
            let stored = if cfg.feat_ecv { pct } else { pct & 1 };
            for id in [RegId::PmscrEl1, RegId::PmscrEl2] {
                assert_eq!(pmscr::PCT.get(tb.read_reg(id)), stored, "{name} PCT {pct}");
            }
            tb.inp.thr[0].cnt_virt = 0x0014_20b3_1fa5;
            tb.inp.cnt_phys = 0x9999_0000;
            let rec = sample_with(
                &mut tb,
                op_class::OTHER,
                0,
                &[(2, &|i| i.thr[0].cpl.done = true)],
            );
            let o = layout::END_OR_TS.offset;
            let want = if phys { 0x9999_0000 } else { 0x0014_20b3_1fa5 };
            assert_eq!(u64_at(&rec, o + 1), want, "{name} PCT {pct}");
        }
    }
}

#[test]
fn timestamp_is_virtual_or_physical_per_pct_and_ends_the_record() {
    // (PMSCR_EL1.PCT, PMSCR_EL2.PCT) → physical?
    for (p1, p2, phys) in [
        (0, 1, false),
        (1, 1, true),
        (1, 0, false),
        (3, 3, true),
        (2, 1, false),
    ] {
        let mut tb = Tb::new(&Config::default());
        tb.enable(4, pmscr::TS.place(1) | pmscr::PCT.place(p1));
        tb.write_reg(RegId::PmscrEl2, pmscr::PCT.place(p2));
        tb.inp.thr[0].cnt_virt = 0x0014_20b3_1fa5;
        tb.inp.cnt_phys = 0x9999_0000;
        let rec = sample_with(
            &mut tb,
            op_class::OTHER,
            0,
            &[(2, &|i| i.thr[0].cpl.done = true)],
        );
        let o = layout::END_OR_TS.offset;
        assert_eq!(rec[o], packet::TIMESTAMP);
        let want = if phys { 0x9999_0000 } else { 0x0014_20b3_1fa5 };
        assert_eq!(u64_at(&rec, o + 1), want, "PCT {p1}/{p2}");
        assert!(
            rec[o + 9..].iter().all(|&b| b == 0),
            "only padding after the terminator"
        );
    }
}

#[test]
fn without_timestamp_the_record_ends_with_a_single_end_packet() {
    let mut tb = Tb::new(&Config::default());
    tb.enable(4, 0);
    let rec = sample_with(
        &mut tb,
        op_class::OTHER,
        0,
        &[(2, &|i| i.thr[0].cpl.done = true)],
    );
    let o = layout::END_OR_TS.offset;
    assert_eq!(rec[o], packet::END);
    assert!(rec[o + 1..].iter().all(|&b| b == 0));
}

#[test]
fn branch_target_packet_carries_the_el_and_ns_at_the_target_not_the_branchs() {
    // D18.2.1: "For a branch target address, this is the Exception level at the target of
    // the branch", and likewise the Security state; an exception return changes both.
    // An ERET at EL1 (Non-secure) to EL0, and one at EL2 (Secure) to Non-secure EL1.
    for (el, ns, tel, tns) in [
        (1u8, true, 0u8, true),
        (2, false, 1, true),
        (0, true, 0, true),
    ] {
        let mut tb = Tb::new(&Config::default());
        tb.enable(4, 0);
        tb.write_reg(
            RegId::PmscrEl2,
            pmscr::E0SPE.place(1) | pmscr::E1SPE.place(1),
        );
        tb.sample_after(1);
        tb.inp.thr[0].disp_el = el;
        tb.inp.thr[0].disp_ns = ns;
        // EL2 is sampled when EL2 owns the buffer (MDCR_EL2.E2PB = 00).
        tb.inp.thr[0].mdcr_e2pb = if el == 2 { 0b00 } else { 0b11 };
        tb.inp.disp[0] = spe_ports::Slot {
            valid: true,
            pc: 0xffff_8000_1010_0040,
            class: op_class::BRANCH,
            subclass: subclass::BR_IND,
            cond: false,
            ..Default::default()
        };
        assert_ne!(tb.step().tag, 0, "EL{el} NS={ns} tagged");
        tb.inp.disp[0].valid = false;
        tb.inp.thr[0].br.done = true;
        tb.inp.thr[0].br.target = 0xaaaa_d000_1300;
        tb.inp.thr[0].br.target_el = tel;
        tb.inp.thr[0].br.target_ns = tns;
        tb.inp.thr[0].br.taken = true;
        tb.inp.thr[0].br.indirect = true;
        tb.step();
        tb.inp.thr[0].cpl.done = true;
        tb.inp.thr[0].cpl.retired = true;
        tb.step();
        tb.steps(12);
        let rec = tb.record_at(BASE).unwrap();
        let top = |o: usize| rec[o + 8];
        assert_eq!(
            top(layout::PC.offset),
            (u8::from(ns) << 7) | (el << 5),
            "the PC packet has the branch's EL{el} NS={ns}"
        );
        assert_eq!(rec[layout::TGT_OR_VA.offset], 0xb1);
        assert_eq!(
            top(layout::TGT_OR_VA.offset),
            (u8::from(tns) << 7) | (tel << 5),
            "the target packet has the target's EL{tel} NS={tns}"
        );
    }
}

#[test]
fn branch_record_has_target_events_and_indirect_bit() {
    let mut tb = Tb::new(&Config::default());
    tb.enable(4, 0);
    tb.inp.disp[0].cond = true;
    let rec = {
        tb.sample_after(1);
        tb.inp.disp[0] = spe_ports::Slot {
            valid: true,
            pc: 0xaaaa_d000_1234,
            class: op_class::BRANCH,
            subclass: subclass::BR_COND,
            cond: true,
            ..Default::default()
        };
        let out = tb.step();
        assert_ne!(out.tag, 0);
        tb.inp.thr[0].br.done = true;
        tb.inp.thr[0].br.target = 0xaaaa_d000_1300;
        tb.inp.thr[0].br.target_ns = true;
        tb.inp.thr[0].br.taken = false;
        tb.inp.thr[0].br.mispred = true;
        tb.inp.thr[0].br.indirect = true;
        tb.step();
        tb.inp.thr[0].cpl.done = true;
        tb.inp.thr[0].cpl.retired = true;
        tb.step();
        tb.steps(12);
        tb.record_at(BASE).unwrap()
    };
    // Reference §7.2 byte patterns for PC and TGT.
    assert_eq!(
        &rec[layout::PC.offset..layout::PC.offset + 9],
        &[0xb0, 0x34, 0x12, 0x00, 0xd0, 0xaa, 0xaa, 0x00, 0x80]
    );
    assert_eq!(
        &rec[layout::TGT_OR_VA.offset..layout::TGT_OR_VA.offset + 9],
        &[0xb1, 0x00, 0x13, 0x00, 0xd0, 0xaa, 0xaa, 0x00, 0x80]
    );
    assert_eq!(
        &rec[layout::OP_TYPE.offset..layout::OP_TYPE.offset + 2],
        &[0x4a, subclass::BR_COND | subclass::BR_IND]
    );
    let events = u16_at(&rec, layout::EVENTS.offset + 1);
    assert_eq!(
        events,
        ev::bit(ev::RETIRED) | ev::bit(ev::MISPRED) | ev::bit(ev::NOT_TAKEN)
    );
    assert_eq!(
        rec[layout::DATA_SOURCE.offset],
        0,
        "branches carry no data source"
    );
}

#[test]
fn load_record_carries_data_source_and_memory_events() {
    let mut tb = Tb::new(&Config::default());
    tb.enable(4, 0);
    let rec = sample_with(
        &mut tb,
        op_class::LD_ST_ATOMIC,
        subclass::LDST_GP,
        &[
            (1, &|i| {
                i.thr[0].xl.start = true;
                i.thr[0].xl.va = 0x1000;
            }),
            (2, &|i| {
                i.thr[0].xl.done = true;
                i.thr[0].xl.tlb_access = true;
                i.thr[0].xl.tlb_walk = true;
            }),
            (5, &|i| {
                i.thr[0].mem.done = true;
                i.thr[0].mem.source = 8;
                i.thr[0].mem.l1d_access = true;
                i.thr[0].mem.l1d_refill = true;
                i.thr[0].mem.llc_access = true;
                i.thr[0].mem.misaligned = true;
            }),
            (6, &|i| {
                i.thr[0].cpl.done = true;
                i.thr[0].cpl.retired = true;
                i.thr[0].cpl.exception = true;
            }),
        ],
    );
    assert_eq!(
        &rec[layout::DATA_SOURCE.offset..layout::DATA_SOURCE.offset + 2],
        &[0x43, 0x08]
    );
    let want = [
        ev::EXCEPTION_GEN,
        ev::RETIRED,
        ev::TLB_ACCESS,
        ev::TLB_WALK,
        ev::L1D_ACCESS,
        ev::L1D_REFILL,
        ev::LLC_ACCESS,
        ev::ALIGNMENT,
    ]
    .iter()
    .fold(0, |m, &b| m | ev::bit(b));
    assert_eq!(u16_at(&rec, layout::EVENTS.offset + 1), want);
}

#[test]
fn stores_carry_no_data_source() {
    let mut tb = Tb::new(&Config::default());
    tb.enable(4, 0);
    let rec = sample_with(
        &mut tb,
        op_class::LD_ST_ATOMIC,
        subclass::LDST_GP | subclass::LDST_ST,
        &[
            (1, &|i| {
                i.thr[0].mem.done = true;
                i.thr[0].mem.source = 8;
            }),
            (2, &|i| i.thr[0].cpl.done = true),
        ],
    );
    assert_eq!(rec[layout::DATA_SOURCE.offset], 0);
}

#[test]
fn hook_reports_with_nothing_in_flight_or_for_the_wrong_class_are_stray() {
    let mut tb = Tb::new(&Config::default());
    tb.enable(4, 0);
    tb.inp.thr[0].iss_valid = true;
    assert!(tb.step().thr[0].hook_stray, "nothing in flight");
    tb.sample_after(1);
    tb.op(0, 0x100, op_class::OTHER, 0);
    tb.inp.thr[0].cpl.done = true;
    let out = tb.step();
    assert_ne!(out.tag, 0);
    assert!(
        out.thr[0].hook_stray,
        "reports in the tag cycle are not for the tagged op"
    );
    tb.inp.thr[0].br.done = true;
    assert!(
        tb.step().thr[0].hook_stray,
        "branch report for a non-branch"
    );
    tb.inp.thr[0].xl.done = true;
    assert!(
        tb.step().thr[0].hook_stray,
        "translation report for a non-load/store"
    );
    tb.inp.thr[0].iss_valid = true;
    assert!(!tb.step().thr[0].hook_stray);
    tb.inp.thr[0].iss_valid = true;
    assert!(tb.step().thr[0].hook_stray, "second issue report");
    tb.inp.thr[0].cpl.done = true;
    assert!(!tb.step().thr[0].hook_stray);
    tb.inp.thr[0].cpl.done = true;
    assert!(
        tb.step().thr[0].hook_stray,
        "after completion nothing is tracked"
    );
}

#[test]
fn reserved_op_class_is_recorded_as_other() {
    let mut tb = Tb::new(&Config::default());
    tb.enable(4, 0);
    let rec = sample_with(
        &mut tb,
        op_class::RESERVED,
        0x55,
        &[(1, &|i| i.thr[0].cpl.done = true)],
    );
    assert_eq!(
        &rec[layout::OP_TYPE.offset..layout::OP_TYPE.offset + 2],
        &[0x48, 0x00]
    );
}

#[test]
fn op_type_payload_drops_bits_of_features_not_built_fpf_crr_gcs() {
    // D18.2.7: ASE/FP of class Other exist with FEAT_SPE_FPF (PMSIDR.FPF = 0 here); CR is
    // 0b00 without FEAT_SPE_CRR (CRR = 0); the branch GCS bit needs GCS recording (SPEv1p4,
    // beyond the advertised v1p2). The payload the core reports is recorded without them.
    let cases: &[(u8, u8, u8)] = &[
        (op_class::OTHER, 0x02, 0x00),
        (op_class::OTHER, 0x04, 0x00),
        (op_class::OTHER, 0x06, 0x00),
        (op_class::OTHER, 0x07, 0x01),
        (op_class::OTHER, 0x0e, 0x0e), // SVE other (b3): FP and PRED pass
        (op_class::BRANCH, 0x1f, 0x03),
        (op_class::BRANCH, 0x0d, 0x01),
        (op_class::BRANCH, 0x14, 0x00),
        (op_class::LD_ST_ATOMIC, 0x45, 0x45), // GCS load/store subclass passes
    ];
    for &(class, sub, want) in cases {
        assert_eq!(
            recorded_op_type(&Config::default(), class, sub),
            [0x48 | class, want],
            "class {class} payload {sub:#04x}"
        );
    }
}

/// The Operation Type packet (header, payload) of a unit of `cfg` for one sampled op of
/// `class` with the dispatch payload `sub`, completed the cycle after its tag.
fn recorded_op_type(cfg: &Config, class: u8, sub: u8) -> [u8; 2] {
    let mut tb = Tb::new(cfg);
    tb.enable(4, 0);
    let rec = sample_with(&mut tb, class, sub, &[(1, &|i| i.thr[0].cpl.done = true)]);
    [rec[layout::OP_TYPE.offset], rec[layout::OP_TYPE.offset + 1]]
}

#[test]
fn encodings_reserved_without_feat_spe_sme_are_never_recorded() {
    // D18.2.7: an SME array op (Other, 0b1xxx1xx0) and EVL 0b111 are "defined only if
    // FEAT_SPE_SME is implemented, and reserved otherwise" (choice sme-reserved): recorded
    // as Other with payload 0, and as EVL 0b110. A load/store keeps its class.
    let evl = |e: u8| e << subclass::VL_SHIFT;
    let sve = subclass::OTHER_SVE | subclass::SVE_FP;
    let ldst = subclass::LDST_SVE_SME | subclass::LDST_ST;
    for cfg in [Config::default(), *Config::preset("v1p2x").unwrap()] {
        for (class, sub, want) in [
            (
                op_class::OTHER,
                subclass::OTHER_SME | subclass::SVE_FP,
                [0x48, 0],
            ),
            (op_class::OTHER, sve | evl(0b111), [0x48, sve | evl(0b110)]),
            (op_class::OTHER, sve | evl(0b010), [0x48, sve | evl(0b010)]),
            (
                op_class::LD_ST_ATOMIC,
                ldst | evl(0b111),
                [0x49, ldst | evl(0b110)],
            ),
        ] {
            assert_eq!(
                recorded_op_type(&cfg, class, sub),
                want,
                "{} class {class} payload {sub:#04x}",
                cfg.name
            );
        }
    }
}

#[test]
fn with_feat_spe_fpf_other_ops_record_their_fp_and_simd_flags() {
    // D18.2.7 with FEAT_SPE_FPF (v1p4): class Other keeps ASE/SIMD (b2) and FP (b1) with
    // COND (b0); the default preset clears them (PMSIDR.FPF = 0 there).
    let v1p4 = Config::preset("v1p4").unwrap();
    for &(cfg, sub, want) in &[
        (v1p4, 0x02u8, 0x02u8),
        (v1p4, 0x04, 0x04),
        (v1p4, 0x07, 0x07),
        (v1p4, 0x16, 0x06), // bit 4 is no Other flag
        (&Config::default(), 0x06, 0x00),
        (&Config::default(), 0x07, 0x01),
    ] {
        assert_eq!(
            recorded_op_type(cfg, op_class::OTHER, sub),
            [0x48, want],
            "{} payload {sub:#04x}",
            cfg.name
        );
    }
}

#[test]
fn with_feat_spe_crr_a_branch_records_its_cr_and_a_call_or_return_its_gcs_bit() {
    // D18.2.7 and J1 SPEConstructClass with FEAT_SPE_CRR (v1p4): CR 01 branch with link,
    // 10 procedure return, 11 other branch (what the core reports as 00 too); GCS only for
    // a call or a return. Reference 7.3: a kernel RET is `4a 12` (IND, CR 10).
    let v1p4 = Config::preset("v1p4").unwrap();
    let cases: &[(u8, u8)] = &[
        (0x12, 0x12), // RET: IND, CR 10
        (0x16, 0x16), // RET with GCS
        (0x08, 0x08), // BL: CR 01
        (0x0c, 0x0c), // BL with GCS
        (0x00, 0x18), // B reported as 00: other, 11
        (0x01, 0x19), // B.cond
        (0x1e, 0x1a), // other with GCS: GCS cleared
        (0x04, 0x18), // GCS with CR 00: other, GCS cleared
        (0xf2, 0xf2), // bits 7:5 pass, as without the option
    ];
    for &(sub, want) in cases {
        assert_eq!(
            recorded_op_type(v1p4, op_class::BRANCH, sub),
            [0x4a, want],
            "branch payload {sub:#04x}"
        );
    }
}

#[test]
fn kernel_pc_encodes_el_and_ns_in_the_top_byte() {
    let mut tb = Tb::new(&Config::default());
    tb.enable(4, 0);
    tb.inp.thr[0].disp_el = 1;
    tb.sample_after(1);
    tb.op(0, 0xffff_8000_1020_3040, op_class::OTHER, 0);
    assert_ne!(tb.step().tag, 0);
    tb.complete(true);
    tb.steps(12);
    let rec = tb.record_at(BASE).unwrap();
    // Reference §7.1 kernel-PC variant.
    assert_eq!(
        &rec[layout::PC.offset..layout::PC.offset + 9],
        &[0xb0, 0x40, 0x30, 0x20, 0x10, 0x00, 0x80, 0xff, 0xa0]
    );
}

#[test]
fn a_sample_whose_completion_never_comes_is_dropped_2_to_the_k_cycles_after_its_tag() {
    // fastsim: k = 14. The op is tagged in cycle t; without cpl_done it is dropped in cycle
    // t + 2^14 (sample_timeout pulses then, once), no record is written, and the next
    // selection is sampled instead of colliding. A cpl_done in that very cycle completes it.
    let cfg = Config::preset("fastsim").unwrap();
    let timeout = 1u64 << cfg.cpl_timeout_log2;
    for complete_at_the_last_cycle in [false, true] {
        let mut tb = Tb::new(cfg);
        tb.enable(1, 0);
        let before = tb.m.regs().get(RegId::Pmbptr);
        tb.sample_after(1);
        let t = tb.dispatch_until_tag(0x4000, op_class::OTHER, 0, 8);
        let mut pulses = Vec::new();
        while tb.cycle < t + timeout + 4 {
            if complete_at_the_last_cycle && tb.cycle == t + timeout {
                tb.inp.thr[0].cpl.done = true;
                tb.inp.thr[0].cpl.retired = true;
            }
            let c = tb.cycle;
            if tb.step().thr[0].sample_timeout {
                pulses.push(c);
            }
        }
        tb.steps(12);
        if complete_at_the_last_cycle {
            assert!(pulses.is_empty(), "completed in the last cycle: {pulses:?}");
            assert!(tb.record_at(before).is_some(), "its record is written");
        } else {
            assert_eq!(pulses, [t + timeout], "one pulse, 2^k cycles after the tag");
            assert!(
                tb.record_at(before).is_none(),
                "no record for a dropped sample"
            );
            // The unit is free again: the next selection is sampled and recorded.
            tb.sample_after(1);
            let t2 = tb.dispatch_until_tag(0x4004, op_class::OTHER, 0, 8);
            assert!(t2 > t + timeout);
            tb.complete(true);
            tb.steps(12);
            assert!(tb.record_at(before).is_some(), "the next sample's record");
        }
    }
}

#[test]
fn previous_branch_target_only_for_a_taken_branch_with_a_valid_register_and_feat_spe_pbt() {
    // J1 SPEBranch / SPEConstructRecord: a taken branch puts the previous-branch-target
    // register in its sample if valid; other ops never (the IMPDEF "get prev br if not br"
    // is FALSE here); D17.6.3.1: not a branch that is still speculative (flushed). Reference §7.3's bytes: EL1, NS, 0xffff800010203000; the junk in
    // bits 60:56 (NSE and the zero bits) is recorded as 0 (no Realm state).
    let v1p2x = Config::preset("v1p2x").unwrap();
    let reg = 0xa0ff_8000_1020_3000u64 | 0x1f << 56;
    let pbt_slot = |cfg: &Config, taken: bool, valid: bool, retired: bool| {
        let mut tb = Tb::new(cfg);
        tb.enable(4, 0);
        let rec = sample_with(
            &mut tb,
            op_class::BRANCH,
            0,
            &[
                (2, &move |i: &mut spe_ports::Inputs| {
                    i.thr[0].br.done = true;
                    i.thr[0].br.target = 0xffff_8000_1020_4000;
                    i.thr[0].br.target_el = 1;
                    i.thr[0].br.target_ns = true;
                    i.thr[0].br.taken = taken;
                    i.thr[0].pbt_target = reg;
                    i.thr[0].pbt_valid = valid;
                }),
                (5, &move |i: &mut spe_ports::Inputs| {
                    i.thr[0].cpl.done = true;
                    i.thr[0].cpl.retired = retired;
                }),
            ],
        );
        assert_eq!(rec[layout::TGT_OR_VA.offset], 0xb1, "the branch target");
        rec[layout::PA.offset..layout::PA.offset + 9].to_vec()
    };
    assert_eq!(
        pbt_slot(v1p2x, true, true, true),
        [0xb4, 0x00, 0x30, 0x20, 0x10, 0x00, 0x80, 0xff, 0xa0]
    );
    for (cfg, taken, valid, retired) in [
        (v1p2x, false, true, true),
        (v1p2x, true, false, true),
        (v1p2x, true, true, false),
        (&Config::default(), true, true, true),
    ] {
        assert_eq!(
            pbt_slot(cfg, taken, valid, retired),
            [0; 9],
            "{} taken {taken} valid {valid} retired {retired}",
            cfg.name
        );
    }
    // A load never has one, whatever the core drives (its slot holds no PA here).
    let mut tb = Tb::new(v1p2x);
    tb.enable(4, 0);
    tb.inp.thr[0].pbt_target = reg;
    tb.inp.thr[0].pbt_valid = true;
    let rec = sample_with(
        &mut tb,
        op_class::LD_ST_ATOMIC,
        subclass::LDST_GP,
        &[(3, &|i: &mut spe_ports::Inputs| {
            i.thr[0].cpl.done = true;
            i.thr[0].cpl.retired = true;
        })],
    );
    assert_eq!(rec[layout::PA.offset..layout::PA.offset + 9], [0; 9]);
}

#[test]
fn a_call_or_return_with_gcs_records_its_gcs_access_beside_its_branch_target() {
    // D17.6.3 (review finding N1): an op that "executes both a Branch and a Guarded Control
    // Stack data access": "The information for both the branch and the load or store is
    // collected". v1p4 records GCS (FEAT_SPE_CRR) in 128-byte slots: the target at 28, the
    // GCS access's data VA at 64 and PA at 80, its translation latency, its events, and a
    // return's data source (it loads); Timestamp at 96. No report is stray.
    let v1p4 = Config::preset("v1p4").unwrap();
    assert_eq!(v1p4.record_size(), 128);
    let (va, pa, tgt) = (
        0x0000_7fff_efff_fff8u64,
        0x00c0_1234_5ff8u64,
        0xaaaa_d000_4000u64,
    );
    let xl_start = move |i: &mut spe_ports::Inputs| {
        i.thr[0].xl.start = true;
        i.thr[0].xl.va = va;
    };
    let xl_done = move |i: &mut spe_ports::Inputs| {
        i.thr[0].xl.done = true;
        i.thr[0].xl.pa = pa;
        i.thr[0].xl.pa_ns = true;
        i.thr[0].xl.tlb_access = true;
    };
    let mem = |i: &mut spe_ports::Inputs| {
        i.thr[0].mem.done = true;
        i.thr[0].mem.source = 0x8;
        i.thr[0].mem.l1d_access = true;
        i.thr[0].mem.l1d_refill = true;
    };
    let br = move |i: &mut spe_ports::Inputs| {
        i.thr[0].br.done = true;
        i.thr[0].br.target = tgt;
        i.thr[0].br.taken = true;
        i.thr[0].br.target_ns = true;
    };
    let cpl = |i: &mut spe_ports::Inputs| {
        i.thr[0].cpl.done = true;
        i.thr[0].cpl.retired = true;
    };
    let script: &Script = &[
        (1, &xl_start),
        (4, &xl_done),
        (6, &mem),
        (7, &br),
        (8, &cpl),
    ];
    let cr = |c: u8| c << subclass::BR_CR_SHIFT;
    for (what, sub, load) in [
        ("RET", cr(subclass::CR_RET) | subclass::BR_IND, true),
        ("BL", cr(subclass::CR_BL), false),
    ] {
        let mut tb = Tb::new(v1p4);
        tb.enable(4, pmscr::PA.place(1) | pmscr::TS.place(1));
        let r = sample_with(&mut tb, op_class::BRANCH, sub | subclass::BR_GCS, script);
        assert_eq!(tb.strays, 0, "{what}: no report is stray");
        assert_eq!(r.len(), 128, "{what}");
        let at = |s: spe_defs::impdef::Slot| &r[s.offset..s.offset + s.len];
        let ip = packet::addr_payload::instruction(tgt, 0, true);
        assert_eq!(at(layout::LONG_TGT)[0], 0xb1, "{what}: the target");
        assert_eq!(u64_at(&r, layout::LONG_TGT.offset + 1), ip, "{what}");
        assert_eq!(layout::va(v1p4).offset, 64);
        assert_eq!(at(layout::va(v1p4))[0], 0xb2, "{what}: the GCS access's VA");
        assert_eq!(u64_at(&r, 65), va, "{what}");
        assert_eq!(at(layout::pa(v1p4))[0], 0xb3, "{what}: its PA");
        assert_eq!(
            u64_at(&r, 81),
            packet::addr_payload::physical(pa, true),
            "{what}"
        );
        assert_eq!(
            at(layout::LAT_XLAT)[0],
            0x9a,
            "{what}: its translation latency"
        );
        assert_eq!(u16_at(&r, layout::LAT_XLAT.offset + 1), 3, "{what}");
        let ds = at(layout::DATA_SOURCE);
        if load {
            assert_eq!(ds, [0x43, 0x8], "{what}: a return loads: its data source");
        } else {
            assert_eq!(ds, [0, 0], "{what}: a call stores: no data source");
        }
        let events = u64::from_le_bytes([r[51], r[52], r[53], r[54], 0, 0, 0, 0]);
        for e in [ev::L1D_ACCESS, ev::L1D_REFILL, ev::TLB_ACCESS, ev::RETIRED] {
            assert_ne!(events & ev::bit(e), 0, "{what}: event {e}");
        }
        assert_eq!(at(layout::end_or_ts(v1p4))[0], packet::TIMESTAMP, "{what}");
        assert_eq!(r[48], packet::op_type_header(op_class::BRANCH), "{what}");
    }
    // A unit that does not record GCS (default) takes the GCS access's reports as stray:
    // its record has the target alone.
    let mut tb = Tb::new(Config::preset("default").unwrap());
    tb.enable(4, pmscr::PA.place(1));
    let sub = cr(subclass::CR_RET) | subclass::BR_GCS;
    let r = sample_with(&mut tb, op_class::BRANCH, sub, script);
    assert_eq!(tb.strays, 3, "translation start and done, memory");
    assert_eq!(r.len(), 64);
    assert_eq!(r[layout::TGT_OR_VA.offset], 0xb1);
    assert_eq!(r[layout::PA.offset], 0, "no PA");
    assert_eq!(r[layout::DATA_SOURCE.offset], 0, "no data source");
}
