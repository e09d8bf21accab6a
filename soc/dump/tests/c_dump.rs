//! The board's C dump routine (`soc/sw/spe_dump.c`) sends exactly the bytes of the
//! reference encoder (`spe_dump::encode`): compiled for the host with `cc`, fed
//! buffers of several sizes, its output is compared byte for byte and decoded. Its
//! streaming form (`spe_dump_begin`, `spe_dump_chunk`, `spe_dump_end`) decodes to the
//! concatenation of the chunks, whatever their sizes. The SoC's workloads
//! (`soc/sw/workloads.c`), built for the host, pass their own checks.

use spe_dump::{decode, encode};
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

/// Runs the harness on `buf`: one shot with no `chunks`, else streaming with those chunk
/// sizes (repeated until the buffer is sent).
fn c_dump_chunked(exe: &PathBuf, buf: &[u8], chunks: &[usize]) -> Vec<u8> {
    let mut child = Command::new(exe)
        .args(chunks.iter().map(|c| c.to_string()))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(buf).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "dump_main failed");
    out.stdout
}

fn c_dump(exe: &PathBuf, buf: &[u8]) -> Vec<u8> {
    c_dump_chunked(exe, buf, &[])
}

/// `n` bytes from a xorshift generator continued from `x`.
fn random_bytes(x: &mut u32, n: usize) -> Vec<u8> {
    (0..n)
        .map(|_| {
            *x ^= *x << 13;
            *x ^= *x >> 17;
            *x ^= *x << 5;
            *x as u8
        })
        .collect()
}

#[test]
fn the_c_dump_routine_sends_the_bytes_of_the_reference_encoder() {
    let exe = harness();
    // Fixed xorshift seed: the same buffers every run.
    const SEED: u32 = 0x1234_5678;
    let mut x = SEED;
    for n in [0usize, 1, 8, 1023, 1024, 1025, 2048, 4096, 65 * 1024 + 3] {
        let buf = random_bytes(&mut x, n);
        let got = c_dump(&exe, &buf);
        assert_eq!(got, encode(&buf), "{n}-byte buffer, seed {SEED:#x}");
        assert_eq!(
            decode(&got).unwrap().buffer,
            buf,
            "{n}-byte buffer decodes, seed {SEED:#x}"
        );
    }
}

#[test]
fn the_streaming_c_dump_decodes_to_the_concatenated_chunks() {
    let exe = harness();
    const SEED: u32 = 0x9e37_79b9;
    let mut x = SEED;
    let patterns: &[&[usize]] = &[
        &[1024],
        &[1],
        &[0, 7],
        &[4032],
        &[1023, 0, 1025],
        &[3000, 0, 0, 17, 2048],
        &[64, 128, 4096, 0],
    ];
    for n in [0usize, 1, 1024, 4031, 9000, 65 * 1024 + 3] {
        let buf = random_bytes(&mut x, n);
        for &chunks in patterns {
            let got = c_dump_chunked(&exe, &buf, chunks);
            let what = format!("{n}-byte buffer in chunks {chunks:?}, seed {SEED:#x}");
            let captured = decode(&got).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(captured.buffer, buf, "{what}");
            // One frame per started KiB of each non-empty chunk, as the harness cuts them.
            let (mut at, mut frames, mut i) = (0usize, 0usize, 0usize);
            while at < n || i < chunks.len() {
                let len = chunks[i % chunks.len()].min(n - at);
                frames += len.div_ceil(1024);
                at += len;
                i += 1;
            }
            assert_eq!(captured.frames as usize, frames, "{what}: data frames");
            if chunks == [1024] {
                assert_eq!(got, encode(&buf), "{what}: same bytes as the one-shot form");
            }
        }
    }
}

#[test]
fn the_soc_workloads_pass_their_checks_on_the_host() {
    let sw = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../soc/sw");
    let dir = std::env::temp_dir().join(format!("spe-c-work-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let exe = dir.join("workloads_host");
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let out = Command::new(&cc)
        .args([
            "-std=c99",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-O2",
            "-DHOST",
            "-DROUNDS=2",
            "-o",
        ])
        .arg(&exe)
        .arg(sw.join("workloads.c"))
        .output()
        .unwrap_or_else(|e| panic!("cannot run the C compiler `{cc}` ({e}); install gcc"));
    assert!(
        out.status.success(),
        "workloads.c does not compile for the host:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = Command::new(&exe).output().unwrap();
    assert!(
        run.status.success(),
        "workloads.c fails its checks on the host:\n{}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
}
