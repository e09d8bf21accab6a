//! `spe bench sim` (`spe_harness::sim`, verif/harness): each backend's speed against the raw
//! Verilator limit.
//!
//! `spe bench accuracy` (`spe_bench::accuracy`, verif/bench): each PC's and each basic
//! block's share of the samples against its exact share of the population, for several
//! workloads with and without jitter; a Markdown table and one PNG per workload.
//!
//! Per-function accuracy on compiled C code is `spe soc` (the SoC's C workloads against
//! perf's profile); the core model's programs have basic blocks, not functions.

use clap::{Args, Subcommand};
use std::path::PathBuf;

#[derive(Args)]
pub struct BenchArgs {
    #[command(subcommand)]
    what: BenchCommand,
}

#[derive(Subcommand)]
enum BenchCommand {
    /// Cycles per second of each backend on the same recorded stimulus: a raw C++
    /// Verilator harness, the Rust binding, the lockstep pair, the model, rust-hdl's
    /// simulator; prints the ratios to the raw harness.
    Sim(SimArgs),
    /// Sample share against the exact population share per PC and per basic block, for
    /// several workloads with and without jitter: a Markdown table and PNG plots.
    Accuracy(AccuracyArgs),
}

#[derive(Args)]
struct SimArgs {
    #[arg(long, default_value = "default", help = crate::presets_help(
        "Preset, a one-thread unit: the recording names every port lane by lane"
    ))]
    preset: String,
    #[arg(long, default_value = "mix", help = crate::workloads_help("Workload of the recorded run"))]
    workload: String,
    /// Cycles of the recorded run (each replay runs them all).
    #[arg(long, default_value = "1000000", value_parser = crate::parse_usize)]
    cycles: usize,
    /// Cycles replayed under rust-hdl's simulator (about 11k cycles/s).
    #[arg(long, default_value = "20000", value_parser = crate::parse_usize)]
    hdlsim_cycles: usize,
    /// Runs per backend; the best is reported.
    #[arg(long, default_value_t = 3)]
    runs: usize,
    /// Seed of the recorded run.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The generated Verilog (must be what this `spe` was built from: the checksums
    /// compare it with the built-in models).
    #[arg(long, default_value = "gen")]
    gen: PathBuf,
    /// Build folder of the raw harness and its vector file.
    #[arg(long, default_value = "target/spe-bench-sim")]
    dir: PathBuf,
}

#[derive(Args)]
struct AccuracyArgs {
    /// Output folder (created): accuracy.md and accuracy-<workload>.png.
    #[arg(long)]
    out: PathBuf,
    /// Clock cycles per run (8 runs).
    #[arg(long, default_value = "4000000", value_parser = crate::parse_usize)]
    cycles: usize,
    /// Sampling interval in population ops (PMSIRR.INTERVAL << 8).
    #[arg(long, default_value_t = 1024)]
    interval: u64,
    /// Master seed (each run's stimulus derives from it).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A TrueType font for the plots' text.
    #[arg(
        long,
        default_value = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    )]
    font: PathBuf,
}

pub fn run(args: BenchArgs) -> Result<std::process::ExitCode, String> {
    match args.what {
        BenchCommand::Accuracy(a) => {
            spe_bench::accuracy::accuracy(&spe_bench::accuracy::AccuracyOptions {
                out: a.out,
                cycles: a.cycles,
                interval: a.interval,
                seed: a.seed,
                font: a.font,
            })
            .map(|()| std::process::ExitCode::SUCCESS)
        }
        BenchCommand::Sim(a) => spe_harness::sim(&spe_harness::SimOptions {
            preset: a.preset,
            workload: a.workload,
            cycles: a.cycles,
            hdlsim_cycles: a.hdlsim_cycles,
            runs: a.runs,
            seed: a.seed,
            gen: a.gen,
            dir: a.dir,
        })
        .map(|()| std::process::ExitCode::SUCCESS),
    }
}
