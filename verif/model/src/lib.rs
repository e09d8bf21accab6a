//! Golden behavioural model of the SPE sampling unit.
//!
//! Written from `docs/spe-reference.md` and the port and choice tables of `hdl/defs` (`gen/spe_tables.md`), never from
//! the RTL, so that the two can disagree when one of them is wrong. It is one
//! implementation of the port contract of `spe-ports` ([`spe_ports::Dut`] on
//! [`spe_ports::Inputs`] / [`spe_ports::Outputs`], the ports of `spe_top`) and steps one
//! clock cycle at a time ([`Model::step`]); the testbench compares every output every cycle.
//!
//! One module per hardware block: [`sampler`], [`capture`] (op tag, hook merge, latency
//! counters), [`filter`], [`record`] (serializer), [`writer`] (buffer writer), [`regs`]
//! (registers), [`regime`] (the buffer's owner and the EL2 controls) and [`unit`] (the top).

pub mod capture;
pub mod filter;
pub mod record;
pub mod regime;
pub mod regs;
pub mod sampler;
pub mod unit;
pub mod writer;

pub use unit::{Follow, Model, Phase};
