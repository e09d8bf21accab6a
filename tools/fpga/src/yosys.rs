//! Yosys: the two synthesis scripts and the parser of `stat`.
//!
//! * **Per block** (`blocks.ys`): `synth_ice40 -flatten` (`synth_ecp5` on the ECP5) with `keep_hierarchy` set on the
//!   unit's top and on each block module, so the shared flop `spe_rff` is flattened into the
//!   block that uses it and every block is mapped as its own module. `stat` then gives each
//!   block's own cells. Nothing is optimised across a block boundary (constants and unused
//!   outputs are not propagated from one block into the next), so the sum of the blocks is
//!   an upper bound of the flattened unit.
//! * **Flattened** (`flat.ys`): plain `synth_ice40 -flatten` (`synth_ecp5`) of wrapper and unit together,
//!   written as JSON for nextpnr. This is the design that is placed and timed.

use crate::board::Family;
use spe_gen::emit::fpga_wrapper::Wrapper;
use std::collections::BTreeMap;
use std::path::Path;

/// File name of the per-block script, its statistics and its log.
pub const BLOCKS_SCRIPT: &str = "blocks.ys";
pub const BLOCKS_STAT: &str = "blocks-stat.txt";
pub const BLOCKS_LOG: &str = "yosys-blocks.log";
/// File name of the flattened script, its statistics, netlist and log.
pub const FLAT_SCRIPT: &str = "flat.ys";
pub const FLAT_STAT: &str = "flat-stat.txt";
pub const FLAT_JSON: &str = "flat.json";
pub const FLAT_LOG: &str = "yosys-flat.log";

/// Cell counts of one module, by primitive kind (iCE40 or ECP5).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CellCounts {
    /// `SB_LUT4`; ECP5 `LUT4`.
    pub lut4: u64,
    /// Every flip-flop kind (`SB_DFF`, `SB_DFFE`, `SB_DFFSR`, `SB_DFFESR`, ...; `TRELLIS_FF`).
    pub ff: u64,
    /// `SB_CARRY` (one bit); ECP5 `CCU2C` (two bits each).
    pub carry: u64,
    /// Any other primitive (`SB_RAM40_4K`, `DP16KD`, `PFUMX`, ...), by name.
    pub other: BTreeMap<String, u64>,
}

/// ECP5 primitives besides `LUT4`, `TRELLIS_FF` and `CCU2C` that `synth_ecp5` leaves.
const ECP5_OTHER: &[&str] = &[
    "DP16KD",
    "PDPW16KD",
    "PFUMX",
    "L6MUX21",
    "MULT18X18D",
    "ALU54B",
    "EHXPLLL",
    "DCCA",
];

impl CellCounts {
    fn add_cell(&mut self, kind: &str, n: u64) {
        match kind {
            "SB_LUT4" | "LUT4" => self.lut4 += n,
            "SB_CARRY" | "CCU2C" => self.carry += n,
            "TRELLIS_FF" => self.ff += n,
            k if k.starts_with("SB_DFF") => self.ff += n,
            k if k.starts_with("SB_") || k.starts_with("TRELLIS_") || ECP5_OTHER.contains(&k) => {
                *self.other.entry(k.to_string()).or_default() += n
            }
            // Instances of other modules of the design: counted in their own module.
            _ => {}
        }
    }

    /// Sum of two counts.
    pub fn plus(&self, o: &CellCounts) -> CellCounts {
        let mut s = self.clone();
        s.lut4 += o.lut4;
        s.ff += o.ff;
        s.carry += o.carry;
        for (k, v) in &o.other {
            *s.other.entry(k.clone()).or_default() += v;
        }
        s
    }

    /// True when the module has no primitive of its own.
    pub fn is_empty(&self) -> bool {
        self.lut4 == 0 && self.ff == 0 && self.carry == 0 && self.other.is_empty()
    }
}

/// The output of Yosys's `stat`: each module's own cells, and the whole design's.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stat {
    pub modules: BTreeMap<String, CellCounts>,
    /// The `design hierarchy` section (every module times its instance count), when printed.
    pub design: Option<CellCounts>,
}

/// Parses the text of `stat` (as `tee -o FILE stat` writes it).
pub fn parse_stat(text: &str) -> Result<Stat, String> {
    let mut stat = Stat::default();
    let mut current: Option<(String, CellCounts)> = None;
    let mut in_cells = false;
    let flush = |cur: &mut Option<(String, CellCounts)>, stat: &mut Stat| {
        if let Some((name, counts)) = cur.take() {
            if name == "design hierarchy" {
                stat.design = Some(counts);
            } else {
                stat.modules.insert(name, counts);
            }
        }
    };
    for line in text.lines() {
        let t = line.trim();
        if let Some(name) = t.strip_prefix("=== ").and_then(|r| r.strip_suffix(" ===")) {
            flush(&mut current, &mut stat);
            current = Some((name.to_string(), CellCounts::default()));
            in_cells = false;
            continue;
        }
        let Some((_, counts)) = current.as_mut() else {
            continue;
        };
        if t.starts_with("Number of cells:") {
            in_cells = true;
            continue;
        }
        if !in_cells {
            continue;
        }
        let mut words = t.split_whitespace();
        match (words.next(), words.next(), words.next()) {
            (Some(kind), Some(n), None) => match n.parse::<u64>() {
                Ok(n) => counts.add_cell(kind, n),
                Err(_) => in_cells = false,
            },
            _ => in_cells = false,
        }
    }
    flush(&mut current, &mut stat);
    if stat.modules.is_empty() {
        return Err("no `=== module ===` section in the Yosys statistics".into());
    }
    Ok(stat)
}

/// The version number in `yosys -V` output (`Yosys 0.23 (git sha1 7ce5011c24b)` → `0.23`).
pub fn parse_version(line: &str) -> Option<String> {
    let mut w = line.split_whitespace();
    (w.next()? == "Yosys").then_some(())?;
    w.next().map(str::to_string)
}

fn read_sources(sources: &[impl AsRef<Path>], wrapper_file: &str) -> String {
    let mut s = String::from("read_verilog");
    for f in sources {
        s.push(' ');
        s.push_str(&quote(&f.as_ref().display().to_string()));
    }
    s.push(' ');
    s.push_str(wrapper_file);
    s.push('\n');
    s
}

fn quote(p: &str) -> String {
    if p.contains([' ', '"', ';']) {
        format!("\"{p}\"")
    } else {
        p.to_string()
    }
}

/// The per-block script: `keep_hierarchy` on `kept` (the unit's top and blocks), the rest
/// (the shared flop) flattened into them.
pub fn blocks_script(
    w: &Wrapper,
    sources: &[impl AsRef<Path>],
    wrapper_file: &str,
    kept: &[String],
    family: Family,
) -> String {
    format!(
        "# Per-block synthesis of {top}: each block mapped as its own module.\n\
         # Generated by `spe synth`. Do not edit.\n\
         {read}hierarchy -top {top}\n\
         setattr -mod -set keep_hierarchy 1 {kept}\n\
         {synth} -top {top} -flatten\n\
         tee -q -o {BLOCKS_STAT} stat\n",
        top = w.module,
        synth = family.synth(),
        read = read_sources(sources, wrapper_file),
        kept = kept.join(" "),
    )
}

/// The flattened script, writing the netlist nextpnr places.
pub fn flat_script(
    w: &Wrapper,
    sources: &[impl AsRef<Path>],
    wrapper_file: &str,
    family: Family,
) -> String {
    format!(
        "# Flattened synthesis of {top} for {pnr}.\n\
         # Generated by `spe synth`. Do not edit.\n\
         {read}{synth} -top {top} -flatten -json {FLAT_JSON}\n\
         tee -q -o {FLAT_STAT} stat\n",
        top = w.module,
        synth = family.synth(),
        pnr = family.nextpnr(),
        read = read_sources(sources, wrapper_file),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An excerpt of `stat` after the per-block run of `spe synth --preset minimal` (Yosys
    /// 0.23), sections shortened to the ones the parser must handle.
    const STAT_BLOCKS: &str = "
13. Printing statistics.

=== spe_filter_minimal ===

   Number of wires:                 20
   Number of wire bits:            146
   Number of public wires:          20
   Number of public wire bits:     146
   Number of memories:               0
   Number of memory bits:            0
   Number of processes:              0
   Number of cells:                 55
     SB_CARRY                       12
     SB_LUT4                        43

=== spe_regs_minimal ===

   Number of wires:                234
   Number of wire bits:           2423
   Number of public wires:         234
   Number of public wire bits:    2423
   Number of memories:               0
   Number of memory bits:            0
   Number of processes:              0
   Number of cells:                662
     SB_DFFESR                     135
     SB_DFFSR                      128
     SB_LUT4                       399

=== spe_synth_minimal ===

   Number of wires:                 25
   Number of wire bits:           1113
   Number of public wires:          25
   Number of public wire bits:    1113
   Number of memories:               0
   Number of memory bits:            0
   Number of processes:              0
   Number of cells:                899
     SB_DFF                        827
     SB_LUT4                        71
     spe_top_minimal                 1

=== spe_top_minimal ===

   Number of wires:                150
   Number of wire bits:           3300
   Number of public wires:         150
   Number of public wire bits:    3300
   Number of memories:               0
   Number of memory bits:            0
   Number of processes:              0
   Number of cells:                  2
     spe_filter_minimal              1
     spe_regs_minimal                1

=== design hierarchy ===

   spe_synth_minimal                 1
     spe_top_minimal                 1
       spe_filter_minimal            1
       spe_regs_minimal              1

   Number of wires:               1012
   Number of wire bits:          14466
   Number of public wires:        1012
   Number of public wire bits:   14466
   Number of memories:               0
   Number of memory bits:            0
   Number of processes:              0
   Number of cells:               1616
     SB_CARRY                       12
     SB_DFF                        827
     SB_DFFESR                     135
     SB_DFFSR                      128
     SB_LUT4                       513

";

    #[test]
    fn stat_gives_each_module_its_own_cells() {
        let s = parse_stat(STAT_BLOCKS).unwrap();
        assert_eq!(s.modules.len(), 4);
        let regs = &s.modules["spe_regs_minimal"];
        assert_eq!((regs.lut4, regs.ff, regs.carry), (399, 263, 0));
        let filter = &s.modules["spe_filter_minimal"];
        assert_eq!((filter.lut4, filter.ff, filter.carry), (43, 0, 12));
        // The wrapper's instance of the unit is not a cell of the wrapper.
        let w = &s.modules["spe_synth_minimal"];
        assert_eq!((w.lut4, w.ff, w.carry), (71, 827, 0));
        assert!(w.other.is_empty());
        assert!(s.modules["spe_top_minimal"].is_empty());
    }

    #[test]
    fn module_counts_add_up_to_the_design_hierarchy() {
        let s = parse_stat(STAT_BLOCKS).unwrap();
        let sum = s
            .modules
            .values()
            .fold(CellCounts::default(), |a, c| a.plus(c));
        assert_eq!(Some(sum), s.design);
    }

    #[test]
    fn other_primitives_are_kept_by_name() {
        let s =
            parse_stat("=== m ===\n   Number of cells: 3\n     SB_RAM40_4K 2\n     SB_DFFE 1\n\n")
                .unwrap();
        let m = &s.modules["m"];
        assert_eq!(m.ff, 1);
        assert_eq!(m.other["SB_RAM40_4K"], 2);
    }

    #[test]
    fn empty_stat_is_an_error() {
        assert!(parse_stat("ERROR: something\n").is_err());
    }

    #[test]
    fn version_is_the_second_word() {
        assert_eq!(
            parse_version("Yosys 0.23 (git sha1 7ce5011c24b)").as_deref(),
            Some("0.23")
        );
        assert_eq!(parse_version("nextpnr"), None);
    }
}
