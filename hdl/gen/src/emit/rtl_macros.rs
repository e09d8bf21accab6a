//! The RTL's table macros, written by `hdl/rtl/build.rs` into its `OUT_DIR`. Generates the flat port list of `spe_top` and the wiring of the hook ports from
//! `spe_defs::ports::PORTS`, so that a port is declared once, in the definitions crate.
//!
//! Writes `$OUT_DIR/top_ports.rs` with one callback macro that `src/top.rs` uses:
//! `with_top_ports! { m { rest } }` (exported: the SoC's wrapper of the unit uses it too) calls
//! `m! { ports { name: In|Out Type; ... } hooks { bundle field port; ... } rest }`:
//! `clk` and every port of `PORTS` in order, then every hook input (groups translation,
//! memory, branch, completion) with the tracker block's report bundle and the field of
//! the same name less its prefix (`br target br_target;`). `with_smt_top_ports!` does the
//! same for the multithreaded top (`src/smt_top.rs`): `PORTS` then `SMT_PORTS`, each
//! per-thread port `T` copies wide, and the hook wiring split by width (`hooks1 { br taken
//! br_taken; }`, `hooksn { br target br_target 56; }`).
//!
//! Writes `$OUT_DIR/reg_table.rs` with `with_reg_table! { m { rest } }` (used by
//! `src/regs.rs`), generated from `spe_defs::regs::REGS`, which calls `m! { rw { ... }
//! stored { ... } live { ... } ro { ... } opt { ... } rest }`: every read/write register as
//! `flop addr mask read zero term RegId bits;` (the names of its flop, port address,
//! writable mask, zero-extended read value, that value's zero seed and its term of the read
//! multiplexer, its `RegId` and its storage width), those whose read-back is the stored value
//! as `flop read zero;` and those whose read-back is the hardware's value (`HwUpdate::Live`)
//! as `read zero;`, the read-only registers as `addr value term RegId;`, and the registers
//! only some units build (`RegDef::option`, read/write, no hardware update) as
//! `flop addr mask RegId;` (64 bits of storage whatever the fields), each name a vector of zero or one element.
//! The register block expands its flops, write decode and read multiplexer from these lists.

use spe_defs::ports::{hook_report, Dir, Width, OPTION_PORTS, PORTS, SMT_PORTS};
use spe_defs::regs::{Bank, HwUpdate, REGS};
use std::fmt::Write as _;

/// The rust-hdl type of a port of the one-thread top: per-slot buses use the top's width
/// parameters; a per-thread port is the one thread's copy.
fn port_type(name: &str, width: Width) -> String {
    match width {
        Width::Bits(1) => "Bit".into(),
        Width::Bits(n) => format!("Bits<{n}>"),
        Width::PerSlot(1) => "Bits<W>".into(),
        Width::PerSlot(n) if n == spe_defs::packet::addr_payload::ADDR_BITS => "Bits<PCB>".into(),
        Width::PerSlot(2) => "Bits<CB>".into(),
        Width::PerSlot(8) => "Bits<SB>".into(),
        Width::PerSlot(n) => panic!("port {name}: no top parameter for a {n}-bit slot field"),
        Width::PerThread(1) => "Bit".into(),
        Width::PerThread(n) => format!("Bits<{n}>"),
        Width::ThreadId | Width::PerSlotThreadId => {
            panic!("port {name}: only a multithreaded unit has it (SMT_PORTS)")
        }
    }
}

/// The rust-hdl type of a port of the multithreaded top (`SpeSmtTop`): a per-thread port of
/// `n` bits is `T x n` bits, the top's parameter `TB<n>` (`T` itself for one bit); the
/// thread numbers are `TIDW` bits once and `WTID` = `W x TIDW` bits per slot.
fn smt_port_type(name: &str, width: Width) -> String {
    match width {
        Width::PerThread(1) => "Bits<T>".into(),
        Width::PerThread(n) if SMT_LANE_BITS.contains(&n) => format!("Bits<TB{n}>"),
        Width::PerThread(n) => panic!("port {name}: no SMT top parameter for {n} bits a thread"),
        Width::ThreadId => "Bits<TIDW>".into(),
        Width::PerSlotThreadId => "Bits<WTID>".into(),
        w => port_type(name, w),
    }
}

/// The per-thread widths above one bit that the SMT top has a `TB<n>` parameter for.
const SMT_LANE_BITS: &[u32] = &[2, 4, 8, 32, 56, 64];

/// `PmscrEl1` -> `pmscr_el1`.
fn snake(id: &str) -> String {
    let mut out = String::new();
    for (i, c) in id.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// The register lists of `with_reg_table!` (see the module doc).
/// `reg_table.rs`: `with_reg_table!`.
pub fn reg_table() -> String {
    let (mut rw, mut stored, mut live, mut ro, mut opt) = (
        String::new(),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
    );
    for r in REGS {
        let id = format!("{:?}", r.id);
        let n = snake(&id);
        // A register only some units build (`RegDef::option`): its flop, address and mask,
        // each a vector of zero or one element (read back as stored: 64 bits).
        if r.option.is_some() {
            // Hardware updates of an optional register (PMBSR_EL2/EL3's management
            // events) are written by hand in regs.rs, between the generated hold and the
            // port write; a live one has no path.
            assert!(
                !r.read_only && r.hw != HwUpdate::Live,
                "{}: an optional register is read/write and stored (regs.rs has no path for another kind)",
                r.name
            );
            // Stored in 64 bits whatever its fields (the writable mask keeps the rest
            // zero) and read back without a zero-extension: rust-hdl 0.46 mistranslates a
            // field setter on an element of a vector of signals (`x[i].next.set_value_at`).
            write!(opt, "{n} a_{n} m_{n} {id}; ").unwrap();
            continue;
        }
        // One copy per register in each `SpeRegs` (a multithreaded unit has one block per
        // thread: `PerThread`); a new kind of bank must be handled here.
        match r.bank {
            Bank::PerThread => {}
        }
        if r.read_only {
            assert_eq!(
                r.hw,
                HwUpdate::None,
                "{}: read-only with a hardware update",
                r.name
            );
            write!(ro, "a_{n} v_{n} o_{n} {id}; ").unwrap();
            continue;
        }
        let bits = r.storage_bits();
        assert!(
            (1..=64).contains(&bits),
            "{}: storage of {bits} bits",
            r.name
        );
        write!(rw, "{n} a_{n} m_{n} rd_{n} z_{n} o_{n} {id} {bits}; ").unwrap();
        match r.hw {
            HwUpdate::None | HwUpdate::Next => write!(stored, "{n} rd_{n} z_{n}; ").unwrap(),
            HwUpdate::Live => write!(live, "rd_{n} z_{n}; ").unwrap(),
        }
    }
    format!(
        "// Generated by hdl/rtl/build.rs from spe_defs::regs::REGS. Do not edit.\n\
         macro_rules! with_reg_table {{\n    ($m:ident {{ $($rest:tt)* }}) => {{\n        \
         $m! {{ rw {{ {rw}}} stored {{ {stored}}} live {{ {live}}} ro {{ {ro}}} opt {{ {opt}}} $($rest)* }}\n    }};\n}}\n"
    )
}

/// `top_ports.rs`: `with_top_ports!`, `with_smt_top_ports!`, `with_top_option_ports!` and
/// `with_smt_top_option_ports!`.
pub fn top_ports() -> String {
    let mut ports = String::from("clk: In Clock; ");
    let mut wiring = String::new();
    for p in PORTS {
        let dir = match p.dir {
            Dir::In => "In",
            Dir::Out => "Out",
        };
        write!(ports, "{}: {dir} {}; ", p.name, port_type(p.name, p.width)).unwrap();
        if let Some(h) = hook_report(p) {
            assert_eq!(p.dir, Dir::In, "hook port {} must be an input", p.name);
            let field = p.name.strip_prefix(h.prefix).unwrap_or_else(|| {
                panic!(
                    "hook port {} of group {} must start with {}",
                    p.name, p.group, h.prefix
                )
            });
            write!(wiring, "{} {field} {}; ", h.field, p.name).unwrap();
        }
    }
    // The multithreaded top: PORTS then SMT_PORTS; the hook wiring by width (one bit a
    // thread: `bundle field port;`, else `bundle field port bits;`).
    let mut smt_ports = String::from("clk: In Clock; ");
    let (mut hooks1, mut hooksn) = (String::new(), String::new());
    for p in PORTS.iter().chain(SMT_PORTS) {
        let dir = match p.dir {
            Dir::In => "In",
            Dir::Out => "Out",
        };
        write!(
            smt_ports,
            "{}: {dir} {}; ",
            p.name,
            smt_port_type(p.name, p.width)
        )
        .unwrap();
        if let Some(h) = hook_report(p) {
            let field = &p.name[h.prefix.len()..];
            match p.width.bits() {
                1 => write!(hooks1, "{} {field} {}; ", h.field, p.name).unwrap(),
                n => write!(hooksn, "{} {field} {} {n}; ", h.field, p.name).unwrap(),
            }
        }
    }
    // The option ports: `opts { name: Dir Type; }`, each a vector of zero or one signal,
    // in the one-thread top's types and in the multithreaded top's (a per-thread option
    // port is T x its bits; one of the write port's is shared, as wide at any T).
    let (mut opts, mut smt_opts) = (String::new(), String::new());
    for o in OPTION_PORTS {
        let p = &o.port;
        assert!(
            hook_report(p).is_none(),
            "option port {}: not a hook input",
            p.name
        );
        let dir = match p.dir {
            Dir::In => "In",
            Dir::Out => "Out",
        };
        write!(opts, "{}: {dir} {}; ", p.name, port_type(p.name, p.width)).unwrap();
        assert!(
            matches!(p.width, Width::PerThread(_) | Width::Bits(_)),
            "option port {}: per thread, or shared by the threads (the write port's), so that a multithreaded unit builds it",
            p.name
        );
        write!(
            smt_opts,
            "{}: {dir} {}; ",
            p.name,
            smt_port_type(p.name, p.width)
        )
        .unwrap();
    }
    let text = format!(
        "// Generated by hdl/rtl/build.rs from spe_defs::ports::PORTS. Do not edit.\n\
         macro_rules! with_top_option_ports {{\n    ($m:ident {{ $($rest:tt)* }}) => {{\n        \
         $m! {{ opts {{ {opts}}} $($rest)* }}\n    }};\n}}\n\
         macro_rules! with_smt_top_option_ports {{\n    ($m:ident {{ $($rest:tt)* }}) => {{\n        \
         $m! {{ opts {{ {smt_opts}}} $($rest)* }}\n    }};\n}}\n\
         #[macro_export]\n\
         macro_rules! with_top_ports {{\n    ($m:ident {{ $($rest:tt)* }}) => {{\n        \
         $m! {{ ports {{ {ports}}} hooks {{ {wiring}}} $($rest)* }}\n    }};\n}}\n\
         #[macro_export]\n\
         macro_rules! with_smt_top_ports {{\n    ($m:ident {{ $($rest:tt)* }}) => {{\n        \
         $m! {{ ports {{ {smt_ports}}} hooks1 {{ {hooks1}}} hooksn {{ {hooksn}}} $($rest)* }}\n    }};\n}}\n"
    );
    text
}
