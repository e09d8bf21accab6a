//! `spe-gen --out DIR | --check DIR`: writes (or checks) `gen/`, like `spe gen`, but from
//! this crate alone. `spe` links the Verilated models of `gen/`, so it cannot build while
//! `gen/` lacks a port that `spe_defs::ports::PORTS` has; this one always can:
//! `cargo run --release -p spe-rtl --bin spe-gen -- --out gen`.

use spe_rtl::gen::{check_dir, write_dir};
use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    // Two forms only, as `spe gen`; exit 0 when written or current, 1 when stale (as
    // `spe gen --check`), 2 on a usage or I/O error.
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.as_slice() {
        [flag, dir] if flag == "--out" => write_dir(Path::new(dir)).map(|r| (true, r)),
        [flag, dir] if flag == "--check" => check_dir(Path::new(dir)),
        _ => Err("usage: spe-gen --out DIR | --check DIR".into()),
    };
    match result {
        Ok((ok, report)) => {
            eprintln!("{report}");
            if ok {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
