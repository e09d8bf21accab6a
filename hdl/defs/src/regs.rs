//! The programming interface: register encodings, port addresses, fields, reset values,
//! RES0 masks and read/write rules.
//!
//! **Register port address.** The port address is derived from the system-register
//! encoding as `{op1 == 4, CRm[0], op2}` (5 bits), so every SPE register, including
//! PMSCR_EL2, gets its own slot; see [`port_addr`]. Addresses with no register read as zero
//! and ignore writes.
//!
//! **Write rule.** A write stores `data & writable_mask`; RES0 bits and unimplemented
//! fields read as zero. Read-only registers (PMSIDR_EL1, PMBIDR_EL1) ignore writes.
//! A register-port write in the same cycle as a hardware update of the same register wins
//! (software is last).
//!
//! **Reset.** Every read/write register resets to its table `reset` value, zero for all of
//! them (the architecture leaves most of them UNKNOWN on reset; zero means "profiling
//! disabled").
//!
//! **The table drives the RTL.** [`REGS`] is the one description of the registers: the
//! register block's flops (as wide as [`RegDef::storage_bits`], with the row's reset value),
//! its write decode with the writable masks and its read multiplexer are generated from it
//! (`hdl/rtl/build.rs`, `spe_gen::emit::rtl_macros`), as are the C header and the register table of `gen/spe_tables.md`.
//! Only what hardware does to a register ([`HwUpdate`]) and what the fields control are
//! written by hand.

use crate::config::{Config, CounterWidth};
use crate::Field;

/// Width of the register-port address in bits.
pub const PORT_ADDR_BITS: u32 = 5;

/// Register-port address from a system-register encoding: `{op1 != 0, CRm[0] ^ (op1 ==
/// 6), op2}`: the EL1 registers (op1 = 0) and the EL2 ones (op1 = 4) at `{op1 == 4, CRm[0],
/// op2}`, the EL3 one (PMBSR_EL3, op1 = 6) where no EL2 register is.
pub const fn port_addr(op1: u8, crm: u8, op2: u8) -> u8 {
    (((op1 != 0) as u8) << 4) | (((crm & 1) ^ ((op1 == 6) as u8)) << 3) | (op2 & 7)
}

/// Identifies one register of the unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RegId {
    PmscrEl1,
    PmscrEl2,
    Pmsnevfr,
    Pmsicr,
    Pmsirr,
    Pmsfcr,
    Pmsevfr,
    Pmslatfr,
    Pmsidr,
    Pmblimitr,
    Pmbptr,
    Pmbsr,
    Pmbidr,
    Pmsdsfr,
    Pmbmar,
    PmbsrEl2,
    PmbsrEl3,
}

/// How hardware changes a read/write register besides the register port. A port write in
/// the same cycle as a hardware update wins in every case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HwUpdate {
    /// Only the register port writes it (and reset).
    None,
    /// Hardware sets the value the register takes at the next clock edge (PMBPTR from the
    /// writer, PMBSR from the collision flag and the management events). Reads return the
    /// stored value.
    Next,
    /// Hardware computes the register's value every cycle from the stored one (PMSICR: the
    /// sampler's count after this cycle's dispatch group); reads return that value, and it
    /// is stored at every edge.
    Live,
}

/// How many copies of a register a unit holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bank {
    /// One per hardware thread: every SPE register belongs to a PE, and each thread of an
    /// SMT core is a PE with its own SPE (a single-threaded unit holds one copy).
    PerThread,
}

/// Static description of a register.
#[derive(Clone, Copy, Debug)]
pub struct RegDef {
    pub id: RegId,
    pub name: &'static str,
    /// System-register encoding `op0, op1, CRn, CRm, op2`.
    pub enc: (u8, u8, u8, u8, u8),
    /// True for ID registers: writes are ignored, reads return [`read_only_value`].
    pub read_only: bool,
    /// Value after reset of a read/write register (read-only registers read
    /// [`read_only_value`]).
    pub reset: u64,
    /// How hardware changes the register besides the register port.
    pub hw: HwUpdate,
    /// How many copies a unit holds.
    pub bank: Bank,
    /// Implemented fields (everything else is RES0).
    pub fields: &'static [Field],
    /// One-line purpose.
    pub desc: &'static str,
    /// The option that builds the register (`None`: every unit has it). A unit without it
    /// treats its address as unmapped: writable mask and reset value zero (it reads 0).
    pub option: Option<fn(&Config) -> bool>,
    /// The fields only some units build ([`OptField`]): writable in a unit whose option
    /// builds them, RES0 otherwise (whether or not [`RegDef::fields`] lists them).
    pub opt_fields: &'static [OptField],
    /// The bits a write can change in a unit of `cfg`, from the mask of [`RegDef::fields`],
    /// before the optional fields are cut or added (a field narrower in some units is cut
    /// here; [`writable`] holds the rules).
    pub writable: fn(&Config, u64) -> u64,
}

/// A field an option builds: writable (and read back) only in a unit of `cfg` where
/// `built(cfg)` (one of `crate::config::option`'s), RES0 otherwise.
#[derive(Clone, Copy, Debug)]
pub struct OptField {
    pub field: Field,
    pub built: fn(&Config) -> bool,
}

/// `field`, built by `built`.
pub const fn opt(field: Field, built: fn(&Config) -> bool) -> OptField {
    OptField { field, built }
}

impl RegDef {
    /// The register-port address.
    pub const fn addr(&self) -> u8 {
        port_addr(self.enc.1, self.enc.3, self.enc.4)
    }
    /// True when a unit of `cfg` has the register.
    pub fn built(&self, cfg: &Config) -> bool {
        self.option.is_none_or(|f| f(cfg))
    }
    /// Bits that a write can change (zero for read-only registers and for a register the
    /// unit does not build): the row's [`RegDef::writable`] of its fields' mask.
    pub fn writable_mask(&self, cfg: &Config) -> u64 {
        if self.read_only || !self.built(cfg) {
            return 0;
        }
        let fields = self.fields.iter().fold(0, |m, f| m | f.mask());
        let (all, built) = self.opt_fields.iter().fold((0, 0), |(a, b), o| {
            let m = o.field.mask();
            (a | m, if (o.built)(cfg) { b | m } else { b })
        });
        ((self.writable)(cfg, fields) & !all) | built
    }
    /// Value after reset.
    pub fn reset_value(&self, cfg: &Config) -> u64 {
        if self.read_only {
            read_only_value(self.id, cfg)
        } else if self.built(cfg) {
            self.reset
        } else {
            0
        }
    }
    /// Bits of storage a read/write register needs: up to its highest implemented field
    /// (read-back zero-extends it to 64 bits).
    pub fn storage_bits(&self) -> u32 {
        self.fields
            .iter()
            .map(|f| f.lsb + f.width)
            .max()
            .unwrap_or(0)
    }
}

/// MDCR_EL3.PMSEE, the core's field the unit sees on `mdcr_pmsee` (FEAT_SPE_EXC, Arm ARM
/// D24.3): 00 every event in PMBSR_EL1 and PMBIRQ (EL2's EE is effectively 00 too), 01 EL3
/// delegates to PMSCR_EL2/EL1.EE (the value without EL3), 10 the events that target EL3
/// (J1 `ReportSPEEvent`) in PMBSR_EL3, 11 every event in PMBSR_EL3.
pub mod mdcr_pmsee {
    pub const DISABLED: u8 = 0b00;
    pub const DELEGATED: u8 = 0b01;
    pub const ENABLED: u8 = 0b10;
    pub const TRAP_ALL: u8 = 0b11;
}

/// MDCR_EL2.E2PB, the core's register the unit sees on `mdcr_e2pb` (Arm ARM D24; J1
/// `ProfilingBufferOwner`): 00 gives the buffer to EL2, any other value to EL1.
pub mod mdcr_e2pb {
    /// The buffer is owned by EL2 (a VHE host's value under Linux).
    pub const EL2_OWNS: u8 = 0b00;
    /// The buffer is owned by EL1 and EL1 may access it (Linux's value without VHE).
    pub const EL1_OWNS: u8 = 0b11;
}

/// Sampling control (PMSCR_EL1 and PMSCR_EL2 share this layout; bits 0/1 are E0SPE/E1SPE
/// in EL1 and E0HSPE/E2SPE in EL2).
pub mod pmscr {
    use crate::Field;
    pub const E0SPE: Field = Field::new(
        "E0SPE",
        0,
        1,
        "Enable sampling at EL0 (E0HSPE in PMSCR_EL2: EL0 in host)",
    );
    pub const E1SPE: Field = Field::new(
        "E1SPE",
        1,
        1,
        "Enable sampling at EL1 (E2SPE in PMSCR_EL2: EL2)",
    );
    pub const CX: Field = Field::new("CX", 3, 1, "Collect CONTEXTIDR_ELx in a Context packet");
    pub const PA: Field = Field::new("PA", 4, 1, "Collect the data physical address");
    pub const TS: Field = Field::new(
        "TS",
        5,
        1,
        "Collect a timestamp (record ends with Timestamp instead of End)",
    );
    pub const PCT: Field = Field::new(
        "PCT",
        6,
        2,
        "Timestamp counter: 00 virtual, 01 physical, 11 physical (offset), 10 reserved; bit 7 RES0 without FEAT_ECV",
    );
    /// FEAT_SPE_EXC (Arm ARM D24.7.8, D24.7.9): EE, how buffer management events are
    /// reported (00 PMBIRQ; 11 an SPE Profiling exception, PMBSR_EL1's for EL1, every event's
    /// in PMBSR_EL2 for EL2; PMSCR_EL2.EE 10 only the events that target EL2, 01 delegated
    /// to EL1; PMSCR_EL1.EE 01 and 10, FEAT_NV's, are used as 00 here: choice exc), and
    /// KE, whether the exception may be taken at its own EL (with PSTATE.PM = 0). Writable
    /// only in a unit that builds FEAT_SPE_EXC, RES0 otherwise; not in the FIELDS lists
    /// (stored beside the registers' 8 bits).
    pub const EE: Field = Field::new(
        "EE",
        8,
        2,
        "Buffer management events as SPE Profiling exceptions (FEAT_SPE_EXC): 00 PMBIRQ, 11 exceptions (EL2: 01 delegated to EL1, 10 the events that target EL2)",
    );
    pub const KE: Field = Field::new(
        "KE",
        10,
        1,
        "The SPE Profiling exception may be taken at this EL when PSTATE.PM is 0 (FEAT_SPE_EXC)",
    );
    /// PCT's high bit (bit 7): RES0 unless the configuration has FEAT_ECV.
    pub const PCT_ECV_BIT: u64 = 1 << (PCT.lsb + PCT.width - 1);
    /// PMSCR_EL2.EnVM (FEAT_SPE_nVM, Arm ARM D24.7.9): 1 permits physical-address buffer
    /// pointers to an EL1 owner; its Effective value is 1 when EL2 is disabled or owns the
    /// buffer. Writable only in a unit that builds FEAT_SPE_nVM, RES0 otherwise; not in
    /// [`FIELDS_EL2`] (stored beside the register's 8 bits). PMSCR_EL1's bit 11 is RES0
    /// here (the Arm ARM reserves it for software only with FEAT_NV). choice: nvm
    pub const ENVM: Field = Field::new(
        "EnVM",
        11,
        1,
        "Permit physical-address buffer pointers under an EL1 owner (FEAT_SPE_nVM)",
    );
    pub const FIELDS_EL1: &[Field] = &[E0SPE, E1SPE, CX, PA, TS, PCT];
    pub const FIELDS_EL2: &[Field] = &[
        Field::new(
            "E0HSPE",
            0,
            1,
            "Enable sampling at EL0 when EL0 runs in the EL2 host (`host` input)",
        ),
        Field::new("E2SPE", 1, 1, "Enable sampling at EL2"),
        Field::new(
            "CX",
            3,
            1,
            "Collect CONTEXTIDR_EL2 in a Context packet (0x65)",
        ),
        Field::new(
            "PA",
            4,
            1,
            "Allow (at EL1/EL0 guest) or enable (at EL2/host) physical address collection",
        ),
        Field::new("TS", 5, 1, "Collect a timestamp at EL2 and in the host"),
        Field::new(
            "PCT",
            6,
            2,
            "EL2 timestamp control; a physical timestamp at EL1 needs PCT!=00 here too; bit 7 RES0 without FEAT_ECV",
        ),
    ];
    /// PCT encodings.
    pub const PCT_VIRTUAL: u64 = 0b00;
    pub const PCT_PHYSICAL: u64 = 0b01;
    pub const PCT_RESERVED: u64 = 0b10;
    pub const PCT_OFFSET_PHYSICAL: u64 = 0b11;
}

/// PMSICR_EL1: the interval counter.
pub mod pmsicr {
    use crate::Field;
    pub const COUNT: Field =
        Field::new("COUNT", 0, 32, "Current value of the interval down-counter");
    /// FEAT_SPE_ERnd's secondary counter: writable only in a unit that builds it
    /// (`Options::ernd`), RES0 otherwise; not in [`FIELDS`], whose register storage
    /// is the 32 bits of COUNT.
    pub const ECOUNT: Field = Field::new(
        "ECOUNT",
        56,
        8,
        "Secondary interval counter (FEAT_SPE_ERnd): the op that brings it to zero is sampled",
    );
    pub const FIELDS: &[Field] = &[COUNT];
}

/// PMSIRR_EL1: the interval reload.
pub mod pmsirr {
    use crate::Field;
    pub const RND: Field = Field::new(
        "RND",
        0,
        1,
        "Add pseudo-random jitter (low 8 bits of the reload value)",
    );
    pub const INTERVAL: Field = Field::new(
        "INTERVAL",
        8,
        24,
        "Reload value bits 31:8 (the period is INTERVAL << 8)",
    );
    pub const FIELDS: &[Field] = &[RND, INTERVAL];
}

/// PMSFCR_EL1: filter control. FDS only in a unit that builds FEAT_SPE_FDS (`Options::fds`),
/// the FEAT_SPE_EFT bits only in one that builds it (`Options::eft`); RES0 elsewhere.
pub mod pmsfcr {
    use crate::Field;
    pub const FE: Field = Field::new("FE", 0, 1, "Enable the event filter (PMSEVFR_EL1)");
    pub const FT: Field = Field::new("FT", 1, 1, "Enable the type filter (B/LD/ST)");
    pub const FL: Field = Field::new(
        "FL",
        2,
        1,
        "Enable the minimum-latency filter (PMSLATFR_EL1)",
    );
    /// FEAT_SPE_FnE: writable only in a unit that builds it (`Options::fne`), RES0
    /// otherwise.
    pub const FNE: Field = Field::new(
        "FnE",
        3,
        1,
        "Enable the inverted event filter (PMSNEVFR_EL1; FEAT_SPE_FnE, RES0 without it)",
    );
    /// FEAT_SPE_FDS: writable only in a unit that builds it (`Options::fds`), RES0
    /// otherwise (not in [`FIELDS`]).
    pub const FDS: Field = Field::new(
        "FDS",
        4,
        1,
        "Enable the data-source filter (PMSDSFR_EL1; FEAT_SPE_FDS)",
    );
    pub const B: Field = Field::new("B", 16, 1, "Type filter: keep branches");
    pub const LD: Field = Field::new("LD", 17, 1, "Type filter: keep loads (and atomics)");
    pub const ST: Field = Field::new("ST", 18, 1, "Type filter: keep stores (and atomics)");
    pub const FIELDS: &[Field] = &[FE, FT, FL, FNE, B, LD, ST];
    // FEAT_SPE_EFT: writable only in a unit that builds it (`Options::eft`), RES0
    // otherwise; not in [`FIELDS`], whose register storage ends at ST. With B, LD and ST
    // they are J1 SPEFilterByType's TYPE (bits 20:16: B, LD, ST, FP, SIMD) and TYPEm (bits
    // 52:48, in the same order) fields.
    pub const FP: Field = Field::new(
        "FP",
        19,
        1,
        "Type filter: keep floating-point operations (FEAT_SPE_EFT)",
    );
    pub const SIMD: Field = Field::new(
        "SIMD",
        20,
        1,
        "Type filter: keep SIMD operations (FEAT_SPE_EFT)",
    );
    pub const BM: Field = Field::new(
        "Bm",
        48,
        1,
        "B is an AND term: a kept op is a branch if B = 1, not one if B = 0 (FEAT_SPE_EFT)",
    );
    pub const LDM: Field = Field::new("LDm", 49, 1, "LD is an AND term (FEAT_SPE_EFT)");
    pub const STM: Field = Field::new("STm", 50, 1, "ST is an AND term (FEAT_SPE_EFT)");
    pub const FPM: Field = Field::new("FPm", 51, 1, "FP is an AND term (FEAT_SPE_EFT)");
    pub const SIMDM: Field = Field::new("SIMDm", 52, 1, "SIMD is an AND term (FEAT_SPE_EFT)");
    /// The bits FEAT_SPE_EFT adds: FP, SIMD and TYPEm (Bm, LDm, STm, FPm, SIMDm).
    pub const EFT_MASK: u64 = FP.mask() | SIMD.mask() | TYPEM.mask();
    /// J1's TYPE and TYPEm fields: five bits each, B, LD, ST, FP, SIMD from bit 0.
    pub const TYPE: Field = Field::new("TYPE", 16, 5, "B, LD, ST, FP, SIMD");
    pub const TYPEM: Field = Field::new("TYPEm", 48, 5, "Bm, LDm, STm, FPm, SIMDm");
}

/// PMSEVFR_EL1 / PMSNEVFR_EL1: event masks, same bit positions as the Events packet.
pub mod pmsevfr {
    use crate::Field;
    pub const FIELDS: &[Field] = &[Field::new(
        "E",
        1,
        11,
        "Event bits 11:1 (the filterable events of `events::FILTERABLE_MASK`, E[6] with FEAT_SPE_FnE); bit 0 and bits 63:12 are RES0 but for the options' events",
    )];
    /// E[18:17], the SVE events (`Options::sve_events`; RES0 without it).
    pub const SVE: Field = Field::new(
        "E[18:17]",
        17,
        2,
        "Partial or empty predicate, empty predicate (FEAT_SPEv1p1 with SVE; `Options::sve_events`)",
    );
    /// E[23:19], the SPEv1p4 events (`Options::v1p4_events`; RES0 without it).
    pub const V1P4: Field = Field::new(
        "E[23:19]",
        19,
        5,
        "L2D access, L2D miss, cache data modified, recently fetched, data snooped (FEAT_SPEv1p4; `Options::v1p4_events`)",
    );
    /// E[25:24], the SME events (`Options::sme`; RES0 without it).
    pub const SME: Field = Field::new(
        "E[25:24]",
        24,
        2,
        "Streaming SVE mode, SME compute unit or other shared resource (FEAT_SPE_SME; `Options::sme`)",
    );
}

/// PMSDSFR_EL1 (FEAT_SPE_FDS, only in a unit that builds it): the data-source filter.
pub mod pmsdsfr {
    use crate::Field;
    pub const S: Field = Field::new(
        "S",
        0,
        64,
        "Bit n keeps the loads whose data source's bits 5:0 are n (with PMSFCR.FDS; SAMPLE_FEED_DS whatever FDS says)",
    );
    pub const FIELDS: &[Field] = &[S];
    /// The bits of a data source that index the register (J1 `data_source<5:0>`).
    pub const SOURCE_INDEX_MASK: u8 = 0x3f;
}

/// PMSLATFR_EL1: minimum latency. MINLAT is as wide as the latency counters (12 or 16 bits).
pub mod pmslatfr {
    use crate::Field;
    pub const MINLAT_FIELD: Field = Field::new(
        "MINLAT",
        0,
        16,
        "Minimum total latency kept when FL=1 (bits above the counter width are RES0)",
    );
    pub const FIELDS: &[Field] = &[MINLAT_FIELD];
}

/// PMSIDR_EL1: sampling ID (read-only).
pub mod pmsidr {
    use crate::Field;
    pub const FE: Field = Field::new("FE", 0, 1, "Event filter implemented");
    pub const FT: Field = Field::new("FT", 1, 1, "Type filter implemented");
    pub const FL: Field = Field::new("FL", 2, 1, "Latency filter implemented");
    pub const ARCHINST: Field = Field::new(
        "ArchInst",
        3,
        1,
        "Population is architectural instructions (0: micro-ops)",
    );
    pub const LDS: Field = Field::new("LDS", 4, 1, "Loads carry a Data Source packet");
    pub const ERND: Field = Field::new(
        "ERnd",
        5,
        1,
        "Random interval uses ECOUNT (0: low-byte jitter)",
    );
    pub const FNE: Field = Field::new("FnE", 6, 1, "Inverted event filter implemented");
    pub const FDS: Field = Field::new("FDS", 7, 1, "Data-source filter implemented");
    pub const INTERVAL: Field = Field::new(
        "Interval",
        8,
        4,
        "Recommended minimum interval (0b0100 = 1024)",
    );
    pub const MAXSIZE: Field = Field::new("MaxSize", 12, 4, "Largest record is 2^MaxSize bytes");
    pub const COUNTSIZE: Field = Field::new(
        "CountSize",
        16,
        4,
        "0b0010 12-bit saturating, 0b0011 16-bit saturating",
    );
    pub const FORMAT: Field = Field::new("Format", 20, 4, "Record format");
    pub const PBT: Field = Field::new("PBT", 24, 1, "Previous-branch-target packet implemented");
    pub const CRR: Field = Field::new(
        "CRR",
        25,
        1,
        "Call/return branch types (CR) in the Operation Type packet",
    );
    pub const EFT: Field = Field::new(
        "EFT",
        26,
        1,
        "Extended type filter: PMSFCR_EL1.FP, SIMD and the TYPEm masks",
    );
    pub const FPF: Field = Field::new(
        "FPF",
        27,
        1,
        "FP and SIMD flags in the Operation Type packet of other operations",
    );
    pub const SME: Field = Field::new(
        "SME",
        32,
        1,
        "FEAT_SPE_SME: the SME events E[24], E[25] and the SME Operation Types",
    );
    pub const FIELDS: &[Field] = &[
        FE, FT, FL, ARCHINST, LDS, ERND, FNE, FDS, INTERVAL, MAXSIZE, COUNTSIZE, FORMAT, PBT, CRR,
        EFT, FPF, SME,
    ];
    /// CountSize encodings.
    pub const COUNTSIZE_12BIT: u64 = 0b0010;
    pub const COUNTSIZE_16BIT: u64 = 0b0011;
}

/// PMBLIMITR_EL1: buffer limit and enable. PMFZ and nVM only in a unit that builds them
/// (`Options::pmfz`, `Options::nvm`), RES0 otherwise.
pub mod pmblimitr {
    use crate::Field;
    pub const E: Field = Field::new("E", 0, 1, "Profiling buffer enable");
    /// FEAT_SPE_nVM's address mode (Arm ARM D24.7.2): writable only in a unit that builds
    /// it (`Options::nvm`), RES0 otherwise; not in [`FIELDS`] (the storage is 64 bits
    /// either way). Its Effective value is 0 while EL2 is enabled, EL1 owns the buffer and
    /// PMSCR_EL2.EnVM is 0 (J1 `EffectivePMBLIMITR_EL1_nVM`).
    pub const NVM: Field = Field::new(
        "nVM",
        7,
        1,
        "Address mode: 0 virtual; 1 the buffer pointers are physical addresses (the owning regime has no stage 2) or IPAs",
    );
    /// FEAT_SPEv1p2's PMU freeze: writable only in a unit that builds it
    /// (`Options::pmfz`), RES0 otherwise; not in [`FIELDS`] (the storage is 64 bits
    /// either way).
    pub const PMFZ: Field = Field::new(
        "PMFZ",
        5,
        1,
        "Freeze the PMU on a buffer management event (`pmu_freeze` while E and PMBSR.S are set)",
    );
    pub const FM: Field = Field::new(
        "FM",
        1,
        2,
        "Fill mode: 00 fill, 10 discard; 01/11 reserved (behave as fill)",
    );
    pub const LIMIT: Field = Field::new(
        "LIMIT",
        12,
        52,
        "Buffer limit address bits 63:12 (the limit itself is never written)",
    );
    pub const FIELDS: &[Field] = &[E, FM, LIMIT];
    pub const FM_FILL: u64 = 0b00;
    pub const FM_DISCARD: u64 = 0b10;
}

/// PMBPTR_EL1: buffer write pointer.
pub mod pmbptr {
    use crate::Field;
    pub const PTR: Field = Field::new(
        "PTR",
        0,
        64,
        "Virtual address of the next record (should be aligned to 2^PMBIDR.Align)",
    );
    pub const FIELDS: &[Field] = &[PTR];
}

/// PMBSR_EL1: buffer status / syndrome.
pub mod pmbsr {
    use crate::Field;
    pub const MSS: Field = Field::new(
        "MSS",
        0,
        16,
        "Syndrome: BSC (EC=BUF) or FSC (EC=fault) in bits 5:0",
    );
    pub const BSC: Field = Field::new(
        "BSC",
        0,
        6,
        "Buffer status code (EC=BUF): 000001 buffer full",
    );
    pub const FSC: Field = Field::new("FSC", 0, 6, "Fault status code (EC=data abort)");
    pub const COLL: Field = Field::new(
        "COLL",
        16,
        1,
        "A sample collided with one in flight (sticky)",
    );
    pub const S: Field = Field::new(
        "S",
        17,
        1,
        "Service: a management event occurred; profiling stops, PMBIRQ asserted",
    );
    pub const EA: Field = Field::new("EA", 18, 1, "External abort on a buffer write");
    pub const DL: Field = Field::new(
        "DL",
        19,
        1,
        "Data loss: the last record may be partial or lost",
    );
    pub const EC: Field = Field::new(
        "EC",
        26,
        6,
        "Event class: 000000 buffer management, 100100 stage-1 data abort, 100101 stage-2 data abort",
    );
    pub const FIELDS: &[Field] = &[MSS, COLL, S, EA, DL, EC];
    pub const EC_BUF: u64 = 0b000000;
    pub const EC_FAULT_S1: u64 = 0b100100;
    pub const EC_FAULT_S2: u64 = 0b100101;
    pub const BSC_FULL: u64 = 0b000001;
    /// FSC for a synchronous external abort (not on a translation table walk).
    pub const FSC_EXTERNAL_ABORT: u64 = 0b010000;

    /// Kinds of a write-port error (`wr_err_kind`).
    pub const ERR_EXTERNAL: u8 = 0b00;
    pub const ERR_STAGE1: u8 = 0b01;
    pub const ERR_STAGE2: u8 = 0b10;
    /// 0b11 is reserved and reported as an external abort.
    pub const ERR_RESERVED: u8 = 0b11;
    /// Every kind, in encoding order.
    pub const ERR_KINDS: [u8; 4] = [ERR_EXTERNAL, ERR_STAGE1, ERR_STAGE2, ERR_RESERVED];

    /// True for an error kind reported as an external abort: external, or the reserved kind.
    pub const fn is_external(kind: u8) -> bool {
        matches!(kind & 3, ERR_EXTERNAL | ERR_RESERVED)
    }

    /// The EC and FSC PMBSR records for a fault of `kind` with the core's `fsc`: stage 2
    /// for its kind, else stage 1; an external abort's FSC is 010000.
    pub const fn fault_syndrome(kind: u8, fsc: u8) -> (u64, u64) {
        let ec = if kind & 3 == ERR_STAGE2 {
            EC_FAULT_S2
        } else {
            EC_FAULT_S1
        };
        let code = if is_external(kind) {
            FSC_EXTERNAL_ABORT
        } else {
            fsc as u64
        };
        (ec, code)
    }

    /// The FSCs of a synchronous external abort (J1 `ReportSPEEvent`'s `sync_ext_abort`):
    /// 010000 on the access, 01001x and 0101xx on a translation table walk (bits 5:1 and
    /// 5:2 as below), 011011 (FEAT_RAS's on a walk's parity/ECC).
    pub const FSC_SEA_WALK_5_1: u64 = 0b01001;
    pub const FSC_SEA_WALK_5_2: u64 = 0b0101;
    pub const FSC_SEA_WALK_ECC: u64 = 0b011011;
    /// True for an FSC of a synchronous external abort (see [`FSC_SEA_WALK_5_1`]).
    pub const fn is_sync_external_abort(fsc: u64) -> bool {
        fsc == FSC_EXTERNAL_ABORT
            || fsc >> 1 == FSC_SEA_WALK_5_1
            || fsc >> 2 == FSC_SEA_WALK_5_2
            || fsc == FSC_SEA_WALK_ECC
    }

    /// True when a unit of `cfg` ignores a buffer write fault of `kind`: an external abort
    /// (or the reserved kind) with SPEv1p3's PMBIDR.EA = 1 (`Options::v1p3`); the beat
    /// counts as written and the record goes on (choice external-abort).
    pub const fn is_ignored(cfg: &crate::Config, kind: u8) -> bool {
        cfg.options.v1p3 && is_external(kind)
    }

    /// PMBSR for a fault on a buffer write (Arm ARM D17.8.3, D17.8.4): S set; EC stage-1 or
    /// stage-2 data abort; MSS the FSC (an external abort's is 010000, an MMU fault's the one
    /// the core gives); EA set for an external abort, else as it was (D17.8.3 names the
    /// fields an MMU fault sets, then "The other fields in PMBSR_ELx ... are unchanged";
    /// D17.8.4 sets EA to 1); DL set unless the fault is at the record's first byte (J1: DL
    /// only if start_vaddr != the faulting address), where DL keeps `old`'s value; COLL kept.
    pub const fn fault(old: u64, kind: u8, fsc: u8, first_byte: bool) -> u64 {
        let external = is_external(kind);
        let (ec, code) = fault_syndrome(kind, fsc);
        let dl = if first_byte { DL.get(old) } else { 1 };
        (old & (COLL.mask() | EA.mask()))
            | S.place(1)
            | EC.place(ec)
            | FSC.place(code)
            | EA.place(external as u64)
            | DL.place(dl)
    }
}

/// PMBIDR_EL1: buffer ID (read-only).
pub mod pmbidr {
    use crate::Field;
    pub const ALIGN: Field =
        Field::new("Align", 0, 4, "Records and PMBPTR aligned to 2^Align bytes");
    pub const P: Field = Field::new("P", 4, 1, "Buffer owned by a higher EL (0: usable)");
    pub const F: Field = Field::new(
        "F",
        5,
        1,
        "Hardware flag updates (0: always disabled; 1 with `Options::v1p3`: as the owning regime's explicit accesses)",
    );
    pub const EA: Field = Field::new(
        "EA",
        8,
        4,
        "External abort handling (0: not described, reported in PMBSR; 1 with `Options::v1p3`: ignored)",
    );
    /// EA values: not described (the unit reports it in PMBSR), ignored by the PE.
    pub const EA_NOT_DESCRIBED: u64 = 0b0000;
    pub const EA_IGNORED: u64 = 0b0001;
    /// FEAT_SPE_nVM (`Options::nvm`; RES0 otherwise): 01, virtual and physical address
    /// modes, while the Effective value of PMSCR_EL2.EnVM is 1; 00 otherwise (Arm ARM
    /// D24.7.1). The register port reads it as the reading thread's regime gives it.
    pub const ADDRMODE: Field = Field::new(
        "AddrMode",
        6,
        2,
        "Address modes (FEAT_SPE_nVM): 01 virtual and physical while PMSCR_EL2.EnVM is effectively 1, else 00",
    );
    /// AddrMode: virtual and physical address modes.
    pub const ADDRMODE_VA_PA: u64 = 0b01;
    pub const FIELDS: &[Field] = &[ALIGN, P, F, ADDRMODE, EA];
}

/// PMBMAR_EL1 (FEAT_SPE_nVM, Arm ARM D24.7.3): the memory attributes of buffer writes while
/// the Effective value of PMBLIMITR_EL1.nVM is 1 (ignored with virtual addresses, whose
/// attributes come from the translation tables).
pub mod pmbmar {
    use crate::Field;
    pub const ATTR: Field = Field::new(
        "Attr",
        0,
        8,
        "Memory attributes, encoded as MAIR_ELx.Attr<n>",
    );
    pub const SH: Field = Field::new(
        "SH",
        8,
        2,
        "Shareability: 00 Non-shareable, 10 Outer, 11 Inner Shareable (01 reserved)",
    );
    pub const FIELDS: &[Field] = &[ATTR, SH];
    /// The address space of the buffer's beats as the write port gives it
    /// (`wr_addr_space`): a virtual address (stage 1 and, with EL2, stage 2 as for the
    /// owning regime's accesses), an IPA (stage 2 only: EL1 owns the buffer with EL2
    /// enabled), or a physical address (no translation), PMBMAR's attributes with the
    /// latter two.
    pub const SPACE_VA: u8 = 0b00;
    pub const SPACE_IPA: u8 = 0b01;
    pub const SPACE_PA: u8 = 0b10;
}

/// The rules of [`RegDef::writable`]: from the mask of a register's fields to the bits a
/// write changes in a unit of `cfg`.
pub mod writable {
    use super::pmscr;
    use crate::Config;

    /// Every field as declared.
    pub fn fields(_: &Config, fields: u64) -> u64 {
        fields
    }
    /// PMSLATFR: MINLAT is as wide as the latency counters.
    pub fn minlat_as_wide_as_the_counters(cfg: &Config, fields: u64) -> u64 {
        fields & crate::low_mask(cfg.counter_width.bits())
    }
    /// PMSCR_EL1/EL2: PCT's high bit is RES0 without FEAT_ECV.
    pub fn pct_ecv_bit_with_feat_ecv(cfg: &Config, fields: u64) -> u64 {
        if cfg.feat_ecv {
            fields
        } else {
            fields & !pmscr::PCT_ECV_BIT
        }
    }
    /// PMSEVFR: the events the unit can filter on (the options' events: E[18:17] with the
    /// SVE events, E[23:19] with SPEv1p4's, E[6] with FEAT_SPE_FnE).
    pub fn filterable_events(cfg: &Config, _: u64) -> u64 {
        crate::events::filterable_mask(cfg)
    }
    /// PMSNEVFR: as PMSEVFR, and only with FEAT_SPE_FnE.
    pub fn filterable_events_with_fne(cfg: &Config, fields: u64) -> u64 {
        if cfg.options.fne {
            filterable_events(cfg, fields)
        } else {
            0
        }
    }
}

/// Every register of the unit, in port-address order.
pub const REGS: &[RegDef] = &[
    RegDef {
        id: RegId::Pmblimitr,
        name: "PMBLIMITR_EL1",
        enc: (3, 0, 9, 10, 0),
        read_only: false,
        reset: 0,
        hw: HwUpdate::None,
        bank: Bank::PerThread,
        fields: pmblimitr::FIELDS,
        desc: "Buffer limit, enable and fill mode",
        option: None,
        opt_fields: &[opt(pmblimitr::PMFZ, crate::config::option::pmfz), opt(pmblimitr::NVM, crate::config::option::nvm)],
        writable: writable::fields,
    },
    RegDef {
        id: RegId::Pmbptr,
        name: "PMBPTR_EL1",
        enc: (3, 0, 9, 10, 1),
        read_only: false,
        reset: 0,
        hw: HwUpdate::Next,
        bank: Bank::PerThread,
        fields: pmbptr::FIELDS,
        desc: "Buffer write pointer",
        option: None,
        opt_fields: &[],
        writable: writable::fields,
    },
    RegDef {
        id: RegId::Pmbsr,
        name: "PMBSR_EL1",
        enc: (3, 0, 9, 10, 3),
        read_only: false,
        reset: 0,
        hw: HwUpdate::Next,
        bank: Bank::PerThread,
        fields: pmbsr::FIELDS,
        desc: "Buffer status and syndrome",
        option: None,
        opt_fields: &[],
        writable: writable::fields,
    },
    RegDef {
        id: RegId::Pmbidr,
        name: "PMBIDR_EL1",
        enc: (3, 0, 9, 10, 7),
        read_only: true,
        reset: 0,
        hw: HwUpdate::None,
        bank: Bank::PerThread,
        fields: pmbidr::FIELDS,
        desc: "Buffer ID (read-only)",
        option: None,
        opt_fields: &[],
        writable: writable::fields,
    },
    RegDef {
        id: RegId::PmscrEl1,
        name: "PMSCR_EL1",
        enc: (3, 0, 9, 9, 0),
        read_only: false,
        reset: 0,
        hw: HwUpdate::None,
        bank: Bank::PerThread,
        fields: pmscr::FIELDS_EL1,
        desc: "Sampling control, EL1",
        option: None,
        opt_fields: &[opt(pmscr::EE, crate::config::option::exc), opt(pmscr::KE, crate::config::option::exc)],
        writable: writable::pct_ecv_bit_with_feat_ecv,
    },
    RegDef {
        id: RegId::Pmsnevfr,
        name: "PMSNEVFR_EL1",
        enc: (3, 0, 9, 9, 1),
        read_only: false,
        reset: 0,
        hw: HwUpdate::None,
        bank: Bank::PerThread,
        fields: pmsevfr::FIELDS,
        desc: "Inverted event filter",
        option: None,
        opt_fields: &[],
        writable: writable::filterable_events_with_fne,
    },
    RegDef {
        id: RegId::Pmsicr,
        name: "PMSICR_EL1",
        enc: (3, 0, 9, 9, 2),
        read_only: false,
        reset: 0,
        hw: HwUpdate::Live,
        bank: Bank::PerThread,
        fields: pmsicr::FIELDS,
        desc: "Interval counter",
        option: None,
        opt_fields: &[opt(pmsicr::ECOUNT, crate::config::option::ernd)],
        writable: writable::fields,
    },
    RegDef {
        id: RegId::Pmsirr,
        name: "PMSIRR_EL1",
        enc: (3, 0, 9, 9, 3),
        read_only: false,
        reset: 0,
        hw: HwUpdate::None,
        bank: Bank::PerThread,
        fields: pmsirr::FIELDS,
        desc: "Interval reload",
        option: None,
        opt_fields: &[],
        writable: writable::fields,
    },
    RegDef {
        id: RegId::Pmsfcr,
        name: "PMSFCR_EL1",
        enc: (3, 0, 9, 9, 4),
        read_only: false,
        reset: 0,
        hw: HwUpdate::None,
        bank: Bank::PerThread,
        fields: pmsfcr::FIELDS,
        desc: "Filter control",
        option: None,
        opt_fields: &[opt(pmsfcr::FNE, crate::config::option::fne), opt(pmsfcr::FP, crate::config::option::eft), opt(pmsfcr::SIMD, crate::config::option::eft), opt(pmsfcr::TYPEM, crate::config::option::eft), opt(pmsfcr::FDS, crate::config::option::fds)],
        writable: writable::fields,
    },
    RegDef {
        id: RegId::Pmsevfr,
        name: "PMSEVFR_EL1",
        enc: (3, 0, 9, 9, 5),
        read_only: false,
        reset: 0,
        hw: HwUpdate::None,
        bank: Bank::PerThread,
        fields: pmsevfr::FIELDS,
        desc: "Event filter",
        option: None,
        opt_fields: &[],
        writable: writable::filterable_events,
    },
    RegDef {
        id: RegId::Pmslatfr,
        name: "PMSLATFR_EL1",
        enc: (3, 0, 9, 9, 6),
        read_only: false,
        reset: 0,
        hw: HwUpdate::None,
        bank: Bank::PerThread,
        fields: pmslatfr::FIELDS,
        desc: "Minimum latency filter",
        option: None,
        opt_fields: &[],
        writable: writable::minlat_as_wide_as_the_counters,
    },
    RegDef {
        id: RegId::Pmsidr,
        name: "PMSIDR_EL1",
        enc: (3, 0, 9, 9, 7),
        read_only: true,
        reset: 0,
        hw: HwUpdate::None,
        bank: Bank::PerThread,
        fields: pmsidr::FIELDS,
        desc: "Sampling ID (read-only)",
        option: None,
        opt_fields: &[],
        writable: writable::fields,
    },
    RegDef {
        id: RegId::PmscrEl2,
        name: "PMSCR_EL2",
        enc: (3, 4, 9, 9, 0),
        read_only: false,
        reset: 0,
        hw: HwUpdate::None,
        bank: Bank::PerThread,
        fields: pmscr::FIELDS_EL2,
        desc: "Sampling control, EL2",
        option: None,
        opt_fields: &[opt(pmscr::ENVM, crate::config::option::nvm), opt(pmscr::EE, crate::config::option::exc), opt(pmscr::KE, crate::config::option::exc)],
        writable: writable::pct_ecv_bit_with_feat_ecv,
    },
    RegDef {
        id: RegId::Pmsdsfr,
        name: "PMSDSFR_EL1",
        enc: (3, 0, 9, 10, 4),
        read_only: false,
        reset: 0,
        hw: HwUpdate::None,
        bank: Bank::PerThread,
        fields: pmsdsfr::FIELDS,
        desc:
            "Data-source filter (FEAT_SPE_FDS: only in a unit that builds it, unmapped otherwise)",
        option: Some(crate::config::option::fds),
        opt_fields: &[],
        writable: writable::fields,
    },
    RegDef {
        id: RegId::Pmbmar,
        name: "PMBMAR_EL1",
        enc: (3, 0, 9, 10, 5),
        read_only: false,
        reset: 0,
        hw: HwUpdate::None,
        bank: Bank::PerThread,
        fields: pmbmar::FIELDS,
        desc: "Buffer memory attributes in physical address mode (FEAT_SPE_nVM: only in a unit that builds it, unmapped otherwise)",
        option: Some(crate::config::option::nvm),
        opt_fields: &[],
        writable: writable::fields,
    },
    RegDef {
        id: RegId::PmbsrEl2,
        name: "PMBSR_EL2",
        enc: (3, 4, 9, 10, 3),
        read_only: false,
        reset: 0,
        hw: HwUpdate::Next,
        bank: Bank::PerThread,
        fields: pmbsr::FIELDS,
        desc: "Buffer status of the management events that target EL2 (FEAT_SPE_EXC: only in a unit that builds it, unmapped otherwise)",
        option: Some(crate::config::option::exc),
        opt_fields: &[],
        writable: writable::fields,
    },
    RegDef {
        id: RegId::PmbsrEl3,
        name: "PMBSR_EL3",
        enc: (3, 6, 9, 10, 3),
        read_only: false,
        reset: 0,
        hw: HwUpdate::Next,
        bank: Bank::PerThread,
        fields: pmbsr::FIELDS,
        desc: "Buffer status of the management events that target EL3 (FEAT_SPE_EXC: only in a unit that builds it, unmapped otherwise)",
        option: Some(crate::config::option::exc),
        opt_fields: &[],
        writable: writable::fields,
    },
];

/// The description of a register.
pub fn reg(id: RegId) -> &'static RegDef {
    REGS.iter()
        .find(|r| r.id == id)
        .expect("every RegId is in REGS")
}

/// The register at a port address, if any.
pub fn reg_at(addr: u8) -> Option<&'static RegDef> {
    REGS.iter().find(|r| r.addr() == addr)
}

/// Value of a read-only ID register for a configuration.
pub fn read_only_value(id: RegId, cfg: &Config) -> u64 {
    use crate::constants;
    match id {
        RegId::Pmsidr => {
            pmsidr::FE.place(1)
                | pmsidr::FT.place(1)
                | pmsidr::FL.place(1)
                | pmsidr::ARCHINST.place(constants::ARCH_INST as u64)
                | pmsidr::LDS.place(1)
                | pmsidr::ERND.place(u64::from(cfg.options.ernd))
                | pmsidr::FNE.place(u64::from(cfg.options.fne))
                | pmsidr::FDS.place(u64::from(cfg.options.fds))
                | pmsidr::INTERVAL.place(u64::from(cfg.interval_code))
                // choice: record-slot
                | pmsidr::MAXSIZE.place(u64::from(cfg.record_log2()))
                | pmsidr::COUNTSIZE.place(match cfg.counter_width {
                    CounterWidth::Bits12 => pmsidr::COUNTSIZE_12BIT,
                    CounterWidth::Bits16 => pmsidr::COUNTSIZE_16BIT,
                })
                | pmsidr::FORMAT.place(0)
                | pmsidr::PBT.place(u64::from(cfg.options.pbt))
                | pmsidr::SME.place(u64::from(cfg.options.sme))
                // choice: crr
                | pmsidr::CRR.place(u64::from(cfg.options.crr))
                | pmsidr::EFT.place(u64::from(cfg.options.eft))
                | pmsidr::FPF.place(u64::from(cfg.options.fpf))
        }
        // choice: external-abort
        RegId::Pmbidr => {
            pmbidr::ALIGN.place(u64::from(cfg.record_log2()))
                | pmbidr::F.place(u64::from(cfg.options.v1p3))
                | pmbidr::ADDRMODE.place(if cfg.options.nvm {
                    pmbidr::ADDRMODE_VA_PA
                } else {
                    0
                })
                | pmbidr::EA.place(if cfg.options.v1p3 {
                    pmbidr::EA_IGNORED
                } else {
                    pmbidr::EA_NOT_DESCRIBED
                })
        }
        _ => panic!("{id:?} is not a read-only register"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PRESETS;

    #[test]
    fn an_optional_field_is_writable_exactly_in_the_units_that_build_it() {
        let mut seen = 0;
        for cfg in crate::PRESETS {
            for reg in REGS.iter().filter(|r| r.built(cfg)) {
                for o in reg.opt_fields {
                    let m = o.field.mask();
                    let want = if (o.built)(cfg) { m } else { 0 };
                    assert_eq!(
                        reg.writable_mask(cfg) & m,
                        want,
                        "{} {}.{}",
                        cfg.name,
                        reg.name,
                        o.field.name
                    );
                    seen += 1;
                }
            }
        }
        // PMBLIMITR 2, PMSCR_EL1 2, PMSCR_EL2 3, PMSICR 1, PMSFCR 5, on each preset.
        assert_eq!(seen, 13 * crate::PRESETS.len());
        // The rules' own cuts stay: PCT's high bit without FEAT_ECV.
        let d = crate::Config::preset("default").unwrap();
        assert_eq!(
            reg(RegId::PmscrEl1).writable_mask(d) & pmscr::PCT_ECV_BIT,
            0
        );
    }

    #[test]
    fn port_addresses_are_unique_and_follow_the_encoding() {
        let mut seen = std::collections::HashSet::new();
        for (i, r) in REGS.iter().enumerate() {
            // The model stores registers by `RegId` value: one per row, each below REGS.len().
            assert!((r.id as usize) < REGS.len(), "{}: RegId value", r.name);
            assert!(
                REGS[..i].iter().all(|o| o.id != r.id),
                "{} listed twice",
                r.name
            );
            assert!(
                seen.insert(r.addr()),
                "{} shares address {}",
                r.name,
                r.addr()
            );
            assert!(u32::from(r.addr()) < (1 << PORT_ADDR_BITS));
            assert_eq!(r.enc.0, 3);
            assert_eq!(r.enc.2, 9);
        }
        assert_eq!(reg(RegId::PmscrEl1).addr(), 0b01000);
        assert_eq!(reg(RegId::PmscrEl2).addr(), 0b11000);
        assert_eq!(reg(RegId::Pmbptr).addr(), 0b00001);
        assert_eq!(reg_at(0b00111).unwrap().id, RegId::Pmbidr);
        assert!(reg_at(0b00010).is_none());
    }

    #[test]
    fn the_synchronous_external_abort_fscs_are_the_eight_of_report_spe_event() {
        let got: Vec<u64> = (0..64)
            .filter(|&f| pmbsr::is_sync_external_abort(f))
            .collect();
        assert_eq!(got, [0x10, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x1b]);
        assert_eq!(
            pmbsr::fault_syndrome(pmbsr::ERR_RESERVED, 5),
            (pmbsr::EC_FAULT_S1, pmbsr::FSC_EXTERNAL_ABORT)
        );
        assert_eq!(
            pmbsr::fault_syndrome(pmbsr::ERR_STAGE2, 5),
            (pmbsr::EC_FAULT_S2, 5)
        );
    }

    #[test]
    fn fields_of_a_register_do_not_overlap() {
        for r in REGS {
            let mut m = 0u64;
            for f in r.fields {
                // BSC/FSC alias MSS by design; they are not listed in FIELDS.
                assert_eq!(m & f.mask(), 0, "{}.{} overlaps", r.name, f.name);
                m |= f.mask();
            }
        }
    }

    #[test]
    fn writable_masks_match_the_architecture() {
        let cfg = &PRESETS[0];
        assert_eq!(
            reg(RegId::PmscrEl1).writable_mask(cfg),
            0x7B,
            "PCT bit 7 RES0"
        );
        assert_eq!(
            reg(RegId::PmscrEl2).writable_mask(cfg),
            0x7B,
            "PCT bit 7 RES0"
        );
        let ecv = Config::preset("wide").unwrap();
        assert!(ecv.feat_ecv);
        assert_eq!(reg(RegId::PmscrEl1).writable_mask(ecv), 0xFB);
        assert_eq!(reg(RegId::PmscrEl2).writable_mask(ecv), 0xFB);
        assert_eq!(reg(RegId::Pmsirr).writable_mask(cfg), 0xFFFF_FF01);
        assert_eq!(reg(RegId::Pmsicr).writable_mask(cfg), 0xFFFF_FFFF);
        // Without FEAT_SPE_FnE: PMSFCR.FnE (bit 3), E[6] and PMSNEVFR are RES0.
        assert!(!cfg.options.fne);
        assert_eq!(reg(RegId::Pmsfcr).writable_mask(cfg), 0x7_0007);
        assert_eq!(reg(RegId::Pmsevfr).writable_mask(cfg), 0xFBE);
        assert_eq!(reg(RegId::Pmsnevfr).writable_mask(cfg), 0);
        assert_eq!(
            reg(RegId::Pmblimitr).writable_mask(cfg),
            0xFFFF_FFFF_FFFF_F007
        );
        assert_eq!(reg(RegId::Pmbsr).writable_mask(cfg), 0xFC0F_FFFF);
        let fz = Config::preset("v1p2x").unwrap();
        assert!(fz.options.pmfz && fz.options.fne);
        assert_eq!(
            reg(RegId::Pmsfcr).writable_mask(fz) & 0xF,
            0xF,
            "FnE, bit 3"
        );
        assert_eq!(reg(RegId::Pmsevfr).writable_mask(fz) & 0xFFF, 0xFFE);
        assert_eq!(reg(RegId::Pmsnevfr).writable_mask(fz) & 0xFFF, 0xFFE);
        assert_eq!(
            reg(RegId::Pmblimitr).writable_mask(fz),
            0xFFFF_FFFF_FFFF_F027,
            "PMFZ, bit 5"
        );
        assert_eq!(reg(RegId::Pmsidr).writable_mask(cfg), 0);
        for c in PRESETS {
            assert_eq!(
                reg(RegId::Pmslatfr).writable_mask(c),
                crate::low_mask(c.counter_width.bits())
            );
        }
    }

    #[test]
    fn pmsfcr_eft_mask_is_fp_simd_and_the_five_mask_bits() {
        use pmsfcr::*;
        let each = [FP, SIMD, BM, LDM, STM, FPM, SIMDM]
            .iter()
            .fold(0, |m, f| m | f.mask());
        assert_eq!(EFT_MASK, each);
        assert_eq!(TYPE.mask() & !EFT_MASK, B.mask() | LD.mask() | ST.mask());
    }

    #[test]
    fn storage_holds_every_field_and_the_reset_value_is_writable() {
        let bits = |id| reg(id).storage_bits();
        assert_eq!(bits(RegId::PmscrEl1), 8);
        assert_eq!(bits(RegId::Pmsevfr), 12);
        assert_eq!(bits(RegId::Pmsfcr), 19);
        assert_eq!(bits(RegId::Pmslatfr), 16);
        assert_eq!(bits(RegId::Pmbsr), 32);
        assert_eq!(bits(RegId::Pmblimitr), 64);
        for c in PRESETS {
            for r in REGS.iter().filter(|r| !r.read_only) {
                let m = r.writable_mask(c);
                // PMSICR.ECOUNT (FEAT_SPE_ERnd) is stored in the sampler, PMSFCR's FEAT_SPE_EFT
                // bits in a flop of the register block beside PMSFCR's, PMSEVFR's and
                // PMSNEVFR's events above bit 15 in flops beside theirs, PMSCR's EnVM
                // (FEAT_SPE_nVM), EE and KE (FEAT_SPE_EXC) beside PMSCR's 8 bits.
                let scr_hi = |nvm: bool| {
                    let exc = if c.options.exc {
                        pmscr::EE.mask() | pmscr::KE.mask()
                    } else {
                        0
                    };
                    exc | if nvm { pmscr::ENVM.mask() } else { 0 }
                };
                let beyond = match r.id {
                    RegId::Pmsicr if c.options.ernd => pmsicr::ECOUNT.mask(),
                    RegId::Pmsfcr if c.options.eft => pmsfcr::EFT_MASK,
                    RegId::PmscrEl1 => scr_hi(false),
                    RegId::PmscrEl2 => scr_hi(c.options.nvm),
                    RegId::Pmsevfr | RegId::Pmsnevfr => {
                        crate::events::filterable_mask(c) & !crate::low_mask(16)
                    }
                    _ => 0,
                };
                assert_eq!(m & !crate::low_mask(r.storage_bits()), beyond, "{}", r.name);
                assert_eq!(r.reset & !m, 0, "{}: reset sets a RES0 bit", r.name);
            }
        }
        // PMSICR is the only register whose read-back is the hardware's value.
        let live: Vec<_> = REGS.iter().filter(|r| r.hw == HwUpdate::Live).collect();
        assert_eq!(live.len(), 1);
        assert_eq!(live[0].id, RegId::Pmsicr);
    }

    #[test]
    fn id_registers_advertise_the_implementation_choices() {
        for c in PRESETS {
            let idr = read_only_value(RegId::Pmsidr, c);
            assert_eq!(pmsidr::INTERVAL.get(idr), u64::from(c.interval_code));
            // 64-byte records, 128 in a unit that records GCS (FEAT_SPE_CRR).
            let size = if c.options.crr { 7 } else { 6 };
            assert_eq!(pmsidr::MAXSIZE.get(idr), size, "{}", c.name);
            assert_eq!(pmsidr::ARCHINST.get(idr), 0);
            let cs = pmsidr::COUNTSIZE.get(idr);
            assert_eq!(
                cs,
                if c.counter_width.bits() == 12 {
                    0b0010
                } else {
                    0b0011
                }
            );
            assert_eq!(pmbidr::ALIGN.get(read_only_value(RegId::Pmbidr, c)), size);
        }
    }
}
