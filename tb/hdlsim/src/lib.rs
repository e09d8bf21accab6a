//! The RTL of `hdl/rtl` under rust-hdl's own simulator, behind the golden model's [`Dut`]
//! trait ([`RtlSim`], [`rtl_sim`]): exact but slow (about 11k cycles/s), for short runs and
//! block-level checks. The lockstep checker and the fast Verilated backend are in
//! `spe-cosim`.

use rust_hdl::prelude::*;
use spe_defs::Config;
use spe_model::{Dut, Inputs, Outputs};
use spe_rtl::sim;
use spe_rtl::top::SpeTop;

/// Width of one slot of `disp_pc` (the address bits the PC packet records).
const PC_BITS: usize = spe_defs::packet::addr_payload::ADDR_BITS as usize;

/// Bits<N> from the low N bits of `v`.
fn b<const N: usize>(v: u64) -> Bits<N> {
    let m = spe_defs::low_mask(N.min(64) as u32);
    Bits::<N>::from(v & m)
}

/// A bus of one field per slot, `field_bits` each (slot 0 in the low bits).
fn bus<const N: usize>(vals: impl Iterator<Item = u64>, field_bits: usize) -> Bits<N> {
    let mut acc = Bits::<N>::default();
    for (i, v) in vals.enumerate() {
        let f = b::<N>(v & spe_defs::low_mask(field_bits as u32));
        acc = acc | (f << ((i * field_bits) as u64));
    }
    acc
}

fn u(v: impl Into<u64>) -> u64 {
    v.into()
}

/// The RTL top of one configuration under rust-hdl's simulator.
pub struct RtlSim<
    const W: usize,
    const PCB: usize,
    const CB: usize,
    const SB: usize,
    const CW: usize,
> {
    top: SpeTop<W, PCB, CB, SB, CW>,
}

impl<const W: usize, const PCB: usize, const CB: usize, const SB: usize, const CW: usize>
    RtlSim<W, PCB, CB, SB, CW>
{
    pub fn new(mut top: SpeTop<W, PCB, CB, SB, CW>) -> Self {
        sim::start(&mut top);
        RtlSim { top }
    }
}

fn bits_u64<const N: usize>(x: Bits<N>) -> u64 {
    u64::from(x)
}

impl<const W: usize, const PCB: usize, const CB: usize, const SB: usize, const CW: usize> Dut
    for RtlSim<W, PCB, CB, SB, CW>
{
    fn step(&mut self, i: &Inputs) -> Outputs {
        sim::cycle(
            &mut self.top,
            |t| {
                let slots = &i.disp[..W];
                t.reset.next = i.reset;
                t.disp_valid.next = bus::<W>(slots.iter().map(|s| u(s.valid)), 1);
                t.disp_pc.next = bus::<PCB>(slots.iter().map(|s| s.pc), PC_BITS);
                t.disp_class.next = bus::<CB>(slots.iter().map(|s| u(s.class)), 2);
                t.disp_subclass.next = bus::<SB>(slots.iter().map(|s| u(s.subclass)), 8);
                t.disp_cond.next = bus::<W>(slots.iter().map(|s| u(s.cond)), 1);
                t.disp_el.next = b(u(i.disp_el));
                t.disp_ns.next = i.disp_ns;
                t.disp_host.next = i.disp_host;
                t.disp_aarch32.next = i.disp_aarch32;
                t.prof_allowed.next = i.prof_allowed;
                t.iss_valid.next = i.iss_valid;
                t.xl_start.next = i.xl_start;
                t.xl_va.next = b(i.xl_va);
                t.xl_done.next = i.xl_done;
                t.xl_pa.next = b(i.xl_pa);
                t.xl_tlb_access.next = i.xl_tlb_access;
                t.xl_tlb_walk.next = i.xl_tlb_walk;
                t.mem_done.next = i.mem_done;
                t.mem_source.next = b(u(i.mem_source));
                t.mem_l1d_access.next = i.mem_l1d_access;
                t.mem_l1d_refill.next = i.mem_l1d_refill;
                t.mem_llc_access.next = i.mem_llc_access;
                t.mem_llc_miss.next = i.mem_llc_miss;
                t.mem_remote.next = i.mem_remote;
                t.mem_misaligned.next = i.mem_misaligned;
                t.br_done.next = i.br_done;
                t.br_target.next = b(i.br_target);
                t.br_taken.next = i.br_taken;
                t.br_mispred.next = i.br_mispred;
                t.br_indirect.next = i.br_indirect;
                t.cpl_done.next = i.cpl_done;
                t.cpl_retired.next = i.cpl_retired;
                t.cpl_exception.next = i.cpl_exception;
                t.cpl_cond_fail.next = i.cpl_cond_fail;
                t.ctx_el1.next = b(u(i.ctx_el1));
                t.ctx_el2.next = b(u(i.ctx_el2));
                t.cnt_virt.next = b(i.cnt_virt);
                t.cnt_phys.next = b(i.cnt_phys);
                t.reg_en.next = i.reg_en;
                t.reg_we.next = i.reg_we;
                t.reg_addr.next = b(u(i.reg_addr));
                t.reg_wdata.next = b(i.reg_wdata);
                t.wr_ready.next = i.wr_ready;
                t.wr_err.next = i.wr_err;
            },
            |t| Outputs {
                tag: bits_u64(t.tag.val()) as u8,
                hook_stray: t.hook_stray.val(),
                reg_rdata: bits_u64(t.reg_rdata.val()),
                wr_valid: t.wr_valid.val(),
                wr_addr: bits_u64(t.wr_addr.val()),
                wr_data: bits_u64(t.wr_data.val()),
                wr_strb: bits_u64(t.wr_strb.val()) as u8,
                irq: t.irq.val(),
                pmu_sample_pop: bits_u64(t.pmu_sample_pop.val()) as u8,
                pmu_sample_feed: t.pmu_sample_feed.val(),
                pmu_sample_filtrate: t.pmu_sample_filtrate.val(),
                pmu_sample_collision: t.pmu_sample_collision.val(),
            },
        )
    }
}

/// The RTL of `cfg` under rust-hdl's simulator, as a DUT.
pub fn rtl_sim(cfg: &Config) -> Box<dyn Dut> {
    spe_rtl::with_top!(cfg, |t| Box::new(RtlSim::new(t)) as Box<dyn Dut>)
}
