//! The bench around a device under test: everything but the core (`spe-stim`).
//!
//! * [`memory`]: the memory the unit writes records to, with backpressure, error injection
//!   and write-protocol checks.
//! * [`driver`]: software that programs the registers like the Linux driver and drains the
//!   buffer on every interrupt.
//! * [`perf_event`]: perf's `arm_spe/TERMS/` event strings as settings, refused where the
//!   Linux driver refuses them.
//! * [`accuracy`]: how well the samples estimate where the population went (the golden
//!   model's per-PC and per-block shares against the exact ones; `spe bench accuracy`).
//! * [`run()`]: wires the core model, the memory and the driver around any
//!   [`spe_ports::Dut`] and returns the drained bytes and [`Stats`].
//!
//! Every random choice comes from a seeded `spe_stim::rng::Rng`, so a run replays from its
//! seed.

pub mod accuracy;
pub mod driver;
pub mod memory;
pub mod perf_event;
pub mod run;

pub use driver::{AuxRecord, Driver, FaultAction, MgmtEvent, SampleSettings};
pub use memory::{Backpressure, ErrorInjection, Memory, MemoryProfile, Violation, ViolationKind};
pub use run::{run, RunResult, Stats};
