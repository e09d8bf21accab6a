//! What more than one command uses: the perf.data options and writer (`spe perf`,
//! `spe sim --perf`, `spe soc run --perf`), the all-or-nothing buffer write (`spe fpga
//! capture`, `spe soc run`) and the campaign's job selection (`spe regress`, `spe
//! coverage`). Commands take these from here, never from each other.

use clap::Args;
use spe_perfdata::{Mapping, PerfOptions};
use spe_stim::parse_num;
use std::path::{Path, PathBuf};

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

/// Writes `aux` as perf.data to `path`.
pub fn write_perf(aux: &[u8], opts: &PerfOptions, path: &Path) -> Result<usize, String> {
    let bytes = spe_perfdata::write(aux, opts);
    std::fs::write(path, &bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(bytes.len())
}

/// Writes `bytes` to `out` through a temporary file in the same folder, so that `out`
/// only ever holds a whole, checked buffer.
pub(crate) fn write_whole(out: &Path, bytes: &[u8]) -> Result<(), String> {
    let mut tmp = out.as_os_str().to_owned();
    tmp.push(".partial");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, bytes).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, out).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("cannot write {}: {e}", out.display())
    })
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

/// Writes a run's buffers as one perf.data at `path` (`spe sim --perf`): thread 0's with
/// `opts` (its AUX outputs from the run), and a multithreaded unit's thread t as CPU t of
/// the same file (`perf report --sort cpu`).
pub fn write_perf_run(
    result: &spe_bench::RunResult,
    opts: &PerfOptions,
    path: &Path,
) -> Result<(), String> {
    let opts = PerfOptions {
        aux_outputs: aux_outputs(&result.aux_records),
        ..opts.clone()
    };
    if result.other_threads.is_empty() {
        write_perf(&result.aux, &opts, path)?;
        return Ok(());
    }
    let mut cpus = vec![spe_perfdata::CpuAux {
        cpu: 0,
        aux: &result.aux,
        aux_outputs: opts.aux_outputs.clone(),
    }];
    for (k, t) in result.other_threads.iter().enumerate() {
        cpus.push(spe_perfdata::CpuAux {
            cpu: k as u32 + 1,
            aux: &t.aux,
            aux_outputs: aux_outputs(&t.aux_records),
        });
    }
    let bytes = spe_perfdata::write_cpus(&cpus, &opts);
    std::fs::write(path, &bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Where thread `t`'s buffer goes for `--out FILE` (`spe sim`): `FILE.t<t>`.
pub fn thread_path(path: &Path, t: usize) -> PathBuf {
    let mut p = path.as_os_str().to_owned();
    p.push(format!(".t{t}"));
    PathBuf::from(p)
}

/// Writes a run's buffers for `--out FILE`: thread 0's to FILE, a multithreaded unit's
/// thread t's to [`thread_path`]. Returns a line per file written, for the summary.
pub fn write_buffers(
    result: &spe_bench::RunResult,
    path: &Path,
    cfg: &spe_defs::Config,
) -> Result<Vec<String>, String> {
    let rec = |aux: &[u8]| aux.len() / cfg.record_size();
    let write = |p: &Path, aux: &[u8]| {
        std::fs::write(p, aux).map_err(|e| format!("cannot write {}: {e}", p.display()))
    };
    write(path, &result.aux)?;
    let mut lines = vec![format!(
        "wrote {} bytes ({} records) to {}",
        result.aux.len(),
        rec(&result.aux),
        path.display()
    )];
    for (k, t) in result.other_threads.iter().enumerate() {
        let p = thread_path(path, k + 1);
        write(&p, &t.aux)?;
        lines.push(format!(
            "wrote {} bytes ({} records) of thread {} to {}",
            t.aux.len(),
            rec(&t.aux),
            k + 1,
            p.display()
        ));
    }
    Ok(lines)
}

/// Which lockstep jobs a campaign runs and on how many threads (`spe regress`, `spe
/// coverage`: the same options select the same jobs).
#[derive(Args, Clone, Debug)]
pub struct JobArgs {
    /// Total workload cycles of the whole campaign (of all its shards, for `spe regress
    /// --shard`; default: $SPE_REGRESS_CYCLES, else 100000000: the jobs of the CI regression).
    #[arg(long, value_parser = parse_num)]
    pub cycles: Option<u64>,
    /// Largest workload cycles of one job: the total is split into the fewest jobs of at
    /// most this many cycles each, and at least one job per preset (`spe regress --list`
    /// shows them).
    #[arg(long, value_parser = parse_num, default_value_t = spe_cosim::regress::DEFAULT_JOB_CYCLES)]
    pub job_cycles: u64,
    /// Master seed: job i runs with seed hash(seed, i).
    #[arg(long, value_parser = parse_num, default_value_t = 1)]
    pub seed: u64,
    /// Presets to run (comma-separated; default all).
    #[arg(long, value_delimiter = ',')]
    pub presets: Vec<String>,
    /// Worker threads, at least 1 (default: the machine's cores).
    #[arg(long, value_parser = spe_cosim::campaign::parse_threads)]
    pub threads: Option<usize>,
}

impl JobArgs {
    /// The jobs: shard `shard` (K/N) of these presets (`presets` replaces the option's
    /// list when given), or the one job `job` names (PRESET:SEED:CYCLES).
    pub fn select(
        &self,
        presets: Option<&[String]>,
        shard: Option<&str>,
        job: Option<&str>,
    ) -> Result<spe_cosim::campaign::Selection, String> {
        spe_cosim::campaign::select(
            self.cycles,
            self.job_cycles,
            self.seed,
            shard,
            presets.unwrap_or(&self.presets),
            job,
        )
    }

    /// The worker threads: `--threads`, else the machine's cores.
    pub fn threads(&self) -> usize {
        spe_cosim::campaign::threads(self.threads)
    }
}
