//! The port contract of the SPE sampling unit, one clock cycle at a time: what every
//! backend (the golden model, the Verilated RTL, the RTL under rust-hdl's simulator, the
//! lockstep pair) takes and gives, and the [`Dut`] trait they all implement.
//!
//! The ports, names, order, widths and timing are those of `spe_defs::ports::PORTS` (and of
//! the RTL's `spe_top`, and of the generated port table in `gen/spe_tables.md`); a test of
//! this crate checks the field tables against that list. This file is the contract: each
//! field below states its width, its timing and its meaning.
//!
//! # Timing
//!
//! One clock `clk`; every input is sampled at its rising edge. Outputs are either
//! * **comb**: they depend on the same cycle's inputs (and the state), valid before the edge
//!   (`tag`, `hook_stray`, `reg_rdata`, `pmu_sample_pop`, `pmu_sample_collision`), or
//! * **reg**: they depend on the state only (`wr_valid`, `wr_addr`, `wr_data`, `wr_strb`,
//!   `irq`, `pmu_sample_feed`, `pmu_sample_filtrate`).
//!
//! While `reset` is high every output except `reg_rdata` and `irq` is low.
//!
//! # Widths
//!
//! Fields are plain integers at least as wide as their port; bits above the port's width
//! are ignored on input and zero on output. Per-slot ports are arrays of
//! `MAX_DISPATCH_WIDTH` [`Slot`]s: slots at and above the configured dispatch width `W` are
//! ignored on input and zero on output (`tag` bit `i` is slot `i`).
//!
//! # The step invariant
//!
//! [`Dut::step`] is one clock cycle: it applies `inputs` for the cycle, returns the outputs
//! seen during the cycle (before the edge: comb outputs from these inputs and the state,
//! reg outputs from the state), then takes the rising edge. A backend is deterministic:
//! the same sequence of inputs from construction gives the same sequence of outputs, so two
//! backends can be stepped in lockstep and compared on every output every cycle.
//!
//! # Adding a port
//!
//! A new input or output is one field here (struct field plus one entry in the name list
//! macro [`for_scalar_inputs!`], [`for_slot_inputs!`] or [`for_outputs!`]), one row of
//! `PORTS` and the RTL and model logic. Port-level backends (Verilated, rust-hdl, VCD
//! writers) iterate the tables and need no change.

use spe_defs::config::MAX_DISPATCH_WIDTH;
use spe_defs::ports::{Width, PORTS};

/// One dispatch slot (per-slot ports, slot `i` at bits `i * width` of each bus).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Slot {
    /// `disp_valid` (1 bit, per cycle): the slot holds a dispatched micro-op; slots are in
    /// program order, slot 0 oldest.
    pub valid: bool,
    /// `disp_pc` (56 bits, with `valid`): virtual address of the op, VA 55:0.
    pub pc: u64,
    /// `disp_class` (2 bits, with `valid`): Operation Type class: 0 other, 1
    /// load/store/atomic, 2 branch.
    pub class: u8,
    /// `disp_subclass` (8 bits, with `valid`): Operation Type payload byte, as the packet
    /// encodes it.
    pub subclass: u8,
    /// `disp_cond` (1 bit, with `valid`): the op is conditional (enables NOT-TAKEN).
    pub cond: bool,
}

/// Everything the unit samples at one rising clock edge.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Inputs {
    /// 1 bit, sampled at the edge: synchronous active-high reset; the state returns to its
    /// reset values at the edge.
    pub reset: bool,
    // Dispatch hook (per cycle; the group fields apply to every slot).
    /// The dispatch group, `W` slots used (see [`Slot`]).
    pub disp: [Slot; MAX_DISPATCH_WIDTH],
    /// 2 bits, per cycle: exception level of the whole group.
    pub disp_el: u8,
    /// 1 bit, per cycle: the group is Non-secure.
    pub disp_ns: bool,
    /// 1 bit, per cycle: EL0 runs in the EL2 host (HCR_EL2.{E2H,TGE} = 11): EL2 controls
    /// apply.
    pub disp_host: bool,
    /// 1 bit, per cycle: the group is in AArch32 state (not in the population).
    pub disp_aarch32: bool,
    /// 1 bit, per cycle: profiling allowed by EL3 policy; low: not in the population.
    pub prof_allowed: bool,
    // Issue hook.
    /// 1 bit, pulse, once: the tagged op left its issue queue.
    pub iss_valid: bool,
    // Translation hook.
    /// 1 bit, pulse, once: translation of the tagged op's data address starts.
    pub xl_start: bool,
    /// 64 bits, with `xl_start`: data virtual address (recorded whole, with the tag byte).
    pub xl_va: u64,
    /// 1 bit, pulse, after or with `xl_start`: translation done.
    pub xl_done: bool,
    /// 56 bits, with `xl_done`: physical address.
    pub xl_pa: u64,
    /// 1 bit, with `xl_done`: event TLB-ACCESS.
    pub xl_tlb_access: bool,
    /// 1 bit, with `xl_done`: event TLB-REFILL (walk).
    pub xl_tlb_walk: bool,
    // Memory hook.
    /// 1 bit, pulse, once: the tagged op's memory access is done.
    pub mem_done: bool,
    /// 8 bits, with `mem_done`: data source code (Data Source payload; loads only).
    pub mem_source: u8,
    /// 1 bit, with `mem_done`: event L1D-ACCESS.
    pub mem_l1d_access: bool,
    /// 1 bit, with `mem_done`: event L1D-REFILL.
    pub mem_l1d_refill: bool,
    /// 1 bit, with `mem_done`: event LLC-ACCESS.
    pub mem_llc_access: bool,
    /// 1 bit, with `mem_done`: event LLC-REFILL.
    pub mem_llc_miss: bool,
    /// 1 bit, with `mem_done`: event REMOTE-ACCESS.
    pub mem_remote: bool,
    /// 1 bit, with `mem_done`: event ALIGNMENT.
    pub mem_misaligned: bool,
    // Branch hook.
    /// 1 bit, pulse, once: the tagged branch resolved.
    pub br_done: bool,
    /// 56 bits, with `br_done`: branch target virtual address, VA 55:0.
    pub br_target: u64,
    /// 1 bit, with `br_done`: branch taken (a conditional branch not taken sets NOT-TAKEN).
    pub br_taken: bool,
    /// 1 bit, with `br_done`: event MISPRED.
    pub br_mispred: bool,
    /// 1 bit, with `br_done`: indirect branch (ORed into the op type's IND bit).
    pub br_indirect: bool,
    // Completion hook.
    /// 1 bit, pulse, once: the tagged op completed (retired or flushed); ends tracking.
    pub cpl_done: bool,
    /// 1 bit, with `cpl_done`: retired (event RETIRED); low: flushed.
    pub cpl_retired: bool,
    /// 1 bit, with `cpl_done`: the op generated an exception (event EXCEPTION-GEN).
    pub cpl_exception: bool,
    /// 1 bit, with `cpl_done`: a conditional non-branch op failed its condition
    /// (NOT-TAKEN).
    pub cpl_cond_fail: bool,
    // Context inputs.
    /// 32 bits, sampled in the tag cycle: CONTEXTIDR_EL1.
    pub ctx_el1: u32,
    /// 32 bits, sampled in the tag cycle: CONTEXTIDR_EL2.
    pub ctx_el2: u32,
    /// 64 bits, sampled in the tag cycle: virtual counter (CNTVCT).
    pub cnt_virt: u64,
    /// 64 bits, sampled in the tag cycle: physical counter (CNTPCT).
    pub cnt_phys: u64,
    // Register port.
    /// 1 bit, per cycle: a register access this cycle.
    pub reg_en: bool,
    /// 1 bit, with `reg_en`: the access is a write.
    pub reg_we: bool,
    /// 5 bits, with `reg_en`: `{op1 == 4, CRm[0], op2}` of the system register.
    pub reg_addr: u8,
    /// 64 bits, with `reg_we`: write data (RES0 bits dropped).
    pub reg_wdata: u64,
    // Memory write port (responses).
    /// 1 bit, per cycle: memory accepts the beat (handshake: `wr_valid && wr_ready`).
    pub wr_ready: bool,
    /// 1 bit, with the handshake: the accepted beat faulted (external abort).
    pub wr_err: bool,
    // Profiling synchronization.
    /// 1 bit, level: the core executes PSB CSYNC and holds this high until `psb_done`
    /// (after the completion reports of every op older than the PSB); a sample still
    /// tracked is dropped in every cycle this is high.
    pub psb_req: bool,
}

/// Everything the unit drives during one cycle (before the edge).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outputs {
    /// `W` bits, comb: one-hot (or zero) tag, bit `i` = slot `i` is sampled; the core
    /// stores the tag bit with the op.
    pub tag: u8,
    /// 1 bit, comb: a hook report was ignored (nothing tracked, or not applicable to the
    /// tracked op).
    pub hook_stray: bool,
    /// 64 bits, comb: value of the register at `reg_addr` (zero if none); reads have no
    /// side effects.
    pub reg_rdata: u64,
    // Memory write port.
    /// 1 bit, reg: a record beat is offered.
    pub wr_valid: bool,
    /// 64 bits, reg, held until accepted: virtual address of the beat (8-byte aligned; the
    /// core translates it).
    pub wr_addr: u64,
    /// 64 bits, reg, held until accepted: eight record bytes, little-endian (the byte at
    /// `wr_addr` in bits 7:0).
    pub wr_data: u64,
    /// 8 bits, reg: byte enables (all ones).
    pub wr_strb: u8,
    /// 1 bit, reg: PMBIRQ, level, high while PMBSR.S = 1.
    pub irq: bool,
    // PMU events.
    /// 4 bits, comb: SAMPLE_POP, ops counted into the population this cycle.
    pub pmu_sample_pop: u8,
    /// 1 bit, reg, pulse: SAMPLE_FEED, a sample completed and reaches the filters.
    pub pmu_sample_feed: bool,
    /// 1 bit, reg, pulse: SAMPLE_FILTRATE, a sample passed the filters.
    pub pmu_sample_filtrate: bool,
    /// 1 bit, comb: SAMPLE_COLLISION, a sample was selected while one was in flight.
    pub pmu_sample_collision: bool,
    /// 1 bit, comb: the PSB is complete (`psb_req` high and no record in its filter,
    /// check or write cycles): every record of an op tagged before this cycle's edge is
    /// written or dropped, and the unit writes nothing more for it.
    pub psb_done: bool,
}

/// Calls the macro `$m` with the name of every [`Inputs`] field that is one port (not per
/// slot), in `PORTS` order: `$m!(reset, disp_el, ...)`. The one list that
/// [`Inputs::scalar_fields`] and the rust-hdl backend are generated from.
#[macro_export]
macro_rules! for_scalar_inputs {
    ($m:ident) => {
        $m!(
            reset,
            disp_el,
            disp_ns,
            disp_host,
            disp_aarch32,
            prof_allowed,
            iss_valid,
            xl_start,
            xl_va,
            xl_done,
            xl_pa,
            xl_tlb_access,
            xl_tlb_walk,
            mem_done,
            mem_source,
            mem_l1d_access,
            mem_l1d_refill,
            mem_llc_access,
            mem_llc_miss,
            mem_remote,
            mem_misaligned,
            br_done,
            br_target,
            br_taken,
            br_mispred,
            br_indirect,
            cpl_done,
            cpl_retired,
            cpl_exception,
            cpl_cond_fail,
            ctx_el1,
            ctx_el2,
            cnt_virt,
            cnt_phys,
            reg_en,
            reg_we,
            reg_addr,
            reg_wdata,
            wr_ready,
            wr_err,
            psb_req
        )
    };
}

/// Calls the macro `$m` with every per-slot input as `port: slot_field`, in `PORTS` order:
/// `$m!(disp_valid: valid, disp_pc: pc, ...)`. The one list that [`SLOT_FIELDS`] and the
/// rust-hdl backend are generated from.
#[macro_export]
macro_rules! for_slot_inputs {
    ($m:ident) => {
        $m!(
            disp_valid: valid,
            disp_pc: pc,
            disp_class: class,
            disp_subclass: subclass,
            disp_cond: cond
        )
    };
}

/// Calls the macro `$m` with the name of every [`Outputs`] field, in `PORTS` order:
/// `$m!(tag, hook_stray, ...)`. The one list that [`Outputs::fields`],
/// [`Outputs::from_values`] and the rust-hdl backend are generated from.
#[macro_export]
macro_rules! for_outputs {
    ($m:ident) => {
        $m!(
            tag,
            hook_stray,
            reg_rdata,
            wr_valid,
            wr_addr,
            wr_data,
            wr_strb,
            irq,
            pmu_sample_pop,
            pmu_sample_feed,
            pmu_sample_filtrate,
            pmu_sample_collision,
            psb_done
        )
    };
}

/// Number of names a `for_*!` list passes.
macro_rules! count {
    ($($f:ident $(: $g:ident)?),*) => {
        [$(stringify!($f)),*].len()
    };
}

/// Reads one field of a slot.
pub type SlotField = fn(&Slot) -> u64;

macro_rules! slot_fields {
    ($($port:ident: $field:ident),*) => {
        [$((stringify!($port), |s: &Slot| u64::from(s.$field))),*]
    };
}

/// The per-slot inputs in `PORTS` order: port name and one slot's value.
pub const SLOT_FIELDS: [(&str, SlotField); for_slot_inputs!(count)] = for_slot_inputs!(slot_fields);

/// Number of inputs that are not per slot.
pub const SCALAR_INPUTS: usize = for_scalar_inputs!(count);
/// Number of outputs.
pub const OUTPUTS: usize = for_outputs!(count);

/// Bits of one slot of the per-slot port `name` (from `PORTS`). Panics if `name` is not a
/// per-slot port.
pub fn slot_bits(name: &str) -> u32 {
    match PORTS.iter().find(|p| p.name == name).map(|p| p.width) {
        Some(Width::PerSlot(b)) => b,
        w => panic!("{name} is not a per-slot port ({w:?})"),
    }
}

/// A field type that travels as the low bits of a `u64` port value.
trait PortValue {
    fn from_port(v: u64) -> Self;
}

impl PortValue for bool {
    fn from_port(v: u64) -> bool {
        v != 0
    }
}

impl PortValue for u8 {
    fn from_port(v: u64) -> u8 {
        v as u8
    }
}

impl PortValue for u32 {
    fn from_port(v: u64) -> u32 {
        v as u32
    }
}

impl PortValue for u64 {
    fn from_port(v: u64) -> u64 {
        v
    }
}

impl Inputs {
    /// Every input that is not per slot, as (port name, value) in `PORTS` order.
    pub fn scalar_fields(&self) -> [(&'static str, u64); SCALAR_INPUTS] {
        let i = self;
        macro_rules! fields {
            ($($f:ident),*) => {
                [$((stringify!($f), u64::from(i.$f))),*]
            };
        }
        for_scalar_inputs!(fields)
    }

    /// The inputs of a `w`-wide unit from its ports' bits: `get(port, offset, width)`
    /// returns `width` bits (at most 64) of port `port` from bit `offset` up (a port-level
    /// probe, such as the SoC's `spe_in` bus, read field by field).
    pub fn from_port_bits(w: usize, get: impl Fn(&'static str, u32, u32) -> u64) -> Inputs {
        let mut i = Inputs::default();
        macro_rules! scalars {
            ($($f:ident),*) => {
                $(i.$f = PortValue::from_port(get(stringify!($f), 0, 64));)*
            };
        }
        for_scalar_inputs!(scalars);
        macro_rules! slots {
            ($($p:ident: $f:ident),*) => {
                $(
                    let b = slot_bits(stringify!($p));
                    for (s, slot) in i.disp.iter_mut().enumerate().take(w) {
                        slot.$f = PortValue::from_port(get(stringify!($p), s as u32 * b, b));
                    }
                )*
            };
        }
        for_slot_inputs!(slots);
        i
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

impl Outputs {
    /// Every output as (port name, value) in `PORTS` order.
    pub fn fields(&self) -> [(&'static str, u64); OUTPUTS] {
        let o = self;
        macro_rules! fields {
            ($($f:ident),*) => {
                [$((stringify!($f), u64::from(o.$f))),*]
            };
        }
        for_outputs!(fields)
    }

    /// The outputs from values in [`Outputs::fields`] order (what a port-level backend
    /// reads); bits above a field's type are dropped.
    pub fn from_values(v: [u64; OUTPUTS]) -> Outputs {
        let mut v = v.into_iter();
        macro_rules! outputs {
            ($($f:ident),*) => {
                // Struct fields are evaluated in the order written: `PORTS` order.
                Outputs {
                    $($f: PortValue::from_port(v.next().unwrap_or_default())),*
                }
            };
        }
        for_outputs!(outputs)
    }
}

/// A device under test: anything that behaves like `spe_top` one clock cycle at a time
/// (the golden model, the Verilated RTL, the RTL under rust-hdl's simulator, the lockstep
/// checker).
pub trait Dut {
    /// One clock cycle: applies `inputs` for the cycle, returns the outputs seen during
    /// the cycle (before the edge), then takes the rising clock edge. Same inputs from
    /// construction, same outputs.
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
    use spe_defs::ports::Dir;

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

    /// Every field's type holds its port: no port is wider than the integer carrying it
    /// (a per-slot port of one slot; `tag` and other `W`-bit outputs at `MAX_DISPATCH_WIDTH`).
    #[test]
    fn field_types_hold_their_ports() {
        let max = |name: &str| -> u64 {
            let p = PORTS.iter().find(|p| p.name == name).unwrap();
            let bits = match p.width {
                Width::Bits(b) | Width::PerSlot(b) => b,
            };
            let bits = if p.dir == Dir::Out {
                p.width.total(MAX_DISPATCH_WIDTH)
            } else {
                bits
            };
            spe_defs::low_mask(bits)
        };
        // All ones in, all ones out: a field narrower than its port would lose bits.
        let mut i = Inputs::default();
        macro_rules! set_max {
            ($($f:ident),*) => {
                $(i.$f = PortValue::from_port(max(stringify!($f)));)*
            };
        }
        for_scalar_inputs!(set_max);
        for (name, v) in i.scalar_fields() {
            assert_eq!(v, max(name), "input {name}");
        }
        let mut s = Slot::default();
        macro_rules! set_slot_max {
            ($($port:ident: $field:ident),*) => {
                $(s.$field = PortValue::from_port(max(stringify!($port)));)*
            };
        }
        for_slot_inputs!(set_slot_max);
        for (name, f) in SLOT_FIELDS {
            assert_eq!(f(&s), max(name), "slot input {name}");
        }
        let o = Outputs::from_values(Outputs::default().fields().map(|(n, _)| max(n)));
        for (name, v) in o.fields() {
            assert_eq!(v, max(name), "output {name}");
        }
    }

    #[test]
    fn per_slot_widths_come_from_the_port_list() {
        let bits: Vec<_> = SLOT_FIELDS.iter().map(|f| slot_bits(f.0)).collect();
        assert_eq!(bits, [1, 56, 2, 8, 1]);
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
            psb_done: true,
        };
        let v = o.fields().map(|f| f.1);
        assert_eq!(Outputs::from_values(v), o);
    }
}
