//! `spe_sampler`: population counting over the W-slot dispatch group, the interval
//! down-counter, the LFSR jitter and the one-hot tag.
//!
//! ```text
//!  PMSICR flop c, n_prev, reload_prev (registered) --> count_now (PMSICR's value) --> regs
//!                                                  \-> kth[W]: the k-th population op
//!  kth, or FEAT_SPE_ERnd's block's choice ---------> target[W]: the op sampled
//!  disp_valid[W], target --------------------------> rank chain --> pick[W] --+--> tag[W] (comb)
//!  EL / owner, TGE / aarch32 / prof_allowed / enables --> pop_en -----------^    collision
//!  disp_valid, pop_en --> n --> n_prev (flop)
//!  interval, rnd, LFSR --> reload_prev (flop)
//! ```
//!
//! Counting follows the architecture's `SPEToCollectSample` per population op in slot
//! order: a zero counter reloads, otherwise it decrements and the op that brings it to zero
//! is selected. The hardware evaluates the whole group at once. With `c` the counter and
//! `n` the number of population ops this cycle:
//! * the `c`-th population op of the group is selected when `1 <= c <= W`;
//! * the counter after the group is `c - n` when `c >= n`, else the reload happened
//!   part-way through the group: `R + c + 1 - n`.
//!
//! Timing: no arithmetic follows the dispatch inputs. The group's count `n` and its reload
//! value `R` are registered (`n_prev`, `reload_prev`) and applied in the next cycle, from
//! registered values only: the PMSICR flop holds the counter *before* the previous group,
//! and `count_now` (the architectural PMSICR: what the register port reads and what the
//! PMSICR flop loads) is `c - n_prev`, or `R + c + 1 - n_prev` after a reload. The
//! subtraction is split: `n <= 8` borrows at most once out of the low nibble, so the upper
//! 28 bits are `c[31:4]` or `c[31:4] - 1`; in the reload case (`c <= 7`) the low byte is
//! `jitter + c + 1 - n_prev` (9 bits: -7..=255, bit 8 a borrow) and the interval part the
//! interval or the registered interval minus one. Which op of this group is sampled is
//! known from registered values before the group arrives: `count_now = k` (`1 <= k <= W`)
//! exactly when `c = n_prev + k` with `c < 32` (a reload leaves at least 249), so `kth` is
//! one-hot at `k - 1`; the op sampled, `target`, is `kth` (or FEAT_SPE_ERnd's choice from
//! it), and a rank chain over the valid bits finds its slot (`pick`). A port
//! write of PMSICR clears `n_prev` (the write wins over the group). None of this is visible
//! at the ports: the timing is the golden model's, cycle for cycle.
//!
//! The reload `R` is never below 256, so at most one op is selected per cycle. The
//! selected op is tag_valid when nothing is in flight (`busy` low), otherwise it is a
//! collision. The reload is `INTERVAL << 8` as written (INTERVAL = 0, an UNKNOWN interval in
//! the architecture, is used as 1), with the low byte taken from the LFSR when PMSIRR.RND is
//! set; the LFSR steps every cycle outside reset.
//!
//! FEAT_SPE_ERnd (`Options::ernd`, preset v1p2x) adds PMSICR.ECOUNT in its child block
//! ([`crate::options::ernd::SamplerErnd`]): the op selected this group is, in one-hot form
//! from registered values only, the ECOUNT-th population op, or the expiring one, or the
//! (k + r)-th after an expiry at the k-th with RND. Without the option its ports and block
//! are empty vectors.

use crate::bundles::{SampleCtl, SamplePhase};
use crate::flop::Rff;
use crate::Zext;
use crate::K;
use rust_hdl::prelude::*;
use spe_defs::{impdef, Config};

/// The reload value: INTERVAL in bits 31:8 and the jitter byte in 7:0 (also the layout of
/// the counter after a reload).
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct Reload {
    pub jitter: Bits<8>,
    pub interval: Bits<24>,
}

/// The counter as its low nibble and the 28 bits above it.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct Nibbled {
    pub lo: Bits<4>,
    pub hi: Bits<28>,
}

/// The sampler for a dispatch width of `W` slots.
#[derive(LogicBlock)]
pub struct SpeSampler<const W: usize> {
    // Clock and reset.
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    // Dispatch hook (group attributes apply to every slot).
    pub disp_valid: Signal<In, Bits<W>>,
    pub disp_el: Signal<In, Bits<2>>,
    /// EL2 enabled, MDCR_EL2.E2PB and HCR_EL2.TGE (the owner and TGE; E2H does not
    /// matter to the population).
    pub el2_en: Signal<In, Bit>,
    pub e2pb: Signal<In, Bits<2>>,
    pub tge: Signal<In, Bit>,
    pub disp_aarch32: Signal<In, Bit>,
    pub prof_allowed: Signal<In, Bit>,
    pub ctl: Signal<In, SampleCtl>,
    /// A sample is in flight unless Idle.
    pub phase: Signal<In, SamplePhase>,
    // Outputs.
    /// One-hot tag of the sampled slot (comb).
    pub tag: Signal<Out, Bits<W>>,
    /// The slot the counter picks, one-hot or zero, before the population enable and the
    /// busy check (comb; the capture's slot multiplexer, meaningful with `tag_valid`).
    pub pick: Signal<Out, Bits<W>>,
    /// An op was tag_valid this cycle (comb).
    pub tag_valid: Signal<Out, Bit>,
    /// SAMPLE_COLLISION: an op was selected while one is in flight (comb).
    pub collision: Signal<Out, Bit>,
    /// SAMPLE_POP: population ops this cycle (comb).
    pub pop: Signal<Out, Bits<4>>,
    /// The register port's write strobe and address: a write of PMSICR wins over this
    /// group's count (decoded here, not in regs: a regs output would close a loop
    /// through `count_now`).
    pub reg_en: Signal<In, Bit>,
    pub reg_we: Signal<In, Bit>,
    pub reg_addr: Signal<In, Bits<5>>,
    /// PMSICR's value this cycle (the counter with the previous group applied): read by
    /// the register port, loaded into the PMSICR flop.
    pub count_now: Signal<Out, Bits<32>>,
    /// FEAT_SPE_ERnd only (one element with `Options::ernd`, none otherwise, so a
    /// unit without it has neither port nor logic): the port's PMSICR.ECOUNT write data
    /// (reg_wdata[63:56]), and PMSICR.ECOUNT in place (bits 63:56) while the port
    /// addresses PMSICR, zero otherwise, for the read-back.
    pub ecount_wdata: Vec<Signal<In, Bits<8>>>,
    pub ecount_rd: Vec<Signal<Out, Bits<64>>>,
    // State.
    lfsr: Rff<Bits<16>>,
    /// The previous group's population count and reload value (and the reload's interval
    /// part minus one).
    n_prev: Rff<Bits<4>>,
    reload_prev: Rff<Reload>,
    reload_prev_dec: Rff<Bits<24>>,
    /// FEAT_SPE_ERnd (one element, or none): ECOUNT's flop and the selection it makes
    /// ([`crate::options::ernd::SamplerErnd`]).
    ernd: Vec<crate::options::ernd::SamplerErnd<W>>,
    // Local signals: from registered values only.
    count: Signal<Local, Bits<32>>,
    c_hi_zero: Signal<Local, Bit>,
    c_hi5_zero: Signal<Local, Bit>,
    c_lo5b: Signal<Local, Bits<5>>,
    n_prev5: Signal<Local, Zext<4, 5>>,
    kth: Signal<Local, Bits<W>>,
    /// The op this group samples: `kth`, or FEAT_SPE_ERnd's selection.
    target: Signal<Local, Bits<W>>,
    c_lo: Signal<Local, Bits<4>>,
    c_hi: Signal<Local, Bits<28>>,
    c_hi_dec: Signal<Local, Bits<28>>,
    interval: Signal<Local, Bits<24>>,
    interval_dec: Signal<Local, Bits<24>>,
    jitter: Signal<Local, Bits<8>>,
    jitter9: Signal<Local, Zext<8, 9>>,
    c_lo9: Signal<Local, Zext<4, 9>>,
    jc: Signal<Local, Bits<9>>,
    // Local signals: from the dispatch group.
    busy: Signal<Local, Bit>,
    icr_we: Signal<Local, Bit>,
    owner_el2: Signal<Local, Bit>,
    tge_set: Signal<Local, Bit>,
    el_ok: Signal<Local, Bit>,
    pop_en: Signal<Local, Bit>,
    pre: [Signal<Local, Bits<4>>; W],
    rank: [Signal<Local, Bits<W>>; W],
    sel: Signal<Local, Bits<W>>,
    lo5: Signal<Local, Bits<5>>,
    c_lo5: Signal<Local, Zext<4, 5>>,
    n9: Signal<Local, Zext<4, 9>>,
    t: Signal<Local, Bits<9>>,
    next_nib: Signal<Local, Nibbled>,
    next_reload: Signal<Local, Reload>,
    // Constants.
    k_el0: K<Bits<2>>,
    k_el1: K<Bits<2>>,
    k_el2: K<Bits<2>>,
    /// MDCR_EL2.E2PB giving the buffer to EL2.
    k_e2pb_el2: K<Bits<2>>,
    k_one4: K<Bits<4>>,
    k_zero4: K<Bits<4>>,
    k_zero28: K<Bits<28>>,
    k_one28: K<Bits<28>>,
    k_one24: K<Bits<24>>,
    k_one9: K<Bits<9>>,
    z_4_5: K<Zext<4, 5>>,
    z_4_9: K<Zext<4, 9>>,
    z_8_9: K<Zext<8, 9>>,
    k_zero8: K<Bits<8>>,
    k_zero_w: K<Bits<W>>,
    /// `1 << i` for each slot, and the counter value `i + 1` that picks the i-th
    /// population op.
    k_onehot: [K<Bits<W>>; W],
    k_kth: [K<Bits<5>>; W],
    k_zero27: K<Bits<27>>,
    /// PMSICR's port address.
    a_pmsicr: K<Bits<5>>,
    k_zero24: K<Bits<24>>,
    k_taps: K<Bits<16>>,
}

impl<const W: usize> SpeSampler<W> {
    /// Thread 0's sampler (the one of a one-thread unit).
    pub fn new(cfg: &Config) -> Self {
        Self::for_thread(cfg, 0)
    }

    /// Hardware thread `t`'s sampler: its jitter LFSR starts from `impdef::LFSR_SEEDS[t]`.
    pub fn for_thread(cfg: &Config, t: usize) -> Self {
        assert!(t < cfg.threads, "thread {t} of {}", cfg.threads);
        assert_eq!(W, cfg.dispatch_width, "dispatch width mismatch");
        assert!((1..=8).contains(&W));
        // FEAT_SPE_ERnd's ports, state and logic: one copy, or none.
        let e = usize::from(cfg.options.ernd);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            disp_valid: Default::default(),
            disp_el: Default::default(),
            el2_en: Default::default(),
            e2pb: Default::default(),
            tge: Default::default(),
            disp_aarch32: Default::default(),
            prof_allowed: Default::default(),
            ctl: Default::default(),
            phase: Default::default(),
            tag: Default::default(),
            pick: Default::default(),
            tag_valid: Default::default(),
            collision: Default::default(),
            pop: Default::default(),
            reg_en: Default::default(),
            reg_we: Default::default(),
            reg_addr: Default::default(),
            icr_we: Default::default(),
            a_pmsicr: K::new(
                u64::from(spe_defs::regs::reg(spe_defs::regs::RegId::Pmsicr).addr()).into(),
            ),
            count_now: Default::default(),
            ecount_wdata: (0..e).map(|_| Default::default()).collect(),
            ecount_rd: (0..e).map(|_| Default::default()).collect(),
            lfsr: Rff::with_reset(u64::from(impdef::LFSR_SEEDS[t]).into()),
            n_prev: Default::default(),
            reload_prev: Default::default(),
            reload_prev_dec: Default::default(),
            count: Default::default(),
            c_hi_zero: Default::default(),
            c_hi5_zero: Default::default(),
            c_lo5b: Default::default(),
            n_prev5: Default::default(),
            kth: Default::default(),
            target: Default::default(),
            ernd: (0..e).map(|_| Default::default()).collect(),
            c_lo: Default::default(),
            c_hi: Default::default(),
            c_hi_dec: Default::default(),
            interval: Default::default(),
            interval_dec: Default::default(),
            jitter: Default::default(),
            jitter9: Default::default(),
            c_lo9: Default::default(),
            jc: Default::default(),
            busy: Default::default(),
            owner_el2: Default::default(),
            tge_set: Default::default(),
            el_ok: Default::default(),
            pop_en: Default::default(),
            pre: array_init(),
            rank: array_init(),
            sel: Default::default(),
            lo5: Default::default(),
            c_lo5: Default::default(),
            n9: Default::default(),
            t: Default::default(),
            next_nib: Default::default(),
            next_reload: Default::default(),
            k_el0: K::new(0u64.into()),
            k_el1: K::new(1u64.into()),
            k_el2: K::new(2u64.into()),
            k_e2pb_el2: K::new(u64::from(spe_defs::regs::mdcr_e2pb::EL2_OWNS).into()),
            k_one4: K::new(1u64.into()),
            k_zero4: K::new(0u64.into()),
            k_zero28: K::new(0u64.into()),
            k_one28: K::new(1u64.into()),
            k_one24: K::new(1u64.into()),
            k_one9: K::new(1u64.into()),
            z_4_5: K::new(Zext::default()),
            z_4_9: K::new(Zext::default()),
            z_8_9: K::new(Zext::default()),
            k_zero8: K::new(0u64.into()),
            k_zero_w: K::new(0u64.into()),
            k_onehot: std::array::from_fn(|i| K::new((1u64 << i).into())),
            k_kth: std::array::from_fn(|i| K::new((i as u64 + 1).into())),
            k_zero27: K::new(0u64.into()),
            k_zero24: K::new(0u64.into()),
            k_taps: K::new(u64::from(impdef::LFSR_TAPS).into()),
        }
    }
}

/// An array of default signals.
pub(crate) fn array_init<T: Default, const N: usize>() -> [T; N] {
    std::array::from_fn(|_| T::default())
}

crate::rff_setup!(
    impl[const W: usize] SpeSampler<W>: lfsr, n_prev, reload_prev, reload_prev_dec; each ernd
);

impl<const W: usize> crate::flop::Kernel for SpeSampler<W> {
    #[hdl_gen]
    fn update(&mut self) {
        // The jitter source steps every cycle (the flop's reset returns it to the seed).
        dff_setup!(self, clock, lfsr, n_prev, reload_prev, reload_prev_dec);
        self.lfsr.d.next = self.lfsr.q.val() >> 1;
        if self.lfsr.q.val().get_bit(0) {
            self.lfsr.d.next = (self.lfsr.q.val() >> 1) ^ self.k_taps.val();
        }

        // PMSICR now, from registered values only: the flop's value c minus the previous
        // group's n (one borrow at most out of the low nibble), or after a reload part-way
        // through that group R + c + 1 - n (c <= 7: a borrow at most out of the low byte).
        self.count.next = self.ctl.val().count;
        self.c_lo.next = self.count.val().get_bits::<4>(0);
        self.c_hi.next = self.count.val().get_bits::<28>(4);
        self.c_hi_zero.next = self.c_hi.val() == self.k_zero28.val();
        self.c_hi_dec.next = self.c_hi.val() - self.k_one28.val();
        self.c_lo5.next = self.z_4_5.val();
        self.c_lo5.next.set_value_at(self.c_lo.val());
        self.n_prev5.next = self.z_4_5.val();
        self.n_prev5.next.set_value_at(self.n_prev.q.val());
        self.lo5.next = self.c_lo5.val().to_bits() - self.n_prev5.val().to_bits();
        self.next_nib.next.lo = self.lo5.val().get_bits::<4>(0);
        self.next_nib.next.hi = self.c_hi.val();
        if self.lo5.val().get_bit(4) {
            self.next_nib.next.hi = self.c_hi_dec.val();
        }
        self.jitter9.next = self.z_8_9.val();
        self.jitter9
            .next
            .set_value_at(self.reload_prev.q.val().jitter);
        self.c_lo9.next = self.z_4_9.val();
        self.c_lo9.next.set_value_at(self.c_lo.val());
        self.jc.next =
            self.jitter9.val().to_bits() + self.c_lo9.val().to_bits() + self.k_one9.val();
        self.n9.next = self.z_4_9.val();
        self.n9.next.set_value_at(self.n_prev.q.val());
        self.t.next = self.jc.val() - self.n9.val().to_bits();
        self.next_reload.next.jitter = self.t.val().get_bits::<8>(0);
        self.next_reload.next.interval = self.reload_prev.q.val().interval;
        if self.t.val().get_bit(8) {
            self.next_reload.next.interval = self.reload_prev_dec.q.val();
        }
        self.count_now.next = self.next_nib.val().into();
        if self.c_hi_zero.val() & self.lo5.val().get_bit(4) {
            self.count_now.next = self.next_reload.val().into();
        }

        // Which population op of this group is sampled, from registered values only:
        // count_now = k (1 <= k <= W) exactly when c = n_prev + k and c < 32.
        self.c_hi5_zero.next = self.count.val().get_bits::<27>(5) == self.k_zero27.val();
        self.c_lo5b.next = self.count.val().get_bits::<5>(0);
        self.kth.next = self.k_zero_w.val();
        for i in 0..W {
            if self.c_hi5_zero.val()
                & (self.c_lo5b.val() == (self.n_prev5.val().to_bits() + self.k_kth[i].val()))
            {
                self.kth.next = self.k_onehot[i].val();
            }
        }

        // This cycle's reload value, for the next cycle: INTERVAL as written, 0 used as 1
        // (so the reload is at least 256). choice: interval-zero
        self.interval.next = self.ctl.val().interval;
        self.interval_dec.next = self.ctl.val().interval - self.k_one24.val();
        if self.ctl.val().interval == self.k_zero24.val() {
            self.interval.next = self.k_one24.val();
            self.interval_dec.next = self.k_zero24.val();
        }
        // choice: jitter
        self.jitter.next = self.k_zero8.val();
        if self.ctl.val().rnd {
            self.jitter.next = self.lfsr.q.val().get_bits::<8>(0);
        }
        // With FEAT_SPE_ERnd the reload's low byte is 0: the random value goes to ECOUNT.
        for _e in 0..self.ernd.len() {
            self.jitter.next = self.k_zero8.val();
        }
        self.reload_prev.d.next.interval = self.interval.val();
        self.reload_prev.d.next.jitter = self.jitter.val();
        self.reload_prev_dec.d.next = self.interval_dec.val();

        // Population enable for the whole group (J1 `StatisticalProfilingEnabled`):
        // profiling running and allowed, AArch64, the EL's enable bit (EL0 under TGE uses
        // E0HSPE; never EL3), and the owner allowing the EL: EL2 only under an EL2 owner,
        // nothing under TGE = 1 when EL1 owns the buffer.
        // choice: population, choice: buffer-owner, choice: e2spe-el1-owner
        self.owner_el2.next = self.el2_en.val() & (self.e2pb.val() == self.k_e2pb_el2.val());
        self.tge_set.next = self.el2_en.val() & self.tge.val();
        self.el_ok.next = false;
        if self.disp_el.val() == self.k_el0.val() {
            self.el_ok.next = self.ctl.val().el1_e0spe;
            if self.tge_set.val() {
                self.el_ok.next = self.ctl.val().el2_e0hspe;
            }
        }
        if self.disp_el.val() == self.k_el1.val() {
            self.el_ok.next = self.ctl.val().el1_e1spe;
        }
        if self.disp_el.val() == self.k_el2.val() {
            self.el_ok.next = self.ctl.val().el2_e2spe & self.owner_el2.val();
        }
        self.pop_en.next = self.el_ok.val()
            & !(self.tge_set.val() & !self.owner_el2.val())
            & self.ctl.val().prof_en
            & self.prof_allowed.val()
            & !self.disp_aarch32.val()
            & !self.reset.val();

        // A port write of PMSICR (the write wins over this group's count).
        self.icr_we.next =
            self.reg_en.val() & self.reg_we.val() & (self.reg_addr.val() == self.a_pmsicr.val());

        // The op this group samples: COUNT's expiry, or FEAT_SPE_ERnd's selection from its
        // block (`options::ernd`), which also keeps PMSICR.ECOUNT.
        self.target.next = self.kth.val();
        for e in 0..self.ernd.len() {
            self.ernd[e].clock.next = self.clock.val();
            self.ernd[e].kc.next = self.kth.val();
            self.ernd[e].rnd_byte.next = self.lfsr.q.val().get_bits::<8>(0);
            self.ernd[e].rnd.next = self.ctl.val().rnd;
            self.ernd[e].disp_valid.next = self.disp_valid.val();
            self.ernd[e].pop_en.next = self.pop_en.val();
            self.ernd[e].icr_we.next = self.icr_we.val();
            self.ernd[e].wdata.next = self.ecount_wdata[e].val();
            self.ernd[e].reg_addr.next = self.reg_addr.val();
            self.target.next = self.ernd[e].kth.val();
            self.ecount_rd[e].next = self.ernd[e].ecount_rd.val();
        }

        // Selection: a rank chain over the valid slots, in slot order. rank[i] is `target`
        // shifted down once per valid slot before i: slot i is the picked one when it is
        // valid and rank[i] has reached bit 0. `target` is one-hot or zero, so at most one
        // slot is picked.
        self.rank[0].next = self.target.val();
        for i in 1..W {
            self.rank[i].next = self.rank[i - 1].val();
            if self.disp_valid.val().get_bit(i - 1) {
                self.rank[i].next = self.rank[i - 1].val() >> 1;
            }
        }
        self.sel.next = self.k_zero_w.val();
        for i in 0..W {
            if self.disp_valid.val().get_bit(i)
                & ((self.rank[i].val() & self.k_onehot[0].val()) != self.k_zero_w.val())
            {
                self.sel.next = self.k_onehot[i].val();
            }
        }
        self.pick.next = self.sel.val();
        // One sample in flight: a selection outside Idle is a collision. choice: in-flight
        self.busy.next = self.phase.val() != SamplePhase::Idle;
        self.tag.next = self.k_zero_w.val();
        if self.pop_en.val() & !self.busy.val() {
            self.tag.next = self.sel.val();
        }
        self.tag_valid.next =
            (self.sel.val() != self.k_zero_w.val()) & self.pop_en.val() & !self.busy.val();
        self.collision.next =
            (self.sel.val() != self.k_zero_w.val()) & self.pop_en.val() & self.busy.val();

        // Population count (SAMPLE_POP, n).
        self.pre[0].next = self.k_zero4.val();
        if self.pop_en.val() & self.disp_valid.val().get_bit(0) {
            self.pre[0].next = self.k_one4.val();
        }
        for i in 1..W {
            self.pre[i].next = self.pre[i - 1].val();
            if self.pop_en.val() & self.disp_valid.val().get_bit(i) {
                self.pre[i].next = self.pre[i - 1].val() + self.k_one4.val();
            }
        }
        for i in 0..W {
            self.pop.next = self.pre[i].val();
        }

        // This group's count, applied next cycle (a port write of PMSICR wins).
        self.n_prev.d.next = self.pop.val();
        if self.icr_we.val() {
            self.n_prev.d.next = self.k_zero4.val();
        }
    }
}
