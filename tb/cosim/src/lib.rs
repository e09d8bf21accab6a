//! Co-simulation of the SPE unit's RTL against the golden model.
//!
//! * [`Backend`] / [`make_dut`]: one DUT trait ([`spe_ports::Dut`]), three implementations:
//!   the golden model, the Verilated RTL ([`verilated::Verilated`], through the in-workspace
//!   `verilator-sys` crate) and the RTL under rust-hdl's simulator (`spe-hdlsim`, exact but
//!   slow: short block-level runs); [`Backend::Lockstep`] names the checker below, which
//!   `spe sim --backend` also offers;
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

/// An implementation of the unit, or the lockstep pair (what `spe sim --backend` picks;
/// the variant docs are its help text).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Backend {
    /// The golden behavioural model (tb/model).
    Model,
    /// The Verilog of gen/, Verilated (tb/verilator-sys).
    Verilator,
    /// The golden model and the Verilated RTL in lockstep: every output compared every
    /// cycle; the run fails at the end if they ever differed.
    Lockstep,
    /// The rust-hdl design under rust-hdl's own simulator (slow: about 11k cycles/s).
    Hdlsim,
}

impl Backend {
    pub fn name(self) -> &'static str {
        match self {
            Backend::Model => "model",
            Backend::Verilator => "verilator",
            Backend::Lockstep => "lockstep",
            Backend::Hdlsim => "hdlsim",
        }
    }
}

/// A DUT of `cfg` on `backend` (the Verilated model in its fast build). The lockstep pair
/// is a checker whose mismatches are read from it: build it with
/// [`lockstep::Lockstep::new`].
pub fn make_dut(cfg: &Config, backend: Backend) -> Result<Box<dyn Dut>, String> {
    cfg.validate()?;
    Ok(match backend {
        Backend::Model => Box::new(Model::new(cfg)),
        Backend::Verilator => Box::new(verilated::Verilated::new(cfg, Variant::Fast)?),
        Backend::Hdlsim => spe_hdlsim::rtl_sim(cfg),
        Backend::Lockstep => {
            return Err("the lockstep backend is a checker: build it with Lockstep::new".into())
        }
    })
}
