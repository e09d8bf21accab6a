//! `spe_capture`: the op tag. Owns the sample's lifetime ([`SamplePhase`]): holds the one
//! sampled op from its tag to the end of its record, merges the hook reports into it, and
//! derives what the filter and the serializer need (load/store/branch class, Events
//! payload, Operation Type payload).
//!
//! ```text
//!  pick[W] + disp_*[W] --> slot mux --> TaggedOp (PC, type, EL/NS, context, timestamp, collection)
//!  xl / mem / br / cpl reports --> acceptance rules --> Merged reports --> Sample, FilterView
//!                                      `--> hook_stray (comb)
//!  psb_req, phase --> psb_done (comb); Tracking -psb_req-> Idle
//!  phase: Idle -tag-> Tracking -completion-> Filter -wr_start-> Check --> Writing -wr_end-> Idle
//!                                              |                `-wr_end (no room)--------> Idle
//!                                              `-- not written ---------------------------> Idle
//! ```
//!
//! Acceptance rules (`spe_defs::impdef::CHOICES`, "Hook reports"): reports count from the
//! cycle after the tag through the completion cycle; each hook once; translation and memory
//! reports only for a load/store, branch reports only for a branch; translation-done needs
//! an earlier or same-cycle start. Anything else pulses `hook_stray`.
//!
//! Collection decided at the tag (docs/spe-reference.md §5.1; Arm ARM D17.6): CONTEXTIDR_EL1 when
//! PMSCR_EL1.CX and the op is not in the EL2 regime (EL2, or EL0 in the host);
//! CONTEXTIDR_EL2 when PMSCR_EL2.CX; the physical address with PA (at EL1/EL0 both PA bits);
//! a timestamp with the regime's TS; the physical counter when the regime's PCT selects it
//! (at EL1/EL0 both PCT fields). A reserved op class 3 is recorded as Other, payload 0.

use crate::bundles::{
    BranchReport, CollectCtl, CplReport, FilterView, MemReport, Progress, Sample, SamplePhase,
    XlatReport,
};
use crate::flop::Rff;
use crate::ADDR_BITS;
use crate::K;
use rust_hdl::prelude::*;
use spe_defs::packet::{op_class, subclass};
use spe_defs::regs::pmscr;
use spe_defs::Config;

/// The Events packet payload (bit numbers of `spe_defs::events`, checked by a test).
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct Events {
    pub exception_gen: Bit,
    pub retired: Bit,
    pub l1d_access: Bit,
    pub l1d_refill: Bit,
    pub tlb_access: Bit,
    pub tlb_walk: Bit,
    pub not_taken: Bit,
    pub mispred: Bit,
    pub llc_access: Bit,
    pub llc_miss: Bit,
    pub remote_access: Bit,
    pub alignment: Bit,
    pub rsvd: Bits<4>,
}

/// The sampled op's group-wide part as captured in its tag cycle (the slot's own fields
/// are held with the whole group: `g_*` and `g_pick`).
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct TaggedOp {
    /// The group's EL and security state.
    pub el: Bits<2>,
    pub ns: Bit,
    /// Which Context packets, and whether the data PA and a timestamp, are collected:
    /// decided by the op's regime and PMSCR at the tag, not when the record is written.
    pub cx1: Bit,
    pub cx2: Bit,
    pub pa_en: Bit,
    pub ts_en: Bit,
    /// CONTEXTIDR_EL1/EL2 and the counter (virtual or physical) at the tag.
    pub ctx1: Bits<32>,
    pub ctx2: Bits<32>,
    pub ts: Bits<64>,
}

/// The hook reports accepted so far: a flag per report (cleared at the tag) and its data.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct Merged {
    /// Issue report seen.
    pub issued: Bit,
    /// Translation: started (with the data VA), done (with the PA and TLB events).
    pub xl_started: Bit,
    pub va: Bits<64>,
    pub xl_done: Bit,
    pub pa: Bits<ADDR_BITS>,
    pub tlb_access: Bit,
    pub tlb_walk: Bit,
    /// Memory access done, with its data source and cache events.
    pub mem_done: Bit,
    pub source: Bits<8>,
    pub l1d_access: Bit,
    pub l1d_refill: Bit,
    pub llc_access: Bit,
    pub llc_miss: Bit,
    pub remote: Bit,
    pub misaligned: Bit,
    /// Branch resolved, with its target and outcome.
    pub br_done: Bit,
    pub target: Bits<ADDR_BITS>,
    pub taken: Bit,
    pub mispred: Bit,
    pub indirect: Bit,
    /// The completion report's flags (set in the completion cycle).
    pub retired: Bit,
    pub exception: Bit,
    pub cond_fail: Bit,
}

// The per-slot kind bits (`g_kind`) decode class 01 as load/store and 10 as branch.
const _: () = assert!(op_class::LD_ST_ATOMIC == 0b01 && op_class::BRANCH == 0b10);

/// The capture block for dispatch width `W`; `PCB`, `CB`, `SB` are the widths of the
/// per-slot PC (56·W), class (2·W) and subclass (8·W) buses.
#[derive(LogicBlock, Default)]
pub struct SpeCapture<const W: usize, const PCB: usize, const CB: usize, const SB: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    // Tag (sampler): an op is tagged this cycle, and the slot the counter picks (one-hot,
    // before the population enable: ahead of tag_valid), and the dispatch group.
    pub tag_valid: Signal<In, Bit>,
    pub pick: Signal<In, Bits<W>>,
    pub disp_pc: Signal<In, Bits<PCB>>,
    pub disp_class: Signal<In, Bits<CB>>,
    pub disp_subclass: Signal<In, Bits<SB>>,
    pub disp_cond: Signal<In, Bits<W>>,
    pub disp_el: Signal<In, Bits<2>>,
    pub disp_ns: Signal<In, Bit>,
    pub disp_host: Signal<In, Bit>,
    // Collection controls and context inputs.
    pub ctl: Signal<In, CollectCtl>,
    pub ctx_el1: Signal<In, Bits<32>>,
    pub ctx_el2: Signal<In, Bits<32>>,
    pub cnt_virt: Signal<In, Bits<64>>,
    pub cnt_phys: Signal<In, Bits<64>>,
    // Hook reports.
    pub iss_valid: Signal<In, Bit>,
    pub xl: Signal<In, XlatReport>,
    pub mem: Signal<In, MemReport>,
    pub br: Signal<In, BranchReport>,
    pub cpl: Signal<In, CplReport>,
    // The writer took the record (Filter -> Writing) / wrote or abandoned it (-> Idle).
    pub wr_start: Signal<In, Bit>,
    pub wr_end: Signal<In, Bit>,
    // Profiling synchronization: the core's PSB request (level) and its completion (comb:
    // the request, and no record past its completion report in flight).
    pub psb_req: Signal<In, Bit>,
    pub psb_done: Signal<Out, Bit>,
    // Outputs: the phase (from state), the progress for the latency counters, what the
    // filter and the serializer see (comb from state), and the stray-report pulse.
    pub phase: Signal<Out, SamplePhase>,
    /// A hook report was ignored (comb).
    pub hook_stray: Signal<Out, Bit>,
    pub progress: Signal<Out, Progress>,
    pub view: Signal<Out, FilterView>,
    pub sample: Signal<Out, Sample>,
    // State (synchronous reset to Idle / zero).
    s_phase: Rff<SamplePhase>,
    s_op: Rff<TaggedOp>,
    s_rep: Rff<Merged>,
    /// The dispatch group's per-slot fields and the picked slot, taken every Idle cycle
    /// (held from the tag cycle, the last Idle one, to the end of the record): the slot
    /// multiplexer works from these flops, off the path from the dispatch inputs.
    g_pc: Rff<Bits<PCB>>,
    g_class: Rff<Bits<CB>>,
    g_sub: Rff<Bits<SB>>,
    g_cond: Rff<Bits<W>>,
    g_pick: Rff<Bits<W>>,
    /// Per slot of the held group: bit 2i the op is a load/store, bit 2i+1 a branch.
    g_kind: Rff<Bits<CB>>,
    // Local signals: the tagged slot's fields, the op's regime and timestamp source,
    // its class, the translation start as seen this cycle, the stray flag, the events.
    sel_pc: Signal<Local, Bits<ADDR_BITS>>,
    sel_class: Signal<Local, Bits<2>>,
    sel_subclass: Signal<Local, Bits<8>>,
    sel_cond: Signal<Local, Bit>,
    /// The op's class and payload as recorded (class 3 as Other, payload 0).
    op_class: Signal<Local, Bits<2>>,
    op_sub: Signal<Local, Bits<8>>,
    class_lo: Signal<Local, Bits<CB>>,
    class_hi: Signal<Local, Bits<CB>>,
    kind_in: Signal<Local, Bits<CB>>,
    hyp: Signal<Local, Bit>,
    el1_phys: Signal<Local, Bit>,
    el2_phys: Signal<Local, Bit>,
    is_ldst: Signal<Local, Bit>,
    is_branch: Signal<Local, Bit>,
    is_load: Signal<Local, Bit>,
    xl_started_now: Signal<Local, Bit>,
    stray: Signal<Local, Bit>,
    ev: Signal<Local, Events>,
    events: Signal<Local, Bits<16>>,
    // Constants: ELs, PCT encodings, op classes, subclass bits (all from `spe_defs`).
    k_el0: K<Bits<2>>,
    k_el2: K<Bits<2>>,
    k_pct_phys: K<Bits<2>>,
    k_pct_ofs_phys: K<Bits<2>>,
    k_class_other: K<Bits<2>>,
    k_class_rsvd: K<Bits<2>>,
    k_addr_bits: K<Bits<32>>,
    k_zero2: K<Bits<2>>,
    /// Bit 2i of each slot's class field.
    k_even: K<Bits<CB>>,
    k_zero4: K<Bits<4>>,
    k_zero8: K<Bits<8>>,
    k_zero_addr: K<Bits<ADDR_BITS>>,
    k_ext_mask: K<Bits<8>>,
    k_ext: K<Bits<8>>,
    k_at: K<Bits<8>>,
    k_st: K<Bits<8>>,
    k_br_ind: K<Bits<8>>,
}

impl<const W: usize, const PCB: usize, const CB: usize, const SB: usize>
    SpeCapture<W, PCB, CB, SB>
{
    pub fn new(cfg: &Config) -> Self {
        assert_eq!(W, cfg.dispatch_width, "dispatch width mismatch");
        assert!(
            PCB == ADDR_BITS * W && CB == 2 * W && SB == 8 * W,
            "per-slot bus widths"
        );
        let k2 = |v: u8| K::new(u64::from(v).into());
        let k8 = |v: u8| K::new(u64::from(v).into());
        Self {
            k_el0: k2(0),
            k_el2: k2(2),
            k_pct_phys: k2(pmscr::PCT_PHYSICAL as u8),
            k_pct_ofs_phys: k2(pmscr::PCT_OFFSET_PHYSICAL as u8),
            k_class_other: k2(op_class::OTHER),
            k_class_rsvd: k2(op_class::RESERVED),
            k_addr_bits: K::new((ADDR_BITS as u64).into()),
            k_even: K::new((0x5555_5555_5555_5555u64 & spe_defs::low_mask(CB as u32)).into()),
            k_ext_mask: k8(subclass::LDST_EXT_MASK),
            k_ext: k8(subclass::LDST_EXT),
            k_at: k8(subclass::LDST_EXT_AT),
            k_st: k8(subclass::LDST_ST),
            k_br_ind: k8(subclass::BR_IND),
            ..Default::default()
        }
    }
}

impl<const W: usize, const PCB: usize, const CB: usize, const SB: usize> Logic
    for SpeCapture<W, PCB, CB, SB>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, s_phase, s_op, s_rep, g_pc, g_class, g_sub, g_cond, g_pick, g_kind);
        self.s_phase.reset.next = self.reset.val();
        self.s_op.reset.next = self.reset.val();
        self.s_rep.reset.next = self.reset.val();
        self.g_pc.reset.next = self.reset.val();
        self.g_class.reset.next = self.reset.val();
        self.g_sub.reset.next = self.reset.val();
        self.g_cond.reset.next = self.reset.val();
        self.g_pick.reset.next = self.reset.val();
        self.g_kind.reset.next = self.reset.val();

        // The tagged slot's op: the held group's picked slot.
        // Each slot's kind (class 01 load/store in bit 2i, class 10 branch in bit 2i+1).
        self.class_lo.next = self.disp_class.val() & self.k_even.val();
        self.class_hi.next = (self.disp_class.val() >> 1) & self.k_even.val();
        self.kind_in.next = (self.class_lo.val() & !self.class_hi.val())
            | ((self.class_hi.val() & !self.class_lo.val()) << 1);
        if self.s_phase.q.val() == SamplePhase::Idle {
            self.g_kind.d.next = self.kind_in.val();
            self.g_pc.d.next = self.disp_pc.val();
            self.g_class.d.next = self.disp_class.val();
            self.g_sub.d.next = self.disp_subclass.val();
            self.g_cond.d.next = self.disp_cond.val();
            self.g_pick.d.next = self.pick.val();
        }
        self.sel_pc.next = self.k_zero_addr.val();
        self.sel_class.next = self.k_zero2.val();
        self.sel_subclass.next = self.k_zero8.val();
        self.sel_cond.next = false;
        for i in 0..W {
            if self.g_pick.q.val().get_bit(i) {
                self.sel_pc.next = self
                    .g_pc
                    .q
                    .val()
                    .get_bits::<ADDR_BITS>(i * self.k_addr_bits.val().index());
                self.sel_class.next = self.g_class.q.val().get_bits::<2>(i * 2);
                self.sel_subclass.next = self.g_sub.q.val().get_bits::<8>(i * 8);
                self.sel_cond.next = self.g_cond.q.val().get_bit(i);
            }
        }
        self.op_class.next = self.sel_class.val();
        self.op_sub.next = self.sel_subclass.val();
        if self.sel_class.val() == self.k_class_rsvd.val() {
            self.op_class.next = self.k_class_other.val();
            self.op_sub.next = self.k_zero8.val();
        }
        // EL2 regime: EL2, or EL0 in the host.
        self.hyp.next = (self.disp_el.val() == self.k_el2.val())
            | ((self.disp_el.val() == self.k_el0.val()) & self.disp_host.val());
        self.el1_phys.next = (self.ctl.val().el1_pct == self.k_pct_phys.val())
            | (self.ctl.val().el1_pct == self.k_pct_ofs_phys.val());
        self.el2_phys.next = (self.ctl.val().el2_pct == self.k_pct_phys.val())
            | (self.ctl.val().el2_pct == self.k_pct_ofs_phys.val());

        // Idle: capture the picked slot's op and its collection flags and clear the report
        // flags every cycle (no enable from the same-cycle tag: the held values are those
        // of the tag cycle, the last Idle cycle); the tag starts tracking.
        if self.tag_valid.val() {
            self.s_phase.d.next = SamplePhase::Tracking;
        }
        if self.s_phase.q.val() == SamplePhase::Idle {
            self.s_op.d.next.el = self.disp_el.val();
            self.s_op.d.next.ns = self.disp_ns.val();
            self.s_op.d.next.cx1 = self.ctl.val().el1_cx & !self.hyp.val();
            self.s_op.d.next.cx2 = self.ctl.val().el2_cx;
            self.s_op.d.next.ctx1 = self.ctx_el1.val();
            self.s_op.d.next.ctx2 = self.ctx_el2.val();
            // EL2 regime: PMSCR_EL2 alone decides; EL1 regime: PA needs both PA bits and
            // the physical counter both PCT fields.
            if self.hyp.val() {
                self.s_op.d.next.pa_en = self.ctl.val().el2_pa;
                self.s_op.d.next.ts_en = self.ctl.val().el2_ts;
                self.s_op.d.next.ts = self.cnt_virt.val();
                if self.el2_phys.val() {
                    self.s_op.d.next.ts = self.cnt_phys.val();
                }
            } else {
                self.s_op.d.next.pa_en = self.ctl.val().el1_pa & self.ctl.val().el2_pa;
                self.s_op.d.next.ts_en = self.ctl.val().el1_ts;
                self.s_op.d.next.ts = self.cnt_virt.val();
                if self.el1_phys.val() & self.el2_phys.val() {
                    self.s_op.d.next.ts = self.cnt_phys.val();
                }
            }
            // A new op: no report yet (the reports' data fields are don't-cares until their
            // flag is set).
            self.s_rep.d.next.issued = false;
            self.s_rep.d.next.xl_started = false;
            self.s_rep.d.next.xl_done = false;
            self.s_rep.d.next.mem_done = false;
            self.s_rep.d.next.br_done = false;
            self.s_rep.d.next.retired = false;
            self.s_rep.d.next.exception = false;
            self.s_rep.d.next.cond_fail = false;
        }

        // Tracking: merge this cycle's reports; any report outside tracking is stray.
        self.is_ldst.next = false;
        self.is_branch.next = false;
        for i in 0..W {
            if self.g_pick.q.val().get_bit(i) {
                self.is_ldst.next = self.g_kind.q.val().get_bit(i * 2);
                self.is_branch.next = self.g_kind.q.val().get_bit(i * 2 + 1);
            }
        }
        // A report's data is taken whenever its flag is clear (the data are don't-cares
        // until the flag is set): only the flags wait for the acceptance rules below.
        if self.xl.val().start & !self.s_rep.q.val().xl_started {
            self.s_rep.d.next.va = self.xl.val().va;
        }
        if self.xl.val().done & !self.s_rep.q.val().xl_done {
            self.s_rep.d.next.pa = self.xl.val().pa;
            self.s_rep.d.next.tlb_access = self.xl.val().tlb_access;
            self.s_rep.d.next.tlb_walk = self.xl.val().tlb_walk;
        }
        if self.mem.val().done & !self.s_rep.q.val().mem_done {
            self.s_rep.d.next.source = self.mem.val().source;
            self.s_rep.d.next.l1d_access = self.mem.val().l1d_access;
            self.s_rep.d.next.l1d_refill = self.mem.val().l1d_refill;
            self.s_rep.d.next.llc_access = self.mem.val().llc_access;
            self.s_rep.d.next.llc_miss = self.mem.val().llc_miss;
            self.s_rep.d.next.remote = self.mem.val().remote;
            self.s_rep.d.next.misaligned = self.mem.val().misaligned;
        }
        if self.br.val().done & !self.s_rep.q.val().br_done {
            self.s_rep.d.next.target = self.br.val().target;
            self.s_rep.d.next.taken = self.br.val().taken;
            self.s_rep.d.next.mispred = self.br.val().mispred;
            self.s_rep.d.next.indirect = self.br.val().indirect;
        }
        self.stray.next = self.iss_valid.val()
            | self.xl.val().start
            | self.xl.val().done
            | self.mem.val().done
            | self.br.val().done
            | self.cpl.val().done;
        self.progress.next.xl_restart = false;
        self.xl_started_now.next = self.s_rep.q.val().xl_started;
        if self.s_phase.q.val() == SamplePhase::Tracking {
            self.stray.next = false;
            if self.iss_valid.val() {
                if self.s_rep.q.val().issued {
                    self.stray.next = true;
                } else {
                    self.s_rep.d.next.issued = true;
                }
            }
            // A translation start restarts the translation counter; done needs a start
            // in this or an earlier cycle.
            if self.xl.val().start {
                if self.is_ldst.val() & !self.s_rep.q.val().xl_started {
                    self.progress.next.xl_restart = true;
                    self.xl_started_now.next = true;
                    self.s_rep.d.next.xl_started = true;
                } else {
                    self.stray.next = true;
                }
            }
            if self.xl.val().done {
                if self.is_ldst.val() & self.xl_started_now.val() & !self.s_rep.q.val().xl_done {
                    self.s_rep.d.next.xl_done = true;
                } else {
                    self.stray.next = true;
                }
            }
            // Memory and translation reports only for a load/store, branch reports only
            // for a branch; each once.
            if self.mem.val().done {
                if self.is_ldst.val() & !self.s_rep.q.val().mem_done {
                    self.s_rep.d.next.mem_done = true;
                } else {
                    self.stray.next = true;
                }
            }
            if self.br.val().done {
                if self.is_branch.val() & !self.s_rep.q.val().br_done {
                    self.s_rep.d.next.br_done = true;
                } else {
                    self.stray.next = true;
                }
            }
            // Completion: the outcome flags, and the filter cycle next.
            if self.cpl.val().done {
                self.s_rep.d.next.retired = self.cpl.val().retired;
                self.s_rep.d.next.exception = self.cpl.val().exception;
                self.s_rep.d.next.cond_fail = self.cpl.val().cond_fail;
                self.s_phase.d.next = SamplePhase::Filter;
            }
            // A PSB drops a sample whose completion has not been reported: the core sends
            // the reports of the ops older than the PSB before it raises the request.
            if self.psb_req.val() {
                self.s_phase.d.next = SamplePhase::Idle;
            }
        }
        self.hook_stray.next = self.stray.val() & !self.reset.val();
        self.psb_done.next = self.psb_req.val()
            & ((self.s_phase.q.val() == SamplePhase::Idle)
                | (self.s_phase.q.val() == SamplePhase::Tracking))
            & !self.reset.val();

        // The filter cycle hands the record to the writer or drops it; the writer's check
        // cycle goes on to the beats or ends it (no room); the writer ends the beats.
        if self.s_phase.q.val() == SamplePhase::Filter {
            self.s_phase.d.next = SamplePhase::Idle;
            if self.wr_start.val() {
                self.s_phase.d.next = SamplePhase::Check;
            }
        }
        if self.s_phase.q.val() == SamplePhase::Check {
            self.s_phase.d.next = SamplePhase::Writing;
            if self.wr_end.val() {
                self.s_phase.d.next = SamplePhase::Idle;
            }
        }
        if (self.s_phase.q.val() == SamplePhase::Writing) & self.wr_end.val() {
            self.s_phase.d.next = SamplePhase::Idle;
        }
        self.phase.next = self.s_phase.q.val();
        self.progress.next.issued = self.s_rep.q.val().issued;
        self.progress.next.xl_started = self.s_rep.q.val().xl_started;
        self.progress.next.xl_done = self.s_rep.q.val().xl_done;

        // Load / store classification: atomics (extended encoding with AT) are both.
        self.is_load.next = self.is_ldst.val()
            & (((self.op_sub.val() & self.k_st.val()) == self.k_zero8.val())
                | (((self.op_sub.val() & self.k_ext_mask.val()) == self.k_ext.val())
                    & ((self.op_sub.val() & self.k_at.val()) != self.k_zero8.val())));
        self.view.next.is_load = self.is_load.val();
        self.view.next.is_store = self.is_ldst.val()
            & (((self.op_sub.val() & self.k_st.val()) != self.k_zero8.val())
                | (((self.op_sub.val() & self.k_ext_mask.val()) == self.k_ext.val())
                    & ((self.op_sub.val() & self.k_at.val()) != self.k_zero8.val())));
        self.view.next.is_branch = self.is_branch.val();

        // Events payload.
        self.ev.next.exception_gen = self.s_rep.q.val().exception;
        self.ev.next.retired = self.s_rep.q.val().retired;
        self.ev.next.l1d_access = self.s_rep.q.val().mem_done & self.s_rep.q.val().l1d_access;
        self.ev.next.l1d_refill = self.s_rep.q.val().mem_done & self.s_rep.q.val().l1d_refill;
        self.ev.next.tlb_access = self.s_rep.q.val().xl_done & self.s_rep.q.val().tlb_access;
        self.ev.next.tlb_walk = self.s_rep.q.val().xl_done & self.s_rep.q.val().tlb_walk;
        self.ev.next.not_taken = self.sel_cond.val()
            & ((self.s_rep.q.val().br_done & !self.s_rep.q.val().taken)
                | self.s_rep.q.val().cond_fail);
        self.ev.next.mispred = self.s_rep.q.val().br_done & self.s_rep.q.val().mispred;
        self.ev.next.llc_access = self.s_rep.q.val().mem_done & self.s_rep.q.val().llc_access;
        self.ev.next.llc_miss = self.s_rep.q.val().mem_done & self.s_rep.q.val().llc_miss;
        self.ev.next.remote_access = self.s_rep.q.val().mem_done & self.s_rep.q.val().remote;
        self.ev.next.alignment = self.s_rep.q.val().mem_done & self.s_rep.q.val().misaligned;
        self.ev.next.rsvd = self.k_zero4.val();
        self.events.next = self.ev.val().into();
        self.view.next.events = self.events.val().get_bits::<12>(0);

        // The sample for the serializer. Operation Type payload: the branch hook's
        // indirect flag sets IND.
        self.sample.next.pc = self.sel_pc.val();
        self.sample.next.el = self.s_op.q.val().el;
        self.sample.next.ns = self.s_op.q.val().ns;
        self.sample.next.op_class = self.op_class.val();
        self.sample.next.op_payload = self.op_sub.val();
        if self.is_branch.val() & self.s_rep.q.val().br_done & self.s_rep.q.val().indirect {
            self.sample.next.op_payload = self.op_sub.val() | self.k_br_ind.val();
        }
        self.sample.next.cx1 = self.s_op.q.val().cx1;
        self.sample.next.cx2 = self.s_op.q.val().cx2;
        self.sample.next.ctx1 = self.s_op.q.val().ctx1;
        self.sample.next.ctx2 = self.s_op.q.val().ctx2;
        self.sample.next.pa_en = self.s_op.q.val().pa_en;
        self.sample.next.ts_en = self.s_op.q.val().ts_en;
        self.sample.next.ts = self.s_op.q.val().ts;
        self.sample.next.xl_started = self.s_rep.q.val().xl_started;
        self.sample.next.xl_done = self.s_rep.q.val().xl_done;
        self.sample.next.va = self.s_rep.q.val().va;
        self.sample.next.pa = self.s_rep.q.val().pa;
        self.sample.next.br_resolved = self.s_rep.q.val().br_done;
        self.sample.next.target = self.s_rep.q.val().target;
        self.sample.next.ds_en = self.is_load.val() & self.s_rep.q.val().mem_done;
        self.sample.next.source = self.s_rep.q.val().source;
        self.sample.next.events = self.events.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use spe_defs::events as ev;

    #[test]
    fn events_struct_puts_every_event_at_its_packet_bit() {
        let e = Events::default();
        assert_eq!(Events::BITS, 8 * spe_defs::impdef::EVENTS_PAYLOAD);
        let bits = [
            (e.get_my_offset_exception_gen(), ev::EXCEPTION_GEN),
            (e.get_my_offset_retired(), ev::RETIRED),
            (e.get_my_offset_l1d_access(), ev::L1D_ACCESS),
            (e.get_my_offset_l1d_refill(), ev::L1D_REFILL),
            (e.get_my_offset_tlb_access(), ev::TLB_ACCESS),
            (e.get_my_offset_tlb_walk(), ev::TLB_WALK),
            (e.get_my_offset_not_taken(), ev::NOT_TAKEN),
            (e.get_my_offset_mispred(), ev::MISPRED),
            (e.get_my_offset_llc_access(), ev::LLC_ACCESS),
            (e.get_my_offset_llc_miss(), ev::LLC_MISS),
            (e.get_my_offset_remote_access(), ev::REMOTE_ACCESS),
            (e.get_my_offset_alignment(), ev::ALIGNMENT),
        ];
        for (offset, bit) in bits {
            assert_eq!(offset as u32, bit);
        }
        assert_eq!(
            e.get_my_offset_rsvd() as u64,
            64 - u64::from(ev::IMPLEMENTED_MASK.leading_zeros())
        );
    }
}
