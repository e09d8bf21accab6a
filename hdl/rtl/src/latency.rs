//! `spe_latency`: the three saturating latency counters of the sampled op.
//!
//! ```text
//!  tag_valid ---------> clear all to 0
//!  tracking -------> total   += 1                      (saturating at 2^CW - 1)
//!  !issued --------> issue   += 1
//!  xl started, not done -> translation += 1; an accepted start restarts it at 0
//! ```
//!
//! Total counts cycles from the tag cycle to the completion cycle; issue to the issue
//! report (or to completion if the op never issued); translation from the start report to
//! the done report (`spe_defs::impdef::CHOICES`, "Latency counters"). `CW` is 12 or 16
//! (PMSIDR.CountSize).

use crate::flop::Rff;
use rust_hdl::prelude::*;
use spe_defs::Config;

#[derive(LogicBlock)]
pub struct SpeLatency<const CW: usize> {
    // Clock and reset.
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    // Controls from the capture block.
    pub tag_valid: Signal<In, Bit>,
    pub tracking: Signal<In, Bit>,
    pub issued: Signal<In, Bit>,
    pub xl_started: Signal<In, Bit>,
    pub xl_done: Signal<In, Bit>,
    pub xl_start_acc: Signal<In, Bit>,
    // Counter values.
    pub total: Signal<Out, Bits<CW>>,
    pub issue: Signal<Out, Bits<CW>>,
    pub xlat: Signal<Out, Bits<CW>>,
    // State.
    c_total: Rff<Bits<CW>>,
    c_issue: Rff<Bits<CW>>,
    c_xlat: Rff<Bits<CW>>,
    // Constants.
    k_zero: Constant<Bits<CW>>,
    k_one: Constant<Bits<CW>>,
    k_max: Constant<Bits<CW>>,
}

impl<const CW: usize> SpeLatency<CW> {
    pub fn new(cfg: &Config) -> Self {
        assert_eq!(
            CW as u32,
            cfg.counter_width.bits(),
            "counter width mismatch"
        );
        Self {
            clock: Default::default(),
            reset: Default::default(),
            tag_valid: Default::default(),
            tracking: Default::default(),
            issued: Default::default(),
            xl_started: Default::default(),
            xl_done: Default::default(),
            xl_start_acc: Default::default(),
            total: Default::default(),
            issue: Default::default(),
            xlat: Default::default(),
            c_total: Rff::default(),
            c_issue: Rff::default(),
            c_xlat: Rff::default(),
            k_zero: Constant::new(0u64.into()),
            k_one: Constant::new(1u64.into()),
            k_max: Constant::new(cfg.counter_width.max().into()),
        }
    }
}

impl<const CW: usize> Logic for SpeLatency<CW> {
    #[hdl_gen]
    fn update(&mut self) {
        self.c_total.clock.next = self.clock.val();
        self.c_issue.clock.next = self.clock.val();
        self.c_xlat.clock.next = self.clock.val();
        self.c_total.reset.next = self.reset.val();
        self.c_issue.reset.next = self.reset.val();
        self.c_xlat.reset.next = self.reset.val();
        self.c_total.d.next = self.c_total.q.val();
        self.c_issue.d.next = self.c_issue.q.val();
        self.c_xlat.d.next = self.c_xlat.q.val();

        if self.tag_valid.val() {
            self.c_total.d.next = self.k_zero.val();
            self.c_issue.d.next = self.k_zero.val();
            self.c_xlat.d.next = self.k_zero.val();
        }
        if self.tracking.val() {
            if self.c_total.q.val() != self.k_max.val() {
                self.c_total.d.next = self.c_total.q.val() + self.k_one.val();
            }
            if !self.issued.val() & (self.c_issue.q.val() != self.k_max.val()) {
                self.c_issue.d.next = self.c_issue.q.val() + self.k_one.val();
            }
            if self.xl_started.val()
                & !self.xl_done.val()
                & (self.c_xlat.q.val() != self.k_max.val())
            {
                self.c_xlat.d.next = self.c_xlat.q.val() + self.k_one.val();
            }
            if self.xl_start_acc.val() {
                self.c_xlat.d.next = self.k_zero.val();
            }
        }
        self.total.next = self.c_total.q.val();
        self.issue.next = self.c_issue.q.val();
        self.xlat.next = self.c_xlat.q.val();
    }
}
