//! Buffer writer: writes a record as eight 64-bit beats (sixteen for a 128-byte record) at
//! PMBPTR through the memory write port (valid/ready, error response), never at or past
//! the limit; raises the buffer-full management event after a record that leaves no room
//! for another, and the external-abort event on a write error (no further writes).
//!
//! Timing (an implementation choice, SPE leaving write timing to the implementation). A kept
//! record takes PMBPTR and PMBLIMITR as they are in its filter cycle ([`take`]); the next
//! cycle is the *check* cycle ([`Write::check`]): a record that would reach or pass the
//! limit raises buffer-full with DL there (nothing written), otherwise the beats start in
//! the cycle after it. The buffer-full check after the last beat uses the limit taken in
//! the filter cycle (a PMBLIMITR write during the record does not move it).
//!
//! Profiling stopped (PMBSR.S set by software while a record is in flight): no further
//! beat ([`Write::stops`], [`Write::stop`]); a beat already offered stays offered until
//! taken.

use crate::record::Record;
use crate::regs::Regs;
use spe_defs::impdef::{BEAT_BYTES, BEAT_STRB};
use spe_defs::regs::{pmbsr, RegId};

/// A record being written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Write {
    pub record: Record,
    /// Address of the record's first byte (aligned to the record's size).
    pub base: u64,
    /// The limit (PMBLIMITR.LIMIT << 12) taken with `base` in the filter cycle.
    pub limit: u64,
    /// Next beat, 0..8 (0..16 for a 128-byte record).
    pub beat: usize,
    /// The beat was offered last cycle and not taken: it stays offered until it is.
    pub held: bool,
    /// FEAT_SPE_nVM: the address space and PMBMAR attributes taken with `base`
    /// (`Regs::buffer_space`; virtual and zero in a unit without it).
    pub space: u8,
    pub mem_attr: u16,
}

/// The aligned slot address PMBPTR designates for `size`-byte records (bits 5:0, or 6:0,
/// ignored). choice: pmbptr-unaligned
pub fn slot_base(ptr: u64, size: usize) -> u64 {
    ptr & !(size as u64 - 1)
}

/// True when a `size`-byte record at `base` would reach or pass the limit.
pub fn past_limit(base: u64, limit: u64, size: usize) -> bool {
    u128::from(base) + size as u128 > u128::from(limit)
}

/// Takes a kept record in its filter cycle: its slot at PMBPTR and the limit, as they are
/// in this cycle, and (FEAT_SPE_nVM) the address space its regime gives (`own_el1`: EL2
/// enabled and EL1 owning the buffer). Nothing is decided yet: the next cycle is the check
/// cycle. choice: write-timing
pub fn take(regs: &Regs, record: Record, own_el1: bool) -> Write {
    let (space, mem_attr) = regs.buffer_space(own_el1);
    Write {
        base: slot_base(regs.get(RegId::Pmbptr), record.len()),
        record,
        limit: regs.limit(),
        beat: 0,
        held: false,
        space,
        mem_attr,
    }
}

impl Write {
    /// The check cycle: raises buffer-full with data loss when the record has no room
    /// (nothing is written then, None); otherwise the beats start in the next cycle.
    /// choice: no-room
    pub fn check(self, regs: &mut Regs) -> Option<Write> {
        if past_limit(self.base, self.limit, self.record.len()) {
            regs.management_event(pmbsr::EC_BUF, pmbsr::BSC_FULL, false, true);
            None
        } else {
            Some(self)
        }
    }

    pub fn addr(&self) -> u64 {
        self.base.wrapping_add((self.beat * BEAT_BYTES) as u64)
    }
    pub fn data(&self) -> u64 {
        let o = self.beat * BEAT_BYTES;
        u64::from_le_bytes(self.record[o..o + BEAT_BYTES].try_into().expect("8 bytes"))
    }
    pub const STRB: u8 = BEAT_STRB;

    /// Profiling is stopped (PMBSR.S = 1, J1 `SPEProfilingStopped`) at a beat boundary (no
    /// beat `held`): no byte is written while S is set (J1 `SPEWriteToBuffer`), so the
    /// record ends here ([`Write::stop`]) without a new beat. A beat already offered is not
    /// withdrawn. choice: stopped-write
    pub fn stops(&self, regs: &Regs) -> bool {
        !self.held && regs.stopped()
    }

    /// Ends a stopped record: PMBPTR becomes the address of the first byte not written (J1
    /// advances it per byte written), or stays as it was when nothing was written. No
    /// management event. choice: stopped-write
    pub fn stop(self, regs: &mut Regs) {
        if self.beat > 0 {
            regs.set(RegId::Pmbptr, self.addr());
        }
    }

    /// One cycle with the beat offered; `err` is a fault on the beat, with its kind and FSC
    /// (`wr_err_kind`, `wr_err_fsc`). Returns the write still in progress, or None when the
    /// record is done or faulted (PMBPTR and PMBSR updated), and whether this cycle raised
    /// the buffer-full management event (SAMPLE_BUFFER_FULL).
    /// choice: write-port, choice: write-timing
    pub fn cycle(
        mut self,
        regs: &mut Regs,
        ready: bool,
        err: Option<(u8, u8)>,
    ) -> (Option<Write>, bool) {
        self.held = !ready;
        if !ready {
            return (Some(self), false);
        }
        // D17.8.2, D17.8.3 (J1 OtherSPEManagementEvent): a management event only "if
        // PMBSR_ELx.S is 0". S set by software while this beat was held: the beat ends as it
        // would, and PMBSR stays as software wrote it. choice: stopped-write
        let stopped = regs.stopped();
        if let Some((kind, fsc)) = err {
            // A fault: stop; PMBPTR holds the faulting address. D17.8.3/D17.8.4: EC by
            // stage, the FSC in MSS, EA set by an external abort, else unchanged, DL unless the fault is
            // at the record's first byte (then DL is unchanged).
            regs.set(RegId::Pmbptr, self.addr());
            if !stopped {
                regs.fault_event(kind, fsc, self.beat == 0);
            }
            return (None, false);
        }
        self.beat += 1;
        if self.beat < self.record.len() / BEAT_BYTES {
            return (Some(self), false);
        }
        let next = self.base.wrapping_add(self.record.len() as u64);
        regs.set(RegId::Pmbptr, next);
        // SPEBufferIsFull: no room for another maximum-size record (against the limit taken
        // with the record).
        let full = past_limit(next, self.limit, self.record.len()) && !stopped;
        if full {
            regs.management_event(pmbsr::EC_BUF, pmbsr::BSC_FULL, false, false);
        }
        (None, full)
    }
}
