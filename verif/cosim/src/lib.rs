//! Co-simulation of the SPE unit's RTL against the golden model.
//!
//! * [`Backend`] / [`make_dut`]: one DUT trait ([`spe_ports::Dut`]), three implementations:
//!   the golden model, the Verilated RTL ([`verilated::Verilated`], through the in-workspace
//!   `verilator-sys` crate) and the RTL under rust-hdl's simulator (`spe-hdlsim`, exact but
//!   slow: short block-level runs); [`Backend::Lockstep`] is the checker below, built by
//!   [`make_dut`] like the others, which `spe sim --backend` also offers;
//! * [`lockstep::Lockstep`]: the model and another backend on the same inputs, every output
//!   compared every cycle, first divergence reported with a VCD window; with
//!   [`Compare::Records`] the pair is instead `spe_scoreboard::Checked`, comparing records
//!   and register reads whatever their timing;
//! * [`chaos`]: random stimulus on top of the core stimulus model (illegal and
//!   CONSTRAINED UNPREDICTABLE register values, reprogramming while running, resets, stray
//!   hook reports);
//! * [`regress`]: the sharded random regression's jobs (plans, seeds, shards, one job's run);
//! * [`campaign`]: a regression campaign as `spe regress` and `spe coverage` run one: the
//!   jobs selected, worker threads with progress ([`progress`]) and Ctrl-C, failure
//!   reports, JUnit and JSON summaries;
//! * [`protocol`]: vector files for the SystemVerilog protocol checker's replay bench, and a
//!   stimulus that breaks one of the core's rules (`spe sim --vectors`, `--break`);
//! * [`diagrams`]: timing diagrams of the ports from lockstep runs (`spe diagrams`);
//! * [`coverage`]: line and toggle coverage of `gen/` from Verilator's coverage data;
//! * [`functional`]: functional coverage, cover points observed at the ports (`spe
//!   coverage --functional`).

pub mod campaign;
pub mod chaos;
pub mod coverage;
pub mod diagrams;
pub mod functional;
pub mod hooks;
pub mod lockstep;
pub mod progress;
pub mod protocol;
pub mod regress;
pub mod verilated;

use spe_defs::Config;
use spe_model::Model;
use spe_ports::Dut;
use std::path::PathBuf;
pub use verilator_sys::{self, Variant};

/// An implementation of the unit, or the lockstep pair (what `spe sim --backend` picks;
/// the variant docs are its help text).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Backend {
    /// The golden behavioural model (verif/model).
    Model,
    /// The Verilog of gen/, Verilated (verif/verilator-sys).
    Verilator,
    /// The golden model and the Verilated RTL in lockstep: every output compared every
    /// cycle (or, with --compare records, the records and register reads); the run fails
    /// at the end if they ever differed.
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

/// What the lockstep pair compares (`spe sim --compare`; the variant docs are its help).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Compare {
    /// Every output in every cycle (the model's timing is the contract).
    #[default]
    Cycles,
    /// The records written to memory and every register read, whatever their timing: the
    /// model follows the RTL's tags and write timing (verif/scoreboard, the rule there).
    Records,
}

/// Waveforms a backend writes besides stepping.
#[derive(Clone, Debug, Default)]
pub struct Waves {
    /// The lockstep pair: a VCD window of every port, model against RTL, around the first
    /// divergence ([`lockstep::Lockstep::record_vcd`]).
    pub vcd: Option<PathBuf>,
    /// The Verilated RTL: its internal signals traced over cycles `[from, to)` (a
    /// `Variant::Trace` build, [`verilated::Verilated::trace_window`]).
    pub wave: Option<(PathBuf, u64, u64)>,
}

/// A DUT of `cfg` on `backend`, the Verilated model in its fast build: what every command
/// steps, the lockstep pair included (its verdict comes from [`Dut::verdict`] after the
/// run).
pub fn make_dut(cfg: &Config, backend: Backend) -> Result<Box<dyn Dut>, String> {
    make_dut_with(cfg, backend, &Waves::default())
}

/// [`make_dut`] with waveforms: `waves.vcd` needs the lockstep pair, `waves.wave` the
/// Verilated backend (which then runs its tracing build).
pub fn make_dut_with(
    cfg: &Config,
    backend: Backend,
    waves: &Waves,
) -> Result<Box<dyn Dut>, String> {
    make_checked(cfg, backend, waves, Compare::Cycles)
}

/// [`make_dut_with`], the lockstep pair comparing as `compare` says (records: the
/// scoreboard of `spe-scoreboard` on the Verilated RTL; the bench then sees the RTL's
/// outputs).
pub fn make_checked(
    cfg: &Config,
    backend: Backend,
    waves: &Waves,
    compare: Compare,
) -> Result<Box<dyn Dut>, String> {
    cfg.validate()?;
    if compare == Compare::Records {
        if backend != Backend::Lockstep {
            return Err("--compare records needs the lockstep backend".into());
        }
        if waves.vcd.is_some() {
            return Err("a VCD window around a divergence (--vcd) needs --compare cycles".into());
        }
        let rtl = make_dut(cfg, Backend::Verilator)?;
        return Ok(Box::new(spe_scoreboard::Checked::new(cfg, rtl)));
    }
    if waves.vcd.is_some() && backend != Backend::Lockstep {
        return Err("a VCD window around a divergence (--vcd) needs the lockstep backend (use --wave for the Verilator backend)".into());
    }
    if waves.wave.is_some() && backend != Backend::Verilator {
        return Err(
            "a trace of the RTL's internal signals (--wave) needs the verilator backend".into(),
        );
    }
    Ok(match backend {
        Backend::Model => Box::new(Model::new(cfg)),
        Backend::Verilator => match &waves.wave {
            None => Box::new(verilated::Verilated::new(cfg, Variant::Fast)?),
            Some((path, from, to)) => {
                let mut v = verilated::Verilated::new(cfg, Variant::Trace)?;
                v.trace_window(path, *from, *to)?;
                Box::new(v)
            }
        },
        Backend::Hdlsim => spe_hdlsim::rtl_sim(cfg)?,
        Backend::Lockstep => {
            let mut ls = lockstep::Lockstep::new(cfg, make_dut(cfg, Backend::Verilator)?);
            if let Some(path) = &waves.vcd {
                ls.record_vcd(path);
            }
            Box::new(ls)
        }
    })
}

/// The generated Verilog a command reads (`--gen DIR`): it must hold `<preset>/`. Outside
/// the repository the default `gen` is not there, and the error says so.
pub fn check_gen(gen: &std::path::Path, preset: &str) -> Result<(), String> {
    let dir = gen.join(preset);
    if dir.is_dir() {
        return Ok(());
    }
    Err(format!(
        "{} not found: run spe from the repository root (where gen/ is), or give --gen DIR, the folder `spe gen` wrote",
        dir.display()
    ))
}
