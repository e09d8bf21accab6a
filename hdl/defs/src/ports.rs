//! The integration surface of `spe_top`: every port, its direction, width, meaning and
//! timing. The RTL top, the golden model's `Inputs`/`Outputs` and the generated port table
//! all follow this list (same names, same order).
//!
//! Timing conventions (single clock `clk`, all inputs sampled at its rising edge):
//! * **comb** outputs depend on the same cycle's inputs (Mealy), valid before the edge;
//! * **reg** outputs depend only on state (registered);
//! * every output except `reg_rdata` and `irq` is forced low while `reset` is high.

/// Port direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    In,
    Out,
}

/// Port width: fixed bits, per dispatch slot (`W` copies of `bits`, slot 0 in the low
/// bits), or per hardware thread (`T` copies, thread 0 in the low bits: the ports a
/// multithreaded unit gives each thread, docs/smt.md; at T = 1 a per-thread port is
/// exactly `bits` wide), or a hardware thread's number (`log2(T)` bits,
/// once or per slot: the ports only a multithreaded unit has, [`SMT_PORTS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    Bits(u32),
    PerSlot(u32),
    PerThread(u32),
    ThreadId,
    PerSlotThreadId,
}

impl Width {
    /// Total bits for dispatch width `w` and `t` hardware threads.
    pub const fn total_for(self, w: usize, t: usize) -> u32 {
        match self {
            Width::Bits(b) => b,
            Width::PerSlot(b) => b * w as u32,
            Width::PerThread(b) => b * t as u32,
            Width::ThreadId => t.trailing_zeros(),
            Width::PerSlotThreadId => w as u32 * t.trailing_zeros(),
        }
    }
    /// The port as lanes for dispatch width `w` and `t` hardware threads: (lanes, bits of
    /// each), lane 0 in the lowest bits. A per-slot port has a lane per slot, a per-thread
    /// port one per thread, any other port one lane of all its bits.
    pub const fn lanes_for(self, w: usize, t: usize) -> (usize, u32) {
        match self {
            Width::PerSlot(b) => (w, b),
            Width::PerThread(b) => (t, b),
            Width::PerSlotThreadId => (w, t.trailing_zeros()),
            Width::Bits(_) | Width::ThreadId => (1, self.total_for(w, t)),
        }
    }
    /// Total bits for dispatch width `w` in a single-threaded unit.
    pub const fn total(self, w: usize) -> u32 {
        self.total_for(w, 1)
    }
    /// Bits of one slot or one thread's copy (the whole port for `Bits`; a thread number's
    /// at the largest thread count).
    pub const fn bits(self) -> u32 {
        match self {
            Width::Bits(b) | Width::PerSlot(b) | Width::PerThread(b) => b,
            Width::ThreadId | Width::PerSlotThreadId => crate::config::MAX_THREADS.trailing_zeros(),
        }
    }
}

/// A hook whose inputs travel together as one report: the RTL's report bundle (in the
/// tracker) and the testbench's `Inputs` sub-struct are both generated from this table and
/// `PORTS` (port `br_target` of group `branch` is field `target` of report `br`).
#[derive(Clone, Copy, Debug)]
pub struct HookReport {
    /// The `group` of its ports in `PORTS`.
    pub group: &'static str,
    /// The prefix of its ports' names; the rest of a name is the field's.
    pub prefix: &'static str,
    /// The report's field name (in the RTL's tracker and in `Inputs`) and type name.
    pub field: &'static str,
    pub name: &'static str,
}

/// The hook reports, in `PORTS` order.
pub const HOOK_REPORTS: &[HookReport] = &[
    HookReport {
        group: "translation",
        prefix: "xl_",
        field: "xl",
        name: "XlatReport",
    },
    HookReport {
        group: "memory",
        prefix: "mem_",
        field: "mem",
        name: "MemReport",
    },
    HookReport {
        group: "branch",
        prefix: "br_",
        field: "br",
        name: "BranchReport",
    },
    HookReport {
        group: "completion",
        prefix: "cpl_",
        field: "cpl",
        name: "CplReport",
    },
];

/// The hook report a port belongs to, if any.
pub fn hook_report(port: &Port) -> Option<&'static HookReport> {
    HOOK_REPORTS.iter().find(|h| h.group == port.group)
}

/// One port.
#[derive(Clone, Copy, Debug)]
pub struct Port {
    pub name: &'static str,
    pub dir: Dir,
    pub width: Width,
    /// Hook or group the port belongs to.
    pub group: &'static str,
    pub meaning: &'static str,
    pub timing: &'static str,
}

impl Port {
    /// The port's width in the unit of `cfg` (every slot's and every thread's copy).
    pub const fn bits_for(&self, cfg: &crate::Config) -> u32 {
        self.width.total_for(cfg.dispatch_width, cfg.threads)
    }
}

/// The ports of `cfg`'s top, in order: [`PORTS`], then [`SMT_PORTS`] for more than one
/// hardware thread, then the [`OPTION_PORTS`] of the options `cfg` builds.
pub fn ports_of(cfg: &crate::Config) -> impl Iterator<Item = &'static Port> + Clone {
    let smt: &'static [Port] = if cfg.threads > 1 { SMT_PORTS } else { &[] };
    let cfg = *cfg;
    PORTS.iter().chain(smt).chain(
        OPTION_PORTS
            .iter()
            .filter(move |o| (o.built)(&cfg))
            .map(|o| &o.port),
    )
}

/// Every port any unit can have, in the order of [`ports_of`]'s tables: [`PORTS`],
/// [`SMT_PORTS`], the [`OPTION_PORTS`]. A port's place here is its number wherever a
/// port is named by index across presets (the Verilator shim).
pub fn all_ports() -> impl Iterator<Item = &'static Port> + Clone {
    PORTS
        .iter()
        .chain(SMT_PORTS)
        .chain(OPTION_PORTS.iter().map(|o| &o.port))
}

/// A port that only a unit built with an option has (`Config::options`): it follows
/// [`PORTS`] (and [`SMT_PORTS`]) in the top of such a unit and is absent from the others,
/// whose Verilog does not change.
#[derive(Clone, Copy, Debug)]
pub struct OptionPort {
    pub port: Port,
    /// The option, as it reads in the port table (`Options::pmfz`).
    pub option: &'static str,
    /// True when a unit of `cfg` has the port.
    pub built: fn(&crate::Config) -> bool,
    /// Which block signal the tops wire it to (`crate::wiring`).
    pub wire: Wire,
}

/// True when `cfg`'s top has the option port `name` (false for a port of no option).
pub fn option_port_built(name: &str, cfg: &crate::Config) -> bool {
    OPTION_PORTS
        .iter()
        .any(|o| o.port.name == name && (o.built)(cfg))
}

/// A SAMPLE_FEED_* event output (`Options::feed_events`): a pulse with SAMPLE_FEED.
const fn feed_event(name: &'static str, field: &'static str, meaning: &'static str) -> OptionPort {
    OptionPort {
        port: p(
            name,
            Out,
            PerThread(1),
            "pmu",
            meaning,
            "reg, pulse: with pmu_sample_feed",
        ),
        option: "feed_events",
        built: crate::config::option::feed_events,
        wire: Wire::From(at("filter", field)),
    }
}

/// The ports of the options (see [`OptionPort`]), in order.
pub const OPTION_PORTS: &[OptionPort] = &[
    OptionPort {
        port: p(
            "pmu_freeze",
            Out,
            PerThread(1),
            "pmu",
            "Freeze the PMU's event counters (those PMCR_EL0.FZS / MDCR_EL2.HPMFZS select; Arm ARM D13.5.2.2): PMBLIMITR_EL1.PMFZ and .E are 1 and profiling is stopped (PMBSR_EL1.S = 1, J1 `SPEProfilingStopped`), as J1 `SPEFreezeOnEvent` has it. FEAT_SPEv1p2 (needs PMUv3p7 in the core)",
            "reg, level: from the cycle after the management event or the register write that makes it true, until one makes it false",
        ),
        option: "pmfz",
        built: crate::config::option::pmfz,
        wire: Wire::From(at("regs", "freeze")),
    },
    feed_event(
        "pmu_sample_feed_br",
        "feed_br",
        "SAMPLE_FEED_BR (0x812A): the sample reaching the filters is a branch (J1 `SPEFilterByType`, whatever PMSFCR says)",
    ),
    feed_event(
        "pmu_sample_feed_ld",
        "feed_ld",
        "SAMPLE_FEED_LD (0x812B): the sample reaching the filters is a load or a load atomic",
    ),
    feed_event(
        "pmu_sample_feed_st",
        "feed_st",
        "SAMPLE_FEED_ST (0x812C): the sample reaching the filters is a store or a store or load atomic",
    ),
    feed_event(
        "pmu_sample_feed_op",
        "feed_op",
        "SAMPLE_FEED_OP (0x812D): PMSFCR_EL1.{B, LD, ST} select a type and the sample is of one of them (whether or not FT enables the filter)",
    ),
    feed_event(
        "pmu_sample_feed_event",
        "feed_event",
        "SAMPLE_FEED_EVENT (0x812E): the sample's events have every bit of PMSEVFR_EL1 and none of PMSNEVFR_EL1 (whether or not FE / FnE enable the filters; J1 `SPEFilterByEvents`)",
    ),
    feed_event(
        "pmu_sample_feed_lat",
        "feed_lat",
        "SAMPLE_FEED_LAT (0x812F): the sample's total latency is at least PMSLATFR_EL1.MINLAT (whether or not FL enables the filter; J1 `SPEFilterByLatency`)",
    ),
    OptionPort {
        port: p(
            "pmu_sample_buffer_full",
            Out,
            PerThread(1),
            "pmu",
            "SAMPLE_BUFFER_FULL: a buffer-full management event (PMBSR_EL1.S with BSC full) is raised this cycle, after a record's last beat or at the check of a record that finds no room (J1 `SPECompleteSample`)",
            "comb, pulse: in the cycle of the last beat taken (wr_ready) or of the check",
        ),
        option: "feed_events",
        built: crate::config::option::feed_events,
        wire: Wire::From(at("regs", "buffer_full")),
    },
    OptionPort {
        port: p(
            "pbt_target",
            In,
            PerThread(64),
            "pbt",
            "FEAT_SPE_PBT: the core's previous-branch-target register as the tagged branch found it (J1 `SPESamplePreviousBranchAddress`): the target of the last taken branch before it in program order, as the Address packet's payload: NS (63), EL (62:61), NSE (60, recorded as 0), 0 (59:56, recorded as 0), VA (55:0). The core updates it at each taken branch it counts (J1 `SPEBranch`: the ERET, exception entry and ISB choices are the core's)",
            "with br_done",
        ),
        option: "pbt",
        built: crate::config::option::pbt,
        wire: Wire::Into(&[at("tracker", "prev_target")]),
    },
    OptionPort {
        port: p(
            "pbt_valid",
            In,
            PerThread(1),
            "pbt",
            "FEAT_SPE_PBT: `pbt_target` is valid (J1 `SPESamplePreviousBranchAddressValid`): low after reset until a taken branch is counted, and after a taken branch while profiling was disabled or prohibited. A taken branch's record has the index-4 Address packet only with this high",
            "with br_done",
        ),
        option: "pbt",
        built: crate::config::option::pbt,
        wire: Wire::Into(&[at("tracker", "prev_valid")]),
    },
    OptionPort {
        port: p(
            "mem_fp_scalar",
            In,
            PerThread(1),
            "mem",
            "FEAT_SPE_EFT: the access is a scalar SIMD&FP load or store of a B/H/S/D register or a pair of them (J1 `SPESampleSIMDFPLoadStore` with `scalar`: a floating-point op for the type filter); low for a vector one and a Q register, pair of Q registers, structure or load-and-replicate, SIMD ops (D17.5.1, choice eft-simd). Read only for an op whose Operation Type is a SIMD&FP load or store (`disp_subclass` 0000010x), which is SIMD when `mem_done` never comes",
            "with mem_done",
        ),
        option: "eft",
        built: crate::config::option::eft,
        wire: Wire::Into(&[at("tracker", "fp_scalar_in")]),
    },
    OptionPort {
        port: p(
            "pmu_sample_feed_fp",
            Out,
            PerThread(1),
            "pmu",
            "SAMPLE_FEED_FP (0x8348): the sample reaching the filters is a floating-point operation (J1 `SPEFilterByType`: class Other or SVE with FP, or a scalar SIMD&FP load or store; whatever PMSFCR says). FEAT_SPE_EFT with the SAMPLE_FEED_* events",
            "reg, pulse: with pmu_sample_feed",
        ),
        option: "feed_events` and `Options::eft",
        built: crate::config::option::feed_eft,
        wire: Wire::From(at("filter", "feed_fp")),
    },
    OptionPort {
        port: p(
            "pmu_sample_feed_simd",
            Out,
            PerThread(1),
            "pmu",
            "SAMPLE_FEED_SIMD (0x8349): the sample reaching the filters is a SIMD operation (class Other with SIMD, an SVE vector op, an SVE/SME load or store, or a vector SIMD&FP load or store: choice eft-simd)",
            "reg, pulse: with pmu_sample_feed",
        ),
        option: "feed_events` and `Options::eft",
        built: crate::config::option::feed_eft,
        wire: Wire::From(at("filter", "feed_simd")),
    },
    OptionPort {
        port: p(
            "pmu_sample_feed_ds",
            Out,
            PerThread(1),
            "pmu",
            "SAMPLE_FEED_DS (0x8122): the sample reaching the filters is a load with a data source (`mem_done`) whose bits 5:0 select a set bit of PMSDSFR_EL1 (J1 `SPEFilterByDataSource`, whatever PMSFCR.FDS says). FEAT_SPE_FDS with the SAMPLE_FEED_* events",
            "reg, pulse: with pmu_sample_feed",
        ),
        option: "feed_events` and `Options::fds",
        built: crate::config::option::feed_fds,
        wire: Wire::From(at("filter", "feed_ds")),
    },
    OptionPort {
        port: p(
            "cpl_pred_not_full",
            In,
            PerThread(1),
            "cpl",
            "FEAT_SPEv1p1 with SVE or SME: the op is an SVE or SME operation and at least one element of its governing predicate (or predicates) was FALSE (Events E[17], partial or empty predicate; consistent with SVE_PRED_NOT_FULL_SPEC). Low for any other op. E[17] is also set with `cpl_pred_empty`",
            "with cpl_done",
        ),
        option: "sve_events",
        built: crate::config::option::sve_events,
        wire: Wire::Into(&[at("tracker", "pred_not_full")]),
    },
    OptionPort {
        port: p(
            "cpl_pred_empty",
            In,
            PerThread(1),
            "cpl",
            "FEAT_SPEv1p1 with SVE or SME: the op is an SVE or SME operation and every element of its governing predicate (or predicates) was FALSE (Events E[18], empty predicate, and E[17]; consistent with SVE_PRED_EMPTY_SPEC). Low for any other op",
            "with cpl_done",
        ),
        option: "sve_events",
        built: crate::config::option::sve_events,
        wire: Wire::Into(&[at("tracker", "pred_empty")]),
    },
    OptionPort {
        port: p(
            "mem_l2d_access",
            In,
            PerThread(1),
            "mem",
            "FEAT_SPEv1p4: E[19], L2D access: the load accessed at least the level 2 data or unified cache (L2D_CACHE_RD). The record has it for a load (an op with `is_load`: a load or a load atomic) only",
            "with mem_done",
        ),
        option: "v1p4_events",
        built: crate::config::option::v1p4_events,
        wire: Wire::Into(&[at("tracker", "v4_in").element(0)]),
    },
    OptionPort {
        port: p(
            "mem_l2d_miss",
            In,
            PerThread(1),
            "mem",
            "FEAT_SPEv1p4: E[20], L2D miss: the load accessed and missed the level 2 data or unified cache, not counting an access met by the refill of an earlier miss (L2D_CACHE_LMISS_RD). The record has it for a load (an op with `is_load`: a load or a load atomic) only",
            "with mem_done",
        ),
        option: "v1p4_events",
        built: crate::config::option::v1p4_events,
        wire: Wire::Into(&[at("tracker", "v4_in").element(1)]),
    },
    OptionPort {
        port: p(
            "mem_hitm",
            In,
            PerThread(1),
            "mem",
            "FEAT_SPEv1p4: E[21], cache data modified: the load accessed modified data in a cache (a cache hit, a snoop hit or both: your IMPLEMENTATION DEFINED choice; Lx_CACHE_HITM_RD, DSNP_HITM_RD). The record has it for a load (an op with `is_load`: a load or a load atomic) only",
            "with mem_done",
        ),
        option: "v1p4_events",
        built: crate::config::option::v1p4_events,
        wire: Wire::Into(&[at("tracker", "v4_in").element(2)]),
    },
    OptionPort {
        port: p(
            "mem_lfb",
            In,
            PerThread(1),
            "mem",
            "FEAT_SPEv1p4: E[22], recently fetched: the load hit a recently fetched line in a cache (a line-fill-buffer hit; Lx_LFB_HIT_RD). The record has it for a load (an op with `is_load`: a load or a load atomic) only",
            "with mem_done",
        ),
        option: "v1p4_events",
        built: crate::config::option::v1p4_events,
        wire: Wire::Into(&[at("tracker", "v4_in").element(3)]),
    },
    OptionPort {
        port: p(
            "mem_snooped",
            In,
            PerThread(1),
            "mem",
            "FEAT_SPEv1p4: E[23], data snooped: the load snooped data from a cache outside this PE's cache hierarchy (DSNP_HIT_RD). The record has it for a load (an op with `is_load`: a load or a load atomic) only",
            "with mem_done",
        ),
        option: "v1p4_events",
        built: crate::config::option::v1p4_events,
        wire: Wire::Into(&[at("tracker", "v4_in").element(4)]),
    },
    OptionPort {
        port: p(
            "cpl_streaming",
            In,
            PerThread(1),
            "cpl",
            "FEAT_SPE_SME: E[24], Streaming SVE mode: the PE was in Streaming SVE mode (PSTATE.SM = 1) when the op executed (J1 SPECompleteSample)",
            "with cpl_done",
        ),
        option: "sme",
        built: crate::config::option::sme,
        wire: Wire::Into(&[at("tracker", "sme_in").element(0)]),
    },
    OptionPort {
        port: p(
            "cpl_smcu",
            In,
            PerThread(1),
            "cpl",
            "FEAT_SPE_SME: E[25], SME compute unit: the op executed on an SMCU or another external coprocessor or shared resource (J1 SPESampleOnSharedResource)",
            "with cpl_done",
        ),
        option: "sme",
        built: crate::config::option::sme,
        wire: Wire::Into(&[at("tracker", "sme_in").element(1)]),
    },
    OptionPort {
        port: p(
            "mdcr_pmsee",
            In,
            PerThread(2),
            "dispatch",
            "FEAT_SPE_EXC: MDCR_EL3.PMSEE (Arm ARM D24.3): 00 buffer management events in PMBSR_EL1 with PMBIRQ, whatever PMSCR says; 01 delegated to PMSCR_EL2/EL1.EE (drive 01 on a core without EL3); 10 the events that target EL3 (a synchronous external abort on a buffer write with `scr_ea`) in PMBSR_EL3; 11 every event in PMBSR_EL3 (J1 `ReportSPEEvent`)",
            "per cycle",
        ),
        option: "exc",
        built: crate::config::option::exc,
        wire: Wire::Into(&[at("regs", "x_pmsee")]),
    },
    OptionPort {
        port: p(
            "scr_ea",
            In,
            PerThread(1),
            "dispatch",
            "FEAT_SPE_EXC: SCR_EL3.EA: with `mdcr_pmsee` = 10, a synchronous external abort on a buffer write targets EL3 (J1 `ReportSPEEvent`, `EffectiveEA`)",
            "per cycle",
        ),
        option: "exc",
        built: crate::config::option::exc,
        wire: Wire::Into(&[at("regs", "x_ea")]),
    },
    OptionPort {
        port: p(
            "hcr_tea",
            In,
            PerThread(1),
            "dispatch",
            "FEAT_SPE_EXC: HCR_EL2.TEA (with `el2_en`): with PMSCR_EL2.EE = 10, a synchronous external abort on a buffer write targets EL2 (J1 `ReportSPEEvent`, `EffectiveHCR_TEA`)",
            "per cycle",
        ),
        option: "exc",
        built: crate::config::option::exc,
        wire: Wire::Into(&[at("regs", "x_tea")]),
    },
    OptionPort {
        port: p(
            "exc_el1",
            Out,
            PerThread(1),
            "interrupt",
            "FEAT_SPE_EXC: an SPE Profiling exception for EL1 is pending: PMSCR_EL1.EE is effectively 11 and PMBSR_EL1.S = 1 (J1 `CheckForSPEException`). The core takes it (EC 0x3D, asynchronous) to EL1, or to EL2 when HCR_EL2.TGE is effectively 1, when unmasked: in the owning Security state, below EL2, and at EL1 only with `exc_ke1` and PSTATE.PM = 0",
            "comb: from the registers and this cycle's `mdcr_pmsee` and `el2_en` (PMBSR.S as irq)",
        ),
        option: "exc",
        built: crate::config::option::exc,
        wire: Wire::From(at("regs", "exc_out").bit(0)),
    },
    OptionPort {
        port: p(
            "exc_el2",
            Out,
            PerThread(1),
            "interrupt",
            "FEAT_SPE_EXC: an SPE Profiling exception for EL2 is pending: PMSCR_EL2.EE is effectively 1x and PMBSR_EL2.S = 1; unmasked in the owning Security state below EL3, at EL2 only with `exc_ke2` and PSTATE.PM = 0 (J1 `CheckForSPEException`)",
            "comb: from the registers and this cycle's `mdcr_pmsee` and `el2_en` (PMBSR.S as irq)",
        ),
        option: "exc",
        built: crate::config::option::exc,
        wire: Wire::From(at("regs", "exc_out").bit(1)),
    },
    OptionPort {
        port: p(
            "exc_el3",
            Out,
            PerThread(1),
            "interrupt",
            "FEAT_SPE_EXC: an SPE Profiling exception for EL3 is pending: MDCR_EL3.PMSEE is 1x and PMBSR_EL3.S = 1; masked at EL3 (J1 `CheckForSPEException`)",
            "comb: from the registers and this cycle's `mdcr_pmsee` and `el2_en` (PMBSR.S as irq)",
        ),
        option: "exc",
        built: crate::config::option::exc,
        wire: Wire::From(at("regs", "exc_out").bit(2)),
    },
    OptionPort {
        port: p(
            "exc_ke1",
            Out,
            PerThread(1),
            "interrupt",
            "FEAT_SPE_EXC: PMSCR_EL1.KE: the EL1 exception may be taken at EL1 (with PSTATE.PM = 0)",
            "reg: from the registers",
        ),
        option: "exc",
        built: crate::config::option::exc,
        wire: Wire::From(at("regs", "exc_out").bit(3)),
    },
    OptionPort {
        port: p(
            "exc_ke2",
            Out,
            PerThread(1),
            "interrupt",
            "FEAT_SPE_EXC: PMSCR_EL2.EE = 11 and PMSCR_EL2.KE: the EL2 exception may be taken at EL2 (with PSTATE.PM = 0)",
            "reg: from the registers",
        ),
        option: "exc",
        built: crate::config::option::exc,
        wire: Wire::From(at("regs", "exc_out").bit(4)),
    },
    OptionPort {
        port: p(
            "wr_addr_space",
            Out,
            Bits(2),
            "memory port",
            "FEAT_SPE_nVM: what `wr_addr` is: 00 a virtual address (translate it as today), 01 an IPA (stage 2 only: EL1 owns the buffer with EL2 enabled), 10 a physical address (no translation); 11 never. From the Effective value of PMBLIMITR_EL1.nVM (J1 `EffectivePMBLIMITR_EL1_nVM`) and the owner in the record's grant cycle (Arm ARM D17.7.2)",
            "reg, with wr_valid (zero when low)",
        ),
        option: "nvm",
        built: crate::config::option::nvm,
        wire: Wire::From(at("writer", "nvm_out").bits(11, 10)),
    },
    OptionPort {
        port: p(
            "wr_mem_attr",
            Out,
            Bits(10),
            "memory port",
            "FEAT_SPE_nVM: the beat's memory attributes when `wr_addr_space` is not 00: PMBMAR_EL1's SH (bits 9:8) and Attr (bits 7:0, MAIR encoding) of the record's grant cycle; zero with a virtual address (the translation tables give its attributes)",
            "reg, with wr_valid (zero when low)",
        ),
        option: "nvm",
        built: crate::config::option::nvm,
        wire: Wire::From(at("writer", "nvm_out").bits(9, 0)),
    },
];

const fn p(
    name: &'static str,
    dir: Dir,
    width: Width,
    group: &'static str,
    meaning: &'static str,
    timing: &'static str,
) -> Port {
    Port {
        name,
        dir,
        width,
        group,
        meaning,
        timing,
    }
}

use crate::wiring::{at, Wire};
use Dir::{In, Out};
use Width::{Bits, PerSlot, PerThread};

/// Every port of `spe_top` except `clk`.
pub const PORTS: &[Port] = &[
    p(
        "reset",
        In,
        Bits(1),
        "clock/reset",
        "Synchronous active-high reset: state returns to reset values at the edge",
        "sampled at the edge",
    ),
    // Dispatch hook.
    p(
        "disp_valid",
        In,
        PerSlot(1),
        "dispatch",
        "Slot holds a dispatched micro-op (slots are in program order, slot 0 oldest)",
        "per cycle",
    ),
    p(
        "disp_pc",
        In,
        PerSlot(56),
        "dispatch",
        "Virtual address of the op, bits 55:0 (the PC packet records 56 address bits)",
        "with disp_valid",
    ),
    p(
        "disp_class",
        In,
        PerSlot(2),
        "dispatch",
        "Operation Type class: 0 other, 1 load/store/atomic, 2 branch",
        "with disp_valid",
    ),
    p(
        "disp_subclass",
        In,
        PerSlot(8),
        "dispatch",
        "Operation Type payload (subclass bits as the packet encodes them). The unit clears the bits of features it does not build: ASE/FP of class Other without SVE/SME (FEAT_SPE_FPF; kept by a unit built with it, preset v1p4), GCS and CR of a branch (FEAT_SPE_CRR; a unit built with it, preset v1p4, keeps CR, 00 as 11, and GCS for a call or return: choice crr; such a call or return is also a store or a load for the type filter and SAMPLE_FEED_ST/LD); an SME array op, reserved without FEAT_SPE_SME, as Other with payload 0, and an EVL of 111 as 110 (choice sme-reserved; a unit built with FEAT_SPE_SME, presets v1p4 and smt2_v1p4, keeps both)",
        "with disp_valid",
    ),
    p(
        "disp_cond",
        In,
        PerSlot(1),
        "dispatch",
        "Op is conditional (enables the NOT-TAKEN event)",
        "with disp_valid",
    ),
    p(
        "disp_el",
        In,
        PerThread(2),
        "dispatch",
        "Exception level of the whole group",
        "per cycle",
    ),
    p(
        "disp_ns",
        In,
        PerThread(1),
        "dispatch",
        "Group is Non-secure",
        "per cycle",
    ),
    p(
        "el2_en",
        In,
        PerThread(1),
        "dispatch",
        "EL2 is implemented and enabled in the PE's Security state (J1 `EL2Enabled`: 0 on a core without EL2, and in Secure state without Secure EL2). With 0 the buffer's owner is EL1, CONTEXTIDR_EL2 is never collected, PMSCR_EL2.PA acts as 1 and PMSCR_EL2.PCT as \"use PMSCR_EL1.PCT\"; `mdcr_e2pb`, `hcr_tge` and `hcr_e2h` are ignored",
        "per cycle",
    ),
    p(
        "mdcr_e2pb",
        In,
        PerThread(2),
        "dispatch",
        "MDCR_EL2.E2PB: 00 the buffer is owned by EL2, any other value by EL1 (J1 `ProfilingBufferOwner`). An EL1 owner samples nothing at EL2 or under HCR_EL2.TGE = 1, and PMSCR_EL2.E2SPE/E0HSPE have no effect; the owner picks TS, PA and PCT (J1 `CollectTimeStamp`, `CollectPhysicalAddress`)",
        "per cycle",
    ),
    p(
        "hcr_tge",
        In,
        PerThread(1),
        "dispatch",
        "HCR_EL2.TGE: with an EL2 owner, EL0 uses PMSCR_EL2.E0HSPE and CONTEXTIDR_EL1 is not collected; with an EL1 owner nothing is sampled (J1 `StatisticalProfilingEnabled`)",
        "per cycle",
    ),
    p(
        "hcr_e2h",
        In,
        PerThread(1),
        "dispatch",
        "HCR_EL2.E2H: at EL2, or at EL0 with TGE = 1, the PE is in the host, where PCT = 00 records the physical count (J1 `IsInHost`, `CollectTimeStamp`)",
        "per cycle",
    ),
    p(
        "disp_aarch32",
        In,
        PerThread(1),
        "dispatch",
        "Group is in AArch32 state: not in the population",
        "per cycle",
    ),
    p(
        "prof_allowed",
        In,
        PerThread(1),
        "dispatch",
        "Profiling allowed: the core folds in what the unit does not see, low keeping the op out of the population (J1 `ProfilingBufferEnabled`): the PE not in Debug state (Halted), the PE's Security state being the buffer's owning one (MDCR_EL3.NSPB/NSPBE, SCR_EL3.NS/NSE), and EL3's other profiling policy",
        "per cycle",
    ),
    p(
        "tag",
        Out,
        PerSlot(1),
        "dispatch",
        "One-hot (or zero): this slot's op is sampled; store the tag bit with the op",
        "comb",
    ),
    // Issue hook.
    p(
        "iss_valid",
        In,
        PerThread(1),
        "issue",
        "The tagged op left its issue queue",
        "pulse, once",
    ),
    // Translation hook.
    p(
        "xl_start",
        In,
        PerThread(1),
        "translation",
        "Translation of the tagged op's data address starts",
        "pulse, once",
    ),
    p(
        "xl_va",
        In,
        PerThread(64),
        "translation",
        "Data virtual address (recorded whole, with the tag byte)",
        "with xl_start",
    ),
    p(
        "xl_done",
        In,
        PerThread(1),
        "translation",
        "Translation done",
        "pulse, after or with xl_start",
    ),
    p(
        "xl_pa",
        In,
        PerThread(56),
        "translation",
        "Physical address",
        "with xl_done",
    ),
    p(
        "xl_pa_ns",
        In,
        PerThread(1),
        "translation",
        "Physical address space of the access: 1 Non-secure, 0 Secure (the data PA packet's NS bit, Arm ARM D18.2.1; a Secure-state access to Non-secure memory is 1)",
        "with xl_done",
    ),
    p(
        "xl_tlb_access",
        In,
        PerThread(1),
        "translation",
        "Event TLB-ACCESS",
        "with xl_done",
    ),
    p(
        "xl_tlb_walk",
        In,
        PerThread(1),
        "translation",
        "Event TLB-REFILL (walk)",
        "with xl_done",
    ),
    // Memory hook.
    p(
        "mem_done",
        In,
        PerThread(1),
        "memory",
        "Memory access of the tagged op done",
        "pulse, once",
    ),
    p(
        "mem_source",
        In,
        PerThread(8),
        "memory",
        "Data source code (Data Source packet payload; loads only)",
        "with mem_done",
    ),
    p(
        "mem_l1d_access",
        In,
        PerThread(1),
        "memory",
        "Event L1D-ACCESS",
        "with mem_done",
    ),
    p(
        "mem_l1d_refill",
        In,
        PerThread(1),
        "memory",
        "Event L1D-REFILL",
        "with mem_done",
    ),
    p(
        "mem_llc_access",
        In,
        PerThread(1),
        "memory",
        "Event LLC-ACCESS",
        "with mem_done",
    ),
    p(
        "mem_llc_miss",
        In,
        PerThread(1),
        "memory",
        "Event LLC-REFILL",
        "with mem_done",
    ),
    p(
        "mem_remote",
        In,
        PerThread(1),
        "memory",
        "Event REMOTE-ACCESS",
        "with mem_done",
    ),
    p(
        "mem_misaligned",
        In,
        PerThread(1),
        "memory",
        "Event ALIGNMENT",
        "with mem_done",
    ),
    // Branch hook.
    p(
        "br_done",
        In,
        PerThread(1),
        "branch",
        "The tagged branch resolved",
        "pulse, once",
    ),
    p(
        "br_target",
        In,
        PerThread(56),
        "branch",
        "Branch target virtual address, bits 55:0 (as the target packet records it)",
        "with br_done",
    ),
    p(
        "br_target_el",
        In,
        PerThread(2),
        "branch",
        "Exception level at the target: the op's EL, except for an exception return (ERET to a lower EL) (the target packet's EL, Arm ARM D18.2.1)",
        "with br_done",
    ),
    p(
        "br_target_ns",
        In,
        PerThread(1),
        "branch",
        "Security state at the target (1 Non-secure): the op's, except for an exception return that changes it (the target packet's NS)",
        "with br_done",
    ),
    p(
        "br_taken",
        In,
        PerThread(1),
        "branch",
        "Branch taken (a conditional branch not taken sets NOT-TAKEN)",
        "with br_done",
    ),
    p(
        "br_mispred",
        In,
        PerThread(1),
        "branch",
        "Event MISPRED",
        "with br_done",
    ),
    p(
        "br_indirect",
        In,
        PerThread(1),
        "branch",
        "Indirect branch (ORed into the op-type IND bit)",
        "with br_done",
    ),
    // Completion hook.
    p(
        "cpl_done",
        In,
        PerThread(1),
        "completion",
        "The tagged op completed (retired or flushed); ends tracking",
        "pulse, once",
    ),
    p(
        "cpl_retired",
        In,
        PerThread(1),
        "completion",
        "Retired (event RETIRED); low: flushed",
        "with cpl_done",
    ),
    p(
        "cpl_exception",
        In,
        PerThread(1),
        "completion",
        "Op generated an exception (event EXCEPTION-GEN)",
        "with cpl_done",
    ),
    p(
        "cpl_cond_fail",
        In,
        PerThread(1),
        "completion",
        "Conditional non-branch op failed its condition (NOT-TAKEN)",
        "with cpl_done",
    ),
    p(
        "hook_stray",
        Out,
        PerThread(1),
        "hooks",
        "A hook report was ignored (nothing tracked, or not applicable to the tracked op)",
        "comb",
    ),
    p(
        "sample_timeout",
        Out,
        PerThread(1),
        "hooks",
        "The sampled op's `cpl_done` did not come in the 2^k cycles after its tag (k: the preset's completion timeout, gen/spe_tables.md presets): the sample is dropped, no record; count it to see lost completions",
        "comb; one cycle, 2^k cycles after the tag",
    ),
    // Context inputs.
    p(
        "ctx_el1",
        In,
        PerThread(32),
        "context",
        "CONTEXTIDR_EL1 (the register's value: in a VHE host the kernel's writes to CONTEXTIDR_EL1 are redirected by the core to CONTEXTIDR_EL2, so they arrive on `ctx_el2`)",
        "sampled in the tag cycle",
    ),
    p(
        "ctx_el2",
        In,
        PerThread(32),
        "context",
        "CONTEXTIDR_EL2",
        "sampled in the tag cycle",
    ),
    p(
        "cnt_virt",
        In,
        PerThread(64),
        "context",
        "Virtual counter: the physical count minus CNTVOFF_EL2 (CNTVCT outside the host). Recorded when the PCT controls select the virtual timestamp; in the host (`hcr_e2h`) the unit records `cnt_phys` instead (J1 `CollectTimeStamp`: IsInHost gives the physical timestamp)",
        "sampled in the tag cycle",
    ),
    p(
        "cnt_phys",
        In,
        Bits(64),
        "context",
        "Physical counter (CNTPCT)",
        "sampled in the tag cycle",
    ),
    // Register port.
    p(
        "reg_en",
        In,
        Bits(1),
        "registers",
        "Register access this cycle",
        "per cycle",
    ),
    p(
        "reg_we",
        In,
        Bits(1),
        "registers",
        "Access is a write",
        "with reg_en",
    ),
    p(
        "reg_addr",
        In,
        Bits(5),
        "registers",
        "{op1 == 4, CRm[0], op2} of the system register, after the core's VHE redirection: at EL2 with HCR_EL2.E2H = 1 an access to PMSCR_EL1 reaches PMSCR_EL2 (op1 = 4) and one to PMSCR_EL12 (op1 = 5) reaches PMSCR_EL1, so a VHE host kernel's driver, which writes PMSCR_EL1, controls PMSCR_EL2",
        "with reg_en",
    ),
    p(
        "reg_wdata",
        In,
        Bits(64),
        "registers",
        "Write data (RES0 bits dropped)",
        "with reg_we",
    ),
    p(
        "reg_rdata",
        Out,
        Bits(64),
        "registers",
        "Value of the register at reg_addr (zero if none); reads have no side effects",
        "comb",
    ),
    // Memory write port.
    p(
        "wr_valid",
        Out,
        Bits(1),
        "memory port",
        "A record beat is offered",
        "reg; a kept record's first beat two cycles after its filter cycle (the SAMPLE_FEED pulse; the cycle between checks the room); with more than one thread two cycles after its grant, three or more after its filter cycle (docs/smt.md)",
    ),
    p(
        "wr_addr",
        Out,
        Bits(64),
        "memory port",
        "Virtual address of the beat (8-byte aligned; the core translates it)",
        "reg, held until accepted",
    ),
    p(
        "wr_data",
        Out,
        Bits(64),
        "memory port",
        "Eight record bytes, little-endian (byte at wr_addr in bits 7:0)",
        "reg, held until accepted",
    ),
    p(
        "wr_strb",
        Out,
        Bits(8),
        "memory port",
        "Byte enables (all ones)",
        "reg",
    ),
    p(
        "wr_ready",
        In,
        Bits(1),
        "memory port",
        "Memory accepts the beat (handshake: wr_valid && wr_ready)",
        "per cycle",
    ),
    p(
        "wr_err",
        In,
        Bits(1),
        "memory port",
        "The accepted beat faulted; the record ends (PMBSR as `wr_err_kind` says)",
        "with the handshake",
    ),
    p(
        "wr_err_kind",
        In,
        Bits(2),
        "memory port",
        "Kind of the fault: 00 external abort (EA = 1, FSC 010000), 01 stage-1 MMU fault (translation, access flag, permission: EC 100100 with `wr_err_fsc`, EA unchanged), 10 stage-2 fault (EC 100101 with `wr_err_fsc`), 11 reserved (as 00). DL is set unless the faulting beat is the record's first (Arm ARM D17.8.4)",
        "with wr_err",
    ),
    p(
        "wr_err_fsc",
        In,
        Bits(6),
        "memory port",
        "Fault status code of a stage-1 or stage-2 fault (PMBSR.MSS[5:0])",
        "with wr_err",
    ),
    // Interrupt and PMU events.
    p(
        "irq",
        Out,
        PerThread(1),
        "interrupt",
        "PMBIRQ: level, high while PMBSR.S = 1",
        "reg; buffer full with no room for a kept record: high two cycles after its filter cycle (with more than one thread, after its grant); after a record: the cycle after its last beat's handshake",
    ),
    p(
        "pmu_sample_pop",
        Out,
        PerThread(4),
        "pmu",
        "SAMPLE_POP: number of ops counted into the population this cycle",
        "comb",
    ),
    p(
        "pmu_sample_feed",
        Out,
        PerThread(1),
        "pmu",
        "SAMPLE_FEED: a sample completed and reaches the filters",
        "reg, pulse",
    ),
    p(
        "pmu_sample_filtrate",
        Out,
        PerThread(1),
        "pmu",
        "SAMPLE_FILTRATE: a sample passed the filters",
        "reg, pulse",
    ),
    p(
        "pmu_sample_collision",
        Out,
        PerThread(1),
        "pmu",
        "SAMPLE_COLLISION: a sample was selected while one was in flight",
        "comb",
    ),
    // Profiling synchronization (PSB CSYNC).
    p(
        "psb_req",
        In,
        PerThread(1),
        "synchronization",
        "PSB CSYNC: the core executes a PSB and holds this high until psb_done; a sample still being tracked is dropped in every cycle this is high",
        "level, per cycle",
    ),
    p(
        "psb_done",
        Out,
        PerThread(1),
        "synchronization",
        "The PSB is complete: every record of an op tagged before this cycle's edge is written (PMBPTR past it) or dropped, no write of it follows, and a PMBPTR / PMBLIMITR written from the next cycle on is not overwritten for it",
        "comb; high while psb_req is high and no record is in its filter, check or write cycles: at most 10 + B cycles after psb_req rises, B the cycles wr_ready is low while the record's beats are offered",
    ),
];

/// One rule of the hook protocol: a key and its text.
#[derive(Clone, Copy, Debug)]
pub struct HookRule {
    pub key: &'static str,
    pub rule: &'static str,
}

/// The hook protocol, every rule: what the unit accepts from the core's hook reports
/// (`iss_valid`, `xl_*`, `mem_*`, `br_*`, `cpl_*`), in which cycles and order, and what it
/// ignores. The golden model (`verif/model/src/capture.rs`, `unit.rs`) and the RTL tracker
/// implement exactly these; the lockstep regression's chaos breaks each of them.
pub const HOOK_RULES: &[HookRule] = &[
    HookRule {
        key: "window",
        rule: "A report counts for the sampled op from the cycle after its tag (`tag` high) up to and including the cycle of its `cpl_done`. A report in any other cycle (nothing in flight, the tag cycle itself, or once the op completed and its record is filtered or written) is ignored and pulses `hook_stray`.",
    },
    HookRule {
        key: "once",
        rule: "Each of `iss_valid`, `xl_start`, `xl_done`, `mem_done` and `br_done` is accepted once per sampled op; a repeat is ignored (the first report's data stay) and pulses `hook_stray`.",
    },
    HookRule {
        key: "class",
        rule: "Translation and memory reports are accepted for a load/store/atomic (class 1) only, branch reports for a branch (class 2) only; for any other op they are ignored and pulse `hook_stray`.",
    },
    HookRule {
        key: "translation-order",
        rule: "`xl_done` needs `xl_start` in the same or an earlier cycle; without it, it is ignored and pulses `hook_stray`. The translation latency counts the cycles from `xl_start` to `xl_done` (0 when they share a cycle).",
    },
    HookRule {
        key: "same-cycle",
        rule: "Any number of reports may share a cycle, `cpl_done` included: each one that passes the rules above is accepted, so a report in the completion cycle is part of the record.",
    },
    HookRule {
        key: "memory-order",
        rule: "`mem_done` is not ordered against the translation reports: the unit accepts it before, with or after `xl_done` (a core reports it after, as the access needs its PA). Its data source is recorded for loads only.",
    },
    HookRule {
        key: "optional",
        rule: "Every report but `cpl_done` is optional: without `iss_valid` the issue latency equals the total latency; without translation reports the record has no data VA, PA or TLB events; without `mem_done` no data source or cache events; without `br_done` a branch has no target packet and no taken, mispredicted or indirect information.",
    },
    HookRule {
        key: "completion",
        rule: "`cpl_done` ends the tracking: the next cycle is the record's filter cycle. `cpl_retired`, `cpl_exception` and `cpl_cond_fail` are read in the `cpl_done` cycle only.",
    },
    HookRule {
        key: "lost-completion",
        rule: "An op whose `cpl_done` has not come 2^k cycles after its tag (k: the preset's completion timeout, 20 or 14) is dropped in that cycle, without a record, and `sample_timeout` pulses; a `cpl_done` in that very cycle still completes it. Until then the op is in flight (later selections are collisions: PMBSR.COLL, `pmu_sample_collision`); a PSB (`psb_req` drops a sample still tracked) or a reset ends it earlier.",
    },
];

/// The ports only a multithreaded unit (T > 1: presets `smt2`, `smt4`, `smt2_v1p4`) has, after
/// [`PORTS`] (docs/smt.md). The per-thread ports of [`PORTS`] (width `PerThread`) become T
/// copies in such a unit.
pub const SMT_PORTS: &[Port] = &[
    p(
        "disp_tid",
        In,
        Width::PerSlotThreadId,
        "dispatch",
        "The hardware thread of each slot's op: it counts towards that thread's interval counter and is sampled into that thread's buffer",
        "with disp_valid",
    ),
    p(
        "thr_active",
        In,
        PerThread(1),
        "dispatch",
        "Thread t was active and could issue an operation this cycle: its latency counters advance only then (Arm SPE overview: they count each cycle in which the thread was active and could issue)",
        "per cycle",
    ),
    p(
        "reg_tid",
        In,
        Width::ThreadId,
        "register port",
        "The thread whose registers the access reads or writes (the thread executing the MSR/MRS); the ID registers are the same for every thread",
        "with reg_en",
    ),
    p(
        "wr_tid",
        Out,
        Width::ThreadId,
        "memory write",
        "The thread whose buffer the offered beat is for: the core translates `wr_addr` in that thread's translation regime, and `wr_ready` / `wr_err*` answer that beat",
        "reg, with wr_valid",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn port_names_are_unique_verilog_safe_identifiers() {
        let mut seen = std::collections::HashSet::new();
        for port in all_ports() {
            assert!(seen.insert(port.name), "duplicate port {}", port.name);
            assert!(port
                .name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'));
            assert!(!port.name.contains("__"));
        }
    }

    #[test]
    fn lanes_make_up_each_port_of_every_preset() {
        for cfg in crate::PRESETS {
            for p in ports_of(cfg) {
                let (lanes, bits) = p.width.lanes_for(cfg.dispatch_width, cfg.threads);
                assert_eq!(
                    lanes as u32 * bits,
                    p.bits_for(cfg),
                    "{} in {}",
                    p.name,
                    cfg.name
                );
                let want = match p.width {
                    Width::PerSlot(_) | Width::PerSlotThreadId => cfg.dispatch_width,
                    Width::PerThread(_) => cfg.threads,
                    _ => 1,
                };
                assert_eq!(lanes, want, "{} in {}", p.name, cfg.name);
            }
        }
    }

    #[test]
    fn hook_report_ports_are_inputs_named_after_their_report() {
        for h in HOOK_REPORTS {
            let ports: Vec<_> = PORTS.iter().filter(|p| p.group == h.group).collect();
            assert!(!ports.is_empty(), "{}: no ports", h.group);
            for p in ports {
                assert_eq!(p.dir, Dir::In, "{}", p.name);
                assert_eq!(p.width, Width::PerThread(p.width.bits()), "{}", p.name);
                assert!(p.name.starts_with(h.prefix), "{}", p.name);
                assert_eq!(hook_report(p).map(|r| r.field), Some(h.field));
            }
        }
    }

    #[test]
    fn thread_number_widths_appear_only_in_the_smt_ports_and_names_stay_unique() {
        for port in PORTS {
            assert!(
                !matches!(port.width, Width::ThreadId | Width::PerSlotThreadId),
                "{}: a thread number port belongs in SMT_PORTS",
                port.name
            );
        }
        for port in SMT_PORTS {
            assert!(
                PORTS.iter().all(|q| q.name != port.name),
                "{} is in both tables",
                port.name
            );
        }
        let tid = SMT_PORTS.iter().find(|p| p.name == "reg_tid").unwrap();
        assert_eq!(tid.width.total_for(4, 1), 0);
        assert_eq!(tid.width.total_for(4, 2), 1);
        assert_eq!(tid.width.total_for(4, 4), 2);
        let slots = SMT_PORTS.iter().find(|p| p.name == "disp_tid").unwrap();
        assert_eq!(slots.width.total_for(8, 4), 16);
    }

    #[test]
    fn option_ports_follow_their_option_and_only_the_units_that_build_it_have_them() {
        for o in OPTION_PORTS {
            assert!(
                !matches!(o.port.width, Width::ThreadId | Width::PerSlotThreadId),
                "{}: a thread number port belongs in SMT_PORTS",
                o.port.name
            );
            let with: Vec<_> = crate::PRESETS.iter().filter(|c| (o.built)(c)).collect();
            for cfg in crate::PRESETS {
                let has = ports_of(cfg).any(|p| p.name == o.port.name);
                assert_eq!(has, (o.built)(cfg), "{}: {}", cfg.name, o.port.name);
                assert_eq!(has, option_port_built(o.port.name, cfg));
            }
            // Some preset builds each option port, and the default does not.
            assert!(!with.is_empty(), "{}: no preset has it", o.port.name);
            assert!(!(o.built)(&crate::PRESETS[0]), "{}", o.port.name);
        }
        assert!(!option_port_built("tag", &crate::PRESETS[0]));
    }

    #[test]
    fn register_address_port_is_as_wide_as_the_map() {
        let a = PORTS.iter().find(|p| p.name == "reg_addr").unwrap();
        assert_eq!(a.width, Width::Bits(crate::regs::PORT_ADDR_BITS));
        let pop = PORTS.iter().find(|p| p.name == "pmu_sample_pop").unwrap();
        // The count must hold MAX_DISPATCH_WIDTH.
        assert!(1u32 << pop.width.total(1) > crate::config::MAX_DISPATCH_WIDTH as u32);
    }
}
