//! `spe_arbiter`: the shared writer's round-robin arbiter between the `T` hardware threads'
//! finished records (docs/smt.md, "The shared writer and its arbiter"). Only a unit with
//! more than one thread has it: at T = 1 the writer is always free when the one thread's
//! record asks, and the top grants it directly.
//!
//! ```text
//!  ask[T] (trackers), s_chk | s_wr (busy) --> grant[T] (comb, one-hot or zero)
//!     hi = ask & s_pri                threads after the one granted last
//!     grant = lowest(hi != 0 ? hi : ask), none while busy
//!  at a grant: s_pri = threads above it; s_cur = grant; s_tid = its number; s_chk
//!  s_chk -check_end-> free; -else-> s_wr -wr_done-> free   (the writer's answers)
//!  s_cur[T] (one-hot) and s_tid: the thread whose record holds (or last held) the writer
//!  checking = s_chk, writing = s_wr: the phase of that record, for the writer
//! ```
//!
//! A thread asks in its filter cycle and while it waits; the first asking thread after
//! the one granted last, in thread order and wrapping, is granted in a cycle when the
//! writer is free. So a waiting record is granted after at most T - 1 others. `lowest(x)`
//! is `x & (!x + 1)`, the lowest set bit; "above g" is `!(g | (g - 1))`. At reset no thread
//! has priority over another, so thread 0 is first: the model's `last_grant` = T - 1.
//!
//! The arbiter also keeps the phase of the record that holds the writer, in two flops of
//! its own (`s_chk`: its room check; `s_wr`: its beats): a granted record is in its check
//! the next cycle and moves on as the writer answers, exactly as its thread's tracker
//! moves (docs/smt.md). The writer and the arbiter's `busy` read these flops, not the
//! owner's tracker phase through the thread multiplexer, so no path runs from one thread's
//! phase through the writer's beat handshake into another thread's phase (issue 53, cut 7;
//! `owner.vh` proves the two agree).

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
    /// The writer's answers for the record it holds: its check ends it (no room, or
    /// profiling stopped); its last beat or a fault ends its beats.
    pub check_end: Signal<In, Bit>,
    pub wr_done: Signal<In, Bit>,
    /// The thread granted the writer this cycle (comb; one-hot or zero).
    pub grant: Signal<Out, Bits<T>>,
    /// The thread granted last, one-hot and as a number (from state): the owner of the
    /// record in the writer's check and beats.
    pub cur: Signal<Out, Bits<T>>,
    pub tid: Signal<Out, Bits<TIDW>>,
    /// The record granted last is in its room check, or in its beats (from state).
    pub checking: Signal<Out, Bit>,
    pub writing: Signal<Out, Bit>,
    // State.
    s_pri: Rff<Bits<T>>,
    s_cur: Rff<Bits<T>>,
    s_tid: Rff<Bits<TIDW>>,
    s_chk: Rff<Bit>,
    s_wr: Rff<Bit>,
    // Local signals.
    busy: Signal<Local, Bit>,
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

crate::rff_setup!(
    impl[const T: usize, const TIDW: usize] SpeArbiter<T, TIDW>: s_pri, s_cur, s_tid, s_chk, s_wr
);

impl<const T: usize, const TIDW: usize> crate::flop::Kernel for SpeArbiter<T, TIDW> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, s_pri, s_cur, s_tid, s_chk, s_wr);

        // The held record's phase: its check the cycle after its grant, then its beats
        // unless the check ends it, until its last beat or a fault.
        self.busy.next = self.s_chk.q.val() | self.s_wr.q.val();
        self.s_chk.d.next = false;
        self.s_wr.d.next = (self.s_chk.q.val() & !self.check_end.val())
            | (self.s_wr.q.val() & !self.wr_done.val());

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
            self.s_chk.d.next = true;
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
        self.checking.next = self.s_chk.q.val();
        self.writing.next = self.s_wr.q.val();
    }
}
