//! `spe fpga capture`: receives the SPE buffer a board (or anything that speaks the dump
//! protocol of `docs/uart-protocol.md`) sends over a serial port, checks every frame, and
//! writes the buffer for `spe decode` / `spe perf`. `--replay FILE` reads a recorded
//! stream instead of a port. A stream that fails a check is an error naming the byte
//! offset, and no output file is written (an existing one is left as it was).
//!
//! `spe fpga build --board B [--core C] --elf FILE`: the board top of `soc/rtl` around
//! PicoRV32 or VexRiscv with the program in its RAM, synthesized, placed and routed at the
//! board's system clock and packed into `<out>/<name>.bin` (`hx8k`, `hx8k-vexriscv`) or,
//! on the ULX3S's ECP5, `<out>/<name>.bit` (the flow is `spe_fpga::build`). `spe fpga constraints` writes or
//! checks the boards' pin files (PCFs, the ULX3S's LPF) in `constraints/`.

use crate::shared::write_whole;
use clap::{Args, Subcommand};
use spe_dump::{Captured, Decoder};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct FpgaArgs {
    #[command(subcommand)]
    cmd: FpgaCmd,
}

#[derive(Subcommand)]
enum FpgaCmd {
    /// Receive the SPE buffer a board dumps over its UART (framed and checksummed).
    Capture(CaptureArgs),
    /// Build a board's bitstream with a program in its RAM (Yosys; nextpnr-ice40 and icepack,
    /// or nextpnr-ecp5 and ecppack from PyPI).
    Build(BuildArgs),
    /// Write (or check) the boards' pin constraints (PCF, LPF) in constraints/.
    Constraints(ConstraintsArgs),
}

#[derive(Args)]
struct BuildArgs {
    /// Board: icebreaker (iCE40UP5K-SG48), hx8k (iCE40-HX8K breakout board) or ulx3s
    /// (ECP5 LFE5U-85F).
    #[arg(long)]
    board: String,
    /// The SoC's core: picorv32, vexriscv (VexRiscv Lite; on an iCE40 board its record
    /// buffer is 2 KiB) or vexriscv-full (VexRiscv Full, its data cache: ulx3s only).
    #[arg(long, default_value = "picorv32")]
    core: String,
    /// The program (RV32I ELF from `scripts/soc-sw.sh [--core C]`), placed in the SoC's
    /// 8 KiB RAM.
    #[arg(long, value_name = "FILE")]
    elf: PathBuf,
    /// Output folder for the Verilog, pin file, netlist, logs and <name>.bin (.bit on ECP5)
    /// [default: target/spe-fpga/<name>, name = the board, or <board>-vexriscv].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// The generated Verilog folder (the unit's files); its parent is the repository, where
    /// the core's Verilog is installed (.deps/).
    #[arg(long, value_name = "DIR", default_value = "gen")]
    gen: PathBuf,
}

#[derive(Args)]
struct ConstraintsArgs {
    /// Folder to write the PCFs into: new, empty, or one this command wrote before (it
    /// holds `.spe-generated`).
    #[arg(long, value_name = "DIR", conflicts_with = "check")]
    out: Option<PathBuf>,
    /// Write into --out even when it is a folder this command did not write.
    #[arg(long, requires = "out")]
    force: bool,
    /// Compare the PCFs in DIR with a fresh generation; exit 1 when any is stale or missing.
    #[arg(long, value_name = "DIR")]
    check: Option<PathBuf>,
}

#[derive(Args)]
struct CaptureArgs {
    /// Serial device of the board's UART (the iCEBreaker's second FTDI channel is usually
    /// /dev/ttyUSB1).
    #[arg(long, value_name = "DEV", required_unless_present = "replay")]
    port: Option<String>,
    /// Baud rate of the port.
    #[arg(long, value_parser = crate::parse_u32, default_value_t = 115_200)]
    baud: u32,
    /// Decode a recorded byte stream from FILE instead of reading a port.
    #[arg(long, value_name = "FILE", conflicts_with = "port")]
    replay: Option<PathBuf>,
    /// Give up after this many seconds without a byte from the port.
    #[arg(long, value_parser = spe_stim::parse_num, value_name = "SECONDS", default_value_t = 30)]
    timeout: u64,
    /// Where to write the buffer (raw SPE bytes).
    #[arg(long, short, value_name = "FILE")]
    out: PathBuf,
}

pub fn run(a: FpgaArgs) -> Result<ExitCode, String> {
    match a.cmd {
        FpgaCmd::Capture(c) => capture(c),
        FpgaCmd::Build(b) => build(b),
        FpgaCmd::Constraints(c) => constraints(c),
    }
}

fn build(a: BuildArgs) -> Result<ExitCode, String> {
    use spe_defs::soc::Core;
    use spe_fpga::build::BuildOptions;
    use spe_soc::board::{self, Board};
    let b = Board::parse(&a.board)?;
    let core = Core::parse(&a.core)?;
    board::check_fits(b, core)?;
    let name = board::build_name(b, core);
    let device = spe_fpga::board::Device::parse(b.device())?;
    if !a.elf.is_file() {
        return Err(format!("{}: no such ELF file", a.elf.display()));
    }
    let soc = spe_defs::soc::RAM;
    // Elf::read_for names the file in its errors; image() does not.
    let ram = spe_socsim::elf::Elf::read_for(&a.elf, core)?
        .image(soc.base, spe_defs::soc::RAM_WORDS)
        .map_err(|e| format!("{}: {e}", a.elf.display()))?;
    let out = a
        .out
        .unwrap_or_else(|| PathBuf::from(format!("target/spe-fpga/{name}")));
    std::fs::create_dir_all(&out).map_err(|e| format!("creating {}: {e}", out.display()))?;
    let out = out
        .canonicalize()
        .map_err(|e| format!("{}: {e}", out.display()))?;
    let gen = a.gen.canonicalize().map_err(|e| {
        format!(
            "{}: {e} (is --gen the gen/ folder of the repository?)",
            a.gen.display()
        )
    })?;
    let repo = gen.parent().ok_or("--gen has no parent folder")?;
    // Fail before any work when a tool is missing (the PyPI ones, an ECP5's tools and the
    // UP5K's nextpnr-ice40, are installed now).
    spe_fpga::build::find_tools(device, repo)?;
    let (core_v, installed) = spe_defs::soc::ensure_core(repo, core)?;
    if installed {
        eprintln!("installed {}", core_v.display());
    }
    eprintln!(
        "spe fpga build {}",
        board::build_summary(b, core, ram.len(), &a.elf, &out)
    );
    let design = board::prepare(b, core, &ram, &core_v, &gen, &out)?;
    let opts = BuildOptions {
        name: design.name,
        device,
        top: design.top,
        sources: design.sources,
        pins: design.pins,
        repo: repo.to_path_buf(),
        freq_mhz: design.freq_mhz,
        out_dir: out,
    };
    let report = spe_fpga::build::build(&opts, &mut |line| eprintln!("{line}"))?;
    print!("{}", report.render());
    if !report.timing_met() {
        return Err(format!(
            "{name}: Fmax {:.2} MHz is below the {} MHz system clock it was built for; no bitstream written (see {})",
            report.pnr.fmax_mhz,
            b.sys_mhz(),
            opts.out_dir.join(spe_fpga::nextpnr::LOG).display()
        ));
    }
    Ok(ExitCode::SUCCESS)
}

fn constraints(a: ConstraintsArgs) -> Result<ExitCode, String> {
    use spe_soc::board::{check_constraints, write_constraints, PCF_REFRESH_COMMAND};
    match (a.out, a.check) {
        (Some(dir), None) => {
            eprintln!("{}", write_constraints(&dir, a.force)?);
            Ok(ExitCode::SUCCESS)
        }
        (None, Some(dir)) => {
            let stale = check_constraints(&dir);
            if stale.is_empty() {
                eprintln!("{}: the board pin files are current", dir.display());
                return Ok(ExitCode::SUCCESS);
            }
            for s in stale {
                eprintln!("{s}");
            }
            eprintln!("refresh with: {PCF_REFRESH_COMMAND}");
            Ok(ExitCode::FAILURE)
        }
        _ => Err("give --out DIR or --check DIR".into()),
    }
}

fn capture(a: CaptureArgs) -> Result<ExitCode, String> {
    crate::files::check_given(
        &[("--replay", a.replay.as_deref())],
        &[("--out", Some(&a.out))],
    )?;
    let (source, got) = match (&a.replay, &a.port) {
        (Some(file), _) => {
            let bytes =
                std::fs::read(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
            let mut d = Decoder::new();
            let got = d.push(&bytes).and_then(|c| c.ok_or_else(|| d.finish()));
            (file.display().to_string(), got)
        }
        (None, Some(port)) => {
            let p = spe_dump::serial::open(port, a.baud)?;
            eprintln!("spe fpga capture: listening on {port} at {} baud", a.baud);
            let got = spe_dump::serial::read_stream(p, port, a.timeout, &mut |l| eprintln!("{l}"));
            (port.clone(), got?)
        }
        (None, None) => return Err("give --port DEV or --replay FILE".into()),
    };
    let c: Captured = got.map_err(|e| format!("{source}: {e}; nothing written"))?;
    write_whole(&a.out, &c.buffer)?;
    eprintln!(
        "captured {} bytes in {} frames from {source} ({} bytes before the first frame skipped) -> {}",
        c.buffer.len(),
        c.frames,
        c.skipped,
        a.out.display()
    );
    eprintln!("next: spe decode {}", a.out.display());
    Ok(ExitCode::SUCCESS)
}
