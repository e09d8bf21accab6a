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
    self, min_job_cycles, parse_shard, plan_jobs, shard, summary_line, Job, JobOptions, JobPlan,
    JobResult, PresetTotals, DEFAULT_JOB_CYCLES, DEFAULT_TOTAL_CYCLES,
};
use spe_defs::Config;
use spe_stim::parse_num;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Environment variable that sets the total cycles when `--cycles` is not given.
pub const CYCLES_ENV: &str = "SPE_REGRESS_CYCLES";

#[derive(Args)]
pub struct RegressArgs {
    /// Total workload cycles of the whole regression, over all shards (default: $SPE_REGRESS_CYCLES, else 100000000).
    #[arg(long, value_parser = parse_num)]
    cycles: Option<u64>,
    /// Largest workload cycles of one job: the total is split into the fewest jobs of at
    /// most this many cycles each, and at least one job per preset (`--list` shows them).
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
    /// bug) instead of the real RTL: the regression must FAIL. `list` prints them, a line
    /// each: name, preset, and the cycles the full suite runs it for.
    #[arg(long, value_name = "NAME", conflicts_with = "presets")]
    mutant: Option<String>,
    /// Where VCD windows of divergences go.
    #[arg(long, default_value = "target/spe-regress")]
    vcd_dir: PathBuf,
    /// Print the jobs of the run or shard (index, preset, seed, cycles, replay command)
    /// and run nothing.
    #[arg(long)]
    list: bool,
    /// Write a JUnit XML report here: one testcase per job (a failure's text is the
    /// divergence and its replay command; jobs left unrun by Ctrl-C are skipped).
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
    /// Write the summary as JSON here: the result, the totals of every preset and of the
    /// whole run, and the failed jobs.
    #[arg(long, value_name = "FILE")]
    summary_json: Option<PathBuf>,
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
    // A job too short to hold a sample is an error, not a pass.
    if let Some(j) = jobs.iter().find(|j| j.cycles < min_job_cycles(j.preset)) {
        return Err(format!(
            "jobs of {} cycles are too short: a job of preset {} needs at least {} cycles to hold a sample at the preset's intervals; give a larger --job-cycles or --cycles",
            j.cycles,
            j.preset.name,
            min_job_cycles(j.preset)
        ));
    }
    if jobs.is_empty() {
        return Err(format!(
            "shard {k}/{n} has no job: the run has {} jobs ({total} cycles in jobs of at most {job_cycles}); use at most {} shards, or more --cycles or a smaller --job-cycles",
            all.len(),
            all.len()
        ));
    }
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

/// One finished job, as the reports list it.
#[derive(Clone, Debug)]
pub struct Finished {
    pub job: Job,
    pub secs: f64,
    pub samples: u64,
    pub records: u64,
    pub mismatches: u64,
    /// The failure's text (divergence or error, and the replay command); None: passed.
    pub failure: Option<String>,
}

/// What [`execute`] ran.
#[derive(Default)]
pub struct Outcome {
    pub totals: Totals,
    /// Every finished job, in completion order.
    pub finished: Vec<Finished>,
    /// The failed jobs' results (for the full reports).
    pub failed: Vec<Failed>,
    /// Ctrl-C stopped the run: the jobs not in `finished` did not run.
    pub interrupted: bool,
}

/// Set by the first SIGINT (Ctrl-C); a second one ends the process at once.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_sigint(_: libc::c_int) {
    if INTERRUPTED.swap(true, Ordering::SeqCst) {
        // A second Ctrl-C: the user wants out now (exit code of a SIGINT).
        unsafe { libc::_exit(130) };
    }
}

/// From here on, Ctrl-C stops the run after the jobs in flight (seconds each) instead of
/// killing the process, so that what finished is reported.
fn catch_interrupt() {
    let handler: extern "C" fn(libc::c_int) = on_sigint;
    // SAFETY: the handler only touches an atomic and calls _exit, both async-signal-safe.
    unsafe {
        libc::signal(libc::SIGINT, handler as libc::sighandler_t);
    }
}

/// Runs `jobs`, shows progress, and returns per-preset totals, every finished job and the
/// results of jobs that failed (mismatch or error). Stops starting jobs after a Ctrl-C
/// once [`catch_interrupt`] is in force.
pub fn execute(
    name: &'static str,
    jobs: &[Job],
    threads: usize,
    opts: &JobOptions,
    quiet: bool,
    verbose: bool,
) -> Outcome {
    let total: u64 = jobs.iter().map(|j| j.cycles).sum();
    let bar = std::cell::RefCell::new(Progress::new(name, total, quiet));
    let order = |p: &str| {
        spe_defs::PRESETS
            .iter()
            .position(|c| c.name == p)
            .unwrap_or(usize::MAX)
    };
    let mut out = Outcome::default();
    let mutant = opts.mutant.as_deref();
    let mut told = false;
    regress::run_jobs(
        jobs,
        threads,
        opts,
        Duration::from_millis(250),
        &INTERRUPTED,
        &mut |r| {
            match &r {
                Ok(j) => {
                    let e = out
                        .totals
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
                    out.finished.push(Finished {
                        job: j.job,
                        secs: j.secs,
                        samples: j.stats.samples,
                        records: j.records(),
                        mismatches: j.mismatches,
                        failure: (j.mismatches > 0).then(|| failure_text(&r, mutant)),
                    });
                }
                Err((job, _)) => out.finished.push(Finished {
                    job: *job,
                    secs: 0.0,
                    samples: 0,
                    records: 0,
                    mismatches: 0,
                    failure: Some(failure_text(&r, mutant)),
                }),
            }
            if r.as_ref().map_or(true, |j| j.mismatches > 0) {
                out.failed.push(r);
            }
        },
        &mut |p| {
            if INTERRUPTED.load(Ordering::Relaxed) && !told {
                told = true;
                bar.borrow_mut().finish();
                eprintln!(
                    "{name}: interrupted: finishing the jobs in flight, then the summary of the {} finished (Ctrl-C again to quit at once)",
                    p.jobs_done
                );
            }
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
    out.interrupted = INTERRUPTED.load(Ordering::Relaxed) && out.finished.len() < jobs.len();
    out
}

/// The replay command of a job.
fn replay_command(job: &Job, mutant: Option<&str>) -> String {
    let extra = mutant.map_or(String::new(), |m| format!(" --mutant {m}"));
    format!(
        "cargo run --release --bin spe -- regress --job {}{extra}",
        job.spec()
    )
}

/// What failed in a job, and how to replay it: the report's text and a JUnit failure's.
pub fn failure_text(r: &Failed, mutant: Option<&str>) -> String {
    match r {
        Err((job, e)) => format!(
            "regress: job {} ({}) could not run: {e}\n  replay: {}",
            job.index,
            job.spec(),
            replay_command(job, mutant)
        ),
        Ok(j) => {
            let d = j.first.as_ref().expect("a failed job has a divergence");
            let mut t = format!(
                "regress: MISMATCH in job {} (preset {}, seed {:#x}): {d}\n  {} cycles differed; plan: {}\n  replay: {}",
                j.job.index,
                j.job.preset.name,
                j.job.seed,
                j.mismatches,
                JobPlan::new(&j.job).describe(),
                replay_command(&j.job, mutant)
            );
            match &j.vcd {
                Some(Ok(p)) => {
                    t += &format!("\n  VCD window (ports, model vs RTL): {}", p.display())
                }
                Some(Err(e)) => t += &format!("\n  VCD window not written: {e}"),
                None => {}
            }
            t
        }
    }
}

/// Prints a failed job: the divergence, the seed and plan, the replay line, the VCDs.
pub fn report_failure(r: &Failed, vcd_dir: &std::path::Path, trace: bool, mutant: Option<&str>) {
    eprintln!("{}", failure_text(r, mutant));
    if let (Ok(j), true) = (r, trace) {
        let d = j.first.as_ref().expect("a failed job has a divergence");
        let path = vcd_dir.join(format!("{}-{:x}.rtl.vcd", j.job.preset.name, j.job.seed));
        match regress::trace_divergence(&j.job, mutant, d.cycle, &path, 256, 64) {
            Ok(_) => eprintln!(
                "  VCD window (every internal RTL signal): {}",
                path.display()
            ),
            Err(e) => eprintln!("  internal VCD not written: {e}"),
        }
    }
}

/// `s` with XML's five special characters escaped (attribute and text safe).
fn xml_escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&apos;"),
            // Control characters other than tab and newline are not XML 1.0.
            c if (c as u32) < 0x20 && c != '\t' && c != '\n' => o.push('?'),
            c => o.push(c),
        }
    }
    o
}

/// The JUnit XML report: one testsuite, one testcase per selected job (in job order):
/// passed, failed (the failure text), or skipped (not run: interrupted).
pub fn junit(suite: &str, jobs: &[Job], out: &Outcome, secs: f64, mutant: Option<&str>) -> String {
    let by_index: BTreeMap<u64, &Finished> =
        out.finished.iter().map(|f| (f.job.index, f)).collect();
    let failures = out.finished.iter().filter(|f| f.failure.is_some()).count();
    let skipped = jobs.len() - out.finished.len().min(jobs.len());
    let mut x = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"spe regress\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\" time=\"{secs:.3}\">\n  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\" time=\"{secs:.3}\">\n",
        jobs.len(),
        xml_escape(suite),
        jobs.len()
    );
    for job in jobs {
        let name = xml_escape(&format!("job {} {}", job.index, job.spec()));
        let class = format!("spe.regress.{}", job.preset.name);
        match by_index.get(&job.index) {
            Some(f) => {
                x += &format!(
                    "    <testcase classname=\"{class}\" name=\"{name}\" time=\"{:.3}\">\n      <system-out>{}</system-out>\n",
                    f.secs,
                    xml_escape(&format!(
                        "{} samples, {} records, {} mismatches; replay: {}",
                        f.samples,
                        f.records,
                        f.mismatches,
                        replay_command(job, mutant)
                    ))
                );
                if let Some(t) = &f.failure {
                    let first = t.lines().next().unwrap_or("failed");
                    x += &format!(
                        "      <failure message=\"{}\" type=\"mismatch\">{}</failure>\n",
                        xml_escape(first),
                        xml_escape(t)
                    );
                }
                x += "    </testcase>\n";
            }
            None => {
                x += &format!(
                    "    <testcase classname=\"{class}\" name=\"{name}\" time=\"0\">\n      <skipped message=\"not run: the regression was interrupted\"/>\n    </testcase>\n"
                );
            }
        }
    }
    x += "  </testsuite>\n</testsuites>\n";
    x
}

/// The run's verdict: what the summary's last line and the JSON's `result` say.
fn verdict(out: &Outcome, tested_nothing: bool) -> &'static str {
    if out.interrupted {
        "interrupted"
    } else if out.failed.is_empty() && !tested_nothing {
        "pass"
    } else {
        "fail"
    }
}

/// The summary as JSON: the result, the selection, the totals of the run and of each
/// preset, and the failed jobs' specs.
pub fn summary_json(
    sel: &Selection,
    out: &Outcome,
    all: &PresetTotals,
    secs: f64,
    result: &str,
) -> String {
    let totals = |t: &PresetTotals| {
        format!(
            "{{\"jobs\": {}, \"cycles\": {}, \"ops\": {}, \"samples\": {}, \"collisions\": {}, \"records\": {}, \"buffer_events\": {}, \"completion_timeouts\": {}, \"context_switches\": {}, \"mismatches\": {}}}",
            t.jobs, t.cycles, t.ops, t.samples, t.collisions, t.records, t.mgmt_events, t.timeouts, t.switches, t.mismatches
        )
    };
    let presets: Vec<String> = out
        .totals
        .values()
        .map(|(name, t)| format!("    \"{name}\": {}", totals(t)))
        .collect();
    let failed: Vec<String> = out
        .finished
        .iter()
        .filter(|f| f.failure.is_some())
        .map(|f| format!("\"{}\"", f.job.spec()))
        .collect();
    format!(
        "{{\n  \"result\": \"{result}\",\n  \"selection\": \"{}\",\n  \"jobs_selected\": {},\n  \"jobs_run\": {},\n  \"jobs_failed\": {},\n  \"seconds\": {secs:.1},\n  \"all\": {},\n  \"presets\": {{\n{}\n  }},\n  \"failed\": [{}]\n}}\n",
        sel.what.replace('\\', "\\\\").replace('"', "\\\""),
        sel.jobs.len(),
        out.finished.len(),
        failed.len(),
        totals(all),
        presets.join(",\n"),
        failed.join(", ")
    )
}

/// `--list`: the selected jobs, one line each, with the command that replays each alone.
pub fn list_jobs(sel: &Selection, mutant: Option<&str>) -> String {
    let mut s = format!("regress: {}\n", sel.what);
    for j in &sel.jobs {
        s += &format!(
            "job {:>5}  {:<8} seed {:#018x}  {:>10} cycles  replay: {}\n",
            j.index,
            j.preset.name,
            j.seed,
            j.cycles,
            replay_command(j, mutant)
        );
    }
    s
}

pub fn run(a: RegressArgs) -> Result<ExitCode, String> {
    let mutants: Vec<_> = spe_cosim::verilator_sys::mutants().collect();
    let mut presets = a.presets.clone();
    if let Some(m) = &a.mutant {
        let Some(info) = mutants.iter().find(|i| i.mutant == Some(m.as_str())) else {
            let names: Vec<_> = mutants.iter().filter_map(|i| i.mutant).collect();
            if m == "list" {
                // The built models are the table's mutants with regression cycles.
                for d in spe_defs::mutants::MUTANTS {
                    if let Some(cycles) = d.regress_cycles {
                        println!("{} {} {cycles}", d.name, d.preset);
                    }
                }
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
    if a.list {
        print!("{}", list_jobs(&sel, a.mutant.as_deref()));
        return Ok(ExitCode::SUCCESS);
    }
    let mut outputs: Vec<(&str, &std::path::Path)> = Vec::new();
    if let Some(p) = &a.junit {
        outputs.push(("--junit", p));
    }
    if let Some(p) = &a.summary_json {
        outputs.push(("--summary-json", p));
    }
    crate::check_files(&[], &outputs)?;
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
    catch_interrupt();
    let out = execute("spe regress", &sel.jobs, threads, &opts, a.quiet, a.verbose);
    let mut all = PresetTotals::default();
    for (name, t) in out.totals.values() {
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
    let write = |path: &Option<PathBuf>, text: String| -> Result<(), String> {
        match path {
            Some(p) => {
                std::fs::write(p, text).map_err(|e| format!("cannot write {}: {e}", p.display()))
            }
            None => Ok(()),
        }
    };
    // A run in which no job took a sample tested nothing, and fails (a replayed --job may
    // be one that samples nothing by its plan).
    let tested_nothing = all.samples == 0 && a.job.is_none();
    let result = verdict(&out, tested_nothing);
    write(
        &a.junit,
        junit(&sel.what, &sel.jobs, &out, secs, a.mutant.as_deref()),
    )?;
    write(
        &a.summary_json,
        summary_json(&sel, &out, &all, secs, result),
    )?;
    // The first few failures get the full report, including an internal-signal VCD.
    for (k, r) in out.failed.iter().enumerate() {
        report_failure(r, &a.vcd_dir, k < 3, a.mutant.as_deref());
    }
    if out.interrupted {
        println!(
            "regress: INTERRUPTED after {} of {} jobs ({} failed): the summary above is of those jobs only",
            out.finished.len(),
            sel.jobs.len(),
            out.failed.len()
        );
        return Ok(ExitCode::from(130));
    }
    // Jobs whose plan prohibits sampling, or draws a long period, may take no sample;
    // a run in which no job took one tested nothing, and fails.
    let idle = out.finished.iter().filter(|f| f.samples == 0).count();
    if idle > 0 {
        println!(
            "regress: {idle} of {} jobs took no sample (their plans prohibit sampling at their ELs or draw long periods)",
            out.finished.len()
        );
    }
    if tested_nothing {
        println!(
            "regress: FAIL (no job took a sample: the run tested nothing; give more --cycles)"
        );
        return Ok(ExitCode::FAILURE);
    }
    if out.failed.is_empty() {
        println!("regress: PASS (0 mismatches)");
        return Ok(ExitCode::SUCCESS);
    }
    println!("regress: FAIL ({} jobs failed)", out.failed.len());
    Ok(ExitCode::FAILURE)
}
