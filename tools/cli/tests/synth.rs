//! `spe synth` argument errors: reported in one line with exit status 2, before any tool
//! runs (so these tests need neither Yosys nor nextpnr). The flow itself runs in
//! scripts/test.sh (`spe synth --guard scripts/synth-floors.txt --only ...`).

use std::process::Command;

fn synth(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_spe"))
        .arg("synth")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn synth_rejects_an_unknown_preset_with_the_valid_names() {
    let (code, err) = synth(&["--preset", "huge"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("valid presets: default, minimal"), "{err}");
}

#[test]
fn synth_rejects_an_unknown_device_with_the_valid_names() {
    let (code, err) = synth(&["--preset", "minimal", "--device", "ecp5"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("valid devices: hx8k, up5k"), "{err}");
}

#[test]
fn synth_rejects_zero_seeds() {
    let (code, err) = synth(&["--preset", "minimal", "--seeds", "0"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--seeds 0 would place nothing"), "{err}");
}

#[test]
fn synth_rejects_a_non_positive_frequency() {
    let (code, err) = synth(&["--preset", "minimal", "--freq", "0"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--freq must be a positive number"), "{err}");
}

fn floors_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("spe-synth-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn synth_guard_refuses_a_missing_or_malformed_floors_file_and_an_unlisted_preset() {
    let (code, err) = synth(&["--guard", "/no/such/floors.txt"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("cannot read /no/such/floors.txt"), "{err}");
    let bad = floors_file("bad.txt", "# floors\ndefault 87.0\n");
    let (code, err) = synth(&["--guard", bad.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("line 2: expected `<preset> <fmax MHz> <LUT4>`"),
        "{err}"
    );
    // The header `spe synth --all --floors` writes: what the guard's defaults measure.
    const MEASURED: &str = "# Measured on hx8k at 100 MHz, the best of nextpnr seeds 1, 2, 3; yosys 0.23, nextpnr-ice40 0.4-1+b1.\n";
    let unknown = floors_file("unknown.txt", &format!("{MEASURED}huge 80 2000\n"));
    let (code, err) = synth(&["--guard", unknown.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("valid presets"), "{err}");
    // Floors measured another way do not compare: refused before anything runs.
    let other = floors_file(
        "other.txt",
        &(MEASURED.replace("hx8k at 100 MHz", "up5k at 50 MHz") + "default 87.02 2102\n"),
    );
    let (code, err) = synth(&["--guard", other.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("measured on up5k at 50 MHz")
            && err.contains("would measure on hx8k at 100 MHz"),
        "{err}"
    );
    let bare = floors_file("bare.txt", "default 87.02 2102\n");
    let (code, err) = synth(&["--guard", bare.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("no `# Measured on` line"), "{err}");
    let good = floors_file("good.txt", &format!("{MEASURED}default 87.02 2102\n"));
    let (code, err) = synth(&["--guard", good.to_str().unwrap(), "--only", "wide"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("--only wide:") && err.contains("has no floor for it"),
        "{err}"
    );
}

#[test]
fn the_committed_floors_name_every_preset_that_fits_the_hx8k() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../scripts/synth-floors.txt"
    ))
    .unwrap();
    let names: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    let want: Vec<&str> = spe_defs::PRESETS
        .iter()
        .map(|c| c.name)
        // smt4 does not fit the HX8K; smt2_v1p4 fills 98 % of its logic cells (7,572 of
        // 7,680), where nextpnr needs tens of minutes a seed and its Fmax says more of the
        // placement than of the logic: neither has a floor (docs/synth.md).
        .filter(|n| !matches!(*n, "smt4" | "smt2_v1p4"))
        .collect();
    assert_eq!(
        names, want,
        "scripts/synth-floors.txt: write it with spe synth --all --floors"
    );
    // The presets CI guards are among them.
    let test_sh = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../scripts/test.sh"
    ))
    .unwrap();
    let only = test_sh
        .split("--only ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .expect("scripts/test.sh runs spe synth --guard --only");
    for p in only.split(',') {
        assert!(
            names.contains(&p),
            "{p} is guarded in scripts/test.sh but has no floor"
        );
    }
}
