//! The generated top of every preset has exactly the interface of `spe_defs::ports::PORTS`
//! (then `SMT_PORTS` with more than one thread): the same names in the same order,
//! directions and widths (what `gen/spe_tables.md` documents and every testbench drives).

use spe_defs::ports::{ports_of, Dir};
use spe_defs::PRESETS;
use spe_gen::emit::verilog::verilog_ports;
use spe_rtl::gen;

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
        let mut want: Vec<(String, Dir, u32)> = ports_of(cfg)
            .map(|p| (p.name.to_string(), p.dir, p.bits_for(cfg)))
            .collect();
        if want.first().map(|p| p.0.as_str()) != Some("clk") {
            want.insert(0, ("clk".into(), Dir::In, 1));
        }
        assert_eq!(got, want, "preset {}", cfg.name);
    }
}
