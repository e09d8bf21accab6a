//! The whole unit (`spe_top`), one clock cycle per [`Model::step`], for `Config::threads`
//! hardware threads (docs/smt.md): each thread is a PE with its own SPE (registers,
//! interval counter, jitter, one sample in flight, hook reports, PSB, PMBIRQ, PMU events);
//! the threads share the dispatch slots (`disp_tid` names each op's thread), the register
//! port (`reg_tid` selects the bank) and the record writer (`wr_tid` names the beat's
//! thread). At T = 1 the thread-only ports are ignored and the unit is today's.
//!
//! Phases of a thread's one sample in flight:
//! `Idle` → (tag) → `Tracking` → (completion report) → `Filter` (one cycle: SAMPLE_FEED,
//! SAMPLE_FILTRATE, keep/drop) → [`Waiting` while another thread's record holds the writer]
//! → (granted: PMBPTR and the limit taken) `Check` (one cycle: buffer-full with DL if the
//! record has no room, else) → `Writing` (eight beats) → `Idle`.
//! A new op can be tagged only in `Idle`; a selection in any other phase is a collision.
//!
//! The shared writer (docs/smt.md): it is busy in a cycle that starts with some
//! thread in `Check` or `Writing`. A kept record (its thread's profiling enabled and not
//! discarding) goes from its filter cycle to `Waiting`, and asks for the writer in every
//! `Waiting` cycle, from the cycle after its filter cycle on; a `Waiting` record whose
//! thread no longer has profiling enabled, or discards, is dropped. When the writer is
//! free, the asking thread first in round-robin order after the one granted last is
//! granted in that cycle (its PMBPTR and limit taken as in a filter cycle); the others
//! wait. So a record waits for at most T - 1 others. At T = 1 a kept record asks in its
//! filter cycle and is granted there (the writer is always free then).
//!
//! Profiling synchronization (PSB CSYNC, Arm ARM D17.9): while `psb_req` is high, a sample
//! still `Tracking` is dropped at the edge: the core raises the request after the
//! completion reports of the ops older than the PSB, so a sample whose completion has not
//! been reported belongs to a younger op (or lost its report), and no record of an op
//! tagged before the PSB may be written once it completes. A record past its completion
//! (`Filter`, `Check`, `Writing`) is finished: `psb_done` is high in any cycle with the
//! request and none of those phases, so PMBPTR then holds the end of the last whole record
//! and nothing more is written for the ops tagged before it.
//!
//! Within a cycle: outputs are computed from the state at the start of the cycle and the
//! inputs; at the edge, hardware updates are applied first and a register-port write last
//! (software wins). While `reset` is high the unit takes no action and every output except
//! `reg_rdata` and `irq` is low; at the edge everything returns to its reset value.

use crate::capture::Sample;
use crate::filter;
use crate::record::{self, Record};
use crate::regs::Regs;
use crate::sampler;
use crate::writer::{self, Write};
use spe_defs::impdef;
use spe_defs::regs::pmbsr;
use spe_defs::Config;
use spe_ports::{Dut, Inputs, Outputs, ThreadOutputs};

/// Where a thread's sample in flight is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    Idle,
    Tracking(Box<Sample>),
    Filter(Box<Sample>),
    /// Kept, waiting for the shared writer (T > 1 only).
    Waiting(Box<Record>),
    /// The cycle after the grant: the room check (`writer::Write::check`).
    Check(Box<Write>),
    Writing(Box<Write>),
}

/// The sampling decisions of another implementation, for a model that follows them (the
/// record-level scoreboard, `verif/scoreboard`): which slot each thread tagged and whether it
/// counted a collision, as that implementation's `tag` and `pmu_sample_collision` outputs
/// said in the same cycle. The interval counter keeps its own architectural count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Follow {
    /// Bit i: the op in slot i was tagged (for the thread its `disp_tid` names).
    pub tag: u8,
    /// Per thread: a selection collided with the sample in flight.
    pub collision: [bool; spe_defs::config::MAX_THREADS],
}

/// One hardware thread's SPE.
#[derive(Clone, Debug)]
pub struct Thread {
    pub regs: Regs,
    pub lfsr: u16,
    pub phase: Phase,
}

/// The golden model of the unit.
#[derive(Clone, Debug)]
pub struct Model {
    cfg: Config,
    thr: Vec<Thread>,
    /// The thread granted the writer last (round-robin starts after it).
    last_grant: usize,
}

impl Model {
    /// A unit in its reset state. Panics on an invalid configuration (a build-time error).
    pub fn new(cfg: &Config) -> Model {
        if let Err(e) = cfg.validate() {
            panic!("invalid SPE configuration: {e}");
        }
        Model {
            cfg: *cfg,
            thr: (0..cfg.threads)
                .map(|t| Thread {
                    regs: Regs::new(cfg),
                    lfsr: sampler::lfsr_reset(t),
                    phase: Phase::Idle,
                })
                .collect(),
            last_grant: cfg.threads - 1,
        }
    }

    pub fn config(&self) -> &Config {
        &self.cfg
    }
    /// Thread 0's register file (the only one at T = 1; for inspection in tests and tools).
    pub fn regs(&self) -> &Regs {
        &self.thr[0].regs
    }
    /// Thread 0's sample in flight.
    pub fn phase(&self) -> &Phase {
        &self.thr[0].phase
    }
    /// Thread `t`'s SPE.
    pub fn thread(&self, t: usize) -> &Thread {
        &self.thr[t]
    }

    fn reset(&mut self) {
        *self = Model::new(&self.cfg);
    }

    /// One clock cycle: outputs during the cycle, then the rising edge.
    pub fn step(&mut self, inp: &Inputs) -> Outputs {
        self.step_with(inp, None)
    }

    /// [`Model::step`] with the sampling decisions of `follow` instead of the model's own
    /// selections (the interval counter still counts by the architecture's rule): the op a
    /// thread's `follow.tag` names is tagged if the thread is idle, and a collision is
    /// counted exactly when `follow.collision` says so.
    pub fn step_following(&mut self, inp: &Inputs, follow: &Follow) -> Outputs {
        self.step_with(inp, Some(follow))
    }

    fn step_with(&mut self, inp: &Inputs, follow: Option<&Follow>) -> Outputs {
        let threads = self.cfg.threads;
        let reg_thread = usize::from(inp.reg_tid) & (threads - 1);
        // FEAT_SPE_EXC reads the core's routing controls of this cycle.
        for (x, i) in self.thr.iter_mut().zip(&inp.thr) {
            let r = crate::regime::Regime::of(i);
            x.regs.set_exc_inputs(crate::regs::ExcInputs {
                pmsee: i.mdcr_pmsee & 3,
                el2: r.el2,
                owner_el2: r.owner_el2,
                scr_ea: i.scr_ea,
                hcr_tea: i.hcr_tea,
            });
        }
        let mut out = Outputs {
            reg_rdata: self.thr[reg_thread]
                .regs
                .read(inp.reg_addr, own_el1(&inp.thr[reg_thread])),
            ..Outputs::default()
        };
        for (o, x) in out.thr.iter_mut().zip(&self.thr) {
            o.irq = x.regs.irq();
        }
        if inp.reset {
            self.reset();
            return out;
        }
        // The shared writer: busy when a cycle starts with a record in its check or beats.
        let writer_busy = self
            .thr
            .iter()
            .any(|x| matches!(x.phase, Phase::Check(_) | Phase::Writing(_)));
        // Who may be granted: with more than one thread, the records that start the cycle
        // `Waiting` (a record filtered this cycle asks from the next); at T = 1, a record
        // kept in this filter cycle too.
        let asking = self
            .thr
            .iter()
            .enumerate()
            .filter(|(_, x)| threads == 1 || matches!(x.phase, Phase::Waiting(_)))
            .fold(0u32, |m, (t, _)| m | 1 << t);
        for t in 0..threads {
            let ([e1, e2, e3], [k1, k2]) = self.thr[t].regs.exceptions();
            let mut o = ThreadOutputs {
                irq: out.thr[t].irq,
                pmu_freeze: self.thr[t].regs.pmu_freeze(),
                exc_el1: e1,
                exc_el2: e2,
                exc_el3: e3,
                exc_ke1: k1,
                exc_ke2: k2,
                ..ThreadOutputs::default()
            };
            self.thread_cycle(inp, t, follow, &mut o, &mut out);
            out.thr[t] = o;
        }
        if !writer_busy {
            self.grant(inp, asking);
        }

        // Edge: the jitter sources step; a register-port write lands last.
        // choice: jitter
        for x in &mut self.thr {
            x.lfsr = impdef::lfsr_step(x.lfsr);
        }
        if inp.reg_en && inp.reg_we {
            self.thr[reg_thread].regs.write(inp.reg_addr, inp.reg_wdata);
        }
        out
    }

    /// Grants the free writer to the `Waiting` thread that asks (bit t of `asking`) first in
    /// round-robin order after the one granted last: its record takes the slot at its
    /// PMBPTR and its limit now, and its check cycle is the next.
    fn grant(&mut self, inp: &Inputs, asking: u32) {
        let n = self.thr.len();
        let Some(t) = (1..=n)
            .map(|k| (self.last_grant + k) % n)
            .find(|&t| asking >> t & 1 == 1 && matches!(self.thr[t].phase, Phase::Waiting(_)))
        else {
            return;
        };
        let x = &mut self.thr[t];
        if let Phase::Waiting(r) = std::mem::replace(&mut x.phase, Phase::Idle) {
            x.phase = Phase::Check(Box::new(writer::take(&x.regs, *r, own_el1(&inp.thr[t]))));
        }
        self.last_grant = t;
    }

    /// Thread `t`'s cycle: its outputs `o`, the shared outputs it drives (tag, the write
    /// port), its state at the edge. A kept record is left `Waiting` for [`Model::grant`].
    fn thread_cycle(
        &mut self,
        inp: &Inputs,
        t: usize,
        follow: Option<&Follow>,
        o: &mut ThreadOutputs,
        out: &mut Outputs,
    ) {
        let (threads, width) = (self.cfg.threads, self.cfg.dispatch_width);
        let counter_max = self.cfg.counter_width.max();
        let timeout = 1u64 << self.cfg.cpl_timeout_log2;
        let x = &inp.thr[t];
        // Latency counters count the cycles in which the thread could issue (choice:
        // latency-counters); a one-thread unit has no `thr_active` port: always.
        let active = threads == 1 || x.active;
        let th = &mut self.thr[t];

        // choice: psb-csync
        o.psb_done = x.psb_req && matches!(th.phase, Phase::Idle | Phase::Tracking(_));

        // Sampler: population count, interval counter, selection.
        let decision = sampler::count_group(
            &th.regs,
            inp,
            (t, threads),
            (width, self.cfg.options.ernd),
            th.lfsr,
        );
        o.pmu_sample_pop = decision.pop;
        let selected = match follow {
            None => decision.selected,
            Some(f) => (0..width)
                .find(|&i| f.tag >> i & 1 == 1 && sampler::slot_thread(inp, i, threads) == t),
        };
        let mut tagged = None;
        if let Some(slot) = selected {
            // One sample in flight: a selection outside Idle is a collision. choice: in-flight
            if th.phase == Phase::Idle {
                out.tag |= 1 << slot;
                tagged = Some(Sample::tag(&th.regs, inp, t, slot, &self.cfg));
            } else {
                o.pmu_sample_collision = true;
            }
        }
        th.regs.set_count(decision.next_count);
        if self.cfg.options.ernd {
            th.regs.set_ecount(decision.next_ecount);
        }
        if let Some(f) = follow {
            o.pmu_sample_collision = f.collision[t];
        }
        if o.pmu_sample_collision {
            th.regs.set_collision();
        }

        // The sample in flight.
        let writes = |regs: &Regs| regs.profiling_enabled() && !regs.discard();
        let phase = std::mem::replace(&mut th.phase, Phase::Idle);
        th.phase = match phase {
            Phase::Idle => {
                o.hook_stray = x.any_hook();
                match tagged {
                    Some(s) => Phase::Tracking(Box::new(s)),
                    None => Phase::Idle,
                }
            }
            Phase::Tracking(mut s) => {
                let (done, stray) = s.track_cycle(x, active, counter_max, &self.cfg.options);
                o.hook_stray = stray;
                // No completion 2^k cycles after the tag: dropped. choice: completion-timeout
                s.age += 1;
                if x.psb_req {
                    Phase::Idle
                } else if done {
                    Phase::Filter(s)
                } else if s.age >= timeout {
                    o.sample_timeout = true;
                    Phase::Idle
                } else {
                    Phase::Tracking(s)
                }
            }
            Phase::Filter(s) => {
                o.hook_stray = x.any_hook();
                o.pmu_sample_feed = true;
                if self.cfg.options.feed_events {
                    let f = filter::feed_events(&th.regs, &s);
                    o.pmu_sample_feed_br = f.br;
                    o.pmu_sample_feed_ld = f.ld;
                    o.pmu_sample_feed_st = f.st;
                    o.pmu_sample_feed_op = f.op;
                    o.pmu_sample_feed_event = f.event;
                    o.pmu_sample_feed_lat = f.lat;
                    if self.cfg.options.eft {
                        o.pmu_sample_feed_fp = f.fp;
                        o.pmu_sample_feed_simd = f.simd;
                    }
                    if self.cfg.options.fds {
                        o.pmu_sample_feed_ds = f.ds;
                    }
                }
                let keep = filter::apply(&th.regs, &s).is_ok();
                o.pmu_sample_filtrate = keep;
                if keep && writes(&th.regs) {
                    Phase::Waiting(Box::new(record::encode(&s, &self.cfg)))
                } else {
                    Phase::Idle
                }
            }
            Phase::Waiting(r) => {
                o.hook_stray = x.any_hook();
                if writes(&th.regs) {
                    Phase::Waiting(r)
                } else {
                    Phase::Idle
                }
            }
            Phase::Check(w) => {
                o.hook_stray = x.any_hook();
                // Stopped (PMBSR.S) before its first beat: dropped, no event.
                // choice: stopped-write
                if w.stops(&th.regs) {
                    w.stop(&mut th.regs);
                    Phase::Idle
                } else {
                    match (*w).check(&mut th.regs) {
                        Some(w) => Phase::Writing(Box::new(w)),
                        // No room: the buffer-full event was raised.
                        None => {
                            o.pmu_sample_buffer_full = self.cfg.options.feed_events;
                            Phase::Idle
                        }
                    }
                }
            }
            // Stopped (PMBSR.S) between beats: no new beat. choice: stopped-write
            Phase::Writing(w) if w.stops(&th.regs) => {
                o.hook_stray = x.any_hook();
                w.stop(&mut th.regs);
                Phase::Idle
            }
            Phase::Writing(w) => {
                o.hook_stray = x.any_hook();
                out.wr_valid = true;
                out.wr_tid = t as u8;
                out.wr_addr = w.addr();
                out.wr_data = w.data();
                out.wr_strb = Write::STRB;
                out.wr_addr_space = w.space;
                out.wr_mem_attr = u32::from(w.mem_attr);
                // choice: external-abort
                // With SPEv1p3's PMBIDR.EA = 1 the PE ignores an external abort on a buffer
                // write (kind external, or the reserved kind counted as one): the beat is
                // written. A stage 1 or 2 fault stops the record as always.
                let err = (inp.wr_err && !pmbsr::is_ignored(&self.cfg, inp.wr_err_kind))
                    .then_some((inp.wr_err_kind, inp.wr_err_fsc));
                let (more, full) = (*w).cycle(&mut th.regs, inp.wr_ready, err);
                o.pmu_sample_buffer_full = full && self.cfg.options.feed_events;
                match more {
                    Some(w) => Phase::Writing(Box::new(w)),
                    None => Phase::Idle,
                }
            }
        };
    }
}

/// [`Regime::el1_owner_under_el2`] of the thread's inputs.
fn own_el1(x: &spe_ports::ThreadInputs) -> bool {
    crate::regime::Regime::of(x).el1_owner_under_el2()
}

impl Dut for Model {
    fn step(&mut self, inputs: &Inputs) -> Outputs {
        Model::step(self, inputs)
    }
}
