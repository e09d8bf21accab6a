//! `spe_capture`: the op tag. Holds the one sampled op from its tag cycle to its
//! completion, merges the hook reports into it, and derives what the filter and the
//! serializer need (load/store/branch class, Events payload, Operation Type payload).
//!
//! ```text
//!  tag[W] + disp_*[W] --> slot mux --> captured op (PC, type, EL/NS, context, timestamp,
//!                                       collection flags)          \
//!  iss / xl / mem / br / cpl reports --> acceptance rules ---------> merged reports
//!                                          `--> hook_stray (comb)    `--> events, op type
//! ```
//!
//! Acceptance rules (`spe_defs::impdef::CHOICES`, "Hook reports"): reports count from the
//! cycle after the tag through the completion cycle; each hook once; translation and memory
//! reports only for a load/store, branch reports only for a branch; translation-done needs
//! an earlier or same-cycle start. Anything else pulses `hook_stray`. Completion ends
//! tracking and starts the one-cycle filter stage (`filtering`).
//!
//! Collection decided at the tag (reference §4, DESIGN §4): CONTEXTIDR_EL1 when
//! PMSCR_EL1.CX and the op is not in the EL2 regime (EL2, or EL0 in the host);
//! CONTEXTIDR_EL2 when PMSCR_EL2.CX; the physical address with PA (at EL1/EL0 both PA bits);
//! a timestamp with the regime's TS; the physical counter when the regime's PCT selects it
//! (at EL1/EL0 both PCT fields). A reserved op class 3 is recorded as Other, payload 0.

use crate::flop::Rff;
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

/// The capture block for dispatch width `W`; `PCB`, `CB`, `SB` are the widths of the
/// per-slot PC (56·W), class (2·W) and subclass (8·W) buses.
#[derive(LogicBlock)]
pub struct SpeCapture<const W: usize, const PCB: usize, const CB: usize, const SB: usize> {
    // Clock and reset.
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    // From the sampler.
    pub tag_valid: Signal<In, Bit>,
    pub tag: Signal<In, Bits<W>>,
    // Dispatch hook.
    pub disp_pc: Signal<In, Bits<PCB>>,
    pub disp_class: Signal<In, Bits<CB>>,
    pub disp_subclass: Signal<In, Bits<SB>>,
    pub disp_cond: Signal<In, Bits<W>>,
    pub disp_el: Signal<In, Bits<2>>,
    pub disp_ns: Signal<In, Bit>,
    pub disp_host: Signal<In, Bit>,
    // Register fields (PMSCR_EL1 / PMSCR_EL2).
    pub el1_cx: Signal<In, Bit>,
    pub el1_pa: Signal<In, Bit>,
    pub el1_ts: Signal<In, Bit>,
    pub el1_pct: Signal<In, Bits<2>>,
    pub el2_cx: Signal<In, Bit>,
    pub el2_pa: Signal<In, Bit>,
    pub el2_ts: Signal<In, Bit>,
    pub el2_pct: Signal<In, Bits<2>>,
    // Context inputs.
    pub ctx_el1: Signal<In, Bits<32>>,
    pub ctx_el2: Signal<In, Bits<32>>,
    pub cnt_virt: Signal<In, Bits<64>>,
    pub cnt_phys: Signal<In, Bits<64>>,
    // Hook reports.
    pub iss_valid: Signal<In, Bit>,
    pub xl_start: Signal<In, Bit>,
    pub xl_va: Signal<In, Bits<64>>,
    pub xl_done: Signal<In, Bit>,
    pub xl_pa: Signal<In, Bits<56>>,
    pub xl_tlb_access: Signal<In, Bit>,
    pub xl_tlb_walk: Signal<In, Bit>,
    pub mem_done: Signal<In, Bit>,
    pub mem_source: Signal<In, Bits<8>>,
    pub mem_l1d_access: Signal<In, Bit>,
    pub mem_l1d_refill: Signal<In, Bit>,
    pub mem_llc_access: Signal<In, Bit>,
    pub mem_llc_miss: Signal<In, Bit>,
    pub mem_remote: Signal<In, Bit>,
    pub mem_misaligned: Signal<In, Bit>,
    pub br_done: Signal<In, Bit>,
    pub br_target: Signal<In, Bits<56>>,
    pub br_taken: Signal<In, Bit>,
    pub br_mispred: Signal<In, Bit>,
    pub br_indirect: Signal<In, Bit>,
    pub cpl_done: Signal<In, Bit>,
    pub cpl_retired: Signal<In, Bit>,
    pub cpl_exception: Signal<In, Bit>,
    pub cpl_cond_fail: Signal<In, Bit>,
    // Phase and diagnostics.
    /// Tracking the tag_valid op (from the cycle after the tag to completion).
    pub tracking: Signal<Out, Bit>,
    /// The one filter cycle after completion.
    pub filtering: Signal<Out, Bit>,
    /// A hook report was ignored (comb).
    pub hook_stray: Signal<Out, Bit>,
    // Latency counter controls.
    pub issued: Signal<Out, Bit>,
    pub xl_started_q: Signal<Out, Bit>,
    pub xl_done_q: Signal<Out, Bit>,
    /// This cycle's translation start is accepted (restarts the translation counter).
    pub xl_start_acc: Signal<Out, Bit>,
    // The sample, for the filter and the serializer.
    pub pc: Signal<Out, Bits<56>>,
    pub el: Signal<Out, Bits<2>>,
    pub ns: Signal<Out, Bit>,
    pub op_class: Signal<Out, Bits<2>>,
    pub op_payload: Signal<Out, Bits<8>>,
    pub is_branch: Signal<Out, Bit>,
    pub is_load: Signal<Out, Bit>,
    pub is_store: Signal<Out, Bit>,
    pub cx1: Signal<Out, Bit>,
    pub cx2: Signal<Out, Bit>,
    pub pa_en: Signal<Out, Bit>,
    pub ts_en: Signal<Out, Bit>,
    pub ctx1: Signal<Out, Bits<32>>,
    pub ctx2: Signal<Out, Bits<32>>,
    pub ts: Signal<Out, Bits<64>>,
    pub va: Signal<Out, Bits<64>>,
    pub pa: Signal<Out, Bits<56>>,
    pub br_resolved: Signal<Out, Bit>,
    pub target: Signal<Out, Bits<56>>,
    /// A Data Source packet is due (a load whose memory access was reported).
    pub ds_en: Signal<Out, Bit>,
    pub source: Signal<Out, Bits<8>>,
    pub events: Signal<Out, Bits<16>>,
    // State: the sampled op (all with synchronous reset to zero).
    s_tracking: Rff<Bit>,
    s_filtering: Rff<Bit>,
    s_pc: Rff<Bits<56>>,
    s_class: Rff<Bits<2>>,
    s_subclass: Rff<Bits<8>>,
    s_cond: Rff<Bit>,
    s_el: Rff<Bits<2>>,
    s_ns: Rff<Bit>,
    s_cx1: Rff<Bit>,
    s_cx2: Rff<Bit>,
    s_pa_en: Rff<Bit>,
    s_ts_en: Rff<Bit>,
    s_ctx1: Rff<Bits<32>>,
    s_ctx2: Rff<Bits<32>>,
    s_ts: Rff<Bits<64>>,
    s_issued: Rff<Bit>,
    s_xl_started: Rff<Bit>,
    s_xl_done: Rff<Bit>,
    s_va: Rff<Bits<64>>,
    s_pa: Rff<Bits<56>>,
    s_tlb_access: Rff<Bit>,
    s_tlb_walk: Rff<Bit>,
    s_mem_done: Rff<Bit>,
    s_source: Rff<Bits<8>>,
    s_l1d_access: Rff<Bit>,
    s_l1d_refill: Rff<Bit>,
    s_llc_access: Rff<Bit>,
    s_llc_miss: Rff<Bit>,
    s_remote: Rff<Bit>,
    s_misaligned: Rff<Bit>,
    s_br_done: Rff<Bit>,
    s_target: Rff<Bits<56>>,
    s_taken: Rff<Bit>,
    s_mispred: Rff<Bit>,
    s_indirect: Rff<Bit>,
    s_retired: Rff<Bit>,
    s_exception: Rff<Bit>,
    s_cond_fail: Rff<Bit>,
    // Local signals.
    sel_pc: Signal<Local, Bits<56>>,
    sel_class: Signal<Local, Bits<2>>,
    sel_subclass: Signal<Local, Bits<8>>,
    sel_cond: Signal<Local, Bit>,
    hyp: Signal<Local, Bit>,
    el1_phys: Signal<Local, Bit>,
    el2_phys: Signal<Local, Bit>,
    is_ldst: Signal<Local, Bit>,
    xl_started_now: Signal<Local, Bit>,
    stray: Signal<Local, Bit>,
    any_hook: Signal<Local, Bit>,
    ev: Signal<Local, Events>,
    // Constants.
    k_el0: Constant<Bits<2>>,
    k_el2: Constant<Bits<2>>,
    k_pct_phys: Constant<Bits<2>>,
    k_pct_ofs_phys: Constant<Bits<2>>,
    k_class_other: Constant<Bits<2>>,
    k_class_ldst: Constant<Bits<2>>,
    k_class_branch: Constant<Bits<2>>,
    k_class_rsvd: Constant<Bits<2>>,
    k_zero2: Constant<Bits<2>>,
    k_zero4: Constant<Bits<4>>,
    k_zero8: Constant<Bits<8>>,
    k_zero56: Constant<Bits<56>>,
    k_ext_mask: Constant<Bits<8>>,
    k_ext: Constant<Bits<8>>,
    k_at: Constant<Bits<8>>,
    k_st: Constant<Bits<8>>,
    k_br_ind: Constant<Bits<8>>,
}

impl<const W: usize, const PCB: usize, const CB: usize, const SB: usize>
    SpeCapture<W, PCB, CB, SB>
{
    pub fn new(cfg: &Config) -> Self {
        assert_eq!(W, cfg.dispatch_width, "dispatch width mismatch");
        assert!(
            PCB == 56 * W && CB == 2 * W && SB == 8 * W,
            "per-slot bus widths"
        );
        let k2 = |v: u8| Constant::new(u64::from(v).into());
        let k8 = |v: u8| Constant::new(u64::from(v).into());
        Self {
            clock: Default::default(),
            reset: Default::default(),
            tag_valid: Default::default(),
            tag: Default::default(),
            disp_pc: Default::default(),
            disp_class: Default::default(),
            disp_subclass: Default::default(),
            disp_cond: Default::default(),
            disp_el: Default::default(),
            disp_ns: Default::default(),
            disp_host: Default::default(),
            el1_cx: Default::default(),
            el1_pa: Default::default(),
            el1_ts: Default::default(),
            el1_pct: Default::default(),
            el2_cx: Default::default(),
            el2_pa: Default::default(),
            el2_ts: Default::default(),
            el2_pct: Default::default(),
            ctx_el1: Default::default(),
            ctx_el2: Default::default(),
            cnt_virt: Default::default(),
            cnt_phys: Default::default(),
            iss_valid: Default::default(),
            xl_start: Default::default(),
            xl_va: Default::default(),
            xl_done: Default::default(),
            xl_pa: Default::default(),
            xl_tlb_access: Default::default(),
            xl_tlb_walk: Default::default(),
            mem_done: Default::default(),
            mem_source: Default::default(),
            mem_l1d_access: Default::default(),
            mem_l1d_refill: Default::default(),
            mem_llc_access: Default::default(),
            mem_llc_miss: Default::default(),
            mem_remote: Default::default(),
            mem_misaligned: Default::default(),
            br_done: Default::default(),
            br_target: Default::default(),
            br_taken: Default::default(),
            br_mispred: Default::default(),
            br_indirect: Default::default(),
            cpl_done: Default::default(),
            cpl_retired: Default::default(),
            cpl_exception: Default::default(),
            cpl_cond_fail: Default::default(),
            tracking: Default::default(),
            filtering: Default::default(),
            hook_stray: Default::default(),
            issued: Default::default(),
            xl_started_q: Default::default(),
            xl_done_q: Default::default(),
            xl_start_acc: Default::default(),
            pc: Default::default(),
            el: Default::default(),
            ns: Default::default(),
            op_class: Default::default(),
            op_payload: Default::default(),
            is_branch: Default::default(),
            is_load: Default::default(),
            is_store: Default::default(),
            cx1: Default::default(),
            cx2: Default::default(),
            pa_en: Default::default(),
            ts_en: Default::default(),
            ctx1: Default::default(),
            ctx2: Default::default(),
            ts: Default::default(),
            va: Default::default(),
            pa: Default::default(),
            br_resolved: Default::default(),
            target: Default::default(),
            ds_en: Default::default(),
            source: Default::default(),
            events: Default::default(),
            s_tracking: Rff::default(),
            s_filtering: Rff::default(),
            s_pc: Rff::default(),
            s_class: Rff::default(),
            s_subclass: Rff::default(),
            s_cond: Rff::default(),
            s_el: Rff::default(),
            s_ns: Rff::default(),
            s_cx1: Rff::default(),
            s_cx2: Rff::default(),
            s_pa_en: Rff::default(),
            s_ts_en: Rff::default(),
            s_ctx1: Rff::default(),
            s_ctx2: Rff::default(),
            s_ts: Rff::default(),
            s_issued: Rff::default(),
            s_xl_started: Rff::default(),
            s_xl_done: Rff::default(),
            s_va: Rff::default(),
            s_pa: Rff::default(),
            s_tlb_access: Rff::default(),
            s_tlb_walk: Rff::default(),
            s_mem_done: Rff::default(),
            s_source: Rff::default(),
            s_l1d_access: Rff::default(),
            s_l1d_refill: Rff::default(),
            s_llc_access: Rff::default(),
            s_llc_miss: Rff::default(),
            s_remote: Rff::default(),
            s_misaligned: Rff::default(),
            s_br_done: Rff::default(),
            s_target: Rff::default(),
            s_taken: Rff::default(),
            s_mispred: Rff::default(),
            s_indirect: Rff::default(),
            s_retired: Rff::default(),
            s_exception: Rff::default(),
            s_cond_fail: Rff::default(),
            sel_pc: Default::default(),
            sel_class: Default::default(),
            sel_subclass: Default::default(),
            sel_cond: Default::default(),
            hyp: Default::default(),
            el1_phys: Default::default(),
            el2_phys: Default::default(),
            is_ldst: Default::default(),
            xl_started_now: Default::default(),
            stray: Default::default(),
            any_hook: Default::default(),
            ev: Default::default(),
            k_el0: k2(0),
            k_el2: k2(2),
            k_pct_phys: k2(pmscr::PCT_PHYSICAL as u8),
            k_pct_ofs_phys: k2(pmscr::PCT_OFFSET_PHYSICAL as u8),
            k_class_other: k2(op_class::OTHER),
            k_class_ldst: k2(op_class::LD_ST_ATOMIC),
            k_class_branch: k2(op_class::BRANCH),
            k_class_rsvd: k2(op_class::RESERVED),
            k_zero2: k2(0),
            k_zero4: Constant::new(0u64.into()),
            k_zero8: k8(0),
            k_zero56: Constant::new(0u64.into()),
            k_ext_mask: k8(subclass::LDST_EXT_MASK),
            k_ext: k8(subclass::LDST_EXT),
            k_at: k8(subclass::LDST_EXT_AT),
            k_st: k8(subclass::LDST_ST),
            k_br_ind: k8(subclass::BR_IND),
        }
    }
}

impl<const W: usize, const PCB: usize, const CB: usize, const SB: usize> Logic
    for SpeCapture<W, PCB, CB, SB>
{
    #[hdl_gen]
    fn update(&mut self) {
        // Clocking: every register holds unless updated below.
        self.s_tracking.clock.next = self.clock.val();
        self.s_tracking.reset.next = self.reset.val();
        self.s_tracking.d.next = self.s_tracking.q.val();
        self.s_filtering.clock.next = self.clock.val();
        self.s_filtering.reset.next = self.reset.val();
        self.s_filtering.d.next = self.s_filtering.q.val();
        self.s_pc.clock.next = self.clock.val();
        self.s_pc.reset.next = self.reset.val();
        self.s_pc.d.next = self.s_pc.q.val();
        self.s_class.clock.next = self.clock.val();
        self.s_class.reset.next = self.reset.val();
        self.s_class.d.next = self.s_class.q.val();
        self.s_subclass.clock.next = self.clock.val();
        self.s_subclass.reset.next = self.reset.val();
        self.s_subclass.d.next = self.s_subclass.q.val();
        self.s_cond.clock.next = self.clock.val();
        self.s_cond.reset.next = self.reset.val();
        self.s_cond.d.next = self.s_cond.q.val();
        self.s_el.clock.next = self.clock.val();
        self.s_el.reset.next = self.reset.val();
        self.s_el.d.next = self.s_el.q.val();
        self.s_ns.clock.next = self.clock.val();
        self.s_ns.reset.next = self.reset.val();
        self.s_ns.d.next = self.s_ns.q.val();
        self.s_cx1.clock.next = self.clock.val();
        self.s_cx1.reset.next = self.reset.val();
        self.s_cx1.d.next = self.s_cx1.q.val();
        self.s_cx2.clock.next = self.clock.val();
        self.s_cx2.reset.next = self.reset.val();
        self.s_cx2.d.next = self.s_cx2.q.val();
        self.s_pa_en.clock.next = self.clock.val();
        self.s_pa_en.reset.next = self.reset.val();
        self.s_pa_en.d.next = self.s_pa_en.q.val();
        self.s_ts_en.clock.next = self.clock.val();
        self.s_ts_en.reset.next = self.reset.val();
        self.s_ts_en.d.next = self.s_ts_en.q.val();
        self.s_ctx1.clock.next = self.clock.val();
        self.s_ctx1.reset.next = self.reset.val();
        self.s_ctx1.d.next = self.s_ctx1.q.val();
        self.s_ctx2.clock.next = self.clock.val();
        self.s_ctx2.reset.next = self.reset.val();
        self.s_ctx2.d.next = self.s_ctx2.q.val();
        self.s_ts.clock.next = self.clock.val();
        self.s_ts.reset.next = self.reset.val();
        self.s_ts.d.next = self.s_ts.q.val();
        self.s_issued.clock.next = self.clock.val();
        self.s_issued.reset.next = self.reset.val();
        self.s_issued.d.next = self.s_issued.q.val();
        self.s_xl_started.clock.next = self.clock.val();
        self.s_xl_started.reset.next = self.reset.val();
        self.s_xl_started.d.next = self.s_xl_started.q.val();
        self.s_xl_done.clock.next = self.clock.val();
        self.s_xl_done.reset.next = self.reset.val();
        self.s_xl_done.d.next = self.s_xl_done.q.val();
        self.s_va.clock.next = self.clock.val();
        self.s_va.reset.next = self.reset.val();
        self.s_va.d.next = self.s_va.q.val();
        self.s_pa.clock.next = self.clock.val();
        self.s_pa.reset.next = self.reset.val();
        self.s_pa.d.next = self.s_pa.q.val();
        self.s_tlb_access.clock.next = self.clock.val();
        self.s_tlb_access.reset.next = self.reset.val();
        self.s_tlb_access.d.next = self.s_tlb_access.q.val();
        self.s_tlb_walk.clock.next = self.clock.val();
        self.s_tlb_walk.reset.next = self.reset.val();
        self.s_tlb_walk.d.next = self.s_tlb_walk.q.val();
        self.s_mem_done.clock.next = self.clock.val();
        self.s_mem_done.reset.next = self.reset.val();
        self.s_mem_done.d.next = self.s_mem_done.q.val();
        self.s_source.clock.next = self.clock.val();
        self.s_source.reset.next = self.reset.val();
        self.s_source.d.next = self.s_source.q.val();
        self.s_l1d_access.clock.next = self.clock.val();
        self.s_l1d_access.reset.next = self.reset.val();
        self.s_l1d_access.d.next = self.s_l1d_access.q.val();
        self.s_l1d_refill.clock.next = self.clock.val();
        self.s_l1d_refill.reset.next = self.reset.val();
        self.s_l1d_refill.d.next = self.s_l1d_refill.q.val();
        self.s_llc_access.clock.next = self.clock.val();
        self.s_llc_access.reset.next = self.reset.val();
        self.s_llc_access.d.next = self.s_llc_access.q.val();
        self.s_llc_miss.clock.next = self.clock.val();
        self.s_llc_miss.reset.next = self.reset.val();
        self.s_llc_miss.d.next = self.s_llc_miss.q.val();
        self.s_remote.clock.next = self.clock.val();
        self.s_remote.reset.next = self.reset.val();
        self.s_remote.d.next = self.s_remote.q.val();
        self.s_misaligned.clock.next = self.clock.val();
        self.s_misaligned.reset.next = self.reset.val();
        self.s_misaligned.d.next = self.s_misaligned.q.val();
        self.s_br_done.clock.next = self.clock.val();
        self.s_br_done.reset.next = self.reset.val();
        self.s_br_done.d.next = self.s_br_done.q.val();
        self.s_target.clock.next = self.clock.val();
        self.s_target.reset.next = self.reset.val();
        self.s_target.d.next = self.s_target.q.val();
        self.s_taken.clock.next = self.clock.val();
        self.s_taken.reset.next = self.reset.val();
        self.s_taken.d.next = self.s_taken.q.val();
        self.s_mispred.clock.next = self.clock.val();
        self.s_mispred.reset.next = self.reset.val();
        self.s_mispred.d.next = self.s_mispred.q.val();
        self.s_indirect.clock.next = self.clock.val();
        self.s_indirect.reset.next = self.reset.val();
        self.s_indirect.d.next = self.s_indirect.q.val();
        self.s_retired.clock.next = self.clock.val();
        self.s_retired.reset.next = self.reset.val();
        self.s_retired.d.next = self.s_retired.q.val();
        self.s_exception.clock.next = self.clock.val();
        self.s_exception.reset.next = self.reset.val();
        self.s_exception.d.next = self.s_exception.q.val();
        self.s_cond_fail.clock.next = self.clock.val();
        self.s_cond_fail.reset.next = self.reset.val();
        self.s_cond_fail.d.next = self.s_cond_fail.q.val();

        // The tag_valid slot's op.
        self.sel_pc.next = self.k_zero56.val();
        self.sel_class.next = self.k_zero2.val();
        self.sel_subclass.next = self.k_zero8.val();
        self.sel_cond.next = false;
        for i in 0..W {
            if self.tag.val().get_bit(i) {
                self.sel_pc.next = self.disp_pc.val().get_bits::<56>(i * 56);
                self.sel_class.next = self.disp_class.val().get_bits::<2>(i * 2);
                self.sel_subclass.next = self.disp_subclass.val().get_bits::<8>(i * 8);
                self.sel_cond.next = self.disp_cond.val().get_bit(i);
            }
        }
        // EL2 regime: EL2, or EL0 in the host.
        self.hyp.next = (self.disp_el.val() == self.k_el2.val())
            | ((self.disp_el.val() == self.k_el0.val()) & self.disp_host.val());
        self.el1_phys.next = (self.el1_pct.val() == self.k_pct_phys.val())
            | (self.el1_pct.val() == self.k_pct_ofs_phys.val());
        self.el2_phys.next = (self.el2_pct.val() == self.k_pct_phys.val())
            | (self.el2_pct.val() == self.k_pct_ofs_phys.val());

        // Tag: capture the op and its collection flags; clear the hook state.
        if self.tag_valid.val() {
            self.s_tracking.d.next = true;
            self.s_pc.d.next = self.sel_pc.val();
            self.s_class.d.next = self.sel_class.val();
            self.s_subclass.d.next = self.sel_subclass.val();
            if self.sel_class.val() == self.k_class_rsvd.val() {
                self.s_class.d.next = self.k_class_other.val();
                self.s_subclass.d.next = self.k_zero8.val();
            }
            self.s_cond.d.next = self.sel_cond.val();
            self.s_el.d.next = self.disp_el.val();
            self.s_ns.d.next = self.disp_ns.val();
            self.s_cx1.d.next = self.el1_cx.val() & !self.hyp.val();
            self.s_cx2.d.next = self.el2_cx.val();
            self.s_ctx1.d.next = self.ctx_el1.val();
            self.s_ctx2.d.next = self.ctx_el2.val();
            if self.hyp.val() {
                self.s_pa_en.d.next = self.el2_pa.val();
                self.s_ts_en.d.next = self.el2_ts.val();
                self.s_ts.d.next = self.cnt_virt.val();
                if self.el2_phys.val() {
                    self.s_ts.d.next = self.cnt_phys.val();
                }
            } else {
                self.s_pa_en.d.next = self.el1_pa.val() & self.el2_pa.val();
                self.s_ts_en.d.next = self.el1_ts.val();
                self.s_ts.d.next = self.cnt_virt.val();
                if self.el1_phys.val() & self.el2_phys.val() {
                    self.s_ts.d.next = self.cnt_phys.val();
                }
            }
            self.s_issued.d.next = false;
            self.s_xl_started.d.next = false;
            self.s_xl_done.d.next = false;
            self.s_mem_done.d.next = false;
            self.s_br_done.d.next = false;
            self.s_retired.d.next = false;
            self.s_exception.d.next = false;
            self.s_cond_fail.d.next = false;
        }

        // Tracking: merge this cycle's reports.
        self.is_ldst.next = self.s_class.q.val() == self.k_class_ldst.val();
        self.is_branch.next = self.s_class.q.val() == self.k_class_branch.val();
        self.any_hook.next = self.iss_valid.val()
            | self.xl_start.val()
            | self.xl_done.val()
            | self.mem_done.val()
            | self.br_done.val()
            | self.cpl_done.val();
        self.stray.next = self.any_hook.val();
        self.xl_start_acc.next = false;
        self.xl_started_now.next = self.s_xl_started.q.val();
        if self.s_tracking.q.val() {
            self.stray.next = false;
            if self.iss_valid.val() {
                if self.s_issued.q.val() {
                    self.stray.next = true;
                } else {
                    self.s_issued.d.next = true;
                }
            }
            if self.xl_start.val() {
                if self.is_ldst.val() & !self.s_xl_started.q.val() {
                    self.xl_start_acc.next = true;
                    self.xl_started_now.next = true;
                    self.s_xl_started.d.next = true;
                    self.s_va.d.next = self.xl_va.val();
                } else {
                    self.stray.next = true;
                }
            }
            if self.xl_done.val() {
                if self.is_ldst.val() & self.xl_started_now.val() & !self.s_xl_done.q.val() {
                    self.s_xl_done.d.next = true;
                    self.s_pa.d.next = self.xl_pa.val();
                    self.s_tlb_access.d.next = self.xl_tlb_access.val();
                    self.s_tlb_walk.d.next = self.xl_tlb_walk.val();
                } else {
                    self.stray.next = true;
                }
            }
            if self.mem_done.val() {
                if self.is_ldst.val() & !self.s_mem_done.q.val() {
                    self.s_mem_done.d.next = true;
                    self.s_source.d.next = self.mem_source.val();
                    self.s_l1d_access.d.next = self.mem_l1d_access.val();
                    self.s_l1d_refill.d.next = self.mem_l1d_refill.val();
                    self.s_llc_access.d.next = self.mem_llc_access.val();
                    self.s_llc_miss.d.next = self.mem_llc_miss.val();
                    self.s_remote.d.next = self.mem_remote.val();
                    self.s_misaligned.d.next = self.mem_misaligned.val();
                } else {
                    self.stray.next = true;
                }
            }
            if self.br_done.val() {
                if self.is_branch.val() & !self.s_br_done.q.val() {
                    self.s_br_done.d.next = true;
                    self.s_target.d.next = self.br_target.val();
                    self.s_taken.d.next = self.br_taken.val();
                    self.s_mispred.d.next = self.br_mispred.val();
                    self.s_indirect.d.next = self.br_indirect.val();
                } else {
                    self.stray.next = true;
                }
            }
            if self.cpl_done.val() {
                self.s_retired.d.next = self.cpl_retired.val();
                self.s_exception.d.next = self.cpl_exception.val();
                self.s_cond_fail.d.next = self.cpl_cond_fail.val();
                self.s_tracking.d.next = false;
                self.s_filtering.d.next = true;
            }
        }
        // The filter stage lasts one cycle.
        if self.s_filtering.q.val() {
            self.s_filtering.d.next = false;
        }
        self.hook_stray.next = self.stray.val() & !self.reset.val();

        // Outputs: phase and the sample.
        self.tracking.next = self.s_tracking.q.val();
        self.filtering.next = self.s_filtering.q.val();
        self.issued.next = self.s_issued.q.val();
        self.xl_started_q.next = self.s_xl_started.q.val();
        self.xl_done_q.next = self.s_xl_done.q.val();
        self.pc.next = self.s_pc.q.val();
        self.el.next = self.s_el.q.val();
        self.ns.next = self.s_ns.q.val();
        self.op_class.next = self.s_class.q.val();
        self.cx1.next = self.s_cx1.q.val();
        self.cx2.next = self.s_cx2.q.val();
        self.pa_en.next = self.s_pa_en.q.val();
        self.ts_en.next = self.s_ts_en.q.val();
        self.ctx1.next = self.s_ctx1.q.val();
        self.ctx2.next = self.s_ctx2.q.val();
        self.ts.next = self.s_ts.q.val();
        self.va.next = self.s_va.q.val();
        self.pa.next = self.s_pa.q.val();
        self.br_resolved.next = self.s_br_done.q.val();
        self.target.next = self.s_target.q.val();
        self.source.next = self.s_source.q.val();

        // Load / store classification: atomics (extended encoding with AT) are both.
        self.is_load.next = self.is_ldst.val()
            & (((self.s_subclass.q.val() & self.k_st.val()) == self.k_zero8.val())
                | (((self.s_subclass.q.val() & self.k_ext_mask.val()) == self.k_ext.val())
                    & ((self.s_subclass.q.val() & self.k_at.val()) != self.k_zero8.val())));
        self.is_store.next = self.is_ldst.val()
            & (((self.s_subclass.q.val() & self.k_st.val()) != self.k_zero8.val())
                | (((self.s_subclass.q.val() & self.k_ext_mask.val()) == self.k_ext.val())
                    & ((self.s_subclass.q.val() & self.k_at.val()) != self.k_zero8.val())));
        self.ds_en.next = self.is_load.val() & self.s_mem_done.q.val();

        // Operation Type payload: the branch hook's indirect flag sets IND.
        self.op_payload.next = self.s_subclass.q.val();
        if self.is_branch.val() & self.s_br_done.q.val() & self.s_indirect.q.val() {
            self.op_payload.next = self.s_subclass.q.val() | self.k_br_ind.val();
        }

        // Events payload.
        self.ev.next.exception_gen = self.s_exception.q.val();
        self.ev.next.retired = self.s_retired.q.val();
        self.ev.next.l1d_access = self.s_mem_done.q.val() & self.s_l1d_access.q.val();
        self.ev.next.l1d_refill = self.s_mem_done.q.val() & self.s_l1d_refill.q.val();
        self.ev.next.tlb_access = self.s_xl_done.q.val() & self.s_tlb_access.q.val();
        self.ev.next.tlb_walk = self.s_xl_done.q.val() & self.s_tlb_walk.q.val();
        self.ev.next.not_taken = self.s_cond.q.val()
            & ((self.s_br_done.q.val() & !self.s_taken.q.val()) | self.s_cond_fail.q.val());
        self.ev.next.mispred = self.s_br_done.q.val() & self.s_mispred.q.val();
        self.ev.next.llc_access = self.s_mem_done.q.val() & self.s_llc_access.q.val();
        self.ev.next.llc_miss = self.s_mem_done.q.val() & self.s_llc_miss.q.val();
        self.ev.next.remote_access = self.s_mem_done.q.val() & self.s_remote.q.val();
        self.ev.next.alignment = self.s_mem_done.q.val() & self.s_misaligned.q.val();
        self.ev.next.rsvd = self.k_zero4.val();
        self.events.next = self.ev.val().into();
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
