//! Co-simulation of the SPE unit's RTL against the golden model.
//!
//! * [`Backend`] / [`make_dut`]: one DUT trait ([`spe_ports::Dut`]), three implementations:
//!   the golden model, the Verilated RTL ([`verilated::Verilated`], through the in-workspace
//!   `verilator-sys` crate) and the RTL under rust-hdl's simulator (`spe-hdlsim`, exact but
//!   slow: short block-level runs);
//! * [`lockstep::Lockstep`]: the model and another backend on the same inputs, every output
//!   compared every cycle, first divergence reported with a VCD window;
//! * [`chaos`]: random stimulus on top of the core stimulus model (illegal and
//!   CONSTRAINED UNPREDICTABLE register values, reprogramming while running, resets, stray
//!   hook reports);
//! * [`regress`]: the sharded random regression behind `spe regress`;
//! * [`coverage`]: line and toggle coverage of `gen/` from Verilator's coverage data.

pub mod chaos;
pub mod coverage;
pub mod lockstep;
pub mod regress;
pub mod verilated;

use spe_defs::Config;
use spe_model::Model;
use spe_ports::Dut;
pub use verilator_sys::{self, Variant};

/// An implementation of the unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// The golden behavioural model (tb/model).
    Model,
    /// The Verilog of `gen/`, Verilated.
    Verilator,
    /// The rust-hdl design under rust-hdl's own simulator.
    Hdlsim,
}

impl Backend {
    pub fn name(self) -> &'static str {
        match self {
            Backend::Model => "model",
            Backend::Verilator => "verilator",
            Backend::Hdlsim => "hdlsim",
        }
    }
}

/// A DUT of `cfg` on `backend` (the Verilated model in its fast build).
pub fn make_dut(cfg: &Config, backend: Backend) -> Result<Box<dyn Dut>, String> {
    cfg.validate()?;
    Ok(match backend {
        Backend::Model => Box::new(Model::new(cfg)),
        Backend::Verilator => Box::new(verilated::Verilated::new(cfg, Variant::Fast)?),
        Backend::Hdlsim => spe_hdlsim::rtl_sim(cfg),
    })
}
