//! The whole unit (`spe_top`), one clock cycle per [`Model::step`].
//!
//! Phases of the one sample in flight:
//! `Idle` → (tag) → `Tracking` → (completion report) → `Filter` (one cycle: SAMPLE_FEED,
//! SAMPLE_FILTRATE, keep/drop, PMBPTR and the limit taken) → `Check` (one cycle: buffer-full
//! with DL if the record has no room, else) → `Writing` (eight beats) → `Idle`.
//! A new op can be tagged only in `Idle`; a selection in any other phase is a collision.
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
use crate::record;
use crate::regs::Regs;
use crate::sampler::{self, LFSR_RESET};
use crate::writer::{self, Write};
use spe_defs::impdef;
use spe_defs::regs::pmbsr;
use spe_defs::regs::RegId;
use spe_defs::Config;
use spe_ports::{Dut, Inputs, Outputs};

/// Where the sample in flight is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    Idle,
    Tracking(Box<Sample>),
    Filter(Box<Sample>),
    /// The cycle after the filter cycle: the room check (`writer::Write::check`).
    Check(Box<Write>),
    Writing(Box<Write>),
}

/// The golden model of the unit.
#[derive(Clone, Debug)]
pub struct Model {
    cfg: Config,
    regs: Regs,
    lfsr: u16,
    phase: Phase,
}

impl Model {
    /// A unit in its reset state. Panics on an invalid configuration (a build-time error).
    pub fn new(cfg: &Config) -> Model {
        if let Err(e) = cfg.validate() {
            panic!("invalid SPE configuration: {e}");
        }
        assert_eq!(
            cfg.threads, 1,
            "preset {}: the model serves one hardware thread (docs/smt.md, step 3)",
            cfg.name
        );
        Model {
            cfg: *cfg,
            regs: Regs::new(cfg),
            lfsr: LFSR_RESET,
            phase: Phase::Idle,
        }
    }

    pub fn config(&self) -> &Config {
        &self.cfg
    }
    /// The register file (for inspection in tests and tools).
    pub fn regs(&self) -> &Regs {
        &self.regs
    }
    /// The phase of the sample in flight.
    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    fn reset(&mut self) {
        *self = Model::new(&self.cfg);
    }

    /// One clock cycle: outputs during the cycle, then the rising edge.
    pub fn step(&mut self, inp: &Inputs) -> Outputs {
        let mut out = Outputs {
            reg_rdata: self.regs.read(inp.reg_addr),
            ..Outputs::default()
        };
        out.thr[0].irq = pmbsr::S.is_set(self.regs.get(RegId::Pmbsr));
        if inp.reset {
            self.reset();
            return out;
        }
        let width = self.cfg.dispatch_width;
        // choice: psb-csync
        out.thr[0].psb_done =
            inp.thr[0].psb_req && matches!(self.phase, Phase::Idle | Phase::Tracking(_));

        // Sampler: population count, interval counter, selection.
        let decision = sampler::count_group(&self.regs, inp, width, self.lfsr);
        out.thr[0].pmu_sample_pop = decision.pop;
        let mut tagged = None;
        if let Some(slot) = decision.selected {
            // One sample in flight: a selection outside Idle is a collision. choice: in-flight
            if self.phase == Phase::Idle {
                out.tag = 1 << slot;
                tagged = Some(Sample::tag(&self.regs, inp, slot));
            } else {
                out.thr[0].pmu_sample_collision = true;
            }
        }
        self.regs.set_count(decision.next_count);
        if out.thr[0].pmu_sample_collision {
            self.regs.set_collision();
        }

        // The sample in flight.
        let counter_max = self.cfg.counter_width.max();
        let phase = std::mem::replace(&mut self.phase, Phase::Idle);
        self.phase = match phase {
            Phase::Idle => {
                out.thr[0].hook_stray = inp.any_hook();
                match tagged {
                    Some(s) => Phase::Tracking(Box::new(s)),
                    None => Phase::Idle,
                }
            }
            Phase::Tracking(mut s) => {
                let (done, stray) = s.track_cycle(inp, counter_max);
                out.thr[0].hook_stray = stray;
                // No completion 2^k cycles after the tag: dropped. choice: completion-timeout
                s.age += 1;
                let timed_out = s.age >= 1u64 << self.cfg.cpl_timeout_log2;
                if inp.thr[0].psb_req {
                    Phase::Idle
                } else if done {
                    Phase::Filter(s)
                } else if timed_out {
                    out.thr[0].sample_timeout = true;
                    Phase::Idle
                } else {
                    Phase::Tracking(s)
                }
            }
            Phase::Filter(s) => {
                out.thr[0].hook_stray = inp.any_hook();
                out.thr[0].pmu_sample_feed = true;
                let keep = filter::apply(&self.regs, &s).is_ok();
                out.thr[0].pmu_sample_filtrate = keep;
                if keep && self.regs.profiling_enabled() && !self.regs.discard() {
                    Phase::Check(Box::new(writer::take(&self.regs, record::encode(&s))))
                } else {
                    Phase::Idle
                }
            }
            Phase::Check(w) => {
                out.thr[0].hook_stray = inp.any_hook();
                match (*w).check(&mut self.regs) {
                    Some(w) => Phase::Writing(Box::new(w)),
                    None => Phase::Idle,
                }
            }
            Phase::Writing(w) => {
                out.thr[0].hook_stray = inp.any_hook();
                out.wr_valid = true;
                out.wr_addr = w.addr();
                out.wr_data = w.data();
                out.wr_strb = Write::STRB;
                let err = inp.wr_err.then_some((inp.wr_err_kind, inp.wr_err_fsc));
                match (*w).cycle(&mut self.regs, inp.wr_ready, err) {
                    Some(w) => Phase::Writing(Box::new(w)),
                    None => Phase::Idle,
                }
            }
        };

        // Edge: the jitter source steps; a register-port write lands last.
        // choice: jitter
        self.lfsr = impdef::lfsr_step(self.lfsr);
        if inp.reg_en && inp.reg_we {
            self.regs.write(inp.reg_addr, inp.reg_wdata);
        }
        out
    }
}

impl Dut for Model {
    fn step(&mut self, inputs: &Inputs) -> Outputs {
        Model::step(self, inputs)
    }
}
