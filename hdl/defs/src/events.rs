//! Events packet bit numbers (perf `enum arm_spe_events`; Arm pseudocode `SPEEvent`).
//! The same positions are used by PMSEVFR_EL1 and PMSNEVFR_EL1.

pub const EXCEPTION_GEN: u32 = 0;
pub const RETIRED: u32 = 1;
pub const L1D_ACCESS: u32 = 2;
pub const L1D_REFILL: u32 = 3;
pub const TLB_ACCESS: u32 = 4;
pub const TLB_WALK: u32 = 5;
pub const NOT_TAKEN: u32 = 6;
pub const MISPRED: u32 = 7;
pub const LLC_ACCESS: u32 = 8;
pub const LLC_MISS: u32 = 9;
pub const REMOTE_ACCESS: u32 = 10;
pub const ALIGNMENT: u32 = 11;
/// FEAT_SPEv1p1 with SVE or SME (`Options::sve_events`): the governing predicate had a
/// FALSE element (partial or empty), and had no TRUE element (empty).
pub const PARTIAL_PREDICATE: u32 = 17;
pub const EMPTY_PREDICATE: u32 = 18;
/// FEAT_SPEv1p4 (`Options::v1p4_events`), for loads: L2 data cache access and miss, cache
/// data modified (HITM), recently fetched (line-fill-buffer hit), data snooped.
pub const L2D_ACCESS: u32 = 19;
pub const L2D_MISS: u32 = 20;
pub const CACHE_DATA_MODIFIED: u32 = 21;
pub const RECENTLY_FETCHED: u32 = 22;
pub const DATA_SNOOPED: u32 = 23;
/// FEAT_SPE_SME (`Options::sme`): the op ran in Streaming SVE mode (PSTATE.SM), and on an
/// SME compute unit or another shared resource.
pub const STREAMING_SVE: u32 = 24;
pub const SMCU: u32 = 25;

/// Events every unit can set (bits 0..=11).
pub const IMPLEMENTED_MASK: u64 = 0xFFF;
/// Events that take part in PMSEVFR/PMSNEVFR filtering in a unit with FEAT_SPE_FnE: every
/// implemented bit except bit 0, which is never filterable. Bits 2, 4, 8, 9, 10 are
/// IMPLEMENTATION DEFINED filterable before SPEv1p4; this unit makes them filterable. E[6]
/// (Not taken) only with FEAT_SPE_FnE ([`FNE_MASK`], J1 `SPEFilterByEvents`).
pub const FILTERABLE_MASK: u64 = IMPLEMENTED_MASK & !(1 << EXCEPTION_GEN);
/// E[6], filterable only in a unit that builds FEAT_SPE_FnE (`Options::fne`; PMSEVFR_EL1
/// E[6] "Otherwise: Reserved, RAZ/WI").
pub const FNE_MASK: u64 = bit(NOT_TAKEN);
/// The SVE events (`Options::sve_events`), filterable where built (J1 `SPEFilterByEvents`:
/// `mask<18:17>` with FEAT_SPEv1p1 and SVE).
pub const SVE_MASK: u64 = bit(PARTIAL_PREDICATE) | bit(EMPTY_PREDICATE);
/// The SPEv1p4 events (`Options::v1p4_events`), filterable where built (J1
/// `SPEFilterByEvents`: `mask<23:19>` with FEAT_SPEv1p4).
pub const V1P4_MASK: u64 = bit(L2D_ACCESS)
    | bit(L2D_MISS)
    | bit(CACHE_DATA_MODIFIED)
    | bit(RECENTLY_FETCHED)
    | bit(DATA_SNOOPED);

/// The SME events (`Options::sme`), filterable where built (J1 `SPEFilterByEvents`:
/// `mask<25:24>` with FEAT_SPE_SME and FEAT_SPEv1p4).
pub const SME_MASK: u64 = bit(STREAMING_SVE) | bit(SMCU);

/// Events a unit of `cfg` can set: [`IMPLEMENTED_MASK`] and its options' events.
pub fn implemented_mask(cfg: &crate::Config) -> u64 {
    IMPLEMENTED_MASK
        | if cfg.options.sve_events { SVE_MASK } else { 0 }
        | if cfg.options.v1p4_events {
            V1P4_MASK
        } else {
            0
        }
        | if cfg.options.sme { SME_MASK } else { 0 }
}

/// True when a unit of `cfg` builds an event above bit 15 (its Events payload is 4 bytes,
/// and its RTL carries bits 31:16 beside the 2-byte payload, in `rtl::HI_EVENT_BITS`-wide
/// words).
pub fn has_high_events(cfg: &crate::Config) -> bool {
    implemented_mask(cfg) >> 16 != 0
}

/// The SPEv1p4 events in the order of their memory-hook ports (`mem_l2d_access`,
/// `mem_l2d_miss`, `mem_hitm`, `mem_lfb`, `mem_snooped`).
pub const V1P4_PORT_ORDER: [u32; 5] = [
    L2D_ACCESS,
    L2D_MISS,
    CACHE_DATA_MODIFIED,
    RECENTLY_FETCHED,
    DATA_SNOOPED,
];

/// The SME events in the order of their completion-hook ports (`cpl_streaming`,
/// `cpl_smcu`).
pub const SME_PORT_ORDER: [u32; 2] = [STREAMING_SVE, SMCU];

/// Events a unit of `cfg` filters on (PMSEVFR_EL1 / PMSNEVFR_EL1's writable bits).
pub fn filterable_mask(cfg: &crate::Config) -> u64 {
    implemented_mask(cfg) & !bit(EXCEPTION_GEN) & !if cfg.options.fne { 0 } else { FNE_MASK }
}

/// Names as perf prints them, for bits 0..=31 that it knows (None = IMPDEF/unknown).
pub const fn name(bit: u32) -> Option<&'static str> {
    Some(match bit {
        0 => "EXCEPTION-GEN",
        1 => "RETIRED",
        2 => "L1D-ACCESS",
        3 => "L1D-REFILL",
        4 => "TLB-ACCESS",
        5 => "TLB-REFILL",
        6 => "NOT-TAKEN",
        7 => "MISPRED",
        8 => "LLC-ACCESS",
        9 => "LLC-REFILL",
        10 => "REMOTE-ACCESS",
        11 => "ALIGNMENT",
        16 => "TXN",
        17 => "SVE-PARTIAL-PRED",
        18 => "SVE-EMPTY-PRED",
        19 => "L2D-ACCESS",
        20 => "L2D-MISS",
        21 => "HITM",
        22 => "LFB",
        23 => "SNOOPED",
        24 => "STREAMING-SVE",
        25 => "SMCU",
        _ => return None,
    })
}

/// `1 << bit` as u64.
pub const fn bit(b: u32) -> u64 {
    1u64 << b
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn bit_zero_is_never_filterable() {
        assert_eq!(FILTERABLE_MASK & 1, 0);
        assert_eq!(FILTERABLE_MASK, 0xFFE);
        // The PMSEVFR field covers exactly the filterable events.
        assert_eq!(crate::regs::pmsevfr::FIELDS[0].mask(), FILTERABLE_MASK);
    }
    #[test]
    fn every_implemented_event_has_a_perf_name() {
        for b in 0..12 {
            assert!(IMPLEMENTED_MASK & bit(b) != 0);
            assert!(name(b).is_some());
        }
        assert_eq!(name(5), Some("TLB-REFILL"));
        assert_eq!(name(12), None);
    }
    #[test]
    fn options_add_their_events_and_filter_bits() {
        for cfg in crate::PRESETS {
            let want = if cfg.options.sve_events { SVE_MASK } else { 0 }
                | if cfg.options.v1p4_events {
                    V1P4_MASK
                } else {
                    0
                }
                | if cfg.options.sme { SME_MASK } else { 0 };
            assert_eq!(
                implemented_mask(cfg),
                IMPLEMENTED_MASK | want,
                "{}",
                cfg.name
            );
            let fne = if cfg.options.fne { 0 } else { FNE_MASK };
            assert_eq!(
                filterable_mask(cfg),
                (FILTERABLE_MASK | want) & !fne,
                "{}",
                cfg.name
            );
            assert_eq!(
                crate::regs::reg(crate::regs::RegId::Pmsevfr).writable_mask(cfg),
                filterable_mask(cfg),
                "{}",
                cfg.name
            );
        }
        assert_eq!(name(PARTIAL_PREDICATE), Some("SVE-PARTIAL-PRED"));
        assert_eq!(name(EMPTY_PREDICATE), Some("SVE-EMPTY-PRED"));
        assert_eq!(name(L2D_ACCESS), Some("L2D-ACCESS"));
        assert_eq!(name(L2D_MISS), Some("L2D-MISS"));
        assert_eq!(name(CACHE_DATA_MODIFIED), Some("HITM"));
        assert_eq!(name(RECENTLY_FETCHED), Some("LFB"));
        assert_eq!(name(DATA_SNOOPED), Some("SNOOPED"));
        assert_eq!(V1P4_MASK, 0x1F << 19);
        assert_eq!(
            V1P4_PORT_ORDER.iter().fold(0, |m, &b| m | bit(b)),
            V1P4_MASK
        );
    }
}
