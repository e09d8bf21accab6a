//! The many-preset flows of `spe synth`: every preset one after another (`--all`, with the
//! presets an iCE40 cannot place measured again on [`Device::NO_FIT`]) and the guard that
//! holds presets to their floors (`--guard`). Each takes the measurement of one preset as
//! a function, so that the command line keeps its own output folders and progress.

use crate::board::{Device, Family};
use crate::table::{self, Row};
use spe_defs::{Config, PRESETS};

/// Measures one preset on a device, with its depth figure or not.
pub type Measure<'a> = dyn FnMut(&'static Config, Device, bool) -> Result<Row, String> + 'a;

/// Every preset on `device` with its depth, then, on an iCE40, the presets with no place
/// and route measured on [`Device::NO_FIT`] (issue 53): the table's rows and its no-fit
/// rows. `report` gets the progress and each preset's figures.
pub fn measure_all(
    device: Device,
    measure: &mut Measure,
    report: &mut dyn FnMut(&str),
) -> Result<(Vec<Row>, Vec<Row>), String> {
    let mut rows = Vec::new();
    for (k, cfg) in PRESETS.iter().enumerate() {
        report(&format!(
            "spe synth --all: preset {} ({} of {})",
            cfg.name,
            k + 1,
            PRESETS.len()
        ));
        let r = measure(cfg, device, true)?;
        report(r.synth.render().trim_end());
        if let Some(d) = &r.depth {
            report(&depth_line(d));
        }
        rows.push(r);
    }
    let mut no_fit = Vec::new();
    if device.family() == Family::Ice40 {
        let left: Vec<_> = rows
            .iter()
            .filter(|r| r.synth.pnr.is_err())
            .map(|r| r.synth.preset)
            .collect();
        for (k, name) in left.iter().enumerate() {
            report(&format!(
                "spe synth --all: preset {name} on {} ({} of {}: no place and route on {device})",
                Device::NO_FIT,
                k + 1,
                left.len()
            ));
            let r = measure(Config::preset_named(name)?, Device::NO_FIT, false)?;
            report(r.synth.render().trim_end());
            no_fit.push(r);
        }
    }
    Ok((rows, no_fit))
}

/// The depth figure's line in a preset's report.
pub fn depth_line(d: &crate::depth::Depth) -> String {
    format!(
        "depth {} gate levels ({} → {}), {:.0} NAND2 equivalents",
        d.levels,
        d.from,
        d.to,
        d.nand2()
    )
}

/// Holds the presets of the floors file `text` (named `file` in messages; only those of
/// `only` when it is not empty) to their floors, measured on `device` at `freq_mhz` with
/// `seeds`, which must be the file's setting. Each preset's line goes to `passed` or, when
/// it fell, to `report` as soon as it is measured; `Err` names how many fell.
pub fn guard(
    text: &str,
    file: &str,
    setting: (Device, f64, &[u64]),
    only: &[String],
    measure: &mut Measure,
    passed: &mut dyn FnMut(&str),
    report: &mut dyn FnMut(&str),
) -> Result<(), String> {
    let (device, freq_mhz, seeds) = setting;
    let floors = table::parse_floors(text).map_err(|e| format!("{file}: {e}"))?;
    table::check_setting(text, &device.to_string(), freq_mhz, seeds)
        .map_err(|e| format!("{file}: {e}"))?;
    if let Some(p) = only
        .iter()
        .find(|p| !floors.iter().any(|f| &f.preset == *p))
    {
        return Err(format!("--only {p}: {file} has no floor for it"));
    }
    let mut failed = 0;
    for f in floors
        .iter()
        .filter(|f| only.is_empty() || only.contains(&f.preset))
    {
        let cfg = Config::preset_named(&f.preset).map_err(|e| format!("{file}: {e}"))?;
        let r = measure(cfg, device, false)?.synth;
        match table::check(&r, f) {
            Ok(line) => passed(&line),
            Err(line) => {
                report(&format!("spe synth --guard: {line}"));
                failed += 1;
            }
        }
    }
    if failed > 0 {
        return Err(format!(
            "{failed} preset(s) below their floors in {file} (a change that trades speed or area on purpose writes the floors again: spe synth --all --floors {file})"
        ));
    }
    Ok(())
}
