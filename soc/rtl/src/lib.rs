//! The demo SoC in rust-hdl: a PicoRV32 core profiled by the SPE unit.
//!
//! ```text
//!               mem_* (valid/ready)            +-------+
//!  +----------+ -----------+-----------------> | RAM   |  8 KiB, 4 byte lanes, loader port
//!  | PicoRV32 |            +-----------------> | BUF   |  record buffer (4 KiB, or the
//!  |    or    |            |                     |       |  window's top 2 or 1 KiB) <-- wr_*
//!  | VexRiscv |            +-----------------> | UART  |  --> uart_tx
//!  |  (cpu)   |            +-----------------> | SPE   |  register window --> reg_* (unit)
//!  |          |            +-----------------> | CTL   |  exit code, cycles, PSB, buffer size
//!  |          | <-- irq[4] = PMBIRQ            +-------+
//!  +----------+ --> fetch, data access, RVFI retire --> hooks --> SPE unit (spe)
//! ```
//!
//! | file | module | job |
//! |---|---|---|
//! | [`cpu`] | `spe_soc__cpu` | PicoRV32 (wrapped Verilog from its PyPI package) |
//! | [`unit`] | `spe_soc__spe` | the unit as shipped in `gen/`, plus the probe buses |
//! | [`uart`] | `spe_soc__uart` | UART transmitter |
//! | here | `spe_soc` | bus decode, RAMs, register window, the hooks |
//!
//! **Memory map** (`spe_defs::soc`): each access takes two cycles (request, then ready with
//! the data: the RAMs are synchronous, so they map to block RAM).
//!
//! **Record buffer size**: the BUF window is 4 KiB; a build fills it with a RAM of 4, 2 or
//! 1 KiB ([`BufSize`]) at the window's top, `[BUF end - size, BUF end)`, so that the limit
//! the driver programs (PMBLIMITR, 4 KiB aligned) is the window's end whatever the size.
//! The driver reads the size from `CTL + 12` and starts the buffer there. The simulated
//! SoCs have 4 KiB; a board build may take less to fit its block RAMs (VexRiscv on the
//! HX8K). A record write below the RAM is an external abort, like one outside the window.
//!
//! **Hooks**: PicoRV32 runs one instruction at a time, so the op being tracked is the one
//! between the fetch that tagged it and the next retirement.
//! * dispatch (W = 1): the instruction that executes next, once its fetch is known to be
//!   the one used. PicoRV32 prefetches the next word while it executes, and drops it after
//!   a load, a store or a taken branch (it fetches again), so a fetch alone is not a
//!   dispatch. The glue keeps the last word fetched since the last retirement; at a
//!   retirement (RVFI) whose next PC is that word's address, that word is dispatched; when
//!   no such word is there yet, the next fetch is. Its address, and its class decoded from
//!   the instruction word (load, store, conditional branch, JAL, JALR = indirect). Every op
//!   dispatched so retires: the population is exactly the retire stream. EL0, Non-secure:
//!   the core has only machine mode, reported as EL0 so that perf attributes samples to the
//!   program's mapping.
//! * issue: the cycle after the fetch (PicoRV32 decodes and reads registers right away).
//! * translation: identity (no MMU), reported start and done in the first cycle of the
//!   tracked load or store's data access, no TLB events.
//! * memory: that access's handshake. Data source from the map: RAM and record buffer
//!   answer as L1 hits (`L1D-ACCESS`), the peripherals as devices.
//! * branch: at retirement (RVFI), target = next PC, taken = next PC is not PC + 4. No
//!   predictor: never MISPRED.
//! * completion: the RVFI retire pulse (trap -> exception). A dispatch while the op is
//!   still open (it never retired) completes it as flushed. Limit: an op dispatched at a
//!   retirement just before PicoRV32 enters its interrupt handler is completed by the
//!   handler's first retirement (the unit samples nothing while PMBIRQ is pending, so this
//!   needs another interrupt source).
//! * context: zero; both counters: the cycle counter.

pub mod board;
pub mod cpu;
pub mod uart;
pub mod unit;

use cpu::{CoreSel, Cpu};
use rust_hdl::prelude::*;
use spe_defs::packet::{op_class, subclass};
use spe_defs::soc::{
    Core, Region, BUF, BUF_ADDR_BITS, CTL, PROBE_IN_BITS, PROBE_OUT_BITS, RAM, RAM_ADDR_BITS,
    SOURCE_DEVICE, SOURCE_RAM, SPE, SPE_IRQ, UART,
};
use spe_rtl::flop::Rff;
use spe_rtl::K;
use uart::UartTx;
use unit::SpeUnit;

const PIB: usize = PROBE_IN_BITS as usize;
const POB: usize = PROBE_OUT_BITS as usize;
const RAB: usize = RAM_ADDR_BITS as usize;

/// The record buffer RAM of a build: 4 KiB (the whole BUF window), 2 or 1 KiB.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BufSize {
    K4,
    K2,
    K1,
}

impl BufSize {
    pub const ALL: [BufSize; 3] = [BufSize::K4, BufSize::K2, BufSize::K1];

    pub fn bytes(self) -> u32 {
        match self {
            BufSize::K4 => BUF.size,
            BufSize::K2 => BUF.size / 2,
            BufSize::K1 => BUF.size / 4,
        }
    }

    /// Width of the RAM's 64-bit beat address.
    pub fn addr_bits(self) -> usize {
        (self.bytes() / 8).trailing_zeros() as usize
    }
}

const _: () = assert!(BUF_ADDR_BITS == 9, "BufSize::K4 is the whole 4 KiB window");

/// The SoC top, `spe_soc`. Its ports are `spe_defs::soc::SOC_PORTS`.
#[derive(LogicBlock, Default)]
pub struct SpeSoc<const BAB: usize> {
    pub clk: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub load_en: Signal<In, Bit>,
    pub load_addr: Signal<In, Bits<RAB>>,
    pub load_data: Signal<In, Bits<32>>,
    pub uart_tx: Signal<Out, Bit>,
    pub exit_valid: Signal<Out, Bit>,
    pub exit_code: Signal<Out, Bits<32>>,
    pub rvfi_valid: Signal<Out, Bit>,
    pub rvfi_pc: Signal<Out, Bits<32>>,
    pub rvfi_trap: Signal<Out, Bit>,
    pub hook_fault: Signal<In, Bits<2>>,
    pub core_disp_valid: Signal<Out, Bit>,
    pub core_disp_pc: Signal<Out, Bits<32>>,
    pub spe_in: Signal<Out, Bits<PIB>>,
    pub spe_out: Signal<Out, Bits<POB>>,
    // Blocks.
    cpu: Cpu,
    spe: SpeUnit,
    uart: UartTx,
    ram0: RAM<Bits<8>, RAB>,
    ram1: RAM<Bits<8>, RAB>,
    ram2: RAM<Bits<8>, RAB>,
    ram3: RAM<Bits<8>, RAB>,
    rbuf: RAM<Bits<64>, BAB>,
    // Bus state: the ready cycle, the peripheral read data, the cycle counter, the exit.
    s_ready: Rff<Bit>,
    s_io_rdata: Rff<Bits<32>>,
    s_cycles: Rff<Bits<64>>,
    s_exit_valid: Rff<Bit>,
    s_exit_code: Rff<Bits<32>>,
    /// The core's PSB CSYNC: requested by a write to CTL+8, held until the unit's psb_done.
    s_psb: Rff<Bit>,
    // Dispatch state: the last instruction fetched since the last retirement (PicoRV32
    // prefetches, and drops the word after a load, a store or a taken branch), and whether
    // the next instruction is yet to be fetched.
    s_fvalid: Rff<Bit>,
    s_fpc: Rff<Bits<32>>,
    s_fword: Rff<Bits<32>>,
    s_wait: Rff<Bit>,
    // Hook state: an op is tracked, its issue pulse is due, its kind.
    s_track: Rff<Bit>,
    s_issue: Rff<Bit>,
    s_ldst: Rff<Bit>,
    s_branch: Rff<Bit>,
    // Local signals.
    first: Signal<Local, Bit>,
    write: Signal<Local, Bit>,
    sel_ram: Signal<Local, Bit>,
    sel_buf: Signal<Local, Bit>,
    sel_uart: Signal<Local, Bit>,
    sel_spe: Signal<Local, Bit>,
    sel_ctl: Signal<Local, Bit>,
    ram_we: Signal<Local, Bits<4>>,
    ram_word: Signal<Local, Bits<32>>,
    buf_word: Signal<Local, Bits<64>>,
    reg_word: Signal<Local, Bits<64>>,
    opcode: Signal<Local, Bits<7>>,
    fetch: Signal<Local, Bit>,
    dispatch: Signal<Local, Bit>,
    insn: Signal<Local, Bits<32>>,
    data_first: Signal<Local, Bit>,
    data_done: Signal<Local, Bit>,
    wr_in_buf: Signal<Local, Bit>,
    // Constants.
    k_ram_hi: K<Bits<19>>,
    k_buf_hi: K<Bits<20>>,
    k_uart_hi: K<Bits<8>>,
    k_spe_hi: K<Bits<8>>,
    k_ctl_hi: K<Bits<8>>,
    k_wbuf_hi: K<Bits<52>>,
    /// Address bits 11 down to the one above the RAM's byte address (bit `BAB + 3`): set in
    /// every byte of the RAM (it sits at the window's top); zero for a 4 KiB buffer.
    k_wbuf_fill: K<Bits<64>>,
    /// The RAM's size in bytes (read at `CTL + 12`).
    k_buf_bytes: K<Bits<32>>,
    k_zero1: K<Bits<1>>,
    k_one1: K<Bits<1>>,
    k_zero4: K<Bits<4>>,
    k_zero8: K<Bits<8>>,
    k_zero32: K<Bits<32>>,
    k_zero64: K<Bits<64>>,
    k_one32: K<Bits<32>>,
    k_lo32: K<Bits<64>>,
    k_hi32: K<Bits<64>>,
    k_one64: K<Bits<64>>,
    k_four32: K<Bits<32>>,
    k_op_load: K<Bits<7>>,
    k_op_store: K<Bits<7>>,
    k_op_branch: K<Bits<7>>,
    k_op_jal: K<Bits<7>>,
    k_op_jalr: K<Bits<7>>,
    k_class_ldst: K<Bits<2>>,
    k_class_branch: K<Bits<2>>,
    k_class_other: K<Bits<2>>,
    k_sub_store: K<Bits<8>>,
    k_sub_cond: K<Bits<8>>,
    k_sub_ind: K<Bits<8>>,
    k_el0: K<Bits<2>>,
    /// MDCR_EL2.E2PB, ignored: the PE has no EL2.
    k_zero2: K<Bits<2>>,
    /// A write outside the buffer RAM: an external abort (no FSC of its own).
    k_err_external: K<Bits<2>>,
    k_zero6: K<Bits<6>>,
    k_src_ram: K<Bits<8>>,
    k_src_dev: K<Bits<8>>,
    k_irq: K<Bits<32>>,
    /// The core is VexRiscv: the hooks come from its adapter, not from the glue below.
    k_vex: K<Bit>,
}

/// `base >> shift` as a `B`-bit constant: the address bits above `shift` that select
/// region `r` (whose size must be `1 << shift`).
fn region_hi<const B: usize>(r: Region, shift: u32) -> K<Bits<B>> {
    assert_eq!(
        r.size,
        1 << shift,
        "region {} is not 2^{shift} bytes",
        r.name
    );
    K::new(u64::from(r.base >> shift).into())
}

impl<const BAB: usize> SpeSoc<BAB> {
    /// The SoC around `core` with a UART bit time of `baud_div` cycles and a record buffer
    /// RAM of `8 << BAB` bytes. `ram` preloads the main RAM (a board build: the program is
    /// part of the bitstream); empty for the simulated SoC, which loads it through the
    /// loader port.
    pub fn new(core: Core, baud_div: u32, ram: &[u32]) -> Self {
        assert!(
            ram.len() <= spe_defs::soc::RAM_WORDS,
            "program larger than the RAM"
        );
        let buf_bytes = 8u64 << BAB;
        assert!(
            buf_bytes <= u64::from(BUF.size),
            "record buffer larger than its window"
        );
        let lane = |k: usize| -> RAM<Bits<8>, RAB> {
            let bytes = ram
                .iter()
                .map(|w| Bits::<8>::from(u64::from((w >> (8 * k)) & 0xff)));
            RAM::new(
                bytes
                    .enumerate()
                    .map(|(i, b)| (Bits::<RAB>::from(i as u64), b))
                    .collect(),
            )
        };
        Self {
            cpu: Cpu {
                core: CoreSel(core),
                ..Default::default()
            },
            uart: UartTx::new(baud_div),
            ram0: lane(0),
            ram1: lane(1),
            ram2: lane(2),
            ram3: lane(3),
            k_ram_hi: region_hi(RAM, 13),
            k_buf_hi: region_hi(BUF, 12),
            k_uart_hi: K::new(u64::from(UART.base >> 24).into()),
            k_spe_hi: K::new(u64::from(SPE.base >> 24).into()),
            k_ctl_hi: K::new(u64::from(CTL.base >> 24).into()),
            k_wbuf_hi: K::new(u64::from(BUF.base >> 12).into()),
            k_wbuf_fill: K::new((u64::from(BUF.size) - buf_bytes).into()),
            k_buf_bytes: K::new(buf_bytes.into()),
            k_one64: K::new(1u64.into()),
            k_one1: K::new(1u64.into()),
            k_one32: K::new(1u64.into()),
            k_lo32: K::new(0xffff_ffffu64.into()),
            k_hi32: K::new(0xffff_ffff_0000_0000u64.into()),
            k_four32: K::new(4u64.into()),
            k_op_load: K::new(0x03u64.into()),
            k_op_store: K::new(0x23u64.into()),
            k_op_branch: K::new(0x63u64.into()),
            k_op_jal: K::new(0x6fu64.into()),
            k_op_jalr: K::new(0x67u64.into()),
            k_class_ldst: K::new(u64::from(op_class::LD_ST_ATOMIC).into()),
            k_class_branch: K::new(u64::from(op_class::BRANCH).into()),
            k_class_other: K::new(u64::from(op_class::OTHER).into()),
            k_sub_store: K::new(u64::from(subclass::LDST_ST).into()),
            k_sub_cond: K::new(u64::from(subclass::BR_COND).into()),
            k_sub_ind: K::new(u64::from(subclass::BR_IND).into()),
            k_err_external: K::new(u64::from(spe_defs::regs::pmbsr::ERR_EXTERNAL).into()),
            k_zero6: K::new(0u64.into()),
            k_src_ram: K::new(u64::from(SOURCE_RAM).into()),
            k_src_dev: K::new(u64::from(SOURCE_DEVICE).into()),
            k_irq: K::new((1u64 << SPE_IRQ).into()),
            k_vex: K::new(core.is_vexriscv()),
            s_wait: Rff::with_reset(true),
            ..Default::default()
        }
    }
}

spe_rtl::rff_setup!(
    impl[const BAB: usize] SpeSoc<BAB>: s_fvalid, s_fpc, s_fword, s_wait, s_ready, s_io_rdata,
    s_cycles, s_exit_valid, s_exit_code, s_psb, s_track, s_issue, s_ldst, s_branch, uart, spe
);

impl<const BAB: usize> spe_rtl::flop::Kernel for SpeSoc<BAB> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clk, uart);
        self.cpu.clk.next = self.clk.val();
        self.spe.clk.next = self.clk.val();
        dff_setup!(
            self,
            clk,
            s_ready,
            s_io_rdata,
            s_cycles,
            s_exit_valid,
            s_exit_code,
            s_psb,
            s_fvalid,
            s_fpc,
            s_fword,
            s_wait,
            s_track,
            s_issue,
            s_ldst,
            s_branch
        );
        self.cpu.resetn.next = !self.reset.val();
        self.s_cycles.d.next = self.s_cycles.q.val() + self.k_one64.val();

        // The bus: an access is requested (first cycle), then ready in the next cycle.
        self.s_ready.d.next = self.cpu.mem_valid.val() & !self.s_ready.q.val();
        self.cpu.mem_ready.next = self.s_ready.q.val();
        self.first.next = self.cpu.mem_valid.val() & !self.s_ready.q.val();
        self.write.next = self.cpu.mem_wstrb.val() != self.k_zero4.val();
        self.sel_ram.next = self.cpu.mem_addr.val().get_bits::<19>(13) == self.k_ram_hi.val();
        self.sel_buf.next = self.cpu.mem_addr.val().get_bits::<20>(12) == self.k_buf_hi.val();
        self.sel_uart.next = self.cpu.mem_addr.val().get_bits::<8>(24) == self.k_uart_hi.val();
        self.sel_spe.next = self.cpu.mem_addr.val().get_bits::<8>(24) == self.k_spe_hi.val();
        self.sel_ctl.next = self.cpu.mem_addr.val().get_bits::<8>(24) == self.k_ctl_hi.val();

        // Main RAM: four byte lanes; the loader writes whole words while the core is held.
        self.ram0.read_clock.next = self.clk.val();
        self.ram1.read_clock.next = self.clk.val();
        self.ram2.read_clock.next = self.clk.val();
        self.ram3.read_clock.next = self.clk.val();
        self.ram0.write_clock.next = self.clk.val();
        self.ram1.write_clock.next = self.clk.val();
        self.ram2.write_clock.next = self.clk.val();
        self.ram3.write_clock.next = self.clk.val();
        self.ram0.read_address.next = self.cpu.mem_addr.val().get_bits::<RAB>(2);
        self.ram1.read_address.next = self.cpu.mem_addr.val().get_bits::<RAB>(2);
        self.ram2.read_address.next = self.cpu.mem_addr.val().get_bits::<RAB>(2);
        self.ram3.read_address.next = self.cpu.mem_addr.val().get_bits::<RAB>(2);
        self.ram_we.next = self.k_zero4.val();
        if self.first.val() & self.sel_ram.val() {
            self.ram_we.next = self.cpu.mem_wstrb.val();
        }
        if self.load_en.val() {
            self.ram0.write_address.next = self.load_addr.val();
            self.ram1.write_address.next = self.load_addr.val();
            self.ram2.write_address.next = self.load_addr.val();
            self.ram3.write_address.next = self.load_addr.val();
            self.ram0.write_data.next = self.load_data.val().get_bits::<8>(0);
            self.ram1.write_data.next = self.load_data.val().get_bits::<8>(8);
            self.ram2.write_data.next = self.load_data.val().get_bits::<8>(16);
            self.ram3.write_data.next = self.load_data.val().get_bits::<8>(24);
            self.ram0.write_enable.next = true;
            self.ram1.write_enable.next = true;
            self.ram2.write_enable.next = true;
            self.ram3.write_enable.next = true;
        } else {
            self.ram0.write_address.next = self.cpu.mem_addr.val().get_bits::<RAB>(2);
            self.ram1.write_address.next = self.cpu.mem_addr.val().get_bits::<RAB>(2);
            self.ram2.write_address.next = self.cpu.mem_addr.val().get_bits::<RAB>(2);
            self.ram3.write_address.next = self.cpu.mem_addr.val().get_bits::<RAB>(2);
            self.ram0.write_data.next = self.cpu.mem_wdata.val().get_bits::<8>(0);
            self.ram1.write_data.next = self.cpu.mem_wdata.val().get_bits::<8>(8);
            self.ram2.write_data.next = self.cpu.mem_wdata.val().get_bits::<8>(16);
            self.ram3.write_data.next = self.cpu.mem_wdata.val().get_bits::<8>(24);
            self.ram0.write_enable.next = self.ram_we.val().get_bit(0);
            self.ram1.write_enable.next = self.ram_we.val().get_bit(1);
            self.ram2.write_enable.next = self.ram_we.val().get_bit(2);
            self.ram3.write_enable.next = self.ram_we.val().get_bit(3);
        }
        self.ram_word.next = (bit_cast::<32, 8>(self.ram3.read_data.val()) << 24)
            | (bit_cast::<32, 8>(self.ram2.read_data.val()) << 16)
            | (bit_cast::<32, 8>(self.ram1.read_data.val()) << 8)
            | bit_cast::<32, 8>(self.ram0.read_data.val());

        // Record buffer: the unit writes 64-bit beats, the core reads 32-bit halves.
        self.rbuf.read_clock.next = self.clk.val();
        self.rbuf.write_clock.next = self.clk.val();
        self.rbuf.read_address.next = self.cpu.mem_addr.val().get_bits::<BAB>(3);
        self.buf_word.next = self.rbuf.read_data.val();
        self.wr_in_buf.next = (self.spe.wr_addr.val().get_bits::<52>(12) == self.k_wbuf_hi.val())
            & ((self.spe.wr_addr.val() & self.k_wbuf_fill.val()) == self.k_wbuf_fill.val());
        self.rbuf.write_address.next = self.spe.wr_addr.val().get_bits::<BAB>(3);
        self.rbuf.write_data.next = self.spe.wr_data.val();
        self.rbuf.write_enable.next = self.spe.wr_valid.val() & self.wr_in_buf.val();
        self.spe.wr_ready.next = true;
        self.spe.wr_err.next = self.spe.wr_valid.val() & !self.wr_in_buf.val();
        // A write outside the buffer RAM (the window, or below a smaller RAM at its top) is
        // an external abort.
        self.spe.wr_err_kind.next = self.k_err_external.val();
        self.spe.wr_err_fsc.next = self.k_zero6.val();

        // The unit's register window: a word write is a 64-bit write keeping the other half.
        self.reg_word.next = self.spe.reg_rdata.val();
        self.spe.reg_en.next = self.first.val() & self.sel_spe.val();
        // reg_we only with reg_en (the port rule the protocol checker holds the core to).
        self.spe.reg_we.next = self.write.val() & self.first.val() & self.sel_spe.val();
        self.spe.reg_addr.next = self.cpu.mem_addr.val().get_bits::<5>(3);
        if self.cpu.mem_addr.val().get_bit(2) {
            self.spe.reg_wdata.next = (bit_cast::<64, 32>(self.cpu.mem_wdata.val()) << 32)
                | (self.reg_word.val() & self.k_lo32.val());
        } else {
            self.spe.reg_wdata.next = (self.reg_word.val() & self.k_hi32.val())
                | bit_cast::<64, 32>(self.cpu.mem_wdata.val());
        }

        // UART and control.
        self.uart.start.next = self.first.val()
            & self.sel_uart.val()
            & self.write.val()
            & !self.cpu.mem_addr.val().get_bit(2);
        self.uart.data.next = self.cpu.mem_wdata.val().get_bits::<8>(0);
        self.s_exit_valid.d.next = self.s_exit_valid.q.val();
        self.s_exit_code.d.next = self.s_exit_code.q.val();
        if self.first.val()
            & self.sel_ctl.val()
            & self.write.val()
            & !self.cpu.mem_addr.val().get_bit(2)
            & !self.cpu.mem_addr.val().get_bit(3)
        {
            self.s_exit_valid.d.next = true;
            self.s_exit_code.d.next = self.cpu.mem_wdata.val();
        }
        // PSB CSYNC: a write to CTL+8 raises psb_req until the unit answers psb_done; the
        // driver polls CTL+8 (bit 0: still pending). As the port contract asks, the request
        // waits for the completion report of the op being tracked (the PSB store itself,
        // or a poll), so the unit never drops a sample of this core.
        self.s_psb.d.next = self.s_psb.q.val() & !self.spe.psb_done.val();
        if self.first.val()
            & self.sel_ctl.val()
            & self.write.val()
            & !self.cpu.mem_addr.val().get_bit(2)
            & self.cpu.mem_addr.val().get_bit(3)
        {
            self.s_psb.d.next = true;
        }
        self.spe.psb_req.next = self.s_psb.q.val() & !self.s_track.q.val();

        // Peripheral read data, captured in the request cycle.
        self.s_io_rdata.d.next = self.k_zero32.val();
        if self.sel_spe.val() {
            if self.cpu.mem_addr.val().get_bit(2) {
                self.s_io_rdata.d.next = self.reg_word.val().get_bits::<32>(32);
            } else {
                self.s_io_rdata.d.next = self.reg_word.val().get_bits::<32>(0);
            }
        }
        if self.sel_uart.val() & self.cpu.mem_addr.val().get_bit(2) & self.uart.busy.val() {
            self.s_io_rdata.d.next = self.k_one32.val();
        }
        if self.sel_ctl.val()
            & self.cpu.mem_addr.val().get_bit(2)
            & !self.cpu.mem_addr.val().get_bit(3)
        {
            self.s_io_rdata.d.next = self.s_cycles.q.val().get_bits::<32>(0);
        }
        if self.sel_ctl.val()
            & self.cpu.mem_addr.val().get_bit(2)
            & self.cpu.mem_addr.val().get_bit(3)
        {
            self.s_io_rdata.d.next = self.k_buf_bytes.val();
        }
        if self.sel_ctl.val()
            & !self.cpu.mem_addr.val().get_bit(2)
            & self.cpu.mem_addr.val().get_bit(3)
            & self.s_psb.q.val()
        {
            self.s_io_rdata.d.next = self.k_one32.val();
        }
        self.cpu.mem_rdata.next = self.s_io_rdata.q.val();
        if self.sel_ram.val() {
            self.cpu.mem_rdata.next = self.ram_word.val();
        }
        if self.sel_buf.val() {
            if self.cpu.mem_addr.val().get_bit(2) {
                self.cpu.mem_rdata.next = self.buf_word.val().get_bits::<32>(32);
            } else {
                self.cpu.mem_rdata.next = self.buf_word.val().get_bits::<32>(0);
            }
        }

        // PMBIRQ to the core.
        self.cpu.irq.next = self.k_zero32.val();
        if self.spe.irq.val() {
            self.cpu.irq.next = self.k_irq.val();
        }

        // Hooks. Dispatch: the instruction that runs next, when its fetch is known to be the
        // one used: at the retirement of the one before it (a fetch since then holds the next
        // PC), or at its own fetch when that comes later. Its class from its opcode.
        self.fetch.next =
            self.cpu.mem_valid.val() & self.s_ready.q.val() & self.cpu.mem_instr.val();
        self.dispatch.next = false;
        self.spe.disp_pc.next = bit_cast::<56, 32>(self.cpu.mem_addr.val());
        self.insn.next = self.cpu.mem_rdata.val();
        self.s_fvalid.d.next = self.s_fvalid.q.val();
        self.s_fpc.d.next = self.s_fpc.q.val();
        self.s_fword.d.next = self.s_fword.q.val();
        self.s_wait.d.next = self.s_wait.q.val();
        if self.cpu.rvfi_valid.val() {
            self.s_fvalid.d.next = false;
            if self.fetch.val() {
                self.dispatch.next = true;
            } else if self.s_fvalid.q.val() & (self.s_fpc.q.val() == self.cpu.rvfi_pc_wdata.val()) {
                self.dispatch.next = true;
                self.spe.disp_pc.next = bit_cast::<56, 32>(self.s_fpc.q.val());
                self.insn.next = self.s_fword.q.val();
            } else {
                self.s_wait.d.next = true;
            }
        } else if self.fetch.val() {
            if self.s_wait.q.val() {
                self.dispatch.next = true;
                self.s_wait.d.next = false;
                self.s_fvalid.d.next = false;
            } else {
                self.s_fvalid.d.next = true;
                self.s_fpc.d.next = self.cpu.mem_addr.val();
                self.s_fword.d.next = self.cpu.mem_rdata.val();
            }
        }
        if self.k_vex.val() {
            // VexRiscv: dispatch as its adapter reports it (an op leaving D for E).
            self.dispatch.next = self.cpu.h_disp.val();
            self.spe.disp_pc.next = bit_cast::<56, 32>(self.cpu.h_disp_pc.val());
            self.insn.next = self.cpu.h_disp_insn.val();
        }
        self.opcode.next = self.insn.val().get_bits::<7>(0);
        self.spe.disp_valid.next = self.k_zero1.val();
        if self.dispatch.val() {
            self.spe.disp_valid.next = self.k_one1.val();
        }
        self.spe.disp_class.next = self.k_class_other.val();
        self.spe.disp_subclass.next = self.k_zero8.val();
        self.spe.disp_cond.next = self.k_zero1.val();
        if (self.opcode.val() == self.k_op_load.val())
            | (self.opcode.val() == self.k_op_store.val())
        {
            self.spe.disp_class.next = self.k_class_ldst.val();
            if self.opcode.val() == self.k_op_store.val() {
                self.spe.disp_subclass.next = self.k_sub_store.val();
            }
        }
        if self.opcode.val() == self.k_op_branch.val() {
            self.spe.disp_class.next = self.k_class_branch.val();
            self.spe.disp_subclass.next = self.k_sub_cond.val();
            self.spe.disp_cond.next = self.k_one1.val();
        }
        if self.opcode.val() == self.k_op_jal.val() {
            self.spe.disp_class.next = self.k_class_branch.val();
        }
        if self.opcode.val() == self.k_op_jalr.val() {
            self.spe.disp_class.next = self.k_class_branch.val();
            self.spe.disp_subclass.next = self.k_sub_ind.val();
        }
        self.spe.disp_el.next = self.k_el0.val();
        self.spe.disp_ns.next = true;
        // A PE without EL2: the buffer is EL1's, the HCR_EL2/MDCR_EL2 inputs are unused.
        self.spe.el2_en.next = false;
        self.spe.mdcr_e2pb.next = self.k_zero2.val();
        self.spe.hcr_tge.next = false;
        self.spe.hcr_e2h.next = false;
        self.spe.disp_aarch32.next = false;
        self.spe.prof_allowed.next = true;

        // The tracked op: from the fetch that tagged it to its retirement (or the next fetch).
        self.s_issue.d.next = false;
        self.s_track.d.next = self.s_track.q.val();
        self.s_ldst.d.next = self.s_ldst.q.val();
        self.s_branch.d.next = self.s_branch.q.val();
        self.spe.iss_valid.next = self.s_issue.q.val();
        self.data_first.next = self.s_track.q.val()
            & self.s_ldst.q.val()
            & self.first.val()
            & !self.cpu.mem_instr.val();
        self.data_done.next = self.s_track.q.val()
            & self.s_ldst.q.val()
            & self.cpu.mem_valid.val()
            & self.s_ready.q.val()
            & !self.cpu.mem_instr.val();
        self.spe.xl_start.next = self.data_first.val();
        self.spe.xl_done.next = self.data_first.val();
        self.spe.xl_va.next = bit_cast::<64, 32>(self.cpu.mem_addr.val());
        self.spe.xl_pa.next = bit_cast::<56, 32>(self.cpu.mem_addr.val());
        self.spe.xl_pa_ns.next = true;
        self.spe.xl_tlb_access.next = false;
        self.spe.xl_tlb_walk.next = false;
        self.spe.mem_done.next = self.data_done.val();
        self.spe.mem_source.next = self.k_src_dev.val();
        if self.sel_ram.val() | self.sel_buf.val() {
            self.spe.mem_source.next = self.k_src_ram.val();
        }
        self.spe.mem_l1d_access.next =
            self.data_done.val() & (self.sel_ram.val() | self.sel_buf.val());
        self.spe.mem_l1d_refill.next = false;
        self.spe.mem_llc_access.next = false;
        self.spe.mem_llc_miss.next = false;
        self.spe.mem_remote.next = false;
        self.spe.mem_misaligned.next = false;
        self.spe.br_done.next =
            self.s_track.q.val() & self.s_branch.q.val() & self.cpu.rvfi_valid.val();
        self.spe.br_target.next = bit_cast::<56, 32>(self.cpu.rvfi_pc_wdata.val());
        self.spe.br_target_el.next = self.k_el0.val();
        self.spe.br_target_ns.next = true;
        self.spe.br_taken.next =
            self.cpu.rvfi_pc_wdata.val() != (self.cpu.rvfi_pc_rdata.val() + self.k_four32.val());
        self.spe.br_mispred.next = false;
        self.spe.br_indirect.next = false;
        self.spe.cpl_done.next = false;
        self.spe.cpl_retired.next = false;
        self.spe.cpl_exception.next = false;
        self.spe.cpl_cond_fail.next = false;
        if self.s_track.q.val() {
            if self.cpu.rvfi_valid.val() {
                self.spe.cpl_done.next = true;
                self.spe.cpl_retired.next = !self.cpu.rvfi_trap.val();
                self.spe.cpl_exception.next = self.cpu.rvfi_trap.val();
                self.s_track.d.next = false;
            } else if self.dispatch.val() {
                // It never retired (an interrupt took over): flushed.
                self.spe.cpl_done.next = true;
                self.s_track.d.next = false;
            }
        }
        if self.dispatch.val() & self.spe.tag.val().get_bit(0) {
            self.s_track.d.next = true;
            self.s_issue.d.next = true;
            self.s_ldst.d.next = self.spe.disp_class.val() == self.k_class_ldst.val();
            self.s_branch.d.next = self.spe.disp_class.val() == self.k_class_branch.val();
        }
        self.cpu.tag.next = self.spe.tag.val().get_bit(0);
        self.cpu.tag_class.next = self.spe.disp_class.val();
        self.cpu.hook_fault.next = self.hook_fault.val();
        if self.k_vex.val() {
            // VexRiscv: the tracked op's reports from its adapter (spe_vexriscv_hooks.v).
            self.spe.iss_valid.next = self.cpu.h_iss.val();
            self.spe.xl_start.next = self.cpu.h_xl.val();
            self.spe.xl_done.next = self.cpu.h_xl.val();
            self.spe.xl_va.next = bit_cast::<64, 32>(self.cpu.h_xl_va.val());
            self.spe.xl_pa.next = bit_cast::<56, 32>(self.cpu.h_xl_va.val());
            self.spe.mem_done.next = self.cpu.h_mem_done.val();
            self.spe.mem_l1d_access.next =
                self.cpu.h_mem_done.val() & (self.sel_ram.val() | self.sel_buf.val());
            self.spe.br_done.next = self.cpu.h_br_done.val();
            self.spe.br_target.next = bit_cast::<56, 32>(self.cpu.h_br_target.val());
            self.spe.br_taken.next = self.cpu.h_br_taken.val();
            self.spe.br_mispred.next = self.cpu.h_br_mispred.val();
            self.spe.cpl_done.next = self.cpu.h_cpl_done.val();
            self.spe.cpl_retired.next = self.cpu.h_cpl_retired.val();
            self.spe.cpl_exception.next = self.cpu.h_cpl_exception.val();
            self.spe.psb_req.next = self.s_psb.q.val() & !self.cpu.h_track.val();
        }
        self.spe.ctx_el1.next = self.k_zero32.val();
        self.spe.ctx_el2.next = self.k_zero32.val();
        self.spe.cnt_virt.next = self.s_cycles.q.val();
        self.spe.cnt_phys.next = self.s_cycles.q.val();

        // Outputs.
        self.uart_tx.next = self.uart.tx.val();
        self.exit_valid.next = self.s_exit_valid.q.val();
        self.exit_code.next = self.s_exit_code.q.val();
        self.rvfi_valid.next = self.cpu.rvfi_valid.val();
        self.rvfi_pc.next = self.cpu.rvfi_pc_rdata.val();
        self.rvfi_trap.next = self.cpu.rvfi_trap.val();
        self.core_disp_valid.next = self.cpu.core_disp.val();
        self.core_disp_pc.next = self.cpu.core_disp_pc.val();
        self.spe_in.next = self.spe.spe_in.val();
        self.spe_out.next = self.spe.spe_out.val();
    }
}

/// Top module name of the SoC.
pub const SOC_TOP: &str = "spe_soc";
use spe_defs::soc::GEN_DIR as SOC_DIR;
/// The SoC's Verilog file, its file list and its C header, in `gen/soc/`.
pub const SOC_VERILOG: &str = "spe_soc.v";
pub const SOC_HEADER: &str = "spe_soc.h";
/// The SoC's memory map and its unit's register table for Python (`soc/sw/host/rv32sim.py`).
pub const SOC_PYTHON_MAP: &str = "spe_soc_map.py";
/// VexRiscv's hook adapter in `gen/soc_vexriscv*/` (a copy of `soc/rtl/verilog/`'s).
pub const HOOKS_FILE: &str = "spe_vexriscv_hooks.v";

/// The SoC's modules (top last) as one Verilog text: the simulated SoC when `ram` is empty
/// (`gen/<core dir>/spe_soc.v`, `buf` = [`BufSize::K4`]), a board build with the program in
/// the RAMs otherwise.
pub fn verilog(core: Core, baud_div: u32, ram: &[u32], buf: BufSize) -> Result<String, String> {
    let child = |block: &str| format!("{SOC_TOP}_{block}");
    let board = !ram.is_empty();
    let modules = match buf {
        BufSize::K4 => {
            let mut soc = SpeSoc::<9>::new(core, baud_div, ram);
            spe_rtl::gen::design_modules(&mut soc, SOC_TOP, &child, board)?
        }
        BufSize::K2 => {
            let mut soc = SpeSoc::<8>::new(core, baud_div, ram);
            spe_rtl::gen::design_modules(&mut soc, SOC_TOP, &child, board)?
        }
        BufSize::K1 => {
            let mut soc = SpeSoc::<7>::new(core, baud_div, ram);
            spe_rtl::gen::design_modules(&mut soc, SOC_TOP, &child, board)?
        }
    };
    Ok(modules
        .into_iter()
        .map(|(_, text)| text)
        .collect::<Vec<_>>()
        .join("\n"))
}

/// The sources of a SoC build besides its own Verilog and the core's: the shared flop
/// and the unit's files, relative to `gen/`.
pub fn unit_sources() -> Result<Vec<String>, String> {
    let cfg = spe_defs::Config::preset(spe_defs::soc::SOC_PRESET).ok_or("no SoC preset")?;
    let mut v = vec![format!("{}.v", spe_rtl::flop::RFF_MODULE)];
    v.extend(
        spe_rtl::gen::generate(cfg)?
            .into_iter()
            .map(|f| f.path)
            .filter(|p| p.ends_with(".v")),
    );
    Ok(v)
}

/// The files of `gen/soc/` (PicoRV32), `gen/soc_vexriscv/` and `gen/soc_vexriscv_full/`: each simulated SoC's Verilog
/// (UART bit time `spe_defs::soc::SIM_BAUD_DIV`) and its file list; the memory map (one map
/// for every core) in `gen/soc/`, as a C header and as a Python module.
pub fn generate() -> Result<Vec<spe_gen::GenFile>, String> {
    use spe_gen::{with_banner, GenFile};
    let mut files = Vec::new();
    for core in Core::ALL {
        let dir = core.gen_dir();
        let text = verilog(core, spe_defs::soc::SIM_BAUD_DIV, &[], BufSize::K4)?;
        let (package, version) = core.package();
        let mut list = if core == Core::Picorv32 {
            format!(
                "// Sources of {SOC_TOP} except picorv32.v (PyPI {package} {version}), relative to this file.\n// Generated by `spe gen`; do not edit.\n"
            )
        } else {
            format!(
                "// Sources of {SOC_TOP} around {} except the core's Verilog (PyPI {package} {version}), relative to this file.\n// Generated by `spe gen`; do not edit.\n",
                core.name()
            )
        };
        for f in unit_sources()? {
            list.push_str(&format!("../{f}\n"));
        }
        if core.is_vexriscv() {
            list.push_str(&format!("{HOOKS_FILE}\n"));
            files.push(GenFile {
                path: format!("{dir}/{HOOKS_FILE}"),
                text: cpu::HOOKS_V.to_string(),
            });
        }
        list.push_str(&format!("{SOC_VERILOG}\n"));
        let title = match core {
            Core::Picorv32 => "PicoRV32",
            Core::Vexriscv => "VexRiscv Lite",
            Core::VexriscvFull => "VexRiscv Full",
        };
        files.push(GenFile {
            path: format!("{dir}/{SOC_VERILOG}"),
            text: with_banner(
                &format!(
                    "{SOC_TOP}: the demo SoC ({title} + SPE unit, preset `{}`), simulation build",
                    spe_defs::soc::SOC_PRESET
                ),
                &text,
            ),
        });
        files.push(GenFile {
            path: format!("{dir}/{}", spe_defs::config::GEN_FILE_LIST),
            text: list,
        });
    }
    files.push(GenFile {
        path: format!("{SOC_DIR}/{SOC_HEADER}"),
        text: spe_gen::emit::soc_map::header(),
    });
    files.push(GenFile {
        path: format!("{SOC_DIR}/{SOC_PYTHON_MAP}"),
        text: spe_gen::emit::soc_map::python_map(),
    });
    Ok(files)
}

/// Every file of `gen/`: the unit's (`spe_rtl::gen::all_files`) and the SoC's.
pub fn all_files() -> Result<Vec<spe_gen::GenFile>, String> {
    spe_rtl::gen::all_files(generate()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `SpeSoc`'s buffer address width follows [`BufSize`], and the size the driver reads at
    /// `CTL + 12` is the RAM's.
    #[test]
    fn each_buffer_size_builds_its_ram_and_reports_its_bytes() {
        for buf in BufSize::ALL {
            let v = verilog(Core::Picorv32, 4, &[1, 2, 3], buf).unwrap();
            let b = buf.addr_bits();
            assert!(
                v.contains(&format!("reg  [{}:0] rbuf__read_address;", b - 1)),
                "{buf:?}: no {b}-bit buffer address"
            );
            assert!(
                v.contains(&format!("32'h{:x}", buf.bytes())),
                "{buf:?}: no constant {} for CTL+12",
                buf.bytes()
            );
            // Writes below the RAM (the window's lower part) are refused as aborts.
            assert!(
                v.contains(&format!(
                    "localparam  k_wbuf_fill = 64'h{:x};",
                    BUF.size - buf.bytes()
                )),
                "{buf:?}: write-window mask"
            );
        }
        assert_eq!(BufSize::K4.bytes(), BUF.size);
        assert_eq!(BufSize::K4.addr_bits(), BUF_ADDR_BITS as usize);
    }
}
