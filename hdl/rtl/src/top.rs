//! `spe_top`: wires the blocks and exposes the interface of `spe_defs::ports::PORTS`
//! (DESIGN §3), in the same order, names and widths; a test checks the generated Verilog
//! port list against that table.
//!
//! ```text
//!            +---------+  tag   +---------+  sample  +-----------+ beat +--------+
//!  disp_* -->| sampler |------->| capture |--------->| serializer|----->| writer |--> wr_*
//!            +---------+        +---------+          +-----------+      +--------+
//!                 ^   hooks ------^  |  \--> latency --^    filter --^       |
//!                 |                  v                                      v
//!            +---------------------------- regs ------------------------------+--> reg_rdata, irq
//! ```
//!
//! The top holds no state: every flop lives in a block (one depth for all flops, which also
//! keeps rust-hdl's simulator exact). Its only logic is `busy` (a sample in flight) and
//! the slicing of the Events payload for the filter.

use crate::capture::SpeCapture;
use crate::filter::SpeFilter;
use crate::latency::SpeLatency;
use crate::regs::SpeRegs;
use crate::sampler::SpeSampler;
use crate::serializer::SpeSerializer;
use crate::writer::SpeWriter;
use rust_hdl::prelude::*;
use spe_defs::Config;

/// The unit for dispatch width `W` and counter width `CW`; `PCB`, `CB`, `SB` are the
/// per-slot bus widths 56·W, 2·W and 8·W (Rust cannot compute them from `W` in a type).
#[derive(LogicBlock)]
pub struct SpeTop<
    const W: usize,
    const PCB: usize,
    const CB: usize,
    const SB: usize,
    const CW: usize,
> {
    pub clk: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub disp_valid: Signal<In, Bits<W>>,
    pub disp_pc: Signal<In, Bits<PCB>>,
    pub disp_class: Signal<In, Bits<CB>>,
    pub disp_subclass: Signal<In, Bits<SB>>,
    pub disp_cond: Signal<In, Bits<W>>,
    pub disp_el: Signal<In, Bits<2>>,
    pub disp_ns: Signal<In, Bit>,
    pub disp_host: Signal<In, Bit>,
    pub disp_aarch32: Signal<In, Bit>,
    pub prof_allowed: Signal<In, Bit>,
    pub tag: Signal<Out, Bits<W>>,
    pub iss_valid: Signal<In, Bit>,
    pub xl_start: Signal<In, Bit>,
    pub xl_va: Signal<In, Bits<64>>,
    pub xl_done: Signal<In, Bit>,
    pub xl_pa: Signal<In, Bits<56>>,
    pub xl_tlb_access: Signal<In, Bit>,
    pub xl_tlb_walk: Signal<In, Bit>,
    pub mem_done: Signal<In, Bit>,
    pub mem_source: Signal<In, Bits<8>>,
    pub mem_l1d_access: Signal<In, Bit>,
    pub mem_l1d_refill: Signal<In, Bit>,
    pub mem_llc_access: Signal<In, Bit>,
    pub mem_llc_miss: Signal<In, Bit>,
    pub mem_remote: Signal<In, Bit>,
    pub mem_misaligned: Signal<In, Bit>,
    pub br_done: Signal<In, Bit>,
    pub br_target: Signal<In, Bits<56>>,
    pub br_taken: Signal<In, Bit>,
    pub br_mispred: Signal<In, Bit>,
    pub br_indirect: Signal<In, Bit>,
    pub cpl_done: Signal<In, Bit>,
    pub cpl_retired: Signal<In, Bit>,
    pub cpl_exception: Signal<In, Bit>,
    pub cpl_cond_fail: Signal<In, Bit>,
    pub hook_stray: Signal<Out, Bit>,
    pub ctx_el1: Signal<In, Bits<32>>,
    pub ctx_el2: Signal<In, Bits<32>>,
    pub cnt_virt: Signal<In, Bits<64>>,
    pub cnt_phys: Signal<In, Bits<64>>,
    pub reg_en: Signal<In, Bit>,
    pub reg_we: Signal<In, Bit>,
    pub reg_addr: Signal<In, Bits<5>>,
    pub reg_wdata: Signal<In, Bits<64>>,
    pub reg_rdata: Signal<Out, Bits<64>>,
    pub wr_valid: Signal<Out, Bit>,
    pub wr_addr: Signal<Out, Bits<64>>,
    pub wr_data: Signal<Out, Bits<64>>,
    pub wr_strb: Signal<Out, Bits<8>>,
    pub wr_ready: Signal<In, Bit>,
    pub wr_err: Signal<In, Bit>,
    pub irq: Signal<Out, Bit>,
    pub pmu_sample_pop: Signal<Out, Bits<4>>,
    pub pmu_sample_feed: Signal<Out, Bit>,
    pub pmu_sample_filtrate: Signal<Out, Bit>,
    pub pmu_sample_collision: Signal<Out, Bit>,
    // Blocks.
    pub regs: SpeRegs<CW>,
    pub sampler: SpeSampler<W>,
    pub capture: SpeCapture<W, PCB, CB, SB>,
    pub latency: SpeLatency<CW>,
    pub filter: SpeFilter<CW>,
    pub serializer: SpeSerializer<CW>,
    pub writer: SpeWriter,
}

impl<const W: usize, const PCB: usize, const CB: usize, const SB: usize, const CW: usize>
    SpeTop<W, PCB, CB, SB, CW>
{
    pub fn new(cfg: &Config) -> Self {
        if let Err(e) = cfg.validate() {
            panic!("invalid SPE configuration: {e}");
        }
        Self {
            clk: Default::default(),
            reset: Default::default(),
            disp_valid: Default::default(),
            disp_pc: Default::default(),
            disp_class: Default::default(),
            disp_subclass: Default::default(),
            disp_cond: Default::default(),
            disp_el: Default::default(),
            disp_ns: Default::default(),
            disp_host: Default::default(),
            disp_aarch32: Default::default(),
            prof_allowed: Default::default(),
            tag: Default::default(),
            iss_valid: Default::default(),
            xl_start: Default::default(),
            xl_va: Default::default(),
            xl_done: Default::default(),
            xl_pa: Default::default(),
            xl_tlb_access: Default::default(),
            xl_tlb_walk: Default::default(),
            mem_done: Default::default(),
            mem_source: Default::default(),
            mem_l1d_access: Default::default(),
            mem_l1d_refill: Default::default(),
            mem_llc_access: Default::default(),
            mem_llc_miss: Default::default(),
            mem_remote: Default::default(),
            mem_misaligned: Default::default(),
            br_done: Default::default(),
            br_target: Default::default(),
            br_taken: Default::default(),
            br_mispred: Default::default(),
            br_indirect: Default::default(),
            cpl_done: Default::default(),
            cpl_retired: Default::default(),
            cpl_exception: Default::default(),
            cpl_cond_fail: Default::default(),
            hook_stray: Default::default(),
            ctx_el1: Default::default(),
            ctx_el2: Default::default(),
            cnt_virt: Default::default(),
            cnt_phys: Default::default(),
            reg_en: Default::default(),
            reg_we: Default::default(),
            reg_addr: Default::default(),
            reg_wdata: Default::default(),
            reg_rdata: Default::default(),
            wr_valid: Default::default(),
            wr_addr: Default::default(),
            wr_data: Default::default(),
            wr_strb: Default::default(),
            wr_ready: Default::default(),
            wr_err: Default::default(),
            irq: Default::default(),
            pmu_sample_pop: Default::default(),
            pmu_sample_feed: Default::default(),
            pmu_sample_filtrate: Default::default(),
            pmu_sample_collision: Default::default(),
            regs: SpeRegs::new(cfg),
            sampler: SpeSampler::new(cfg),
            capture: SpeCapture::new(cfg),
            latency: SpeLatency::new(cfg),
            filter: SpeFilter::new(cfg),
            serializer: SpeSerializer::new(cfg),
            writer: SpeWriter::new(cfg),
        }
    }
}

impl<const W: usize, const PCB: usize, const CB: usize, const SB: usize, const CW: usize> Logic
    for SpeTop<W, PCB, CB, SB, CW>
{
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clk, regs, sampler, capture, latency, writer);
        self.regs.reset.next = self.reset.val();
        self.sampler.reset.next = self.reset.val();
        self.capture.reset.next = self.reset.val();
        self.latency.reset.next = self.reset.val();
        self.filter.reset.next = self.reset.val();
        self.writer.reset.next = self.reset.val();

        // Flat ports in: the dispatch group, the hook reports, context, register port.
        self.sampler.disp_valid.next = self.disp_valid.val();
        self.sampler.disp_el.next = self.disp_el.val();
        self.sampler.disp_host.next = self.disp_host.val();
        self.sampler.disp_aarch32.next = self.disp_aarch32.val();
        self.sampler.prof_allowed.next = self.prof_allowed.val();
        self.capture.disp_pc.next = self.disp_pc.val();
        self.capture.disp_class.next = self.disp_class.val();
        self.capture.disp_subclass.next = self.disp_subclass.val();
        self.capture.disp_cond.next = self.disp_cond.val();
        self.capture.disp_el.next = self.disp_el.val();
        self.capture.disp_ns.next = self.disp_ns.val();
        self.capture.disp_host.next = self.disp_host.val();
        self.capture.iss_valid.next = self.iss_valid.val();
        self.capture.xl.next.start = self.xl_start.val();
        self.capture.xl.next.va = self.xl_va.val();
        self.capture.xl.next.done = self.xl_done.val();
        self.capture.xl.next.pa = self.xl_pa.val();
        self.capture.xl.next.tlb_access = self.xl_tlb_access.val();
        self.capture.xl.next.tlb_walk = self.xl_tlb_walk.val();
        self.capture.mem.next.done = self.mem_done.val();
        self.capture.mem.next.source = self.mem_source.val();
        self.capture.mem.next.l1d_access = self.mem_l1d_access.val();
        self.capture.mem.next.l1d_refill = self.mem_l1d_refill.val();
        self.capture.mem.next.llc_access = self.mem_llc_access.val();
        self.capture.mem.next.llc_miss = self.mem_llc_miss.val();
        self.capture.mem.next.remote = self.mem_remote.val();
        self.capture.mem.next.misaligned = self.mem_misaligned.val();
        self.capture.br.next.done = self.br_done.val();
        self.capture.br.next.target = self.br_target.val();
        self.capture.br.next.taken = self.br_taken.val();
        self.capture.br.next.mispred = self.br_mispred.val();
        self.capture.br.next.indirect = self.br_indirect.val();
        self.capture.cpl.next.done = self.cpl_done.val();
        self.capture.cpl.next.retired = self.cpl_retired.val();
        self.capture.cpl.next.exception = self.cpl_exception.val();
        self.capture.cpl.next.cond_fail = self.cpl_cond_fail.val();
        self.capture.ctx_el1.next = self.ctx_el1.val();
        self.capture.ctx_el2.next = self.ctx_el2.val();
        self.capture.cnt_virt.next = self.cnt_virt.val();
        self.capture.cnt_phys.next = self.cnt_phys.val();
        self.regs.reg_en.next = self.reg_en.val();
        self.regs.reg_we.next = self.reg_we.val();
        self.regs.reg_addr.next = self.reg_addr.val();
        self.regs.reg_wdata.next = self.reg_wdata.val();
        self.writer.resp.next.ready = self.wr_ready.val();
        self.writer.resp.next.err = self.wr_err.val();

        // Between the blocks: bundles.
        self.sampler.ctl.next = self.regs.sample_ctl.val();
        self.sampler.phase.next = self.capture.phase.val();
        self.capture.tag_valid.next = self.sampler.tag_valid.val();
        self.capture.tag.next = self.sampler.tag.val();
        self.capture.ctl.next = self.regs.collect_ctl.val();
        self.capture.wr_start.next = self.writer.start.val();
        self.capture.wr_end.next = self.writer.finish.val();
        self.latency.tag_valid.next = self.sampler.tag_valid.val();
        self.latency.phase.next = self.capture.phase.val();
        self.latency.progress.next = self.capture.progress.val();
        self.filter.phase.next = self.capture.phase.val();
        self.filter.ctl.next = self.regs.filter_ctl.val();
        self.filter.minlat.next = self.regs.minlat.val();
        self.filter.view.next = self.capture.view.val();
        self.filter.lat_total.next = self.latency.total.val();
        self.serializer.sample.next = self.capture.sample.val();
        self.serializer.lat_total.next = self.latency.total.val();
        self.serializer.lat_issue.next = self.latency.issue.val();
        self.serializer.lat_xlat.next = self.latency.xlat.val();
        self.serializer.beat.next = self.writer.beat.val();
        self.writer.phase.next = self.capture.phase.val();
        self.writer.filtrate.next = self.filter.filtrate.val();
        self.writer.ctl.next = self.regs.buffer_ctl.val();
        self.writer.beat_data.next = self.serializer.beat_data.val();
        self.regs.count_next.next = self.sampler.count_next.val();
        self.regs.coll_set.next = self.sampler.collision.val();
        self.regs.upd.next = self.writer.upd.val();

        // Flat ports out.
        self.tag.next = self.sampler.tag.val();
        self.hook_stray.next = self.capture.hook_stray.val();
        self.reg_rdata.next = self.regs.reg_rdata.val();
        self.irq.next = self.regs.irq.val();
        self.wr_valid.next = self.writer.wr.val().valid;
        self.wr_addr.next = self.writer.wr.val().addr;
        self.wr_data.next = self.writer.wr.val().data;
        self.wr_strb.next = self.writer.wr.val().strb;
        self.pmu_sample_pop.next = self.sampler.pop.val();
        self.pmu_sample_feed.next = self.filter.feed.val();
        self.pmu_sample_filtrate.next = self.filter.filtrate.val();
        self.pmu_sample_collision.next = self.sampler.collision.val();
    }
}

impl<const W: usize, const PCB: usize, const CB: usize, const SB: usize, const CW: usize>
    crate::sim::Clocked for SpeTop<W, PCB, CB, SB, CW>
{
    fn clock_signal(&mut self) -> &mut Signal<In, Clock> {
        &mut self.clk
    }
}
