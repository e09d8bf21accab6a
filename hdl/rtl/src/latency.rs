//! `spe_latency`: the three saturating latency counters of the sampled op.
//!
//! ```text
//!  Idle -------------> clear all to 0 (the tag cycle is the last Idle cycle)
//!  Tracking & active -> total += 1                      (saturating at 2^CW - 1)
//!  !issued --------> issue   += 1
//!  xl started, not done -> translation += 1; an accepted start restarts it at 0
//! ```
//!
//! `active`: the thread was active and could issue this cycle (the `thr_active` port of a
//! multithreaded unit; always high with one thread): the counters advance only then.
//!
//! Total counts cycles from the tag cycle to the completion cycle; issue to the issue
//! report (or to completion if the op never issued); translation from the start report to
//! the done report (`spe_defs::impdef::CHOICES`, "Latency counters"). `CW` is 12 or 16
//! (PMSIDR.CountSize).

use crate::bundles::{Progress, SamplePhase};
use crate::flop::Rff;
use crate::K;
use rust_hdl::prelude::*;
use spe_defs::Config;

#[derive(LogicBlock, Default)]
pub struct SpeLatency<const CW: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    // The sample's phase and the op's progress (tracker).
    pub phase: Signal<In, SamplePhase>,
    pub progress: Signal<In, Progress>,
    /// The thread could issue this cycle: the counters advance only then.
    pub active: Signal<In, Bit>,
    // Counter values.
    pub total: Signal<Out, Bits<CW>>,
    pub issue: Signal<Out, Bits<CW>>,
    pub xlat: Signal<Out, Bits<CW>>,
    // State.
    c_total: Rff<Bits<CW>>,
    c_issue: Rff<Bits<CW>>,
    c_xlat: Rff<Bits<CW>>,
    // Constants.
    k_zero: K<Bits<CW>>,
    k_one: K<Bits<CW>>,
    k_max: K<Bits<CW>>,
}

impl<const CW: usize> SpeLatency<CW> {
    pub fn new(cfg: &Config) -> Self {
        assert_eq!(
            CW as u32,
            cfg.counter_width.bits(),
            "counter width mismatch"
        );
        Self {
            k_one: K::new(1u64.into()),
            k_max: K::new(cfg.counter_width.max().into()),
            ..Default::default()
        }
    }
}

crate::rff_setup!(impl[const CW: usize] SpeLatency<CW>: c_total, c_issue, c_xlat);

impl<const CW: usize> crate::flop::Kernel for SpeLatency<CW> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, c_total, c_issue, c_xlat);

        // choice: latency-counters
        if self.phase.val() == SamplePhase::Idle {
            self.c_total.d.next = self.k_zero.val();
            self.c_issue.d.next = self.k_zero.val();
            self.c_xlat.d.next = self.k_zero.val();
        }
        if (self.phase.val() == SamplePhase::Tracking) & self.active.val() {
            if self.c_total.q.val() != self.k_max.val() {
                self.c_total.d.next = self.c_total.q.val() + self.k_one.val();
            }
            if !self.progress.val().issued & (self.c_issue.q.val() != self.k_max.val()) {
                self.c_issue.d.next = self.c_issue.q.val() + self.k_one.val();
            }
            if self.progress.val().xl_started
                & !self.progress.val().xl_done
                & (self.c_xlat.q.val() != self.k_max.val())
            {
                self.c_xlat.d.next = self.c_xlat.q.val() + self.k_one.val();
            }
        }
        if (self.phase.val() == SamplePhase::Tracking) & self.progress.val().xl_restart {
            self.c_xlat.d.next = self.k_zero.val();
        }
        self.total.next = self.c_total.q.val();
        self.issue.next = self.c_issue.q.val();
        self.xlat.next = self.c_xlat.q.val();
    }
}
