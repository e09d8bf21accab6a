//! Port-level interface of the unit, one cycle at a time: the same ports, names and timing
//! as `spe_defs::ports::PORTS` (and the RTL's `spe_top`). Per-slot ports are arrays of
//! `MAX_DISPATCH_WIDTH`; slots at and above the configured width are ignored on input and
//! zero on output.

use spe_defs::config::MAX_DISPATCH_WIDTH;

/// One dispatch slot.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Slot {
    pub valid: bool,
    /// 56 bits (VA 55:0).
    pub pc: u64,
    /// Operation Type class (2 bits).
    pub class: u8,
    /// Operation Type payload byte.
    pub subclass: u8,
    pub cond: bool,
}

/// Everything the unit samples at one rising clock edge.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Inputs {
    pub reset: bool,
    // Dispatch hook.
    pub disp: [Slot; MAX_DISPATCH_WIDTH],
    pub disp_el: u8,
    pub disp_ns: bool,
    pub disp_host: bool,
    pub disp_aarch32: bool,
    pub prof_allowed: bool,
    // Issue hook.
    pub iss_valid: bool,
    // Translation hook.
    pub xl_start: bool,
    pub xl_va: u64,
    pub xl_done: bool,
    /// 56 bits.
    pub xl_pa: u64,
    pub xl_tlb_access: bool,
    pub xl_tlb_walk: bool,
    // Memory hook.
    pub mem_done: bool,
    pub mem_source: u8,
    pub mem_l1d_access: bool,
    pub mem_l1d_refill: bool,
    pub mem_llc_access: bool,
    pub mem_llc_miss: bool,
    pub mem_remote: bool,
    pub mem_misaligned: bool,
    // Branch hook.
    pub br_done: bool,
    /// 56 bits (VA 55:0).
    pub br_target: u64,
    pub br_taken: bool,
    pub br_mispred: bool,
    pub br_indirect: bool,
    // Completion hook.
    pub cpl_done: bool,
    pub cpl_retired: bool,
    pub cpl_exception: bool,
    pub cpl_cond_fail: bool,
    // Context inputs.
    pub ctx_el1: u32,
    pub ctx_el2: u32,
    pub cnt_virt: u64,
    pub cnt_phys: u64,
    // Register port.
    pub reg_en: bool,
    pub reg_we: bool,
    /// 5 bits: `{op1 == 4, CRm[0], op2}`.
    pub reg_addr: u8,
    pub reg_wdata: u64,
    // Memory write port (responses).
    pub wr_ready: bool,
    pub wr_err: bool,
}

impl Inputs {
    /// Clears every hook report (issue, translation, memory, branch, completion).
    pub fn clear_hooks(&mut self) {
        self.iss_valid = false;
        self.xl_start = false;
        self.xl_done = false;
        self.mem_done = false;
        self.br_done = false;
        self.cpl_done = false;
    }
    /// True when any hook report is present.
    pub fn any_hook(&self) -> bool {
        self.iss_valid
            || self.xl_start
            || self.xl_done
            || self.mem_done
            || self.br_done
            || self.cpl_done
    }
}

/// Everything the unit drives during one cycle (before the edge).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outputs {
    /// One-hot tag, bit i = slot i (comb).
    pub tag: u8,
    /// A hook report was ignored (comb).
    pub hook_stray: bool,
    /// Register read data (comb).
    pub reg_rdata: u64,
    // Memory write port (registered).
    pub wr_valid: bool,
    pub wr_addr: u64,
    pub wr_data: u64,
    pub wr_strb: u8,
    /// PMBIRQ (registered).
    pub irq: bool,
    // PMU events.
    pub pmu_sample_pop: u8,
    pub pmu_sample_feed: bool,
    pub pmu_sample_filtrate: bool,
    pub pmu_sample_collision: bool,
}

/// A device under test: anything that behaves like `spe_top` one clock cycle at a time
/// (the golden model here; the Verilated RTL and rust-hdl's simulator later).
pub trait Dut {
    /// Applies `inputs` for one cycle: returns the outputs seen during the cycle, then
    /// takes the rising clock edge.
    fn step(&mut self, inputs: &Inputs) -> Outputs;
}

impl<T: Dut + ?Sized> Dut for Box<T> {
    fn step(&mut self, inputs: &Inputs) -> Outputs {
        (**self).step(inputs)
    }
}
