//! Seeded random tests: well-formed streams round-trip through the test encoder and the
//! decoder; random garbage never panics and always decodes consistently.

use super::{encode, seed_for, Rng};
use crate::{check_record_rules, decode, dump, Packet, PacketKind as K, PAD_MERGE_LIMIT};

/// One random well-formed packet and whether to use an extended header (only meaningful for
/// Address and Counter; forced for indices >= 8 by the encoder).
fn random_packet(rng: &mut Rng) -> (K, bool) {
    let size = rng.pick(&[1usize, 2, 4, 8]);
    let sized = |v: u64| {
        if size == 8 {
            v
        } else {
            v & ((1u64 << (8 * size)) - 1)
        }
    };
    let kind = match rng.below(9) {
        0 => K::End,
        1 => K::Timestamp(rng.next()),
        2 => K::Events {
            size,
            bits: sized(rng.next()),
        },
        3 => K::DataSource {
            size,
            value: sized(rng.next()),
        },
        4 => K::Context {
            index: rng.below(4) as u8,
            value: rng.next() as u32,
        },
        5 => K::OpType {
            class: rng.below(4) as u8,
            subclass: rng.next() as u8,
        },
        6 | 7 => K::Address {
            index: rng.below(32) as u8,
            payload: rng.next(),
        },
        _ => K::Counter {
            index: rng.below(32) as u8,
            value: rng.next() as u16,
        },
    };
    (kind, rng.below(4) == 0)
}

/// A random well-formed stream: its bytes and the packets perf's rules must find in it
/// (zero runs merged into PADs of at most 16 bytes).
fn random_stream(rng: &mut Rng) -> (Vec<u8>, Vec<Packet>) {
    let mut bytes = Vec::new();
    let mut expected = Vec::new();
    let mut zeros = 0usize;
    let items = rng.below(80);
    for _ in 0..items {
        if rng.below(4) == 0 {
            zeros += 1 + rng.below(40) as usize;
            continue;
        }
        flush_padding(&mut bytes, &mut expected, &mut zeros);
        let (kind, extended) = random_packet(rng);
        let enc = encode(&kind, extended);
        expected.push(Packet {
            offset: bytes.len(),
            len: enc.len(),
            kind,
        });
        bytes.extend(enc);
    }
    flush_padding(&mut bytes, &mut expected, &mut zeros);
    (bytes, expected)
}

/// Appends a run of `zeros` padding bytes and the PAD packets perf would report for it.
fn flush_padding(bytes: &mut Vec<u8>, expected: &mut Vec<Packet>, zeros: &mut usize) {
    while *zeros > 0 {
        let len = (*zeros).min(PAD_MERGE_LIMIT);
        expected.push(Packet {
            offset: bytes.len(),
            len,
            kind: K::Pad,
        });
        bytes.resize(bytes.len() + len, 0);
        *zeros -= len;
    }
}

#[test]
fn random_well_formed_streams_decode_to_exactly_their_packets() {
    let mut rng = Rng::new(seed_for(
        "random_well_formed_streams_decode_to_exactly_their_packets",
    ));
    for case in 0..400 {
        let (bytes, expected) = random_stream(&mut rng);
        let d = decode(&bytes);
        assert_eq!(d.packets, expected, "case {case}, bytes {bytes:02x?}");
        assert!(
            d.bad_offsets.is_empty() && d.truncated_offsets.is_empty(),
            "case {case}"
        );

        // Framing: one record per terminator; one abandoned record per class-3 op type; a tail
        // exactly when a data packet follows the last terminator and the last class-3 op.
        let real: Vec<&Packet> = expected.iter().filter(|p| p.kind != K::Pad).collect();
        let is_class3 = |p: &Packet| matches!(p.kind, K::OpType { class: 3, .. });
        let terminators: Vec<&Packet> = real
            .iter()
            .copied()
            .filter(|p| p.kind.is_terminator())
            .collect();
        assert_eq!(d.records.len(), terminators.len(), "case {case}");
        assert_eq!(
            d.abandoned.len(),
            real.iter().filter(|p| is_class3(p)).count(),
            "case {case}"
        );
        let cut = real
            .iter()
            .rposition(|p| p.kind.is_terminator() || is_class3(p))
            .map_or(0, |i| i + 1);
        assert_eq!(
            d.unterminated_tail.map(|t| t.start),
            real.get(cut).map(|p| p.offset),
            "case {case}"
        );

        // Each record ends at its terminator and carries its timestamp and its last PC.
        for (r, t) in d.records.iter().zip(&terminators) {
            assert_eq!(r.end, t.end(), "case {case}");
            let ts = match t.kind {
                K::Timestamp(ts) => Some(ts),
                _ => None,
            };
            assert_eq!(r.timestamp, ts, "case {case}");
            let last_pc = real
                .iter()
                .filter(|p| p.offset >= r.start && p.offset < r.end)
                .filter_map(|p| match p.kind {
                    K::Address { index: 0, payload } => Some(payload),
                    _ => None,
                })
                .next_back();
            assert_eq!(r.pc, last_pc, "case {case}");
        }
    }
}

#[test]
fn random_garbage_never_panics_and_decodes_consistently() {
    let mut rng = Rng::new(seed_for(
        "random_garbage_never_panics_and_decodes_consistently",
    ));
    // Bytes that start packets or sit at pattern edges, to make garbage look like SPE often.
    let interesting = [
        0x00, 0x01, 0x20, 0x21, 0x22, 0x23, 0x42, 0x52, 0x62, 0x72, 0x43, 0x73, 0x41, 0x71, 0x48,
        0x4b, 0x64, 0x67, 0x98, 0x9f, 0xb0, 0xb7, 0xa0, 0xff,
    ];
    for case in 0..3000 {
        let len = rng.below(130) as usize;
        let buf: Vec<u8> = (0..len)
            .map(|_| {
                if rng.below(2) == 0 {
                    rng.pick(&interesting)
                } else {
                    rng.next() as u8
                }
            })
            .collect();
        let d = decode(&buf);
        // The packets tile the buffer; errors cover one byte; valid packets re-encode to their bytes.
        let mut at = 0;
        for p in &d.packets {
            assert_eq!(p.offset, at, "case {case}, buf {buf:02x?}");
            assert!(p.len >= 1 && p.end() <= buf.len(), "case {case}");
            match p.kind {
                K::Bad | K::Truncated { .. } => assert_eq!(p.len, 1, "case {case}"),
                K::Pad => assert!(
                    buf[p.offset..p.end()].iter().all(|&b| b == 0),
                    "case {case}"
                ),
                K::Alignment { align } => {
                    assert!(p.len <= PAD_MERGE_LIMIT.max(align), "case {case}")
                }
                kind => {
                    let extended = p.len == encode(&kind, false).len() + 1;
                    assert_eq!(
                        encode(&kind, extended),
                        &buf[p.offset..p.end()],
                        "case {case}: {p:?}"
                    );
                }
            }
            at = p.end();
        }
        assert_eq!(at, buf.len(), "case {case}");
        // Records are in order, inside the buffer, and never overlap.
        let mut prev_end = 0;
        for r in &d.records {
            assert!(
                prev_end <= r.start && r.start < r.end && r.end <= buf.len(),
                "case {case}"
            );
            prev_end = r.end;
        }
        let errors = d.packets.iter().filter(|p| p.kind.is_error()).count();
        assert_eq!(
            errors,
            d.bad_offsets.len() + d.truncated_offsets.len(),
            "case {case}"
        );
        assert!(d.abandoned.len() <= errors + d.packets.len(), "case {case}");
        assert_eq!(
            dump(&buf).lines().count(),
            1 + d.packets.len(),
            "case {case}"
        );
        let _ = check_record_rules(&buf);
    }
}
