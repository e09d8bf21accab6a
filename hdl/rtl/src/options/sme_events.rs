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

use super::events_hi::TrackerHeldEvents;
use spe_defs::events as ev;

/// The tracker's part (`spe_tracker_sme_events_<preset>`): the two flags taken with the
/// completion (`take`), in `SME_PORT_ORDER`; `word`, each set flag's event in place in
/// bits 31:16 of the Events payload (event 16 at bit 0); `gate` always set. The
/// held-flags block SPEv1p4's events use too ([`TrackerHeldEvents`]).
pub type TrackerSmeEvents = TrackerHeldEvents<2>;

/// The block with FEAT_SPE_SME's events in their port order.
pub fn block() -> TrackerSmeEvents {
    TrackerHeldEvents::new(ev::SME_PORT_ORDER)
}
