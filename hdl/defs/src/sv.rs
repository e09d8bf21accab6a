//! The SystemVerilog surface of a preset, from the port table alone: a package
//! `spe_<preset>_pkg` (the preset's parameters and one packed struct per port group and
//! direction) and a wrapper `spe_<preset>_sv` whose ports are those structs and which only
//! connects them to the flat ports of `spe_top_<preset>` (no logic).
//!
//! A struct's fields are the group's ports, by name and in `PORTS` order; a per-slot port is
//! `logic [W-1:0][b-1:0]` (slot 0 in the low bits, as the flat port), a per-thread port
//! `logic [T-1:0][b-1:0]`. Connecting a field to its flat port is a plain wire: the bits
//! are the same.

use crate::config::Config;
use crate::ports::{Dir, Port, Width, PORTS};
use crate::regs;

/// The package's module-level name.
pub fn package_name(cfg: &Config) -> String {
    format!("spe_{}_pkg", cfg.name)
}

/// The wrapper's module name.
pub fn wrapper_name(cfg: &Config) -> String {
    format!("spe_{}_sv", cfg.name)
}

/// A port group as an identifier (`clock/reset` -> `clock_reset`).
fn ident(group: &str) -> String {
    group
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

fn dir_suffix(d: Dir) -> (&'static str, &'static str) {
    match d {
        Dir::In => ("in_t", "i"),
        Dir::Out => ("out_t", "o"),
    }
}

/// The groups with ports of direction `d`, in order of first appearance (`clk` is not in
/// `PORTS`: it stays a plain input).
fn groups(d: Dir) -> Vec<&'static str> {
    let mut g: Vec<&'static str> = Vec::new();
    for p in PORTS.iter().filter(|p| p.dir == d) {
        if !g.contains(&p.group) {
            g.push(p.group);
        }
    }
    g
}

fn field_type(p: &Port) -> String {
    let bits = |b: u32| {
        if b == 1 {
            String::new()
        } else {
            format!("[{}:0]", b - 1)
        }
    };
    match p.width {
        Width::Bits(b) if p.name == "reg_addr" => {
            assert_eq!(b, regs::PORT_ADDR_BITS, "reg_addr is as wide as the map");
            "logic [REG_ADDR_BITS-1:0]".to_string()
        }
        Width::Bits(1) => "logic".to_string(),
        Width::Bits(b) => format!("logic {}", bits(b)),
        Width::PerSlot(b) => format!("logic [W-1:0]{}", bits(b)),
        Width::PerThread(b) => format!("logic [T-1:0]{}", bits(b)),
        Width::ThreadId | Width::PerSlotThreadId => {
            unreachable!("port {}: only in SMT_PORTS", p.name)
        }
    }
}

/// The package: parameters and the structs.
pub fn package(cfg: &Config) -> String {
    let mut s = format!(
        "package {};\n  // Preset `{}` ({}): {}-bit latency counters, recommended minimum interval\n  // {}, PMSIDR_EL1 = 0x{:x}, PMBIDR_EL1 = 0x{:x} (gen/spe_tables.md, gen/spe_regs.h).\n  localparam int W = {};  // dispatch width: slots per cycle\n  localparam int T = 1;  // hardware threads (per-thread fields have T copies)\n  localparam int REG_ADDR_BITS = {};  // register port address bits\n",
        package_name(cfg),
        cfg.name,
        cfg.desc,
        cfg.counter_width.bits(),
        cfg.min_interval(),
        regs::read_only_value(regs::RegId::Pmsidr, cfg),
        regs::read_only_value(regs::RegId::Pmbidr, cfg),
        cfg.dispatch_width,
        regs::PORT_ADDR_BITS,
    );
    for d in [Dir::In, Dir::Out] {
        let (t, _) = dir_suffix(d);
        for g in groups(d) {
            s.push_str(&format!(
                "\n  // Group `{g}`, {}.\n  typedef struct packed {{\n",
                if d == Dir::In { "inputs" } else { "outputs" }
            ));
            for p in PORTS.iter().filter(|p| p.dir == d && p.group == g) {
                s.push_str(&format!(
                    "    {} {};  // {} ({})\n",
                    field_type(p),
                    p.name,
                    p.meaning.replace('\n', " "),
                    p.timing
                ));
            }
            s.push_str(&format!("  }} {}_{t};\n", ident(g)));
        }
    }
    s.push_str("endpackage\n");
    s
}

/// The wrapper: the structs as ports, connected field by field to `spe_top_<preset>`.
pub fn wrapper(cfg: &Config) -> String {
    let mut ports = vec!["  input  logic clk".to_string()];
    for d in [Dir::In, Dir::Out] {
        let (t, suffix) = dir_suffix(d);
        let kw = if d == Dir::In { "input " } else { "output" };
        for g in groups(d) {
            let id = ident(g);
            ports.push(format!("  {kw} {id}_{t} {id}_{suffix}"));
        }
    }
    let mut s = format!(
        "module {}\n  import {}::*;\n(\n{}\n);\n  // Only wires: every field to its flat port of the same name.\n  {} u_spe (\n    .clk(clk)",
        wrapper_name(cfg),
        package_name(cfg),
        ports.join(",\n"),
        cfg.top_module()
    );
    for p in PORTS {
        let (_, suffix) = dir_suffix(p.dir);
        s.push_str(&format!(
            ",\n    .{}({}_{suffix}.{})",
            p.name,
            ident(p.group),
            p.name
        ));
    }
    s.push_str("\n  );\nendmodule\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PRESETS;

    #[test]
    fn every_port_is_one_struct_field_and_one_connection() {
        for cfg in PRESETS {
            let pkg = package(cfg);
            let w = wrapper(cfg);
            for p in PORTS {
                // Declarations: `logic ... NAME;  // meaning`.
                let decls = pkg
                    .lines()
                    .filter_map(|l| l.split("  //").next())
                    .filter(|d| {
                        d.trim_start().starts_with("logic") && d.ends_with(&format!(" {};", p.name))
                    })
                    .count();
                assert_eq!(decls, 1, "{}: field {}", cfg.name, p.name);
                assert_eq!(
                    w.matches(&format!(".{}(", p.name)).count(),
                    1,
                    "{}: connection of {}",
                    cfg.name,
                    p.name
                );
            }
            assert!(pkg.contains(&format!("localparam int W = {};", cfg.dispatch_width)));
            assert!(!w.contains("assign") && !w.contains("always"), "no logic");
        }
    }
}
