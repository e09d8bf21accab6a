//! The typed bundles the blocks exchange, and the sample-phase state. Only `spe_top`'s
//! ports are flat; inside, related wires travel as one `LogicStruct` (in Verilog one
//! vector, a field a constant slice). A hook report's fields are wired from the top's
//! ports by name (build.rs: port `br_target` to `BranchReport::target`).
//!
//! ```text
//!  top ports --> XlatReport, MemReport, BranchReport, CplReport --> tracker
//!  regs --> SampleCtl --> sampler      regs --> CollectCtl --> tracker
//!  regs --> FilterCtl --> filter       regs --> BufferCtl  --> writer --> BufferUpdate --> regs
//!  capture --> Slot --> tracker        tracker --> SamplePhase --> sampler, capture, latency,
//!                                                                  filter, writer
//!  tracker --> Progress --> latency    tracker --> FilterView --> filter
//!  tracker --> Sample --> serializer   writer <--> WriteReq / WriteResp <--> top ports
//! ```
//!
//! No bundle holds a `CW`-wide value (rust-hdl structs cannot be generic).

use crate::ADDR_BITS;
use rust_hdl::prelude::*;

/// Where the sample in flight is: the model's `Phase`. Held by `spe_tracker`.
#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
pub enum SamplePhase {
    /// No sample: the sampler may tag an op.
    Idle,
    /// From the cycle after the tag through the completion report.
    Tracking,
    /// The one cycle after completion: the filters decide; a kept record asks for the
    /// writer, and is granted it at once when it is free (always at T = 1).
    Filter,
    /// Kept, waiting for the shared writer while another thread's record holds it (T > 1
    /// only): still the thread's sample in flight.
    Waiting,
    /// The one cycle after a kept record's grant: the buffer-room check.
    Check,
    /// The record's beats go out on the memory write port.
    Writing,
}

/// Translation hook: start (with the data VA) and done (with the PA and TLB events).
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct XlatReport {
    pub start: Bit,
    pub va: Bits<64>,
    pub done: Bit,
    pub pa: Bits<ADDR_BITS>,
    /// The access's physical address space (1 Non-secure).
    pub pa_ns: Bit,
    pub tlb_access: Bit,
    pub tlb_walk: Bit,
}

/// Memory hook: the access completed, with its data source and cache events.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct MemReport {
    pub done: Bit,
    pub source: Bits<8>,
    pub l1d_access: Bit,
    pub l1d_refill: Bit,
    pub llc_access: Bit,
    pub llc_miss: Bit,
    pub remote: Bit,
    pub misaligned: Bit,
}

/// Branch hook: resolved, with the target and the outcome.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct BranchReport {
    pub done: Bit,
    pub target: Bits<ADDR_BITS>,
    /// The EL and Security state at the target (an ERET's differ from the op's).
    pub target_el: Bits<2>,
    pub target_ns: Bit,
    pub taken: Bit,
    pub mispred: Bit,
    pub indirect: Bit,
}

/// Completion hook: the op completed, retired or flushed.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct CplReport {
    pub done: Bit,
    pub retired: Bit,
    pub exception: Bit,
    pub cond_fail: Bit,
}

/// The PE's EL2 state for the dispatch group (the `el2_en`, `mdcr_e2pb`, `hcr_tge` and
/// `hcr_e2h` ports): the buffer's owner and the HCR_EL2 bits (J1 `ProfilingBufferOwner`,
/// `EL2Enabled`, `IsInHost`). The HCR_EL2 and MDCR_EL2 bits count only with `el2_en`.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct Regime {
    pub el2_en: Bit,
    pub e2pb: Bits<2>,
    pub tge: Bit,
    pub e2h: Bit,
}

/// Register controls of the sampler: PMSCR enables, PMSICR, PMSIRR, profiling enable.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct SampleCtl {
    /// PMBLIMITR.E and not PMBSR.S: profiling runs.
    pub prof_en: Bit,
    pub el1_e0spe: Bit,
    pub el1_e1spe: Bit,
    pub el2_e0hspe: Bit,
    pub el2_e2spe: Bit,
    /// PMSICR.COUNT.
    pub count: Bits<32>,
    /// PMSIRR.INTERVAL and RND.
    pub interval: Bits<24>,
    pub rnd: Bit,
}

/// Register controls of what a record collects (PMSCR_EL1 and PMSCR_EL2).
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct CollectCtl {
    pub el1_cx: Bit,
    pub el1_pa: Bit,
    pub el1_ts: Bit,
    pub el1_pct: Bits<2>,
    pub el2_cx: Bit,
    pub el2_pa: Bit,
    pub el2_ts: Bit,
    pub el2_pct: Bits<2>,
    /// PMSCR_EL2.E2SPE: with an EL2 owner, profiling is enabled at EL2 (an NV2 access's
    /// data VA and PA may be recorded).
    pub el2_e2spe: Bit,
}

/// Register controls of the filters: PMSFCR and the two event masks (bits 11:0).
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct FilterCtl {
    pub fe: Bit,
    pub ft: Bit,
    pub fl: Bit,
    pub fne: Bit,
    pub b: Bit,
    pub ld: Bit,
    pub st: Bit,
    pub evfr: Bits<12>,
    pub nevfr: Bits<12>,
}

/// Register controls of the buffer writer: PMBPTR and PMBLIMITR.LIMIT << 12.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct BufferCtl {
    pub ptr: Bits<64>,
    pub limit: Bits<64>,
}

/// What the writer tells the registers this cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct BufferUpdate {
    /// Load PMBPTR with `ptr`.
    pub ptr_we: Bit,
    pub ptr: Bits<64>,
    /// Buffer-full management event (EC=BUF, BSC=full); `full_dl` sets DL with it.
    pub full: Bit,
    pub full_dl: Bit,
    /// Fault management event on a buffer write (`spe_defs::regs::pmbsr::fault`): its
    /// kind (`wr_err_kind`) and FSC, and whether it hit the record's first beat (DL is then
    /// left as it was).
    pub abort: Bit,
    pub abort_kind: Bits<2>,
    pub abort_fsc: Bits<6>,
    pub abort_first: Bit,
}

/// Memory write port, request side (from state; all zero when `valid` is low).
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct WriteReq {
    pub valid: Bit,
    pub addr: Bits<64>,
    pub data: Bits<64>,
    pub strb: Bits<8>,
}

/// Memory write port, response side.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct WriteResp {
    pub ready: Bit,
    pub err: Bit,
    /// The fault's kind and FSC (with `err`).
    pub err_kind: Bits<2>,
    pub err_fsc: Bits<6>,
}

/// How far the tracked op got, for the latency counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct Progress {
    pub issued: Bit,
    pub xl_started: Bit,
    pub xl_done: Bit,
    /// This cycle's translation start is accepted: the translation counter restarts.
    pub xl_restart: Bit,
}

/// The tagged op's own fields, from the capture block's slot multiplexer: its PC, its class
/// and payload as recorded (class 3 as Other, payload 0), its condition flag and its
/// classification. Meaningful from the cycle after the tag to the end of the record.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct Slot {
    pub pc: Bits<ADDR_BITS>,
    pub op_class: Bits<2>,
    pub op_payload: Bits<8>,
    /// The op is conditional (its slot's `disp_cond`).
    pub cond: Bit,
    /// Load/store class (translation and memory reports belong to it; with FEAT_SPE_CRR
    /// also a return or call with GCS set, for its Guarded Control Stack access), branch
    /// class (branch reports do), and whether it loads or stores for the filters (an atomic
    /// does both; with FEAT_SPE_CRR a return or call with GCS set loads or stores too).
    pub is_ldst: Bit,
    pub is_branch: Bit,
    pub is_load: Bit,
    pub is_store: Bit,
}

/// What the filters look at.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct FilterView {
    pub is_branch: Bit,
    pub is_load: Bit,
    pub is_store: Bit,
    /// Events payload bits 11:0.
    pub events: Bits<12>,
}

/// The sample as the serializer records it (the latency values travel beside it).
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct Sample {
    pub pc: Bits<ADDR_BITS>,
    pub el: Bits<2>,
    pub ns: Bit,
    pub op_class: Bits<2>,
    pub op_payload: Bits<8>,
    /// Context packets due (CONTEXTIDR_EL1, CONTEXTIDR_EL2) and their values.
    pub cx1: Bit,
    pub cx2: Bit,
    pub ctx1: Bits<32>,
    pub ctx2: Bits<32>,
    /// Physical address and timestamp collection, and the timestamp.
    pub pa_en: Bit,
    pub ts_en: Bit,
    pub ts: Bits<64>,
    pub xl_started: Bit,
    pub xl_done: Bit,
    pub va: Bits<64>,
    pub pa: Bits<ADDR_BITS>,
    /// The data PA's address space (the translation report's, not the PE's state).
    pub pa_ns: Bit,
    pub br_resolved: Bit,
    pub target: Bits<ADDR_BITS>,
    /// The target's EL and NS (the branch report's, not the op's).
    pub target_el: Bits<2>,
    pub target_ns: Bit,
    /// A Data Source packet is due (a load whose memory access was reported).
    pub ds_en: Bit,
    pub source: Bits<8>,
    pub events: Bits<16>,
}
