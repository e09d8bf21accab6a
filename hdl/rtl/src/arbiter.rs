//! `spe_arbiter`: the shared writer's round-robin arbiter between the `T` hardware threads'
//! finished records (docs/smt.md, "The shared writer and its arbiter"). Only a unit with
//! more than one thread has it: at T = 1 the writer is always free when the one thread's
//! record asks, and the top grants it directly.
//!
//! ```text
//!  ask[T] (trackers), busy (writer) --> grant[T] (comb, one-hot or zero)
//!     hi = ask & s_pri                threads after the one granted last
//!     grant = lowest(hi != 0 ? hi : ask), none while busy
//!  at a grant: s_pri = threads above it; s_cur = grant; s_tid = its number
//!  s_cur[T] (one-hot) and s_tid: the thread whose record holds (or last held) the writer
//! ```
//!
//! A thread asks in its filter cycle and while it waits; the first asking thread after
//! the one granted last, in thread order and wrapping, is granted in a cycle when the
//! writer is free. So a waiting record is granted after at most T - 1 others. `lowest(x)`
//! is `x & (!x + 1)`, the lowest set bit; "above g" is `!(g | (g - 1))`. At reset no thread
//! has priority over another, so thread 0 is first: the model's `last_grant` = T - 1.

use crate::flop::Rff;
use crate::K;
use rust_hdl::prelude::*;

/// The arbiter for `T` threads, thread numbers `TIDW` bits wide (`T` = 2^`TIDW`).
#[derive(LogicBlock, Default)]
pub struct SpeArbiter<const T: usize, const TIDW: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// Thread t's record asks for the writer (bit t).
    pub ask: Signal<In, Bits<T>>,
    /// The writer holds a record (in its check or beats) this cycle.
    pub busy: Signal<In, Bit>,
    /// The thread granted the writer this cycle (comb; one-hot or zero).
    pub grant: Signal<Out, Bits<T>>,
    /// The thread granted last, one-hot and as a number (from state): the owner of the
    /// record in the writer's check and beats.
    pub cur: Signal<Out, Bits<T>>,
    pub tid: Signal<Out, Bits<TIDW>>,
    // State.
    s_pri: Rff<Bits<T>>,
    s_cur: Rff<Bits<T>>,
    s_tid: Rff<Bits<TIDW>>,
    // Local signals.
    hi: Signal<Local, Bits<T>>,
    pool: Signal<Local, Bits<T>>,
    pick: Signal<Local, Bits<T>>,
    // Constants: zero, one, and each thread's number.
    k_zero: K<Bits<T>>,
    k_one: K<Bits<T>>,
    k_tid: Vec<K<Bits<TIDW>>>,
}

impl<const T: usize, const TIDW: usize> SpeArbiter<T, TIDW> {
    pub fn new() -> Self {
        assert!(
            T >= 2 && T == 1 << TIDW,
            "the arbiter serves 2^TIDW >= 2 threads"
        );
        Self {
            s_cur: Rff::with_reset(1u64.into()),
            k_one: K::new(1u64.into()),
            k_tid: (0..T).map(|t| K::new((t as u64).into())).collect(),
            ..Default::default()
        }
    }
}

impl<const T: usize, const TIDW: usize> Logic for SpeArbiter<T, TIDW> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, s_pri, s_cur, s_tid);
        self.s_pri.reset.next = self.reset.val();
        self.s_cur.reset.next = self.reset.val();
        self.s_tid.reset.next = self.reset.val();

        // Round robin: the threads after the one granted last first, then from thread 0.
        self.hi.next = self.ask.val() & self.s_pri.q.val();
        self.pool.next = self.ask.val();
        if self.hi.val() != self.k_zero.val() {
            self.pool.next = self.hi.val();
        }
        self.pick.next = self.pool.val() & (!self.pool.val() + self.k_one.val());
        self.grant.next = self.k_zero.val();
        if !self.busy.val() & !self.reset.val() {
            self.grant.next = self.pick.val();
        }
        if self.grant.val() != self.k_zero.val() {
            self.s_pri.d.next = !(self.grant.val() | (self.grant.val() - self.k_one.val()));
            self.s_cur.d.next = self.grant.val();
            for t in 0..T {
                if self.grant.val().get_bit(t) {
                    self.s_tid.d.next = self.k_tid[t].val();
                }
            }
        }
        self.cur.next = self.s_cur.q.val();
        self.tid.next = self.s_tid.q.val();
    }
}
