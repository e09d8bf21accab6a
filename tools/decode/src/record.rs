//! Record layer: frames packets into records like perf's `arm_spe_read_record()`
//! (`tools/perf/util/arm-spe-decoder/arm-spe-decoder.c`), and reconstructs addresses like its
//! `arm_spe_calc_ip()`.

use std::ops::Range;

use spe_defs::packet::{addr_index, addr_payload, counter_index, op_class};

use crate::packet::{packets, Packet, PacketKind};

/// Top byte perf writes into a reconstructed kernel address (`0xffULL << 56`).
const TOP_BYTE_FILL: u64 = 0xFF << addr_payload::ADDR_BITS;
/// Bits 55:0 of an address payload (perf `SPE_ADDR_PKT_ADDR_GET_BYTES_0_6`).
const ADDR_MASK: u64 = spe_defs::low_mask(addr_payload::ADDR_BITS);
/// perf fills the top byte of a data VA when `VA[55:52]` has all of these bits set.
const VA_KERNEL_NIBBLE: u64 = 0xF;
/// Shift of `VA[55:52]`.
const VA_NIBBLE_SHIFT: u32 = addr_payload::ADDR_BITS - 4;

/// Exception level (bits 62:61) of a PC / branch-target / previous-branch-target payload.
pub fn payload_el(payload: u64) -> u8 {
    ((payload >> addr_payload::EL_SHIFT) & spe_defs::low_mask(addr_payload::EL_BITS)) as u8
}

/// NS bit (bit 63) of an instruction-address or physical-address payload.
pub fn payload_ns(payload: u64) -> bool {
    (payload >> addr_payload::NS_SHIFT) & 1 != 0
}

/// Bits 55:0 of an address payload (perf `SPE_ADDR_PKT_ADDR_GET_BYTES_0_6`): what perf's dump
/// prints for PC, TGT, PBT and PA.
pub fn payload_addr(payload: u64) -> u64 {
    payload & ADDR_MASK
}

/// The address perf derives from an Address packet (`arm_spe_calc_ip()`):
/// - PC, TGT and PBT: bits 63:56 cleared, then set to `0xFF` if NS == 1 and EL is 1 or 2
///   (NSE is ignored, so a Secure EL1 address keeps a zero top byte);
/// - data VA: the tag byte (63:56) dropped, then set to `0xFF` if `VA[55:52] == 0xF`;
/// - data PA: bits 63:56 cleared;
/// - any other index: the payload unchanged (perf warns once and ignores the packet).
pub fn calc_ip(index: u8, payload: u64) -> u64 {
    let addr = payload_addr(payload);
    match index {
        addr_index::PC | addr_index::BRANCH_TARGET | addr_index::PREV_BRANCH_TARGET => {
            // perf: SPE_ADDR_PKT_EL1 (1) or SPE_ADDR_PKT_EL2 (2, VHE kernels).
            if payload_ns(payload) && matches!(payload_el(payload), 1 | 2) {
                addr | TOP_BYTE_FILL
            } else {
                addr
            }
        }
        addr_index::DATA_VA => {
            if (addr >> VA_NIBBLE_SHIFT) & VA_KERNEL_NIBBLE == VA_KERNEL_NIBBLE {
                addr | TOP_BYTE_FILL
            } else {
                addr
            }
        }
        addr_index::DATA_PA => addr,
        _ => payload,
    }
}

/// Operation Type of a record: class (0 Other, 1 Load/Store/Atomic, 2 Branch) and the
/// subclass payload byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Op {
    pub class: u8,
    pub subclass: u8,
}

/// Context packet of a record: which CONTEXTIDR (`index` 0 = EL1, 1 = EL2; perf prints
/// `el(index+1)`) and its 32-bit value (perf's `record.context_id`, used as the TID).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Context {
    pub index: u8,
    pub value: u32,
}

impl Context {
    /// The exception level perf prints for this context packet (`index + 1`).
    pub fn el(&self) -> u8 {
        self.index + 1
    }
}

/// One complete record: the packets from the end of the previous record (or a resync point)
/// up to and including the first Timestamp or End.
///
/// Address fields hold the **raw** 64-bit payloads; use [`Record::ip`] and friends for the
/// addresses perf shows. For every field the last packet wins, as in perf.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// Offset of the record's first non-padding packet (for an empty record, its End).
    pub start: usize,
    /// Offset one past the terminator (Timestamp or End).
    pub end: usize,
    /// Address index 0: PC of the sampled operation (raw payload: NS, EL, NSE, VA).
    pub pc: Option<u64>,
    /// Address index 1: branch target (raw payload).
    pub branch_target: Option<u64>,
    /// Address index 2: data virtual address (raw payload, tag byte included).
    pub data_va: Option<u64>,
    /// Address index 3: data physical address (raw payload: NS, CH, PAT, PA).
    pub data_pa: Option<u64>,
    /// Address index 4: previous branch target (raw payload).
    pub prev_branch_target: Option<u64>,
    /// Address packets with any other index, in order (perf ignores them).
    pub other_addresses: Vec<(u8, u64)>,
    /// Counter index 0: total latency (perf's `record.latency`, the sample weight).
    pub total_latency: Option<u16>,
    /// Counter index 1: issue latency.
    pub issue_latency: Option<u16>,
    /// Counter index 2: translation latency.
    pub translation_latency: Option<u16>,
    /// Counter packets with any other index, in order (perf ignores them).
    pub other_counters: Vec<(u8, u16)>,
    /// Events payload bits.
    pub events: Option<u64>,
    /// Data Source payload.
    pub data_source: Option<u64>,
    /// Operation type (never class 3: such a record is abandoned).
    pub op: Option<Op>,
    /// Context packet.
    pub context: Option<Context>,
    /// Timestamp; `None` when the record ended with End.
    pub timestamp: Option<u64>,
}

impl Record {
    /// A new, empty record whose first packet is at `start`.
    fn new(start: usize) -> Record {
        Record {
            start,
            ..Record::default()
        }
    }

    /// Applies one non-padding, non-terminator packet (perf: the `switch` in
    /// `arm_spe_read_record()`; the last packet of each kind wins).
    fn apply(&mut self, kind: &PacketKind) {
        match *kind {
            PacketKind::Address { index, payload } => {
                let slot = match index {
                    addr_index::PC => &mut self.pc,
                    addr_index::BRANCH_TARGET => &mut self.branch_target,
                    addr_index::DATA_VA => &mut self.data_va,
                    addr_index::DATA_PA => &mut self.data_pa,
                    addr_index::PREV_BRANCH_TARGET => &mut self.prev_branch_target,
                    _ => {
                        self.other_addresses.push((index, payload));
                        return;
                    }
                };
                *slot = Some(payload);
            }
            PacketKind::Counter { index, value } => {
                let slot = match index {
                    counter_index::TOTAL => &mut self.total_latency,
                    counter_index::ISSUE => &mut self.issue_latency,
                    counter_index::TRANSLATION => &mut self.translation_latency,
                    _ => {
                        self.other_counters.push((index, value));
                        return;
                    }
                };
                *slot = Some(value);
            }
            PacketKind::Context { index, value } => self.context = Some(Context { index, value }),
            PacketKind::OpType { class, subclass } => self.op = Some(Op { class, subclass }),
            PacketKind::Events { bits, .. } => self.events = Some(bits),
            PacketKind::DataSource { value, .. } => self.data_source = Some(value),
            PacketKind::Timestamp(ts) => self.timestamp = Some(ts),
            PacketKind::Pad
            | PacketKind::End
            | PacketKind::Alignment { .. }
            | PacketKind::Bad
            | PacketKind::Truncated { .. } => {}
        }
    }

    /// EL of the PC payload.
    pub fn el(&self) -> Option<u8> {
        self.pc.map(payload_el)
    }
    /// NS bit of the PC payload.
    pub fn ns(&self) -> Option<bool> {
        self.pc.map(payload_ns)
    }
    /// perf's `record.from_ip`: the PC as [`calc_ip`] reconstructs it.
    pub fn ip(&self) -> Option<u64> {
        self.pc.map(|p| calc_ip(addr_index::PC, p))
    }
    /// perf's `record.to_ip`: the branch target as [`calc_ip`] reconstructs it.
    pub fn to_ip(&self) -> Option<u64> {
        self.branch_target
            .map(|p| calc_ip(addr_index::BRANCH_TARGET, p))
    }
    /// perf's `record.virt_addr`: the data VA as [`calc_ip`] reconstructs it.
    pub fn virt_addr(&self) -> Option<u64> {
        self.data_va.map(|p| calc_ip(addr_index::DATA_VA, p))
    }
    /// perf's `record.phys_addr`: the data PA with bits 63:56 cleared.
    pub fn phys_addr(&self) -> Option<u64> {
        self.data_pa.map(|p| calc_ip(addr_index::DATA_PA, p))
    }
    /// perf's `record.prev_br_tgt`: the previous branch target as [`calc_ip`] reconstructs it.
    pub fn prev_br_tgt(&self) -> Option<u64> {
        self.prev_branch_target
            .map(|p| calc_ip(addr_index::PREV_BRANCH_TARGET, p))
    }
}

/// Why a half-built record was thrown away.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AbandonCause {
    /// A bad packet (perf `ARM_SPE_BAD_PACKET`); decoding resumes one byte after its start.
    Bad,
    /// A truncated packet (perf `ARM_SPE_NEED_MORE_BYTES`); handled exactly like a bad one.
    Truncated,
    /// An Operation Type packet with class 3: newer perf's `arm_spe_read_record()` prints
    /// "Get packet error!" and returns -1. The packet itself was consumed, so decoding resumes
    /// right after it (no byte-by-byte resync).
    ReservedOpClass,
}

/// A record that was started but not completed because of an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Abandoned {
    /// Offset of the record's first non-padding packet.
    pub start: usize,
    /// Offset of the packet that caused the abandonment.
    pub at: usize,
    pub cause: AbandonCause,
}

/// Everything [`decode`] finds in a buffer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Decoded {
    /// Every packet, in order; together they cover the whole buffer.
    pub packets: Vec<Packet>,
    /// Completed records, in order.
    pub records: Vec<Record>,
    /// Offsets of bad packets (perf `ARM_SPE_BAD_PACKET`).
    pub bad_offsets: Vec<usize>,
    /// Offsets of truncated packets (perf `ARM_SPE_NEED_MORE_BYTES`).
    pub truncated_offsets: Vec<usize>,
    /// Records abandoned because of a bad or truncated packet or a class-3 op type. A bad byte
    /// met while no record has started abandons nothing and is not counted here.
    pub abandoned: Vec<Abandoned>,
    /// Trailing bytes, from the first non-padding packet of an unfinished record to the end of
    /// the buffer, that no Timestamp or End terminates (perf drops them without a sample).
    pub unterminated_tail: Option<Range<usize>>,
}

/// Decodes a whole buffer as perf's `arm_spe_decode()` loop does:
/// - padding is skipped (`arm_spe_get_next_packet()`);
/// - a record ends at the first Timestamp or End, so `TS ... END` gives a second, empty record;
/// - a bad or truncated packet abandons the half-built record and decoding resynchronises one
///   byte further on;
/// - an op-type packet of class 3 abandons the half-built record (newer perf);
/// - no packet is mandatory; unknown address/counter/context indices are kept.
pub fn decode(buf: &[u8]) -> Decoded {
    let mut out = Decoded::default();
    let mut current: Option<Record> = None;
    for p in packets(buf) {
        match p.kind {
            PacketKind::Pad | PacketKind::Alignment { .. } => {}
            PacketKind::Bad | PacketKind::Truncated { .. } => {
                let cause = if p.kind == PacketKind::Bad {
                    out.bad_offsets.push(p.offset);
                    AbandonCause::Bad
                } else {
                    out.truncated_offsets.push(p.offset);
                    AbandonCause::Truncated
                };
                if let Some(r) = current.take() {
                    out.abandoned.push(Abandoned {
                        start: r.start,
                        at: p.offset,
                        cause,
                    });
                }
            }
            PacketKind::OpType {
                class: op_class::RESERVED,
                ..
            } => {
                let start = current.take().map_or(p.offset, |r| r.start);
                out.abandoned.push(Abandoned {
                    start,
                    at: p.offset,
                    cause: AbandonCause::ReservedOpClass,
                });
            }
            PacketKind::End | PacketKind::Timestamp(_) => {
                let mut r = current.take().unwrap_or_else(|| Record::new(p.offset));
                r.apply(&p.kind);
                r.end = p.end();
                out.records.push(r);
            }
            PacketKind::Events { .. }
            | PacketKind::DataSource { .. }
            | PacketKind::Context { .. }
            | PacketKind::OpType { .. }
            | PacketKind::Address { .. }
            | PacketKind::Counter { .. } => {
                current
                    .get_or_insert_with(|| Record::new(p.offset))
                    .apply(&p.kind);
            }
        }
        out.packets.push(p);
    }
    out.unterminated_tail = current.map(|r| r.start..buf.len());
    out
}
