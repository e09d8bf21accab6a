//! A regression campaign, as `spe regress` and `spe coverage` run one: the jobs an
//! invocation selects (seed, shard, presets, or one replayed job), run on worker threads
//! with progress and Ctrl-C handling, the report of a failed job (its divergence, replay
//! command and VCD windows), and the JUnit and JSON summaries.

use crate::progress::Progress;
use crate::regress::{
    self, min_job_cycles, parse_shard, plan_jobs, shard, Job, JobOptions, JobPlan, JobResult,
    PresetTotals, DEFAULT_TOTAL_CYCLES,
};
use spe_defs::Config;
use spe_stim::parse_num;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Environment variable that sets the total cycles when `--cycles` is not given.
const CYCLES_ENV: &str = "SPE_REGRESS_CYCLES";

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
    // A run of three jobs a preset or more has a timeouts job a preset beside them, longer
    // than the others (`regress::plan_jobs`, `chaos::timeouts_job_cycles`).
    let per = all.first().map_or(0, |j| j.cycles);
    let other = all.iter().find(|j| j.cycles != per).map(|j| j.cycles);
    let longer = all.iter().filter(|j| Some(j.cycles) == other).count();
    Ok(Selection {
        what: format!(
            "shard {k}/{n}: {} of {} jobs ({} cycles in all, {} per job{}), seed {seed:#x}",
            jobs.len(),
            all.len(),
            match other {
                Some(_) => all.iter().map(|j| j.cycles).sum::<u64>(),
                None => total,
            },
            per,
            match other {
                Some(c) => format!(", {c} in {longer} for completion timeouts"),
                None => String::new(),
            }
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
pub fn catch_interrupt() {
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
fn failure_text(r: &Failed, mutant: Option<&str>) -> String {
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
pub fn verdict(out: &Outcome, tested_nothing: bool) -> &'static str {
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
