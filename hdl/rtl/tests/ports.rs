//! The generated top of every preset has exactly the interface of `spe_defs::ports::PORTS`:
//! the same names in the same order, directions and widths (what `gen/spe_tables.md`
//! documents and every testbench drives).

use spe_defs::ports::{Dir, PORTS};
use spe_defs::PRESETS;
use spe_rtl::gen;

/// `(name, direction, bits)` of each port declaration of `module`, in header order.
fn verilog_ports(text: &str, module: &str) -> Vec<(String, Dir, u32)> {
    let header = text
        .split(&format!("module {module}("))
        .nth(1)
        .and_then(|t| t.split(");").next())
        .unwrap_or_else(|| panic!("no header for {module}"));
    let decl = |name: &str| -> (Dir, u32) {
        for line in text.lines().map(str::trim) {
            for (kw, dir) in [
                ("input wire", Dir::In),
                ("output reg", Dir::Out),
                ("output wire", Dir::Out),
            ] {
                let Some(rest) = line.strip_prefix(kw) else {
                    continue;
                };
                let rest = rest.trim().trim_end_matches(';');
                let (range, n) = match rest.rsplit_once(' ') {
                    Some((r, n)) => (r.trim(), n),
                    None => ("", rest),
                };
                if n != name {
                    continue;
                }
                let bits = match range.strip_prefix('[').and_then(|r| r.strip_suffix(":0]")) {
                    Some(msb) => msb.parse::<u32>().expect("numeric range") + 1,
                    None => 1,
                };
                return (dir, bits);
            }
        }
        panic!("{module}: port {name} is not declared")
    };
    header
        .split(',')
        .map(str::trim)
        .map(|n| {
            let (d, b) = decl(n);
            (n.to_string(), d, b)
        })
        .collect()
}

#[test]
fn generated_top_port_list_of_every_preset_equals_the_port_table() {
    for cfg in PRESETS {
        let top = cfg.top_module();
        let files = gen::generate(cfg).expect("generation");
        let file = files
            .iter()
            .find(|f| f.path == format!("{}/{top}.v", cfg.name))
            .expect("top file");
        let got = verilog_ports(&file.text, &top);
        // The clock is the one port the table does not list as a signal row.
        let mut want: Vec<(String, Dir, u32)> = PORTS
            .iter()
            .map(|p| (p.name.to_string(), p.dir, p.width.total(cfg.dispatch_width)))
            .collect();
        if want.first().map(|p| p.0.as_str()) != Some("clk") {
            want.insert(0, ("clk".into(), Dir::In, 1));
        }
        assert_eq!(got, want, "preset {}", cfg.name);
    }
}
