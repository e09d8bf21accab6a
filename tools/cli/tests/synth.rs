//! `spe synth` argument errors: reported in one line with exit status 2, before any tool
//! runs (so these tests need neither Yosys nor nextpnr). The flow itself runs in
//! scripts/test.sh (`spe synth --preset minimal --device up5k`).

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
fn synth_rejects_a_non_positive_frequency() {
    let (code, err) = synth(&["--preset", "minimal", "--freq", "0"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--freq must be a positive number"), "{err}");
}
