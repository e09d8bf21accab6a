//! The events above bit 15 (`spe_defs::events::has_high_events`: a unit with
//! `Options::sve_events`, `Options::v1p4_events` or `Options::sme`): the Events payload is
//! 4 bytes, and PMSEVFR_EL1 / PMSNEVFR_EL1 filter on its bits 31:16 too (J1
//! `SPEFilterByEvents`). Each option's events are its own block in the tracker
//! ([`super::sve_events`], [`super::v1p4_events`], [`super::sme`]); what they share
//! is here: the two registers' high bits, the filter's compare, and the held-flags block
//! SPEv1p4's and SME's events each instantiate (`TrackerHeldEvents<N>`, one event a
//! flag), and the serializer's splice of the bits into the record's beat 6.
//!
//! ```text
//!  register port (write of PMSEVFR / PMSNEVFR) --> [ RegsEventsHi: bits 31:16 ] --> evfr, nevfr (read-back, filter)
//!  sample's events 31:16 (tracker), evfr, nevfr --> [ FilterEventsHi ] ---------> ev_ok, nev_ok
//!  a hook report's N flags, take, gate ----------> [ TrackerHeldEvents<N> ] ---> word (events 31:16, tracker)
//!  beat, Timestamp, its enable, events 31:16 ----> [ SerializerEventsHi ] --> sel, keep, word (beats 6 and 7)
//! ```

use crate::flop::Rff;
use crate::{hi_events, EventSplice, HI_EVENTS_IN_BEAT6, HI_EVENT_BITS, K};
use rust_hdl::prelude::*;
use spe_defs::packet;
use spe_defs::regs::{reg, RegId};
use spe_defs::Config;

/// The register block's part (`spe_regs_events_hi_<preset>`): PMSEVFR's and PMSNEVFR's
/// bits 31:16 (event 16 at bit 0), written by the port with the unit's filterable events
/// above bit 15 (`spe_defs::events::filterable_mask`), zero after reset.
#[derive(LogicBlock)]
pub struct RegsEventsHi {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// A port write, its address and the write data's bits 31:16.
    pub wr: Signal<In, Bit>,
    pub reg_addr: Signal<In, Bits<5>>,
    pub wdata: Signal<In, Bits<HI_EVENT_BITS>>,
    pub evfr: Signal<Out, Bits<HI_EVENT_BITS>>,
    pub nevfr: Signal<Out, Bits<HI_EVENT_BITS>>,
    v_evfr: Rff<Bits<HI_EVENT_BITS>>,
    v_nevfr: Rff<Bits<HI_EVENT_BITS>>,
    a_pmsevfr: K<Bits<5>>,
    a_pmsnevfr: K<Bits<5>>,
    m_ev_hi: K<Bits<HI_EVENT_BITS>>,
}

impl RegsEventsHi {
    pub fn new(cfg: &Config) -> Self {
        let a = |r: RegId| K::new(u64::from(reg(r).addr()).into());
        Self {
            clock: Default::default(),
            reset: Default::default(),
            wr: Default::default(),
            reg_addr: Default::default(),
            wdata: Default::default(),
            evfr: Default::default(),
            nevfr: Default::default(),
            v_evfr: Default::default(),
            v_nevfr: Default::default(),
            a_pmsevfr: a(RegId::Pmsevfr),
            a_pmsnevfr: a(RegId::Pmsnevfr),
            m_ev_hi: K::new(hi_events(spe_defs::events::filterable_mask(cfg))),
        }
    }
}

crate::rff_setup!(impl[] RegsEventsHi: v_evfr, v_nevfr);

impl crate::flop::Kernel for RegsEventsHi {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, v_evfr, v_nevfr);
        if self.wr.val() & (self.reg_addr.val() == self.a_pmsevfr.val()) {
            self.v_evfr.d.next = self.wdata.val() & self.m_ev_hi.val();
        }
        if self.wr.val() & (self.reg_addr.val() == self.a_pmsnevfr.val()) {
            self.v_nevfr.d.next = self.wdata.val() & self.m_ev_hi.val();
        }
        self.evfr.next = self.v_evfr.q.val();
        self.nevfr.next = self.v_nevfr.q.val();
    }
}

/// The filter's part (`spe_filter_events_hi_<preset>`): the sample's events 31:16 have
/// every event PMSEVFR selects there (`ev_ok`) and none PMSNEVFR selects (`nev_ok`); the
/// filter ANDs them with its bits 15:0 under PMSFCR.FE and FnE.
#[derive(LogicBlock, Default)]
pub struct FilterEventsHi {
    pub ev: Signal<In, Bits<HI_EVENT_BITS>>,
    pub evfr: Signal<In, Bits<HI_EVENT_BITS>>,
    pub nevfr: Signal<In, Bits<HI_EVENT_BITS>>,
    pub ev_ok: Signal<Out, Bit>,
    pub nev_ok: Signal<Out, Bit>,
    k_zero: K<Bits<HI_EVENT_BITS>>,
}

impl Logic for FilterEventsHi {
    #[hdl_gen]
    fn update(&mut self) {
        self.ev_ok.next = (self.ev.val() & self.evfr.val()) == self.evfr.val();
        self.nev_ok.next = (self.ev.val() & self.nevfr.val()) == self.k_zero.val();
    }
}

/// The tracker's part of an option whose events above bit 15 are flags of a hook report,
/// one event each (`spe_tracker_v1p4_events_<preset>` with 5, `spe_tracker_sme_events_<preset>`
/// with 2; [`super::v1p4_events`], [`super::sme`]): the `N` flags taken with the
/// report (`take`), in the option's port order; `word`, each set flag's event in place in
/// bits 31:16 of the Events payload (event 16 at bit 0) while `gate` is set, zero
/// otherwise.
#[derive(LogicBlock)]
pub struct TrackerHeldEvents<const N: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub take: Signal<In, Bit>,
    /// The report's flags (the ports), in the option's port order.
    pub flags: [Signal<In, Bit>; N],
    pub gate: Signal<In, Bit>,
    pub word: Signal<Out, Bits<HI_EVENT_BITS>>,
    held: [Rff<Bit>; N],
    k_none: K<Bits<HI_EVENT_BITS>>,
    /// Each flag's event bit in place.
    k_event: [K<Bits<HI_EVENT_BITS>>; N],
}

impl<const N: usize> TrackerHeldEvents<N> {
    /// The block for the events `order` (`spe_defs::events` numbers), one a flag.
    pub fn new(order: [u32; N]) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            take: Default::default(),
            flags: std::array::from_fn(|_| Default::default()),
            gate: Default::default(),
            word: Default::default(),
            held: std::array::from_fn(|_| Default::default()),
            k_none: Default::default(),
            k_event: order.map(|b| K::new(hi_events(spe_defs::events::bit(b)))),
        }
    }
}

crate::rff_setup!(impl[const N: usize] TrackerHeldEvents<N>: each held);

impl<const N: usize> crate::flop::Kernel for TrackerHeldEvents<N> {
    #[hdl_gen]
    fn update(&mut self) {
        self.word.next = self.k_none.val();
        for j in 0..N {
            self.held[j].clock.next = self.clock.val();
            self.held[j].d.next = self.held[j].q.val();
            if self.take.val() {
                self.held[j].d.next = self.flags[j].val();
            }
            if self.held[j].q.val() & self.gate.val() {
                self.word.next = self.word.val() | self.k_event[j].val();
            }
        }
    }
}

/// The serializer's part (`spe_serializer_events_hi_<preset>`): a 4-byte Events payload
/// puts its bits 31:16 in bytes 53 and 54 of the record, where `Record` has End or the
/// Timestamp's header, and moves Timestamp or End two bytes on: its header to byte 55
/// (beat 6), the Timestamp's payload to bytes 56..63 (beat 7). `Record`'s last two bytes
/// are padding, so nothing is lost; a 128-byte record has Timestamp / End in its second
/// half, so beats 6 and 7 end with padding. `sel`: the beat is 6 or 7, whose word is
/// `Record`'s beat 6 under `keep` (bytes 48..52: Operation Type and Events up to bit 15;
/// none of beat 7) ORed with `word`. The places are checked by a test against the layout
/// (`spe_serializer`). The block reads the serializer's inputs only, not its record (a
/// child fed a local of the multiplexer's is a combinational loop to Verilator,
/// docs/toolchain.md).
#[derive(LogicBlock)]
pub struct SerializerEventsHi {
    /// The beat number; the sample's Timestamp and whether the record has one.
    pub beat: Signal<In, Bits<3>>,
    pub ts: Signal<In, Bits<64>>,
    pub ts_en: Signal<In, Bit>,
    /// The Events payload's bits 31:16 (event 16 at bit 0).
    pub ev: Signal<In, Bits<HI_EVENT_BITS>>,
    pub sel: Signal<Out, Bit>,
    pub keep: Signal<Out, Bits<64>>,
    pub word: Signal<Out, Bits<64>>,
    /// End's and the Timestamp's header in byte 55 and the Timestamp's payload in beat 7
    /// (zero in a 128-byte record), the bytes of beat 6 kept from `Record`, and the two
    /// beats' numbers.
    k_end_b6: K<Bits<64>>,
    k_ts_b6: K<Bits<64>>,
    k_ts_b7: K<Bits<64>>,
    k_keep_b6: K<Bits<64>>,
    k_beat6: K<Bits<3>>,
    k_beat7: K<Bits<3>>,
    k_zero64: K<Bits<64>>,
}

impl SerializerEventsHi {
    /// The block of a unit with 64-byte records or 128-byte ones (`long`).
    pub fn new(long: bool) -> Self {
        let short = |v: u64| K::new((if long { 0 } else { v }).into());
        Self {
            beat: Default::default(),
            ts: Default::default(),
            ts_en: Default::default(),
            ev: Default::default(),
            sel: Default::default(),
            keep: Default::default(),
            word: Default::default(),
            k_end_b6: short(u64::from(packet::END) << 56),
            k_ts_b6: short(u64::from(packet::TIMESTAMP) << 56),
            k_ts_b7: short(!0),
            k_keep_b6: K::new(spe_defs::low_mask(HI_EVENTS_IN_BEAT6 as u32).into()),
            k_beat6: K::new(6u64.into()),
            k_beat7: K::new(7u64.into()),
            k_zero64: Default::default(),
        }
    }
}

impl Logic for SerializerEventsHi {
    #[hdl_gen]
    fn update(&mut self) {
        self.sel.next =
            (self.beat.val() == self.k_beat6.val()) | (self.beat.val() == self.k_beat7.val());
        // Beat 7: the Timestamp's payload, or padding.
        self.keep.next = self.k_zero64.val();
        self.word.next = self.k_zero64.val();
        if self.ts_en.val() {
            self.word.next = self.ts.val() & self.k_ts_b7.val();
        }
        // Beat 6: bytes 48..52 as `Record` has them, the events 31:16, Timestamp's or
        // End's header.
        if self.beat.val() == self.k_beat6.val() {
            self.keep.next = self.k_keep_b6.val();
            self.word.next = self.k_end_b6.val();
            if self.ts_en.val() {
                self.word.next = self.k_ts_b6.val();
            }
            self.word.next.set_value_ev_at40(self.ev.val());
        }
    }
}
