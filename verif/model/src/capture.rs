//! Capture / op tag and latency counters: holds the one sampled op from its tag cycle to its
//! completion, merges the hook reports into it, and counts its latencies.
//!
//! Acceptance rules (documented in `spe_defs::impdef::CHOICES`):
//! * reports are accepted from the cycle after the tag until (and including) completion;
//! * each hook is accepted once; translation and memory reports only for load/store ops,
//!   branch reports only for branches; a translation-done needs an earlier or same-cycle
//!   start; anything else is ignored and reported as stray.
//!
//! Latencies (saturating at the counter width):
//! * total = cycles from the tag cycle to the completion cycle;
//! * issue = cycles from the tag cycle to the issue report, or total if it never issued;
//! * translation = cycles from the start report to the done report.

use crate::regime::{Counter, Regime};
use crate::regs::Regs;
use spe_defs::events as ev;
use spe_defs::packet::{addr_payload, op_class, subclass};
use spe_defs::regs::RegId;
use spe_defs::{Config, Options};
use spe_ports::{Inputs, ThreadInputs};

/// Which collections were enabled for the sample, decided in its tag cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Collect {
    pub context_el1: bool,
    pub context_el2: bool,
    pub phys_addr: bool,
    pub timestamp: bool,
    /// Profiling is enabled at EL2 (J1 `StatisticalProfilingEnabled(EL2)`: EL2 owns the
    /// buffer and PMSCR_EL2.E2SPE is set): an NV2 access's data VA may be recorded.
    pub nv2_va: bool,
}

/// The sampled op and everything reported about it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sample {
    // Captured in the tag cycle.
    pub pc: u64,
    pub class: u8,
    pub subclass: u8,
    pub cond: bool,
    pub el: u8,
    pub ns: bool,
    pub collect: Collect,
    pub ctx_el1: u32,
    pub ctx_el2: u32,
    pub timestamp: u64,
    /// Tracking cycles so far (the completion timeout's count).
    pub age: u64,
    // Latency counters.
    pub lat_total: u64,
    pub lat_issue: u64,
    pub lat_xlat: u64,
    pub issued: bool,
    // Translation hook.
    pub xl_started: bool,
    pub xl_done: bool,
    pub va: u64,
    pub pa: u64,
    /// The access's physical address space (the translation report's NS; D18.2.1).
    pub pa_ns: bool,
    pub tlb_access: bool,
    pub tlb_walk: bool,
    // Memory hook.
    pub mem_done: bool,
    pub data_source: u8,
    pub mem_events: u64,
    // Branch hook.
    pub br_done: bool,
    pub target: u64,
    /// The EL and Security state at the target (D18.2.1: an exception return's differ
    /// from the branch's), from the branch report.
    pub target_el: u8,
    pub target_ns: bool,
    pub taken: bool,
    pub mispred: bool,
    pub indirect: bool,
    /// FEAT_SPE_PBT: the previous-branch-target Address packet's payload, when the record
    /// has one (a taken branch whose report came with a valid previous-branch target).
    pub prev_branch: Option<u64>,
    /// J1 `SPEOpAttr.is_floating_point` and `is_simd` from the op's class and the payload
    /// the core reported (before the record clears bits it does not keep), and whether the
    /// op is a SIMD&FP load or store, whose kind is its access's (`fp_scalar`, from the
    /// memory report: FEAT_SPE_EFT's `mem_fp_scalar`).
    pub fp: bool,
    pub simd: bool,
    pub simd_fp_ldst: bool,
    pub fp_scalar: bool,
    // Completion hook.
    pub retired: bool,
    pub exception: bool,
    pub cond_fail: bool,
    /// FEAT_SPEv1p1's SVE events (E[17], E[18]) from the completion report, in a unit
    /// that builds them (`Options::sve_events`).
    pub pred_events: u64,
    /// FEAT_SPEv1p4's events (E[19]..E[23]) from the memory report, in a unit that builds
    /// them (`Options::v1p4_events`); the record has them for a load only.
    pub load_events: u64,
    /// FEAT_SPE_SME's events (E[24] Streaming SVE mode, E[25] SME compute unit) from the
    /// completion report, in a unit that builds them (`Options::sme`).
    pub sme_events: u64,
}

impl Sample {
    /// Captures the op in slot `slot`, thread `t`'s (`regs` its registers), in its tag cycle.
    /// choice: timestamp-context
    /// `cfg`: the unit's options (FEAT_SPE_CRR and FEAT_SPE_FPF keep payload bits).
    pub fn tag(regs: &Regs, inp: &Inputs, t: usize, slot: usize, cfg: &Config) -> Sample {
        let s = &inp.disp[slot];
        let x = &inp.thr[t];
        let el1 = regs.get(RegId::PmscrEl1);
        let el2 = regs.get(RegId::PmscrEl2);
        let el = x.disp_el & 3;
        // By the buffer's owner, not the sample's EL (J1 Collect*).
        let r = Regime::of(x);
        let collect = Collect {
            context_el1: r.context_el1(el, el1),
            context_el2: r.context_el2(el2),
            phys_addr: r.phys_addr(el1, el2),
            timestamp: r.timestamp(el1, el2),
            nv2_va: r.owner_el2 && regs.el_enabled(2, r.tge),
        };
        let physical = r.counter(el, el1, el2) == Counter::Physical;
        // Class 3 is reserved: recorded as Other with payload 0 (choice: op-class-3).
        // Payload bits of features the unit does not build (FPF's ASE/FP, CRR's CR, GCS)
        // are cleared; with CRR a branch keeps its CR (00 as "other", J1 SPEConstructClass)
        // and GCS only for a call or a return. choice: crr
        // Encodings reserved without FEAT_SPE_SME (an SME array op, EVL 0b111) are recorded
        // as Other with payload 0, and as EVL 0b110; a unit with it records them as
        // reported. choice: sme-reserved
        let (class, subclass) = if s.class & 3 == op_class::RESERVED {
            (op_class::OTHER, 0)
        } else {
            (
                s.class & 3,
                subclass::recorded_payload(s.class & 3, s.subclass, cfg),
            )
        };
        // FEAT_SPE_EFT's type flags, from what the core reported (the reserved class is
        // neither FP nor SIMD; SVE data processing and SVE/SME loads/stores are SIMD, as
        // D17.5.1 says). choice: eft-simd
        let attr = subclass::fp_simd(s.class & 3, s.subclass, cfg.options.sme);
        let (fp, simd) = attr.unwrap_or_default();
        Sample {
            pc: s.pc,
            class,
            subclass,
            cond: s.cond,
            el,
            ns: x.disp_ns,
            collect,
            ctx_el1: x.ctx_el1,
            ctx_el2: x.ctx_el2,
            timestamp: if physical { inp.cnt_phys } else { x.cnt_virt },
            fp,
            simd,
            simd_fp_ldst: attr.is_none(),
            ..Sample::default()
        }
    }

    pub fn is_load_store(&self) -> bool {
        self.class == op_class::LD_ST_ATOMIC
    }
    pub fn is_branch(&self) -> bool {
        self.class == op_class::BRANCH
    }
    /// The op makes a data access the core reports (translation, memory): a load/store, or
    /// a call or return that pushes or pops the Guarded Control Stack (recorded with GCS
    /// only with FEAT_SPE_CRR). D17.6.3: "The information for both the branch and the load
    /// or store is collected". choice: crr
    pub fn has_data_access(&self) -> bool {
        self.is_load_store() || (self.is_branch() && (self.is_load() || self.is_store()))
    }
    /// Loads, including the atomics that return a value (ST clear); a no-return atomic
    /// (STADD) is not one (D17.5.1, PMSFCR_EL1.LD). A procedure return that pops the
    /// Guarded Control Stack is one too (D17.6.3: "treated as both a branch and a load or
    /// store for the purposes of filtering"; J1 `SPEFilterByType`), for the type filter and
    /// SAMPLE_FEED_LD; its data source (of its GCS access) is never one a load's filters
    /// read (J1 `SPEFilterByDataSource` tests the op type, which stays Branch).
    pub fn is_load(&self) -> bool {
        (self.is_load_store() && subclass::ldst_is_load(self.subclass))
            || (self.is_branch() && subclass::br_gcs_is_load(self.subclass))
    }
    /// Stores, and every atomic (it writes memory); a branch with link that pushes the
    /// Guarded Control Stack (as [`Sample::is_load`] says of a return).
    pub fn is_store(&self) -> bool {
        (self.is_load_store() && subclass::ldst_writes(self.subclass))
            || (self.is_branch() && subclass::br_gcs_is_store(self.subclass))
    }
    /// A floating-point op for the type filter (J1 `is_floating_point`): an FP op of class
    /// Other, SVE or SME, or a scalar SIMD&FP load or store.
    pub fn is_fp(&self) -> bool {
        self.fp || (self.simd_fp_ldst && self.fp_scalar)
    }
    /// A SIMD op for the type filter (J1 `is_simd`): a SIMD op of class Other, an SME array
    /// op, or a SIMD&FP load or store that is not scalar (also when no memory report came).
    pub fn is_simd(&self) -> bool {
        self.simd || (self.simd_fp_ldst && !self.fp_scalar)
    }
    /// J1 `SPEFilterByType`'s flags: B, LD, ST, FP, SIMD from bit 0 (PMSFCR.TYPE's order).
    pub fn type_flags(&self) -> u8 {
        [
            self.is_branch(),
            self.is_load(),
            self.is_store(),
            self.is_fp(),
            self.is_simd(),
        ]
        .iter()
        .enumerate()
        .fold(0, |f, (i, &on)| f | (u8::from(on) << i))
    }

    /// One tracking cycle with the thread's hook reports `inp`: counts latencies (only when
    /// the thread was `active`: it could issue this cycle) and merges the reports.
    /// Returns `(completed, stray)`.
    /// choice: latency-counters, choice: hook-reports
    /// `opts`: the unit's options (without FEAT_SPE_PBT `pbt_*` are ignored, without
    /// FEAT_SPE_EFT `mem_fp_scalar`, without the SVE events `cpl_pred_*`, without the
    /// SPEv1p4 events their `mem_*` inputs).
    pub fn track_cycle(
        &mut self,
        inp: &ThreadInputs,
        active: bool,
        counter_max: u64,
        opts: &Options,
    ) -> (bool, bool) {
        let sat = |v: u64| if active { (v + 1).min(counter_max) } else { v };
        let mut stray = false;
        self.lat_total = sat(self.lat_total);
        if !self.issued {
            self.lat_issue = sat(self.lat_issue);
        }
        // The translation counter runs from the start cycle (exclusive).
        if self.xl_started && !self.xl_done {
            self.lat_xlat = sat(self.lat_xlat);
        }
        if inp.iss_valid {
            if self.issued {
                stray = true;
            } else {
                self.issued = true;
            }
        }
        if inp.xl.start {
            if self.has_data_access() && !self.xl_started {
                self.xl_started = true;
                self.va = inp.xl.va;
                self.lat_xlat = 0;
            } else {
                stray = true;
            }
        }
        if inp.xl.done {
            if self.has_data_access() && self.xl_started && !self.xl_done {
                self.xl_done = true;
                self.pa = inp.xl.pa & spe_defs::low_mask(spe_defs::packet::addr_payload::ADDR_BITS);
                self.pa_ns = inp.xl.pa_ns;
                self.tlb_access = inp.xl.tlb_access;
                self.tlb_walk = inp.xl.tlb_walk;
            } else {
                stray = true;
            }
        }
        if inp.mem.done {
            if self.has_data_access() && !self.mem_done {
                self.mem_done = true;
                self.data_source = inp.mem.source;
                self.fp_scalar = opts.eft && inp.mem_fp_scalar;
                let on = |b: bool, bit: u32| if b { ev::bit(bit) } else { 0 };
                self.mem_events = on(inp.mem.l1d_access, ev::L1D_ACCESS)
                    | on(inp.mem.l1d_refill, ev::L1D_REFILL)
                    | on(inp.mem.llc_access, ev::LLC_ACCESS)
                    | on(inp.mem.llc_miss, ev::LLC_MISS)
                    | on(inp.mem.remote, ev::REMOTE_ACCESS)
                    | on(inp.mem.misaligned, ev::ALIGNMENT);
                self.load_events = if opts.v1p4_events {
                    on(inp.mem_l2d_access, ev::L2D_ACCESS)
                        | on(inp.mem_l2d_miss, ev::L2D_MISS)
                        | on(inp.mem_hitm, ev::CACHE_DATA_MODIFIED)
                        | on(inp.mem_lfb, ev::RECENTLY_FETCHED)
                        | on(inp.mem_snooped, ev::DATA_SNOOPED)
                } else {
                    0
                };
            } else {
                stray = true;
            }
        }
        if inp.br.done {
            if self.is_branch() && !self.br_done {
                self.br_done = true;
                self.target = inp.br.target;
                self.target_el = inp.br.target_el & 3;
                self.target_ns = inp.br.target_ns;
                self.taken = inp.br.taken;
                self.mispred = inp.br.mispred;
                self.indirect = inp.br.indirect;
                // J1 SPEBranch: a taken branch, while profiling is enabled (it was sampled),
                // puts the PE's previous-branch-target register, if valid, in its sample;
                // SPEConstructRecord keeps it for branches only. The core keeps the register
                // and reports it with the branch; this unit has no Realm state, so the
                // payload is rebuilt from its NS, EL and VA (NSE and bits 59:56 zero).
                // choice: prev-branch
                self.prev_branch = (opts.pbt && inp.br.taken && inp.pbt_valid).then(|| {
                    let r = inp.pbt_target;
                    addr_payload::instruction(r, ((r >> 61) & 3) as u8, r >> 63 != 0)
                });
            } else {
                stray = true;
            }
        }
        if inp.cpl.done {
            self.retired = inp.cpl.retired;
            self.exception = inp.cpl.exception;
            self.cond_fail = inp.cpl.cond_fail;
            // An empty predicate is also not full (E[18] implies E[17]).
            let on = |b: bool, bit: u32| if b { ev::bit(bit) } else { 0 };
            self.pred_events = if opts.sve_events {
                on(
                    inp.cpl_pred_not_full || inp.cpl_pred_empty,
                    ev::PARTIAL_PREDICATE,
                ) | on(inp.cpl_pred_empty, ev::EMPTY_PREDICATE)
            } else {
                0
            };
            // J1 SPECompleteSample: E[24] = PSTATE.SM; SPESampleOnSharedResource: E[25].
            self.sme_events = if opts.sme {
                on(inp.cpl_streaming, ev::STREAMING_SVE) | on(inp.cpl_smcu, ev::SMCU)
            } else {
                0
            };
        }
        (inp.cpl.done, stray)
    }

    /// The Events packet payload of the completed sample.
    pub fn events(&self) -> u64 {
        let on = |b: bool, bit: u32| if b { ev::bit(bit) } else { 0 };
        let not_taken = self.cond && ((self.br_done && !self.taken) || self.cond_fail);
        on(self.exception, ev::EXCEPTION_GEN)
            | on(self.retired, ev::RETIRED)
            | on(self.xl_done && self.tlb_access, ev::TLB_ACCESS)
            | on(self.xl_done && self.tlb_walk, ev::TLB_WALK)
            | on(not_taken, ev::NOT_TAKEN)
            | on(self.br_done && self.mispred, ev::MISPRED)
            | self.mem_events
            | self.pred_events
            | self.sme_events
            | if self.is_load() { self.load_events } else { 0 }
    }

    /// The Operation Type payload: the dispatch subclass, with the branch hook's indirect
    /// flag ORed into the IND bit of a branch.
    pub fn op_payload(&self) -> u8 {
        if self.is_branch() && self.br_done && self.indirect {
            self.subclass | subclass::BR_IND
        } else {
            self.subclass
        }
    }
}
