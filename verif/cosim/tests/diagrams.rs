//! docs/timing/ holds exactly the WaveJSON that `spe diagrams` generates from lockstep runs
//! (the model and the Verilated RTL agree on every cycle drawn): a change to the unit's
//! timing shows up here until the diagrams are regenerated (`scripts/diagrams.sh`, which
//! also renders the SVGs; CI checks those with `scripts/diagrams.sh --check`).

use std::path::Path;

#[test]
fn the_timing_diagrams_in_docs_are_current() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/timing");
    let diagrams = spe_cosim::diagrams::all().unwrap();
    assert!(diagrams.len() >= 7);
    for d in &diagrams {
        let path = dir.join(format!("{}.json", d.name));
        let have = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            have == d.wavejson(),
            "{} is stale or missing: run scripts/diagrams.sh",
            path.display()
        );
        assert!(
            dir.join(format!("{}.svg", d.name)).exists(),
            "{}.svg",
            d.name
        );
    }
    let page = std::fs::read_to_string(dir.join("README.md")).unwrap_or_default();
    assert!(
        page == spe_cosim::diagrams::markdown(&diagrams),
        "docs/timing/README.md is stale: run scripts/diagrams.sh"
    );
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".json"))
        .collect();
    on_disk.sort();
    let mut want: Vec<String> = diagrams
        .iter()
        .map(|d| format!("{}.json", d.name))
        .collect();
    want.sort();
    assert_eq!(
        on_disk, want,
        "a diagram in docs/timing that is no longer generated"
    );
}
