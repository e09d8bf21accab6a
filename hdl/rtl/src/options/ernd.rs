//! FEAT_SPE_ERnd (`Options::ernd`, PMSIDR_EL1.ERnd, preset v1p2x): PMSICR_EL1.ECOUNT. With
//! PMSIRR.RND the reload's low byte is 0 and the random byte goes to ECOUNT instead: the op
//! that brings COUNT to zero loads ECOUNT with it and is sampled only if it is 0, else the
//! population op that brings ECOUNT to zero is (J1 `SPEToCollectSample`).
//!
//! ```text
//!  sampler's kth (COUNT's expiry, one-hot) --> kc --\
//!  LFSR byte, PMSIRR.RND, disp_valid, pop_en --------> [ SamplerErnd: ECOUNT flop ] --> kth --> sampler's target --> rank chain
//!  PMSICR write (icr_we, wdata), reg_addr -----------/                              --> ecount_rd (read-back)
//! ```
//!
//! The sampler keeps the ports (`ecount_wdata`, `ecount_rd`; the register block ORs the
//! read-back into its read data, an option link) and zeroes its reload's low byte; the
//! PMSICR.ECOUNT field is an optional field of PMSICR's register row.

use crate::flop::Rff;
use crate::K;
use rust_hdl::prelude::*;
use spe_defs::regs::pmsicr;

/// The sampler's part (`spe_sampler_ernd_<preset>`) for a dispatch width of `W` slots:
/// ECOUNT's flop, this group's selection and ECOUNT after the group.
#[derive(LogicBlock)]
pub struct SamplerErnd<const W: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// COUNT's expiry this group: the k-th population op, one-hot at k - 1, or zero (from
    /// the sampler's registered values only).
    pub kc: Signal<In, Bits<W>>,
    /// The jitter LFSR's low byte (the random byte r), PMSIRR.RND, the group's valid slots and its population
    /// enable.
    pub rnd_byte: Signal<In, Bits<8>>,
    pub rnd: Signal<In, Bit>,
    pub disp_valid: Signal<In, Bits<W>>,
    pub pop_en: Signal<In, Bit>,
    /// A port write of PMSICR, its ECOUNT field (reg_wdata[63:56]), and the port's address.
    pub icr_we: Signal<In, Bit>,
    pub wdata: Signal<In, Bits<8>>,
    pub reg_addr: Signal<In, Bits<5>>,
    /// The op this group samples, one-hot in slot-rank form, or zero.
    pub kth: Signal<Out, Bits<W>>,
    /// PMSICR.ECOUNT in place (bits 63:56) while the port addresses PMSICR, zero otherwise.
    pub ecount_rd: Signal<Out, Bits<64>>,
    /// PMSICR.ECOUNT now (the previous groups applied), as the port reads it.
    ecount: Rff<Bits<8>>,
    // This group's selection in one-hot form (ECOUNT's position, the positions below the
    // expiry's, the expiry's shifted up by the random byte) and ECOUNT after the group.
    eth: Signal<Local, Bits<W>>,
    below: Signal<Local, Bits<W>>,
    shifted: Signal<Local, Bits<W>>,
    r3: Signal<Local, Bits<3>>,
    cnt8: Signal<Local, Bits<8>>,
    expired: Signal<Local, Bit>,
    after_k: Signal<Local, Bits<8>>,
    m1: Signal<Local, Bits<8>>,
    less_n: Signal<Local, Bits<8>>,
    less_m1: Signal<Local, Bits<8>>,
    rnd_left: Signal<Local, Bits<8>>,
    e_next: Signal<Local, Bits<8>>,
    /// One and zero; `1 << i` and `i + 1` (8 bits) for each slot i; bit 56 + b of 64
    /// (b < 8), to place ECOUNT a bit at a time (the sampler's form, from when ECOUNT was
    /// an indexed signal there; in this block a slice assignment would do, as
    /// `crate::EventSplice` does for the events above bit 15); PMSICR's port address.
    k_one8: K<Bits<8>>,
    k_one_w: K<Bits<W>>,
    k_zero_w: K<Bits<W>>,
    k_zero8: K<Bits<8>>,
    k_zero5: K<Bits<5>>,
    k_zero64: K<Bits<64>>,
    k_onehot: [K<Bits<W>>; W],
    k_kth8: [K<Bits<8>>; W],
    k_b64: [K<Bits<64>>; 8],
    a_pmsicr: K<Bits<5>>,
}

impl<const W: usize> Default for SamplerErnd<W> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            kc: Default::default(),
            rnd_byte: Default::default(),
            rnd: Default::default(),
            disp_valid: Default::default(),
            pop_en: Default::default(),
            icr_we: Default::default(),
            wdata: Default::default(),
            reg_addr: Default::default(),
            kth: Default::default(),
            ecount_rd: Default::default(),
            ecount: Default::default(),
            eth: Default::default(),
            below: Default::default(),
            shifted: Default::default(),
            r3: Default::default(),
            cnt8: Default::default(),
            expired: Default::default(),
            after_k: Default::default(),
            m1: Default::default(),
            less_n: Default::default(),
            less_m1: Default::default(),
            rnd_left: Default::default(),
            e_next: Default::default(),
            k_one8: K::new(1u64.into()),
            k_one_w: K::new(1u64.into()),
            k_zero_w: K::new(0u64.into()),
            k_zero8: K::new(0u64.into()),
            k_zero5: K::new(0u64.into()),
            k_zero64: K::new(0u64.into()),
            k_onehot: std::array::from_fn(|i| K::new((1u64 << i).into())),
            k_kth8: std::array::from_fn(|i| K::new((i as u64 + 1).into())),
            k_b64: std::array::from_fn(|b| K::new(pmsicr::ECOUNT.place(1 << b).into())),
            a_pmsicr: K::new(
                u64::from(spe_defs::regs::reg(spe_defs::regs::RegId::Pmsicr).addr()).into(),
            ),
        }
    }
}

crate::rff_setup!(impl[const W: usize] SamplerErnd<W>: ecount);

impl<const W: usize> crate::flop::Kernel for SamplerErnd<W> {
    #[hdl_gen]
    fn update(&mut self) {
        self.ecount.clock.next = self.clock.val();
        // This group's selection (J1 `SPEToCollectSample`; choice: jitter), in one-hot
        // slot-rank form from registered values only (no adder on the way to the tag):
        // `kc` is COUNT's expiry position (the k-th population op), `eth` the e-th for
        // ECOUNT e now. ECOUNT's op is selected when it comes before the expiry (`eth`
        // below `kc`, or no expiry in reach); otherwise the expiring op, or with RND the
        // (k + r)-th: `kc` shifted up by the random byte r (nothing when r >= 8 > W - k).
        // The first in slot order, as the model (a second selection is dropped).
        self.eth.next = self.k_zero_w.val();
        for i in 0..W {
            if self.ecount.q.val() == self.k_kth8[i].val() {
                self.eth.next = self.k_onehot[i].val();
            }
        }
        self.below.next = self.kc.val() - self.k_one_w.val();
        self.r3.next = self.rnd_byte.val().get_bits::<3>(0);
        self.shifted.next = self.kc.val();
        if self.rnd.val() {
            self.shifted.next = self.k_zero_w.val();
            if self.rnd_byte.val().get_bits::<5>(3) == self.k_zero5.val() {
                self.shifted.next = self.kc.val() << self.r3.val();
            }
        }
        self.kth.next = self.shifted.val();
        if (self.eth.val() & self.below.val()) != self.k_zero_w.val() {
            self.kth.next = self.eth.val();
        }
        self.ecount_rd.next = self.k_zero64.val();
        if self.reg_addr.val() == self.a_pmsicr.val() {
            for b in 0..8 {
                if self.ecount.q.val().get_bit(b) {
                    self.ecount_rd.next = self.ecount_rd.val() | self.k_b64[b].val();
                }
            }
        }

        // ECOUNT after this group, from its population count n. After a COUNT expiry at
        // the k-th op (count_now = k, n >= k) with RND: the random byte less the n - k ops
        // after it; after one without RND: ECOUNT less the n - 1 ops other than the
        // expiring one; otherwise ECOUNT less n; never below zero. A port write of PMSICR
        // sets it. For timing, each outcome is computed from the group's valid slots before
        // the population enable, which comes from the core's inputs through the register
        // file and picks among them last (n = 0 without it: ECOUNT holds); the expiry is
        // `kc`'s one-hot position (count_now = k exactly when kc has bit k - 1), not
        // count_now's adders.
        self.cnt8.next = self.k_zero8.val();
        for i in 0..W {
            if self.disp_valid.val().get_bit(i) {
                self.cnt8.next = self.cnt8.val() + self.k_one8.val();
            }
        }
        self.expired.next = false;
        self.after_k.next = self.k_zero8.val();
        for i in 0..W {
            if self.kc.val().get_bit(i) {
                self.expired.next = self.cnt8.val() >= self.k_kth8[i].val();
                self.after_k.next = self.cnt8.val() - self.k_kth8[i].val();
            }
        }
        self.m1.next = self.cnt8.val() - self.k_one8.val();
        self.less_n.next = self.k_zero8.val();
        if self.ecount.q.val() > self.cnt8.val() {
            self.less_n.next = self.ecount.q.val() - self.cnt8.val();
        }
        self.less_m1.next = self.k_zero8.val();
        if self.ecount.q.val() > self.m1.val() {
            self.less_m1.next = self.ecount.q.val() - self.m1.val();
        }
        self.rnd_left.next = self.k_zero8.val();
        if self.rnd_byte.val() > self.after_k.val() {
            self.rnd_left.next = self.rnd_byte.val() - self.after_k.val();
        }
        self.e_next.next = self.ecount.q.val();
        if self.pop_en.val() {
            self.e_next.next = self.less_n.val();
            if self.expired.val() {
                self.e_next.next = self.less_m1.val();
                if self.rnd.val() {
                    self.e_next.next = self.rnd_left.val();
                }
            }
        }
        self.ecount.d.next = self.e_next.val();
        if self.icr_we.val() {
            self.ecount.d.next = self.wdata.val();
        }
    }
}
