//! The GitHub Actions workflow (.github/workflows/ci.yml) runs the regression as a matrix of
//! `spe regress --shard K/N` jobs: this checks that the matrix lists every shard 1..N
//! exactly once, that the command's N is the matrix's size, and that no shard of that run
//! is empty (an empty shard is an error).

use spe_cosim::regress::{all_presets, plan_jobs, shard, DEFAULT_JOB_CYCLES};

const WORKFLOW: &str = include_str!("../../../.github/workflows/ci.yml");

/// The value after `key` on the line that holds it, trimmed.
fn value_of<'a>(text: &'a str, key: &str) -> &'a str {
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with(key))
        .unwrap_or_else(|| panic!("ci.yml has no line starting with {key:?}"));
    line.trim_start()[key.len()..].trim()
}

#[test]
fn the_workflow_matrix_covers_the_regression_exactly() {
    // `shard: [1, 2, 3, 4]`
    let list = value_of(WORKFLOW, "shard:");
    let shards: Vec<u64> = list
        .trim_start_matches('[')
        .trim_end_matches(']')
        .split(',')
        .map(|x| x.trim().parse().expect("a shard number"))
        .collect();
    // The regress command, folded over several lines (`run: >-`).
    let at = WORKFLOW
        .find("target/release/spe regress ")
        .expect("ci.yml runs spe regress");
    let cmd: String = WORKFLOW[at..]
        .lines()
        .take_while(|l| !l.trim_start().starts_with("- "))
        .collect::<Vec<_>>()
        .join(" ")
        .replace("${{ matrix.shard }}", "MATRIX_SHARD");
    let arg = |flag: &str| -> String {
        let mut words = cmd.split_whitespace();
        words.find(|w| *w == flag);
        words
            .next()
            .unwrap_or_else(|| panic!("ci.yml's regress has no {flag}: {cmd}"))
            .to_string()
    };
    let spec = arg("--shard");
    let (k, n) = spec.split_once('/').expect("--shard K/N");
    assert_eq!(k, "MATRIX_SHARD", "{cmd}");
    let n: u64 = n.parse().unwrap();
    let mut sorted = shards.clone();
    sorted.sort_unstable();
    assert_eq!(
        sorted,
        (1..=n).collect::<Vec<_>>(),
        "the matrix {shards:?} is not every shard 1..{n} once"
    );
    assert!(cmd.contains("--junit "), "{cmd}");
    // The run the shards split: every shard has jobs, and together they are the run.
    let cycles = spe_stim::parse_num(&arg("--cycles")).unwrap();
    let seed = spe_stim::parse_num(&arg("--seed")).unwrap();
    let jobs = plan_jobs(seed, cycles, DEFAULT_JOB_CYCLES, &all_presets());
    let mut all = Vec::new();
    for k in 1..=n {
        let s = shard(&jobs, k, n);
        assert!(
            !s.is_empty(),
            "shard {k}/{n} of ci.yml's regression is empty"
        );
        all.extend_from_slice(s);
    }
    assert_eq!(all, jobs);
    // It is scripts/test.sh's regression: 1e8 cycles, master seed 1.
    assert_eq!((cycles, seed), (100_000_000, 1));
}
