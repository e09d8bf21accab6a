//! `spe perf BUFFER -o OUT.data`: wraps a raw SPE buffer (as `spe sim --out` writes it, or
//! as dumped from an FPGA prototype) in a perf.data file that Linux perf decodes:
//! `perf report -D -i OUT.data`, `perf script -i OUT.data --itrace=i1i`, `perf mem report`.

use clap::Args;
use spe_perfdata::{Mapping, PerfOptions};
use spe_stim::parse_num;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The perf.data options shared by `spe perf` and `spe sim --perf`.
#[derive(Args, Clone, Debug)]
pub struct PerfDataArgs {
    /// CPU the buffer was captured on.
    #[arg(long, value_parser = crate::parse_u32, default_value_t = 0)]
    pub perf_cpu: u32,
    /// Process id the records belong to (the stimulus core's CONTEXTIDR is 1234).
    #[arg(long, value_parser = crate::parse_u32, default_value_t = 1234)]
    pub perf_pid: u32,
    /// Command name of that process.
    #[arg(long, default_value = "spe-workload")]
    pub perf_comm: String,
    /// Executable mapping START:LEN[:PGOFF]:PATH so user PCs resolve to symbols (repeatable).
    #[arg(long, value_name = "MAP")]
    pub perf_mmap: Vec<String>,
    /// Generic-timer frequency in Hz (timestamps become perf times with it).
    #[arg(long, value_parser = parse_num, default_value_t = 100_000_000)]
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
                .map(|m| parse_mapping(m))
                .collect::<Result<_, _>>()?,
            timer_hz: self.perf_timer_hz,
            ..PerfOptions::default()
        })
    }
}

/// The driver's AUX outputs as perf's AUX records: offsets count the AUX data from its
/// start (as the AUXTRACE records do); DL gave truncated + partial, COLL collision (the
/// flags Linux's `arm_spe_pmu_buf_get_fault_act` sets).
pub fn aux_outputs(records: &[spe_bench::AuxRecord]) -> Vec<spe_perfdata::AuxOutput> {
    let mut offset = 0;
    records
        .iter()
        .map(|r| {
            let mut flags = 0;
            if r.truncated {
                flags |=
                    spe_perfdata::PERF_AUX_FLAG_TRUNCATED | spe_perfdata::PERF_AUX_FLAG_PARTIAL;
            }
            if r.collision {
                flags |= spe_perfdata::PERF_AUX_FLAG_COLLISION;
            }
            let o = spe_perfdata::AuxOutput {
                offset,
                size: r.size,
                flags,
            };
            offset += r.size;
            o
        })
        .collect()
}

/// Parses `START:LEN:PATH` or `START:LEN:PGOFF:PATH` (numbers hex `0x…` or decimal; the
/// path may contain ':').
fn parse_mapping(s: &str) -> Result<Mapping, String> {
    let num = |x: &str| parse_num(x).map_err(|e| format!("mapping {s:?}: {e}"));
    let mut parts = s.splitn(3, ':');
    let (Some(a), Some(b), Some(rest)) = (parts.next(), parts.next(), parts.next()) else {
        return Err(format!("mapping {s:?}: expected START:LEN[:PGOFF]:PATH"));
    };
    let (start, len) = (num(a)?, num(b)?);
    let (pgoff, path) = match rest.split_once(':') {
        Some((o, p)) if num(o).is_ok() => (num(o)?, p),
        _ => (0, rest),
    };
    if path.is_empty() || len == 0 {
        return Err(format!("mapping {s:?}: needs a length and a path"));
    }
    Ok(Mapping {
        start,
        len,
        pgoff,
        path: path.to_string(),
    })
}

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
    if let Some(kind) = crate::file_kind(buf) {
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

/// Writes `aux` as perf.data to `path`.
pub fn write(aux: &[u8], opts: &PerfOptions, path: &Path) -> Result<usize, String> {
    let bytes = spe_perfdata::write(aux, opts);
    std::fs::write(path, &bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(bytes.len())
}

pub fn run(a: PerfArgs) -> Result<ExitCode, String> {
    crate::check_files(&[("BUFFER", &a.buffer)], &[("--output", &a.output)])?;
    let aux =
        std::fs::read(&a.buffer).map_err(|e| format!("cannot read {}: {e}", a.buffer.display()))?;
    if !a.force {
        check_spe_buffer(&a.buffer, &aux)?;
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mappings_parse() {
        let m = parse_mapping("0x400000:0x10000:/usr/bin/x").unwrap();
        assert_eq!(
            (m.start, m.len, m.pgoff, m.path.as_str()),
            (0x400000, 0x10000, 0, "/usr/bin/x")
        );
        let m = parse_mapping("0x400000:4096:0x1000:/a/b").unwrap();
        assert_eq!(m.pgoff, 0x1000);
        assert!(parse_mapping("x:1:/a").is_err());
        assert!(parse_mapping("1:0:/a").is_err());
    }
}
