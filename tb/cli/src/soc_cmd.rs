//! `spe soc run --elf FILE --out buf.bin [--perf out.data]`: runs a program on the demo SoC
//! (PicoRV32 and the unit, `gen/soc`) under Verilator. The program's UART dump is decoded
//! from the TX pin into the buffer; the unit is checked against the golden model every
//! cycle; the ground truth (instructions retired and ops counted into the sampling
//! population, per function of the ELF) is printed beside the samples the buffer holds,
//! with the 3-sigma binomial bound of each share. `--perf` writes perf.data whose mapping
//! is the ELF, so `perf report --itrace=i1i --sort sym` names the program's functions.

use crate::fpga_cmd::write_whole;
use crate::perf_cmd;
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
    /// The SoC's core: picorv32 (in order, one instruction at a time) or vexriscv (a
    /// 5-stage pipeline that flushes wrong-path instructions). Build the program for it
    /// with `scripts/soc-sw.sh --core NAME`.
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
    /// Do not check the unit against the golden model (faster).
    #[arg(long)]
    no_lockstep: bool,
    /// No progress lines.
    #[arg(long)]
    quiet: bool,
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
    let elf = Elf::read(&a.elf)?;
    let t0 = Instant::now();
    let res = run_soc(
        &elf,
        &RunOptions {
            max_cycles: a.cycles,
            lockstep: !a.no_lockstep,
            progress_every: if a.quiet { 0 } else { 2_000_000 },
            core: a.core,
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
        let bytes = perf_cmd::write(&c.buffer, &opts, p)?;
        eprintln!(
            "wrote {} ({bytes} bytes); try: perf report -i {} --itrace=i1i --stdio --sort sym",
            p.display(),
            p.display()
        );
    }
    Ok(if res.exit_code == 0 {
        ExitCode::SUCCESS
    } else {
        eprintln!("spe: the program exited with code {}", res.exit_code);
        ExitCode::from(1)
    })
}
