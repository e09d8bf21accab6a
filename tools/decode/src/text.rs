//! Text output in the style of `perf report -D` for Arm SPE (perf `arm_spe_dump()` and
//! `arm_spe_pkt_desc()`), plus a one-line summary per record.
//!
//! The descriptions follow newer perf (events 16..=25 named, unknown event bits printed as
//! `IMPDEF:n,m`, branch GCS/CR words); no CPU-specific (MIDR-gated) names are printed.

use spe_defs::packet::{addr_index, addr_payload, counter_index};

use crate::op::describe_op;
use crate::packet::{packets, Packet, PacketKind};
use crate::record::{payload_addr, payload_el, payload_ns, Record};

/// perf's packet names (`arm_spe_packet_name[]`) used in descriptions.
const NAME_PAD: &str = "PAD";
const NAME_END: &str = "END";
const NAME_TS: &str = "TS";
const NAME_ADDR: &str = "ADDR";
const NAME_LAT: &str = "LAT";
const NAME_CONTEXT: &str = "CONTEXT";
const NAME_OP_TYPE: &str = "OP-TYPE";
const NAME_DATA_SOURCE: &str = "DATA-SOURCE";
/// What perf's dump prints for a bad or truncated packet.
const BAD_PACKET: &str = "Bad packet!";
/// Bytes perf's dump reserves per line before the description.
const DUMP_BYTES_PER_LINE: usize = 16;

/// perf's Events description (newer `arm_spe_pkt_desc_event()` without MIDR-specific names):
/// `EV` followed by the name of every set bit perf knows, in bit order, then any remaining
/// bits as ` IMPDEF:n,m,...`. Names come from [`spe_defs::events::name`].
pub fn describe_events(bits: u64) -> String {
    let mut s = String::from("EV");
    let mut impdef = Vec::new();
    for bit in (0..64).filter(|b| bits & (1u64 << b) != 0) {
        match spe_defs::events::name(bit) {
            Some(name) => {
                s.push(' ');
                s.push_str(name);
            }
            None => impdef.push(bit.to_string()),
        }
    }
    if !impdef.is_empty() {
        s.push_str(" IMPDEF:");
        s.push_str(&impdef.join(","));
    }
    s
}

/// perf's Address description (`arm_spe_pkt_desc_addr()`):
/// `PC|TGT|PBT 0x<bits 55:0> el<EL> ns=<NS>`, `VA 0x<whole payload>`,
/// `PA 0x<bits 55:0> ns=<NS> ch=<CH> pat=<PAT>`, and the raw fallback
/// `ADDR 0x<payload> (<index>)` for any other index.
fn describe_address(index: u8, payload: u64) -> String {
    match index {
        addr_index::PC | addr_index::BRANCH_TARGET | addr_index::PREV_BRANCH_TARGET => {
            let name = addr_index::NAMES[usize::from(index)];
            let addr = payload_addr(payload);
            format!(
                "{name} 0x{addr:x} el{} ns={}",
                payload_el(payload),
                u8::from(payload_ns(payload))
            )
        }
        addr_index::DATA_VA => format!("VA 0x{payload:x}"),
        addr_index::DATA_PA => format!(
            "PA 0x{:x} ns={} ch={} pat={:x}",
            payload_addr(payload),
            u8::from(payload_ns(payload)),
            (payload >> addr_payload::CH_SHIFT) & 1,
            (payload >> addr_payload::PAT_SHIFT) & spe_defs::low_mask(addr_payload::PAT_BITS)
        ),
        _ => format!("{NAME_ADDR} 0x{payload:x} ({index})"),
    }
}

/// perf's Counter description (`arm_spe_pkt_desc_counter()`): `LAT <value> TOT|ISSUE|XLAT`;
/// for any other index perf prints `LAT <value> ` (with the trailing space) and no name.
fn describe_counter(index: u8, value: u16) -> String {
    let name = counter_index::NAMES
        .get(usize::from(index))
        .copied()
        .unwrap_or("");
    format!("{NAME_LAT} {value} {name}")
}

/// perf's one-packet description (`arm_spe_pkt_desc()`), e.g. `PC 0xaaaad0001000 el0 ns=1`,
/// `LAT 42 TOT`, `EV RETIRED L1D-ACCESS`, `LD GP-REG`, `TS 86447955877`,
/// `CONTEXT 0x4d2 el1`, `DATA-SOURCE 8`, `PAD`, `END`. Bad and truncated packets give
/// `Bad packet!` (what `arm_spe_dump()` prints). An op type of class 3 gives perf's raw
/// fallback `OP-TYPE 0x<payload> (3)`. Timestamp and Data Source print as signed decimal
/// (perf's `%lld`).
pub fn describe(kind: &PacketKind) -> String {
    match *kind {
        PacketKind::Pad | PacketKind::Alignment { .. } => NAME_PAD.to_string(),
        PacketKind::End => NAME_END.to_string(),
        PacketKind::Bad | PacketKind::Truncated { .. } => BAD_PACKET.to_string(),
        PacketKind::Timestamp(ts) => format!("{NAME_TS} {}", ts as i64),
        PacketKind::DataSource { value, .. } => format!("{NAME_DATA_SOURCE} {}", value as i64),
        PacketKind::Events { bits, .. } => describe_events(bits),
        PacketKind::Context { index, value } => {
            format!("{NAME_CONTEXT} 0x{value:x} el{}", u32::from(index) + 1)
        }
        PacketKind::OpType { class, subclass } => describe_op(class, subclass)
            .unwrap_or_else(|| format!("{NAME_OP_TYPE} 0x{subclass:x} ({class})")),
        PacketKind::Address { index, payload } => describe_address(index, payload),
        PacketKind::Counter { index, value } => describe_counter(index, value),
    }
}

/// One line of `perf report -D` for packet `p` of `buf`, as `arm_spe_dump()` prints it:
/// `.  <offset %08x>: ` then each byte as ` %02x`, blanks up to 16 bytes, then ` <description>`.
/// Bytes of `p` that lie outside `buf` are not printed.
pub fn dump_line(buf: &[u8], p: &Packet) -> String {
    let bytes = buf.get(p.offset..p.end().min(buf.len())).unwrap_or(&[]);
    let mut s = format!(".  {:08x}: ", p.offset);
    for b in bytes {
        s.push_str(&format!(" {b:02x}"));
    }
    for _ in bytes.len()..DUMP_BYTES_PER_LINE {
        s.push_str("   ");
    }
    s.push(' ');
    s.push_str(&describe(&p.kind));
    s
}

/// The whole `perf report -D` SPE block for `buf`: perf's header line
/// `. ... ARM SPE data: size 0x<len> bytes` and one [`dump_line`] per packet, each ending in
/// a newline.
pub fn dump(buf: &[u8]) -> String {
    let mut s = format!(". ... ARM SPE data: size {:#x} bytes\n", buf.len());
    for p in packets(buf) {
        s.push_str(&dump_line(buf, &p));
        s.push('\n');
    }
    s
}

/// One line per record: index, start offset, PC (as perf reconstructs it) with EL and NS,
/// operation, latencies, events, and the data VA / PA, branch targets, context, data source
/// and timestamp when present (`END` when the record has no timestamp). For example:
/// `#0 @0x0 PC 0xaaaad0001000 el0 ns=1 | LD GP-REG | LAT 42 TOT 4 ISSUE 3 XLAT | EV RETIRED | VA 0xffffe0001238 PA 0x880001238 | CONTEXT 0x4d2 el1 | DS 8 | TS 86447955877`
pub fn record_summary(index: usize, r: &Record) -> String {
    let mut parts = Vec::new();
    let mut head = format!("#{index} @{:#x}", r.start);
    if let (Some(ip), Some(el), Some(ns)) = (r.ip(), r.el(), r.ns()) {
        head.push_str(&format!(" PC 0x{ip:x} el{el} ns={}", u8::from(ns)));
    } else {
        head.push_str(" (no PC)");
    }
    parts.push(head);
    if let Some(op) = r.op {
        parts.push(describe_op(op.class, op.subclass).unwrap_or_default());
    }
    let lats: Vec<String> = [
        (r.total_latency, counter_index::TOTAL),
        (r.issue_latency, counter_index::ISSUE),
        (r.translation_latency, counter_index::TRANSLATION),
    ]
    .iter()
    .filter_map(|&(v, i)| v.map(|v| format!("{v} {}", counter_index::NAMES[usize::from(i)])))
    .chain(
        r.other_counters
            .iter()
            .map(|(i, v)| format!("{v} (idx {i})")),
    )
    .collect();
    if !lats.is_empty() {
        parts.push(format!("{NAME_LAT} {}", lats.join(" ")));
    }
    if let Some(ev) = r.events {
        parts.push(describe_events(ev));
    }
    let addrs: Vec<String> = [
        ("VA", r.virt_addr()),
        ("PA", r.phys_addr()),
        ("TGT", r.to_ip()),
        ("PBT", r.prev_br_tgt()),
    ]
    .iter()
    .filter_map(|&(n, a)| a.map(|a| format!("{n} 0x{a:x}")))
    .chain(
        r.other_addresses
            .iter()
            .map(|(i, p)| format!("{NAME_ADDR}[{i}] 0x{p:x}")),
    )
    .collect();
    if !addrs.is_empty() {
        parts.push(addrs.join(" "));
    }
    if let Some(c) = r.context {
        parts.push(format!("{NAME_CONTEXT} 0x{:x} el{}", c.value, c.el()));
    }
    if let Some(ds) = r.data_source {
        parts.push(format!("DS {ds}"));
    }
    parts.push(match r.timestamp {
        Some(ts) => format!("{NAME_TS} {ts}"),
        None => NAME_END.to_string(),
    });
    parts.join(" | ")
}
