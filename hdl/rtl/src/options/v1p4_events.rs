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

use super::events_hi::TrackerHeldEvents;
use spe_defs::events as ev;

/// The tracker's part (`spe_tracker_v1p4_events_<preset>`): the five flags taken with the
/// memory report (`take`: its first `done`), in `V1P4_PORT_ORDER`; `word`, each set flag's
/// event in place in bits 31:16 of the Events payload (event 16 at bit 0) once the sample
/// is a load whose memory report counted (`gate`), zero otherwise. The held-flags block
/// FEAT_SPE_SME's events use too ([`TrackerHeldEvents`]).
pub type TrackerV1p4Events = TrackerHeldEvents<5>;

/// The block with SPEv1p4's events in their port order.
pub fn block() -> TrackerV1p4Events {
    TrackerHeldEvents::new(ev::V1P4_PORT_ORDER)
}
