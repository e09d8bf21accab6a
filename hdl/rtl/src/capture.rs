//! `spe_capture`: the slot multiplexer. Holds the dispatch group of the tag cycle and gives
//! the tracker the tagged op's own fields and classification ([`Slot`]).
//!
//! ```text
//!  every Idle cycle: disp_pc/class/subclass/cond[W], pick[W] --> g_* flops (held after the tag)
//!  g_pick selects one slot of g_* --> PC, class, payload, cond --> Slot
//!                                     kind (g_kind)          --> is_ldst, is_branch
//!                                     payload                --> is_load, is_store
//! ```
//!
//! The group is taken every Idle cycle (no enable from the same-cycle tag: the held group
//! is that of the tag cycle, the last Idle one) and held until the sample's record is
//! done, so the multiplexer works from flops, off the path from the dispatch inputs. A
//! reserved op class 3 is recorded as Other, payload 0. Payload bits of features the unit
//! does not build are cleared (`subclass::recorded_payload`): ASE/FP of a class-Other op
//! (no FEAT_SPE_FPF; kept with it, `Options::fpf`), GCS and CR of a branch (no FEAT_SPE_CRR; with it, `Options::crr`,
//! CR is kept, 00 as 11, and GCS for a call or a return: choice `crr`). A
//! load/store is a load unless its payload's ST bit is set, and a store if it is set or the
//! op is an atomic (extended encoding with AT): a returning atomic is both, a no-return one
//! (STADD) only a store. With FEAT_SPE_CRR a return with GCS is also a load and a call with
//! GCS a store (they pop and push the Guarded Control Stack; D17.6.3).

use crate::bundles::{SamplePhase, Slot};
use crate::flop::Rff;
use crate::ADDR_BITS;
use crate::K;
use rust_hdl::prelude::*;
use spe_defs::packet::{op_class, subclass};
use spe_defs::Config;

// The per-slot kind bits (`g_kind`) decode class 01 as load/store and 10 as branch.
const _: () = assert!(op_class::LD_ST_ATOMIC == 0b01 && op_class::BRANCH == 0b10);

/// The capture block for dispatch width `W`; `PCB`, `CB`, `SB` are the widths of the
/// per-slot PC (56·W), class (2·W) and subclass (8·W) buses.
#[derive(LogicBlock, Default)]
pub struct SpeCapture<const W: usize, const PCB: usize, const CB: usize, const SB: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// The sample's phase (tracker): the group is taken while Idle.
    pub phase: Signal<In, SamplePhase>,
    // The slot the counter picks (one-hot, before the population enable: ahead of the
    // sampler's tag) and the dispatch group.
    pub pick: Signal<In, Bits<W>>,
    pub disp_pc: Signal<In, Bits<PCB>>,
    pub disp_class: Signal<In, Bits<CB>>,
    pub disp_subclass: Signal<In, Bits<SB>>,
    pub disp_cond: Signal<In, Bits<W>>,
    /// The tagged op (comb from state).
    pub slot: Signal<Out, Slot>,
    // State (synchronous reset to zero): the dispatch group's per-slot fields and the
    // picked slot.
    g_pc: Rff<Bits<PCB>>,
    g_class: Rff<Bits<CB>>,
    g_sub: Rff<Bits<SB>>,
    g_cond: Rff<Bits<W>>,
    g_pick: Rff<Bits<W>>,
    /// Per slot of the held group: bit 2i the op is a load/store, bit 2i+1 a branch.
    g_kind: Rff<Bits<CB>>,
    // Local signals: each dispatch slot's kind, the picked slot's fields, its class and
    // payload as recorded.
    class_lo: Signal<Local, Bits<CB>>,
    class_hi: Signal<Local, Bits<CB>>,
    kind_in: Signal<Local, Bits<CB>>,
    sel_class: Signal<Local, Bits<2>>,
    op_sub: Signal<Local, Bits<8>>,
    is_ldst: Signal<Local, Bit>,
    // Constants: op classes, subclass bits (all from `spe_defs`).
    k_class_other: K<Bits<2>>,
    k_class_branch: K<Bits<2>>,
    k_class_rsvd: K<Bits<2>>,
    /// Payload masks for features the unit does not build (`subclass::recorded_payload`):
    /// class Other without the SVE/SME bit keeps COND only without FEAT_SPE_FPF, FP and
    /// SIMD too with it (`options::fpf`); a branch drops GCS and CR (no GCS recording, no
    /// CRR).
    k_sve_sme_bit: K<Bits<8>>,
    k_other_keep: K<Bits<8>>,
    k_br_keep: K<Bits<8>>,
    /// Encodings reserved without FEAT_SPE_SME (`subclass::is_sme_array`,
    /// `evl_reserved`): an SME array op (class Other, `0b1xxx1xx0`), recorded with payload
    /// 0; an EVL of 0b111 in an SVE vector op or an SVE/SME load/store, recorded as 0b110.
    sme_array: Signal<Local, Bit>,
    evl_max: Signal<Local, Bit>,
    k_sve_sme_mask: K<Bits<8>>,
    k_sme: K<Bits<8>>,
    k_sve: K<Bits<8>>,
    k_ldst_sve_mask: K<Bits<8>>,
    k_ldst_sve: K<Bits<8>>,
    k_evl_field: K<Bits<8>>,
    k_evl_lsb: K<Bits<8>>,
    /// Whether the two encodings are reserved: set without FEAT_SPE_SME, clear with it
    /// (recorded as reported; [`crate::options::sme::capture_reserves`]).
    k_reserve: K<Bit>,
    /// FEAT_SPE_CRR (`Options::crr`; one element in a unit that builds it, none
    /// otherwise): a branch's payload as recorded, and whether it is a return or a call
    /// with GCS, from its block ([`crate::options::crr::CaptureCrr`]).
    crr: Vec<crate::options::crr::CaptureCrr<W, CB, SB>>,
    /// FEAT_SPE_EFT (`Options::eft`; one element in a unit that builds it, none otherwise):
    /// J1 `SPEOpAttr`'s `is_floating_point` and `is_simd` of the tagged op, and whether it
    /// is a SIMD&FP load or store, from its block ([`crate::options::eft::CaptureEft`]).
    pub attr_fp: Vec<Signal<Out, Bit>>,
    pub attr_simd: Vec<Signal<Out, Bit>>,
    pub attr_simd_fp_ldst: Vec<Signal<Out, Bit>>,
    eft: Vec<crate::options::eft::CaptureEft>,
    k_addr_bits: K<Bits<32>>,
    k_zero2: K<Bits<2>>,
    /// Bit 2i of each slot's class field.
    k_even: K<Bits<CB>>,
    k_zero8: K<Bits<8>>,
    k_zero_addr: K<Bits<ADDR_BITS>>,
    k_ext_mask: K<Bits<8>>,
    k_ext: K<Bits<8>>,
    k_at: K<Bits<8>>,
    k_st: K<Bits<8>>,
}

impl<const W: usize, const PCB: usize, const CB: usize, const SB: usize>
    SpeCapture<W, PCB, CB, SB>
{
    pub fn new(cfg: &Config) -> Self {
        assert_eq!(W, cfg.dispatch_width, "dispatch width mismatch");
        assert!(
            PCB == ADDR_BITS * W && CB == 2 * W && SB == 8 * W,
            "per-slot bus widths"
        );
        let k2 = |v: u8| K::new(u64::from(v).into());
        let k8 = |v: u8| K::new(u64::from(v).into());
        let crr = usize::from(spe_defs::config::option::crr(cfg));
        let eft = usize::from(spe_defs::config::option::eft(cfg));
        Self {
            k_class_other: k2(op_class::OTHER),
            k_class_branch: k2(op_class::BRANCH),
            k_class_rsvd: k2(op_class::RESERVED),
            k_sve_sme_bit: k8(subclass::OTHER_SVE_SME_BIT),
            // FEAT_SPE_FPF keeps FP and SIMD: a constant (`options::fpf`).
            k_other_keep: k8(crate::options::fpf::other_keep(cfg)),
            k_br_keep: k8(!subclass::BR_CLEAR_WITHOUT_CRR_GCS),
            k_sve_sme_mask: k8(subclass::OTHER_SVE_SME_MASK),
            k_sme: k8(subclass::OTHER_SME),
            k_sve: k8(subclass::OTHER_SVE),
            k_ldst_sve_mask: k8(subclass::LDST_SVE_SME_MASK),
            k_ldst_sve: k8(subclass::LDST_SVE_SME),
            k_evl_field: k8(subclass::VL_FIELD << subclass::VL_SHIFT),
            k_evl_lsb: k8(1 << subclass::VL_SHIFT),
            k_reserve: K::new(crate::options::sme::capture_reserves(cfg)),
            crr: (0..crr).map(|_| Default::default()).collect(),
            attr_fp: (0..eft).map(|_| Default::default()).collect(),
            attr_simd: (0..eft).map(|_| Default::default()).collect(),
            attr_simd_fp_ldst: (0..eft).map(|_| Default::default()).collect(),
            eft: (0..eft)
                .map(|_| crate::options::eft::CaptureEft::new(cfg.options.sme))
                .collect(),
            k_addr_bits: K::new((ADDR_BITS as u64).into()),
            k_even: K::new((0x5555_5555_5555_5555u64 & spe_defs::low_mask(CB as u32)).into()),
            k_ext_mask: k8(subclass::LDST_EXT_MASK),
            k_ext: k8(subclass::LDST_EXT),
            k_at: k8(subclass::LDST_EXT_AT),
            k_st: k8(subclass::LDST_ST),
            ..Default::default()
        }
    }
}

crate::rff_setup!(
    impl[const W: usize, const PCB: usize, const CB: usize, const SB: usize]
    SpeCapture<W, PCB, CB, SB>: g_pc, g_class, g_sub, g_cond, g_pick, g_kind
);

impl<const W: usize, const PCB: usize, const CB: usize, const SB: usize> crate::flop::Kernel
    for SpeCapture<W, PCB, CB, SB>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, g_pc, g_class, g_sub, g_cond, g_pick, g_kind);

        // Each slot's kind (class 01 load/store in bit 2i, class 10 branch in bit 2i+1);
        // the group and the pick taken every Idle cycle.
        self.class_lo.next = self.disp_class.val() & self.k_even.val();
        self.class_hi.next = (self.disp_class.val() >> 1) & self.k_even.val();
        self.kind_in.next = (self.class_lo.val() & !self.class_hi.val())
            | ((self.class_hi.val() & !self.class_lo.val()) << 1);
        if self.phase.val() == SamplePhase::Idle {
            self.g_kind.d.next = self.kind_in.val();
            self.g_pc.d.next = self.disp_pc.val();
            self.g_class.d.next = self.disp_class.val();
            self.g_sub.d.next = self.disp_subclass.val();
            self.g_cond.d.next = self.disp_cond.val();
            self.g_pick.d.next = self.pick.val();
        }

        // The tagged op: the held group's picked slot.
        self.slot.next.pc = self.k_zero_addr.val();
        self.sel_class.next = self.k_zero2.val();
        self.op_sub.next = self.k_zero8.val();
        self.slot.next.cond = false;
        self.is_ldst.next = false;
        self.slot.next.is_branch = false;
        for i in 0..W {
            if self.g_pick.q.val().get_bit(i) {
                self.slot.next.pc = self
                    .g_pc
                    .q
                    .val()
                    .get_bits::<ADDR_BITS>(i * self.k_addr_bits.val().index());
                self.sel_class.next = self.g_class.q.val().get_bits::<2>(i * 2);
                self.op_sub.next = self.g_sub.q.val().get_bits::<8>(i * 8);
                self.slot.next.cond = self.g_cond.q.val().get_bit(i);
                self.is_ldst.next = self.g_kind.q.val().get_bit(i * 2);
                self.slot.next.is_branch = self.g_kind.q.val().get_bit(i * 2 + 1);
            }
        }
        self.slot.next.op_class = self.sel_class.val();
        self.slot.next.op_payload = self.op_sub.val();
        if (self.sel_class.val() == self.k_class_other.val())
            & ((self.op_sub.val() & self.k_sve_sme_bit.val()) == self.k_zero8.val())
        {
            self.slot.next.op_payload = self.op_sub.val() & self.k_other_keep.val();
        }
        if self.sel_class.val() == self.k_class_branch.val() {
            self.slot.next.op_payload = self.op_sub.val() & self.k_br_keep.val();
        }
        // FEAT_SPE_CRR (`options::crr`): a branch's CR and GCS as recorded, from the held
        // group (the block picks the slot itself: docs/toolchain.md, UNOPTFLAT).
        for i in 0..self.crr.len() {
            self.crr[i].g_class.next = self.g_class.q.val();
            self.crr[i].g_sub.next = self.g_sub.q.val();
            self.crr[i].g_pick.next = self.g_pick.q.val();
            if self.sel_class.val() == self.k_class_branch.val() {
                self.slot.next.op_payload = self.crr[i].payload.val();
            }
        }
        // choice: sme-reserved (D18.2.7: encodings defined only with FEAT_SPE_SME, reserved
        // without it)
        self.sme_array.next = (self.sel_class.val() == self.k_class_other.val())
            & ((self.op_sub.val() & self.k_sve_sme_mask.val()) == self.k_sme.val());
        self.evl_max.next = (((self.sel_class.val() == self.k_class_other.val())
            & ((self.op_sub.val() & self.k_sve_sme_mask.val()) == self.k_sve.val()))
            | (self.is_ldst.val()
                & ((self.op_sub.val() & self.k_ldst_sve_mask.val()) == self.k_ldst_sve.val())))
            & ((self.op_sub.val() & self.k_evl_field.val()) == self.k_evl_field.val());
        // With FEAT_SPE_SME neither encoding is reserved (`options::sme`): recorded as
        // reported.
        if self.evl_max.val() & self.k_reserve.val() {
            self.slot.next.op_payload = self.op_sub.val() & !self.k_evl_lsb.val();
        }
        if self.sme_array.val() & self.k_reserve.val() {
            self.slot.next.op_payload = self.k_zero8.val();
        }
        // choice: op-class-3
        if self.sel_class.val() == self.k_class_rsvd.val() {
            self.slot.next.op_class = self.k_class_other.val();
            self.slot.next.op_payload = self.k_zero8.val();
        }
        self.slot.next.is_ldst = self.is_ldst.val();
        // FEAT_SPE_EFT's type flags (`options::eft`), from the payload as reported (not as
        // recorded).
        for i in 0..self.eft.len() {
            self.eft[i].other.next = self.sel_class.val() == self.k_class_other.val();
            self.eft[i].is_ldst.next = self.is_ldst.val();
            self.eft[i].sme_array.next = self.sme_array.val();
            self.eft[i].op_sub.next = self.op_sub.val();
            self.attr_fp[i].next = self.eft[i].fp.val();
            self.attr_simd[i].next = self.eft[i].simd.val();
            self.attr_simd_fp_ldst[i].next = self.eft[i].simd_fp_ldst.val();
        }

        // Load / store classification: a load has ST clear (the atomics that return a
        // value among them); a store has ST set or is an atomic (extended encoding with AT):
        // a no-return atomic (STADD) is a store only (D17.5.1, PMSFCR_EL1.LD).
        self.slot.next.is_load =
            self.is_ldst.val() & ((self.op_sub.val() & self.k_st.val()) == self.k_zero8.val());
        self.slot.next.is_store = self.is_ldst.val()
            & (((self.op_sub.val() & self.k_st.val()) != self.k_zero8.val())
                | (((self.op_sub.val() & self.k_ext_mask.val()) == self.k_ext.val())
                    & ((self.op_sub.val() & self.k_at.val()) != self.k_zero8.val())));
        // FEAT_SPE_CRR: a return that pops the Guarded Control Stack is a load too, a call
        // that pushes it a store (`options::crr`); `is_ldst`: the tracker takes its
        // translation and memory reports.
        for i in 0..self.crr.len() {
            if self.crr[i].gcs_ld.val() {
                self.slot.next.is_load = true;
                self.slot.next.is_ldst = true;
            }
            if self.crr[i].gcs_st.val() {
                self.slot.next.is_store = true;
                self.slot.next.is_ldst = true;
            }
        }
    }
}
