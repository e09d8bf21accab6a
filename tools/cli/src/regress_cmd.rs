//! `spe regress`: the random lockstep regression. The golden model and the Verilated RTL
//! run in lockstep under the core stimulus model plus random chaos (illegal register
//! values, reprogramming while running, resets, stray hook reports, long write stalls,
//! write errors) on every preset; every output is compared every cycle.
//!
//! Prints one summary line per preset (cycles, ops, samples, collisions, records,
//! mismatches) and fails on any mismatch, with the first divergence, the seed, a one-line
//! replay command and VCD windows (ports, and every internal RTL signal). The campaign
//! (selection, threads, reports) is `spe_cosim::campaign`'s.

use clap::Args;
use spe_cosim::campaign::{
    catch_interrupt, execute, junit, list_jobs, report_failure, summary_json, verdict,
};
use spe_cosim::regress::{summary_line, JobOptions, JobPlan, PresetTotals};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct RegressArgs {
    #[command(flatten)]
    jobs: crate::shared::JobArgs,
    /// Run shard K of N (1-based): a contiguous range of the job seeds.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
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
    /// Also count the functional cover points and hold the run's holes to this file
    /// (`spe coverage --functional --require --known-holes`'s check in the same run, so
    /// CI runs its jobs once); the run fails when they disagree.
    #[arg(long, value_name = "FILE", conflicts_with = "mutant")]
    known_holes: Option<PathBuf>,
}

pub fn run(a: RegressArgs) -> Result<ExitCode, String> {
    let mutants: Vec<_> = spe_cosim::verilator_sys::mutants().collect();
    let mut presets = None;
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
            if let Some(why) = spe_cosim::verilator_sys::NOT_BUILT {
                return Err(format!(
                    "no mutant {m:?}: this binary has no Verilated models: {why}"
                ));
            }
            return Err(format!(
                "no mutant {m:?}; built mutants: {}",
                names.join(", ")
            ));
        };
        presets = Some(vec![info.preset.to_string()]);
    }
    let sel = a
        .jobs
        .select(presets.as_deref(), a.shard.as_deref(), a.job.as_deref())?;
    if a.list {
        print!("{}", list_jobs(&sel, a.mutant.as_deref()));
        return Ok(ExitCode::SUCCESS);
    }
    crate::files::check_given(
        &[],
        &[
            ("--junit", a.junit.as_deref()),
            ("--summary-json", a.summary_json.as_deref()),
        ],
    )?;
    let threads = a.jobs.threads();
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
        functional: a.known_holes.is_some(),
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
    if let Some(f) = &a.known_holes {
        let runs: Vec<_> = out
            .totals
            .values()
            .filter_map(|(_, t)| t.functional.clone())
            .collect();
        let list = spe_cosim::functional::hole_list(&runs);
        match spe_cosim::functional::check_known_file(&list, f)? {
            Ok(()) => println!(
                "regress: functional coverage as known ({} holes, each in {})",
                list.len(),
                f.display()
            ),
            Err(e) => {
                println!(
                    "regress: FAIL (functional coverage against {}: {e})",
                    f.display()
                );
                return Ok(ExitCode::FAILURE);
            }
        }
    }
    if out.failed.is_empty() {
        println!("regress: PASS (0 mismatches)");
        return Ok(ExitCode::SUCCESS);
    }
    println!("regress: FAIL ({} jobs failed)", out.failed.len());
    Ok(ExitCode::FAILURE)
}
