//! How the tops wire an option: each option port's row in [`crate::ports::OPTION_PORTS`]
//! says which block signal it goes into or comes from ([`Wire`]), and [`OPTION_LINKS`]
//! lists what an option connects between the blocks. The RTL tops (`hdl/rtl/src/top.rs`,
//! `smt_top.rs`) expand both through the macros `spe_gen::emit::rtl_macros` writes, so
//! that an option's wiring is its rows here and not lines in either top.
//!
//! A block is named as the tops name their fields (`regs`, `tracker`, ...); a signal as
//! the block's field. An option's signal in a block is a vector of zero or one element
//! (built or not; `tracker.v4_in` has one a port), a signal every unit has is not a vector
//! ([`Tap::plain`]). A multithreaded unit has the blocks of [`THREAD_BLOCKS`] once a thread
//! and those of [`SHARED_BLOCKS`] once (docs/smt.md).

/// The blocks a multithreaded unit builds once a hardware thread.
pub const THREAD_BLOCKS: &[&str] = &["regs", "sampler", "capture", "tracker", "latency", "filter"];

/// The blocks a multithreaded unit builds once, shared by the threads.
pub const SHARED_BLOCKS: &[&str] = &["serializer", "writer"];

/// A block's signal as the tops wire it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tap {
    /// The block's field in the tops.
    pub block: &'static str,
    /// The signal's field in the block.
    pub field: &'static str,
    /// Which element of an option's vector that has several (`None`: its only one).
    pub element: Option<usize>,
    /// Only these bits of the signal: (lsb, width), width 1 a single bit.
    pub bits: Option<(u32, u32)>,
    /// A signal every unit has, not an option's vector.
    pub plain: bool,
}

/// `block.field`, an option's vector of zero or one signal, whole.
pub const fn at(block: &'static str, field: &'static str) -> Tap {
    Tap {
        block,
        field,
        element: None,
        bits: None,
        plain: false,
    }
}

impl Tap {
    /// Element `n` of an option's vector of several signals.
    pub const fn element(self, n: usize) -> Tap {
        Tap {
            element: Some(n),
            ..self
        }
    }
    /// Bit `n` of the signal.
    pub const fn bit(self, n: u32) -> Tap {
        Tap {
            bits: Some((n, 1)),
            ..self
        }
    }
    /// Bits `hi:lo` of the signal.
    pub const fn bits(self, hi: u32, lo: u32) -> Tap {
        assert!(hi > lo);
        Tap {
            bits: Some((lo, hi - lo + 1)),
            ..self
        }
    }
    /// A signal every unit has (a plain field, not an option's vector).
    pub const fn plain(self) -> Tap {
        Tap {
            plain: true,
            ..self
        }
    }
}

/// How the tops wire an option port.
#[derive(Clone, Copy, Debug)]
pub enum Wire {
    /// An input: into these signals of per-thread blocks (a multithreaded unit gives
    /// thread t's block the port's copy t).
    Into(&'static [Tap]),
    /// An output: from this block's signal. From a per-thread block each thread's one bit
    /// (bit t of a multithreaded unit's port is thread t's); from a shared block as it is.
    From(Tap),
}

/// Where an [`OptionLink`] takes its value.
#[derive(Clone, Copy, Debug)]
pub enum LinkFrom {
    /// The same thread's block (both blocks per thread).
    Thread(Tap),
    /// Into a shared block: the per-thread block of the thread that owns the record in the
    /// serializer and the writer (the arbiter's `cur`; the only thread at T = 1).
    Owner(Tap),
    /// Into a shared block: the per-thread block of the thread granted the writer (the
    /// arbiter's `grant`), for what the writer takes with the record's slot.
    Granted(Tap),
    /// A port of `PORTS`, whole or `bits` (lsb, width) of it; a per-thread one of one bit
    /// as the thread's bit.
    Port(&'static str, Option<(u32, u32)>),
}

/// A connection the tops make for an option into a block's signal.
#[derive(Clone, Copy, Debug)]
pub struct OptionLink {
    /// The option or options the link serves (for the reader and the generator's
    /// messages; the link exists where its signals' vectors have an element).
    pub option: &'static str,
    pub to: Tap,
    pub from: LinkFrom,
}

const fn link(option: &'static str, to: Tap, from: LinkFrom) -> OptionLink {
    OptionLink { option, to, from }
}

use LinkFrom::{Granted, Owner, Port, Thread};

/// The connections between blocks the options make, by option. An option port's own
/// wiring is in its row ([`crate::ports::OptionPort::wire`]).
pub const OPTION_LINKS: &[OptionLink] = &[
    // FEAT_SPE_nVM: PMBLIMITR.nVM, the address space and PMBMAR into the writer with the
    // granted thread's slot.
    link(
        "nvm",
        at("writer", "nvm_in"),
        Granted(at("regs", "nvm_ctl")),
    ),
    // nVM: who owns the buffer (EL1 with EL2 enabled and MDCR_EL2.E2PB other than 00).
    link("nvm", at("regs", "nvm_el2"), Port("el2_en", None)),
    link("nvm", at("regs", "nvm_e2pb"), Port("mdcr_e2pb", None)),
    // FEAT_SPE_EXC: the core's EL2 state (enabled, MDCR_EL2.E2PB) into the registers;
    // profiling stopped by any enabled bank to the writer (in place of PMBSR_EL1.S).
    link("exc", at("regs", "x_el2"), Port("el2_en", None)),
    link("exc", at("regs", "x_e2pb"), Port("mdcr_e2pb", None)),
    link(
        "exc",
        at("writer", "stopped").plain(),
        Owner(at("regs", "x_stopped")),
    ),
    // FEAT_SPE_EFT: PMSFCR's FP, SIMD and TYPEm, the op's attributes and whether its access
    // was scalar into the type filter.
    link(
        "eft",
        at("filter", "eft_type"),
        Thread(at("regs", "eft_type")),
    ),
    link(
        "eft",
        at("filter", "eft_mask"),
        Thread(at("regs", "eft_mask")),
    ),
    link(
        "eft",
        at("filter", "attr_fp"),
        Thread(at("capture", "attr_fp")),
    ),
    link(
        "eft",
        at("filter", "attr_simd"),
        Thread(at("capture", "attr_simd")),
    ),
    link(
        "eft",
        at("filter", "attr_simd_fp_ldst"),
        Thread(at("capture", "attr_simd_fp_ldst")),
    ),
    link(
        "eft",
        at("filter", "fp_scalar"),
        Thread(at("tracker", "fp_scalar")),
    ),
    // FEAT_SPE_FDS: PMSDSFR, PMSFCR.FDS and the sample's data source into the filter.
    link("fds", at("filter", "dsfr"), Thread(at("regs", "dsfr"))),
    link("fds", at("filter", "fcr_fds"), Thread(at("regs", "fds"))),
    link(
        "fds",
        at("filter", "ds_en"),
        Thread(at("tracker", "fds_ds_en")),
    ),
    link(
        "fds",
        at("filter", "ds_src"),
        Thread(at("tracker", "fds_source")),
    ),
    // The events above bit 15 (SVE's, SPEv1p4's, SME's): the Events payload's bits 31:16,
    // PMSEVFR's and PMSNEVFR's into the filter, the owner's payload into the serializer.
    link(
        "events above bit 15",
        at("filter", "ev_hi"),
        Thread(at("tracker", "events_hi")),
    ),
    link(
        "events above bit 15",
        at("filter", "evfr_hi"),
        Thread(at("regs", "evfr_hi")),
    ),
    link(
        "events above bit 15",
        at("filter", "nevfr_hi"),
        Thread(at("regs", "nevfr_hi")),
    ),
    link(
        "events above bit 15",
        at("serializer", "ev_hi"),
        Owner(at("tracker", "events_hi")),
    ),
    // FEAT_SPE_PBT: the owner's previous-branch target into the record's PA slot.
    link(
        "pbt",
        at("serializer", "pbt_addr"),
        Owner(at("tracker", "pbt_addr")),
    ),
    link(
        "pbt",
        at("serializer", "pbt_en"),
        Owner(at("tracker", "pbt_en")),
    ),
    // FEAT_SPE_ERnd: PMSICR.ECOUNT (kept in the sampler) read back through the register
    // block's read data, and written from its field of the register port's write data.
    link(
        "ernd",
        at("regs", "ecount_rd"),
        Thread(at("sampler", "ecount_rd")),
    ),
    link(
        "ernd",
        at("sampler", "ecount_wdata"),
        Port(
            "reg_wdata",
            Some((
                crate::regs::pmsicr::ECOUNT.lsb,
                crate::regs::pmsicr::ECOUNT.width,
            )),
        ),
    ),
];
