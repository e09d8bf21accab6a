//! `spe perf BUFFER -o OUT.data`: wraps a raw SPE buffer (as `spe sim --out` writes it, or
//! as dumped from an FPGA prototype) in a perf.data file that Linux perf decodes:
//! `perf report -D -i OUT.data`, `perf script -i OUT.data --itrace=i1i`, `perf mem report`.

use crate::sim_cmd::parse_u64;
use clap::Args;
use spe_perfdata::{Mapping, PerfOptions};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The perf.data options shared by `spe perf` and `spe sim --perf`.
#[derive(Args, Clone, Debug)]
pub struct PerfDataArgs {
    /// CPU the buffer was captured on.
    #[arg(long, default_value_t = 0)]
    pub perf_cpu: u32,
    /// Process id the records belong to (the stimulus core's CONTEXTIDR is 1234).
    #[arg(long, default_value_t = 1234)]
    pub perf_pid: u32,
    /// Command name of that process.
    #[arg(long, default_value = "spe-workload")]
    pub perf_comm: String,
    /// Executable mapping START:LEN[:PGOFF]:PATH so user PCs resolve to symbols (repeatable).
    #[arg(long, value_name = "MAP")]
    pub perf_mmap: Vec<String>,
    /// Generic-timer frequency in Hz (timestamps become perf times with it).
    #[arg(long, value_parser = parse_u64, default_value_t = 100_000_000)]
    pub perf_timer_hz: u64,
}

impl PerfDataArgs {
    pub fn options(&self) -> Result<PerfOptions, String> {
        if self.perf_timer_hz == 0 {
            return Err("--perf-timer-hz must be above zero".into());
        }
        Ok(PerfOptions {
            cpu: self.perf_cpu,
            pid: self.perf_pid,
            tid: self.perf_pid,
            comm: self.perf_comm.clone(),
            mappings: self
                .perf_mmap
                .iter()
                .map(|m| Mapping::parse(m))
                .collect::<Result<_, _>>()?,
            timer_hz: self.perf_timer_hz,
            ..PerfOptions::default()
        })
    }
}

#[derive(Args)]
pub struct PerfArgs {
    /// Raw SPE buffer bytes.
    buffer: PathBuf,
    /// The perf.data file to write.
    #[arg(short, long, value_name = "OUT.data")]
    output: PathBuf,
    #[command(flatten)]
    perf: PerfDataArgs,
}

/// Writes `aux` as perf.data to `path`.
pub fn write(aux: &[u8], opts: &PerfOptions, path: &Path) -> Result<usize, String> {
    let bytes = spe_perfdata::write(aux, opts);
    std::fs::write(path, &bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(bytes.len())
}

pub fn run(a: PerfArgs) -> Result<ExitCode, String> {
    let aux =
        std::fs::read(&a.buffer).map_err(|e| format!("cannot read {}: {e}", a.buffer.display()))?;
    let opts = a.perf.options()?;
    let n = write(&aux, &opts, &a.output)?;
    println!(
        "wrote {} ({n} bytes): {} bytes of SPE data on cpu {}, pid {} ({}); try: perf script -i {} --itrace=i1i",
        a.output.display(),
        aux.len(),
        opts.cpu,
        opts.pid,
        opts.comm,
        a.output.display()
    );
    Ok(ExitCode::SUCCESS)
}
