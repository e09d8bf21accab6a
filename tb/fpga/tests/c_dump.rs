//! The board's C dump routine (`soc/sw/spe_dump.c`) sends exactly the bytes of the
//! reference encoder (`spe_fpga::uart::encode`): compiled for the host with `cc`, fed
//! buffers of several sizes, its output is compared byte for byte and decoded.

use spe_fpga::uart::{decode, encode};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// Builds the host harness around `spe_dump.c` (once per test process).
fn harness() -> PathBuf {
    let sw = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../soc/sw");
    let dir = std::env::temp_dir().join(format!("spe-c-dump-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let exe = dir.join("dump_main");
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let out = Command::new(&cc)
        .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-O2", "-o"])
        .arg(&exe)
        .arg(sw.join("host/dump_main.c"))
        .arg(sw.join("spe_dump.c"))
        .output()
        .unwrap_or_else(|e| panic!("cannot run the C compiler `{cc}` ({e}); install gcc"));
    assert!(
        out.status.success(),
        "spe_dump.c does not compile:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    exe
}

fn c_dump(exe: &PathBuf, buf: &[u8]) -> Vec<u8> {
    let mut child = Command::new(exe)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(buf).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "dump_main failed");
    out.stdout
}

#[test]
fn the_c_dump_routine_sends_the_bytes_of_the_reference_encoder() {
    let exe = harness();
    // Fixed xorshift seed: the same buffers every run.
    const SEED: u32 = 0x1234_5678;
    let mut x = SEED;
    for n in [0usize, 1, 8, 1023, 1024, 1025, 2048, 4096, 65 * 1024 + 3] {
        let buf: Vec<u8> = (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                x as u8
            })
            .collect();
        let got = c_dump(&exe, &buf);
        assert_eq!(got, encode(&buf), "{n}-byte buffer, seed {SEED:#x}");
        assert_eq!(
            decode(&got).unwrap().buffer,
            buf,
            "{n}-byte buffer decodes, seed {SEED:#x}"
        );
    }
}
