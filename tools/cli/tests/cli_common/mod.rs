//! What the command-line tests share: running the `spe` binary of this build, its stderr as
//! text, and a scratch folder of their own.

#![allow(dead_code)] // each test file uses what it needs

use std::path::PathBuf;
use std::process::{Command, Output};

/// Runs `spe ARGS` and waits for it.
pub fn spe(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_spe"))
        .args(args)
        .output()
        .expect("spe runs")
}

/// Bytes as text (lossy).
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The process's stderr as text.
pub fn stderr(o: &Output) -> String {
    text(&o.stderr)
}

/// A new, empty folder for test `name` of file `file`, unique to this process.
pub fn scratch(file: &str, name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("spe-{file}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}
