//! The README is the front door: short, with a folder map that names every crate and
//! top-level folder and a link to every page of `docs/`, and no commit hashes (figures with
//! their commits live in `docs/figures.md`, history in git).

use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn readme() -> String {
    std::fs::read_to_string(repo().join("README.md")).expect("README.md")
}

/// The text of the README's "## Folder map" section.
fn folder_map(text: &str) -> &str {
    let start = text
        .find("## Folder map")
        .expect("a \"## Folder map\" section");
    let rest = &text[start..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |i| i + 3);
    &rest[..end]
}

/// The paths the folder map's first column names (`path` cells, split at ", ").
fn mapped_paths(map: &str) -> Vec<String> {
    let mut v = Vec::new();
    for line in map.lines().filter(|l| l.starts_with("| `")) {
        let cell = line.split('|').nth(1).unwrap_or("");
        for p in cell.split(',') {
            let p = p.trim().trim_matches('`');
            if !p.is_empty() {
                v.push(p.trim_end_matches('/').to_string());
            }
        }
    }
    v
}

/// Workspace members from the root `Cargo.toml`.
fn members() -> Vec<String> {
    let toml = std::fs::read_to_string(repo().join("Cargo.toml")).unwrap();
    let start = toml.find("members = [").expect("workspace members");
    let end = start + toml[start..].find(']').unwrap();
    toml[start..end]
        .lines()
        .skip(1)
        .map(|l| l.trim().trim_end_matches(',').trim_matches('"').to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

/// The top-level folders `.gitignore` names (`/target`, `/out/`).
fn top_level_ignored() -> Vec<String> {
    let text = std::fs::read_to_string(repo().join(".gitignore")).expect(".gitignore");
    text.lines()
        .filter_map(|l| l.strip_prefix('/'))
        .map(|l| l.trim_end_matches('/').to_string())
        .collect()
}

#[test]
fn the_folder_map_names_every_crate_and_top_level_folder() {
    let text = readme();
    let paths = mapped_paths(folder_map(&text));
    let mut missing: Vec<String> = members()
        .into_iter()
        .filter(|m| !paths.contains(m))
        .collect();
    assert!(!members().is_empty(), "no workspace members read");
    for e in std::fs::read_dir(repo()).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        // Git's own folder and what .gitignore names at the top (target/, .deps/, and out/,
        // where scripts/run.sh writes), which a clone does not have.
        let ignored = name == ".git" || top_level_ignored().contains(&name);
        if !e.path().is_dir() || ignored {
            continue;
        }
        let named = paths
            .iter()
            .any(|p| p == &name || p.starts_with(&format!("{name}/")));
        if !named {
            missing.push(name);
        }
    }
    // Every mapped path exists.
    let stale: Vec<&String> = paths.iter().filter(|p| !repo().join(p).exists()).collect();
    assert!(
        missing.is_empty() && stale.is_empty(),
        "README.md's folder map: missing {missing:?}, naming what is not there {stale:?}"
    );
}

#[test]
fn the_readme_links_every_docs_page() {
    let text = readme();
    let mut missing = Vec::new();
    for e in std::fs::read_dir(repo().join("docs")).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        if name.ends_with(".md") && !text.contains(&format!("(docs/{name}")) {
            missing.push(name);
        }
    }
    assert!(
        missing.is_empty(),
        "README.md links no docs page {missing:?}"
    );
}

#[test]
fn the_readme_is_short_and_names_no_commit() {
    let text = readme();
    assert!(
        text.len() <= 10 * 1024,
        "README.md is {} bytes, more than 10 KB: move the detail into docs/",
        text.len()
    );
    // A word of 7 to 40 hex digits with both a digit and a letter: a commit hash.
    let hashes: Vec<&str> = text
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| {
            (7..=40).contains(&w.len())
                && w.chars()
                    .all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c))
                && w.chars().any(|c| c.is_ascii_digit())
                && w.chars().any(|c| c.is_ascii_alphabetic())
        })
        .collect();
    assert!(
        hashes.is_empty(),
        "README.md names commits {hashes:?}: figures and their commits go in docs/figures.md"
    );
}

#[test]
fn the_checks_can_fail() {
    // The helpers see what they should on a text made to fail.
    let map = "## Folder map\n\n| path | what |\n|---|---|\n| `a/b`, `c/` | x |\n\n## Next\n| `z` | y |\n";
    assert_eq!(mapped_paths(folder_map(map)), ["a/b", "c"]);
    assert!(members().iter().any(|m| m == "tools/cli"));
}
