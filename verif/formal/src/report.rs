//! What `spe formal` prints around [`crate::run_tasks`]: a task's progress line, the
//! outcomes (or the first error) with every ERROR's log tail, the table of one design's
//! properties and the table of every mutant; and where runs go by default.

use crate::{Design, Mode, Mutant, Outcome, Task};
use spe_defs::Config;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The folder `spe formal` writes into by default: `target/spe-formal/<preset>`, and
/// `thread<N>` below it for a thread other than 0.
pub fn out_dir(cfg: &Config, thread: usize) -> PathBuf {
    let dir = Path::new("target/spe-formal").join(cfg.name);
    if thread == 0 {
        dir
    } else {
        dir.join(format!("thread{thread}"))
    }
}

/// The progress line of a task as it starts (standard error).
pub fn announce(t: &Task) {
    let d = t.design;
    let how = match t.mode {
        Mode::Bmc(n) => format!("bounded, {n} cycles"),
        Mode::Prove(n) => format!("proof by k-induction of length {n}"),
    };
    let mutant = d
        .mutant
        .map_or(String::new(), |m| format!(", mutant {}", m.name));
    eprintln!(
        "spe formal: {} ({}) on {}{mutant} ({how})...",
        t.prop.name, t.prop.what, d.cfg.name
    );
}

/// The outcomes of [`crate::run_tasks`], or its first error (a run that could not start);
/// the log tail of every run that ended in ERROR goes to standard error.
pub fn collect(results: Vec<Result<Outcome, String>>) -> Result<Vec<Outcome>, String> {
    let outcomes = results.into_iter().collect::<Result<Vec<_>, _>>()?;
    for o in outcomes
        .iter()
        .filter_map(|o| o.error_tail.as_ref().map(|t| (o.prop, t)))
    {
        eprintln!("{}: ERROR\n{}", o.0, o.1);
    }
    Ok(outcomes)
}

/// One design's table: property, engine, result, depth, time.
pub fn outcome_table(outcomes: &[Outcome]) -> String {
    let mut s = format!(
        "{:<14} {:<22} {:<8} {:<14} {:>8}\n",
        "property", "engine", "result", "depth", "time"
    );
    for o in outcomes {
        let _ = writeln!(
            s,
            "{:<14} {:<22} {:<8} {:<14} {:>7.1}s",
            o.prop, o.engine, o.result, o.depth, o.secs
        );
    }
    s
}

/// What a run that did not pass left: its counterexample (or, for UNKNOWN, the induction
/// trace from a state that may be unreachable) and the command `replay` that reruns it.
pub fn failure_line(o: &Outcome, replay: &str) -> String {
    match &o.trace {
        // UNKNOWN: the induction step failed from a state the base case need not reach.
        Some(t) if o.result == "UNKNOWN" => format!(
            "{}: not proven with this induction length: induction trace {} (from a state \
             that may be unreachable; --depth 20 or --bmc N looks for a counterexample \
             from reset) (replay: {replay})",
            o.prop,
            t.display()
        ),
        Some(t) => format!(
            "{}: counterexample {} (replay: {replay})",
            o.prop,
            t.display()
        ),
        None => format!(
            "{}: {} without a trace (replay: {replay})",
            o.prop, o.result
        ),
    }
}

/// Every mutant's design (on its own preset, thread 0), the largest designs (more
/// threads) first so that the longest runs do not end the batch: `root/<preset>/mutant-<name>`.
pub fn mutant_designs(gen: &Path, root: &Path) -> Result<Vec<Design>, String> {
    let mut order: Vec<&'static Mutant> = crate::mutants().collect();
    order.sort_by_key(|m| std::cmp::Reverse(Config::preset(m.preset).map_or(1, |c| c.threads)));
    order
        .into_iter()
        .map(|m| {
            let cfg = Config::preset_named(m.preset)?;
            Design::prepare(
                cfg,
                0,
                gen,
                &root.join(cfg.name).join(format!("mutant-{}", m.name)),
                Some(m),
            )
        })
        .collect()
}

/// The table of every mutant (name, preset, property, caught or not, depth, time) and the
/// mutants not caught, each with its replay command (`mode_args` appended).
pub fn mutant_table(
    designs: &[Design],
    outcomes: &[Outcome],
    mode_args: &str,
) -> (String, Vec<String>) {
    let mut s = format!(
        "{:<16} {:<8} {:<14} {:<10} {:<10} {:>8}\n",
        "mutant", "preset", "property", "result", "failed at", "time"
    );
    let mut missed = Vec::new();
    for (d, o) in designs.iter().zip(outcomes) {
        let m = d.mutant.expect("a mutant's design");
        let result = if o.caught() { "caught" } else { "NOT caught" };
        let _ = writeln!(
            s,
            "{:<16} {:<8} {:<14} {:<10} {:<10} {:>7.1}s",
            m.name, m.preset, o.prop, result, o.depth, o.secs
        );
        if !o.caught() {
            missed.push(format!(
                "{} (replay: spe formal --mutant {}{mode_args})",
                m.name, m.name
            ));
        }
    }
    (s, missed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(result: &str, trace: Option<&str>) -> Outcome {
        Outcome {
            prop: "p",
            engine: "smtbmc".into(),
            result: result.into(),
            depth: "3 cycles".into(),
            secs: 1.25,
            trace: trace.map(PathBuf::from),
            error_tail: None,
        }
    }

    #[test]
    fn a_failure_names_its_trace_and_an_unknown_says_it_may_be_unreachable() {
        let fail = failure_line(&outcome("FAIL", Some("t.vcd")), "R");
        assert_eq!(fail, "p: counterexample t.vcd (replay: R)");
        let unknown = failure_line(&outcome("UNKNOWN", Some("i.vcd")), "R");
        assert!(unknown.contains("induction trace i.vcd") && unknown.contains("unreachable"));
        assert_eq!(
            failure_line(&outcome("ERROR", None), "R"),
            "p: ERROR without a trace (replay: R)"
        );
    }

    #[test]
    fn the_outcome_table_has_a_row_per_outcome() {
        let t = outcome_table(&[outcome("PASS", None), outcome("FAIL", Some("t.vcd"))]);
        assert_eq!(t.lines().count(), 3);
        assert!(t.lines().nth(2).unwrap().contains("FAIL"));
    }
}
