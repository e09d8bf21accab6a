//! The command line's rough edges (issue 28 item 6): outputs are checked before a run
//! starts, `spe perf` and `spe decode` say what a file that is not an SPE buffer is, numbers
//! take the `1e6` and `1_000_000` forms, `--threads 0` is refused, `spe soc run` refuses a
//! hook fault without VexRiscv and a hot share outside (0, 1]. Each case checks the
//! message and the exit code.

mod cli_common;
use cli_common::{scratch, spe, stderr};

#[test]
fn an_unwritable_output_fails_before_the_run_with_exit_2() {
    // 1e9 cycles would take minutes: the error must come before the run starts.
    for args in [
        &[
            "sim",
            "--cycles",
            "1e9",
            "--backend",
            "verilator",
            "--wave",
            "/nonexistent/w.vcd",
        ][..],
        &["sim", "--cycles", "1e9", "--out", "/nonexistent/a.bin"][..],
        &["sim", "--cycles", "1e9", "--vectors", "/nonexistent/v.vec"][..],
        &[
            "sim",
            "--cycles",
            "1e9",
            "--summary-json",
            "/nonexistent/s.json",
        ][..],
        &[
            "soc",
            "run",
            "--elf",
            "/nonexistent/p.elf",
            "--out",
            "/nonexistent/s.bin",
        ][..],
    ] {
        let t = std::time::Instant::now();
        let o = spe(args);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
        assert!(
            e.contains("directory /nonexistent does not exist"),
            "{args:?}: {e}"
        );
        assert!(t.elapsed().as_secs() < 30, "{args:?} ran before failing");
    }
    let dir = scratch("cli-edges", "dir");
    let o = spe(&["sim", "--cycles", "1e9", "--out", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("is a directory"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn perf_and_decode_refuse_what_is_not_an_spe_buffer_and_say_what_it_is() {
    let dir = scratch("cli-edges", "perf");
    let bin = dir.join("a.bin");
    let data = dir.join("a.data");
    // A real buffer (and `1e5`, `100_000` as cycle counts).
    for cycles in ["1e5", "100_000"] {
        let o = spe(&[
            "sim",
            "--cycles",
            cycles,
            "--quiet",
            "--out",
            bin.to_str().unwrap(),
            "--perf",
            data.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "--cycles {cycles}: {}", stderr(&o));
    }
    let out = dir.join("b.data");
    let o = spe(&["perf", bin.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert!(o.status.success(), "a real buffer wraps: {}", stderr(&o));
    // A perf.data file given as the buffer.
    let o = spe(&["perf", data.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("it is a perf.data file"),
        "{}",
        stderr(&o)
    );
    let o = spe(&["decode", data.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("it is a perf.data file"),
        "{}",
        stderr(&o)
    );
    // Random bytes, and a text file.
    let rnd = dir.join("random.bin");
    let bytes: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    std::fs::write(&rnd, bytes).unwrap();
    let o = spe(&["perf", rnd.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("does not decode as an SPE buffer"),
        "{}",
        stderr(&o)
    );
    let o = spe(&[
        "perf",
        "--force",
        rnd.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "--force wraps anyway: {}", stderr(&o));
    let txt = dir.join("notes.txt");
    std::fs::write(&txt, "not a buffer\n").unwrap();
    let o = spe(&["perf", txt.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("it is a text file"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn numbers_in_e_notation_are_taken_and_threads_0_is_refused() {
    let o = spe(&["regress", "--threads", "0", "--cycles", "1e3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("0 worker threads would run nothing"),
        "{}",
        stderr(&o)
    );
    let o = spe(&["sim", "--cycles", "1.5e0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not a whole number"), "{}", stderr(&o));
    let o = spe(&[
        "regress",
        "--threads",
        "1",
        "--cycles",
        "1e5",
        "--job-cycles",
        "50_000",
        "--presets",
        "minimal",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("regress minimal"), "{text}");
}

#[test]
fn break_names_the_rules_it_knows_and_says_where_it_broke_one() {
    let o = spe(&["sim", "--cycles", "1000", "--break", "bogus"]);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(
        e.contains("--break \"bogus\"") && e.contains("window, once, class"),
        "{e}"
    );
    let d = scratch("cli-edges", "break");
    let vec = d.join("w.vec");
    let o = spe(&[
        "sim",
        "--cycles",
        "3000",
        "--quiet",
        "--break",
        "reg-port",
        "--break-from",
        "1500",
        "--vectors",
        vec.to_str().unwrap(),
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(out.contains("broke rule reg-port at cycle 1500"), "{out}");
    // A header, then one line per cycle (reset cycles and the drain included).
    let text = std::fs::read_to_string(&vec).unwrap();
    let mut lines = text.lines();
    assert!(lines
        .next()
        .unwrap()
        .starts_with("# spe vectors spe_top_default reset:1 "));
    let n = lines.clone().count();
    assert!(n >= 3000, "{n} vector lines");
    let fields = lines.next().unwrap().split(' ').count();
    let ports = text.lines().next().unwrap().split(' ').count() - 4;
    assert_eq!(fields, ports);
    // No chance to break: the run fails and says why.
    let o = spe(&[
        "sim",
        "--cycles",
        "1000",
        "--quiet",
        "--break",
        "once",
        "--break-from",
        "5000",
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("gave no chance to break it"),
        "{}",
        stderr(&o)
    );
    std::fs::remove_dir_all(d).ok();
}

/// Issue 50, item 6: each small edge a new user hit is a clear error (exit 2) or a
/// documented behaviour, and the help lists every preset and workload from the tables
/// that define them.
#[test]
fn small_edges_are_clear_errors_and_help_lists_every_preset() {
    for (args, want) in [
        (&["sim", "--ts", "--no-ts"][..], "cannot be used with"),
        (&["sim", "--cx", "--no-cx"][..], "cannot be used with"),
        (
            &["sim", "--cycles", "0"][..],
            "--cycles 0 would run nothing",
        ),
        (&["mutate", "--preset", "smt2"][..], "one-thread units"),
        (
            &["mutate", "--sample", "0"][..],
            "--sample 0 draws no mutant",
        ),
        (
            &["mutate", "--require", "150"][..],
            "a percentage, 0 to 100",
        ),
        (
            &["mutate", "--gen", "/nonexistent/gen"][..],
            "/nonexistent/gen/default not found: run spe from the repository root",
        ),
        (
            &["bench", "sim", "--gen", "/nonexistent/gen"][..],
            "/nonexistent/gen/default not found: run spe from the repository root",
        ),
        (
            &["formal", "--tools", "/nonexistent/formal"][..],
            "run `bash scripts/formal.sh` once",
        ),
    ] {
        let t = std::time::Instant::now();
        let o = spe(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
        assert!(t.elapsed().as_secs() < 20, "{args:?} worked before failing");
    }
    // decode: an empty file and a UTF-8 text file are refused in one line.
    let dir = scratch("cli-edges", "edges");
    let empty = dir.join("empty.bin");
    std::fs::write(&empty, b"").unwrap();
    let o = spe(&["decode", empty.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("is empty"), "{}", stderr(&o));
    let text = dir.join("notes.txt");
    std::fs::write(&text, "Ünïcödé notes, not a buffer\n".repeat(300)).unwrap();
    let o = spe(&["decode", text.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("it is a text file"), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    // decode prints a line per record first (what `| head` shows), then the packets.
    let buf = dir.join("buf.bin");
    let o = spe(&[
        "sim",
        "--cycles",
        "20000",
        "--quiet",
        "--out",
        buf.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = spe(&["decode", buf.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.starts_with("#0 @0x0 PC "),
        "{}",
        &out[..out.len().min(300)]
    );
    // A lockstep run with --vcd and no divergence says so.
    let vcd = dir.join("w.vcd");
    let o = spe(&[
        "sim",
        "--backend",
        "lockstep",
        "--cycles",
        "20000",
        "--quiet",
        "--vcd",
        vcd.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("no divergence"),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    // The help of every --preset lists every preset; spe sim's --workload every workload.
    for args in [
        &["sim", "--help"][..],
        &["synth", "--help"][..],
        &["formal", "--help"][..],
        &["mutate", "--help"][..],
        &["bench", "sim", "--help"][..],
    ] {
        let help = String::from_utf8_lossy(&spe(args).stdout).into_owned();
        let names: Vec<&str> = spe_defs::PRESETS.iter().map(|c| c.name).collect();
        assert!(help.contains(&names.join(", ")), "{args:?}: {help}");
    }
    let help = String::from_utf8_lossy(&spe(&["sim", "--help"]).stdout).into_owned();
    assert!(
        help.contains(&spe_stim::Workload::names().join(", ")),
        "{help}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn soc_run_refuses_a_hook_fault_without_vexriscv_and_a_hot_share_outside_0_to_1() {
    let dir = scratch("cli_edges", "soc_args");
    let elf = dir.join("p.elf");
    std::fs::write(&elf, b"not run").unwrap();
    let out = dir.join("s.bin");
    let (elf, out) = (elf.to_str().unwrap(), out.to_str().unwrap());
    let cases: [(&[&str], &str); 4] = [
        (
            &["--hook-fault", "flush-as-retired"],
            "breaks VexRiscv's hook adapter; the picorv32 SoC has none",
        ),
        (&["--hot", "0"], "--hot 0 is not a share"),
        (&["--hot", "1.5"], "--hot 1.5 is not a share"),
        (&["--hook-fault", "late"], "unknown fault \"late\""),
    ];
    for (extra, want) in cases {
        let mut args = vec!["soc", "run", "--elf", elf, "--out", out];
        args.extend_from_slice(extra);
        let o = spe(&args);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {e}");
        assert!(e.contains(want), "{extra:?}: {e}");
    }
    // With --core vexriscv the fault is taken: the run gets as far as reading the ELF.
    let o = spe(&[
        "soc",
        "run",
        "--core",
        "vexriscv",
        "--elf",
        elf,
        "--out",
        out,
        "--hook-fault",
        "flush-as-retired",
    ]);
    assert!(!stderr(&o).contains("hook adapter"), "{}", stderr(&o));
    assert!(!std::path::Path::new(out).exists(), "nothing written");
}
