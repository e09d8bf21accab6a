//! Trace files: what the writer produces parses back to the same ops, malformed lines are
//! reported with their line number, the documented example parses, and a trace replays in
//! order under the hook contract.

mod common;

use common::{seed, FakeDut, NullDut};
use spe_bench::{run, MemoryProfile, SampleSettings};
use spe_defs::impdef::data_source;
use spe_defs::packet::{op_class, subclass};
use spe_defs::Config;
use spe_ports::{Dut, Inputs};
use spe_stim::trace;
use spe_stim::{
    BranchOutcome, Core, MemAccess, MemEvents, MicroOp, Mode, Program, Tlb, TraceProgram, Workload,
};
use std::path::PathBuf;

const FILE: &str = "trace_files";

/// Runs the core alone (a unit that never tags) and returns every op it dispatched.
fn record(w: &Workload, cycles: u64, seed: u64) -> Vec<MicroOp> {
    let cfg = Config::default();
    let mut core = Core::new(&cfg, w.program.clone(), w.params, seed).unwrap();
    core.record_ops();
    let mut dut = NullDut;
    for c in 0..cycles {
        let mut inp = Inputs::default();
        core.drive(c, &mut inp);
        core.observe(c, &dut.step(&inp));
    }
    core.take_recorded()
}

#[test]
fn recorded_ops_of_every_workload_round_trip_through_a_trace() {
    let seed = seed(
        FILE,
        "recorded_ops_of_every_workload_round_trip_through_a_trace",
    );
    for name in Workload::names() {
        let ops = record(&Workload::by_name(name).unwrap(), 20_000, seed);
        assert!(ops.len() > 1000, "{name}");
        let text = trace::write(&ops);
        let back = trace::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(back.len(), ops.len());
        for (i, (a, b)) in ops.iter().zip(&back).enumerate() {
            assert_eq!(
                a,
                b,
                "{name}: op {i} differs after the round trip; line: {:?}",
                text.lines().nth(i + 2)
            );
        }
    }
}

#[test]
fn hand_written_ops_with_every_field_set_round_trip() {
    let mut ld = MicroOp::new(
        0x4000,
        op_class::LD_ST_ATOMIC,
        subclass::LDST_EXT | subclass::LDST_EXT_AT | subclass::LDST_ST,
        Mode {
            el: 2,
            ns: false,
            el2: false,
            e2pb: 0b01,
            tge: true,
            e2h: true,
            aarch32: true,
            prof_allowed: false,
        },
    );
    ld.mem = Some(MemAccess {
        va: 0xf0ff_0000_dead_beef,
        pa: 0x00ab_cdef_0123_4567,
        tlb: Tlb::Off,
        xlat_lat: 0,
        source: 0x42,
        events: MemEvents {
            l1d_access: false,
            l1d_refill: true,
            llc_access: false,
            llc_miss: true,
            remote: true,
        },
        misaligned: true,
        mem_lat: 777,
        ns_mem: true,
    });
    ld.wrong_path = true;
    ld.exception = true;
    ld.cond = true;
    ld.issue_lat = 9;
    ld.exec_lat = 3;
    ld.ctx_el1 = Some(0xffff_ffff);
    let mut br = MicroOp::new(
        0xffff_8000_0000_0000,
        op_class::BRANCH,
        subclass::BR_COND | subclass::BR_IND,
        Mode::at(1),
    );
    br.cond = false;
    br.branch = Some(BranchOutcome {
        target: 0x1234,
        taken: true,
        mispred: true,
        indirect: true,
        target_el: 0,
        target_ns: true,
    });
    let mut sel = MicroOp::new(0x10, op_class::OTHER, subclass::OTHER_COND, Mode::at(3));
    sel.cond_fail = true;
    let mut walk = MicroOp::new(0x14, op_class::LD_ST_ATOMIC, subclass::LDST_GP, Mode::at(0));
    walk.mem = Some(MemAccess {
        va: 8,
        pa: 8,
        tlb: Tlb::Walk,
        xlat_lat: 30,
        source: data_source::DRAM,
        events: MemEvents::for_source(data_source::DRAM),
        misaligned: false,
        mem_lat: 1,
        ns_mem: false,
    });
    let reserved = MicroOp::new(0x18, op_class::RESERVED, 0xff, Mode::at(0));
    let ops = vec![ld, br, sel, walk, reserved];
    let text = trace::write(&ops);
    assert_eq!(trace::parse(&text).unwrap(), ops, "{text}");
}

#[test]
fn a_malformed_line_in_a_file_names_the_file_and_the_line() {
    let dir = std::env::temp_dir().join(format!("spe-bench-trace-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.trace");
    std::fs::write(
        &path,
        "# comment\n0x10 other 0\n\n0x14 ldst 0x00 va=0x1000 src=nowhere\n",
    )
    .unwrap();
    let e = trace::load(&path).unwrap_err();
    assert!(
        e.contains("bad.trace") && e.contains("line 4") && e.contains("src=nowhere"),
        "{e}"
    );
    std::fs::write(&path, "# only a comment\n").unwrap();
    assert!(trace::load(&path).unwrap_err().contains("no ops"));
    assert!(trace::load(&dir.join("missing.trace"))
        .unwrap_err()
        .contains("cannot read"));
    let good = dir.join("good.trace");
    trace::save(&good, &record(&Workload::by_name("loop").unwrap(), 100, 1)).unwrap();
    assert_eq!(trace::load(&good).unwrap().name, "good");
    std::fs::remove_dir_all(&dir).ok();
}

/// The example of docs/trace-format.md: the first ```text block.
fn doc_example() -> String {
    let doc = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/trace-format.md");
    let text = std::fs::read_to_string(&doc).expect("docs/trace-format.md");
    let start = text.find("```text\n").expect("an example block") + "```text\n".len();
    let end = text[start..].find("```").expect("end of the example") + start;
    text[start..end].to_string()
}

#[test]
fn the_documented_example_parses_and_replays_under_the_contract() {
    let seed = seed(
        FILE,
        "the_documented_example_parses_and_replays_under_the_contract",
    );
    let ops = trace::parse(&doc_example()).unwrap_or_else(|e| panic!("docs example: {e}"));
    assert!(ops.len() >= 8);
    assert!(
        ops.iter().any(|o| o.mem.is_some())
            && ops.iter().any(|o| o.branch.is_some())
            && ops.iter().any(|o| o.wrong_path)
    );
    let cfg = Config::default();
    let w = Workload::from_program(Program::Trace(TraceProgram {
        name: "doc".into(),
        ops,
    }));
    let mut dut = FakeDut::new(cfg.dispatch_width, 13);
    let s = SampleSettings {
        buffer_size: 64 << 10,
        ..SampleSettings::perf_default(&cfg)
    };
    let r = run(
        &mut dut,
        &cfg,
        &w,
        &s,
        &MemoryProfile::default(),
        30_000,
        seed,
        &mut |_, _| {},
    )
    .unwrap();
    assert!(dut.errors.is_empty(), "{:#?}", dut.errors);
    assert!(
        r.stats.samples > 0 && r.stats.stray_reports == 0 && r.stats.tag_anomalies == 0,
        "{}",
        r.stats
    );
    assert!(
        dut.seen.mem > 0 && dut.seen.branch > 0 && dut.seen.flushed > 0,
        "{:?}",
        dut.seen
    );
}

#[test]
fn a_trace_replays_in_order_from_the_start_again() {
    let text =
        "0x100 other 0\n0x104 ldst 0 va=0x2000\n0x108 other 0x2\n0x10c branch 0 tgt=0x100 taken\n";
    let ops = trace::parse(text).unwrap();
    let w = Workload::from_program(Program::Trace(TraceProgram {
        name: "t".into(),
        ops: ops.clone(),
    }));
    let got = record(&w, 200, 1);
    assert!(got.len() > 3 * ops.len());
    for (i, op) in got.iter().enumerate() {
        assert_eq!(op, &ops[i % ops.len()], "op {i}");
    }
}
