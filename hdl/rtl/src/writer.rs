//! `spe_writer`: writes a kept record as eight 64-bit beats at PMBPTR through the memory
//! write port, advances PMBPTR, and raises the buffer management events.
//!
//! ```text
//!  start (filtrate & prof_en & !discard) --> base = PMBPTR & ~63
//!        base >= limit ----------------------> ev_full + DL (nothing written)
//!        else writing, beat 0, addr = base
//!  writing: wr_valid/addr/data/strb (from state) --> memory
//!        ready & err  --> ev_abort, PMBPTR = faulting beat address, stop
//!        ready        --> next beat; after beat 7: PMBPTR = base + 64,
//!                         ev_full when no room for another record
//! ```
//!
//! Records are 64-byte aligned and the limit is 4 KiB aligned, so "a record at `a` would
//! reach or pass the limit" is simply `a >= limit` (`spe_defs::impdef::CONSTRAINED`).
//! The write port outputs come from state only and are zero when `wr_valid` is low.

use crate::flop::Rff;
use rust_hdl::prelude::*;
use spe_defs::impdef::{BEATS_PER_RECORD, BEAT_BYTES, BEAT_STRB, RECORD_SIZE};
use spe_defs::Config;

#[derive(LogicBlock)]
pub struct SpeWriter {
    // Clock and reset.
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    // Start condition parts.
    pub filtrate: Signal<In, Bit>,
    pub prof_en: Signal<In, Bit>,
    pub discard: Signal<In, Bit>,
    // Buffer registers.
    pub ptr: Signal<In, Bits<64>>,
    pub limit: Signal<In, Bits<64>>,
    /// The current beat's data (from the serializer).
    pub beat_data: Signal<In, Bits<64>>,
    // Memory write port.
    pub wr_valid: Signal<Out, Bit>,
    pub wr_addr: Signal<Out, Bits<64>>,
    pub wr_data: Signal<Out, Bits<64>>,
    pub wr_strb: Signal<Out, Bits<8>>,
    pub wr_ready: Signal<In, Bit>,
    pub wr_err: Signal<In, Bit>,
    // Status.
    pub writing: Signal<Out, Bit>,
    pub beat: Signal<Out, Bits<3>>,
    // Register updates.
    pub ptr_we: Signal<Out, Bit>,
    pub ptr_d: Signal<Out, Bits<64>>,
    pub ev_full: Signal<Out, Bit>,
    pub ev_full_dl: Signal<Out, Bit>,
    pub ev_abort: Signal<Out, Bit>,
    // State.
    s_writing: Rff<Bit>,
    s_beat: Rff<Bits<3>>,
    s_addr: Rff<Bits<64>>,
    // Local signals.
    base: Signal<Local, Bits<64>>,
    next_addr: Signal<Local, Bits<64>>,
    // Constants.
    k_align: Constant<Bits<64>>,
    k_beat_bytes: Constant<Bits<64>>,
    k_last_beat: Constant<Bits<3>>,
    k_one3: Constant<Bits<3>>,
    k_zero3: Constant<Bits<3>>,
    k_zero8: Constant<Bits<8>>,
    k_zero64: Constant<Bits<64>>,
    k_strb: Constant<Bits<8>>,
}

impl SpeWriter {
    pub fn new(cfg: &Config) -> Self {
        cfg.validate().expect("valid configuration");
        assert_eq!(BEAT_BYTES, 8, "the write port carries 64-bit beats");
        assert_eq!(BEATS_PER_RECORD, 8, "the beat counter is 3 bits");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            filtrate: Default::default(),
            prof_en: Default::default(),
            discard: Default::default(),
            ptr: Default::default(),
            limit: Default::default(),
            beat_data: Default::default(),
            wr_valid: Default::default(),
            wr_addr: Default::default(),
            wr_data: Default::default(),
            wr_strb: Default::default(),
            wr_ready: Default::default(),
            wr_err: Default::default(),
            writing: Default::default(),
            beat: Default::default(),
            ptr_we: Default::default(),
            ptr_d: Default::default(),
            ev_full: Default::default(),
            ev_full_dl: Default::default(),
            ev_abort: Default::default(),
            s_writing: Rff::default(),
            s_beat: Rff::default(),
            s_addr: Rff::default(),
            base: Default::default(),
            next_addr: Default::default(),
            k_align: Constant::new((!(RECORD_SIZE as u64 - 1)).into()),
            k_beat_bytes: Constant::new((BEAT_BYTES as u64).into()),
            k_last_beat: Constant::new((BEATS_PER_RECORD as u64 - 1).into()),
            k_one3: Constant::new(1u64.into()),
            k_zero3: Constant::new(0u64.into()),
            k_zero8: Constant::new(0u64.into()),
            k_zero64: Constant::new(0u64.into()),
            k_strb: Constant::new(u64::from(BEAT_STRB).into()),
        }
    }
}

impl Logic for SpeWriter {
    #[hdl_gen]
    fn update(&mut self) {
        self.s_writing.clock.next = self.clock.val();
        self.s_beat.clock.next = self.clock.val();
        self.s_addr.clock.next = self.clock.val();
        self.s_writing.reset.next = self.reset.val();
        self.s_beat.reset.next = self.reset.val();
        self.s_addr.reset.next = self.reset.val();
        self.s_writing.d.next = self.s_writing.q.val();
        self.s_beat.d.next = self.s_beat.q.val();
        self.s_addr.d.next = self.s_addr.q.val();
        self.ptr_we.next = false;
        self.ptr_d.next = self.k_zero64.val();
        self.ev_full.next = false;
        self.ev_full_dl.next = false;
        self.ev_abort.next = false;

        // Start: the aligned slot at PMBPTR, if it lies below the limit.
        self.base.next = self.ptr.val() & self.k_align.val();
        if self.filtrate.val() & self.prof_en.val() & !self.discard.val() {
            if self.base.val() >= self.limit.val() {
                self.ev_full.next = true;
                self.ev_full_dl.next = true;
            } else {
                self.s_writing.d.next = true;
                self.s_beat.d.next = self.k_zero3.val();
                self.s_addr.d.next = self.base.val();
            }
        }

        // Writing: one beat per accepted transfer.
        self.next_addr.next = self.s_addr.q.val() + self.k_beat_bytes.val();
        if self.s_writing.q.val() & self.wr_ready.val() {
            if self.wr_err.val() {
                // External abort: stop; PMBPTR points at the faulting beat.
                self.s_writing.d.next = false;
                self.ptr_we.next = true;
                self.ptr_d.next = self.s_addr.q.val();
                self.ev_abort.next = true;
            } else {
                self.s_addr.d.next = self.next_addr.val();
                self.s_beat.d.next = self.s_beat.q.val() + self.k_one3.val();
                if self.s_beat.q.val() == self.k_last_beat.val() {
                    // Record done: advance PMBPTR; full when no room for another.
                    self.s_writing.d.next = false;
                    self.ptr_we.next = true;
                    self.ptr_d.next = self.next_addr.val();
                    if self.next_addr.val() >= self.limit.val() {
                        self.ev_full.next = true;
                    }
                }
            }
        }

        // Write port (from state; zero when not valid and in reset).
        self.wr_valid.next = self.s_writing.q.val() & !self.reset.val();
        self.wr_addr.next = self.k_zero64.val();
        self.wr_data.next = self.k_zero64.val();
        self.wr_strb.next = self.k_zero8.val();
        if self.s_writing.q.val() & !self.reset.val() {
            self.wr_addr.next = self.s_addr.q.val();
            self.wr_data.next = self.beat_data.val();
            self.wr_strb.next = self.k_strb.val();
        }
        self.writing.next = self.s_writing.q.val();
        self.beat.next = self.s_beat.q.val();
    }
}
