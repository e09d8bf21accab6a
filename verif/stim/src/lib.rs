//! Stimulus for the SPE sampling unit: the core around the device under test.
//!
//! * [`core`]: an out-of-order-ish core model that dispatches groups of micro-ops, reacts
//!   to the unit's tag and reports the tagged op's life through the hooks (issue,
//!   translation, memory, branch, completion) with realistic timing; it keeps per-PC
//!   ground truth of the sample population.
//! * [`program`] / [`workload`]: what the core runs: named workloads (`loop`, `mix`,
//!   `memory`, `branchy`, `modes`) or a [`trace`] file of micro-ops.
//!
//! The bench that wires the core, the memory the unit writes to and the Linux-like driver
//! around any [`spe_ports::Dut`] is the `spe-bench` crate.
//!
//! Every random choice comes from a seeded [`rng::Rng`], so a run replays from its seed.

pub mod core;
pub mod core_params;
pub mod memsys;
pub mod program;
pub mod rng;
pub mod trace;
pub mod uop;
mod walker;
pub mod workload;

pub use crate::core::{Core, CoreCounters};
pub use crate::core_params::CoreParams;
pub use program::{
    Block, Builder, CodeProgram, Exit, KernelEntry, MemPattern, Program, StaticOp, TraceProgram,
};
pub use trace::{parse_num, TraceError};
pub use uop::{BranchOutcome, MemAccess, MemEvents, MicroOp, Mode, Tlb};
pub use workload::{Workload, LOOP_PC_RANGE, WORKLOADS};
