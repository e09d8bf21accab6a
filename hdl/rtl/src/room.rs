//! `spe_room`: one hardware thread's buffer-room check, in a multithreaded unit.
//!
//! ```text
//!  every cycle: (PMBPTR & ~(slot - 1)) vs PMBLIMITR, bits 63:38 and 37:12 --> c_* flops --> gone
//! ```
//!
//! The writer of a one-thread unit makes this check itself, from the buffer controls it
//! takes with a record. With T threads the writer's controls come through the arbiter's
//! same-cycle grant, and a check behind that multiplexer sat on the longest path of `smt2`
//! (a tracker's reports, the filter's verdict, the grant, the multiplexer, the 26-bit
//! compares). So each thread checks its own buffer every cycle, registered as the writer
//! does (the same `a >= limit` on bits 63:12 in two halves), and the writer's check cycle
//! reads the owner's result: the PMBPTR and limit of the grant cycle, as before. (The lower
//! half compares bits 37:0, the same verdict as bits 37:12 because the limit's low 12 bits
//! are zero, and every bit of the controls is then used: Verilator's -Wall.)

use crate::bundles::BufferCtl;
use crate::flop::Rff;
use crate::K;
use rust_hdl::prelude::*;
use spe_defs::Config;

#[derive(LogicBlock, Default)]
pub struct SpeRoom {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// The thread's PMBPTR and limit.
    pub ctl: Signal<In, BufferCtl>,
    /// Last cycle's slot at PMBPTR reaches or passes last cycle's limit (from state).
    pub gone: Signal<Out, Bit>,
    c_hi_gt: Rff<Bit>,
    c_hi_eq: Rff<Bit>,
    c_lo_ge: Rff<Bit>,
    base: Signal<Local, Bits<64>>,
    limit: Signal<Local, Bits<64>>,
    k_align: K<Bits<64>>,
}

impl SpeRoom {
    pub fn new(cfg: &Config) -> Self {
        Self {
            k_align: K::new((!(cfg.record_size() as u64 - 1)).into()),
            ..Default::default()
        }
    }
}

crate::rff_setup!(impl[] SpeRoom: c_hi_gt, c_hi_eq, c_lo_ge);

impl crate::flop::Kernel for SpeRoom {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, c_hi_gt, c_hi_eq, c_lo_ge);
        self.base.next = self.ctl.val().ptr & self.k_align.val();
        self.limit.next = self.ctl.val().limit;
        self.c_hi_gt.d.next =
            self.base.val().get_bits::<26>(38) > self.limit.val().get_bits::<26>(38);
        self.c_hi_eq.d.next =
            self.base.val().get_bits::<26>(38) == self.limit.val().get_bits::<26>(38);
        // Bits 37:0: the limit's bits 11:0 are zero (PMBLIMITR.LIMIT is bits 63:12), so this
        // is the writer's bits-37:12 comparison.
        self.c_lo_ge.d.next =
            self.base.val().get_bits::<38>(0) >= self.limit.val().get_bits::<38>(0);
        self.gone.next = self.c_hi_gt.q.val() | (self.c_hi_eq.q.val() & self.c_lo_ge.q.val());
    }
}
