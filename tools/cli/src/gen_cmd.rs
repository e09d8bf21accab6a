//! `spe gen`: everything in `gen/` — the Verilog of every preset (from `hdl/rtl`), the
//! shared flop, the per-preset file lists, the integration tables and the C header (from
//! `hdl/defs`, by the emitters of `hdl/gen`), the demo SoC (`gen/soc/`, from `soc/rtl`) and an index. `--check` compares
//! a folder with a fresh generation instead of writing it. The work is
//! `spe_soc::all_files` and `spe_gen::{write_dir, check_dir}`. It is the one generator
//! of `gen/`: `spe` builds even when `gen/` is missing or its tops' ports or the mutants'
//! sites are stale (without Verilated models then; see verif/verilator-sys/build.rs), so it
//! can regenerate it.

use clap::Args;
use spe_gen::{check_dir, write_dir};
use spe_soc::all_files;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct GenArgs {
    /// Folder to write into: new, empty, or one `spe gen` wrote before (it holds
    /// `.spe-generated`); created if needed. Files that are no longer generated are
    /// reported, not deleted.
    #[arg(long, value_name = "DIR", conflicts_with = "check")]
    out: Option<PathBuf>,
    /// Write into --out even when it is a folder `spe gen` did not write (its files of the
    /// same names are replaced).
    #[arg(long, requires = "out")]
    force: bool,
    /// Compare DIR with a fresh generation; exit 1 when any file is stale, missing or extra.
    #[arg(long, value_name = "DIR")]
    check: Option<PathBuf>,
}

pub fn run(a: GenArgs) -> Result<ExitCode, String> {
    match (a.out, a.check) {
        (Some(dir), None) => {
            eprintln!("{}", write_dir(&dir, &all_files()?, a.force)?);
            Ok(ExitCode::SUCCESS)
        }
        (None, Some(dir)) => {
            let (current, report) = check_dir(&dir, &all_files()?)?;
            eprintln!("{report}");
            Ok(if current {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            })
        }
        _ => Err("give --out DIR or --check DIR".into()),
    }
}
