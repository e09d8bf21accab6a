//! The docs/spe-reference.md §7.5 checklist (`check_record_rules`).

use super::{examples::EXAMPLE_A, hex};
use crate::check_record_rules;

/// Example A with its last `drop` bytes replaced by `tail`, padded to a 64-byte slot.
fn slot_with(drop: usize, tail: &str) -> Vec<u8> {
    let mut v = hex(EXAMPLE_A);
    v.truncate(v.len() - drop);
    v.extend(hex(tail));
    v.resize(64, 0);
    v
}

/// Asserts exactly one message, containing `needle`.
fn one_error(slot: &[u8], needle: &str) {
    let errors = check_record_rules(slot);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].contains(needle),
        "{errors:?} should mention {needle:?}"
    );
}

#[test]
fn reference_record_with_end_passes() {
    assert!(check_record_rules(&slot_with(9, "01")).is_empty());
}

#[test]
fn timestamp_followed_by_end_is_reported() {
    one_error(&slot_with(0, "01"), "END after the TIMESTAMP at 0x30");
}

#[test]
fn missing_terminator_is_reported() {
    one_error(&slot_with(9, ""), "no terminator");
}

#[test]
fn second_terminator_and_packets_after_the_terminator_are_reported() {
    one_error(&slot_with(9, "01 01"), "second terminator");
    one_error(
        &slot_with(0, "4a 00"),
        "non-padding packet after the terminator",
    );
}

#[test]
fn extended_prefix_followed_by_zero_is_reported() {
    // Inserted before the terminator: 0x22 0x00 is perf's alignment pseudo-packet (A = 8).
    let errors = check_record_rules(&slot_with(9, "22 00 00 00 00 00 00 00 01"));
    assert!(
        errors.iter().any(|e| e.contains("alignment pseudo-packet")),
        "{errors:?}"
    );
}

#[test]
fn wrong_sizes_and_inexact_timestamp_headers_are_reported() {
    for (tail, needle) in [
        ("a0 00 00 00 00 01", "Address header with SZ != 8"),
        ("88 00 01", "Counter header with SZ != 2"),
        ("54 00 00 01", "Context header with SZ != 4"),
        ("58 00 00 01", "Operation Type header with SZ != 1"),
        ("61 00 00 00 00 01", "Timestamp header must be exactly 0x71"),
        ("21 42 00 01", "extended-header prefix followed by 0x42"),
    ] {
        let slot = slot_with(9, tail);
        let errors = check_record_rules(&slot);
        assert!(
            errors[0].starts_with("0x30: bad packet") && errors[0].contains(needle),
            "{tail}: {errors:?}"
        );
    }
}

#[test]
fn truncated_packet_is_reported() {
    let mut slot = hex(EXAMPLE_A);
    slot.truncate(0x32);
    let errors = check_record_rules(&slot);
    assert!(
        errors[0].starts_with("0x30: truncated packet: needs 9 bytes"),
        "{errors:?}"
    );
}

#[test]
fn reserved_op_class_and_undefined_subclasses_are_reported() {
    let with_op = |op: &str| {
        let mut v = hex(EXAMPLE_A);
        v.splice(0x2b..0x2d, hex(op));
        v.resize(64, 0);
        v
    };
    one_error(&with_op("4b 00"), "class 3 is reserved");
    one_error(
        &with_op("48 10"),
        "subclass 0x10 is not a defined encoding for class 0",
    );
    one_error(
        &with_op("49 60"),
        "subclass 0x60 is not a defined encoding for class 1",
    );
    one_error(
        &with_op("4a 20"),
        "subclass 0x20 is not a defined encoding for class 2",
    );
    for ok in [
        "48 07", "48 3e", "49 25", "49 14", "49 1f", "49 45", "4a 1f",
    ] {
        assert!(check_record_rules(&with_op(ok)).is_empty(), "{ok}");
    }
}
