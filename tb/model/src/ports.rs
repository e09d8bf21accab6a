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

/// Reads one field of a slot.
pub type SlotField = fn(&Slot) -> u64;

/// The per-slot inputs in `PORTS` order: port name and one slot's value.
pub const SLOT_FIELDS: [(&str, SlotField); 5] = [
    ("disp_valid", |s| u64::from(s.valid)),
    ("disp_pc", |s| s.pc),
    ("disp_class", |s| u64::from(s.class)),
    ("disp_subclass", |s| u64::from(s.subclass)),
    ("disp_cond", |s| u64::from(s.cond)),
];

/// Number of inputs that are not per slot.
pub const SCALAR_INPUTS: usize = 40;
/// Number of outputs.
pub const OUTPUTS: usize = 12;

impl Inputs {
    /// Every input that is not per slot, as (port name, value) in `PORTS` order.
    pub fn scalar_fields(&self) -> [(&'static str, u64); SCALAR_INPUTS] {
        let u = |b: bool| u64::from(b);
        [
            ("reset", u(self.reset)),
            ("disp_el", u64::from(self.disp_el)),
            ("disp_ns", u(self.disp_ns)),
            ("disp_host", u(self.disp_host)),
            ("disp_aarch32", u(self.disp_aarch32)),
            ("prof_allowed", u(self.prof_allowed)),
            ("iss_valid", u(self.iss_valid)),
            ("xl_start", u(self.xl_start)),
            ("xl_va", self.xl_va),
            ("xl_done", u(self.xl_done)),
            ("xl_pa", self.xl_pa),
            ("xl_tlb_access", u(self.xl_tlb_access)),
            ("xl_tlb_walk", u(self.xl_tlb_walk)),
            ("mem_done", u(self.mem_done)),
            ("mem_source", u64::from(self.mem_source)),
            ("mem_l1d_access", u(self.mem_l1d_access)),
            ("mem_l1d_refill", u(self.mem_l1d_refill)),
            ("mem_llc_access", u(self.mem_llc_access)),
            ("mem_llc_miss", u(self.mem_llc_miss)),
            ("mem_remote", u(self.mem_remote)),
            ("mem_misaligned", u(self.mem_misaligned)),
            ("br_done", u(self.br_done)),
            ("br_target", self.br_target),
            ("br_taken", u(self.br_taken)),
            ("br_mispred", u(self.br_mispred)),
            ("br_indirect", u(self.br_indirect)),
            ("cpl_done", u(self.cpl_done)),
            ("cpl_retired", u(self.cpl_retired)),
            ("cpl_exception", u(self.cpl_exception)),
            ("cpl_cond_fail", u(self.cpl_cond_fail)),
            ("ctx_el1", u64::from(self.ctx_el1)),
            ("ctx_el2", u64::from(self.ctx_el2)),
            ("cnt_virt", self.cnt_virt),
            ("cnt_phys", self.cnt_phys),
            ("reg_en", u(self.reg_en)),
            ("reg_we", u(self.reg_we)),
            ("reg_addr", u64::from(self.reg_addr)),
            ("reg_wdata", self.reg_wdata),
            ("wr_ready", u(self.wr_ready)),
            ("wr_err", u(self.wr_err)),
        ]
    }

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

impl Outputs {
    /// Every output as (port name, value) in `PORTS` order.
    pub fn fields(&self) -> [(&'static str, u64); OUTPUTS] {
        let u = |b: bool| u64::from(b);
        [
            ("tag", u64::from(self.tag)),
            ("hook_stray", u(self.hook_stray)),
            ("reg_rdata", self.reg_rdata),
            ("wr_valid", u(self.wr_valid)),
            ("wr_addr", self.wr_addr),
            ("wr_data", self.wr_data),
            ("wr_strb", u64::from(self.wr_strb)),
            ("irq", u(self.irq)),
            ("pmu_sample_pop", u64::from(self.pmu_sample_pop)),
            ("pmu_sample_feed", u(self.pmu_sample_feed)),
            ("pmu_sample_filtrate", u(self.pmu_sample_filtrate)),
            ("pmu_sample_collision", u(self.pmu_sample_collision)),
        ]
    }

    /// The outputs from values in [`Outputs::fields`] order (what a port-level backend reads).
    pub fn from_values(v: [u64; OUTPUTS]) -> Outputs {
        Outputs {
            tag: v[0] as u8,
            hook_stray: v[1] != 0,
            reg_rdata: v[2],
            wr_valid: v[3] != 0,
            wr_addr: v[4],
            wr_data: v[5],
            wr_strb: v[6] as u8,
            irq: v[7] != 0,
            pmu_sample_pop: v[8] as u8,
            pmu_sample_feed: v[9] != 0,
            pmu_sample_filtrate: v[10] != 0,
            pmu_sample_collision: v[11] != 0,
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use spe_defs::ports::{Dir, Width, PORTS};

    fn names(dir: Dir, per_slot: bool) -> Vec<&'static str> {
        PORTS
            .iter()
            .filter(|p| p.dir == dir && matches!(p.width, Width::PerSlot(_)) == per_slot)
            .map(|p| p.name)
            .collect()
    }

    /// The field tables list exactly the ports of `spe_defs`, in order, so that port-level
    /// backends and waveform writers can iterate them.
    #[test]
    fn field_tables_follow_the_port_list() {
        let i = Inputs::default();
        let scalar: Vec<_> = i.scalar_fields().iter().map(|f| f.0).collect();
        assert_eq!(scalar, names(Dir::In, false));
        let slots: Vec<_> = SLOT_FIELDS.iter().map(|f| f.0).collect();
        assert_eq!(slots, names(Dir::In, true));
        let o = Outputs::default();
        let outs: Vec<_> = o.fields().iter().map(|f| f.0).collect();
        let mut want = names(Dir::Out, true);
        want.extend(names(Dir::Out, false));
        let order = |n: &&str| PORTS.iter().position(|p| p.name == *n);
        want.sort_by_key(order);
        assert_eq!(outs, want);
    }

    #[test]
    fn outputs_round_trip_through_values() {
        let o = Outputs {
            tag: 0b100,
            hook_stray: true,
            reg_rdata: 0x1234,
            wr_valid: true,
            wr_addr: 0xffff_8000_0000_0040,
            wr_data: 7,
            wr_strb: 0xff,
            irq: true,
            pmu_sample_pop: 3,
            pmu_sample_feed: true,
            pmu_sample_filtrate: false,
            pmu_sample_collision: true,
        };
        let v = o.fields().map(|f| f.1);
        assert_eq!(Outputs::from_values(v), o);
    }
}
