//! The regression's job runner on the Verilated RTL: a short job passes in lockstep, and the
//! `--trace` build writes a VCD window of internal signals that the `vcd` crate reads back.

use spe_cosim::regress::{run_job, Job, JobOptions};
use spe_defs::Config;
use std::io::BufReader;

fn job(preset: &str, seed: u64, cycles: u64) -> Job {
    Job {
        index: 0,
        preset: Config::preset(preset).unwrap(),
        seed,
        cycles,
    }
}

#[test]
fn a_short_job_matches_the_model() {
    let j = job("fastsim", 0xABCD, 300_000);
    eprintln!(
        "job {} (replay: cargo run --release --bin spe -- regress --job {})",
        j.spec(),
        j.spec()
    );
    let r = run_job(&j, &JobOptions::default(), &mut |_| {}).unwrap();
    assert_eq!(r.mismatches, 0, "{:?}", r.first);
    assert!(r.stats.cycles >= 300_000);
    assert!(r.stats.ops_dispatched > 0);
}

#[test]
fn trace_window_holds_internal_signals() {
    let dir = std::env::temp_dir().join(format!("spe-trace-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("w.vcd");
    let opts = JobOptions {
        trace: Some((path.clone(), 1000, 1100)),
        ..JobOptions::default()
    };
    let r = run_job(&job("minimal", 7, 20_000), &opts, &mut |_| {}).unwrap();
    assert_eq!(r.mismatches, 0);
    let mut p = vcd::Parser::new(BufReader::new(std::fs::File::open(&path).unwrap()));
    let h = p.parse_header().unwrap();
    // The writer's beat counter is an internal register, not a port.
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.contains("s_beat"),
        "no internal writer signal in the trace"
    );
    let top = h.find_scope(&["TOP"]).expect("Verilator's TOP scope");
    let clk = top
        .items
        .iter()
        .find_map(|i| match i {
            vcd::ScopeItem::Var(v) if v.reference == "clk" => Some(v.code),
            _ => None,
        })
        .expect("clk in the TOP scope");
    let mut times = Vec::new();
    let mut rises = 0;
    for c in p {
        match c.unwrap() {
            vcd::Command::Timestamp(t) => times.push(t),
            vcd::Command::ChangeScalar(id, vcd::Value::V1) if id == clk => rises += 1,
            _ => {}
        }
    }
    // Cycles 1000..1100 at two dumps per cycle.
    assert_eq!(times.first(), Some(&2000));
    assert_eq!(times.last(), Some(&2199));
    assert_eq!(rises, 100);
    std::fs::remove_dir_all(&dir).unwrap();
}
