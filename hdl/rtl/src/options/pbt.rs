//! FEAT_SPE_PBT (`Options::pbt`, PMSIDR_EL1.PBT): a taken branch's record carries the
//! previous-branch target, the target of the last taken branch before it in program order,
//! as the index-4 Address packet (J1 `SPESamplePreviousBranchAddress`); the core gives it
//! with the branch report (`pbt_target`, `pbt_valid`).
//!
//! ```text
//!  pbt_target, pbt_valid (with the branch report) --> [ TrackerPbt: taken with the report ] --> addr, en
//!  the record's branch report: counted, taken, retired -/                                      |
//!  addr (the owner's tracker) --> [ SerializerPbt: the index-4 packet ] --> hdr, payload (the record's PA slot, when en)
//! ```
//!
//! The serializer puts the packet in the record's PA slot when the tracker's `en` (a
//! branch has no data PA; the owner's, in a multithreaded unit:
//! `spe_defs::wiring::OPTION_LINKS`), in a 64-byte record and in a 128-byte one alike.

use crate::flop::Rff;
use crate::K;
use rust_hdl::prelude::*;
use spe_defs::packet::{self, addr_index, addr_payload};

/// The tracker's part (`spe_tracker_pbt_<preset>`): the target and its valid flag are taken
/// with the sample's branch report (`take`: its first `br_done`; the record uses them only
/// once the report counted); `en`, the record has the packet: its branch was reported,
/// taken and retired (D17.6.3.1: not for a sampled branch that is still speculative) with a
/// valid target.
#[derive(LogicBlock, Default)]
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
    /// The target as the core gave it, and whether the record has the packet.
    pub addr: Signal<Out, Bits<64>>,
    pub en: Signal<Out, Bit>,
    p_target: Rff<Bits<64>>,
    p_valid: Rff<Bit>,
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
            self.p_target.d.next = self.target.val();
            self.p_valid.d.next = self.valid.val();
        }
        self.addr.next = self.p_target.q.val();
        // choice: prev-branch
        self.en.next =
            self.br_done.val() & self.taken.val() & self.retired.val() & self.p_valid.q.val();
    }
}

/// The serializer's part (`spe_serializer_pbt_<preset>`): the previous-branch target's
/// Address packet, its index-4 header and its payload (`spe_defs::packet`): the NS, EL
/// and VA fields of the core's value, NSE (bit 60) and bits 59:56 recorded as 0 (no Realm
/// state). The serializer places it when the tracker's `en`.
#[derive(LogicBlock)]
pub struct SerializerPbt {
    /// The tracker's `addr` (the record owner's).
    pub addr: Signal<In, Bits<64>>,
    pub hdr: Signal<Out, Bits<8>>,
    pub payload: Signal<Out, Bits<64>>,
    k_hdr: K<Bits<8>>,
    k_mask: K<Bits<64>>,
}

impl Default for SerializerPbt {
    fn default() -> Self {
        Self {
            addr: Default::default(),
            hdr: Default::default(),
            payload: Default::default(),
            k_hdr: K::new(u64::from(packet::address_header(addr_index::PREV_BRANCH_TARGET)).into()),
            k_mask: K::new(addr_payload::instruction(!0, 3, true).into()),
        }
    }
}

impl Logic for SerializerPbt {
    #[hdl_gen]
    fn update(&mut self) {
        self.hdr.next = self.k_hdr.val();
        self.payload.next = self.addr.val() & self.k_mask.val();
    }
}
