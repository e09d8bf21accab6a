//! Line and toggle coverage of `gen/` from Verilator's coverage data (`coverage.dat`, as a
//! `--coverage-line --coverage-toggle` model writes it).
//!
//! Each line of the file is `C '<key>' <count>`; the key is a list of `\x01name\x02value`
//! fields: `f` file, `l` line, `page` (`v_line/…`, `v_branch/…` or `v_toggle/…`), `o` the
//! point's comment (for toggles, the signal and bit), `h` the instance. [`CoverageData`]
//! merges files by key (counts add up), and [`CoverageData::report`] summarises per Verilog
//! file: line points (blocks and branch arms, Verilator's `--coverage-line`) and toggle
//! points, with every line point never hit and, per signal, the bits never toggled.

use spe_defs::regs::{read_only_value, REGS};
use spe_defs::Config;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::Path;

/// What kind of point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// A statement block (`v_line`).
    Line,
    /// One arm of an `if`/`case` (`v_branch`).
    Branch,
    /// One bit of a signal toggling both ways (`v_toggle`).
    Toggle,
}

/// One coverage point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Point {
    pub kind: Kind,
    /// Path relative to the repository (`gen/default/spe_writer_default.v`).
    pub file: String,
    pub line: u32,
    /// Verilator's comment: the construct, or the signal and bit of a toggle point.
    pub comment: String,
    pub hier: String,
    pub count: u64,
}

/// Merged coverage data.
#[derive(Clone, Debug, Default)]
pub struct CoverageData {
    /// Raw key -> count (the key is what Verilator writes, so merging is exact).
    counts: HashMap<String, u64>,
}

fn field<'a>(key: &'a str, name: &str) -> Option<&'a str> {
    key.split('\x01')
        .filter_map(|f| f.split_once('\x02'))
        .find(|(n, _)| *n == name)
        .map(|(_, v)| v)
}

/// `…/gen/minimal/../spe_rff.v` -> `gen/spe_rff.v`.
fn repo_path(f: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for p in f.split('/') {
        match p {
            ".." => {
                parts.pop();
            }
            "." | "" => {}
            _ => parts.push(p),
        }
    }
    match parts.iter().rposition(|p| *p == "gen") {
        Some(i) => parts[i..].join("/"),
        None => parts.join("/"),
    }
}

/// Why a toggle point is left out of the toggle figure, if it is. Only one kind of point
/// is: a bit of a register's read-back value (`rd_<reg>`, `o_<reg>`) or storage
/// (`<reg>__q`, `<reg>__d`) in a preset's register block that is RES0 in that preset, by
/// the register table of `spe-defs` (outside [`RegDef::writable_mask`]), or, for the ID
/// registers (PMSIDR, PMBIDR: read-only), a bit that reads 0. Such a bit is zero by
/// design and no stimulus can toggle it.
pub fn exclusion(file: &str, signal: &str, bit: u32) -> Option<&'static str> {
    let mut parts = file.split('/');
    let (Some("gen"), Some(preset), Some(name), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return None;
    };
    if name != format!("spe_regs_{preset}.v") || bit >= 64 {
        return None;
    }
    let cfg = Config::preset(preset)?;
    // Verilator writes `__` in a name as `___05F`.
    let signal = signal.replace("___05F", "__");
    let reg = signal
        .strip_prefix("rd_")
        .or_else(|| signal.strip_prefix("o_"))
        .or_else(|| signal.strip_suffix("__q"))
        .or_else(|| signal.strip_suffix("__d"))?;
    // The block names a register's signals after its RegId in snake case (`pmscr_el1`).
    let def = REGS
        .iter()
        .find(|d| format!("{:?}", d.id).to_lowercase() == reg.replace('_', ""))?;
    if def.read_only {
        (read_only_value(def.id, cfg) >> bit & 1 == 0).then_some("ID register bit that reads 0")
    } else {
        (def.writable_mask(cfg) >> bit & 1 == 0).then_some("RES0 register bit")
    }
}

impl CoverageData {
    /// Adds the counts of one `coverage.dat` text.
    pub fn merge_text(&mut self, text: &str) -> Result<(), String> {
        for (n, line) in text.lines().enumerate() {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let bad = || format!("coverage data line {}: not `C '<key>' <count>`", n + 1);
            let rest = line.strip_prefix("C '").ok_or_else(bad)?;
            let (key, count) = rest.rsplit_once("' ").ok_or_else(bad)?;
            let count: u64 = count.trim().parse().map_err(|_| bad())?;
            *self.counts.entry(key.to_string()).or_insert(0) += count;
        }
        Ok(())
    }

    /// Adds one `coverage.dat` file.
    pub fn merge_file(&mut self, path: &Path) -> Result<(), String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        self.merge_text(&text)
            .map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Writes the merged data in Verilator's format (for `verilator_coverage --annotate`).
    pub fn write(&self, path: &Path) -> Result<(), String> {
        let mut keys: Vec<_> = self.counts.iter().collect();
        keys.sort();
        let mut s = String::from("# SystemC::Coverage-3\n");
        for (k, c) in keys {
            let _ = writeln!(s, "C '{k}' {c}");
        }
        std::fs::write(path, s).map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    /// Every point, parsed.
    pub fn points(&self) -> Vec<Point> {
        let mut v: Vec<Point> = self
            .counts
            .iter()
            .filter_map(|(k, &count)| {
                let page = field(k, "page")?;
                let kind = if page.starts_with("v_toggle") {
                    Kind::Toggle
                } else if page.starts_with("v_branch") {
                    Kind::Branch
                } else if page.starts_with("v_line") {
                    Kind::Line
                } else {
                    return None;
                };
                Some(Point {
                    kind,
                    file: repo_path(field(k, "f")?),
                    line: field(k, "l")?.parse().ok()?,
                    comment: field(k, "o").unwrap_or("").to_string(),
                    hier: field(k, "h").unwrap_or("").to_string(),
                    count,
                })
            })
            .collect();
        v.sort_by(|a, b| {
            (&a.file, a.line, a.kind, &a.comment, &a.hier)
                .cmp(&(&b.file, b.line, b.kind, &b.comment, &b.hier))
        });
        v
    }

    /// The report: per file, line points (blocks and branch arms) and toggle points hit out
    /// of all (excluded toggle points apart); every line point no instance hit; per signal,
    /// the bits some instance never toggled.
    pub fn report(&self) -> Report {
        let mut files: BTreeMap<String, FileTotals> = BTreeMap::new();
        // A line point counts once per (file, line, kind, comment): hit if any instance hit it.
        let mut lines: BTreeMap<(String, u32, Kind, String), u64> = BTreeMap::new();
        let mut excluded: BTreeMap<&'static str, u64> = BTreeMap::new();
        let mut contradictions = Vec::new();
        // Per (file, signal), per bit: (instances that never toggled it, instances).
        let mut untoggled: BTreeMap<(String, String), BTreeMap<u32, (u32, u32)>> = BTreeMap::new();
        for p in self.points() {
            let f = files.entry(p.file.clone()).or_default();
            match p.kind {
                Kind::Toggle => {
                    let (name, bit) = split_bit(&p.comment);
                    if let Some(why) = exclusion(&p.file, name, bit) {
                        f.toggle_excluded += 1;
                        *excluded.entry(why).or_insert(0) += 1;
                        if p.count > 0 {
                            // A bit the table says is zero toggled: the RTL (or the
                            // table) is wrong.
                            contradictions.push(format!("{}: {} ({why})", p.file, p.comment));
                        }
                        continue;
                    }
                    f.toggle_total += 1;
                    f.toggle_hit += u64::from(p.count > 0);
                    let e = untoggled
                        .entry((p.file.clone(), name.to_string()))
                        .or_default()
                        .entry(bit)
                        .or_insert((0, 0));
                    e.0 += u32::from(p.count == 0);
                    e.1 += 1;
                }
                k => {
                    *lines
                        .entry((p.file.clone(), p.line, k, p.comment.clone()))
                        .or_insert(0) += p.count;
                }
            }
        }
        let untoggled = untoggled
            .into_iter()
            .filter_map(|((file, signal), bits)| {
                let instances = bits.values().map(|b| b.1).max().unwrap_or(0);
                let missed: Vec<(u32, u32)> = bits
                    .into_iter()
                    .filter(|(_, (m, _))| *m > 0)
                    .map(|(bit, (m, _))| (bit, m))
                    .collect();
                (!missed.is_empty()).then_some(Untoggled {
                    file,
                    signal,
                    instances,
                    missed,
                })
            })
            .collect();
        let mut uncovered = Vec::new();
        for ((file, line, kind, comment), count) in lines {
            let f = files.entry(file.clone()).or_default();
            f.line_total += 1;
            if count > 0 {
                f.line_hit += 1;
            } else {
                uncovered.push((file, line, kind, comment));
            }
        }
        Report {
            files,
            uncovered,
            untoggled,
            excluded,
            contradictions,
        }
    }
}

/// `pc_q[12]` -> (`pc_q`, 12); a 1-bit signal `valid` -> (`valid`, 0).
fn split_bit(comment: &str) -> (&str, u32) {
    if let Some(open) = comment.rfind('[') {
        if let Some(bit) = comment[open + 1..]
            .strip_suffix(']')
            .and_then(|b| b.parse().ok())
        {
            return (&comment[..open], bit);
        }
    }
    (comment, 0)
}

/// The bits of one signal of one file that some instance never toggled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Untoggled {
    pub file: String,
    pub signal: String,
    /// Instances of the signal (one per preset instance of the module).
    pub instances: u32,
    /// (bit, how many instances never toggled it), bits ascending.
    pub missed: Vec<(u32, u32)>,
}

impl Untoggled {
    /// `pc_q[63:48,3] (17 bits)`, with `, some of 2 instances` where not every instance
    /// missed every listed bit.
    pub fn describe(&self) -> String {
        let mut ranges: Vec<(u32, u32)> = Vec::new();
        for &(b, _) in &self.missed {
            match ranges.last_mut() {
                Some(r) if r.1 + 1 == b => r.1 = b,
                _ => ranges.push((b, b)),
            }
        }
        let bits: Vec<String> = ranges
            .iter()
            .rev()
            .map(|&(lo, hi)| {
                if lo == hi {
                    format!("{lo}")
                } else {
                    format!("{hi}:{lo}")
                }
            })
            .collect();
        let all = self.missed.iter().all(|&(_, m)| m == self.instances);
        format!(
            "{}[{}] ({} bits{})",
            self.signal,
            bits.join(","),
            self.missed.len(),
            if all || self.instances == 1 {
                String::new()
            } else {
                format!(", some of {} instances", self.instances)
            }
        )
    }
}

/// Totals of one file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FileTotals {
    pub line_hit: u64,
    pub line_total: u64,
    pub toggle_hit: u64,
    /// Toggle points counted (excluded ones are not).
    pub toggle_total: u64,
    /// Toggle points left out ([`exclusion`]).
    pub toggle_excluded: u64,
}

/// The coverage report.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub files: BTreeMap<String, FileTotals>,
    /// Line points never hit: file, line, kind, comment.
    pub uncovered: Vec<(String, u32, Kind, String)>,
    /// Signals with bits that some instance never toggled, by file (excluded bits not).
    pub untoggled: Vec<Untoggled>,
    /// Toggle points left out, by reason.
    pub excluded: BTreeMap<&'static str, u64>,
    /// Excluded points that toggled all the same: a register bit that should be zero by
    /// the register table was not (a failure, never a coverage gap).
    pub contradictions: Vec<String>,
}

fn pct(hit: u64, total: u64) -> f64 {
    if total == 0 {
        100.0
    } else {
        100.0 * hit as f64 / total as f64
    }
}

impl Report {
    /// Sum over every file.
    pub fn total(&self) -> FileTotals {
        self.files
            .values()
            .fold(FileTotals::default(), |a, f| FileTotals {
                line_hit: a.line_hit + f.line_hit,
                line_total: a.line_total + f.line_total,
                toggle_hit: a.toggle_hit + f.toggle_hit,
                toggle_total: a.toggle_total + f.toggle_total,
                toggle_excluded: a.toggle_excluded + f.toggle_excluded,
            })
    }

    /// The report as text (Markdown table plus the uncovered lines).
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "| file | line points | line % | toggle points | toggle % | excluded |"
        );
        let _ = writeln!(s, "|---|---:|---:|---:|---:|---:|");
        let row = |s: &mut String, name: &str, f: &FileTotals| {
            let _ = writeln!(
                s,
                "| {name} | {}/{} | {:.1} | {}/{} | {:.1} | {} |",
                f.line_hit,
                f.line_total,
                pct(f.line_hit, f.line_total),
                f.toggle_hit,
                f.toggle_total,
                pct(f.toggle_hit, f.toggle_total),
                f.toggle_excluded
            );
        };
        for (name, f) in &self.files {
            row(&mut s, name, f);
        }
        row(&mut s, "**all**", &self.total());
        let _ = writeln!(s);
        if !self.contradictions.is_empty() {
            let _ = writeln!(
                s,
                "**Register bits that the register table makes zero but that toggled ({}):**",
                self.contradictions.len()
            );
            for c in &self.contradictions {
                let _ = writeln!(s, "- {c}");
            }
            let _ = writeln!(s);
        }
        if !self.excluded.is_empty() {
            let list: Vec<String> = self
                .excluded
                .iter()
                .map(|(why, n)| format!("{n} ({why})"))
                .collect();
            let _ = writeln!(
                s,
                "Toggle points excluded, each a register bit that is zero by design in its \
                 preset's register table: {}.",
                list.join(", ")
            );
            let _ = writeln!(s);
        }
        if self.uncovered.is_empty() {
            let _ = writeln!(s, "Every line point was hit.");
        } else {
            let _ = writeln!(s, "Line points never hit ({}):", self.uncovered.len());
            for (file, line, kind, comment) in &self.uncovered {
                let _ = writeln!(s, "- {file}:{line} ({kind:?} {comment})");
            }
        }
        let _ = writeln!(s);
        if self.untoggled.is_empty() {
            let _ = writeln!(s, "Every bit toggled.");
        } else {
            let n: usize = self.untoggled.iter().map(|u| u.missed.len()).sum();
            let _ = writeln!(s, "Bits never toggled ({n} signal bits, by file):");
            let mut file = "";
            for u in &self.untoggled {
                if u.file != file {
                    file = &u.file;
                    let _ = writeln!(s, "- {file}:");
                }
                let _ = writeln!(s, "  - {}", u.describe());
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(f: &str, l: u32, page: &str, o: &str, h: &str) -> String {
        format!("\x01f\x02{f}\x01l\x02{l}\x01n\x025\x01page\x02{page}\x01o\x02{o}\x01h\x02{h}")
    }

    /// Only RES0 bits of a register's read-back and storage signals in the register block
    /// are excluded, by the preset's register table.
    #[test]
    fn res0_register_bits_are_excluded_and_nothing_else() {
        let f = "gen/default/spe_regs_default.v";
        // PMSCR_EL1: E0SPE (bit 0) is a field, bit 63 is RES0.
        assert_eq!(exclusion(f, "rd_pmscr_el1", 0), None);
        assert!(exclusion(f, "rd_pmscr_el1", 63).is_some());
        assert!(exclusion(f, "o_pmscr_el1", 63).is_some());
        // PMBLIMITR: E (bit 0) and LIMIT (63:12) are fields; storage bit 3 is RES0.
        assert!(exclusion(f, "pmblimitr___05Fq", 3).is_some());
        assert_eq!(exclusion(f, "pmblimitr___05Fq", 12), None);
        assert_eq!(exclusion(f, "pmblimitr___05Fd", 0), None);
        // PMBIDR (read-only): ALIGN = 6 reads 0b0110 in bits 3:0.
        assert!(exclusion(f, "o_pmbidr", 0).is_some());
        assert_eq!(exclusion(f, "o_pmbidr", 1), None);
        // PMSLATFR: MINLAT is as wide as the counters (12 bits here, 16 on wide).
        assert!(exclusion(f, "rd_pmslatfr", 13).is_some());
        assert_eq!(
            exclusion("gen/wide/spe_regs_wide.v", "rd_pmslatfr", 13),
            None
        );
        // Not a register signal, another block, an unknown preset, a 65th bit.
        assert_eq!(exclusion(f, "rd_data", 63), None);
        assert_eq!(exclusion(f, "sample_ctl", 63), None);
        assert_eq!(
            exclusion("gen/default/spe_writer_default.v", "o_pmscr_el1", 63),
            None
        );
        assert_eq!(
            exclusion("gen/nope/spe_regs_nope.v", "o_pmscr_el1", 63),
            None
        );
        assert_eq!(exclusion(f, "rd_pmscr_el1", 64), None);
        // The report leaves them out of the figure and lists the count.
        let mut d = CoverageData::default();
        d.merge_text(&format!(
            "C '{}' 0\nC '{}' 0\n",
            key(f, 9, "v_toggle/r", "rd_pmscr_el1[63]", "TOP.r"),
            key(f, 9, "v_toggle/r", "rd_pmscr_el1[0]", "TOP.r"),
        ))
        .unwrap();
        let r = d.report();
        let t = r.total();
        assert_eq!((t.toggle_hit, t.toggle_total, t.toggle_excluded), (0, 1, 1));
        assert_eq!(r.untoggled.len(), 1);
        assert_eq!(r.untoggled[0].describe(), "rd_pmscr_el1[0] (1 bits)");
        assert!(
            r.to_text().contains("1 (RES0 register bit)"),
            "{}",
            r.to_text()
        );
        assert!(r.contradictions.is_empty());
        // A RES0 bit that toggled is reported as a contradiction.
        d.merge_text(&format!(
            "C '{}' 2\n",
            key(f, 9, "v_toggle/r", "rd_pmscr_el1[63]", "TOP.r")
        ))
        .unwrap();
        let r = d.report();
        assert_eq!(r.total().toggle_excluded, 1);
        assert_eq!(r.contradictions.len(), 1);
        assert!(r.to_text().contains("rd_pmscr_el1[63]"), "{}", r.to_text());
    }

    #[test]
    fn untoggled_bits_are_listed_as_ranges() {
        let u = Untoggled {
            file: "f".into(),
            signal: "pc_q".into(),
            instances: 2,
            missed: vec![(3, 2), (48, 2), (49, 1), (50, 2), (63, 2)],
        };
        assert_eq!(
            u.describe(),
            "pc_q[63,50:48,3] (5 bits, some of 2 instances)"
        );
        assert_eq!(split_bit("pc_q[12]"), ("pc_q", 12));
        assert_eq!(split_bit("valid"), ("valid", 0));
        assert_eq!(split_bit("a[1][2]"), ("a[1]", 2));
    }

    #[test]
    fn merges_and_reports() {
        let a = format!(
            "# SystemC::Coverage-3\nC '{}' 3\nC '{}' 0\nC '{}' 0\nC '{}' 1\n",
            key(
                "/x/gen/minimal/../spe_rff.v",
                16,
                "v_line/spe_rff",
                "block",
                "TOP.a"
            ),
            key(
                "/x/gen/minimal/../spe_rff.v",
                16,
                "v_line/spe_rff",
                "block",
                "TOP.b"
            ),
            key(
                "/x/gen/minimal/spe_writer_minimal.v",
                40,
                "v_branch/w",
                "if",
                "TOP.w"
            ),
            key(
                "/x/gen/minimal/spe_writer_minimal.v",
                9,
                "v_toggle/w",
                "d[0]",
                "TOP.w"
            ),
        );
        let b = format!(
            "C '{}' 0\nC '{}' 0\n",
            key(
                "/x/gen/minimal/spe_writer_minimal.v",
                40,
                "v_branch/w",
                "if",
                "TOP.w"
            ),
            key(
                "/x/gen/minimal/spe_writer_minimal.v",
                9,
                "v_toggle/w",
                "d[1]",
                "TOP.w"
            ),
        );
        let mut d = CoverageData::default();
        d.merge_text(&a).unwrap();
        d.merge_text(&b).unwrap();
        assert!(d.merge_text("C 'x 3\n").is_err());
        let r = d.report();
        let rff = r.files["gen/spe_rff.v"];
        // Two instances of one line point: hit because one instance hit it.
        assert_eq!((rff.line_hit, rff.line_total), (1, 1));
        let w = r.files["gen/minimal/spe_writer_minimal.v"];
        assert_eq!(
            (w.line_hit, w.line_total, w.toggle_hit, w.toggle_total),
            (0, 1, 1, 2)
        );
        assert_eq!(r.uncovered.len(), 1);
        assert_eq!(r.uncovered[0].0, "gen/minimal/spe_writer_minimal.v");
        assert_eq!(r.uncovered[0].1, 40);
        let text = r.to_text();
        assert!(
            text.contains("gen/minimal/spe_writer_minimal.v:40"),
            "{text}"
        );
        // d[0] toggled, d[1] did not.
        assert_eq!(r.untoggled.len(), 1);
        assert_eq!(r.untoggled[0].describe(), "d[1] (1 bits)");
        assert!(text.contains("  - d[1] (1 bits)"), "{text}");
        // Round trip through the file format.
        let p = std::env::temp_dir().join(format!("spe-cov-{}.dat", std::process::id()));
        d.write(&p).unwrap();
        let mut e = CoverageData::default();
        e.merge_file(&p).unwrap();
        assert_eq!(e.report().total(), r.total());
        std::fs::remove_file(&p).unwrap();
    }
}
