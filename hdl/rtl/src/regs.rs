//! `spe_regs`: the programming interface. Holds every read/write register of
//! `spe_defs::regs::REGS`, decodes the fields the other blocks use, applies the hardware
//! updates (interval counter, collision flag, buffer pointer, management events) and the
//! register port, and drives `reg_rdata` and `irq`.
//!
//! ```text
//!  reg_en/we/addr/wdata --> [ write decode ] --+--> register flops --> field outputs
//!  hw updates ------------> [ hw merge     ] --+          |
//!                                                         +--> read mux --> reg_rdata
//!                                                         +--> PMBSR.S  --> irq
//! ```
//!
//! Rules (from `spe_defs::regs`): a write stores `wdata & writable_mask` (RES0 bits read as
//! zero); read-only registers and unmapped addresses ignore writes and unmapped addresses
//! read as zero; a port write in the same cycle as a hardware update of the same register
//! wins. Register storage is as wide as the register's highest implemented field; read-back
//! zero-extends it. Every value, masks and addresses included, comes from `spe_defs` as a
//! `Constant` field.

use crate::bundles::{BufferCtl, BufferUpdate, CollectCtl, FilterCtl, SampleCtl};
use crate::flop::Rff;
use crate::Zext;
use crate::K;
use rust_hdl::prelude::*;
use spe_defs::regs::{self as r, pmblimitr, pmbsr, pmscr, pmsfcr, pmsirr, RegId};
use spe_defs::{Config, Field};

/// Storage widths (bits) of the read/write registers; `new` checks that every implemented
/// field of `spe_defs` fits.
pub const PMSCR_BITS: usize = 8;
pub const PMSEVFR_BITS: usize = 12;
pub const PMSFCR_BITS: usize = 19;
pub const PMSLATFR_BITS: usize = 16;
pub const PMBSR_BITS: usize = 32;

/// The register block. `CW` is the latency-counter width (MINLAT is as wide).
#[derive(LogicBlock, Default)]
pub struct SpeRegs<const CW: usize> {
    // Clock and reset.
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    // Register port.
    pub reg_en: Signal<In, Bit>,
    pub reg_we: Signal<In, Bit>,
    pub reg_addr: Signal<In, Bits<5>>,
    pub reg_wdata: Signal<In, Bits<64>>,
    pub reg_rdata: Signal<Out, Bits<64>>,
    pub irq: Signal<Out, Bit>,
    // Hardware updates: PMSICR's value this cycle (the sampler's `count_now`: read by the
    // port and stored every cycle outside reset), PMBSR.COLL, and the writer's PMBPTR
    // update and management events.
    pub count_now: Signal<In, Bits<32>>,
    pub coll_set: Signal<In, Bit>,
    pub upd: Signal<In, BufferUpdate>,
    // Decoded controls for the other blocks.
    pub sample_ctl: Signal<Out, SampleCtl>,
    pub collect_ctl: Signal<Out, CollectCtl>,
    pub filter_ctl: Signal<Out, FilterCtl>,
    pub minlat: Signal<Out, Bits<CW>>,
    pub buffer_ctl: Signal<Out, BufferCtl>,
    // Register state (every one with a synchronous reset to zero).
    /// PMSCR_EL1 / PMSCR_EL2: the EL enables (E0SPE/E1SPE, E0HSPE/E2SPE) and what a
    /// record collects (CX, PA, TS, PCT) for the EL1 and the EL2 regime.
    pmscr_el1: Rff<Bits<PMSCR_BITS>>,
    pmscr_el2: Rff<Bits<PMSCR_BITS>>,
    /// PMSNEVFR: events that drop a record (inverted event filter).
    pmsnevfr: Rff<Bits<PMSEVFR_BITS>>,
    /// PMSICR: the interval counter before the previous dispatch group (the sampler applies
    /// that group: its `count_now` is the register's value), stored every cycle outside reset.
    pmsicr: Rff<Bits<32>>,
    /// PMSIRR: the interval and RND (jitter).
    pmsirr: Rff<Bits<32>>,
    /// PMSFCR: filter enables (FE, FT, FL, FNE) and the type bits (B, LD, ST).
    pmsfcr: Rff<Bits<PMSFCR_BITS>>,
    /// PMSEVFR: events a kept record must all have.
    pmsevfr: Rff<Bits<PMSEVFR_BITS>>,
    /// PMSLATFR: MINLAT.
    pmslatfr: Rff<Bits<PMSLATFR_BITS>>,
    /// PMBLIMITR (E, FM, LIMIT), PMBPTR (the next record's address) and PMBSR (S, COLL,
    /// EC, MSS, EA, DL: written by the management events).
    pmblimitr: Rff<Bits<64>>,
    pmbptr: Rff<Bits<64>>,
    pmbsr: Rff<Bits<PMBSR_BITS>>,
    // Local signals: profiling enable, the port's write strobe, PMBSR with this cycle's
    // collision, and each register zero-extended to 64 bits for the read mux.
    prof_en: Signal<Local, Bit>,
    wr: Signal<Local, Bit>,
    pmbsr_coll: Signal<Local, Bits<PMBSR_BITS>>,
    rd_pmscr_el1: Signal<Local, Zext<PMSCR_BITS, 64>>,
    rd_pmscr_el2: Signal<Local, Zext<PMSCR_BITS, 64>>,
    rd_pmsnevfr: Signal<Local, Zext<PMSEVFR_BITS, 64>>,
    rd_pmsicr: Signal<Local, Zext<32, 64>>,
    rd_pmsirr: Signal<Local, Zext<32, 64>>,
    rd_pmsfcr: Signal<Local, Zext<PMSFCR_BITS, 64>>,
    rd_pmsevfr: Signal<Local, Zext<PMSEVFR_BITS, 64>>,
    rd_pmslatfr: Signal<Local, Zext<PMSLATFR_BITS, 64>>,
    rd_pmbsr: Signal<Local, Zext<32, 64>>,
    // Port addresses (`{op1 == 4, CRm[0], op2}` of each register's encoding).
    a_pmblimitr: K<Bits<5>>,
    a_pmbptr: K<Bits<5>>,
    a_pmbsr: K<Bits<5>>,
    a_pmbidr: K<Bits<5>>,
    a_pmscr_el1: K<Bits<5>>,
    a_pmsnevfr: K<Bits<5>>,
    a_pmsicr: K<Bits<5>>,
    a_pmsirr: K<Bits<5>>,
    a_pmsfcr: K<Bits<5>>,
    a_pmsevfr: K<Bits<5>>,
    a_pmslatfr: K<Bits<5>>,
    a_pmsidr: K<Bits<5>>,
    a_pmscr_el2: K<Bits<5>>,
    // Writable masks: a write stores `wdata & mask`, so RES0 and unimplemented bits
    // read as zero.
    m_pmscr_el1: K<Bits<PMSCR_BITS>>,
    m_pmscr_el2: K<Bits<PMSCR_BITS>>,
    m_pmsevfr: K<Bits<PMSEVFR_BITS>>,
    m_pmsnevfr: K<Bits<PMSEVFR_BITS>>,
    m_pmsirr: K<Bits<32>>,
    m_pmsfcr: K<Bits<PMSFCR_BITS>>,
    m_pmslatfr: K<Bits<PMSLATFR_BITS>>,
    m_pmblimitr: K<Bits<64>>,
    m_pmbsr: K<Bits<PMBSR_BITS>>,
    /// PMBLIMITR.LIMIT in place.
    m_limit: K<Bits<64>>,
    // Read-only register values.
    v_pmsidr: K<Bits<64>>,
    v_pmbidr: K<Bits<64>>,
    // PMBSR values of the management events.
    k_coll: K<Bits<PMBSR_BITS>>,
    /// What a buffer-full event leaves as it was: COLL, DL and EA (Arm ARM D17.8.2).
    k_full_keep: K<Bits<PMBSR_BITS>>,
    k_full: K<Bits<PMBSR_BITS>>,
    k_dl: K<Bits<PMBSR_BITS>>,
    k_abort: K<Bits<PMBSR_BITS>>,
    // Field positions, for `get_bit` / `get_bits` on the stored registers.
    p_e0: K<Bits<32>>,
    p_e1: K<Bits<32>>,
    p_cx: K<Bits<32>>,
    p_pa: K<Bits<32>>,
    p_ts: K<Bits<32>>,
    p_pct: K<Bits<32>>,
    p_rnd: K<Bits<32>>,
    p_interval: K<Bits<32>>,
    p_fe: K<Bits<32>>,
    p_ft: K<Bits<32>>,
    p_fl: K<Bits<32>>,
    p_fne: K<Bits<32>>,
    p_b: K<Bits<32>>,
    p_ld: K<Bits<32>>,
    p_st: K<Bits<32>>,
    p_en: K<Bits<32>>,
    p_fm: K<Bits<32>>,
    p_s: K<Bits<32>>,
    /// PMBLIMITR.FM value of discard mode.
    k_fm_discard: K<Bits<2>>,
    k_zero64: K<Bits<64>>,
    // Zero-extension seeds for the read mux (see [`Zext`]).
    z_pmscr: K<Zext<PMSCR_BITS, 64>>,
    z_pmsevfr: K<Zext<PMSEVFR_BITS, 64>>,
    z_pmsfcr: K<Zext<PMSFCR_BITS, 64>>,
    z_pmslatfr: K<Zext<PMSLATFR_BITS, 64>>,
    z_32: K<Zext<32, 64>>,
}

/// A field's position as a constant (32 bits: Verilog's integer width, which Verilator
/// accepts as an index of any vector).
fn pos(f: Field) -> K<Bits<32>> {
    assert!(f.lsb < 64);
    K::new((f.lsb as u64).into())
}

/// A constant of `bits` bits, checking the value fits.
fn k<const N: usize>(v: u64) -> K<Bits<N>> {
    assert!(N >= 64 || v >> N == 0, "value {v:#x} does not fit {N} bits");
    K::new(v.into())
}

fn addr(id: RegId) -> K<Bits<5>> {
    k(u64::from(r::reg(id).addr()))
}

fn mask<const N: usize>(id: RegId, cfg: &Config) -> K<Bits<N>> {
    k(r::reg(id).writable_mask(cfg))
}

impl<const CW: usize> SpeRegs<CW> {
    pub fn new(cfg: &Config) -> Self {
        assert_eq!(
            CW as u32,
            cfg.counter_width.bits(),
            "counter width mismatch"
        );
        let bsr = |ec: u64, mss: u64, ea: u64, dl: u64| {
            pmbsr::S.place(1)
                | pmbsr::EC.place(ec)
                | pmbsr::MSS.place(mss)
                | pmbsr::EA.place(ea)
                | pmbsr::DL.place(dl)
        };
        Self {
            a_pmblimitr: addr(RegId::Pmblimitr),
            a_pmbptr: addr(RegId::Pmbptr),
            a_pmbsr: addr(RegId::Pmbsr),
            a_pmbidr: addr(RegId::Pmbidr),
            a_pmscr_el1: addr(RegId::PmscrEl1),
            a_pmsnevfr: addr(RegId::Pmsnevfr),
            a_pmsicr: addr(RegId::Pmsicr),
            a_pmsirr: addr(RegId::Pmsirr),
            a_pmsfcr: addr(RegId::Pmsfcr),
            a_pmsevfr: addr(RegId::Pmsevfr),
            a_pmslatfr: addr(RegId::Pmslatfr),
            a_pmsidr: addr(RegId::Pmsidr),
            a_pmscr_el2: addr(RegId::PmscrEl2),
            m_pmscr_el1: mask(RegId::PmscrEl1, cfg),
            m_pmscr_el2: mask(RegId::PmscrEl2, cfg),
            m_pmsevfr: mask(RegId::Pmsevfr, cfg),
            m_pmsnevfr: mask(RegId::Pmsnevfr, cfg),
            m_pmsirr: mask(RegId::Pmsirr, cfg),
            m_pmsfcr: mask(RegId::Pmsfcr, cfg),
            m_pmslatfr: mask(RegId::Pmslatfr, cfg),
            m_pmblimitr: mask(RegId::Pmblimitr, cfg),
            m_pmbsr: mask(RegId::Pmbsr, cfg),
            m_limit: k(pmblimitr::LIMIT.mask()),
            v_pmsidr: k(r::read_only_value(RegId::Pmsidr, cfg)),
            v_pmbidr: k(r::read_only_value(RegId::Pmbidr, cfg)),
            k_coll: k(pmbsr::COLL.mask()),
            k_full_keep: k(pmbsr::COLL.mask() | pmbsr::DL.mask() | pmbsr::EA.mask()),
            k_full: k(bsr(pmbsr::EC_BUF, pmbsr::BSC_FULL, 0, 0)),
            k_dl: k(pmbsr::DL.mask()),
            k_abort: k(bsr(pmbsr::EC_FAULT_S1, pmbsr::FSC_EXTERNAL_ABORT, 1, 1)),
            p_e0: pos(pmscr::E0SPE),
            p_e1: pos(pmscr::E1SPE),
            p_cx: pos(pmscr::CX),
            p_pa: pos(pmscr::PA),
            p_ts: pos(pmscr::TS),
            p_pct: pos(pmscr::PCT),
            p_rnd: pos(pmsirr::RND),
            p_interval: pos(pmsirr::INTERVAL),
            p_fe: pos(pmsfcr::FE),
            p_ft: pos(pmsfcr::FT),
            p_fl: pos(pmsfcr::FL),
            p_fne: pos(pmsfcr::FNE),
            p_b: pos(pmsfcr::B),
            p_ld: pos(pmsfcr::LD),
            p_st: pos(pmsfcr::ST),
            p_en: pos(pmblimitr::E),
            p_fm: pos(pmblimitr::FM),
            p_s: pos(pmbsr::S),
            k_fm_discard: k(pmblimitr::FM_DISCARD),
            ..Default::default()
        }
    }
}

impl<const CW: usize> Logic for SpeRegs<CW> {
    #[hdl_gen]
    fn update(&mut self) {
        // Every register holds its value unless updated below.
        dff_setup!(
            self, clock, pmscr_el1, pmscr_el2, pmsnevfr, pmsicr, pmsirr, pmsfcr, pmsevfr, pmslatfr,
            pmblimitr, pmbptr, pmbsr
        );
        self.pmscr_el1.reset.next = self.reset.val();
        self.pmscr_el2.reset.next = self.reset.val();
        self.pmsnevfr.reset.next = self.reset.val();
        self.pmsicr.reset.next = self.reset.val();
        self.pmsirr.reset.next = self.reset.val();
        self.pmsfcr.reset.next = self.reset.val();
        self.pmsevfr.reset.next = self.reset.val();
        self.pmslatfr.reset.next = self.reset.val();
        self.pmblimitr.reset.next = self.reset.val();
        self.pmbptr.reset.next = self.reset.val();
        self.pmbsr.reset.next = self.reset.val();

        // Hardware updates: the interval counter every cycle, the buffer pointer from the
        // writer, PMBSR from the sampler (COLL) and the management events (which keep COLL).
        self.pmsicr.d.next = self.count_now.val();
        if self.upd.val().ptr_we {
            self.pmbptr.d.next = self.upd.val().ptr;
        }
        self.pmbsr_coll.next = self.pmbsr.q.val();
        if self.coll_set.val() {
            self.pmbsr_coll.next = self.pmbsr.q.val() | self.k_coll.val();
        }
        self.pmbsr.d.next = self.pmbsr_coll.val();
        // Buffer full: S, EC = buffer, BSC = full; COLL, DL and EA as they were (D17.8.2);
        // DL set when the record that found no room is lost.
        if self.upd.val().full {
            self.pmbsr.d.next =
                (self.pmbsr_coll.val() & self.k_full_keep.val()) | self.k_full.val();
            if self.upd.val().full_dl {
                self.pmbsr.d.next = (self.pmbsr_coll.val() & self.k_full_keep.val())
                    | self.k_full.val()
                    | self.k_dl.val();
            }
        }
        // External abort on a write: S, EC = stage-1 data abort, FSC = external abort, EA
        // and DL (COLL kept).
        if self.upd.val().abort {
            self.pmbsr.d.next = (self.pmbsr_coll.val() & self.k_coll.val()) | self.k_abort.val();
        }

        // Register port writes (last: software wins over hardware). Each stores the
        // write data through its writable mask; PMSICR and PMBPTR are stored whole;
        // PMSIDR and PMBIDR are read-only and ignore writes, like unmapped addresses.
        self.wr.next = self.reg_en.val() & self.reg_we.val();
        if self.wr.val() {
            if self.reg_addr.val() == self.a_pmscr_el1.val() {
                self.pmscr_el1.d.next =
                    self.reg_wdata.val().get_bits::<PMSCR_BITS>(0) & self.m_pmscr_el1.val();
            }
            if self.reg_addr.val() == self.a_pmscr_el2.val() {
                self.pmscr_el2.d.next =
                    self.reg_wdata.val().get_bits::<PMSCR_BITS>(0) & self.m_pmscr_el2.val();
            }
            if self.reg_addr.val() == self.a_pmsnevfr.val() {
                self.pmsnevfr.d.next =
                    self.reg_wdata.val().get_bits::<PMSEVFR_BITS>(0) & self.m_pmsnevfr.val();
            }
            if self.reg_addr.val() == self.a_pmsevfr.val() {
                self.pmsevfr.d.next =
                    self.reg_wdata.val().get_bits::<PMSEVFR_BITS>(0) & self.m_pmsevfr.val();
            }
            if self.reg_addr.val() == self.a_pmsicr.val() {
                self.pmsicr.d.next = self.reg_wdata.val().get_bits::<32>(0);
            }
            if self.reg_addr.val() == self.a_pmsirr.val() {
                self.pmsirr.d.next = self.reg_wdata.val().get_bits::<32>(0) & self.m_pmsirr.val();
            }
            if self.reg_addr.val() == self.a_pmsfcr.val() {
                self.pmsfcr.d.next =
                    self.reg_wdata.val().get_bits::<PMSFCR_BITS>(0) & self.m_pmsfcr.val();
            }
            if self.reg_addr.val() == self.a_pmslatfr.val() {
                self.pmslatfr.d.next =
                    self.reg_wdata.val().get_bits::<PMSLATFR_BITS>(0) & self.m_pmslatfr.val();
            }
            if self.reg_addr.val() == self.a_pmblimitr.val() {
                self.pmblimitr.d.next = self.reg_wdata.val() & self.m_pmblimitr.val();
            }
            if self.reg_addr.val() == self.a_pmbptr.val() {
                self.pmbptr.d.next = self.reg_wdata.val();
            }
            if self.reg_addr.val() == self.a_pmbsr.val() {
                self.pmbsr.d.next =
                    self.reg_wdata.val().get_bits::<PMBSR_BITS>(0) & self.m_pmbsr.val();
            }
        }

        // Read port (comb, whether or not `reg_en` is high): zero-extend the addressed
        // register; read-only registers give the configuration's advertised value;
        // unmapped addresses read as zero.
        self.rd_pmscr_el1.next = self.z_pmscr.val();
        self.rd_pmscr_el1.next.set_value_lo(self.pmscr_el1.q.val());
        self.rd_pmscr_el2.next = self.z_pmscr.val();
        self.rd_pmscr_el2.next.set_value_lo(self.pmscr_el2.q.val());
        self.rd_pmsnevfr.next = self.z_pmsevfr.val();
        self.rd_pmsnevfr.next.set_value_lo(self.pmsnevfr.q.val());
        self.rd_pmsevfr.next = self.z_pmsevfr.val();
        self.rd_pmsevfr.next.set_value_lo(self.pmsevfr.q.val());
        self.rd_pmsicr.next = self.z_32.val();
        self.rd_pmsicr.next.set_value_lo(self.count_now.val());
        self.rd_pmsirr.next = self.z_32.val();
        self.rd_pmsirr.next.set_value_lo(self.pmsirr.q.val());
        self.rd_pmsfcr.next = self.z_pmsfcr.val();
        self.rd_pmsfcr.next.set_value_lo(self.pmsfcr.q.val());
        self.rd_pmslatfr.next = self.z_pmslatfr.val();
        self.rd_pmslatfr.next.set_value_lo(self.pmslatfr.q.val());
        self.rd_pmbsr.next = self.z_32.val();
        self.rd_pmbsr.next.set_value_lo(self.pmbsr.q.val());
        self.reg_rdata.next = self.k_zero64.val();
        if self.reg_addr.val() == self.a_pmscr_el1.val() {
            self.reg_rdata.next = self.rd_pmscr_el1.val().to_bits();
        }
        if self.reg_addr.val() == self.a_pmscr_el2.val() {
            self.reg_rdata.next = self.rd_pmscr_el2.val().to_bits();
        }
        if self.reg_addr.val() == self.a_pmsnevfr.val() {
            self.reg_rdata.next = self.rd_pmsnevfr.val().to_bits();
        }
        if self.reg_addr.val() == self.a_pmsevfr.val() {
            self.reg_rdata.next = self.rd_pmsevfr.val().to_bits();
        }
        if self.reg_addr.val() == self.a_pmsicr.val() {
            self.reg_rdata.next = self.rd_pmsicr.val().to_bits();
        }
        if self.reg_addr.val() == self.a_pmsirr.val() {
            self.reg_rdata.next = self.rd_pmsirr.val().to_bits();
        }
        if self.reg_addr.val() == self.a_pmsfcr.val() {
            self.reg_rdata.next = self.rd_pmsfcr.val().to_bits();
        }
        if self.reg_addr.val() == self.a_pmslatfr.val() {
            self.reg_rdata.next = self.rd_pmslatfr.val().to_bits();
        }
        if self.reg_addr.val() == self.a_pmblimitr.val() {
            self.reg_rdata.next = self.pmblimitr.q.val();
        }
        if self.reg_addr.val() == self.a_pmbptr.val() {
            self.reg_rdata.next = self.pmbptr.q.val();
        }
        if self.reg_addr.val() == self.a_pmbsr.val() {
            self.reg_rdata.next = self.rd_pmbsr.val().to_bits();
        }
        if self.reg_addr.val() == self.a_pmsidr.val() {
            self.reg_rdata.next = self.v_pmsidr.val();
        }
        if self.reg_addr.val() == self.a_pmbidr.val() {
            self.reg_rdata.next = self.v_pmbidr.val();
        }
        // PMBIRQ: a level, high while PMBSR.S is set (software clears S to end it).
        self.irq.next = self.pmbsr.q.val().get_bit(self.p_s.val().index());

        // Decoded fields for the other blocks: the sampler's controls (EL enables,
        // counter, interval), what a record collects, the filters, and the buffer.
        // Profiling runs while PMBLIMITR.E is set and PMBSR.S is clear.
        self.sample_ctl.next.el1_e0spe = self.pmscr_el1.q.val().get_bit(self.p_e0.val().index());
        self.sample_ctl.next.el1_e1spe = self.pmscr_el1.q.val().get_bit(self.p_e1.val().index());
        self.collect_ctl.next.el1_cx = self.pmscr_el1.q.val().get_bit(self.p_cx.val().index());
        self.collect_ctl.next.el1_pa = self.pmscr_el1.q.val().get_bit(self.p_pa.val().index());
        self.collect_ctl.next.el1_ts = self.pmscr_el1.q.val().get_bit(self.p_ts.val().index());
        self.collect_ctl.next.el1_pct = self
            .pmscr_el1
            .q
            .val()
            .get_bits::<2>(self.p_pct.val().index());
        self.sample_ctl.next.el2_e0hspe = self.pmscr_el2.q.val().get_bit(self.p_e0.val().index());
        self.sample_ctl.next.el2_e2spe = self.pmscr_el2.q.val().get_bit(self.p_e1.val().index());
        self.collect_ctl.next.el2_cx = self.pmscr_el2.q.val().get_bit(self.p_cx.val().index());
        self.collect_ctl.next.el2_pa = self.pmscr_el2.q.val().get_bit(self.p_pa.val().index());
        self.collect_ctl.next.el2_ts = self.pmscr_el2.q.val().get_bit(self.p_ts.val().index());
        self.collect_ctl.next.el2_pct = self
            .pmscr_el2
            .q
            .val()
            .get_bits::<2>(self.p_pct.val().index());
        self.sample_ctl.next.count = self.pmsicr.q.val();
        self.sample_ctl.next.interval = self
            .pmsirr
            .q
            .val()
            .get_bits::<24>(self.p_interval.val().index());
        self.sample_ctl.next.rnd = self.pmsirr.q.val().get_bit(self.p_rnd.val().index());
        self.filter_ctl.next.fe = self.pmsfcr.q.val().get_bit(self.p_fe.val().index());
        self.filter_ctl.next.ft = self.pmsfcr.q.val().get_bit(self.p_ft.val().index());
        self.filter_ctl.next.fl = self.pmsfcr.q.val().get_bit(self.p_fl.val().index());
        self.filter_ctl.next.fne = self.pmsfcr.q.val().get_bit(self.p_fne.val().index());
        self.filter_ctl.next.b = self.pmsfcr.q.val().get_bit(self.p_b.val().index());
        self.filter_ctl.next.ld = self.pmsfcr.q.val().get_bit(self.p_ld.val().index());
        self.filter_ctl.next.st = self.pmsfcr.q.val().get_bit(self.p_st.val().index());
        self.filter_ctl.next.evfr = self.pmsevfr.q.val();
        self.filter_ctl.next.nevfr = self.pmsnevfr.q.val();
        self.minlat.next = self.pmslatfr.q.val().get_bits::<CW>(0);
        self.prof_en.next = self.pmblimitr.q.val().get_bit(self.p_en.val().index())
            & !self.pmbsr.q.val().get_bit(self.p_s.val().index());
        self.buffer_ctl.next.discard = self
            .pmblimitr
            .q
            .val()
            .get_bits::<2>(self.p_fm.val().index())
            == self.k_fm_discard.val();
        self.buffer_ctl.next.limit = self.pmblimitr.q.val() & self.m_limit.val();
        self.buffer_ctl.next.ptr = self.pmbptr.q.val();
        self.sample_ctl.next.prof_en = self.prof_en.val();
        self.buffer_ctl.next.prof_en = self.prof_en.val();
    }
}
