//! The host's side of a capture over a serial port: reads the dump stream as the port
//! delivers it, through [`Decoder`], until the end frame, a protocol error or a silence
//! longer than the timeout.

use crate::{Captured, Decoder, UartError};
use std::io::{ErrorKind, Read};
use std::time::{Duration, Instant};

/// Opens `port` at `baud`, with reads that time out after 100 ms (so that
/// [`read_stream`] can report progress and notice silence).
pub fn open(port: &str, baud: u32) -> Result<impl Read, String> {
    serialport::new(port, baud)
        .timeout(Duration::from_millis(100))
        .open()
        .map_err(|e| format!("cannot open serial port {port}: {e}"))
}

/// Reads `src` (named `name` in messages; a read that times out counts as no bytes yet)
/// until the end frame. The outer error is the port's (it failed, or stayed silent for
/// `timeout_s` seconds before the end frame); the inner one the stream's. `report` gets a
/// progress line every second.
pub fn read_stream(
    mut src: impl Read,
    name: &str,
    timeout_s: u64,
    report: &mut dyn FnMut(String),
) -> Result<Result<Captured, UartError>, String> {
    let mut d = Decoder::new();
    let mut buf = [0u8; 4096];
    let (mut last_byte, mut last_report) = (Instant::now(), Instant::now());
    loop {
        match src.read(&mut buf) {
            Ok(0) => {}
            Ok(n) => {
                last_byte = Instant::now();
                match d.push(&buf[..n]) {
                    Ok(Some(c)) => return Ok(Ok(c)),
                    Ok(None) => {}
                    Err(e) => return Ok(Err(e)),
                }
            }
            Err(e) if e.kind() == ErrorKind::TimedOut => {}
            Err(e) => return Err(format!("reading {name}: {e}")),
        }
        if last_report.elapsed() >= Duration::from_secs(1) {
            let (frames, bytes) = d.progress();
            report(format!(
                "  {} stream bytes, {frames} frames, {bytes} buffer bytes",
                d.position()
            ));
            last_report = Instant::now();
        }
        if last_byte.elapsed() >= Duration::from_secs(timeout_s) {
            let (frames, _) = d.progress();
            return Err(format!(
                "{name}: no byte for {timeout_s} s, and no end frame yet ({} stream bytes, {frames} frames received); nothing written",
                d.position()
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;
    use std::io;

    /// A port that delivers pieces, a timed-out read between each two, then times out.
    struct Pieces(VecDeque<io::Result<Vec<u8>>>);

    impl Read for Pieces {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            match self.0.pop_front() {
                Some(Ok(p)) => {
                    buf[..p.len()].copy_from_slice(&p);
                    Ok(p.len())
                }
                Some(Err(e)) => Err(e),
                None => Err(io::Error::from(ErrorKind::TimedOut)),
            }
        }
    }

    fn timed_out() -> io::Result<Vec<u8>> {
        Err(io::Error::from(ErrorKind::TimedOut))
    }

    #[test]
    fn a_stream_in_pieces_with_silences_between_is_captured_whole() {
        let buffer: Vec<u8> = (0..3000u32).map(|i| (i * 7) as u8).collect();
        let mut stream = b"boot banner\n".to_vec();
        stream.extend(crate::encode(&buffer));
        let mut q = VecDeque::new();
        for piece in stream.chunks(333) {
            q.push_back(Ok(piece.to_vec()));
            q.push_back(timed_out());
        }
        let got = read_stream(Pieces(q), "test", 5, &mut |_| {})
            .unwrap()
            .unwrap();
        assert_eq!(got.buffer, buffer);
        assert_eq!(got.skipped, 12);
    }

    #[test]
    fn silence_before_the_end_frame_and_a_failing_port_are_the_ports_errors() {
        let stream = crate::encode(&[1, 2, 3]);
        // Part of the stream, then a port that stays silent (every read times out).
        let q = VecDeque::from([Ok(stream[..stream.len() - 3].to_vec())]);
        let mut lines = Vec::new();
        let t = std::time::Instant::now();
        let e = read_stream(Pieces(q), "ttyX", 1, &mut |l| lines.push(l)).unwrap_err();
        assert!(t.elapsed() >= Duration::from_secs(1), "gave up early");
        assert!(
            e.starts_with("ttyX: no byte for 1 s, and no end frame yet"),
            "{e}"
        );
        assert!(e.contains("1 frames received"), "{e}");
        assert!(
            lines.iter().any(|l| l.contains("1 frames")),
            "progress: {lines:?}"
        );
        let q = VecDeque::from([Err(io::Error::other("unplugged"))]);
        let e = read_stream(Pieces(q), "ttyX", 5, &mut |_| {}).unwrap_err();
        assert_eq!(e, "reading ttyX: unplugged");
    }

    #[test]
    fn a_corrupt_frame_is_the_streams_error() {
        let mut stream = crate::encode(&[9; 100]);
        stream[20] ^= 1;
        let q = VecDeque::from([Ok(stream)]);
        assert!(read_stream(Pieces(q), "t", 5, &mut |_| {})
            .unwrap()
            .is_err());
    }
}
