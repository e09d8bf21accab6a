//! `spe coverage --functional`: a short run reports its holes and, with `--require`, fails
//! on them; the report names each preset's points; a report path that is the run's own
//! `functional.md` is refused.

mod cli_common;
use cli_common::{scratch, spe, stderr, text};

#[test]
fn a_short_functional_run_reports_its_holes_and_require_fails_on_them() {
    let dir = scratch("functional_coverage", "require");
    let out = dir.join("out");
    let report = dir.join("report.md");
    let args = |require: bool| {
        let mut a = vec![
            "coverage",
            "--functional",
            "--presets",
            "default",
            "--cycles",
            "200000",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
            "--report",
            report.to_str().unwrap(),
        ];
        if require {
            a.push("--require");
        }
        a
    };
    let o = spe(&args(false));
    let stdout = text(&o.stdout);
    assert!(o.status.success(), "{}{}", stdout, stderr(&o));
    // A 2^20-cycle completion timeout cannot expire in one 2e5-cycle job: a hole, named on
    // the preset's line.
    let line = stdout
        .lines()
        .find(|l| l.starts_with("coverage: functional default"))
        .unwrap_or_else(|| panic!("no line for default in:\n{stdout}"));
    assert!(
        line.contains(" holes: ") && line.contains("sample/timed-out/other"),
        "{line}"
    );
    let md = std::fs::read_to_string(&report).unwrap();
    assert_eq!(
        md,
        std::fs::read_to_string(out.join("functional.md")).unwrap()
    );
    assert!(
        md.contains("| `sample/kept/other` |") && md.contains("## Holes"),
        "{md}"
    );
    let o = spe(&args(true));
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stdout));
    assert!(text(&o.stdout).contains("functional cover points not hit; --require"));
}

#[test]
fn the_report_may_not_be_the_run_s_own_file() {
    let dir = scratch("functional_coverage", "same");
    let own = dir.join("functional.md");
    let o = spe(&[
        "coverage",
        "--functional",
        "--out",
        dir.to_str().unwrap(),
        "--report",
        own.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("same file"), "{}", stderr(&o));
}
