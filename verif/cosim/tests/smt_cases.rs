//! Directed lockstep cases of the multithreaded presets (docs/smt.md): the golden model
//! against the Verilated RTL, cycle by cycle on every output (`wr_tid` included), with
//! the threads driven by hand: each slot of a dispatch group belongs to thread
//! `slot % T`, each thread's ops alternate between EL0 and EL1 every few cycles (out of
//! phase between threads), every tagged op completes the cycle after its tag, and the
//! memory answers every beat at once unless the case injects a fault. (rust-hdl's
//! simulator serves one thread only.)

use spe_cosim::lockstep::Lockstep;
use spe_cosim::{make_dut, Backend};
use spe_defs::regs::{pmblimitr, pmbptr, pmbsr, pmscr, pmsicr, pmsirr, reg, RegId};
use spe_defs::Config;
use spe_ports::{Dut, Inputs, Outputs};

/// A multithreaded unit in lockstep, driven by hand.
struct Smt {
    cfg: &'static Config,
    ls: Lockstep,
    /// Last cycle's inputs and outputs (the tags to complete, the beat to fault).
    inp: Inputs,
    out: Outputs,
    /// Next PC of each thread's ops.
    pc: [u64; 4],
    /// Accepted beats: (thread, address).
    beats: Vec<(usize, u64)>,
    /// Per thread: ops dispatched while its profiling is enabled (started, not stopped,
    /// no management event pending), population (SAMPLE_POP), records kept
    /// (SAMPLE_FILTRATE).
    ops: [u64; 4],
    enabled: [bool; 4],
    /// The ELs each thread profiles (bit n: ELn), as its PMSCR_EL1 says.
    els: [u8; 4],
    pop: [u64; 4],
    kept: [u64; 4],
    /// Per thread, with the options: cycles `pmu_freeze` was high, SAMPLE_BUFFER_FULL pulses.
    frozen: [u64; 4],
    full_events: [u64; 4],
    /// Fault the beat after the next first beat of this thread's record.
    fault_next: Option<usize>,
    faulted: usize,
    cycle: u64,
}

impl Smt {
    fn new(name: &str) -> Smt {
        let cfg = Config::preset(name).unwrap();
        assert!(cfg.threads > 1);
        let mut s = Smt {
            cfg,
            ls: Lockstep::new(cfg, make_dut(cfg, Backend::Verilator).unwrap()),
            inp: Inputs::default(),
            out: Outputs::default(),
            pc: [0; 4],
            beats: Vec::new(),
            ops: [0; 4],
            enabled: [false; 4],
            els: [0; 4],
            pop: [0; 4],
            kept: [0; 4],
            frozen: [0; 4],
            full_events: [0; 4],
            fault_next: None,
            faulted: 0,
            cycle: 0,
        };
        for t in 0..4 {
            s.pc[t] = 0xffff_0000_0010_0000 + 0x100_0000 * t as u64;
        }
        for _ in 0..4 {
            s.step(false, |i| i.reset = true);
        }
        s
    }

    /// The preset's record slot (`Config::record_size`) and its beats.
    fn record(&self) -> u64 {
        self.cfg.record_size() as u64
    }
    fn beats_per_record(&self) -> u64 {
        self.cfg.record_beats() as u64
    }

    fn threads(&self) -> usize {
        self.cfg.threads
    }

    /// One cycle: a full group (slot i for thread i % T) unless `dispatch` is off, each
    /// thread's op tagged last cycle completed, every beat accepted (or the planned fault),
    /// then `set`.
    fn step(&mut self, dispatch: bool, set: impl FnOnce(&mut Inputs)) -> Outputs {
        let (w, t_n) = (self.cfg.dispatch_width, self.threads());
        let mut inp = Inputs::default();
        let el = |t: usize| ((self.cycle / 5 + t as u64) % 2) as u8;
        for (t, x) in inp.thr[..t_n].iter_mut().enumerate() {
            x.disp_el = el(t);
            x.prof_allowed = true;
            x.active = true;
            x.cnt_virt = 1000 * t as u64 + self.cycle;
        }
        let mut ops = [0u64; 4];
        if dispatch {
            for (i, slot) in inp.disp[..w].iter_mut().enumerate() {
                let t = i % t_n;
                slot.valid = true;
                slot.tid = t as u8;
                slot.pc = self.pc[t];
                self.pc[t] += 4;
                ops[t] += 1;
            }
        }
        for i in 0..w {
            if self.out.tag >> i & 1 == 1 {
                let t = usize::from(self.inp.disp[i].tid);
                inp.thr[t].cpl.done = true;
                inp.thr[t].cpl.retired = true;
            }
        }
        // A record's beats go out back to back when every beat is accepted: the beat
        // after an accepted first beat is the same record's second.
        inp.wr_ready = true;
        if let Some(t) = self.fault_next {
            let first = self.out.wr_valid && self.out.wr_addr % self.record() == 0;
            if first && usize::from(self.out.wr_tid) == t && self.inp.wr_ready {
                inp.wr_err = true;
                inp.wr_err_kind = 0b01; // stage-1 fault
                inp.wr_err_fsc = 0b000111; // translation fault, level 3
                self.fault_next = None;
                self.faulted += 1;
            }
        }
        set(&mut inp);
        let out = self.ls.step(&inp);
        if let Some(d) = self.ls.first() {
            panic!(
                "{}: RTL diverged from the model at cycle {}: {d}",
                self.cfg.name, self.cycle
            );
        }
        if out.wr_valid && inp.wr_ready && !inp.wr_err {
            self.beats.push((usize::from(out.wr_tid), out.wr_addr));
        }
        for (t, &dispatched) in ops.iter().enumerate().take(t_n) {
            let o = &out.thr[t];
            if self.enabled[t] && !o.irq && self.els[t] >> el(t) & 1 == 1 {
                self.ops[t] += dispatched;
            }
            self.pop[t] += u64::from(o.pmu_sample_pop);
            self.kept[t] += u64::from(o.pmu_sample_filtrate);
            self.frozen[t] += u64::from(o.pmu_freeze);
            self.full_events[t] += u64::from(o.pmu_sample_buffer_full);
        }
        self.inp = inp;
        self.out = out.clone();
        self.cycle += 1;
        out
    }

    fn access(&mut self, t: usize, id: RegId, write: Option<u64>) -> u64 {
        self.step(true, |i| {
            i.reg_en = true;
            i.reg_we = write.is_some();
            i.reg_tid = t as u8;
            i.reg_addr = reg(id).addr();
            i.reg_wdata = write.unwrap_or(0);
        })
        .reg_rdata
    }

    fn write(&mut self, t: usize, id: RegId, v: u64) {
        self.access(t, id, Some(v));
    }

    fn read(&mut self, t: usize, id: RegId) -> u64 {
        self.access(t, id, None)
    }

    /// Linux's start on thread `t`: its buffer `[base, base + size)`, the interval and
    /// counter, then the control for the ELs of `els` (bit n: ELn).
    fn start(&mut self, t: usize, base: u64, size: u64, els: u8) {
        let interval = u64::from(self.cfg.min_interval());
        self.write(t, RegId::Pmbptr, pmbptr::PTR.place(base));
        self.write(
            t,
            RegId::Pmblimitr,
            pmblimitr::LIMIT.place((base + size) >> pmblimitr::LIMIT.lsb) | pmblimitr::E.place(1),
        );
        self.write(
            t,
            RegId::Pmsirr,
            pmsirr::INTERVAL.place(interval >> pmsirr::INTERVAL.lsb),
        );
        self.write(t, RegId::Pmsicr, pmsicr::COUNT.place(interval));
        self.write(
            t,
            RegId::PmscrEl1,
            pmscr::E0SPE.place(u64::from(els & 1))
                | pmscr::E1SPE.place(u64::from(els >> 1 & 1))
                | pmscr::TS.place(1),
        );
        self.enabled[t] = true;
        self.els[t] = els;
    }

    /// Linux's stop on thread `t`: PMSCR = 0, PSB (held until done), PMBLIMITR = 0;
    /// returns PMBPTR.
    fn stop(&mut self, t: usize) -> u64 {
        self.write(t, RegId::PmscrEl1, 0);
        self.enabled[t] = false;
        let mut waited = 0;
        while !self.step(true, |i| i.thr[t].psb_req = true).thr[t].psb_done {
            waited += 1;
            assert!(waited < 100, "thread {t}'s PSB never completed");
        }
        self.write(t, RegId::Pmblimitr, 0);
        self.read(t, RegId::Pmbptr)
    }

    fn beats_of(&self, t: usize) -> Vec<u64> {
        self.beats
            .iter()
            .filter(|b| b.0 == t)
            .map(|b| b.1)
            .collect()
    }
}

/// Thread 0's small buffer fills (buffer-full management event), then, restarted, its
/// next record faults, while every other thread writes all its records into its own
/// buffer: none is lost, none lands in another thread's buffer, and each thread's
/// population is exactly its dispatched ops.
fn thread0_fills_and_faults_while_the_others_write(name: &str) {
    let mut s = Smt::new(name);
    let n = s.threads();
    let (record, beats) = (s.record(), s.beats_per_record());
    eprintln!("smt case on {name} (replay: cargo test --release -p spe-cosim --test smt_cases)");
    let base = |t: usize| 0xffff_8000_1000_0000 + 0x100_0000 * t as u64;
    // Thread 0: one 4 KiB page (64 records, 32 of 128 bytes); the others: 1 MiB each.
    let small = 0x1000;
    let big = 0x10_0000;
    // Thread 0 profiles EL1 only, thread 1 EL0 only, the others both.
    s.start(0, base(0), small, 0b10);
    for t in 1..n {
        s.start(t, base(t), big, if t == 1 { 0b01 } else { 0b11 });
    }
    // Run until thread 0's buffer is full.
    let mut cycles = 0;
    while !s.out.thr[0].irq {
        s.step(true, |_| ());
        cycles += 1;
        assert!(cycles < 400_000, "thread 0's buffer never filled");
    }
    let st = s.read(0, RegId::Pmbsr);
    assert!(pmbsr::S.is_set(st), "PMBSR {st:#x}");
    assert_eq!(
        (pmbsr::EC.get(st), pmbsr::BSC.get(st)),
        (pmbsr::EC_BUF, pmbsr::BSC_FULL),
        "thread 0: buffer full"
    );
    assert_eq!(
        s.read(0, RegId::Pmbptr),
        base(0) + small,
        "thread 0 wrote its whole page"
    );
    for t in 1..n {
        assert!(!s.out.thr[t].irq, "thread {t} has no event");
    }
    // Thread 0 stays stopped a while; then software restarts it and its next record faults.
    for _ in 0..6000 {
        s.step(true, |_| ());
    }
    s.write(0, RegId::Pmbsr, 0);
    s.write(0, RegId::Pmbptr, pmbptr::PTR.place(base(0)));
    s.fault_next = Some(0);
    cycles = 0;
    while !s.out.thr[0].irq {
        s.step(true, |_| ());
        cycles += 1;
        assert!(cycles < 100_000, "thread 0's fault never came");
    }
    assert_eq!(s.faulted, 1);
    let st = s.read(0, RegId::Pmbsr);
    assert!(pmbsr::S.is_set(st), "PMBSR {st:#x}");
    assert_eq!(
        pmbsr::EC.get(st),
        pmbsr::EC_FAULT_S1,
        "thread 0: stage-1 fault"
    );
    assert!(
        pmbsr::DL.is_set(st),
        "the faulting beat was not the record's first"
    );
    assert_eq!(
        s.read(0, RegId::Pmbptr),
        base(0) + 8,
        "PMBPTR at the faulting beat"
    );
    for _ in 0..3000 {
        s.step(true, |_| ());
    }
    // Stop every thread.
    let mut end = [0u64; 4];
    for (t, e) in end.iter_mut().enumerate().take(n).skip(1) {
        *e = s.stop(t);
    }
    s.stop(0);
    // Thread 0: its page, then the faulted record's first beat.
    let b0 = s.beats_of(0);
    assert_eq!(b0.len() as u64, (small / record) * beats + 1);
    assert!(b0.iter().all(|&a| (base(0)..base(0) + small).contains(&a)));
    // Every other thread: every kept record written, in order, in its own buffer.
    for (t, &ptr) in end.iter().enumerate().take(n).skip(1) {
        let b = s.beats_of(t);
        let want: Vec<u64> = (0..s.kept[t] * beats).map(|k| base(t) + 8 * k).collect();
        assert_eq!(
            b, want,
            "thread {t}: {} records kept, every beat in order at its PMBPTR",
            s.kept[t]
        );
        assert!(
            s.kept[t] > small / record + 2,
            "thread {t} kept writing while thread 0 was full, stopped and faulted: {} records",
            s.kept[t]
        );
        assert_eq!(ptr, base(t) + record * s.kept[t], "thread {t}'s PMBPTR");
    }
    for t in 0..n {
        assert_eq!(
            s.pop[t], s.ops[t],
            "thread {t}: population = its dispatched ops"
        );
    }
    // The threads shared the writer record by record: some thread's record follows
    // another thread's.
    let switches = s.beats.windows(2).filter(|w| w[0].0 != w[1].0).count();
    assert!(
        switches > 10,
        "records of different threads interleave: {switches}"
    );
    eprintln!(
        "  ok: {} cycles, records per thread {:?}, writer switched thread {switches} times",
        s.cycle,
        (0..n)
            .map(|t| s.beats_of(t).len() as u64 / beats)
            .collect::<Vec<_>>()
    );
}

#[test]
fn smt2_thread0_fills_and_faults_while_thread1_writes_every_record() {
    thread0_fills_and_faults_while_the_others_write("smt2");
}

#[test]
fn smt4_thread0_fills_and_faults_while_threads_1_to_3_write_every_record() {
    thread0_fills_and_faults_while_the_others_write("smt4");
}

#[test]
fn smt2_v1p4_thread0_fills_and_faults_while_thread1_writes_every_record() {
    thread0_fills_and_faults_while_the_others_write("smt2_v1p4");
}

/// The options of a multithreaded unit are per thread: each thread's PMSNEVFR (FnE) and
/// PMSICR.ECOUNT (ERnd) hold what that thread wrote, and thread 0's full buffer with
/// PMBLIMITR.PMFZ freezes its PMU (`pmu_freeze`, its lane alone) and pulses its
/// SAMPLE_BUFFER_FULL while thread 1, without PMFZ, goes on writing.
#[test]
fn smt2_v1p4_options_are_per_thread() {
    let mut s = Smt::new("smt2_v1p4");
    assert!(s.cfg.options.fne && s.cfg.options.ernd && s.cfg.options.pmfz);
    eprintln!("smt case on smt2_v1p4 (replay: cargo test --release -p spe-cosim --test smt_cases)");
    // Banked option registers: each thread reads back its own value.
    for t in 0..2 {
        s.write(t, RegId::Pmsnevfr, 0x40 << t);
        s.write(
            t,
            RegId::Pmsicr,
            pmsicr::ECOUNT.place(0x12 + 0x22 * t as u64),
        );
    }
    for t in 0..2 {
        assert_eq!(
            s.read(t, RegId::Pmsnevfr),
            0x40 << t,
            "thread {t}'s PMSNEVFR"
        );
        assert_eq!(
            pmsicr::ECOUNT.get(s.read(t, RegId::Pmsicr)),
            0x12 + 0x22 * t as u64,
            "thread {t}'s PMSICR.ECOUNT"
        );
        s.write(t, RegId::Pmsnevfr, 0);
    }
    let base = |t: usize| 0xffff_8000_1000_0000 + 0x100_0000 * t as u64;
    s.start(0, base(0), 0x1000, 0b11);
    s.start(1, base(1), 0x10_0000, 0b11);
    // PMFZ on thread 0 only (PMBLIMITR as `start` wrote it, with PMFZ).
    s.write(
        0,
        RegId::Pmblimitr,
        pmblimitr::LIMIT.place((base(0) + 0x1000) >> pmblimitr::LIMIT.lsb)
            | pmblimitr::E.place(1)
            | pmblimitr::PMFZ.place(1),
    );
    let mut cycles = 0;
    while !s.out.thr[0].irq {
        s.step(true, |_| ());
        cycles += 1;
        assert!(cycles < 400_000, "thread 0's buffer never filled");
    }
    let kept1 = s.kept[1];
    for _ in 0..5000 {
        s.step(true, |_| ());
    }
    assert!(
        s.out.thr[0].pmu_freeze,
        "thread 0: stopped with PMFZ: its PMU frozen"
    );
    assert!(!s.out.thr[1].pmu_freeze, "thread 1 has no PMFZ");
    assert_eq!(s.frozen[1], 0, "thread 1's PMU never frozen");
    assert!(
        s.frozen[0] >= 5000,
        "thread 0 frozen since its buffer filled: {}",
        s.frozen[0]
    );
    assert_eq!(
        s.full_events,
        [1, 0, 0, 0],
        "SAMPLE_BUFFER_FULL on the full thread's lane only"
    );
    assert!(!s.out.thr[1].irq, "thread 1 has no event");
    assert!(
        s.kept[1] > kept1,
        "thread 1 kept sampling while thread 0 was stopped"
    );
    // Software clears thread 0's PMBSR.S: its PMU runs again.
    s.write(0, RegId::Pmbsr, 0);
    s.step(true, |_| ());
    assert!(
        !s.out.thr[0].pmu_freeze,
        "thread 0 restarted: no longer frozen"
    );
    eprintln!(
        "  ok: {} cycles, thread 0 frozen {} cycles, records per thread {:?}",
        s.cycle,
        s.frozen[0],
        [
            s.beats_of(0).len() as u64 / s.beats_per_record(),
            s.beats_of(1).len() as u64 / s.beats_per_record()
        ]
    );
}
