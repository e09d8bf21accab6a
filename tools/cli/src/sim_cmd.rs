//! `spe sim`: runs a workload through the unit (the golden model, the Verilated RTL, the
//! rust-hdl simulation, or the model and the Verilated RTL in lockstep) with a software
//! driver that programs it like the Linux driver and drains the buffer on every interrupt;
//! writes the drained bytes and prints a summary.

use clap::Args;
use spe_bench::{MemoryProfile, RunResult, Stats};
use spe_cosim::progress::Progress;
use spe_cosim::{make_checked, Backend, Compare, Waves};
use spe_defs::Config;
use spe_ports::Dut;
use spe_stim::{parse_num, Program, Workload};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct SimArgs {
    #[arg(long, default_value = "loop", conflicts_with = "trace",
          help = crate::workloads_help("Named workload"))]
    workload: String,
    /// Replay a micro-op trace file instead of a named workload (docs/trace-format.md).
    #[arg(long, value_name = "FILE")]
    trace: Option<PathBuf>,
    /// Clock cycles to simulate, at least 1 (reset and the final drain add a few).
    #[arg(long, value_parser = parse_num, default_value_t = 1_000_000)]
    cycles: u64,
    #[arg(long, default_value = "default", help = crate::presets_help("Configuration preset"))]
    preset: String,
    // The choices and their help are the variants of spe_cosim::Backend.
    /// Implementation to run.
    #[arg(long, value_enum, default_value_t = Backend::Model)]
    backend: Backend,
    // The choices and their help are the variants of spe_cosim::Compare.
    /// What the lockstep backend compares.
    #[arg(long, value_enum, default_value_t = Compare::Cycles)]
    compare: Compare,
    #[command(flatten)]
    sampling: crate::sampling::SamplingArgs,
    /// Memory backpressure: ready, random:P, or stalls:P:MIN:MAX.
    #[arg(long, default_value = "ready")]
    backpressure: String,
    /// Memory write errors: none, beat:N, random:P, or sweep:N (a fault every N records,
    /// walking the beats of a record and, with @any, the kinds), then optionally @KIND: ext
    /// (external abort, the default), s1[:FSC] or s2[:FSC] (stage-1 / stage-2 MMU fault; FSC
    /// default 0x07, translation fault level 3), any (each error draws its kind).
    #[arg(long, default_value = "none")]
    mem_errors: String,
    /// Seed of every random choice of the run.
    #[arg(long, value_parser = parse_num, default_value_t = 1)]
    seed: u64,
    /// Write the drained buffer bytes here (a multithreaded preset: thread 0's; thread t's
    /// goes to FILE.t<t>).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Also write the buffer as a perf.data file here (see `spe perf`); a multithreaded
    /// preset's threads are CPUs 0..T-1 of the one file (`perf report --sort cpu`).
    #[arg(long, value_name = "OUT.data")]
    perf: Option<PathBuf>,
    #[command(flatten)]
    perf_data: crate::shared::PerfDataArgs,
    /// Also write the summary as JSON here.
    #[arg(long, value_name = "FILE")]
    summary_json: Option<PathBuf>,
    /// Print the N PCs with the most population ops: ground-truth share against sample share.
    #[arg(long, value_parser = crate::parse_usize, value_name = "N", default_value_t = 0)]
    per_pc: usize,
    /// Lockstep backend: write a VCD window (inputs, model and RTL outputs) around the
    /// first divergence here.
    #[arg(long, value_name = "FILE")]
    vcd: Option<PathBuf>,
    /// Verilator backend: dump every internal RTL signal to this VCD (uses the --trace
    /// build; see --wave-window).
    #[arg(long, value_name = "FILE")]
    wave: Option<PathBuf>,
    /// Cycles FROM:TO to dump with --wave (default 0:10000; VCDs grow ~130 MB per million
    /// cycles).
    #[arg(long, value_name = "FROM:TO", default_value = "0:10000", value_parser = parse_window)]
    wave_window: (u64, u64),
    /// Write every cycle's input port values here, for the SystemVerilog replay bench with
    /// the protocol checker (gen/<preset>/spe_<preset>_replay.sv, scripts/protocol-check.sh).
    #[arg(long, value_name = "FILE")]
    vectors: Option<PathBuf>,
    /// Break one rule of the core's side of the hook and port contract once (the first
    /// chance from --break-from on): window, once, class, translation-order,
    /// lost-completion, reg-port, wr-response. For showing that a checker catches it.
    #[arg(long, value_name = "RULE")]
    r#break: Option<String>,
    /// First cycle at which --break may break its rule.
    #[arg(long, value_parser = parse_num, value_name = "CYCLE", default_value_t = 1000)]
    break_from: u64,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Parses `FROM:TO` cycles.
fn parse_window(s: &str) -> Result<(u64, u64), String> {
    let (f, t) = s
        .split_once(':')
        .ok_or_else(|| format!("{s:?}: expected FROM:TO"))?;
    let (f, t) = (parse_num(f)?, parse_num(t)?);
    if f >= t {
        return Err(format!("{s:?}: FROM must be below TO"));
    }
    Ok((f, t))
}

pub fn run(a: SimArgs) -> Result<ExitCode, String> {
    let cfg = Config::preset_named(&a.preset)?;
    if a.cycles == 0 {
        return Err("--cycles 0 would run nothing: give at least 1".into());
    }
    // Every output is checked before the run, not after it: writable, not an input, not
    // another output (a multithreaded preset's --out is one file per thread).
    let threads: Vec<PathBuf> = (a.out.iter())
        .flat_map(|p| (1..cfg.threads).map(|t| crate::shared::thread_path(p, t)))
        .collect();
    let mut outputs = vec![("--out", a.out.as_deref())];
    outputs.extend(
        threads
            .iter()
            .map(|p| ("--out (a thread's buffer)", Some(p.as_path()))),
    );
    outputs.extend([
        ("--perf", a.perf.as_deref()),
        ("--summary-json", a.summary_json.as_deref()),
        ("--vcd", a.vcd.as_deref()),
        ("--wave", a.wave.as_deref()),
        ("--vectors", a.vectors.as_deref()),
    ]);
    crate::files::check_given(&[("--trace", a.trace.as_deref())], &outputs)?;
    let workload = match &a.trace {
        Some(path) => Workload::from_program(Program::Trace(spe_stim::trace::load(path)?)),
        None => Workload::by_name(&a.workload)?,
    };
    let settings = a.sampling.settings(cfg)?;
    let memory = MemoryProfile {
        backpressure: MemoryProfile::parse_backpressure(&a.backpressure)?,
        errors: MemoryProfile::parse_errors(&a.mem_errors)?,
        fault: MemoryProfile::parse_fault(&a.mem_errors)?,
    };
    let waves = Waves {
        vcd: a.vcd.clone(),
        wave: (a.wave.clone()).map(|p| (p, a.wave_window.0, a.wave_window.1)),
    };
    let mut dut = make_checked(cfg, a.backend, &waves, a.compare)?;
    if let Some(path) = &a.vectors {
        dut = Box::new(spe_cosim::protocol::VectorDump::new(dut, cfg, path)?);
    }
    if let Some(rule) = &a.r#break {
        dut = Box::new(spe_cosim::protocol::Breaker::new(dut, rule, a.break_from)?);
    }
    let total = a.cycles + spe_bench::run::RESET_CYCLES;
    let mut bar = Progress::new("spe sim", total, a.quiet);
    let mut progress = |cycle: u64, st: &Stats| {
        bar.update(
            cycle,
            &format!("{} samples, {} records", st.samples, st.records_written),
        );
    };
    let result: RunResult = spe_bench::run(
        dut.as_mut(),
        cfg,
        &workload,
        &settings,
        &memory,
        a.cycles,
        a.seed,
        &mut progress,
    )?;
    bar.finish();
    let st = &result.stats;
    let wrote = match &a.out {
        Some(path) => crate::shared::write_buffers(&result, path, cfg)?,
        None => Vec::new(),
    };
    if let Some(path) = &a.perf {
        crate::shared::write_perf_run(&result, &a.perf_data.options()?, path)?;
    }
    if let Some(path) = &a.summary_json {
        std::fs::write(path, st.json(result.seed))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let mut out = std::io::stdout().lock();
    let io = crate::output_error;
    writeln!(
        out,
        "workload {} on preset {} ({:?} backend), seed {}",
        workload.name, cfg.name, a.backend, result.seed
    )
    .map_err(io)?;
    writeln!(out, "{st}").map_err(io)?;
    for line in wrote {
        writeln!(out, "{line}").map_err(io)?;
    }
    if a.per_pc > 0 {
        write!(out, "{}", st.per_pc_table(a.per_pc)).map_err(io)?;
    }
    // Anything that breaks the unit's contract makes the run fail.
    let mut failed = false;
    if let (Some(path), Backend::Lockstep, Compare::Cycles) = (&a.vcd, a.backend, a.compare) {
        if !path.exists() {
            writeln!(
                out,
                "no divergence: the model and the RTL agreed on every output, so no VCD window was written to {}",
                path.display()
            )
            .map_err(io)?;
        }
    }
    match dut.verdict() {
        Ok(Some(text)) => writeln!(out, "{text}").map_err(io)?,
        Ok(None) => {}
        Err(text) => {
            failed = true;
            for line in text.lines() {
                eprintln!("spe sim: {line}");
            }
        }
    }
    for p in result.problems() {
        eprintln!("spe sim: {p}");
        failed = true;
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
