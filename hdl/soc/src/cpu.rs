//! `spe_soc__cpu`: PicoRV32 as wrapped Verilog. The core itself is not in this repository:
//! `picorv32.v` comes from the PyPI package `pythondata-cpu-picorv32`
//! (`spe_defs::soc::PICORV32_VERSION`) and is compiled with `RISCV_FORMAL` defined, which
//! gives the RVFI retire port the hooks are taken from.
//!
//! Configuration: RV32I, no counters, IRQs with q-registers (`PROGADDR_IRQ`), the SPE
//! interrupt line level-sensitive (not latched: PicoRV32 re-enters the handler only while
//! PMBIRQ is still high), misaligned accesses and illegal instructions trapped.

use rust_hdl::prelude::*;
use spe_defs::soc::{IRQ_ADDR, RESET_ADDR, SPE_IRQ};

#[derive(LogicBlock, Default)]
pub struct Picorv32 {
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
}

impl Logic for Picorv32 {
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
}
