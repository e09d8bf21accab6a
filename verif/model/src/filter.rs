//! Filter: decides whether a completed sample's record is kept (`SPEFilterBy*`, reference
//! §5.4–5.6, §6.3). The EL enables and `prof_allowed` act earlier, on the population.
//! CONSTRAINED UNPREDICTABLE cases follow `spe_defs::impdef::CONSTRAINED`.

use crate::capture::Sample;
use crate::regs::Regs;
use spe_defs::regs::{pmsdsfr, pmsfcr, RegId};

/// Why a record was dropped (first failing filter), or None when kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Drop {
    Type,
    Events,
    InvertedEvents,
    Latency,
    /// FEAT_SPE_FDS: a load whose data source PMSDSFR does not select.
    DataSource,
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
    /// SAMPLE_FEED_OP: PMSFCR.{TYPE, TYPEm} select something and the op passes the type
    /// test (without FEAT_SPE_EFT: B, LD or ST selects a type and the op is of one).
    pub op: bool,
    /// SAMPLE_FEED_EVENT: every event of PMSEVFR set and none of PMSNEVFR.
    pub event: bool,
    /// SAMPLE_FEED_LAT: total latency at least MINLAT.
    pub lat: bool,
    /// SAMPLE_FEED_FP, _SIMD (FEAT_SPE_EFT): the op is a floating-point, a SIMD op.
    pub fp: bool,
    pub simd: bool,
    /// SAMPLE_FEED_DS (FEAT_SPE_FDS): a load with a data source PMSDSFR selects.
    pub ds: bool,
}

/// J1 `SPEFilterByDataSource`'s `is_ds` with the test that guards it: `Some(selected)` for
/// a load (or load atomic) with a data source (its memory report came), `None` otherwise:
/// the guard is the op type (Load, LoadAtomic), so a return with GCS, whose op type is
/// Branch, is never filtered by its data source.
/// PMSDSFR reads as zero in a unit without FEAT_SPE_FDS.
fn data_source_selected(regs: &Regs, s: &Sample) -> Option<bool> {
    (s.is_load() && s.is_load_store() && s.mem_done)
        .then(|| regs.get(RegId::Pmsdsfr) >> (s.data_source & pmsdsfr::SOURCE_INDEX_MASK) & 1 != 0)
}

/// J1 `SPEFilterByType`'s `is_op`: the op's `flags` against PMSFCR's `ctrl` (TYPE) and
/// `mask` (TYPEm), bits B, LD, ST, FP, SIMD from bit 0. A type without its mask bit is in
/// the OR term (the op is one of the selected types, or none is selected); a type with it
/// is in the AND term (the op is of that type exactly when its TYPE bit is set).
pub fn type_matches(flags: u8, ctrl: u8, mask: u8) -> bool {
    let or_term = ctrl & !mask;
    let and_term = ctrl & mask;
    (or_term == 0 || flags & or_term != 0) && flags & mask == and_term
}

/// The PMU events of `s` as it reaches the filters.
pub fn feed_events(regs: &Regs, s: &Sample) -> Feed {
    let (ctrl, mask) = regs.type_ctl();
    let events = s.events();
    let want = regs.get(RegId::Pmsevfr);
    Feed {
        br: s.is_branch(),
        ld: s.is_load(),
        st: s.is_store(),
        op: (ctrl | mask) != 0 && type_matches(s.type_flags(), ctrl, mask),
        event: events & want == want && events & regs.get(RegId::Pmsnevfr) == 0,
        lat: s.lat_total >= regs.min_latency(),
        fp: s.is_fp(),
        simd: s.is_simd(),
        ds: data_source_selected(regs, s) == Some(true),
    }
}

/// Applies every enabled filter; `Ok(())` keeps the record.
pub fn apply(regs: &Regs, s: &Sample) -> Result<(), Drop> {
    let events = s.events();
    if regs.fcr(pmsfcr::FT) {
        // FT with no type bit passes everything (without FEAT_SPE_EFT a CONSTRAINED
        // UNPREDICTABLE case: choice: ft-no-type-bit; with it J1's rule, which passes too).
        let (ctrl, mask) = regs.type_ctl();
        if !type_matches(s.type_flags(), ctrl, mask) {
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
    // Without FEAT_SPE_FnE, PMSFCR.FnE is RES0 and PMSNEVFR reads as zero, so this filter
    // and E[6] never apply (choice: fne-v1p2).
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
    // FDS (RES0 without FEAT_SPE_FDS): a load with a data source PMSDSFR does not select
    // is dropped; any other op passes.
    if regs.fcr(pmsfcr::FDS) && data_source_selected(regs, s) == Some(false) {
        return Err(Drop::DataSource);
    }
    Ok(())
}
