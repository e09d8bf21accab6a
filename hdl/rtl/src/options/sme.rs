//! FEAT_SPE_SME (`Options::sme`): the Events packet's Streaming SVE mode and SME compute
//! unit events of an op, from the completion report's flags
//! (`spe_defs::events::SME_PORT_ORDER`), and its Operation Type encodings recorded as
//! reported.
//!
//! ```text
//!  cpl_streaming, cpl_smcu (with the completion) --> [ TrackerSmeEvents: held ] --> word (events 31:16)
//!  SME array op, EVL 0b111 (capture) --> recorded as reported (capture_reserves(cfg) false)
//! ```
//!
//! The tracker ORs `word` into the Events payload's bits 31:16 (`events_hi`). The capture
//! block's part is a constant and no logic: without FEAT_SPE_SME an SME array op (class
//! Other, `0b1xxx1xx0`) is recorded with payload 0 and an EVL of 0b111 as 0b110 (D18.2.7:
//! the encodings are reserved); with it, both as reported ([`capture_reserves`]). The
//! decoding of the two encodings is the capture block's, which the EFT block reads too
//! (an SME array op is SIMD, and FP by its FP flag, only with SME: `options::eft`).

use super::events_hi::TrackerHeldEvents;
use spe_defs::events as ev;
use spe_defs::Config;

/// The capture block's part: whether an SME array op and an EVL of 0b111 are reserved
/// encodings, recorded as 0 and 0b110 (without FEAT_SPE_SME), or recorded as reported
/// (with it); the definitions' rule (`subclass::sme_encodings_reserved`).
pub const fn capture_reserves(cfg: &Config) -> bool {
    spe_defs::packet::subclass::sme_encodings_reserved(cfg)
}

/// The tracker's part (`spe_tracker_sme_events_<preset>`): the two flags taken with the
/// completion (`take`), in `SME_PORT_ORDER`; `word`, each set flag's event in place in
/// bits 31:16 of the Events payload (event 16 at bit 0); `gate` always set. The
/// held-flags block SPEv1p4's events use too ([`TrackerHeldEvents`]).
pub type TrackerSmeEvents = TrackerHeldEvents<2>;

/// The block with FEAT_SPE_SME's events in their port order.
pub fn block() -> TrackerSmeEvents {
    TrackerHeldEvents::new(ev::SME_PORT_ORDER)
}

#[cfg(test)]
mod tests {
    use super::*;
    use spe_defs::packet::{op_class, subclass};

    #[test]
    fn capture_reserves_the_encodings_exactly_when_the_recorded_payload_changes_them() {
        for sme in [false, true] {
            let mut cfg = Config::default();
            cfg.options.sme = sme;
            let mut seen = 0;
            for class in [op_class::OTHER, op_class::LD_ST_ATOMIC] {
                for v in 0..=u8::MAX {
                    if subclass::is_sme_array(class, v) || subclass::evl_reserved(class, v) {
                        seen += 1;
                        let recorded = subclass::recorded_payload(class, v, &cfg);
                        assert_eq!(
                            recorded != v,
                            capture_reserves(&cfg),
                            "sme {sme}, class {class}, payload {v:#04x}"
                        );
                    }
                }
            }
            assert!(seen > 0, "no reserved encoding found");
        }
    }
}
