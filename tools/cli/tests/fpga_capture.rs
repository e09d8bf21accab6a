//! `spe fpga capture`: a recorded stream (`--replay`) and a pseudo-terminal (`--port`)
//! deliver the buffer; a corrupted stream is an error naming the byte offset, and leaves
//! the output file as it was.

use spe_dump::encode;
use std::process::{Command, Stdio};

fn buffer() -> Vec<u8> {
    (0..5000u32).map(|i| (i * 13 + i / 97) as u8).collect()
}

fn spe(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_spe"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn tmp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("spe-capture-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

#[test]
fn capture_replays_a_recorded_stream_into_the_buffer() {
    let b = buffer();
    let mut s = b"spe dump v1\r\n".to_vec();
    s.extend(encode(&b));
    let (rec, out) = (tmp("good.uart"), tmp("good.bin"));
    std::fs::write(&rec, &s).unwrap();
    let (code, err) = spe(&[
        "fpga",
        "capture",
        "--replay",
        rec.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("captured 5000 bytes in 5 frames"), "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), b);
}

#[test]
fn a_corrupted_stream_names_the_byte_offset_and_leaves_the_output_alone() {
    let mut s = encode(&buffer());
    s[1500] ^= 0x01; // inside the second frame's payload
    let (rec, out) = (tmp("bad.uart"), tmp("bad.bin"));
    std::fs::write(&rec, &s).unwrap();
    std::fs::write(&out, b"an earlier capture").unwrap();
    let (code, err) = spe(&[
        "fpga",
        "capture",
        "--replay",
        rec.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("frame 1 at byte offset 1035: CRC"),
        "the error names the frame and its offset: {err}"
    );
    assert!(err.contains("nothing written"), "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), b"an earlier capture");
    assert!(!tmp("bad.bin.partial").exists());
}

#[test]
fn a_missing_port_is_named_in_the_error() {
    let out = tmp("none.bin");
    let (code, err) = spe(&[
        "fpga",
        "capture",
        "--port",
        "/dev/spe-no-such-tty",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("cannot open serial port /dev/spe-no-such-tty"),
        "{err}"
    );
    assert!(!out.exists());
}

#[test]
fn capture_reads_a_serial_port() {
    use serialport::{SerialPort, TTYPort};
    use std::io::Write;
    let (mut master, slave) = TTYPort::pair().expect("a pseudo-terminal pair");
    let name = slave.name().expect("the pty's device name");
    let out = tmp("pty.bin");
    let child = Command::new(env!("CARGO_BIN_EXE_spe"))
        .args(["fpga", "capture", "--port", &name, "--timeout", "10"])
        .args(["--out", out.to_str().unwrap()])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Let the capture open the port, then send a boot line and the stream in pieces.
    std::thread::sleep(std::time::Duration::from_millis(300));
    let b = buffer();
    let mut s = b"boot\r\n".to_vec();
    s.extend(encode(&b));
    for chunk in s.chunks(700) {
        master.write_all(chunk).unwrap();
        master.flush().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let done = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.status.code(), Some(0), "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), b);
    drop(slave);
}
