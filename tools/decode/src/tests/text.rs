//! Text output: perf `arm_spe_pkt_desc()` words and the `perf report -D` line layout.

use super::{examples::EXAMPLE_A, hex};
use crate::{
    decode, describe, describe_events, describe_op, dump, dump_line, record_summary,
    PacketKind as K,
};

#[test]
fn dump_lines_have_perfs_layout() {
    let buf = hex(EXAMPLE_A);
    let d = decode(&buf);
    assert_eq!(
        dump_line(&buf, &d.packets[0]),
        format!(
            ".  00000000:  64 d2 04 00 00{} CONTEXT 0x4d2 el1",
            "   ".repeat(11)
        )
    );
    assert_eq!(
        dump_line(&buf, &d.packets[10]),
        format!(
            ".  00000030:  71 a5 1f b3 20 14 00 00 00{} TS 86447955877",
            "   ".repeat(7)
        )
    );
    let text = dump(&buf);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], ". ... ARM SPE data: size 0x39 bytes");
    assert_eq!(lines.len(), 1 + d.packets.len());
    assert!(lines[9].ends_with(" LD GP-REG"), "{}", lines[9]);
}

#[test]
fn bad_and_truncated_packets_print_bad_packet() {
    let buf = hex("ff 71 00");
    let text = dump(&buf);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[1],
        format!(".  00000000:  ff{} Bad packet!", "   ".repeat(15))
    );
    assert!(lines[2].starts_with(".  00000001:  71 ") && lines[2].ends_with(" Bad packet!"));
    assert!(lines[3].ends_with(" PAD"));
}

#[test]
fn unknown_event_bits_print_as_impdef() {
    assert_eq!(describe_events(0), "EV");
    assert_eq!(
        describe_events((1 << 1) | (1 << 12)),
        "EV RETIRED IMPDEF:12"
    );
    assert_eq!(
        describe_events((1 << 12) | (1 << 40) | (1 << 63) | (1 << 25)),
        "EV SMCU IMPDEF:12,40,63"
    );
    assert_eq!(
        describe_events(0xFFF),
        "EV EXCEPTION-GEN RETIRED L1D-ACCESS L1D-REFILL TLB-ACCESS TLB-REFILL NOT-TAKEN MISPRED LLC-ACCESS LLC-REFILL REMOTE-ACCESS ALIGNMENT"
    );
}

#[test]
fn op_type_descriptions_use_perfs_words() {
    let cases: &[(u8, u8, &str)] = &[
        (0, 0x00, "OTHER INSN-OTHER"),
        (0, 0x01, "OTHER COND-SELECT"),
        (0, 0x06, "OTHER ASE FP INSN-OTHER"),
        (0, 0x3e, "SVE-OTHER EVLEN 256 FP PRED"),
        (0, 0x9a, "SME-OTHER ETS 512 FP"),
        (0, 0x10, ""),
        (1, 0x00, "LD GP-REG"),
        (1, 0x01, "ST GP-REG"),
        (1, 0x04, "LD SIMD-FP"),
        (1, 0x10, "LD UNSPEC-REG"),
        (1, 0x14, "LD MTE-TAG"),
        (1, 0x21, "ST MEMCPY"),
        (1, 0x25, "ST MEMSET"),
        (1, 0x30, "LD NV-SYSREG"),
        (1, 0x1f, "ST AT EXCL AR"),
        (1, 0x12, "LD AR"),
        (1, 0xac, "LD SVE-SME-REG EVLEN 128 PRED SG"),
        (1, 0x45, "ST GCS COMM"),
        (1, 0x60, "LD"),
        (2, 0x00, "B"),
        (2, 0x01, "B COND"),
        (2, 0x02, "B IND"),
        (2, 0x0c, "B GCS CR-BL"),
        (2, 0x12, "B IND CR-RET"),
        (2, 0x18, "B CR-NON-BL-RET"),
    ];
    for &(class, v, want) in cases {
        assert_eq!(
            describe_op(class, v).as_deref(),
            Some(want),
            "class {class} subclass {v:#04x}"
        );
    }
    assert_eq!(describe_op(3, 0), None);
    assert_eq!(
        describe(&K::OpType {
            class: 3,
            subclass: 1
        }),
        "OP-TYPE 0x1 (3)"
    );
}

#[test]
fn other_descriptions_follow_perf() {
    assert_eq!(
        describe(&K::Address {
            index: 5,
            payload: 0xabc
        }),
        "ADDR 0xabc (5)"
    );
    assert_eq!(
        describe(&K::Address {
            index: 2,
            payload: 0x12ff_8000_0000_1000
        }),
        "VA 0x12ff800000001000"
    );
    assert_eq!(
        describe(&K::Address {
            index: 3,
            payload: 0xc500_0000_0000_1000
        }),
        "PA 0x1000 ns=1 ch=1 pat=5"
    );
    assert_eq!(describe(&K::Counter { index: 4, value: 9 }), "LAT 9 ");
    assert_eq!(
        describe(&K::Context { index: 1, value: 7 }),
        "CONTEXT 0x7 el2"
    );
    assert_eq!(describe(&K::Alignment { align: 8 }), "PAD");
    assert_eq!(
        describe(&K::Timestamp(u64::MAX)),
        "TS -1",
        "perf prints %lld"
    );
}

#[test]
fn record_summary_names_the_main_fields() {
    let d = decode(&hex(EXAMPLE_A));
    let line = record_summary(3, &d.records[0]);
    assert_eq!(
        line,
        "#3 @0x0 PC 0xaaaad0001000 el0 ns=1 | LD GP-REG | LAT 42 TOT 4 ISSUE 3 XLAT | \
         EV RETIRED L1D-ACCESS L1D-REFILL TLB-ACCESS | VA 0xffffe0001238 PA 0x880001238 | \
         CONTEXT 0x4d2 el1 | DS 8 | TS 86447955877"
    );
    let empty = decode(&hex("01"));
    assert_eq!(
        record_summary(0, &empty.records[0]),
        "#0 @0x0 (no PC) | END"
    );
}
