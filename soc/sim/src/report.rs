//! What a run's buffer says against the run's ground truth (`spe soc run` prints it).
//!
//! * [`RunResult::verified_dump`]: the hook contract held and the dump holds exactly the
//!   record bytes the unit wrote (nothing lost or misplaced).
//! * [`function_table`]: per function of the ELF, retired instructions, population ops and
//!   samples, with each sample share's 3-sigma binomial bound.
//! * [`speculation_checks`]: the flushed share of the samples against the core's own flush
//!   count, and each hot function's share of the retired samples against its exact share.
//!
//! The samples come in as [`Sample`]s (a record's PC and events), so this crate needs no
//! record decoder: the caller decodes the buffer.

use crate::elf::Elf;
use crate::RunResult;
use spe_dump::Captured;
use std::fmt::Write as _;

/// One record of the buffer as the checks need it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sample {
    /// The PC of the sampled op (its address packet), if the record has one.
    pub ip: Option<u64>,
    /// The events packet's bits, if the record has one.
    pub events: Option<u64>,
}

impl RunResult {
    /// The dump the program sent, once the run kept the hook contract (no report the unit
    /// ignored) and the dump holds exactly the records the unit wrote, in the order it
    /// wrote them, whatever stops, restarts and buffer-full rewinds came between.
    pub fn verified_dump(&self) -> Result<&Captured, String> {
        if self.stray_hooks > 0 {
            return Err(format!(
                "the unit ignored a hook report in {} cycles (hook_stray): the SoC's hooks break the port contract",
                self.stray_hooks
            ));
        }
        let c = self.captured.as_ref().ok_or_else(|| {
            format!(
                "the program sent no complete dump stream ({} UART bytes); nothing written",
                self.uart_bytes
            )
        })?;
        if c.buffer != self.written {
            let at = c
                .buffer
                .iter()
                .zip(&self.written)
                .position(|(a, b)| a != b)
                .unwrap_or(c.buffer.len().min(self.written.len()));
            return Err(format!(
                "the dump ({} bytes) differs from the records the unit wrote ({} bytes) from byte {at}: a record was lost or misplaced",
                c.buffer.len(),
                self.written.len()
            ));
        }
        Ok(c)
    }
}

/// The per-function table: every function with retired instructions or samples.
#[derive(Clone, Debug, Default)]
pub struct FunctionTable {
    /// For the terminal: aligned columns, shares in percent.
    pub text: String,
    /// Tab-separated, shares as fractions (`--truth`; scripts/soc-check.sh reads it).
    pub tsv: String,
    /// Samples outside any function of the ELF.
    pub unnamed: u64,
}

/// Samples per function against the run's exact retired and population counts.
pub fn function_table(res: &RunResult, elf: &Elf, samples: &[Sample]) -> FunctionTable {
    let mut per_func = vec![0u64; elf.funcs.len()];
    let mut unnamed = 0u64;
    for s in samples {
        match s.ip.and_then(|ip| elf.func_at(ip as u32)) {
            Some(f) => per_func[f] += 1,
            None => unnamed += 1,
        }
    }
    let n = samples.len() as u64;
    let mut t = FunctionTable {
        tsv: "function\tretired\tpopulation\tpop_share\tsamples\tsample_share\tbound_3sigma\n"
            .into(),
        unnamed,
        ..FunctionTable::default()
    };
    let _ = writeln!(
        t.text,
        "{:<22} {:>10} {:>10} {:>8} {:>8} {:>8} {:>8}",
        "function", "retired", "population", "pop %", "samples", "sample %", "3σ %"
    );
    for (f, s) in res.funcs.iter().zip(&per_func) {
        if f.retired == 0 && *s == 0 {
            continue;
        }
        let p = f.population as f64 / res.population.max(1) as f64;
        let share = *s as f64 / n.max(1) as f64;
        let bound = 3.0 * (p * (1.0 - p) / n.max(1) as f64).sqrt();
        let _ = writeln!(
            t.text,
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
            t.tsv,
            "{}\t{}\t{}\t{p:.6}\t{s}\t{share:.6}\t{bound:.6}",
            f.name, f.retired, f.population
        );
    }
    t
}

/// One check of `--check`: a sampled share against its exact value.
#[derive(Clone, Debug, PartialEq)]
pub struct ShareCheck {
    pub name: String,
    pub ok: bool,
}

/// The checks and their table.
#[derive(Clone, Debug, Default)]
pub struct Checks {
    pub checks: Vec<ShareCheck>,
    /// One line a check, after a header (the table `spe soc run` prints).
    pub text: String,
}

impl Checks {
    /// `got` of `n` samples against the exact share `p`: within 3 sigma of the binomial
    /// bound sqrt(p(1-p)/n) (exactly equal when p is 0 or 1). Adds one line.
    fn share(&mut self, name: &str, p: f64, got: f64, n: u64, detail: &str) {
        let sigma = (p * (1.0 - p) / n.max(1) as f64).sqrt();
        let ok = n > 0 && (got - p).abs() <= 3.0 * sigma + 1e-12;
        let z = if sigma > 0.0 { (got - p) / sigma } else { 0.0 };
        let _ = writeln!(
            self.text,
            "{name:<34} {:>8.2} {:>8.2} {:>7.2} {:>6.2}  {detail}{}",
            100.0 * p,
            100.0 * got,
            300.0 * sigma,
            z,
            if ok { "" } else { "  <-- outside 3 sigma" }
        );
        self.checks.push(ShareCheck {
            name: name.to_string(),
            ok,
        });
    }

    /// The names of the failed checks.
    pub fn failed(&self) -> Vec<&str> {
        self.checks
            .iter()
            .filter(|c| !c.ok)
            .map(|c| c.name.as_str())
            .collect()
    }
}

/// The samples against the core's own counts ([`crate::FuncCount::dispatched`]): the
/// flushed share, and the retired samples per hot function (one holding at least `hot` of
/// the retired instructions).
pub fn speculation_checks(res: &RunResult, elf: &Elf, samples: &[Sample], hot: f64) -> Checks {
    const RETIRED: u64 = 1 << spe_defs::events::RETIRED;
    let n = samples.len() as u64;
    let retired: Vec<&Sample> = samples
        .iter()
        .filter(|s| s.events.unwrap_or(0) & RETIRED != 0)
        .collect();
    let n_ret = retired.len() as u64;
    let mut out = Checks::default();
    let _ = writeln!(
        out.text,
        "{:<34} {:>8} {:>8} {:>7} {:>6}",
        "check (exact: the core's signals)", "exact %", "sample %", "3σ %", "z"
    );
    let p_flush = res.disp_flushed as f64 / res.dispatched.max(1) as f64;
    out.share(
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
    );
    let total_ret: u64 = res.funcs.iter().map(|f| f.disp_retired).sum();
    let mut per_func = vec![0u64; res.funcs.len()];
    for s in &retired {
        if let Some(f) = s.ip.and_then(|ip| elf.func_at(ip as u32)) {
            per_func[f] += 1;
        }
    }
    let mut hot_funcs: Vec<usize> = (0..res.funcs.len())
        .filter(|&i| res.funcs[i].disp_retired as f64 >= hot * total_ret.max(1) as f64)
        .collect();
    hot_funcs.sort_by_key(|&i| std::cmp::Reverse(res.funcs[i].disp_retired));
    for i in hot_funcs {
        let f = &res.funcs[i];
        out.share(
            &format!("retired-share {}", f.name),
            f.disp_retired as f64 / total_ret.max(1) as f64,
            per_func[i] as f64 / n_ret.max(1) as f64,
            n_ret,
            &format!(
                "{} of {total_ret} retired; {} of {n_ret} retired samples; {} dispatched, {} flushed",
                f.disp_retired, per_func[i], f.dispatched, f.disp_flushed
            ),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_share_inside_three_sigma_passes_and_one_outside_fails() {
        let mut c = Checks::default();
        // p = 0.5, n = 100: sigma = 0.05, 3 sigma = 0.15.
        c.share("inside", 0.5, 0.64, 100, "");
        c.share("outside", 0.5, 0.66, 100, "");
        // p = 0 admits only 0; no samples fail.
        c.share("zero", 0.0, 0.0, 50, "");
        c.share("none", 0.3, 0.3, 0, "");
        assert_eq!(c.failed(), vec!["outside", "none"]);
        assert_eq!(c.text.lines().count(), 4);
        assert!(c
            .text
            .lines()
            .nth(1)
            .unwrap()
            .ends_with("<-- outside 3 sigma"));
    }
}
