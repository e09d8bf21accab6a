//! Build configuration of the unit and the named presets. Every field is set by every
//! preset; the RTL generator, the model and the random co-simulation iterate over [`PRESETS`].

use crate::constants::{min_interval_for_code, BEAT_BYTES, GCS_RECORD_SIZE_LOG2, RECORD_SIZE_LOG2};

/// Width of the saturating latency counters (PMSIDR.CountSize).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CounterWidth {
    Bits12,
    Bits16,
}

impl CounterWidth {
    pub const fn bits(self) -> u32 {
        match self {
            CounterWidth::Bits12 => 12,
            CounterWidth::Bits16 => 16,
        }
    }
    /// Largest value a counter holds (it saturates there).
    pub const fn max(self) -> u64 {
        crate::low_mask(self.bits())
    }
}

/// One configuration of the unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Preset name (used in module and file names: lowercase, digits and `_`).
    pub name: &'static str,
    /// What the preset is for.
    pub desc: &'static str,
    /// Dispatch group width W (slots per cycle), 1..=8.
    pub dispatch_width: usize,
    /// Latency counter width.
    pub counter_width: CounterWidth,
    /// PMSIDR.Interval code: the advertised recommended minimum interval.
    pub interval_code: u8,
    /// The core implements FEAT_ECV without CNTPOFF_EL2 (ID_AA64MMFR0_EL1.ECV = 0b0001):
    /// PMSCR_ELx.PCT is a two-bit field and PCT = 11 (offset physical) records the physical
    /// count, which equals the offset physical count without CNTPOFF. Otherwise PCT bit 7 is
    /// RES0 (Arm ARM D24.7.8; J1 `CollectTimeStamp` reads PCT as `'0':PCT<0>`).
    pub feat_ecv: bool,
    /// A sampled op whose completion has not come 2^this cycles after its tag is dropped
    /// (no record; `sample_timeout` pulses): the unit is never held by a lost completion.
    /// At most [`MAX_CPL_TIMEOUT_LOG2`]. choice: completion-timeout
    pub cpl_timeout_log2: u32,
    /// Hardware threads T the unit serves (1, 2 or 4; docs/smt.md): each has its own
    /// registers, sampler and sample in flight; they share the writer.
    pub threads: usize,
    /// The SPE options the unit builds (FEAT_SPEv1p2 and later; each absent from the others'
    /// Verilog). A multithreaded unit builds them per thread (docs/smt.md).
    pub options: Options,
}

/// The options, one row each: the field of [`Options`] (with its documentation), the name
/// `validate` and the tables give it, and its predicate in [`option`] (with its
/// documentation). The struct, [`Options::NONE`], [`Options::flags_mut`] and the
/// predicates all come from these rows, so an option is declared once.
macro_rules! options {
    ($(
        $(#[doc = $doc:literal])*
        $field:ident, $name:literal, $(#[doc = $pdoc:literal])*;
    )*) => {
        /// The options of a [`Config`]: each a feature a unit builds or not, advertised in
        /// PMSIDR exactly when built (`impdef::FEATURES`). [`Options::NONE`] builds none
        /// of them.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct Options {
            $($(#[doc = $doc])* pub $field: bool,)*
        }

        /// How many options there are.
        pub const OPTION_COUNT: usize = [$(stringify!($field)),*].len();

        impl Options {
            /// No option built (the presets before SPEv1p2's).
            pub const NONE: Options = Options { $($field: false,)* };
            /// Every option, named as `validate` reports it, by mutable reference (the one
            /// list of the fields: [`Options::flags`] and the tests go through it).
            pub fn flags_mut(&mut self) -> [(&'static str, &mut bool); OPTION_COUNT] {
                [$(($name, &mut self.$field)),*]
            }
            /// Every option with its name and whether it is built.
            pub fn flags(&self) -> Vec<(&'static str, bool)> {
                let mut o = *self;
                o.flags_mut().into_iter().map(|(n, b)| (n, *b)).collect()
            }
        }

        /// The options as predicates (`fn(&Config) -> bool`): the one place from which the
        /// feature list (`impdef::FEATURES`) and the option ports (`ports::OPTION_PORTS`)
        /// say what builds them.
        pub mod option {
            use super::Config;
            $(
                $(#[doc = $pdoc])*
                pub fn $field(cfg: &Config) -> bool {
                    cfg.options.$field
                }
            )*
            // The predicates of two options together.
            /// SAMPLE_FEED_DS: FEAT_SPE_FDS with the SAMPLE_FEED_* outputs.
            pub fn feed_fds(cfg: &Config) -> bool {
                cfg.options.fds && cfg.options.feed_events
            }
            /// SAMPLE_FEED_FP and SAMPLE_FEED_SIMD: FEAT_SPE_EFT with the SAMPLE_FEED_* outputs.
            pub fn feed_eft(cfg: &Config) -> bool {
                cfg.options.eft && cfg.options.feed_events
            }
        }
    };
}

options! {
    /// FEAT_SPE_ERnd (PMSIDR_EL1.ERnd): with PMSIRR.RND = 1 the interval is exact and the
    /// random delay goes into PMSICR_EL1.ECOUNT, a second down-counter that selects the
    /// op it brings to zero (J1 `SPEToCollectSample`, docs/spe-reference.md §6.1). Per
    /// thread in a multithreaded unit, as PMSICR is.
    ernd, "FEAT_SPE_ERnd",
        /// FEAT_SPE_ERnd ([`Options::ernd`]).
    ;

    /// PMBLIMITR_EL1.PMFZ (FEAT_SPEv1p2; the core needs PMUv3p7): the `pmu_freeze` output
    /// asks the core's PMU to freeze its counters while PMFZ and E are set and profiling
    /// is stopped (PMBSR_EL1.S, J1 `SPEFreezeOnEvent`). Without it PMFZ is RES0 and the port
    /// is absent.
    pmfz, "PMBLIMITR.PMFZ",
        /// PMBLIMITR.PMFZ and `pmu_freeze` ([`Options::pmfz`]).
    ;

    /// FEAT_SPEv1p2's PMU events for the core's PMU: SAMPLE_FEED_BR, _LD, _ST, _OP, _EVENT
    /// and _LAT (J1 `SPEFilterByType`, `SPEFilterByEvents`, `SPEFilterByLatency`), pulsed
    /// with SAMPLE_FEED, and SAMPLE_BUFFER_FULL (J1 `SPECompleteSample`), each an output
    /// only a unit with this option has.
    feed_events, "the SAMPLE_FEED_* events",
        /// The SAMPLE_FEED_* and SAMPLE_BUFFER_FULL outputs ([`Options::feed_events`]).
    ;

    /// FEAT_SPE_PBT (PMSIDR_EL1.PBT): a taken branch's record carries the previous-branch-
    /// target Address packet (index 4), the target of the last taken branch before it in
    /// program order, as the core reports it with the branch (`pbt_target`, `pbt_valid`;
    /// J1 `SPEBranch`).
    pbt, "FEAT_SPE_PBT",
        /// FEAT_SPE_PBT and its inputs `pbt_target`, `pbt_valid` ([`Options::pbt`]).
    ;

    /// FEAT_SPE_CRR (PMSIDR_EL1.CRR): a branch's Operation Type keeps the CR field the core
    /// reports in `disp_subclass` (01 call, 10 return, 11 other; 00 is recorded as 11) and its
    /// GCS bit for a call or a return (J1 `SPEConstructClass`). Without it both read as zero.
    crr, "FEAT_SPE_CRR",
        /// FEAT_SPE_CRR ([`Options::crr`]).
    ;

    /// FEAT_SPE_FPF (PMSIDR_EL1.FPF): the Operation Type of a class-Other op that is not SVE
    /// or SME keeps the FP (bit 1) and SIMD (bit 2) flags the core reports in `disp_subclass`
    /// (Arm ARM D18.2.7: otherwise they read as zero).
    fpf, "FEAT_SPE_FPF",
        /// FEAT_SPE_FPF ([`Options::fpf`]).
    ;

    /// FEAT_SPE_EFT (PMSIDR_EL1.EFT): PMSFCR_EL1.FP and .SIMD, and the TYPEm mask bits Bm,
    /// LDm, STm, FPm, SIMDm that turn a type from the filter's OR term into its AND term (J1
    /// `SPEFilterByType`); with `feed_events`, SAMPLE_FEED_FP and SAMPLE_FEED_SIMD. The core
    /// reports whether a SIMD&FP load or store is scalar (`mem_fp_scalar` with `mem_done`).
    eft, "FEAT_SPE_EFT",
        /// FEAT_SPE_EFT and its input `mem_fp_scalar` ([`Options::eft`]).
    ;

    /// FEAT_SPE_FDS (PMSIDR_EL1.FDS): PMSFCR_EL1.FDS and the register PMSDSFR_EL1, which
    /// keep the loads whose data source's bits 5:0 select a set bit (J1
    /// `SPEFilterByDataSource`); with `feed_events`, SAMPLE_FEED_DS.
    fds, "FEAT_SPE_FDS",
        /// FEAT_SPE_FDS and its register PMSDSFR_EL1 ([`Options::fds`]).
    ;

    /// FEAT_SPEv1p1's SVE events, for a core with SVE or SME: E[17] (partial or empty
    /// predicate) and E[18] (empty predicate) from the completion report
    /// (`cpl_pred_not_full`, `cpl_pred_empty`), filterable in PMSEVFR/PMSNEVFR[18:17]
    /// (J1 `SPEFilterByEvents`). The Events payload grows to 4 bytes
    /// ([`crate::impdef::events_payload`]).
    sve_events, "the SVE events",
        /// FEAT_SPEv1p1's SVE events E[17], E[18] and their inputs ([`Options::sve_events`]).
    ;

    /// FEAT_SPEv1p4's events: E[19] L2D access, E[20] L2D miss, E[21] cache data modified,
    /// E[22] recently fetched and E[23] data snooped, for loads, from the memory report
    /// (`mem_l2d_access`, `mem_l2d_miss`, `mem_hitm`, `mem_lfb`, `mem_snooped`), filterable
    /// in PMSEVFR/PMSNEVFR[23:19] (J1 `SPEFilterByEvents`). The Events payload grows to 4
    /// bytes ([`crate::impdef::events_payload`]).
    v1p4_events, "the SPEv1p4 events",
        /// FEAT_SPEv1p4's events E[19]..E[23] and their inputs ([`Options::v1p4_events`]).
    ;

    /// FEAT_SPEv1p3's buffer rules (Armv8.8 forbids PMBIDR_EL1.EA = 0 and F = 0): EA =
    /// 0b0001, the PE ignores an external abort on a write of the Statistical Profiling Unit
    /// (the unit takes a beat answered with `wr_err` of kind external as written; a stage 1
    /// or 2 fault is reported as always), and F = 1, the translation of buffer writes manages
    /// the Access flag and dirty state as the owning regime's explicit accesses (the core's
    /// MMU does). With the MOPS and MTE Operation Types, which every unit records as the core
    /// reports them, this is SPEv1p3.
    v1p3, "FEAT_SPEv1p3's buffer rules",
        /// FEAT_SPEv1p3's PMBIDR.EA = 1 and F = 1 ([`Options::v1p3`]).
    ;

    /// FEAT_SPE_FnE (PMSIDR_EL1.FnE): the inverted event filter, PMSNEVFR_EL1 and
    /// PMSFCR_EL1.FnE, and filtering on the Not-taken event E[6] in PMSEVFR_EL1 and
    /// PMSNEVFR_EL1 (J1 `SPEFilterByEvents`: `mask<6>` only with FnE). The Arm ARM makes it
    /// and FEAT_SPEv1p2 imply each other (A2.2.8), so a unit builds it exactly when it
    /// builds SPEv1p2's other parts (PMFZ, the SAMPLE_FEED_* events): a test checks every
    /// preset. Without it PMSNEVFR reads as zero and ignores writes (the core makes its
    /// accesses UNDEFINED), FnE and E[6] are RES0. The Not-taken event is recorded in the
    /// Events packet either way.
    fne, "FEAT_SPE_FnE",
        /// FEAT_SPE_FnE: PMSNEVFR_EL1, PMSFCR_EL1.FnE and E[6] in the event filters
        /// ([`Options::fne`]).
    ;

    /// FEAT_SPE_SME (PMSIDR_EL1.SME), for a core with SME and a unit with FEAT_SPEv1p4:
    /// the events E[24] (the op ran in Streaming SVE mode, PSTATE.SM) and E[25] (it ran on
    /// an SME compute unit or another shared resource) from the completion report
    /// (`cpl_streaming`, `cpl_smcu`; J1 `SPECompleteSample`, `SPESampleOnSharedResource`),
    /// filterable in PMSEVFR/PMSNEVFR[25:24] (J1 `SPEFilterByEvents`: with SME and
    /// SPEv1p4), and the SME array Operation Type (class Other, `1 ETS[3:1] 1 ETS[0] FP 0`)
    /// and EVL 0b111 recorded as reported (D18.2.7: reserved without it). The Events
    /// payload grows to 4 bytes.
    sme, "FEAT_SPE_SME",
        /// FEAT_SPE_SME: E[24], E[25], their inputs and the SME Operation Types
        /// ([`Options::sme`]).
    ;

    /// FEAT_SPE_nVM (part of FEAT_SPEv1p5; PMBIDR_EL1.AddrMode): PMBLIMITR_EL1.nVM, the
    /// EL2 enable PMSCR_EL2.EnVM and the register PMBMAR_EL1. With the Effective value of
    /// nVM 1 (J1 `EffectivePMBLIMITR_EL1_nVM`) the buffer pointers are physical addresses
    /// (the owning regime has no stage 2: EL2 owns the buffer or EL2 is disabled) or IPAs
    /// (EL1 owns it with EL2 enabled), written with PMBMAR's attributes (Arm ARM D17.7.2):
    /// the write port says which (`wr_addr_space`, `wr_mem_attr`).
    nvm, "FEAT_SPE_nVM",
        /// FEAT_SPE_nVM: PMBLIMITR.nVM, PMSCR_EL2.EnVM, PMBMAR_EL1 and the write port's
        /// `wr_addr_space`, `wr_mem_attr` ([`Options::nvm`]).
    ;

    /// FEAT_SPE_EXC (part of FEAT_SPEv1p5): buffer management events reported as SPE
    /// Profiling exceptions. The registers PMBSR_EL2 and PMBSR_EL3, PMSCR_EL1/EL2.EE and
    /// .KE, and the core's MDCR_EL3.PMSEE (`mdcr_pmsee`), SCR_EL3.EA (`scr_ea`) and
    /// HCR_EL2.TEA (`hcr_tea`): an event goes to the bank J1 `ReportSPEEvent` picks,
    /// profiling stops while any enabled bank's S is set (J1 `SPEProfilingStopped`), PMBIRQ
    /// only while PMSCR_EL1.EE is effectively 00, and each bank's pending exception is an
    /// output (`exc_el1`, `exc_el2`, `exc_el3`) with the KE masks (`exc_ke1`, `exc_ke2`)
    /// for the core to take (J1 `CheckForSPEException`).
    exc, "FEAT_SPE_EXC",
        /// FEAT_SPE_EXC: PMBSR_EL2/EL3, PMSCR_ELx.EE/KE, the routing inputs and the exception
        /// outputs ([`Options::exc`]).
    ;
}

/// Preset `v1p2x`: the default's shape with the options an SPEv1p2 unit may build, and no
/// more: FEAT_SPE_CRR, FEAT_SPE_FDS, FEAT_SPE_EFT, FEAT_SPE_FPF and the SPEv1p4 events need
/// SPEv1p4 (Arm ARM A2.2.10, A2.3.6, D24.7.11), so only preset `v1p4` builds them.
const V1P2X: Config = Config {
    name: "v1p2x",
    desc: "4-wide dispatch, 12-bit counters, with the SPEv1p2 options: PMBLIMITR.PMFZ, the SAMPLE_FEED_* and SAMPLE_BUFFER_FULL events, FEAT_SPE_FnE, FEAT_SPE_ERnd, FEAT_SPE_PBT; the SVE events E[17], E[18] (a 4-byte Events payload)",
    dispatch_width: 4,
    counter_width: CounterWidth::Bits12,
    interval_code: 0b0100,
    feat_ecv: false,
    cpl_timeout_log2: 20,
    threads: 1,
    options: Options {
        ernd: true,
        pmfz: true,
        feed_events: true,
        pbt: true,
        crr: false,
        fpf: false,
        eft: false,
        fds: false,
        sve_events: true,
        v1p4_events: false,
        v1p3: false,
        fne: true,
        sme: false,
        nvm: false,
        exc: false,
    },
};

/// Preset `v1p4`: every feature up to SPEv1p4 on the default's shape (`smt2_v1p4` has them
/// with two threads).
const V1P4: Config = Config {
    name: "v1p4",
    desc: "v1p2x with FEAT_SPEv1p3's buffer rules (PMBIDR.EA = 1: external aborts on buffer writes ignored; PMBIDR.F = 1) and SPEv1p4's options: FEAT_SPE_CRR, FEAT_SPE_FPF, FEAT_SPE_EFT, FEAT_SPE_FDS and the events E[19]..E[23]; FEAT_SPE_SME (E[24], E[25], the SME Operation Types) for a core with SME; every feature up to SPEv1p4, so PMSVer = SPEv1p4",
    options: Options {
        crr: true,
        fpf: true,
        eft: true,
        fds: true,
        v1p4_events: true,
        v1p3: true,
        sme: true,
        ..V1P2X.options
    },
    ..V1P2X
};

/// Preset `v1p5`: `v1p4` with FEAT_SPEv1p5's two options, the physical address mode of the
/// buffer (FEAT_SPE_nVM) and buffer management events as exceptions (FEAT_SPE_EXC): every
/// feature up to SPEv1p5, so PMSVer = SPEv1p5 (0b0110).
const V1P5: Config = Config {
    name: "v1p5",
    desc: "v1p4 with FEAT_SPEv1p5's FEAT_SPE_nVM (PMBLIMITR.nVM, PMSCR_EL2.EnVM, PMBMAR_EL1: the buffer by IPA or PA, `wr_addr_space`, `wr_mem_attr`) and FEAT_SPE_EXC (PMBSR_EL2/EL3, PMSCR_ELx.EE/KE: management events as SPE Profiling exceptions, `exc_el1/2/3`); every feature up to SPEv1p5, so PMSVer = SPEv1p5",
    options: Options {
        nvm: true,
        exc: true,
        ..V1P4.options
    },
    ..V1P4
};

/// Largest completion timeout, as a power of two (the tracker's age counter is this wide).
pub const MAX_CPL_TIMEOUT_LOG2: u32 = 20;

/// Largest dispatch width the interface supports.
pub const MAX_DISPATCH_WIDTH: usize = 8;

/// Largest number of hardware threads the interface is specified for (docs/smt.md;
/// `Config::threads`).
pub const MAX_THREADS: usize = 4;

/// Name of the source list in each preset's folder of `gen/` (paths relative to that
/// folder, for `verilator -F`).
pub const GEN_FILE_LIST: &str = "files.f";

impl Config {
    /// log2 of the record slot (PMSIDR.MaxSize, PMBIDR.Align): 7 in a unit that records
    /// the Guarded Control Stack ([`Options::crr`]: a call or return with GCS has a branch
    /// target and a data address, which need the 128-byte layout), else 6.
    /// choice: record-slot
    pub fn record_log2(&self) -> u32 {
        if self.options.crr {
            GCS_RECORD_SIZE_LOG2
        } else {
            RECORD_SIZE_LOG2
        }
    }
    /// Bytes of one record slot (every record of the unit has this size).
    pub fn record_size(&self) -> usize {
        1 << self.record_log2()
    }
    /// 64-bit write beats of one record.
    pub fn record_beats(&self) -> usize {
        self.record_size() / BEAT_BYTES
    }
    /// The record slot is 128 bytes (each packet in a slot of its own; see
    /// `impdef::layout`).
    pub fn long_records(&self) -> bool {
        self.record_log2() > RECORD_SIZE_LOG2
    }

    /// Checks the configuration; every constructor of RTL or model calls this.
    pub fn validate(&self) -> Result<(), String> {
        if !(1..=MAX_DISPATCH_WIDTH).contains(&self.dispatch_width) {
            return Err(format!(
                "dispatch width {} is outside 1..={MAX_DISPATCH_WIDTH}",
                self.dispatch_width
            ));
        }
        if !(4..=MAX_CPL_TIMEOUT_LOG2).contains(&self.cpl_timeout_log2) {
            return Err(format!(
                "completion timeout 2^{} cycles: the exponent must be 4..={MAX_CPL_TIMEOUT_LOG2}",
                self.cpl_timeout_log2
            ));
        }
        if !matches!(self.threads, 1 | 2 | 4) || self.threads > MAX_THREADS {
            return Err(format!(
                "{} hardware threads: a unit serves 1, 2 or 4",
                self.threads
            ));
        }
        if min_interval_for_code(self.interval_code).is_none() {
            return Err(format!(
                "PMSIDR.Interval code {:#06b} is not an architected value",
                self.interval_code
            ));
        }
        if self.name.is_empty()
            || !self
                .name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
        {
            return Err(format!(
                "preset name {:?} must be lowercase letters, digits and '_'",
                self.name
            ));
        }
        Ok(())
    }
    /// Recommended minimum sampling interval in operations.
    /// choice: min-interval
    pub fn min_interval(&self) -> u32 {
        min_interval_for_code(self.interval_code).expect("validated interval code")
    }
    /// Smallest PMSIRR.INTERVAL field value the reload uses.
    pub fn min_interval_field(&self) -> u64 {
        u64::from(self.min_interval() >> 8)
    }
    /// The Verilog top module of the preset: `spe_top_<preset>`.
    pub fn top_module(&self) -> String {
        format!("spe_top_{}", self.name)
    }
    /// Looks a preset up by name.
    pub fn preset(name: &str) -> Option<&'static Config> {
        PRESETS.iter().find(|c| c.name == name)
    }
    /// Looks a preset up by name, or says which names are valid (for command lines).
    pub fn preset_named(name: &str) -> Result<&'static Config, String> {
        Config::preset(name).ok_or_else(|| {
            let names: Vec<_> = PRESETS.iter().map(|c| c.name).collect();
            format!(
                "unknown preset {name:?}; valid presets: {}",
                names.join(", ")
            )
        })
    }
}

impl Default for Config {
    fn default() -> Self {
        PRESETS[0]
    }
}

/// The named presets. The first is the default.
pub const PRESETS: &[Config] = &[
    Config {
        name: "default",
        desc: "4-wide dispatch, 12-bit counters, minimum interval 1024",
        dispatch_width: 4,
        counter_width: CounterWidth::Bits12,
        interval_code: 0b0100,
        feat_ecv: false,
        cpl_timeout_log2: 20,
        threads: 1,
        options: Options::NONE,
    },
    Config {
        name: "minimal",
        desc: "Scalar core (W=1), 12-bit counters: smallest area",
        dispatch_width: 1,
        counter_width: CounterWidth::Bits12,
        interval_code: 0b0100,
        feat_ecv: false,
        cpl_timeout_log2: 20,
        threads: 1,
        options: Options::NONE,
    },
    Config {
        name: "w2",
        desc: "2-wide dispatch, 12-bit counters",
        dispatch_width: 2,
        counter_width: CounterWidth::Bits12,
        interval_code: 0b0100,
        feat_ecv: false,
        cpl_timeout_log2: 20,
        threads: 1,
        options: Options::NONE,
    },
    Config {
        name: "c16",
        desc: "4-wide dispatch, 16-bit counters",
        dispatch_width: 4,
        counter_width: CounterWidth::Bits16,
        interval_code: 0b0100,
        feat_ecv: false,
        cpl_timeout_log2: 20,
        threads: 1,
        options: Options::NONE,
    },
    Config {
        name: "wide",
        desc: "8-wide dispatch, 16-bit counters, FEAT_ECV: a big out-of-order core",
        dispatch_width: 8,
        counter_width: CounterWidth::Bits16,
        interval_code: 0b0100,
        feat_ecv: true,
        cpl_timeout_log2: 20,
        threads: 1,
        options: Options::NONE,
    },
    Config {
        name: "fastsim",
        desc: "2-wide, 12-bit, minimum interval 256: many samples in short simulations",
        dispatch_width: 2,
        counter_width: CounterWidth::Bits12,
        interval_code: 0b0000,
        feat_ecv: false,
        cpl_timeout_log2: 14,
        threads: 1,
        options: Options::NONE,
    },
    V1P2X,
    V1P4,
    V1P5,
    Config {
        name: "smt2",
        desc: "4-wide dispatch shared by 2 hardware threads (SMT), 12-bit counters",
        dispatch_width: 4,
        counter_width: CounterWidth::Bits12,
        interval_code: 0b0100,
        feat_ecv: false,
        cpl_timeout_log2: 20,
        threads: 2,
        options: Options::NONE,
    },
    Config {
        name: "smt4",
        desc: "8-wide dispatch shared by 4 hardware threads (SMT), 16-bit counters, FEAT_ECV",
        dispatch_width: 8,
        counter_width: CounterWidth::Bits16,
        interval_code: 0b0100,
        feat_ecv: true,
        cpl_timeout_log2: 20,
        threads: 4,
        options: Options::NONE,
    },
    Config {
        name: "smt2_v1p4",
        desc: "smt2 with every option of v1p4, each per thread: an SPEv1p4 unit for a 2-thread SMT core",
        threads: 2,
        ..V1P4
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_is_valid_and_uniquely_named() {
        let mut names = std::collections::HashSet::new();
        for c in PRESETS {
            c.validate().unwrap();
            assert!(names.insert(c.name));
        }
    }

    #[test]
    fn only_1_2_or_4_threads_are_valid() {
        for (t, ok) in [
            (0, false),
            (1, true),
            (2, true),
            (3, false),
            (4, true),
            (8, false),
        ] {
            let c = Config {
                threads: t,
                ..PRESETS[0]
            };
            assert_eq!(c.validate().is_ok(), ok, "{t} threads");
        }
    }

    #[test]
    fn every_option_is_valid_with_two_and_four_threads() {
        let n = Options::NONE.flags().len();
        for t in [2, 4] {
            for i in 0..n {
                let mut c = Config {
                    threads: t,
                    options: Options::NONE,
                    ..*Config::preset("smt4").unwrap()
                };
                let (what, on) = c.options.flags_mut().into_iter().nth(i).unwrap();
                *on = true;
                assert!(
                    c.validate().is_ok(),
                    "{what} with {t} threads: {:?}",
                    c.validate()
                );
            }
        }
        // A preset builds options with threads (issue 54 step 3): the RTL, the model and
        // the regression run it.
        assert!(PRESETS
            .iter()
            .any(|c| c.threads > 1 && c.options.flags().iter().any(|(_, on)| *on)));
    }

    #[test]
    fn presets_cover_the_required_widths() {
        for w in [1, 2, 4, 8] {
            assert!(
                PRESETS.iter().any(|c| c.dispatch_width == w),
                "no preset with W={w}"
            );
        }
        assert!(PRESETS
            .iter()
            .any(|c| c.counter_width == CounterWidth::Bits12));
        assert!(PRESETS
            .iter()
            .any(|c| c.counter_width == CounterWidth::Bits16));
        assert_eq!(Config::preset("fastsim").unwrap().min_interval(), 256);
        assert!(PRESETS.iter().any(|c| c.feat_ecv) && PRESETS.iter().any(|c| !c.feat_ecv));
    }

    #[test]
    fn validate_rejects_out_of_range_configs() {
        let mut c = PRESETS[0];
        c.dispatch_width = 0;
        assert!(c.validate().is_err());
        c.dispatch_width = 9;
        assert!(c.validate().is_err());
        c = PRESETS[0];
        c.interval_code = 1;
        assert!(c.validate().is_err());
        c = PRESETS[0];
        c.name = "Bad-Name";
        assert!(c.validate().is_err());
    }
}
