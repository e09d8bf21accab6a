//! `spe_soc__spe`: the SPE unit as shipped (`gen/<SOC_PRESET>/spe_top_<preset>.v`), wrapped
//! so that the SoC uses exactly the Verilog a core team integrates. The wrapper's ports are
//! the unit's (`spe_defs::ports::PORTS`, generated through `spe_rtl::with_top_ports!`) plus
//! two probe buses that carry every input and every output of the unit out of the SoC for
//! the lockstep check against the golden model (`spe_defs::soc::probe_layout`).

use rust_hdl::prelude::*;
use spe_defs::ports::{Dir, PORTS};
use spe_defs::soc::{probe_layout, PROBE_IN_BITS, PROBE_OUT_BITS, SOC_PRESET, SOC_W};
use spe_defs::Config;

// The per-slot widths `with_top_ports!` names, at the SoC's dispatch width.
const W: usize = SOC_W;
const PCB: usize = spe_rtl::ADDR_BITS * SOC_W;
const CB: usize = 2 * SOC_W;
const SB: usize = 8 * SOC_W;
const PIB: usize = PROBE_IN_BITS as usize;
const POB: usize = PROBE_OUT_BITS as usize;

macro_rules! spe_unit {
    (
        ports { $($p:ident: $dir:ident $t:ty;)* }
        hooks { $($hooks:tt)* }
    ) => {
        /// The unit with its ports, and the probes.
        #[derive(LogicBlock, Default)]
        pub struct SpeUnit {
            $(pub $p: Signal<$dir, $t>,)*
            pub spe_in: Signal<Out, Bits<PIB>>,
            pub spe_out: Signal<Out, Bits<POB>>,
        }

        impl SpeUnit {
            /// Drives every output of the wrapper (rust-hdl's `connect`).
            fn connect_outputs(&mut self) {
                $(spe_unit!(@connect self, $p, $dir);)*
                self.spe_in.connect();
                self.spe_out.connect();
            }
        }
    };
    (@connect $s:ident, $p:ident, Out) => { $s.$p.connect(); };
    (@connect $s:ident, $p:ident, In) => {};
}

spe_rtl::with_top_ports! { spe_unit {} }

/// The unit's ports of direction `dir` as a Verilog concatenation, first port in the low
/// bits.
fn concat(dir: Dir) -> String {
    let names: Vec<&str> = probe_layout(dir)
        .iter()
        .rev()
        .map(|&(i, _, _)| PORTS[i].name)
        .collect();
    format!("{{{}}}", names.join(", "))
}

impl Logic for SpeUnit {
    // No simulation model in rust-hdl: the SoC runs under Verilator.
    fn update(&mut self) {}

    fn connect(&mut self) {
        self.connect_outputs();
    }

    fn hdl(&self) -> Verilog {
        let top = Config::preset(SOC_PRESET)
            .expect("the SoC's preset exists")
            .top_module();
        let conns: Vec<String> = std::iter::once("clk")
            .chain(PORTS.iter().map(|p| p.name))
            .map(|n| format!("    .{n}({n})"))
            .collect();
        Verilog::Wrapper(Wrapper {
            code: format!(
                "\n{top} unit (\n{}\n);\nassign spe_in = {};\nassign spe_out = {};\n",
                conns.join(",\n"),
                concat(Dir::In),
                concat(Dir::Out)
            ),
            cores: String::new(),
        })
    }
}
