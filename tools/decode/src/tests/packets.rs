//! Packet-layer rules of perf's `arm_spe_get_packet()`.

use super::{encode, examples::EXAMPLE_A, hex, le};
use crate::{decode, get_packet, packets, Packet, PacketKind as K, PAD_MERGE_LIMIT};

/// The first packet of `bytes`.
fn first(bytes: &[u8]) -> Packet {
    get_packet(bytes, 0).expect("non-empty buffer")
}

/// Reference §0 item 4, "accepted first bytes", written out from the table.
fn reference_class(b: u8) -> &'static str {
    match b {
        0x00 => "pad",
        0x01 => "end",
        0x20..=0x23 => "extended",
        0x42 | 0x52 | 0x62 | 0x72 => "events",
        0x43 | 0x53 | 0x63 | 0x73 => "data-source",
        0x48..=0x4B => "op-type",
        0x64..=0x67 => "context",
        0x71 => "timestamp",
        0x98..=0x9F => "counter",
        0xB0..=0xB7 => "address",
        _ => "bad",
    }
}

#[test]
fn every_first_byte_is_classified_as_in_the_reference_table() {
    for b in 0..=255u8 {
        // Byte 1 is a Counter header so that an extended prefix forms a valid packet; the rest
        // is long enough for any payload.
        let mut buf = vec![b, 0x98];
        buf.resize(16, 0x11);
        let p = first(&buf);
        let got = match p.kind {
            K::Pad => "pad",
            K::End => "end",
            K::Counter { index, .. } if p.len == 4 => {
                assert_eq!(index, (b & 3) << 3, "extended index of {b:#04x}");
                "extended"
            }
            K::Events { .. } => "events",
            K::DataSource { .. } => "data-source",
            K::OpType { .. } => "op-type",
            K::Context { .. } => "context",
            K::Timestamp(_) => "timestamp",
            K::Counter { .. } => "counter",
            K::Address { .. } => "address",
            K::Bad => "bad",
            other => panic!("{b:#04x} decoded as {other:?}"),
        };
        assert_eq!(got, reference_class(b), "first byte {b:#04x}");
        if got == "bad" {
            assert_eq!(p.len, 1, "a bad byte advances one byte");
        }
    }
}

#[test]
fn fixed_size_packets_take_their_length_from_the_pattern() {
    let buf = [0u8; 16];
    let with = |h: u8| {
        let mut v = buf.to_vec();
        v[0] = h;
        first(&v)
    };
    assert_eq!(with(0xB3).len, 9);
    assert_eq!(with(0x9A).len, 3);
    assert_eq!(with(0x65).len, 5);
    assert_eq!(with(0x4A).len, 2);
    assert_eq!(with(0x71).len, 9);
    // Same type bits with another SZ are BAD, not another size.
    for h in [
        0x80, 0x90, 0xA0, 0x88, 0xA8, 0xB8, 0x44, 0x54, 0x74, 0x58, 0x68, 0x78, 0x41, 0x51, 0x61,
    ] {
        assert_eq!(with(h).kind, K::Bad, "{h:#04x}");
    }
}

#[test]
fn events_and_data_source_accept_every_payload_size() {
    let value = 0x8877_6655_4433_2211u64;
    for (sz, size) in [1usize, 2, 4, 8].into_iter().enumerate() {
        let masked = if size == 8 {
            value
        } else {
            value & ((1u64 << (8 * size)) - 1)
        };
        let mut ev = vec![0x42 | ((sz as u8) << 4)];
        ev.extend(le(value, size));
        assert_eq!(
            first(&ev),
            Packet {
                offset: 0,
                len: 1 + size,
                kind: K::Events { size, bits: masked }
            }
        );
        let mut ds = vec![0x43 | ((sz as u8) << 4)];
        ds.extend(le(value, size));
        assert_eq!(
            first(&ds),
            Packet {
                offset: 0,
                len: 1 + size,
                kind: K::DataSource {
                    size,
                    value: masked
                }
            }
        );
    }
}

#[test]
fn extended_header_below_eight_decodes_as_short_index() {
    let p = first(&hex("20 b0 01 02 03 04 05 06 07 08"));
    assert_eq!(
        p,
        Packet {
            offset: 0,
            len: 10,
            kind: K::Address {
                index: 0,
                payload: 0x0807_0605_0403_0201
            }
        }
    );
    let c = first(&hex("20 9a 2a 00"));
    assert_eq!(
        c,
        Packet {
            offset: 0,
            len: 4,
            kind: K::Counter {
                index: 2,
                value: 42
            }
        }
    );
    // The record sees it exactly as a short-header TOT/PC would be seen.
    let d = decode(&hex("20 98 07 00 20 b0 00 10 00 00 00 00 00 00 01"));
    assert_eq!(d.records[0].total_latency, Some(7));
    assert_eq!(d.records[0].pc, Some(0x1000));
}

#[test]
fn extended_header_index_combines_prefix_and_header_bits() {
    assert_eq!(
        first(&hex("21 b1 00 00 00 00 00 00 00 00")).kind,
        K::Address {
            index: 9,
            payload: 0
        }
    );
    assert_eq!(
        first(&hex("23 b7 00 00 00 00 00 00 00 00")).kind,
        K::Address {
            index: 31,
            payload: 0
        }
    );
    assert_eq!(
        first(&hex("22 9c 05 00")).kind,
        K::Counter {
            index: 20,
            value: 5
        }
    );
}

#[test]
fn extended_prefix_as_last_byte_is_bad() {
    let d = decode(&hex("01 22"));
    assert_eq!(
        d.packets[1],
        Packet {
            offset: 1,
            len: 1,
            kind: K::Bad
        }
    );
    assert_eq!(d.bad_offsets, [1]);
    assert!(d.truncated_offsets.is_empty());
}

#[test]
fn extended_prefix_before_a_non_address_non_counter_header_is_bad_and_resyncs() {
    for (bytes, second) in [
        ("20 71 01 00 00 00 00 00 00 00", K::Timestamp(1)),
        ("21 52 03 00", K::Events { size: 2, bits: 3 }),
        ("23 01", K::End),
        (
            "22 49 00",
            K::OpType {
                class: 1,
                subclass: 0,
            },
        ),
    ] {
        let ps: Vec<Packet> = packets(&hex(bytes)).collect();
        assert_eq!(
            ps[0],
            Packet {
                offset: 0,
                len: 1,
                kind: K::Bad
            },
            "{bytes}"
        );
        assert_eq!(ps[1].offset, 1);
        assert_eq!(ps[1].kind, second, "{bytes}");
    }
}

#[test]
fn payload_past_the_end_is_truncated_and_resyncs_one_byte() {
    // Extended Counter needs 4 bytes; then the short Counter at 1 needs 3; then End.
    let ps: Vec<Packet> = packets(&hex("20 98 01")).collect();
    assert_eq!(
        ps,
        [
            Packet {
                offset: 0,
                len: 1,
                kind: K::Truncated { needed: 4 }
            },
            Packet {
                offset: 1,
                len: 1,
                kind: K::Truncated { needed: 3 }
            },
            Packet {
                offset: 2,
                len: 1,
                kind: K::End
            },
        ]
    );
    let d = decode(&hex("71 00 00"));
    assert_eq!(d.truncated_offsets, [0]);
    assert_eq!(
        d.packets[1],
        Packet {
            offset: 1,
            len: 2,
            kind: K::Pad
        }
    );
}

#[test]
fn truncation_at_every_cut_of_example_a_is_reported_at_the_cut_packet() {
    let full = hex(EXAMPLE_A);
    let whole: Vec<Packet> = packets(&full).collect();
    for cut in 0..full.len() {
        let buf = &full[..cut];
        let d = decode(buf);
        // Every packet that ends at or before the cut decodes unchanged.
        let intact: Vec<Packet> = whole.iter().copied().filter(|p| p.end() <= cut).collect();
        assert_eq!(&d.packets[..intact.len()], &intact[..], "cut {cut}");
        match whole.iter().find(|p| p.offset < cut && cut < p.end()) {
            Some(cut_packet) => {
                let err = d.packets[intact.len()];
                assert_eq!(err.offset, cut_packet.offset, "cut {cut}");
                assert!(
                    matches!(err.kind, K::Truncated { needed } if needed == cut_packet.len),
                    "cut {cut}: {err:?}"
                );
                assert_eq!(
                    d.truncated_offsets.first(),
                    Some(&cut_packet.offset),
                    "cut {cut}"
                );
                if cut_packet.offset > 0 {
                    assert_eq!(d.abandoned[0].start, 0, "cut {cut}");
                    assert_eq!(d.abandoned[0].at, cut_packet.offset, "cut {cut}");
                }
            }
            None => {
                assert_eq!(d.packets, intact, "cut {cut}");
                assert!(
                    d.truncated_offsets.is_empty() && d.bad_offsets.is_empty(),
                    "cut {cut}"
                );
                assert_eq!(
                    d.unterminated_tail,
                    if cut == 0 { None } else { Some(0..cut) },
                    "cut {cut}"
                );
            }
        }
        // No terminator is complete before the end, so no record.
        assert!(d.records.is_empty(), "cut {cut}");
        assert_eq!(
            d.packets.iter().map(|p| p.len).sum::<usize>(),
            cut,
            "cut {cut}"
        );
    }
}

#[test]
fn consecutive_padding_merges_up_to_sixteen_bytes() {
    let mut buf = vec![0u8; 20];
    buf.push(0x01);
    let ps: Vec<Packet> = packets(&buf).collect();
    assert_eq!(
        ps,
        [
            Packet {
                offset: 0,
                len: PAD_MERGE_LIMIT,
                kind: K::Pad
            },
            Packet {
                offset: 16,
                len: 4,
                kind: K::Pad
            },
            Packet {
                offset: 20,
                len: 1,
                kind: K::End
            },
        ]
    );
}

#[test]
fn alignment_pseudo_packet_skips_to_the_next_boundary_of_the_buffer_offset() {
    // At offset 1, 0x21 gives A = 4: perf skips 4 - (1 & 3) = 3 bytes, swallowing the 0x01 at 3.
    let ps: Vec<Packet> = packets(&hex("01 21 00 01 01")).collect();
    assert_eq!(
        ps,
        [
            Packet {
                offset: 0,
                len: 1,
                kind: K::End
            },
            Packet {
                offset: 1,
                len: 3,
                kind: K::Alignment { align: 4 }
            },
            Packet {
                offset: 4,
                len: 1,
                kind: K::End
            },
        ]
    );
    // 0x23 gives A = 16 at offset 0: the whole 16 bytes are skipped, whatever they hold.
    let mut buf = hex("23 00");
    buf.resize(16, 0x01);
    buf.push(0x01);
    let d = decode(&buf);
    assert_eq!(
        d.packets[0],
        Packet {
            offset: 0,
            len: 16,
            kind: K::Alignment { align: 16 }
        }
    );
    assert_eq!(d.records.len(), 1);
    assert_eq!(d.records[0].start, 16);
    // 0x20 gives A = 2; the zero bytes after it merge like perf merges PADs.
    let ps: Vec<Packet> = packets(&hex("20 00 00 00 01")).collect();
    assert_eq!(
        ps[0],
        Packet {
            offset: 0,
            len: 4,
            kind: K::Alignment { align: 2 }
        }
    );
    assert_eq!(
        ps[1],
        Packet {
            offset: 4,
            len: 1,
            kind: K::End
        }
    );
}

#[test]
fn alignment_with_fewer_than_a_bytes_left_is_truncated() {
    let ps: Vec<Packet> = packets(&hex("23 00 01")).collect();
    assert_eq!(
        ps,
        [
            Packet {
                offset: 0,
                len: 1,
                kind: K::Truncated { needed: 16 }
            },
            Packet {
                offset: 1,
                len: 1,
                kind: K::Pad
            },
            Packet {
                offset: 2,
                len: 1,
                kind: K::End
            },
        ]
    );
}

#[test]
fn unknown_indices_decode_and_are_kept() {
    let d = decode(&hex(
        "b5 01 00 00 00 00 00 00 00 9c 07 00 66 78 56 34 12 21 b0 02 00 00 00 00 00 00 00 01",
    ));
    assert!(d.bad_offsets.is_empty());
    let r = &d.records[0];
    assert_eq!(r.other_addresses, [(5, 1), (8, 2)]);
    assert_eq!(r.other_counters, [(4, 7)]);
    assert_eq!(
        r.context.map(|c| (c.index, c.value, c.el())),
        Some((2, 0x1234_5678, 3))
    );
    assert_eq!(r.pc, None);
}

#[test]
fn get_packet_past_the_end_is_none() {
    assert_eq!(get_packet(&[], 0), None);
    assert_eq!(get_packet(&[0x01], 1), None);
    assert_eq!(
        get_packet(&[0x01], 0),
        Some(Packet {
            offset: 0,
            len: 1,
            kind: K::End
        })
    );
}

#[test]
fn every_encoded_packet_kind_decodes_back() {
    let kinds = [
        K::End,
        K::Timestamp(u64::MAX),
        K::Events {
            size: 8,
            bits: 1 << 63,
        },
        K::DataSource {
            size: 4,
            value: 0xdead_beef,
        },
        K::Context {
            index: 1,
            value: 0xffff_ffff,
        },
        K::OpType {
            class: 3,
            subclass: 0xff,
        },
        K::Address {
            index: 31,
            payload: 0x0123_4567_89ab_cdef,
        },
        K::Counter {
            index: 17,
            value: 0xffff,
        },
    ];
    for k in kinds {
        for extended in [false, true] {
            let bytes = encode(&k, extended);
            assert_eq!(
                first(&bytes),
                Packet {
                    offset: 0,
                    len: bytes.len(),
                    kind: k
                },
                "{bytes:02x?}"
            );
        }
    }
}
