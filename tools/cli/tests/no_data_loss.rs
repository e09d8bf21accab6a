//! No command overwrites one of its own inputs or writes two outputs to one file, and a
//! generator writes only into a folder that is new, empty or its own (issue 50, item 1).
//! Each refusal is checked for its exit status (2), its message, and that every file it
//! could have touched is byte-identical afterwards.

mod cli_common;
use cli_common::{scratch, spe, stderr};

use std::path::{Path, PathBuf};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Every file under `dir` with its bytes, sorted: what "changes nothing" compares.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut v = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else {
                v.push((p.clone(), std::fs::read(&p).unwrap()));
            }
        }
    }
    v.sort();
    v
}

/// A small raw SPE buffer from the model.
fn buffer(dir: &Path) -> PathBuf {
    let buf = dir.join("buf.bin");
    let o = spe(&["sim", "--cycles", "20000", "--quiet", "--out", s(&buf)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::metadata(&buf).unwrap().len() > 0);
    buf
}

#[test]
fn an_output_that_is_an_input_or_another_output_is_refused_and_nothing_is_written() {
    let dir = scratch("no-data-loss", "alias");
    let buf = buffer(&dir);
    let link = dir.join("link.bin");
    std::os::unix::fs::symlink(&buf, &link).unwrap();
    let hard = dir.join("hard.bin");
    std::fs::hard_link(&buf, &hard).unwrap();
    let dotted = format!("{}/./buf.bin", s(&dir));
    let before = snapshot(&dir);
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["perf", s(&buf), "-o", s(&buf)], "is the input BUFFER"),
        (vec!["perf", s(&buf), "-o", &dotted], "is the input BUFFER"),
        (vec!["perf", s(&buf), "-o", s(&link)], "is the input BUFFER"),
        (vec!["perf", s(&buf), "-o", s(&hard)], "is the input BUFFER"),
        (
            vec![
                "sim",
                "--cycles",
                "1e9",
                "--out",
                s(&buf),
                "--perf",
                s(&buf),
            ],
            "are the same file",
        ),
        (
            vec![
                "sim",
                "--cycles",
                "1e9",
                "--out",
                s(&buf),
                "--summary-json",
                s(&link),
            ],
            "are the same file",
        ),
        (
            vec![
                "sim",
                "--cycles",
                "1e9",
                "--trace",
                s(&buf),
                "--out",
                s(&hard),
            ],
            "is the input --trace",
        ),
        (
            vec!["soc", "run", "--elf", s(&buf), "--out", s(&buf)],
            "is the input --elf",
        ),
        (
            vec!["fpga", "capture", "--replay", s(&buf), "--out", s(&link)],
            "is the input --replay",
        ),
    ];
    for (args, want) in cases {
        let t = std::time::Instant::now();
        let o = spe(&args);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
        assert!(e.contains(want), "{args:?}: {e}");
        assert!(t.elapsed().as_secs() < 30, "{args:?} ran before failing");
        assert_eq!(snapshot(&dir), before, "{args:?} changed a file");
    }
    // A thread's buffer of a multithreaded preset is an output too.
    let o = spe(&[
        "sim",
        "--preset",
        "smt2",
        "--cycles",
        "1e9",
        "--out",
        s(&dir.join("b")),
        "--perf",
        s(&dir.join("b.t1")),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("are the same file"), "{}", stderr(&o));
    // Distinct files still work.
    let o = spe(&["perf", s(&buf), "-o", s(&dir.join("p.data"))]);
    assert!(o.status.success(), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn generators_write_only_into_a_new_empty_or_own_folder() {
    // A folder like a repository root: files of the user's, no marker.
    let root = scratch("no-data-loss", "root");
    std::fs::write(root.join("README.md"), "the user's readme\n").unwrap();
    std::fs::write(root.join("Cargo.toml"), "[workspace]\n").unwrap();
    let before = snapshot(&root);
    for args in [
        vec!["gen", "--out", s(&root)],
        vec!["diagrams", "--out", s(&root)],
        vec!["fpga", "constraints", "--out", s(&root)],
    ] {
        let o = spe(&args);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
        assert!(e.contains("was not written by"), "{args:?}: {e}");
        assert!(e.contains("--force"), "{args:?}: {e}");
        assert_eq!(snapshot(&root), before, "{args:?} changed the folder");
    }

    // A new folder, then the same folder again (its marker), then --check.
    let gen = scratch("no-data-loss", "gen").join("out");
    for _ in 0..2 {
        let o = spe(&["gen", "--out", s(&gen)]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    assert!(std::fs::read_to_string(gen.join(".spe-generated"))
        .unwrap()
        .starts_with("spe gen\n"));
    assert!(spe(&["gen", "--check", s(&gen)]).status.success());
    // Another generator's folder is not gen's.
    let o = spe(&["fpga", "constraints", "--out", s(&gen)]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("was written by `spe gen`"),
        "{}",
        stderr(&o)
    );
    // An empty folder is taken; --force writes into a foreign one and does not advise
    // deleting the user's files.
    let pcf = scratch("no-data-loss", "pcf");
    let o = spe(&["fpga", "constraints", "--out", s(&pcf)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(spe(&["fpga", "constraints", "--check", s(&pcf)])
        .status
        .success());
    let o = spe(&["gen", "--out", s(&root), "--force"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stderr(&o).contains("delete it"), "{}", stderr(&o));
    for d in [root, gen, pcf] {
        std::fs::remove_dir_all(d).ok();
    }
}
