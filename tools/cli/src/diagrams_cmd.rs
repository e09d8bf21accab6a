//! `spe diagrams`: the timing diagrams of docs/timing/ (WaveJSON) from lockstep runs of the
//! golden model and the Verilated RTL (`spe_cosim::diagrams`). `--check DIR` compares DIR's
//! JSON files with a fresh generation (exit 1 on drift); `scripts/diagrams.sh` renders the
//! SVGs.

use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct DiagramsArgs {
    /// Folder to write the `<name>.json` files and their page README.md into: new, empty,
    /// or one `spe diagrams` wrote before (it holds `.spe-generated`); created if needed.
    #[arg(long, value_name = "DIR", conflicts_with = "check")]
    out: Option<PathBuf>,
    /// Write into --out even when it is a folder `spe diagrams` did not write.
    #[arg(long, requires = "out")]
    force: bool,
    /// Compare DIR's JSON files with a fresh generation; exit 1 when one is stale or missing.
    #[arg(long, value_name = "DIR")]
    check: Option<PathBuf>,
}

/// The generator's name in its folder's marker.
const BY: &str = "spe diagrams";

/// What `--out DIR` writes: each diagram's JSON, the page that shows them and the marker.
fn files(dir: &std::path::Path, d: &[spe_cosim::diagrams::Diagram]) -> Vec<(PathBuf, String)> {
    let mut v: Vec<(PathBuf, String)> = d
        .iter()
        .map(|d| (dir.join(format!("{}.json", d.name)), d.wavejson()))
        .collect();
    v.push((dir.join("README.md"), spe_cosim::diagrams::markdown(d)));
    let m = spe_gen::marker_file(BY);
    v.push((dir.join(m.path), m.text));
    v
}

pub fn run(a: DiagramsArgs) -> Result<ExitCode, String> {
    if let Some(dir) = &a.out {
        // Before the lockstep runs, not after them.
        spe_gen::claim_out_dir(dir, BY, a.force)?;
    }
    let diagrams = spe_cosim::diagrams::all()?;
    match (a.out, a.check) {
        (Some(dir), None) => {
            std::fs::create_dir_all(&dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            for (path, text) in files(&dir, &diagrams) {
                std::fs::write(&path, text)
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            }
            eprintln!("wrote {} diagrams to {}", diagrams.len(), dir.display());
            Ok(ExitCode::SUCCESS)
        }
        (None, Some(dir)) => {
            let mut stale = Vec::new();
            for (path, text) in files(&dir, &diagrams) {
                if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
                    stale.push(path.display().to_string());
                }
            }
            if stale.is_empty() {
                eprintln!("{}: {} diagrams current", dir.display(), diagrams.len());
                Ok(ExitCode::SUCCESS)
            } else {
                eprintln!(
                    "stale or missing (run `spe diagrams --out {}` and scripts/diagrams.sh): {}",
                    dir.display(),
                    stale.join(", ")
                );
                Ok(ExitCode::FAILURE)
            }
        }
        _ => Err("give --out DIR or --check DIR".into()),
    }
}
