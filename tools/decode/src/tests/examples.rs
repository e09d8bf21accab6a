//! The worked examples of docs/spe-reference.md §7, byte for byte.

use super::hex;
use crate::{check_record_rules, decode, describe, Context, Op, Packet, PacketKind as K};

/// Reference §7.1, Example A (57 bytes).
pub(super) const EXAMPLE_A: &str = "64 d2 04 00 00 b0 00 10 00 d0 aa aa 00 80 99 04 00 98 2a 00 9a 03 00 b2 38 12 00 e0 ff ff 00 00 b3 38 12 00 80 08 00 00 80 43 08 49 00 52 1e 00 71 a5 1f b3 20 14 00 00 00";
/// Reference §7.2, Example B (30 bytes).
pub(super) const EXAMPLE_B: &str =
    "b0 34 12 00 d0 aa aa 00 80 99 02 00 98 05 00 b1 00 13 00 d0 aa aa 00 80 4a 01 52 82 00 01";
/// Reference §7.3, Example C (46 bytes).
pub(super) const EXAMPLE_C: &str = "b0 40 30 20 10 00 80 ff a0 99 01 00 98 03 00 b1 00 40 20 10 00 80 ff a0 b4 00 30 20 10 00 80 ff a0 4a 12 42 02 71 55 44 33 22 11 00 00 00";

/// Builds the expected packet list from (offset, len, kind) triples.
fn pk(list: &[(usize, usize, K)]) -> Vec<Packet> {
    list.iter()
        .map(|&(offset, len, kind)| Packet { offset, len, kind })
        .collect()
}

/// `bytes` followed by zero padding up to a 64-byte slot.
fn padded(bytes: &[u8]) -> Vec<u8> {
    let mut v = bytes.to_vec();
    v.resize(64, 0);
    v
}

#[test]
fn example_a_decodes_to_the_reference_packets() {
    let buf = hex(EXAMPLE_A);
    assert_eq!(buf.len(), 57);
    let d = decode(&buf);
    let expected = pk(&[
        (
            0x00,
            5,
            K::Context {
                index: 0,
                value: 0x4d2,
            },
        ),
        (
            0x05,
            9,
            K::Address {
                index: 0,
                payload: 0x8000_aaaa_d000_1000,
            },
        ),
        (0x0e, 3, K::Counter { index: 1, value: 4 }),
        (
            0x11,
            3,
            K::Counter {
                index: 0,
                value: 42,
            },
        ),
        (0x14, 3, K::Counter { index: 2, value: 3 }),
        (
            0x17,
            9,
            K::Address {
                index: 2,
                payload: 0x0000_ffff_e000_1238,
            },
        ),
        (
            0x20,
            9,
            K::Address {
                index: 3,
                payload: 0x8000_0008_8000_1238,
            },
        ),
        (0x29, 2, K::DataSource { size: 1, value: 8 }),
        (
            0x2b,
            2,
            K::OpType {
                class: 1,
                subclass: 0,
            },
        ),
        (
            0x2d,
            3,
            K::Events {
                size: 2,
                bits: 0x1e,
            },
        ),
        (0x30, 9, K::Timestamp(86_447_955_877)),
    ]);
    assert_eq!(d.packets, expected);
    let descs: Vec<String> = d.packets.iter().map(|p| describe(&p.kind)).collect();
    assert_eq!(
        descs,
        [
            "CONTEXT 0x4d2 el1",
            "PC 0xaaaad0001000 el0 ns=1",
            "LAT 4 ISSUE",
            "LAT 42 TOT",
            "LAT 3 XLAT",
            "VA 0xffffe0001238",
            "PA 0x880001238 ns=1 ch=0 pat=0",
            "DATA-SOURCE 8",
            "LD GP-REG",
            "EV RETIRED L1D-ACCESS L1D-REFILL TLB-ACCESS",
            "TS 86447955877",
        ]
    );
    assert!(d.bad_offsets.is_empty() && d.truncated_offsets.is_empty() && d.abandoned.is_empty());
    assert_eq!(d.unterminated_tail, None);
}

#[test]
fn example_a_record_has_the_reference_fields() {
    let d = decode(&hex(EXAMPLE_A));
    assert_eq!(d.records.len(), 1);
    let r = &d.records[0];
    assert_eq!((r.start, r.end), (0, 57));
    assert_eq!(
        r.context,
        Some(Context {
            index: 0,
            value: 1234
        })
    );
    assert_eq!(r.pc, Some(0x8000_aaaa_d000_1000));
    assert_eq!(r.ip(), Some(0x0000_aaaa_d000_1000));
    assert_eq!((r.el(), r.ns()), (Some(0), Some(true)));
    assert_eq!(r.issue_latency, Some(4));
    assert_eq!(r.total_latency, Some(42));
    assert_eq!(r.translation_latency, Some(3));
    assert_eq!(r.virt_addr(), Some(0x0000_ffff_e000_1238));
    assert_eq!(r.phys_addr(), Some(0x8_8000_1238));
    assert_eq!(r.data_source, Some(8));
    assert_eq!(
        r.op,
        Some(Op {
            class: 1,
            subclass: 0
        })
    );
    assert_eq!(r.events, Some(0x1e));
    assert_eq!(r.timestamp, Some(0x14_20B3_1FA5));
    assert_eq!((r.to_ip(), r.prev_br_tgt()), (None, None));
    assert!(r.other_addresses.is_empty() && r.other_counters.is_empty());
}

#[test]
fn example_a_padded_to_its_slot_keeps_one_record_and_reports_the_padding() {
    let buf = padded(&hex(EXAMPLE_A));
    let d = decode(&buf);
    assert_eq!(d.records.len(), 1);
    assert_eq!(d.records[0].end, 57);
    assert_eq!(
        d.packets.last(),
        Some(&Packet {
            offset: 57,
            len: 7,
            kind: K::Pad
        })
    );
    assert_eq!(d.unterminated_tail, None);
    assert!(
        check_record_rules(&buf).is_empty(),
        "{:?}",
        check_record_rules(&buf)
    );
}

#[test]
fn example_a_without_timestamp_ends_with_end() {
    // §7.1: with PMSCR.TS=0 the last 9 bytes become 01 (End).
    let mut buf = hex(EXAMPLE_A);
    buf.truncate(0x30);
    buf.push(0x01);
    let d = decode(&buf);
    assert_eq!(d.records.len(), 1);
    assert_eq!(d.records[0].timestamp, None);
    assert_eq!(d.records[0].end, 0x31);
    assert_eq!(d.records[0].total_latency, Some(42));
}

#[test]
fn kernel_pc_variant_gets_its_top_byte_back() {
    // §7.1 kernel-PC variant, and the real Neoverse N1 line it matches (§7.1, [S13]).
    let d = decode(&hex("b0 40 30 20 10 00 80 ff a0 01"));
    assert_eq!(
        d.packets[0].kind,
        K::Address {
            index: 0,
            payload: 0xa0ff_8000_1020_3040
        }
    );
    assert_eq!(describe(&d.packets[0].kind), "PC 0xff800010203040 el1 ns=1");
    assert_eq!(d.records[0].ip(), Some(0xffff_8000_1020_3040));
    let n1 = decode(&hex("b0 f4 d3 29 10 00 80 ff a0"));
    assert_eq!(
        describe(&n1.packets[0].kind),
        "PC 0xff80001029d3f4 el1 ns=1"
    );
}

#[test]
fn example_b_decodes_to_the_reference_packets_and_record() {
    let buf = hex(EXAMPLE_B);
    assert_eq!(buf.len(), 30);
    let d = decode(&buf);
    let expected = pk(&[
        (
            0x00,
            9,
            K::Address {
                index: 0,
                payload: 0x8000_aaaa_d000_1234,
            },
        ),
        (0x09, 3, K::Counter { index: 1, value: 2 }),
        (0x0c, 3, K::Counter { index: 0, value: 5 }),
        (
            0x0f,
            9,
            K::Address {
                index: 1,
                payload: 0x8000_aaaa_d000_1300,
            },
        ),
        (
            0x18,
            2,
            K::OpType {
                class: 2,
                subclass: 1,
            },
        ),
        (
            0x1a,
            3,
            K::Events {
                size: 2,
                bits: 0x82,
            },
        ),
        (0x1d, 1, K::End),
    ]);
    assert_eq!(d.packets, expected);
    let descs: Vec<String> = d.packets.iter().map(|p| describe(&p.kind)).collect();
    assert_eq!(
        descs,
        [
            "PC 0xaaaad0001234 el0 ns=1",
            "LAT 2 ISSUE",
            "LAT 5 TOT",
            "TGT 0xaaaad0001300 el0 ns=1",
            "B COND",
            "EV RETIRED MISPRED",
            "END",
        ]
    );
    assert_eq!(d.records.len(), 1);
    let r = &d.records[0];
    assert_eq!((r.start, r.end), (0, 30));
    assert_eq!(r.ip(), Some(0xaaaa_d000_1234));
    assert_eq!(r.to_ip(), Some(0xaaaa_d000_1300));
    assert_eq!(
        (r.issue_latency, r.total_latency, r.translation_latency),
        (Some(2), Some(5), None)
    );
    assert_eq!(
        r.op,
        Some(Op {
            class: 2,
            subclass: 1
        })
    );
    assert_eq!(r.events, Some((1 << 1) | (1 << 7)));
    assert_eq!(r.timestamp, None);
    assert_eq!(
        (r.data_va, r.data_pa, r.data_source, r.context),
        (None, None, None, None)
    );
    assert!(check_record_rules(&padded(&buf)).is_empty());
}

#[test]
fn example_c_decodes_to_the_reference_packets_and_record() {
    let buf = hex(EXAMPLE_C);
    assert_eq!(buf.len(), 46);
    let d = decode(&buf);
    let expected = pk(&[
        (
            0x00,
            9,
            K::Address {
                index: 0,
                payload: 0xa0ff_8000_1020_3040,
            },
        ),
        (0x09, 3, K::Counter { index: 1, value: 1 }),
        (0x0c, 3, K::Counter { index: 0, value: 3 }),
        (
            0x0f,
            9,
            K::Address {
                index: 1,
                payload: 0xa0ff_8000_1020_4000,
            },
        ),
        (
            0x18,
            9,
            K::Address {
                index: 4,
                payload: 0xa0ff_8000_1020_3000,
            },
        ),
        (
            0x21,
            2,
            K::OpType {
                class: 2,
                subclass: 0x12,
            },
        ),
        (
            0x23,
            2,
            K::Events {
                size: 1,
                bits: 0x02,
            },
        ),
        (0x25, 9, K::Timestamp(0x11_2233_4455)),
    ]);
    assert_eq!(d.packets, expected);
    let descs: Vec<String> = d.packets.iter().map(|p| describe(&p.kind)).collect();
    assert_eq!(
        descs,
        [
            "PC 0xff800010203040 el1 ns=1",
            "LAT 1 ISSUE",
            "LAT 3 TOT",
            "TGT 0xff800010204000 el1 ns=1",
            "PBT 0xff800010203000 el1 ns=1",
            "B IND CR-RET",
            "EV RETIRED",
            "TS 73588229205",
        ]
    );
    let r = &d.records[0];
    assert_eq!(d.records.len(), 1);
    assert_eq!((r.start, r.end), (0, 46));
    assert_eq!(r.ip(), Some(0xffff_8000_1020_3040));
    assert_eq!((r.el(), r.ns()), (Some(1), Some(true)));
    assert_eq!(r.to_ip(), Some(0xffff_8000_1020_4000));
    assert_eq!(r.prev_br_tgt(), Some(0xffff_8000_1020_3000));
    assert_eq!((r.issue_latency, r.total_latency), (Some(1), Some(3)));
    assert_eq!(
        r.op,
        Some(Op {
            class: 2,
            subclass: 0x12
        })
    );
    assert_eq!(r.events, Some(0x02));
    assert_eq!(r.timestamp, Some(0x11_2233_4455));
    assert!(check_record_rules(&padded(&buf)).is_empty());
}
