//! Independent decoder for Arm Statistical Profiling Extension (SPE) records that follows the
//! Linux perf `arm-spe` decoder's rules (`tools/perf/util/arm-spe-decoder/`), written from
//! `docs/spe-reference.md` and perf's documented behaviour.
//!
//! Layers:
//! - [`packet`]: one packet at a time, perf `arm_spe_get_packet()` (match order, strict SZ,
//!   extended headers, the alignment pseudo-packet, PAD merging) and one-byte resync on a bad
//!   or truncated packet.
//! - [`record`]: framing into records, perf `arm_spe_read_record()` (a record ends at the
//!   first Timestamp or End), and the address reconstruction of `arm_spe_calc_ip()`.
//! - [`text`]: `perf report -D`-style lines and a one-line record summary.
//! - [`check`]: the docs/spe-reference.md §7.5 checklist for one record slot.
//!
//! Header bytes, masks, indices and event names all come from [`spe_defs`].
//!
//! ```
//! let buf = [0xb0, 0x00, 0x10, 0x00, 0xd0, 0xaa, 0xaa, 0x00, 0x80, 0x01];
//! let d = spe_decode::decode(&buf);
//! assert_eq!(d.records.len(), 1);
//! assert_eq!(d.records[0].ip(), Some(0xaaaa_d000_1000));
//! assert!(spe_decode::dump(&buf).contains("PC 0xaaaad0001000 el0 ns=1"));
//! ```

pub mod check;
mod op;
pub mod packet;
pub mod record;
pub mod text;

pub use check::check_record_rules;
pub use op::{describe_op, subclass_is_defined};
pub use packet::{get_packet, packets, Packet, PacketKind, Packets, PAD_MERGE_LIMIT};
pub use record::{
    calc_ip, decode, payload_addr, payload_el, payload_ns, AbandonCause, Abandoned, Context,
    Decoded, Op, Record,
};
pub use text::{describe, describe_events, dump, dump_line, record_summary};

#[cfg(test)]
mod tests;
