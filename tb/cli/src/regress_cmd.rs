//! `spe regress`: the random lockstep regression. The golden model and the Verilated RTL
//! run in lockstep under the core stimulus model plus random chaos (illegal register
//! values, reprogramming while running, resets, stray hook reports, long write stalls,
//! write errors) on every preset; every output is compared every cycle.
//!
//! Prints one summary line per preset (cycles, ops, samples, collisions, records,
//! mismatches) and fails on any mismatch, with the first divergence, the seed, a one-line
//! replay command and VCD windows (ports, and every internal RTL signal).

use crate::progress::Progress;
use clap::Args;
use spe_cosim::regress::{
    self, parse_shard, plan_jobs, shard, summary_line, Job, JobOptions, JobPlan, JobResult,
    PresetTotals, DEFAULT_JOB_CYCLES, DEFAULT_TOTAL_CYCLES,
};
use spe_defs::Config;
use spe_stim::parse_num;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// Environment variable that sets the total cycles when `--cycles` is not given.
pub const CYCLES_ENV: &str = "SPE_REGRESS_CYCLES";

#[derive(Args)]
pub struct RegressArgs {
    /// Total workload cycles of the whole regression, over all shards (default: $SPE_REGRESS_CYCLES, else 100000000).
    #[arg(long, value_parser = parse_num)]
    cycles: Option<u64>,
    /// Workload cycles per job.
    #[arg(long, value_parser = parse_num, default_value_t = DEFAULT_JOB_CYCLES)]
    job_cycles: u64,
    /// Master seed: job i runs with seed hash(seed, i).
    #[arg(long, value_parser = parse_num, default_value_t = 1)]
    seed: u64,
    /// Run shard K of N (1-based): a contiguous range of the job seeds.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Presets to run (comma-separated; default all).
    #[arg(long, value_delimiter = ',')]
    presets: Vec<String>,
    /// Worker threads, at least 1 (default: the machine's cores).
    #[arg(long, value_parser = parse_threads)]
    threads: Option<usize>,
    /// Run one job alone, as printed by a failure: PRESET:SEED:CYCLES.
    #[arg(long, value_name = "SPEC", conflicts_with_all = ["shard", "presets"])]
    job: Option<String>,
    /// Run against a mutant (a built-in copy of one preset's Verilog with one deliberate
    /// bug) instead of the real RTL: the regression must FAIL. Lists them if NAME is `list`.
    #[arg(long, value_name = "NAME", conflicts_with = "presets")]
    mutant: Option<String>,
    /// Where VCD windows of divergences go.
    #[arg(long, default_value = "target/spe-regress")]
    vcd_dir: PathBuf,
    /// Print every job's plan and result.
    #[arg(long)]
    verbose: bool,
    /// No progress lines.
    #[arg(long)]
    quiet: bool,
}

/// Parses `--threads`: a positive count (0 would run nothing).
pub fn parse_threads(s: &str) -> Result<usize, String> {
    match parse_num(s)? {
        0 => Err("0 worker threads would run nothing; give at least 1, or leave --threads out for one per core".into()),
        n => usize::try_from(n).map_err(|_| format!("{s}: too many threads")),
    }
}

/// Worker threads: as asked, else the machine's cores.
pub fn threads(asked: Option<usize>) -> usize {
    asked.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// The jobs an invocation runs, and a description of them.
pub struct Selection {
    pub jobs: Vec<Job>,
    pub what: String,
}

/// Picks the jobs from the common options.
pub fn select(
    cycles: Option<u64>,
    job_cycles: u64,
    seed: u64,
    shard_spec: Option<&str>,
    presets: &[String],
    job: Option<&str>,
) -> Result<Selection, String> {
    if let Some(spec) = job {
        let j = Job::parse(spec)?;
        return Ok(Selection {
            what: format!("job {}", j.spec()),
            jobs: vec![j],
        });
    }
    let total = match cycles {
        Some(c) => c,
        None => match std::env::var(CYCLES_ENV) {
            Ok(v) => parse_num(&v).map_err(|e| format!("{CYCLES_ENV}: {e}"))?,
            Err(_) => DEFAULT_TOTAL_CYCLES,
        },
    };
    if total == 0 || job_cycles == 0 {
        return Err("--cycles and --job-cycles must be above zero".into());
    }
    let presets: Vec<&'static Config> = if presets.is_empty() {
        regress::all_presets()
    } else {
        presets
            .iter()
            .map(|p| Config::preset_named(p.trim()))
            .collect::<Result<_, _>>()?
    };
    let all = plan_jobs(seed, total, job_cycles, &presets);
    let (k, n) = match shard_spec {
        Some(s) => parse_shard(s)?,
        None => (1, 1),
    };
    let jobs = shard(&all, k, n).to_vec();
    Ok(Selection {
        what: format!(
            "shard {k}/{n}: {} of {} jobs ({} cycles in all, {} per job), seed {seed:#x}",
            jobs.len(),
            all.len(),
            total,
            all.first().map_or(0, |j| j.cycles)
        ),
        jobs,
    })
}

/// Per-preset totals, in preset order.
pub type Totals = BTreeMap<usize, (&'static str, PresetTotals)>;
/// A job that failed: it diverged, or could not run.
pub type Failed = Result<JobResult, (Job, String)>;

/// Runs `jobs`, shows progress, and returns per-preset totals and the results of jobs
/// that failed (mismatch or error).
pub fn execute(
    name: &'static str,
    jobs: &[Job],
    threads: usize,
    opts: &JobOptions,
    quiet: bool,
    verbose: bool,
) -> (Totals, Vec<Failed>) {
    let total: u64 = jobs.iter().map(|j| j.cycles).sum();
    let bar = std::cell::RefCell::new(Progress::new(name, total, quiet));
    let order = |p: &str| {
        spe_defs::PRESETS
            .iter()
            .position(|c| c.name == p)
            .unwrap_or(usize::MAX)
    };
    let mut totals = Totals::new();
    let mut failed = Vec::new();
    regress::run_jobs(
        jobs,
        threads,
        opts,
        Duration::from_millis(250),
        &mut |r| match &r {
            Ok(j) => {
                let e = totals
                    .entry(order(j.job.preset.name))
                    .or_insert((j.job.preset.name, PresetTotals::default()));
                e.1.add(j);
                if verbose {
                    bar.borrow_mut().finish();
                    eprintln!(
                            "{name}: job {} {}: {} cycles, {} samples, {} records, {} mismatches in {:.1} s ({})",
                            j.job.index,
                            j.job.spec(),
                            j.stats.cycles,
                            j.stats.samples,
                            j.records(),
                            j.mismatches,
                            j.secs,
                            JobPlan::new(&j.job).describe()
                        );
                }
                if j.mismatches > 0 {
                    failed.push(r);
                }
            }
            Err(_) => failed.push(r),
        },
        &mut |p| {
            bar.borrow_mut().update(
                p.cycles,
                &format!(
                    "{}/{} jobs, {} mismatches",
                    p.jobs_done, p.jobs, p.mismatches
                ),
            )
        },
    );
    bar.borrow_mut().finish();
    (totals, failed)
}

/// Prints a failed job: the divergence, the seed and plan, the replay line, the VCDs.
pub fn report_failure(r: &Failed, vcd_dir: &std::path::Path, trace: bool, mutant: Option<&str>) {
    let extra = mutant.map_or(String::new(), |m| format!(" --mutant {m}"));
    match r {
        Err((job, e)) => eprintln!(
            "regress: job {} ({}) could not run: {e}\n  replay: cargo run --release --bin spe -- regress --job {}{extra}",
            job.index,
            job.spec(),
            job.spec()
        ),
        Ok(j) => {
            let d = j.first.as_ref().expect("a failed job has a divergence");
            eprintln!(
                "regress: MISMATCH in job {} (preset {}, seed {:#x}): {d}\n  {} cycles differed; plan: {}\n  replay: cargo run --release --bin spe -- regress --job {}{extra}",
                j.job.index,
                j.job.preset.name,
                j.job.seed,
                j.mismatches,
                JobPlan::new(&j.job).describe(),
                j.job.spec()
            );
            match &j.vcd {
                Some(Ok(p)) => eprintln!("  VCD window (ports, model vs RTL): {}", p.display()),
                Some(Err(e)) => eprintln!("  VCD window not written: {e}"),
                None => {}
            }
            if trace {
                let path = vcd_dir.join(format!("{}-{:x}.rtl.vcd", j.job.preset.name, j.job.seed));
                match regress::trace_divergence(&j.job, mutant, d.cycle, &path, 256, 64) {
                    Ok(_) => eprintln!("  VCD window (every internal RTL signal): {}", path.display()),
                    Err(e) => eprintln!("  internal VCD not written: {e}"),
                }
            }
        }
    }
}

pub fn run(a: RegressArgs) -> Result<ExitCode, String> {
    let mutants: Vec<_> = spe_cosim::verilator_sys::mutants().collect();
    let mut presets = a.presets.clone();
    if let Some(m) = &a.mutant {
        let Some(info) = mutants.iter().find(|i| i.mutant == Some(m.as_str())) else {
            let names: Vec<_> = mutants.iter().filter_map(|i| i.mutant).collect();
            if m == "list" {
                println!("{}", names.join("\n"));
                return Ok(ExitCode::SUCCESS);
            }
            return Err(format!(
                "no mutant {m:?}; built mutants: {}",
                names.join(", ")
            ));
        };
        presets = vec![info.preset.to_string()];
    }
    let sel = select(
        a.cycles,
        a.job_cycles,
        a.seed,
        a.shard.as_deref(),
        &presets,
        a.job.as_deref(),
    )?;
    let threads = threads(a.threads);
    std::fs::create_dir_all(&a.vcd_dir)
        .map_err(|e| format!("cannot create {}: {e}", a.vcd_dir.display()))?;
    println!(
        "regress: model vs Verilated RTL{} (Verilator {}), {}, {threads} threads",
        a.mutant
            .as_ref()
            .map_or(String::new(), |m| format!(" MUTANT {m}")),
        spe_cosim::verilator_sys::VERILATOR_VERSION,
        sel.what
    );
    if a.job.is_some() {
        println!("regress: plan: {}", JobPlan::new(&sel.jobs[0]).describe());
    }
    let opts = JobOptions {
        vcd_dir: Some(a.vcd_dir.clone()),
        mutant: a.mutant.clone(),
        ..JobOptions::default()
    };
    let started = std::time::Instant::now();
    let (totals, failed) = execute("spe regress", &sel.jobs, threads, &opts, a.quiet, a.verbose);
    let mut all = PresetTotals::default();
    for (name, t) in totals.values() {
        println!("{}", summary_line(name, t));
        all.merge(t);
    }
    println!("{}", summary_line("all", &all));
    let secs = started.elapsed().as_secs_f64();
    println!(
        "regress: {} lockstep cycles in {:.0} s ({:.2} Mcycles/s)",
        all.cycles,
        secs,
        all.cycles as f64 / secs.max(1e-9) / 1e6
    );
    if failed.is_empty() {
        println!("regress: PASS (0 mismatches)");
        return Ok(ExitCode::SUCCESS);
    }
    // The first few failures get the full report, including an internal-signal VCD.
    for (k, r) in failed.iter().enumerate() {
        report_failure(r, &a.vcd_dir, k < 3, a.mutant.as_deref());
    }
    println!("regress: FAIL ({} jobs failed)", failed.len());
    Ok(ExitCode::FAILURE)
}
