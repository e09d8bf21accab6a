//! Stimulus for the SPE sampling unit: everything around the device under test.
//!
//! * [`core`]: an out-of-order-ish core model that dispatches groups of micro-ops, reacts
//!   to the unit's tag and reports the tagged op's life through the hooks (issue,
//!   translation, memory, branch, completion) with realistic timing; it keeps per-PC
//!   ground truth of the sample population.
//! * [`program`] / [`workload`]: what the core runs: named workloads (`loop`, `mix`,
//!   `memory`, `branchy`, `modes`) or a [`trace`] file of micro-ops.
//! * [`memory`]: the memory the unit writes records to, with backpressure, error injection
//!   and write-protocol checks.
//! * [`driver`]: software that programs the registers like the Linux driver and drains the
//!   buffer on every interrupt.
//! * [`run()`]: wires all of it around any [`spe_ports::Dut`] and returns the drained bytes
//!   and [`Stats`].
//!
//! Every random choice comes from a seeded [`rng::Rng`], so a run replays from its seed.

pub mod core;
pub mod core_params;
pub mod driver;
pub mod memory;
pub mod memsys;
pub mod program;
pub mod rng;
pub mod run;
pub mod trace;
pub mod uop;
mod walker;
pub mod workload;

pub use crate::core::{Core, CoreCounters};
pub use crate::core_params::CoreParams;
pub use driver::{AuxRecord, Driver, FaultAction, MgmtEvent, SampleSettings};
pub use memory::{Backpressure, ErrorInjection, Memory, MemoryProfile, Violation, ViolationKind};
pub use program::{
    Block, Builder, CodeProgram, Exit, KernelEntry, MemPattern, Program, StaticOp, TraceProgram,
};
pub use run::{run, RunResult, Stats};
pub use trace::{parse_num, TraceError};
pub use uop::{BranchOutcome, MemAccess, MemEvents, MicroOp, Mode, Tlb};
pub use workload::{Workload, LOOP_PC_RANGE, WORKLOADS};
