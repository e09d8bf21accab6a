//! `spe docs`: the Markdown tables generated from `hdl/defs`.

use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// Name of the generated tables file inside the output folder.
pub const TABLES_FILE: &str = "spe_tables.md";

#[derive(Args)]
pub struct DocsArgs {
    /// Folder to write spe_tables.md into.
    #[arg(long, value_name = "DIR", conflicts_with = "check")]
    out: Option<PathBuf>,
    /// Compare DIR/spe_tables.md with a fresh render; exit 1 when it is stale.
    #[arg(long, value_name = "DIR")]
    check: Option<PathBuf>,
}

pub fn run(a: DocsArgs) -> Result<ExitCode, String> {
    let fresh = spe_defs::tables::markdown();
    match (a.out, a.check) {
        (Some(dir), None) => {
            std::fs::create_dir_all(&dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            let path = dir.join(TABLES_FILE);
            std::fs::write(&path, fresh)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            eprintln!("wrote {}", path.display());
            Ok(ExitCode::SUCCESS)
        }
        (None, Some(dir)) => {
            let path = dir.join(TABLES_FILE);
            let old = std::fs::read_to_string(&path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            if old == fresh {
                eprintln!("{} is current", path.display());
                Ok(ExitCode::SUCCESS)
            } else {
                eprintln!(
                    "{} is stale: regenerate with `cargo run --release --bin spe -- docs --out {}`",
                    path.display(),
                    dir.display()
                );
                Ok(ExitCode::FAILURE)
            }
        }
        _ => Err("give --out DIR or --check DIR".into()),
    }
}
