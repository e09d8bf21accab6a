//! The generated SoC top has exactly the interface of `spe_defs::soc::SOC_PORTS` (what the
//! Verilated model's shim and the harness address by name), and its probe buses carry the
//! unit's ports in the order and widths of `spe_defs::soc::probe_layout`.

use spe_defs::ports::{Dir, PORTS};
use spe_defs::soc::{probe_layout, SIM_BAUD_DIV, SOC_PORTS};
use spe_gen::emit::verilog::verilog_ports;

#[test]
fn generated_soc_top_port_list_equals_the_soc_port_table() {
    for core in spe_defs::soc::Core::ALL {
        let text =
            spe_soc::verilog(core, SIM_BAUD_DIV, &[], spe_soc::BufSize::K4).expect("generation");
        let got = verilog_ports(&text, spe_soc::SOC_TOP);
        let want: Vec<(String, Dir, u32)> = SOC_PORTS
            .iter()
            .map(|p| (p.name.to_string(), p.dir, p.bits))
            .collect();
        assert_eq!(got, want, "{}", core.name());
    }
}

#[test]
fn vexriscv_probes_reach_the_core_both_ways_and_feed_the_adapter() {
    use spe_defs::soc::Core;
    for core in [Core::Vexriscv, Core::VexriscvFull] {
        let text =
            spe_soc::verilog(core, SIM_BAUD_DIV, &[], spe_soc::BufSize::K4).expect("generation");
        for (name, _) in spe_soc::cpu::probes(core) {
            // Simulation: a hierarchical reference; synthesis: the port `expose` makes.
            assert!(
                text.contains(&format!("assign p_{name} = core.{name};")),
                "{}: {name}: no hierarchical reference",
                core.name()
            );
            assert!(
                text.contains(&format!(".{name}(p_{name})")),
                "{}: {name}: no port connection for the exposed build",
                core.name()
            );
            assert!(
                spe_soc::cpu::expose_script(core).contains(&format!("expose VexRiscv/{name};")),
                "{}: {name}: not exposed for Yosys",
                core.name()
            );
            // Every probe is used: by the adapter's instance or the retire port.
            let uses = text.matches(&format!("p_{name}")).count();
            assert!(
                uses >= 4,
                "{}: {name}: read nowhere ({uses} mentions)",
                core.name()
            );
        }
        let cached = u8::from(core == Core::VexriscvFull);
        assert!(
            text.contains(&format!("spe_vexriscv_hooks #(.CACHED({cached})) hooks (")),
            "{}: the adapter is instantiated, CACHED = {cached}",
            core.name()
        );
    }
}

#[test]
fn probe_buses_concatenate_the_units_ports_first_port_lowest() {
    let text = spe_soc::verilog(
        spe_defs::soc::Core::Picorv32,
        SIM_BAUD_DIV,
        &[],
        spe_soc::BufSize::K4,
    )
    .expect("generation");
    for (dir, bus) in [(Dir::In, "spe_in"), (Dir::Out, "spe_out")] {
        let names: Vec<&str> = probe_layout(dir)
            .iter()
            .rev()
            .map(|&(i, _, _)| PORTS[i].name)
            .collect();
        let assign = format!("assign {bus} = {{{}}};", names.join(", "));
        assert!(
            text.contains(&assign),
            "{bus}: no `{assign}` in the wrapper"
        );
    }
}

#[test]
fn a_board_build_carries_the_program_in_its_ram() {
    let text = spe_soc::verilog(
        spe_defs::soc::Core::Picorv32,
        104,
        &[0x1234_5678, 0x9abc_def0],
        spe_soc::BufSize::K4,
    )
    .expect("generation");
    // Byte lane 0 holds the low byte of each word, lane 3 the high one.
    assert!(text.contains("mem[11'b0] = 8'h78"), "lane 0 of word 0");
    assert!(text.contains("mem[11'b1] = 8'h9a"), "lane 3 of word 1");
    let sim = spe_soc::verilog(
        spe_defs::soc::Core::Picorv32,
        SIM_BAUD_DIV,
        &[],
        spe_soc::BufSize::K4,
    )
    .expect("generation");
    assert!(
        !sim.contains("initial"),
        "the simulation build loads its RAM through the loader port"
    );
}
