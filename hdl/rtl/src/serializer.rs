//! `spe_serializer`: encodes the sample as one 64-byte record (128 bytes in a unit that
//! records the Guarded Control Stack) and presents it one 64-bit beat at a time.
//!
//! ```text
//!  sample fields --> [ Record: every packet at its fixed offset ] --> 512 bits
//!                                                     beat[2:0] --> mux --> beat_data[63:0]
//! ```
//!
//! The layout is `spe_defs::impdef::layout`: each packet has its own byte offset and an
//! absent packet leaves its bytes as Padding (0x00), so the serializer is wiring plus one
//! 8-way multiplexer. The [`Record`] struct's field offsets are checked against the
//! layout by a test; header bytes and payload formats come from `spe_defs::packet`.
//!
//! A 128-byte record (`Config::long_records`, `beat_hi` from the writer) keeps `Record`
//! as its first half, with the target and the previous-branch target alone in the shared
//! places and no Timestamp / End; its second half is built beat by beat: the data VA at
//! byte 64, the data PA at 80, Timestamp / End at 96 (each packet's header and first seven
//! payload bytes in one beat, its last payload byte in the next).

use crate::bundles::Sample;
use crate::ADDR_BITS;
use crate::K;
use crate::{Zext, HI_EVENT_BITS};
use rust_hdl::prelude::*;
use spe_defs::impdef::{self, DATA_SOURCE_PAYLOAD};
use spe_defs::packet::{self, addr_index, context_index, counter_index, op_class};
use spe_defs::Config;

/// One record slot, little-endian: field order and widths follow the fixed layout.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct Record {
    /// Context packets: CONTEXTIDR_EL1, CONTEXTIDR_EL2 (4-byte payloads).
    pub ctx1_hdr: Bits<8>,
    pub ctx1: Bits<32>,
    pub ctx2_hdr: Bits<8>,
    pub ctx2: Bits<32>,
    /// Counter packets: total, issue and translation latency (2-byte payloads, the
    /// counters zero-extended); translation only when the translation completed.
    pub tot_hdr: Bits<8>,
    pub tot: Bits<16>,
    pub iss_hdr: Bits<8>,
    pub iss: Bits<16>,
    pub xlat_hdr: Bits<8>,
    pub xlat: Bits<16>,
    /// Address packets: the PC; then one slot for the branch target or the data VA (an op
    /// is a branch or a load/store, never both); then the data PA.
    pub pc_hdr: Bits<8>,
    pub pc: Bits<64>,
    pub tgt_hdr: Bits<8>,
    pub tgt: Bits<64>,
    pub pa_hdr: Bits<8>,
    pub pa: Bits<64>,
    /// Data Source (loads whose access completed), Operation Type, Events.
    pub ds_hdr: Bits<8>,
    pub ds: Bits<8>,
    pub op_hdr: Bits<8>,
    pub op: Bits<8>,
    pub ev_hdr: Bits<8>,
    pub ev: Bits<16>,
    /// The record ends with a Timestamp packet, or with End when no timestamp is taken.
    pub end_hdr: Bits<8>,
    pub ts: Bits<64>,
    /// Bytes after the last packet: Padding.
    pub pad: Bits<16>,
}

/// Payload of a PC or branch-target Address packet (`spe_defs::packet::addr_payload`).
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct InstrAddr {
    pub addr: Bits<ADDR_BITS>,
    pub rsvd: Bits<5>,
    pub el: Bits<2>,
    pub ns: Bit,
}

/// Payload of a data physical-address packet (CH = 0, PAT = 0, NSE = 0).
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct PhysAddr {
    pub addr: Bits<ADDR_BITS>,
    pub rsvd: Bits<7>,
    pub ns: Bit,
}

/// The serializer: no state, the record follows the sample and the writer picks beats.
#[derive(LogicBlock, Default)]
pub struct SpeSerializer<const CW: usize> {
    /// The sample (tracker) and its latency counters.
    pub sample: Signal<In, Sample>,
    pub lat_total: Signal<In, Bits<CW>>,
    pub lat_issue: Signal<In, Bits<CW>>,
    pub lat_xlat: Signal<In, Bits<CW>>,
    /// Beat number 0..7 (beat 0 holds bytes 7:0).
    pub beat: Signal<In, Bits<3>>,
    pub beat_data: Signal<Out, Bits<64>>,
    /// FEAT_SPE_PBT (`Options::pbt`; one element in a unit that builds it, none
    /// otherwise): the previous-branch target and whether the record has it (tracker), and
    /// its packet from its block ([`crate::options::pbt::SerializerPbt`]). It shares the PA
    /// slot: a branch has no data PA.
    pub pbt_addr: Vec<Signal<In, Bits<64>>>,
    pub pbt_en: Vec<Signal<In, Bit>>,
    pbt: Vec<crate::options::pbt::SerializerPbt>,
    /// Events above bit 15 (`Options::sve_events`, `Options::v1p4_events`, `Options::sme`;
    /// one element in a unit that builds one, none otherwise): the Events payload's bits
    /// 31:16 (tracker; [`HI_EVENT_BITS`], event 16 at bit 0), spliced into beats 6 and 7 by
    /// their block ([`crate::options::events_hi::SerializerEventsHi`]).
    pub ev_hi: Vec<Signal<In, Bits<HI_EVENT_BITS>>>,
    events_hi: Vec<crate::options::events_hi::SerializerEventsHi>,
    /// 128-byte records (one element in a unit with them, none otherwise): the beat is in
    /// the second half (writer); the second half's header bytes as beat words; zeros; the
    /// data PA's payload, and the low and high word of the packet a second-half beat
    /// shows.
    pub beat_hi: Vec<Signal<In, Bit>>,
    k_h_va64: Vec<K<Bits<64>>>,
    k_h_pa64: Vec<K<Bits<64>>>,
    k_h_ts64: Vec<K<Bits<64>>>,
    k_h_end64: Vec<K<Bits<64>>>,
    k_z8: Vec<K<Bits<8>>>,
    k_z64: Vec<K<Bits<64>>>,
    w_pa: Vec<Signal<Local, Bits<64>>>,
    w_lo: Vec<Signal<Local, Bits<64>>>,
    w_hi: Vec<Signal<Local, Bits<64>>>,
    // Local signals: the record, as a struct and as 512 bits, and the payloads built for it.
    rec: Signal<Local, Record>,
    rec_bits: Signal<Local, Bits<512>>,
    tot16: Signal<Local, Zext<CW, 16>>,
    iss16: Signal<Local, Zext<CW, 16>>,
    xlat16: Signal<Local, Zext<CW, 16>>,
    pc_pl: Signal<Local, InstrAddr>,
    tgt_pl: Signal<Local, InstrAddr>,
    pa_pl: Signal<Local, PhysAddr>,
    // Header bytes (from `spe_defs::packet`), op classes and the all-Padding record.
    h_ctx1: K<Bits<8>>,
    h_ctx2: K<Bits<8>>,
    h_tot: K<Bits<8>>,
    h_iss: K<Bits<8>>,
    h_xlat: K<Bits<8>>,
    h_pc: K<Bits<8>>,
    h_tgt: K<Bits<8>>,
    h_va: K<Bits<8>>,
    h_pa: K<Bits<8>>,
    h_ds: K<Bits<8>>,
    h_op_other: K<Bits<8>>,
    h_op_ldst: K<Bits<8>>,
    h_op_branch: K<Bits<8>>,
    h_ev: K<Bits<8>>,
    h_ts: K<Bits<8>>,
    h_end: K<Bits<8>>,
    k_class_ldst: K<Bits<2>>,
    k_class_branch: K<Bits<2>>,
    k_empty: K<Record>,
    k_zero16: K<Zext<CW, 16>>,
    k_zero5: K<Bits<5>>,
    k_zero7: K<Bits<7>>,
}

impl<const CW: usize> SpeSerializer<CW> {
    pub fn new(cfg: &Config) -> Self {
        assert_eq!(
            CW as u32,
            cfg.counter_width.bits(),
            "counter width mismatch"
        );
        assert!(
            CW <= 8 * packet::COUNTER_PAYLOAD,
            "counter wider than its payload"
        );
        // Header bytes come from `spe_defs::packet`, which the decoder reads too.
        let h = |v: u8| K::new(u64::from(v).into());
        // Padding everywhere: the empty slot is all 0x00 bytes.
        let empty = Record::default();
        let pbt = usize::from(spe_defs::config::option::pbt(cfg));
        let wide = usize::from(spe_defs::events::has_high_events(cfg));
        let long = usize::from(cfg.long_records());
        let h64 = |v: u8| K::new(u64::from(v).into());
        assert_eq!(packet::PAD, 0, "the empty record is all Padding");
        Self {
            h_ctx1: h(packet::context_header(context_index::EL1)),
            h_ctx2: h(packet::context_header(context_index::EL2)),
            h_tot: h(packet::counter_header(counter_index::TOTAL)),
            h_iss: h(packet::counter_header(counter_index::ISSUE)),
            h_xlat: h(packet::counter_header(counter_index::TRANSLATION)),
            h_pc: h(packet::address_header(addr_index::PC)),
            h_tgt: h(packet::address_header(addr_index::BRANCH_TARGET)),
            h_va: h(packet::address_header(addr_index::DATA_VA)),
            h_pa: h(packet::address_header(addr_index::DATA_PA)),
            h_ds: h(packet::data_source_header(DATA_SOURCE_PAYLOAD)),
            h_op_other: h(packet::op_type_header(op_class::OTHER)),
            h_op_ldst: h(packet::op_type_header(op_class::LD_ST_ATOMIC)),
            h_op_branch: h(packet::op_type_header(op_class::BRANCH)),
            h_ev: h(packet::events_header(impdef::events_payload(cfg))),
            h_ts: h(packet::TIMESTAMP),
            h_end: h(packet::END),
            k_class_ldst: K::new(u64::from(op_class::LD_ST_ATOMIC).into()),
            k_class_branch: K::new(u64::from(op_class::BRANCH).into()),
            k_empty: K::new(empty),
            ev_hi: (0..wide).map(|_| Default::default()).collect(),
            events_hi: (0..wide)
                .map(|_| crate::options::events_hi::SerializerEventsHi::new(long == 1))
                .collect(),
            beat_hi: (0..long).map(|_| Default::default()).collect(),
            k_h_va64: (0..long)
                .map(|_| h64(packet::address_header(addr_index::DATA_VA)))
                .collect(),
            k_h_pa64: (0..long)
                .map(|_| h64(packet::address_header(addr_index::DATA_PA)))
                .collect(),
            k_h_ts64: (0..long).map(|_| h64(packet::TIMESTAMP)).collect(),
            k_h_end64: (0..long).map(|_| h64(packet::END)).collect(),
            k_z8: (0..long).map(|_| Default::default()).collect(),
            k_z64: (0..long).map(|_| Default::default()).collect(),
            w_pa: (0..long).map(|_| Default::default()).collect(),
            w_lo: (0..long).map(|_| Default::default()).collect(),
            w_hi: (0..long).map(|_| Default::default()).collect(),
            pbt_addr: (0..pbt).map(|_| Default::default()).collect(),
            pbt_en: (0..pbt).map(|_| Default::default()).collect(),
            pbt: (0..pbt).map(|_| Default::default()).collect(),
            ..Default::default()
        }
    }
}

impl<const CW: usize> Logic for SpeSerializer<CW> {
    #[hdl_gen]
    fn update(&mut self) {
        // Counter payloads: the CW-bit counters zero-extended to 16 bits.
        self.tot16.next = self.k_zero16.val();
        self.iss16.next = self.k_zero16.val();
        self.xlat16.next = self.k_zero16.val();
        self.tot16.next.set_value_at(self.lat_total.val());
        self.iss16.next.set_value_at(self.lat_issue.val());
        self.xlat16.next.set_value_at(self.lat_xlat.val());
        // NSE is 0 (no Realm state). choice: security-state
        // Address payloads: the PC carries the op's EL and NS, the branch target the EL and
        // NS at the target (the branch report's: an ERET's differ), the data PA the NS of
        // its physical address space (the translation report's).
        self.pc_pl.next.addr = self.sample.val().pc;
        self.pc_pl.next.rsvd = self.k_zero5.val();
        self.pc_pl.next.el = self.sample.val().el;
        self.pc_pl.next.ns = self.sample.val().ns;
        self.tgt_pl.next.addr = self.sample.val().target;
        self.tgt_pl.next.rsvd = self.k_zero5.val();
        self.tgt_pl.next.el = self.sample.val().target_el;
        self.tgt_pl.next.ns = self.sample.val().target_ns;
        self.pa_pl.next.addr = self.sample.val().pa;
        self.pa_pl.next.rsvd = self.k_zero7.val();
        self.pa_pl.next.ns = self.sample.val().pa_ns;

        // choice: record-slot
        // The record: padding, then every present packet at its offset.
        self.rec.next = self.k_empty.val();
        // Context packets when the op's regime collects them (decided at the tag).
        if self.sample.val().cx1 {
            self.rec.next.ctx1_hdr = self.h_ctx1.val();
            self.rec.next.ctx1 = self.sample.val().ctx1;
        }
        if self.sample.val().cx2 {
            self.rec.next.ctx2_hdr = self.h_ctx2.val();
            self.rec.next.ctx2 = self.sample.val().ctx2;
        }
        // Latencies: total and issue always, translation once the translation completed.
        self.rec.next.tot_hdr = self.h_tot.val();
        self.rec.next.tot = self.tot16.val().to_bits();
        self.rec.next.iss_hdr = self.h_iss.val();
        self.rec.next.iss = self.iss16.val().to_bits();
        if self.sample.val().xl_done {
            self.rec.next.xlat_hdr = self.h_xlat.val();
            self.rec.next.xlat = self.xlat16.val().to_bits();
        }
        self.rec.next.pc_hdr = self.h_pc.val();
        self.rec.next.pc = self.pc_pl.val().into();
        // The shared slot: a resolved branch's target, else the data VA once translation
        // started; then the data PA when translated and collected.
        if self.sample.val().br_resolved {
            self.rec.next.tgt_hdr = self.h_tgt.val();
            self.rec.next.tgt = self.tgt_pl.val().into();
        } else {
            if self.sample.val().xl_started {
                self.rec.next.tgt_hdr = self.h_va.val();
                self.rec.next.tgt = self.sample.val().va;
            }
        }
        if self.sample.val().xl_done & self.sample.val().pa_en {
            self.rec.next.pa_hdr = self.h_pa.val();
            self.rec.next.pa = self.pa_pl.val().into();
        }
        if self.sample.val().ds_en {
            self.rec.next.ds_hdr = self.h_ds.val();
            // choice: data-source
            self.rec.next.ds = self.sample.val().source;
        }
        // Operation Type: the class in the header, the subclass in the payload.
        self.rec.next.op_hdr = self.h_op_other.val();
        if self.sample.val().op_class == self.k_class_ldst.val() {
            self.rec.next.op_hdr = self.h_op_ldst.val();
        }
        if self.sample.val().op_class == self.k_class_branch.val() {
            self.rec.next.op_hdr = self.h_op_branch.val();
        }
        self.rec.next.op = self.sample.val().op_payload;
        // choice: events-payload
        // Events, then a Timestamp or End closes the record.
        self.rec.next.ev_hdr = self.h_ev.val();
        self.rec.next.ev = self.sample.val().events;
        if self.sample.val().ts_en {
            self.rec.next.end_hdr = self.h_ts.val();
            self.rec.next.ts = self.sample.val().ts;
        } else {
            self.rec.next.end_hdr = self.h_end.val();
        }
        // choice: record-slot
        // A 128-byte record: the shared places hold the target and the previous-branch
        // target alone; the data VA, PA and Timestamp / End go to the second half.
        for i in 0..self.beat_hi.len() {
            if !self.sample.val().br_resolved {
                self.rec.next.tgt_hdr = self.k_z8[i].val();
                self.rec.next.tgt = self.k_z64[i].val();
            }
            self.rec.next.pa_hdr = self.k_z8[i].val();
            self.rec.next.pa = self.k_z64[i].val();
            self.rec.next.end_hdr = self.k_z8[i].val();
            self.rec.next.ts = self.k_z64[i].val();
        }
        // FEAT_SPE_PBT (`options::pbt`): the previous-branch target in the PA slot, of a
        // 64-byte record and of a 128-byte one.
        for i in 0..self.pbt.len() {
            self.pbt[i].addr.next = self.pbt_addr[i].val();
            if self.pbt_en[i].val() {
                self.rec.next.pa_hdr = self.pbt[i].hdr.val();
                self.rec.next.pa = self.pbt[i].payload.val();
            }
        }
        self.rec_bits.next = self.rec.val().into();

        // Beat multiplexer: beat i carries record bytes 8i+7..8i, little-endian, as the
        // writer sends beat i to PMBPTR + 8i.
        if self.beat.val().get_bit(2) {
            if self.beat.val().get_bit(1) {
                if self.beat.val().get_bit(0) {
                    self.beat_data.next = self.rec_bits.val().get_bits::<64>(448);
                } else {
                    self.beat_data.next = self.rec_bits.val().get_bits::<64>(384);
                }
            } else {
                if self.beat.val().get_bit(0) {
                    self.beat_data.next = self.rec_bits.val().get_bits::<64>(320);
                } else {
                    self.beat_data.next = self.rec_bits.val().get_bits::<64>(256);
                }
            }
        } else {
            if self.beat.val().get_bit(1) {
                if self.beat.val().get_bit(0) {
                    self.beat_data.next = self.rec_bits.val().get_bits::<64>(192);
                } else {
                    self.beat_data.next = self.rec_bits.val().get_bits::<64>(128);
                }
            } else {
                if self.beat.val().get_bit(0) {
                    self.beat_data.next = self.rec_bits.val().get_bits::<64>(64);
                } else {
                    self.beat_data.next = self.rec_bits.val().get_bits::<64>(0);
                }
            }
        }
        // A 4-byte Events payload (`options::events_hi`; its header is `h_ev`'s) in beats
        // 6 and 7.
        for i in 0..self.events_hi.len() {
            self.events_hi[i].beat.next = self.beat.val();
            self.events_hi[i].ts.next = self.sample.val().ts;
            self.events_hi[i].ts_en.next = self.sample.val().ts_en;
            self.events_hi[i].ev.next = self.ev_hi[i].val();
            if self.events_hi[i].sel.val() {
                self.beat_data.next = (self.rec_bits.val().get_bits::<64>(384)
                    & self.events_hi[i].keep.val())
                    | self.events_hi[i].word.val();
            }
        }
        // The second half of a 128-byte record: beat[2:1] picks the packet (00 the data
        // VA, 01 the data PA, 10 Timestamp / End, 11 padding), beat[0] its word (the
        // header and payload bytes 0..6, then payload byte 7).
        for i in 0..self.beat_hi.len() {
            self.w_pa[i].next = self.pa_pl.val().into();
            self.w_lo[i].next = self.k_z64[i].val();
            self.w_hi[i].next = self.k_z64[i].val();
            if !self.beat.val().get_bit(2)
                & !self.beat.val().get_bit(1)
                & self.sample.val().xl_started
            {
                self.w_lo[i].next = (self.sample.val().va << 8) | self.k_h_va64[i].val();
                self.w_hi[i].next = self.sample.val().va >> 56;
            }
            if !self.beat.val().get_bit(2)
                & self.beat.val().get_bit(1)
                & self.sample.val().xl_done
                & self.sample.val().pa_en
            {
                self.w_lo[i].next = (self.w_pa[i].val() << 8) | self.k_h_pa64[i].val();
                self.w_hi[i].next = self.w_pa[i].val() >> 56;
            }
            if self.beat.val().get_bit(2) & !self.beat.val().get_bit(1) {
                self.w_lo[i].next = self.k_h_end64[i].val();
                if self.sample.val().ts_en {
                    self.w_lo[i].next = (self.sample.val().ts << 8) | self.k_h_ts64[i].val();
                    self.w_hi[i].next = self.sample.val().ts >> 56;
                }
            }
            if self.beat_hi[i].val() {
                self.beat_data.next = self.w_lo[i].val();
                if self.beat.val().get_bit(0) {
                    self.beat_data.next = self.w_hi[i].val();
                }
            }
        }
    }
}

/// The Record struct must match the fixed layout (checked by the tests below).
pub const RECORD_BITS: usize = 8 << impdef::RECORD_SIZE_LOG2;
