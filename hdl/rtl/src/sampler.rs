//! `spe_sampler`: population counting over the W-slot dispatch group, the interval
//! down-counter, the LFSR jitter and the one-hot tag.
//!
//! ```text
//!  disp_valid[W] --+--> population --> prefix counts --> selection --> tag[W] (comb)
//!  EL / host / aarch32 / prof_allowed / enables --^         |            collision
//!  count (PMSICR) -------------------------------------------+--> count_next
//!  interval, rnd, LFSR ---> reload value ---------------------^
//! ```
//!
//! Counting follows the architecture's `SPEToCollectSample` per population op in slot
//! order: a zero counter reloads, otherwise it decrements and the op that brings it to zero
//! is selected. The hardware evaluates the whole group at once. With `c` the counter and
//! `n` the number of population ops this cycle (prefix count `pre[i]` up to slot `i`):
//! * slot `i` is selected when it is in the population, `c != 0` and `pre[i] == c`;
//! * `count_next = c - n` when `c >= n`, else the reload happened part-way through the
//!   group: `count_next = R + c + 1 - n`.
//!
//! The reload `R` is never below 256, so at most one op is selected per cycle. The
//! selected op is tag_valid when nothing is in flight (`busy` low), otherwise it is a
//! collision. The reload is `max(INTERVAL, minimum) << 8`, with the low byte taken from the
//! LFSR when PMSIRR.RND is set; the LFSR steps every cycle outside reset.

use crate::bundles::{SampleCtl, SamplePhase};
use crate::flop::Rff;
use crate::Zext;
use crate::K;
use rust_hdl::prelude::*;
use spe_defs::{impdef, Config};

/// The reload value: INTERVAL in bits 31:8 and the jitter byte in 7:0.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct Reload {
    pub jitter: Bits<8>,
    pub interval: Bits<24>,
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
    pub disp_host: Signal<In, Bit>,
    pub disp_aarch32: Signal<In, Bit>,
    pub prof_allowed: Signal<In, Bit>,
    pub ctl: Signal<In, SampleCtl>,
    /// A sample is in flight unless Idle.
    pub phase: Signal<In, SamplePhase>,
    // Outputs.
    /// One-hot tag of the sampled slot (comb).
    pub tag: Signal<Out, Bits<W>>,
    /// An op was tag_valid this cycle (comb).
    pub tag_valid: Signal<Out, Bit>,
    /// SAMPLE_COLLISION: an op was selected while one is in flight (comb).
    pub collision: Signal<Out, Bit>,
    /// SAMPLE_POP: population ops this cycle (comb).
    pub pop: Signal<Out, Bits<4>>,
    /// PMSICR after this group.
    pub count_next: Signal<Out, Bits<32>>,
    // State.
    lfsr: Rff<Bits<16>>,
    // Local signals.
    busy: Signal<Local, Bit>,
    count: Signal<Local, Bits<32>>,
    el_ok: Signal<Local, Bit>,
    pop_en: Signal<Local, Bit>,
    pre: [Signal<Local, Bits<4>>; W],
    sel: Signal<Local, Bits<W>>,
    n32: Signal<Local, Zext<4, 32>>,
    reload: Signal<Local, Reload>,
    reload_ext: Signal<Local, Bits<32>>,
    c_is_small: Signal<Local, Bit>,
    // Constants.
    k_el0: K<Bits<2>>,
    k_el1: K<Bits<2>>,
    k_el2: K<Bits<2>>,
    k_one4: K<Bits<4>>,
    k_zero4: K<Bits<4>>,
    k_zero8: K<Bits<8>>,
    k_zero28: K<Bits<28>>,
    z_n32: K<Zext<4, 32>>,
    k_zero32: K<Bits<32>>,
    k_one32: K<Bits<32>>,
    k_zero_w: K<Bits<W>>,
    /// `1 << i` for each slot.
    k_onehot: [K<Bits<W>>; W],
    k_min_interval: K<Bits<24>>,
    k_taps: K<Bits<16>>,
}

impl<const W: usize> SpeSampler<W> {
    pub fn new(cfg: &Config) -> Self {
        assert_eq!(W, cfg.dispatch_width, "dispatch width mismatch");
        assert!((1..=8).contains(&W));
        Self {
            clock: Default::default(),
            reset: Default::default(),
            disp_valid: Default::default(),
            disp_el: Default::default(),
            disp_host: Default::default(),
            disp_aarch32: Default::default(),
            prof_allowed: Default::default(),
            ctl: Default::default(),
            phase: Default::default(),
            busy: Default::default(),
            count: Default::default(),
            tag: Default::default(),
            tag_valid: Default::default(),
            collision: Default::default(),
            pop: Default::default(),
            count_next: Default::default(),
            lfsr: Rff::with_reset(u64::from(impdef::LFSR_SEED).into()),
            el_ok: Default::default(),
            pop_en: Default::default(),
            pre: array_init(),
            sel: Default::default(),
            n32: Default::default(),
            reload: Default::default(),
            reload_ext: Default::default(),
            c_is_small: Default::default(),
            k_el0: K::new(0u64.into()),
            k_el1: K::new(1u64.into()),
            k_el2: K::new(2u64.into()),
            k_one4: K::new(1u64.into()),
            k_zero4: K::new(0u64.into()),
            k_zero8: K::new(0u64.into()),
            k_zero28: K::new(0u64.into()),
            z_n32: K::new(Zext::default()),
            k_zero32: K::new(0u64.into()),
            k_one32: K::new(1u64.into()),
            k_zero_w: K::new(0u64.into()),
            k_onehot: std::array::from_fn(|i| K::new((1u64 << i).into())),
            k_min_interval: K::new(cfg.min_interval_field().into()),
            k_taps: K::new(u64::from(impdef::LFSR_TAPS).into()),
        }
    }
}

/// An array of default signals.
pub(crate) fn array_init<T: Default, const N: usize>() -> [T; N] {
    std::array::from_fn(|_| T::default())
}

impl<const W: usize> Logic for SpeSampler<W> {
    #[hdl_gen]
    fn update(&mut self) {
        // The jitter source steps every cycle (the flop's reset returns it to the seed).
        dff_setup!(self, clock, lfsr);
        self.lfsr.reset.next = self.reset.val();
        self.lfsr.d.next = self.lfsr.q.val() >> 1;
        if self.lfsr.q.val().get_bit(0) {
            self.lfsr.d.next = (self.lfsr.q.val() >> 1) ^ self.k_taps.val();
        }

        // Population enable for the whole group: profiling running and allowed, AArch64,
        // and the EL's enable bit (EL0 in the host uses E0HSPE; never EL3).
        self.el_ok.next = false;
        if self.disp_el.val() == self.k_el0.val() {
            self.el_ok.next = self.ctl.val().el1_e0spe;
            if self.disp_host.val() {
                self.el_ok.next = self.ctl.val().el2_e0hspe;
            }
        }
        if self.disp_el.val() == self.k_el1.val() {
            self.el_ok.next = self.ctl.val().el1_e1spe;
        }
        if self.disp_el.val() == self.k_el2.val() {
            self.el_ok.next = self.ctl.val().el2_e2spe;
        }
        self.pop_en.next = self.el_ok.val()
            & self.ctl.val().prof_en
            & self.prof_allowed.val()
            & !self.disp_aarch32.val()
            & !self.reset.val();

        // Prefix population counts, in slot order.
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
        self.n32.next = self.z_n32.val();
        self.n32.next.set_value_lo(self.pop.val());

        // Selection: the population op whose prefix count equals a non-zero counter. Prefix
        // counts rise by one at each population op, so at most one slot matches.
        self.count.next = self.ctl.val().count;
        self.c_is_small.next = (self.count.val().get_bits::<28>(4) == self.k_zero28.val())
            & (self.count.val() != self.k_zero32.val());
        self.sel.next = self.k_zero_w.val();
        for i in 0..W {
            if self.pop_en.val()
                & self.disp_valid.val().get_bit(i)
                & self.c_is_small.val()
                & (self.count.val().get_bits::<4>(0) == self.pre[i].val())
            {
                self.sel.next = self.k_onehot[i].val();
            }
        }
        self.busy.next = self.phase.val() != SamplePhase::Idle;
        self.tag.next = self.k_zero_w.val();
        if !self.busy.val() {
            self.tag.next = self.sel.val();
        }
        self.tag_valid.next = (self.sel.val() != self.k_zero_w.val()) & !self.busy.val();
        self.collision.next = (self.sel.val() != self.k_zero_w.val()) & self.busy.val();

        // The counter after the group.
        self.reload.next.interval = self.ctl.val().interval;
        if self.ctl.val().interval < self.k_min_interval.val() {
            self.reload.next.interval = self.k_min_interval.val();
        }
        self.reload.next.jitter = self.k_zero8.val();
        if self.ctl.val().rnd {
            self.reload.next.jitter = self.lfsr.q.val().get_bits::<8>(0);
        }
        self.reload_ext.next = self.reload.val().into();
        if self.count.val() >= self.n32.val().to_bits() {
            self.count_next.next = self.count.val() - self.n32.val().to_bits();
        } else {
            self.count_next.next = self.reload_ext.val() + self.count.val() + self.k_one32.val()
                - self.n32.val().to_bits();
        }
    }
}
