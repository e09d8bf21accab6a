//! `spe`: the command line of the SPE sampling unit project.
//!
//! * `spe sim`    — run a workload through the unit and write the buffer it filled;
//! * `spe decode` — print a line per record of a buffer, then every packet, perf-dump style;
//! * `spe gen`    — write (or check) `gen/`: the Verilog of every preset and the integration tables;
//! * `spe perf`   — wrap a raw SPE buffer in a perf.data file for `perf report`/`script`/`mem`;
//! * `spe regress` — the random lockstep regression of the Verilated RTL against the model;
//! * `spe coverage` — line and toggle coverage of `gen/` under that regression;
//! * `spe synth`  — area (per block) and Fmax of the bare unit on an iCE40 (Yosys, nextpnr);
//! * `spe bench accuracy` — sample shares against the exact population shares, with plots;
//! * `spe fpga capture` — receive the buffer a board dumps over its UART (framed, checked);
//! * `spe fpga build` — a board's bitstream with a program in its RAM; `spe fpga
//!   constraints` — the boards' pin files (PCFs, the ULX3S's LPF) in constraints/.
//!
//! Errors are reported as one clear line and a non-zero exit status, never a panic.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod bench_cmd;
mod coverage_cmd;
mod decode_cmd;
mod diagrams_cmd;
mod files;
mod formal_cmd;
mod fpga_cmd;
mod gen_cmd;
mod mutate_cmd;
mod perf_cmd;
mod regress_cmd;
mod sampling;
mod shared;
mod sim_cmd;
mod soc_cmd;
mod synth_cmd;

#[derive(Parser)]
#[command(
    name = "spe",
    version,
    about = "Open Arm SPE sampling unit: simulate, decode, generate"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a workload through the unit and write the buffer the software driver drained.
    Sim(Box<sim_cmd::SimArgs>),
    /// Decode an SPE buffer: one line per record, then every packet (perf-dump style).
    Decode(decode_cmd::DecodeArgs),
    /// Timing diagrams of the ports (WaveJSON for docs/timing/) from lockstep runs of the
    /// golden model and the Verilated RTL, or check them.
    Diagrams(diagrams_cmd::DiagramsArgs),
    /// Generate gen/: the Verilog of every preset and the integration tables (or check it).
    Gen(gen_cmd::GenArgs),
    /// Wrap a raw SPE buffer in a perf.data file that Linux perf decodes.
    Perf(perf_cmd::PerfArgs),
    /// Random lockstep regression: the golden model against the Verilated RTL on every preset.
    Regress(regress_cmd::RegressArgs),
    /// Line and toggle coverage of gen/ under the random regression (needs a build with
    /// `--features coverage`).
    Coverage(coverage_cmd::CoverageArgs),
    /// Area per block and Fmax of the bare unit on an iCE40 (Yosys and nextpnr-ice40 behind
    /// a pin-limited wrapper).
    Synth(synth_cmd::SynthArgs),
    /// The unit's safety properties (verif/formal/props) proven with SymbiYosys (k-induction, z3),
    /// or checked to a bounded depth; --mutant shows a broken RTL caught.
    Formal(formal_cmd::FormalArgs),
    /// FPGA prototype: build a board's bitstream, its pin constraints, receive the SPE
    /// buffer a board dumps over its UART.
    Fpga(fpga_cmd::FpgaArgs),
    /// The demo SoC (PicoRV32 and the unit) under Verilator: run a program, profile it.
    Soc(soc_cmd::SocArgs),
    /// Benchmarks: `sim` times every backend on one recorded stimulus against a raw C++
    /// Verilator harness; `accuracy` compares the samples' shares with the exact population
    /// shares (Markdown table and PNG plots).
    Bench(bench_cmd::BenchArgs),
    /// Mutation score: single-point mutants of a preset's generated Verilog, each replaying
    /// a short recorded regression; prints the kill rate and the survivors.
    Mutate(mutate_cmd::MutateArgs),
}

/// Maps a stdout write error to a message. A closed pipe (`spe decode f | head`) is not an
/// error for a command-line tool: exit quietly with success.
pub fn output_error(e: std::io::Error) -> String {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    format!("writing output: {e}")
}

/// A count or identifier that fits in 32 bits, in any form `parse_num` takes (`1e6`,
/// `1_000_000`, `0x...`).
pub fn parse_u32(s: &str) -> Result<u32, String> {
    u32::try_from(spe_stim::parse_num(s)?).map_err(|_| format!("{s}: does not fit in 32 bits"))
}

/// The help of a `--preset` option: `what`, then every preset's name from the one table
/// that defines them (`spe_defs::PRESETS`).
pub fn presets_help(what: &str) -> String {
    let names: Vec<&str> = spe_defs::PRESETS.iter().map(|c| c.name).collect();
    format!("{what} ({})", names.join(", "))
}

/// The help of a `--workload` option: `what`, then every workload's name from the one table
/// that defines them (`spe_stim::WORKLOADS`).
pub fn workloads_help(what: &str) -> String {
    format!("{what} ({})", spe_stim::Workload::names().join(", "))
}

/// A count, in any form `parse_num` takes.
pub fn parse_usize(s: &str) -> Result<usize, String> {
    usize::try_from(spe_stim::parse_num(s)?).map_err(|_| format!("{s}: too large"))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Sim(a) => sim_cmd::run(*a),
        Command::Decode(a) => decode_cmd::run(a),
        Command::Gen(a) => gen_cmd::run(a),
        Command::Diagrams(a) => diagrams_cmd::run(a),
        Command::Regress(a) => regress_cmd::run(a),
        Command::Perf(a) => perf_cmd::run(a),
        Command::Coverage(a) => coverage_cmd::run(a),
        Command::Synth(a) => synth_cmd::run(a),
        Command::Formal(a) => formal_cmd::run(a),
        Command::Fpga(a) => fpga_cmd::run(a),
        Command::Soc(a) => soc_cmd::run(a),
        Command::Bench(a) => bench_cmd::run(a),
        Command::Mutate(a) => mutate_cmd::run(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("spe: error: {e}");
            ExitCode::from(2)
        }
    }
}
