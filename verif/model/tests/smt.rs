//! The golden model of a multithreaded unit (T = 2 and 4; docs/smt.md): each thread counts
//! only its own ops, its latency counters advance only while it is active, the register
//! port reaches the bank `reg_tid` names, the shared writer serves waiting records
//! round-robin (a record waits for at most T - 1 others), and one thread's full buffer or
//! write fault leaves the other threads' records and registers intact. At T = 1 the
//! thread-only inputs are ignored.

#![allow(clippy::needless_range_loop)] // threads index several per-thread tables

mod common;

use common::seed;
use spe_defs::config::MAX_THREADS;
use spe_defs::impdef::{layout, RECORD_SIZE_LOG2};

/// The record slot of the presets these tests run (none with FEAT_SPE_CRR).
const RECORD_SIZE: usize = 1 << RECORD_SIZE_LOG2;
use spe_defs::packet::op_class;
use spe_defs::regs::{pmblimitr, pmbsr, pmscr, RegId};
use spe_defs::Config;
use spe_model::{Model, Phase};
use spe_ports::{Inputs, Outputs, Slot};
use std::collections::BTreeMap;

/// Thread `t`'s buffer: 1 MiB apart.
fn base(t: usize) -> u64 {
    0x100_0000 + (t as u64) * 0x10_0000
}

/// Thread `t`'s op PCs: their own range, so a record shows whose op it sampled.
fn pc(t: usize, n: u64) -> u64 {
    0x4000_0000 + ((t as u64) << 24) + 4 * n
}

fn smt(preset: &str, threads: usize) -> Config {
    Config {
        threads,
        ..*Config::preset(preset).unwrap()
    }
}

struct Smt {
    m: Model,
    inp: Inputs,
    cycle: u64,
    /// Accepted beats per thread (by `wr_tid`): address → data.
    mem: Vec<BTreeMap<u64, u64>>,
    /// `pmu_sample_pop` summed per thread.
    pop: Vec<u64>,
    /// Kept records (`pmu_sample_filtrate`) per thread.
    kept: Vec<u64>,
    /// Tags per thread: (cycle, slot).
    tags: Vec<Vec<(u64, usize)>>,
    /// Grants of the writer in order: the thread whose record went to its check cycle.
    grants: Vec<usize>,
    /// Most other grants seen while one record waited.
    worst_wait: usize,
    /// Per thread: grants to others since its record started waiting.
    waited: Vec<Option<usize>>,
    /// Make every beat of thread `t`'s records fail (stage-1 fault).
    fault: Option<usize>,
    rng: u64,
    /// Probability (out of 256) that `wr_ready` is high in a cycle.
    ready_256: u64,
}

impl Smt {
    fn new(cfg: &Config, seed: u64) -> Smt {
        let t = cfg.threads;
        let mut inp = Inputs::default();
        for x in &mut inp.thr {
            x.disp_el = 1;
            x.disp_ns = true;
            x.prof_allowed = true;
            x.active = true;
        }
        Smt {
            m: Model::new(cfg),
            inp,
            cycle: 0,
            mem: vec![BTreeMap::new(); t],
            pop: vec![0; t],
            kept: vec![0; t],
            tags: vec![Vec::new(); t],
            grants: Vec::new(),
            worst_wait: 0,
            waited: vec![None; t],
            fault: None,
            rng: seed | 1,
            ready_256: 256,
        }
    }

    fn threads(&self) -> usize {
        self.m.config().threads
    }

    fn random(&mut self) -> u64 {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        self.rng
    }

    fn phases(&self) -> Vec<Phase> {
        (0..self.threads())
            .map(|t| self.m.thread(t).phase.clone())
            .collect()
    }

    /// One cycle; pulses (dispatch, hooks, register access) are cleared afterwards.
    fn step(&mut self) -> Outputs {
        self.inp.wr_ready = self.random() % 256 < self.ready_256;
        // A fault answers the faulting thread's beats only: the write port's outputs depend
        // on the state alone, so a copy of the model shows whose beat is offered.
        self.inp.wr_err = self.fault.is_some_and(|f| {
            let peek = self.m.clone().step(&self.inp);
            peek.wr_valid && usize::from(peek.wr_tid) == f
        });
        let before = self.phases();
        let out = self.m.step(&self.inp);
        let after = self.phases();
        let n = self.threads();
        for t in 0..n {
            let x = out.thr[t];
            self.pop[t] += u64::from(x.pmu_sample_pop);
            self.kept[t] += u64::from(x.pmu_sample_filtrate);
        }
        for (i, _) in self
            .inp
            .disp
            .iter()
            .enumerate()
            .filter(|(i, _)| out.tag >> i & 1 == 1)
        {
            let t = usize::from(self.inp.disp[i].tid) & (n - 1);
            self.tags[t].push((self.cycle, i));
        }
        for x in &out.thr[n..] {
            assert_eq!(*x, Default::default(), "outputs of threads the unit lacks");
        }
        if out.wr_valid {
            let t = usize::from(out.wr_tid);
            assert!(t < n);
            let (lo, hi) = (base(t), base(t) + 0x10_0000);
            assert!(
                (lo..hi).contains(&out.wr_addr),
                "cycle {}: thread {t}'s beat at {:#x}, outside its buffer",
                self.cycle,
                out.wr_addr
            );
            if self.inp.wr_ready && !self.inp.wr_err {
                assert!(self.mem[t].insert(out.wr_addr, out.wr_data).is_none());
            }
        }
        // Grants: a thread's record enters its check cycle; count them against the
        // records waiting meanwhile.
        for t in 0..n {
            if matches!(after[t], Phase::Check(_)) && !matches!(before[t], Phase::Check(_)) {
                self.grants.push(t);
                for (u, w) in self.waited.iter_mut().enumerate() {
                    if let (true, Some(k)) = (u != t, w.as_mut()) {
                        *k += 1;
                    }
                }
            }
        }
        for t in 0..n {
            match (&after[t], self.waited[t]) {
                (Phase::Waiting(_), None) => self.waited[t] = Some(0),
                (Phase::Waiting(_), Some(_)) => {}
                (_, Some(k)) => {
                    self.worst_wait = self.worst_wait.max(k);
                    self.waited[t] = None;
                }
                _ => {}
            }
        }
        self.inp.clear_hooks();
        self.inp.reg_en = false;
        self.inp.reg_we = false;
        for s in &mut self.inp.disp {
            s.valid = false;
        }
        self.cycle += 1;
        out
    }

    fn write_reg(&mut self, t: usize, id: RegId, v: u64) {
        self.inp.reg_en = true;
        self.inp.reg_we = true;
        self.inp.reg_tid = t as u8;
        self.inp.reg_addr = spe_defs::regs::reg(id).addr();
        self.inp.reg_wdata = v;
        self.step();
    }

    fn read_reg(&mut self, t: usize, id: RegId) -> u64 {
        self.inp.reg_en = true;
        self.inp.reg_tid = t as u8;
        self.inp.reg_addr = spe_defs::regs::reg(id).addr();
        self.step().reg_rdata
    }

    /// Thread `t` samples EL1 with interval field `interval` into a buffer of `records`
    /// records at `base(t)`.
    fn enable(&mut self, t: usize, interval: u64, records: u64) {
        self.write_reg(t, RegId::Pmsirr, interval << 8);
        self.write_reg(t, RegId::Pmbptr, base(t));
        let limit = base(t) + records * RECORD_SIZE as u64;
        // The limit is 4 KiB-granular: a smaller buffer ends below a full page.
        let limit_field = (limit + 0xfff) & !0xfff;
        self.write_reg(t, RegId::Pmblimitr, limit_field | pmblimitr::E.place(1));
        self.write_reg(t, RegId::PmscrEl1, pmscr::E1SPE.place(1));
    }

    /// Dispatches one op of thread `t` in slot `slot` (its `n`-th op).
    fn op(&mut self, slot: usize, t: usize, n: u64) {
        self.inp.disp[slot] = Slot {
            valid: true,
            pc: pc(t, n),
            class: op_class::OTHER,
            tid: t as u8,
            ..Slot::default()
        };
    }

    fn steps_idle(&mut self, n: u64) {
        for _ in 0..n {
            self.step();
        }
    }

    /// The threads whose op was tagged in the last step.
    fn just_tagged(&self) -> Vec<usize> {
        (0..self.threads())
            .filter(|&t| self.tags[t].last().map(|&(c, _)| c + 1) == Some(self.cycle))
            .collect()
    }

    /// One step; each op tagged in it completes (retired) in the next cycle.
    fn step_completing(&mut self) -> Outputs {
        let out = self.step();
        for t in self.just_tagged() {
            assert!(out.tag != 0);
            self.complete(t);
        }
        out
    }

    /// Completes thread `t`'s sampled op (retired) in the next cycle.
    fn complete(&mut self, t: usize) {
        let c = &mut self.inp.thr[t].cpl;
        c.done = true;
        c.retired = true;
    }

    /// Thread `t`'s records as written: (PC, total latency) each, in address order.
    fn records(&self, t: usize) -> Vec<(u64, u64)> {
        let bytes: Vec<u8> = self.mem[t].values().flat_map(|d| d.to_le_bytes()).collect();
        assert_eq!(bytes.len() % RECORD_SIZE, 0, "thread {t}: a partial record");
        bytes
            .chunks(RECORD_SIZE)
            .map(|r| {
                let field = |at: usize, len: usize| {
                    let mut b = [0u8; 8];
                    b[..len].copy_from_slice(&r[at + 1..at + 1 + len]);
                    u64::from_le_bytes(b)
                };
                (
                    field(layout::PC.offset, 7),
                    field(layout::LAT_TOTAL.offset, 2),
                )
            })
            .collect()
    }
}

/// Interval field 1 (256 ops), no jitter: a thread's k-th sample is its 257k-th op (the
/// first op of a zero counter reloads it without being sampled).
const PERIOD: u64 = 257;

#[test]
fn each_thread_counts_and_samples_only_its_own_ops() {
    for threads in [2, 4] {
        let s = seed("each_thread_counts_and_samples_only_its_own_ops");
        let cfg = smt("fastsim", threads);
        let mut tb = Smt::new(&cfg, s);
        for t in 0..threads {
            tb.enable(t, 1, 1000);
        }
        let mut ops = vec![0u64; threads];
        for _ in 0..20_000 {
            // Two slots, each a random thread's op (1 / (2 T) of the slots each), or none.
            for slot in 0..cfg.dispatch_width {
                let t = (tb.random() % (2 * threads as u64)) as usize;
                if t < threads {
                    tb.op(slot, t, ops[t]);
                    ops[t] += 1;
                }
            }
            tb.step_completing();
        }
        tb.steps_idle(64);
        for t in 0..threads {
            assert_eq!(tb.pop[t], ops[t], "T={threads}: thread {t}'s population");
            let recs = tb.records(t);
            assert_eq!(
                recs.len() as u64,
                ops[t] / PERIOD,
                "T={threads}: thread {t} samples every {PERIOD}th of its own ops"
            );
            for (k, &(p, _)) in recs.iter().enumerate() {
                assert_eq!(
                    p,
                    pc(t, (k as u64 + 1) * PERIOD - 1),
                    "thread {t} record {k}"
                );
            }
        }
    }
}

#[test]
fn latency_counts_only_cycles_in_which_the_thread_was_active() {
    let cfg = smt("fastsim", 2);
    let mut tb = Smt::new(&cfg, seed("latency_counts_only_active"));
    tb.enable(0, 1, 10);
    tb.enable(1, 1, 10);
    // Both threads' 257th ops in the same cycle.
    for n in 0..PERIOD {
        tb.op(0, 0, n);
        tb.op(1, 1, n);
        tb.step();
    }
    assert_eq!(tb.tags[0].len(), 1);
    assert_eq!(tb.tags[1].len(), 1);
    // 40 tracking cycles; thread 1 active in 13 of them, thread 0 in all. Both complete in
    // the 40th.
    let mut active1 = 0;
    for k in 1..=40u64 {
        let on = k % 3 == 0;
        tb.inp.thr[1].active = on;
        active1 += u64::from(on);
        if k == 40 {
            tb.complete(0);
            tb.complete(1);
        }
        tb.step();
    }
    tb.inp.thr[1].active = true;
    tb.steps_idle(40);
    let (r0, r1) = (tb.records(0), tb.records(1));
    assert_eq!(r0.len(), 1);
    assert_eq!(r1.len(), 1);
    assert_eq!(r0[0].1, 40, "thread 0 active throughout");
    assert_eq!(r1[0].1, active1, "thread 1 counts only its active cycles");
}

#[test]
fn the_register_port_reaches_the_bank_reg_tid_names() {
    let cfg = smt("default", 4);
    let mut tb = Smt::new(&cfg, 1);
    for t in 0..4 {
        tb.write_reg(t, RegId::Pmsirr, (t as u64 + 4) << 8);
    }
    for t in 0..4 {
        assert_eq!(tb.read_reg(t, RegId::Pmsirr), (t as u64 + 4) << 8);
        assert_eq!(tb.m.thread(t).regs.get(RegId::Pmsirr), (t as u64 + 4) << 8);
    }
    let id = tb.read_reg(0, RegId::Pmsidr);
    for t in 1..4 {
        assert_eq!(tb.read_reg(t, RegId::Pmsidr), id, "ID registers are shared");
    }
}

/// Four threads sample at random, complete after random delays, and the write port is
/// ready half of the time: every kept record is written whole to its own thread's buffer,
/// grants go round-robin, and no record waits for more than T - 1 others.
#[test]
fn the_shared_writer_serves_waiting_records_round_robin_and_loses_none() {
    let threads = 4;
    let cfg = smt("default", threads);
    let mut tb = Smt::new(&cfg, seed("the_shared_writer_serves"));
    tb.ready_256 = 128;
    for t in 0..threads {
        tb.enable(t, 4, 4000);
    }
    let mut ops = [0u64; MAX_THREADS];
    let mut due: Vec<Option<u64>> = vec![None; threads];
    for _ in 0..100_000 {
        // Every slot is a thread's op: a thread's interval is 1025 of its ops.
        for slot in 0..cfg.dispatch_width {
            let t = (tb.random() % threads as u64) as usize;
            tb.op(slot, t, ops[t]);
            ops[t] += 1;
        }
        for (t, d) in due.iter_mut().enumerate() {
            if *d == Some(tb.cycle) {
                tb.complete(t);
                *d = None;
            }
        }
        tb.step();
        for t in tb.just_tagged() {
            due[t] = Some(tb.cycle + tb.random() % 20);
        }
    }
    tb.ready_256 = 256;
    tb.steps_idle(200);
    let mut total = 0;
    for t in 0..threads {
        assert!(tb.kept[t] > 20, "thread {t} kept {} records", tb.kept[t]);
        assert_eq!(
            tb.records(t).len() as u64,
            tb.kept[t],
            "thread {t}: a record lost"
        );
        total += tb.kept[t];
    }
    assert_eq!(tb.grants.len() as u64, total);
    assert!(
        tb.worst_wait < threads,
        "a record waited for {} others",
        tb.worst_wait
    );
    assert!(tb.worst_wait >= 1, "the stimulus never made a record wait");
    // Simultaneous requests (a round of four) are served in rotation.
    let rotations = tb
        .grants
        .windows(2)
        .filter(|w| w[1] == (w[0] + 1) % threads)
        .count();
    assert!(rotations > 0);
}

/// Thread 0's buffer fills after two records and then every beat of its writes faults;
/// thread 1 writes all its records meanwhile, and its registers and PMBIRQ stay clear.
#[test]
fn one_threads_full_buffer_or_fault_leaves_the_others_records_intact() {
    for fault in [false, true] {
        let cfg = smt("fastsim", 2);
        let mut tb = Smt::new(&cfg, seed("one_threads_full_buffer"));
        tb.ready_256 = 200;
        // Thread 0: a buffer of two records below its 4 KiB limit (PMBPTR two records
        // short of it); thread 1: room for 1000.
        tb.enable(0, 1, 1);
        let limit0 = (base(0) + RECORD_SIZE as u64 + 0xfff) & !0xfff;
        tb.write_reg(0, RegId::Pmbptr, limit0 - 2 * RECORD_SIZE as u64);
        tb.enable(1, 1, 1000);
        if fault {
            tb.fault = Some(0);
            tb.inp.wr_err_kind = 0;
            tb.inp.wr_err_fsc = 0b000101;
        }
        let mut ops = [0u64; 2];
        for _ in 0..30_000 {
            for (slot, t) in [(0, 0), (1, 1)] {
                tb.op(slot, t, ops[t]);
                ops[t] += 1;
            }
            let out = tb.step_completing();
            if fault && out.wr_valid && out.wr_tid == 1 {
                // The beat just answered was thread 1's: it must not have faulted.
                assert!(!pmbsr::S.is_set(tb.m.thread(1).regs.get(RegId::Pmbsr)));
            }
        }
        tb.fault = None;
        tb.steps_idle(100);
        let s0 = tb.m.thread(0).regs.get(RegId::Pmbsr);
        assert!(pmbsr::S.is_set(s0), "thread 0 stopped (fault: {fault})");
        let out = tb.step();
        assert!(out.thr[0].irq && !out.thr[1].irq);
        assert_eq!(tb.m.thread(1).regs.get(RegId::Pmbsr), 0);
        let recs0 = tb.records(0).len();
        assert_eq!(recs0, if fault { 0 } else { 2 }, "thread 0's records");
        let recs1 = tb.records(1);
        assert_eq!(
            recs1.len() as u64,
            ops[1] / PERIOD,
            "thread 1 lost a record"
        );
        assert_eq!(recs1.len() as u64, tb.kept[1]);
    }
}

/// A one-thread unit has no `disp_tid`, `thr_active` or `reg_tid` port: whatever they
/// carry, the outputs are those of a run with them zero.
#[test]
fn a_one_thread_unit_ignores_the_thread_inputs() {
    let cfg = *Config::preset("fastsim").unwrap();
    let mut plain = Smt::new(&cfg, 7);
    let mut odd = Smt::new(&cfg, 7);
    plain.enable(0, 1, 100);
    odd.enable(0, 1, 100);
    for n in 0..5000u64 {
        plain.op(0, 0, n);
        odd.op(0, 0, n);
        odd.inp.disp[0].tid = (n % 4) as u8;
        odd.inp.thr[0].active = n % 3 == 0;
        odd.inp.reg_tid = (n % 4) as u8;
        if plain.tags[0].last().map(|&(c, _)| c + 5) == Some(plain.cycle) {
            plain.complete(0);
            odd.complete(0);
        }
        assert_eq!(plain.step(), odd.step(), "cycle {n}");
    }
    assert!(plain.records(0).len() >= 10);
}

/// The writer is the bottleneck (the port ready 1 cycle in 64, four threads each finishing
/// a record every ~514 cycles): records queue up behind each other. Round-robin still
/// bounds every wait to T - 1 other records, and thread 3 gets its share; a fixed
/// priority would starve it.
#[test]
fn under_heavy_backpressure_a_record_waits_for_at_most_t_minus_1_others() {
    let threads = 4;
    let cfg = smt("fastsim", threads);
    let mut tb = Smt::new(&cfg, seed("under_heavy_backpressure"));
    tb.ready_256 = 4;
    for t in 0..threads {
        tb.enable(t, 1, 1000);
    }
    let mut ops = [0u64; MAX_THREADS];
    for c in 0..60_000u64 {
        for slot in 0..2 {
            let t = ((2 * c + slot as u64) % threads as u64) as usize;
            tb.op(slot, t, ops[t]);
            ops[t] += 1;
        }
        tb.step_completing();
    }
    assert!(
        tb.worst_wait >= 2,
        "the writer was not contended ({})",
        tb.worst_wait
    );
    assert!(
        tb.worst_wait < threads,
        "a record waited for {} others",
        tb.worst_wait
    );
    let share: Vec<usize> = (0..threads)
        .map(|t| tb.grants.iter().filter(|&&g| g == t).count())
        .collect();
    let (lo, hi) = (share.iter().min().unwrap(), share.iter().max().unwrap());
    assert!(hi - lo <= 1, "grants per thread {share:?}");
}
