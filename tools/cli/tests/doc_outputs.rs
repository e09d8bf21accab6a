//! A documented output is what its command prints (issue 50, item 4). Every fenced block in
//! README.md and docs/*.md that follows a line
//!
//! ```text
//! <!-- spe-output: ARGS -->
//! ```
//!
//! is compared with what `spe ARGS` prints now (stdout then stderr). In the block, a line
//! `...` stands for any number of lines and `[..]` within a line for any text (wall times,
//! rates, thread counts: what a machine changes). A drift fails with the command, the
//! documented text and the output, so the fix is to paste the new output.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// One documented output: where, the command's arguments, the expected lines.
struct Doc {
    file: String,
    line: usize,
    args: String,
    expected: Vec<String>,
}

const MARK: &str = "<!-- spe-output:";

fn docs_in(file: &Path) -> Vec<Doc> {
    let text = std::fs::read_to_string(file).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let t = lines[i].trim();
        if let Some(rest) = t.strip_prefix(MARK) {
            let args = rest
                .strip_suffix("-->")
                .unwrap_or_else(|| panic!("{}:{}: unterminated marker", file.display(), i + 1))
                .trim()
                .to_string();
            // The next fence opens the block; its indentation is stripped from every line.
            let open = (i + 1..lines.len())
                .find(|&k| lines[k].trim_start().starts_with("```"))
                .unwrap_or_else(|| {
                    panic!("{}:{}: no block after the marker", file.display(), i + 1)
                });
            let indent = lines[open].len() - lines[open].trim_start().len();
            let close = (open + 1..lines.len())
                .find(|&k| lines[k].trim_start().starts_with("```"))
                .unwrap_or_else(|| panic!("{}:{}: unclosed block", file.display(), open + 1));
            out.push(Doc {
                file: file.display().to_string(),
                line: i + 1,
                args,
                expected: lines[open + 1..close]
                    .iter()
                    .map(|l| l.get(indent..).unwrap_or(l.trim_start()).to_string())
                    .collect(),
            });
            i = close;
        }
        i += 1;
    }
    out
}

/// Whether `line` matches `pattern`, where `[..]` matches any text.
fn line_matches(pattern: &str, line: &str) -> bool {
    let parts: Vec<&str> = pattern.split("[..]").collect();
    if parts.len() == 1 {
        return pattern == line;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !line.starts_with(first) || line.len() < first.len() + last.len() || !line.ends_with(last) {
        return false;
    }
    let mut rest = &line[first.len()..line.len() - last.len()];
    for p in &parts[1..parts.len() - 1] {
        match rest.find(p) {
            Some(at) => rest = &rest[at + p.len()..],
            None => return false,
        }
    }
    true
}

/// Whether `lines` match `pattern`, where a pattern line `...` matches any lines.
fn matches(pattern: &[String], lines: &[&str]) -> bool {
    match pattern.split_first() {
        None => lines.is_empty(),
        Some((p, rest)) if p == "..." => (0..=lines.len()).any(|k| matches(rest, &lines[k..])),
        Some((p, rest)) => {
            !lines.is_empty() && line_matches(p, lines[0]) && matches(rest, &lines[1..])
        }
    }
}

#[test]
fn the_matcher_takes_what_it_should_and_nothing_else() {
    let p = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(matches(&p(&["a [..] c", "..."]), &["a b c", "x", "y"]));
    assert!(matches(&p(&["...", "end"]), &["end"]));
    assert!(!matches(&p(&["a [..] c"]), &["a b d"]));
    assert!(!matches(&p(&["a"]), &["a", "b"]));
    assert!(!matches(&p(&["[..]x[..]y"]), &["y x"]));
    assert!(line_matches("[..]", ""));
}

#[test]
fn documented_outputs_are_what_the_commands_print() {
    let root = repo();
    let mut files = vec![root.join("README.md")];
    let mut md: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    md.sort();
    files.extend(md);
    let docs: Vec<Doc> = files.iter().flat_map(|f| docs_in(f)).collect();
    assert!(
        docs.len() >= 3,
        "only {} documented outputs found: the markers went missing",
        docs.len()
    );
    let mut drift = Vec::new();
    for d in &docs {
        let o = Command::new(env!("CARGO_BIN_EXE_spe"))
            .args(d.args.split_whitespace())
            .current_dir(&root)
            .output()
            .unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        let got: Vec<&str> = text.lines().collect();
        if !matches(&d.expected, &got) {
            drift.push(format!(
                "{}:{}: `spe {}` no longer prints what the doc shows.\n--- documented\n{}\n--- printed now\n{}",
                d.file,
                d.line,
                d.args,
                d.expected.join("\n"),
                text
            ));
        }
    }
    assert!(drift.is_empty(), "{}", drift.join("\n\n"));
}
