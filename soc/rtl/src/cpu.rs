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
//! **VexRiscv** (`VexRiscv_Lite.v`, or `VexRiscv_Full.v` with its data cache) has two Wishbone masters (instruction cache refills,
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
    /// The unit's `tag` (slot 0): the op dispatched this cycle is the sample.
    pub tag: Signal<In, Bit>,
    /// The class the SoC decoded for the op dispatched this cycle (`disp_class`).
    pub tag_class: Signal<In, Bits<2>>,
    /// Breaks VexRiscv's hook adapter on purpose (see `spe_vexriscv_hooks.v`); 0: correct.
    pub hook_fault: Signal<In, Bits<2>>,
    // VexRiscv: the hook reports from its adapter (PicoRV32: zero, the SoC's glue makes
    // them from the fetch and RVFI ports).
    pub h_disp: Signal<Out, Bit>,
    pub h_disp_pc: Signal<Out, Bits<32>>,
    pub h_disp_insn: Signal<Out, Bits<32>>,
    pub h_track: Signal<Out, Bit>,
    pub h_iss: Signal<Out, Bit>,
    pub h_xl: Signal<Out, Bit>,
    pub h_xl_va: Signal<Out, Bits<32>>,
    pub h_mem_done: Signal<Out, Bit>,
    pub h_br_done: Signal<Out, Bit>,
    pub h_br_target: Signal<Out, Bits<32>>,
    pub h_br_taken: Signal<Out, Bit>,
    pub h_br_mispred: Signal<Out, Bit>,
    pub h_cpl_done: Signal<Out, Bit>,
    pub h_cpl_retired: Signal<Out, Bit>,
    pub h_cpl_exception: Signal<Out, Bit>,
    /// The core's own dispatch, for the ground truth (not through the adapter):
    /// VexRiscv's D-to-E transfer; on PicoRV32 every instruction that retires.
    pub core_disp: Signal<Out, Bit>,
    pub core_disp_pc: Signal<Out, Bits<32>>,
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
        self.h_disp.connect();
        self.h_disp_pc.connect();
        self.h_disp_insn.connect();
        self.h_track.connect();
        self.h_iss.connect();
        self.h_xl.connect();
        self.h_xl_va.connect();
        self.h_mem_done.connect();
        self.h_br_done.connect();
        self.h_br_target.connect();
        self.h_br_taken.connect();
        self.h_br_mispred.connect();
        self.h_cpl_done.connect();
        self.h_cpl_retired.connect();
        self.h_cpl_exception.connect();
        self.core_disp.connect();
        self.core_disp_pc.connect();
    }

    fn hdl(&self) -> Verilog {
        match self.core.0 {
            Core::Picorv32 => picorv32(),
            Core::Vexriscv | Core::VexriscvFull => vexriscv(self.core.0),
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
// The hooks come from the SoC's glue; the core's dispatch is its retire stream.
assign {{h_disp, h_track, h_iss, h_xl, h_mem_done, h_br_done, h_br_taken, h_br_mispred}} = 8'd0;
assign {{h_cpl_done, h_cpl_retired, h_cpl_exception}} = 3'd0;
assign {{h_disp_pc, h_disp_insn, h_xl_va, h_br_target}} = 128'd0;
assign core_disp = rvfi_valid & !rvfi_trap;
assign core_disp_pc = rvfi_pc_rdata;
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
///
/// `Core::VexriscvFull`: VexRiscv `Full`, whose data cache treats addresses with bit 31 set as I/O
/// (uncached): the wrapper drops that bit, so the core sees the SoC's map twice, cached
/// below [`spe_defs::soc::IO_ALIAS`] and uncached above it, and the program reaches devices
/// and the record buffer through the alias. Its hook adapter follows the data access
/// through the cache (`CACHED`), not on the bus, which only carries refills and I/O.
fn vexriscv(core: Core) -> Verilog {
    let full = core == Core::VexriscvFull;
    // Bit 31 of the byte address (IO_ALIAS) is bit 29 of the Wishbone word address.
    let adr = |bus: &str| {
        if full {
            format!("{{1'b0, {bus}[28:0], 2'b00}}")
        } else {
            format!("{{{bus}, 2'b00}}")
        }
    };
    let data_access = if full {
        "    .wb_flushed(p_writeBack_arbitration_isFlushed),
    .cmd_fire(1'b0), .cmd_addr(p_execute_SRC_ADD), .d_ack(1'b0),"
    } else {
        "    .wb_flushed(1'b0),
    .cmd_fire(p_dBus_cmd_valid & p_dBus_cmd_ready), .cmd_addr(p_dBus_cmd_payload_address),
    .d_ack(mem_ready & use_d),"
    };
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
assign mem_addr = use_d ? {d_adr} : {i_adr};
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
assign core_disp = p_decode_arbitration_isFiring;
assign core_disp_pc = p_decode_PC;
spe_vexriscv_hooks #(.CACHED({cached})) hooks (
    .clk(clk), .reset(!resetn), .fault(hook_fault),
    .d_fire(p_decode_arbitration_isFiring), .d_pc(p_decode_PC), .d_insn(p_decode_INSTRUCTION),
    .e_fire(p_execute_arbitration_isFiring), .e_remove(p_execute_arbitration_removeIt),
    .e_flushed(p_execute_arbitration_isFlushed),
    .m_fire(p_memory_arbitration_isFiring), .m_remove(p_memory_arbitration_removeIt),
    .m_flushed(p_memory_arbitration_isFlushed), .m_pc(p_memory_PC),
    .wb_fire(p_writeBack_arbitration_isFiring), .wb_remove(p_writeBack_arbitration_removeIt),
    .wb_pc(p_writeBack_PC), .wb_insn(p_writeBack_INSTRUCTION),
    .e_br_cond(p_execute_BRANCH_COND_RESULT), .m_br_calc(p_memory_BRANCH_CALC),
    .m_br_do(p_memory_BRANCH_DO),
{data_access}
    .tag(tag), .disp_class(tag_class),
    .disp(h_disp), .disp_pc(h_disp_pc), .disp_insn(h_disp_insn), .track(h_track),
    .iss(h_iss), .xl(h_xl), .xl_va(h_xl_va), .mem_done(h_mem_done),
    .br_done(h_br_done), .br_target(h_br_target), .br_taken(h_br_taken),
    .br_mispred(h_br_mispred),
    .cpl_done(h_cpl_done), .cpl_retired(h_cpl_retired), .cpl_exception(h_cpl_exception)
);
",
            ports = VEX_PORTS,
            d_adr = adr("dBusWishbone_ADR"),
            i_adr = adr("iBusWishbone_ADR"),
            cached = u8::from(full),
            probe_wires = probes(core)
                .iter()
                .map(|(n, w)| format!("wire [{}:0] p_{n};", w - 1))
                .collect::<Vec<_>>()
                .join("\n"),
            probe_ports = probes(core)
                .iter()
                .map(|(n, _)| format!("    .{n}(p_{n})"))
                .collect::<Vec<_>>()
                .join(",\n"),
            probe_assigns = probes(core)
                .iter()
                .map(|(n, _)| format!("assign p_{n} = core.{n};"))
                .collect::<Vec<_>>()
                .join("\n"),
        ),
        cores: String::new(),
    })
}

const _: () = assert!(
    spe_defs::soc::IO_ALIAS == 1 << 31,
    "the VexRiscv Full wrapper drops address bit 31: IO_ALIAS must be that bit"
);

/// The hook adapter, hand-written Verilog (`soc/rtl/verilog/spe_vexriscv_hooks.v`), copied
/// into `gen/soc_vexriscv/` by `spe gen` and listed in its `files.f`.
pub const HOOKS_V: &str = include_str!("../verilog/spe_vexriscv_hooks.v");

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
/// package's Verilog is never edited. Lite's data access is its bus command; Full's is its
/// cache access (the address computed in E) and the redo that flushes it in WB.
pub fn probes(core: Core) -> Vec<(&'static str, u32)> {
    let mut p = vec![
        ("decode_arbitration_isFiring", 1),
        ("decode_PC", 32),
        ("decode_INSTRUCTION", 32),
        ("execute_arbitration_isFiring", 1),
        ("execute_arbitration_removeIt", 1),
        ("execute_arbitration_isFlushed", 1),
        ("memory_arbitration_isFiring", 1),
        ("memory_arbitration_removeIt", 1),
        ("memory_arbitration_isFlushed", 1),
        ("memory_PC", 32),
        ("writeBack_arbitration_isFiring", 1),
        ("writeBack_arbitration_removeIt", 1),
        ("writeBack_PC", 32),
        ("writeBack_INSTRUCTION", 32),
        ("execute_BRANCH_COND_RESULT", 1),
        ("memory_BRANCH_CALC", 32),
        ("memory_BRANCH_DO", 1),
    ];
    if core == Core::VexriscvFull {
        p.extend([
            ("writeBack_arbitration_isFlushed", 1),
            ("execute_SRC_ADD", 32),
        ]);
    } else {
        p.extend([
            ("dBus_cmd_valid", 1),
            ("dBus_cmd_ready", 1),
            ("dBus_cmd_payload_address", 32),
        ]);
    }
    p
}

/// The Yosys commands that turn [`probes`] into ports of `VexRiscv` (run after reading
/// the core's file and before reading the SoC's).
pub fn expose_script(core: Core) -> String {
    probes(core)
        .iter()
        .map(|(n, _)| format!("expose VexRiscv/{n};"))
        .collect::<Vec<_>>()
        .join(" ")
}
