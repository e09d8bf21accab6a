//! `spe synth --preset P [--device hx8k|up5k|ecp5-85f]`: area and timing of the bare unit on
//! an FPGA. Generates the pin-limited wrapper, runs Yosys per block and flattened, runs
//! nextpnr, and prints LUT4/FF/CARRY per block, Fmax and utilisation. `--all` runs every
//! preset and writes one table (`docs/synth-table.md`), measuring on the ECP5 the presets
//! an iCE40 cannot hold; `--guard FILE` holds presets to the floors of FILE and fails naming
//! the one that fell. The flow itself lives in `spe-fpga` (`synth`, `sweep`, `table`);
//! this file is the argument handling.

use clap::Args;
use spe_defs::Config;
use spe_fpga::board::Device;
use spe_fpga::sweep::{self, depth_line};
use spe_fpga::{depth, table, SynthOptions};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Args)]
pub struct SynthArgs {
    #[arg(long, default_value = "default", help = crate::presets_help("Configuration preset"))]
    preset: String,
    /// Every preset, one after another: print the table of their figures and write it to
    /// --table.
    #[arg(long, conflicts_with_all = ["preset", "guard"])]
    all: bool,
    /// With --all: the Markdown page to write.
    #[arg(
        long,
        value_name = "FILE",
        requires = "all",
        default_value = "docs/synth-table.md"
    )]
    table: PathBuf,
    /// With --all: also write the floors of `--guard` here (scripts/synth-floors.txt).
    #[arg(long, value_name = "FILE", requires = "all")]
    floors: Option<PathBuf>,
    /// Measure the presets of this floors file and fail when one's Fmax is more than 5 %
    /// below its floor or its LUT4 more than 5 % above (naming it and its critical path).
    #[arg(long, value_name = "FILE", conflicts_with = "preset")]
    guard: Option<PathBuf>,
    /// Also the technology-neutral figure: the longest path in 2-input gate levels and the
    /// NAND2-equivalent area (a current Yosys from PyPI, installed into .deps/formal when
    /// missing). `--all` always measures it.
    #[arg(long)]
    depth: bool,
    /// With --guard: only these presets of the file (comma-separated).
    #[arg(
        long,
        value_name = "PRESETS",
        value_delimiter = ',',
        requires = "guard"
    )]
    only: Vec<String>,
    /// Target device: hx8k (HX8K-CT256, HX8K breakout board), up5k (UP5K-SG48, iCEBreaker)
    /// or ecp5-85f (LFE5U-85F, ULX3S; nextpnr-ecp5 from PyPI, installed into .deps/ when
    /// missing). With --all on an iCE40, the presets it cannot hold are measured on
    /// ecp5-85f too.
    #[arg(long, default_value = "hx8k")]
    device: String,
    /// Target clock frequency for nextpnr, in MHz.
    #[arg(long, value_name = "MHZ", default_value_t = 100.0)]
    freq: f64,
    /// nextpnr's placer seed (the first of --seeds).
    #[arg(long, value_parser = spe_stim::parse_num, default_value_t = 1)]
    seed: u64,
    /// Place and route with this many seeds (--seed, --seed + 1, ...) and keep the best
    /// Fmax [default: 3 with --all and --guard, else 1]: one seed's Fmax moves by up to
    /// about 18 % with any change to the netlist.
    #[arg(long, value_parser = spe_stim::parse_num, value_name = "N")]
    seeds: Option<u64>,
    /// The generated Verilog folder (holding <preset>/files.f).
    #[arg(long, value_name = "DIR", default_value = "gen")]
    gen: PathBuf,
    /// Output folder for the wrapper, PCF, scripts, netlist and logs
    /// [default: target/spe-synth/<preset>-<device>; with --all or --guard, one folder per
    /// preset under it].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

/// One preset's measurement (and its depth with `depth`).
fn measure(
    a: &SynthArgs,
    cfg: &'static Config,
    device: Device,
    many: bool,
    depth: bool,
) -> Result<table::Row, String> {
    let out_dir = match (&a.out, many) {
        // A preset measured on another device than the command's has its own folder.
        (Some(o), true) if device.name() != a.device => o.join(format!("{}-{device}", cfg.name)),
        (Some(o), true) => o.join(cfg.name),
        (Some(o), false) => o.clone(),
        (None, _) => spe_fpga::default_out_dir(cfg, device),
    };
    let opts = SynthOptions {
        cfg,
        device,
        freq_mhz: a.freq,
        seeds: seeds(a),
        gen_dir: a.gen.clone(),
        out_dir: out_dir.clone(),
        // Every preset in a row: a full device is measured by its packing only.
        place_limit: many.then_some(spe_fpga::PLACE_LIMIT_PERCENT),
    };
    let synth = spe_fpga::synth(&opts, &mut |line| eprintln!("{line}"))?;
    let depth = if depth {
        let report = &mut |line: &str| eprintln!("{line}");
        Some(depth::measure(cfg, &a.gen, &out_dir, report)?)
    } else {
        None
    };
    Ok(table::Row { synth, depth })
}

/// The seeds to place and route with.
fn seeds(a: &SynthArgs) -> Vec<u64> {
    let n = a
        .seeds
        .unwrap_or(if a.all || a.guard.is_some() { 3 } else { 1 });
    (a.seed..a.seed.saturating_add(n)).collect()
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    crate::shared::write_whole(path, text.as_bytes())?;
    eprintln!("wrote {}", path.display());
    Ok(())
}

pub fn run(a: SynthArgs) -> Result<ExitCode, String> {
    let device = Device::parse(&a.device)?;
    if a.seeds == Some(0) {
        return Err("--seeds 0 would place nothing: give at least 1".into());
    }
    let report = &mut |line: &str| eprintln!("{line}");
    if let Some(file) = &a.guard {
        let text = std::fs::read_to_string(file)
            .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        let setting = (device, a.freq, &seeds(&a)[..]);
        let measure = &mut |cfg, device, depth| measure(&a, cfg, device, true, depth);
        let name = file.display().to_string();
        let passed = &mut |line: &str| println!("{line}");
        sweep::guard(&text, &name, setting, &a.only, measure, passed, report)?;
        return Ok(ExitCode::SUCCESS);
    }
    if !a.all {
        let row = measure(&a, Config::preset_named(&a.preset)?, device, false, a.depth)?;
        print!("{}", row.synth.render());
        if let Some(d) = &row.depth {
            println!("{}", depth_line(d));
        }
        // The Yosys figures are printed; a failed place and route still fails the command.
        return row.synth.pnr.map(|_| ExitCode::SUCCESS);
    }
    let measure = &mut |cfg, device, depth| measure(&a, cfg, device, true, depth);
    let (rows, no_fit) = sweep::measure_all(device, measure, report)?;
    let setting = table::Setting::of(&rows[0].synth);
    let command = format!(
        "spe synth --all --device {device} --freq {} --seed {} --seeds {}",
        a.freq,
        a.seed,
        seeds(&a).len()
    );
    let page = table::render(&rows, &setting, &command, &no_fit);
    print!("{page}");
    write(&a.table, &page)?;
    if let Some(f) = &a.floors {
        let floors = table::render_floors(
            rows.iter().map(|r| &r.synth),
            &setting,
            &format!("{command} --floors"),
        );
        write(f, &floors)?;
    }
    Ok(ExitCode::SUCCESS)
}
