//! `spe regress` for a CI engineer (issue 50, item 2): an empty shard and a job too short
//! to hold a sample are errors, `--list`
//! prints exactly the jobs a shard runs, `--junit` is XML with one testcase per job,
//! `--summary-json` gives the totals, and Ctrl-C prints the summary of the finished jobs
//! and exits non-zero. The runs are small (jobs of 1e5 cycles, about a second each).

mod cli_common;
use cli_common::{scratch, spe, text};

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

/// The job specs (`preset:seed:cycles`) that `--list` prints.
fn listed(out: &str) -> Vec<String> {
    out.lines()
        .filter(|l| l.starts_with("job "))
        .map(|l| {
            l.split("--job ")
                .nth(1)
                .expect("a listed job has its replay command")
                .trim()
                .to_string()
        })
        .collect()
}

/// The testcases of a JUnit file: (name's job spec, passed, skipped).
fn testcases(xml: &str) -> Vec<(String, bool, bool)> {
    let doc = roxmltree::Document::parse(xml).expect("the JUnit file is well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    let suites: Vec<_> = root
        .children()
        .filter(|n| n.has_tag_name("testsuite"))
        .collect();
    assert_eq!(suites.len(), 1);
    let cases: Vec<_> = suites[0]
        .children()
        .filter(|n| n.has_tag_name("testcase"))
        .map(|c| {
            let name = c.attribute("name").expect("a testcase has a name");
            let spec = name.rsplit(' ').next().unwrap().to_string();
            let failed = c.children().any(|n| n.has_tag_name("failure"));
            let skipped = c.children().any(|n| n.has_tag_name("skipped"));
            (spec, !failed && !skipped, skipped)
        })
        .collect();
    assert_eq!(
        suites[0].attribute("tests"),
        Some(cases.len().to_string().as_str())
    );
    cases
}

#[test]
fn a_shard_without_jobs_is_an_error() {
    // One job of 2e5 cycles per preset: shard 1/(presets + 1) is empty.
    let n = spe_defs::PRESETS.len();
    let cycles = (n * 200_000).to_string();
    let shard = format!("1/{}", n + 1);
    let args = [
        "regress",
        "--cycles",
        cycles.as_str(),
        "--job-cycles",
        "2e5",
        "--shard",
        shard.as_str(),
    ];
    let o = spe(&args);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stdout));
    let e = text(&o.stderr);
    assert!(e.contains(&format!("shard {shard} has no job")), "{e}");
    assert!(e.contains(&format!("at most {n} shards")), "{e}");
    // --list says the same without running anything.
    let o = spe(&[&args[..], &["--list"]].concat());
    assert_eq!(o.status.code(), Some(2));
    // Jobs of 1e4 cycles cannot hold a sample at a 1024-op minimum interval drawn up to
    // four times over.
    let o = spe(&[
        "regress",
        "--cycles",
        "1e5",
        "--job-cycles",
        "1e4",
        "--list",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("too short"), "{}", text(&o.stderr));
}

#[test]
fn list_prints_exactly_the_jobs_a_shard_runs_and_junit_has_one_testcase_each() {
    let dir = scratch("regress-reports", "shard");
    let (junit, json) = (dir.join("r.xml"), dir.join("r.json"));
    // 2e6 cycles in jobs of 1e5: 20 jobs, shard 2/4 is jobs 5..10.
    let base = [
        "regress",
        "--cycles",
        "2e6",
        "--job-cycles",
        "1e5",
        "--seed",
        "0x77",
    ];
    let mut list = base.to_vec();
    list.extend(["--shard", "2/4", "--list"]);
    let o = spe(&list);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let jobs = listed(&text(&o.stdout));
    assert_eq!(jobs.len(), 5, "{}", text(&o.stdout));
    // The shards' lists partition the whole run's list.
    let whole = listed(&text(&spe(&[&base[..], &["--list"]].concat()).stdout));
    assert_eq!(whole.len(), 20);
    assert_eq!(jobs, whole[5..10].to_vec());

    let mut run = base.to_vec();
    run.extend([
        "--shard",
        "2/4",
        "--quiet",
        "--junit",
        junit.to_str().unwrap(),
        "--summary-json",
        json.to_str().unwrap(),
        "--vcd-dir",
        dir.to_str().unwrap(),
    ]);
    let o = spe(&run);
    assert!(o.status.success(), "{}{}", text(&o.stdout), text(&o.stderr));
    let cases = testcases(&std::fs::read_to_string(&junit).unwrap());
    let names: Vec<String> = cases.iter().map(|c| c.0.clone()).collect();
    assert_eq!(names, jobs, "the JUnit testcases are not the listed jobs");
    assert!(cases.iter().all(|c| c.1), "{cases:?}");
    let j = std::fs::read_to_string(&json).unwrap();
    assert!(j.contains("\"result\": \"pass\""), "{j}");
    assert!(j.contains("\"jobs_run\": 5"), "{j}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn ctrl_c_prints_the_summary_of_the_finished_jobs_and_fails() {
    let dir = scratch("regress-reports", "sigint");
    let junit = dir.join("r.xml");
    // 40 jobs of 1e5 cycles on one thread: far longer than the wait for the first job.
    let mut child = Command::new(env!("CARGO_BIN_EXE_spe"))
        .args([
            "regress",
            "--cycles",
            "3e6",
            "--job-cycles",
            "1e5",
            "--threads",
            "1",
            "--verbose",
            "--quiet",
            "--junit",
            junit.to_str().unwrap(),
            "--vcd-dir",
            dir.to_str().unwrap(),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // --verbose prints a line per finished job: interrupt after the second.
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut seen = 0;
    let mut line = String::new();
    while seen < 2 {
        line.clear();
        assert!(err.read_line(&mut line).unwrap() > 0, "spe ended early");
        if line.contains(": job ") {
            seen += 1;
        }
    }
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    // SAFETY: a signal to our own child process.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut err, &mut rest).unwrap();
    let o = child.wait_with_output().unwrap();
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(130), "{out}{rest}");
    let done: usize = out
        .split("INTERRUPTED after ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no INTERRUPTED line: {out}"));
    assert!((2..30).contains(&done), "{out}");
    assert!(out.contains("regress all "), "{out}");
    let cases = testcases(&std::fs::read_to_string(&junit).unwrap());
    assert_eq!(cases.len(), 30);
    assert_eq!(cases.iter().filter(|c| c.1).count(), done);
    assert_eq!(cases.iter().filter(|c| c.2).count(), 30 - done);
    std::fs::remove_dir_all(&dir).ok();
}
