//! FEAT_SPEv1p4's events (`Options::v1p4_events`): a load's L2D access, L2D miss, cache
//! data modified (HITM), recently fetched (line-fill buffer) and data snooped events, from
//! the memory report's flags (`spe_defs::events::V1P4_PORT_ORDER`).
//!
//! ```text
//!  mem_l2d_access .. mem_snooped (with the memory report) --> [ TrackerV1p4Events: held ] --> word (events 31:16)
//!  the sample is a load, its memory report counted -------/
//! ```
//!
//! The tracker ORs `word` into the Events payload's bits 31:16 (`events_hi`).

use crate::flop::Rff;
use crate::{hi_events, HI_EVENT_BITS, K};
use rust_hdl::prelude::*;
use spe_defs::events as ev;

/// The tracker's part (`spe_tracker_v1p4_events_<preset>`): the five flags taken with the
/// memory report (`take`: its first `done`), in `V1P4_PORT_ORDER`; `word`, each set flag's
/// event in place in bits 31:16 of the Events payload (event 16 at bit 0) once the sample
/// is a load whose memory report counted (`load_done`), zero otherwise.
#[derive(LogicBlock)]
pub struct TrackerV1p4Events {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub take: Signal<In, Bit>,
    /// The memory report's flags (the ports), in `V1P4_PORT_ORDER`.
    pub flags: [Signal<In, Bit>; 5],
    pub load_done: Signal<In, Bit>,
    pub word: Signal<Out, Bits<HI_EVENT_BITS>>,
    held: [Rff<Bit>; 5],
    bit: [Signal<Local, Bits<HI_EVENT_BITS>>; 5],
    k_none: K<Bits<HI_EVENT_BITS>>,
    /// Each flag's event bit in place.
    k_event: [K<Bits<HI_EVENT_BITS>>; 5],
}

impl Default for TrackerV1p4Events {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            take: Default::default(),
            flags: Default::default(),
            load_done: Default::default(),
            word: Default::default(),
            held: Default::default(),
            bit: Default::default(),
            k_none: Default::default(),
            k_event: ev::V1P4_PORT_ORDER.map(|b| K::new(hi_events(ev::bit(b)))),
        }
    }
}

crate::rff_setup!(impl[] TrackerV1p4Events: each held);

impl crate::flop::Kernel for TrackerV1p4Events {
    #[hdl_gen]
    fn update(&mut self) {
        for j in 0..5 {
            self.held[j].clock.next = self.clock.val();
            self.held[j].d.next = self.held[j].q.val();
            if self.take.val() {
                self.held[j].d.next = self.flags[j].val();
            }
            self.bit[j].next = self.k_none.val();
            if self.held[j].q.val() {
                self.bit[j].next = self.k_event[j].val();
            }
        }
        self.word.next = self.k_none.val();
        if self.load_done.val() {
            self.word.next = self.bit[0].val()
                | self.bit[1].val()
                | self.bit[2].val()
                | self.bit[3].val()
                | self.bit[4].val();
        }
    }
}
