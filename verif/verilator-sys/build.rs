//! Verilates `gen/<preset>/` for every preset in two variants (fast, `--trace`), plus a third
//! (`--coverage-line --coverage-toggle`) with the `coverage` feature, generates a C ABI shim over all of them, and
//! compiles the models, the shim and the Verilator runtime at -O2 (the models' `*_SLOW`
//! files, code that runs once, at -O0 like Verilator's `OPT_SLOW`) into one static library;
//! each model's files are compiled as two translation units, its fast and its slow ones.
//!
//! Facts this relies on (docs/toolchain.md, "Verilator 5.006 from Rust"):
//! * find Verilator through `$VERILATOR` or PATH, require 5.x, read the root from
//!   `verilator --getenv VERILATOR_ROOT`, never export `VERILATOR_ROOT`;
//! * in library mode 5.006 does not build the runtime: compile the files listed in
//!   `<P>_classes.mk` plus `verilated.cpp` and `verilated_threads.cpp` (and
//!   `verilated_vcd_c.cpp`, `verilated_cov.cpp`) ourselves, always at -O2;
//! * `<P>__ver.d` names every input of a model: those drive `rerun-if-changed`.

use spe_defs::config::GEN_FILE_LIST;
use spe_defs::ports::{ports_of, Dir};
use spe_defs::PRESETS;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The variants built for every preset, with their Verilator switches.
const VARIANTS: &[(&str, &[&str])] = &[
    ("fast", &[]),
    ("trace", &["--trace"]),
    ("cov", &["--coverage-line", "--coverage-toggle"]),
];

/// A preset by name.
fn cfg(preset: &str) -> &'static spe_defs::Config {
    spe_defs::Config::preset(preset).unwrap_or_else(|| fail(&format!("no preset {preset}")))
}

/// The top module of a preset, by the preset's name.
fn cfg_top(preset: &str) -> String {
    cfg(preset).top_module()
}

fn fail(msg: &str) -> ! {
    eprintln!("\nerror: verilator-sys: {msg}\n");
    std::process::exit(1);
}

const INSTALL_HINT: &str = "Install Verilator 5 (Debian/Ubuntu: `sudo apt-get install verilator`; \
     `bash scripts/test.sh` does this when it is missing) or point $VERILATOR at a 5.x \
     `verilator` executable. Do not export VERILATOR_ROOT with Debian's package.";

/// The Verilator executable: `$VERILATOR`, else `verilator` on PATH; checked to be 5.x.
fn find_verilator() -> (PathBuf, String) {
    let exe = match std::env::var_os("VERILATOR") {
        Some(v) => PathBuf::from(v),
        None => {
            let path = std::env::var_os("PATH").unwrap_or_default();
            match std::env::split_paths(&path)
                .map(|d| d.join("verilator"))
                .find(|p| p.is_file())
            {
                Some(p) => p,
                None => fail(&format!(
                    "Verilator was not found ($VERILATOR is unset and no `verilator` on PATH).\n{INSTALL_HINT}"
                )),
            }
        }
    };
    let out = Command::new(&exe)
        .arg("--version")
        .env_remove("VERILATOR_ROOT")
        .output()
        .unwrap_or_else(|e| {
            fail(&format!(
                "cannot run {} --version: {e}.\n{INSTALL_HINT}",
                exe.display()
            ))
        });
    let text = String::from_utf8_lossy(&out.stdout).trim().to_string();
    // "Verilator 5.006 2023-01-22 rev (Debian 5.006-3)"
    let version = text.split_whitespace().nth(1).unwrap_or("").to_string();
    let major = version
        .split('.')
        .next()
        .and_then(|m| m.parse::<u32>().ok());
    if !out.status.success() || major != Some(5) {
        fail(&format!(
            "{} reports {text:?}; verilator-sys needs Verilator 5.x (tested with 5.006).\n{INSTALL_HINT}",
            exe.display()
        ));
    }
    (exe, version)
}

fn run(cmd: &mut Command, what: &str) -> String {
    let out = cmd
        .env_remove("VERILATOR_ROOT")
        .output()
        .unwrap_or_else(|e| fail(&format!("cannot run {what}: {e}")));
    if !out.status.success() {
        fail(&format!(
            "{what} failed ({}):\n{}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The file stems of one list (`VM_CLASSES_FAST += \ a \ b`) in `<P>_classes.mk`.
fn mk_list(mk: &str, var: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut on = false;
    for line in mk.lines() {
        let t = line.trim();
        if t.starts_with(var) && t.contains("+=") {
            on = true;
            continue;
        }
        if on {
            let name = t.trim_end_matches('\\').trim();
            if name.is_empty() {
                on = false;
            } else {
                out.push(name.to_string());
            }
        }
    }
    out
}

/// Collects the models: verilates each, adds its C++ to the build, its class to the shim
/// and its row to the Rust table.
struct Models<'a> {
    exe: PathBuf,
    out_dir: PathBuf,
    build: &'a mut cc::Build,
    /// The models' `*_SLOW` files (construction, initial blocks, the first full trace dump:
    /// code that runs once), compiled at -O0 as Verilator's own makefiles compile them
    /// without optimisation by default (`OPT_SLOW`).
    slow: &'a mut cc::Build,
    shim: &'a mut String,
    table: &'a mut String,
    cases: String,
    id: u32,
}

/// One Verilated model: its class prefix, top module, Verilator arguments naming its
/// sources, the ports its shim exposes (in index order) and its variant.
struct Spec<'s> {
    prefix: String,
    top: String,
    sources: Vec<std::ffi::OsString>,
    ports: Vec<&'s str>,
    /// The ports as lanes, in `ports_of` order (name, direction, lanes, bits of a lane):
    /// the shim's `set_lanes` / `get_outputs` for the SPE models; empty for the SoC.
    lanes: Vec<(&'s str, Dir, usize, u32)>,
    variant: &'s str,
    switches: &'s [&'s str],
    /// Rebuild when its sources change (not for mutants, which are copies).
    track: bool,
}

impl Models<'_> {
    /// A model of `spe_top_<preset>` (or of a mutant of it), with its row in the table.
    fn add(
        &mut self,
        files_f: &Path,
        preset: &str,
        variant: &str,
        switches: &[&str],
        mutant: Option<&str>,
    ) {
        let prefix = match mutant {
            None => format!("V{preset}_{variant}"),
            Some(m) => format!("Vmut_{}", m.replace('-', "_")),
        };
        let id = self.verilate(Spec {
            prefix,
            top: cfg_top(preset),
            sources: vec!["-F".into(), files_f.into()],
            ports: std::iter::once("clk")
                .chain(ports_of(cfg(preset)).map(|p| p.name))
                .collect(),
            lanes: ports_of(cfg(preset))
                .map(|p| {
                    let c = cfg(preset);
                    let (n, b) = p.width.lanes_for(c.dispatch_width, c.threads);
                    (p.name, p.dir, n, b)
                })
                .collect(),
            variant,
            switches,
            track: mutant.is_none(),
        });
        let _ = writeln!(
            self.table,
            "    ModelInfo {{ id: {id}, preset: {:?}, variant: Variant::{}, mutant: {:?} }},",
            preset,
            match variant {
                "fast" => "Fast",
                "trace" => "Trace",
                _ => "Coverage",
            },
            mutant
        );
    }

    /// Verilates one model, adds its C++ to the build and its class to the shim; returns
    /// its id for `vsys_new`.
    fn verilate(&mut self, m: Spec) -> u32 {
        let (build, shim, cases, id) =
            (&mut *self.build, &mut *self.shim, &mut self.cases, self.id);
        let prefix = &m.prefix;
        let mdir = self.out_dir.join("verilated").join(prefix);
        let _ = std::fs::remove_dir_all(&mdir);
        std::fs::create_dir_all(&mdir).unwrap();
        run(
            Command::new(&self.exe)
                .args(["--cc", "--no-timing", "-MMD", "-O3"])
                .args(m.switches)
                .arg("--prefix")
                .arg(prefix)
                .arg("-Mdir")
                .arg(&mdir)
                .arg("--top-module")
                .arg(&m.top)
                .args(&m.sources),
            &format!("verilator ({} {})", m.top, m.variant),
        );
        // Every input of the model (Verilog files, the Verilator binary).
        let dep =
            std::fs::read_to_string(mdir.join(format!("{prefix}__ver.d"))).unwrap_or_default();
        if let Some((_, inputs)) = dep.split_once(':') {
            for f in inputs.split_whitespace().filter(|f| *f != "\\") {
                if m.track {
                    println!("cargo:rerun-if-changed={f}");
                }
            }
        }
        let mk = std::fs::read_to_string(mdir.join(format!("{prefix}_classes.mk")))
            .unwrap_or_else(|e| fail(&format!("{prefix}_classes.mk: {e}")));
        // One translation unit per model and speed class (as Verilator's own makefile does
        // without VM_PARALLEL_BUILDS: `<prefix>__ALL.cpp`): each C++ file of a model spends
        // about 0.55 s parsing verilated.h alone, most of a small file's compile time, so
        // the model's ten or so files cost about 2.6 times as much compiled apart.
        let (mut fast_tu, mut slow_tu) = (String::new(), String::new());
        for var in [
            "VM_CLASSES_FAST",
            "VM_CLASSES_SLOW",
            "VM_SUPPORT_FAST",
            "VM_SUPPORT_SLOW",
        ] {
            let tu = if var.ends_with("_SLOW") {
                &mut slow_tu
            } else {
                &mut fast_tu
            };
            for stem in mk_list(&mk, var) {
                let _ = writeln!(tu, "#include \"{stem}.cpp\"");
            }
        }
        for (tu, class, to) in [
            (fast_tu, "fast", &mut *build),
            (slow_tu, "slow", &mut *self.slow),
        ] {
            let path = mdir.join(format!("{prefix}__ALL_{class}.cpp"));
            std::fs::write(&path, tu).unwrap_or_else(|e| fail(&format!("{}: {e}", path.display())));
            to.file(path);
        }
        build.include(&mdir);
        self.slow.include(&mdir);
        // The model's class.
        let traced = m.variant == "trace";
        let cov = m.variant == "cov";
        let _ = writeln!(shim, "#include \"{prefix}.h\"");
        let _ = writeln!(
            shim,
            "struct I_{prefix} final : Inst {{\n  std::unique_ptr<{prefix}> top;\n  \
             I_{prefix}() {{ {}top.reset(new {prefix}{{ctx.get(), \"TOP\"}}); }}\n  \
             ~I_{prefix}() override {{ close_trace(); top->final(); }}\n  \
             void eval() override {{ top->eval(); }}",
            if traced {
                "ctx->traceEverOn(true); "
            } else {
                ""
            }
        );
        let _ = writeln!(
            shim,
            "  void* port(uint32_t i) override {{\n    switch (i) {{"
        );
        for (k, p) in m.ports.iter().enumerate() {
            let _ = writeln!(shim, "      case {k}: return &top->{p};");
        }
        let _ = writeln!(shim, "      default: return nullptr;\n    }}\n  }}");
        if !m.lanes.is_empty() {
            shim.push_str(&lane_access(&m.lanes));
        }
        if traced {
            let _ = writeln!(
                shim,
                "  int open_trace(const char* path) override {{\n    close_trace();\n    \
                 vcd.reset(new VerilatedVcdC);\n    top->trace(vcd.get(), 99);\n    \
                 vcd->open(path);\n    return vcd->isOpen() ? 0 : -2;\n  }}"
            );
        }
        if cov {
            let _ = writeln!(
                shim,
                "  int write_coverage(const char* path) override {{ \
                 ctx->coveragep()->write(path); return 0; }}"
            );
        }
        let _ = writeln!(shim, "}};");
        let _ = writeln!(cases, "    case {id}: return new I_{prefix}();");
        self.id += 1;
        id
    }
}

/// A model's `set_lanes`, `get_outputs` and `cycle` overrides: every input written from one value
/// per lane (`v`, the inputs' lanes in port order, each masked to its lane's bits and
/// placed at its bits in the port, Verilator's `VlWide` words for a port above 64 bits),
/// and every output's low 64 bits read into `out` (in port order), with the widths and
/// places as constants: no per-port dispatch on the Rust side of the hot loop. `cycle` is
/// one whole clock cycle in one call: the inputs, `clk` low and evaluate, the outputs, `clk`
/// high and evaluate.
fn lane_access(lanes: &[(&str, Dir, usize, u32)]) -> String {
    let mut set = String::from("  void set_lanes(const uint64_t* v) override {\n");
    let mut get = String::from("  void get_outputs(uint64_t* out) override {\n");
    let (mut at, mut j) = (0usize, 0usize);
    for &(name, dir, n, b) in lanes {
        let total = n as u32 * b;
        if dir == Dir::Out {
            if total <= 64 {
                let _ = writeln!(get, "    out[{j}] = (uint64_t)top->{name};");
            } else {
                let _ = writeln!(
                    get,
                    "    out[{j}] = (uint64_t)top->{name}[0] | (uint64_t)top->{name}[1] << 32;"
                );
            }
            j += 1;
            continue;
        }
        let lane = |l: usize| format!("(v[{}] & {:#x}ULL)", at + l, spe_defs::low_mask(b));
        if total <= 64 {
            let terms: Vec<String> = (0..n)
                .map(|l| match l as u32 * b {
                    0 => lane(l),
                    sh => format!("{} << {sh}", lane(l)),
                })
                .collect();
            let _ = writeln!(set, "    top->{name} = {};", terms.join(" | "));
        } else {
            for k in 0..total.div_ceil(32) {
                let (lo, hi) = (32 * k, 32 * k + 32);
                let terms: Vec<String> = (0..n)
                    .filter(|&l| (l as u32 * b) < hi && (l as u32 * b + b) > lo)
                    .map(|l| {
                        let o = l as u32 * b;
                        if o >= lo {
                            format!("(uint32_t)({} << {})", lane(l), o - lo)
                        } else {
                            format!("(uint32_t)({} >> {})", lane(l), lo - o)
                        }
                    })
                    .collect();
                let _ = writeln!(set, "    top->{name}[{k}] = {};", terms.join(" | "));
            }
        }
        at += n;
    }
    set.push_str("  }\n");
    get.push_str("  }\n");
    set + &get
        + "  void cycle(const uint64_t* v, uint64_t* out) override {\n    \
           set_lanes(v);\n    top->clk = 0;\n    top->eval();\n    get_outputs(out);\n    \
           top->clk = 1;\n    top->eval();\n  }\n"
}

/// The shim drives every port of the preset (`PORTS`, and `SMT_PORTS` with more than one
/// thread): a `gen/` made from an older port list cannot compile against it. Says why not
/// (the first port whose name or width differs), for [`stale_gen`].
fn check_ports(gen: &Path, preset: &str) -> Result<(), String> {
    let c = cfg(preset);
    let top = cfg_top(preset);
    let want: Vec<(&str, u32)> = std::iter::once(("clk", 1))
        .chain(ports_of(c).map(|p| (p.name, p.width.total_for(c.dispatch_width, c.threads))))
        .collect();
    check_top(
        &gen.join(preset).join(format!("{top}.v")),
        &top,
        &want,
        "spe_defs::ports::ports_of",
    )
}

/// Whether the Verilog file `path` declares module `top` with exactly the ports `want`
/// (name and width, in order), as the shim is about to address them.
fn check_top(path: &Path, top: &str, want: &[(&str, u32)], table: &str) -> Result<(), String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let body = text
        .split(&format!("module {top}("))
        .nth(1)
        .ok_or_else(|| format!("{} has no module {top}", path.display()))?;
    let names: Vec<&str> = body
        .split(");")
        .next()
        .map(|h| h.split(',').map(str::trim).collect())
        .unwrap_or_default();
    // `input wire  [H:0] name;` (or no range: one bit), in the module's argument block.
    let width = |name: &str| -> Option<u32> {
        body.lines().find_map(|l| {
            let l = l.trim();
            let decl = l
                .strip_prefix("input ")
                .or_else(|| l.strip_prefix("output "))?;
            let decl = decl
                .trim_start_matches("wire")
                .trim_start_matches("reg")
                .trim();
            let (range, n) = match decl.strip_prefix('[') {
                Some(r) => {
                    let (r, n) = r.split_once(']')?;
                    (Some(r), n.trim())
                }
                None => (None, decl),
            };
            if n.trim_end_matches(';').trim() != name {
                return None;
            }
            match range {
                None => Some(1),
                Some(r) => r
                    .split_once(':')?
                    .0
                    .trim()
                    .parse::<u32>()
                    .ok()
                    .map(|h| h + 1),
            }
        })
    };
    let got: Vec<(&str, Option<u32>)> = names.iter().map(|n| (*n, width(n))).collect();
    for i in 0..got.len().max(want.len()) {
        let (g, w) = (got.get(i), want.get(i));
        if g.map(|g| (g.0, g.1)) != w.map(|w| (w.0, Some(w.1))) {
            return Err(format!(
                "{} does not have the ports of {table} (port {i}: {:?} in gen/, {:?} in the table)",
                path.display(),
                g,
                w
            ));
        }
    }
    Ok(())
}

/// Why `gen/` cannot be Verilated as it is (a preset's file list missing, a top whose
/// ports are not the port table's: `gen/` is older than the code), or `None`. Every file
/// it reads is watched, so the script reruns once `spe gen` has rewritten them.
fn stale_gen(gen: &Path) -> Option<String> {
    let mut why = None;
    for cfg in PRESETS {
        let files_f = gen.join(cfg.name).join(GEN_FILE_LIST);
        let top = gen.join(cfg.name).join(format!("{}.v", cfg.top_module()));
        println!("cargo:rerun-if-changed={}", files_f.display());
        println!("cargo:rerun-if-changed={}", top.display());
        if why.is_none() {
            if !files_f.is_file() {
                why = Some(format!("{} is missing", files_f.display()));
            } else if let Err(e) = check_ports(gen, cfg.name) {
                why = Some(e);
            }
        }
    }
    // Each regression mutant's site must be in its preset's Verilog once (or its change
    // already made): a site the RTL of gen/ lacks means gen/ predates the mutant table.
    for m in spe_defs::mutants::MUTANTS
        .iter()
        .filter(|m| m.regress_cycles.is_some())
    {
        let target = gen.join(m.preset).join(m.file_for(m.preset));
        println!("cargo:rerun-if-changed={}", target.display());
        let text = std::fs::read_to_string(&target).unwrap_or_default();
        if why.is_none() && mutant_site(&text, m).is_none() {
            why = Some(format!(
                "mutant {}: {:?} does not occur once in {} (gen/ is older than the mutant table, or the RTL changed: then update MUTANTS in hdl/defs/src/mutants.rs)",
                m.name,
                m.from,
                target.display()
            ));
        }
    }
    let soc_ports: Vec<(&str, u32)> = spe_defs::soc::SOC_PORTS
        .iter()
        .map(|p| (p.name, p.bits))
        .collect();
    for core in spe_defs::soc::Core::ALL {
        let files_f = gen.join(core.gen_dir()).join(GEN_FILE_LIST);
        let top = gen.join(core.gen_dir()).join("spe_soc.v");
        println!("cargo:rerun-if-changed={}", files_f.display());
        println!("cargo:rerun-if-changed={}", top.display());
        if why.is_none() {
            if !files_f.is_file() {
                why = Some(format!("{} is missing", files_f.display()));
            } else if let Err(e) =
                check_top(&top, "spe_soc", &soc_ports, "spe_defs::soc::SOC_PORTS")
            {
                why = Some(e);
            }
        }
    }
    why
}

/// Where regression mutant `m` breaks `text`, its Verilog: `Some(false)` when its site
/// occurs once, `Some(true)` when the RTL already carries its change (someone broke it the
/// same way by hand, docs/verification.md's manual check: the mutant is then the RTL
/// itself), `None` otherwise (the Verilog predates the mutant table, or the RTL moved).
fn mutant_site(text: &str, m: &spe_defs::mutants::Mutant) -> Option<bool> {
    match (text.matches(m.from).count(), text.matches(m.to).count()) {
        (1, _) => Some(false),
        (0, 1) => Some(true),
        _ => None,
    }
}

/// The model table of a library without models (`reason`: why), and a C shim whose every
/// call fails, so that the crates above still build and link: `spe` can then regenerate
/// `gen/` (`spe gen --out gen`), and the next build Verilates it.
fn no_models(out_dir: &Path, reason: &str, link: bool) {
    let rs = format!(
        "/// Verilator that built the models (none).\n\
         pub const VERILATOR_VERSION: &str = \"none\";\n\
         /// Why this binary has no Verilated models (`None`: it has them).\n\
         pub const NOT_BUILT: Option<&str> = Some({reason:?});\n\
         const SOC_MODELS: [u32; {n}] = [u32::MAX; {n}];\n\
         /// Every model built: none.\n\
         pub static MODELS: &[ModelInfo] = &[];\n",
        n = spe_defs::soc::Core::ALL.len()
    );
    std::fs::write(out_dir.join("models.rs"), rs).unwrap();
    if link {
        let stub = out_dir.join("vsys_stub.c");
        std::fs::write(
            &stub,
            "/* verilator-sys without models (gen/ was stale): every call fails. */\n\
             #include <stdint.h>\n#include <stddef.h>\n\
             void* vsys_new(uint32_t m) { (void)m; return NULL; }\n\
             void vsys_delete(void* h) { (void)h; }\n\
             void vsys_eval(void* h) { (void)h; }\n\
             void* vsys_port(void* h, uint32_t i) { (void)h; (void)i; return NULL; }\n\
             void vsys_set_lanes(void* h, const uint64_t* v) { (void)h; (void)v; }\n\
             void vsys_get_outputs(void* h, uint64_t* o) { (void)h; (void)o; }\n\
             void vsys_cycle(void* h, const uint64_t* v, uint64_t* o) { (void)h; (void)v; (void)o; }\n\
             int vsys_trace_open(void* h, const char* p) { (void)h; (void)p; return -1; }\n\
             void vsys_trace_dump(void* h, uint64_t t) { (void)h; (void)t; }\n\
             void vsys_trace_flush(void* h) { (void)h; }\n\
             void vsys_trace_close(void* h) { (void)h; }\n\
             int vsys_coverage_write(void* h, const char* p) { (void)h; (void)p; return -1; }\n",
        )
        .unwrap();
        cc::Build::new()
            .file(&stub)
            .warnings(false)
            .compile("spe_verilated");
    }
}

/// Set for a `cargo clippy` / `cargo check` run (`scripts/check.sh`): the build script writes
/// an empty model table and builds no model, since nothing is linked.
const CHECK_ONLY_ENV: &str = "SPE_VSYS_CHECK_ONLY";

fn main() {
    // Cargo reruns this script when a file it watches is newer than the script's last run:
    // a watched file this run writes (the bind file) or installs (the cores' Verilog) is
    // dated `before` it ([`date_before`]).
    let before = std::time::SystemTime::now() - std::time::Duration::from_secs(60);
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let gen_dir = manifest.join("../../gen");
    let gen = gen_dir.canonicalize();
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=VERILATOR");
    println!("cargo:rerun-if-env-changed={CHECK_ONLY_ENV}");
    if std::env::var_os(CHECK_ONLY_ENV).is_some() {
        // `cargo clippy` and `cargo check` link nothing: the Rust side needs the model
        // table's types, not the models. Without this, the quick gate's clippy (dev
        // profile) Verilated and compiled every model a second time beside the release
        // build of its tests. Any build without the variable reruns this script in full.
        no_models(
            &out_dir,
            &format!("{CHECK_ONLY_ENV} was set (a cargo clippy or check build)"),
            false,
        );
        return;
    }
    let stale = match &gen {
        Ok(g) => stale_gen(g),
        Err(e) => {
            println!("cargo:rerun-if-changed={}", gen_dir.display());
            Some(format!("{} is missing ({e})", gen_dir.display()))
        }
    };
    if let Some(why) = stale {
        // `spe` links this crate, and `spe gen` writes gen/: with no models rather than
        // no build, `spe` still builds to regenerate it (one generator binary, no loop).
        println!("cargo:warning=gen/ is stale ({why}): building without Verilated models; run `spe gen --out gen` (cargo run --release --bin spe -- gen --out gen) and build again");
        no_models(
            &out_dir,
            &format!(
                "gen/ was stale when it was built ({why}); run `spe gen --out gen` and build again"
            ),
            true,
        );
        return;
    }
    let gen = gen.expect("checked by the stale test above");

    let (exe, version) = find_verilator();
    let root = run(
        Command::new(&exe).args(["--getenv", "VERILATOR_ROOT"]),
        "verilator --getenv VERILATOR_ROOT",
    )
    .trim()
    .to_string();
    let inc = Path::new(&root).join("include");
    if !inc.join("verilated.cpp").is_file() {
        fail(&format!(
            "Verilator's runtime sources are not in {} ({} {version}).\n{INSTALL_HINT}",
            inc.display(),
            exe.display()
        ));
    }

    let base = |opt: u32| {
        let mut b = cc::Build::new();
        b.cpp(true)
            .opt_level(opt)
            .debug(false)
            .warnings(false)
            .flag("-w")
            .flag_if_supported("-faligned-new")
            .flag_if_supported("-fcf-protection=none")
            .define("VM_SC", "0")
            .include(&inc)
            .include(inc.join("vltstd"));
        b
    };
    let mut build = base(2);
    let mut slow = base(0);
    for f in [
        "verilated.cpp",
        "verilated_threads.cpp",
        "verilated_vcd_c.cpp",
        "verilated_cov.cpp",
    ] {
        build.file(inc.join(f));
    }

    // One shim over every model: a C++ class per model behind a common interface.
    let mut shim = String::new();
    let mut table = String::new();
    shim.push_str(
        "// Generated by verif/verilator-sys/build.rs: C ABI over the Verilated models of gen/.\n\
         #include <cstdint>\n#include <memory>\n#include \"verilated.h\"\n\
         #include \"verilated_vcd_c.h\"\n#include \"verilated_cov.h\"\n",
    );
    let mut models = Models {
        exe: exe.clone(),
        out_dir: out_dir.clone(),
        build: &mut build,
        slow: &mut slow,
        shim: &mut shim,
        table: &mut table,
        cases: String::new(),
        id: 0,
    };
    // The coverage models are ~25x larger C++ (toggle coverage of every bit): only with the
    // `coverage` feature.
    let coverage = std::env::var_os("CARGO_FEATURE_COVERAGE").is_some();
    let variants = VARIANTS.iter().filter(|(v, _)| coverage || *v != "cov");
    for cfg in PRESETS {
        let files_f = gen.join(cfg.name).join(GEN_FILE_LIST);
        // The source list and (from `__ver.d`) every Verilog file it names: the build
        // reruns exactly when one of them changes, not for gen/'s Markdown.
        println!("cargo:rerun-if-changed={}", files_f.display());
        for (variant, switches) in variants.clone() {
            models.add(&files_f, cfg.name, variant, switches, None);
        }
    }
    // The demo SoCs (gen/soc: PicoRV32; gen/soc_vexriscv: VexRiscv Lite), each core from
    // its pinned PyPI package.
    let repo = manifest.join("../..");
    // The SystemVerilog protocol checker bound to the unit (`.*`, W = 1): a violation
    // prints "SPE protocol: rule <key>: ..." (STOP_ON_ERROR = 0); `--assert` turns its
    // immediate assertions on.
    let checker = repo.join("hdl/sv/spe_protocol_checker.sv");
    println!("cargo:rerun-if-changed={}", checker.display());
    let bind = out_dir.join("spe_soc_protocol_bind.sv");
    // Written only when its text changes: the Verilated model depends on it, so a new
    // modification time alone would rebuild both SoCs on every build.
    write_if_changed(
        &bind,
        &format!(
            "// Generated by verilator-sys's build script: the protocol checker on the SoC's unit.\n\
             bind spe_top_{preset} spe_protocol_checker #(.W({w}), .STOP_ON_ERROR(0)) u_spe_protocol (.*);\n",
            preset = spe_defs::soc::SOC_PRESET,
            w = spe_defs::soc::SOC_W
        ),
        before,
    );
    let mut soc_ids = Vec::new();
    for core in spe_defs::soc::Core::ALL {
        use spe_defs::soc::Core;
        let (package, version) = core.package();
        let (core_v, installed) = spe_defs::soc::ensure_core(&repo, core)
            .unwrap_or_else(|e| fail(&format!("the SoC needs {}: {e}", core.name())));
        if installed {
            println!("cargo:warning=installed {package} {version} into .deps/python");
        }
        // The file is an input of the SoC's model (rerun-if-changed, from __ver.d). A
        // project-local copy installed during this run (by this core's install or by an
        // earlier core's from the same package) would be newer than the run and make the
        // next cargo command rerun the script and rebuild every model (a fresh clone's
        // `cargo build` after `cargo test` took 230 s for that): date it before the run.
        let fresh = std::fs::metadata(&core_v)
            .and_then(|m| m.modified())
            .is_ok_and(|t| t > before);
        if fresh && std::env::var_os(core.env_var()).is_none() {
            date_before(&core_v, before);
        }
        println!("cargo:rerun-if-env-changed={}", core.env_var());
        let soc_f = gen.join(core.gen_dir()).join(GEN_FILE_LIST);
        println!("cargo:rerun-if-changed={}", soc_f.display());
        // PicoRV32's RVFI port needs RISCV_FORMAL; the cores' own code and the SoC's zero
        // extensions draw width and pin warnings, which are not errors here.
        let mut sources: Vec<std::ffi::OsString> = Vec::new();
        if core == Core::Picorv32 {
            sources.push("-DRISCV_FORMAL".into());
        }
        sources.extend(
            ["-Wno-fatal", "-Wno-lint", "-Wno-style", "-F"]
                .iter()
                .map(|s| std::ffi::OsString::from(*s)),
        );
        sources.push(soc_f.into());
        sources.push(core_v.into());
        sources.push("--assert".into());
        sources.push(checker.clone().into());
        sources.push(bind.clone().into());
        let prefix = match core {
            Core::Picorv32 => "Vsoc_fast".to_string(),
            Core::Vexriscv => "Vsoc_vexriscv".to_string(),
            Core::VexriscvFull => "Vsoc_vexriscv_full".to_string(),
        };
        soc_ids.push(models.verilate(Spec {
            prefix,
            top: "spe_soc".into(),
            sources,
            ports: spe_defs::soc::SOC_PORTS.iter().map(|p| p.name).collect(),
            lanes: Vec::new(),
            variant: "fast",
            switches: &[],
            track: true,
        }));
    }
    // Mutants: a copy of one preset's gen/ with one deliberate bug each, those of
    // spe_defs::mutants (the one table of formal and regression mutants) that the
    // regression must catch.
    for m in spe_defs::mutants::MUTANTS
        .iter()
        .filter(|m| m.regress_cycles.is_some())
    {
        let dir = out_dir.join("mutants").join(m.name);
        let pdir = dir.join(m.preset);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&pdir).unwrap();
        std::fs::copy(gen.join("spe_rff.v"), dir.join("spe_rff.v")).unwrap();
        for e in std::fs::read_dir(gen.join(m.preset)).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), pdir.join(e.file_name())).unwrap();
        }
        let file = m.file_for(m.preset);
        let target = pdir.join(&file);
        let text = std::fs::read_to_string(&target)
            .unwrap_or_else(|e| fail(&format!("mutant {}: {}: {e}", m.name, target.display())));
        // `stale_gen` found every site; this only fails if gen/ changed during the build.
        match mutant_site(&text, m) {
            Some(false) => {}
            Some(true) => println!(
                "cargo:warning=gen/{}/{file} already contains mutant {}'s change {:?}",
                m.preset, m.name, m.to
            ),
            None => fail(&format!(
                "mutant {}: {:?} must occur exactly once in gen/{}/{file} (the RTL changed: update MUTANTS in hdl/defs/src/mutants.rs)",
                m.name, m.from, m.preset
            )),
        }
        std::fs::write(&target, text.replace(m.from, m.to)).unwrap();
        models.add(
            &pdir.join(GEN_FILE_LIST),
            m.preset,
            "fast",
            &[],
            Some(m.name),
        );
    }
    let cases = std::mem::take(&mut models.cases);
    let header = r#"
struct Inst {
  std::unique_ptr<VerilatedContext> ctx{new VerilatedContext};
  std::unique_ptr<VerilatedVcdC> vcd;
  Inst() { ctx->fatalOnError(false); }
  virtual ~Inst() {}
  virtual void eval() = 0;
  virtual void* port(uint32_t i) = 0;
  virtual void set_lanes(const uint64_t*) {}
  virtual void get_outputs(uint64_t*) {}
  virtual void cycle(const uint64_t*, uint64_t*) {}
  virtual int open_trace(const char*) { return -1; }
  virtual int write_coverage(const char*) { return -1; }
  void close_trace() { if (vcd) { vcd->close(); vcd.reset(); } }
};
"#;
    // The header must precede the model classes.
    let first_model = shim.find("#include \"V").unwrap_or(shim.len());
    shim.insert_str(first_model, header);
    let _ = writeln!(
        shim,
        r#"
extern "C" {{
void* vsys_new(uint32_t model) {{
  switch (model) {{
{cases}    default: return nullptr;
  }}
}}
void vsys_delete(void* h) {{ delete static_cast<Inst*>(h); }}
void vsys_eval(void* h) {{ static_cast<Inst*>(h)->eval(); }}
void* vsys_port(void* h, uint32_t i) {{ return static_cast<Inst*>(h)->port(i); }}
void vsys_set_lanes(void* h, const uint64_t* v) {{ static_cast<Inst*>(h)->set_lanes(v); }}
void vsys_get_outputs(void* h, uint64_t* out) {{ static_cast<Inst*>(h)->get_outputs(out); }}
void vsys_cycle(void* h, const uint64_t* v, uint64_t* out) {{ static_cast<Inst*>(h)->cycle(v, out); }}
int vsys_trace_open(void* h, const char* path) {{ return static_cast<Inst*>(h)->open_trace(path); }}
void vsys_trace_dump(void* h, uint64_t t) {{
  Inst* p = static_cast<Inst*>(h);
  if (p->vcd) p->vcd->dump(t);
}}
void vsys_trace_flush(void* h) {{
  Inst* p = static_cast<Inst*>(h);
  if (p->vcd) p->vcd->flush();
}}
void vsys_trace_close(void* h) {{ static_cast<Inst*>(h)->close_trace(); }}
int vsys_coverage_write(void* h, const char* path) {{ return static_cast<Inst*>(h)->write_coverage(path); }}
}}"#
    );
    let shim_path = out_dir.join("vsys_shim.cpp");
    std::fs::write(&shim_path, shim).unwrap();
    build.file(&shim_path);
    for o in slow.compile_intermediates() {
        build.object(o);
    }
    build.compile("spe_verilated");
    println!("cargo:rustc-link-lib=pthread");

    // The Rust side: the model table.
    let mut rs = String::new();
    let _ = writeln!(rs, "/// Verilator that built the models.");
    let _ = writeln!(rs, "pub const VERILATOR_VERSION: &str = {version:?};");
    let _ = writeln!(
        rs,
        "/// Why this binary has no Verilated models (`None`: it has them)."
    );
    let _ = writeln!(rs, "pub const NOT_BUILT: Option<&str> = None;");
    let _ = writeln!(
        rs,
        "/// The demo SoCs' models (`vsys_new` ids), in `Core::ALL` order."
    );
    let _ = writeln!(
        rs,
        "const SOC_MODELS: [u32; {}] = [{}];",
        soc_ids.len(),
        soc_ids
            .iter()
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    let _ = writeln!(rs, "/// Every model built: presets x variants.");
    let _ = writeln!(rs, "pub static MODELS: &[ModelInfo] = &[\n{table}];");
    std::fs::write(out_dir.join("models.rs"), rs).unwrap();
}

/// Writes `text` to `path` unless it already holds it, and dates a file it writes
/// `before` the run ([`date_before`]: a fresh clone's `cargo build` after `cargo test` took
/// 152 s for this file's new date).
fn write_if_changed(path: &Path, text: &str, before: std::time::SystemTime) {
    if std::fs::read_to_string(path).ok().as_deref() != Some(text) {
        std::fs::write(path, text).unwrap_or_else(|e| fail(&format!("{}: {e}", path.display())));
        date_before(path, before);
    }
}

/// Sets `path`'s modification time to `before`, a time before this run started: the file
/// is an input of a model (a `rerun-if-changed`), and one newer than the run would make the
/// next cargo command rerun this script and rebuild every model.
fn date_before(path: &Path, before: std::time::SystemTime) {
    std::fs::File::options()
        .write(true)
        .open(path)
        .and_then(|f| f.set_modified(before))
        .unwrap_or_else(|e| fail(&format!("{}: {e}", path.display())));
}
