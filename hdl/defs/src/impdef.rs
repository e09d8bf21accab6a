//! Implementation-defined choices, made once. Each is advertised in PMSIDR/PMBIDR where the
//! architecture has a field for it, and listed in [`CHOICES`] and [`CONSTRAINED`] for the
//! generated documentation.

use crate::packet;

// The choices the register map and the configuration are built from live in `constants`,
// below both (so that `config`, `regs` and this module import in one direction only).
pub use crate::constants::{
    min_interval_for_code, ARCH_INST, BEAT_BYTES, GCS_RECORD_SIZE_LOG2, MAX_RECORD_SIZE,
    RECORD_SIZE_LOG2,
};

/// Beats of the largest record of any unit.
pub const MAX_RECORD_BEATS: usize = MAX_RECORD_SIZE / BEAT_BYTES;
/// Byte enables of every beat: records are whole slots, so all bytes are written.
pub const BEAT_STRB: u8 = 0xFF;

/// Payload size of the Events packet in a unit whose events all lie in bits 0..=15 (bits
/// 0..=11 are implemented; 2 bytes like Neoverse N1).
pub const EVENTS_PAYLOAD: usize = 2;
/// Payload size of the Events packet with events in bits 16..=31 (the options' events).
pub const EVENTS_PAYLOAD_WIDE: usize = 4;

/// Payload size of the Events packet of a unit of `cfg` (J1 `SPEGetEventsPayloadSize`,
/// IMPLEMENTATION DEFINED): 2 bytes, or 4 when it builds an event above bit 15. Every
/// record of the unit has that size, whatever events are set.
pub fn events_payload(cfg: &crate::Config) -> usize {
    if crate::events::has_high_events(cfg) {
        EVENTS_PAYLOAD_WIDE
    } else {
        EVENTS_PAYLOAD
    }
}
/// Payload size of the Data Source packet (the core's 8-bit data-source code).
pub const DATA_SOURCE_PAYLOAD: usize = 1;

/// One SPE feature or part of one: the PMSVer from which the architecture requires it (`0`:
/// optional at every version), whether this unit implements it whole, and where software
/// sees it (a PMSIDR field, or none).
#[derive(Clone, Copy, Debug)]
pub struct Feature {
    pub name: &'static str,
    /// ID_AA64DFR0_EL1.PMSVer value from which the feature is mandatory; 0: optional.
    pub mandatory_from: u8,
    /// Mandatory only on a PE with SVE or SME.
    pub needs_sve: bool,
    pub implemented: bool,
    /// The PMSIDR_EL1 bit that advertises an optional feature.
    pub pmsidr: Option<crate::Field>,
    /// An option a configuration selects (`Options::ernd`, ...): built in a unit of
    /// `cfg` when this says so, whatever `implemented` says of every unit.
    pub option: Option<fn(&crate::Config) -> bool>,
}

impl Feature {
    /// True when a unit of `cfg` builds the feature.
    pub fn built_in(&self, cfg: &crate::Config) -> bool {
        self.implemented || self.option.is_some_and(|f| f(cfg))
    }
}

const fn feat(name: &'static str, from: u8, implemented: bool) -> Feature {
    Feature {
        name,
        mandatory_from: from,
        needs_sve: false,
        implemented,
        pmsidr: None,
        option: None,
    }
}

const fn optional(name: &'static str, implemented: bool, field: crate::Field) -> Feature {
    Feature {
        name,
        mandatory_from: 0,
        needs_sve: false,
        implemented,
        pmsidr: Some(field),
        option: None,
    }
}

/// The SPE features up to SPEv1p3 and what this unit builds (docs/spe-reference.md §5.12,
/// conformance review §3). [`PMSVER`] is derived from it; a test checks PMSIDR against it.
pub const FEATURES: &[Feature] = {
    use crate::regs::pmsidr;
    &[
        feat("FEAT_SPE: sampling, filters, the profiling buffer, records", 0b0001, true),
        feat("FEAT_SPEv1p1: the ALIGNMENT event (E[11]) and its filter bits", 0b0010, true),
        Feature {
            name: "FEAT_SPEv1p1: SVE events E[17] and E[18] and their filter bits (`Options::sve_events`: preset v1p2x)",
            mandatory_from: 0b0010,
            needs_sve: true,
            implemented: false,
            pmsidr: None,
            option: Some(crate::config::option::sve_events),
        },
        feat("FEAT_SPEv1p2: discard mode (PMBLIMITR_EL1.FM = 0b10)", 0b0011, true),
        feat("FEAT_SPEv1p2: PMSIDR_EL1.Format", 0b0011, true),
        Feature {
            option: Some(crate::config::option::pmfz),
            ..feat("FEAT_SPEv1p2: PMBLIMITR_EL1.PMFZ and the `pmu_freeze` output (freeze the PMU on a buffer management event; `Options::pmfz`: preset v1p2x)", 0b0011, false)
        },
        Feature {
            option: Some(crate::config::option::feed_events),
            ..feat("FEAT_SPEv1p2: the SAMPLE_FEED_* PMU events (and SAMPLE_BUFFER_FULL; `Options::feed_events`: preset v1p2x)", 0b0011, false)
        },
        Feature {
            name: "FEAT_SPEv1p4's events: E[19] L2D access, E[20] L2D miss, E[21] cache data modified, E[22] recently fetched, E[23] data snooped, and their filter bits (each optional in SPEv1p4; `Options::v1p4_events`: preset v1p4)",
            mandatory_from: 0,
            needs_sve: false,
            implemented: false,
            pmsidr: None,
            option: Some(crate::config::option::v1p4_events),
        },
        Feature {
            option: Some(crate::config::option::v1p3),
            ..feat("FEAT_SPEv1p3: PMBIDR_EL1.EA not 0 (external aborts on buffer writes ignored) and F = 1; the MOPS and MTE op types (recorded as the core reports them in every unit; `Options::v1p3`: preset v1p4)", 0b0100, false)
        },
        feat("FEAT_SPEv1p4: events 2, 4 and 8..10 filterable (every unit filters them)", 0b0101, true),
        Feature {
            option: Some(crate::config::option::exc),
            ..feat("FEAT_SPEv1p5: FEAT_SPE_EXC, buffer management events as SPE Profiling exceptions (PMBSR_EL2/EL3, PMSCR_ELx.EE/KE, MDCR_EL3.PMSEE; `Options::exc`: preset v1p5)", 0b0110, false)
        },
        Feature {
            option: Some(crate::config::option::nvm),
            ..feat("FEAT_SPEv1p5: FEAT_SPE_nVM, the physical address mode of the buffer (PMBLIMITR_EL1.nVM, PMSCR_EL2.EnVM, PMBMAR_EL1, PMBIDR_EL1.AddrMode; `Options::nvm`: preset v1p5)", 0b0110, false)
        },
        Feature {
            name: "FEAT_SPE_FnE: the inverted event filter (PMSNEVFR_EL1, PMSFCR_EL1.FnE) and E[6] in the event filters (implemented exactly when FEAT_SPEv1p2 is, A2.2.8; `Options::fne`: presets v1p2x, v1p4)",
            mandatory_from: 0b0011,
            needs_sve: false,
            implemented: false,
            pmsidr: Some(pmsidr::FNE),
            option: Some(crate::config::option::fne),
        },
        optional("FEAT_SPE_LDS: the Data Source packet", true, pmsidr::LDS),
        optional("Architectural-instruction population (PMSIDR_EL1.ArchInst)", ARCH_INST, pmsidr::ARCHINST),
        Feature {
            option: Some(crate::config::option::ernd),
            ..optional("FEAT_SPE_ERnd: random interval in ECOUNT (`Options::ernd`: preset v1p2x)", false, pmsidr::ERND)
        },
        Feature {
            option: Some(crate::config::option::fds),
            ..optional("FEAT_SPE_FDS: filtering loads by data source (PMSFCR_EL1.FDS, PMSDSFR_EL1; `Options::fds`: preset v1p4)", false, pmsidr::FDS)
        },
        Feature {
            option: Some(crate::config::option::fpf),
            ..optional("FEAT_SPE_FPF: the FP and SIMD flags of a class-Other Operation Type (`Options::fpf`: preset v1p4)", false, pmsidr::FPF)
        },
        Feature {
            option: Some(crate::config::option::crr),
            ..optional("FEAT_SPE_CRR: call, return and other branches in the branch Operation Type (CR), with GCS for a call or return (`Options::crr`: preset v1p4)", false, pmsidr::CRR)
        },
        Feature {
            option: Some(crate::config::option::eft),
            ..optional("FEAT_SPE_EFT: the FP and SIMD type filters and the TYPEm masks (the AND and OR terms of J1 SPEFilterByType; `Options::eft`: preset v1p4)", false, pmsidr::EFT)
        },
        Feature {
            option: Some(crate::config::option::sme),
            ..optional("FEAT_SPE_SME: the events E[24] (Streaming SVE mode) and E[25] (SME compute unit), their filter bits, and the SME array Operation Type and EVL 0b111 (for a core with SME; `Options::sme`: preset v1p4)", false, pmsidr::SME)
        },
        Feature {
            option: Some(crate::config::option::pbt),
            ..optional("FEAT_SPE_PBT: the previous-branch-target Address packet (index 4; `Options::pbt`: preset v1p2x)", false, pmsidr::PBT)
        },
    ]
};

/// The highest ID_AA64DFR0_EL1.PMSVer whose mandatory features this unit all implements, for
/// a PE without SVE or SME (`sve`: with them).
pub const fn implemented_pmsver(sve: bool) -> u8 {
    let mut v = 0b0001;
    loop {
        let next = v + 1;
        let mut i = 0;
        while i < FEATURES.len() {
            let f = &FEATURES[i];
            if f.mandatory_from == next && (sve || !f.needs_sve) && !f.implemented {
                return v;
            }
            i += 1;
        }
        v = next;
        if v == LATEST_PMSVER {
            return v;
        }
    }
}

/// The highest ID_AA64DFR0_EL1.PMSVer whose features [`FEATURES`] lists (FEAT_SPEv1p5): a
/// unit that builds all of them is that version, not a later one the list does not know.
pub const LATEST_PMSVER: u8 = 0b0110;

/// The highest ID_AA64DFR0_EL1.PMSVer whose mandatory features a unit of `cfg` all builds,
/// for a PE without SVE or SME (`sve`: with them): [`implemented_pmsver`] with the options
/// `cfg` selects. What the integrating core advertises for that unit.
pub fn pmsver_of(cfg: &crate::Config, sve: bool) -> u8 {
    let mut v = 0b0001;
    while v < LATEST_PMSVER {
        let next = v + 1;
        if FEATURES
            .iter()
            .any(|f| f.mandatory_from == next && (sve || !f.needs_sve) && !f.built_in(cfg))
        {
            return v;
        }
        v = next;
    }
    v
}

/// Architecture version the integrating core advertises in ID_AA64DFR0_EL1.PMSVer (the core
/// holds the register, not this unit) for a preset without options, on a PE without SVE or
/// SME: SPEv1p1. SPEv1p2 would claim PMBLIMITR.PMFZ, the SAMPLE_FEED_* events and the
/// inverted event filter (FEAT_SPE_FnE), which only the options build (preset `v1p2x`:
/// [`pmsver_of`]); discard mode is there all the same (Linux uses it only from SPEv1p2). A
/// PE with SVE or SME advertises [`PMSVER_WITH_SVE`].
pub const PMSVER: u8 = implemented_pmsver(false);
/// PMSVer for a PE with SVE or SME: FEAT_SPE only (E[17]/E[18] are missing).
pub const PMSVER_WITH_SVE: u8 = implemented_pmsver(true);

/// Pseudo-random jitter source: a 16-bit Galois LFSR (right shift; when the bit shifted
/// out is 1 the state is XORed with [`LFSR_TAPS`]). Polynomial x^16+x^14+x^13+x^11+1,
/// maximal length (65535 states). It steps once every clock cycle outside reset, starting
/// from [`LFSR_SEED`] after reset; a reload with PMSIRR.RND=1 takes the low 8 bits.
pub const LFSR_BITS: u32 = 16;
pub const LFSR_TAPS: u16 = 0xB400;
pub const LFSR_SEED: u16 = 0xACE1;

/// Steps between two hardware threads' seeds: thread `t` starts `t` times this far along
/// the one maximal-length sequence, so no two threads' jitter is in phase.
pub const LFSR_THREAD_STRIDE: u32 = 65536 / crate::config::MAX_THREADS as u32;

/// Each hardware thread's jitter seed (docs/smt.md); thread 0's is [`LFSR_SEED`].
pub const LFSR_SEEDS: [u16; crate::config::MAX_THREADS] = lfsr_seeds();

const fn lfsr_seeds() -> [u16; crate::config::MAX_THREADS] {
    let mut s = [LFSR_SEED; crate::config::MAX_THREADS];
    let mut t = 1;
    while t < s.len() {
        let mut v = s[t - 1];
        let mut k = 0;
        while k < LFSR_THREAD_STRIDE {
            v = lfsr_step(v);
            k += 1;
        }
        s[t] = v;
        t += 1;
    }
    s
}

/// One LFSR step.
pub const fn lfsr_step(s: u16) -> u16 {
    let out = s & 1;
    let shifted = s >> 1;
    if out != 0 {
        shifted ^ LFSR_TAPS
    } else {
        shifted
    }
}

/// One packet's fixed place in the record slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    pub name: &'static str,
    /// Byte offset of the header in the record slot.
    pub offset: usize,
    /// Header plus payload bytes.
    pub len: usize,
    /// When the packet is present; when absent its bytes are Padding (0x00).
    pub when: &'static str,
}

/// Packet order and placement (IMPLEMENTATION DEFINED): every packet has a **fixed offset**
/// in the record slot; a packet that is not collected leaves its bytes as Padding (0x00),
/// which the architecture allows between packets. This makes the serializer a fixed wiring
/// of fields to bytes. The record ends with Timestamp (TS collected) or End, never both,
/// followed by padding to the slot end.
///
/// The 64-byte slot shares two places: a branch's target or a load/store's data VA, and
/// the data PA or FEAT_SPE_PBT's previous-branch target. A unit that records the Guarded
/// Control Stack ([`crate::Config::long_records`]) has 128-byte slots, in which a call or
/// return with a GCS access carries both a target and a data address (D17.6.3: "The
/// information for both the branch and the load or store is collected"): bytes 0..54 as in
/// the 64-byte slot but with the target and the previous-branch target alone in the shared
/// places, then the data VA at byte 64, the data PA at 80 and Timestamp / End at 96, each
/// at the start of a 64-bit beat.
pub mod layout {
    use super::Slot;
    use crate::packet;
    pub const CONTEXT_EL1: Slot = Slot {
        name: "Context EL1",
        offset: 0,
        len: 1 + packet::CONTEXT_PAYLOAD,
        when: "PMSCR_EL1.CX, the sample not at EL2 and not under HCR_EL2.TGE = 1 (J1 CollectContextIDR1)",
    };
    pub const CONTEXT_EL2: Slot = Slot {
        name: "Context EL2",
        offset: 5,
        len: 1 + packet::CONTEXT_PAYLOAD,
        when: "PMSCR_EL2.CX with EL2 enabled (`el2_en`; J1 CollectContextIDR2)",
    };
    pub const LAT_TOTAL: Slot = Slot {
        name: "Counter TOT",
        offset: 10,
        len: 1 + packet::COUNTER_PAYLOAD,
        when: "always",
    };
    pub const LAT_ISSUE: Slot = Slot {
        name: "Counter ISSUE",
        offset: 13,
        len: 1 + packet::COUNTER_PAYLOAD,
        when: "always",
    };
    pub const LAT_XLAT: Slot = Slot {
        name: "Counter XLAT",
        offset: 16,
        len: 1 + packet::COUNTER_PAYLOAD,
        when: "translation started and done",
    };
    pub const PC: Slot = Slot {
        name: "Address PC",
        offset: 19,
        len: 1 + packet::ADDRESS_PAYLOAD,
        when: "always",
    };
    pub const TGT_OR_VA: Slot = Slot {
        name: "Address TGT / VA",
        offset: 28,
        len: 1 + packet::ADDRESS_PAYLOAD,
        when: "TGT: branch resolved; VA: translation started (a record never has both)",
    };
    pub const PA: Slot = Slot {
        name: "Address PA / PBT",
        offset: 37,
        len: 1 + packet::ADDRESS_PAYLOAD,
        when: "PA: translation done and PA collection enabled; PBT (FEAT_SPE_PBT): a taken branch resolved with `pbt_valid` (a record never has both: translation reports count for loads and stores only)",
    };
    pub const DATA_SOURCE: Slot = Slot {
        name: "Data Source",
        offset: 46,
        len: 1 + super::DATA_SOURCE_PAYLOAD,
        when: "load and memory access done",
    };
    pub const OP_TYPE: Slot = Slot {
        name: "Operation Type",
        offset: 48,
        len: 1 + packet::OP_TYPE_PAYLOAD,
        when: "always",
    };
    /// The Events packet with the 2-byte payload ([`events`] gives a unit's).
    pub const EVENTS: Slot = Slot {
        name: "Events",
        offset: 50,
        len: 1 + super::EVENTS_PAYLOAD,
        when: "always",
    };
    /// Timestamp or End after a 2-byte Events payload ([`end_or_ts`] gives a unit's).
    pub const END_OR_TS: Slot = Slot {
        name: "Timestamp / End",
        offset: 53,
        len: 1 + packet::TIMESTAMP_PAYLOAD,
        when: "Timestamp when TS collected, else End (1 byte)",
    };
    /// The Events slot of a unit of `cfg`: its payload is 2 or 4 bytes
    /// ([`super::events_payload`]).
    pub fn events(cfg: &crate::Config) -> Slot {
        Slot {
            len: 1 + super::events_payload(cfg),
            ..EVENTS
        }
    }
    /// The Timestamp / End slot of a unit of `cfg`: right after its Events packet, or at
    /// byte 96 of a 128-byte slot.
    pub fn end_or_ts(cfg: &crate::Config) -> Slot {
        if cfg.long_records() {
            return LONG_END_OR_TS;
        }
        let ev = events(cfg);
        Slot {
            offset: ev.offset + ev.len,
            ..END_OR_TS
        }
    }
    /// Where a unit of `cfg` puts the data VA: the shared slot, or its own in a 128-byte
    /// slot.
    pub fn va(cfg: &crate::Config) -> Slot {
        if cfg.long_records() {
            LONG_VA
        } else {
            TGT_OR_VA
        }
    }
    /// Where a unit of `cfg` puts the data PA.
    pub fn pa(cfg: &crate::Config) -> Slot {
        if cfg.long_records() {
            LONG_PA
        } else {
            PA
        }
    }
    /// Every slot of a unit of `cfg`, in record order ([`ALL`] with its Events payload, or
    /// [`LONG`]'s places for a 128-byte slot).
    pub fn all(cfg: &crate::Config) -> Vec<Slot> {
        let base = if cfg.long_records() { LONG } else { ALL };
        base.iter()
            .map(|s| match s.name {
                n if n == EVENTS.name => events(cfg),
                n if n == END_OR_TS.name => end_or_ts(cfg),
                _ => *s,
            })
            .collect()
    }
    /// The 128-byte slot's own places (bytes 0..54 as in [`ALL`], the shared places for
    /// one packet each).
    pub const LONG_TGT: Slot = Slot {
        name: "Address TGT",
        offset: TGT_OR_VA.offset,
        len: TGT_OR_VA.len,
        when: "branch resolved",
    };
    pub const LONG_PBT: Slot = Slot {
        name: "Address PBT",
        offset: PA.offset,
        len: PA.len,
        when: "FEAT_SPE_PBT: a taken branch resolved with `pbt_valid`",
    };
    pub const LONG_VA: Slot = Slot {
        name: "Address VA",
        offset: 64,
        len: 1 + packet::ADDRESS_PAYLOAD,
        when: "translation started: a load or store, or a call or return with a Guarded Control Stack access (D17.6.3)",
    };
    pub const LONG_PA: Slot = Slot {
        name: "Address PA",
        offset: 80,
        len: 1 + packet::ADDRESS_PAYLOAD,
        when: "translation done and PA collection enabled",
    };
    pub const LONG_END_OR_TS: Slot = Slot {
        offset: 96,
        ..END_OR_TS
    };
    pub const LONG: &[Slot] = &[
        CONTEXT_EL1,
        CONTEXT_EL2,
        LAT_TOTAL,
        LAT_ISSUE,
        LAT_XLAT,
        PC,
        LONG_TGT,
        LONG_PBT,
        DATA_SOURCE,
        OP_TYPE,
        EVENTS,
        LONG_VA,
        LONG_PA,
        LONG_END_OR_TS,
    ];
    pub const ALL: &[Slot] = &[
        CONTEXT_EL1,
        CONTEXT_EL2,
        LAT_TOTAL,
        LAT_ISSUE,
        LAT_XLAT,
        PC,
        TGT_OR_VA,
        PA,
        DATA_SOURCE,
        OP_TYPE,
        EVENTS,
        END_OR_TS,
    ];
}

/// "Common" data-source encoding that perf decodes for Neoverse-class MIDRs (reference
/// §7.4). The unit passes the core's 8-bit code through unchanged; the stimulus uses these.
pub mod data_source {
    pub const L1D: u8 = 0x0;
    pub const L2: u8 = 0x8;
    pub const PEER_CORE: u8 = 0x9;
    pub const LOCAL_CLUSTER: u8 = 0xa;
    pub const SYSTEM_CACHE: u8 = 0xb;
    pub const PEER_CLUSTER: u8 = 0xc;
    pub const REMOTE: u8 = 0xd;
    pub const DRAM: u8 = 0xe;
}

/// A documented choice: its key, the case or topic, the Arm ARM rule or section it answers,
/// and the behaviour this unit chose. The code that implements a choice carries the comment
/// `choice: KEY` in the golden model and in the RTL (an advertised ID value, in `hdl/defs`
/// where the value is made); a test checks that every such tag names a row and that every
/// row is tagged.
#[derive(Clone, Copy, Debug)]
pub struct Choice {
    pub key: &'static str,
    pub topic: &'static str,
    pub rule: &'static str,
    pub behaviour: &'static str,
}

/// Implementation-defined choices, for the generated docs.
pub const CHOICES: &[Choice] = &[
    Choice {
        key: "population",
        topic: "Sample population",
        rule: "PMSIDR_EL1.ArchInst; J1 SPEToCollectSample, StatisticalProfilingEnabled",
        behaviour: "Dispatched (speculative) micro-ops, counted in slot order within a dispatch group (PMSIDR.ArchInst = 0). Ops in AArch32 state, at EL3, at an EL whose enable is clear (EL0 under HCR_EL2.TGE = 1 uses PMSCR_EL2.E0HSPE), at an EL the owning EL excludes (above the owner, or anywhere under TGE = 1 when EL1 owns the buffer: J1 StatisticalProfilingEnabled), with `prof_allowed` low, or while profiling is stopped (PMBLIMITR.E = 0 or PMBSR.S = 1) are not in the population.",
    },
    Choice {
        key: "jitter",
        topic: "Random perturbation",
        rule: "D17.3.4.3 (random perturbation), PMSIRR_EL1.RND, PMSIDR_EL1.ERnd; J1 SPEResetSampleCounter",
        behaviour: "PMSIRR.RND = 1 replaces the low 8 bits of the reload value with the low 8 bits of a 16-bit Galois LFSR (taps 0xB400, seed 0xACE1 after reset) that steps every cycle. FEAT_SPE_ERnd (`Options::ernd`, preset v1p2x: PMSIDR.ERnd = 1; the other presets do not build it): the reload's low byte is 0, and the op that brings COUNT to zero with RND = 1 loads PMSICR.ECOUNT with the LFSR's low byte; it is sampled if that is 0, else the population op that brings ECOUNT to zero is (J1 SPEToCollectSample). At most one op per dispatch group is selected: a second selection, possible only after software writes PMSICR with COUNT and ECOUNT both small, is dropped without a collision.",
    },
    Choice {
        key: "prev-branch",
        topic: "Previous-branch target (FEAT_SPE_PBT)",
        rule: "D17.6.3.1; J1 SPEBranch, SPEConstructRecord (IMPLEMENTATION DEFINED \"SPE get prev br if not br\", \"SPE prev br on eret\", \"on exception\", \"on isb\")",
        behaviour: "Preset v1p2x (`Options::pbt`; PMSIDR.PBT = 1). The core keeps J1's previous-branch-target register (SPESamplePreviousBranchAddress and its valid flag) and reports it with the sampled branch (`pbt_target`, `pbt_valid` with `br_done`), so the ERET, exception and ISB choices are the core's. The unit records it, as Address packet index 4 in the PA slot, when the sampled op is a branch whose report says taken and `pbt_valid` is high and that retired (D17.6.3.1: not recorded while \"the sampled operation is still speculative\", so a flushed branch has none); never for another op (\"get prev br if not br\" is FALSE). Bits 60:56 are recorded as 0 (no Realm state: NSE = 0).",
    },
    Choice {
        key: "fne-v1p2",
        topic: "The inverted event filter and the SPE version",
        rule: "A2.2.8 (\"If FEAT_SPE_FnE is implemented, then FEAT_SPEv1p2 is implemented\" and \"If FEAT_SPEv1p2 is implemented, then FEAT_SPE_FnE is implemented\"); D24.7.14 PMSIDR_EL1.FnE; D24.7.17 PMSNEVFR_EL1 (\"present only when FEAT_SPE_FnE is implemented\"); D24.7.11 PMSEVFR_EL1.E[6] (\"When FEAT_SPE_FnE is implemented ... Otherwise: Reserved, RAZ/WI\"); J1 SPEFilterByEvents (`mask<6>` only with FEAT_SPE_FnE)",
        behaviour: "A unit builds the inverted event filter exactly when it builds the rest of SPEv1p2 (`Options::fne` beside PMFZ and the SAMPLE_FEED_* events: presets v1p2x and v1p4). The presets without them advertise SPEv1p1 and PMSIDR.FnE = 0: PMSFCR.FnE and E[6] of PMSEVFR are RES0 (RAZ/WI), PMSNEVFR reads as zero and ignores writes at the register port (the core, which decodes MRS and MSR, makes those accesses UNDEFINED), and the filters never look at Not taken; the Events packet still records E[6] (D18.2.6 has no condition on it). Earlier units set FnE in every preset, which claims SPEv1p2 in a SPEv1p1 unit (review N4). The other way out, building PMFZ and the feed events into every preset, was not taken: it adds outputs and logic to every preset for a PMU feature (PMUv3p7) a small core may not have.",
    },
    Choice {
        key: "eft-simd",
        topic: "FP and SIMD for FEAT_SPE_EFT's type filter",
        rule: "D17.5.1 (SIMD: \"Advanced SIMD, SVE, or SME SIMD data-processing operations ... Scalar load/store of a SIMD&FP Q register or pair of Q registers. SVE or SME load/store\"; FP: floating-point data processing and scalar SIMD&FP loads/stores \"excluding loads/stores of Q registers\"), D24.7.12 PMSFCR_EL1.SIMD (\"all Advanced SIMD, SVE, and SME SIMD operations\"); J1 SPESampleOpSVEOther and SPESampleOpSVESMELoadStore (which leave is_simd FALSE), SPESampleSIMDFPLoadStore",
        behaviour: "Where the rule text and J1 disagree, the unit follows the text, which both D17.5.1 and PMSFCR_EL1.SIMD state: an SVE vector op (class Other, `0 EVL 1 PRED FP 0`) is SIMD, and floating-point when its FP flag is set; an SVE or SME load/store is SIMD, not floating-point; class Other's own FP and SIMD flags as reported; a SIMD&FP load/store by its memory report's `mem_fp_scalar` (high: floating-point, for a B/H/S/D register or a pair of them; low: SIMD, for a Q register, a pair of Q registers, a structure or a load-and-replicate). J1's SVE functions never set is_simd, so a SIMD filter under J1 would drop every SVE sample, against both prose rules.",
    },
    Choice {
        key: "sme-reserved",
        topic: "Operation Type encodings of FEAT_SPE_SME",
        rule: "D18.2.7 (SME array: \"defined only if FEAT_SPE_SME is implemented, and reserved otherwise\"; EVL 0b111 likewise); J1 SPEEncodeEVL",
        behaviour: "A unit without FEAT_SPE_SME (`Options::sme`; PMSIDR.SME = 0: every preset but v1p4 and smt2_v1p4) never records an encoding reserved without it: an op the core reports as an SME array op (class Other, payload 0b1xxx1xx0) is recorded like the reserved class 3, as Other with payload 0, and FEAT_SPE_EFT's filter sees it as neither FP nor SIMD; an EVL of 0b111 (more than 2048 bits) in an SVE vector op or an SVE/SME load/store is recorded as 0b110, the largest EVL without FEAT_SPE_SME. The SVE events E[17]/E[18] still describe such an op's predicate. This departs from D17.5.1, which counts SME SIMD data processing as SIMD (choice eft-simd): the unit cannot tell an SME op from a core's wrong report once the encoding is reserved, and the review (N7) asked that it not count as SIMD. A unit with FEAT_SPE_SME records both as the core reports them (the ETS and the EVL whole), and its type filter takes an SME array op as SIMD, and FP by its FP flag (J1 SPESampleOpSMEArrayOther)",
    },
    Choice {
        key: "nv2-address",
        topic: "NV2 accesses' addresses",
        rule: "D17.6.4.2 (\"If Statistical Profiling is disabled at EL2, the virtual address for the memory access is not recorded\"), D17.6.4; J1 SPEConstructRecord, StatisticalProfilingEnabled",
        behaviour: "An NV2 access (load/store subclass 0x30/0x31: an MRS or MSR at EL1 turned into an access to the VNCR_EL2 page) has no data VA packet, and so no data PA packet, unless profiling is enabled at EL2 in the op's tag cycle: EL2 owns the buffer (EL2 enabled, MDCR_EL2.E2PB = 00) and PMSCR_EL2.E2SPE = 1. Under an EL1-owned buffer a guest hypervisor never sees the VNCR page's addresses.",
    },
    Choice {
        key: "crr",
        topic: "Branch call/return type (FEAT_SPE_CRR)",
        rule: "D18.2.7 (Operation Type, class Branch: CR, GCS); J1 SPEConstructClass",
        behaviour: "Preset v1p4 (`Options::crr`; PMSIDR.CRR = 1). The core reports the branch's kind in `disp_subclass` bits 4:3 as the packet encodes it (01 branch with link, 10 procedure return, 11 other); CR = 00, which the architecture does not give a branch with CRR, is recorded as 11 (J1: neither a link nor a return is 11). GCS (bit 2) is kept for a call or a return and cleared for any other branch (J1 sets it only with has_link or procedure_return). A call or a return recorded with GCS is also a store or a load (it pushes or pops the Guarded Control Stack) for the type filter and SAMPLE_FEED_ST/LD (D17.6.3: \"treated as both a branch and a load or store for the purposes of filtering\"; J1 SPEFilterByType's is_gcs_ldst); the GCS access's address, translation and memory reports are not taken (docs/conformance.md, N1). Without the option CR and GCS are recorded as 0 (D18.2.7: \"the only permitted value is 0b00\").",
    },
    Choice {
        key: "min-interval",
        topic: "Recommended minimum interval",
        rule: "PMSIDR_EL1.Interval (D24.7)",
        behaviour: "PMSIDR.Interval per preset (0b0100 = 1024 by default).",
    },
    Choice {
        key: "in-flight",
        topic: "What is \"in flight\"",
        rule: "J1 SPEStartSample, SPESampleCollision (one sample in flight)",
        behaviour: "From the cycle after the tag until the record's last beat is accepted by memory, or the record is dropped by the filters, discard mode, a stopped buffer or the room check. A sample selected while one is in flight is a collision.",
    },
    Choice {
        key: "latency-counters",
        topic: "Latency counters",
        rule: "Counter packets, indexes 0-2 (D18.2); J1 SPECompleteSample",
        behaviour: "Total: cycles from the tag cycle to the completion report. Issue: to the issue report, or to completion if the op never issued. Translation: from the translation-start report to the translation-done report. All saturate at the counter width (12 or 16 bits, PMSIDR.CountSize).",
    },
    Choice {
        key: "timestamp-context",
        topic: "Timestamp and context",
        rule: "J1 CollectTimeStamp, CollectContextIDR1, CollectContextIDR2",
        behaviour: "Decided in the tag cycle, by the owning EL and not by the sample's EL: TS is the owner's PMSCR.TS; PA is PMSCR_EL2.PA and, under an EL1 owner, PMSCR_EL1.PA too (PMSCR_EL1.PA alone without EL2); the counter is chosen by PMSCR_EL2.PCT (00: virtual, or physical in the host; 01: physical under an EL2 owner, else PMSCR_EL1.PCT decides; 11: offset physical unless the owner is EL1 and PMSCR_EL1.PCT = 00), then PMSCR_EL1.PCT, as J1 CollectTimeStamp does; CONTEXTIDR_EL1 unless at EL2 or under TGE = 1, CONTEXTIDR_EL2 only with EL2 enabled. The counter and the context inputs are captured in the tag cycle.",
    },
    Choice {
        key: "record-slot",
        topic: "Record slot and packet order",
        rule: "PMSIDR_EL1.MaxSize, PMBIDR_EL1.Align; J1 SPECompleteSample (packet order)",
        behaviour: "64-byte records (PMSIDR.MaxSize = 6, PMBIDR.Align = 6), or 128-byte records in a unit with FEAT_SPE_CRR (presets v1p4, v1p5, smt2_v1p4: MaxSize = 7, Align = 7), which records the Guarded Control Stack: a call or return with a GCS access has both a branch target and the access's data VA and PA (D17.6.3), which the 64-byte layout's shared places cannot hold. Each packet at a fixed offset, absent packets left as Padding (see the record layouts). The cost: every record of such a unit takes 128 bytes of buffer and sixteen beats; a variable-size record (64 bytes unless the op is a call or return with GCS) would halve that, at the price of a size known only at the record's end in every tool that walks a buffer.",
    },
    Choice {
        key: "external-abort",
        topic: "External abort on a buffer write",
        rule: "PMBIDR_EL1.EA (D24.7.1; from Armv8.8 EA = 0 is not permitted); PMBSR_EL1.EA",
        behaviour: "PMBIDR.EA = 0 (not described): a beat answered with `wr_err` of kind external (or the reserved kind 11) stops the record with PMBSR.EA and DL as a fault. With `Options::v1p3` (preset v1p4) EA = 1: the PE ignores it, and the unit takes the beat as written and goes on; stage 1 and 2 faults (including external aborts on a walk) are reported as always. PMBIDR.F = 1 there.",
    },
    Choice {
        key: "nvm",
        topic: "Physical address mode of the buffer (FEAT_SPE_nVM)",
        rule: "D17.7.2, D24.7.1 (PMBIDR_EL1.AddrMode), D24.7.2 (PMBLIMITR_EL1.nVM), D24.7.3 (PMBMAR_EL1), D24.7.8/9 (PMSCR_ELx.EnVM); J1 EffectivePMBLIMITR_EL1_nVM",
        behaviour: "With `Options::nvm` (preset v1p5): nVM, EnVM and PMBMAR are stored and read back; the Effective nVM (nVM, unless EL2 is enabled, EL1 owns the buffer and EnVM is 0) and the owner in a record's grant cycle give its beats' `wr_addr_space`: 01 IPA under an EL1 owner with EL2 enabled, 10 PA otherwise, with PMBMAR's SH and Attr on `wr_mem_attr`; 00 (a VA) and zero attributes without it. The core translates (stage 2 only for an IPA; none for a PA) and reports faults as today: an Address Size or Alignment fault of the physical mode is a stage-1 fault (kind 01) with its FSC. PMBIDR.AddrMode reads 01 while EnVM is effectively 1, 00 otherwise (the unit's P is 0, see buffer-owner). PMSCR_EL1.EnVM (bit 11) is RES0: the Arm ARM reserves it for software only on a PE with FEAT_NV.",
    },
    Choice {
        key: "exc",
        topic: "Buffer management events as exceptions (FEAT_SPE_EXC)",
        rule: "D17.8 (RHJXHT, Tables D17-5..7), D24.7.6-9, D24.3 (MDCR_EL3.PMSEE); J1 ReportSPEEvent, OtherSPEManagementEvent, SPESampleCollision, SPEProfilingStopped, EffectivePMSCR_EL1_EE, EffectivePMSCR_EL2_EE, CheckForSPEException, SPEInterruptEnabled",
        behaviour: "With `Options::exc` (preset v1p5): each management event (buffer full, a write fault) and COLL go to the PMBSR bank J1 ReportSPEEvent picks from `mdcr_pmsee`, PMSCR_EL2.EE, the owner, the fault's stage and FSC (a synchronous external abort with `scr_ea` / `hcr_tea`); the other banks are unchanged. No FEAT_RME: no GPC fault or GPF routing. Profiling is stopped while PMBSR_EL1.S, PMBSR_EL2.S (PMSCR_EL2.EE effectively 1x) or PMBSR_EL3.S (PMSEE 1x) is set; PMBIRQ is PMBSR_EL1.S while PMSCR_EL1.EE is effectively 00; `exc_el1/2/3` are each bank's pending exception and `exc_ke1/2` the KE masks: the core takes it (D17.8: asynchronous, EC 0x3D) when unmasked. PMSCR_EL1.EE = 01 or 10 (FEAT_NV's values) is used as 00, the Arm ARM's Constraint_DISABLED. PMBSR_EL3 sits at port address 27 ({1, 1, 3}: `regs::port_addr`).",
    },
    Choice {
        key: "events-payload",
        topic: "Events payload",
        rule: "D18.2.6 (Events packet)",
        behaviour: "2 bytes (header 0x52); events 0..11 implemented. A unit with events above bit 15 (`Options::sve_events`: E[17], E[18]; `Options::v1p4_events`: E[19]..E[23], loads only; `Options::sme`: E[24], E[25]) has a 4-byte payload (header 0x62) in every record, and its Timestamp / End moves two bytes later (bytes 55..63).",
    },
    Choice {
        key: "data-source",
        topic: "Data Source payload",
        rule: "PMSIDR_EL1.LDS; Data Source packet (D18.2)",
        behaviour: "1 byte (header 0x43), the core's data-source code passed through; loads only (PMSIDR.LDS = 1).",
    },
    Choice {
        key: "hook-reports",
        topic: "Hook reports",
        rule: "J1 SPEStartSample, SPECompleteSample (what the PE reports for the sampled op)",
        behaviour: "Accepted only while a sample is tracked (from the cycle after the tag to completion). Translation and memory reports apply to load/store ops and, with FEAT_SPE_CRR, to a call or return with GCS (its Guarded Control Stack access, D17.6.3), branch reports to branches; any other report is ignored and pulses `hook_stray`.",
    },
    Choice {
        key: "completion-timeout",
        topic: "A sampled op that never completes",
        rule: "J1 SPEStartSample, SPECompleteSample (a record is made when the sampled operation completes; the architecture has no bound)",
        behaviour: "Dropped, without a record, 2^k cycles after its tag when its completion report has not come (k = `Config::cpl_timeout_log2`: 20, or 14 for `fastsim`); `sample_timeout` pulses. A later selection is then sampled again instead of colliding for ever.",
    },
    Choice {
        key: "buffer-owner",
        topic: "Buffer ownership",
        rule: "D17.7.5 (RTDHBH), MDCR_EL2.E2PB, PMBIDR_EL1.P; J1 ProfilingBufferOwner",
        behaviour: "The owner is EL2 when `el2_en` is high and `mdcr_e2pb` = 00, otherwise EL1; the core drives MDCR_EL2.E2PB, HCR_EL2.TGE/E2H and whether EL2 is enabled, and traps register accesses as E2PB says. PMBIDR.P reads 0: a core that lets a lower EL read PMBIDR_EL1 while a higher EL owns the buffer returns P = 1 itself.",
    },
    Choice {
        key: "e2spe-el1-owner",
        topic: "PMSCR_EL2.E2SPE and E0HSPE under an EL1 owner",
        rule: "D24.7.9 PMSCR_EL2 (E2SPE, E0HSPE: RES0 when MDCR_EL2.E2PB != 00); J1 StatisticalProfilingEnabled",
        behaviour: "Stored and read back as written, with no effect while EL1 owns the buffer: nothing at EL2, or at EL0 under TGE = 1, is sampled then.",
    },
    Choice {
        key: "write-timing",
        topic: "Record write timing",
        rule: "D17.8.2 (buffer full); J1 SPEBufferIsFull, SPEWriteToBuffer",
        behaviour: "A kept record takes PMBPTR (aligned down) and the limit in its filter cycle (the SAMPLE_FEED pulse); the next cycle checks the room (no room: buffer full with DL, raised at that cycle's edge, nothing written); the first beat is offered the cycle after. The buffer-full check after the last beat uses the limit taken with the record: a PMBLIMITR write while a record is written applies from the next record. PMBPTR advances, and buffer full after a record is raised, at the last beat's handshake. A buffer-full event sets S, EC and BSC and leaves COLL, DL and EA as they were (Arm ARM D17.8.2); only the no-room case sets DL.",
    },
    Choice {
        key: "write-port",
        topic: "Memory write port",
        rule: "D17.8.3, D17.8.4 (faults on buffer writes); J1 SPEWriteToBuffer",
        behaviour: "64-bit beats, eight per record, sixteen with 128-byte slots (fewer when a fault or PMBSR.S ends it: `stopped-write`), in increasing address order, all byte enables set. A beat offered stays offered, unchanged, until it completes: when `wr_valid && wr_ready`; `wr_err` in that cycle reports a fault on that beat, of the kind `wr_err_kind` gives (external abort, stage-1 or stage-2 MMU fault with `wr_err_fsc`).",
    },
    Choice {
        key: "stopped-write",
        topic: "PMBSR.S set by software while a record is written",
        rule: "J1 SPEWriteToBuffer, SPEProfilingStopped (no byte written while PMBSR.S = 1); D17.8.2, D17.8.3, J1 OtherSPEManagementEvent (an event only \"if PMBSR_ELx.S is 0\")",
        behaviour: "A record whose thread has PMBSR.S = 1 writes no further beat: in its check cycle it is dropped (no management event); between beats no new beat is offered and the record ends, with PMBPTR at the first beat not written (unchanged when none was). A beat already offered when S rises stays offered until it is taken (the port's valid/ready rule), then the record ends, with PMBPTR past it (at it when it faulted): the unit offered it before S rose. Nothing changes PMBSR: no buffer-full event after such a last beat, no fault syndrome for an error on it. A kept record still waiting for the writer (SMT) is dropped while S = 1, as while the buffer is disabled.",
    },
    Choice {
        key: "psb-csync",
        topic: "Profiling synchronization (PSB CSYNC)",
        rule: "D17.9 (synchronization: PSB CSYNC, RTRDTK, IMLGHW), D17.4 (discarded records)",
        behaviour: "The core raises `psb_req` when it executes PSB CSYNC, after the completion reports of the ops older than the PSB (a core that executes PSB at commit has sent them), and holds it until `psb_done`. While `psb_req` is high a sample still being tracked is dropped at the edge (its op is younger than the PSB, or its report was lost; no record, no SAMPLE_FEED; its later reports are stray); a record in its filter, check or write cycles goes on, so `psb_done` rises the cycle after its last beat (or after its filter or check cycle when it is not written): at most 10 + B cycles (18 + B with 128-byte slots), B the cycles `wr_ready` is low for its beats. From `psb_done` on, PMBPTR is the address after the last whole record (or, when a fault or PMBSR.S set by software ended a record early, the address where writing stopped), and the unit writes no memory and no PMBPTR / PMBSR for an op tagged before it (Arm ARM D17.4, D17.9): software's stop sequence (PMSCR = 0, PSB, DSB, PMBLIMITR = 0, read PMBPTR) sees exactly the records written.",
    },
    Choice {
        key: "security-state",
        topic: "Security state",
        rule: "D18.2.1 (NS, NSE in Address packets)",
        behaviour: "Secure or Non-secure (`disp_ns`); Realm (NSE) is not implemented and NSE is recorded as 0.",
    },
];

/// CONSTRAINED UNPREDICTABLE cases and the one behaviour this unit defines for each.
pub const CONSTRAINED: &[Choice] = &[
    Choice {
        key: "interval-zero",
        topic: "PMSIRR.INTERVAL = 0 (the interval is UNKNOWN, Arm ARM D24.7.15)",
        rule: "D24.7.15 PMSIRR_EL1.INTERVAL; J1 SPEResetSampleCounter",
        behaviour: "The reload uses INTERVAL = 1 (256 ops, plus the jitter byte when RND = 1); the register reads back 0. Any other INTERVAL, below the advertised minimum too, is used as written (J1 `SPEResetSampleCounter`).",
    },
    Choice {
        key: "ft-no-type-bit",
        topic: "PMSFCR.FT = 1 with B, LD and ST all 0",
        rule: "PMSFCR_EL1.FT (D24.7); J1 SPEFilterByType",
        behaviour: "The type filter passes every record (as if FT = 0). With FEAT_SPE_EFT (preset v1p4) the case is architected: FT with TYPE and TYPEm all 0 passes every record too (J1 `is_op` is TRUE), and TYPE 0 with a mask bit set keeps the ops without that type.",
    },
    Choice {
        key: "fl-minlat-zero",
        topic: "PMSFCR.FL = 1 with MINLAT = 0",
        rule: "PMSFCR_EL1.FL, PMSLATFR_EL1.MINLAT (D24.7); J1 SPEFilterByLatency",
        behaviour: "Every record passes (total latency >= 0).",
    },
    Choice {
        key: "fe-empty-filter",
        topic: "PMSFCR.FE = 1 with PMSEVFR = 0",
        rule: "PMSFCR_EL1.FE, PMSEVFR_EL1 (D24.7); J1 SPEFilterByEvents",
        behaviour: "Every record passes the event filter (an empty AND).",
    },
    Choice {
        key: "fe-fne-same-event",
        topic: "The same event in PMSEVFR and PMSNEVFR (FE = FnE = 1)",
        rule: "PMSNEVFR_EL1 (D24.7); J1 SPEFilterByEvents",
        behaviour: "Both filters apply: a record with the event fails FnE, one without fails FE, so every record is dropped.",
    },
    Choice {
        key: "pmbptr-unaligned",
        topic: "PMBPTR not aligned to the record slot (64 bytes; 128 with FEAT_SPE_CRR)",
        rule: "PMBPTR_EL1 alignment to PMBIDR_EL1.Align (RHLXGD)",
        behaviour: "Bits 5:0 (6:0 with 128-byte slots) are treated as zero: the record is written to the aligned-down slot and PMBPTR is aligned after it.",
    },
    Choice {
        key: "fm-reserved",
        topic: "PMBLIMITR.FM = 01 or 11 (reserved)",
        rule: "PMBLIMITR_EL1.FM (D24.7.2)",
        behaviour: "Behaves as fill mode (00).",
    },
    Choice {
        key: "pct-reserved",
        topic: "PMSCR.PCT = 10 (reserved; only writable with FEAT_ECV)",
        rule: "PMSCR_ELx.PCT (D24.7.8); J1 CollectTimeStamp (ConstrainUnpredictableBits Unpredictable_PMSCR_PCT)",
        behaviour: "Virtual timestamp (as 00). Without FEAT_ECV (`Config::feat_ecv`, every preset but `wide`) PCT bit 7 is RES0, so 10 reads back as 00 and 11 as 01. With it, PCT = 11 records the physical count: the offset physical count of a core without CNTPOFF_EL2 (ID_AA64MMFR0_EL1.ECV = 0b0001).",
    },
    Choice {
        key: "no-room",
        topic: "No room for a record at PMBPTR: its slot would end past LIMIT (PMBPTR above LIMIT - 64, or LIMIT - 128 with 128-byte slots)",
        rule: "RHXSYK (software keeps PMBPTR below LIMIT); J1 SPEBufferIsFull",
        behaviour: "Nothing is written; PMBSR gets S = 1, EC = BUF, BSC = full, DL = 1 (the record is lost).",
    },
    Choice {
        key: "op-class-3",
        topic: "Op class 3 (reserved) on the dispatch hook",
        rule: "D18.2.7 (Operation Type class 0b11 reserved)",
        behaviour: "Recorded as class Other with payload 0x00.",
    },
];

/// Sum of packet sizes never exceeds the record slot (also checked by a test).
pub const MAX_RECORD_BYTES: usize = layout::END_OR_TS.offset + layout::END_OR_TS.len;

const _: () = assert!(MAX_RECORD_BYTES <= 1 << RECORD_SIZE_LOG2);
const _: () = assert!(packet::TIMESTAMP_PAYLOAD == 8);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_slots_are_contiguous_and_fit_the_record() {
        for cfg in crate::PRESETS {
            let mut next = 0;
            for s in layout::all(cfg) {
                // Contiguous, but for the 128-byte slot's own places, each at a beat.
                let gap = cfg.long_records() && s.offset > next && s.offset % BEAT_BYTES == 0;
                assert!(
                    s.offset == next || gap,
                    "{}: {} does not follow the previous slot",
                    cfg.name,
                    s.name
                );
                next = s.offset + s.len;
            }
            assert!(next <= cfg.record_size(), "{}", cfg.name);
            assert_eq!(cfg.long_records(), cfg.options.crr, "{}", cfg.name);
            let wide = crate::events::has_high_events(cfg);
            assert_eq!(events_payload(cfg), if wide { 4 } else { 2 });
        }
        // The 4-byte payload fills the slot exactly: Events 50..54, Timestamp 55..63.
        let wide = crate::Config::preset("v1p2x").unwrap();
        assert_eq!(layout::end_or_ts(wide).offset, 55);
        assert_eq!(
            layout::end_or_ts(wide).offset + layout::end_or_ts(wide).len,
            wide.record_size()
        );
        // The 128-byte slot: the data VA, PA and Timestamp / End in the second half.
        let long = crate::Config::preset("v1p4").unwrap();
        assert_eq!(long.record_size(), 128);
        assert_eq!(layout::va(long).offset, 64);
        assert_eq!(layout::end_or_ts(long).offset, 96);
    }

    #[test]
    fn thread_seeds_are_distinct_points_of_the_sequence() {
        assert_eq!(LFSR_SEEDS[0], LFSR_SEED);
        for t in 1..LFSR_SEEDS.len() {
            let mut v = LFSR_SEEDS[t - 1];
            for _ in 0..LFSR_THREAD_STRIDE {
                v = lfsr_step(v);
            }
            assert_eq!(v, LFSR_SEEDS[t]);
            assert!(!LFSR_SEEDS[..t].contains(&v), "thread {t}'s seed repeats");
        }
    }

    #[test]
    fn lfsr_is_maximal_length() {
        let mut s = LFSR_SEED;
        let mut n = 0u32;
        loop {
            s = lfsr_step(s);
            n += 1;
            if s == LFSR_SEED {
                break;
            }
            assert_ne!(s, 0);
        }
        assert_eq!(n, 65535);
    }

    /// One thing a unit's ID and filter registers claim, and what the Arm ARM asks of the
    /// SPE version (PMSVer) for it: the feature list (A2.2, A2.3) and the register
    /// descriptions (D24.7). `claimed` reads the registers a unit presents (PMSIDR's value,
    /// the writable bits), not its options, so a preset edited to advertise a feature it
    /// does not build, or one its version does not permit, fails
    /// `every_id_register_claim_is_permitted_by_the_presets_pmsver`.
    struct Claim {
        what: &'static str,
        rule: &'static str,
        claimed: fn(&crate::Config) -> bool,
        /// Lowest PMSVer that permits the claim.
        needs: u8,
        /// PMSVer from which the claim is required (0: no version requires it).
        from: u8,
    }

    fn idr(cfg: &crate::Config, f: crate::Field) -> bool {
        f.get(crate::regs::read_only_value(
            crate::regs::RegId::Pmsidr,
            cfg,
        )) == 1
    }

    fn writable(cfg: &crate::Config, id: crate::regs::RegId, mask: u64) -> bool {
        crate::regs::reg(id).writable_mask(cfg) & mask != 0
    }

    const CLAIMS: &[Claim] = {
        use crate::events as ev;
        use crate::regs::{pmbidr, pmsfcr, pmsidr, read_only_value, RegId};
        &[
            Claim {
                what: "PMSIDR.FnE",
                rule: "A2.2.8: FEAT_SPE_FnE implies FEAT_SPEv1p2, and FEAT_SPEv1p2 implies FEAT_SPE_FnE",
                claimed: |c| idr(c, pmsidr::FNE),
                needs: 0b0011,
                from: 0b0011,
            },
            Claim {
                what: "PMSFCR.FnE writable",
                rule: "D24.7.12: PMSFCR_EL1.FnE is RES0 without FEAT_SPE_FnE",
                claimed: |c| writable(c, RegId::Pmsfcr, pmsfcr::FNE.mask()),
                needs: 0b0011,
                from: 0b0011,
            },
            Claim {
                what: "PMSNEVFR_EL1 present",
                rule: "D24.7.17: present only when FEAT_SPE_FnE is implemented",
                claimed: |c| writable(c, RegId::Pmsnevfr, u64::MAX),
                needs: 0b0011,
                from: 0b0011,
            },
            Claim {
                what: "PMSEVFR.E[6] (Not taken) writable",
                rule: "D24.7.11: E[6] is RAZ/WI without FEAT_SPE_FnE (J1 SPEFilterByEvents: mask<6>)",
                claimed: |c| writable(c, RegId::Pmsevfr, ev::bit(ev::NOT_TAKEN)),
                needs: 0b0011,
                from: 0b0011,
            },
            Claim {
                what: "PMSEVFR.E[11] (misaligned) writable",
                rule: "D24.7.11: E[11] with FEAT_SPEv1p1",
                claimed: |c| writable(c, RegId::Pmsevfr, ev::bit(ev::ALIGNMENT)),
                needs: 0b0010,
                from: 0b0010,
            },
            Claim {
                what: "PMSEVFR.E[18:17] (SVE predicates) writable",
                rule: "D24.7.11: E[18:17] with FEAT_SPEv1p1 and SVE or SME",
                claimed: |c| writable(c, RegId::Pmsevfr, ev::SVE_MASK),
                needs: 0b0010,
                from: 0,
            },
            Claim {
                what: "PMSIDR.PBT",
                rule: "A2.2.8: FEAT_SPE_PBT implies FEAT_SPEv1p2",
                claimed: |c| idr(c, pmsidr::PBT),
                needs: 0b0011,
                from: 0,
            },
            Claim {
                what: "PMSIDR.ERnd",
                rule: "A2.2.3: FEAT_SPE_ERnd implies FEAT_SPE only",
                claimed: |c| idr(c, pmsidr::ERND),
                needs: 0b0001,
                from: 0,
            },
            Claim {
                what: "PMSIDR.CRR",
                rule: "A2.2.10: FEAT_SPE_CRR implies FEAT_SPEv1p4; A2.3.7: FEAT_SPEv1p5 implies FEAT_SPE_CRR",
                claimed: |c| idr(c, pmsidr::CRR),
                needs: 0b0101,
                from: 0b0110,
            },
            Claim {
                what: "PMSIDR.FDS",
                rule: "A2.2.10: FEAT_SPE_FDS implies FEAT_SPEv1p4; D24.7.14: PMSIDR.FDS is RES0 without FEAT_SPEv1p4",
                claimed: |c| idr(c, pmsidr::FDS),
                needs: 0b0101,
                from: 0,
            },
            Claim {
                what: "PMSIDR.EFT",
                rule: "A2.3.6: FEAT_SPE_EFT is OPTIONAL from Armv9.4, which is Armv8.9-compliant, and an Armv8.9 PE with SPE has FEAT_SPEv1p4 (A2.2.10)",
                claimed: |c| idr(c, pmsidr::EFT),
                needs: 0b0101,
                from: 0,
            },
            Claim {
                what: "PMSIDR.FPF",
                rule: "A2.3.6: FEAT_SPE_FPF is OPTIONAL from Armv9.4 (as EFT: FEAT_SPEv1p4)",
                claimed: |c| idr(c, pmsidr::FPF),
                needs: 0b0101,
                from: 0,
            },
            Claim {
                what: "PMSEVFR.E[23:19] writable",
                rule: "D24.7.11: E[23:19] are RAZ/WI without FEAT_SPEv1p4",
                claimed: |c| writable(c, RegId::Pmsevfr, ev::V1P4_MASK),
                needs: 0b0101,
                from: 0,
            },
            Claim {
                what: "PMSIDR.SME and PMSEVFR.E[25:24] writable",
                rule: "D24.7.11: E[25:24] with FEAT_SPE_SME; J1 SPEFilterByEvents: mask<25:24> only with FEAT_SPE_SME and FEAT_SPEv1p4",
                claimed: |c| idr(c, pmsidr::SME) || writable(c, RegId::Pmsevfr, ev::SME_MASK),
                needs: 0b0101,
                from: 0,
            },
            Claim {
                what: "PMBIDR.AddrMode, PMBLIMITR.nVM and PMBMAR_EL1 (FEAT_SPE_nVM)",
                rule: "D24.2.80: PMSVer 0b0110 (FEAT_SPEv1p5) adds FEAT_SPE_nVM; D24.7.1, D24.7.2: AddrMode and nVM are RES0 without it",
                claimed: |c| {
                    pmbidr::ADDRMODE.get(read_only_value(RegId::Pmbidr, c)) != 0
                        || writable(c, RegId::Pmblimitr, crate::regs::pmblimitr::NVM.mask())
                        || writable(c, RegId::Pmbmar, u64::MAX)
                },
                needs: 0b0110,
                from: 0b0110,
            },
            Claim {
                what: "PMBSR_EL2, PMBSR_EL3 and PMSCR_ELx.EE/KE (FEAT_SPE_EXC)",
                rule: "D24.2.80: PMSVer 0b0110 (FEAT_SPEv1p5) adds FEAT_SPE_EXC; D24.7.6/7: PMBSR_EL2/EL3 present only with it; D24.7.8/9: EE and KE RES0 without it",
                claimed: |c| {
                    writable(c, RegId::PmbsrEl2, u64::MAX)
                        || writable(c, RegId::PmbsrEl3, u64::MAX)
                        || writable(c, RegId::PmscrEl1, crate::regs::pmscr::EE.mask())
                },
                needs: 0b0110,
                from: 0b0110,
            },
            Claim {
                what: "PMBIDR.EA not 0 and PMBIDR.F = 1",
                rule: "FEAT_SPEv1p3 (Armv8.8): EA = 0 and F = 0 are not permitted",
                claimed: |c| {
                    let b = read_only_value(RegId::Pmbidr, c);
                    pmbidr::EA.get(b) != pmbidr::EA_NOT_DESCRIBED && pmbidr::F.get(b) == 1
                },
                needs: 0b0001,
                from: 0b0100,
            },
        ]
    };

    /// Every claim of `cfg`'s registers that its PMSVer (what the integrating core advertises
    /// for it, on a PE without SVE) does not permit, or that the PMSVer requires and it does
    /// not make; and the pairs the feature list ties together.
    fn claim_errors(cfg: &crate::Config) -> Vec<String> {
        use crate::regs::pmsidr;
        let v = pmsver_of(cfg, false);
        let mut e = Vec::new();
        for c in CLAIMS {
            let on = (c.claimed)(cfg);
            if on && v < c.needs {
                e.push(format!(
                    "{}: claims {} with PMSVer {v:#06b}, which needs {:#06b} ({})",
                    cfg.name, c.what, c.needs, c.rule
                ));
            }
            if !on && c.from != 0 && v >= c.from {
                e.push(format!(
                    "{}: PMSVer {v:#06b} requires {} ({})",
                    cfg.name, c.what, c.rule
                ));
            }
        }
        // FEAT_SPE_EFT and FEAT_SPE_FPF imply each other (A2.3.6); FEAT_SPE_FDS implies
        // FEAT_SPE_LDS (A2.2.10).
        if idr(cfg, pmsidr::EFT) != idr(cfg, pmsidr::FPF) {
            e.push(format!(
                "{}: PMSIDR.EFT without FPF or FPF without EFT (A2.3.6)",
                cfg.name
            ));
        }
        if idr(cfg, pmsidr::FDS) && !idr(cfg, pmsidr::LDS) {
            e.push(format!("{}: PMSIDR.FDS without LDS (A2.2.10)", cfg.name));
        }
        e
    }

    #[test]
    fn every_id_register_claim_is_permitted_by_the_presets_pmsver() {
        for cfg in crate::PRESETS {
            let e = claim_errors(cfg);
            assert!(e.is_empty(), "{e:#?}");
        }
    }

    #[test]
    fn presets_edited_to_claim_what_their_pmsver_forbids_fail_the_claims() {
        // The default preset edited to build the inverted event filter alone: FnE, PMSNEVFR
        // and E[6] at SPEv1p1, which A2.2.8 forbids.
        let mut edited = crate::Config::default();
        edited.options.fne = true;
        assert_eq!(pmsver_of(&edited, false), 0b0010);
        let e = claim_errors(&edited);
        assert_eq!(e.len(), 4, "{e:#?}");
        assert!(
            e[0].contains("claims PMSIDR.FnE with PMSVer 0b0010"),
            "{e:#?}"
        );
        // v1p2x edited to drop it: no longer SPEv1p2, so its PBT claim is not permitted.
        let mut edited = *crate::Config::preset("v1p2x").unwrap();
        edited.options.fne = false;
        let e = claim_errors(&edited);
        assert!(
            e.iter()
                .any(|e| e.contains("claims PMSIDR.PBT with PMSVer 0b0010")),
            "{e:#?}"
        );
        // v1p2x edited to build FEAT_SPE_CRR, as it did before: an SPEv1p4 feature at v1p2.
        let mut edited = *crate::Config::preset("v1p2x").unwrap();
        edited.options.crr = true;
        let e = claim_errors(&edited);
        assert_eq!(e.len(), 1, "{e:#?}");
        assert!(
            e[0].contains("claims PMSIDR.CRR with PMSVer 0b0011"),
            "{e:#?}"
        );
    }

    #[test]
    fn pmsver_and_every_presets_pmsidr_match_the_feature_list() {
        use crate::regs::{pmsidr, read_only_value, RegId};
        // PMSVer: every feature mandatory at or below it is implemented, and one mandatory
        // at the next version is not (PMFZ for SPEv1p2; E[17]/E[18] for SPEv1p1 with SVE).
        // The list ends at the version the loops stop at.
        assert_eq!(
            FEATURES.iter().map(|f| f.mandatory_from).max(),
            Some(LATEST_PMSVER)
        );
        assert_eq!(PMSVER, 0b0010, "SPEv1p1");
        assert_eq!(PMSVER_WITH_SVE, 0b0001, "FEAT_SPE");
        for (sve, v) in [(false, PMSVER), (true, PMSVER_WITH_SVE)] {
            let applies = |f: &&Feature| sve || !f.needs_sve;
            assert!(FEATURES
                .iter()
                .filter(applies)
                .filter(|f| f.mandatory_from != 0 && f.mandatory_from <= v)
                .all(|f| f.implemented));
            assert!(FEATURES
                .iter()
                .filter(applies)
                .any(|f| f.mandatory_from == v + 1 && !f.implemented));
        }
        // Every preset's PMSVer from what it builds: v1p5 with nVM and EXC too (v1p5), v1p4
        // with SPEv1p3's buffer rules too (v1p4), v1p2 with the SPEv1p2 options (v1p2x), else
        // v1p1; with SVE the same with
        // the SVE events, else FEAT_SPE only.
        for cfg in crate::PRESETS {
            let opts = cfg.options.pmfz && cfg.options.feed_events && cfg.options.fne;
            assert_eq!(
                pmsver_of(cfg, false),
                match (opts, cfg.options.v1p3) {
                    (true, true) if cfg.options.nvm && cfg.options.exc => 0b0110,
                    (true, true) => 0b0101,
                    (true, false) => 0b0011,
                    _ => PMSVER,
                },
                "{}",
                cfg.name
            );
            assert_eq!(
                pmsver_of(cfg, true),
                if cfg.options.sve_events {
                    pmsver_of(cfg, false)
                } else {
                    PMSVER_WITH_SVE
                },
                "{}",
                cfg.name
            );
            let v = pmsver_of(cfg, false);
            assert!(FEATURES
                .iter()
                .filter(|f| !f.needs_sve && f.mandatory_from != 0 && f.mandatory_from <= v)
                .all(|f| f.built_in(cfg)));
        }
        assert_eq!(
            pmsver_of(crate::Config::preset("v1p2x").unwrap(), false),
            0b0011
        );
        // SPEv1p4, and not more: SPEv1p5's features are missing.
        let v1p4 = crate::Config::preset("v1p4").unwrap();
        assert_eq!(pmsver_of(v1p4, false), 0b0101);
        assert_eq!(pmsver_of(v1p4, true), 0b0101);
        let bidr = read_only_value(RegId::Pmbidr, v1p4);
        assert_eq!(
            crate::regs::pmbidr::EA.get(bidr),
            crate::regs::pmbidr::EA_IGNORED
        );
        assert_eq!(crate::regs::pmbidr::F.get(bidr), 1);
        // PMSIDR of every preset: each optional feature's bit says whether it is built,
        // and the filters and record format match the base features.
        for cfg in crate::PRESETS {
            let idr = read_only_value(RegId::Pmsidr, cfg);
            for f in FEATURES {
                if let Some(field) = f.pmsidr {
                    assert_eq!(
                        field.get(idr),
                        u64::from(f.built_in(cfg)),
                        "{}: {}",
                        cfg.name,
                        f.name
                    );
                }
            }
            for field in [pmsidr::FE, pmsidr::FT, pmsidr::FL] {
                assert_eq!(field.get(idr), 1, "{}: {}", cfg.name, field.name);
            }
            assert_eq!(pmsidr::FORMAT.get(idr), 0, "{}", cfg.name);
        }
    }

    /// The `choice: KEY` tags in the Rust sources under `dir` (relative to this crate).
    fn choice_tags(dir: &str) -> Vec<(String, String)> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
        let mut out = Vec::new();
        let mut stack = vec![root];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
                let path = e.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|x| x == "rs") {
                    let text = std::fs::read_to_string(&path).unwrap();
                    // Words of the text, comment markers left out (a tag may wrap).
                    let words: Vec<&str> = text
                        .split_whitespace()
                        .filter(|w| !matches!(*w, "//" | "///" | "//!"))
                        .collect();
                    for w in words.windows(2) {
                        if w[0].ends_with("choice:") {
                            let key = w[1].trim_end_matches(|c: char| !c.is_ascii_alphanumeric());
                            out.push((key.to_string(), path.display().to_string()));
                        }
                    }
                }
            }
        }
        out
    }

    /// Choices that are an advertised ID register value, made in `hdl/defs` alone (the
    /// model and the RTL read the value).
    const DEFS_ONLY: &[&str] = &["min-interval"];

    #[test]
    fn every_choice_is_tagged_in_the_model_and_the_rtl_and_every_tag_has_a_row() {
        let keys: Vec<&str> = CHOICES.iter().chain(CONSTRAINED).map(|c| c.key).collect();
        for (i, k) in keys.iter().enumerate() {
            assert!(!keys[..i].contains(k), "choice key {k} listed twice");
        }
        for c in CHOICES.iter().chain(CONSTRAINED) {
            assert!(!c.rule.is_empty() && !c.behaviour.is_empty(), "{}", c.key);
        }
        for k in DEFS_ONLY {
            assert!(keys.contains(k), "DEFS_ONLY lists {k}, which has no row");
        }
        // The definitions' own tags (this table and its generator excepted).
        let defs: Vec<_> = choice_tags("src")
            .into_iter()
            .filter(|(_, f)| !f.ends_with("impdef.rs") && !f.ends_with("tables.rs"))
            .collect();
        for dir in ["../../verif/model/src", "../rtl/src"] {
            let tags = choice_tags(dir);
            for (key, file) in tags.iter().chain(&defs) {
                assert!(
                    keys.contains(&key.as_str()),
                    "{file}: tag `choice: {key}` has no row"
                );
            }
            for c in CHOICES.iter().chain(CONSTRAINED) {
                let (place, tags) = if DEFS_ONLY.contains(&c.key) {
                    ("hdl/defs/src", &defs)
                } else {
                    (dir, &tags)
                };
                assert!(
                    tags.iter().any(|(k, _)| k == c.key),
                    "choice {} is not tagged (`choice: {}`) under {place}",
                    c.key,
                    c.key
                );
            }
        }
    }

    #[test]
    fn min_interval_codes_match_the_reference_table() {
        assert_eq!(min_interval_for_code(0b0100), Some(1024));
        assert_eq!(min_interval_for_code(0b0000), Some(256));
        assert_eq!(min_interval_for_code(0b0001), None);
        assert_eq!(min_interval_for_code(0b1001), None);
    }
}
