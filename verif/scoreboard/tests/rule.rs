//! The record-level rule (src/lib.rs) on the stimulus of `spe sim`: the golden model as
//! its own DUT passes; a DUT whose writer is slower passes, though a cycle-exact compare
//! fails it; a DUT that corrupts one beat, tags an op outside the population, or reads a
//! register wrong fails, naming the record, the tag or the register.

use spe_bench::{run, Backpressure, MemoryProfile, RunResult, SampleSettings};
use spe_defs::regs::{reg, RegId};
use spe_defs::Config;
use spe_model::Model;
use spe_ports::{Dut, Inputs, Outputs};
use spe_scoreboard::Checked;
use spe_stim::Workload;

/// Environment variable that replays these tests with another seed.
const SEED_ENV: &str = "SPE_SCOREBOARD_SEED";

fn seed(test: &str) -> u64 {
    let seed = std::env::var(SEED_ENV)
        .ok()
        .map(|s| s.trim().parse().expect("a decimal seed"))
        .unwrap_or(0x5c0e);
    eprintln!("{test}: seed {seed}; replay: {SEED_ENV}={seed} cargo test -p spe-scoreboard --test rule -- --exact {test}");
    seed
}

fn preset(name: &str) -> Config {
    *Config::preset(name).expect("a preset")
}

/// Runs `workload` on `dut` under the scoreboard; the run's result and the verdict.
fn checked<D: Dut>(
    cfg: &Config,
    dut: D,
    workload: &str,
    mem: &MemoryProfile,
    cycles: u64,
    seed: u64,
) -> (RunResult, Result<Option<String>, String>, Checked<D>) {
    let w = Workload::by_name(workload).unwrap();
    let s = SampleSettings::perf_default(cfg);
    let mut c = Checked::new(cfg, dut);
    let r = run(&mut c, cfg, &w, &s, mem, cycles, seed, &mut |_, _| {}).unwrap();
    let v = c.verdict();
    eprintln!("{v:?}");
    (r, v, c)
}

fn backpressure() -> MemoryProfile {
    MemoryProfile {
        backpressure: Backpressure::Random { p_ready: 0.7 },
        ..MemoryProfile::default()
    }
}

#[test]
fn the_model_as_its_own_dut_passes_on_one_and_two_threads() {
    let seed = seed("the_model_as_its_own_dut_passes_on_one_and_two_threads");
    for p in ["default", "smt2"] {
        let cfg = preset(p);
        let (r, v, c) = checked(
            &cfg,
            Model::new(&cfg),
            "mix",
            &backpressure(),
            200_000,
            seed,
        );
        let s = c.board.summary();
        assert!(v.is_ok(), "{p}: {v:?}");
        assert!(s.records > 20, "{p}: only {} records", s.records);
        assert!(s.reads > 0 && s.tags > 0, "{p}: {s}");
        let drained: u64 = r.stats.records_written;
        assert!(
            s.records as u64 >= drained,
            "{p}: {s}; {drained} records drained"
        );
    }
}

/// The model with its write port at half speed: `wr_ready` reaches it, and its beat is
/// offered, only in even cycles. A legal implementation with other write timing.
struct HalfSpeedWriter {
    m: Model,
    n: u64,
}

impl Dut for HalfSpeedWriter {
    fn step(&mut self, inp: &Inputs) -> Outputs {
        let even = self.n % 2 == 0;
        self.n += 1;
        let mut i = inp.clone();
        i.wr_ready &= even;
        let mut o = self.m.step(&i);
        if !even {
            (o.wr_valid, o.wr_addr, o.wr_data, o.wr_strb, o.wr_tid) = (false, 0, 0, 0, 0);
        }
        o
    }
}

/// Both DUTs on the inputs, the second's outputs to the bench; cycles whose outputs differ.
struct Pair<A: Dut, B: Dut> {
    a: A,
    b: B,
    differ: u64,
}

impl<A: Dut, B: Dut> Dut for Pair<A, B> {
    fn step(&mut self, inp: &Inputs) -> Outputs {
        let (x, y) = (self.a.step(inp), self.b.step(inp));
        self.differ += u64::from(x != y);
        y
    }
}

#[test]
fn a_slower_writer_passes_the_record_rule_but_not_a_cycle_compare() {
    let seed = seed("a_slower_writer_passes_the_record_rule_but_not_a_cycle_compare");
    let cfg = preset("default");
    let slow = || HalfSpeedWriter {
        m: Model::new(&cfg),
        n: 0,
    };
    let (_, v, c) = checked(&cfg, slow(), "memory", &backpressure(), 200_000, seed);
    assert!(v.is_ok(), "{v:?}");
    assert!(c.board.summary().records > 20, "{}", c.board.summary());

    let w = Workload::by_name("memory").unwrap();
    let s = SampleSettings::perf_default(&cfg);
    let mut pair = Pair {
        a: Model::new(&cfg),
        b: slow(),
        differ: 0,
    };
    run(
        &mut pair,
        &cfg,
        &w,
        &s,
        &backpressure(),
        200_000,
        seed,
        &mut |_, _| {},
    )
    .unwrap();
    assert!(
        pair.differ > 1000,
        "cycle compare: only {} cycles differ",
        pair.differ
    );
}

/// The model with one bit of the `at`-th beat it hands over flipped.
struct CorruptBeat {
    m: Model,
    beats: u64,
    at: u64,
}

impl Dut for CorruptBeat {
    fn step(&mut self, inp: &Inputs) -> Outputs {
        let mut o = self.m.step(inp);
        if o.wr_valid && inp.wr_ready {
            if self.beats == self.at {
                o.wr_data ^= 1 << 20;
            }
            self.beats += 1;
        }
        o
    }
}

#[test]
fn a_corrupted_beat_is_named_by_record_and_byte() {
    let seed = seed("a_corrupted_beat_is_named_by_record_and_byte");
    let cfg = preset("default");
    let dut = CorruptBeat {
        m: Model::new(&cfg),
        beats: 0,
        at: 5 * 8 + 2,
    };
    let (_, v, c) = checked(&cfg, dut, "mix", &MemoryProfile::default(), 100_000, seed);
    let e = v.expect_err("a corrupted record passed");
    assert!(
        e.contains("record 5 ") && e.contains("beat 2: byte 18"),
        "{e}"
    );
    assert_eq!(c.board.first().and_then(|m| m.record), Some(5));
}

/// The model, tagging slot 0 once while it holds no op.
struct StrayTag {
    m: Model,
    n: u64,
    done: bool,
}

impl Dut for StrayTag {
    fn step(&mut self, inp: &Inputs) -> Outputs {
        let mut o = self.m.step(inp);
        self.n += 1;
        if !self.done && self.n > 20_000 && !inp.disp[0].valid && o.tag == 0 {
            o.tag = 1;
            self.done = true;
        }
        o
    }
}

#[test]
fn a_tag_outside_the_population_is_named() {
    let seed = seed("a_tag_outside_the_population_is_named");
    let cfg = preset("default");
    let dut = StrayTag {
        m: Model::new(&cfg),
        n: 0,
        done: false,
    };
    let (_, v, _) = checked(&cfg, dut, "mix", &MemoryProfile::default(), 50_000, seed);
    let e = v.expect_err("a stray tag passed");
    assert!(
        e.contains("tagged slot 0") && e.contains("outside the thread's sample population"),
        "{e}"
    );
}

/// The model, reading PMBPTR with bit 6 flipped.
struct BadPtrRead(Model);

impl Dut for BadPtrRead {
    fn step(&mut self, inp: &Inputs) -> Outputs {
        let mut o = self.0.step(inp);
        if inp.reg_en && !inp.reg_we && inp.reg_addr == reg(RegId::Pmbptr).addr() {
            o.reg_rdata ^= 0x40;
        }
        o
    }
}

#[test]
fn a_wrong_register_read_is_named() {
    let seed = seed("a_wrong_register_read_is_named");
    let cfg = preset("default");
    let (_, v, _) = checked(
        &cfg,
        BadPtrRead(Model::new(&cfg)),
        "loop",
        &MemoryProfile::default(),
        50_000,
        seed,
    );
    let e = v.expect_err("a wrong PMBPTR read passed");
    assert!(e.contains("register read of PMBPTR_EL1"), "{e}");
}

/// The model, never raising PMBIRQ.
struct NoIrq(Model);

impl Dut for NoIrq {
    fn step(&mut self, inp: &Inputs) -> Outputs {
        let mut o = self.0.step(inp);
        o.thr[0].irq = false;
        o
    }
}

#[test]
fn a_missing_interrupt_is_named() {
    let seed = seed("a_missing_interrupt_is_named");
    let cfg = preset("fastsim");
    let mem = MemoryProfile {
        errors: spe_bench::ErrorInjection::AtBeat(100),
        ..MemoryProfile::default()
    };
    let (_, v, _) = checked(&cfg, NoIrq(Model::new(&cfg)), "memory", &mem, 50_000, seed);
    let e = v.expect_err("a unit without PMBIRQ passed");
    assert!(
        e.contains("PMBIRQ of thread 0: the DUT's is 0, the model's 1"),
        "{e}"
    );
}
