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
use spe_socsim::report::{self, Sample};
use spe_socsim::{run as run_soc, RunOptions};
use spe_stim::parse_num;
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
    #[arg(long, value_name = "FAULT", default_value = "none", value_parser = spe_socsim::parse_hook_fault)]
    hook_fault: u8,
}

pub fn run(a: SocArgs) -> Result<ExitCode, String> {
    match a.cmd {
        SocCmd::Run(r) => run_cmd(r),
    }
}

fn run_cmd(a: RunArgs) -> Result<ExitCode, String> {
    crate::files::check_given(
        &[("--elf", Some(&a.elf))],
        &[
            ("--out", Some(&a.out)),
            ("--perf", a.perf.as_deref()),
            ("--truth", a.truth.as_deref()),
        ],
    )?;
    if !(a.hot > 0.0 && a.hot <= 1.0) {
        return Err(format!(
            "--hot {} is not a share: give a number above 0 and at most 1 (0.02 = 2 %)",
            a.hot
        ));
    }
    if a.hook_fault != 0 && !a.core.is_vexriscv() {
        return Err(format!(
            "--hook-fault {} breaks VexRiscv's hook adapter; the {} SoC has none (add --core vexriscv)",
            spe_socsim::HOOK_FAULTS[usize::from(a.hook_fault)],
            a.core.name()
        ));
    }
    let elf = Elf::read_for(&a.elf, a.core)?;
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
    let c = res.verified_dump()?;
    eprintln!(
        "sync: {} PSBs completed; the dump holds exactly the {} record bytes the unit wrote",
        res.psbs,
        res.written.len()
    );
    write_whole(&a.out, &c.buffer)?;
    let samples: Vec<Sample> = spe_decode::record::decode(&c.buffer)
        .records
        .iter()
        .map(|r| Sample {
            ip: r.ip(),
            events: r.events,
        })
        .collect();
    let table = report::function_table(&res, &elf, &samples);
    eprintln!(
        "buffer: {} bytes, {} records ({} outside any function), {} frames -> {}; the unit took {} samples and kept {} records",
        c.buffer.len(),
        samples.len(),
        table.unnamed,
        c.frames,
        a.out.display(),
        res.samples,
        res.records
    );
    print!("{}", table.text);
    let checks = report::speculation_checks(&res, &elf, &samples, a.hot);
    println!();
    print!("{}", checks.text);
    if let Some(t) = &a.truth {
        std::fs::write(t, &table.tsv).map_err(|e| format!("cannot write {}: {e}", t.display()))?;
    }
    if let Some(p) = &a.perf {
        let path = std::fs::canonicalize(&a.elf)
            .map_err(|e| format!("{}: {e}", a.elf.display()))?
            .display()
            .to_string();
        let mappings = (elf.segments.iter().filter(|s| s.exec))
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
            .unwrap_or_default()
            .to_string_lossy()
            .into();
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
        let failed = checks.failed();
        if !failed.is_empty() {
            return Err(format!(
                "{} check(s) failed: {} (the hooks do not follow the core: compare the tables above)",
                failed.len(),
                failed.join(", ")
            ));
        }
        eprintln!("checks: all {} passed", checks.checks.len());
    }
    Ok(if res.exit_code == 0 {
        ExitCode::SUCCESS
    } else {
        eprintln!("spe: the program exited with code {}", res.exit_code);
        ExitCode::from(1)
    })
}
