//! FEAT_SPEv1p1's SVE events (`Options::sve_events`): the Events packet's E[17] (partial
//! predicate) and E[18] (empty predicate) of an SVE op, from the completion report's
//! predicate flags (J1 `SPEPredicateEvents`; an empty predicate is also not full).
//!
//! ```text
//!  cpl_pred_not_full, cpl_pred_empty (with the completion) --> [ TrackerSveEvents: held ] --> word (events 31:16)
//! ```
//!
//! The tracker ORs `word` into the Events payload's bits 31:16 (`events_hi`), which the
//! serializer records and the filter compares with PMSEVFR / PMSNEVFR's bits above 15.

use crate::flop::Rff;
use crate::{hi_events, HI_EVENT_BITS, K};
use rust_hdl::prelude::*;
use spe_defs::events as ev;

/// The tracker's part (`spe_tracker_sve_events_<preset>`): the flags taken with the
/// completion (`take`), and E[17] alone or E[17] with E[18] in place in bits 31:16 of the
/// Events payload (event 16 at bit 0), zero without either flag.
#[derive(LogicBlock)]
pub struct TrackerSveEvents {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub take: Signal<In, Bit>,
    /// The completion report's predicate flags (the ports).
    pub not_full: Signal<In, Bit>,
    pub empty: Signal<In, Bit>,
    pub word: Signal<Out, Bits<HI_EVENT_BITS>>,
    c_not_full: Rff<Bit>,
    c_empty: Rff<Bit>,
    k_none: K<Bits<HI_EVENT_BITS>>,
    k_partial: K<Bits<HI_EVENT_BITS>>,
    k_empty: K<Bits<HI_EVENT_BITS>>,
}

impl Default for TrackerSveEvents {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            take: Default::default(),
            not_full: Default::default(),
            empty: Default::default(),
            word: Default::default(),
            c_not_full: Default::default(),
            c_empty: Default::default(),
            k_none: Default::default(),
            k_partial: K::new(hi_events(ev::bit(ev::PARTIAL_PREDICATE))),
            k_empty: K::new(hi_events(ev::SVE_MASK)),
        }
    }
}

crate::rff_setup!(impl[] TrackerSveEvents: c_not_full, c_empty);

impl crate::flop::Kernel for TrackerSveEvents {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, c_not_full, c_empty);
        if self.take.val() {
            self.c_not_full.d.next = self.not_full.val() | self.empty.val();
            self.c_empty.d.next = self.empty.val();
        }
        self.word.next = self.k_none.val();
        if self.c_not_full.q.val() {
            self.word.next = self.k_partial.val();
        }
        if self.c_empty.q.val() {
            self.word.next = self.k_empty.val();
        }
    }
}
