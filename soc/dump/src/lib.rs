//! The UART dump protocol: how the board (or the simulated SoC) sends the SPE buffer to the
//! host, framed and checksummed, and the host's decoder. The format is specified in
//! `docs/uart-protocol.md`; in short:
//!
//! ```text
//!  stream = (boot text) data-frame* end-frame
//!  frame  = 'S' 'P' kind:u8 seq:u16le len:u16le payload[len] crc:u32le
//!  kind   = 'D' (a chunk of the buffer, 1..=1024 bytes) | 'E' (payload: total:u32le, crc:u32le)
//!  crc    = CRC-32 (the zlib/Ethernet one) of kind, seq, len and payload
//! ```
//!
//! Frames are numbered from 0; the end frame carries the next number, the buffer's length
//! and its CRC-32. Bytes before the first frame are skipped (a boot banner); anything else
//! out of place is an error that names its byte offset in the stream. [`Decoder`] takes
//! the stream in pieces as a serial port delivers it; [`decode`] takes it whole.

use std::fmt;

pub mod serial;

/// The two bytes that open every frame.
pub const SYNC: [u8; 2] = *b"SP";
/// Frame kinds.
pub const KIND_DATA: u8 = b'D';
pub const KIND_END: u8 = b'E';
/// Largest data payload.
pub const MAX_PAYLOAD: usize = 1024;
/// Bytes of a frame around its payload: sync, kind, seq, len before; crc after.
pub const HEADER_BYTES: usize = 7;
pub const TRAILER_BYTES: usize = 4;

/// CRC-32 as zlib and Ethernet compute it (reflected polynomial 0xEDB88320, initial value
/// and final XOR all ones), continued from `crc` (start with 0).
pub fn crc32(crc: u32, bytes: &[u8]) -> u32 {
    let mut c = !crc;
    for &b in bytes {
        c ^= u32::from(b);
        for _ in 0..8 {
            c = if c & 1 != 0 {
                (c >> 1) ^ 0xEDB8_8320
            } else {
                c >> 1
            };
        }
    }
    !c
}

/// One frame as sent.
fn frame(kind: u8, seq: u16, payload: &[u8]) -> Vec<u8> {
    let mut f = Vec::with_capacity(HEADER_BYTES + payload.len() + TRAILER_BYTES);
    f.extend_from_slice(&SYNC);
    f.push(kind);
    f.extend_from_slice(&seq.to_le_bytes());
    f.extend_from_slice(&(payload.len() as u16).to_le_bytes());
    f.extend_from_slice(payload);
    let crc = crc32(0, &f[2..]);
    f.extend_from_slice(&crc.to_le_bytes());
    f
}

/// The stream a sender produces for `buffer` (the reference for the board's software).
pub fn encode(buffer: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut seq = 0u16;
    for chunk in buffer.chunks(MAX_PAYLOAD) {
        out.extend(frame(KIND_DATA, seq, chunk));
        seq = seq.wrapping_add(1);
    }
    let mut end = (buffer.len() as u32).to_le_bytes().to_vec();
    end.extend_from_slice(&crc32(0, buffer).to_le_bytes());
    out.extend(frame(KIND_END, seq, &end));
    out
}

/// What is wrong with a stream, and where (byte offsets count from the stream's start).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UartError {
    /// A byte other than the sync pattern where the next frame must start.
    NotAFrame {
        offset: u64,
        byte: u8,
    },
    UnknownKind {
        offset: u64,
        kind: u8,
    },
    TooLong {
        offset: u64,
        len: usize,
    },
    BadCrc {
        offset: u64,
        seq: u16,
        got: u32,
        want: u32,
    },
    /// A frame number out of sequence: a frame was lost or repeated.
    Sequence {
        offset: u64,
        seq: u16,
        expected: u16,
    },
    BadEnd {
        offset: u64,
        what: String,
    },
    /// The stream stopped inside a frame or before the end frame.
    Truncated {
        offset: u64,
        frames: u32,
    },
}

impl fmt::Display for UartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UartError::NotAFrame { offset, byte } => write!(
                f,
                "byte offset {offset}: 0x{byte:02x} where a frame should start (expected 'S' 'P')"
            ),
            UartError::UnknownKind { offset, kind } => {
                write!(f, "frame at byte offset {offset}: unknown kind 0x{kind:02x}")
            }
            UartError::TooLong { offset, len } => write!(
                f,
                "frame at byte offset {offset}: payload length {len} exceeds {MAX_PAYLOAD}"
            ),
            UartError::BadCrc {
                offset,
                seq,
                got,
                want,
            } => write!(
                f,
                "frame {seq} at byte offset {offset}: CRC 0x{got:08x} but the frame's bytes give 0x{want:08x} (corrupted)"
            ),
            UartError::Sequence {
                offset,
                seq,
                expected,
            } => write!(
                f,
                "frame at byte offset {offset}: number {seq}, expected {expected} (a frame was lost or repeated)"
            ),
            UartError::BadEnd { offset, what } => {
                write!(f, "end frame at byte offset {offset}: {what}")
            }
            UartError::Truncated { offset, frames } => write!(
                f,
                "the stream stops at byte offset {offset} before its end frame ({frames} data frames received)"
            ),
        }
    }
}

impl std::error::Error for UartError {}

/// A whole buffer, received and checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Captured {
    pub buffer: Vec<u8>,
    /// Data frames received.
    pub frames: u32,
    /// Bytes skipped before the first frame.
    pub skipped: u64,
}

/// The stream decoder: feed it bytes as they arrive.
#[derive(Clone, Debug, Default)]
pub struct Decoder {
    /// Bytes of the stream consumed so far (the offset of `pending[0]`).
    offset: u64,
    /// Bytes of an incomplete frame.
    pending: Vec<u8>,
    started: bool,
    skipped: u64,
    seq: u16,
    frames: u32,
    buffer: Vec<u8>,
}

impl Decoder {
    pub fn new() -> Decoder {
        Decoder::default()
    }

    /// Bytes of the stream seen so far.
    pub fn position(&self) -> u64 {
        self.offset + self.pending.len() as u64
    }

    /// Data frames and buffer bytes received so far.
    pub fn progress(&self) -> (u32, usize) {
        (self.frames, self.buffer.len())
    }

    /// Takes the next bytes of the stream. Returns the buffer once the end frame arrived
    /// and checked; bytes after it are ignored.
    pub fn push(&mut self, bytes: &[u8]) -> Result<Option<Captured>, UartError> {
        self.pending.extend_from_slice(bytes);
        loop {
            // Before the first frame, skip everything up to the sync pattern.
            if !self.started {
                match self.pending.windows(2).position(|w| w == SYNC) {
                    Some(i) => {
                        self.consume(i);
                        self.skipped += i as u64;
                        self.started = true;
                    }
                    None => {
                        // Keep a possible first sync byte; skip the rest.
                        let keep = usize::from(self.pending.last() == Some(&SYNC[0]));
                        let n = self.pending.len() - keep;
                        self.consume(n);
                        self.skipped += n as u64;
                        return Ok(None);
                    }
                }
            }
            if self.pending.len() < HEADER_BYTES {
                // A wrong sync byte is an error as soon as it is seen.
                for (i, (&got, &want)) in self.pending.iter().zip(SYNC.iter()).enumerate() {
                    if got != want {
                        return Err(UartError::NotAFrame {
                            offset: self.offset + i as u64,
                            byte: got,
                        });
                    }
                }
                return Ok(None);
            }
            let p = &self.pending;
            for (i, &s) in SYNC.iter().enumerate() {
                if p[i] != s {
                    return Err(UartError::NotAFrame {
                        offset: self.offset + i as u64,
                        byte: p[i],
                    });
                }
            }
            let kind = p[2];
            if kind != KIND_DATA && kind != KIND_END {
                return Err(UartError::UnknownKind {
                    offset: self.offset,
                    kind,
                });
            }
            let len = usize::from(u16::from_le_bytes([p[5], p[6]]));
            if len > MAX_PAYLOAD || (kind == KIND_END && len != 8) || len == 0 {
                return Err(UartError::TooLong {
                    offset: self.offset,
                    len,
                });
            }
            let total = HEADER_BYTES + len + TRAILER_BYTES;
            if p.len() < total {
                return Ok(None);
            }
            let seq = u16::from_le_bytes([p[3], p[4]]);
            let want = crc32(0, &p[2..HEADER_BYTES + len]);
            let c = HEADER_BYTES + len;
            let got = u32::from_le_bytes([p[c], p[c + 1], p[c + 2], p[c + 3]]);
            if got != want {
                return Err(UartError::BadCrc {
                    offset: self.offset,
                    seq,
                    got,
                    want,
                });
            }
            if seq != self.seq {
                return Err(UartError::Sequence {
                    offset: self.offset,
                    seq,
                    expected: self.seq,
                });
            }
            let payload = p[HEADER_BYTES..HEADER_BYTES + len].to_vec();
            let at = self.offset;
            self.consume(total);
            if kind == KIND_DATA {
                self.buffer.extend_from_slice(&payload);
                self.frames += 1;
                self.seq = self.seq.wrapping_add(1);
                continue;
            }
            let count = u32::from_le_bytes([payload[0], payload[1], payload[2], payload[3]]);
            let sum = u32::from_le_bytes([payload[4], payload[5], payload[6], payload[7]]);
            if count as usize != self.buffer.len() {
                return Err(UartError::BadEnd {
                    offset: at,
                    what: format!(
                        "the buffer has {count} bytes but the data frames carried {}",
                        self.buffer.len()
                    ),
                });
            }
            let mine = crc32(0, &self.buffer);
            if sum != mine {
                return Err(UartError::BadEnd {
                    offset: at,
                    what: format!("buffer CRC 0x{sum:08x}, received bytes give 0x{mine:08x}"),
                });
            }
            return Ok(Some(Captured {
                buffer: std::mem::take(&mut self.buffer),
                frames: self.frames,
                skipped: self.skipped,
            }));
        }
    }

    /// The stream ended: an error, since the end frame has not arrived.
    pub fn finish(&self) -> UartError {
        UartError::Truncated {
            offset: self.position(),
            frames: self.frames,
        }
    }

    fn consume(&mut self, n: usize) {
        self.pending.drain(..n);
        self.offset += n as u64;
    }
}

/// Decodes a whole recorded stream.
pub fn decode(stream: &[u8]) -> Result<Captured, UartError> {
    let mut d = Decoder::new();
    match d.push(stream)? {
        Some(c) => Ok(c),
        None => Err(d.finish()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn buffer(n: usize) -> Vec<u8> {
        (0..n).map(|i| (i * 7 + i / 256) as u8).collect()
    }

    #[test]
    fn crc32_matches_the_standard_check_value() {
        // The CRC-32 check value: the CRC of the ASCII digits "123456789".
        assert_eq!(crc32(0, b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(crc32(0, b"1234"), b"56789"), 0xCBF4_3926);
    }

    #[test]
    fn a_stream_round_trips_whole_and_in_any_pieces() {
        for n in [0, 1, 1023, 1024, 1025, 4096, 5000] {
            let b = buffer(n);
            let mut s = b"boot: spe dump\r\n".to_vec();
            s.extend(encode(&b));
            let c = decode(&s).unwrap();
            assert_eq!(c.buffer, b, "{n} bytes");
            assert_eq!(c.skipped, 16);
            assert_eq!(c.frames as usize, n.div_ceil(MAX_PAYLOAD));
            for piece in [1, 3, 7, 100] {
                let mut d = Decoder::new();
                let mut got = None;
                for chunk in s.chunks(piece) {
                    if let Some(c) = d.push(chunk).unwrap() {
                        got = Some(c);
                    }
                }
                assert_eq!(got.unwrap().buffer, b, "{n} bytes in pieces of {piece}");
            }
        }
    }

    #[test]
    fn every_corrupted_byte_is_an_error_that_names_an_offset_at_or_before_it() {
        let b = buffer(2500);
        let s = encode(&b);
        for i in 0..s.len() {
            let mut bad = s.clone();
            bad[i] ^= 0x10;
            let e = decode(&bad).expect_err(&format!("flipping byte {i} went unnoticed"));
            let at = match &e {
                UartError::NotAFrame { offset, .. }
                | UartError::UnknownKind { offset, .. }
                | UartError::TooLong { offset, .. }
                | UartError::BadCrc { offset, .. }
                | UartError::Sequence { offset, .. }
                | UartError::BadEnd { offset, .. }
                | UartError::Truncated { offset, .. } => *offset,
            };
            assert!(e.to_string().contains("byte offset"), "{e}");
            // The error points into the frame that holds the byte (or, for a length that
            // now reaches past the data, at most to the end of the stream).
            // (A broken first sync pattern makes the frame look like boot text: the error
            // then comes at the next frame, whose number is out of sequence.)
            let first_sync = i < SYNC.len();
            assert!(
                at <= i as u64 || first_sync || matches!(e, UartError::Truncated { .. }),
                "byte {i}: {e}"
            );
        }
    }

    #[test]
    fn a_lost_frame_a_cut_stream_and_garbage_between_frames_are_errors() {
        let b = buffer(3000);
        let s = encode(&b);
        let first = HEADER_BYTES + MAX_PAYLOAD + TRAILER_BYTES;
        // Drop the second frame.
        let mut lost = s[..first].to_vec();
        lost.extend_from_slice(&s[2 * first..]);
        assert_eq!(
            decode(&lost),
            Err(UartError::Sequence {
                offset: first as u64,
                seq: 2,
                expected: 1
            })
        );
        // Cut inside the last frame.
        let cut = &s[..s.len() - 3];
        assert!(
            matches!(decode(cut), Err(UartError::Truncated { offset, frames: 3 }) if offset == cut.len() as u64)
        );
        // A stray byte between two frames.
        let mut junk = s[..first].to_vec();
        junk.push(b'x');
        junk.extend_from_slice(&s[first..]);
        assert_eq!(
            decode(&junk),
            Err(UartError::NotAFrame {
                offset: first as u64,
                byte: b'x'
            })
        );
    }
}
