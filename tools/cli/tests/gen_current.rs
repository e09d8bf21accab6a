//! `gen/` (Verilog of every preset, tables, index) is generated; this fails when it is stale.

#[test]
fn generated_files_in_gen_are_current() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_spe"))
        .args(["gen", "--check"])
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/../../gen"))
        .output()
        .expect("run spe gen --check");
    assert!(
        out.status.success(),
        "gen/ is stale: run `cargo run --release --bin spe -- gen --out gen` and commit it\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn gen_check_reports_a_hand_edit() {
    let dir = std::env::temp_dir().join(format!("spe-gen-check-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let spe = env!("CARGO_BIN_EXE_spe");
    let ok = std::process::Command::new(spe)
        .args(["gen", "--out"])
        .arg(&dir)
        .status()
        .unwrap();
    assert!(ok.success());
    let f = dir.join("default/spe_filter_default.v");
    let text = std::fs::read_to_string(&f).unwrap();
    std::fs::write(&f, text.replace(">=", ">")).unwrap();
    let out = std::process::Command::new(spe)
        .args(["gen", "--check"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        !out.status.success(),
        "a hand edit must make the check fail"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("stale: "));
    let _ = std::fs::remove_dir_all(&dir);
}
