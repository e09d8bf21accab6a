//! `spe_writer`: writes a kept record as eight 64-bit beats (sixteen in a unit with
//! 128-byte records) at PMBPTR through the memory write port, advances PMBPTR, and raises
//! the buffer management events.
//!
//! ```text
//!  every cycle: room = (PMBPTR & ~63) vs limit, bits 63:38 and 37:12 --> c_* flops
//!  Free:   take base = PMBPTR & ~63 and the limit (s_base, s_limit), every cycle
//!          (the grant cycle's are the record's)
//!  Check:  stopped (PMBSR.S) --> check_end (dropped: nothing written, no event)
//!          c_* say base >= limit --> check_end: full + DL (nothing written)
//!  Writing (beats, from state): addr = base | beat << 3, data = serializer beat
//!        meanwhile: next = base + 64 in two halves (s_nlo, s_next), next vs limit --> e_* flops
//!        stopped & no beat held (s_held) --> no beat offered, wr_done,
//!                         PMBPTR = this beat's address (unless beat 0)
//!        ready & err  --> abort (kind, FSC, first beat; none when stopped: a held beat),
//!                         PMBPTR = faulting beat address, wr_done
//!        ready        --> next beat; after beat 7: wr_done, PMBPTR = next,
//!                         full when e_* say no room for another record (not when stopped)
//! ```
//!
//! A 128-byte record (`Config::long_records`) is two halves of eight beats: after the
//! first half's beat 7 the record's base moves on by 64 (`s_base`, so the beat address and
//! the next record address follow it); its bit 6, clear in a 128-byte aligned slot, then
//! says the beats are the second half's, whose beat 7 ends the record. "No room" is still
//! `a >= limit` (the slot and the limit aligned).
//!
//! The tracker moves the phase: it sends a kept record to Check, ends it on `check_end` in
//! Check and on `wr_done` in Writing.
//!
//! Profiling stopped (`stopped`, the record's thread's PMBSR.S, set by software while the
//! record is in flight): no byte is written while S is set (J1 `SPEWriteToBuffer`,
//! `SPEProfilingStopped`), so the record ends at its next beat boundary. A beat already
//! offered and not taken (`s_held`) stays offered until taken, as the port's valid/ready
//! rule requires; then no further beat. `wr_valid` is then `Writing & !(stopped & !s_held)`:
//! still from state (the phase, PMBSR and `s_held` are flops).
//!
//! Records are 64-byte aligned and the limit is 4 KiB aligned, so "a record at `a` would
//! reach or pass the limit" is simply `a >= limit`, that is `a[63:12] >= limit[63:12]`
//! (`spe_defs::impdef::CONSTRAINED`). No long carry chain ends in a decision: the
//! comparisons are split in two 26-bit halves, each registered, and the next record address
//! is computed in two registered steps while the beats go out (a record takes at least
//! eight cycles). The room check therefore sees PMBPTR and the limit of the grant cycle (the
//! filter cycle at T = 1), one cycle before it acts (the Check phase), and the check after
//! the last beat uses the limit taken with the record: the model's timing (`verif/model/src/writer.rs`).
//! The write port outputs come from state only and are zero when `wr_valid` is low.

use crate::bundles::{BufferCtl, BufferUpdate, SamplePhase, WriteReq, WriteResp};
use crate::flop::Rff;
use crate::K;
use crate::{Spliced, Zext};
use rust_hdl::prelude::*;
use spe_defs::impdef::{BEAT_BYTES, BEAT_STRB, RECORD_SIZE_LOG2};
use spe_defs::Config;

#[derive(LogicBlock, Default)]
pub struct SpeWriter {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// The phase of the record that holds the writer (tracker): a record's slot is taken
    /// in its grant cycle (any cycle outside Check and Writing), checked in Check and
    /// written in Writing.
    pub phase: Signal<In, SamplePhase>,
    pub ctl: Signal<In, BufferCtl>,
    /// The current beat's data (serializer) and its number.
    pub beat_data: Signal<In, Bits<64>>,
    pub beat: Signal<Out, Bits<3>>,
    // Memory write port.
    pub wr: Signal<Out, WriteReq>,
    pub resp: Signal<In, WriteResp>,
    /// The record's thread's PMBSR.S (profiling stopped).
    pub stopped: Signal<In, Bit>,
    /// The record ends in its Check cycle (profiling stopped, or no room for a record at
    /// PMBPTR: the room check the Check cycle acts on), and the record ended in Writing:
    /// its last beat or a faulting beat was accepted, or profiling stopped between beats.
    /// The tracker's phase follows them.
    pub check_end: Signal<Out, Bit>,
    pub wr_done: Signal<Out, Bit>,
    /// PMBPTR update and management events, for the registers.
    pub upd: Signal<Out, BufferUpdate>,
    /// A multithreaded unit's room check of the record's thread (`spe_room`, same timing as
    /// this block's own): used instead of the own check when `k_ext_room` is set.
    pub room_gone_in: Signal<In, Bit>,
    /// FEAT_SPEv1p3's PMBIDR.EA = 1 (`Options::v1p3`; one element in a unit that builds it,
    /// none otherwise): the PE ignores an external abort on a buffer write
    /// ([`crate::options::v1p3`]; choice: external-abort).
    v1p3: Vec<crate::options::v1p3::WriterV1p3>,
    /// The response's `err`, less an ignored external abort; its kind (a plain signal:
    /// rust-hdl 0.46 writes a bit of a bundle's field as a select of a select, which Yosys
    /// refuses).
    err: Signal<Local, Bit>,
    err_kind: Signal<Local, Bits<2>>,
    /// FEAT_SPE_nVM (`Options::nvm`; one element in a unit that builds it, none
    /// otherwise): the granted thread's address space and PMBMAR attributes
    /// ([`crate::regs`]'s `nvm_ctl`: bits 11:10 the space, 9:0 PMBMAR's SH and Attr),
    /// taken with the slot in the grant cycle and given with each beat (`wr_addr_space`,
    /// `wr_mem_attr`; zero when no beat is offered).
    pub nvm_in: Vec<Signal<In, Bits<12>>>,
    pub nvm_out: Vec<Signal<Out, Bits<12>>>,
    nvm: Vec<crate::options::nvm::WriterNvm>,
    /// 128-byte records (`Config::long_records`; one element in a unit with them, none
    /// otherwise): the beat is in the record's second half (beats 8..15: `beat` gives the
    /// beat within the half), for the serializer; bit 6 of an address (the half).
    pub beat_hi: Vec<Signal<Out, Bit>>,
    hi: Vec<Signal<Local, Bit>>,
    k_half: Vec<K<Bits<64>>>,
    // State.
    /// The next beat; the record's slot and the limit, taken in the grant cycle.
    s_beat: Rff<Bits<3>>,
    /// The beat was offered last cycle and not taken (it stays offered).
    s_held: Rff<Bit>,
    s_base: Rff<Bits<64>>,
    s_limit: Rff<Bits<64>>,
    /// Next record address: bits 37:6 of the slot plus one (with the carry in bit 32),
    /// then the whole address.
    s_nlo: Rff<Bits<33>>,
    s_next: Rff<Spliced<32, 6, 64>>,
    /// Last cycle's slot at PMBPTR against last cycle's limit: bits 63:38 greater, equal;
    /// bits 37:12 greater or equal.
    c_hi_gt: Rff<Bit>,
    c_hi_eq: Rff<Bit>,
    c_lo_ge: Rff<Bit>,
    /// The same for the next record address against the record's limit.
    e_hi_gt: Rff<Bit>,
    e_hi_eq: Rff<Bit>,
    e_lo_ge: Rff<Bit>,
    // Local signals.
    writing: Signal<Local, Bit>,
    checking: Signal<Local, Bit>,
    base: Signal<Local, Bits<64>>,
    limit: Signal<Local, Bits<64>>,
    room_gone: Signal<Local, Bit>,
    stop: Signal<Local, Bit>,
    no_room_next: Signal<Local, Bit>,
    nlo_in: Signal<Local, Zext<32, 33>>,
    beat_addr: Signal<Local, Spliced<3, 3, 64>>,
    // Constants.
    /// The room check comes from outside (`room_gone_in`): more than one thread.
    k_ext_room: K<Bit>,
    k_align: K<Bits<64>>,
    k_last_beat: K<Bits<3>>,
    k_one3: K<Bits<3>>,
    k_one33: K<Bits<33>>,
    k_zero3: K<Bits<3>>,
    k_zero8: K<Bits<8>>,
    k_zero64: K<Bits<64>>,
    k_strb: K<Bits<8>>,
    z_33: K<Zext<32, 33>>,
    /// Bits 63:38 of an address; the carry into bit 38.
    k_hi: K<Bits<64>>,
    k_carry38: K<Bits<64>>,
}

impl SpeWriter {
    pub fn new(cfg: &Config) -> Self {
        cfg.validate().expect("valid configuration");
        assert_eq!(BEAT_BYTES, 8, "the write port carries 64-bit beats");
        assert_eq!(
            RECORD_SIZE_LOG2, 6,
            "a half is bits 63:6, the beat address bits 5:3"
        );
        let long = usize::from(cfg.long_records());
        assert!(
            cfg.record_beats() == 8 << long,
            "one or two halves of eight beats"
        );
        Self {
            k_ext_room: K::new(cfg.threads > 1),
            k_align: K::new((!(cfg.record_size() as u64 - 1)).into()),
            k_last_beat: K::new(7u64.into()),
            beat_hi: (0..long).map(|_| Default::default()).collect(),
            hi: (0..long).map(|_| Default::default()).collect(),
            k_half: (0..long).map(|_| K::new(64u64.into())).collect(),
            k_one3: K::new(1u64.into()),
            k_one33: K::new(1u64.into()),
            k_hi: K::new((!((1u64 << 38) - 1)).into()),
            k_carry38: K::new((1u64 << 38).into()),
            k_strb: K::new(u64::from(BEAT_STRB).into()),
            v1p3: (0..usize::from(spe_defs::config::option::v1p3(cfg)))
                .map(|_| Default::default())
                .collect(),
            nvm_in: (0..usize::from(spe_defs::config::option::nvm(cfg)))
                .map(|_| Default::default())
                .collect(),
            nvm_out: (0..usize::from(spe_defs::config::option::nvm(cfg)))
                .map(|_| Default::default())
                .collect(),
            nvm: (0..usize::from(spe_defs::config::option::nvm(cfg)))
                .map(|_| Default::default())
                .collect(),
            ..Default::default()
        }
    }
}

crate::rff_setup!(
    impl[] SpeWriter: s_beat, s_held, s_base, s_limit, s_nlo, s_next, c_hi_gt, c_hi_eq, c_lo_ge,
    e_hi_gt, e_hi_eq, e_lo_ge; each nvm
);

impl crate::flop::Kernel for SpeWriter {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, s_beat, s_held, s_base, s_limit, s_nlo, s_next, c_hi_gt, c_hi_eq, c_lo_ge,
            e_hi_gt, e_hi_eq, e_lo_ge
        );
        // choice: external-abort
        self.err.next = self.resp.val().err;
        self.err_kind.next = self.resp.val().err_kind;
        for i in 0..self.v1p3.len() {
            self.v1p3[i].err_in.next = self.resp.val().err;
            self.v1p3[i].kind.next = self.resp.val().err_kind;
            self.err.next = self.v1p3[i].err.val();
        }
        self.upd.next.ptr_we = false;
        self.upd.next.ptr = self.k_zero64.val();
        self.upd.next.full = false;
        self.upd.next.full_dl = false;
        self.upd.next.abort = false;
        self.upd.next.abort_kind = self.err_kind.val();
        self.upd.next.abort_fsc = self.resp.val().err_fsc;
        self.upd.next.abort_first = self.s_beat.q.val() == self.k_zero3.val();
        self.wr_done.next = false;

        // Room check, every cycle: the aligned slot at PMBPTR against the limit, registered
        // in two halves of bits 63:12 (the limit's bits 11:0 are zero).
        // PMBPTR's bits 5:0 are ignored. choice: pmbptr-unaligned
        self.base.next = self.ctl.val().ptr & self.k_align.val();
        self.limit.next = self.ctl.val().limit;
        self.c_hi_gt.d.next =
            self.base.val().get_bits::<26>(38) > self.limit.val().get_bits::<26>(38);
        self.c_hi_eq.d.next =
            self.base.val().get_bits::<26>(38) == self.limit.val().get_bits::<26>(38);
        self.c_lo_ge.d.next =
            self.base.val().get_bits::<26>(12) >= self.limit.val().get_bits::<26>(12);
        self.room_gone.next = self.c_hi_gt.q.val() | (self.c_hi_eq.q.val() & self.c_lo_ge.q.val());
        if self.k_ext_room.val() {
            self.room_gone.next = self.room_gone_in.val();
        }
        self.check_end.next = self.room_gone.val() | self.stopped.val();

        // Next record address and its room check, every cycle, from the record's slot and
        // limit (stable from the grant cycle to the end of the record).
        self.nlo_in.next = self.z_33.val();
        self.nlo_in
            .next
            .set_value_at(self.s_base.q.val().get_bits::<32>(6));
        self.s_nlo.d.next = self.nlo_in.val().to_bits() + self.k_one33.val();
        // Bits 63:38 of the slot, plus the carry out of bits 37:6; bits 37:6 from s_nlo.
        self.s_next.d.next = (self.s_base.q.val() & self.k_hi.val()).into();
        if self.s_nlo.q.val().get_bit(32) {
            self.s_next.d.next =
                ((self.s_base.q.val() & self.k_hi.val()) + self.k_carry38.val()).into();
        }
        self.s_next
            .d
            .next
            .set_value_at(self.s_nlo.q.val().get_bits::<32>(0));
        self.e_hi_gt.d.next = self.s_next.q.val().to_bits().get_bits::<26>(38)
            > self.s_limit.q.val().get_bits::<26>(38);
        self.e_hi_eq.d.next = self.s_next.q.val().to_bits().get_bits::<26>(38)
            == self.s_limit.q.val().get_bits::<26>(38);
        self.e_lo_ge.d.next = self.s_next.q.val().to_bits().get_bits::<26>(12)
            >= self.s_limit.q.val().get_bits::<26>(12);
        self.no_room_next.next =
            self.e_hi_gt.q.val() | (self.e_hi_eq.q.val() & self.e_lo_ge.q.val());

        // choice: write-timing
        // Free (no record in its check or beats): take the slot and the limit every cycle,
        // so the grant cycle's are held for the record granted in it (no enable from the
        // same-cycle filter decision or grant).
        self.checking.next = self.phase.val() == SamplePhase::Check;
        self.writing.next = self.phase.val() == SamplePhase::Writing;
        if !self.checking.val() & !self.writing.val() {
            self.s_beat.d.next = self.k_zero3.val();
            self.s_base.d.next = self.base.val();
            self.s_limit.d.next = self.limit.val();
        }

        // Check: no room for the record: buffer full with data loss, nothing written
        // (unless profiling stopped: then it is dropped without an event).
        // choice: no-room, choice: stopped-write
        if self.checking.val() & self.room_gone.val() & !self.stopped.val() {
            self.upd.next.full = true;
            self.upd.next.full_dl = true;
        }

        // choice: write-port
        // Writing: one beat per accepted transfer.
        self.beat_addr.next = self.s_base.q.val().into();
        self.beat_addr.next.set_value_at(self.s_beat.q.val());
        // Profiling stopped at a beat boundary: no new beat; PMBPTR at the first beat not
        // written (as it was when none was). choice: stopped-write
        self.stop.next = self.writing.val() & self.stopped.val() & !self.s_held.q.val();
        self.s_held.d.next = self.writing.val() & !self.stop.val() & !self.resp.val().ready;
        if self.stop.val() {
            self.wr_done.next = true;
            if self.s_beat.q.val() != self.k_zero3.val() {
                self.upd.next.ptr_we = true;
                self.upd.next.ptr = self.beat_addr.val().to_bits();
            }
        } else if self.writing.val() & self.resp.val().ready {
            if self.err.val() {
                // A fault (its kind, FSC and first-beat flag go with `abort`): stop;
                // PMBPTR points at the faulting beat.
                self.wr_done.next = true;
                self.upd.next.ptr_we = true;
                self.upd.next.ptr = self.beat_addr.val().to_bits();
                // No event when S is already set (a held beat taken after software set
                // it): D17.8.3's "and PMBSR_ELx.S is 0". choice: stopped-write
                self.upd.next.abort = !self.stopped.val();
            } else {
                self.s_beat.d.next = self.s_beat.q.val() + self.k_one3.val();
                if self.s_beat.q.val() == self.k_last_beat.val() {
                    // Record done: advance PMBPTR; full when no room for another.
                    self.wr_done.next = true;
                    self.upd.next.ptr_we = true;
                    self.upd.next.ptr = self.s_next.q.val().to_bits();
                    if self.no_room_next.val() & !self.stopped.val() {
                        self.upd.next.full = true;
                    }
                }
            }
        }

        // A 128-byte record: beat 7 of the first half goes on to the second half (the
        // base 64 bytes on, so the beat addresses and the next record address follow, and
        // its bit 6 says which half); the second half's first beat is not the record's
        // first byte.
        for i in 0..self.k_half.len() {
            self.hi[i].next = (self.s_base.q.val() & self.k_half[i].val()).any();
            if self.hi[i].val() {
                self.upd.next.abort_first = false;
                if self.stop.val() {
                    self.upd.next.ptr_we = true;
                    self.upd.next.ptr = self.beat_addr.val().to_bits();
                }
            }
            if self.writing.val()
                & !self.stop.val()
                & self.resp.val().ready
                & !self.err.val()
                & (self.s_beat.q.val() == self.k_last_beat.val())
                & !self.hi[i].val()
            {
                self.wr_done.next = false;
                self.upd.next.ptr_we = false;
                self.upd.next.full = false;
                self.s_base.d.next = self.s_base.q.val() | self.k_half[i].val();
            }
        }

        // Write port (from state; zero when not valid and in reset).
        self.wr.next.valid = self.writing.val() & !self.stop.val() & !self.reset.val();
        self.wr.next.addr = self.k_zero64.val();
        self.wr.next.data = self.k_zero64.val();
        self.wr.next.strb = self.k_zero8.val();
        if self.writing.val() & !self.stop.val() & !self.reset.val() {
            self.wr.next.addr = self.beat_addr.val().to_bits();
            self.wr.next.data = self.beat_data.val();
            self.wr.next.strb = self.k_strb.val();
        }
        // FEAT_SPE_nVM (`options::nvm`): the address space and attributes, taken with the
        // slot, given with each beat.
        for i in 0..self.nvm.len() {
            self.nvm[i].clock.next = self.clock.val();
            self.nvm[i].take.next = !self.checking.val() & !self.writing.val();
            self.nvm[i].ctl.next = self.nvm_in[i].val();
            self.nvm[i].give.next = self.writing.val() & !self.stop.val() & !self.reset.val();
            self.nvm_out[i].next = self.nvm[i].out.val();
        }
        self.beat.next = self.s_beat.q.val();
        // The half, from the flop alone and last: Verilator then orders it apart from the
        // kernel's other outputs (the serializer's beat comes back in `beat_data`).
        for i in 0..self.k_half.len() {
            self.beat_hi[i].next = (self.s_base.q.val() & self.k_half[i].val()).any();
        }
    }
}
