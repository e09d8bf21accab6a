//! The FPGA flows: area and timing of the bare unit on an iCE40 or the ECP5 (`spe synth`), and board
//! bitstreams on iCE40 and ECP5 (`spe fpga build`).
//!
//! * `spe_gen::emit::fpga_wrapper`: the pin-limited wrapper around `spe_top_<preset>` (three
//!   pins; every input from a shift register, every output registered and XOR-reduced);
//! * [`board`]: the devices (HX8K breakout board, iCEBreaker, ULX3S), their pins and pin files;
//! * [`build`]: a board bitstream (`spe fpga build`): Yosys, then nextpnr-ice40 and icepack
//!   or nextpnr-ecp5 and ecppack;
//! * [`yosys`]: the per-block and flattened synthesis scripts, the `stat` parser;
//! * [`nextpnr`]: the place-and-route command line, the log parser (Fmax, utilisation,
//!   critical path);
//! * [`tools`]: finding and running the tools, each with a log in the output folder.
//!
//! The SoC's UART dump protocol, which `spe fpga capture` reads, is the crate `spe-dump`
//! (soc/dump).
//!
//! [`synth`] runs the whole measurement and returns a [`SynthReport`]. Depends only on
//! `spe-defs` (the port list); reads the Verilog of `gen/`.

pub mod board;
pub mod build;
pub mod depth;
pub mod nextpnr;
pub mod sweep;
pub mod table;
pub mod tools;

pub mod yosys;

use board::Device;
use nextpnr::PnrReport;
use spe_defs::config::GEN_FILE_LIST;
use spe_defs::Config;
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use yosys::CellCounts;

/// Display order of the blocks (the unit's pipeline); blocks not listed follow by name.
const BLOCK_ORDER: &[&str] = &[
    "sampler",
    "capture",
    "tracker",
    "latency",
    "filter",
    "serializer",
    "writer",
    "room",
    "arbiter",
    "regs",
];

/// What to measure and where.
#[derive(Clone, Debug)]
pub struct SynthOptions {
    pub cfg: &'static Config,
    pub device: Device,
    /// Target clock frequency given to nextpnr.
    pub freq_mhz: f64,
    /// nextpnr's placer seeds (`--seed`), one run each, the best Fmax kept: the same
    /// netlist and seed place the same way, but seeds differ by up to about 11 % and a
    /// change to the netlist moves one seed's Fmax by up to about 18 % (docs/synth.md).
    pub seeds: Vec<u64>,
    /// The `gen/` folder holding `<preset>/files.f`.
    pub gen_dir: PathBuf,
    /// Where the wrapper, PCF, scripts, netlist and logs go.
    pub out_dir: PathBuf,
    /// Pack first (nextpnr `--pack-only`, under a second) and place only when the packed
    /// design fills at most this percentage of the device's logic cells: a fuller device
    /// places for tens of minutes a seed, and its Fmax says more of the placement than of
    /// the logic (`smt2_v1p4` once packed into 99 % of the HX8K). `None`: always place.
    pub place_limit: Option<f64>,
}

/// [`SynthOptions::place_limit`] of `spe synth --all` and `--guard`, in percent.
pub const PLACE_LIMIT_PERCENT: f64 = 95.0;

/// Default output folder of a preset and device (relative to the working directory).
pub fn default_out_dir(cfg: &Config, device: Device) -> PathBuf {
    PathBuf::from(format!("target/spe-synth/{}-{}", cfg.name, device))
}

/// One block of the unit: its label (`sampler`, `sampler_t1` for a thread's own copy),
/// its module (`spe_sampler_default`) and how many times the top instantiates it (once,
/// or once per hardware thread in a multithreaded preset).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    pub label: String,
    pub module: String,
    pub instances: u32,
}

impl Block {
    /// The label of the report's row: `tracker x2` for two instances.
    pub fn row_label(&self) -> String {
        match self.instances {
            1 => self.label.clone(),
            n => format!("{} x{n}", self.label),
        }
    }
}

/// The unit's Verilog sources of a preset, from `gen/<preset>/files.f` (paths made
/// absolute), and its blocks: every module the top instantiates (a module inside a block,
/// an option's block, is a source counted with its host).
pub fn sources(gen_dir: &Path, cfg: &Config) -> Result<(Vec<PathBuf>, Vec<Block>), String> {
    let dir = gen_dir.join(cfg.name);
    let list = dir.join(GEN_FILE_LIST);
    let text = std::fs::read_to_string(&list).map_err(|e| {
        format!(
            "reading {}: {e} (is --gen the gen/ folder of the workspace?)",
            list.display()
        )
    })?;
    let dir = dir
        .canonicalize()
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    let suffix = format!("_{}", cfg.name);
    let top = cfg.top_module();
    let mut files = Vec::new();
    let mut blocks = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with("//") {
            continue;
        }
        let path = dir.join(line);
        if !path.is_file() {
            return Err(format!("{} lists {line}, which is missing", list.display()));
        }
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_string();
        if let Some(label) = stem
            .strip_prefix("spe_")
            .and_then(|s| s.strip_suffix(&suffix))
        {
            if stem != top {
                blocks.push(Block {
                    label: label.to_string(),
                    module: stem.clone(),
                    instances: 0,
                });
            }
        }
        files.push(path);
    }
    if !files
        .iter()
        .any(|f| f.file_stem().and_then(|s| s.to_str()) == Some(top.as_str()))
    {
        return Err(format!("{} does not list {top}.v", list.display()));
    }
    // Instances: lines `<module> <instance>(` of the top.
    let top_path = dir.join(format!("{top}.v"));
    let top_text = std::fs::read_to_string(&top_path)
        .map_err(|e| format!("reading {}: {e}", top_path.display()))?;
    for b in &mut blocks {
        let head = format!("{} ", b.module);
        b.instances = top_text
            .lines()
            .filter(|l| l.trim_start().starts_with(&head) && l.trim_end().ends_with('('))
            .count() as u32;
    }
    // A module the top does not instantiate is a block's own child (an option's block,
    // `spe_regs_pmfz_<preset>` inside `spe_regs_<preset>`: hdl/rtl/src/options): its
    // cells count with its host's, whose hierarchy the per-block run flattens.
    // (A thread's own copy of a block, `sampler_t1`, hosts `sampler_<option>`.)
    let hosts: Vec<String> = blocks
        .iter()
        .filter(|b| b.instances > 0)
        .map(|b| thread_base(&b.label).to_string())
        .collect();
    if let Some(b) = blocks
        .iter()
        .find(|b| b.instances == 0 && !hosts.iter().any(|h| b.label.starts_with(&format!("{h}_"))))
    {
        return Err(format!(
            "{} does not instantiate {}, which is no block's child either",
            top_path.display(),
            b.module
        ));
    }
    blocks.retain(|b| b.instances > 0);
    // A thread's own copy (`sampler_t1`) sorts with its block.
    let rank = |b: &Block| {
        BLOCK_ORDER
            .iter()
            .position(|&l| l == thread_base(&b.label))
            .unwrap_or(BLOCK_ORDER.len())
    };
    blocks.sort_by(|a, b| rank(a).cmp(&rank(b)).then(a.label.cmp(&b.label)));
    Ok((files, blocks))
}

/// The measurement of one preset on one device.
#[derive(Clone, Debug)]
pub struct SynthReport {
    pub preset: &'static str,
    pub device: Device,
    pub freq_mhz: f64,
    /// nextpnr's seeds, and each one's Fmax (or why it failed); `pnr` is the best run's.
    pub seeds: Vec<(u64, Result<f64, String>)>,
    pub yosys_version: String,
    pub nextpnr_version: String,
    pub unit: String,
    /// Each block's own cells (per-block run), in pipeline order.
    pub blocks: Vec<(String, CellCounts)>,
    /// Cells of `spe_top_<preset>` itself, outside its blocks (per-block run).
    pub top_glue: CellCounts,
    /// Cells of modules that are neither a block, the top nor the wrapper (none expected:
    /// the shared flop is flattened into its blocks). Counted in the unit total.
    pub unassigned: Vec<(String, CellCounts)>,
    /// Cells of the wrapper (per-block run) and the flops it should have.
    pub wrapper: CellCounts,
    pub wrapper_flops_expected: u32,
    pub input_bits: u32,
    pub output_bits: u32,
    /// Wrapper and unit synthesized flat: the netlist that is placed.
    pub flat: CellCounts,
    /// Place and route, or why nextpnr failed (a preset too big for the device) or was
    /// not run ([`SynthOptions::place_limit`]): the Yosys figures are reported either way.
    pub pnr: Result<PnrReport, String>,
    /// The packed design's logic cells, when packed first ([`SynthOptions::place_limit`]).
    pub packed: Option<nextpnr::Usage>,
    pub out_dir: PathBuf,
    /// Time of each stage (per-block Yosys, flattened Yosys, nextpnr).
    pub stage_times: Vec<(&'static str, Duration)>,
}

impl SynthReport {
    /// Sum of the blocks and the top's own cells.
    pub fn unit_total(&self) -> CellCounts {
        self.blocks
            .iter()
            .chain(&self.unassigned)
            .fold(self.top_glue.clone(), |a, (_, c)| a.plus(c))
    }

    /// The report as printed by `spe synth`.
    pub fn render(&self) -> String {
        let mut s = String::new();
        let w = &mut s;
        let _ = writeln!(
            w,
            "spe synth {} on {} ({}, {}-{}; yosys {}, {} {})",
            self.preset,
            self.device,
            self.device.board(),
            self.device.name().to_uppercase(),
            self.device.package().to_uppercase(),
            self.yosys_version,
            self.device.family().nextpnr(),
            self.nextpnr_version
        );
        let _ = writeln!(
            w,
            "per block: {} -flatten with keep_hierarchy on {} and each block module\n\
             (spe_rff flattened into its block; no optimisation across block boundaries, so the\n\
             blocks sum to more than the flattened unit)",
            self.device.family().synth(),
            self.unit
        );
        let _ = writeln!(
            w,
            "{:<12} {:>6} {:>6} {:>6}",
            "block",
            "LUT4",
            "FF",
            self.device.family().carry_label()
        );
        let row = |w: &mut String, name: &str, c: &CellCounts, note: &str| {
            let _ = writeln!(
                w,
                "{name:<12} {:>6} {:>6} {:>6}{note}",
                c.lut4, c.ff, c.carry
            );
        };
        for (label, c) in &self.blocks {
            row(w, label, c, "");
        }
        if !self.top_glue.is_empty() {
            row(
                w,
                "top glue",
                &self.top_glue,
                "   (spe_top outside its blocks)",
            );
        }
        for (module, c) in &self.unassigned {
            row(
                w,
                "unassigned",
                c,
                &format!("   (module {module}: not a block)"),
            );
        }
        row(w, "unit total", &self.unit_total(), "");
        let wrapper_note = format!(
            "   ({}-bit input shift register, {} output flops, XOR tree{})",
            self.input_bits,
            self.output_bits,
            if self.wrapper.ff == u64::from(self.wrapper_flops_expected) {
                String::new()
            } else {
                format!(
                    "; expected {} flops: some were optimised away",
                    self.wrapper_flops_expected
                )
            }
        );
        row(w, "wrapper", &self.wrapper, &wrapper_note);
        row(
            w,
            "flattened",
            &self.flat,
            &format!(
                "   (wrapper + unit, {} -flatten: what nextpnr places)",
                self.device.family().synth()
            ),
        );
        let others: CellCounts = self
            .blocks
            .iter()
            .fold(self.wrapper.plus(&self.top_glue), |a, (_, c)| a.plus(c));
        if !others.other.is_empty() {
            let list: Vec<_> = others
                .other
                .iter()
                .map(|(k, v)| format!("{v} {k}"))
                .collect();
            let _ = writeln!(w, "other primitives: {}", list.join(", "));
        }
        let p = match &self.pnr {
            Ok(p) => p,
            Err(e) => {
                let _ = writeln!(w, "no place and route: {e}");
                let times = nextpnr::stage_times(&self.stage_times);
                let _ = writeln!(
                    w,
                    "files and logs in {} ({})",
                    self.out_dir.display(),
                    times
                );
                return s;
            }
        };
        let verdict = match p.target_mhz {
            Some(t) => format!(
                "target {} MHz, {}",
                fmt_mhz(t),
                if p.pass { "met" } else { "missed" }
            ),
            None => format!("target {} MHz", fmt_mhz(self.freq_mhz)),
        };
        let _ = write!(
            w,
            "Fmax {:.2} MHz ({verdict}), LCs {}/{} ({:.1} %)",
            p.fmax_mhz,
            p.lc.used,
            p.lc.total,
            p.lc.percent()
        );
        if let Some(r) = p.ram {
            let _ = write!(w, ", RAM {}/{}", r.used, r.total);
        }
        let _ = writeln!(w);
        if self.seeds.len() > 1 {
            let list: Vec<String> = (self.seeds.iter())
                .map(|(s, f)| match f {
                    Ok(f) => format!("seed {s} {f:.2}"),
                    Err(_) => format!("seed {s} failed"),
                })
                .collect();
            let _ = writeln!(w, "best of nextpnr seeds: {}", list.join(", "));
        }
        if let Some(c) = &p.critical {
            let _ = writeln!(w, "{}", c.line());
        }
        let times = nextpnr::stage_times(&self.stage_times);
        let _ = writeln!(
            w,
            "files and logs in {} ({})",
            self.out_dir.display(),
            times
        );
        s
    }
}

fn fmt_mhz(f: f64) -> String {
    if f.fract() == 0.0 {
        format!("{f:.0}")
    } else {
        format!("{f}")
    }
}

fn write_file(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("writing {}: {e}", path.display()))
}

/// Runs the whole measurement: wrapper, per-block Yosys, flattened Yosys, nextpnr.
/// `progress` gets one line as each stage starts.
pub fn synth(o: &SynthOptions, progress: &mut dyn FnMut(&str)) -> Result<SynthReport, String> {
    if !(o.freq_mhz.is_finite() && o.freq_mhz > 0.0) {
        return Err(format!(
            "--freq must be a positive number of MHz, not {}",
            o.freq_mhz
        ));
    }
    let family = o.device.family();
    let yosys_exe = tools::YOSYS.find()?;
    let yosys_version = tools::YOSYS.version(&yosys_exe)?;
    let yosys_version = yosys::parse_version(&yosys_version).unwrap_or(yosys_version);

    let (files, blocks) = sources(&o.gen_dir, o.cfg)?;
    std::fs::create_dir_all(&o.out_dir)
        .map_err(|e| format!("creating {}: {e}", o.out_dir.display()))?;
    let out = &o.out_dir;
    // nextpnr-ice40 from Debian; nextpnr-ecp5 from its pinned PyPI package, installed
    // into the repository's .deps/ (the folder above gen/) when missing.
    let (nextpnr, nextpnr_version) = match family {
        board::Family::Ice40 => {
            let exe = tools::NEXTPNR_ICE40.find()?;
            let v = tools::NEXTPNR_ICE40.version(&exe)?;
            (tools::Runner::Native(tools::NEXTPNR_ICE40, exe), v)
        }
        board::Family::Ecp5 => {
            let repo = repo_of(&o.gen_dir)?;
            let (site, installed) = tools::ensure_yowasp_ecp5(&repo)?;
            if installed {
                progress(&format!(
                    "installed {}=={} into {}",
                    tools::YOWASP_ECP5_PACKAGE,
                    tools::YOWASP_ECP5_VERSION,
                    site.display()
                ));
            }
            let runner = tools::Runner::Py(tools::NEXTPNR_ECP5, site);
            let log = out.join("nextpnr-version.log");
            runner.run(&["--version".into()], out, &log)?;
            let v = std::fs::read_to_string(&log).unwrap_or_default();
            let v = v.lines().next().unwrap_or("").trim().to_string();
            (runner, v)
        }
    };
    let nextpnr_version = nextpnr::parse_version(&nextpnr_version).unwrap_or(nextpnr_version);
    let pnr_name = family.nextpnr();

    let w = spe_gen::emit::fpga_wrapper::generate(o.cfg);
    let wrapper_file = format!("{}.v", w.module);
    write_file(&out.join(&wrapper_file), &w.verilog)?;
    let (pins_name, pins_text) = o.device.pins_file();
    write_file(&out.join(pins_name), &pins_text)?;
    let mut kept = vec![w.unit.clone()];
    kept.extend(blocks.iter().map(|b| b.module.clone()));
    write_file(
        &out.join(yosys::BLOCKS_SCRIPT),
        &yosys::blocks_script(&w, &files, &wrapper_file, &kept, family),
    )?;
    write_file(
        &out.join(yosys::FLAT_SCRIPT),
        &yosys::flat_script(&w, &files, &wrapper_file, family),
    )?;
    let mut stage_times = Vec::new();

    let log = out.join(yosys::BLOCKS_LOG);
    progress(&format!(
        "yosys: per-block {} of {} ({} blocks), log {}",
        family.synth(),
        w.module,
        blocks.len(),
        log.display()
    ));
    let t = Instant::now();
    tools::YOSYS.run(
        &yosys_exe,
        &["-s".into(), yosys::BLOCKS_SCRIPT.into()],
        out,
        &log,
    )?;
    stage_times.push(("yosys per block", t.elapsed()));
    let stat_path = out.join(yosys::BLOCKS_STAT);
    let stat = read_stat(&stat_path)?;
    let own = |m: &str| {
        stat.modules.get(m).cloned().ok_or_else(|| {
            format!(
                "module {m} missing from {} (was it flattened?)",
                stat_path.display()
            )
        })
    };
    // A block instantiated n times counts n times.
    let block_counts = blocks
        .iter()
        .map(|b| {
            let one = own(&b.module)?;
            let all = (1..b.instances).fold(one.clone(), |a, _| a.plus(&one));
            Ok((b.row_label(), all))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let top_glue = own(&w.unit)?;
    let unassigned: Vec<_> = stat
        .modules
        .iter()
        .filter(|(m, c)| !kept.contains(m) && **m != w.module && !c.is_empty())
        .map(|(m, c)| (m.clone(), c.clone()))
        .collect();
    let wrapper_counts = own(&w.module)?;

    let log = out.join(yosys::FLAT_LOG);
    progress(&format!(
        "yosys: flattened {} for nextpnr, log {}",
        family.synth(),
        log.display()
    ));
    let t = Instant::now();
    tools::YOSYS.run(
        &yosys_exe,
        &["-s".into(), yosys::FLAT_SCRIPT.into()],
        out,
        &log,
    )?;
    stage_times.push(("yosys flat", t.elapsed()));
    let flat_stat = read_stat(&out.join(yosys::FLAT_STAT))?;
    let flat = flat_stat
        .modules
        .get(&w.module)
        .cloned()
        .ok_or_else(|| format!("module {} missing from {}", w.module, yosys::FLAT_STAT))?;

    if o.seeds.is_empty() {
        return Err("no nextpnr seed given".into());
    }
    let t = Instant::now();
    // A failed place and route (the unit does not fit) still reports Yosys's figures.
    let mut pnr: Result<PnrReport, String> = Err("no seed run".into()); // replaced by the first
    let mut seeds = Vec::new();
    let mut packed = None;
    let mut place = o.seeds.as_slice();
    if let Some(limit) = o.place_limit {
        let log = out.join(nextpnr::PACK_LOG);
        progress(&format!(
            "{pnr_name}: pack only (placed when at most {limit:.0} % of the logic cells), log {}",
            log.display()
        ));
        nextpnr.run(
            &[
                nextpnr::args(o.device, yosys::FLAT_JSON, pins_name, o.freq_mhz),
                vec!["--pack-only".into()],
            ]
            .concat(),
            out,
            &log,
        )?;
        let text = std::fs::read_to_string(&log).map_err(|e| format!("{}: {e}", log.display()))?;
        let lc = nextpnr::parse_packed_lcs(&text)
            .ok_or_else(|| format!("no logic cell count in {}", log.display()))?;
        packed = Some(lc);
        if lc.percent() > limit {
            pnr = Err(format!(
                "not placed: the packed design fills {} of the {} logic cells ({:.1} %, over {limit:.0} %: a full device places for tens of minutes a seed and its Fmax says more of the placement than of the logic)",
                lc.used,
                lc.total,
                lc.percent()
            ));
            place = &[];
        }
    }
    for &seed in place {
        // One seed: nextpnr.log; several: one log each, the best run's copied to nextpnr.log.
        let log_name = if o.seeds.len() == 1 {
            nextpnr::LOG.to_string()
        } else {
            format!("nextpnr-seed{seed}.log")
        };
        let log = out.join(&log_name);
        progress(&format!(
            "{pnr_name}: place and route on {} at {} MHz (seed {seed}), log {}",
            o.device,
            fmt_mhz(o.freq_mhz),
            log.display()
        ));
        let run = nextpnr
            .run(
                &[
                    nextpnr::args(o.device, yosys::FLAT_JSON, pins_name, o.freq_mhz),
                    vec!["--seed".into(), seed.to_string()],
                ]
                .concat(),
                out,
                &log,
            )
            .and_then(|()| {
                let text =
                    std::fs::read_to_string(&log).map_err(|e| format!("{}: {e}", log.display()))?;
                nextpnr::parse_log(&text).map_err(|e| format!("{e} (see {})", log.display()))
            });
        seeds.push((seed, run.as_ref().map(|p| p.fmax_mhz).map_err(Clone::clone)));
        // The first run stands until a later one places at a higher Fmax (a failed run
        // never replaces one: routing can fail with one seed only).
        let better = seeds.len() == 1
            || match (&run, &pnr) {
                (Ok(a), Ok(b)) => a.fmax_mhz > b.fmax_mhz,
                (Ok(_), Err(_)) => true,
                (Err(_), _) => false,
            };
        if better {
            if o.seeds.len() > 1 {
                std::fs::copy(&log, out.join(nextpnr::LOG))
                    .map_err(|e| format!("copying {}: {e}", log.display()))?;
            }
            pnr = run;
        }
    }
    stage_times.push(("nextpnr", t.elapsed()));

    Ok(SynthReport {
        preset: o.cfg.name,
        device: o.device,
        freq_mhz: o.freq_mhz,
        seeds,
        yosys_version,
        nextpnr_version,
        unit: w.unit.clone(),
        blocks: block_counts,
        top_glue,
        unassigned,
        wrapper: wrapper_counts,
        wrapper_flops_expected: w.flops(),
        input_bits: w.input_bits,
        output_bits: w.output_bits,
        flat,
        pnr,
        packed,
        out_dir: o.out_dir.clone(),
        stage_times,
    })
}

/// A block's label without a thread's suffix: `sampler` for `sampler_t1`.
fn thread_base(label: &str) -> &str {
    match label.rsplit_once("_t") {
        Some((base, n)) if !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()) => base,
        _ => label,
    }
}

/// The repository holding `gen_dir` (its parent folder), where `.deps/` is.
fn repo_of(gen_dir: &Path) -> Result<PathBuf, String> {
    let gen = gen_dir
        .canonicalize()
        .map_err(|e| format!("{}: {e}", gen_dir.display()))?;
    gen.parent()
        .map(Path::to_path_buf)
        .ok_or_else(|| format!("{} has no parent folder", gen.display()))
}

fn read_stat(path: &Path) -> Result<yosys::Stat, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    yosys::parse_stat(&text).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use spe_defs::PRESETS;

    fn gen_dir() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../gen")
    }

    #[test]
    fn sources_follow_files_f_and_name_every_block() {
        for cfg in PRESETS {
            let (files, blocks) = sources(&gen_dir(), cfg).unwrap();
            assert!(files.iter().all(|f| f.is_absolute() && f.is_file()));
            let labels: Vec<_> = blocks.iter().map(|b| b.label.as_str()).collect();
            let t = cfg.threads as u32;
            let want: Vec<String> = if t == 1 {
                BLOCK_ORDER
                    .iter()
                    .filter(|&&l| l != "arbiter" && l != "room")
                    .map(|l| l.to_string())
                    .collect()
            } else {
                // Each thread's sampler (its own LFSR seed), the other blocks shared.
                (0..t)
                    .map(|k| format!("sampler_t{k}"))
                    .chain(BLOCK_ORDER[1..].iter().map(|l| l.to_string()))
                    .collect()
            };
            assert_eq!(labels, want, "preset {}", cfg.name);
            // An option's block is a source, counted with its host (not a block).
            // (ERnd's is a child of each thread's own sampler in an SMT preset.)
            for (child, built) in [
                ("regs_pmfz", cfg.options.pmfz),
                ("sampler_ernd", cfg.options.ernd),
            ] {
                let file = format!("spe_{child}_{}.v", cfg.name);
                assert_eq!(
                    files.iter().any(|f| f.ends_with(&file)),
                    built,
                    "preset {}: {child}",
                    cfg.name
                );
            }
            assert!(blocks
                .iter()
                .all(|b| b.module == format!("spe_{}_{}", b.label, cfg.name)));
            for b in &blocks {
                let per_thread = ["capture", "tracker", "latency", "filter", "room", "regs"];
                let n = if per_thread.contains(&b.label.as_str()) {
                    t
                } else {
                    1
                };
                assert_eq!(b.instances, n, "preset {}: {}", cfg.name, b.label);
            }
        }
    }

    fn counts(lut4: u64, ff: u64, carry: u64) -> CellCounts {
        CellCounts {
            lut4,
            ff,
            carry,
            ..CellCounts::default()
        }
    }

    fn sample_report() -> SynthReport {
        SynthReport {
            preset: "minimal",
            device: Device::Up5k,
            freq_mhz: 50.0,
            seeds: vec![(1, Ok(19.25))],
            yosys_version: "0.23".into(),
            nextpnr_version: "0.4-1+b1".into(),
            unit: "spe_top_minimal".into(),
            blocks: vec![
                ("sampler".into(), counts(245, 16, 116)),
                ("writer".into(), counts(616, 64, 186)),
            ],
            top_glue: CellCounts::default(),
            unassigned: vec![],
            wrapper: counts(71, 827, 0),
            wrapper_flops_expected: 827,
            input_bits: 544,
            output_bits: 211,
            flat: counts(1881, 1598, 323),
            pnr: Ok(nextpnr::PnrReport {
                clock: "clk".into(),
                fmax_mhz: 19.25,
                target_mhz: Some(50.0),
                pass: false,
                lc: nextpnr::Usage {
                    used: 2972,
                    total: 5280,
                },
                ram: Some(nextpnr::Usage { used: 0, total: 30 }),
                spram: None,
                critical: Some(nextpnr::CriticalPath {
                    source: "unit.writer.s_addr.d_SB_LUT4_O_60_LC.O".into(),
                    sink: "unit.regs.pmbsr.d_SB_LUT4_O_7_LC.I2".into(),
                    total_ns: 51.9,
                    logic_ns: Some(28.3),
                    routing_ns: Some(23.6),
                }),
            }),
            packed: None,
            out_dir: "target/spe-synth/minimal-up5k".into(),
            stage_times: vec![("nextpnr", Duration::from_millis(12_500))],
        }
    }

    #[test]
    fn report_has_a_row_per_block_the_totals_and_an_fmax_line() {
        let text = sample_report().render();
        let lines: Vec<&str> = text.lines().collect();
        let row = |name: &str| {
            lines
                .iter()
                .find(|l| l.starts_with(name))
                .unwrap_or_else(|| panic!("no {name} row in\n{text}"))
                .split_whitespace()
                .collect::<Vec<_>>()
        };
        assert_eq!(row("sampler")[1..4], ["245", "16", "116"]);
        assert_eq!(row("unit total")[2..5], ["861", "80", "302"]);
        assert_eq!(row("wrapper")[1..4], ["71", "827", "0"]);
        // scripts/test.sh greps this line.
        assert!(
            lines.iter().any(|l| l.starts_with(
                "Fmax 19.25 MHz (target 50 MHz, missed), LCs 2972/5280 (56.3 %), RAM 0/30"
            )),
            "{text}"
        );
        assert!(text.contains("critical path 51.9 ns (28.3 ns logic, 23.6 ns routing): unit.writer.s_addr.d -> unit.regs.pmbsr.d"), "{text}");
        assert!(!text.contains("top glue") && !text.contains("optimised away"));
    }

    #[test]
    fn a_failed_place_and_route_still_reports_the_yosys_figures() {
        let mut r = sample_report();
        r.pnr = Err("nextpnr-ice40 failed: ERROR: Unable to place cell".into());
        let text = r.render();
        assert!(text.contains("unit total"), "{text}");
        assert!(
            text.contains("no place and route: nextpnr-ice40 failed"),
            "{text}"
        );
        assert!(!text.contains("Fmax"), "{text}");
    }

    #[test]
    fn report_flags_lost_wrapper_flops_and_unassigned_modules() {
        let mut r = sample_report();
        r.wrapper.ff = 800;
        r.unassigned = vec![("spe_rff".into(), counts(0, 3, 0))];
        let text = r.render();
        assert!(text.contains("expected 827 flops"), "{text}");
        assert!(text.contains("(module spe_rff: not a block)"), "{text}");
        assert_eq!(r.unit_total().ff, 83);
    }

    #[test]
    fn a_missing_gen_folder_is_a_clear_error() {
        let e = sources(Path::new("/nonexistent/gen"), &PRESETS[0]).unwrap_err();
        assert!(e.contains("files.f") && e.contains("--gen"), "{e}");
    }
}
