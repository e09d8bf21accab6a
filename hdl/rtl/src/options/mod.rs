//! The options' logic (`spe_defs::Options`), one file per option: the blocks it adds to
//! each host block, each a child block of its host (a vector of one element in a unit that
//! builds the option, none otherwise, so no Verilog at all). The host declares the child,
//! connects its inputs and reads its outputs in a few lines; what the option does is in
//! its file. Each child is a module `spe_<host>_<option>_<preset>`.
//!
//! | file | option | host | module |
//! |---|---|---|---|
//! | [`pmfz`] | `Options::pmfz` (FEAT_SPEv1p2's PMU freeze) | `regs` | `spe_regs_pmfz_<preset>` |
//! | [`eft`] | `Options::eft` (FEAT_SPE_EFT: PMSFCR.FP, SIMD, TYPEm; the op's FP and SIMD kind) | `regs`, `capture`, `tracker`, `filter` | `spe_<host>_eft_<preset>` |
//! | [`exc`] | `Options::exc` (FEAT_SPE_EXC: the banks PMBSR_EL2/EL3, SPE Profiling exceptions) | `regs` (two blocks) | `spe_regs_exc_state_<preset>`, `spe_regs_exc_banks_<preset>` |
//! | [`fds`] | `Options::fds` (FEAT_SPE_FDS: the data-source filter) | `filter` | `spe_filter_fds_<preset>` |
//! | [`feed_events`] | `Options::feed_events` (SPEv1p2's SAMPLE_FEED_* events, with EFT's and FDS's) | `filter` | `spe_filter_feed_events_<preset>` |
//! | [`nvm`] | `Options::nvm` (FEAT_SPE_nVM: the buffer by IPA or PA) | `regs`, `writer` | `spe_<host>_nvm_<preset>` |
//! | [`pbt`] | `Options::pbt` (FEAT_SPE_PBT: the previous-branch target, taken with the branch report; its Address packet in the record's PA slot) | `tracker`, `serializer` | `spe_<host>_pbt_<preset>` |
//! | [`ernd`] | `Options::ernd` (FEAT_SPE_ERnd: PMSICR.ECOUNT, the random delay after a COUNT expiry) | `sampler` | `spe_sampler_ernd_<preset>` |
//! | [`crr`] | `Options::crr` (FEAT_SPE_CRR: a branch's CR and GCS, a GCS return or call as a load or store) | `capture` | `spe_capture_crr_<preset>` |
//! | [`sve_events`] | `Options::sve_events` (FEAT_SPEv1p1's SVE predicate events) | `tracker` | `spe_tracker_sve_events_<preset>` |
//! | [`v1p4_events`] | `Options::v1p4_events` (FEAT_SPEv1p4's L2D, HITM, LFB and snoop events of a load) | `tracker` | `spe_tracker_v1p4_events_<preset>` |
//! | [`sme`] | `Options::sme` (FEAT_SPE_SME's Streaming SVE mode and SME compute unit events; its Operation Type encodings recorded as reported: a constant of `capture`'s, [`sme::capture_reserves`]) | `tracker`, `capture` (a constant) | `spe_tracker_sme_events_<preset>` |
//! | [`fpf`] | `Options::fpf` (FEAT_SPE_FPF: a class-Other op's FP and SIMD flags kept; a constant of `capture`'s, [`fpf::other_keep`], no logic) | `capture` (a constant) | none |
//! | [`v1p3`] | `Options::v1p3` (FEAT_SPEv1p3's PMBIDR.EA = 1: an external abort on a buffer write ignored) | `writer` | `spe_writer_v1p3_<preset>` |
//! | [`events_hi`] | the events above bit 15 (`Options::sve_events`, `v1p4_events`, `sme`: the register and filter parts they share; the tracker's held-flags block, `TrackerHeldEvents<N>`, that `v1p4_events` and `sme` instantiate; the serializer's splice of the bits into beats 6 and 7) | `regs`, `filter`, `serializer` | `spe_<host>_events_hi_<preset>` |
//!
//! An option that is a constant of its host's (FPF's mask, SME's reserved encodings in
//! `capture`) has a `const fn` in its file that the host's `new` calls. What an option
//! leaves in a host is wiring, each inside a loop over a vector of zero or one element: its
//! child's inputs and outputs, and three port copies with no logic of the option's own
//! (docs/development.md): SAMPLE_BUFFER_FULL (`regs`: the writer's buffer-full event
//! under the reset every output but `irq` has), FDS's (`regs`: PMSDSFR and PMSFCR.FDS as
//! stored; `tracker`: `sample`'s data source and its enable) and ERnd's (`regs`: the
//! sampler's ECOUNT, zero where PMSICR is not addressed, ORed into `reg_rdata`).
//!
//! Not an option's block: the 128-byte record slot of a unit with FEAT_SPE_CRR
//! (`Config::record_log2`: a size, which PMSIDR.MaxSize and PMBIDR.Align report, as the
//! counter width is one) is the serializer's layout (its second half, `beat_hi`) and the
//! writer's beat count (`k_half`: a record's first half goes on to its second), each
//! written in its block like the 64-byte record's. The writer's part overrides its own
//! state machine's decisions (`wr_done`, `upd`), which a child block would be fed and
//! drive back: a combinational loop to Verilator (docs/toolchain.md).

pub mod crr;
pub mod eft;
pub mod ernd;
pub mod events_hi;
pub mod exc;
pub mod fds;
pub mod feed_events;
pub mod fpf;
pub mod nvm;
pub mod pbt;
pub mod pmfz;
pub mod sme;
pub mod sve_events;
pub mod v1p3;
pub mod v1p4_events;
