//! `spe perf BUFFER -o OUT.data`: wraps a raw SPE buffer (as `spe sim --out` writes it, or
//! as dumped from an FPGA prototype) in a perf.data file that Linux perf decodes:
//! `perf report -D -i OUT.data`, `perf script -i OUT.data --itrace=i1i`, `perf mem report`.

use crate::shared::{write_perf, PerfDataArgs};
use clap::Args;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Args)]
pub struct PerfArgs {
    /// Raw SPE buffer bytes.
    buffer: PathBuf,
    /// The perf.data file to write.
    #[arg(short, long, value_name = "OUT.data")]
    output: PathBuf,
    /// Wrap the file even if it does not decode as an SPE buffer.
    #[arg(long)]
    force: bool,
    #[command(flatten)]
    perf: PerfDataArgs,
}

/// Refuses a file that is not a raw SPE buffer: empty, recognisably something else, or
/// with packets the decoder rejects or no whole record.
pub fn check_spe_buffer(name: &Path, buf: &[u8]) -> Result<(), String> {
    let shown = name.display();
    if buf.is_empty() {
        return Err(format!("{shown} is empty: no SPE data to wrap"));
    }
    if let Some(kind) = crate::files::file_kind(buf) {
        return Err(format!("{shown} is not a raw SPE buffer: it is {kind}"));
    }
    let d = spe_decode::decode(buf);
    let bad = d.bad_offsets.len() + d.truncated_offsets.len();
    if bad > 0 || d.records.is_empty() {
        let first = d
            .bad_offsets
            .iter()
            .chain(&d.truncated_offsets)
            .min()
            .map_or(String::new(), |o| format!(", the first at offset {o:#x}"));
        return Err(format!(
            "{shown} does not decode as an SPE buffer: {} records, {bad} bad or truncated packets{first} (check it with `spe decode`; --force wraps it anyway)",
            d.records.len()
        ));
    }
    Ok(())
}

pub fn run(a: PerfArgs) -> Result<ExitCode, String> {
    crate::files::check_files(&[("BUFFER", &a.buffer)], &[("--output", &a.output)])?;
    let aux =
        std::fs::read(&a.buffer).map_err(|e| format!("cannot read {}: {e}", a.buffer.display()))?;
    if !a.force {
        check_spe_buffer(&a.buffer, &aux)?;
    }
    let opts = a.perf.options()?;
    let n = write_perf(&aux, &opts, &a.output)?;
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
