//! `spe soc run --elf FILE --out buf.bin [--perf out.data]`: runs a program on the demo SoC
//! (PicoRV32 and the unit, `gen/soc`) under Verilator. The program's UART dump is decoded
//! from the TX pin into the buffer; the unit is checked against the golden model every
//! cycle; the ground truth (instructions retired and ops counted into the sampling
//! population, per function of the ELF) is printed beside the samples the buffer holds,
//! with the 3-sigma binomial bound of each share. `--perf` writes perf.data whose mapping
//! is the ELF, so `perf report --itrace=i1i --sort sym` names the program's functions.

use crate::shared::{self, write_whole};
use clap::{Args, Subcommand};
use spe_perfdata::{Mapping, PerfOptions};
use spe_socsim::elf::Elf;
use spe_socsim::{run as run_soc, RunOptions};
use spe_stim::parse_num;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Args)]
pub struct SocArgs {
    #[command(subcommand)]
    cmd: SocCmd,
}

#[derive(Subcommand)]
enum SocCmd {
    /// Run a program (RV32I ELF, built by scripts/soc-sw.sh) on the simulated SoC.
    Run(RunArgs),
}

#[derive(Args)]
struct RunArgs {
    /// The SoC's core: picorv32 (in order, one instruction at a time), vexriscv (a
    /// 5-stage pipeline that flushes wrong-path instructions) or vexriscv-full (the same
    /// with a data cache, which throws a load that misses away and dispatches it again).
    /// Build the program for it with `scripts/soc-sw.sh --core NAME`.
    #[arg(long, value_name = "NAME", default_value = "picorv32", value_parser = spe_defs::soc::Core::parse)]
    core: spe_defs::soc::Core,
    /// The program.
    #[arg(long, value_name = "FILE")]
    elf: PathBuf,
    /// Give up after this many cycles without an exit code.
    #[arg(long, value_parser = parse_num, default_value_t = 50_000_000)]
    cycles: u64,
    /// Where to write the buffer the program dumped over the UART.
    #[arg(long, short, value_name = "FILE")]
    out: PathBuf,
    /// Also write a perf.data of the buffer, with the ELF as the program's mapping.
    #[arg(long, value_name = "FILE")]
    perf: Option<PathBuf>,
    /// Write the per-function table (tab-separated) here.
    #[arg(long, value_name = "FILE")]
    truth: Option<PathBuf>,
    /// Do not compare the unit's outputs with the golden model's (the model still runs:
    /// the ground truth reads its registers).
    #[arg(long)]
    no_lockstep: bool,
    /// No progress lines.
    #[arg(long)]
    quiet: bool,
    /// Check the samples against the core's ground truth: the share of records without
    /// RETIRED against the exact share of flushed instructions among those the core
    /// dispatched in the population window, and each hot function's share of the records
    /// with RETIRED against its exact share of the retired ones, each within 3 sigma of
    /// the binomial bound. A failed check is named and the command fails.
    #[arg(long)]
    check: bool,
    /// A function is hot (checked by --check) at this share of the retired ones or more.
    #[arg(long, value_name = "SHARE", default_value_t = 0.02)]
    hot: f64,
    /// Break VexRiscv's hook adapter on purpose, to see the checks catch it: none,
    /// flush-as-retired (a flushed op reported as retired), dispatch-at-retire (ops
    /// dispatched when they retire, not when they enter execution; both for --check) or
    /// issue-at-dispatch (the issue report in the tag's own cycle: the unit ignores it,
    /// hook_stray, and the protocol checker names the rule).
    #[arg(long, value_name = "FAULT", default_value = "none", value_parser = parse_fault)]
    hook_fault: u8,
}

/// The adapter faults of `--hook-fault`, as the SoC's `hook_fault` port encodes them.
const HOOK_FAULTS: [&str; 4] = [
    "none",
    "flush-as-retired",
    "dispatch-at-retire",
    "issue-at-dispatch",
];

fn parse_fault(s: &str) -> Result<u8, String> {
    HOOK_FAULTS
        .iter()
        .position(|f| *f == s)
        .map(|i| i as u8)
        .ok_or_else(|| format!("unknown fault {s:?}: one of {}", HOOK_FAULTS.join(", ")))
}

pub fn run(a: SocArgs) -> Result<ExitCode, String> {
    match a.cmd {
        SocCmd::Run(r) => run_cmd(r),
    }
}

fn run_cmd(a: RunArgs) -> Result<ExitCode, String> {
    let mut outputs = vec![("--out", a.out.as_path())];
    for (path, what) in [(&a.perf, "--perf"), (&a.truth, "--truth")] {
        if let Some(p) = path {
            outputs.push((what, p.as_path()));
        }
    }
    crate::check_files(&[("--elf", &a.elf)], &outputs)?;
    if !(a.hot > 0.0 && a.hot <= 1.0) {
        return Err(format!(
            "--hot {} is not a share: give a number above 0 and at most 1 (0.02 = 2 %)",
            a.hot
        ));
    }
    if a.hook_fault != 0 && !a.core.is_vexriscv() {
        return Err(format!(
            "--hook-fault {} breaks VexRiscv's hook adapter; the {} SoC has none (add --core vexriscv)",
            HOOK_FAULTS[usize::from(a.hook_fault)],
            a.core.name()
        ));
    }
    let elf = Elf::read(&a.elf)?;
    elf.check_core(a.core)
        .map_err(|e| format!("{}: {e}", a.elf.display()))?;
    let t0 = Instant::now();
    let res = run_soc(
        &elf,
        &RunOptions {
            max_cycles: a.cycles,
            lockstep: !a.no_lockstep,
            progress_every: if a.quiet { 0 } else { 2_000_000 },
            core: a.core,
            hook_fault: a.hook_fault,
        },
    )?;
    let secs = t0.elapsed().as_secs_f64();
    eprintln!(
        "{}: exit code {}, {} cycles, {} instructions retired ({} outside any function), {} UART bytes, {:.1} s ({:.2} Mcycles/s)",
        a.elf.display(),
        res.exit_code,
        res.cycles,
        res.retired,
        res.retired_unnamed,
        res.uart_bytes,
        secs,
        res.cycles as f64 / secs.max(1e-9) / 1e6
    );
    if res.lockstep_cycles > 0 {
        eprintln!(
            "lockstep: the unit matched the golden model on every output for {} cycles",
            res.lockstep_cycles
        );
    }
    if res.stray_hooks > 0 {
        return Err(format!(
            "the unit ignored a hook report in {} cycles (hook_stray): the SoC's hooks break the port contract",
            res.stray_hooks
        ));
    }
    let c = res.captured.as_ref().ok_or_else(|| {
        format!(
            "the program sent no complete dump stream ({} UART bytes); nothing written",
            res.uart_bytes
        )
    })?;
    // Nothing lost or misplaced: the dump holds exactly the records the unit wrote, in the
    // order it wrote them, whatever stops, restarts and buffer-full rewinds came between.
    if c.buffer != res.written {
        let at = c
            .buffer
            .iter()
            .zip(&res.written)
            .position(|(a, b)| a != b)
            .unwrap_or(c.buffer.len().min(res.written.len()));
        return Err(format!(
            "the dump ({} bytes) differs from the records the unit wrote ({} bytes) from byte {at}: a record was lost or misplaced",
            c.buffer.len(),
            res.written.len()
        ));
    }
    eprintln!(
        "sync: {} PSBs completed; the dump holds exactly the {} record bytes the unit wrote",
        res.psbs,
        res.written.len()
    );
    write_whole(&a.out, &c.buffer)?;
    // Samples per function, from the records' PCs.
    let decoded = spe_decode::record::decode(&c.buffer);
    let mut samples = vec![0u64; elf.funcs.len()];
    let mut unnamed = 0u64;
    for r in &decoded.records {
        match r.ip().and_then(|ip| elf.func_at(ip as u32)) {
            Some(f) => samples[f] += 1,
            None => unnamed += 1,
        }
    }
    let n = decoded.records.len() as u64;
    eprintln!(
        "buffer: {} bytes, {} records ({} outside any function), {} frames -> {}; the unit took {} samples and kept {} records",
        c.buffer.len(),
        n,
        unnamed,
        c.frames,
        a.out.display(),
        res.samples,
        res.records
    );
    // The table: every function with retired instructions or samples.
    let mut table = String::from(
        "function\tretired\tpopulation\tpop_share\tsamples\tsample_share\tbound_3sigma\n",
    );
    println!(
        "{:<22} {:>10} {:>10} {:>8} {:>8} {:>8} {:>8}",
        "function", "retired", "population", "pop %", "samples", "sample %", "3σ %"
    );
    for (f, s) in res.funcs.iter().zip(&samples) {
        if f.retired == 0 && *s == 0 {
            continue;
        }
        let p = f.population as f64 / res.population.max(1) as f64;
        let share = *s as f64 / n.max(1) as f64;
        let bound = 3.0 * (p * (1.0 - p) / n.max(1) as f64).sqrt();
        println!(
            "{:<22} {:>10} {:>10} {:>8.2} {:>8} {:>8.2} {:>8.2}",
            f.name,
            f.retired,
            f.population,
            100.0 * p,
            s,
            100.0 * share,
            100.0 * bound
        );
        let _ = writeln!(
            table,
            "{}\t{}\t{}\t{p:.6}\t{s}\t{share:.6}\t{bound:.6}",
            f.name, f.retired, f.population
        );
    }
    let checks = speculation_checks(&res, &decoded.records, &elf, a.hot);
    if let Some(t) = &a.truth {
        std::fs::write(t, table).map_err(|e| format!("cannot write {}: {e}", t.display()))?;
    }
    if let Some(p) = &a.perf {
        let path = std::fs::canonicalize(&a.elf)
            .map_err(|e| format!("{}: {e}", a.elf.display()))?
            .display()
            .to_string();
        let mappings = elf
            .segments
            .iter()
            .filter(|s| s.exec)
            .map(|s| Mapping {
                start: u64::from(s.vaddr),
                len: u64::from(s.memsz),
                pgoff: u64::from(s.offset),
                path: path.clone(),
            })
            .collect();
        let comm = a
            .elf
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let opts = PerfOptions {
            comm,
            mappings,
            ..PerfOptions::default()
        };
        let bytes = shared::write_perf(&c.buffer, &opts, p)?;
        eprintln!(
            "wrote {} ({bytes} bytes); try: perf report -i {} --itrace=i1i --stdio --sort sym",
            p.display(),
            p.display()
        );
    }
    if a.check {
        let failed: Vec<&str> = checks
            .iter()
            .filter(|c| !c.ok)
            .map(|c| c.name.as_str())
            .collect();
        if !failed.is_empty() {
            return Err(format!(
                "{} check(s) failed: {} (the hooks do not follow the core: compare the tables above)",
                failed.len(),
                failed.join(", ")
            ));
        }
        eprintln!("checks: all {} passed", checks.len());
    }
    Ok(if res.exit_code == 0 {
        ExitCode::SUCCESS
    } else {
        eprintln!("spe: the program exited with code {}", res.exit_code);
        ExitCode::from(1)
    })
}

/// One check of `--check`: a sampled share against its exact value.
struct ShareCheck {
    name: String,
    ok: bool,
}

/// `got` of `n` samples against the exact share `p`: within 3 sigma of the binomial bound
/// sqrt(p(1-p)/n) (exactly equal when p is 0 or 1). Prints one line.
fn share_line(name: &str, p: f64, got: f64, n: u64, detail: &str) -> ShareCheck {
    let sigma = (p * (1.0 - p) / n.max(1) as f64).sqrt();
    let ok = n > 0 && (got - p).abs() <= 3.0 * sigma + 1e-12;
    let z = if sigma > 0.0 { (got - p) / sigma } else { 0.0 };
    println!(
        "{name:<34} {:>8.2} {:>8.2} {:>7.2} {:>6.2}  {detail}{}",
        100.0 * p,
        100.0 * got,
        300.0 * sigma,
        z,
        if ok { "" } else { "  <-- outside 3 sigma" }
    );
    ShareCheck {
        name: name.to_string(),
        ok,
    }
}

/// The samples against the core's own counts (`spe_socsim::FuncCount::dispatched`): the
/// flushed share, and the retired samples per hot function. Prints the table; returns the
/// checks.
fn speculation_checks(
    res: &spe_socsim::RunResult,
    records: &[spe_decode::record::Record],
    elf: &Elf,
    hot: f64,
) -> Vec<ShareCheck> {
    const RETIRED: u64 = 1 << spe_defs::events::RETIRED;
    let n = records.len() as u64;
    let retired_recs: Vec<&spe_decode::record::Record> = records
        .iter()
        .filter(|r| r.events.unwrap_or(0) & RETIRED != 0)
        .collect();
    let n_ret = retired_recs.len() as u64;
    println!();
    println!(
        "{:<34} {:>8} {:>8} {:>7} {:>6}",
        "check (exact: the core's signals)", "exact %", "sample %", "3σ %", "z"
    );
    let mut out = Vec::new();
    let p_flush = res.disp_flushed as f64 / res.dispatched.max(1) as f64;
    out.push(share_line(
        "flushed-share",
        p_flush,
        (n - n_ret) as f64 / n.max(1) as f64,
        n,
        &format!(
            "{} of {} dispatched flushed; {} of {n} records without RETIRED",
            res.disp_flushed,
            res.dispatched,
            n - n_ret
        ),
    ));
    let total_ret: u64 = res.funcs.iter().map(|f| f.disp_retired).sum();
    let mut per_func = vec![0u64; res.funcs.len()];
    for r in &retired_recs {
        if let Some(f) = r.ip().and_then(|ip| elf.func_at(ip as u32)) {
            per_func[f] += 1;
        }
    }
    let mut hot_funcs: Vec<usize> = (0..res.funcs.len())
        .filter(|&i| res.funcs[i].disp_retired as f64 >= hot * total_ret.max(1) as f64)
        .collect();
    hot_funcs.sort_by_key(|&i| std::cmp::Reverse(res.funcs[i].disp_retired));
    for i in hot_funcs {
        let f = &res.funcs[i];
        out.push(share_line(
            &format!("retired-share {}", f.name),
            f.disp_retired as f64 / total_ret.max(1) as f64,
            per_func[i] as f64 / n_ret.max(1) as f64,
            n_ret,
            &format!(
                "{} of {total_ret} retired; {} of {n_ret} retired samples; {} dispatched, {} flushed",
                f.disp_retired, per_func[i], f.dispatched, f.disp_flushed
            ),
        ));
    }
    out
}
