//! `spe fpga capture`: receives the SPE buffer a board (or anything that speaks the dump
//! protocol of `docs/uart-protocol.md`) sends over a serial port, checks every frame, and
//! writes the buffer for `spe decode` / `spe perf`. `--replay FILE` reads a recorded
//! stream instead of a port. A stream that fails a check is an error naming the byte
//! offset, and no output file is written (an existing one is left as it was).

use clap::{Args, Subcommand};
use spe_fpga::uart::{Captured, Decoder};
use std::io::{ErrorKind, Read};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Args)]
pub struct FpgaArgs {
    #[command(subcommand)]
    cmd: FpgaCmd,
}

#[derive(Subcommand)]
enum FpgaCmd {
    /// Receive the SPE buffer a board dumps over its UART (framed and checksummed).
    Capture(CaptureArgs),
}

#[derive(Args)]
struct CaptureArgs {
    /// Serial device of the board's UART (the iCEBreaker's second FTDI channel is usually
    /// /dev/ttyUSB1).
    #[arg(long, value_name = "DEV", required_unless_present = "replay")]
    port: Option<String>,
    /// Baud rate of the port.
    #[arg(long, default_value_t = 115_200)]
    baud: u32,
    /// Decode a recorded byte stream from FILE instead of reading a port.
    #[arg(long, value_name = "FILE", conflicts_with = "port")]
    replay: Option<PathBuf>,
    /// Give up after this many seconds without a byte from the port.
    #[arg(long, value_name = "SECONDS", default_value_t = 30)]
    timeout: u64,
    /// Where to write the buffer (raw SPE bytes).
    #[arg(long, short, value_name = "FILE")]
    out: PathBuf,
}

pub fn run(a: FpgaArgs) -> Result<ExitCode, String> {
    match a.cmd {
        FpgaCmd::Capture(c) => capture(c),
    }
}

fn capture(a: CaptureArgs) -> Result<ExitCode, String> {
    let (source, got) = match (&a.replay, &a.port) {
        (Some(file), _) => {
            let bytes =
                std::fs::read(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
            let mut d = Decoder::new();
            let got = d.push(&bytes).and_then(|c| c.ok_or_else(|| d.finish()));
            (file.display().to_string(), got)
        }
        (None, Some(port)) => (port.clone(), read_port(port, a.baud, a.timeout)?),
        (None, None) => return Err("give --port DEV or --replay FILE".into()),
    };
    let c: Captured = got.map_err(|e| format!("{source}: {e}; nothing written"))?;
    write_whole(&a.out, &c.buffer)?;
    eprintln!(
        "captured {} bytes in {} frames from {source} ({} bytes before the first frame skipped) -> {}",
        c.buffer.len(),
        c.frames,
        c.skipped,
        a.out.display()
    );
    eprintln!("next: spe decode {}", a.out.display());
    Ok(ExitCode::SUCCESS)
}

/// Reads the port until the end frame, with a progress line every second on stderr.
fn read_port(
    port: &str,
    baud: u32,
    timeout: u64,
) -> Result<Result<Captured, spe_fpga::uart::UartError>, String> {
    let mut p = serialport::new(port, baud)
        .timeout(Duration::from_millis(100))
        .open()
        .map_err(|e| format!("cannot open serial port {port}: {e}"))?;
    eprintln!("spe fpga capture: listening on {port} at {baud} baud");
    let mut d = Decoder::new();
    let mut buf = [0u8; 4096];
    let (mut last_byte, mut last_report) = (Instant::now(), Instant::now());
    loop {
        match p.read(&mut buf) {
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
            Err(e) => return Err(format!("reading {port}: {e}")),
        }
        if last_report.elapsed() >= Duration::from_secs(1) {
            let (frames, bytes) = d.progress();
            eprintln!(
                "  {} stream bytes, {frames} frames, {bytes} buffer bytes",
                d.position()
            );
            last_report = Instant::now();
        }
        if last_byte.elapsed() >= Duration::from_secs(timeout) {
            let (frames, _) = d.progress();
            return Err(format!(
                "{port}: no byte for {timeout} s, and no end frame yet ({} stream bytes, {frames} frames received); nothing written",
                d.position()
            ));
        }
    }
}

/// Writes `bytes` to `out` through a temporary file in the same folder, so that `out`
/// only ever holds a whole, checked buffer.
pub(crate) fn write_whole(out: &Path, bytes: &[u8]) -> Result<(), String> {
    let mut tmp = out.as_os_str().to_owned();
    tmp.push(".partial");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, bytes).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, out).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("cannot write {}: {e}", out.display())
    })
}
