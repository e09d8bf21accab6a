//! FEAT_SPE_EFT (`Options::eft`, PMSIDR_EL1.EFT): PMSFCR_EL1.FP and SIMD (TYPE bits 4:3)
//! and the TYPEm mask bits Bm, LDm, STm, FPm, SIMDm, which turn a type from the type
//! filter's OR term into its AND term (J1 `SPEFilterByType`).
//!
//! ```text
//!  port write of PMSFCR --> [ RegsEft: flop of FP, SIMD, TYPEm ] -- ty, mask ---------\
//!  picked op ------------> [ CaptureEft: SPEOpAttr's FP, SIMD ] -- attr_*, ldst ------+
//!  mem_fp_scalar --------> [ TrackerEft: the access was scalar ] -- fp_scalar --------+
//!                          [ FilterEft: op's kind, OR term, AND term ] <-------------/
//!                              --> is_op, sel --> type filter, SAMPLE_FEED_OP
//!                              --> op_fp, op_simd --> SAMPLE_FEED_FP, _SIMD
//! ```
//!
//! The fields are rows of the register table (`spe_defs::regs::pmsfcr`, writable only in a
//! unit that builds the option); the port `mem_fp_scalar` a row of the port table. The top
//! only wires these blocks' hosts together; SAMPLE_FEED_FP and _SIMD (with
//! `Options::feed_events`) are the filter's outputs.

use crate::flop::Rff;
use crate::K;
use rust_hdl::prelude::*;
use spe_defs::regs::pmsfcr;

/// The register block's part (`spe_regs_eft_<preset>`): FP, SIMD and TYPEm, stored beyond
/// PMSFCR's generated flop in a 64-bit flop of their bits in place (the other bits constant
/// zero), written with PMSFCR through their mask and read back with it.
#[derive(LogicBlock)]
pub struct RegsEft {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// A port write of PMSFCR this cycle, and its data.
    pub we: Signal<In, Bit>,
    pub wdata: Signal<In, Bits<64>>,
    /// TYPE bits 4:3 (FP at bit 0, SIMD at bit 1) and TYPEm (Bm at bit 0 .. SIMDm at bit 4).
    pub ty: Signal<Out, Bits<2>>,
    pub mask: Signal<Out, Bits<5>>,
    /// The stored bits in place, for PMSFCR's read-back.
    pub rd: Signal<Out, Bits<64>>,
    fcr: Rff<Bits<64>>,
    m_eft: K<Bits<64>>,
}

impl Default for RegsEft {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            we: Default::default(),
            wdata: Default::default(),
            ty: Default::default(),
            mask: Default::default(),
            rd: Default::default(),
            fcr: Default::default(),
            m_eft: K::new(pmsfcr::EFT_MASK.into()),
        }
    }
}

crate::rff_setup!(impl[] RegsEft: fcr);

impl crate::flop::Kernel for RegsEft {
    #[hdl_gen]
    fn update(&mut self) {
        self.fcr.clock.next = self.clock.val();
        self.fcr.d.next = self.fcr.q.val();
        if self.we.val() {
            self.fcr.d.next = self.wdata.val() & self.m_eft.val();
        }
        // The places are literals (a compile-time assert below checks them).
        self.ty.next = self.fcr.q.val().get_bits::<2>(19);
        self.mask.next = self.fcr.q.val().get_bits::<5>(48);
        self.rd.next = self.fcr.q.val();
    }
}

/// PMSFCR.FP and SIMD (J1's TYPE bits 4:3) and TYPEm as [`RegsEft`] slices them.
const _: () = assert!(
    pmsfcr::FP.lsb == 19
        && pmsfcr::SIMD.lsb == 20
        && pmsfcr::TYPEM.lsb == 48
        && pmsfcr::TYPEM.width == 5
);

/// The filter's part (`spe_filter_eft_<preset>`, J1 `SPEFilterByType`): the flags B, LD,
/// ST, FP, SIMD against TYPE and TYPEm. A type without its mask bit is in the OR term (any
/// such type selected, and the op of one), one with it in the AND term (each masked type's
/// flag equals its TYPE bit); `is_op` is both terms (TYPE and TYPEm zero: every op), `sel`
/// whether TYPE or TYPEm selects anything (SAMPLE_FEED_OP's condition).
#[derive(LogicBlock, Default)]
pub struct FilterEft {
    /// PMSFCR.B, LD, ST; FP and SIMD (TYPE bits 4:3) and TYPEm from [`RegsEft`].
    pub b: Signal<In, Bit>,
    pub ld: Signal<In, Bit>,
    pub st: Signal<In, Bit>,
    pub ty: Signal<In, Bits<2>>,
    pub mask: Signal<In, Bits<5>>,
    /// The op's kind: branch, load, store (the filter view); FP, SIMD and SIMD&FP load or
    /// store ([`CaptureEft`]), and whether its access was scalar ([`TrackerEft`]).
    pub is_branch: Signal<In, Bit>,
    pub is_load: Signal<In, Bit>,
    pub is_store: Signal<In, Bit>,
    pub attr_fp: Signal<In, Bit>,
    pub attr_simd: Signal<In, Bit>,
    pub simd_fp_ldst: Signal<In, Bit>,
    pub fp_scalar: Signal<In, Bit>,
    /// The op is FP, SIMD (a SIMD&FP load or store by its access: scalar is FP, else SIMD),
    /// for the type terms and SAMPLE_FEED_FP and _SIMD.
    pub op_fp: Signal<Out, Bit>,
    pub op_simd: Signal<Out, Bit>,
    pub is_op: Signal<Out, Bit>,
    pub sel: Signal<Out, Bit>,
    or_any: Signal<Local, Bit>,
    or_hit: Signal<Local, Bit>,
    and_ok: Signal<Local, Bit>,
}

impl Logic for FilterEft {
    #[hdl_gen]
    fn update(&mut self) {
        self.op_fp.next = self.attr_fp.val() | (self.simd_fp_ldst.val() & self.fp_scalar.val());
        self.op_simd.next =
            self.attr_simd.val() | (self.simd_fp_ldst.val() & !self.fp_scalar.val());
        self.or_any.next = (self.b.val() & !self.mask.val().get_bit(0))
            | (self.ld.val() & !self.mask.val().get_bit(1))
            | (self.st.val() & !self.mask.val().get_bit(2))
            | (self.ty.val().get_bit(0) & !self.mask.val().get_bit(3))
            | (self.ty.val().get_bit(1) & !self.mask.val().get_bit(4));
        self.or_hit.next = (self.b.val() & !self.mask.val().get_bit(0) & self.is_branch.val())
            | (self.ld.val() & !self.mask.val().get_bit(1) & self.is_load.val())
            | (self.st.val() & !self.mask.val().get_bit(2) & self.is_store.val())
            | (self.ty.val().get_bit(0) & !self.mask.val().get_bit(3) & self.op_fp.val())
            | (self.ty.val().get_bit(1) & !self.mask.val().get_bit(4) & self.op_simd.val());
        self.and_ok.next = (!self.mask.val().get_bit(0) | !(self.is_branch.val() ^ self.b.val()))
            & (!self.mask.val().get_bit(1) | !(self.is_load.val() ^ self.ld.val()))
            & (!self.mask.val().get_bit(2) | !(self.is_store.val() ^ self.st.val()))
            & (!self.mask.val().get_bit(3) | !(self.op_fp.val() ^ self.ty.val().get_bit(0)))
            & (!self.mask.val().get_bit(4) | !(self.op_simd.val() ^ self.ty.val().get_bit(1)));
        self.is_op.next = (!self.or_any.val() | self.or_hit.val()) & self.and_ok.val();
        self.sel.next = self.b.val()
            | self.ld.val()
            | self.st.val()
            | self.ty.val().any()
            | self.mask.val().any();
    }
}

/// The capture block's part (`spe_capture_eft_<preset>`): J1 `SPEOpAttr`'s
/// `is_floating_point` and `is_simd` of the picked op, from its class and the payload the
/// core reported (not as recorded: `subclass::fp_simd`): Other's FP and SIMD flags; an SVE
/// vector op and an SVE/SME load or store are SIMD (choice: eft-simd, D17.5.1); with
/// FEAT_SPE_SME an SME array op is SIMD, and FP by its FP flag; the reserved SME array
/// encoding neither. `simd_fp_ldst`: a SIMD&FP load or store, whose kind is its access's
/// (the memory report's, [`TrackerEft`]).
#[derive(LogicBlock, Default)]
pub struct CaptureEft {
    /// The op is of class Other, a load or store, an SME array op (by its encoding); its
    /// payload as reported.
    pub other: Signal<In, Bit>,
    pub is_ldst: Signal<In, Bit>,
    pub sme_array: Signal<In, Bit>,
    pub op_sub: Signal<In, Bits<8>>,
    pub fp: Signal<Out, Bit>,
    pub simd: Signal<Out, Bit>,
    pub simd_fp_ldst: Signal<Out, Bit>,
    k_fp_bit: K<Bits<8>>,
    k_simd_bit: K<Bits<8>>,
    k_sve_sme_bit: K<Bits<8>>,
    k_sve_sme_mask: K<Bits<8>>,
    k_sve: K<Bits<8>>,
    k_ldst_sve_mask: K<Bits<8>>,
    k_ldst_sve: K<Bits<8>>,
    k_simd_fp_mask: K<Bits<8>>,
    k_simd_fp: K<Bits<8>>,
    k_zero8: K<Bits<8>>,
    /// FEAT_SPE_SME (one element in a unit that builds it): an SME array op's FP flag.
    k_sme_fp: Vec<K<Bits<8>>>,
}

impl CaptureEft {
    /// The block of a unit that builds FEAT_SPE_SME (`sme`) or not.
    pub fn new(sme: bool) -> Self {
        use spe_defs::packet::subclass;
        let k8 = |v: u8| K::new(u64::from(v).into());
        Self {
            k_fp_bit: k8(subclass::OTHER_FP),
            k_simd_bit: k8(subclass::OTHER_SIMD),
            k_sve_sme_bit: k8(subclass::OTHER_SVE_SME_BIT),
            k_sve_sme_mask: k8(subclass::OTHER_SVE_SME_MASK),
            k_sve: k8(subclass::OTHER_SVE),
            k_ldst_sve_mask: k8(subclass::LDST_SVE_SME_MASK),
            k_ldst_sve: k8(subclass::LDST_SVE_SME),
            k_simd_fp_mask: k8(subclass::LDST_SIMD_FP_MASK),
            k_simd_fp: k8(subclass::LDST_SIMD_FP),
            k_sme_fp: (0..usize::from(sme))
                .map(|_| k8(subclass::SVE_FP))
                .collect(),
            ..Default::default()
        }
    }
}

impl Logic for CaptureEft {
    #[hdl_gen]
    fn update(&mut self) {
        self.fp.next = self.other.val()
            & ((self.op_sub.val() & self.k_fp_bit.val()) != self.k_zero8.val())
            & !self.sme_array.val();
        self.simd.next = (self.other.val()
            & ((self.op_sub.val() & self.k_sve_sme_bit.val()) == self.k_zero8.val())
            & ((self.op_sub.val() & self.k_simd_bit.val()) != self.k_zero8.val()))
            | (self.other.val()
                & ((self.op_sub.val() & self.k_sve_sme_mask.val()) == self.k_sve.val()))
            | (self.is_ldst.val()
                & ((self.op_sub.val() & self.k_ldst_sve_mask.val()) == self.k_ldst_sve.val()));
        self.simd_fp_ldst.next = self.is_ldst.val()
            & ((self.op_sub.val() & self.k_simd_fp_mask.val()) == self.k_simd_fp.val());
        for j in 0..self.k_sme_fp.len() {
            if self.sme_array.val() {
                self.fp.next = (self.op_sub.val() & self.k_sme_fp[j].val()) != self.k_zero8.val();
                self.simd.next = true;
            }
        }
    }
}

/// The tracker's part (`spe_tracker_eft_<preset>`): whether a SIMD&FP access was scalar
/// comes with the memory report (`mem_fp_scalar`); held from the report that counted
/// (`take`: the report arrives and none has counted) and given once one has (`mem_done`).
#[derive(LogicBlock, Default)]
pub struct TrackerEft {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub take: Signal<In, Bit>,
    pub fp_scalar_in: Signal<In, Bit>,
    pub mem_done: Signal<In, Bit>,
    pub fp_scalar: Signal<Out, Bit>,
    scalar: Rff<Bit>,
}

crate::rff_setup!(impl[] TrackerEft: scalar);

impl crate::flop::Kernel for TrackerEft {
    #[hdl_gen]
    fn update(&mut self) {
        self.scalar.clock.next = self.clock.val();
        self.scalar.d.next = self.scalar.q.val();
        if self.take.val() {
            self.scalar.d.next = self.fp_scalar_in.val();
        }
        self.fp_scalar.next = self.scalar.q.val() & self.mem_done.val();
    }
}
