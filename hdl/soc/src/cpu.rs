//! `spe_soc__cpu`: the SoC's core as wrapped Verilog, PicoRV32 or VexRiscv
//! ([`spe_defs::soc::Core`]). Neither core is in this repository: each comes from its
//! pinned PyPI package (`spe_defs::soc::Core::package`).
//!
//! **PicoRV32** is compiled with `RISCV_FORMAL` defined, which gives the RVFI retire port
//! the hooks are taken from. Configuration: RV32I, no counters, IRQs with q-registers
//! (`PROGADDR_IRQ`), the SPE interrupt line level-sensitive (not latched: PicoRV32 re-enters
//! the handler only while PMBIRQ is still high), misaligned accesses and illegal
//! instructions trapped.
//!
//! **VexRiscv** (`VexRiscv_Lite.v`) has two Wishbone masters (instruction cache refills,
//! data); [`vexriscv`] joins them into the same one-access-at-a-time valid/ready bus as
//! PicoRV32's, so the rest of the SoC serves both cores alike, and takes the retire port
//! from the pipeline's write-back stage.

use rust_hdl::prelude::*;
use spe_defs::soc::{Core, IRQ_ADDR, RESET_ADDR, SPE_IRQ};

/// Which core the wrapper instantiates: a construction-time choice, no hardware of its own.
#[derive(Clone, Copy, Debug)]
pub struct CoreSel(pub Core);

impl Default for CoreSel {
    fn default() -> Self {
        CoreSel(Core::Picorv32)
    }
}

impl Logic for CoreSel {
    fn update(&mut self) {}
}

impl Block for CoreSel {
    fn connect_all(&mut self) {}
    fn update_all(&mut self) {}
    fn has_changed(&self) -> bool {
        false
    }
    fn accept(&self, _name: &str, _probe: &mut dyn Probe) {}
}

#[derive(LogicBlock, Default)]
pub struct Cpu {
    pub clk: Signal<In, Clock>,
    pub resetn: Signal<In, Bit>,
    // Native memory interface: valid/ready handshake, one access at a time.
    pub mem_valid: Signal<Out, Bit>,
    pub mem_instr: Signal<Out, Bit>,
    pub mem_ready: Signal<In, Bit>,
    pub mem_addr: Signal<Out, Bits<32>>,
    pub mem_wdata: Signal<Out, Bits<32>>,
    pub mem_wstrb: Signal<Out, Bits<4>>,
    pub mem_rdata: Signal<In, Bits<32>>,
    pub irq: Signal<In, Bits<32>>,
    // RVFI: one pulse per retired (or trapped) instruction, a cycle after it ends.
    pub rvfi_valid: Signal<Out, Bit>,
    pub rvfi_trap: Signal<Out, Bit>,
    pub rvfi_pc_rdata: Signal<Out, Bits<32>>,
    pub rvfi_pc_wdata: Signal<Out, Bits<32>>,
    pub core: CoreSel,
}

impl Logic for Cpu {
    // No simulation model in rust-hdl: the SoC runs under Verilator.
    fn update(&mut self) {}

    fn connect(&mut self) {
        self.mem_valid.connect();
        self.mem_instr.connect();
        self.mem_addr.connect();
        self.mem_wdata.connect();
        self.mem_wstrb.connect();
        self.rvfi_valid.connect();
        self.rvfi_trap.connect();
        self.rvfi_pc_rdata.connect();
        self.rvfi_pc_wdata.connect();
    }

    fn hdl(&self) -> Verilog {
        match self.core.0 {
            Core::Picorv32 => picorv32(),
            Core::Vexriscv => vexriscv(),
        }
    }
}

fn picorv32() -> Verilog {
    let latched = !(1u32 << SPE_IRQ);
    Verilog::Wrapper(Wrapper {
        code: format!(
            "
picorv32 #(
    .ENABLE_COUNTERS(1'b0), .ENABLE_COUNTERS64(1'b0), .ENABLE_REGS_DUALPORT(1'b1),
    .COMPRESSED_ISA(1'b0), .CATCH_MISALIGN(1'b1), .CATCH_ILLINSN(1'b1),
    .ENABLE_MUL(1'b0), .ENABLE_DIV(1'b0), .ENABLE_IRQ(1'b1), .ENABLE_IRQ_QREGS(1'b1),
    .ENABLE_IRQ_TIMER(1'b0), .LATCHED_IRQ(32'h{latched:08x}),
    .PROGADDR_RESET(32'h{RESET_ADDR:08x}), .PROGADDR_IRQ(32'h{IRQ_ADDR:08x})
) core (
    .clk(clk), .resetn(resetn), .trap(),
    .mem_valid(mem_valid), .mem_instr(mem_instr), .mem_ready(mem_ready),
    .mem_addr(mem_addr), .mem_wdata(mem_wdata), .mem_wstrb(mem_wstrb), .mem_rdata(mem_rdata),
    .mem_la_read(), .mem_la_write(), .mem_la_addr(), .mem_la_wdata(), .mem_la_wstrb(),
    .pcpi_valid(), .pcpi_insn(), .pcpi_rs1(), .pcpi_rs2(),
    .pcpi_wr(1'b0), .pcpi_rd(32'd0), .pcpi_wait(1'b0), .pcpi_ready(1'b0),
    .irq(irq), .eoi(),
    .rvfi_valid(rvfi_valid), .rvfi_trap(rvfi_trap),
    .rvfi_pc_rdata(rvfi_pc_rdata), .rvfi_pc_wdata(rvfi_pc_wdata),
    .trace_valid(), .trace_data()
);
"
        ),
        cores: String::new(),
    })
}

/// VexRiscv's Wishbone buses joined into the SoC's valid/ready bus. An access holds the bus
/// for two cycles (request, then ready with the data: `spe_soc`'s RAMs are synchronous);
/// the data bus wins when both ask at once, and the grant holds until the ready cycle.
/// Retire port: an instruction leaves the write-back stage (`writeBack_arbitration_isFiring`
/// and `writeBack_PC`, read through [`probes`]).
fn vexriscv() -> Verilog {
    Verilog::Wrapper(Wrapper {
        code: format!(
            "
wire [29:0] dBusWishbone_ADR, iBusWishbone_ADR;
wire [31:0] dBusWishbone_DAT_MOSI, iBusWishbone_DAT_MOSI;
wire [3:0] dBusWishbone_SEL, iBusWishbone_SEL;
wire dBusWishbone_CYC, dBusWishbone_STB, dBusWishbone_WE, iBusWishbone_CYC, iBusWishbone_STB, iBusWishbone_WE;
wire d_req = dBusWishbone_CYC & dBusWishbone_STB;
wire i_req = iBusWishbone_CYC & iBusWishbone_STB;
reg lock, lock_d;
wire use_d = lock ? lock_d : d_req;
always @(posedge clk) begin
    if (!resetn | mem_ready) lock <= 1'b0;
    else if (mem_valid) begin lock <= 1'b1; lock_d <= use_d; end
end
assign mem_valid = lock | d_req | i_req;
assign mem_instr = !use_d;
assign mem_addr = {{use_d ? dBusWishbone_ADR : iBusWishbone_ADR, 2'b00}};
assign mem_wdata = dBusWishbone_DAT_MOSI;
assign mem_wstrb = (use_d & dBusWishbone_WE) ? dBusWishbone_SEL : 4'b0000;
{probe_wires}
`ifdef SPE_VEXRISCV_EXPOSED
// Synthesis: Yosys `expose` (spe_soc::cpu::expose_script) made the probed signals ports.
VexRiscv core (
{ports},
{probe_ports}
);
`else
// Simulation: hierarchical references into the unmodified core.
VexRiscv core (
{ports}
);
{probe_assigns}
`endif
assign rvfi_valid = p_writeBack_arbitration_isFiring;
assign rvfi_trap = 1'b0;
assign rvfi_pc_rdata = p_writeBack_PC;
assign rvfi_pc_wdata = p_writeBack_PC + 32'd4;
",
            ports = VEX_PORTS,
            probe_wires = probes()
                .iter()
                .map(|(n, w)| format!("wire [{}:0] p_{n};", w - 1))
                .collect::<Vec<_>>()
                .join("\n"),
            probe_ports = probes()
                .iter()
                .map(|(n, _)| format!("    .{n}(p_{n})"))
                .collect::<Vec<_>>()
                .join(",\n"),
            probe_assigns = probes()
                .iter()
                .map(|(n, _)| format!("assign p_{n} = core.{n};"))
                .collect::<Vec<_>>()
                .join("\n"),
        ),
        cores: String::new(),
    })
}

/// The port connections of the VexRiscv instance.
const VEX_PORTS: &str = "    .clk(clk), .reset(!resetn),
    .externalResetVector(32'h00000000), .timerInterrupt(1'b0), .softwareInterrupt(1'b0),
    .externalInterruptArray(irq),
    .iBusWishbone_CYC(iBusWishbone_CYC), .iBusWishbone_STB(iBusWishbone_STB),
    .iBusWishbone_ACK(mem_ready & !use_d), .iBusWishbone_WE(iBusWishbone_WE),
    .iBusWishbone_ADR(iBusWishbone_ADR), .iBusWishbone_DAT_MISO(mem_rdata),
    .iBusWishbone_DAT_MOSI(iBusWishbone_DAT_MOSI), .iBusWishbone_SEL(iBusWishbone_SEL),
    .iBusWishbone_ERR(1'b0), .iBusWishbone_CTI(), .iBusWishbone_BTE(),
    .dBusWishbone_CYC(dBusWishbone_CYC), .dBusWishbone_STB(dBusWishbone_STB),
    .dBusWishbone_ACK(mem_ready & use_d), .dBusWishbone_WE(dBusWishbone_WE),
    .dBusWishbone_ADR(dBusWishbone_ADR), .dBusWishbone_DAT_MISO(mem_rdata),
    .dBusWishbone_DAT_MOSI(dBusWishbone_DAT_MOSI), .dBusWishbone_SEL(dBusWishbone_SEL),
    .dBusWishbone_ERR(1'b0), .dBusWishbone_CTI(), .dBusWishbone_BTE()";

/// The internal signals of `VexRiscv` the SoC reads, with their widths: hierarchical
/// references under Verilator, ports made by Yosys's `expose` for a bitstream. The
/// package's Verilog is never edited.
pub fn probes() -> &'static [(&'static str, u32)] {
    &[("writeBack_arbitration_isFiring", 1), ("writeBack_PC", 32)]
}

/// The Yosys commands that turn [`probes`] into ports of `VexRiscv` (run after reading
/// the core's file and before reading the SoC's).
pub fn expose_script() -> String {
    probes()
        .iter()
        .map(|(n, _)| format!("expose VexRiscv/{n};"))
        .collect::<Vec<_>>()
        .join(" ")
}
