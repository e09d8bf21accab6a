//! Record-slot checker: the golden-model checklist of docs/spe-reference.md §7.5, applied to the bytes of
//! one record slot, using the same packet decoder perf's rules drive.

use spe_defs::packet::{
    op_class, HeaderPattern, ADDRESS, CONTEXT, COUNTER, EXTENDED, OP_TYPE, SZ_MASK, TIMESTAMP,
};

use crate::op::subclass_is_defined;
use crate::packet::{packets, PacketKind};

/// True when `b` has the type bits (`hdr[7:6]`, `hdr[3:0]`) of `family` but a different SZ,
/// i.e. it would be that packet type if its SZ field were the fixed one.
fn wrong_sz_of(family: HeaderPattern, b: u8) -> bool {
    family.matches((b & !SZ_MASK) | (family.value & SZ_MASK))
}

/// Explains why the byte at `at` of `slot` is a bad header, when the reason is one of the
/// checklist's rules (fixed SZ, exact Timestamp header, extended-prefix use).
fn bad_header_reason(slot: &[u8], at: usize) -> String {
    let Some(&b) = slot.get(at) else {
        return String::new();
    };
    // Timestamp's type bits with another SZ: perf only accepts the exact byte 0x71.
    if b & !SZ_MASK == TIMESTAMP & !SZ_MASK {
        return format!(": Timestamp header must be exactly 0x{TIMESTAMP:02x}");
    }
    let fixed = [
        (ADDRESS, "Address", spe_defs::packet::ADDRESS_PAYLOAD),
        (COUNTER, "Counter", spe_defs::packet::COUNTER_PAYLOAD),
        (CONTEXT, "Context", spe_defs::packet::CONTEXT_PAYLOAD),
        (OP_TYPE, "Operation Type", spe_defs::packet::OP_TYPE_PAYLOAD),
    ];
    for (family, name, len) in fixed {
        if wrong_sz_of(family, b) {
            return format!(": {name} header with SZ != {len} byte(s)");
        }
    }
    if EXTENDED.matches(b) {
        return match slot.get(at + 1) {
            None => ": extended-header prefix as the last byte".to_string(),
            Some(&b1) => format!(
                ": extended-header prefix followed by 0x{b1:02x}, not an Address or Counter header"
            ),
        };
    }
    String::new()
}

/// Checks one record slot (the bytes from a record's first packet to the end of its slot,
/// padding included) against the docs/spe-reference.md §7.5 checklist and returns one message per
/// violation, each starting with the offset in the slot; an empty vector means the slot passes:
/// - nothing bad: no bad or truncated packet (a wrong SZ for Address (8), Counter (2),
///   Context (4) or Operation Type (1), or a Timestamp header other than `0x71`, makes a bad
///   packet, and the message says so);
/// - no extended prefix `0x20..0x23` followed by `0x00` (perf's alignment pseudo-packet);
/// - op class <= 2, and the subclass is one of the encodings of docs/spe-reference.md §1.4;
/// - exactly one terminator (Timestamp or End), never both, never Timestamp then End;
/// - only padding after the terminator.
pub fn check_record_rules(slot: &[u8]) -> Vec<String> {
    let mut errors = Vec::new();
    // The first terminator: its offset and whether it was a Timestamp.
    let mut terminator: Option<(usize, bool)> = None;
    for p in packets(slot) {
        let at = p.offset;
        match p.kind {
            PacketKind::Bad => {
                errors.push(format!(
                    "0x{at:02x}: bad packet{}",
                    bad_header_reason(slot, at)
                ));
                continue;
            }
            PacketKind::Truncated { needed } => {
                errors.push(format!(
                    "0x{at:02x}: truncated packet: needs {needed} bytes, the slot ends at 0x{:02x}",
                    slot.len()
                ));
                continue;
            }
            PacketKind::Alignment { .. } => {
                errors.push(format!("0x{at:02x}: extended-header prefix followed by 0x00 (perf's alignment pseudo-packet)"));
                continue;
            }
            PacketKind::OpType { class, subclass } => {
                if class == op_class::RESERVED {
                    errors.push(format!(
                        "0x{at:02x}: op-type class {class} is reserved (perf drops the record)"
                    ));
                } else if !subclass_is_defined(class, subclass) {
                    errors.push(format!("0x{at:02x}: op-type subclass 0x{subclass:02x} is not a defined encoding for class {class}"));
                }
            }
            _ => {}
        }
        if p.kind.is_padding() {
            continue;
        }
        match terminator {
            None if p.kind.is_terminator() => terminator = Some((at, matches!(p.kind, PacketKind::Timestamp(_)))),
            None => {}
            Some((t, true)) if p.kind == PacketKind::End => errors.push(format!(
                "0x{at:02x}: END after the TIMESTAMP at 0x{t:02x}: perf decodes it as a second, empty record"
            )),
            Some((t, _)) if p.kind.is_terminator() => {
                errors.push(format!("0x{at:02x}: second terminator (the first is at 0x{t:02x})"))
            }
            Some((t, _)) => errors.push(format!("0x{at:02x}: non-padding packet after the terminator at 0x{t:02x}")),
        }
    }
    if terminator.is_none() {
        errors.push("no terminator: the record has neither a TIMESTAMP nor an END".to_string());
    }
    errors
}
