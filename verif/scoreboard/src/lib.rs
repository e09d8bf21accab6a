//! The record-level scoreboard: checks an implementation of the unit (the DUT) at the level
//! software sees, the records written to memory and the registers read through the register
//! port, while tolerating differences of timing that the architecture leaves free. It is
//! what `spe sim --backend lockstep --compare records` runs and what the C library
//! (`tools/capi`) gives SystemVerilog and cocotb benches.
//!
//! # The rule
//! Every cycle the scoreboard is given the DUT's inputs and outputs. The golden model is
//! stepped on the same inputs, with three exceptions that make it follow the DUT:
//! 1. **Sampling decisions.** The model tags the op the DUT's `tag` names (for the thread
//!    its `disp_tid` names) and counts a collision exactly when the DUT's
//!    `pmu_sample_collision` does ([`spe_model::Follow`]); its interval counter keeps the
//!    architecture's count. A DUT tag must be legal: the op is in the thread's sample
//!    population in that cycle (J1 `StatisticalProfilingEnabled`, its EL enabled, the
//!    buffer enabled), the thread has no sample in flight in the model, and the DUT tags at
//!    most one op per thread per cycle.
//! 2. **Write timing.** Every beat the DUT's write port hands over (`wr_valid` and
//!    `wr_ready`) joins a queue. The model's `wr_ready` is high only while the queue holds
//!    a beat, and the model's beat takes the queue's first with that beat's response
//!    (`wr_err`, kind, FSC). So the model writes when the DUT writes, never earlier, and a
//!    DUT that writes later (an extra register stage, a narrower port, back-pressure of its
//!    own) is not an error.
//! 3. Nothing else: completion reports, register writes, PSB requests, resets are the
//!    DUT's inputs in the same cycle.
//!
//! What is compared:
//! - **Records**: each beat the model writes against the DUT's beat it takes: address,
//!   data, strobes and thread (`wr_tid`). The first difference names the record (its index
//!   in write order, thread and address), the beat and the bytes.
//! - **Registers**: every register-port read (`reg_en` and not `reg_we`): the DUT's
//!   `reg_rdata` against the model's in that cycle, for the bank `reg_tid` selects. A
//!   management event (buffer full, a fault) shows in PMBSR and PMBPTR, which software
//!   reads; a bench checks the whole state at the end by reading every register (the Rust
//!   harness does so: [`end_sweep`]).
//! - **Interrupt**: each thread's `irq` (PMBIRQ, the model's PMBSR.S): a difference that
//!   lasts [`MAX_LAG`] cycles, or is there at [`Scoreboard::finish`], is a mismatch (a
//!   management event raised late is not).
//! - **Lag**: a DUT beat the model has not written within [`MAX_LAG`] cycles is a record
//!   the model does not write (reported once, then the queue is dropped to resynchronise);
//!   at [`Scoreboard::finish`] any DUT beat still queued is.
//!
//! What it cannot catch: *which* op is sampled, and when (the DUT chooses, the model
//! follows; a wrong interval shows only in PMSICR when read, a wrong jitter not at all);
//! the cycle a record or an interrupt appears (within [`MAX_LAG`] cycles); the
//! PMU event outputs and `hook_stray`/`sample_timeout`, which are not architectural
//! state. The cycle-exact lockstep (`--compare cycles`) checks all of these against this
//! implementation's own timing.

use spe_defs::config::{MAX_DISPATCH_WIDTH, MAX_THREADS};
use spe_defs::impdef::BEAT_BYTES;
use spe_defs::ports::{Width, PORTS};
use spe_defs::regs;
use spe_defs::Config;
use spe_gen::emit::sv::SWEEP_QUIET;
use spe_model::sampler;
use spe_model::{Follow, Model, Phase};
use spe_ports::{Dut, Inputs, Outputs};
use std::collections::VecDeque;

/// Cycles a DUT beat may wait for the model's matching beat before it counts as a record
/// the model does not write.
pub const MAX_LAG: u64 = 256;

/// A beat the DUT's write port handed over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Beat {
    cycle: u64,
    addr: u64,
    data: u64,
    strb: u8,
    tid: u8,
    err: Option<(u8, u8)>,
}

/// A record the model wrote (its beats matched against the DUT's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Address of its first byte.
    pub addr: u64,
    /// The hardware thread whose buffer it is in.
    pub thread: u8,
    /// Its bytes, `Config::record_size` of them (beats not written, after a fault, are
    /// zero).
    pub bytes: Vec<u8>,
    /// False when a write fault stopped it (`beats` beats were taken).
    pub whole: bool,
    pub beats: usize,
}

/// A difference between the DUT and the model under the rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    pub cycle: u64,
    /// The record it concerns (index in write order), if any.
    pub record: Option<usize>,
    pub text: String,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cycle {}: {}", self.cycle, self.text)
    }
}

/// What a run checked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub cycles: u64,
    /// Records the model wrote and the DUT wrote alike (whole or up to a fault).
    pub records: usize,
    pub beats: u64,
    pub reads: u64,
    pub tags: u64,
    /// Checks that failed (the first is kept).
    pub mismatches: u64,
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} cycles, {} records ({} beats), {} register reads, {} tags followed, {} mismatches",
            self.cycles, self.records, self.beats, self.reads, self.tags, self.mismatches
        )
    }
}

/// The golden model following a DUT, checking its records and register reads.
#[derive(Clone, Debug)]
pub struct Scoreboard {
    model: Model,
    cfg: Config,
    cycle: u64,
    queue: VecDeque<Beat>,
    records: Vec<Record>,
    /// The record being matched (model's bytes) and how many beats it has.
    cur: Option<Record>,
    first: Option<Mismatch>,
    sum: Summary,
    /// Per thread: since which cycle the DUT's PMBIRQ differs from the model's, and
    /// whether that was reported.
    irq_apart: [Option<(u64, bool)>; MAX_THREADS],
}

impl Scoreboard {
    pub fn new(cfg: &Config) -> Scoreboard {
        Scoreboard {
            model: Model::new(cfg),
            cfg: *cfg,
            cycle: 0,
            queue: VecDeque::new(),
            records: Vec::new(),
            cur: None,
            first: None,
            sum: Summary::default(),
            irq_apart: [None; MAX_THREADS],
        }
    }

    pub fn config(&self) -> &Config {
        &self.cfg
    }
    /// The model (following the DUT).
    pub fn model(&self) -> &Model {
        &self.model
    }
    /// The records the model has written so far (whole or faulted), in write order.
    pub fn records(&self) -> &[Record] {
        &self.records
    }
    /// The first mismatch, if any.
    pub fn first(&self) -> Option<&Mismatch> {
        self.first.as_ref()
    }
    pub fn summary(&self) -> Summary {
        Summary {
            cycles: self.cycle,
            records: self.records.len(),
            ..self.sum
        }
    }

    fn fail(&mut self, record: Option<usize>, text: String) -> Mismatch {
        let m = Mismatch {
            cycle: self.cycle,
            record,
            text,
        };
        self.sum.mismatches += 1;
        if self.first.is_none() {
            self.first = Some(m.clone());
        }
        m
    }

    /// One cycle: the DUT got `inp` and gave `dut`. Returns the first mismatch of this
    /// cycle, if any (every one is counted; [`Scoreboard::first`] keeps the run's first).
    pub fn step(&mut self, inp: &Inputs, dut: &Outputs) -> Option<Mismatch> {
        let mut found = None;
        if inp.reset {
            self.model.step(inp);
            self.queue.clear();
            self.cur = None;
            self.irq_apart = [None; MAX_THREADS];
            self.cycle += 1;
            return None;
        }
        let (width, threads) = (self.cfg.dispatch_width, self.cfg.threads);
        if dut.wr_valid && inp.wr_ready {
            self.queue.push_back(Beat {
                cycle: self.cycle,
                addr: dut.wr_addr,
                data: dut.wr_data,
                strb: dut.wr_strb,
                tid: dut.wr_tid,
                err: inp.wr_err.then_some((inp.wr_err_kind, inp.wr_err_fsc)),
            });
        }

        // The DUT's tags must be legal before the model follows them.
        let mut tagged = [false; MAX_THREADS];
        for i in (0..width).filter(|&i| dut.tag >> i & 1 == 1) {
            let t = sampler::slot_thread(inp, i, threads);
            let th = self.model.thread(t);
            let why = if tagged[t] {
                Some("a second op of the thread in one cycle".to_string())
            } else if !sampler::in_population(&th.regs, inp, t, threads, i) {
                Some("an op outside the thread's sample population".to_string())
            } else if th.phase != Phase::Idle {
                Some(format!(
                    "while the thread's sample is still in flight ({})",
                    phase_name(&th.phase)
                ))
            } else {
                None
            };
            tagged[t] = true;
            self.sum.tags += 1;
            if let Some(why) = why {
                let m = self.fail(
                    None,
                    format!(
                        "the DUT tagged slot {i} (thread {t}, PC {:#x}): {why}",
                        inp.disp[i].pc
                    ),
                );
                found = found.or(Some(m));
            }
        }

        let mut mi = inp.clone();
        let head = self.queue.front().copied();
        mi.wr_ready = head.is_some();
        mi.wr_err = head.is_some_and(|b| b.err.is_some());
        if let Some((kind, fsc)) = head.and_then(|b| b.err) {
            mi.wr_err_kind = kind;
            mi.wr_err_fsc = fsc;
        }
        let mut follow = Follow {
            tag: dut.tag,
            ..Follow::default()
        };
        for (c, o) in follow.collision.iter_mut().zip(&dut.thr) {
            *c = o.pmu_sample_collision;
        }
        let m = self.model.step_following(&mi, &follow);

        if m.wr_valid && mi.wr_ready {
            let b = self.queue.pop_front().expect("a queued beat");
            if let Some(x) = self.match_beat(&m, &b) {
                found = found.or(Some(x));
            }
        }

        if inp.reg_en && !inp.reg_we {
            self.sum.reads += 1;
            if m.reg_rdata != dut.reg_rdata {
                let name = regs::reg_at(inp.reg_addr).map_or("an unmapped address", |d| d.name);
                let t = usize::from(inp.reg_tid) & (threads - 1);
                let x = self.fail(
                    None,
                    format!(
                        "register read of {name} (address {:#04x}, thread {t}): expected {:#x}, the DUT read {:#x}",
                        inp.reg_addr, m.reg_rdata, dut.reg_rdata
                    ),
                );
                found = found.or(Some(x));
            }
        }

        for t in 0..threads {
            let (want, got) = (m.thr[t].irq, dut.thr[t].irq);
            self.irq_apart[t] = match self.irq_apart[t] {
                _ if want == got => None,
                None => Some((self.cycle, false)),
                Some((since, false)) if self.cycle - since >= MAX_LAG => {
                    let x = self.fail(
                        None,
                        format!(
                            "PMBIRQ of thread {t}: the DUT's is {}, the model's {} (PMBSR.S), since cycle {since}",
                            u8::from(got),
                            u8::from(want)
                        ),
                    );
                    found = found.or(Some(x));
                    Some((since, true))
                }
                apart => apart,
            };
        }

        if let Some(b) = self.queue.front().copied() {
            if self.cycle - b.cycle >= MAX_LAG {
                let k = self.records.len() + usize::from(self.cur.is_some());
                let x = self.fail(
                    Some(k),
                    format!(
                        "the DUT wrote a beat at {:#x} (thread {}) in cycle {} that the model has not written in {MAX_LAG} cycles: a record the model does not write (record {k} or later)",
                        b.addr, b.tid, b.cycle
                    ),
                );
                found = found.or(Some(x));
                self.queue.clear();
            }
        }
        self.cycle += 1;
        found
    }

    /// The model's beat `m` against the DUT's `b`, into the record being matched.
    fn match_beat(&mut self, m: &Outputs, b: &Beat) -> Option<Mismatch> {
        self.sum.beats += 1;
        let k = self.records.len();
        let size = self.cfg.record_size();
        let cur = self.cur.get_or_insert_with(|| Record {
            addr: m.wr_addr,
            thread: m.wr_tid,
            bytes: vec![0; size],
            whole: false,
            beats: 0,
        });
        let j = cur.beats;
        cur.bytes[j * BEAT_BYTES..(j + 1) * BEAT_BYTES].copy_from_slice(&m.wr_data.to_le_bytes());
        cur.beats += 1;
        let (addr, thread) = (cur.addr, cur.thread);
        let done = b.err.is_some() || cur.beats == self.cfg.record_beats();
        if done {
            let mut r = self.cur.take().expect("a record");
            r.whole = b.err.is_none();
            self.records.push(r);
        }
        let head = format!("record {k} (thread {thread}, at {addr:#x}), beat {j}");
        let text = if b.addr != m.wr_addr {
            Some(format!(
                "{head}: expected at {:#x}, the DUT wrote it at {:#x}",
                m.wr_addr, b.addr
            ))
        } else if b.tid != m.wr_tid {
            Some(format!(
                "{head}: expected in thread {}'s buffer, the DUT wrote it for thread {}",
                m.wr_tid, b.tid
            ))
        } else if b.strb != m.wr_strb {
            Some(format!(
                "{head}: expected strobes {:#04x}, the DUT wrote {:#04x}",
                m.wr_strb, b.strb
            ))
        } else if b.data != m.wr_data {
            let (e, a) = (m.wr_data.to_le_bytes(), b.data.to_le_bytes());
            let o = (0..BEAT_BYTES).find(|&o| e[o] != a[o]).unwrap_or(0);
            Some(format!(
                "{head}: byte {} expected {:#04x}, the DUT wrote {:#04x} (beat expected {:#018x}, written {:#018x})",
                j * BEAT_BYTES + o,
                e[o],
                a[o],
                m.wr_data,
                b.data
            ))
        } else {
            None
        };
        text.map(|t| self.fail(Some(k), t))
    }

    /// The end of the run: a DUT beat the model has not written is a record the model does
    /// not write. `Ok` with what was checked, or the run's first mismatch.
    pub fn finish(&mut self) -> Result<Summary, Mismatch> {
        if let Some(b) = self.queue.front().copied() {
            let k = self.records.len() + usize::from(self.cur.is_some());
            self.fail(
                Some(k),
                format!(
                    "at the end, the DUT had written {} beat(s) the model did not, the first at {:#x} (thread {}) in cycle {}: record {k} or later",
                    self.queue.len(),
                    b.addr,
                    b.tid,
                    b.cycle
                ),
            );
            self.queue.clear();
        }
        for t in 0..self.cfg.threads {
            if let Some((since, false)) = self.irq_apart[t] {
                self.fail(
                    None,
                    format!("at the end, PMBIRQ of thread {t} differs from the model's (PMBSR.S) since cycle {since}"),
                );
            }
        }
        match &self.first {
            Some(m) => Err(m.clone()),
            None => Ok(self.summary()),
        }
    }
}

fn phase_name(p: &Phase) -> &'static str {
    match p {
        Phase::Idle => "idle",
        Phase::Tracking(_) => "tracking",
        Phase::Filter(_) => "filter",
        Phase::Waiting(_) => "waiting for the writer",
        Phase::Check(_) => "room check",
        Phase::Writing(_) => "writing",
    }
}

/// The inputs of the register reads that check the whole register state at the end of a
/// run: for every thread and register, `last` with the inputs of
/// `spe_gen::emit::sv::SWEEP_QUIET` low (no op dispatched, no report, no register write, no
/// write accepted), reading that register.
pub fn end_sweep(cfg: &Config, last: &Inputs) -> Vec<Inputs> {
    let mut quiet = last.clone();
    quiet.reset = false;
    // The inputs the generated SV bench holds low for its sweep too (spe_gen::emit::sv).
    for name in SWEEP_QUIET {
        let lanes = match PORTS.iter().find(|p| p.name == *name).map(|p| p.width) {
            Some(Width::PerSlot(_)) => MAX_DISPATCH_WIDTH,
            _ => MAX_THREADS,
        };
        for lane in 0..lanes {
            let known = quiet.set_lane(name, lane, 0);
            debug_assert!(known, "{name} is an input port");
        }
    }
    quiet.reg_en = true;
    let mut v = Vec::new();
    for t in 0..cfg.threads {
        for d in regs::REGS {
            let mut i = quiet.clone();
            i.reg_tid = t as u8;
            i.reg_addr = d.addr();
            v.push(i);
        }
    }
    v
}

/// A DUT checked by the scoreboard: what `spe sim --backend lockstep --compare records`
/// steps. The bench sees the DUT's outputs (as a core's bench would); the verdict reads
/// every register of every thread on both, then ends the scoreboard.
pub struct Checked<D: Dut> {
    pub dut: D,
    pub board: Scoreboard,
    last: Inputs,
}

impl<D: Dut> Checked<D> {
    pub fn new(cfg: &Config, dut: D) -> Self {
        Checked {
            dut,
            board: Scoreboard::new(cfg),
            last: Inputs::default(),
        }
    }
}

impl<D: Dut> Dut for Checked<D> {
    fn step(&mut self, inputs: &Inputs) -> Outputs {
        let out = self.dut.step(inputs);
        self.board.step(inputs, &out);
        self.last = inputs.clone();
        out
    }

    /// `Ok` with the summary when the records and every register read agreed under the
    /// rule (the end-of-run register sweep included); `Err` with the first mismatch.
    fn verdict(&mut self) -> Result<Option<String>, String> {
        for i in end_sweep(self.board.config(), &self.last) {
            let out = self.dut.step(&i);
            self.board.step(&i, &out);
        }
        match self.board.finish() {
            Ok(s) => Ok(Some(format!(
                "records: the DUT's records and register reads matched the model's ({s})"
            ))),
            Err(m) => Err(format!(
                "RECORD MISMATCH: {m} ({} checks failed)",
                self.board.summary().mismatches
            )),
        }
    }
}
