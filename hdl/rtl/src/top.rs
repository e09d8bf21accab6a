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
//! The top holds no state and no logic: every flop lives in a block (one depth for all
//! flops, which also keeps rust-hdl's simulator exact). It packs the flat hook ports into
//! the capture block's report bundles, connects the blocks' bundles, and unpacks the write
//! port.

use crate::capture::SpeCapture;
use crate::filter::SpeFilter;
use crate::latency::SpeLatency;
use crate::regs::SpeRegs;
use crate::sampler::SpeSampler;
use crate::serializer::SpeSerializer;
use crate::writer::SpeWriter;
use crate::ADDR_BITS;
use rust_hdl::prelude::*;
use spe_defs::Config;

/// Declares [`SpeTop`] and its `new` from one list: the flat ports in `PORTS` order (each
/// `Default::default()` in `new`), then the blocks (each built from the configuration).
macro_rules! spe_top {
    (ports { $($p:ident: $dir:ident $t:ty;)* } blocks { $($b:ident: $bt:ty;)* }) => {
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
            $(pub $p: Signal<$dir, $t>,)*
            $(pub $b: $bt,)*
        }

        impl<const W: usize, const PCB: usize, const CB: usize, const SB: usize, const CW: usize>
            SpeTop<W, PCB, CB, SB, CW>
        {
            pub fn new(cfg: &Config) -> Self {
                if let Err(e) = cfg.validate() {
                    panic!("invalid SPE configuration: {e}");
                }
                Self {
                    $($p: Default::default(),)*
                    $($b: <$bt>::new(cfg),)*
                }
            }
        }
    };
}

spe_top! {
    ports {
        clk: In Clock;
        reset: In Bit;
        disp_valid: In Bits<W>;
        disp_pc: In Bits<PCB>;
        disp_class: In Bits<CB>;
        disp_subclass: In Bits<SB>;
        disp_cond: In Bits<W>;
        disp_el: In Bits<2>;
        disp_ns: In Bit;
        disp_host: In Bit;
        disp_aarch32: In Bit;
        prof_allowed: In Bit;
        tag: Out Bits<W>;
        iss_valid: In Bit;
        xl_start: In Bit;
        xl_va: In Bits<64>;
        xl_done: In Bit;
        xl_pa: In Bits<ADDR_BITS>;
        xl_tlb_access: In Bit;
        xl_tlb_walk: In Bit;
        mem_done: In Bit;
        mem_source: In Bits<8>;
        mem_l1d_access: In Bit;
        mem_l1d_refill: In Bit;
        mem_llc_access: In Bit;
        mem_llc_miss: In Bit;
        mem_remote: In Bit;
        mem_misaligned: In Bit;
        br_done: In Bit;
        br_target: In Bits<ADDR_BITS>;
        br_taken: In Bit;
        br_mispred: In Bit;
        br_indirect: In Bit;
        cpl_done: In Bit;
        cpl_retired: In Bit;
        cpl_exception: In Bit;
        cpl_cond_fail: In Bit;
        hook_stray: Out Bit;
        ctx_el1: In Bits<32>;
        ctx_el2: In Bits<32>;
        cnt_virt: In Bits<64>;
        cnt_phys: In Bits<64>;
        reg_en: In Bit;
        reg_we: In Bit;
        reg_addr: In Bits<5>;
        reg_wdata: In Bits<64>;
        reg_rdata: Out Bits<64>;
        wr_valid: Out Bit;
        wr_addr: Out Bits<64>;
        wr_data: Out Bits<64>;
        wr_strb: Out Bits<8>;
        wr_ready: In Bit;
        wr_err: In Bit;
        irq: Out Bit;
        pmu_sample_pop: Out Bits<4>;
        pmu_sample_feed: Out Bit;
        pmu_sample_filtrate: Out Bit;
        pmu_sample_collision: Out Bit;
    }
    blocks {
        regs: SpeRegs<CW>;
        sampler: SpeSampler<W>;
        capture: SpeCapture<W, PCB, CB, SB>;
        latency: SpeLatency<CW>;
        filter: SpeFilter<CW>;
        serializer: SpeSerializer<CW>;
        writer: SpeWriter;
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
