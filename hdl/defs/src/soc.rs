//! The demo SoC around the unit (`soc/rtl`): a PicoRV32 core, its RAM, a UART, the unit's
//! register window and record-buffer RAM. One home for its memory map, its top-level ports
//! and the layout of the probe buses that carry the unit's ports out of the SoC for the
//! lockstep check. The SoC's rust-hdl code, its Verilated model, the host harness and the C
//! header `gen/soc/spe_soc.h` (for the software on the core) all read them from here.

use crate::ports::{Dir, PORTS};

/// The unit's preset inside the SoC: PicoRV32 executes one instruction at a time (W = 1).
pub const SOC_PRESET: &str = "minimal";
/// The unit's dispatch width there.
pub const SOC_W: usize = 1;
/// Its hardware threads: PicoRV32 has one.
pub const SOC_THREADS: usize = 1;

/// The SoC's folder in `gen/`.
pub const GEN_DIR: &str = "soc";

/// One region of the memory map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    /// C macro stem (`SOC_<NAME>_BASE`, `SOC_<NAME>_SIZE`).
    pub name: &'static str,
    pub base: u32,
    pub size: u32,
    pub meaning: &'static str,
}

/// Main RAM: code, data and stack, byte-writable, loaded with the program.
pub const RAM: Region = Region {
    name: "RAM",
    base: 0x0000_0000,
    size: 0x2000,
    meaning: "code, data, stack: loaded with the program; byte-writable",
};
/// Record buffer: written by the unit's memory port, read by the core.
pub const BUF: Region = Region {
    name: "BUF",
    base: 0x0001_0000,
    size: 0x1000,
    meaning:
        "SPE record buffer window: written by the unit (64-bit beats), read-only to the core; \
              its RAM (CTL+12 bytes) fills the window's top",
};
/// UART transmitter.
pub const UART: Region = Region {
    name: "UART",
    base: 0x0200_0000,
    size: 0x10,
    meaning: "UART: +0 write sends the low byte (8N1); +4 read: bit 0 transmitter busy",
};
/// The unit's registers: port address `A` at `base + 8·A`, low word at +0, high at +4.
pub const SPE: Region = Region {
    name: "SPE",
    base: 0x0300_0000,
    size: 0x100,
    meaning: "SPE registers: port address A at +8*A, bits 31:0 at +0, bits 63:32 at +4; \
              a word write is a 64-bit write that keeps the other half",
};
/// Control: end of program, cycle counter.
pub const CTL: Region = Region {
    name: "CTL",
    base: 0x0400_0000,
    size: 0x10,
    meaning:
        "control: +0 write ends the program with that exit code; +4 read: cycle counter bits 31:0; \
         +8 write: PSB CSYNC (psb_req until the unit's psb_done), read: bit 0 = PSB pending; \
         +12 read: bytes of record buffer RAM, which sits at the top of BUF",
};

/// Every region, in address order.
pub const REGIONS: &[Region] = &[RAM, BUF, UART, SPE, CTL];

/// Words of the main RAM and the width of its word address.
pub const RAM_WORDS: usize = RAM.size as usize / 4;
pub const RAM_ADDR_BITS: u32 = RAM_WORDS.trailing_zeros();
/// 64-bit beats of the record buffer and the width of its beat address.
pub const BUF_BEATS: usize = BUF.size as usize / 8;
pub const BUF_ADDR_BITS: u32 = BUF_BEATS.trailing_zeros();

/// Reset and interrupt vectors of the core (PicoRV32 `PROGADDR_RESET`, `PROGADDR_IRQ`).
pub const RESET_ADDR: u32 = 0x0;
pub const IRQ_ADDR: u32 = 0x10;
/// The core's IRQ line that carries PMBIRQ (0..2 are PicoRV32's own: timer, EBREAK/illegal,
/// bus error).
pub const SPE_IRQ: u32 = 4;

/// A device register of the UART or control region: `SOC_<name>` in the C header, `<name>`
/// in the Python map, at `offset` from its region's base.
pub struct DeviceReg {
    pub name: &'static str,
    pub region: &'static Region,
    pub offset: u32,
    pub meaning: &'static str,
}

/// The UART's and the control block's registers, for the C header and the Python map (the
/// SoC's RTL decodes these offsets from address bits 3:2 itself, `soc/rtl/src/lib.rs`).
pub const DEVICE_REGS: &[DeviceReg] = &[
    DeviceReg {
        name: "UART_DATA",
        region: &UART,
        offset: 0x0,
        meaning: "write: send the low byte",
    },
    DeviceReg {
        name: "UART_STATUS",
        region: &UART,
        offset: 0x4,
        meaning: "read: bit 0 = transmitter busy",
    },
    DeviceReg {
        name: "CTL_EXIT",
        region: &CTL,
        offset: 0x0,
        meaning: "write: end of program, exit code",
    },
    DeviceReg {
        name: "CTL_CYCLES",
        region: &CTL,
        offset: 0x4,
        meaning: "read: cycle counter bits 31:0",
    },
    DeviceReg {
        name: "CTL_PSB",
        region: &CTL,
        offset: 0x8,
        meaning: "write: PSB CSYNC; read: bit 0 = pending",
    },
    DeviceReg {
        name: "CTL_BUF_BYTES",
        region: &CTL,
        offset: 0xc,
        meaning: "read: record buffer RAM bytes, at the top of BUF",
    },
];

/// UART bit time in clock cycles in simulation (`gen/soc`): fast, the decoder samples the
/// TX pin at this rate. A board build uses its clock over its baud rate.
pub const SIM_BAUD_DIV: u32 = 4;

/// Data Source codes the SoC reports (impdef, Neoverse-style numbering as perf prints it):
/// on-chip SRAM answers like an L1 hit, the peripherals like a device.
pub const SOURCE_RAM: u8 = 0x0;
pub const SOURCE_DEVICE: u8 = 0xe;

/// The core of the demo SoC. Its Verilog comes from a pinned PyPI package, installed into
/// a project-local folder (never copied into the repository).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Core {
    /// PicoRV32: one instruction at a time, in order; nothing dispatched is ever thrown away.
    Picorv32,
    /// VexRiscv `Lite`: a 5-stage pipeline (F, D, E, M, WB) with static branch prediction and
    /// branches resolved in M, so younger instructions are dispatched down a wrong path and
    /// flushed; an instruction cache (2 KiB), no data cache, iterative MUL/DIV.
    Vexriscv,
    /// VexRiscv `Full`: the same pipeline with 4 KiB instruction and data caches. A load
    /// that misses is thrown away in WB and dispatched again once its line is in (the
    /// cache's *redo*); data-access faults are taken in WB. Its data cache covers addresses
    /// with bit 31 clear, so the program reaches the devices at [`IO_ALIAS`] + their address.
    VexriscvFull,
}

/// The address bit VexRiscv `Full` treats as "I/O, not cached" (its `ioRange` is bit 31):
/// its wrapper drops the bit, so every region is also seen uncached at `IO_ALIAS + base`.
pub const IO_ALIAS: u32 = 0x8000_0000;

impl Core {
    pub const ALL: [Core; 3] = [Core::Picorv32, Core::Vexriscv, Core::VexriscvFull];

    /// The name on the command line (`spe soc run --core NAME`).
    pub fn name(self) -> &'static str {
        match self {
            Core::Picorv32 => "picorv32",
            Core::Vexriscv => "vexriscv",
            Core::VexriscvFull => "vexriscv-full",
        }
    }

    pub fn parse(s: &str) -> Result<Core, String> {
        Core::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| {
                let names: Vec<_> = Core::ALL.iter().map(|c| c.name()).collect();
                format!("unknown core {s:?}: one of {}", names.join(", "))
            })
    }

    /// The SoC's folder in `gen/` for this core.
    pub fn gen_dir(self) -> &'static str {
        match self {
            Core::Picorv32 => GEN_DIR,
            Core::Vexriscv => "soc_vexriscv",
            Core::VexriscvFull => "soc_vexriscv_full",
        }
    }

    /// The PyPI package that carries the core's Verilog, and its pinned version.
    pub fn package(self) -> (&'static str, &'static str) {
        match self {
            Core::Picorv32 => (PICORV32_PACKAGE, PICORV32_VERSION),
            Core::Vexriscv | Core::VexriscvFull => ("pythondata-cpu-vexriscv", "1.0.1.post407"),
        }
    }

    /// The core's Verilog file inside the installed package folder.
    fn package_file(self) -> &'static str {
        match self {
            Core::Picorv32 => "pythondata_cpu_picorv32/verilog/picorv32.v",
            Core::Vexriscv => "pythondata_cpu_vexriscv/verilog/VexRiscv_Lite.v",
            Core::VexriscvFull => "pythondata_cpu_vexriscv/verilog/VexRiscv_Full.v",
        }
    }

    /// A VexRiscv (pipelined, hooked through `spe_vexriscv_hooks.v`), not PicoRV32.
    pub fn is_vexriscv(self) -> bool {
        self != Core::Picorv32
    }

    /// The environment variable that names another copy of the core's Verilog file.
    pub fn env_var(self) -> &'static str {
        match self {
            Core::Picorv32 => "PICORV32_V",
            Core::Vexriscv => "VEXRISCV_V",
            Core::VexriscvFull => "VEXRISCV_FULL_V",
        }
    }
}

/// The PicoRV32 release the SoC is built and tested with: the PyPI package
/// `pythondata-cpu-picorv32` at this version, installed into a project-local folder.
pub const PICORV32_PACKAGE: &str = "pythondata-cpu-picorv32";
pub const PICORV32_VERSION: &str = "1.0.post218";

/// One Verilog source of a board build (`spe fpga build`): the file, the macros
/// it is read with (`picorv32.v` needs `RISCV_FORMAL`) and the Yosys commands run right
/// after reading it (VexRiscv: `expose` its probed signals). Defined here, below both the
/// board tops (`soc/rtl`) that list them and the flow (`tools/fpga`) that reads them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VerilogSource {
    pub path: std::path::PathBuf,
    pub defines: Vec<String>,
    pub then: Vec<String>,
}

/// Where the project keeps a core's Verilog: its package installed with pip into
/// `<repo>/.deps/python` (not in git).
pub fn core_path(repo: &std::path::Path, core: Core) -> std::path::PathBuf {
    repo.join(".deps/python").join(core.package_file())
}

/// The core's Verilog file of the pinned package: `$PICORV32_V` / `$VEXRISCV_V` if set,
/// else the project-local copy, installed first (`python3 -m pip install --no-deps --target
/// <repo>/.deps/python <package>==<version>`) when it is missing or another version.
/// Returns the path and whether it was installed now.
pub fn ensure_core(
    repo: &std::path::Path,
    core: Core,
) -> Result<(std::path::PathBuf, bool), String> {
    if let Some(p) = std::env::var_os(core.env_var()) {
        let p = std::path::PathBuf::from(p);
        return if p.is_file() {
            Ok((p, false))
        } else {
            Err(format!(
                "${} names {}, which is not a file",
                core.env_var(),
                p.display()
            ))
        };
    }
    let (package, version) = core.package();
    let target = repo.join(".deps/python");
    let stamp = target.join(format!("{}-{version}.dist-info", package.replace('-', "_")));
    let path = core_path(repo, core);
    if path.is_file() && stamp.is_dir() {
        return Ok((path, false));
    }
    let spec = format!("{package}=={version}");
    pip_install(&target, &[spec.as_str()], false, &path)?;
    Ok((path, true))
}

/// `python3 -m pip install --target <target> <specs>` (pinned `name==version` specs; with
/// `--no-deps` unless `deps`), then checks that `done` exists (a file or folder the install
/// must leave). The error names the first spec and quotes pip's output.
pub fn pip_install(
    target: &std::path::Path,
    specs: &[&str],
    deps: bool,
    done: &std::path::Path,
) -> Result<(), String> {
    let spec = specs.first().copied().unwrap_or_default();
    let mut cmd = std::process::Command::new("python3");
    cmd.args(["-m", "pip", "install", "--quiet", "--upgrade"]);
    if !deps {
        cmd.arg("--no-deps");
    }
    let out = cmd
        .arg("--target")
        .arg(target)
        .args(specs)
        .output()
        .map_err(|e| {
            format!("cannot run python3 to install {spec}: {e} (install python3 and pip)")
        })?;
    if !out.status.success() || !done.exists() {
        return Err(format!(
            "installing {spec} into {} failed:\n{}",
            target.display(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(())
}

/// One top-level port of the SoC (`spe_soc`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SocPort {
    pub name: &'static str,
    pub dir: Dir,
    pub bits: u32,
    pub meaning: &'static str,
}

const fn sp(name: &'static str, dir: Dir, bits: u32, meaning: &'static str) -> SocPort {
    SocPort {
        name,
        dir,
        bits,
        meaning,
    }
}

/// Total width of the unit's ports of direction `dir` at the SoC's dispatch width.
pub const fn probe_bits(dir: Dir) -> u32 {
    let mut n = 0;
    let mut i = 0;
    while i < PORTS.len() {
        let same = matches!(
            (PORTS[i].dir, dir),
            (Dir::In, Dir::In) | (Dir::Out, Dir::Out)
        );
        if same {
            n += PORTS[i].width.total_for(SOC_W, SOC_THREADS);
        }
        i += 1;
    }
    n
}

/// Width of `spe_in`, every input of the unit side by side.
pub const PROBE_IN_BITS: u32 = probe_bits(Dir::In);
/// Width of `spe_out`, every output of the unit side by side.
pub const PROBE_OUT_BITS: u32 = probe_bits(Dir::Out);

/// The SoC's ports, in order (after `clk`).
pub const SOC_PORTS: &[SocPort] = &[
    sp("clk", Dir::In, 1, "Clock"),
    sp(
        "reset",
        Dir::In,
        1,
        "Synchronous active-high reset of the core, the unit and the glue",
    ),
    sp(
        "load_en",
        Dir::In,
        1,
        "Program loader: write load_data to RAM word load_addr (hold reset high meanwhile)",
    ),
    sp("load_addr", Dir::In, RAM_ADDR_BITS, "Loader word address"),
    sp("load_data", Dir::In, 32, "Loader data"),
    sp("uart_tx", Dir::Out, 1, "UART transmit pin (idle high, 8N1)"),
    sp(
        "exit_valid",
        Dir::Out,
        1,
        "The program wrote its exit code (sticky)",
    ),
    sp("exit_code", Dir::Out, 32, "The exit code"),
    sp(
        "rvfi_valid",
        Dir::Out,
        1,
        "RVFI: an instruction retired or trapped this cycle",
    ),
    sp("rvfi_pc", Dir::Out, 32, "RVFI: its address"),
    sp("rvfi_trap", Dir::Out, 1, "RVFI: it trapped"),
    sp(
        "hook_fault",
        Dir::In,
        2,
        "VexRiscv's hook adapter broken on purpose, for the checks that must catch it: 0 correct, 1 a flush reported as a retirement, 2 dispatch counted at retirement, 3 issue reported in the tag's cycle (PicoRV32: ignored)",
    ),
    sp(
        "core_disp_valid",
        Dir::Out,
        1,
        "The core dispatched an instruction (VexRiscv: it left D for E; PicoRV32: it retired), from the core's own signals: the ground truth",
    ),
    sp("core_disp_pc", Dir::Out, 32, "Its address"),
    sp(
        "spe_in",
        Dir::Out,
        PROBE_IN_BITS,
        "Every input of the SPE unit this cycle (PORTS order, first port in the low bits)",
    ),
    sp(
        "spe_out",
        Dir::Out,
        PROBE_OUT_BITS,
        "Every output of the SPE unit this cycle (PORTS order, first port in the low bits)",
    ),
];

/// Bit offset and width of each port of the unit of direction `dir` inside its probe bus:
/// `(PORTS index, offset, width)`.
pub fn probe_layout(dir: Dir) -> Vec<(usize, u32, u32)> {
    let mut off = 0;
    let mut out = Vec::new();
    for (i, p) in PORTS.iter().enumerate() {
        if p.dir == dir {
            let w = p.width.total_for(SOC_W, SOC_THREADS);
            out.push((i, off, w));
            off += w;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions_are_aligned_powers_of_two_and_disjoint() {
        for r in REGIONS {
            assert!(r.size.is_power_of_two(), "{}", r.name);
            assert_eq!(r.base % r.size, 0, "{} is not aligned to its size", r.name);
        }
        for w in REGIONS.windows(2) {
            assert!(
                w[0].base + w[0].size <= w[1].base,
                "{} overlaps {}",
                w[0].name,
                w[1].name
            );
        }
    }

    #[test]
    fn probe_layout_covers_every_port_once() {
        for (dir, bits) in [(Dir::In, PROBE_IN_BITS), (Dir::Out, PROBE_OUT_BITS)] {
            let l = probe_layout(dir);
            assert_eq!(l.iter().map(|x| x.2).sum::<u32>(), bits);
            assert_eq!(l.len(), PORTS.iter().filter(|p| p.dir == dir).count());
        }
    }
}
