//! FEAT_SPE_CRR (`Options::crr`, PMSIDR_EL1.CRR): a branch's Operation Type payload keeps
//! its call-return field CR and, for a call or a return, its GCS bit (D18.2.7); a return
//! that pops the Guarded Control Stack is a load too, a call that pushes it a store
//! (D17.6.3).
//!
//! ```text
//!  held group's classes, payloads, pick (capture's flops) --> [ CaptureCrr: CR, GCS as recorded ] --> payload (a branch's)
//!                                                                                                 --> gcs_ld, gcs_st
//! ```
//!
//! The capture block records `payload` for a branch and marks a GCS return or call as a
//! load or a store (`is_load` / `is_store`, and `is_ldst`: the tracker takes its
//! translation and memory reports). The block picks the op's class and payload from the
//! capture block's flops itself: fed the host's picked payload (a local), whose `slot` the
//! block's outputs join, Verilator 5.006 finds a combinational loop through the block
//! (`UNOPTFLAT`, docs/toolchain.md); synthesis shares the two multiplexers.

use crate::K;
use rust_hdl::prelude::*;
use spe_defs::packet::{op_class, subclass};

/// The capture block's part (`spe_capture_crr_<preset>`) for dispatch width `W` (`CB`, `SB`:
/// the class and subclass buses, 2·W and 8·W bits): the picked op's branch payload as
/// recorded, CR as the core reports it, 00 as 11 (other branch), and GCS only with CR
/// 01 (call) or 10 (return); `gcs_ld` / `gcs_st`, the op is a branch whose CR and GCS as
/// recorded are a return's or a call's with GCS.
#[derive(LogicBlock)]
pub struct CaptureCrr<const W: usize, const CB: usize, const SB: usize> {
    /// The held group's per-slot classes and payloads as reported, and its picked slot
    /// (one-hot or zero): the capture block's flops.
    pub g_class: Signal<In, Bits<CB>>,
    pub g_sub: Signal<In, Bits<SB>>,
    pub g_pick: Signal<In, Bits<W>>,
    pub payload: Signal<Out, Bits<8>>,
    pub gcs_ld: Signal<Out, Bit>,
    pub gcs_st: Signal<Out, Bit>,
    op_class: Signal<Local, Bits<2>>,
    op_sub: Signal<Local, Bits<8>>,
    cr_pl: Signal<Local, Bits<8>>,
    is_branch: Signal<Local, Bit>,
    /// The branch class; the masks of CR, of CR and GCS, and the payload bits a branch
    /// keeps without them; the CR and GCS bits of a return and of a call with GCS
    /// (`subclass::BR_GCS_LOAD`, `_STORE`).
    k_class_branch: K<Bits<2>>,
    k_cr_field: K<Bits<8>>,
    k_cr_gcs: K<Bits<8>>,
    k_br_keep: K<Bits<8>>,
    k_gcs_ld: K<Bits<8>>,
    k_gcs_st: K<Bits<8>>,
    k_zero8: K<Bits<8>>,
    k_zero2: K<Bits<2>>,
}

impl<const W: usize, const CB: usize, const SB: usize> Default for CaptureCrr<W, CB, SB> {
    fn default() -> Self {
        let k8 = |v: u8| K::new(u64::from(v).into());
        Self {
            g_class: Default::default(),
            g_sub: Default::default(),
            g_pick: Default::default(),
            op_class: Default::default(),
            op_sub: Default::default(),
            payload: Default::default(),
            gcs_ld: Default::default(),
            gcs_st: Default::default(),
            cr_pl: Default::default(),
            is_branch: Default::default(),
            k_class_branch: K::new(u64::from(op_class::BRANCH).into()),
            k_cr_field: k8(subclass::BR_CR_FIELD << subclass::BR_CR_SHIFT),
            k_cr_gcs: k8(subclass::BR_CLEAR_WITHOUT_CRR_GCS),
            k_br_keep: k8(!subclass::BR_CLEAR_WITHOUT_CRR_GCS),
            k_gcs_ld: k8(subclass::BR_GCS_LOAD),
            k_gcs_st: k8(subclass::BR_GCS_STORE),
            k_zero8: k8(0),
            k_zero2: K::new(0u64.into()),
        }
    }
}

impl<const W: usize, const CB: usize, const SB: usize> Logic for CaptureCrr<W, CB, SB> {
    #[hdl_gen]
    fn update(&mut self) {
        self.op_class.next = self.k_zero2.val();
        self.op_sub.next = self.k_zero8.val();
        for i in 0..W {
            if self.g_pick.val().get_bit(i) {
                self.op_class.next = self.g_class.val().get_bits::<2>(i * 2);
                self.op_sub.next = self.g_sub.val().get_bits::<8>(i * 8);
            }
        }
        // choice: crr
        self.cr_pl.next = self.op_sub.val() & self.k_cr_gcs.val();
        if ((self.op_sub.val() & self.k_cr_field.val()) == self.k_zero8.val())
            | ((self.op_sub.val() & self.k_cr_field.val()) == self.k_cr_field.val())
        {
            self.cr_pl.next = self.k_cr_field.val();
        }
        self.payload.next = (self.op_sub.val() & self.k_br_keep.val()) | self.cr_pl.val();
        // A return that pops the Guarded Control Stack is a load too, a call that pushes it
        // a store, for the type filter and SAMPLE_FEED_LD/ST ("treated as both a branch
        // and a load or store for the purposes of filtering", D17.6.3; J1
        // SPEFilterByType's is_gcs_ldst), and its GCS access is reported as a load or
        // store's ("The information for both the branch and the load or store is
        // collected").
        self.is_branch.next = self.op_class.val() == self.k_class_branch.val();
        self.gcs_ld.next = self.is_branch.val() & (self.cr_pl.val() == self.k_gcs_ld.val());
        self.gcs_st.next = self.is_branch.val() & (self.cr_pl.val() == self.k_gcs_st.val());
    }
}
