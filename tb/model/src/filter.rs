//! Filter: decides whether a completed sample's record is kept (`SPEFilterBy*`, reference
//! §5.4–5.6, §6.3). The EL enables and `prof_allowed` act earlier, on the population.
//! CONSTRAINED UNPREDICTABLE cases follow `spe_defs::impdef::CONSTRAINED`.

use crate::capture::Sample;
use crate::regs::Regs;
use spe_defs::regs::{pmsfcr, RegId};

/// Why a record was dropped (first failing filter), or None when kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Drop {
    Type,
    Events,
    InvertedEvents,
    Latency,
}

/// The SPEv1p2 PMU events of a sample reaching the filters (J1 `SPEFilterByType`,
/// `SPEFilterByEvents`, `SPEFilterByLatency`): each is raised from the sample and the
/// filter registers whether or not the filter's enable bit is set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Feed {
    /// SAMPLE_FEED_BR, _LD, _ST: the op is a branch, a load (or load atomic), a store (or
    /// any atomic).
    pub br: bool,
    pub ld: bool,
    pub st: bool,
    /// SAMPLE_FEED_OP: PMSFCR.{B, LD, ST} select at least one type and the op is of one.
    pub op: bool,
    /// SAMPLE_FEED_EVENT: every event of PMSEVFR set and none of PMSNEVFR.
    pub event: bool,
    /// SAMPLE_FEED_LAT: total latency at least MINLAT.
    pub lat: bool,
}

/// The PMU events of `s` as it reaches the filters.
pub fn feed_events(regs: &Regs, s: &Sample) -> Feed {
    let (b, ld, st) = regs.type_filter_bits();
    let (is_b, is_ld, is_st) = (s.is_branch(), s.is_load(), s.is_store());
    let events = s.events();
    let want = regs.get(RegId::Pmsevfr);
    Feed {
        br: is_b,
        ld: is_ld,
        st: is_st,
        // Without FEAT_SPE_EFT the mask is zero: the op matches when a selected type is its.
        op: (b && is_b) || (ld && is_ld) || (st && is_st),
        event: events & want == want && events & regs.get(RegId::Pmsnevfr) == 0,
        lat: s.lat_total >= regs.min_latency(),
    }
}

/// Applies every enabled filter; `Ok(())` keeps the record.
pub fn apply(regs: &Regs, s: &Sample) -> Result<(), Drop> {
    let events = s.events();
    if regs.fcr(pmsfcr::FT) {
        let (b, ld, st) = regs.type_filter_bits();
        // FT with no type bit passes everything. choice: ft-no-type-bit
        let any_bit = b || ld || st;
        let matches = (b && s.is_branch()) || (ld && s.is_load()) || (st && s.is_store());
        if any_bit && !matches {
            return Err(Drop::Type);
        }
    }
    if regs.fcr(pmsfcr::FE) {
        // Every selected event must be set: an empty selection passes (choice:
        // fe-empty-filter); with the same event in PMSNEVFR both filters apply
        // (choice: fe-fne-same-event).
        let want = regs.get(RegId::Pmsevfr);
        if events & want != want {
            return Err(Drop::Events);
        }
    }
    if regs.fcr(pmsfcr::FNE) {
        // No selected event may be set.
        if events & regs.get(RegId::Pmsnevfr) != 0 {
            return Err(Drop::InvertedEvents);
        }
    }
    // MINLAT = 0 keeps every record. choice: fl-minlat-zero
    if regs.fcr(pmsfcr::FL) && s.lat_total < regs.min_latency() {
        return Err(Drop::Latency);
    }
    Ok(())
}
