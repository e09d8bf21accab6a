//! FEAT_SPE_EFT (`Options::eft`, PMSIDR_EL1.EFT): PMSFCR_EL1.FP and SIMD (TYPE bits 4:3)
//! and the TYPEm mask bits Bm, LDm, STm, FPm, SIMDm, which turn a type from the type
//! filter's OR term into its AND term (J1 `SPEFilterByType`).
//!
//! ```text
//!  port write of PMSFCR --> [ RegsEft: flop of FP, SIMD, TYPEm ] --> ty, mask --> (top) -->
//!      --> [ FilterEft: OR term, AND term ] --> is_op, sel --> type filter, SAMPLE_FEED_OP
//! ```
//!
//! The fields are rows of the register table (`spe_defs::regs::pmsfcr`, writable only in a
//! unit that builds the option). The op's FP and SIMD kind come from the capture block
//! (`op_fp`, `op_simd`); SAMPLE_FEED_FP and _SIMD (with `Options::feed_events`) are the
//! filter's.

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

impl Logic for RegsEft {
    #[hdl_gen]
    fn update(&mut self) {
        self.fcr.clock.next = self.clock.val();
        self.fcr.reset.next = self.reset.val();
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
    /// The op's kind: branch, load, store (the filter view), FP and SIMD (the capture block).
    pub is_branch: Signal<In, Bit>,
    pub is_load: Signal<In, Bit>,
    pub is_store: Signal<In, Bit>,
    pub op_fp: Signal<In, Bit>,
    pub op_simd: Signal<In, Bit>,
    pub is_op: Signal<Out, Bit>,
    pub sel: Signal<Out, Bit>,
    or_any: Signal<Local, Bit>,
    or_hit: Signal<Local, Bit>,
    and_ok: Signal<Local, Bit>,
}

impl Logic for FilterEft {
    #[hdl_gen]
    fn update(&mut self) {
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
