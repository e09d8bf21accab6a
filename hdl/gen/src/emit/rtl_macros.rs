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
//!
//! `with_top_option_ports! { m { rest } }` and `with_smt_top_option_ports!` call `m! { opts {
//! name: In|Out Type; ... } wires { ... } rest }`: the option ports (`OPTION_PORTS`, each a
//! vector of zero or one signal) in each top's types, and the options' wiring from their
//! rows ([`option_wires`]), which both tops expand into their kernels.

use spe_defs::ports::{hook_report, Dir, OptionPort, Width, OPTION_PORTS, PORTS, SMT_PORTS};
use spe_defs::regs::{Bank, HwUpdate, REGS};
use spe_defs::wiring::{
    LinkFrom, OptionLink, Tap, Wire, OPTION_LINKS, SHARED_BLOCKS, THREAD_BLOCKS,
};
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

/// `.get_bit(n)` or `.get_bits::<w>(lsb)` for a tap's bits, nothing for the whole signal.
fn select(bits: Option<(u32, u32)>) -> String {
    match bits {
        None => String::new(),
        Some((lsb, 1)) => format!(".get_bit({lsb})"),
        Some((lsb, w)) => format!(".get_bits::<{w}>({lsb})"),
    }
}

/// True for a block the multithreaded unit has once a thread; panics on a block no top has.
fn per_thread(what: &str, t: &Tap) -> bool {
    let thread = THREAD_BLOCKS.contains(&t.block);
    assert!(
        thread || SHARED_BLOCKS.contains(&t.block),
        "{what}: no block `{}` in the tops (spe_defs::wiring::THREAD_BLOCKS, SHARED_BLOCKS)",
        t.block
    );
    thread
}

/// The option wiring the tops expand (`wires { .. }` of `with_top_option_ports!` and
/// `with_smt_top_option_ports!`), from each option port's `wire` and from
/// `spe_defs::wiring::OPTION_LINKS`, in groups by shape (names are a block's field `b`, its
/// signal `f`, a port `p`; `(sel)` is a bit selection such as `.get_bit(3)` or nothing):
/// `ins1 { b f p; }` and `insn { b f p bits; }` an input port of one or more bits a thread
/// into a per-thread block's option signal, `ins_at { b f n p; }` into its element `n`;
/// `outs { p b f (sel); }` an output of one bit a thread from a per-thread block,
/// `outs_shared { p b f (sel); }` one from a shared block; `links { b f sb sf; }` between
/// one thread's blocks; `links_port1 { b f p; }` and `links_portn { b f p bits; }` from a
/// port of `PORTS` of one or more bits a thread, `links_port { b f p (sel); }` from a shared
/// one; `owner { b f sb sf; }` and `owner_plain { .. }` (into a signal every unit has) into
/// a shared block from the record owner's block, `granted { b f sb sf; }` from the granted
/// thread's.
pub fn option_wires() -> String {
    wires_of(OPTION_PORTS, OPTION_LINKS)
}

/// [`option_wires`] of these tables.
fn wires_of(ports: &[OptionPort], links: &[OptionLink]) -> String {
    let mut g: [(&str, String); 12] = [
        ("ins1", String::new()),
        ("insn", String::new()),
        ("ins_at", String::new()),
        ("outs", String::new()),
        ("outs_shared", String::new()),
        ("links", String::new()),
        ("links_port1", String::new()),
        ("links_portn", String::new()),
        ("links_port", String::new()),
        ("owner", String::new()),
        ("owner_plain", String::new()),
        ("granted", String::new()),
    ];
    let mut add = |group: &str, text: String| {
        let slot = g.iter_mut().find(|(n, _)| *n == group).unwrap();
        write!(slot.1, "{text}; ").unwrap();
    };
    for o in ports {
        let p = &o.port;
        let what = format!("option port {}", p.name);
        match (o.wire, p.dir) {
            (Wire::Into(taps), Dir::In) => {
                assert!(!taps.is_empty(), "{what}: into no block");
                let Width::PerThread(bits) = p.width else {
                    panic!("{what}: an input is per thread")
                };
                for t in taps {
                    assert!(
                        per_thread(&what, t) && t.bits.is_none() && !t.plain,
                        "{what}: into a per-thread block's whole option signal"
                    );
                    match (t.element, bits) {
                        (Some(n), 1) => {
                            add("ins_at", format!("{} {} {n} {}", t.block, t.field, p.name))
                        }
                        (Some(_), _) => panic!("{what}: an element of one bit only"),
                        (None, 1) => add("ins1", format!("{} {} {}", t.block, t.field, p.name)),
                        (None, n) => add("insn", format!("{} {} {} {n}", t.block, t.field, p.name)),
                    }
                }
            }
            (Wire::From(t), Dir::Out) => {
                assert!(
                    t.element.is_none() && !t.plain,
                    "{what}: from a block's option signal, whole or some of its bits"
                );
                let sel = select(t.bits);
                if per_thread(&what, &t) {
                    assert!(
                        p.width == Width::PerThread(1) && !matches!(t.bits, Some((_, w)) if w != 1),
                        "{what}: from a per-thread block, one bit a thread"
                    );
                    add(
                        "outs",
                        format!("{} {} {} ({sel})", p.name, t.block, t.field),
                    );
                } else {
                    add(
                        "outs_shared",
                        format!("{} {} {} ({sel})", p.name, t.block, t.field),
                    );
                }
            }
            (w, d) => panic!("{what}: a {d:?} port wired as {w:?}"),
        }
    }
    for l in links {
        let to = &l.to;
        let what = format!("option link into {}.{} ({})", to.block, to.field, l.option);
        assert!(
            to.element.is_none() && to.bits.is_none(),
            "{what}: into a whole signal"
        );
        let thread = per_thread(&what, to);
        match l.from {
            LinkFrom::Thread(s) | LinkFrom::Owner(s) | LinkFrom::Granted(s) => {
                assert!(
                    per_thread(&what, &s) && s.element.is_none() && s.bits.is_none() && !s.plain,
                    "{what}: from a per-thread block's whole option signal"
                );
                let (group, shared) = match l.from {
                    LinkFrom::Thread(_) => ("links", false),
                    LinkFrom::Owner(_) if to.plain => ("owner_plain", true),
                    LinkFrom::Owner(_) => ("owner", true),
                    _ => ("granted", true),
                };
                assert!(
                    thread != shared && (!to.plain || group == "owner_plain"),
                    "{what}: a thread's link is between per-thread blocks' option signals, an owner's or a grant's into a shared block"
                );
                add(
                    group,
                    format!("{} {} {} {}", to.block, to.field, s.block, s.field),
                );
            }
            LinkFrom::Port(name, bits) => {
                let port = PORTS
                    .iter()
                    .find(|p| p.name == name)
                    .unwrap_or_else(|| panic!("{what}: no port {name} in PORTS"));
                assert!(
                    thread && !to.plain && port.dir == Dir::In,
                    "{what}: from an input into a per-thread block's option signal"
                );
                match port.width {
                    Width::PerThread(1) if bits.is_none() => {
                        add("links_port1", format!("{} {} {name}", to.block, to.field))
                    }
                    Width::PerThread(n) if bits.is_none() => add(
                        "links_portn",
                        format!("{} {} {name} {n}", to.block, to.field),
                    ),
                    Width::Bits(_) => add(
                        "links_port",
                        format!("{} {} {name} ({})", to.block, to.field, select(bits)),
                    ),
                    w => panic!("{what}: from a port of {w:?} (one bit a thread, or shared)"),
                }
            }
        }
    }
    g.iter().map(|(n, t)| format!("{n} {{ {t}}} ")).collect()
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
    let wires = option_wires();
    let text = format!(
        "// Generated by hdl/rtl/build.rs from spe_defs::ports::PORTS. Do not edit.\n\
         macro_rules! with_top_option_ports {{\n    ($m:ident {{ $($rest:tt)* }}) => {{\n        \
         $m! {{ opts {{ {opts}}} wires {{ {wires}}} $($rest)* }}\n    }};\n}}\n\
         macro_rules! with_smt_top_option_ports {{\n    ($m:ident {{ $($rest:tt)* }}) => {{\n        \
         $m! {{ opts {{ {smt_opts}}} wires {{ {wires}}} $($rest)* }}\n    }};\n}}\n\
         #[macro_export]\n\
         macro_rules! with_top_ports {{\n    ($m:ident {{ $($rest:tt)* }}) => {{\n        \
         $m! {{ ports {{ {ports}}} hooks {{ {wiring}}} $($rest)* }}\n    }};\n}}\n\
         #[macro_export]\n\
         macro_rules! with_smt_top_ports {{\n    ($m:ident {{ $($rest:tt)* }}) => {{\n        \
         $m! {{ ports {{ {smt_ports}}} hooks1 {{ {hooks1}}} hooksn {{ {hooksn}}} $($rest)* }}\n    }};\n}}\n"
    );
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use spe_defs::wiring::at;

    /// The group `name`'s entries in `wires`.
    fn group<'a>(wires: &'a str, name: &str) -> Vec<&'a str> {
        let start = wires.find(&format!("{name} {{ ")).unwrap() + name.len() + 3;
        let end = start + wires[start..].find('}').unwrap();
        wires[start..end]
            .split("; ")
            .filter(|e| !e.trim().is_empty())
            .collect()
    }

    #[test]
    fn every_option_port_and_every_link_is_wired_once() {
        let wires = option_wires();
        // Every group's entries (`name { a; b; } `).
        let groups: Vec<&str> = wires
            .split("} ")
            .filter_map(|g| g.split(" {").next())
            .map(str::trim)
            .filter(|g| !g.is_empty())
            .collect();
        assert_eq!(groups.len(), 12, "{groups:?}");
        let entries: Vec<&str> = groups.iter().flat_map(|g| group(&wires, g)).collect();
        let taps = |o: &OptionPort| match o.wire {
            Wire::Into(t) => t.len(),
            Wire::From(_) => 1,
        };
        assert_eq!(
            entries.len(),
            OPTION_PORTS.iter().map(taps).sum::<usize>() + OPTION_LINKS.len()
        );
        for o in OPTION_PORTS {
            let named = entries
                .iter()
                .filter(|e| e.split(' ').any(|w| w == o.port.name))
                .count();
            assert_eq!(named, taps(o), "{}", o.port.name);
        }
        // Shapes as the tops expand them.
        assert!(group(&wires, "ins_at").contains(&"tracker v4_in 2 mem_hitm"));
        assert!(group(&wires, "insn").contains(&"tracker prev_target pbt_target 64"));
        assert!(group(&wires, "outs").contains(&"exc_el3 regs exc_out (.get_bit(2))"));
        assert!(group(&wires, "outs_shared")
            .contains(&"wr_addr_space writer nvm_out (.get_bits::<2>(10))"));
        assert!(group(&wires, "owner_plain").contains(&"writer stopped regs x_stopped"));
        assert!(group(&wires, "granted").contains(&"writer nvm_in regs nvm_ctl"));
        assert!(group(&wires, "links_port")
            .contains(&"sampler ecount_wdata reg_wdata (.get_bits::<8>(56))"));
    }

    fn port_row(name: &'static str, dir: Dir, wire: Wire) -> OptionPort {
        let mut o = OPTION_PORTS[0];
        o.port.name = name;
        o.port.dir = dir;
        o.wire = wire;
        o
    }

    #[test]
    #[should_panic(expected = "option port demo: a In port wired as From")]
    fn an_input_wired_from_a_block_is_refused() {
        wires_of(
            &[port_row("demo", Dir::In, Wire::From(at("regs", "x")))],
            &[],
        );
    }

    #[test]
    #[should_panic(expected = "no block `regz`")]
    fn a_block_no_top_has_is_refused() {
        wires_of(
            &[port_row("demo", Dir::Out, Wire::From(at("regz", "x")))],
            &[],
        );
    }

    #[test]
    #[should_panic(expected = "an owner's or a grant's into a shared block")]
    fn an_owner_link_into_a_per_thread_block_is_refused() {
        let l = OptionLink {
            option: "demo",
            to: at("filter", "x"),
            from: LinkFrom::Owner(at("tracker", "y")),
        };
        wires_of(&[], &[l]);
    }

    #[test]
    #[should_panic(expected = "from a per-thread block, one bit a thread")]
    fn several_bits_out_of_a_per_thread_block_are_refused() {
        let t = at("regs", "x").bits(3, 2);
        wires_of(&[port_row("demo", Dir::Out, Wire::From(t))], &[]);
    }
}
