//! `spe_writer`: writes a kept record as eight 64-bit beats at PMBPTR through the memory
//! write port, advances PMBPTR, and raises the buffer management events.
//!
//! ```text
//!  Filter: filtrate & prof_en & !discard --> base = PMBPTR & ~63
//!        base >= limit ----------------------> full + DL (nothing written)
//!        else start (-> Writing), beat 0, addr = base
//!  Writing: wr_valid/addr/data/strb (from state) --> memory
//!        ready & err  --> abort, PMBPTR = faulting beat address, end
//!        ready        --> next beat; after beat 7: end, PMBPTR = base + 64,
//!                         full when no room for another record
//! ```
//!
//! Records are 64-byte aligned and the limit is 4 KiB aligned, so "a record at `a` would
//! reach or pass the limit" is simply `a >= limit` (`spe_defs::impdef::CONSTRAINED`).
//! The write port outputs come from state only and are zero when `wr_valid` is low.

use crate::bundles::{BufferCtl, BufferUpdate, SamplePhase, WriteReq, WriteResp};
use crate::flop::Rff;
use crate::K;
use rust_hdl::prelude::*;
use spe_defs::impdef::{BEATS_PER_RECORD, BEAT_BYTES, BEAT_STRB, RECORD_SIZE};
use spe_defs::Config;

#[derive(LogicBlock, Default)]
pub struct SpeWriter {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// The sample's phase (capture): a record is taken in Filter and written in Writing.
    pub phase: Signal<In, SamplePhase>,
    /// The filters kept the record.
    pub filtrate: Signal<In, Bit>,
    pub ctl: Signal<In, BufferCtl>,
    /// The current beat's data (serializer) and its number.
    pub beat_data: Signal<In, Bits<64>>,
    pub beat: Signal<Out, Bits<3>>,
    // Memory write port.
    pub wr: Signal<Out, WriteReq>,
    pub resp: Signal<In, WriteResp>,
    /// The record goes to memory (Filter -> Writing); its last beat or a fault ends it.
    pub start: Signal<Out, Bit>,
    pub finish: Signal<Out, Bit>,
    /// PMBPTR update and management events, for the registers.
    pub upd: Signal<Out, BufferUpdate>,
    // State.
    s_beat: Rff<Bits<3>>,
    s_addr: Rff<Bits<64>>,
    // Local signals.
    writing: Signal<Local, Bit>,
    base: Signal<Local, Bits<64>>,
    next_addr: Signal<Local, Bits<64>>,
    // Constants.
    k_align: K<Bits<64>>,
    k_beat_bytes: K<Bits<64>>,
    k_last_beat: K<Bits<3>>,
    k_one3: K<Bits<3>>,
    k_zero3: K<Bits<3>>,
    k_zero8: K<Bits<8>>,
    k_zero64: K<Bits<64>>,
    k_strb: K<Bits<8>>,
}

impl SpeWriter {
    pub fn new(cfg: &Config) -> Self {
        cfg.validate().expect("valid configuration");
        assert_eq!(BEAT_BYTES, 8, "the write port carries 64-bit beats");
        assert_eq!(BEATS_PER_RECORD, 8, "the beat counter is 3 bits");
        Self {
            k_align: K::new((!(RECORD_SIZE as u64 - 1)).into()),
            k_beat_bytes: K::new((BEAT_BYTES as u64).into()),
            k_last_beat: K::new((BEATS_PER_RECORD as u64 - 1).into()),
            k_one3: K::new(1u64.into()),
            k_strb: K::new(u64::from(BEAT_STRB).into()),
            ..Default::default()
        }
    }
}

impl Logic for SpeWriter {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, s_beat, s_addr);
        self.s_beat.reset.next = self.reset.val();
        self.s_addr.reset.next = self.reset.val();
        self.upd.next.ptr_we = false;
        self.upd.next.ptr = self.k_zero64.val();
        self.upd.next.full = false;
        self.upd.next.full_dl = false;
        self.upd.next.abort = false;
        self.start.next = false;
        self.finish.next = false;

        // Start: the aligned slot at PMBPTR, if it lies below the limit.
        self.base.next = self.ctl.val().ptr & self.k_align.val();
        if self.filtrate.val() & self.ctl.val().prof_en & !self.ctl.val().discard {
            if self.base.val() >= self.ctl.val().limit {
                self.upd.next.full = true;
                self.upd.next.full_dl = true;
            } else {
                self.start.next = true;
                self.s_beat.d.next = self.k_zero3.val();
                self.s_addr.d.next = self.base.val();
            }
        }

        // Writing: one beat per accepted transfer.
        self.writing.next = self.phase.val() == SamplePhase::Writing;
        self.next_addr.next = self.s_addr.q.val() + self.k_beat_bytes.val();
        if self.writing.val() & self.resp.val().ready {
            if self.resp.val().err {
                // External abort: stop; PMBPTR points at the faulting beat.
                self.finish.next = true;
                self.upd.next.ptr_we = true;
                self.upd.next.ptr = self.s_addr.q.val();
                self.upd.next.abort = true;
            } else {
                self.s_addr.d.next = self.next_addr.val();
                self.s_beat.d.next = self.s_beat.q.val() + self.k_one3.val();
                if self.s_beat.q.val() == self.k_last_beat.val() {
                    // Record done: advance PMBPTR; full when no room for another.
                    self.finish.next = true;
                    self.upd.next.ptr_we = true;
                    self.upd.next.ptr = self.next_addr.val();
                    if self.next_addr.val() >= self.ctl.val().limit {
                        self.upd.next.full = true;
                    }
                }
            }
        }

        // Write port (from state; zero when not valid and in reset).
        self.wr.next.valid = self.writing.val() & !self.reset.val();
        self.wr.next.addr = self.k_zero64.val();
        self.wr.next.data = self.k_zero64.val();
        self.wr.next.strb = self.k_zero8.val();
        if self.writing.val() & !self.reset.val() {
            self.wr.next.addr = self.s_addr.q.val();
            self.wr.next.data = self.beat_data.val();
            self.wr.next.strb = self.k_strb.val();
        }
        self.beat.next = self.s_beat.q.val();
    }
}
