//! `spe gen`: everything in `gen/` — the Verilog of every preset (from `hdl/rtl`), the
//! shared flop, the per-preset file lists, the integration tables (from `hdl/defs`) and an
//! index. `--check` compares a folder with a fresh generation instead of writing it. The
//! work is `spe_rtl::gen::{write_dir, check_dir}`, which `spe-gen` (hdl/rtl) runs too.

use clap::Args;
use spe_rtl::gen::{check_dir, write_dir, REFRESH_COMMAND};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct GenArgs {
    /// Folder to write into (created if needed; files that are no longer generated are
    /// reported, not deleted).
    #[arg(long, value_name = "DIR", conflicts_with = "check")]
    out: Option<PathBuf>,
    /// Compare DIR with a fresh generation; exit 1 when any file is stale, missing or extra.
    #[arg(long, value_name = "DIR")]
    check: Option<PathBuf>,
}

pub fn run(a: GenArgs) -> Result<ExitCode, String> {
    match (a.out, a.check) {
        (Some(dir), None) => {
            let (n, extra) = write_dir(&dir)?;
            eprintln!("wrote {n} files to {}", dir.display());
            for e in extra {
                eprintln!(
                    "note: {} is not generated any more; delete it",
                    dir.join(e).display()
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        (None, Some(dir)) => {
            let (n, problems) = check_dir(&dir)?;
            for p in &problems {
                eprintln!("{p}");
            }
            if problems.is_empty() {
                eprintln!("{}: all {n} generated files are current", dir.display());
                Ok(ExitCode::SUCCESS)
            } else {
                eprintln!(
                    "{} file(s) differ: regenerate with `{}`",
                    problems.len(),
                    REFRESH_COMMAND.replace("--out gen", &format!("--out {}", dir.display()))
                );
                Ok(ExitCode::FAILURE)
            }
        }
        _ => Err("give --out DIR or --check DIR".into()),
    }
}
