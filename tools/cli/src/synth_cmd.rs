//! `spe synth --preset P [--device hx8k|up5k]`: area and timing of the bare unit on an
//! iCE40. Generates the pin-limited wrapper, runs Yosys per block and flattened, runs
//! nextpnr-ice40, and prints LUT4/FF/CARRY per block, Fmax and utilisation. The flow itself
//! lives in `spe-fpga`; this file is the argument handling.

use clap::Args;
use spe_defs::Config;
use spe_fpga::board::Device;
use spe_fpga::SynthOptions;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct SynthArgs {
    #[arg(long, default_value = "default", help = crate::presets_help("Configuration preset"))]
    preset: String,
    /// Target device: hx8k (HX8K-CT256, HX8K breakout board) or up5k (UP5K-SG48, iCEBreaker).
    #[arg(long, default_value = "hx8k")]
    device: String,
    /// Target clock frequency for nextpnr, in MHz.
    #[arg(long, value_name = "MHZ", default_value_t = 50.0)]
    freq: f64,
    /// The generated Verilog folder (holding <preset>/files.f).
    #[arg(long, value_name = "DIR", default_value = "gen")]
    gen: PathBuf,
    /// Output folder for the wrapper, PCF, scripts, netlist and logs
    /// [default: target/spe-synth/<preset>-<device>].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

pub fn run(a: SynthArgs) -> Result<ExitCode, String> {
    let cfg = Config::preset_named(&a.preset)?;
    let device = Device::parse(&a.device)?;
    let opts = SynthOptions {
        cfg,
        device,
        freq_mhz: a.freq,
        gen_dir: a.gen,
        out_dir: a
            .out
            .unwrap_or_else(|| spe_fpga::default_out_dir(cfg, device)),
    };
    let report = spe_fpga::synth(&opts, &mut |line| eprintln!("{line}"))?;
    print!("{}", report.render());
    // The Yosys figures are printed; a failed place and route still fails the command.
    match &report.pnr {
        Ok(_) => Ok(ExitCode::SUCCESS),
        Err(e) => Err(e.clone()),
    }
}
