//! The front end of the core model for code programs: walks the basic blocks and decides
//! every dynamic outcome (loop trip counts, branch directions and predictions, data
//! addresses through the memory system, exceptions, kernel stretches, AArch32 and
//! profiling-disallowed stretches, context switches).
//!
//! After a mispredicted branch or an exception the core tells the walker when the flush
//! happens ([`Walker::redirect`]); until then the walker produces wrong-path ops (the
//! direction the predictor chose, flagged `wrong_path`), exactly as a speculative core
//! dispatches them. After an exception's flush it enters the kernel handler.

use crate::core_params::CoreParams;
use crate::memsys::{MemSysParams, MemSystem};
use crate::program::{CodeProgram, Exit, MemPattern, INSN_BYTES};
use crate::rng::Rng;
use crate::uop::{BranchOutcome, MemAccess, MicroOp, Mode};
use spe_defs::packet::{op_class, subclass};

/// Deepest call stack kept (the return-address stack of a real core is smaller).
const MAX_STACK: usize = 64;
/// Probability that an ERET is mispredicted (perf makes branch samples of mispredicted
/// branches only, so these show an ERET's target in `perf script --itrace=b`).
const ERET_MISPRED_RATE: f64 = 0.25;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pos {
    block: usize,
    idx: usize,
}

#[derive(Clone, Copy, Debug)]
struct KernelVisit {
    /// Ops left before heading for the exit block.
    budget: u32,
    /// Where user code resumes after the ERET.
    ret: Pos,
}

#[derive(Clone, Copy, Debug)]
struct WrongPath {
    pos: Pos,
    /// Flush cycle: wrong-path ops are produced only before it.
    until: u64,
}

pub(crate) struct Walker {
    prog: CodeProgram,
    params: CoreParams,
    rng: Rng,
    mem: MemSystem,
    /// Index of each block's first op in `iter`.
    op_base: Vec<usize>,
    /// Executions of each static op (drives streaming addresses).
    iter: Vec<u64>,
    loop_count: Vec<u32>,
    /// 2-bit bimodal predictor per block-ending branch (>= 2 predicts taken).
    bimodal: Vec<u8>,
    /// Last target of each indirect branch (the indirect predictor).
    last_target: Vec<usize>,
    user_stack: Vec<usize>,
    kernel_stack: Vec<usize>,
    pos: Pos,
    kernel: Option<KernelVisit>,
    wrong: Option<WrongPath>,
    /// Where a wrong path starts if the op just produced redirects.
    wrong_start: Option<Pos>,
    /// After the pending flush, enter the kernel and return to this position.
    enter_kernel_after_flush: Option<Pos>,
    a32_left: u32,
    noprof_left: u32,
    /// Ops left in a guest stretch under a VHE host (`CoreParams::guest_rate`).
    guest_left: u32,
    /// Kernel ops left in a call into EL3 firmware (`CoreParams::el3_rate`).
    el3_left: u32,
    /// The EL of the last op produced on the correct path.
    last_el: u8,
}

impl Walker {
    pub(crate) fn new(prog: CodeProgram, params: CoreParams, rng: Rng) -> Walker {
        let mut op_base = Vec::with_capacity(prog.blocks.len());
        let mut n = 0;
        for b in &prog.blocks {
            op_base.push(n);
            n += b.ops.len();
        }
        let last_target = prog
            .blocks
            .iter()
            .map(|b| match &b.exit {
                Exit::Indirect(t) => t[0],
                _ => 0,
            })
            .collect();
        let mem = MemSystem::new(MemSysParams {
            remote_fraction: params.remote_fraction,
            peer_rate: params.peer_rate,
            dram_base: params.dram_base,
            slow_walk_rate: params.slow_walk_rate,
        });
        let nb = prog.blocks.len();
        let pos = Pos {
            block: prog.user_entry,
            idx: 0,
        };
        Walker {
            prog,
            params,
            rng,
            mem,
            op_base,
            iter: vec![0; n],
            loop_count: vec![0; nb],
            bimodal: vec![2; nb],
            last_target,
            user_stack: Vec::new(),
            kernel_stack: Vec::new(),
            pos,
            kernel: None,
            wrong: None,
            wrong_start: None,
            enter_kernel_after_flush: None,
            a32_left: 0,
            noprof_left: 0,
            guest_left: 0,
            el3_left: 0,
            last_el: 0,
        }
    }

    /// The core computed the flush cycle of the op just produced (it redirects): produce
    /// wrong-path ops until then.
    pub(crate) fn redirect(&mut self, flush_at: u64) {
        let pos = self.wrong_start.take().unwrap_or(self.pos);
        self.wrong = Some(WrongPath {
            pos,
            until: flush_at,
        });
    }

    /// The next op to dispatch at cycle `now`.
    pub(crate) fn next(&mut self, now: u64) -> MicroOp {
        if let Some(w) = self.wrong {
            if now < w.until {
                return self.wrong_op();
            }
            self.wrong = None;
        }
        self.wrong_start = None;
        if let Some(ret) = self.enter_kernel_after_flush.take() {
            self.enter_kernel(ret);
        }
        let p = self.params;
        if self.kernel.is_none() && self.prog.kernel.is_some() && self.rng.chance(p.kernel_rate) {
            // An interrupt or system call at an op boundary.
            self.enter_kernel(self.pos);
        }
        if self.kernel.is_none() && self.a32_left == 0 && self.rng.chance(p.aarch32_rate) {
            self.a32_left = self.rng.range32(p.aarch32_len);
        }
        if self.noprof_left == 0 && self.rng.chance(p.noprof_rate) {
            self.noprof_left = self.rng.range32(p.noprof_len);
        }
        // (No draw without guests, so that the other draws stay as they were.)
        if p.vhe_host && p.guest_rate > 0.0 && self.guest_left == 0 && self.rng.chance(p.guest_rate)
        {
            self.guest_left = self.rng.range32(p.guest_len);
        }
        // A call into EL3 firmware (an SMC) from kernel code that has run (no draw without
        // it, as for guests).
        if p.el3_rate > 0.0
            && self.el3_left == 0
            && matches!(self.last_el, 1 | 2)
            && self.in_kernel_body()
            && self.rng.chance(p.el3_rate)
        {
            self.el3_left = self.rng.range32(p.el3_len);
        }
        if let (Some(k), Some(entry)) = (self.kernel.as_mut(), self.prog.kernel) {
            if k.budget == 0 && self.pos.idx == 0 && self.pos.block != entry.exit {
                self.pos = Pos {
                    block: entry.exit,
                    idx: 0,
                };
                // A call into EL3 returns before the kernel's own return.
                self.el3_left = 0;
            }
            k.budget = k.budget.saturating_sub(1);
        }
        // Nor does one span the kernel's return (its exit block) or user code.
        if self.el3_left > 0 && !self.in_kernel_body() {
            self.el3_left = 0;
        }
        let mode = self.mode();
        self.last_el = mode.el;
        if self.kernel.is_none() {
            self.a32_left = self.a32_left.saturating_sub(1);
        }
        self.noprof_left = self.noprof_left.saturating_sub(1);
        self.guest_left = self.guest_left.saturating_sub(1);
        if mode.el == 3 {
            self.el3_left -= 1;
        }

        let Pos { block: b, idx: i } = self.pos;
        let sop = self.prog.blocks[b].ops[i];
        let mut op = MicroOp::new(self.pc(self.pos), sop.class, sop.subclass, mode);
        op.issue_lat = self.issue_lat();
        if let Some(m) = sop.mem {
            op.mem = Some(self.data_access(b, i, m, true));
        }
        let is_last = i + 1 == self.prog.blocks[b].ops.len();
        if is_last && !matches!(self.prog.blocks[b].exit, Exit::Fall(_)) {
            self.resolve_branch(b, &mut op);
        } else {
            self.pos = self.seq_next(self.pos);
        }
        let can_fault = matches!(op.class, op_class::OTHER | op_class::LD_ST_ATOMIC);
        if can_fault
            && self.kernel.is_none()
            && self.prog.kernel.is_some()
            && self.rng.chance(self.params.exception_rate)
        {
            op.exception = true;
            // Younger ops are a wrong path until the exception is taken; a faulting
            // load/store is retried after the handler, an SVC-like op is not.
            self.wrong_start = Some(self.pos);
            let resume = if op.class == op_class::LD_ST_ATOMIC {
                Pos { block: b, idx: i }
            } else {
                self.pos
            };
            self.enter_kernel_after_flush = Some(resume);
        }
        if op.class == op_class::OTHER && op.cond && self.rng.chance(self.params.cond_fail_rate) {
            op.cond_fail = true;
        }
        op
    }

    /// The next op is kernel code before the kernel's exit block (where a call into EL3
    /// may come and go).
    fn in_kernel_body(&self) -> bool {
        (self.kernel.is_some() || self.prog.blocks[self.pos.block].kernel)
            && !matches!(self.prog.kernel, Some(e) if self.pos.block == e.exit)
    }

    fn pc(&self, p: Pos) -> u64 {
        self.prog.blocks[p.block].base + p.idx as u64 * INSN_BYTES
    }

    fn mode(&self) -> Mode {
        self.mode_at(self.pos)
    }

    /// The mode of an op at `at`: kernel code (or a kernel visit) runs at EL1 (EL2 in a
    /// VHE host, but for a guest's stretch there: EL1 with HCR_EL2.TGE = 0, E2H = 1; at
    /// EL3 in Secure state during a call into firmware). A wrong path after a mispredicted
    /// ERET is kernel code at EL1.
    fn mode_at(&self, at: Pos) -> Mode {
        let p = &self.params;
        let kernel = self.kernel.is_some() || self.prog.blocks[at.block].kernel;
        if kernel && self.el3_left > 0 {
            return Mode {
                ns: false,
                prof_allowed: self.noprof_left == 0,
                ..p.mode(3)
            };
        }
        let guest = p.vhe_host && self.guest_left > 0;
        let el = if !kernel {
            0
        } else if p.vhe_host && !guest {
            2
        } else {
            1
        };
        let m = p.mode(el);
        Mode {
            aarch32: !kernel && self.a32_left > 0,
            prof_allowed: self.noprof_left == 0,
            tge: m.tge && !guest,
            ..m
        }
    }

    fn issue_lat(&mut self) -> u32 {
        let p = &self.params;
        let mut lat = self.rng.range32(p.issue_lat);
        if self.rng.chance(p.long_issue_rate) {
            lat += self.rng.range32(p.long_issue_lat);
        }
        lat.max(1)
    }

    /// Address of one execution of a load/store, then its trip through TLBs and caches.
    /// Wrong-path accesses (`advance` false) do not move the stream but do touch the caches.
    fn data_access(&mut self, b: usize, i: usize, m: MemPattern, advance: bool) -> MemAccess {
        let k = self.op_base[b] + i;
        let n = self.iter[k];
        if advance {
            self.iter[k] += 1;
        }
        let mut va = if m.random {
            m.base + self.rng.below(m.span / m.size) * m.size
        } else {
            m.base + n.wrapping_mul(m.stride) % m.span
        };
        if m.size > 1 && self.rng.chance(self.params.misaligned_rate) {
            va += self.rng.range(1, m.size - 1);
        }
        self.mem.access(va, m.size, &mut self.rng)
    }

    /// The next position in program order when no branch is taken.
    fn seq_next(&self, p: Pos) -> Pos {
        let blk = &self.prog.blocks[p.block];
        if p.idx + 1 < blk.ops.len() {
            return Pos {
                block: p.block,
                idx: p.idx + 1,
            };
        }
        match blk.exit {
            Exit::Fall(t) => Pos { block: t, idx: 0 },
            _ => Pos {
                block: self.next_block_same_space(p.block),
                idx: 0,
            },
        }
    }

    /// The next block (wrapping) in the same address space as `b`.
    fn next_block_same_space(&self, b: usize) -> usize {
        let n = self.prog.blocks.len();
        let kernel = self.prog.blocks[b].kernel;
        (1..=n)
            .map(|d| (b + d) % n)
            .find(|&c| self.prog.blocks[c].kernel == kernel)
            .unwrap_or(b)
    }

    fn predict_taken(&self, b: usize) -> bool {
        self.bimodal[b] >= 2
    }

    fn train(&mut self, b: usize, taken: bool) {
        let c = &mut self.bimodal[b];
        *c = if taken {
            (*c + 1).min(3)
        } else {
            c.saturating_sub(1)
        };
    }

    /// Resolves the branch ending block `b` on the correct path: sets the outcome, moves
    /// to the successor and remembers where the wrong path would go.
    fn resolve_branch(&mut self, b: usize, op: &mut MicroOp) {
        let start = |blk: usize| Pos { block: blk, idx: 0 };
        let exit = self.prog.blocks[b].exit.clone();
        let (next, taken, mispred, wrong) = match exit {
            Exit::Fall(t) | Exit::Jump(t) => (start(t), true, false, start(t)),
            Exit::Loop { back, exit, trips } => {
                let taken = self.loop_count[b] + 1 < trips;
                self.loop_count[b] = if taken { self.loop_count[b] + 1 } else { 0 };
                let mispred = self.predict_taken(b) != taken;
                self.train(b, taken);
                if taken {
                    (start(back), true, mispred, start(exit))
                } else {
                    (start(exit), false, mispred, start(back))
                }
            }
            Exit::Cond {
                taken: t,
                not_taken: nt,
                p_taken,
            } => {
                let taken = self.rng.chance(p_taken);
                let mispred = self.predict_taken(b) != taken;
                self.train(b, taken);
                if taken {
                    (start(t), true, mispred, start(nt))
                } else {
                    (start(nt), false, mispred, start(t))
                }
            }
            Exit::Indirect(targets) => {
                let chosen = if self.rng.chance(0.6) {
                    targets[0]
                } else {
                    targets[self.rng.below(targets.len() as u64) as usize]
                };
                let predicted = self.last_target[b];
                self.last_target[b] = chosen;
                (start(chosen), true, chosen != predicted, start(predicted))
            }
            Exit::Call { callee, ret } => {
                let stack = if self.prog.blocks[b].kernel {
                    &mut self.kernel_stack
                } else {
                    &mut self.user_stack
                };
                if stack.len() == MAX_STACK {
                    stack.remove(0);
                }
                stack.push(ret);
                (start(callee), true, false, start(callee))
            }
            Exit::Return => {
                let kernel = self.prog.blocks[b].kernel;
                let stack = if kernel {
                    &mut self.kernel_stack
                } else {
                    &mut self.user_stack
                };
                match stack.pop() {
                    Some(r) => (start(r), true, false, start(r)),
                    None => {
                        // Return-stack underflow: the predictor has no address.
                        let restart = match (kernel, self.prog.kernel) {
                            (true, Some(k)) => k.entry,
                            _ => self.prog.user_entry,
                        };
                        (
                            start(restart),
                            true,
                            true,
                            start(self.next_block_same_space(b)),
                        )
                    }
                }
            }
            Exit::Eret => {
                let ret = self
                    .kernel
                    .take()
                    .map(|k| k.ret)
                    .unwrap_or(start(self.prog.user_entry));
                if self.rng.chance(self.params.ctx_switch_rate) {
                    op.ctx_el1 = Some(
                        self.params
                            .pid_base
                            .wrapping_add(self.rng.below(30_000) as u32),
                    );
                }
                // The return address comes from ELR: now and then the front end has
                // fetched on in the kernel (a mispredicted ERET, a wrong path at EL1).
                let mispred = self.rng.chance(ERET_MISPRED_RATE);
                let wrong = start(self.next_block_same_space(b));
                (ret, true, mispred, wrong)
            }
        };
        self.pos = next;
        // The mode at the target: after an ERET the kernel visit is over and the target is
        // user code (EL0); any other branch stays in its own mode.
        let at_target = self.mode();
        op.branch = Some(BranchOutcome {
            target: self.pc(next),
            taken,
            mispred,
            indirect: op.subclass & subclass::BR_IND != 0,
            target_el: at_target.el,
            target_ns: at_target.ns,
        });
        if mispred {
            self.wrong_start = Some(wrong);
        }
    }

    /// One op of the wrong path: follows the predictor's choices statically, touches the
    /// caches, never redirects itself.
    fn wrong_op(&mut self) -> MicroOp {
        let Some(w) = self.wrong else {
            unreachable!("wrong_op without a wrong path")
        };
        let Pos { block: b, idx: i } = w.pos;
        let sop = self.prog.blocks[b].ops[i];
        let mut op = MicroOp::new(self.pc(w.pos), sop.class, sop.subclass, self.mode_at(w.pos));
        op.wrong_path = true;
        op.issue_lat = self.issue_lat();
        if let Some(m) = sop.mem {
            op.mem = Some(self.data_access(b, i, m, false));
        }
        let is_last = i + 1 == self.prog.blocks[b].ops.len();
        let next = if is_last && !matches!(self.prog.blocks[b].exit, Exit::Fall(_)) {
            let (target, taken) = match &self.prog.blocks[b].exit {
                Exit::Fall(t) | Exit::Jump(t) => (*t, true),
                Exit::Loop { back, exit, .. } => {
                    if self.predict_taken(b) {
                        (*back, true)
                    } else {
                        (*exit, false)
                    }
                }
                Exit::Cond {
                    taken, not_taken, ..
                } => {
                    if self.predict_taken(b) {
                        (*taken, true)
                    } else {
                        (*not_taken, false)
                    }
                }
                Exit::Indirect(_) => (self.last_target[b], true),
                Exit::Call { callee, .. } => (*callee, true),
                Exit::Return | Exit::Eret => (self.next_block_same_space(b), true),
            };
            let next = Pos {
                block: target,
                idx: 0,
            };
            // A wrong-path branch (an ERET too) stays in the same address space.
            op.branch = Some(BranchOutcome {
                target: self.pc(next),
                taken,
                mispred: false,
                indirect: op.subclass & subclass::BR_IND != 0,
                target_el: op.mode.el,
                target_ns: op.mode.ns,
            });
            next
        } else {
            self.seq_next(w.pos)
        };
        if op.class == op_class::OTHER && op.cond && self.rng.chance(self.params.cond_fail_rate) {
            op.cond_fail = true;
        }
        self.wrong = Some(WrongPath {
            pos: next,
            until: w.until,
        });
        op
    }

    fn enter_kernel(&mut self, ret: Pos) {
        if let Some(k) = self.prog.kernel {
            self.kernel = Some(KernelVisit {
                budget: self.rng.range32(self.params.kernel_len),
                ret,
            });
            self.kernel_stack.clear();
            self.pos = Pos {
                block: k.entry,
                idx: 0,
            };
        }
    }
}
