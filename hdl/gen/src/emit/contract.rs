//! The port contract's Rust types, written by `verif/ports/build.rs` into its `OUT_DIR`.
//! Generates the port contract's types from `spe_defs::ports::PORTS`, so that a port is
//! described once, by its row there (name, width, group, meaning, timing).
//!
//! Writes `$OUT_DIR/contract.rs`, included by `src/lib.rs`:
//! * `Slot`: one dispatch slot, a field per per-slot input (`disp_pc` is `pc`);
//! * one report struct per hook of `HOOK_REPORTS` (`XlatReport`, ...), a field per port of
//!   its group (`xl_va` is `XlatReport::va`), mirroring the RTL's report bundles;
//! * `ThreadInputs` and `ThreadOutputs`: one hardware thread's copy of the per-thread ports
//!   (width `PerThread`), each hook report at its first port (every hook port is per thread);
//! * `Inputs` and `Outputs`, in `PORTS` order: the slots as `disp` at the first per-slot
//!   input, the threads as `thr: [Thread*; MAX_THREADS]` at the first per-thread port, every
//!   other port a field of its name; `Outputs::fields` / `from_values` (port values);
//! * the name lists `for_scalar_inputs!` (`port: field`), `for_slot_inputs!`
//!   (`port: slot_field`), `for_thread_inputs!` (`port: path`, as `xl_va: xl.va`) and
//!   `for_outputs!`.
//!
//! Each field's documentation is its port's width, timing and meaning from `PORTS`, the
//! only description. A field is the narrowest of `bool`, `u8`, `u32`, `u64` that holds its
//! port (a per-slot port one slot's bits; a per-slot output all `MAX_DISPATCH_WIDTH`).

use spe_defs::config::MAX_DISPATCH_WIDTH;
use spe_defs::ports::{
    hook_report, Dir, Port, Width, HOOK_REPORTS, OPTION_PORTS, PORTS, SMT_PORTS,
};
use std::fmt::Write as _;

fn rust_type(bits: u32) -> &'static str {
    match bits {
        1 => "bool",
        2..=8 => "u8",
        9..=32 => "u32",
        33..=64 => "u64",
        _ => panic!("no integer holds {bits} bits"),
    }
}

/// The bits a field holds: one slot of a per-slot input, one thread's copy of a per-thread
/// port, a thread number at the largest thread count, the whole port otherwise.
fn field_bits(p: &Port) -> u32 {
    match (p.dir, p.width) {
        (Dir::In, Width::PerSlot(b)) => b,
        (_, Width::PerThread(b)) => b,
        (_, w @ (Width::ThreadId | Width::PerSlotThreadId)) => w.bits(),
        (_, w) => w.total(MAX_DISPATCH_WIDTH),
    }
}

/// True for a port only a multithreaded unit has (`SMT_PORTS`): a field, but in none of
/// the name lists of a one-thread unit's ports (its outputs end `Outputs::fields`).
fn smt_only(p: &Port) -> bool {
    SMT_PORTS.iter().any(|s| s.name == p.name)
}

/// `#[doc]` of a port's field: width, timing, meaning.
fn doc(p: &Port, indent: &str) -> String {
    let width = match p.width {
        Width::Bits(1) => "1 bit".to_string(),
        Width::Bits(b) => format!("{b} bits"),
        Width::PerSlot(1) if p.dir == Dir::Out => "`W` bits, bit `i` slot `i`".to_string(),
        Width::PerSlot(b) => format!("{b} bits per slot"),
        Width::PerThread(1) => "1 bit per hardware thread".to_string(),
        Width::PerThread(b) => format!("{b} bits per hardware thread"),
        Width::ThreadId => "log2(T) bits".to_string(),
        Width::PerSlotThreadId => "log2(T) bits per slot".to_string(),
    };
    let opt = OPTION_PORTS.iter().find(|o| o.port.name == p.name);
    let smt = if smt_only(p) {
        " Only a multithreaded unit (T > 1) has this port: ignored on input and zero on output at T = 1.".to_string()
    } else if let Some(o) = opt {
        format!(
            " Only a unit built with `Options::{}` has this port: {} otherwise.",
            o.option,
            if p.dir == Dir::In {
                "ignored"
            } else {
                "zero on output"
            }
        )
    } else {
        String::new()
    };
    let text = format!("`{}` ({width}; {}): {}.{smt}", p.name, p.timing, p.meaning);
    format!("{indent}#[doc = {text:?}]\n")
}

/// A per-thread output's entries in `Outputs::fields` (every thread's copy packed, thread
/// `t` at bit `t * b`) and `Outputs::from_values`.
fn per_thread_output(fields_body: &mut String, values_body: &mut String, p: &Port) {
    let b = p.width.bits();
    writeln!(
        fields_body,
        "            (\"{n}\", self.thr.iter().enumerate().fold(0u64, |a, (t, x)| \
         a | (u64::from(x.{n}) & low_mask({b})) << (t as u32 * {b}))),",
        n = p.name
    )
    .unwrap();
    write!(
        values_body,
        "        let x = v.next().unwrap_or_default();\n        \
         for (t, o) in out.thr.iter_mut().enumerate() {{\n            \
         o.{n} = PortValue::from_port((x >> (t as u32 * {b})) & low_mask({b}));\n        }}\n",
        n = p.name
    )
    .unwrap();
}

/// An output field of `Outputs` that is one value: its line in `Outputs::fields` and in
/// `Outputs::from_values`.
fn scalar_output(fields_body: &mut String, values_body: &mut String, name: &str) {
    writeln!(
        fields_body,
        "            (\"{name}\", u64::from(self.{name})),"
    )
    .unwrap();
    writeln!(
        values_body,
        "        out.{name} = PortValue::from_port(v.next().unwrap_or_default());"
    )
    .unwrap();
}

fn field(p: &Port, name: &str) -> String {
    format!(
        "{}    pub {name}: {},\n",
        doc(p, "    "),
        rust_type(field_bits(p))
    )
}

/// `contract.rs`, included by `verif/ports/src/lib.rs`.
pub fn contract() -> String {
    let derive = "#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]\n";
    let mut out = String::from(
        "// Generated by verif/ports/build.rs from spe_defs::ports::PORTS. Do not edit.\n\n",
    );
    // Slot.
    let mut slot_list = String::new();
    write!(
        out,
        "/// One dispatch slot (per-slot ports: slot `i` at bits `i * width` of each bus).\n{derive}pub struct Slot {{\n"
    )
    .unwrap();
    for p in PORTS.iter().chain(SMT_PORTS).filter(|p| {
        p.dir == Dir::In && matches!(p.width, Width::PerSlot(_) | Width::PerSlotThreadId)
    }) {
        let f = p
            .name
            .strip_prefix("disp_")
            .unwrap_or_else(|| panic!("per-slot input {} must start with disp_", p.name));
        out += &field(p, f);
        if !smt_only(p) {
            write!(slot_list, "{}: {f}, ", p.name).unwrap();
        }
    }
    out += "}\n\n";
    // Hook reports.
    for h in HOOK_REPORTS {
        write!(
            out,
            "/// The {} hook's report (ports `{}*`; the RTL's `{}` bundle).\n{derive}pub struct {} {{\n",
            h.group, h.prefix, h.name, h.name
        )
        .unwrap();
        for p in PORTS.iter().filter(|p| p.group == h.group) {
            out += &field(p, p.name.strip_prefix(h.prefix).unwrap());
        }
        out += "}\n\n";
    }
    // Inputs and Outputs: per-thread ports go to `ThreadInputs` / `ThreadOutputs`, placed as
    // `thr` at the first of them.
    let (mut inputs, mut outputs) = (String::new(), String::new());
    let (mut thr_in, mut thr_out) = (String::new(), String::new());
    let (mut scalar_list, mut thread_list, mut output_list) =
        (String::new(), String::new(), String::new());
    let (mut fields_body, mut values_body) = (String::new(), String::new());
    let (mut slots_placed, mut thr_in_placed, mut thr_out_placed) = (false, false, false);
    let mut hooks_placed: Vec<&str> = Vec::new();
    let thr_doc = |what: &str| {
        format!(
            "    /// Each hardware thread's {what} (see [`Thread{what_ty}`]); thread `t` is \
             bits `[t*b +: b]` of a per-thread port, the copies at and above the unit's \
             thread count are ignored on input and zero on output.\n",
            what_ty = if what == "inputs" {
                "Inputs"
            } else {
                "Outputs"
            }
        )
    };
    for p in PORTS {
        let per_thread = matches!(p.width, Width::PerThread(_));
        match p.dir {
            Dir::Out => {
                write!(output_list, "{}, ", p.name).unwrap();
                if per_thread {
                    thr_out += &field(p, p.name);
                    if !thr_out_placed {
                        outputs += &thr_doc("outputs");
                        outputs += "    pub thr: [ThreadOutputs; MAX_THREADS],\n";
                        thr_out_placed = true;
                    }
                    per_thread_output(&mut fields_body, &mut values_body, p);
                } else {
                    outputs += &field(p, p.name);
                    scalar_output(&mut fields_body, &mut values_body, p.name);
                }
            }
            Dir::In if matches!(p.width, Width::PerSlot(_)) => {
                if !slots_placed {
                    inputs += "    /// The dispatch group, `W` slots used (see [`Slot`]).\n    \
                               pub disp: [Slot; MAX_DISPATCH_WIDTH],\n";
                    slots_placed = true;
                }
            }
            Dir::In => {
                let (body, list) = if per_thread {
                    if !thr_in_placed {
                        inputs += &thr_doc("inputs");
                        inputs += "    pub thr: [ThreadInputs; MAX_THREADS],\n";
                        thr_in_placed = true;
                    }
                    (&mut thr_in, &mut thread_list)
                } else {
                    (&mut inputs, &mut scalar_list)
                };
                if let Some(h) = hook_report(p) {
                    assert!(per_thread, "hook port {} must be per thread", p.name);
                    if !hooks_placed.contains(&h.field) {
                        write!(
                            body,
                            "    /// The {} hook's report (see [`{}`]).\n    pub {}: {},\n",
                            h.group, h.name, h.field, h.name
                        )
                        .unwrap();
                        hooks_placed.push(h.field);
                    }
                    let f = p.name.strip_prefix(h.prefix).unwrap();
                    write!(list, "{}: {}.{f}, ", p.name, h.field).unwrap();
                } else {
                    *body += &field(p, p.name);
                    write!(list, "{}: {}, ", p.name, p.name).unwrap();
                }
            }
        }
    }
    // The ports only a multithreaded unit has: fields (named as their ports, less a
    // `thr_` prefix: `thr_active` is `ThreadInputs::active`); the outputs also in
    // `Outputs::fields` after those of `PORTS` (zero at T = 1).
    let mut smt_output_list = String::new();
    for p in SMT_PORTS {
        let name = p.name.strip_prefix("thr_").unwrap_or(p.name);
        match (p.dir, p.width) {
            (_, Width::PerSlotThreadId) => {} // in `Slot`
            (Dir::In, Width::PerThread(_)) => thr_in += &field(p, name),
            (Dir::In, _) => inputs += &field(p, name),
            (Dir::Out, Width::PerThread(_)) => panic!("{}: no per-thread SMT output yet", p.name),
            (Dir::Out, _) => {
                outputs += &field(p, name);
                write!(smt_output_list, "{}, ", p.name).unwrap();
                scalar_output(&mut fields_body, &mut values_body, p.name);
            }
        }
    }
    // The option ports' outputs: fields (per thread in `ThreadOutputs`, a shared one in
    // `Outputs`), at the end of
    // `Outputs::fields` (zero in a unit without the option).
    // The option ports' inputs: fields of `ThreadInputs` (ignored by a unit without the
    // option), listed by `for_option_thread_inputs!`.
    let mut option_output_list = String::new();
    let mut option_input_list = String::new();
    for o in OPTION_PORTS {
        let p = &o.port;
        match (p.dir, p.width) {
            (Dir::Out, Width::PerThread(_)) => {
                thr_out += &field(p, p.name);
                write!(option_output_list, "{}, ", p.name).unwrap();
                per_thread_output(&mut fields_body, &mut values_body, p);
            }
            (Dir::In, Width::PerThread(_)) => {
                thr_in += &field(p, p.name);
                write!(option_input_list, "{}: {}, ", p.name, p.name).unwrap();
            }
            // One of the write port's, shared by the threads (FEAT_SPE_nVM's).
            (Dir::Out, Width::Bits(_)) => {
                outputs += &field(p, p.name);
                write!(option_output_list, "{}, ", p.name).unwrap();
                scalar_output(&mut fields_body, &mut values_body, p.name);
            }
            _ => panic!(
                "option port {}: per-thread ports and shared outputs only so far",
                p.name
            ),
        }
    }
    write!(
        out,
        "/// What one hardware thread's copy of the per-thread inputs carries.\n\
         #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]\npub struct ThreadInputs {{\n{thr_in}}}\n\n\
         /// What one hardware thread's copy of the per-thread outputs carries.\n\
         #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]\npub struct ThreadOutputs {{\n{thr_out}}}\n\n\
         /// Everything the unit samples at one rising clock edge.\n\
         #[derive(Clone, Debug, Default, PartialEq, Eq)]\npub struct Inputs {{\n{inputs}}}\n\n\
         /// Everything the unit drives during one cycle (before the edge).\n\
         #[derive(Clone, Debug, Default, PartialEq, Eq)]\npub struct Outputs {{\n{outputs}}}\n\n\
         // Generated per port: a 1-bit lane's shift and a u64 port's conversion are kept.\n\
         #[allow(clippy::identity_op, clippy::useless_conversion, clippy::field_reassign_with_default)]\n\
         impl Outputs {{\n    \
         /// Every output as (port name, value) in `PORTS` order; a per-thread port's value \
         packs every thread's copy (thread `t` at bit `t * b`), as on the port.\n    \
         pub fn fields(&self) -> [(&'static str, u64); OUTPUTS] {{\n        [\n{fields_body}        ]\n    }}\n\n    \
         /// The outputs from port values in [`Outputs::fields`] order (what a port-level \
         backend reads); bits above a field's width are dropped.\n    \
         pub fn from_values(v: [u64; OUTPUTS]) -> Outputs {{\n        \
         let mut v = v.into_iter();\n        let mut out = Outputs::default();\n{values_body}        out\n    }}\n}}\n\n"
    )
    .unwrap();
    let list_macro = |name: &str, doc: &str, list: &str| {
        format!(
            "{doc}\n#[macro_export]\nmacro_rules! {name} {{\n    ($m:ident) => {{\n        $m!({})\n    }};\n}}\n\n",
            list.trim_end_matches(", ")
        )
    };
    out += &list_macro(
        "for_scalar_inputs",
        "/// Calls the macro `$m` with every [`Inputs`] field that is one port shared by the\n\
         /// threads (not per slot, not per thread), as `port: field` in `PORTS` order.",
        &scalar_list,
    );
    out += &list_macro(
        "for_slot_inputs",
        "/// Calls the macro `$m` with every per-slot input as `port: slot_field`, in `PORTS`\n\
         /// order: `$m!(disp_valid: valid, disp_pc: pc, ...)`.",
        &slot_list,
    );
    out += &list_macro(
        "for_thread_inputs",
        "/// Calls the macro `$m` with every per-thread input as `port: path` in [`ThreadInputs`],\n\
         /// in `PORTS` order: `$m!(disp_el: disp_el, ..., xl_va: xl.va, ...)`.",
        &thread_list,
    );
    out += &list_macro(
        "for_outputs",
        "/// Calls the macro `$m` with the name of every output port of `PORTS`, in order:\n\
         /// `$m!(tag, hook_stray, ...)` (the start of [`Outputs::fields`]).",
        &output_list,
    );
    out += &list_macro(
        "for_smt_outputs",
        "/// Calls the macro `$m` with the name of every output only a multithreaded unit has\n\
         /// (`SMT_PORTS`), in order: after those of `PORTS` in [`Outputs::fields`].",
        &smt_output_list,
    );
    out += &list_macro(
        "for_option_thread_inputs",
        "/// Calls the macro `$m` with every per-thread input of an option (`OPTION_PORTS`) as\n\
         /// `port: field` of [`ThreadInputs`], in order; a unit without the option has no such port.",
        &option_input_list,
    );
    out += &list_macro(
        "for_option_outputs",
        "/// Calls the macro `$m` with the name of every output of an option\n\
         /// (`OPTION_PORTS`), in order: the end of [`Outputs::fields`].",
        &option_output_list,
    );
    out
}
