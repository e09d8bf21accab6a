//! `spe-gen --out DIR | --check DIR`: writes (or checks) `gen/`, like `spe gen`, but from
//! this crate alone. `spe` links the Verilated models of `gen/`, so it cannot build while
//! `gen/` lacks a port that `spe_defs::ports::PORTS` has; this one always can:
//! `cargo run --release -p spe-rtl --bin spe-gen -- --out gen`.

use spe_rtl::gen::{check_dir, write_dir};
use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    // Two forms only, as `spe gen`: write the folder, or check it and list what differs.
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.as_slice() {
        [flag, dir] if flag == "--out" => write_dir(Path::new(dir)).map(|(n, extra)| {
            eprintln!("wrote {n} files to {dir}");
            for e in extra {
                eprintln!("note: {dir}/{e} is not generated any more; delete it");
            }
            true
        }),
        [flag, dir] if flag == "--check" => check_dir(Path::new(dir)).map(|(n, problems)| {
            for p in &problems {
                eprintln!("{p}");
            }
            if problems.is_empty() {
                eprintln!("{dir}: all {n} generated files are current");
            }
            problems.is_empty()
        }),
        _ => Err("usage: spe-gen --out DIR | --check DIR".into()),
    };
    // 0: written or current; 1: stale (as `spe gen --check`); 2: usage or I/O error.
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
