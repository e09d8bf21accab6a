//! Random stimulus on top of the core stimulus model, for the lockstep regression.
//!
//! The core, driver and memory of `spe-stim` produce realistic traffic; [`Chaos`] sits
//! between them and the DUT and adds what a well-behaved system never does:
//! * random register accesses in cycles the driver leaves the port free: any address
//!   (unimplemented ones too), values that are legal, fully random (reserved bits set,
//!   CONSTRAINED UNPREDICTABLE encodings such as PMSCR.PCT = 0b10, filters with no type
//!   selected, PMSICR counts near zero, buffer pointers past the limit), and reads;
//! * whole reprogramming sequences while the unit is running (new random settings written
//!   without stopping it first);
//! * resets of random length at random moments, followed by a fresh programming sequence;
//! * hook reports at random moments, whether an op is in flight or not, and completion
//!   reports lost, so that an op stays in flight until a random report ends it;
//! * while the unit tracks a thread's sample, reports the protocol forbids: a second
//!   report of a kind the sample already had, or one of the wrong class (a translation or
//!   memory report for an op that is not a load/store, a branch report for one that is
//!   not a branch), which the unit must ignore;
//! * software stopping profiling (PMBSR.S set, PMBLIMITR.E cleared) mid-record, also in a
//!   cycle the offered beat is held by `wr_ready` low;
//! * dispatched ops of the reserved operation class 3 with random payloads;
//! * cycles with random EL2 inputs (EL2 enabled or not, any MDCR_EL2.E2PB, HCR_EL2.TGE and
//!   E2H) whatever the group's EL.
//!
//! [`random_settings`] and [`random_memory`] pick the software settings and memory
//! behaviour of a regression job (intervals below the advertised minimum, tiny buffers that
//! fill every few records, very long write stalls, write errors at any beat).
//!
//! Everything derives from one seed. Chaos stops after a given number of cycles so the
//! runner's final drain sees a quiet system.

use crate::hooks;
use spe_bench::driver::{exc_routing, exc_routing_host, FaultAction};
use spe_bench::memory::{random_mmu_fsc, FaultSpec};
use spe_bench::{Backpressure, ErrorInjection, MemoryProfile, SampleSettings};
use spe_defs::events::filterable_mask;
use spe_defs::impdef::BEAT_BYTES;
use spe_defs::packet::{addr_payload::ADDR_BITS, op_class};
use spe_defs::regs::{pmblimitr, pmbmar, pmbsr, reg, RegId, REGS};
use spe_defs::Config;
use spe_ports::{Dut, Inputs, Outputs};
use spe_stim::rng::Rng;
use std::collections::VecDeque;

/// How much chaos, as per-cycle probabilities.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChaosParams {
    /// A random register access in a cycle the driver does not use the port.
    pub reg_access: f64,
    /// Share of random writes with a fully random value (else a legal field value).
    pub wild_values: f64,
    /// Start a full reprogramming sequence with new random settings.
    pub reprogram: f64,
    /// Start a reset.
    pub reset: f64,
    /// Reset length in cycles.
    pub reset_len: (u32, u32),
    /// A random hook report.
    pub hook: f64,
    /// A dispatched op turned into the reserved class 3 with a random payload.
    pub odd_op: f64,
    /// A completion report swallowed (per report): the unit keeps timing the op until a
    /// random report completes it, so its latency counters saturate.
    pub lost_completion: f64,
    /// A cycle with random EL2 inputs (`el2_en`, `mdcr_e2pb`, `hcr_tge`, `hcr_e2h`),
    /// whatever the group's EL: owners and host states the core never combines.
    pub odd_regime: f64,
    /// One lost completion in the job is lost for good: until it, one completion in
    /// [`STALL_LOSS`] is lost (instead of `lost_completion`); the first one lost while the
    /// unit tracks a sample of its thread (a `tag` for it since its last completion,
    /// timeout, PSB or reset) stalls the thread: until the unit ends the sample (its
    /// completion timeout or a PSB's drop; at the latest 2^`cpl_timeout_log2` + 4096
    /// cycles on) the thread gets no completion report at all, and chaos starts no reset
    /// and injects no hook report. The outcomes `sample_timeout` and a PSB's drop of a
    /// tracked sample, which a random report would otherwise pre-empt.
    pub stall: bool,
    /// With `stall`: instead of one stall, one per op class (other, load-store, branch),
    /// one after another: each the tracked sample of a class not stalled yet whose
    /// completion comes first, lost for good (no [`STALL_LOSS`] draw); a stall that ends
    /// otherwise than by the completion timeout (a PSB's drop, the backstop) leaves its
    /// class to stall again; the stalled op hangs as a core's would, so the thread's
    /// PSB requests wait behind it (`psb_req` held low until the stall ends). A job
    /// needs [`timeouts_job_cycles`] for the three
    /// `sample_timeout`s (the functional coverage's `sample/timed-out/<class>`: with a
    /// timeout of 2^20 cycles one job of 2,000,000 holds one at most).
    pub stall_each_class: bool,
    /// Now and then ([`POINTER_AT_LIMIT`] a cycle, a stream of its own) software moves a
    /// thread's PMBPTR to the limit it last wrote to PMBLIMITR while its buffer is
    /// enabled: the next kept record finds no room at its check (buffer full with DL,
    /// nothing written; the functional coverage's `mgmt/buffer-full-at-check`), which the
    /// unit's own pointer never does (it ends the buffer after a record's last beat). A
    /// timeouts job's (chaos [`ChaosParams::only_stalls`], in its switch phase) moves it
    /// one record below the limit half the time: the next record's last beat fills the
    /// buffer (`mgmt/buffer-full-after-last-beat`).
    pub pointer_at_limit: bool,
}

impl ChaosParams {
    /// No chaos: the core stimulus alone.
    pub const NONE: ChaosParams = ChaosParams {
        reg_access: 0.0,
        wild_values: 0.0,
        reprogram: 0.0,
        reset: 0.0,
        reset_len: (1, 1),
        hook: 0.0,
        odd_op: 0.0,
        lost_completion: 0.0,
        odd_regime: 0.0,
        stall: false,
        stall_each_class: false,
        pointer_at_limit: false,
    };

    /// Some chaos: occasional disturbances between long stretches of normal profiling.
    pub const LIGHT: ChaosParams = ChaosParams {
        reg_access: 2e-5,
        wild_values: 0.5,
        reprogram: 5e-6,
        reset: 1e-6,
        reset_len: (1, 8),
        hook: 1e-4,
        odd_op: 1e-3,
        lost_completion: 5e-3,
        odd_regime: 1e-3,
        stall: false,
        stall_each_class: false,
        pointer_at_limit: false,
    };

    /// Much chaos: the unit rarely finishes a record undisturbed.
    pub const HEAVY: ChaosParams = ChaosParams {
        reg_access: 2e-3,
        wild_values: 0.7,
        reprogram: 1e-4,
        reset: 2e-5,
        reset_len: (1, 40),
        hook: 5e-3,
        odd_op: 1e-2,
        lost_completion: 2e-2,
        odd_regime: 1e-2,
        stall: false,
        stall_each_class: false,
        pointer_at_limit: false,
    };

    /// Chaos of no kind but the stalls and software's pointer moves (a timeouts job's:
    /// [`ChaosParams::stall_each_class`]).
    pub fn only_stalls(&self) -> bool {
        ChaosParams {
            stall: false,
            stall_each_class: false,
            pointer_at_limit: false,
            ..*self
        } == ChaosParams::NONE
    }

    /// One of the three levels (none 1/4, light 1/2, heavy 1/4).
    pub fn random(rng: &mut Rng) -> (&'static str, ChaosParams) {
        match rng.weighted(&[1, 2, 1]) {
            0 => ("none", ChaosParams::NONE),
            1 => ("light", ChaosParams::LIGHT),
            _ => ("heavy", ChaosParams::HEAVY),
        }
    }
}

/// The share of completions lost in a stall job until its stall (`ChaosParams::stall`).
pub const STALL_LOSS: f64 = 0.05;

/// What the chaos did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ChaosCounts {
    pub resets: u64,
    pub reg_writes: u64,
    pub wild_writes: u64,
    pub reg_reads: u64,
    pub reprograms: u64,
    pub hooks: u64,
    pub odd_ops: u64,
    pub odd_regimes: u64,
    pub lost_completions: u64,
}

impl std::ops::AddAssign for ChaosCounts {
    fn add_assign(&mut self, o: ChaosCounts) {
        self.resets += o.resets;
        self.reg_writes += o.reg_writes;
        self.wild_writes += o.wild_writes;
        self.reg_reads += o.reg_reads;
        self.reprograms += o.reprograms;
        self.hooks += o.hooks;
        self.odd_ops += o.odd_ops;
        self.odd_regimes += o.odd_regimes;
        self.lost_completions += o.lost_completions;
    }
}

/// One register access: (address, write data or `None` for a read).
/// A register access: port address, the value written (None: a read), the thread.
type Access = (u8, Option<u64>, u8);

/// The chaos layer around a DUT.
pub struct Chaos<D: Dut> {
    pub inner: D,
    cfg: Config,
    params: ChaosParams,
    rng: Rng,
    /// Steps taken.
    cycle: u64,
    /// Chaos acts in steps `start..until`.
    start: u64,
    until: u64,
    reset_left: u32,
    queue: VecDeque<Access>,
    counts: ChaosCounts,
    /// With `ChaosParams::stall`: whether the job's one stall is still to come; the thread
    /// whose sample waits for good (a completion lost, the unit has not ended the sample
    /// yet) and the cycle its stall began. Which threads' samples the unit tracks is
    /// `corner` below.
    stall_ahead: bool,
    stalled: Option<(usize, u64)>,
    /// With `ChaosParams::stall_each_class`: the op classes ([`class_bit`]) still to stall,
    /// and the class of the stall under way.
    stall_classes: u8,
    stalled_class: u8,
    /// With `ChaosParams::stall_each_class`: whether the job's one reset, in its last
    /// [`END_RESET_WINDOW`] cycles while a sample is tracked, has come.
    end_reset_done: bool,
    /// The step from which a job whose chaos is only its stalls (a timeouts job) has
    /// some of software's chaos too, after its stall and latency phases
    /// ([`timeouts_switch_from`]): stops while a beat is held, pointer moves
    /// ([`ChaosParams::pointer_at_limit`]). Other chaos jobs have them throughout.
    software_from: u64,
    /// Software stopping profiling while a record is written (a stream of its own, so the
    /// draws above stay as they were): the last step's offered beat (its thread and
    /// address), and the stream.
    last_beat: Option<(u8, u64)>,
    stop_rng: Rng,
    /// The thread of the last step's beat when `wr_ready` held it, and the stream of the
    /// stops in such cycles ([`STOP_WHILE_HELD`]).
    last_held: Option<u8>,
    held_rng: Rng,
    /// Each thread's sample as the ports show it ([`Corner`]: from the cycle after its tag
    /// to its completion report), and the stream of the forbidden reports.
    corner: Vec<Option<Corner>>,
    corner_rng: Rng,
    /// The fields options add to the random memory and branch reports
    /// ([`random_report_options`]): a stream of their own, so the other draws stay as
    /// they were.
    option_rng: Rng,
    /// With `ChaosParams::pointer_at_limit`: each thread's last PMBLIMITR write seen on the
    /// port, and the stream.
    limits: Vec<u64>,
    limit_rng: Rng,
}

/// A sample the unit tracks, for the forbidden reports: its op's class and the reports it
/// had (a [`hooks`] set).
#[derive(Clone, Copy, Debug)]
struct Corner {
    class: u8,
    had: u8,
}

/// An op class as a bit of [`ChaosParams::stall_each_class`]'s set: other (and the
/// reserved class 3, which the unit treats as other), load-store, branch.
fn class_bit(class: u8) -> u8 {
    match class {
        op_class::LD_ST_ATOMIC => 0b010,
        op_class::BRANCH => 0b100,
        _ => 0b001,
    }
}
const ALL_CLASSES: u8 = 0b111;

/// Workload cycles a job with [`ChaosParams::stall_each_class`] needs on `cfg`: three
/// completion timeouts one after another, each with [`TIMEOUT_JOB_MARGIN`] cycles to
/// reach a sample of the next class, then [`TIMEOUT_JOB_AFTER`] cycles of profiling
/// as usual (the stalls tag little: a thread's sampling waits for each timeout). Those
/// begin with the latency phase ([`timeouts_latency_cycles`]), then context switches.
pub fn timeouts_job_cycles(cfg: &Config) -> u64 {
    timeouts_stall_cycles(cfg) + TIMEOUT_JOB_AFTER
}

/// A timeouts job's sampled ops that stall past the latency counters' maximum, after its
/// stall phase, one place after another (before the issue, in the translation, before the
/// completion: `CoreParams::sampled_stall_rotate`): twice each with 12-bit counters, once
/// with 16-bit ones (whose stalls are sixteen times longer).
pub fn timeouts_sampled_stalls(cfg: &Config) -> u32 {
    if cfg.counter_width.max() < 0xffff {
        6
    } else {
        3
    }
}

/// The length of a sampled stall on `cfg`: just past its latency counters' maximum.
pub fn sampled_stall_len(cfg: &Config) -> (u32, u32) {
    let max = cfg.counter_width.max() as u32;
    (max + 1, max + max / 8 + 1)
}

/// A timeouts job's latency phase, after its stall phase: its sampled stalls
/// ([`timeouts_sampled_stalls`]) one after another and a margin, with neither context
/// switches nor software's chaos, whose PSBs and stops would end a stalled sample
/// before its record (with 16-bit counters, each waits longer than the mean time
/// between context switches).
pub fn timeouts_latency_cycles(cfg: &Config) -> u64 {
    u64::from(timeouts_sampled_stalls(cfg)) * u64::from(sampled_stall_len(cfg).1) + LATENCY_MARGIN
}
const LATENCY_MARGIN: u64 = 30_000;

/// The cycle a timeouts job's context switches and software chaos begin: after its stall
/// and latency phases.
pub fn timeouts_switch_from(cfg: &Config) -> u64 {
    timeouts_stall_cycles(cfg) + timeouts_latency_cycles(cfg)
}

/// The stall phase of [`timeouts_job_cycles`]: three timeouts and their margins.
pub fn timeouts_stall_cycles(cfg: &Config) -> u64 {
    3 * ((1u64 << cfg.cpl_timeout_log2) + TIMEOUT_JOB_MARGIN)
}
const TIMEOUT_JOB_MARGIN: u64 = 50_000;
/// A timeouts job's one reset comes in its last this many cycles, while a sample is
/// tracked (the functional coverage's `sample/reset-dropped`); the software's random
/// reprogramming after it then holds for these cycles only.
const END_RESET_WINDOW: u64 = 50_000;
const TIMEOUT_JOB_AFTER: u64 = 700_000;

/// Per cycle of a tracked sample, the chance of a forbidden report for it (chaos jobs).
const CORNER_REPORT: f64 = 1e-2;

/// Per cycle in which a beat the last cycle offered is still held by `wr_ready` low, the
/// chance that software stops profiling then: the functional coverage's
/// `mgmt/stop-while-held`.
const STOP_WHILE_HELD: f64 = 5e-3;

/// Per cycle, with [`ChaosParams::pointer_at_limit`], the chance that software moves a
/// thread's PMBPTR to its buffer's limit.
const POINTER_AT_LIMIT: f64 = 2e-5;

/// Per offered beat past a record's first, the chance that software stops profiling in the
/// next cycle (PMBSR.S set, or PMBLIMITR.E cleared): the functional coverage's
/// `mgmt/stop-writing`.
const STOP_MID_RECORD: f64 = 2e-3;

impl<D: Dut> Chaos<D> {
    /// Chaos around `inner`, active from step `start` (after the runner's reset) until step
    /// `until` (before its drain).
    pub fn new(
        inner: D,
        cfg: &Config,
        params: ChaosParams,
        seed: u64,
        start: u64,
        until: u64,
    ) -> Self {
        Chaos {
            inner,
            cfg: *cfg,
            params,
            rng: Rng::derive(seed, 0xC4A05),
            last_beat: None,
            stop_rng: Rng::derive(seed, 0x5709),
            last_held: None,
            held_rng: Rng::derive(seed, 0x4E1D),
            corner: vec![None; cfg.threads],
            corner_rng: Rng::derive(seed, 0xC0A4),
            option_rng: Rng::derive(seed, 0x0F7E),
            limits: vec![0; cfg.threads],
            limit_rng: Rng::derive(seed, 0x9F11),
            cycle: 0,
            start,
            until,
            reset_left: 0,
            queue: VecDeque::new(),
            counts: ChaosCounts::default(),
            stall_ahead: params.stall,
            stalled: None,
            stall_classes: if params.stall && params.stall_each_class {
                ALL_CLASSES
            } else {
                0
            },
            stalled_class: 0,
            end_reset_done: false,
            software_from: if params.only_stalls() {
                start + timeouts_switch_from(cfg)
            } else {
                start
            },
        }
    }

    pub fn counts(&self) -> ChaosCounts {
        self.counts
    }

    /// A random hardware thread (no draw at all in a one-thread unit, so that its
    /// sequence of random choices is the same as before threads existed).
    fn thread(&mut self) -> usize {
        if self.cfg.threads > 1 {
            self.rng.below(self.cfg.threads as u64) as usize
        } else {
            0
        }
    }

    /// Queues the programming sequence of new random settings, for one random thread.
    fn reprogram(&mut self) {
        let s = random_settings(&self.cfg, &mut self.rng);
        let t = self.thread() as u8;
        self.queue.clear();
        for (r, v) in s.program() {
            self.queue.push_back((reg(r).addr(), Some(v), t));
        }
        self.counts.reprograms += 1;
    }

    /// A random register access: any of the 32 addresses (mostly implemented ones).
    fn random_access(&mut self) -> Access {
        let t = self.thread() as u8;
        let addr = if self.rng.chance(0.1) {
            self.rng.below(32) as u8
        } else {
            REGS[self.rng.below(REGS.len() as u64) as usize].addr()
        };
        if self.rng.chance(0.25) {
            self.counts.reg_reads += 1;
            return (addr, None, t);
        }
        self.counts.reg_writes += 1;
        let v = if self.rng.chance(self.params.wild_values) {
            self.counts.wild_writes += 1;
            wild_value(&mut self.rng)
        } else {
            legal_value(&self.cfg, addr, &mut self.rng)
        };
        (addr, Some(v), t)
    }

    /// The samples the unit tracks, for [`Chaos::forbidden_report`]: a tag starts one for
    /// its slot's thread (from the next cycle); the reports it gets are noted; its
    /// completion report, its timeout, a PSB's drop (`psb_done`) or a reset ends it.
    /// Thread `t` tracks a sample a stall may take: any (one stall), or one of a class not
    /// stalled yet ([`ChaosParams::stall_each_class`]).
    fn stall_wanted(&self, t: usize) -> bool {
        self.corner[t].is_some_and(|c| {
            self.stall_classes == 0 || self.stall_classes & class_bit(c.class) != 0
        })
    }

    fn follow_samples(&mut self, i: &Inputs, o: &Outputs) {
        for t in 0..self.cfg.threads {
            let x = &i.thr[t];
            if let Some(c) = &mut self.corner[t] {
                c.had |= hooks::reported(x);
            }
            if i.reset || x.cpl.done || o.thr[t].sample_timeout || o.thr[t].psb_done {
                self.corner[t] = None;
            }
        }
        for (k, slot) in i.disp.iter().enumerate().take(self.cfg.dispatch_width) {
            if o.tag >> k & 1 == 1 {
                let t = if self.cfg.threads > 1 {
                    usize::from(slot.tid) % self.cfg.threads
                } else {
                    0
                };
                self.corner[t] = Some(Corner {
                    class: slot.class,
                    had: 0,
                });
            }
        }
    }

    /// A report thread `t`'s tracked sample `c` must not get: a second one of a kind it
    /// had, or one of the wrong class, with random contents, on a port the core leaves idle
    /// this cycle (the unit ignores it and pulses `hook_stray`).
    fn forbidden_report(&mut self, t: usize, c: Corner, i: &mut Inputs) {
        use hooks::{BRANCH, ISSUE, MEM, XL_DONE, XL_START};
        let choices = hooks::wrong_class(c.class) | c.had;
        let n = choices.count_ones();
        if n == 0 {
            return;
        }
        let r = &mut self.corner_rng;
        let k = r.below(u64::from(n)) as usize;
        let kind = hooks::KINDS
            .into_iter()
            .filter(|m| choices & m != 0)
            .nth(k)
            .unwrap_or(ISSUE);
        let x = &mut i.thr[t];
        match kind {
            ISSUE if !x.iss_valid => x.iss_valid = true,
            XL_START if !x.xl.start && !x.xl.done => random_xl_start(x, r),
            XL_DONE if !x.xl.start && !x.xl.done => random_xl_done(x, r),
            MEM if !x.mem.done => random_mem(x, r),
            BRANCH if !x.br.done => random_br(x, r),
            _ => return,
        }
        random_report_options(x, &mut self.option_rng);
        self.counts.hooks += 1;
    }

    /// A hook report with random contents (the unit must ignore it or take it, exactly as
    /// the model says).
    fn random_hook(&mut self, i: &mut Inputs) {
        self.counts.hooks += 1;
        let x = &mut i.thr[self.thread()];
        let r = &mut self.rng;
        match r.below(5) {
            0 => x.iss_valid = true,
            1 => {
                if r.chance(0.5) {
                    random_xl_start(x, r);
                } else {
                    random_xl_done(x, r);
                }
            }
            2 => random_mem(x, r),
            3 => random_br(x, r),
            _ => {
                x.cpl.done = true;
                x.cpl.retired = r.chance(0.5);
                x.cpl.exception = r.chance(0.5);
                x.cpl.cond_fail = r.chance(0.5);
            }
        }
        random_report_options(x, &mut self.option_rng);
    }
}

/// Software stopping thread `t`'s profiling: PMBSR.S set or PMBLIMITR.E cleared, half
/// each (one draw from `r`).
fn stop_profiling(r: &mut Rng, t: u8) -> Access {
    if r.chance(0.5) {
        (reg(RegId::Pmbsr).addr(), Some(pmbsr::S.place(1)), t)
    } else {
        (reg(RegId::Pmblimitr).addr(), Some(0), t)
    }
}

/// Hook reports with random contents, on one thread's lanes `x` (each draws from `r` in
/// the same order whoever calls it).
fn random_xl_start(x: &mut spe_ports::ThreadInputs, r: &mut Rng) {
    x.xl.start = true;
    x.xl.va = r.next_u64();
}

fn random_xl_done(x: &mut spe_ports::ThreadInputs, r: &mut Rng) {
    x.xl.done = true;
    x.xl.pa = r.next_u64() & spe_defs::low_mask(ADDR_BITS);
    x.xl.pa_ns = r.chance(0.5);
    x.xl.tlb_access = r.chance(0.5);
    x.xl.tlb_walk = r.chance(0.5);
}

/// The fields options add to a memory report (FEAT_SPE_EFT's `mem_fp_scalar`, SPEv1p4's
/// `mem_l2d_access`, `mem_l2d_miss`, `mem_hitm`, `mem_lfb`, `mem_snooped`) and to a branch
/// report (FEAT_SPE_PBT's `pbt_valid`, `pbt_target`: the PE's previous-branch-target
/// register, any value), at random, set with every random report: a unit with the option
/// must take them with a report it takes and ignore them with one it ignores (a second
/// report of a kind: the first one's stand), as the model says. Without the option the
/// ports are absent and the model reads none of them. The core's own reports carry them
/// as the core model draws them; before, chaos's reports carried none (a tracker that let
/// a second memory report overwrite the first one's scalar flag survived a mutant draw:
/// docs/mutation.md, `tracker:376:27`).
fn random_report_options(x: &mut spe_ports::ThreadInputs, r: &mut Rng) {
    if x.mem.done {
        x.mem_fp_scalar = r.chance(0.5);
        x.mem_l2d_access = r.chance(0.5);
        x.mem_l2d_miss = r.chance(0.5);
        x.mem_hitm = r.chance(0.5);
        x.mem_lfb = r.chance(0.5);
        x.mem_snooped = r.chance(0.5);
    }
    if x.br.done {
        x.pbt_valid = r.chance(0.5);
        x.pbt_target = r.next_u64();
    }
}

fn random_mem(x: &mut spe_ports::ThreadInputs, r: &mut Rng) {
    x.mem.done = true;
    x.mem.source = r.below(256) as u8;
    x.mem.l1d_access = r.chance(0.5);
    x.mem.l1d_refill = r.chance(0.5);
    x.mem.llc_access = r.chance(0.5);
    x.mem.llc_miss = r.chance(0.5);
    x.mem.remote = r.chance(0.5);
    x.mem.misaligned = r.chance(0.5);
}

fn random_br(x: &mut spe_ports::ThreadInputs, r: &mut Rng) {
    x.br.done = true;
    x.br.target = r.next_u64() & spe_defs::low_mask(ADDR_BITS);
    x.br.taken = r.chance(0.5);
    x.br.mispred = r.chance(0.5);
    x.br.indirect = r.chance(0.5);
    x.br.target_el = r.below(4) as u8;
    x.br.target_ns = r.chance(0.5);
}

/// A fully random value, biased towards sparse, dense and boundary patterns.
fn wild_value(r: &mut Rng) -> u64 {
    match r.below(6) {
        0 => r.next_u64(),
        1 => r.next_u64() & r.next_u64() & r.next_u64(),
        2 => r.next_u64() | r.next_u64(),
        3 => 1u64 << r.below(64),
        4 => [0, u64::MAX, 1, 0x100, 0xFF, 0xFFFF_FFFF][r.below(6) as usize],
        _ => r.below(4096),
    }
}

/// A value software could legally write to the register at `addr` (random fields).
fn legal_value(cfg: &Config, addr: u8, r: &mut Rng) -> u64 {
    let s = random_settings(cfg, r);
    s.program()
        .into_iter()
        .find(|(id, _)| reg(*id).addr() == addr)
        .map(|(_, v)| v)
        .unwrap_or_else(|| {
            wild_value(r)
                & REGS
                    .iter()
                    .find(|d| d.addr() == addr)
                    .map_or(0, |d| d.writable_mask(cfg))
        })
}

impl<D: Dut> Dut for Chaos<D> {
    fn step(&mut self, inputs: &Inputs) -> Outputs {
        let active = self.cycle >= self.start && self.cycle < self.until;
        self.cycle += 1;
        if !active || self.params == ChaosParams::NONE {
            if self.cycle == self.until + 1 {
                self.queue.clear();
            }
            return self.inner.step(inputs);
        }
        let mut i = inputs.clone();
        if self.params.stall_each_class
            && !self.end_reset_done
            && self.reset_left == 0
            && self.cycle + END_RESET_WINDOW >= self.until
            && self.corner.iter().any(Option::is_some)
        {
            self.end_reset_done = true;
            self.counts.resets += 1;
            self.reset_left = 4;
        }
        if self.reset_left == 0 && self.stalled.is_none() && self.rng.chance(self.params.reset) {
            self.counts.resets += 1;
            self.reset_left = self.rng.range32(self.params.reset_len).max(1);
        }
        if self.reset_left > 0 {
            self.reset_left -= 1;
            i.reset = true;
            if self.reset_left == 0 {
                // Software finds the unit reset: it programs it again.
                self.reprogram();
            }
            self.corner.fill(None);
            return self.inner.step(&i);
        }
        if self.rng.chance(self.params.reprogram) {
            self.reprogram();
        }
        // A timeouts job's chaos is its stalls alone until its latency phase ends:
        // software's stops, which nothing restarts there, would end its profiling before
        // its three timeouts or a stalled sample before its record; its context switches
        // restart profiling after that.
        let others = !self.params.only_stalls();
        let software = self.cycle > self.software_from;
        if let Some((t, addr)) = self.last_beat.take().filter(|_| others) {
            let beat = addr / BEAT_BYTES as u64 % self.cfg.record_beats() as u64;
            if beat != 0 && self.stop_rng.chance(STOP_MID_RECORD) {
                self.counts.reg_writes += 1;
                self.queue.push_front(stop_profiling(&mut self.stop_rng, t));
            }
        }
        if let Some(t) = self.last_held.take().filter(|_| software) {
            if !i.wr_ready && self.held_rng.chance(STOP_WHILE_HELD) {
                self.counts.reg_writes += 1;
                self.queue.push_front(stop_profiling(&mut self.held_rng, t));
            }
        }
        if self.params.pointer_at_limit {
            // The limits the driver wrote.
            if i.reg_en && i.reg_we && i.reg_addr == reg(RegId::Pmblimitr).addr() {
                let t = usize::from(i.reg_tid) % self.cfg.threads;
                self.limits[t] = i.reg_wdata;
            }
            if software && self.limit_rng.chance(POINTER_AT_LIMIT) {
                let t = self.limit_rng.below(self.cfg.threads as u64) as usize;
                let limit = self.limits[t];
                if pmblimitr::E.is_set(limit) {
                    self.counts.reg_writes += 1;
                    let mut ptr = limit & pmblimitr::LIMIT.mask();
                    // A timeouts job's software moves it one record below the limit half
                    // the time: the next record's last beat fills the buffer, as a
                    // large buffer's records do only once it is full.
                    if !others && self.limit_rng.chance(0.5) {
                        ptr -= self.cfg.record_size() as u64;
                    }
                    self.queue
                        .push_front((reg(RegId::Pmbptr).addr(), Some(ptr), t as u8));
                }
            }
        }
        if !i.reg_en {
            let access = match self.queue.pop_front() {
                Some(a) => Some(a),
                None if self.rng.chance(self.params.reg_access) => Some(self.random_access()),
                None => None,
            };
            if let Some((addr, data, t)) = access {
                i.reg_en = true;
                i.reg_tid = t;
                i.reg_addr = addr;
                i.reg_we = data.is_some();
                i.reg_wdata = data.unwrap_or(self.rng.next_u64());
            }
        }
        for (t, x) in i.thr[..self.cfg.threads].iter_mut().enumerate() {
            // The SVE events' predicate flags on any completion (the core's stimulus has no
            // SVE op): the unit records what it is told.
            if self.cfg.options.sve_events && x.cpl.done && self.rng.chance(0.5) {
                x.cpl_pred_not_full = self.rng.chance(0.5);
                x.cpl_pred_empty = self.rng.chance(0.3);
            }
            // Any SPEv1p4 event flags with a memory report.
            if self.cfg.options.v1p4_events && x.mem.done && self.rng.chance(0.3) {
                x.mem_l2d_access = self.rng.chance(0.5);
                x.mem_l2d_miss = self.rng.chance(0.5);
                x.mem_hitm = self.rng.chance(0.5);
                x.mem_lfb = self.rng.chance(0.5);
                x.mem_snooped = self.rng.chance(0.5);
            }
            // Any SME event flags with a completion.
            if self.cfg.options.sme && x.cpl.done && self.rng.chance(0.3) {
                x.cpl_streaming = self.rng.chance(0.5);
                x.cpl_smcu = self.rng.chance(0.5);
            }
            let lose = if self.stall_ahead && self.stall_classes != 0 {
                if self.stall_wanted(t) {
                    1.0
                } else {
                    self.params.lost_completion
                }
            } else if self.stall_ahead {
                STALL_LOSS
            } else {
                self.params.lost_completion
            };
            if x.cpl.done && self.rng.chance(lose) {
                x.cpl.done = false;
                self.counts.lost_completions += 1;
            }
        }
        if self.params.stall {
            for t in 0..self.cfg.threads {
                // The completion lost first stalls its thread; a stalled thread's
                // completions (the core's own, its stray reports) are lost too.
                if self.stall_ahead
                    && self.stall_wanted(t)
                    && inputs.thr[t].cpl.done
                    && !i.thr[t].cpl.done
                {
                    self.stalled = Some((t, self.cycle));
                    self.stall_ahead = false;
                    self.stalled_class = self.corner[t].map_or(0, |c| class_bit(c.class));
                }
                if self.stalled.is_some_and(|(s, _)| s == t) {
                    i.thr[t].cpl.done = false;
                    // A timeouts job's stalled op hangs as a core's would: its software's
                    // PSB CSYNC waits behind it (for the timeout), instead of dropping the
                    // sample before its timeout.
                    if self.params.stall_each_class {
                        i.thr[t].psb_req = false;
                    }
                }
            }
        }
        if self.rng.chance(self.params.hook) && self.stalled.is_none() {
            self.random_hook(&mut i);
        }
        for t in 0..self.cfg.threads {
            if let Some(c) = self.corner[t].filter(|_| others) {
                if self.corner_rng.chance(CORNER_REPORT) {
                    self.forbidden_report(t, c, &mut i);
                }
            }
        }
        if self.rng.chance(self.params.odd_op) {
            // An odd op type: class 3 (reserved), or the op's own class with any payload
            // (bits of features the unit does not build, undefined encodings): the unit must
            // treat both as the model says.
            let k = self.rng.below(self.cfg.dispatch_width as u64) as usize;
            if i.disp[k].valid {
                if self.rng.chance(0.5) {
                    i.disp[k].class = op_class::RESERVED;
                }
                i.disp[k].subclass = self.rng.below(256) as u8;
                self.counts.odd_ops += 1;
            }
        }
        if self.rng.chance(self.params.odd_regime) {
            let t = self.thread();
            i.thr[t].el2_en = self.rng.chance(0.5);
            i.thr[t].mdcr_e2pb = self.rng.below(4) as u8;
            i.thr[t].hcr_tge = self.rng.chance(0.5);
            i.thr[t].hcr_e2h = self.rng.chance(0.5);
            self.counts.odd_regimes += 1;
        }
        let o = self.inner.step(&i);
        if o.wr_valid {
            self.last_beat = Some((o.wr_tid, o.wr_addr));
            if !i.wr_ready {
                self.last_held = Some(o.wr_tid);
            }
        }
        self.follow_samples(&i, &o);
        if self.params.stall {
            // The unit ended a sample: a completion it got, its timeout, or a PSB's drop;
            // a stall ends with it (or, as a backstop, long after the timeout).
            let limit = (1u64 << self.cfg.cpl_timeout_log2) + 4096;
            for t in 0..self.cfg.threads {
                let ended = i.thr[t].cpl.done || o.thr[t].sample_timeout || o.thr[t].psb_done;
                if self
                    .stalled
                    .is_some_and(|(s, since)| s == t && (ended || self.cycle - since > limit))
                {
                    self.stalled = None;
                    // The next class's stall, once this one timed out.
                    if o.thr[t].sample_timeout {
                        self.stall_classes &= !self.stalled_class;
                    }
                    self.stall_ahead = self.stall_classes != 0;
                }
            }
        }
        o
    }
}

/// Random software settings for `cfg`: any mix of filters, collection controls, exception
/// levels, EL2 host or not, discard, intervals from 0 (an UNKNOWN interval, used as 256) and
/// 256 (below the advertised minimum) to a few times the minimum, with or without jitter,
/// buffers from 4 KiB to 4 MiB.
pub fn random_settings(cfg: &Config, r: &mut Rng) -> SampleSettings {
    let mut s = SampleSettings::perf_default(cfg);
    let min = u64::from(cfg.min_interval());
    // Mostly short intervals: many samples, and collisions, per simulated cycle.
    s.interval = match r.below(8) {
        0 if r.chance(0.25) => 0,
        0..=2 => 256,
        3 | 4 => 256 * r.range(1, min / 256),
        5 => min,
        _ => 256 * r.range(min / 256, 4 * min / 256),
    };
    s.jitter = r.chance(0.3);
    s.branch_filter = r.chance(0.1);
    s.load_filter = r.chance(0.1);
    s.store_filter = r.chance(0.1);
    if r.chance(0.15) {
        s.event_filter = r.next_u64() & r.next_u64() & filterable_mask(cfg);
    }
    if r.chance(0.15) {
        // PMSNEVFR only with FEAT_SPE_FnE (the draw is made either way).
        let nevfr = r.next_u64() & r.next_u64() & filterable_mask(cfg);
        s.inv_event_filter = if cfg.options.fne { nevfr } else { 0 };
    }
    // Minimum latency: often small, where most ops' latencies are, so that records with a
    // latency exactly at the threshold (the filter's boundary) are common.
    if r.chance(0.4) {
        s.min_latency = if r.chance(0.6) {
            r.below(16)
        } else {
            r.below(cfg.counter_width.max().min(400) + 1)
        };
    }
    // Mostly both: a workload that never enters the kernel samples nothing kernel-only.
    (s.user, s.kernel) = match r.below(10) {
        0 => (true, false),
        1 => (false, true),
        _ => (true, true),
    };
    s.ts = r.chance(0.8);
    s.pa = r.chance(0.5);
    s.pct = r.chance(0.3);
    s.cx = r.chance(0.7);
    s.discard = r.chance(0.05);
    s.host = r.chance(0.2);
    s.buffer_size = match r.below(4) {
        0 => 4096,
        1 => 4096 * r.range(2, 16),
        2 => 1 << 20,
        _ => 4 << 20,
    };
    if r.chance(0.3) {
        s.initial_count = Some(r.below(64));
    }
    s.on_fault = if r.chance(0.9) {
        FaultAction::Restart
    } else {
        FaultAction::Stop
    };
    // Options, last (a preset without them draws nothing more).
    s.pmfz = cfg.options.pmfz && r.chance(0.5);
    if cfg.options.eft {
        for f in [
            &mut s.float_filter,
            &mut s.simd_filter,
            &mut s.branch_filter_mask,
            &mut s.load_filter_mask,
            &mut s.store_filter_mask,
            &mut s.float_filter_mask,
            &mut s.simd_filter_mask,
        ] {
            *f = r.chance(0.1);
        }
    }
    if cfg.options.fds && r.chance(0.3) {
        s.inv_data_src_filter = r.next_u64() & r.next_u64();
    }
    s
}

/// SPEv1p5's options in `s`, where `cfg` builds them (the regression draws them from a
/// stream of their own, so that a job's other draws stay as they were).
///
/// FEAT_SPE_EXC, in 75 % of the plans: one of the routings a system sets up
/// ([`exc_routing`]; a VHE host's, whose PMBSR_EL1 accesses reach PMBSR_EL2 while EL2's
/// EE is not 00, [`exc_routing_host`]), SCR_EL3.EA, HCR_EL2.TEA and the two KE bits, and
/// in three quarters of them a new routing at each context switch; in every such plan that
/// sweeps faults (`sweep`: a fault every few records, of every kind at every beat), both,
/// so that its events meet every bank. The driver's EL2 and EL3 handlers reflect their
/// banks' events to EL1.
///
/// FEAT_SPE_nVM, in half the plans: the buffer addressed physically (an IPA under an EL1
/// owner with EL2 enabled, a PA otherwise) with random memory attributes.
pub fn random_v1p5(cfg: &Config, s: &mut SampleSettings, sweep: bool, r: &mut Rng) {
    let likely = if sweep { 1.0 } else { 0.75 };
    if cfg.options.exc && !s.host && r.chance(likely) {
        (s.pmsee, s.el2_ee, s.exc_ee) = exc_routing(r);
        s.scr_ea = r.chance(0.5);
        s.hcr_tea = r.chance(0.5);
        if r.chance(likely) {
            s.exc_reroute = Some(r.next_u64());
        }
    } else if cfg.options.exc && s.host && r.chance(likely) {
        // A VHE host: its own events in PMBSR_EL2 (EE = 11) or PMBIRQ (00), drawn after
        // the EL1 kernels' draws so that their plans stay as they were.
        (s.pmsee, s.exc_ee) = exc_routing_host(r);
        s.scr_ea = r.chance(0.5);
        s.hcr_tea = r.chance(0.5);
        if r.chance(likely) {
            s.exc_reroute = Some(r.next_u64());
        }
    }
    if cfg.options.nvm && r.chance(0.5) {
        s.nvm = Some(r.next_u64() & (pmbmar::SH.mask() | pmbmar::ATTR.mask()));
    }
    // Drawn last, so that the draws above are those of the plans before KE was driven.
    if (s.pmsee | s.el2_ee | s.exc_ee) != 0 {
        s.exc_ke = r.chance(0.5);
        s.el2_ke = r.chance(0.5);
    }
}

/// Random memory behaviour: always ready, randomly ready, short stalls, or now and then a
/// stall of up to 50,000 cycles; no errors, errors on random beats, or a sweep: a fault every
/// first to fourth record, walking the beats of a record.
pub fn random_memory(r: &mut Rng) -> MemoryProfile {
    let backpressure = match r.below(8) {
        0..=2 => Backpressure::AlwaysReady,
        3 | 4 => Backpressure::Random {
            p_ready: 0.2 + 0.8 * r.unit(),
        },
        5 | 6 => Backpressure::Stalls {
            p_stall: 0.01,
            min: 1,
            max: 64,
        },
        _ => Backpressure::Stalls {
            p_stall: 5e-6,
            min: 1000,
            max: 50_000,
        },
    };
    // Errors: about one in 50 beats, one in 500, or a sweep: a fault every first to
    // fourth record, walking the beats of a record (and, with any kind, the kinds), so
    // that a preset's jobs meet every fault kind at every beat of a record (the functional
    // coverage's fault/ points).
    let errors = match r.below(5) {
        0 => ErrorInjection::Random { p: 2e-2 },
        1 => {
            let x = r.below(400);
            ErrorInjection::Sweep {
                every: 1 + x % 4,
                start: x / 4 % 32,
            }
        }
        2 => ErrorInjection::Random { p: 2e-3 },
        _ => ErrorInjection::Never,
    };
    // Every fault kind: most jobs draw one per error, the rest keep to one kind.
    let fault = match r.below(6) {
        0 => FaultSpec::External,
        1 => FaultSpec::Stage1(random_mmu_fsc(r)),
        2 => FaultSpec::Stage2(random_mmu_fsc(r)),
        _ => FaultSpec::Any,
    };
    MemoryProfile {
        backpressure,
        errors,
        fault,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use spe_model::Model;

    #[test]
    fn random_reports_carry_the_fields_options_add_and_only_with_their_report() {
        let mut r = Rng::new(11);
        let (mut mem_on, mut br_on) = ([0u32; 6], [0u32; 2]);
        for k in 0..400 {
            let mut x = spe_ports::ThreadInputs::default();
            match k % 3 {
                0 => random_mem(&mut x, &mut r),
                1 => random_br(&mut x, &mut r),
                _ => random_xl_start(&mut x, &mut r),
            }
            random_report_options(&mut x, &mut r);
            let mem = [
                x.mem_fp_scalar,
                x.mem_l2d_access,
                x.mem_l2d_miss,
                x.mem_hitm,
                x.mem_lfb,
                x.mem_snooped,
            ];
            let br = [x.pbt_valid, x.pbt_target != 0];
            if !x.mem.done {
                assert!(
                    !mem.contains(&true),
                    "memory fields without a memory report"
                );
            }
            if !x.br.done {
                assert!(!br.contains(&true), "branch fields without a branch report");
            }
            for (n, b) in mem_on.iter_mut().zip(mem) {
                *n += u32::from(b);
            }
            for (n, b) in br_on.iter_mut().zip(br) {
                *n += u32::from(b);
            }
        }
        // About half of the 134 memory and 133 branch reports set each bit.
        for n in mem_on.iter().chain(&br_on[..1]) {
            assert!((30..=104).contains(n), "{mem_on:?} {br_on:?}");
        }
        assert!(br_on[1] > 120, "pbt_target random: {br_on:?}");
    }

    #[test]
    fn random_settings_are_programmable() {
        let mut r = Rng::new(7);
        for cfg in spe_defs::PRESETS {
            for _ in 0..200 {
                let mut s = random_settings(cfg, &mut r);
                random_v1p5(cfg, &mut s, r.chance(0.5), &mut r);
                s.validate().unwrap();
                s.check_for(cfg).unwrap();
                random_memory(&mut r).validate().unwrap();
            }
        }
    }

    /// Heavy chaos really does reset, reprogram, write wild values and inject hooks, and
    /// stops at `until`.
    #[test]
    fn heavy_chaos_acts_and_stops() {
        let cfg = Config::default();
        let mut c = Chaos::new(Model::new(&cfg), &cfg, ChaosParams::HEAVY, 3, 4, 200_000);
        let mut seen_reset = 0;
        let mut idle = Inputs::default();
        idle.disp[0].valid = true;
        for _ in 0..200_000 {
            c.step(&idle);
        }
        let k = c.counts();
        assert!(
            k.resets > 0
                && k.reprograms > 0
                && k.wild_writes > 0
                && k.hooks > 0
                && k.odd_ops > 0
                && k.odd_regimes > 0,
            "{k:?}"
        );
        assert!(k.reg_reads > 0);
        seen_reset += k.resets;
        for _ in 0..10_000 {
            c.step(&idle);
        }
        assert_eq!(c.counts().resets, seen_reset, "chaos went on after `until`");
    }
}
