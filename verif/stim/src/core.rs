//! The core model: turns a program into dispatch groups cycle by cycle, reacts to the
//! unit's tag, and reports what happens to the tagged op through the hooks with realistic
//! timing.
//!
//! Timing model (one `drive` + `observe` per clock cycle):
//! * **Dispatch**: up to W ops per cycle in program order, all of one processor state
//!   (an EL/state change starts a new group). A group ends after a taken branch (fetch
//!   break), a redirecting op or a context switch. Front-end bubbles, partial groups, a
//!   full reorder buffer and the refill penalty after a flush leave slots or whole cycles
//!   empty.
//! * **Per op**, fixed at dispatch cycle D: issue at D + issue latency (>= 1); a load/store
//!   starts translation the cycle after issue, finishes it `xlat_lat` later (0: same cycle)
//!   and its memory access `mem_lat` after that; a branch resolves `exec_lat` after issue;
//!   completion is in order (not before any older op) and strictly after every other report.
//! * **Flushes**: a mispredicted branch flushes younger ops the cycle after it resolves; an
//!   exception the cycle after it completes. Younger ops dispatched before that (the wrong
//!   path) complete at the flush with retired = 0, and lose every report not yet made.
//!
//! Only the tagged op's reports reach the unit: the tag (seen in `observe` for cycle T)
//! selects the slot, and its reports start at T + 1. Per-PC ground truth attributes each
//! cycle's `pmu_sample_pop` to that cycle's valid slots in slot order.

use crate::core_params::CoreParams;
use crate::program::Program;
use crate::rng::Rng;
use crate::uop::{MemAccess, MemEvents, MicroOp, Mode, Tlb};
use crate::walker::Walker;
use spe_defs::config::Config;
use spe_defs::packet::{op_class, subclass};
use spe_ports::{Inputs, Outputs, Slot};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

/// Physical addresses are 56 bits on the translation hook.
const PA_MASK: u64 = spe_defs::low_mask(spe_defs::packet::addr_payload::ADDR_BITS);

/// The Guarded Control Stack: its top at reset (a user stack page) and where its pages
/// sit in physical memory ([`Core::gcs_access`]).
const GCS_TOP: u64 = 0x0000_7fff_f000_0000;
const GCS_PA_BASE: u64 = 0x0000_00c0_0000_0000;

/// Anomaly messages kept (all are counted).
const MAX_ANOMALY_MESSAGES: usize = 16;

/// Event counts of the core.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CoreCounters {
    /// Ops dispatched (valid slots).
    pub dispatched: u64,
    /// Sum of `pmu_sample_pop`.
    pub population: u64,
    /// Tags received.
    pub samples: u64,
    /// Wrong-path ops dispatched.
    pub wrong_path: u64,
    /// Mispredicted branches dispatched (correct path).
    pub mispredicts: u64,
    /// Exceptions dispatched (correct path).
    pub exceptions: u64,
    /// Stray hook reports injected.
    pub stray_injected: u64,
    /// Sampled ops stalled (`CoreParams::sampled_stall_rate`).
    pub sampled_stalls: u64,
    /// Sampled ops younger than a PSB that dropped them (`CoreParams::psb_young_rate`).
    pub psb_dropped: u64,
    /// Tags that broke the contract (not one-hot, empty slot, while one is in flight) and
    /// population counts above the dispatched ops.
    pub anomalies: u64,
}

/// Where the ops come from.
enum Source {
    Walk(Box<Walker>),
    Replay { ops: Vec<MicroOp>, next: usize },
}

/// At most this many cycles after an op's tag can a PSB CSYNC dispatched before it still
/// wait to execute ([`Core::psb_meets_young`]): the depth of the pipeline's queues.
pub const YOUNG_WINDOW: u64 = 64;

/// Hook timetable of one dispatched op (absolute cycles; `None`: no such report).
#[derive(Clone, Debug)]
struct Sched {
    op: MicroOp,
    issue: Option<u64>,
    xl_start: Option<u64>,
    xl_done: Option<u64>,
    mem_done: Option<u64>,
    br_done: Option<u64>,
    complete: u64,
    /// The previous-branch-target register as this op found it (`pbt_target`, reported
    /// with a branch; `None`: not valid).
    pbt: Option<u64>,
    /// A call's push or a return's pop of the Guarded Control Stack, reported with the
    /// translation and memory reports to a unit that records GCS ([`Core::gcs_access`]).
    gcs: Option<MemAccess>,
}

impl Sched {
    fn others_pending(&self) -> bool {
        self.issue.is_some()
            || self.xl_start.is_some()
            || self.xl_done.is_some()
            || self.mem_done.is_some()
            || self.br_done.is_some()
    }
}

/// The reports of a data access in `s` (a load/store's, or a call or return's Guarded
/// Control Stack access): translated from the cycle after `issue`, then made (none when the
/// op faults). Returns the cycle of its last report.
fn schedule_access(s: &mut Sched, issue: u64, m: &MemAccess) -> u64 {
    let start = issue + 1;
    let xd = start + u64::from(m.xlat_lat);
    s.xl_start = Some(start);
    s.xl_done = Some(xd);
    if s.op.exception {
        // A faulting access makes no memory access.
        return xd;
    }
    let md = xd + u64::from(m.mem_lat.max(1));
    s.mem_done = Some(md);
    md
}

/// The core model.
pub struct Core {
    /// Slots this core dispatches into per cycle (W, or W / T for one of T threads).
    width: usize,
    /// The hardware thread this core is (its lanes of the per-thread ports, its `disp_tid`)
    /// and how many share the dispatch group: its slot `k` is the group's slot
    /// `k * threads + (thread + cycle) % threads`, so the threads interleave within a group
    /// and rotate across cycles.
    thread: usize,
    threads: usize,
    params: CoreParams,
    source: Source,
    rng: Rng,
    /// Next op, fetched but not dispatched yet (ROB full or state change).
    pending: Option<MicroOp>,
    /// Completion cycles of ops in the reorder buffer.
    rob: BinaryHeap<Reverse<u64>>,
    /// Completion cycle of the youngest correct-path op (in-order completion).
    last_commit: u64,
    /// Cycle at which the pending redirect flushes younger ops.
    flush_at: Option<u64>,
    /// No dispatch before this cycle (bubble or flush refill).
    resume_at: u64,
    /// Processor state of the current (or last) group.
    mode: Mode,
    ctx_el1: u32,
    /// This cycle's dispatched slots, until `observe`.
    group: Vec<Option<Sched>>,
    tracked: Option<Sched>,
    /// The cycle of the tracked op's tag.
    tracked_at: u64,
    counters: CoreCounters,
    ground_truth: HashMap<u64, u64>,
    sampled: HashMap<u64, u64>,
    anomalies: Vec<String>,
    recording: Option<Vec<MicroOp>>,
    /// The previous-branch-target register (J1 `SPESamplePreviousBranchAddress` and its
    /// valid flag, FEAT_SPE_PBT) as a core keeps it: the target of the last taken
    /// correct-path branch dispatched, in the Address packet's format.
    prev_branch: Option<u64>,
    /// Its own random stream (invalidations, stray bits), so that the other ports' stimulus
    /// is the same with or without it.
    pbt_rng: Rng,
    /// FEAT_SPE_EFT's `mem_fp_scalar` (its own stream: the other ports' stimulus does not
    /// change).
    eft_rng: Rng,
    /// The SVE events' `cpl_pred_*` (its own stream, likewise).
    sve_rng: Rng,
    /// FEAT_SPE_SME's completion flags (Streaming SVE mode, SME compute unit), its own
    /// stream so that the others' draws stay as they were.
    sme_rng: Rng,
    /// The SPEv1p4 events' HITM and LFB flags (its own stream, likewise).
    v1p4_rng: Rng,
    /// Which indirect branches are dispatched unclassified (`CoreParams::late_ind_rate`).
    ind_rng: Rng,
    /// Which sampled ops stall, where and for how long (`CoreParams::sampled_stall_rate`).
    stall_rng: Rng,
    /// Whether a PSB meets a younger sampled op (`CoreParams::psb_young_rate`).
    psb_rng: Rng,
    /// How long a held-back PSB lags the op's completion (`CoreParams::psb_lag_max`).
    lag_rng: Rng,
    /// The unit records the Guarded Control Stack (FEAT_SPE_CRR): a call or return with GCS
    /// reports its GCS access as a load or store does (D17.6.3); its own stream, and the
    /// Guarded Control Stack pointer (a correct-path call pushes 8 bytes, a return pops
    /// them).
    gcs_reports: bool,
    gcs_rng: Rng,
    gcs_ptr: u64,
}

impl Core {
    /// A core of `cfg.dispatch_width` slots running `program`; `seed` fixes every random
    /// decision.
    pub fn new(
        cfg: &Config,
        program: Program,
        params: CoreParams,
        seed: u64,
    ) -> Result<Core, String> {
        cfg.validate()?;
        params.validate()?;
        program.validate()?;
        let source = match program {
            Program::Code(c) => {
                Source::Walk(Box::new(Walker::new(c, params, Rng::derive(seed, 1))))
            }
            Program::Trace(t) => Source::Replay {
                ops: t.ops,
                next: 0,
            },
        };
        let mode = params.mode(0);
        Ok(Core {
            width: cfg.dispatch_width,
            thread: 0,
            threads: 1,
            params,
            source,
            rng: Rng::derive(seed, 2),
            pending: None,
            rob: BinaryHeap::new(),
            last_commit: 0,
            flush_at: None,
            resume_at: 0,
            mode,
            ctx_el1: params.pid,
            group: vec![None; cfg.dispatch_width],
            tracked: None,
            tracked_at: 0,
            counters: CoreCounters::default(),
            ground_truth: HashMap::new(),
            sampled: HashMap::new(),
            anomalies: Vec::new(),
            recording: None,
            prev_branch: None,
            pbt_rng: Rng::derive(seed, 3),
            eft_rng: Rng::derive(seed, 4),
            sve_rng: Rng::derive(seed, 5),
            sme_rng: Rng::derive(seed, 7),
            v1p4_rng: Rng::derive(seed, 6),
            ind_rng: Rng::derive(seed, 8),
            stall_rng: Rng::derive(seed, 9),
            psb_rng: Rng::derive(seed, 10),
            lag_rng: Rng::derive(seed, 12),
            gcs_reports: cfg.options.crr,
            gcs_rng: Rng::derive(seed, 11),
            gcs_ptr: GCS_TOP,
        })
    }

    /// Hardware thread `thread` of a unit with `cfg.threads` threads: `cfg.dispatch_width /
    /// cfg.threads` slots of each group (see [`Core::slot`]), its lanes of the per-thread
    /// ports. Thread 0 of a one-thread unit is [`Core::new`].
    pub fn for_thread(
        cfg: &Config,
        program: Program,
        params: CoreParams,
        seed: u64,
        thread: usize,
    ) -> Result<Core, String> {
        let mut c = Core::new(cfg, program, params, seed)?;
        if thread >= cfg.threads || !cfg.dispatch_width.is_multiple_of(cfg.threads) {
            return Err(format!(
                "thread {thread} of {}: the {} slots do not split evenly",
                cfg.threads, cfg.dispatch_width
            ));
        }
        c.thread = thread;
        c.threads = cfg.threads;
        c.width = cfg.dispatch_width / cfg.threads;
        c.group = vec![None; c.width];
        Ok(c)
    }

    /// The group's slot that this core's slot `k` is in `cycle`.
    fn slot(&self, k: usize, cycle: u64) -> usize {
        k * self.threads + (self.thread + (cycle % self.threads as u64) as usize) % self.threads
    }

    /// Fills this cycle's dispatch slots, group state, context and counter inputs, and the
    /// hook reports due for the tagged op (or a stray report, when configured).
    pub fn drive(&mut self, cycle: u64, inp: &mut Inputs) {
        // The unit accepts reports up to and including the completion cycle, so a stray
        // report may only go out when nothing was tracked at the start of this cycle.
        let idle = self.tracked.is_none();
        self.report(cycle, inp);
        if idle && self.rng.chance(self.params.stray_rate) {
            self.inject_stray(inp);
        }
        while self.rob.peek().is_some_and(|Reverse(t)| *t <= cycle) {
            self.rob.pop();
        }
        if let Some(f) = self.flush_at.filter(|&f| cycle >= f) {
            // The flush happened: the correct path refills the pipeline first.
            self.flush_at = None;
            self.resume_at = self
                .resume_at
                .max(f + u64::from(self.params.redirect_penalty));
        }
        if cycle >= self.resume_at && self.rng.chance(self.params.bubble_rate) {
            self.resume_at = cycle + u64::from(self.rng.range32(self.params.bubble_len));
        }
        let mut next_ctx = None;
        if cycle >= self.resume_at {
            let limit = if self.rng.chance(self.params.partial_group_rate) {
                self.rng.range(1, self.width as u64) as usize
            } else {
                self.width
            };
            next_ctx = self.dispatch(cycle, limit, inp);
        }
        // The core is one hardware thread, active in every cycle.
        inp.thr[self.thread].active = true;
        inp.thr[self.thread].disp_el = self.mode.el;
        inp.thr[self.thread].disp_ns = self.mode.ns;
        inp.thr[self.thread].el2_en = self.mode.el2;
        inp.thr[self.thread].mdcr_e2pb = self.mode.e2pb;
        inp.thr[self.thread].hcr_tge = self.mode.tge;
        inp.thr[self.thread].hcr_e2h = self.mode.e2h;
        inp.thr[self.thread].disp_aarch32 = self.mode.aarch32;
        inp.thr[self.thread].prof_allowed = self.mode.prof_allowed;
        inp.thr[self.thread].ctx_el1 = self.ctx_el1;
        inp.thr[self.thread].ctx_el2 = self.params.ctx_el2;
        inp.thr[self.thread].cnt_virt = self.params.counter_start.wrapping_add(cycle);
        inp.cnt_phys = inp.thr[self.thread]
            .cnt_virt
            .wrapping_add(self.params.counter_offset);
        if let Some(c) = next_ctx {
            // CONTEXTIDR changes after the op that wrote it.
            self.ctx_el1 = c;
        }
    }

    /// Latches the unit's answer for this cycle: the tag and the population count.
    pub fn observe(&mut self, cycle: u64, out: &Outputs) {
        let dispatched = self.group.iter().filter(|s| s.is_some()).count();
        let pop = usize::from(out.thr[self.thread].pmu_sample_pop);
        if pop > dispatched {
            self.anomaly(format!(
                "cycle {cycle}: pmu_sample_pop {pop} with {dispatched} ops dispatched"
            ));
        }
        self.counters.population += pop as u64;
        for s in self.group.iter().flatten().take(pop) {
            *self.ground_truth.entry(s.op.pc).or_insert(0) += 1;
        }
        // This core's slots of the tag (bit k: its slot k).
        let tag = (0..self.width).fold(0u8, |a, k| {
            a | (((out.tag >> self.slot(k, cycle)) & 1) << k)
        });
        if tag != 0 {
            if tag.count_ones() != 1 {
                self.anomaly(format!(
                    "cycle {cycle}: tag {:#010b} is not one-hot",
                    out.tag
                ));
            }
            let slot = tag.trailing_zeros() as usize;
            match self.group.get_mut(slot).and_then(Option::take) {
                None => self.anomaly(format!(
                    "cycle {cycle}: tag on slot {slot}, which holds no op"
                )),
                Some(mut s) => {
                    if self.tracked.is_some() {
                        self.anomaly(format!(
                            "cycle {cycle}: new tag while the previous tagged op has not completed"
                        ));
                    }
                    self.counters.samples += 1;
                    *self.sampled.entry(s.op.pc).or_insert(0) += 1;
                    self.stall_sampled(cycle, &mut s);
                    self.tracked = Some(s);
                    self.tracked_at = cycle;
                }
            }
        }
        self.group.iter_mut().for_each(|s| *s = None);
    }

    /// Now and then (`CoreParams::sampled_stall_rate`, a stream of its own; at most
    /// `sampled_stall_max` times) the sampled op stalls for `sampled_stall_len` cycles:
    /// its operand arrives late (everything from its issue on moves), its translation
    /// walks that long (a load/store: the end of the walk and what follows move), or it
    /// waits that long to complete (only the completion moves). The rest of the core goes
    /// on; the unit sees a sample whose issue, translation or total latency is that long.
    /// None before `sampled_stall_from`.
    fn stall_sampled(&mut self, cycle: u64, s: &mut Sched) {
        let p = &self.params;
        if p.sampled_stall_rate <= 0.0
            || cycle < p.sampled_stall_from
            || self.counters.sampled_stalls >= u64::from(p.sampled_stall_max)
            || !self.stall_rng.chance(p.sampled_stall_rate)
        {
            return;
        }
        let d = u64::from(self.stall_rng.range32(p.sampled_stall_len));
        let translates = s.xl_done.is_some();
        let place = match self.counters.sampled_stalls % 3 {
            _ if !p.sampled_stall_rotate => self.stall_rng.below(if translates { 6 } else { 2 }),
            1 if !translates => return,
            k => [0, 2, 1][k as usize],
        };
        let moved = match place {
            // Before its issue: every report from the issue on.
            0 => {
                let Some(at) = s.issue else { return };
                vec![
                    &mut s.issue,
                    &mut s.xl_start,
                    &mut s.xl_done,
                    &mut s.mem_done,
                    &mut s.br_done,
                ]
                .into_iter()
                .filter(|t| t.is_some_and(|x| x >= at))
                .collect::<Vec<_>>()
            }
            // Before its completion: no report moves.
            1 => Vec::new(),
            // In its translation (two thirds of the load/stores' stalls): the end of the
            // walk and the access after it (not the start, which may be in the same cycle
            // as the end).
            _ => vec![&mut s.xl_done, &mut s.mem_done],
        };
        for t in moved {
            if let Some(x) = t.as_mut() {
                *x += d;
            }
        }
        s.complete += d;
        self.counters.sampled_stalls += 1;
    }

    /// A PSB CSYNC of this thread's software is about to be executed while the core
    /// follows a sampled op: whether that op is younger than the PSB (dispatched after it,
    /// waiting behind it), drawn with `CoreParams::psb_young_rate` from a stream of its
    /// own. Then the PSB need not wait for the op's completion report: the unit drops the
    /// sample, and [`Core::psb_dropped`] stops the reports. False when nothing is followed,
    /// and when the op was tagged more than [`YOUNG_WINDOW`] cycles before `cycle`: a PSB
    /// dispatched before it has executed by then (so a stalled op, or one whose
    /// completion a chaos layer withholds, is older than any later PSB).
    pub fn psb_meets_young(&mut self, cycle: u64) -> bool {
        self.tracked.is_some()
            && cycle <= self.tracked_at + YOUNG_WINDOW
            && self.params.psb_young_rate > 0.0
            && self.psb_rng.chance(self.params.psb_young_rate)
    }

    /// Cycles a PSB held back by the followed op waits after that op's completion report
    /// before it reaches the unit: 0 to `CoreParams::psb_lag_max` (no draw when that is 0).
    pub fn psb_lag(&mut self) -> u32 {
        match self.params.psb_lag_max {
            0 => 0,
            n => self.lag_rng.range32((0, n)),
        }
    }

    /// The unit completed a PSB (`psb_done`) that met the followed op younger than it: the
    /// sample is dropped, so the core sends no further report for that op (they would be
    /// taken for the next sample's).
    pub fn psb_dropped(&mut self) {
        if self.tracked.take().is_some() {
            self.counters.psb_dropped += 1;
        }
    }

    /// True while a tagged op has not completed.
    pub fn is_tracking(&self) -> bool {
        self.tracked.is_some()
    }

    pub fn counters(&self) -> &CoreCounters {
        &self.counters
    }

    /// Per-PC count of ops that were in the population (the ground truth samples estimate).
    pub fn ground_truth(&self) -> &HashMap<u64, u64> {
        &self.ground_truth
    }

    /// Per-PC count of tagged ops.
    pub fn samples_per_pc(&self) -> &HashMap<u64, u64> {
        &self.sampled
    }

    /// The first anomaly messages (all are counted in `counters().anomalies`).
    pub fn anomalies(&self) -> &[String] {
        &self.anomalies
    }

    /// Starts keeping every dispatched op (to write a trace of a run).
    pub fn record_ops(&mut self) {
        self.recording = Some(Vec::new());
    }

    /// The ops dispatched since `record_ops`.
    pub fn take_recorded(&mut self) -> Vec<MicroOp> {
        self.recording.take().unwrap_or_default()
    }

    fn anomaly(&mut self, msg: String) {
        self.counters.anomalies += 1;
        if self.anomalies.len() < MAX_ANOMALY_MESSAGES {
            self.anomalies.push(msg);
        }
    }

    fn fetch(&mut self, cycle: u64) -> MicroOp {
        match &mut self.source {
            Source::Walk(w) => w.next(cycle),
            Source::Replay { ops, next } => {
                let op = ops[*next].clone();
                *next = (*next + 1) % ops.len();
                op
            }
        }
    }

    /// Dispatches up to `limit` ops; returns a CONTEXTIDR_EL1 value to apply after this cycle.
    fn dispatch(&mut self, cycle: u64, limit: usize, inp: &mut Inputs) -> Option<u32> {
        let walking = matches!(self.source, Source::Walk(_));
        let mut n = 0;
        while n < limit {
            let op = match self.pending.take() {
                Some(op) => op,
                None => self.fetch(cycle),
            };
            if walking && op.wrong_path && self.flush_at.is_none() {
                // A generated wrong-path op that waited past its flush never dispatches.
                continue;
            }
            if self.rob.len() >= self.params.rob_size || (n > 0 && op.mode != self.mode) {
                self.pending = Some(op);
                break;
            }
            self.mode = op.mode;
            // With GCS enabled a call pushes the Guarded Control Stack and a return pops it.
            let cr = subclass::br_cr(op.subclass);
            let gcs = self.params.gcs
                && op.class == op_class::BRANCH
                && (cr == subclass::CR_BL || cr == subclass::CR_RET);
            let sched = self.schedule(cycle, op, gcs);
            self.prev_branch_update(&sched.op);
            let op = &sched.op;
            // An indirect branch the decoder did not classify: IND comes with its report
            // (no draw without such branches, so that the other draws stay as they were).
            let late_ind = op.class == op_class::BRANCH
                && op.subclass & subclass::BR_IND != 0
                && self.params.late_ind_rate > 0.0
                && self.ind_rng.chance(self.params.late_ind_rate);
            let ind = if late_ind { subclass::BR_IND } else { 0 };
            inp.disp[self.slot(n, cycle)] = Slot {
                valid: true,
                pc: op.pc,
                class: op.class,
                subclass: (op.subclass & !ind) | if gcs { subclass::BR_GCS } else { 0 },
                cond: op.cond,
                tid: self.thread as u8,
            };
            self.counters.dispatched += 1;
            self.counters.wrong_path += u64::from(op.wrong_path);
            let ends_group =
                op.branch.is_some_and(|b| b.taken) || op.redirects() || op.ctx_el1.is_some();
            let ctx = op.ctx_el1;
            if op.redirects() {
                if op.exception {
                    self.counters.exceptions += 1;
                } else {
                    self.counters.mispredicts += 1;
                }
                let flush = match (sched.br_done, op.exception) {
                    (Some(t), false) => t + 1,
                    _ => sched.complete + 1,
                };
                self.flush_at = Some(flush);
                if let Source::Walk(w) = &mut self.source {
                    w.redirect(flush);
                }
            }
            if let Some(rec) = &mut self.recording {
                rec.push(sched.op.clone());
            }
            self.group[n] = Some(sched);
            n += 1;
            if ctx.is_some() {
                return ctx;
            }
            if ends_group {
                break;
            }
        }
        None
    }

    /// FEAT_SPE_PBT: a taken correct-path branch becomes the previous-branch target of the
    /// ops after it (J1 `SPEBranch`), at the branch's EL and Security state. One in 64 stands
    /// for a taken branch while profiling was disabled, which leaves the register invalid;
    /// one in 8 has junk in bits 60:56 (NSE and the zero bits), which the unit records as 0.
    fn prev_branch_update(&mut self, op: &MicroOp) {
        let Some(b) = op.branch.filter(|b| b.taken && !op.wrong_path) else {
            return;
        };
        let r = &mut self.pbt_rng;
        self.prev_branch = if r.chance(1.0 / 64.0) {
            None
        } else {
            let junk = if r.chance(0.125) {
                r.below(32) << 56
            } else {
                0
            };
            Some(
                spe_defs::packet::addr_payload::instruction(b.target, op.mode.el, op.mode.ns)
                    | junk,
            )
        };
    }

    /// The Guarded Control Stack access of a call (`push`) or a return: 8 bytes at the GCS
    /// pointer, which a correct-path op moves. The stack's top is hot: an L1D hit and a
    /// TLB hit mostly. Drawn from its own stream, and no cache or TLB of the walker is
    /// touched, so that the other ops' accesses stay as they were.
    fn gcs_access(&mut self, push: bool, wrong_path: bool) -> MemAccess {
        let r = &mut self.gcs_rng;
        let va = if push {
            self.gcs_ptr.wrapping_sub(8)
        } else {
            self.gcs_ptr
        };
        if !wrong_path {
            self.gcs_ptr = if push { va } else { va.wrapping_add(8) };
        }
        use spe_defs::impdef::data_source as ds;
        let (tlb, xlat_lat) = if r.chance(0.95) {
            (Tlb::Hit, r.below(2) as u32)
        } else {
            (Tlb::Walk, r.range(20, 60) as u32)
        };
        let source = match r.below(50) {
            0 => ds::DRAM,
            1..=4 => ds::L2,
            _ => ds::L1D,
        };
        let mem_lat = match source {
            ds::L1D => 2 + r.below(2) as u32,
            ds::L2 => 10 + r.below(4) as u32,
            _ => 100 + r.below(50) as u32,
        };
        MemAccess {
            va,
            pa: GCS_PA_BASE | (va & 0x00ff_ffff),
            tlb,
            xlat_lat,
            source,
            events: MemEvents::for_source(source),
            misaligned: false,
            ns_mem: false,
            mem_lat,
        }
    }

    /// The hook timetable of `op` dispatched at cycle `d` (see the module comment); `gcs`:
    /// a call or return that pushes or pops the Guarded Control Stack.
    fn schedule(&mut self, d: u64, op: MicroOp, gcs: bool) -> Sched {
        let issue = d + u64::from(op.issue_lat.max(1));
        let exec = u64::from(op.exec_lat.max(1));
        let mut s = Sched {
            op,
            issue: Some(issue),
            xl_start: None,
            xl_done: None,
            mem_done: None,
            br_done: None,
            complete: 0,
            pbt: self.prev_branch,
            gcs: None,
        };
        if gcs && self.gcs_reports && s.op.class == op_class::BRANCH {
            let push = subclass::br_cr(s.op.subclass) == subclass::CR_BL;
            s.gcs = Some(self.gcs_access(push, s.op.wrong_path));
        }
        let done = match (s.op.class, s.op.mem, s.op.branch) {
            (op_class::LD_ST_ATOMIC, Some(m), _) => schedule_access(&mut s, issue, &m),
            (op_class::BRANCH, _, Some(_)) => {
                s.br_done = Some(issue + exec);
                // A call or return's GCS access: translated and made like a load or
                // store's, the op completing after both.
                match s.gcs {
                    Some(m) => (issue + exec).max(schedule_access(&mut s, issue, &m)),
                    None => issue + exec,
                }
            }
            _ => issue + exec,
        };
        if s.op.wrong_path {
            let flush = match self.flush_at {
                Some(f) if f > d => f,
                _ => done + 1,
            };
            for t in [
                &mut s.issue,
                &mut s.xl_start,
                &mut s.xl_done,
                &mut s.mem_done,
                &mut s.br_done,
            ] {
                if t.is_some_and(|t| t >= flush) {
                    *t = None;
                }
            }
            s.complete = flush;
        } else {
            s.complete = (done + 1).max(self.last_commit);
            self.last_commit = s.complete;
        }
        self.rob.push(Reverse(s.complete));
        s
    }

    /// Drives the tagged op's reports that are due.
    fn report(&mut self, cycle: u64, inp: &mut Inputs) {
        let Some(t) = &mut self.tracked else { return };
        let due = |x: &mut Option<u64>| {
            let d = x.is_some_and(|x| x <= cycle);
            if d {
                *x = None;
            }
            d
        };
        if due(&mut t.issue) {
            inp.thr[self.thread].iss_valid = true;
        }
        let data = match (t.op.mem, t.op.class) {
            (Some(m), op_class::LD_ST_ATOMIC) => Some(m),
            _ => t.gcs,
        };
        if let Some(m) = data {
            if due(&mut t.xl_start) {
                inp.thr[self.thread].xl.start = true;
                inp.thr[self.thread].xl.va = m.va;
            }
            if due(&mut t.xl_done) {
                inp.thr[self.thread].xl.done = true;
                inp.thr[self.thread].xl.pa = m.pa & PA_MASK;
                inp.thr[self.thread].xl.pa_ns = t.op.mode.ns || m.ns_mem;
                inp.thr[self.thread].xl.tlb_access = m.tlb.access();
                inp.thr[self.thread].xl.tlb_walk = m.tlb.walk();
            }
            if due(&mut t.mem_done) {
                inp.thr[self.thread].mem.done = true;
                inp.thr[self.thread].mem.source = m.source;
                inp.thr[self.thread].mem.l1d_access = m.events.l1d_access;
                inp.thr[self.thread].mem.l1d_refill = m.events.l1d_refill;
                inp.thr[self.thread].mem.llc_access = m.events.llc_access;
                inp.thr[self.thread].mem.llc_miss = m.events.llc_miss;
                inp.thr[self.thread].mem.remote = m.events.remote;
                inp.thr[self.thread].mem.misaligned = m.misaligned;
                // Scalar or vector, for a SIMD&FP access; junk for any other (ignored).
                inp.thr[self.thread].mem_fp_scalar = self.eft_rng.chance(0.5);
                // SPEv1p4's events from where the data came from: past L1 is an L2D access,
                // past L2 an L2D miss, another core's or cluster's cache a snoop (sometimes
                // of modified data); an L1 hit sometimes hits a line still being filled.
                // Stores get them too (the unit records them for loads only).
                use spe_defs::impdef::data_source as ds;
                let snooped = matches!(
                    m.source,
                    ds::PEER_CORE | ds::LOCAL_CLUSTER | ds::PEER_CLUSTER
                );
                let x = &mut inp.thr[self.thread];
                x.mem_l2d_access = m.source != ds::L1D;
                x.mem_l2d_miss = m.source != ds::L1D && m.source != ds::L2;
                x.mem_snooped = snooped;
                x.mem_hitm = snooped && self.v1p4_rng.chance(0.5);
                x.mem_lfb = m.source == ds::L1D && self.v1p4_rng.chance(0.1);
            }
        }
        if let (Some(b), true) = (t.op.branch, t.op.class == op_class::BRANCH) {
            if due(&mut t.br_done) {
                inp.thr[self.thread].br.done = true;
                inp.thr[self.thread].br.target = b.target;
                inp.thr[self.thread].br.taken = b.taken;
                inp.thr[self.thread].br.mispred = b.mispred;
                inp.thr[self.thread].br.indirect = b.indirect;
                inp.thr[self.thread].br.target_el = b.target_el;
                inp.thr[self.thread].br.target_ns = b.target_ns;
                inp.thr[self.thread].pbt_valid = t.pbt.is_some();
                inp.thr[self.thread].pbt_target = t.pbt.unwrap_or_default();
            }
        }
        if t.complete <= cycle && !t.others_pending() {
            inp.thr[self.thread].cpl.done = true;
            inp.thr[self.thread].cpl.retired = t.op.retired();
            inp.thr[self.thread].cpl.exception = t.op.exception;
            inp.thr[self.thread].cpl.cond_fail = t.op.cond_fail && t.op.class != op_class::BRANCH;
            // An SVE or SME op's governing predicate: all true, partly false or all false
            // (a core may leave `cpl_pred_not_full` low with an empty one: E[18] implies
            // E[17]). Low for any other op.
            if subclass::is_sve_sme(t.op.class, t.op.subclass) {
                let (not_full, empty) = match self.sve_rng.below(4) {
                    0 => (false, false),
                    1 => (true, false),
                    2 => (true, true),
                    _ => (false, true),
                };
                inp.thr[self.thread].cpl_pred_not_full = not_full;
                inp.thr[self.thread].cpl_pred_empty = empty;
            }
            // FEAT_SPE_SME's events: the PE in Streaming SVE mode for about a quarter of
            // the ops (half of the SVE and SME ones); an SVE or SME op in streaming mode
            // ran on the SME compute unit half of the time.
            let sve_sme = subclass::is_sve_sme(t.op.class, t.op.subclass);
            let streaming = self.sme_rng.chance(if sve_sme { 0.5 } else { 0.25 });
            inp.thr[self.thread].cpl_streaming = streaming;
            inp.thr[self.thread].cpl_smcu = streaming && sve_sme && self.sme_rng.chance(0.5);
            self.tracked = None;
        }
    }

    /// One random hook report while nothing is tagged: the unit must ignore it.
    fn inject_stray(&mut self, inp: &mut Inputs) {
        let r = &mut self.rng;
        match r.below(6) {
            0 => inp.thr[self.thread].iss_valid = true,
            1 => {
                inp.thr[self.thread].xl.start = true;
                inp.thr[self.thread].xl.va = r.next_u64();
            }
            2 => {
                inp.thr[self.thread].xl.done = true;
                inp.thr[self.thread].xl.pa = r.next_u64() & PA_MASK;
                inp.thr[self.thread].xl.pa_ns = r.chance(0.5);
                inp.thr[self.thread].xl.tlb_access = r.chance(0.5);
                inp.thr[self.thread].xl.tlb_walk = r.chance(0.5);
            }
            3 => {
                inp.thr[self.thread].mem.done = true;
                inp.thr[self.thread].mem.source = r.below(256) as u8;
                inp.thr[self.thread].mem.l1d_refill = r.chance(0.5);
            }
            4 => {
                inp.thr[self.thread].br.done = true;
                inp.thr[self.thread].br.target = r.next_u64();
                inp.thr[self.thread].br.mispred = r.chance(0.5);
                inp.thr[self.thread].br.target_el = r.below(4) as u8;
                inp.thr[self.thread].br.target_ns = r.chance(0.5);
            }
            _ => {
                inp.thr[self.thread].cpl.done = true;
                inp.thr[self.thread].cpl.retired = r.chance(0.5);
                inp.thr[self.thread].cpl.exception = r.chance(0.1);
            }
        }
        self.counters.stray_injected += 1;
    }
}
