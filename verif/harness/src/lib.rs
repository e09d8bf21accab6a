//! The raw C++ harness around a Verilated `gen/<preset>/` and the vector file it replays
//! (a recording of every cycle's inputs), and `spe bench sim`, which measures it.
//!
//! `spe bench sim` ([`sim`]): how fast each backend runs the same RTL on the same stimulus, against
//! what Verilator itself can do.
//!
//! One closed-loop run of a workload (stimulus, driver and memory around the lockstep pair,
//! as a regression job runs) records every cycle's inputs. The recording is then replayed,
//! open loop, through:
//!
//! * (a) a raw C++ harness around the Verilated `gen/<preset>/` (Verilator and C++ flags
//!   as `verif/verilator-sys` builds its models: `verilator --cc --no-timing -O3`, g++ `-O2`,
//!   the model's files as one translation unit, here all of them, where the library builds
//!   the run-once `*_SLOW` files apart at `-O0`),
//!   which reads the recording from a binary vector file into memory and times only the
//!   loop: set every input, `clk = 0`, eval, read every output, `clk = 1`, eval;
//! * (b) our Rust binding (`--backend verilator`), the same two evals per cycle;
//! * (c) the lockstep pair (the golden model and the Verilated RTL, every output compared);
//! * (d) the golden model alone;
//! * (e) rust-hdl's simulator, on the first `--hdlsim-cycles` cycles.
//!
//! Each backend folds every output of every cycle into one 64-bit FNV-1a checksum (the
//! outputs in `spe_defs::ports` order): (b) must give (a)'s, which proves the two ran the
//! same RTL on the same inputs, and (c), (d), (e) must give the Verilated RTL's over their
//! cycles. The harness folds inside its timed loop (it reads every output, as (b) does);
//! the Rust backends fold in a first, untimed replay. Each figure is the best of `--runs`
//! timed runs (a fresh DUT each; one for (e)), in cycles per second of one core.

use spe_bench::{MemoryProfile, SampleSettings};
use spe_cosim::{make_dut, Backend};
use spe_defs::ports::{ports_of, Dir, Port, Width};
use spe_defs::Config;
use spe_ports::{Dut, InputField, Inputs, Outputs};
use spe_stim::Workload;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// What `spe bench sim` measures, and where it builds.
pub struct SimOptions {
    /// Preset, a one-thread unit: the recording names every port lane by lane.
    pub preset: String,
    /// Workload of the recorded run.
    pub workload: String,
    /// Cycles of the recorded run (each replay runs them all).
    pub cycles: usize,
    /// Cycles replayed under rust-hdl's simulator (about 11k cycles/s).
    pub hdlsim_cycles: usize,
    /// Runs per backend; the best is reported.
    pub runs: usize,
    /// Seed of the recorded run.
    pub seed: u64,
    /// The generated Verilog (must be what the models were built from: the checksums
    /// compare it with them).
    pub gen: PathBuf,
    /// Build folder of the raw harness and its vector file.
    pub dir: PathBuf,
}

// FNV-1a over 64-bit values, and the vector file: MAGIC, the 32-bit words per cycle (u32),
// the cycles (u64), then every cycle's words, all little-endian. Shared with the harness's
// C++ (spe_gen::emit::bench_harness).
use spe_gen::emit::bench_harness::{self, HarnessInput, FNV_OFFSET, FNV_PRIME, MAGIC};

/// An input port of the unit: its source, lanes and bits per lane, and its first word.
struct InPort {
    port: &'static Port,
    field: InputField,
    lanes: usize,
    bits: u32,
    word: usize,
}

impl InPort {
    fn words(&self) -> usize {
        (self.lanes as u32 * self.bits).div_ceil(32) as usize
    }
}

/// The recording's layout: every input port of `cfg` in `ports_of` order, and the outputs'
/// places in [`Outputs::fields`] in `ports_of` order.
pub struct Layout {
    inputs: Vec<InPort>,
    words: usize,
    outputs: Vec<(&'static str, usize)>,
}

impl Layout {
    pub fn new(cfg: &Config) -> Result<Layout, String> {
        if cfg.threads != 1 {
            return Err(format!(
                "preset {}: spe bench sim records one-thread units only ({} threads)",
                cfg.name, cfg.threads
            ));
        }
        let (mut inputs, mut word) = (Vec::new(), 0);
        for p in ports_of(cfg).filter(|p| p.dir == Dir::In) {
            let (lanes, bits) = match p.width {
                Width::PerSlot(b) => (cfg.dispatch_width, b),
                Width::PerThread(b) => (1, b),
                w => (1, w.bits()),
            };
            let field = InputField::of(p.name)
                .ok_or_else(|| format!("input port {} has no field in Inputs", p.name))?;
            let ip = InPort {
                port: p,
                field,
                lanes,
                bits,
                word,
            };
            word += ip.words();
            inputs.push(ip);
        }
        let names: Vec<&str> = Outputs::default().fields().iter().map(|f| f.0).collect();
        let outputs = ports_of(cfg)
            .filter(|p| p.dir == Dir::Out)
            .map(|p| {
                names
                    .iter()
                    .position(|&n| n == p.name)
                    .map(|k| (p.name, k))
                    .ok_or_else(|| format!("output port {} has no field in Outputs", p.name))
            })
            .collect::<Result<_, _>>()?;
        Ok(Layout {
            inputs,
            words: word,
            outputs,
        })
    }

    /// One cycle's inputs as words (lane 0 in the low bits of a port's first word).
    fn encode(&self, i: &Inputs, out: &mut Vec<u32>) {
        let base = out.len();
        out.resize(base + self.words, 0);
        let scalars = i.scalar_fields();
        for p in &self.inputs {
            for lane in 0..p.lanes {
                let v = p.field.value(i, &scalars, lane);
                put(&mut out[base + p.word..], lane as u32 * p.bits, p.bits, v);
            }
        }
    }

    /// Folds one cycle's outputs into `h`.
    fn fold(&self, h: u64, o: &Outputs) -> u64 {
        let f = o.fields();
        self.outputs
            .iter()
            .fold(h, |h, &(_, k)| (h ^ f[k].1).wrapping_mul(FNV_PRIME))
    }
}

/// Writes the low `bits` of `v` at bit `off` of `words`.
fn put(words: &mut [u32], mut off: u32, mut bits: u32, mut v: u64) {
    if bits < 64 {
        v &= (1u64 << bits) - 1;
    }
    while bits > 0 {
        let (w, s) = ((off / 32) as usize, off % 32);
        let n = bits.min(32 - s);
        words[w] |= ((v & ((1u64 << n) - 1)) as u32) << s;
        v = v.checked_shr(n).unwrap_or(0);
        off += n;
        bits -= n;
    }
}

/// A DUT wrapper that keeps every cycle's inputs.
pub struct Recorder {
    pub inner: Box<dyn Dut>,
    pub log: Vec<Inputs>,
}

impl Dut for Recorder {
    fn step(&mut self, i: &Inputs) -> Outputs {
        self.log.push(i.clone());
        self.inner.step(i)
    }
    fn verdict(&mut self) -> Result<Option<String>, String> {
        self.inner.verdict()
    }
}

/// The harness's C++ for `cfg` and its recording layout `l`
/// (`spe_gen::emit::bench_harness`).
fn harness_source(cfg: &Config, l: &Layout) -> String {
    let inputs: Vec<HarnessInput> = l
        .inputs
        .iter()
        .map(|p| HarnessInput {
            name: p.port.name,
            bits: p.lanes as u32 * p.bits,
            word: p.word,
        })
        .collect();
    let outputs: Vec<&str> = l.outputs.iter().map(|(n, _)| *n).collect();
    bench_harness::source(cfg, l.words, &inputs, &outputs)
}

/// Runs a command, failing with its output when it fails.
pub fn run_cmd(cmd: &mut Command, what: &str) -> Result<String, String> {
    let out = cmd
        .env_remove("VERILATOR_ROOT")
        .output()
        .map_err(|e| format!("{what}: cannot run: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{what} failed ({}):\n{}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// How [`build_harness`] builds: the C++ optimisation level, Verilator switches beyond
/// `--cc --no-timing -O3`, and whether it says what it runs.
pub struct BuildOpts {
    pub opt: &'static str,
    pub verilator: &'static [&'static str],
    pub verbose: bool,
}

/// `verif/verilator-sys`'s flags.
pub const AS_VERILATOR_SYS: BuildOpts = BuildOpts {
    opt: "-O2",
    verilator: &[],
    verbose: true,
};

/// Builds the raw harness of `gen/<preset>` in `dir` (skipped when its sources, the
/// Verilog and Verilator are those of the last build); returns the executable. Verilator's
/// runtime is compiled once into `<runtime>/.verilator-runtime/` ([`RUNTIME_DIR`]) for
/// every harness that names the same `runtime` folder.
pub fn build_harness(
    cfg: &Config,
    l: &Layout,
    gen: &Path,
    dir: &Path,
    runtime: &Path,
    o: &BuildOpts,
) -> Result<PathBuf, String> {
    let files = gen.join(cfg.name).join("files.f");
    if !files.is_file() {
        return Err(format!(
            "{}: not found (run `spe gen --out {}`)",
            files.display(),
            gen.display()
        ));
    }
    let exe =
        std::env::var_os("VERILATOR").map_or_else(|| PathBuf::from("verilator"), PathBuf::from);
    let version = run_cmd(Command::new(&exe).arg("--version"), "verilator --version")?;
    let root = run_cmd(
        Command::new(&exe).args(["--getenv", "VERILATOR_ROOT"]),
        "verilator --getenv VERILATOR_ROOT",
    )?;
    let inc = Path::new(root.trim()).join("include");
    let src = harness_source(cfg, l);
    // The stamp: the harness, every Verilog source the file list names, Verilator.
    let mut stamp = format!("{version}\n{} {:?}\n{src}", o.opt, o.verilator);
    let list = std::fs::read_to_string(&files).map_err(|e| format!("{}: {e}", files.display()))?;
    for f in list
        .lines()
        .filter(|x| !x.starts_with("//") && !x.trim().is_empty())
    {
        let p = files.parent().expect("a folder").join(f.trim());
        let text = std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))?;
        stamp.push_str(&text);
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let bin = dir.join("harness");
    let stamp_file = dir.join("stamp");
    if bin.is_file() && std::fs::read_to_string(&stamp_file).is_ok_and(|s| s == stamp) {
        if o.verbose {
            println!("  raw harness: up to date ({})", bin.display());
        }
        return Ok(bin);
    }
    let mdir = dir.join("obj");
    let _ = std::fs::remove_dir_all(&mdir);
    let cpp = dir.join("harness.cpp");
    std::fs::write(&cpp, &src).map_err(|e| format!("{}: {e}", cpp.display()))?;
    if o.verbose {
        println!(
            "  raw harness: verilator --cc --no-timing -O3 {} ...",
            files.display()
        );
    }
    run_cmd(
        Command::new(&exe)
            .args(["--cc", "--no-timing", "-O3"])
            .args(o.verilator)
            .args(["--prefix", "Vbench", "-Mdir"])
            .arg(&mdir)
            .arg("--top-module")
            .arg(cfg.top_module())
            .arg("-F")
            .arg(&files),
        "verilator",
    )?;
    // The model's C++ files as one translation unit (as Verilator's makefile builds without
    // VM_PARALLEL_BUILDS): apart, each file spends about 0.55 s parsing verilated.h.
    let mut model: Vec<String> = std::fs::read_dir(&mdir)
        .map_err(|e| format!("{}: {e}", mdir.display()))?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".cpp"))
        .collect();
    model.sort();
    let all = mdir.join("Vbench__ALL.cpp");
    let text: String = model
        .iter()
        .map(|n| format!("#include \"{n}\"\n"))
        .collect();
    std::fs::write(&all, text).map_err(|e| format!("{}: {e}", all.display()))?;
    let flags = [
        o.opt,
        "-w",
        "-faligned-new",
        "-fcf-protection=none",
        "-DVM_SC=0",
    ];
    let runtime = runtime_objects(&inc, &runtime.join(RUNTIME_DIR), &version, &flags)?;
    if o.verbose {
        println!(
            "  raw harness: g++ {} (the model and the harness; a minute or so) ...",
            o.opt
        );
    }
    run_cmd(
        Command::new("g++")
            .args(flags)
            .arg("-I")
            .arg(&inc)
            .arg("-I")
            .arg(inc.join("vltstd"))
            .arg("-I")
            .arg(&mdir)
            .arg(&all)
            .arg(&cpp)
            .args(&runtime)
            .arg("-pthread")
            .arg("-o")
            .arg(&bin),
        "g++ (the raw harness)",
    )?;
    std::fs::write(&stamp_file, stamp).map_err(|e| format!("{}: {e}", stamp_file.display()))?;
    Ok(bin)
}

/// The folder, beside a harness's build folder, that keeps Verilator's runtime compiled.
pub const RUNTIME_DIR: &str = ".verilator-runtime";

/// Verilator's runtime (`verilated.cpp`, `verilated_threads.cpp`: about 5 s of g++) compiled
/// once for this Verilator and these flags into `cache`, for every harness built beside it
/// (`spe mutate` builds one per mutant); rebuilt when the stamp (Verilator's version and
/// runtime folder, the C++ compiler's version, the flags) differs. Each object is written under a temporary name and renamed, so two
/// builds at once never link half an object.
fn runtime_objects(
    inc: &Path,
    cache: &Path,
    version: &str,
    flags: &[&str],
) -> Result<Vec<PathBuf>, String> {
    // The stamp names what the objects depend on: Verilator (version and runtime folder),
    // the C++ compiler and the flags.
    let gxx = run_cmd(Command::new("g++").arg("--version"), "g++ --version")?;
    let stamp = format!("{version}\n{}\n{gxx}\n{flags:?}\n", inc.display());
    let key = flags.join("").replace(['-', '=', ' '], "");
    let dir = cache.join(key);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let stamp_file = dir.join("stamp");
    let current = std::fs::read_to_string(&stamp_file).is_ok_and(|s| s == stamp);
    let mut objects = Vec::new();
    for name in ["verilated", "verilated_threads"] {
        let obj = dir.join(format!("{name}.o"));
        if !(current && obj.is_file()) {
            // A name of its own for each build (mutants build on several threads of one
            // process): the rename then publishes whole objects only.
            static BUILDS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
            let tmp = dir.join(format!(
                "{name}.o.{}-{}",
                std::process::id(),
                BUILDS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            ));
            run_cmd(
                Command::new("g++")
                    .args(flags)
                    .arg("-I")
                    .arg(inc)
                    .arg("-I")
                    .arg(inc.join("vltstd"))
                    .arg("-c")
                    .arg(inc.join(format!("{name}.cpp")))
                    .arg("-o")
                    .arg(&tmp),
                &format!("g++ (Verilator's runtime, {name}.cpp)"),
            )?;
            std::fs::rename(&tmp, &obj).map_err(|e| format!("{}: {e}", obj.display()))?;
        }
        objects.push(obj);
    }
    if !current {
        std::fs::write(&stamp_file, stamp).map_err(|e| format!("{}: {e}", stamp_file.display()))?;
    }
    Ok(objects)
}

/// Writes the vector file of `log` to `path`.
pub fn write_vectors(path: &Path, l: &Layout, log: &[Inputs]) -> Result<(), String> {
    let mut bytes = Vec::with_capacity(20 + 4 * log.len() * l.words);
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&(l.words as u32).to_le_bytes());
    bytes.extend_from_slice(&(log.len() as u64).to_le_bytes());
    let mut words = Vec::with_capacity(l.words);
    for i in log {
        words.clear();
        l.encode(i, &mut words);
        for w in &words {
            bytes.extend_from_slice(&w.to_le_bytes());
        }
    }
    std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// One run of the raw harness `bin` over the vector file `vectors`.
pub fn run_harness(bin: &Path, vectors: &Path) -> Result<Figure, String> {
    let out = run_cmd(
        Command::new(bin).arg(vectors).arg("1"),
        &format!("the raw harness {}", bin.display()),
    )?;
    let line = out.lines().next().unwrap_or("");
    let f: Vec<&str> = line.split_whitespace().collect();
    (|| {
        Some(Figure {
            label: "(a) raw C++ Verilator harness",
            cycles: f.first()?.parse().ok()?,
            secs: f.get(1)?.parse().ok()?,
            checksum: u64::from_str_radix(f.get(2)?, 16).ok()?,
        })
    })()
    .ok_or_else(|| format!("the raw harness printed {line:?}"))
}

/// One backend's best run.
pub struct Figure {
    pub label: &'static str,
    pub cycles: usize,
    pub secs: f64,
    pub checksum: u64,
}

impl Figure {
    fn rate(&self) -> f64 {
        self.cycles as f64 / self.secs
    }
}

/// Replays `rec` through a fresh DUT of `backend` once for the checksum, then `runs` more
/// times (a fresh DUT each) timing only the steps; the best timed run. A DUT whose verdict
/// fails (the lockstep pair disagreeing) is an error.
pub fn replay(
    label: &'static str,
    cfg: &Config,
    backend: Backend,
    rec: &[Inputs],
    l: &Layout,
    runs: usize,
) -> Result<Figure, String> {
    let mut dut = make_dut(cfg, backend)?;
    let checksum = rec.iter().fold(FNV_OFFSET, |h, i| l.fold(h, &dut.step(i)));
    // A failing verdict (the lockstep pair disagreeing) is an error; a passing one's
    // summary line is not needed here.
    dut.verdict().map_err(|e| format!("{label}: {e}"))?;
    let mut best = f64::INFINITY;
    for _ in 0..runs {
        let mut dut = make_dut(cfg, backend)?;
        let t0 = Instant::now();
        for i in rec {
            std::hint::black_box(dut.step(i));
        }
        best = best.min(t0.elapsed().as_secs_f64());
    }
    Ok(Figure {
        label,
        cycles: rec.len(),
        secs: best,
        checksum,
    })
}

pub fn sim(a: &SimOptions) -> Result<(), String> {
    let cfg = *Config::preset_named(&a.preset)?;
    let l = Layout::new(&cfg)?;
    if a.runs == 0 || a.cycles == 0 {
        return Err("--runs and --cycles must be at least 1".into());
    }
    spe_cosim::check_gen(&a.gen, cfg.name)?;
    let workload = Workload::by_name(&a.workload)?;
    let dir = a.dir.join(cfg.name);
    println!(
        "spe bench sim: preset {}, workload {}, {} cycles, seed {}, best of {} runs",
        cfg.name, a.workload, a.cycles, a.seed, a.runs
    );
    let harness = build_harness(&cfg, &l, &a.gen, &dir, &dir, &AS_VERILATOR_SYS)?;

    // The closed-loop run, recorded.
    let mut rec = Recorder {
        inner: make_dut(&cfg, Backend::Lockstep)?,
        log: Vec::with_capacity(a.cycles + 64),
    };
    let t0 = Instant::now();
    let r = spe_bench::run(
        &mut rec,
        &cfg,
        &workload,
        &SampleSettings::perf_default(&cfg),
        &MemoryProfile::default(),
        a.cycles as u64,
        a.seed,
        &mut |_, _| {},
    )?;
    let closed_secs = t0.elapsed().as_secs_f64();
    if let Some(v) = rec
        .verdict()
        .map_err(|e| format!("the recorded run: {e}"))?
    {
        println!("  {v}");
    }
    let log = rec.log;
    println!(
        "  recorded {} cycles ({} records) in {closed_secs:.2} s",
        log.len(),
        r.stats.records_written
    );

    let vec_path = dir.join("vectors.bin");
    write_vectors(&vec_path, &l, &log)?;

    // (a) and (b) in turn, one run each per round: b/a is the median of the rounds'
    // ratios, so a drift of this machine's speed during the call moves both.
    let (mut raw, mut b): (Option<Figure>, Option<Figure>) = (None, None);
    let mut pairs = Vec::new();
    for _ in 0..a.runs {
        let fa = run_harness(&harness, &vec_path)?;
        let fb = replay(
            "(b) Rust binding (verilator)",
            &cfg,
            Backend::Verilator,
            &log,
            &l,
            1,
        )?;
        pairs.push(fa.secs / fb.secs);
        if raw.as_ref().is_none_or(|x| fa.secs < x.secs) {
            raw = Some(fa);
        }
        if b.as_ref().is_none_or(|x| fb.secs < x.secs) {
            b = Some(fb);
        }
    }
    let (raw, b) = (raw.expect("runs >= 1"), b.expect("runs >= 1"));
    pairs.sort_by(f64::total_cmp);
    let b_over_a = pairs[pairs.len() / 2];
    if b.checksum != raw.checksum || raw.cycles != log.len() {
        return Err(format!(
            "the raw harness and the Rust binding disagree (checksums {:016x}, {:016x}; \
             cycles {}, {}): gen/ is not the Verilog this spe was built from?",
            raw.checksum,
            b.checksum,
            raw.cycles,
            log.len()
        ));
    }
    let c = replay(
        "(c) lockstep (model + RTL)",
        &cfg,
        Backend::Lockstep,
        &log,
        &l,
        a.runs,
    )?;
    let d = replay(
        "(d) golden model alone",
        &cfg,
        Backend::Model,
        &log,
        &l,
        a.runs,
    )?;
    let n = a.hdlsim_cycles.min(log.len());
    let e = replay(
        "(e) rust-hdl simulator",
        &cfg,
        Backend::Hdlsim,
        &log[..n],
        &l,
        1,
    )?;
    let e_want = replay("", &cfg, Backend::Verilator, &log[..n], &l, 1)?.checksum;
    for (f, want) in [(&c, raw.checksum), (&d, raw.checksum), (&e, e_want)] {
        if f.checksum != want {
            return Err(format!(
                "{}: its outputs differ from the Verilated RTL's on the same inputs",
                f.label
            ));
        }
    }
    let closed = Figure {
        label: "closed loop: stimulus + bench + lockstep (a regression job)",
        cycles: log.len(),
        secs: closed_secs,
        checksum: 0,
    };
    println!();
    println!("| backend | cycles | best s | cycles/s |");
    println!("|---|---:|---:|---:|");
    for f in [&raw, &b, &c, &d, &e, &closed] {
        println!(
            "| {} | {} | {:.3} | {:.0} |",
            f.label,
            f.cycles,
            f.secs,
            f.rate()
        );
    }
    println!(
        "every backend's outputs, folded over its cycles, equal the Verilated RTL's \
         (checksum {:016x})",
        raw.checksum
    );
    println!();
    println!(
        "ratios: b/a = {b_over_a:.2} (goal >= 0.8; the median of {} paired runs, {:.2} to {:.2}), \
         c/a = {:.2} (best runs)",
        pairs.len(),
        pairs[0],
        pairs[pairs.len() - 1],
        c.rate() / raw.rate()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn put_places_lanes_across_word_boundaries() {
        let mut w = [0u32; 8];
        // Four 56-bit lanes, as disp_pc at W = 4: lane 1 starts at bit 56 of word 1.
        for lane in 0..4u32 {
            put(
                &mut w,
                lane * 56,
                56,
                0x00ab_cdef_0123_4560 + u64::from(lane),
            );
        }
        assert_eq!(w[0], 0x0123_4560);
        assert_eq!(w[1], 0x61ab_cdef, "lane 0's top 24 bits, lane 1's low 8");
        assert_eq!(w[5], 0x2345_63ab, "lane 2's top 8 bits, lane 3's low 24");
        assert_eq!((w[6], w[7]), (0xabcd_ef01, 0));
        // Bits above the lane's width are dropped.
        let mut w = [0u32; 2];
        put(&mut w, 3, 4, 0xff);
        assert_eq!(w, [0x78, 0]);
    }

    #[test]
    fn the_layout_has_every_input_once_and_refuses_a_multithreaded_unit() {
        let cfg = Config::preset("default").unwrap();
        let l = Layout::new(cfg).unwrap();
        let ins = ports_of(cfg).filter(|p| p.dir == Dir::In).count();
        assert_eq!(l.inputs.len(), ins);
        let bits: u32 = l.inputs.iter().map(|p| p.lanes as u32 * p.bits).sum();
        let total: u32 = ports_of(cfg)
            .filter(|p| p.dir == Dir::In)
            .map(|p| p.bits_for(cfg))
            .sum();
        assert_eq!(bits, total);
        assert_eq!(l.words, l.inputs.iter().map(InPort::words).sum::<usize>());
        assert_eq!(
            l.outputs.len(),
            ports_of(cfg).filter(|p| p.dir == Dir::Out).count()
        );
        // The harness sets every input and folds every output.
        let src = harness_source(cfg, &l);
        for p in ports_of(cfg) {
            assert!(src.contains(&format!("t->{}", p.name)), "{}", p.name);
        }
        let e = Layout::new(Config::preset("smt2").unwrap()).err().unwrap();
        assert!(e.contains("one-thread"), "{e}");
        // A unit with option ports has them in its layout.
        let v = Config::preset("v1p2x").unwrap();
        assert!(Layout::new(v).unwrap().inputs.len() > ins);
    }

    #[test]
    fn encode_puts_each_port_s_lanes_at_its_word() {
        let cfg = Config::preset("default").unwrap();
        let l = Layout::new(cfg).unwrap();
        let mut i = Inputs::default();
        for lane in 0..cfg.dispatch_width {
            assert!(i.set_lane("disp_pc", lane, 0x1000 + lane as u64));
        }
        assert!(i.set_lane("reg_wdata", 0, 0x1122_3344_5566_7788));
        let mut w = Vec::new();
        l.encode(&i, &mut w);
        assert_eq!(w.len(), l.words);
        let at = |name: &str| l.inputs.iter().find(|p| p.port.name == name).unwrap();
        let pc = at("disp_pc");
        assert_eq!(w[pc.word], 0x1000);
        assert_eq!(w[pc.word + 1], 0x0100_0000, "lane 1 from bit 56");
        let wd = at("reg_wdata");
        assert_eq!((w[wd.word], w[wd.word + 1]), (0x5566_7788, 0x1122_3344));
    }
}
