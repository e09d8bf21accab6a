//! `spe_tracker`: the sample's whole life. Owns the phase machine ([`SamplePhase`], the
//! golden model's `Phase`), the tagged op's group-wide part and collection decisions, the
//! merged hook reports and stray detection, and derives what the filter, the latency
//! counters and the serializer see. Every phase transition is here, in one `match`. This is
//! the block an SMT unit replicates per hardware thread.
//!
//! ```text
//!  Idle     -tag_valid------------------------------------------------> Tracking
//!  Tracking -cpl.done-> Filter;  psb_req -> Idle (the sample is dropped)
//!  Filter   -filtrate & write_en & grant (T = 1)-> Check;  -filtrate & write_en-> Waiting;  else -> Idle
//!  Waiting  -!write_en-> Idle (dropped);  -grant-> Check
//!  Check    -check_end (writer: no room or profiling stopped, nothing written)-> Idle;  else -> Writing
//!  Writing  -wr_done (writer: last beat or a fault accepted)-> Idle
//!
//!  Idle: op's EL/NS, context, timestamp, collection --> s_op; report flags cleared
//!  xl / mem / br / cpl / iss reports --> acceptance rules --> s_rep, s_mem, s_br, progress
//!                                    `--> hook_stray (comb)
//!  psb_req, phase --> psb_done (comb)
//!  s_op, s_rep, s_mem, s_br, slot (capture) --> Events, FilterView, Sample
//! ```
//!
//! Acceptance rules (`spe_defs::impdef::CHOICES`, "Hook reports"): reports count from the
//! cycle after the tag through the completion cycle; each hook once; translation and memory
//! reports only for a load/store, branch reports only for a branch; translation-done needs
//! an earlier or same-cycle start. Anything else pulses `hook_stray`.
//!
//! Collection decided at the tag by the buffer's owning EL (Arm ARM D17.6; J1
//! `CollectContextIDR1`/`2`, `CollectPhysicalAddress`, `CollectTimeStamp`): CONTEXTIDR_EL1
//! when PMSCR_EL1.CX and the op is neither at EL2 nor under HCR_EL2.TGE = 1; CONTEXTIDR_EL2
//! when PMSCR_EL2.CX and EL2 is enabled; the physical address with PMSCR_EL2.PA (and
//! PMSCR_EL1.PA under an EL1 owner; PMSCR_EL1.PA alone without EL2); a timestamp with the
//! owner's TS; the physical counter as PMSCR_EL2.PCT, then PMSCR_EL1.PCT, select it.
//!
//! The kernel makes the transitions in one `match` on the phase; what Idle and Tracking do
//! to the op and the reports comes before it, as `if`s on the phase (Yosys maps this form to
//! fewer iCE40 cells than match arms that also hold the data updates: 2 to 21 per preset).

use crate::bundles::{
    BranchReport, CollectCtl, CplReport, FilterView, MemReport, Progress, Regime, Sample,
    SamplePhase, Slot, XlatReport,
};
use crate::flop::Rff;
use crate::{hi_events, ADDR_BITS, HI_EVENT_BITS, K};
use rust_hdl::prelude::*;
use spe_defs::packet::subclass;
use spe_defs::regs::pmscr;
use spe_defs::Config;

/// Width of the age counter: the largest completion timeout's exponent.
const AGE_BITS: usize = spe_defs::config::MAX_CPL_TIMEOUT_LOG2 as usize;

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
/// are held by the capture block).
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
    /// Profiling enabled at EL2 (EL2 owns the buffer, PMSCR_EL2.E2SPE): an NV2 access's
    /// data VA and PA may be recorded.
    pub nv2_va: Bit,
    /// CONTEXTIDR_EL1/EL2 and the counter (virtual or physical) at the tag.
    pub ctx1: Bits<32>,
    pub ctx2: Bits<32>,
    pub ts: Bits<64>,
}

/// The issue, translation and completion reports accepted so far: a flag per report
/// (cleared at the tag) and its data. The memory and branch reports are held whole, each
/// in its own flop (`s_mem`, `s_br`), their `done` the flag.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct Merged {
    /// Issue report seen.
    pub issued: Bit,
    /// Translation: started (with the data VA), done (with the PA and TLB events).
    pub xl_started: Bit,
    pub va: Bits<64>,
    pub xl_done: Bit,
    pub pa: Bits<ADDR_BITS>,
    pub pa_ns: Bit,
    pub tlb_access: Bit,
    pub tlb_walk: Bit,
    /// The completion report's flags (set in the completion cycle).
    pub retired: Bit,
    pub exception: Bit,
    pub cond_fail: Bit,
}

/// The tracker block (independent of the dispatch width: the capture block selects the
/// op's slot).
#[derive(LogicBlock, Default)]
pub struct SpeTracker {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// The sampler tagged an op this cycle (only while Idle).
    pub tag_valid: Signal<In, Bit>,
    // The dispatch group's EL, security state and EL2 state; collection controls and
    // context inputs.
    pub disp_el: Signal<In, Bits<2>>,
    pub disp_ns: Signal<In, Bit>,
    pub regime: Signal<In, Regime>,
    pub ctl: Signal<In, CollectCtl>,
    pub ctx_el1: Signal<In, Bits<32>>,
    pub ctx_el2: Signal<In, Bits<32>>,
    pub cnt_virt: Signal<In, Bits<64>>,
    pub cnt_phys: Signal<In, Bits<64>>,
    /// The tagged op's own fields (capture).
    pub slot: Signal<In, Slot>,
    // Hook reports.
    pub iss_valid: Signal<In, Bit>,
    pub xl: Signal<In, XlatReport>,
    pub mem: Signal<In, MemReport>,
    pub br: Signal<In, BranchReport>,
    pub cpl: Signal<In, CplReport>,
    /// The filters kept the record (filter cycle), and kept records are written
    /// (PMBLIMITR.E, not PMBSR.S, not discard mode).
    pub filtrate: Signal<In, Bit>,
    pub write_en: Signal<In, Bit>,
    /// The record asks for the shared writer, and the arbiter grants it (comb, same cycle):
    /// the next cycle is the record's check. At T = 1 a kept record to be written asks in
    /// its filter cycle (the writer is always free then) and in no other; with more
    /// threads a record asks from its `Waiting` phase only, so `ask` comes from flops and
    /// the filters' verdict never reaches the arbiter in the same cycle (docs/smt.md).
    pub ask: Signal<Out, Bit>,
    pub grant: Signal<In, Bit>,
    /// The writer ends the record in its check (no room, or profiling stopped: nothing
    /// written), and in its beats: its last beat or a faulting one was accepted, or
    /// profiling stopped between beats (Writing).
    pub check_end: Signal<In, Bit>,
    pub wr_done: Signal<In, Bit>,
    // Profiling synchronization: the core's PSB request (level) and its completion (comb:
    // the request, and no record past its completion report in flight).
    pub psb_req: Signal<In, Bit>,
    pub psb_done: Signal<Out, Bit>,
    /// The sample was dropped: no completion 2^k cycles after its tag (comb).
    pub sample_timeout: Signal<Out, Bit>,
    // Outputs: the phase (from state), the progress for the latency counters, what the
    // filter and the serializer see (comb from state), and the stray-report pulse.
    pub phase: Signal<Out, SamplePhase>,
    /// A hook report was ignored (comb).
    pub hook_stray: Signal<Out, Bit>,
    pub progress: Signal<Out, Progress>,
    pub view: Signal<Out, FilterView>,
    pub sample: Signal<Out, Sample>,
    /// FEAT_SPE_PBT (`Options::pbt`; one element in a unit that builds it, none
    /// otherwise, so no Verilog at all): the core's previous-branch-target register with
    /// the branch report, and for the serializer the value taken with the report (the
    /// serializer's block makes the index-4 Address packet of it) and whether the record
    /// has it, from its block ([`crate::options::pbt::TrackerPbt`]).
    pub prev_target: Vec<Signal<In, Bits<64>>>,
    pub prev_valid: Vec<Signal<In, Bit>>,
    pub pbt_addr: Vec<Signal<Out, Bits<64>>>,
    pub pbt_en: Vec<Signal<Out, Bit>>,
    pbt: Vec<crate::options::pbt::TrackerPbt>,
    /// FEAT_SPE_EFT (`Options::eft`; one element in a unit that builds it, none
    /// otherwise): the memory report's `mem_fp_scalar`, and it once the report counted.
    pub fp_scalar_in: Vec<Signal<In, Bit>>,
    pub fp_scalar: Vec<Signal<Out, Bit>>,
    eft: Vec<crate::options::eft::TrackerEft>,
    /// FEAT_SPE_FDS (`Options::fds`; one element in a unit that builds it): the sample's
    /// data source and whether it has one, as `sample` carries them (the filter's inputs:
    /// a multithreaded top cannot read a field of an indexed block's bundle).
    pub fds_ds_en: Vec<Signal<Out, Bit>>,
    pub fds_source: Vec<Signal<Out, Bits<8>>>,
    /// Events above bit 15 (one element in a unit with `Options::sve_events`,
    /// `Options::v1p4_events` or `Options::sme`, none otherwise): the Events payload's bits 31:16
    /// ([`HI_EVENT_BITS`], event 16 at bit 0; `events` has bits 15:0), the OR of the
    /// options' blocks' words, and zero.
    pub events_hi: Vec<Signal<Out, Bits<HI_EVENT_BITS>>>,
    k_none: Vec<K<Bits<HI_EVENT_BITS>>>,
    /// FEAT_SPEv1p1's SVE events (`Options::sve_events`; one element in a unit that
    /// builds them, none otherwise): the completion report's predicate flags, and their
    /// block ([`crate::options::sve_events::TrackerSveEvents`]).
    pub pred_not_full: Vec<Signal<In, Bit>>,
    pub pred_empty: Vec<Signal<In, Bit>>,
    sve_events: Vec<crate::options::sve_events::TrackerSveEvents>,
    /// FEAT_SPEv1p4's events (`Options::v1p4_events`; five inputs and one block in a unit
    /// that builds them, none otherwise): the memory report's L2D access, L2D miss, HITM,
    /// LFB and snooped flags (`spe_defs::events::V1P4_PORT_ORDER`), and their block
    /// ([`crate::options::v1p4_events::TrackerV1p4Events`]).
    pub v4_in: Vec<Signal<In, Bit>>,
    v1p4_events: Vec<crate::options::v1p4_events::TrackerV1p4Events>,
    /// FEAT_SPE_SME's events (`Options::sme`; two inputs and one block in a unit that
    /// builds them, none otherwise): the completion report's Streaming SVE mode and SME
    /// compute unit flags (`spe_defs::events::SME_PORT_ORDER`), and their block
    /// ([`crate::options::sme::TrackerSmeEvents`]).
    pub sme_in: Vec<Signal<In, Bit>>,
    sme_events: Vec<crate::options::sme::TrackerSmeEvents>,
    // State (synchronous reset to Idle / zero). The phase is `s_phase` except Tracking,
    // which is `s_phase` at Idle with `s_trk` set: the tag decides `s_trk` alone (one LUT
    // after `tag_valid`), off the enable of the phase register's other bits.
    s_phase: Rff<SamplePhase>,
    s_trk: Rff<Bit>,
    /// The phase is Idle, or Tracking, now (comb from `s_phase` and `s_trk`; the other
    /// phases are `s_phase`'s).
    in_idle: Signal<Local, Bit>,
    in_trk: Signal<Local, Bit>,
    s_op: Rff<TaggedOp>,
    s_rep: Rff<Merged>,
    /// The memory and branch reports accepted so far, as reported (`done`: accepted).
    s_mem: Rff<MemReport>,
    s_br: Rff<BranchReport>,
    /// Tracking cycles before this one (the completion timeout's count).
    s_age: Rff<Bits<AGE_BITS>>,
    // Local signals: the owner, TGE, EL2, the host and the timestamp source, the translation start as seen
    // this cycle, the stray flag, the events.
    owner_el2: Signal<Local, Bit>,
    tge_set: Signal<Local, Bit>,
    at_el2: Signal<Local, Bit>,
    in_host: Signal<Local, Bit>,
    ts_phys: Signal<Local, Bit>,
    el1_phys: Signal<Local, Bit>,
    el2_phys: Signal<Local, Bit>,
    xl_started_now: Signal<Local, Bit>,
    /// The sample's data VA (and PA) may be recorded (not an NV2 access, or profiling is
    /// enabled at EL2); registered (`s_va`), off the slot-to-record path: the slot and the
    /// tag's flags hold from the first tracking cycle, and the VA and PA they gate are
    /// reported no earlier than that cycle, so the flop is current whenever they count.
    va_ok: Signal<Local, Bit>,
    s_va: Rff<Bit>,
    k_nv2: K<Bits<8>>,
    k_nv2_mask: K<Bits<8>>,
    timed_out: Signal<Local, Bit>,
    stray: Signal<Local, Bit>,
    ev: Signal<Local, Events>,
    events: Signal<Local, Bits<16>>,
    // Constants: ELs, PCT encodings, the indirect-branch payload bit (from `spe_defs`).
    k_el0: K<Bits<2>>,
    k_el2: K<Bits<2>>,
    /// MDCR_EL2.E2PB giving the buffer to EL2.
    k_e2pb_el2: K<Bits<2>>,
    /// 2^k - 1: the age of a tracked op in the cycle its timeout falls.
    k_age_last: K<Bits<AGE_BITS>>,
    k_age_one: K<Bits<AGE_BITS>>,
    k_age_zero: K<Bits<AGE_BITS>>,
    k_pct_phys: K<Bits<2>>,
    k_pct_ofs_phys: K<Bits<2>>,
    k_zero4: K<Bits<4>>,
    k_br_ind: K<Bits<8>>,
    /// One thread: a kept record asks in its filter cycle (`ask` above).
    k_one_thread: K<Bit>,
}

impl SpeTracker {
    pub fn new(cfg: &Config) -> Self {
        cfg.validate().expect("valid configuration");
        let k2 = |v: u8| K::new(u64::from(v).into());
        let pbt = usize::from(spe_defs::config::option::pbt(cfg));
        let eft = usize::from(spe_defs::config::option::eft(cfg));
        let sve = usize::from(spe_defs::config::option::sve_events(cfg));
        let v4 = usize::from(spe_defs::config::option::v1p4_events(cfg));
        let sme = usize::from(spe_defs::config::option::sme(cfg));
        let hi = usize::from(spe_defs::events::has_high_events(cfg));
        use spe_defs::events as ev;
        // Every implemented event fits the Events payload's 32 bits (panics otherwise).
        hi_events(ev::implemented_mask(cfg));
        fn n_of<T: Default>(n: usize) -> Vec<T> {
            (0..n).map(|_| T::default()).collect()
        }
        Self {
            pred_not_full: n_of(sve),
            pred_empty: n_of(sve),
            events_hi: n_of(hi),
            k_none: n_of(hi),
            sve_events: n_of(sve),
            v4_in: n_of(5 * v4),
            v1p4_events: (0..v4)
                .map(|_| crate::options::v1p4_events::block())
                .collect(),
            sme_in: n_of(2 * sme),
            sme_events: (0..sme).map(|_| crate::options::sme::block()).collect(),

            k_el0: k2(0),
            k_el2: k2(2),
            k_e2pb_el2: k2(spe_defs::regs::mdcr_e2pb::EL2_OWNS),
            k_age_last: K::new(((1u64 << cfg.cpl_timeout_log2) - 1).into()),
            k_age_one: K::new(1u64.into()),
            k_pct_phys: k2(pmscr::PCT_PHYSICAL as u8),
            k_pct_ofs_phys: k2(pmscr::PCT_OFFSET_PHYSICAL as u8),
            k_br_ind: K::new(u64::from(subclass::BR_IND).into()),
            k_one_thread: K::new(cfg.threads == 1),
            k_nv2: K::new(u64::from(subclass::LDST_NV2_SYSREG).into()),
            k_nv2_mask: K::new(u64::from(subclass::LDST_NV2_MASK).into()),
            fp_scalar_in: (0..eft).map(|_| Default::default()).collect(),
            fp_scalar: (0..eft).map(|_| Default::default()).collect(),
            eft: (0..eft).map(|_| Default::default()).collect(),
            fds_ds_en: (0..usize::from(cfg.options.fds))
                .map(|_| Default::default())
                .collect(),
            fds_source: (0..usize::from(cfg.options.fds))
                .map(|_| Default::default())
                .collect(),
            prev_target: (0..pbt).map(|_| Default::default()).collect(),
            prev_valid: (0..pbt).map(|_| Default::default()).collect(),
            pbt_addr: (0..pbt).map(|_| Default::default()).collect(),
            pbt_en: (0..pbt).map(|_| Default::default()).collect(),
            pbt: (0..pbt).map(|_| Default::default()).collect(),
            ..Default::default()
        }
    }
}

crate::rff_setup!(
    impl[] SpeTracker: s_age, s_phase, s_trk, s_op, s_rep, s_mem, s_br, s_va;
    each pbt, eft, sve_events, v1p4_events, sme_events
);

impl crate::flop::Kernel for SpeTracker {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, s_phase, s_trk, s_op, s_rep, s_mem, s_br, s_age, s_va);
        self.in_idle.next = (self.s_phase.q.val() == SamplePhase::Idle) & !self.s_trk.q.val();
        self.in_trk.next = (self.s_phase.q.val() == SamplePhase::Idle) & self.s_trk.q.val();

        // The owner (EL2 with E2PB = 00, else EL1), TGE and the host (J1 IsInHost: E2H at
        // EL2, or at EL0 under TGE), all with EL2 enabled.
        self.owner_el2.next =
            self.regime.val().el2_en & (self.regime.val().e2pb == self.k_e2pb_el2.val());
        self.tge_set.next = self.regime.val().el2_en & self.regime.val().tge;
        self.at_el2.next = self.disp_el.val() == self.k_el2.val();
        self.in_host.next = self.regime.val().el2_en
            & self.regime.val().e2h
            & (self.at_el2.val()
                | ((self.disp_el.val() == self.k_el0.val()) & self.regime.val().tge));
        // PCT 01 and 11 select a physical count; 00 and the reserved 10 the virtual one
        // (physical in the host). choice: pct-reserved
        self.el1_phys.next = (self.ctl.val().el1_pct == self.k_pct_phys.val())
            | (self.ctl.val().el1_pct == self.k_pct_ofs_phys.val());
        self.el2_phys.next = (self.ctl.val().el2_pct == self.k_pct_phys.val())
            | (self.ctl.val().el2_pct == self.k_pct_ofs_phys.val());
        // J1 CollectTimeStamp: PMSCR_EL2.PCT first (with EL2 enabled): 00 gives the virtual
        // count (physical in the host); 01 and 11 the physical one under an EL2 owner;
        // under an EL1 owner PMSCR_EL1.PCT decides (11 with PCT_el1 = 00 too).
        self.ts_phys.next = self.owner_el2.val() | self.el1_phys.val() | self.in_host.val();
        if self.regime.val().el2_en & !self.el2_phys.val() {
            self.ts_phys.next = self.in_host.val();
        }

        // A report's data is taken whenever its flag is clear (the data are don't-cares
        // until the flag is set): only the flags wait for the acceptance rules below.
        if self.xl.val().start & !self.s_rep.q.val().xl_started {
            self.s_rep.d.next.va = self.xl.val().va;
        }
        if self.xl.val().done & !self.s_rep.q.val().xl_done {
            self.s_rep.d.next.pa = self.xl.val().pa;
            self.s_rep.d.next.pa_ns = self.xl.val().pa_ns;
            self.s_rep.d.next.tlb_access = self.xl.val().tlb_access;
            self.s_rep.d.next.tlb_walk = self.xl.val().tlb_walk;
        }
        // The memory and branch reports are taken whole; their `done` (the flag) is clear
        // here and set by the rules.
        if self.mem.val().done & !self.s_mem.q.val().done {
            self.s_mem.d.next = self.mem.val();
            self.s_mem.d.next.done = false;
        }
        if self.br.val().done & !self.s_br.q.val().done {
            self.s_br.d.next = self.br.val();
            self.s_br.d.next.done = false;
        }
        // FEAT_SPE_PBT: the previous-branch target comes with the branch report (taken
        // like the report's other data; the record uses it only once the report counted).
        for i in 0..self.pbt.len() {
            self.pbt[i].clock.next = self.clock.val();
            self.pbt[i].take.next = self.br.val().done & !self.s_br.q.val().done;
            self.pbt[i].target.next = self.prev_target[i].val();
            self.pbt[i].valid.next = self.prev_valid[i].val();
            self.pbt[i].br_done.next = self.s_br.q.val().done;
            self.pbt[i].taken.next = self.s_br.q.val().taken;
            self.pbt[i].retired.next = self.s_rep.q.val().retired;
            self.pbt_addr[i].next = self.pbt[i].addr.val();
            self.pbt_en[i].next = self.pbt[i].en.val();
        }
        // FEAT_SPE_EFT: whether a SIMD&FP access was scalar comes with the memory report.
        for i in 0..self.eft.len() {
            self.eft[i].clock.next = self.clock.val();
            self.eft[i].take.next = self.mem.val().done & !self.s_mem.q.val().done;
            self.eft[i].fp_scalar_in.next = self.fp_scalar_in[i].val();
            self.eft[i].mem_done.next = self.s_mem.q.val().done;
            self.fp_scalar[i].next = self.eft[i].fp_scalar.val();
        }
        // The Events payload's bits 31:16, each option's from its block: FEAT_SPEv1p1's SVE
        // events and FEAT_SPE_SME's come with the completion report; FEAT_SPEv1p4's with the
        // memory report (taken like its other data), a load's once that report counted.
        for i in 0..self.events_hi.len() {
            self.events_hi[i].next = self.k_none[i].val();
        }
        for i in 0..self.sve_events.len() {
            self.sve_events[i].clock.next = self.clock.val();
            self.sve_events[i].take.next = self.in_trk.val() & self.cpl.val().done;
            self.sve_events[i].not_full.next = self.pred_not_full[i].val();
            self.sve_events[i].empty.next = self.pred_empty[i].val();
            self.events_hi[0].next = self.events_hi[0].val() | self.sve_events[i].word.val();
        }
        for i in 0..self.v1p4_events.len() {
            self.v1p4_events[i].clock.next = self.clock.val();
            self.v1p4_events[i].take.next = self.mem.val().done & !self.s_mem.q.val().done;
            self.v1p4_events[i].flags[0].next = self.v4_in[0].val();
            self.v1p4_events[i].flags[1].next = self.v4_in[1].val();
            self.v1p4_events[i].flags[2].next = self.v4_in[2].val();
            self.v1p4_events[i].flags[3].next = self.v4_in[3].val();
            self.v1p4_events[i].flags[4].next = self.v4_in[4].val();
            self.v1p4_events[i].gate.next = self.slot.val().is_load & self.s_mem.q.val().done;
            self.events_hi[0].next = self.events_hi[0].val() | self.v1p4_events[i].word.val();
        }
        for i in 0..self.sme_events.len() {
            self.sme_events[i].clock.next = self.clock.val();
            self.sme_events[i].take.next = self.in_trk.val() & self.cpl.val().done;
            self.sme_events[i].flags[0].next = self.sme_in[0].val();
            self.sme_events[i].flags[1].next = self.sme_in[1].val();
            self.sme_events[i].gate.next = true;
            self.events_hi[0].next = self.events_hi[0].val() | self.sme_events[i].word.val();
        }
        // Any report outside tracking is stray.
        self.stray.next = self.iss_valid.val()
            | self.xl.val().start
            | self.xl.val().done
            | self.mem.val().done
            | self.br.val().done
            | self.cpl.val().done;
        self.progress.next.xl_restart = false;
        // The completion timeout falls in the tracking cycle whose age is 2^k - 1.
        self.timed_out.next = self.s_age.q.val() == self.k_age_last.val();
        self.xl_started_now.next = self.s_rep.q.val().xl_started;

        if self.in_idle.val() {
            // Idle: capture the op's group-wide part and its collection flags and clear
            // the report flags every cycle (no enable from the same-cycle tag: the held
            // values are those of the tag cycle, the last Idle cycle).
            self.s_op.d.next.el = self.disp_el.val();
            self.s_op.d.next.ns = self.disp_ns.val();
            self.s_op.d.next.cx1 = self.ctl.val().el1_cx & !self.at_el2.val() & !self.tge_set.val();
            self.s_op.d.next.cx2 = self.ctl.val().el2_cx & self.regime.val().el2_en;
            self.s_op.d.next.ctx1 = self.ctx_el1.val();
            self.s_op.d.next.ctx2 = self.ctx_el2.val();
            // choice: timestamp-context, choice: buffer-owner
            // By the owning EL, not the op's (J1 CollectTimeStamp, CollectPhysicalAddress):
            // TS is the owner's; PA needs PMSCR_EL2.PA with EL2 enabled, and PMSCR_EL1.PA
            // too under an EL1 owner (alone without EL2).
            self.s_op.d.next.ts_en = self.ctl.val().el1_ts;
            if self.owner_el2.val() {
                self.s_op.d.next.ts_en = self.ctl.val().el2_ts;
            }
            self.s_op.d.next.pa_en = self.ctl.val().el1_pa;
            if self.regime.val().el2_en {
                self.s_op.d.next.pa_en =
                    self.ctl.val().el2_pa & (self.owner_el2.val() | self.ctl.val().el1_pa);
            }
            self.s_op.d.next.nv2_va = self.owner_el2.val() & self.ctl.val().el2_e2spe;
            self.s_op.d.next.ts = self.cnt_virt.val();
            if self.ts_phys.val() {
                self.s_op.d.next.ts = self.cnt_phys.val();
            }
            self.s_age.d.next = self.k_age_zero.val();
            // A new op: no report yet (the reports' data fields are don't-cares until
            // their flag is set).
            self.s_rep.d.next.issued = false;
            self.s_rep.d.next.xl_started = false;
            self.s_rep.d.next.xl_done = false;
            self.s_mem.d.next.done = false;
            self.s_br.d.next.done = false;
            self.s_rep.d.next.retired = false;
            self.s_rep.d.next.exception = false;
            self.s_rep.d.next.cond_fail = false;
        }

        if self.in_trk.val() {
            // choice: hook-reports
            // Tracking: count the age; merge this cycle's reports by the acceptance rules.
            self.s_age.d.next = self.s_age.q.val() + self.k_age_one.val();
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
                if self.slot.val().is_ldst & !self.s_rep.q.val().xl_started {
                    self.progress.next.xl_restart = true;
                    self.xl_started_now.next = true;
                    self.s_rep.d.next.xl_started = true;
                } else {
                    self.stray.next = true;
                }
            }
            if self.xl.val().done {
                if self.slot.val().is_ldst & self.xl_started_now.val() & !self.s_rep.q.val().xl_done
                {
                    self.s_rep.d.next.xl_done = true;
                } else {
                    self.stray.next = true;
                }
            }
            // Memory and translation reports only for a load/store (`is_ldst`: with
            // FEAT_SPE_CRR a call or return with GCS too, for its GCS access), branch
            // reports only for a branch; each once.
            if self.mem.val().done {
                if self.slot.val().is_ldst & !self.s_mem.q.val().done {
                    self.s_mem.d.next.done = true;
                } else {
                    self.stray.next = true;
                }
            }
            if self.br.val().done {
                if self.slot.val().is_branch & !self.s_br.q.val().done {
                    self.s_br.d.next.done = true;
                } else {
                    self.stray.next = true;
                }
            }
            // Completion: the outcome flags.
            if self.cpl.val().done {
                self.s_rep.d.next.retired = self.cpl.val().retired;
                self.s_rep.d.next.exception = self.cpl.val().exception;
                self.s_rep.d.next.cond_fail = self.cpl.val().cond_fail;
            }
        }

        // The phase machine: every transition (`s_trk` is clear but in Idle and Tracking,
        // both at `s_phase` Idle; `s_phase` is never Tracking).
        self.s_trk.d.next = false;
        match self.s_phase.q.val() {
            SamplePhase::Idle => {
                if self.in_idle.val() & self.tag_valid.val() {
                    self.s_trk.d.next = true;
                }
                // Tracking: completion, the filter cycle next. No completion 2^k cycles
                // after the tag: dropped (choice: completion-timeout). A PSB drops a sample
                // whose completion has not been reported: the core sends the reports of the
                // ops older than the PSB before it raises the request.
                if self.in_trk.val() {
                    self.s_trk.d.next = true;
                    if self.timed_out.val() {
                        self.s_trk.d.next = false;
                    }
                    if self.cpl.val().done {
                        self.s_trk.d.next = false;
                        self.s_phase.d.next = SamplePhase::Filter;
                    }
                    if self.psb_req.val() {
                        self.s_trk.d.next = false;
                        self.s_phase.d.next = SamplePhase::Idle;
                    }
                }
            }
            SamplePhase::Tracking => {}
            SamplePhase::Filter => {
                // The filters decide: a kept record, if records are written at all, asks
                // for the writer (T = 1): its check next when granted, else it waits. With
                // more threads it waits a cycle at least and asks from `Waiting`.
                self.s_phase.d.next = SamplePhase::Idle;
                if self.filtrate.val() & self.write_en.val() {
                    self.s_phase.d.next = SamplePhase::Waiting;
                    if self.grant.val() & self.k_one_thread.val() {
                        self.s_phase.d.next = SamplePhase::Check;
                    }
                }
            }
            SamplePhase::Waiting => {
                // Dropped when the thread's records are no longer written (profiling
                // disabled, PMBSR.S, discard mode), as in a filter cycle.
                self.s_phase.d.next = SamplePhase::Idle;
                if self.write_en.val() {
                    self.s_phase.d.next = SamplePhase::Waiting;
                    if self.grant.val() {
                        self.s_phase.d.next = SamplePhase::Check;
                    }
                }
            }
            SamplePhase::Check => {
                // The writer's check: no room or profiling stopped ends the record (nothing
                // written).
                self.s_phase.d.next = SamplePhase::Writing;
                if self.check_end.val() {
                    self.s_phase.d.next = SamplePhase::Idle;
                }
            }
            SamplePhase::Writing => {
                if self.wr_done.val() {
                    self.s_phase.d.next = SamplePhase::Idle;
                }
            }
        }
        self.hook_stray.next = self.stray.val() & !self.reset.val();
        self.sample_timeout.next = self.in_trk.val()
            & self.timed_out.val()
            & !self.cpl.val().done
            & !self.psb_req.val()
            & !self.reset.val();
        // choice: psb-csync
        self.psb_done.next =
            self.psb_req.val() & (self.in_idle.val() | self.in_trk.val()) & !self.reset.val();
        self.ask.next = (((self.s_phase.q.val() == SamplePhase::Filter)
            & self.filtrate.val()
            & self.k_one_thread.val())
            | (self.s_phase.q.val() == SamplePhase::Waiting))
            & self.write_en.val()
            & !self.reset.val();
        // From the flops, not `in_trk`: Verilator (UNOPTFLAT) cannot split this always
        // block when the output `phase` reads a local the tag-dependent logic also reads.
        self.phase.next = self.s_phase.q.val();
        if (self.s_phase.q.val() == SamplePhase::Idle) & self.s_trk.q.val() {
            self.phase.next = SamplePhase::Tracking;
        }
        self.progress.next.issued = self.s_rep.q.val().issued;
        self.progress.next.xl_started = self.s_rep.q.val().xl_started;
        self.progress.next.xl_done = self.s_rep.q.val().xl_done;

        // What the filters see.
        self.view.next.is_load = self.slot.val().is_load;
        self.view.next.is_store = self.slot.val().is_store;
        self.view.next.is_branch = self.slot.val().is_branch;

        // Events payload.
        self.ev.next.exception_gen = self.s_rep.q.val().exception;
        self.ev.next.retired = self.s_rep.q.val().retired;
        self.ev.next.l1d_access = self.s_mem.q.val().done & self.s_mem.q.val().l1d_access;
        self.ev.next.l1d_refill = self.s_mem.q.val().done & self.s_mem.q.val().l1d_refill;
        self.ev.next.tlb_access = self.s_rep.q.val().xl_done & self.s_rep.q.val().tlb_access;
        self.ev.next.tlb_walk = self.s_rep.q.val().xl_done & self.s_rep.q.val().tlb_walk;
        self.ev.next.not_taken = self.slot.val().cond
            & ((self.s_br.q.val().done & !self.s_br.q.val().taken) | self.s_rep.q.val().cond_fail);
        self.ev.next.mispred = self.s_br.q.val().done & self.s_br.q.val().mispred;
        self.ev.next.llc_access = self.s_mem.q.val().done & self.s_mem.q.val().llc_access;
        self.ev.next.llc_miss = self.s_mem.q.val().done & self.s_mem.q.val().llc_miss;
        self.ev.next.remote_access = self.s_mem.q.val().done & self.s_mem.q.val().remote;
        self.ev.next.alignment = self.s_mem.q.val().done & self.s_mem.q.val().misaligned;
        self.ev.next.rsvd = self.k_zero4.val();
        self.events.next = self.ev.val().into();
        self.view.next.events = self.events.val().get_bits::<12>(0);

        // The sample for the serializer. Operation Type payload: the branch hook's
        // indirect flag sets IND.
        self.sample.next.pc = self.slot.val().pc;
        self.sample.next.el = self.s_op.q.val().el;
        self.sample.next.ns = self.s_op.q.val().ns;
        self.sample.next.op_class = self.slot.val().op_class;
        self.sample.next.op_payload = self.slot.val().op_payload;
        if self.slot.val().is_branch & self.s_br.q.val().done & self.s_br.q.val().indirect {
            self.sample.next.op_payload = self.slot.val().op_payload | self.k_br_ind.val();
        }
        self.sample.next.cx1 = self.s_op.q.val().cx1;
        self.sample.next.cx2 = self.s_op.q.val().cx2;
        self.sample.next.ctx1 = self.s_op.q.val().ctx1;
        self.sample.next.ctx2 = self.s_op.q.val().ctx2;
        // choice: nv2-address (D17.6.4.2, J1 SPEConstructRecord): an NV2 access (load/store
        // subclass 0x30/0x31) has no data VA, and so no PA, unless profiling is enabled at
        // EL2.
        self.va_ok.next = self.s_op.q.val().nv2_va
            | !self.slot.val().is_ldst
            | ((self.slot.val().op_payload & self.k_nv2_mask.val()) != self.k_nv2.val());
        self.s_va.d.next = self.va_ok.val();
        self.sample.next.pa_en = self.s_op.q.val().pa_en & self.s_va.q.val();
        self.sample.next.ts_en = self.s_op.q.val().ts_en;
        self.sample.next.ts = self.s_op.q.val().ts;
        self.sample.next.xl_started = self.s_rep.q.val().xl_started & self.s_va.q.val();
        self.sample.next.xl_done = self.s_rep.q.val().xl_done;
        self.sample.next.va = self.s_rep.q.val().va;
        self.sample.next.pa = self.s_rep.q.val().pa;
        self.sample.next.pa_ns = self.s_rep.q.val().pa_ns;
        self.sample.next.br_resolved = self.s_br.q.val().done;
        self.sample.next.target = self.s_br.q.val().target;
        self.sample.next.target_el = self.s_br.q.val().target_el;
        self.sample.next.target_ns = self.s_br.q.val().target_ns;
        self.sample.next.ds_en = self.slot.val().is_load & self.s_mem.q.val().done;
        self.sample.next.source = self.s_mem.q.val().source;
        self.sample.next.events = self.events.val();
        for i in 0..self.fds_ds_en.len() {
            self.fds_ds_en[i].next = self.sample.val().ds_en;
            self.fds_source[i].next = self.sample.val().source;
        }
    }
}
