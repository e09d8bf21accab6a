//! `spe-gen --out DIR | --check DIR`: writes (or checks) `gen/`, like `spe gen`, but from
//! this crate alone. `spe` links the Verilated models of `gen/`, so it cannot build while
//! `gen/` lacks a port that `spe_defs::ports::PORTS` has; this one always can:
//! `cargo run --release -p spe-soc --bin spe-gen -- --out gen`. (It lives in `spe-soc`, the
//! crate that sees both the unit's files and the SoC's.)

use spe_rtl::gen::{check_dir, write_dir};
use spe_soc::all_files;
use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    // Two forms only, as `spe gen`; exit 0 when written or current, 1 when stale (as
    // `spe gen --check`), 2 on a usage or I/O error.
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.as_slice() {
        [flag, dir] if flag == "--out" => {
            all_files().and_then(|f| write_dir(Path::new(dir), &f, false).map(|r| (true, r)))
        }
        [flag, dir] if flag == "--check" => all_files().and_then(|f| check_dir(Path::new(dir), &f)),
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
