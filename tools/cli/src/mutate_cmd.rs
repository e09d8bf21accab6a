//! `spe mutate`: how strong the regression is, as the share of single-point mutants of the
//! generated Verilog that it catches (the flow is `spe_mutate`'s, verif/mutate;
//! docs/mutation.md).

use std::path::PathBuf;

#[derive(clap::Args)]
pub struct MutateArgs {
    #[arg(long, default_value = "default", help = crate::presets_help(
        "Preset whose generated Verilog is mutated, a one-thread unit"
    ))]
    preset: String,
    /// Mutants to draw from every site of the preset.
    #[arg(long, default_value_t = 10)]
    sample: usize,
    /// Seed of the draw and of the regression's jobs.
    #[arg(long, default_value = "0x5eed", value_parser = spe_stim::parse_num)]
    seed: u64,
    /// Workload cycles of the regression, over all its jobs.
    #[arg(long, default_value = "1000000", value_parser = crate::parse_usize)]
    cycles: usize,
    /// Cycles of one job (shorter jobs: more drawn plans in the same cycles).
    #[arg(long, default_value = "50000", value_parser = crate::parse_usize)]
    job_cycles: usize,
    /// Fail (exit 1) when fewer than this percentage (0 to 100) of the built mutants are
    /// killed.
    #[arg(long)]
    require: Option<f64>,
    /// The generated Verilog to mutate.
    #[arg(long, default_value = "gen")]
    gen: PathBuf,
    /// Work folder (mutants' copies, builds, recordings).
    #[arg(long, default_value = "target/spe-mutate")]
    dir: PathBuf,
    /// Run these sites only (`FILE:LINE:COL` as `--list` prints them; repeatable),
    /// instead of a draw.
    #[arg(long, value_name = "SITE")]
    only: Vec<String>,
    /// List every mutation site of the preset and stop.
    #[arg(long)]
    list: bool,
    /// Mutants built and run at a time [default: the number of cores].
    #[arg(long, value_name = "N", value_parser = crate::parse_usize)]
    jobs: Option<usize>,
    /// Mutants read and argued equivalent, a line each (`FILE@COL 'FROM' -> 'TO' in: LINE
    /// TEXT`, `#` lines the argument; scripts/mutants-equivalent.txt): a drawn one runs but
    /// does not count in the kill rate, and fails the run if it is killed.
    #[arg(long, value_name = "FILE")]
    equivalent: Option<PathBuf>,
}

pub fn run(a: MutateArgs) -> Result<std::process::ExitCode, String> {
    let jobs = a.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    let equivalent = match &a.equivalent {
        Some(f) => {
            let t = std::fs::read_to_string(f).map_err(|e| format!("{}: {e}", f.display()))?;
            spe_mutate::Equivalent::parse_list(&t).map_err(|e| format!("{}: {e}", f.display()))?
        }
        None => Vec::new(),
    };
    spe_mutate::run(&spe_mutate::Options {
        preset: a.preset,
        sample: a.sample,
        seed: a.seed,
        cycles: a.cycles,
        job_cycles: a.job_cycles,
        require: a.require,
        gen: a.gen,
        dir: a.dir,
        only: a.only,
        list: a.list,
        jobs,
        equivalent,
    })
}
