//! Record framing (perf `arm_spe_read_record()`) and address reconstruction
//! (`arm_spe_calc_ip()`).

use super::{
    examples::{EXAMPLE_A, EXAMPLE_B},
    hex,
};
use crate::{calc_ip, decode, AbandonCause, Abandoned, Packet, PacketKind as K, Record};

#[test]
fn timestamp_then_end_gives_a_second_empty_record() {
    let mut buf = hex(EXAMPLE_A);
    buf.push(0x01);
    let d = decode(&buf);
    assert_eq!(d.records.len(), 2);
    assert_eq!(d.records[0].timestamp, Some(86_447_955_877));
    // The End alone is a record with nothing in it, exactly as perf returns it.
    assert_eq!(
        d.records[1],
        Record {
            start: 57,
            end: 58,
            ..Record::default()
        }
    );
    assert_eq!(d.records[1].ip(), None);
}

#[test]
fn padding_before_a_record_is_not_part_of_it() {
    let mut buf = vec![0u8; 5];
    buf.extend(hex(EXAMPLE_B));
    let d = decode(&buf);
    assert_eq!((d.records[0].start, d.records[0].end), (5, 35));
}

#[test]
fn bad_bytes_between_packets_abandon_the_record_and_resync_one_byte_at_a_time() {
    // Example B with three undecodable bytes inserted before the LAT TOT packet (offset 0x0c).
    let mut buf = hex(EXAMPLE_B);
    buf.splice(0x0c..0x0c, hex("ff 41 07"));
    let d = decode(&buf);
    assert_eq!(d.bad_offsets, [0x0c, 0x0d, 0x0e]);
    assert!(d.truncated_offsets.is_empty());
    assert_eq!(
        d.abandoned,
        [Abandoned {
            start: 0,
            at: 0x0c,
            cause: AbandonCause::Bad
        }]
    );
    // Decoding picks up at 0x0f: the rest of Example B becomes a record without a PC.
    assert_eq!(d.records.len(), 1);
    let r = &d.records[0];
    assert_eq!((r.start, r.end), (0x0f, 33));
    assert_eq!(
        (r.pc, r.issue_latency, r.total_latency),
        (None, None, Some(5))
    );
    assert_eq!(r.to_ip(), Some(0xaaaa_d000_1300));
}

#[test]
fn bad_header_resyncs_one_byte_at_a_time_through_its_payload() {
    // Example B with its PC header changed to 0xA0 (Address type bits, SZ = 4 bytes): BAD, and
    // its payload bytes are then read as headers one by one.
    let mut buf = hex(EXAMPLE_B);
    buf[0] = 0xa0;
    let d = decode(&buf);
    assert_eq!(d.bad_offsets, [0, 1, 2, 4, 5, 6, 8]);
    assert_eq!(
        d.packets[3],
        Packet {
            offset: 3,
            len: 1,
            kind: K::Pad
        }
    );
    assert_eq!(
        d.packets[7],
        Packet {
            offset: 7,
            len: 1,
            kind: K::Pad
        }
    );
    // No record had started, so nothing is abandoned; the rest frames normally.
    assert!(d.abandoned.is_empty());
    assert_eq!(d.records.len(), 1);
    assert_eq!(d.records[0].start, 9);
    assert_eq!(d.records[0].issue_latency, Some(2));
}

#[test]
fn truncated_packet_abandons_the_record() {
    let d = decode(&hex("98 05 00 b0 00 10"));
    assert_eq!(d.truncated_offsets, [3]);
    assert_eq!(
        d.abandoned,
        [Abandoned {
            start: 0,
            at: 3,
            cause: AbandonCause::Truncated
        }]
    );
    // The bytes after the resync (00 10) are a PAD then a BAD byte: no tail is left open.
    assert_eq!(d.bad_offsets, [5]);
    assert_eq!(d.unterminated_tail, None);
    assert!(d.records.is_empty());
}

#[test]
fn op_type_class_three_abandons_the_record_but_not_the_packets_after_it() {
    // Example B with its op type turned into class 3 (0x4B): newer perf drops the record, and
    // decoding continues right after the 2-byte packet.
    let mut buf = hex(EXAMPLE_B);
    buf[0x18] = 0x4b;
    let d = decode(&buf);
    assert_eq!(
        d.packets[4],
        Packet {
            offset: 0x18,
            len: 2,
            kind: K::OpType {
                class: 3,
                subclass: 1
            }
        }
    );
    assert_eq!(
        d.abandoned,
        [Abandoned {
            start: 0,
            at: 0x18,
            cause: AbandonCause::ReservedOpClass
        }]
    );
    assert!(d.bad_offsets.is_empty());
    assert_eq!(d.records.len(), 1);
    assert_eq!(
        (d.records[0].start, d.records[0].events),
        (0x1a, Some(0x82))
    );
    assert_eq!(d.records[0].pc, None);
}

#[test]
fn trailing_packets_without_terminator_are_an_unterminated_tail() {
    let mut buf = hex(EXAMPLE_B);
    let tail_start = buf.len() + 2;
    buf.extend(hex("00 00 98 05 00 00"));
    let d = decode(&buf);
    assert_eq!(d.records.len(), 1);
    assert_eq!(d.unterminated_tail, Some(tail_start..buf.len()));
    // Padding alone after the last record is not a tail.
    let d = decode(&[hex(EXAMPLE_B), vec![0; 9]].concat());
    assert_eq!(d.unterminated_tail, None);
}

#[test]
fn last_packet_of_a_kind_wins() {
    let d = decode(&hex("98 01 00 98 02 00 43 05 43 06 01"));
    assert_eq!(
        (d.records[0].total_latency, d.records[0].data_source),
        (Some(2), Some(6))
    );
}

#[test]
fn calc_ip_follows_perf_rules() {
    // PC / TGT / PBT: top byte cleared, 0xFF only for NS=1 at EL1 or EL2.
    let va = 0x00ff_8000_1020_3040u64;
    let with = |ns: u64, el: u64| (ns << 63) | (el << 61) | va;
    assert_eq!(calc_ip(0, with(1, 1)), 0xffff_8000_1020_3040);
    assert_eq!(calc_ip(1, with(1, 2)), 0xffff_8000_1020_3040);
    assert_eq!(calc_ip(4, with(1, 0)), va);
    assert_eq!(calc_ip(0, with(1, 3)), va);
    assert_eq!(calc_ip(0, with(0, 1)), va, "Secure EL1: no 0xFF top byte");
    assert_eq!(
        calc_ip(0, with(1, 1) | (1 << 60)),
        0xffff_8000_1020_3040,
        "NSE is ignored"
    );
    // Data VA: tag dropped, 0xFF when VA[55:52] == 0xF.
    assert_eq!(calc_ip(2, 0x12ff_8000_0000_1000), 0xffff_8000_0000_1000);
    assert_eq!(calc_ip(2, 0x3400_ffff_e000_1238), 0x0000_ffff_e000_1238);
    assert_eq!(calc_ip(2, 0x00ef_0000_0000_0000), 0x00ef_0000_0000_0000);
    // Data PA: bits 63:56 cleared.
    assert_eq!(calc_ip(3, 0xcf00_0008_8000_1238), 0x8_8000_1238);
    // Unknown index: untouched.
    assert_eq!(calc_ip(5, u64::MAX), u64::MAX);
}
