//! Packet layer: one SPE packet at a time, following the Linux perf function
//! `arm_spe_get_packet()` (`tools/perf/util/arm-spe-decoder/arm-spe-pkt-decoder.c`) rule by
//! rule, and the one-byte resynchronisation of `arm_spe_get_next_packet()`.
//!
//! Every header byte and mask comes from [`spe_defs::packet`]; nothing here restates one.

use spe_defs::packet::{
    self as defs, ADDRESS, CONTEXT, COUNTER, DATA_SOURCE, END, EVENTS, EXTENDED, OP_TYPE, PAD,
    TIMESTAMP,
};

/// perf merges consecutive PAD bytes into one packet of at most this many bytes, because its
/// dump prints 16 bytes per line (`arm_spe_get_packet`, "put multiple consecutive PADs on the
/// same line").
pub const PAD_MERGE_LIMIT: usize = 16;

/// Number of index bits carried by a short Address/Counter header (`hdr[2:0]`), i.e. the bits
/// the Address pattern's mask leaves free. The extended prefix supplies the bits above them.
const SHORT_INDEX_BITS: u32 = (!ADDRESS.mask).count_ones();

/// One decoded packet: where it starts in the buffer, how many bytes it covers, and what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packet {
    /// Offset of the packet's first header byte in the buffer.
    pub offset: usize,
    /// Bytes covered: header(s) plus payload; for merged padding the whole run; for
    /// [`PacketKind::Bad`] and [`PacketKind::Truncated`] always 1 (perf advances one byte).
    pub len: usize,
    pub kind: PacketKind,
}

impl Packet {
    /// Offset one past the packet's last byte.
    pub fn end(&self) -> usize {
        self.offset + self.len
    }
}

/// What a packet is. Payloads are kept raw (little-endian decoded, nothing masked off).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PacketKind {
    /// One or more `0x00` bytes (merged up to [`PAD_MERGE_LIMIT`] bytes, like perf).
    Pad,
    /// `0x01`: ends a record that has no timestamp.
    End,
    /// `0x71` + 8 bytes: ends the record.
    Timestamp(u64),
    /// Events packet; `size` is the payload length in bytes (1, 2, 4 or 8; perf keeps it in
    /// `packet.index`).
    Events { size: usize, bits: u64 },
    /// Data Source packet; `size` is the payload length in bytes (1, 2, 4 or 8).
    DataSource { size: usize, value: u64 },
    /// Context packet; `index` 0 = CONTEXTIDR_EL1, 1 = CONTEXTIDR_EL2, 2/3 undefined (kept,
    /// perf stores them too).
    Context { index: u8, value: u32 },
    /// Operation Type packet. `class` 3 is undefined: the packet decodes, but newer perf's
    /// `arm_spe_read_record()` rejects the record (see [`crate::AbandonCause::ReservedOpClass`]).
    OpType { class: u8, subclass: u8 },
    /// Address packet, short or extended header; any index 0..=31 is kept.
    Address { index: u8, payload: u64 },
    /// Counter packet, short or extended header; any index 0..=31 is kept.
    Counter { index: u8, value: u16 },
    /// perf's decoder-only "alignment" pseudo-packet: an extended prefix followed by `0x00`.
    /// `align` is perf's `A = 1 << ((b0 & 0xF) + 1)`; the packet covers the bytes perf skips
    /// (plus any zero bytes merged after them, as perf merges PADs).
    Alignment { align: usize },
    /// perf `ARM_SPE_BAD_PACKET`: no header pattern matches (or a bad extended header).
    Bad,
    /// perf `ARM_SPE_NEED_MORE_BYTES`: the header is valid but the packet needs `needed` bytes
    /// and the buffer ends first. perf handles it exactly like a bad packet.
    Truncated { needed: usize },
}

impl PacketKind {
    /// True for padding and the alignment pseudo-packet, which perf's
    /// `arm_spe_get_next_packet()` skips (both have type `ARM_SPE_PAD`).
    pub fn is_padding(&self) -> bool {
        matches!(self, PacketKind::Pad | PacketKind::Alignment { .. })
    }
    /// True for the two record terminators, Timestamp and End.
    pub fn is_terminator(&self) -> bool {
        matches!(self, PacketKind::Timestamp(_) | PacketKind::End)
    }
    /// True for results perf treats as an error (`arm_spe_get_packet()` returning <= 0).
    pub fn is_error(&self) -> bool {
        matches!(self, PacketKind::Bad | PacketKind::Truncated { .. })
    }
}

/// Outcome of matching one header, before padding is merged.
enum Raw {
    /// A packet of `len` bytes.
    Ok(PacketKind, usize),
    /// `ARM_SPE_BAD_PACKET`.
    Bad,
    /// `ARM_SPE_NEED_MORE_BYTES`: the packet would need this many bytes.
    NeedMore(usize),
}

/// Reads a little-endian payload of `len` bytes (1, 2, 4 or 8) starting at `at`.
/// `None` if the buffer is too short.
fn read_le(buf: &[u8], at: usize, len: usize) -> Option<u64> {
    let bytes = buf.get(at..at.checked_add(len)?)?;
    Some(
        bytes
            .iter()
            .rev()
            .fold(0u64, |acc, &b| (acc << 8) | u64::from(b)),
    )
}

/// perf `arm_spe_get_payload()`: the payload length comes from the SZ field of the header at
/// `hdr_at` (byte 0, or byte 1 of an extended header); the packet is `hdr_at + 1 + payload`
/// bytes from `start`, or NEED_MORE_BYTES if the buffer ends first.
fn with_payload(
    buf: &[u8],
    start: usize,
    hdr: u8,
    hdr_len: usize,
    make: impl FnOnce(u64) -> PacketKind,
) -> Raw {
    let payload_len = defs::payload_len(hdr);
    let total = hdr_len + payload_len;
    match read_le(buf, start + hdr_len, payload_len) {
        Some(v) => Raw::Ok(make(v), total),
        None => Raw::NeedMore(total),
    }
}

/// perf `arm_spe_do_get_packet()`: match the header at `at` (which must be inside `buf`) in
/// perf's order: PAD, END, TS, Events, Data Source, Context, Op Type, extended prefix (then the
/// alignment pseudo-packet), Address, Counter, otherwise BAD.
fn match_header(buf: &[u8], at: usize) -> Raw {
    let Some(&b0) = buf.get(at) else {
        return Raw::NeedMore(1);
    };
    if b0 == PAD {
        return Raw::Ok(PacketKind::Pad, 1);
    }
    if b0 == END {
        return Raw::Ok(PacketKind::End, 1);
    }
    // Timestamp must be exactly 0x71; its SZ (8 bytes) comes from the header like any other.
    if b0 == TIMESTAMP {
        return with_payload(buf, at, b0, 1, PacketKind::Timestamp);
    }
    // Events and Data Source accept any SZ (1, 2, 4 or 8 bytes).
    if EVENTS.matches(b0) {
        let size = defs::payload_len(b0);
        return with_payload(buf, at, b0, 1, |bits| PacketKind::Events { size, bits });
    }
    if DATA_SOURCE.matches(b0) {
        let size = defs::payload_len(b0);
        return with_payload(buf, at, b0, 1, |value| PacketKind::DataSource {
            size,
            value,
        });
    }
    // Context and Op Type: the pattern fixes SZ (4 and 1 bytes), so a wrong SZ never matches.
    if CONTEXT.matches(b0) {
        let index = b0 & !CONTEXT.mask;
        // SZ is fixed at 4 by the pattern, so the payload always fits in 32 bits.
        return with_payload(buf, at, b0, 1, |v| PacketKind::Context {
            index,
            value: v as u32,
        });
    }
    if OP_TYPE.matches(b0) {
        let class = b0 & !OP_TYPE.mask;
        return with_payload(buf, at, b0, 1, |v| PacketKind::OpType {
            class,
            subclass: v as u8,
        });
    }
    // Short header: byte 0 is the Address/Counter header. Extended: byte 1 is, and byte 0
    // carries index bits 4:3.
    let (hdr, hdr_len, index_hi) = if EXTENDED.matches(b0) {
        let Some(&b1) = buf.get(at + 1) else {
            // A prefix as the very last byte is BAD (perf `if (len == 1)`), not NEED_MORE.
            return Raw::Bad;
        };
        if b1 == PAD {
            return alignment(buf, at, b0);
        }
        (b1, 2, (b0 & !EXTENDED.mask) << SHORT_INDEX_BITS)
    } else {
        (b0, 1, 0)
    };
    // Address and Counter: the pattern fixes SZ (8 and 2 bytes).
    if ADDRESS.matches(hdr) {
        let index = index_hi | (hdr & !ADDRESS.mask);
        return with_payload(buf, at, hdr, hdr_len, |payload| PacketKind::Address {
            index,
            payload,
        });
    }
    if COUNTER.matches(hdr) {
        let index = index_hi | (hdr & !COUNTER.mask);
        return with_payload(buf, at, hdr, hdr_len, |v| PacketKind::Counter {
            index,
            value: v as u16,
        });
    }
    Raw::Bad
}

/// perf `arm_spe_get_alignment()`: prefix `b0` followed by `0x00`. perf computes
/// `A = 1 << ((b0 & 0xF) + 1)` and skips `A - (ptr & (A - 1))` bytes, where `ptr` is the
/// *host address* of the prefix byte; NEED_MORE_BYTES if fewer than `A` bytes remain.
///
/// Here `ptr` is the offset of the prefix within `buf`. That gives the same answer as perf
/// whenever the buffer perf reads starts on a 16-byte boundary (A is at most 16).
/// (`b0 & 0xF` equals `b0 & !EXTENDED.mask` for every byte that matches the prefix pattern.)
fn alignment(buf: &[u8], at: usize, b0: u8) -> Raw {
    let align = 1usize << ((b0 & !EXTENDED.mask) + 1);
    if buf.len() - at < align {
        return Raw::NeedMore(align);
    }
    Raw::Ok(PacketKind::Alignment { align }, align - (at & (align - 1)))
}

/// Decodes the packet starting at `offset`, exactly as perf's `arm_spe_get_packet()` followed
/// by the error handling of `arm_spe_get_next_packet()`:
/// - a PAD (or alignment pseudo-packet) absorbs following `0x00` bytes up to a total of
///   [`PAD_MERGE_LIMIT`] bytes;
/// - a bad or truncated packet is returned with `len == 1`, so the caller resynchronises one
///   byte further on.
///
/// Returns `None` when `offset` is at or past the end of `buf`.
pub fn get_packet(buf: &[u8], offset: usize) -> Option<Packet> {
    if offset >= buf.len() {
        return None;
    }
    let (kind, mut len) = match match_header(buf, offset) {
        Raw::Ok(kind, len) => (kind, len),
        Raw::Bad => (PacketKind::Bad, 1),
        Raw::NeedMore(needed) => (PacketKind::Truncated { needed }, 1),
    };
    if kind.is_padding() {
        while len < PAD_MERGE_LIMIT && buf.get(offset + len) == Some(&PAD) {
            len += 1;
        }
    }
    Some(Packet { offset, len, kind })
}

/// Iterator over every packet of a buffer, from offset 0 to the end; see [`packets`].
#[derive(Clone, Debug)]
pub struct Packets<'a> {
    buf: &'a [u8],
    offset: usize,
}

impl Iterator for Packets<'_> {
    type Item = Packet;
    fn next(&mut self) -> Option<Packet> {
        let p = get_packet(self.buf, self.offset)?;
        self.offset = p.end();
        Some(p)
    }
}

/// All packets of `buf` in order, as perf's dump (`arm_spe_dump()`) walks them: every byte
/// belongs to exactly one packet, bad and truncated results cover one byte each.
pub fn packets(buf: &[u8]) -> Packets<'_> {
    Packets { buf, offset: 0 }
}
