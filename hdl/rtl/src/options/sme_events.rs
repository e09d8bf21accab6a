//! FEAT_SPE_SME's events (`Options::sme`): the Events packet's Streaming SVE mode and SME
//! compute unit events of an op, from the completion report's flags
//! (`spe_defs::events::SME_PORT_ORDER`).
//!
//! ```text
//!  cpl_streaming, cpl_smcu (with the completion) --> [ TrackerSmeEvents: held ] --> word (events 31:16)
//! ```
//!
//! The tracker ORs `word` into the Events payload's bits 31:16 (`events_hi`). FEAT_SPE_SME's
//! Operation Type encodings are the capture block's (`spe_capture`).

use crate::flop::Rff;
use crate::{hi_events, HI_EVENT_BITS, K};
use rust_hdl::prelude::*;
use spe_defs::events as ev;

/// The tracker's part (`spe_tracker_sme_events_<preset>`): the two flags taken with the
/// completion (`take`), in `SME_PORT_ORDER`; `word`, each set flag's event in place in
/// bits 31:16 of the Events payload (event 16 at bit 0).
#[derive(LogicBlock)]
pub struct TrackerSmeEvents {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub take: Signal<In, Bit>,
    /// The completion report's flags (the ports), in `SME_PORT_ORDER`.
    pub flags: [Signal<In, Bit>; 2],
    pub word: Signal<Out, Bits<HI_EVENT_BITS>>,
    held: [Rff<Bit>; 2],
    bit: [Signal<Local, Bits<HI_EVENT_BITS>>; 2],
    k_none: K<Bits<HI_EVENT_BITS>>,
    /// Each flag's event bit in place.
    k_event: [K<Bits<HI_EVENT_BITS>>; 2],
}

impl Default for TrackerSmeEvents {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            take: Default::default(),
            flags: Default::default(),
            word: Default::default(),
            held: Default::default(),
            bit: Default::default(),
            k_none: Default::default(),
            k_event: ev::SME_PORT_ORDER.map(|b| K::new(hi_events(ev::bit(b)))),
        }
    }
}

crate::rff_setup!(impl[] TrackerSmeEvents: each held);

impl crate::flop::Kernel for TrackerSmeEvents {
    #[hdl_gen]
    fn update(&mut self) {
        for j in 0..2 {
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
        self.word.next = self.bit[0].val() | self.bit[1].val();
    }
}
