//! `spe mutate`: how strong the regression is, as the share of single-point mutants of the
//! generated Verilog that it catches.
//!
//! A mutant changes one operator or one constant in the combinational logic of one file of
//! `gen/<preset>/` (inside an `always @(*)` block, or a sized `localparam`): `&` and `|`,
//! `&&` and `||`, `==` and `!=`, `<` `<=` `>` `>=` one step, `+` and `-`, `^` to `&`, a `~`
//! dropped, a sized constant with every bit inverted (flipping one bit is too often
//! invisible: `z_*` read-back constants have their low bits overwritten). Bit selects (`[...]`) are left
//! alone. `--sample N` draws N of them (by `--seed`) from every site of the preset.
//!
//! The stimulus is a short regression of the preset (`spe regress`'s jobs, chaos included,
//! `--cycles` in all) and directed runs for what short jobs rarely reach ([`directed`]:
//! nineteen, five more with FEAT_SPE_EXC): each runs closed loop on the golden model once
//! and its inputs are recorded. Each mutant is Verilated and built into the raw harness of
//! `spe bench sim` and replays every recording; it is killed when the fold of its outputs
//! over a recording differs from the model's. That is exactly what the lockstep regression
//! would see: until the first cycle where an output differs, a closed-loop run of the
//! mutant gets the same inputs as the recording (the stimulus only reacts to outputs), and
//! the lockstep pair compares every output every cycle. The unmutated Verilog is built and
//! checked first: it must reproduce the model's fold on every job, or the flow itself is
//! wrong.

use spe_cosim::chaos::Chaos;
use spe_cosim::regress::{plan_jobs, JobPlan};
use spe_cosim::{make_dut, Backend};
use spe_defs::Config;
use spe_harness::{build_harness, replay, run_harness, write_vectors, BuildOpts, Layout, Recorder};
use spe_ports::{Dut, Inputs, Outputs};
use spe_stim::rng::Rng;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// What `spe mutate` draws, runs and requires.
pub struct Options {
    /// Preset whose generated Verilog is mutated, a one-thread unit.
    pub preset: String,
    /// Mutants to draw from every site of the preset.
    pub sample: usize,
    /// Seed of the draw and of the regression's jobs.
    pub seed: u64,
    /// Workload cycles of the regression, over all its jobs.
    pub cycles: usize,
    /// Cycles of one job.
    pub job_cycles: usize,
    /// Fail (exit 1) when fewer than this percentage (0 to 100) of the built mutants are
    /// killed.
    pub require: Option<f64>,
    /// The generated Verilog to mutate.
    pub gen: PathBuf,
    /// Work folder (mutants' copies, builds, recordings).
    pub dir: PathBuf,
    /// Run these sites only (`FILE:LINE:COL` as `list` prints them), instead of a draw.
    pub only: Vec<String>,
    /// List every mutation site of the preset and stop.
    pub list: bool,
    /// Mutants built and run at a time (each build is one g++ process).
    pub jobs: usize,
    /// Mutants read and argued equivalent ([`Equivalent`], one a line): a drawn one still
    /// runs, but its survival does not count against the kill rate (and its being killed
    /// is an error: the argument was wrong).
    pub equivalent: Vec<Equivalent>,
}

/// A mutant argued equivalent (docs/mutation.md), named so that it survives line shifts in
/// the generated Verilog: its file, the line's text (trimmed), the column and the change.
/// A line of a `--equivalent` file: `FILE@COL 'FROM' -> 'TO' in: LINE TEXT`; `#` starts a
/// comment line (the argument).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Equivalent {
    pub file: String,
    pub col: usize,
    pub from: String,
    pub to: String,
    pub text: String,
}

impl Equivalent {
    /// The entries of a `--equivalent` file's text (blank and `#` lines skipped).
    pub fn parse_list(list: &str) -> Result<Vec<Equivalent>, String> {
        let mut v = Vec::new();
        for (n, l) in list.lines().enumerate() {
            let l = l.trim();
            if l.is_empty() || l.starts_with('#') {
                continue;
            }
            let bad = || {
                format!(
                    "line {}: not `FILE@COL 'FROM' -> 'TO' in: TEXT`: {l}",
                    n + 1
                )
            };
            let (head, text) = l.split_once(" in: ").ok_or_else(bad)?;
            let (at, change) = head.split_once(' ').ok_or_else(bad)?;
            let (file, col) = at.split_once('@').ok_or_else(bad)?;
            let (from, to) = change.split_once(" -> ").ok_or_else(bad)?;
            let unquote = |x: &str| {
                x.strip_prefix('\'')
                    .and_then(|x| x.strip_suffix('\''))
                    .map(str::to_string)
            };
            v.push(Equivalent {
                file: file.to_string(),
                col: col.parse().map_err(|_| bad())?,
                from: unquote(from).ok_or_else(bad)?,
                to: unquote(to).ok_or_else(bad)?,
                text: text.trim().to_string(),
            });
        }
        Ok(v)
    }

    /// Whether `site`, on a line whose text is `line`, is this mutant.
    pub fn is(&self, site: &Site, line: &str) -> bool {
        self.file == site.file
            && self.col == site.col + 1
            && self.from == site.from
            && self.to == site.to
            && self.text == line.trim()
    }
}

/// One single-point change: in `file` (of `gen/<preset>/`), line `line` (0-based), the
/// text `from` at byte `col` becomes `to`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Site {
    pub file: String,
    pub line: usize,
    pub col: usize,
    pub from: String,
    pub to: String,
}

impl std::fmt::Display for Site {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}:{} '{}' -> '{}'",
            self.file,
            self.line + 1,
            self.col + 1,
            self.from,
            if self.to.is_empty() { "" } else { &self.to }
        )
    }
}

/// The mutation sites of one line's mutable text `text`, which starts at byte `base` of
/// the line: operators and sized constants outside bit selects.
fn line_sites(text: &str, base: usize, out: &mut Vec<(usize, String, String)>) {
    let b = text.as_bytes();
    let (mut i, mut depth) = (0, 0usize);
    while i < b.len() {
        let c = b[i];
        let two = if i + 1 < b.len() { &text[i..i + 2] } else { "" };
        let next = b.get(i + 1).copied().unwrap_or(b' ');
        match c {
            b'[' => depth += 1,
            b']' => depth = depth.saturating_sub(1),
            _ if depth > 0 => {}
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'$')
                {
                    i += 1;
                }
                continue;
            }
            b'0'..=b'9' => {
                let start = i;
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
                if i + 1 < b.len() && b[i] == b'\'' && matches!(b[i + 1], b'b' | b'h' | b'd') {
                    let width: u32 = text[start..i].parse().unwrap_or(0);
                    let radix = match b[i + 1] {
                        b'b' => 2,
                        b'h' => 16,
                        _ => 10,
                    };
                    let ds = i + 2;
                    let mut e = ds;
                    while e < b.len() && (b[e].is_ascii_hexdigit() || b[e] == b'_') {
                        e += 1;
                    }
                    let digits: String = text[ds..e].chars().filter(|&d| d != '_').collect();
                    if let (Ok(v), true) = (
                        u128::from_str_radix(&digits, radix),
                        (1..=128).contains(&width),
                    ) {
                        let v = !v & (u128::MAX >> (128 - width));
                        let body = match radix {
                            2 => format!("{v:b}"),
                            16 => format!("{v:x}"),
                            _ => format!("{v}"),
                        };
                        let to = format!("{width}'{}{body}", b[i + 1] as char);
                        out.push((base + start, text[start..e].to_string(), to));
                    }
                    i = e;
                }
                continue;
            }
            _ => {
                let swap: Option<(&str, &str)> = match two {
                    "==" => Some(("==", "!=")),
                    "!=" => Some(("!=", "==")),
                    ">=" => Some((">=", ">")),
                    "<=" => Some(("<=", "<")),
                    "&&" => Some(("&&", "||")),
                    "||" => Some(("||", "&&")),
                    "<<" | ">>" => {
                        i += 2;
                        continue;
                    }
                    _ => None,
                };
                if let Some((from, to)) = swap {
                    out.push((base + i, from.into(), to.into()));
                    i += 2;
                    continue;
                }
                let one = match c {
                    b'&' => Some("|"),
                    b'|' => Some("&"),
                    b'^' => Some("&"),
                    b'+' => Some("-"),
                    b'-' => Some("+"),
                    b'<' => Some("<="),
                    b'>' => Some(">="),
                    b'~' if next.is_ascii_alphabetic() || next == b'(' || next == b'_' => Some(""),
                    _ => None,
                };
                if let Some(to) = one {
                    out.push((base + i, (c as char).to_string(), to.into()));
                }
            }
        }
        i += 1;
    }
}

/// Every mutation site of one file's text, named `file`.
pub fn sites(file: &str, text: &str) -> Vec<Site> {
    let mut v = Vec::new();
    let mut in_comb = false;
    for (n, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.starts_with("always @(*)") {
            in_comb = true;
            continue;
        }
        if in_comb && line == "    end" {
            in_comb = false;
            continue;
        }
        let mut found = Vec::new();
        if t.starts_with("localparam") && t.contains('\'') {
            if let Some(eq) = line.find(" = ") {
                line_sites(&line[eq + 3..], eq + 3, &mut found);
            }
        } else if in_comb {
            if let Some(rest) = t
                .strip_prefix("if (")
                .or_else(|| t.strip_prefix("end else if ("))
            {
                let start = line.len() - rest.len();
                let end = rest.rfind(") begin").unwrap_or(rest.len());
                line_sites(&rest[..end], start, &mut found);
            } else if let Some(eq) = line.find(" = ") {
                line_sites(&line[eq + 3..], eq + 3, &mut found);
            }
        }
        v.extend(found.into_iter().map(|(col, from, to)| Site {
            file: file.to_string(),
            line: n,
            col,
            from,
            to,
        }));
    }
    v
}

/// `text` with `s` applied.
fn apply(text: &str, s: &Site) -> String {
    let mut out = String::with_capacity(text.len() + 4);
    for (n, line) in text.split_inclusive('\n').enumerate() {
        if n == s.line {
            assert_eq!(&line[s.col..s.col + s.from.len()], s.from, "{s}");
            out.push_str(&line[..s.col]);
            out.push_str(&s.to);
            out.push_str(&line[s.col + s.from.len()..]);
        } else {
            out.push_str(line);
        }
    }
    out
}

/// The Verilog files of `gen/<preset>/` (the shared flop excluded: it has no logic).
fn preset_files(gen: &Path, cfg: &Config) -> Result<Vec<(String, String)>, String> {
    let dir = gen.join(cfg.name);
    let mut v = Vec::new();
    for e in std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))? {
        let p = e.map_err(|e| e.to_string())?.path();
        if p.extension().is_some_and(|x| x == "v") {
            let text = std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))?;
            let name = p
                .file_name()
                .expect("a file")
                .to_string_lossy()
                .into_owned();
            v.push((name, text));
        }
    }
    v.sort();
    Ok(v)
}

/// A copy of `gen/<preset>/` (and the shared flop) under `root`, one file replaced.
fn copy_gen(
    gen: &Path,
    cfg: &Config,
    root: &Path,
    replace: Option<(&str, &str)>,
) -> Result<(), String> {
    let dst = root.join(cfg.name);
    let _ = std::fs::remove_dir_all(root);
    std::fs::create_dir_all(&dst).map_err(|e| format!("{}: {e}", dst.display()))?;
    let copy = |from: PathBuf, to: PathBuf| {
        std::fs::copy(&from, &to)
            .map(|_| ())
            .map_err(|e| format!("{} -> {}: {e}", from.display(), to.display()))
    };
    copy(gen.join("spe_rff.v"), root.join("spe_rff.v"))?;
    let src = gen.join(cfg.name);
    for e in std::fs::read_dir(&src).map_err(|e| format!("{}: {e}", src.display()))? {
        let p = e.map_err(|e| e.to_string())?.path();
        let name = p
            .file_name()
            .expect("a file")
            .to_string_lossy()
            .into_owned();
        match replace {
            Some((f, text)) if f == name => std::fs::write(dst.join(&name), text)
                .map_err(|e| format!("{}: {e}", dst.join(&name).display()))?,
            _ => copy(p, dst.join(&name))?,
        }
    }
    Ok(())
}

/// Mutants are built faster than the benchmark's harness, and a mutant's new warning
/// (none is expected: every change keeps widths) does not stop it.
const MUTANT_BUILD: BuildOpts = BuildOpts {
    opt: "-O1",
    verilator: &["-Wno-fatal"],
    verbose: false,
};

/// One directed run: `cycles` of `workload` closed loop on the golden model with software
/// `settings` and a memory behaving per `memory`; `ptr_rewrites` is the chance, per cycle
/// the driver leaves the register port free, that PMBPTR is rewritten ([`Directing`]).
struct Directed {
    name: &'static str,
    cycles: u64,
    workload: spe_stim::Workload,
    settings: spe_bench::SampleSettings,
    memory: spe_bench::MemoryProfile,
    ptr_rewrites: f64,
    /// With `ptr_rewrites`: the pointer goes to the buffer's limit instead (a kept record
    /// then finds no room at its check).
    to_limit: bool,
    /// The chance, per cycle after one in which a beat past a record's first was offered,
    /// that software sets PMBSR.S (a register write in a cycle the driver leaves free):
    /// profiling stops while a record is being written ([`Directing`]).
    stop_writes: f64,
    /// From this cycle on, the core's completion reports are lost until the unit ends the
    /// sample it tracks by its completion timeout (`sample_timeout`): one stall of
    /// 2^`cpl_timeout_log2` cycles ([`Directing`]).
    stall_from: Option<u64>,
    /// The share of dispatched ops whose Operation Type payload is replaced by a random
    /// byte, their class kept ([`Directing`]).
    odd_payloads: f64,
}

/// The directed runs: a small buffer that fills and wraps (the room check), a buffer that
/// straddles a 2^38-byte boundary (the room checks compare the pointer's and the limit's
/// bits 63:38 and 37:12 apart), write errors of every kind (PMBSR's fault syndromes), a
/// store filter over atomics (which ops count as stores: a returning atomic is about one op
/// in 200 of `mix`, so this run is longer), the load, branch, event and latency filters
/// together, a VHE host that samples user code only (its EL2 code, under an EL2 owner with
/// PMSCR_EL2.E2SPE clear, must not be sampled: the jobs' hosts sample both or neither), a
/// VHE host that runs and profiles guests (their EL0 and EL1 ops under E2H = 1, TGE = 0)
/// with indirect branches classified by their reports, a stall of the completion reports
/// until the unit's completion timeout drops the sample (2^20 cycles on most presets),
/// Operation Type payloads of any value in half the ops at the smallest interval,
/// PMBPTR rewritten at random while records are taken (a record's slot is the pointer of
/// its grant cycle, not of the cycle after), and NV2 accesses under an EL1 owner (no data
/// VA or PA: profiling is not enabled at EL2; the random jobs' odd op types reach this
/// rarely, and a short run missed the mutant that breaks it), and the Timestamp packet's
/// counter under an EL2 that withholds the physical counter (PMSCR_EL2.PCT = 00) while the
/// kernel asks for it (PMSCR_EL1.PCT), on a core with EL2 and on one without (the table of
/// J1's counter choice: the random jobs draw these combinations in a few percent of their
/// plans, so a short run meets them or not).
fn directed(cfg: &Config) -> Result<Vec<Directed>, String> {
    use spe_bench::memory::{ErrorInjection, FaultSpec};
    use spe_bench::{MemoryProfile, SampleSettings};
    let mix = spe_stim::Workload::by_name("mix")?;
    let base = SampleSettings::perf_default(cfg);
    let run = |name, cycles, workload, settings, memory| Directed {
        name,
        cycles,
        workload,
        settings,
        memory,
        ptr_rewrites: 0.0,
        to_limit: false,
        stop_writes: 0.0,
        stall_from: None,
        odd_payloads: 0.0,
    };
    // `mix` with ten times as many kernel stretches (about a third of its ops in them).
    let mut kernel_heavy = mix.clone();
    kernel_heavy.params.kernel_rate *= 10.0;
    // The same in a VHE host that runs guests (HCR_EL2.TGE = 0, E2H = 1: their ops at EL0
    // and EL1) and profiles them too, on a core whose decoder leaves half the indirect
    // branches unclassified (IND from the branch report): the coverage plan's
    // `mode/guest-el*` and `branch/indirect-at-resolution`, which the random jobs draw in
    // a tenth and half of their plans.
    let mut guests = kernel_heavy.clone();
    guests.params.guest_rate = 5e-4;
    guests.params.guest_len = (1_000, 10_000);
    guests.params.late_ind_rate = 0.5;
    let mut late_ind = mix.clone();
    late_ind.params.late_ind_rate = 0.5;
    // `mix` on a core without EL2 (`el2_en` low), and the timestamp runs' settings: the
    // kernel asks for the physical counter, which EL2 withholds (PMSCR_EL2.PCT = 00).
    let mut no_el2 = mix.clone();
    no_el2.params.el2 = false;
    let withheld = SampleSettings {
        el2_withholds: true,
        pct: true,
        ts: true,
        ..base.clone()
    };
    let mut runs = vec![
        run(
            "atomics",
            200_000,
            atomics_loop()?,
            SampleSettings {
                store_filter: true,
                ..base.clone()
            },
            MemoryProfile::default(),
        ),
        run(
            "small-buffer",
            150_000,
            mix.clone(),
            SampleSettings {
                buffer_size: 2 * 4096,
                ..base.clone()
            },
            MemoryProfile::default(),
        ),
        run(
            "straddling-buffer",
            150_000,
            mix.clone(),
            SampleSettings {
                buffer_base: (1 << 38) - 4096,
                buffer_size: 64 << 10,
                ..base.clone()
            },
            MemoryProfile::default(),
        ),
        run(
            "faults",
            150_000,
            mix.clone(),
            // The driver restarts after each fault (Linux stops at the first), so that
            // the run meets every fault of the sweep.
            SampleSettings {
                on_fault: spe_bench::driver::FaultAction::Restart,
                ..base.clone()
            },
            MemoryProfile {
                // Every kind at every beat in turn (32 faults in a row), a fault in every
                // fourth record: a short run at random rates meets few stage 2 faults.
                errors: ErrorInjection::Sweep { every: 4, start: 0 },
                fault: FaultSpec::Any,
                ..MemoryProfile::default()
            },
        ),
        // Discard mode (PMBLIMITR.FM = 10, Linux's when the AUX buffer has no room): the
        // random jobs draw it in 5 % of their plans and never in the open ones.
        run(
            "discard",
            100_000,
            mix.clone(),
            SampleSettings {
                discard: true,
                ..base.clone()
            },
            MemoryProfile::default(),
        ),
        run(
            "store-filter",
            1_000_000,
            mix.clone(),
            SampleSettings {
                store_filter: true,
                ..base.clone()
            },
            MemoryProfile::default(),
        ),
        // PMSFCR.B alone (perf's branch_filter): SAMPLE_FEED_OP then selects branches
        // only; `filters` sets B and LD together, `store-filter` ST alone. Its core's
        // decoder leaves half the indirect branches unclassified (IND from the branch
        // report), so that the records it keeps, all branches, carry some: the coverage
        // plan's `branch/indirect-at-resolution`, which the random jobs hit once or twice
        // a preset (the ninth draw's `tracker:381:49` survived so).
        run(
            "branch-filter",
            100_000,
            late_ind,
            SampleSettings {
                branch_filter: true,
                ..base.clone()
            },
            MemoryProfile::default(),
        ),
        run(
            "filters",
            150_000,
            mix.clone(),
            SampleSettings {
                load_filter: true,
                branch_filter: true,
                event_filter: 1 << spe_defs::events::RETIRED,
                min_latency: 20,
                ..base.clone()
            },
            MemoryProfile::default(),
        ),
        run(
            "host-guests",
            150_000,
            guests,
            SampleSettings {
                host: true,
                guests_profiled: true,
                ..base.clone()
            },
            MemoryProfile::default(),
        ),
        run(
            "host-user-only",
            150_000,
            kernel_heavy,
            SampleSettings {
                host: true,
                kernel: false,
                ..base.clone()
            },
            MemoryProfile::default(),
        ),
        run(
            "timestamp-counters",
            100_000,
            mix.clone(),
            withheld.clone(),
            MemoryProfile::default(),
        ),
        run(
            "timestamp-counters-no-el2",
            100_000,
            no_el2,
            withheld,
            MemoryProfile::default(),
        ),
        run(
            "nv2-accesses",
            150_000,
            nv2_loop()?,
            SampleSettings {
                pa: true,
                ..base.clone()
            },
            MemoryProfile::default(),
        ),
        Directed {
            ptr_rewrites: 0.02,
            ..run(
                "pointer-rewrites",
                150_000,
                mix.clone(),
                SampleSettings {
                    interval: 256,
                    ..base.clone()
                },
                MemoryProfile::default(),
            )
        },
        // PMBPTR moved to the limit now and then (every 2,000 cycles or so): the next kept
        // record finds no room at its check (buffer full with DL, nothing written), and the
        // driver restarts the buffer. The unit's own pointer never gets there, and the
        // random jobs' chaos does it a few times a run at most.
        Directed {
            ptr_rewrites: 5e-4,
            to_limit: true,
            ..run(
                "pointer-at-limit",
                150_000,
                mix.clone(),
                SampleSettings {
                    interval: 256,
                    on_fault: spe_bench::driver::FaultAction::Restart,
                    ..base.clone()
                },
                MemoryProfile::default(),
            )
        },
        // Software sets PMBSR.S while a record is written past its first beat (a driver
        // stopping profiling by hand, or another agent): the writer must stop offering
        // beats and finish the record as the model does. The random jobs' chaos does it
        // in a few jobs (`mgmt/stop-writing`), half of the time by clearing PMBLIMITR.E.
        Directed {
            stop_writes: 0.05,
            ..run(
                "stop-mid-record",
                150_000,
                mix.clone(),
                SampleSettings {
                    on_fault: spe_bench::driver::FaultAction::Restart,
                    ..base.clone()
                },
                MemoryProfile::default(),
            )
        },
        // PSBs that meet the tracked sample: context switches right after a third of the
        // tags, half of whose PSBs find the just-tagged op younger (the unit drops the
        // sample: cover points `psb/tracking`, `sample/psb-dropped/*`) and half wait for
        // its completion and reach the unit zero to three cycles after it
        // (`psb/completing`, `psb/kept`, `psb/writing`). The random jobs' PSBs find an op
        // younger only within 64 cycles of its tag (`stim::core::YOUNG_WINDOW`), after 3 %
        // of the tags in half the jobs: a short draw meets few (the ninth draw's
        // `tracker:304:40`, the tracking flag's clear at such a PSB, survived so).
        {
            let mut young = mix.clone();
            young.params.psb_young_rate = 0.5;
            young.params.psb_lag_max = 3;
            run(
                "psb-meets-sample",
                100_000,
                young,
                SampleSettings {
                    switch_every: 20_000,
                    switch_off: 100,
                    switch_after_tag: 0.3,
                    ..base.clone()
                },
                MemoryProfile::default(),
            )
        },
        // The completion timeout: from cycle 20,000 the core's completion reports are lost
        // until the unit drops the sample it tracks (`sample_timeout`, 2^20 cycles on
        // most presets), then 30,000 cycles of ordinary sampling. The random jobs'
        // stalls end by the timeout only where no PSB comes first (cover points
        // `sample/timed-out/*`, holes on most presets); no context switch and no fault
        // here, so no PSB ends it.
        Directed {
            stall_from: Some(20_000),
            ..run(
                "completion-timeout",
                50_000 + (1u64 << cfg.cpl_timeout_log2),
                mix.clone(),
                base.clone(),
                MemoryProfile::default(),
            )
        },
        // Operation Type payloads of any value (half the dispatched ops, their class
        // kept): reserved encodings and bits of features the unit does not build, in the
        // ops it samples, at the smallest interval. The random jobs' odd op types
        // (chaos) are one op in 100 to 1,000, so a sampled one is rare.
        Directed {
            odd_payloads: 0.5,
            ..run(
                "odd-payloads",
                100_000,
                mix.clone(),
                SampleSettings {
                    interval: 256,
                    ..base.clone()
                },
                MemoryProfile::default(),
            )
        },
    ];
    // FEAT_SPE_EFT's AND terms: `sve` (SVE ops are SIMD, some FP) with a context switch
    // every 5,000 cycles, each switch back drawing a term half the time (one op type's
    // mask set, its type bit set or clear: `SampleSettings::and_term_reroll`), so that
    // each row of each type's term meets samples (the coverage plan's `eft/` points; the
    // tenth draw's `filter:71:63`, the branch term, survived every seed without it).
    if cfg.options.eft {
        runs.push(run(
            "eft-and-terms",
            150_000,
            spe_stim::Workload::by_name("sve")?,
            SampleSettings {
                switch_every: 5_000,
                switch_off: 100,
                and_term_reroll: Some(0xEF7),
                ..base.clone()
            },
            MemoryProfile::default(),
        ));
    }
    // FEAT_SPE_EXC: management events reported to each bank, each run a small buffer that
    // fills and a fault in every other record (every sixteenth where the buffer is to fill
    // between faults), of every kind at every beat in turn, the
    // MMU faults' FSCs drawn among the synchronous external aborts too, the driver
    // restarting after each. `exc-split`: stage 2 faults to EL2, synchronous external
    // aborts to EL3 (MDCR_EL3.PMSEE = 10 with SCR_EL3.EA) and the rest as EL1 exceptions;
    // `exc-el2`: everything to EL2 (PMSCR_EL2.EE = 11); `exc-el3`: everything to EL3
    // (PMSEE = 11). The random jobs draw these routings (and reroute at context
    // switches), but a short run meets few faults and few fills under each.
    if cfg.options.exc {
        use spe_defs::regs::mdcr_pmsee::{DELEGATED, ENABLED, TRAP_ALL};
        for (name, cycles, pmsee, el2_ee, every) in [
            ("exc-split", 400_000, ENABLED, 0b10, 2),
            ("exc-el2", 150_000, DELEGATED, 0b11, 16),
            ("exc-el3", 150_000, TRAP_ALL, 0b10, 16),
        ] {
            runs.push(run(
                name,
                cycles,
                mix.clone(),
                SampleSettings {
                    buffer_size: 2 * 4096,
                    on_fault: spe_bench::driver::FaultAction::Restart,
                    pmsee,
                    el2_ee,
                    exc_ee: 0b11,
                    exc_ke: true,
                    el2_ke: true,
                    scr_ea: true,
                    hcr_tea: true,
                    ..base.clone()
                },
                MemoryProfile {
                    errors: ErrorInjection::Sweep { every, start: 0 },
                    fault: FaultSpec::Any,
                    ..MemoryProfile::default()
                },
            ));
        }
        // PMBPTR moved to the limit with every event to EL2 (EE2 = 11) or to EL3 (PMSEE =
        // 11): a kept record finds no room at its check, and the buffer full with DL is
        // that bank's (`exc-el2` and `exc-el3` fill through the unit's own pointer, which
        // sets no DL).
        for (name, pmsee, el2_ee) in [
            ("exc-el2-at-limit", DELEGATED, 0b11),
            ("exc-el3-at-limit", TRAP_ALL, 0b10),
        ] {
            runs.push(Directed {
                ptr_rewrites: 5e-4,
                to_limit: true,
                ..run(
                    name,
                    150_000,
                    mix.clone(),
                    SampleSettings {
                        interval: 256,
                        on_fault: spe_bench::driver::FaultAction::Restart,
                        pmsee,
                        el2_ee,
                        ..base.clone()
                    },
                    MemoryProfile::default(),
                )
            });
        }
    }
    // SVE and SME ops at the vector lengths and element sizes a unit treats apart (EVL
    // 0b111, which a unit without FEAT_SPE_SME records as 0b110; SME array ops, which it
    // records as Other with payload 0), sampled in turn ([`vectors_loop`]). The random jobs
    // give the `sve` workload's ops every EVL (`Program::vary_vectors`), but run it in one
    // job in seven, most with periods too long for a short job to record many of them.
    runs.push(run(
        "sve-sme-loop",
        100_000,
        vectors_loop()?,
        base.clone(),
        MemoryProfile::default(),
    ));
    Ok(runs)
}

/// What a directed run adds between the closed loop and the unit (thread 0), each only
/// when its [`Directed`] field asks for it: PMBPTR rewritten at random in cycles the driver
/// leaves the register port free (to the slot of the last record written, or one slot past
/// the pointer that record left, so the pointer moves by a record while records are taken
/// and checked; or to the buffer's limit); PMBSR.S set at random in the cycle after a beat
/// past a record's first was offered (software may write either at any time); completion
/// reports lost from a cycle on until the unit times the sample out; Operation Type
/// payloads of any value. The unit must do what the model does.
struct Directing<D: Dut> {
    inner: D,
    p: f64,
    rng: Rng,
    /// The slot of the last beat the unit wrote, and the slot size (`Config::record_size`).
    last_slot: u64,
    slot: u64,
    /// Rewrite to this address (the buffer's limit) instead.
    limit: Option<u64>,
    /// [`Directed::stop_writes`], and whether the last cycle offered a beat past a
    /// record's first.
    stop_p: f64,
    mid_record: bool,
    /// [`Directed::stall_from`]: the cycles stepped, the stall's first cycle (`None` once
    /// the unit timed the sample out).
    cycle: u64,
    stall_from: Option<u64>,
    /// [`Directed::odd_payloads`].
    odd_payloads: f64,
}

impl<D: Dut> Dut for Directing<D> {
    fn step(&mut self, inputs: &Inputs) -> Outputs {
        let mut i = inputs.clone();
        if self.stop_p > 0.0 && !i.reg_en && self.mid_record && self.rng.chance(self.stop_p) {
            i.reg_en = true;
            i.reg_tid = 0;
            i.reg_we = true;
            i.reg_addr = spe_defs::regs::reg(spe_defs::regs::RegId::Pmbsr).addr();
            i.reg_wdata = spe_defs::regs::pmbsr::S.place(1);
        }
        if self.p > 0.0 && !i.reg_en && self.last_slot != 0 && self.rng.chance(self.p) {
            i.reg_en = true;
            i.reg_tid = 0;
            i.reg_we = true;
            i.reg_addr = spe_defs::regs::reg(spe_defs::regs::RegId::Pmbptr).addr();
            i.reg_wdata = match self.limit {
                Some(l) => l,
                None => {
                    self.last_slot
                        + if self.rng.chance(0.5) {
                            0
                        } else {
                            2 * self.slot
                        }
                }
            };
        }
        if self.odd_payloads > 0.0 {
            for d in i.disp.iter_mut().filter(|d| d.valid) {
                if self.rng.chance(self.odd_payloads) {
                    d.subclass = self.rng.below(256) as u8;
                }
            }
        }
        self.cycle += 1;
        let stalling = self.stall_from.is_some_and(|f| self.cycle >= f);
        if stalling {
            i.thr[0].cpl.done = false;
        }
        let o = self.inner.step(&i);
        if stalling && o.thr[0].sample_timeout {
            self.stall_from = None;
        }
        if o.wr_valid {
            self.last_slot = o.wr_addr & !(self.slot - 1);
        }
        self.mid_record = o.wr_valid && o.wr_addr & (self.slot - 1) != 0;
        o
    }
    fn verdict(&mut self) -> Result<Option<String>, String> {
        self.inner.verdict()
    }
}

/// A workload of one block of `ops` that jumps back to its start (user code at `pc`,
/// kernel code at `kernel_pc`), its loads and stores walking 4 KiB from `data` in steps of 8.
/// With 8 ops and a sampling period 1 more than a multiple of 8, the samples walk through
/// every op of the loop.
fn loop_of(
    name: &str,
    pc: u64,
    kernel_pc: u64,
    data: u64,
    ops: impl FnOnce(spe_stim::MemPattern) -> Vec<spe_stim::program::StaticOp>,
    description: &str,
) -> Result<spe_stim::Workload, String> {
    use spe_stim::program::{Builder, Exit, Program};
    let mem = spe_stim::MemPattern {
        base: data,
        span: 4096,
        stride: 8,
        size: 8,
        random: false,
    };
    let mut b = Builder::new(name, pc, kernel_pc);
    b.block(false, ops(mem), Exit::Jump(0));
    let mut w = spe_stim::Workload::from_program(Program::Code(b.finish(0, None)?));
    w.description = description.into();
    Ok(w)
}

/// A loop of 8 ops, every kind of extended load/store among them (a returning atomic, a
/// no-return atomic, an exclusive load and store, a load-acquire) beside a plain store, an
/// ALU op and the branch back ([`loop_of`]).
fn atomics_loop() -> Result<spe_stim::Workload, String> {
    use spe_defs::packet::subclass::{
        LDST_EXT, LDST_EXT_AR, LDST_EXT_AT, LDST_EXT_EXCL, LDST_GP, LDST_ST,
    };
    use spe_stim::program::{StaticOp, BR_DIRECT};
    loop_of(
        "atomics",
        0x0000_aaaa_d003_0000,
        0xffff_8000_1003_0000,
        0x0000_aaaa_e010_0000,
        |mem| {
            vec![
                StaticOp::ldst(LDST_EXT | LDST_EXT_AT, mem),
                StaticOp::ldst(LDST_EXT | LDST_EXT_AT | LDST_ST, mem),
                StaticOp::ldst(LDST_EXT | LDST_EXT_EXCL, mem),
                StaticOp::ldst(LDST_EXT | LDST_EXT_EXCL | LDST_ST, mem),
                StaticOp::ldst(LDST_EXT | LDST_EXT_AR, mem),
                StaticOp::ldst(LDST_GP | LDST_ST, mem),
                StaticOp::other(0),
                StaticOp::branch(BR_DIRECT),
            ]
        },
        "a loop of extended loads/stores and atomics",
    )
}

/// A loop of 16 ops (the sampling period, 1 more than a multiple of 8, walks through them):
/// SVE data-processing ops with EVL 0b111 (with and without FP), 0b110 and 0b000, SME
/// array ops with element sizes 1111, 0000, 0101 and 1110, SVE loads and stores (contiguous and
/// gather/scatter) with EVL 0b111, 0b110 and 0b010, an ALU op, a plain load and store, and
/// the branch back ([`loop_of`]).
fn vectors_loop() -> Result<spe_stim::Workload, String> {
    use spe_defs::packet::subclass::{
        sme_array, with_evl, LDST_GP, LDST_ST, LDST_SVE_SME, OTHER_SVE, SVE_FP, SVE_PRED, SVE_SG,
    };
    use spe_stim::program::{StaticOp, BR_DIRECT};
    let sve = |evl: u8, fp: u8| StaticOp::other(with_evl(OTHER_SVE | SVE_PRED | fp, evl));
    let sme = |ets: u8, fp: u8| StaticOp::other(sme_array(ets, fp));
    loop_of(
        "vectors",
        0x0000_aaaa_d005_0000,
        0xffff_8000_1005_0000,
        0x0000_aaaa_e030_0000,
        |mem| {
            let ldst = |evl: u8, more: u8| StaticOp::ldst(with_evl(LDST_SVE_SME | more, evl), mem);
            vec![
                sve(0b111, 0),
                sve(0b111, SVE_FP),
                sve(0b110, 0),
                sve(0b000, SVE_FP),
                sme(0b1111, 0),
                sme(0b0000, SVE_FP),
                sme(0b0101, 0),
                sme(0b1110, SVE_FP),
                ldst(0b111, 0),
                ldst(0b111, SVE_SG | LDST_ST),
                ldst(0b110, SVE_SG),
                ldst(0b010, LDST_ST),
                StaticOp::other(0),
                StaticOp::ldst(LDST_GP, mem),
                StaticOp::ldst(LDST_GP | LDST_ST, mem),
                StaticOp::branch(BR_DIRECT),
            ]
        },
        "a loop of SVE and SME ops at every vector length the record treats apart",
    )
}

/// A loop of 8 ops with an NV2 load and an NV2 store (FEAT_NV2: an MRS or MSR turned into
/// an access of the VNCR_EL2 page) beside a plain load and store, ALU ops and the branch
/// back ([`loop_of`]).
fn nv2_loop() -> Result<spe_stim::Workload, String> {
    use spe_defs::packet::subclass::{LDST_GP, LDST_NV2_SYSREG, LDST_ST};
    use spe_stim::program::{StaticOp, BR_DIRECT};
    loop_of(
        "nv2",
        0x0000_aaaa_d004_0000,
        0xffff_8000_1004_0000,
        0x0000_aaaa_e020_0000,
        |mem| {
            vec![
                StaticOp::ldst(LDST_NV2_SYSREG, mem),
                StaticOp::ldst(LDST_GP, mem),
                StaticOp::ldst(LDST_NV2_SYSREG | LDST_ST, mem),
                StaticOp::ldst(LDST_GP | LDST_ST, mem),
                StaticOp::other(0),
                StaticOp::other(0),
                StaticOp::other(0),
                StaticOp::branch(BR_DIRECT),
            ]
        },
        "a loop with NV2 loads and stores",
    )
}

/// What became of one mutant.
#[derive(Clone)]
enum Fate {
    /// Killed by the recording of this name.
    Killed(String),
    Survived,
    /// Did not build (reason).
    Stillborn(String),
}

/// Runs `bin` over every recording until one differs from its reference fold.
fn judge(bin: &Path, recs: &[(String, PathBuf, u64)]) -> Result<Fate, String> {
    for (name, vectors, want) in recs {
        if run_harness(bin, vectors)?.checksum != *want {
            return Ok(Fate::Killed(name.clone()));
        }
    }
    Ok(Fate::Survived)
}

/// One mutant's fate: `s` applied to a copy of the preset's Verilog in `mdir`, built into
/// the raw harness and replayed on every recording.
fn mutant_fate(
    a: &Options,
    cfg: &Config,
    l: &Layout,
    files: &[(String, String)],
    s: &Site,
    mdir: &Path,
    recs: &[(String, PathBuf, u64)],
) -> Result<Fate, String> {
    let text = &files
        .iter()
        .find(|f| f.0 == s.file)
        .expect("a site's file")
        .1;
    copy_gen(
        &a.gen,
        cfg,
        &mdir.join("gen"),
        Some((&s.file, &apply(text, s))),
    )?;
    match build_harness(cfg, l, &mdir.join("gen"), mdir, &a.dir, &MUTANT_BUILD) {
        Ok(bin) => judge(&bin, recs),
        Err(e) => Ok(Fate::Stillborn(e.lines().next().unwrap_or("").to_string())),
    }
}

pub fn run(a: &Options) -> Result<std::process::ExitCode, String> {
    let cfg: &'static Config = Config::preset_named(&a.preset)?;
    // Every option is checked before the recordings and builds, not after them.
    if cfg.threads != 1 {
        let one: Vec<&str> = spe_defs::PRESETS
            .iter()
            .filter(|c| c.threads == 1)
            .map(|c| c.name)
            .collect();
        return Err(format!(
            "spe mutate mutates one-thread units: preset {} has {} threads (one of: {})",
            cfg.name,
            cfg.threads,
            one.join(", ")
        ));
    }
    if let Some(r) = a.require {
        if !(0.0..=100.0).contains(&r) {
            return Err(format!("--require {r}: a percentage, 0 to 100"));
        }
    }
    if a.sample == 0 && a.only.is_empty() && !a.list {
        return Err("--sample 0 draws no mutant: give at least 1, or --only SITE".into());
    }
    spe_cosim::check_gen(&a.gen, cfg.name)?;
    let l = Layout::new(cfg)?;
    let files = preset_files(&a.gen, cfg)?;
    let mut all = Vec::new();
    for (name, text) in &files {
        all.extend(sites(name, text));
    }
    // A known equivalent names one site: its line's text with its change at its column
    // must be on exactly one line of its file (else it could cover a mutant that is not
    // equivalent).
    for e in &a.equivalent {
        if let Some((_, t)) = files.iter().find(|(n, _)| *n == e.file) {
            let n = t
                .lines()
                .filter(|l| {
                    l.trim() == e.text
                        && l.get(e.col.saturating_sub(1)..)
                            .is_some_and(|r| r.starts_with(&e.from))
                })
                .count();
            if n > 1 {
                return Err(format!(
                    "--equivalent: {}@{}: its line's text is on {n} lines of the file with '{}' at that column: name a unique site",
                    e.file, e.col, e.from
                ));
            }
        }
    }
    if a.list {
        for s in &all {
            println!("{s}");
        }
        println!(
            "{} sites in {} files of {}",
            all.len(),
            files.len(),
            a.gen.join(cfg.name).display()
        );
        return Ok(std::process::ExitCode::SUCCESS);
    }
    if all.is_empty() {
        return Err(format!(
            "no mutation site in {}",
            a.gen.join(cfg.name).display()
        ));
    }
    // The draw: `sample` distinct sites (all of them when fewer).
    let mut rng = Rng::derive(a.seed, 0x3a7e);
    let mut idx: Vec<usize> = (0..all.len()).collect();
    for k in (1..idx.len()).rev() {
        idx.swap(k, rng.below(k as u64 + 1) as usize);
    }
    idx.truncate(a.sample.min(all.len()));
    if !a.only.is_empty() {
        idx = Vec::new();
        for o in &a.only {
            let k = all
                .iter()
                .position(|s| format!("{}:{}:{}", s.file, s.line + 1, s.col + 1) == *o)
                .ok_or_else(|| format!("--only {o}: no such site (see --list)"))?;
            idx.push(k);
        }
    }
    idx.sort_unstable();
    // A site named twice by --only runs once (each mutant has its own folder).
    idx.dedup();
    let dir = a.dir.join(cfg.name);
    println!(
        "spe mutate: preset {}, {} of {} sites, seed {:#x}; regression of {} cycles in jobs of {}",
        cfg.name,
        idx.len(),
        all.len(),
        a.seed,
        a.cycles,
        a.job_cycles
    );

    // The recordings and their reference folds (the golden model's outputs).
    let jobs = plan_jobs(a.seed, a.cycles as u64, a.job_cycles as u64, &[cfg]);
    let mut recs = Vec::new();
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for (k, job) in jobs.iter().enumerate() {
        let plan = JobPlan::new(job);
        let rec = Recorder {
            inner: make_dut(cfg, Backend::Model)?,
            log: Vec::new(),
        };
        let mut chaos = Chaos::new(
            rec,
            cfg,
            plan.chaos,
            job.seed,
            spe_bench::run::RESET_CYCLES,
            spe_bench::run::RESET_CYCLES + job.cycles,
        );
        spe_bench::run(
            &mut chaos,
            cfg,
            &plan.workload,
            &plan.settings,
            &plan.memory,
            job.cycles,
            job.seed,
            &mut |_, _| {},
        )?;
        let log = std::mem::take(&mut chaos.inner.log);
        let want = replay("the model", cfg, Backend::Model, &log, &l, 0)?.checksum;
        let path = dir.join(format!("job{k}.vec"));
        write_vectors(&path, &l, &log)?;
        println!("  job {k}: {} ({} cycles)", job.spec(), log.len());
        recs.push((format!("job {k}"), path, want));
    }

    // Directed runs: what the short jobs rarely reach.
    for (k, d) in directed(cfg)?.into_iter().enumerate() {
        let seed = Rng::derive(a.seed, 0xd1 + k as u64).next_u64();
        let mut dut = Directing {
            inner: Recorder {
                inner: make_dut(cfg, Backend::Model)?,
                log: Vec::new(),
            },
            p: d.ptr_rewrites,
            rng: Rng::derive(seed, 0x9b7),
            last_slot: 0,
            slot: cfg.record_size() as u64,
            limit: d.to_limit.then(|| d.settings.limit()),
            stop_p: d.stop_writes,
            mid_record: false,
            cycle: 0,
            stall_from: d.stall_from,
            odd_payloads: d.odd_payloads,
        };
        spe_bench::run(
            &mut dut,
            cfg,
            &d.workload,
            &d.settings,
            &d.memory,
            d.cycles,
            seed,
            &mut |_, _| {},
        )?;
        let (rec, name) = (dut.inner, d.name);
        let want = replay("the model", cfg, Backend::Model, &rec.log, &l, 0)?.checksum;
        let path = dir.join(format!("{name}.vec"));
        write_vectors(&path, &l, &rec.log)?;
        println!(
            "  directed {name}: seed {seed:#x} ({} cycles)",
            rec.log.len()
        );
        recs.push((name.to_string(), path, want));
    }

    // The unmutated Verilog must reproduce the model on every job.
    let clean = dir.join("clean");
    copy_gen(&a.gen, cfg, &clean.join("gen"), None)?;
    let bin = build_harness(cfg, &l, &clean.join("gen"), &clean, &a.dir, &MUTANT_BUILD)?;
    if let Fate::Killed(k) = judge(&bin, &recs)? {
        return Err(format!(
            "the unmutated Verilog of {} differs from the golden model on {k}: \
             the mutation flow is broken (or gen/ is stale)",
            cfg.name
        ));
    }
    println!("  unmutated: matches the model on every job");

    // The mutants, `jobs` at a time: each is copied, built (Verilator and one g++) and
    // replayed on its own; a line per mutant as it ends, the verdicts kept in draw order.
    let next = AtomicUsize::new(0);
    let ended = AtomicUsize::new(0);
    let fates: Mutex<Vec<Option<Fate>>> = Mutex::new(vec![None; idx.len()]);
    let failure: Mutex<Option<String>> = Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..a.jobs.clamp(1, idx.len().max(1)) {
            s.spawn(|| loop {
                let n = next.fetch_add(1, Ordering::SeqCst);
                let Some(&i) = idx.get(n) else { break };
                if failure.lock().expect("no panic holding it").is_some() {
                    break;
                }
                let s = &all[i];
                let mdir = dir.join(format!("m{i}"));
                match mutant_fate(a, cfg, &l, &files, s, &mdir, &recs) {
                    Ok(fate) => {
                        let verdict = match &fate {
                            Fate::Killed(k) => format!("killed ({k})"),
                            Fate::Survived => "SURVIVED".to_string(),
                            Fate::Stillborn(e) => format!("did not build: {e}"),
                        };
                        let k = ended.fetch_add(1, Ordering::SeqCst) + 1;
                        println!("  [{k}/{}] {s}: {verdict}", idx.len());
                        fates.lock().expect("no panic holding it")[n] = Some(fate);
                    }
                    Err(e) => {
                        // The first error is reported; the mutant's folder is kept for it.
                        failure
                            .lock()
                            .expect("no panic holding it")
                            .get_or_insert(e);
                        break;
                    }
                }
                let _ = std::fs::remove_dir_all(&mdir);
            });
        }
    });
    if let Some(e) = failure.into_inner().expect("no panic holding it") {
        return Err(e);
    }
    let (mut killed, mut built) = (0usize, 0usize);
    let (mut survivors, mut stillborn, mut equivalent) = (Vec::new(), Vec::new(), Vec::new());
    let mut wrong = Vec::new();
    let line_of = |s: &Site| {
        files
            .iter()
            .find(|(n, _)| *n == s.file)
            .and_then(|(_, t)| t.lines().nth(s.line))
            .unwrap_or("")
    };
    for (&i, fate) in idx
        .iter()
        .zip(fates.into_inner().expect("no panic holding it"))
    {
        let s = &all[i];
        let known = a.equivalent.iter().any(|e| e.is(s, line_of(s)));
        match fate.expect("every drawn mutant ran") {
            Fate::Killed(_) if known => wrong.push(s.clone()),
            Fate::Killed(_) => {
                killed += 1;
                built += 1;
            }
            Fate::Survived if known => equivalent.push(s.clone()),
            Fate::Survived => {
                built += 1;
                survivors.push(s.clone());
            }
            Fate::Stillborn(_) => stillborn.push(s.clone()),
        }
    }
    let rate = if built == 0 {
        0.0
    } else {
        100.0 * killed as f64 / built as f64
    };
    println!();
    println!(
        "kill rate {killed}/{built} = {rate:.1}% ({} survived, {} did not build{})",
        survivors.len(),
        stillborn.len(),
        if a.equivalent.is_empty() {
            String::new()
        } else {
            format!(", {} known equivalent not counted", equivalent.len())
        }
    );
    for s in &survivors {
        println!("survivor: {s}");
    }
    for s in &equivalent {
        println!("known equivalent: {s}");
    }
    if !wrong.is_empty() {
        for s in &wrong {
            eprintln!(
                "spe mutate: {s} is listed as equivalent but was killed: remove it from the list"
            );
        }
        return Ok(std::process::ExitCode::from(1));
    }
    if let Some(req) = a.require {
        if rate < req {
            eprintln!("spe mutate: kill rate {rate:.1}% is below the required {req}%");
            return Ok(std::process::ExitCode::from(1));
        }
    }
    Ok(std::process::ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_known_equivalent_is_named_by_its_line_text_not_its_line_number() {
        let list = "# the retired flag's clear in Idle: rewritten by the completion\n\
                    spe_tracker_default.v@36 '1'b0' -> '1'b1' in: s_rep__d[(204)+:(1)] = 1'b0;\n";
        let e = Equivalent::parse_list(list).unwrap();
        assert_eq!(e.len(), 1);
        let site = |line, col: usize, to: &str| Site {
            file: "spe_tracker_default.v".into(),
            line,
            col: col - 1,
            from: "1'b0".into(),
            to: to.into(),
        };
        let text = "            s_rep__d[(204)+:(1)] = 1'b0;";
        // Any line number, the same text, column and change: known.
        assert!(e[0].is(&site(230, 36, "1'b1"), text));
        assert!(e[0].is(&site(7, 36, "1'b1"), text));
        // Another line's text, column or change: not known.
        assert!(!e[0].is(&site(230, 36, "1'b1"), "s_rep__d[(205)+:(1)] = 1'b0;"));
        assert!(!e[0].is(&site(230, 35, "1'b1"), text));
        assert!(!e[0].is(&site(230, 36, "1'b0"), text));
        assert!(Equivalent::parse_list("spe_x.v 36 '1' -> '0' in: x").is_err());
    }

    fn tos(file: &str) -> Vec<(String, String)> {
        sites("f.v", file)
            .into_iter()
            .map(|s| (s.from, s.to))
            .collect()
    }

    #[test]
    fn sites_are_operators_and_sized_constants_of_combinational_logic_only() {
        let v = "module m(a);\n    localparam  k_one = 4'h7;\n    localparam X__Y = 2;\n\
                 \x20   always @(*) begin\n\
                 \x20       x = (a[(3)+:(2)] & b) == k_zero;\n\
                 \x20       if (c | ~d) begin\n\
                 \x20           y = e >= f + 1'b1;\n\
                 \x20       end\n\
                 \x20   end\n\
                 \x20   assign z = a & b;\nendmodule\n";
        assert_eq!(
            tos(v),
            [
                ("4'h7", "4'h8"),
                ("&", "|"),
                ("==", "!="),
                ("|", "&"),
                ("~", ""),
                (">=", ">"),
                ("+", "-"),
                ("1'b1", "1'b0"),
            ]
            .map(|(a, b)| (a.to_string(), b.to_string()))
        );
        // Applying one changes exactly that text.
        let s = sites("f.v", v);
        let m = apply(v, &s[1]);
        assert!(m.contains("x = (a[(3)+:(2)] | b) == k_zero;"));
        assert_eq!(m.len(), v.len());
        let m = apply(v, &s[4]);
        assert!(m.contains("if (c | d) begin"));
    }

    #[test]
    fn every_site_of_the_generated_verilog_applies() {
        let cfg = Config::preset("default").unwrap();
        let gen = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../gen");
        let files = preset_files(&gen, cfg).unwrap();
        let mut n = 0;
        for (name, text) in &files {
            for s in sites(name, text) {
                let m = apply(text, &s);
                assert_ne!(&m, text, "{s}");
                n += 1;
            }
        }
        assert!(n > 500, "{n} sites");
    }
}
