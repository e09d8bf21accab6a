//! FEAT_SPE_PBT (`Options::pbt`, PMSIDR_EL1.PBT): a taken branch's record carries the
//! previous-branch target, the target of the last taken branch before it in program order,
//! as the index-4 Address packet (J1 `SPESamplePreviousBranchAddress`); the core gives it
//! with the branch report (`pbt_target`, `pbt_valid`).
//!
//! ```text
//!  pbt_target, pbt_valid (with the branch report) --> [ TrackerPbt: taken with the report ] --> addr, en
//!  the record's branch report: counted, taken, retired -/                                   (serializer: PA slot)
//! ```
//!
//! The serializer puts `addr` in the record's PA slot with the index-4 header when `en`
//! (the owner's, in a multithreaded unit: `spe_defs::wiring::OPTION_LINKS`).

use crate::flop::Rff;
use crate::K;
use rust_hdl::prelude::*;
use spe_defs::packet::addr_payload;

/// The tracker's part (`spe_tracker_pbt_<preset>`): the target and its valid flag are taken
/// with the sample's branch report (`take`: its first `br_done`; the record uses them only
/// once the report counted); `en`, the record has the packet: its branch was reported,
/// taken and retired (D17.6.3.1: not for a sampled branch that is still speculative) with a
/// valid target.
#[derive(LogicBlock)]
pub struct TrackerPbt {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub take: Signal<In, Bit>,
    /// The core's previous-branch-target register and its valid flag (the ports).
    pub target: Signal<In, Bits<64>>,
    pub valid: Signal<In, Bit>,
    /// The record's branch report as held: counted, taken, retired.
    pub br_done: Signal<In, Bit>,
    pub taken: Signal<In, Bit>,
    pub retired: Signal<In, Bit>,
    /// The Address packet's payload, and whether the record has it.
    pub addr: Signal<Out, Bits<64>>,
    pub en: Signal<Out, Bit>,
    p_target: Rff<Bits<64>>,
    p_valid: Rff<Bit>,
    /// The payload's NS, EL and VA fields (`spe_defs::packet::addr_payload`): NSE (bit 60)
    /// and bits 59:56 are recorded as 0 (no Realm state).
    k_mask: K<Bits<64>>,
}

impl Default for TrackerPbt {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            take: Default::default(),
            target: Default::default(),
            valid: Default::default(),
            br_done: Default::default(),
            taken: Default::default(),
            retired: Default::default(),
            addr: Default::default(),
            en: Default::default(),
            p_target: Default::default(),
            p_valid: Default::default(),
            k_mask: K::new(addr_payload::instruction(!0, 3, true).into()),
        }
    }
}

crate::rff_setup!(impl[] TrackerPbt: p_target, p_valid);

impl crate::flop::Kernel for TrackerPbt {
    #[hdl_gen]
    fn update(&mut self) {
        self.p_target.clock.next = self.clock.val();
        self.p_valid.clock.next = self.clock.val();
        self.p_target.d.next = self.p_target.q.val();
        self.p_valid.d.next = self.p_valid.q.val();
        if self.take.val() {
            self.p_target.d.next = self.target.val() & self.k_mask.val();
            self.p_valid.d.next = self.valid.val();
        }
        // choice: prev-branch
        self.addr.next = self.p_target.q.val();
        self.en.next =
            self.br_done.val() & self.taken.val() & self.retired.val() & self.p_valid.q.val();
    }
}
