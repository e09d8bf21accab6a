//! `spe coverage`: runs the random lockstep regression (by default exactly the jobs of the
//! CI regression: same seed, cycles and job size) on the coverage build of the
//! Verilated models (`--coverage-line --coverage-toggle`) and reports line and toggle
//! coverage of every file of `gen/`, with each line point that was never hit.
//!
//! The coverage models are large; they are only in a binary built with
//! `--features coverage`: `cargo run --release --features coverage --bin spe -- coverage`.
//!
//! `--functional` runs the same jobs on the fast models and reports functional coverage
//! instead: the cover points of `spe_cosim::functional` (observed at the ports) hit per
//! preset, and the holes; `--require` fails when a point of any preset was not hit.

use clap::Args;
use spe_cosim::campaign::{execute, report_failure};
use spe_cosim::coverage::CoverageData;
use spe_cosim::regress::JobOptions;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct CoverageArgs {
    #[command(flatten)]
    jobs: crate::shared::JobArgs,
    /// Output directory: one coverage.dat per job, the merged coverage.dat (for
    /// `verilator_coverage --annotate`) and the report coverage.md.
    #[arg(long, default_value = "target/spe-coverage")]
    out: PathBuf,
    /// No progress lines.
    #[arg(long)]
    quiet: bool,
    /// Run nothing: make the report from the job files an earlier run of the same jobs left
    /// in `<out>/jobs` (for example after a change to the report or its exclusions).
    #[arg(long, conflicts_with = "functional")]
    report_only: bool,
    /// Functional coverage (cover points at the ports, any build): writes
    /// `<out>/functional.md` and prints each preset's points, hits and holes.
    #[arg(long)]
    functional: bool,
    /// With --functional: fail when a point was not hit (with --known-holes: when a point
    /// not listed there was not hit, or a listed one was).
    #[arg(long, requires = "functional")]
    require: bool,
    /// With --require: the holes known and accepted for now, `preset point` a line
    /// (scripts/functional-holes.txt): a guard that fails when a stimulus change loses a
    /// point, and when work closes one the file still lists.
    #[arg(long, value_name = "FILE", requires = "require")]
    known_holes: Option<PathBuf>,
    /// With --functional: write this run's holes to FILE in --known-holes' format.
    #[arg(long, value_name = "FILE", requires = "functional")]
    write_holes: Option<PathBuf>,
    /// With --functional: also write the report here (for example docs/functional-coverage.md).
    #[arg(long, value_name = "FILE", requires = "functional")]
    report: Option<PathBuf>,
}

pub fn run(a: CoverageArgs) -> Result<ExitCode, String> {
    if a.functional {
        return functional(a);
    }
    if !spe_cosim::verilator_sys::models()
        .iter()
        .any(|m| m.variant == spe_cosim::verilator_sys::Variant::Coverage)
    {
        return Err("this spe was built without the coverage models: run \
             `cargo run --release --features coverage --bin spe -- coverage`"
            .into());
    }
    let sel = a.jobs.select(None, None, None)?;
    let threads = a.jobs.threads();
    let jobs_dir = a.out.join("jobs");
    std::fs::create_dir_all(&jobs_dir)
        .map_err(|e| format!("cannot create {}: {e}", jobs_dir.display()))?;
    let out = if a.report_only {
        println!(
            "coverage: report from {} ({})",
            jobs_dir.display(),
            sel.what
        );
        Default::default()
    } else {
        println!("coverage: {}, {threads} threads", sel.what);
        // Each job writes <jobs_dir>/<preset>-<seed>.dat.
        let opts = JobOptions {
            coverage: Some(jobs_dir.clone()),
            ..JobOptions::default()
        };
        execute("spe coverage", &sel.jobs, threads, &opts, a.quiet, false)
    };
    let mut data = CoverageData::default();
    for job in &sel.jobs {
        data.merge_file(&job.coverage_file(&jobs_dir))?;
    }
    let merged = a.out.join("coverage.dat");
    data.write(&merged)?;
    let report = data.report();
    let text = report.to_text();
    let md = a.out.join("coverage.md");
    std::fs::write(
        &md,
        format!("# Coverage of gen/ under `spe coverage`\n\n{text}"),
    )
    .map_err(|e| format!("cannot write {}: {e}", md.display()))?;
    let failed = out.failed;
    for (name, t) in out.totals.values() {
        println!("{}", spe_cosim::regress::summary_line(name, t));
    }
    println!("{text}");
    let t = report.total();
    println!(
        "coverage: line {}/{} ({:.1}%), toggle {}/{} ({:.1}%; {} RES0 register bits excluded); merged data {}, report {}",
        t.line_hit,
        t.line_total,
        100.0 * t.line_hit as f64 / t.line_total.max(1) as f64,
        t.toggle_hit,
        t.toggle_total,
        100.0 * t.toggle_hit as f64 / t.toggle_total.max(1) as f64,
        t.toggle_excluded,
        merged.display(),
        md.display()
    );
    for r in &failed {
        report_failure(r, &a.out, false, None);
    }
    if !report.contradictions.is_empty() {
        eprintln!(
            "spe coverage: {} register bits that the register table makes zero toggled (listed in {})",
            report.contradictions.len(),
            md.display()
        );
    }
    Ok(if failed.is_empty() && report.contradictions.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// `spe coverage --functional`: the jobs with the cover points counted, the report, holes.
fn functional(a: CoverageArgs) -> Result<ExitCode, String> {
    let sel = a.jobs.select(None, None, None)?;
    let threads = a.jobs.threads();
    std::fs::create_dir_all(&a.out)
        .map_err(|e| format!("cannot create {}: {e}", a.out.display()))?;
    let md = a.out.join("functional.md");
    crate::files::check_given(
        &[],
        &[
            ("--out's functional.md", Some(&md)),
            ("--report", a.report.as_deref()),
        ],
    )?;
    println!("coverage: functional, {}, {threads} threads", sel.what);
    let opts = JobOptions {
        functional: true,
        ..JobOptions::default()
    };
    let out = execute("spe coverage", &sel.jobs, threads, &opts, a.quiet, false);
    let runs: Vec<_> = out
        .totals
        .values()
        .filter_map(|(_, t)| t.functional.clone())
        .collect();
    let text = format!(
        "# Functional coverage\n\n{}",
        spe_cosim::functional::report(&sel.what, &runs)
    );
    for path in std::iter::once(&md).chain(a.report.as_ref()) {
        std::fs::write(path, &text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let mut holes = 0;
    for h in &runs {
        let plan = spe_cosim::functional::Plan::new(
            spe_defs::Config::preset(h.preset).expect("a preset's hits"),
        );
        let hs = spe_cosim::functional::holes(&plan, h);
        holes += hs.len();
        println!(
            "coverage: functional {:<8} {:>3} points, {:>3} hit, {:>3} holes{}{}",
            h.preset,
            plan.points.len(),
            plan.points.len() - hs.len(),
            hs.len(),
            if hs.is_empty() { "" } else { ": " },
            hs.join(", ")
        );
    }
    println!("coverage: functional report {}", md.display());
    for r in &out.failed {
        report_failure(r, &a.out, false, None);
    }
    if !out.failed.is_empty() {
        return Ok(ExitCode::FAILURE);
    }
    let list = spe_cosim::functional::hole_list(&runs);
    if let Some(f) = &a.write_holes {
        let text = spe_cosim::functional::write_holes(&list, &sel.what);
        std::fs::write(f, text).map_err(|e| format!("cannot write {}: {e}", f.display()))?;
        println!("coverage: functional holes written to {}", f.display());
    }
    if let (true, Some(f)) = (a.require, &a.known_holes) {
        return Ok(match spe_cosim::functional::check_known_file(&list, f)? {
            Ok(()) => {
                println!(
                    "coverage: PASS ({holes} holes, each known in {})",
                    f.display()
                );
                ExitCode::SUCCESS
            }
            Err(e) => {
                println!("coverage: FAIL against {}: {e}", f.display());
                ExitCode::FAILURE
            }
        });
    }
    if a.require && holes > 0 {
        println!("coverage: FAIL ({holes} functional cover points not hit; --require)");
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}
