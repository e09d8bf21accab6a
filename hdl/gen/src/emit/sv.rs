//! The SystemVerilog surface of a preset, from the port table alone: a package
//! `spe_<preset>_pkg` (the preset's parameters and one packed struct per port group and
//! direction) and a wrapper `spe_<preset>_sv` whose ports are those structs and which only
//! connects them to the flat ports of `spe_top_<preset>` (no logic).
//!
//! A struct's fields are the group's ports, by name and in `PORTS` order; a per-slot port is
//! `logic [W-1:0][b-1:0]` (slot 0 in the low bits, as the flat port), a per-thread port
//! `logic [T-1:0][b-1:0]`. Connecting a field to its flat port is a plain wire: the bits
//! are the same.

use spe_defs::config::Config;
use spe_defs::ports::{ports_of, Dir, Port, Width, PORTS};
use spe_defs::regs;

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

/// The groups with ports of direction `d` in `cfg`'s top, in order of first appearance
/// (`clk` is not in `PORTS`: it stays a plain input).
fn groups(cfg: &Config, d: Dir) -> Vec<&'static str> {
    let mut g: Vec<&'static str> = Vec::new();
    for p in ports_of(cfg).filter(|p| p.dir == d) {
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
        Width::ThreadId => "logic [TIDW-1:0]".to_string(),
        Width::PerSlotThreadId => "logic [W-1:0][TIDW-1:0]".to_string(),
    }
}

/// The package: parameters and the structs.
pub fn package(cfg: &Config) -> String {
    let mut s = format!(
        "package {};\n  // Preset `{}` ({}): {}-bit latency counters, recommended minimum interval\n  // {}, PMSIDR_EL1 = 0x{:x}, PMBIDR_EL1 = 0x{:x} (gen/spe_tables.md, gen/spe_regs.h).\n  localparam int W = {};  // dispatch width: slots per cycle\n  localparam int T = {};  // hardware threads (per-thread fields have T copies)\n{}  localparam int REG_ADDR_BITS = {};  // register port address bits\n  /* verilator lint_off UNUSEDPARAM */\n  localparam int RECORD_BYTES = {};  // one record slot (PMSIDR.MaxSize): 128 with FEAT_SPE_CRR\n  /* verilator lint_on UNUSEDPARAM */\n",
        package_name(cfg),
        cfg.name,
        cfg.desc,
        cfg.counter_width.bits(),
        cfg.min_interval(),
        regs::read_only_value(regs::RegId::Pmsidr, cfg),
        regs::read_only_value(regs::RegId::Pmbidr, cfg),
        cfg.dispatch_width,
        cfg.threads,
        if cfg.threads > 1 {
            format!(
                "  localparam int TIDW = {};  // bits of a thread number\n",
                cfg.threads.trailing_zeros()
            )
        } else {
            String::new()
        },
        regs::PORT_ADDR_BITS,
        cfg.record_size(),
    );
    for d in [Dir::In, Dir::Out] {
        let (t, _) = dir_suffix(d);
        for g in groups(cfg, d) {
            s.push_str(&format!(
                "\n  // Group `{g}`, {}.\n  typedef struct packed {{\n",
                if d == Dir::In { "inputs" } else { "outputs" }
            ));
            for p in ports_of(cfg).filter(|p| p.dir == d && p.group == g) {
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

/// The replay bench's module name.
pub fn replay_name(cfg: &Config) -> String {
    format!("spe_{}_replay", cfg.name)
}

/// The keyword and range of a flat port of `cfg` (`logic [223:0]`).
fn flat_decl(p: &Port, cfg: &Config) -> String {
    let bits = p.width.total_for(cfg.dispatch_width, cfg.threads);
    if bits == 1 {
        "logic".to_string()
    } else {
        format!("logic [{}:0]", bits - 1)
    }
}

/// The checker's ports (hdl/sv/spe_protocol_checker.sv), all named as the unit's.
pub const CHECKER_PORTS: &[&str] = &[
    "reset",
    "disp_valid",
    "disp_class",
    "tag",
    "iss_valid",
    "xl_start",
    "xl_done",
    "mem_done",
    "br_done",
    "cpl_done",
    "sample_timeout",
    "psb_req",
    "psb_done",
    "reg_en",
    "reg_we",
    "wr_valid",
    "wr_ready",
    "wr_err",
    "wr_addr",
    "wr_data",
    "wr_strb",
];

/// The replay bench: reads a vector file written by `spe sim --vectors FILE` (a header
/// line, then per cycle every input port's value in hex, in `PORTS` order), drives
/// `spe_top_<preset>` with it, and binds `spe_protocol_checker` to the unit. It prints the
/// cycle count and the checker's violation count and fails (`$fatal`) on any. The checker
/// is written for one hardware thread: a multithreaded preset has no replay bench.
/// With `SPE_SCOREBOARD` defined it also feeds every port, every cycle, to the record-level
/// scoreboard (`hdl/sv/spe_scoreboard.sv`, DPI-C on `libspe_capi`), reads every register
/// through the port after the last vector, and fails naming the first mismatch.
pub fn replay_bench(cfg: &Config) -> String {
    assert_eq!(
        cfg.threads, 1,
        "{}: the protocol checker serves one thread",
        cfg.name
    );
    let top = cfg.top_module();
    let r = replay_name(cfg);
    let p = cfg.name;
    let inputs: Vec<&Port> = PORTS.iter().filter(|p| p.dir == Dir::In).collect();
    let mut l: Vec<String> = vec![
        "// Checks the vectors of a run against the protocol checker:".into(),
        format!("//   $ spe sim --preset {p} --vectors run.vec ..."),
        format!("//   $ verilator --binary --timing --assert -f gen/{p}/sources.f \\"),
        format!("//     hdl/sv/spe_protocol_checker.sv gen/{p}/{r}.sv --top-module {r}"),
        format!("//   $ obj_dir/V{r} +vectors=run.vec"),
        "// (scripts/protocol-check.sh does all of it.) With +define+SPE_SCOREBOARD, and".into(),
        "// hdl/sv/spe_scoreboard.sv and libspe_capi added, the record-level scoreboard also"
            .into(),
        "// checks every record and register read (scripts/sv-example.sh).".into(),
        String::new(),
        format!(
            "bind {top} spe_protocol_checker #(.W({}), .STOP_ON_ERROR(0)) u_spe_protocol (\n{}\n);",
            cfg.dispatch_width,
            std::iter::once("clk")
                .chain(CHECKER_PORTS.iter().copied())
                .map(|n| format!("  .{n}({n})"))
                .collect::<Vec<_>>()
                .join(",\n")
        ),
        String::new(),
        format!("module {r};"),
        "  logic clk = 1'b0;".into(),
    ];
    for p in &inputs {
        l.push(format!("  {} {};", flat_decl(p, cfg), p.name));
    }
    // $fscanf writes these; plain assignments then drive the ports (Verilator 5.006 does
    // not re-evaluate logic fed by a variable that only $fscanf wrote).
    for p in &inputs {
        l.push(format!("  {} v_{};", flat_decl(p, cfg), p.name));
    }
    l.push("  // The outputs are for the bound checker to read.".into());
    l.push("  /* verilator lint_off UNUSEDSIGNAL */".into());
    for p in PORTS.iter().filter(|p| p.dir == Dir::Out) {
        l.push(format!("  {} {};", flat_decl(p, cfg), p.name));
    }
    l.push("  /* verilator lint_on UNUSEDSIGNAL */".into());
    l.push(String::new());
    l.push(format!("  {top} dut ("));
    let mut conns = vec!["    .clk(clk)".to_string()];
    conns.extend(PORTS.iter().map(|p| format!("    .{n}({n})", n = p.name)));
    l.push(conns.join(",\n"));
    l.push("  );".into());
    l.extend(scoreboard_feed(cfg));
    let fmt = vec!["%h"; inputs.len()].join(" ");
    let vargs: Vec<String> = inputs.iter().map(|p| format!("v_{}", p.name)).collect();
    let assigns: Vec<String> = inputs
        .iter()
        .map(|p| format!("{n} = v_{n};", n = p.name))
        .collect();
    l.extend([
        String::new(),
        "  initial begin".into(),
        "    string path;".into(),
        "    /* verilator lint_off UNUSEDSIGNAL */".into(),
        "    string header;  // the header line is skipped".into(),
        "    /* verilator lint_on UNUSEDSIGNAL */".into(),
        "    int fd, n;".into(),
        "    longint unsigned cycles = 0;".into(),
        "    if (!$value$plusargs(\"vectors=%s\", path))".into(),
        "      $fatal(1, \"usage: +vectors=FILE (from spe sim --vectors)\");".into(),
        "    fd = $fopen(path, \"r\");".into(),
        "    if (fd == 0) $fatal(1, \"cannot open %s\", path);".into(),
        "    n = $fgets(header, fd);".into(),
        "    forever begin".into(),
        format!("      n = $fscanf(fd, \"{fmt}\\n\","),
        format!("        {});", vargs.join(", ")),
        format!("      if (n != {}) break;", inputs.len()),
        format!("      {}", assigns.join("\n      ")),
        "      #1 clk = 1'b1;".into(),
        "      #1 clk = 1'b0;".into(),
        "      cycles++;".into(),
        "    end".into(),
        "    $fclose(fd);".into(),
    ]);
    l.extend(scoreboard_end());
    l.extend([
        "    $display(\"spe replay: %0d cycles of %s, %0d cycles with a protocol violation\","
            .into(),
        "             cycles, path, dut.u_spe_protocol.violations);".into(),
        format!("    if (cycles == 0) $fatal(1, \"%s holds no vectors for {top}\", path);"),
        "    if (dut.u_spe_protocol.violations != 0) $fatal(1, \"protocol violated\");".into(),
        "    $finish;".into(),
        "  end".into(),
        "endmodule".into(),
    ]);
    let mut out = l.join("\n");
    out.push('\n');
    out
}

/// Inputs the end-of-run register sweep holds low: dispatch and every hook report (so that
/// nothing new is sampled), and the write port's response (no beat is taken).
pub const SWEEP_QUIET: &[&str] = &[
    "disp_valid",
    "iss_valid",
    "xl_start",
    "xl_done",
    "mem_done",
    "br_done",
    "cpl_done",
    "reg_we",
    "wr_ready",
    "wr_err",
];

/// The scoreboard monitor's module name.
pub fn monitor_name(cfg: &Config) -> String {
    format!("spe_scoreboard_monitor_{}", cfg.name)
}

/// One `sb.set` per port lane, every port of the unit, inputs and outputs: an input's
/// per-slot and per-thread ports go lane by lane; an output's per-slot port (`tag`) is
/// one value (spe_model.h).
fn scoreboard_sets(cfg: &Config) -> Vec<String> {
    let mut l = Vec::new();
    for p in PORTS {
        let (lanes, b) = match p.width {
            Width::PerSlot(b) if p.dir == Dir::In => (cfg.dispatch_width, b),
            Width::PerThread(b) => (cfg.threads, b),
            _ => (1, p.bits_for(cfg)),
        };
        if lanes == 1 {
            l.push(format!("    sb.set(\"{n}\", 0, 64'({n}));", n = p.name));
        } else {
            l.push(format!(
                "    for (int i = 0; i < {lanes}; i++) sb.set(\"{n}\", i, 64'({n}[i*{b} +: {b}]));",
                n = p.name
            ));
        }
    }
    l
}

/// The scoreboard monitor of `cfg`: a module whose ports are every port of
/// `spe_top_<preset>`, all inputs, named as the unit's, so that a bench binds it with
/// `bind spe_top_<preset> spe_scoreboard_monitor_<preset> u_sb (.*);`. At every rising edge
/// it gives every port lane to the record-level scoreboard (`hdl/sv/spe_scoreboard.sv`,
/// DPI-C on `libspe_capi`) and steps it; the first mismatch is printed when found.
/// `check()` is the verdict, to call after the bench has read every register.
pub fn scoreboard_monitor(cfg: &Config) -> String {
    let top = cfg.top_module();
    let m = monitor_name(cfg);
    let mut l: Vec<String> = vec![
        "// The record-level scoreboard as a monitor to bind to the unit: it samples every port at"
            .into(),
        "// each rising edge and checks the records written and the registers read against the"
            .into(),
        "// golden model (docs/integration.md, \"Checking your integration\"). In your bench:"
            .into(),
        format!("//   bind {top} {m} u_sb (.*);"),
        "// and, at the end, after reading every register through the port:".into(),
        "//   if (dut.u_sb.check() != 0) $fatal(1, \"scoreboard\");".into(),
        "// Needs hdl/sv/spe_scoreboard.sv and libspe_capi (DPI-C): scripts/sv-example.sh builds"
            .into(),
        format!(
            "// it with Verilator 5 into gen/{}/{}.sv.",
            cfg.name,
            replay_name(cfg)
        ),
        String::new(),
        "/* verilator lint_off UNUSEDSIGNAL */".into(),
        format!("module {m} ("),
    ];
    let mut ports = vec!["  input logic clk".to_string()];
    ports.extend(
        PORTS
            .iter()
            .map(|p| format!("  input {} {}", flat_decl(p, cfg), p.name)),
    );
    l.push(ports.join(",\n"));
    l.extend([
        ");".into(),
        "/* verilator lint_on UNUSEDSIGNAL */".into(),
        "  spe_scoreboard_pkg::spe_scoreboard sb;".into(),
        "  int unsigned mismatches = 0;".into(),
        format!("  initial sb = new(\"{}\");", cfg.name),
        "  always @(posedge clk) begin".into(),
    ]);
    l.extend(scoreboard_sets(cfg));
    l.extend([
        "    if (sb.step() != 0) begin".into(),
        "      if (mismatches == 0) $display(\"spe scoreboard: MISMATCH %s\", sb.message());"
            .into(),
        "      mismatches <= mismatches + 1;".into(),
        "    end".into(),
        "  end".into(),
        "  // The verdict, after every register has been read: 0 when every record and register"
            .into(),
        "  // read matched (the summary printed), else 1 (the first mismatch printed).".into(),
        "  function automatic int check();".into(),
        "    if (sb.finish() != 0) begin".into(),
        "      $display(\"spe scoreboard: %s\", sb.message());".into(),
        "      return 1;".into(),
        "    end".into(),
        "    $display(\"spe scoreboard: %s\", sb.summary());".into(),
        "    return 0;".into(),
        "  endfunction".into(),
        "endmodule".into(),
    ]);
    l.join("\n") + "\n"
}

/// The replay bench's scoreboard (under `SPE_SCOREBOARD`): the generated monitor bound to
/// the unit, and the register-port addresses the end of the run reads.
fn scoreboard_feed(cfg: &Config) -> Vec<String> {
    vec![
        String::new(),
        "`ifdef SPE_SCOREBOARD".into(),
        "  // The record-level scoreboard (hdl/sv/spe_scoreboard.sv), as the generated monitor"
            .into(),
        format!("  // bound to the unit ({}.sv).", monitor_name(cfg)),
        format!(
            "  bind {} {} u_sb (.*);",
            cfg.top_module(),
            monitor_name(cfg)
        ),
        sweep_regs(cfg),
        "`endif".into(),
    ]
}

/// The replay bench's end under `SPE_SCOREBOARD`: every register read once through the
/// port (quiet inputs, [`SWEEP_QUIET`]), then the scoreboard's verdict.
fn scoreboard_end() -> Vec<String> {
    let mut l = vec![
        "`ifdef SPE_SCOREBOARD".into(),
        "    // The end: every register read through the port, then the verdict.".into(),
    ];
    l.push(format!(
        "    {}",
        SWEEP_QUIET
            .iter()
            .map(|n| format!("{n} = '0;"))
            .collect::<Vec<_>>()
            .join(" ")
    ));
    l.push("    reg_en = 1'b1;".into());
    l.extend([
        "    foreach (sb_regs[k]) begin".into(),
        "      reg_addr = sb_regs[k];".into(),
        "      #1 clk = 1'b1;".into(),
        "      #1 clk = 1'b0;".into(),
        "    end".into(),
        "    reg_en = 1'b0;".into(),
        "    if (dut.u_sb.check() != 0) $fatal(1, \"spe scoreboard: MISMATCH\");".into(),
        "`endif".into(),
    ]);
    l
}

/// The register-port addresses the end-of-run sweep reads (every register of the unit).
fn sweep_regs(cfg: &Config) -> String {
    let bits = PORTS
        .iter()
        .find(|p| p.name == "reg_addr")
        .map_or(5, |p| p.bits_for(cfg));
    let addrs: Vec<String> = regs::REGS
        .iter()
        .map(|r| format!("{bits}'h{:02x}", r.addr()))
        .collect();
    format!(
        "  logic [{}:0] sb_regs[{}] = '{{{}}};",
        bits - 1,
        addrs.len(),
        addrs.join(", ")
    )
}

/// The header line of a vector file for `cfg`: what the bench skips, and what a reader
/// checks.
pub fn vectors_header(cfg: &Config) -> String {
    let names: Vec<String> = ports_of(cfg)
        .filter(|p| p.dir == Dir::In)
        .map(|p| {
            format!(
                "{}:{}",
                p.name,
                p.width.total_for(cfg.dispatch_width, cfg.threads)
            )
        })
        .collect();
    format!("# spe vectors {} {}", cfg.top_module(), names.join(" "))
}

/// The wrapper: the structs as ports, connected field by field to `spe_top_<preset>`.
pub fn wrapper(cfg: &Config) -> String {
    let mut ports = vec!["  input  logic clk".to_string()];
    for d in [Dir::In, Dir::Out] {
        let (t, suffix) = dir_suffix(d);
        let kw = if d == Dir::In { "input " } else { "output" };
        for g in groups(cfg, d) {
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
    for p in ports_of(cfg) {
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
    use spe_defs::PRESETS;

    /// The hand-written checker's ports are exactly [`CHECKER_PORTS`] (and `clk`), each a
    /// port of the unit with the width the checker gives it.
    #[test]
    fn the_protocol_checker_declares_exactly_the_ports_the_bench_binds() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../sv/spe_protocol_checker.sv");
        let text = std::fs::read_to_string(path).unwrap();
        let declared: Vec<&str> = text
            .lines()
            .filter_map(|l| l.trim().strip_prefix("input logic "))
            .map(|rest| {
                let name = rest.rsplit(' ').next().unwrap();
                name.trim_end_matches(',')
            })
            .collect();
        let mut want = vec!["clk"];
        want.extend(CHECKER_PORTS);
        assert_eq!(declared, want);
        for n in CHECKER_PORTS {
            assert!(PORTS.iter().any(|p| p.name == *n), "{n} is not a port");
        }
        for cfg in PRESETS.iter().filter(|c| c.threads == 1) {
            let bench = replay_bench(cfg);
            for n in CHECKER_PORTS {
                assert!(bench.contains(&format!(".{n}({n})")), "{}: {n}", cfg.name);
            }
        }
    }

    #[test]
    fn every_port_is_one_struct_field_and_one_connection() {
        for cfg in PRESETS {
            let pkg = package(cfg);
            let w = wrapper(cfg);
            for p in ports_of(cfg) {
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
