//! Tests of the decoder against the reference's worked examples, perf's rules, and random
//! streams. Helpers here: a hex parser, a tiny test-only packet encoder and a seeded PRNG.

mod examples;
mod framing;
mod packets;
mod random;
mod rules;
mod text;

use spe_defs::packet::{self as defs, EXTENDED};

use crate::PacketKind;

/// Parses whitespace-separated hex bytes, e.g. `"64 d2 04"`.
fn hex(s: &str) -> Vec<u8> {
    s.split_whitespace()
        .map(|b| {
            u8::from_str_radix(b, 16)
                .unwrap_or_else(|_| panic!("bad hex byte {b:?} in test vector"))
        })
        .collect()
}

/// The `len` low bytes of `v`, little-endian.
fn le(v: u64, len: usize) -> Vec<u8> {
    v.to_le_bytes()[..len].to_vec()
}

/// Test-only encoder: the bytes of one packet. Address and Counter packets use the extended
/// 2-byte header when `extended` is set or the index is 8 or more. Padding, alignment, bad and
/// truncated results have no single encoding and are not accepted.
fn encode(kind: &PacketKind, extended: bool) -> Vec<u8> {
    let prefix = |index: u8| {
        if extended || index >= 8 {
            vec![EXTENDED.value | (index >> 3)]
        } else {
            vec![]
        }
    };
    let mut out = Vec::new();
    match *kind {
        PacketKind::End => out.push(defs::END),
        PacketKind::Timestamp(ts) => {
            out.push(defs::TIMESTAMP);
            out.extend(le(ts, defs::TIMESTAMP_PAYLOAD));
        }
        PacketKind::Events { size, bits } => {
            out.push(defs::events_header(size));
            out.extend(le(bits, size));
        }
        PacketKind::DataSource { size, value } => {
            out.push(defs::data_source_header(size));
            out.extend(le(value, size));
        }
        PacketKind::Context { index, value } => {
            out.push(defs::context_header(index));
            out.extend(le(u64::from(value), defs::CONTEXT_PAYLOAD));
        }
        PacketKind::OpType { class, subclass } => {
            out.push(defs::op_type_header(class));
            out.push(subclass);
        }
        PacketKind::Address { index, payload } => {
            out.extend(prefix(index));
            out.push(defs::address_header(index));
            out.extend(le(payload, defs::ADDRESS_PAYLOAD));
        }
        PacketKind::Counter { index, value } => {
            out.extend(prefix(index));
            out.push(defs::counter_header(index));
            out.extend(le(u64::from(value), defs::COUNTER_PAYLOAD));
        }
        PacketKind::Pad
        | PacketKind::Alignment { .. }
        | PacketKind::Bad
        | PacketKind::Truncated { .. } => {
            panic!("the test encoder does not encode {kind:?}")
        }
    }
    out
}

/// xorshift64* PRNG, seeded through splitmix64 so that any seed (even 0) works.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Rng((z ^ (z >> 31)) | 1)
    }
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform-ish value in `0..n` (n > 0).
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// One of the items of `xs`.
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len() as u64) as usize]
    }
}

/// The seed of a random test: `SPE_DECODE_SEED` if set, else one from the clock. Printed so a
/// failure can be replayed.
fn seed_for(test: &str) -> u64 {
    let seed = std::env::var("SPE_DECODE_SEED")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos() as u64)
                .unwrap_or(0x5EED)
        });
    eprintln!("seed={seed} replay: SPE_DECODE_SEED={seed} cargo test -p spe-decode {test}");
    seed
}

#[test]
fn encoder_reproduces_the_reference_bytes() {
    assert_eq!(
        encode(
            &PacketKind::Context {
                index: 0,
                value: 0x4d2
            },
            false
        ),
        hex("64 d2 04 00 00")
    );
    assert_eq!(
        encode(
            &PacketKind::Counter {
                index: 0,
                value: 42
            },
            false
        ),
        hex("98 2a 00")
    );
    assert_eq!(
        encode(
            &PacketKind::Address {
                index: 9,
                payload: 1
            },
            false
        ),
        hex("21 b1 01 00 00 00 00 00 00 00")
    );
    assert_eq!(
        encode(
            &PacketKind::Events {
                size: 2,
                bits: 0x1e
            },
            false
        ),
        hex("52 1e 00")
    );
}
