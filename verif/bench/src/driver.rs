//! The software driver: programs the unit through the register port in the order of
//! Linux's `drivers/perf/arm_spe_pmu.c` (one access per cycle, a PSB CSYNC as the
//! `psb_req` / `psb_done` handshake), services the buffer interrupt, and collects the
//! records into a perf-style AUX ring (what perf would find in its AUX area).
//!
//! * Start (`arm_spe_pmu_start`): PMSCR_EL2 as EL2 boot code leaves it (non-VHE, first
//!   start only), then the buffer (PMBPTR = the ring's head, PMBLIMITR = its limit | E),
//!   PMSFCR, PMSEVFR, PMSNEVFR, PMSLATFR, PMSIRR, PMSICR = the whole 64-bit value read at
//!   the last stop (COUNT and, with FEAT_SPE_ERnd, a pending ECOUNT: Linux keeps the
//!   register in `period_left`), and the sampling control last (PMSCR_EL1, or PMSCR_EL2 in a VHE host).
//! * Stop (`arm_spe_pmu_stop`): PMSCR = 0, PSB, PMBLIMITR = 0 (disable and drain), then the
//!   fault check below, PMBSR = 0 unless spurious, and PMSICR read back whole.
//! * Fault check (`arm_spe_pmu_buf_get_fault_act`): PSB, read PMBSR; S = 0 is spurious;
//!   DL marks the AUX record truncated and partial, COLL marks it collision; EC = BUF with
//!   BSC = full is handled, anything else is fatal; then the AUX output ends at PMBPTR.
//! * Interrupt (seen on `irq`): the fault check; spurious: nothing more; fatal: disable
//!   and drain (or, with [`FaultAction::Restart`], a new AUX output so that a long run goes
//!   on); full: a new AUX output unless truncated (truncated: the session stops, as perf
//!   disables the event); then PMBSR = 0. With FEAT_SPE_EXC and PMSCR_EL1.EE = 11 the
//!   event comes as an SPE Profiling exception to EL1 (`exc_el1`), whose handler is the
//!   same.
//! * Events for EL2 or EL3 (FEAT_SPE_EXC; `exc_el2`, `exc_el3`): Linux has none of this
//!   yet, so the bench follows the architecture with the simplest higher-EL handler: when
//!   the driver is idle, read the bank (PMBSR_EL2 or PMBSR_EL3), write its syndrome to
//!   PMBSR_EL1 (profiling stays stopped: EL1's S is set) and clear the bank, the way a
//!   hypervisor injects a buffer management event into the EL1 that owns the buffer; the
//!   driver then services it as above. The same driver drives the firmware's controls
//!   (`mdcr_pmsee`, `scr_ea`, `hcr_tea`) every cycle.
//! * A VHE host with FEAT_SPE_EXC: its `PMBSR_EL1` accesses reach PMBSR_EL2 while the
//!   effective PMSCR_EL2.EE is not 00 (D24.7.5), so that is its status register, `exc_el2`
//!   its interrupt, and EL3's handler reflects into it
//!   ([`SampleSettings::status_bank`]).
//!
//! The AUX ring: the buffer is a ring of `buffer_size` bytes consumed at once by perf, with
//! a wakeup watermark of half the ring (4 KiB at least); an output runs from the head to
//! the next watermark boundary or the end of the ring, so heads and limits fall mid-buffer.
//! Every AUX output ends with the bytes in [head, PMBPTR) and an [`AuxRecord`].
//!
//! Checks on every AUX output (they need nothing but the memory port): the beats the
//! memory accepted since the output began are exactly the whole records in [head, PMBPTR)
//! (each record lands whole before the PMBPTR read, or not at all, and PMBPTR moved only
//! over them), and no beat is offered between a stop's PSB completing and the next start.
//! Breaches are memory violations ([`crate::memory::ViolationKind::SyncAudit`]).

use crate::memory::Memory;
use spe_defs::config::Config;
use spe_defs::events::filterable_mask;
use spe_defs::impdef::RECORD_SIZE_LOG2;
use spe_defs::regs::{
    pmblimitr, pmbptr, pmbsr, pmscr, pmsfcr, pmsicr, pmsirr, pmslatfr, reg, RegId,
};
use spe_ports::{Inputs, Outputs};
use spe_stim::rng::{Cyclic, Rng};
use std::collections::VecDeque;

/// A FEAT_SPE_EXC routing as a system sets one up: (MDCR_EL3.PMSEE, PMSCR_EL2.EE,
/// PMSCR_EL1.EE). A third of the draws send stage 2 faults (and an EL2 owner's stage 1
/// faults) to EL2 and the rest as exceptions to EL1; a sixth each everything to EL3,
/// everything to EL2 and everything as EL1 exceptions; the rest any values (FEAT_NV's
/// EL1 values 01 and 10 among them, used as 00).
pub fn exc_routing(r: &mut Rng) -> (u8, u8, u8) {
    use spe_defs::regs::mdcr_pmsee::{DELEGATED, TRAP_ALL};
    let (a, b, c) = (r.below(4) as u8, r.below(4) as u8, r.below(4) as u8);
    match r.below(6) {
        0 | 1 => (DELEGATED, 0b10, 0b11),
        2 => (TRAP_ALL, b, c),
        3 => (DELEGATED, 0b11, c),
        4 => (DELEGATED, 0b01, 0b11),
        _ => (a, b, c),
    }
}

/// A FEAT_SPE_EXC routing a VHE host sets up: (MDCR_EL3.PMSEE, PMSCR_EL2.EE). The host's
/// `PMBSR_EL1` accesses reach PMBSR_EL2 while EE is effectively not 00
/// ([`SampleSettings::status_bank`]), so a host that handles its own events sets 11 (every
/// event to PMBSR_EL2, taken as an EL2 exception) or 00 (PMBSR_EL1 and PMBIRQ, as
/// Linux). PMSEE: everything to EL3 in a sixth of the draws, EL3 enabled (synchronous
/// external aborts to EL3 with SCR_EL3.EA) in a third, EL3 out of it (EE effectively 00)
/// in a sixth, delegated in the rest.
pub fn exc_routing_host(r: &mut Rng) -> (u8, u8) {
    use spe_defs::regs::mdcr_pmsee::{DELEGATED, DISABLED, ENABLED, TRAP_ALL};
    let ee = if r.chance(0.75) { 0b11 } else { 0b00 };
    let pmsee = match r.below(6) {
        0 => TRAP_ALL,
        1 | 2 => ENABLED,
        3 => DISABLED,
        _ => DELEGATED,
    };
    (pmsee, ee)
}

/// PMBLIMITR.LIMIT granule (4 KiB).
const LIMIT_GRANULE: u64 = 1 << pmblimitr::LIMIT.lsb;

/// What the driver does after a buffer fault (external abort on a record write).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultAction {
    /// Like Linux: the data is truncated and profiling stays off (buffer disabled).
    Stop,
    /// Rewind and resume, to keep a long run exercising the unit.
    Restart,
}

/// How software configures sampling. Defaults match `perf record -e arm_spe//` run as
/// root on a per-CPU (`-a`) session: period = the advertised minimum interval, no jitter,
/// no filters, user and kernel, timestamps on (perf sets ts_enable for per-CPU sessions),
/// virtual counter, context on (the kernel sets CX for perfmon-capable users when built
/// with CONFIG_PID_IN_CONTEXTIDR), no physical addresses, fill mode, 4 MiB AUX buffer.
#[derive(Clone, Debug, PartialEq)]
pub struct SampleSettings {
    /// Sampling period in ops (perf `-c`/`period=`); PMSIRR.INTERVAL = interval >> 8.
    /// Values below the advertised minimum are written as given (an illegal-value test).
    pub interval: u64,
    /// PMSIRR.RND (perf `jitter=1`).
    pub jitter: bool,
    /// Type filter (perf `branch_filter`, `load_filter`, `store_filter`): sets FT and B/LD/ST.
    pub branch_filter: bool,
    pub load_filter: bool,
    pub store_filter: bool,
    /// FEAT_SPE_EFT's type filters (perf `float_filter`, `simd_filter`): PMSFCR.FP, SIMD.
    pub float_filter: bool,
    pub simd_filter: bool,
    /// FEAT_SPE_EFT's mask bits (perf `branch_filter_mask`, `load_filter_mask`,
    /// `store_filter_mask`, `float_filter_mask`, `simd_filter_mask`): PMSFCR.Bm, LDm, STm,
    /// FPm, SIMDm, each turning its type into an AND term. As Linux does, any type or mask
    /// bit sets FT.
    pub branch_filter_mask: bool,
    pub load_filter_mask: bool,
    pub store_filter_mask: bool,
    pub float_filter_mask: bool,
    pub simd_filter_mask: bool,
    /// FEAT_SPE_FDS (perf `inv_data_src_filter`, config4): the data sources (bits 5:0) to
    /// drop; PMSDSFR is written with its complement whenever the unit has FDS (`fds`), as
    /// Linux does, and PMSFCR.FDS is set when it is non-zero.
    pub inv_data_src_filter: u64,
    /// The unit implements FEAT_SPE_FDS (Linux probes PMSIDR.FDS and then writes PMSDSFR at
    /// every start).
    pub fds: bool,
    /// The unit implements FEAT_SPE_FnE (Linux probes PMSIDR.FnE and then writes PMSNEVFR at
    /// every start; without it the register is UNDEFINED).
    pub fne: bool,
    /// PMSEVFR (perf `event_filter`); FE is set when non-zero.
    pub event_filter: u64,
    /// PMSNEVFR (perf `inv_event_filter`); FnE is set when non-zero.
    pub inv_event_filter: u64,
    /// PMSLATFR.MINLAT (perf `min_latency`); FL is set when non-zero.
    pub min_latency: u64,
    /// Sample at EL0 (perf: not exclude_user).
    pub user: bool,
    /// Sample in the kernel, EL1 or the EL2 host (perf: not exclude_kernel).
    pub kernel: bool,
    /// PMSCR.TS (perf `ts_enable`).
    pub ts: bool,
    /// PMSCR.PA (perf `pa_enable`).
    pub pa: bool,
    /// PMSCR.PCT = physical (perf `pct_enable`).
    pub pct: bool,
    /// PMSCR.CX.
    pub cx: bool,
    /// PMBLIMITR.FM = discard (perf `discard=1`): nothing is written.
    pub discard: bool,
    /// PMBLIMITR.PMFZ: freeze the PMU while a buffer management event stops profiling
    /// (`pmu_freeze`; a unit built with `Options::pmfz`; Linux does not set it).
    pub pmfz: bool,
    /// FEAT_SPE_nVM's physical address mode (a unit built with `Options::nvm`; Linux has
    /// no support for it yet, so this follows the architecture, Arm ARM D17.7.2): PMBMAR's
    /// value (SH and Attr) written before the buffer, PMBLIMITR.nVM set with it, and the
    /// non-VHE EL2 boot state granting EL1 the mode (PMSCR_EL2.EnVM). `None`: virtual.
    pub nvm: Option<u64>,
    /// FEAT_SPE_EXC (a unit built with `Options::exc`; Linux has no support for it yet and
    /// leaves EE at 00, interrupts): PMSCR_EL1.EE written with the control (11: the
    /// management events as SPE Profiling exceptions to EL1, whose handler is the
    /// interrupt handler's), and PMSCR_EL2.EE in the non-VHE EL2 boot state (01 delegates
    /// to EL1; 10 or 11 keep events for EL2, which this driver at EL1 does not handle).
    pub exc_ee: u8,
    pub el2_ee: u8,
    /// FEAT_SPE_EXC's KE bits: PMSCR_EL1.KE written with EE (the EL1 exception may be
    /// taken at EL1 itself) and PMSCR_EL2.KE in the non-VHE EL2 boot state (with EE = 11,
    /// at EL2). The core applies them as masks (`exc_ke1`, `exc_ke2`); this driver takes
    /// its status register's exception as its interrupt either way
    /// ([`SampleSettings::status_bank`]).
    pub exc_ke: bool,
    pub el2_ke: bool,
    /// FEAT_SPE_EXC's controls above EL1, as the bench's EL3 firmware and hypervisor set
    /// them and the core shows them to the unit every cycle: MDCR_EL3.PMSEE (`mdcr_pmsee`;
    /// 00, the reset value, keeps every event in PMBSR_EL1 and PMBIRQ), SCR_EL3.EA
    /// (`scr_ea`) and HCR_EL2.TEA (`hcr_tea`). An event the unit reports to PMBSR_EL2 or
    /// PMBSR_EL3 is taken by that EL's handler, which reflects it to EL1 (see [`Driver`]).
    pub pmsee: u8,
    pub scr_ea: bool,
    pub hcr_tea: bool,
    /// With FEAT_SPE_EXC: at each context switch back the firmware and hypervisor set up
    /// a new routing ([`exc_routing`]: PMSEE and both EE fields), drawn from this seed, as
    /// a hypervisor switching guests or EL3 switching worlds would. `None`: fixed.
    pub exc_reroute: Option<u64>,
    /// With FEAT_SPE_EFT: at each context switch back the incoming context's type filter
    /// is these settings' own, half the time with one op type more as an AND term (its
    /// mask set, its type bit set or clear: [`SampleSettings::set_and_term`]), drawn from
    /// this seed, as perf events with different filters scheduled in turn would. The
    /// terms are drawn cyclically (`randc`): each of the ten, a type set or clear, once in
    /// every ten terms. `None`: the filter stays as set.
    pub and_term_reroll: Option<u64>,
    /// With `and_term_reroll`: a term at every switch back, not at half of them (the
    /// regression's timeouts job, whose own filter keeps everything and whose contexts
    /// hold a sample or two each).
    pub and_term_always: bool,
    /// The kernel runs at EL2 (VHE host): sampling is controlled by PMSCR_EL2.
    pub host: bool,
    /// VHE host only: a hypervisor that also profiles its guests into its buffer writes
    /// PMSCR_EL1 with the control's enables (E0SPE, E1SPE: a guest's EL0 and EL1 under
    /// HCR_EL2.TGE = 0, D17.4) instead of clearing it.
    pub guests_profiled: bool,
    /// Non-VHE only: EL2's boot code withholds physical addresses and the physical counter
    /// from EL1 (PMSCR_EL2.PA = 0, PCT = 00), as a hypervisor may, or as PMSCR_EL2's reset
    /// value does on a core without EL2; else it grants both.
    pub el2_withholds: bool,
    /// Buffer start (64-byte aligned).
    pub buffer_base: u64,
    /// Buffer size in bytes (a multiple of 4 KiB).
    pub buffer_size: u64,
    /// Initial PMSICR.COUNT; `None`: the interval (Linux writes the period left).
    pub initial_count: Option<u64>,
    pub on_fault: FaultAction,
    /// Mean cycles between context switches (stop, then start again after
    /// `switch_off` cycles); 0: never.
    pub switch_every: u64,
    /// Cycles profiling stays stopped at a context switch.
    pub switch_off: u64,
    /// With `switch_every`: the chance of a context switch right after a sample of the
    /// CPU's thread (thread 0, or each with `switch_every_thread`) is kept
    /// (SAMPLE_FILTRATE), so that the stop's PSB meets its record while the unit writes
    /// it; 0: none. The regression's jobs use [`SWITCH_AFTER_KEEP`].
    pub switch_after_keep: f64,
    /// With `switch_every`: the chance of a context switch (of each switching CPU) in the
    /// cycle after a tag of any thread, so that the stop's PSB comes while the sample is
    /// still tracked (a stream of its own); 0: none. The regression's jobs use
    /// [`SWITCH_AFTER_TAG`].
    pub switch_after_tag: f64,
    /// With `switch_every`: no context switch before this many workload cycles (the
    /// regression's timeouts job, whose stalled samples a switch's PSB would drop).
    pub switch_from: u64,
    /// With `switch_every`: every hardware thread's CPU switches contexts, each on draws
    /// of its own (`switch_after_keep` after its own thread's kept samples); otherwise
    /// thread 0's only, the others running on.
    pub switch_every_thread: bool,
}

/// The chance of a context switch right after a kept sample
/// ([`SampleSettings::switch_after_keep`]): one in 33, rare enough that profiling mostly
/// runs.
pub const SWITCH_AFTER_KEEP: f64 = 0.03;

/// The chance of a context switch right after a tag ([`SampleSettings::switch_after_tag`]).
pub const SWITCH_AFTER_TAG: f64 = 0.03;

impl SampleSettings {
    /// perf's defaults for a unit built with `cfg`.
    pub fn perf_default(cfg: &Config) -> SampleSettings {
        SampleSettings {
            interval: u64::from(cfg.min_interval()),
            jitter: false,
            branch_filter: false,
            load_filter: false,
            store_filter: false,
            float_filter: false,
            simd_filter: false,
            branch_filter_mask: false,
            load_filter_mask: false,
            store_filter_mask: false,
            float_filter_mask: false,
            simd_filter_mask: false,
            inv_data_src_filter: 0,
            fds: cfg.options.fds,
            fne: cfg.options.fne,
            event_filter: 0,
            inv_event_filter: 0,
            min_latency: 0,
            user: true,
            kernel: true,
            ts: true,
            pa: false,
            pct: false,
            cx: true,
            discard: false,
            pmfz: false,
            nvm: None,
            exc_ee: 0,
            el2_ee: 0,
            exc_ke: false,
            el2_ke: false,
            pmsee: 0,
            scr_ea: false,
            hcr_tea: false,
            exc_reroute: None,
            and_term_reroll: None,
            and_term_always: false,
            host: false,
            guests_profiled: false,
            el2_withholds: false,
            buffer_base: 0xffff_8000_2000_0000,
            buffer_size: 4 << 20,
            initial_count: None,
            on_fault: FaultAction::Stop,
            switch_every: 0,
            switch_off: 0,
            switch_after_keep: 0.0,
            switch_after_tag: 0.0,
            switch_from: 0,
            switch_every_thread: false,
        }
    }

    /// The type filter's bits in PMSFCR's order (J1 `SPEFilterByType`: the types B, LD,
    /// ST, FP, SIMD of `pmsfcr::TYPE`, then their masks, `pmsfcr::TYPEM`).
    pub fn type_bits(&self) -> [bool; 10] {
        [
            self.branch_filter,
            self.load_filter,
            self.store_filter,
            self.float_filter,
            self.simd_filter,
            self.branch_filter_mask,
            self.load_filter_mask,
            self.store_filter_mask,
            self.float_filter_mask,
            self.simd_filter_mask,
        ]
    }

    /// [`SampleSettings::type_bits`], to set.
    pub fn type_bits_mut(&mut self) -> [&mut bool; 10] {
        [
            &mut self.branch_filter,
            &mut self.load_filter,
            &mut self.store_filter,
            &mut self.float_filter,
            &mut self.simd_filter,
            &mut self.branch_filter_mask,
            &mut self.load_filter_mask,
            &mut self.store_filter_mask,
            &mut self.float_filter_mask,
            &mut self.simd_filter_mask,
        ]
    }

    /// Sets the type filter's bits (types and masks) to `bits` ([`SampleSettings::type_bits`]).
    pub fn set_type_bits(&mut self, bits: [bool; 10]) {
        for (to, bit) in self.type_bits_mut().into_iter().zip(bits) {
            *to = bit;
        }
    }

    /// Op type `ty` (B, LD, ST, FP, SIMD: 0 to 4) as an AND term of the type filter: its
    /// mask set and its type bit `set` (kept only if an op is one) or clear (only if it is
    /// not); the other types' bits as they are.
    pub fn set_and_term(&mut self, ty: usize, set: bool) {
        let bits = self.type_bits_mut();
        *bits[ty + 5] = true;
        *bits[ty] = set;
    }

    /// Sets the type filter bits named in `types` (PMSFCR.B/LD/ST/FP/SIMD, perf's
    /// `*_filter`; with `mask`, their TYPEm AND terms, perf's `*_filter_mask`): b, ld, st,
    /// fp, simd, or branch, load, store, float. `flag` names the option in the error.
    pub fn set_types(&mut self, flag: &str, types: &[String], mask: bool) -> Result<(), String> {
        for t in types {
            let bit = match (t.trim().to_ascii_lowercase().as_str(), mask) {
                ("b" | "branch", false) => &mut self.branch_filter,
                ("ld" | "load", false) => &mut self.load_filter,
                ("st" | "store", false) => &mut self.store_filter,
                ("fp" | "float", false) => &mut self.float_filter,
                ("simd", false) => &mut self.simd_filter,
                ("b" | "branch", true) => &mut self.branch_filter_mask,
                ("ld" | "load", true) => &mut self.load_filter_mask,
                ("st" | "store", true) => &mut self.store_filter_mask,
                ("fp" | "float", true) => &mut self.float_filter_mask,
                ("simd", true) => &mut self.simd_filter_mask,
                (other, _) => {
                    return Err(format!(
                        "{flag}: unknown type {other:?} (expected b, ld, st, fp, simd)"
                    ))
                }
            };
            *bit = true;
        }
        Ok(())
    }

    /// Checks what software could not program at all.
    pub fn validate(&self) -> Result<(), String> {
        let slot = 1u64 << RECORD_SIZE_LOG2;
        if !self.buffer_base.is_multiple_of(slot) {
            return Err(format!(
                "buffer base {:#x} is not aligned to the {slot}-byte record slot (PMBIDR.Align)",
                self.buffer_base
            ));
        }
        if self.buffer_size == 0 || !self.buffer_size.is_multiple_of(LIMIT_GRANULE) {
            return Err(format!(
                "buffer size {} is not a non-zero multiple of 4096 (PMBLIMITR granule)",
                self.buffer_size
            ));
        }
        if self.buffer_base.checked_add(self.buffer_size).is_none() {
            return Err("buffer base + size overflows the address space".into());
        }
        if self.interval >> 8 > pmsirr::INTERVAL.mask() >> pmsirr::INTERVAL.lsb {
            return Err(format!(
                "interval {} does not fit PMSIRR.INTERVAL",
                self.interval
            ));
        }
        Ok(())
    }

    /// The buffer limit (exclusive); 4 KiB aligned down as PMBLIMITR holds it.
    pub fn limit(&self) -> u64 {
        (self.buffer_base + self.buffer_size) & !(LIMIT_GRANULE - 1)
    }

    /// The window records may be written to: [base, limit), empty in discard mode.
    pub fn window(&self) -> (u64, u64) {
        if self.discard {
            (0, 0)
        } else {
            (self.buffer_base, self.limit())
        }
    }

    fn pmsirr(&self) -> u64 {
        pmsirr::INTERVAL.place(self.interval >> pmsirr::INTERVAL.lsb)
            | pmsirr::RND.place(self.jitter.into())
    }

    /// PMSFCR as Linux's `arm_spe_event_to_pmsfcr` builds it: the type and mask bits,
    /// FT when any of them is set, FE, FnE and FL when their filter is programmed.
    fn pmsfcr(&self) -> u64 {
        let bits = self.type_bits();
        let word = |b: &[bool]| (0..5).fold(0, |v, k| v | u64::from(b[k]) << k);
        let types = pmsfcr::TYPE.place(word(&bits[..5])) | pmsfcr::TYPEM.place(word(&bits[5..]));
        types
            | pmsfcr::FE.place((self.event_filter != 0).into())
            | pmsfcr::FT.place((types != 0).into())
            | pmsfcr::FL.place((self.min_latency != 0).into())
            | pmsfcr::FNE.place((self.inv_event_filter != 0).into())
            | pmsfcr::FDS.place((self.inv_data_src_filter != 0).into())
    }

    /// Checks that a unit of `cfg` implements what the settings use, as Linux's
    /// `arm_spe_pmu_event_init` refuses an event otherwise (EOPNOTSUPP): FEAT_SPE_EFT's type
    /// and mask bits, FEAT_SPE_FDS's data-source filter, FEAT_SPE_FnE's inverted event
    /// filter, PMBLIMITR.PMFZ, and event filters with only the events PMSEVFR_EL1 implements
    /// (its other bits are RES0).
    pub fn check_for(&self, cfg: &Config) -> Result<(), String> {
        let slot = cfg.record_size() as u64;
        if !self.buffer_base.is_multiple_of(slot) {
            return Err(format!(
                "buffer base {:#x} is not aligned to {}'s {slot}-byte record slot (PMBIDR.Align)",
                self.buffer_base, cfg.name
            ));
        }
        use spe_defs::config::option;
        let refuse = |what: &str, feature: &str, name: &str, built: fn(&Config) -> bool| {
            // The presets that build it.
            let with: Vec<&str> = spe_defs::PRESETS
                .iter()
                .filter(|p| built(p))
                .map(|p| p.name)
                .collect();
            Err(format!(
                "{what}: preset {} does not build {feature} (Options::{name}; built in {}): the driver refuses it (EOPNOTSUPP)",
                cfg.name,
                with.join(", ")
            ))
        };
        if self.uses_eft() && !cfg.options.eft {
            return refuse(
                "the FP and SIMD type filters and the *_filter_mask bits",
                "FEAT_SPE_EFT",
                "eft",
                option::eft,
            );
        }
        if self.inv_data_src_filter != 0 && !cfg.options.fds {
            return refuse(
                &format!("inv_data_src_filter {:#x}", self.inv_data_src_filter),
                "FEAT_SPE_FDS",
                "fds",
                option::fds,
            );
        }
        if self.pmfz && !cfg.options.pmfz {
            return refuse("PMFZ", "PMBLIMITR.PMFZ", "pmfz", option::pmfz);
        }
        if self.nvm.is_some() && !cfg.options.nvm {
            return refuse(
                "the physical address mode",
                "FEAT_SPE_nVM",
                "nvm",
                option::nvm,
            );
        }
        if ((self.exc_ee | self.el2_ee | self.pmsee) & 3 != 0 || self.exc_ke || self.el2_ke)
            && !cfg.options.exc
        {
            return refuse(
                "PMSCR.EE (management events as exceptions)",
                "FEAT_SPE_EXC",
                "exc",
                option::exc,
            );
        }
        if self.inv_event_filter != 0 && !cfg.options.fne {
            return refuse(
                &format!("inv_event_filter {:#x}", self.inv_event_filter),
                "FEAT_SPE_FnE",
                "fne",
                option::fne,
            );
        }
        for (name, v) in [
            ("event_filter", self.event_filter),
            ("inv_event_filter", self.inv_event_filter),
        ] {
            let filterable = filterable_mask(cfg);
            let res0 = v & !filterable;
            if res0 != 0 {
                return Err(format!(
                    "{name} {v:#x}: events {res0:#x} are RES0 in PMSEVFR_EL1, only {filterable:#x} can be filtered on: the driver refuses it (EOPNOTSUPP)"
                ));
            }
        }
        Ok(())
    }

    /// True when a setting needs FEAT_SPE_EFT (Linux refuses it without: EOPNOTSUPP).
    pub fn uses_eft(&self) -> bool {
        self.float_filter
            || self.simd_filter
            || self.branch_filter_mask
            || self.load_filter_mask
            || self.store_filter_mask
            || self.float_filter_mask
            || self.simd_filter_mask
    }

    fn pmblimitr(&self) -> u64 {
        if self.discard {
            pmblimitr::FM.place(pmblimitr::FM_DISCARD)
                | pmblimitr::E.place(1)
                | pmblimitr::PMFZ.place(self.pmfz.into())
        } else {
            self.limit_at(self.limit())
        }
    }

    /// Sampling control: enables in bits 0/1 (E0SPE/E1SPE, or E0HSPE/E2SPE at EL2), then
    /// CX, PA, TS, PCT.
    fn pmscr(&self) -> u64 {
        pmscr::E0SPE.place(self.user.into())
            | pmscr::E1SPE.place(self.kernel.into())
            | pmscr::CX.place(self.cx.into())
            | pmscr::PA.place(self.pa.into())
            | pmscr::TS.place(self.ts.into())
            | self.exc_bits()
            | pmscr::PCT.place(if self.pct {
                pmscr::PCT_PHYSICAL
            } else {
                pmscr::PCT_VIRTUAL
            })
    }

    /// FEAT_SPE_EXC's bits of the control: EE and KE, which a driver using them keeps
    /// when it disables sampling.
    fn exc_bits(&self) -> u64 {
        pmscr::EE.place(u64::from(self.exc_ee & 3)) | pmscr::KE.place(self.exc_ke.into())
    }

    /// The status register the kernel's `PMBSR_EL1` accesses reach: in a VHE host with
    /// FEAT_SPE_EXC they go to PMBSR_EL2 while the effective PMSCR_EL2.EE is not 00
    /// (D24.7.5's accessibility pseudocode: `EffectivePMSCR_EL2_EE() != '00' &&
    /// ELIsInHost(EL2)`; EE is effectively 00 while MDCR_EL3.PMSEE is 00, J1
    /// `EffectivePMSCR_EL2_EE`). A host's PMSCR_EL2 is its control, so its EE is `exc_ee`.
    pub fn status_bank(&self) -> RegId {
        if self.host && self.pmsee & 3 != 0 && self.exc_ee & 3 != 0 {
            RegId::PmbsrEl2
        } else {
            RegId::Pmbsr
        }
    }

    /// The sampling control register and its value (PMSCR_EL2 in a VHE host).
    fn control(&self) -> RegId {
        if self.host {
            RegId::PmscrEl2
        } else {
            RegId::PmscrEl1
        }
    }

    /// The AUX ring's wakeup watermark: half the ring, in whole 4 KiB pages, at least one.
    pub fn watermark(&self) -> u64 {
        (self.buffer_size / 2 / LIMIT_GRANULE).max(1) * LIMIT_GRANULE
    }

    /// The start sequence after the buffer (`arm_spe_pmu_start` with PERF_EF_RELOAD):
    /// filters, interval, the counter (`icr`: the whole PMSICR to restore), the control last.
    pub fn start_after_buffer(&self, icr: u64) -> Vec<(RegId, u64)> {
        let mut seq = vec![
            (RegId::Pmsfcr, self.pmsfcr()),
            (RegId::Pmsevfr, self.event_filter),
        ];
        // Linux: `if (spe_pmu->features & SPE_PMU_FEAT_INV_FILT_EVT)`.
        if self.fne {
            seq.push((RegId::Pmsnevfr, self.inv_event_filter));
        }
        // Linux: `if (spe_pmu->features & SPE_PMU_FEAT_FDS)`, PMSDSFR = ~inv_data_src_filter.
        if self.fds {
            seq.push((RegId::Pmsdsfr, !self.inv_data_src_filter));
        }
        seq.extend([
            (
                RegId::Pmslatfr,
                pmslatfr::MINLAT_FIELD.place(self.min_latency),
            ),
            (RegId::Pmsirr, self.pmsirr()),
            (RegId::Pmsicr, icr),
        ]);
        if self.host {
            let guests = if self.guests_profiled {
                self.pmscr()
            } else {
                0
            };
            seq.push((RegId::PmscrEl1, guests));
        }
        seq.push((self.control(), self.pmscr()));
        seq
    }

    /// What EL2 boot code leaves in PMSCR_EL2 before the kernel runs (nothing in a VHE
    /// host): non-VHE boot code grants EL1 physical addresses and the physical counter
    /// (Linux's), or withholds both (`el2_withholds`).
    fn el2_boot(&self) -> Option<(RegId, u64)> {
        let grant = !self.el2_withholds;
        (!self.host).then(|| {
            (
                RegId::PmscrEl2,
                pmscr::PA.place(grant.into())
                    | pmscr::PCT.place(if grant {
                        pmscr::PCT_PHYSICAL
                    } else {
                        pmscr::PCT_VIRTUAL
                    })
                    | pmscr::ENVM.place(self.nvm.is_some().into())
                    | pmscr::EE.place(u64::from(self.el2_ee & 3))
                    | pmscr::KE.place(self.el2_ke.into()),
            )
        })
    }

    /// What is written once before the first start: EL2's boot state (non-VHE) and, in
    /// physical address mode, PMBMAR (before the buffer that uses it).
    fn boot(&self) -> Vec<(RegId, u64)> {
        let mut seq: Vec<_> = self.el2_boot().into_iter().collect();
        if let Some(mar) = self.nvm {
            seq.push((RegId::Pmbmar, mar));
        }
        seq
    }

    /// PMBPTR and PMBLIMITR for an AUX output that begins at ring offset `head`: the limit
    /// at the next watermark boundary or the ring's end (discard mode: no buffer).
    pub fn buffer(&self, head: u64) -> (u64, u64) {
        if self.discard {
            return (self.buffer_base, self.pmblimitr());
        }
        let w = self.watermark();
        let limit = ((head / w + 1) * w).min(self.buffer_size);
        (
            self.buffer_base + head,
            self.limit_at(self.buffer_base + limit),
        )
    }

    /// The first start, in order: the boot state ([`SampleSettings::boot`]), buffer at the ring's start,
    /// then [`SampleSettings::start_after_buffer`] with the initial count.
    pub fn program(&self) -> Vec<(RegId, u64)> {
        let (ptr, limit) = self.buffer(0);
        let mut seq = self.boot();
        seq.push((RegId::Pmbptr, pmbptr::PTR.place(ptr)));
        seq.push((RegId::Pmblimitr, limit));
        seq.extend(self.start_after_buffer(self.initial_icr()));
        seq
    }

    /// The PMSICR of the first start: COUNT = the initial count (the interval unless
    /// given), ECOUNT = 0, as Linux's `period_left` starts at the sample period.
    pub fn initial_icr(&self) -> u64 {
        pmsicr::COUNT.place(self.initial_count.unwrap_or(self.interval))
    }

    /// PMBLIMITR for a limit address (fill mode, enabled).
    fn limit_at(&self, limit: u64) -> u64 {
        pmblimitr::LIMIT.place(limit >> pmblimitr::LIMIT.lsb)
            | pmblimitr::FM.place(pmblimitr::FM_FILL)
            | pmblimitr::E.place(1)
            | pmblimitr::PMFZ.place(self.pmfz.into())
            | pmblimitr::NVM.place(self.nvm.is_some().into())
    }
}

impl Default for SampleSettings {
    fn default() -> Self {
        SampleSettings::perf_default(&Config::default())
    }
}

/// One buffer management event the driver serviced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MgmtEvent {
    pub cycle: u64,
    pub pmbsr: u64,
    pub pmbptr: u64,
    /// Bytes copied to the output for this event.
    pub bytes: u64,
}

impl MgmtEvent {
    /// Buffer-full event (EC = buffer management, BSC = full).
    pub fn is_full(&self) -> bool {
        pmbsr::EC.get(self.pmbsr) == pmbsr::EC_BUF && pmbsr::BSC.get(self.pmbsr) == pmbsr::BSC_FULL
    }
    /// Fault event (external abort on a record write).
    pub fn is_fault(&self) -> bool {
        pmbsr::EC.get(self.pmbsr) != pmbsr::EC_BUF || pmbsr::EA.is_set(self.pmbsr)
    }
}

/// One step of the driver's program: a register access or a PSB (each one bus cycle or
/// more), or a decision taken on what was read (no cycle).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Access {
    Write(RegId, u64),
    Read(RegId),
    /// PSB CSYNC: `psb_req` until `psb_done`.
    Psb,
    /// The PMBSR just read: decide what the fault check does next.
    Status(Ctx),
    /// The PMBPTR just read: end the AUX output, then go on.
    AuxEnd(Ctx, Act),
    /// The PMSICR just read: kept whole for the next start.
    SavePeriod,
    /// Begin an AUX output: PMBPTR and PMBLIMITR from the ring.
    Begin,
    /// A stop's PSB completed: the unit must not write until the next begin.
    Quiesced,
    /// A phase change at this point of the program.
    Enter(Phase),
    /// The higher-EL bank (PMBSR_EL2 or _EL3) just read: reflect its event to EL1.
    Reflect(RegId),
}

/// Why the fault check runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ctx {
    Irq,
    Stop,
}

/// What the fault check decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Act {
    Spurious,
    Full,
    Fatal,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Profiling on (or being started).
    Running,
    /// Stopped at a context switch, or being stopped.
    Off,
    /// Stopped for good (a fault with [`FaultAction::Stop`], or a truncated output).
    Stopped,
    /// The final stop is done.
    Done,
}

/// One AUX record: an output of the ring, as perf reports it (PERF_RECORD_AUX).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AuxRecord {
    /// Offset in the ring where the output began (the head).
    pub offset: u64,
    /// Bytes written: PMBPTR minus the head.
    pub size: u64,
    /// Lost data (PMBSR.DL): PERF_AUX_FLAG_TRUNCATED and PERF_AUX_FLAG_PARTIAL.
    pub truncated: bool,
    /// Collisions seen (PMBSR.COLL): PERF_AUX_FLAG_COLLISION.
    pub collision: bool,
}

/// The driver.
pub struct Driver {
    settings: SampleSettings,
    queue: VecDeque<Access>,
    issued: Option<Access>,
    phase: Phase,
    /// `irq` (or `exc_el1`) seen high last cycle (and not just cleared).
    irq: bool,
    /// The bank of an SPE Profiling exception to EL3 or EL2 seen pending last cycle (and
    /// not just cleared): the higher EL's handler reflects it to EL1.
    higher: Option<RegId>,
    /// The last PMBSR read.
    status: u64,
    /// The ring's head (offset) and the current output's flags.
    head: u64,
    truncated: bool,
    collision: bool,
    /// The PMBPTR written at the current output's begin, if one is open.
    open: Option<u64>,
    /// A begin the memory has not heard of yet.
    pending_open: Option<u64>,
    /// The PMSICR to write at the next start: the whole value read at the last stop.
    period_left: u64,
    /// The last PMBPTR and PMSICR read.
    ptr: u64,
    icr: u64,
    aux: Vec<u8>,
    events: Vec<MgmtEvent>,
    records: Vec<AuxRecord>,
    /// The hardware thread whose registers, PSB lane, interrupt and buffer this driver
    /// serves (the CPU it runs on).
    thread: usize,
    /// The record slot (PMBIDR.Align, which Linux reads at probe): the ring's head stays
    /// on it.
    slot: u64,
    /// The draws of [`SampleSettings::exc_reroute`].
    reroute: Option<Rng>,
    /// With [`SampleSettings::and_term_reroll`]: its draws, the settings' own type filter
    /// ([`SampleSettings::type_bits`]) and the terms' cyclic draw (each type set and clear
    /// once in every ten terms).
    reroll: Option<(Rng, [bool; 10], Cyclic)>,
}

impl Driver {
    /// A driver that will program `settings` from the first cycle.
    pub fn new(settings: SampleSettings) -> Result<Driver, String> {
        settings.validate()?;
        // `program()`'s order, with the buffer written by the first output's begin.
        let mut queue: VecDeque<Access> = settings
            .boot()
            .into_iter()
            .map(|(r, v)| Access::Write(r, v))
            .collect();
        queue.push_back(Access::Begin);
        let start = settings.start_after_buffer(settings.initial_icr());
        queue.extend(start.into_iter().map(|(r, v)| Access::Write(r, v)));
        let reroute = settings.exc_reroute.map(Rng::new);
        let reroll = settings
            .and_term_reroll
            .map(|seed| (Rng::new(seed), settings.type_bits(), Cyclic::new(10)));
        Ok(Driver {
            period_left: settings.initial_icr(),
            settings,
            queue,
            issued: None,
            phase: Phase::Running,
            irq: false,
            higher: None,
            status: 0,
            head: 0,
            truncated: false,
            collision: false,
            open: None,
            pending_open: None,
            ptr: 0,
            icr: 0,
            aux: Vec::new(),
            events: Vec::new(),
            records: Vec::new(),
            thread: 0,
            slot: 1 << RECORD_SIZE_LOG2,
            reroute,
            reroll,
        })
    }

    /// The driver of hardware thread `thread` (its register bank through `reg_tid`, its
    /// PSB lane, interrupt and buffer) of a unit with `record_size`-byte records
    /// (`Config::record_size`).
    pub fn for_thread(
        settings: SampleSettings,
        thread: usize,
        record_size: usize,
    ) -> Result<Driver, String> {
        let mut d = Driver::new(settings)?;
        d.thread = thread;
        d.slot = record_size as u64;
        Ok(d)
    }

    /// True when this cycle's access (driven by [`Driver::drive`]) is on the register port.
    pub fn wants_port(&self) -> bool {
        matches!(self.issued, Some(Access::Write(..) | Access::Read(_)))
    }

    /// The register port went to another thread's driver this cycle: this cycle's access
    /// did not happen and is retried next cycle (call before [`Driver::observe`]).
    pub fn blocked(&mut self) {
        if let Some(a) = self.issued.take() {
            self.queue.push_front(a);
        }
    }

    /// Drives this cycle's register access or PSB request, if any.
    pub fn drive(&mut self, _cycle: u64, inp: &mut Inputs) {
        if self.irq && self.queue.is_empty() && self.phase == Phase::Running {
            self.fault_check(Ctx::Irq);
        }
        if let (Some(bank), true) = (self.higher, self.queue.is_empty()) {
            self.queue
                .extend([Access::Read(bank), Access::Reflect(bank)]);
        }
        let fw = &mut inp.thr[self.thread];
        fw.mdcr_pmsee = self.settings.pmsee & 3;
        fw.scr_ea = self.settings.scr_ea;
        fw.hcr_tea = self.settings.hcr_tea;
        // Decisions that can lead a program (a start's begin, a phase change) run here.
        while let Some(a @ (Access::Begin | Access::Enter(_))) = self.queue.front().copied() {
            self.queue.pop_front();
            self.decide_now(a);
        }
        self.issued = self.queue.pop_front();
        match self.issued {
            Some(Access::Write(r, v)) => {
                inp.reg_en = true;
                inp.reg_tid = self.thread as u8;
                inp.reg_we = true;
                inp.reg_addr = reg(r).addr();
                inp.reg_wdata = v;
            }
            Some(Access::Read(r)) => {
                inp.reg_en = true;
                inp.reg_tid = self.thread as u8;
                inp.reg_we = false;
                inp.reg_addr = reg(r).addr();
            }
            Some(Access::Psb) => inp.thr[self.thread].psb_req = true,
            _ => {}
        }
    }

    /// Takes read data, the PSB completion and the interrupt; runs the decisions that
    /// follow; copies ended outputs out of `mem`.
    pub fn observe(&mut self, cycle: u64, out: &Outputs, mem: &mut Memory) {
        if let Some(ptr) = self.pending_open.take() {
            mem.open_session(self.thread, ptr);
        }
        let cleared = |bank| self.issued == Some(Access::Write(bank, 0));
        // irq and the exceptions follow the registers: in the cycle a bank is cleared
        // they still show the old status.
        let o = &out.thr[self.thread];
        let own = self.settings.status_bank();
        // The kernel's own status bank raises its interrupt: PMBIRQ or the EL1 exception,
        // or in a VHE host whose accesses reach PMBSR_EL2 the EL2 exception.
        self.irq = if own == RegId::PmbsrEl2 {
            o.exc_el2 && !cleared(own)
        } else {
            (o.irq || o.exc_el1) && !cleared(own)
        };
        self.higher = if o.exc_el3 && !cleared(RegId::PmbsrEl3) {
            Some(RegId::PmbsrEl3)
        } else if o.exc_el2 && own != RegId::PmbsrEl2 && !cleared(RegId::PmbsrEl2) {
            Some(RegId::PmbsrEl2)
        } else {
            None
        };
        match self.issued.take() {
            Some(Access::Read(RegId::Pmbsr | RegId::PmbsrEl2 | RegId::PmbsrEl3)) => {
                self.status = out.reg_rdata
            }
            Some(Access::Read(RegId::Pmbptr)) => self.ptr = out.reg_rdata,
            Some(Access::Read(RegId::Pmsicr)) => self.icr = out.reg_rdata,
            Some(Access::Psb) if !out.thr[self.thread].psb_done => {
                self.queue.push_front(Access::Psb)
            }
            _ => {}
        }
        // Decisions run at once, in program order, until the next bus access.
        while let Some(a) = self.queue.front().copied() {
            match a {
                Access::Write(..) | Access::Read(_) | Access::Psb => break,
                _ => {
                    self.queue.pop_front();
                    self.decide(cycle, a, mem);
                }
            }
        }
    }

    /// Runs one decision of the program.
    fn decide(&mut self, cycle: u64, a: Access, mem: &mut Memory) {
        match a {
            Access::Status(ctx) => {
                let st = self.status;
                if !pmbsr::S.is_set(st) {
                    // Spurious: an interrupt ends here; a stop still ends its output.
                    if ctx == Ctx::Stop {
                        self.front(&[
                            Access::Read(RegId::Pmbptr),
                            Access::AuxEnd(ctx, Act::Spurious),
                        ]);
                    }
                    return;
                }
                self.truncated |= pmbsr::DL.is_set(st);
                self.collision |= pmbsr::COLL.is_set(st);
                let full =
                    pmbsr::EC.get(st) == pmbsr::EC_BUF && pmbsr::BSC.get(st) == pmbsr::BSC_FULL;
                let act = if full { Act::Full } else { Act::Fatal };
                self.front(&[Access::Read(RegId::Pmbptr), Access::AuxEnd(ctx, act)]);
            }
            Access::AuxEnd(ctx, act) => {
                let truncated = self.truncated;
                self.aux_end(cycle, mem);
                let mut next = Vec::new();
                let restart = self.settings.on_fault == FaultAction::Restart;
                match (ctx, act) {
                    // A fault, or a truncated output (perf disables its event): stop, or
                    // with FaultAction::Restart begin a new output so a long run goes on.
                    (Ctx::Irq, Act::Fatal) | (Ctx::Irq, Act::Full)
                        if truncated || act == Act::Fatal =>
                    {
                        if restart {
                            next.push(Access::Begin);
                        } else {
                            next.extend(self.disable_and_drain());
                            next.push(Access::Enter(Phase::Stopped));
                        }
                    }
                    (Ctx::Irq, _) => next.push(Access::Begin),
                    (Ctx::Stop, _) => {}
                }
                if act != Act::Spurious {
                    next.push(Access::Write(self.settings.status_bank(), 0));
                }
                if ctx == Ctx::Stop {
                    next.push(Access::Read(RegId::Pmsicr));
                    next.push(Access::SavePeriod);
                }
                self.front(&next);
            }
            // arm_spe_pmu_stop: `local64_set(&hwc->period_left, read_sysreg_s(PMSICR))`,
            // the whole register, so that a pending ECOUNT (FEAT_SPE_ERnd) survives.
            Access::SavePeriod => self.period_left = self.icr,
            Access::Begin | Access::Enter(_) => {
                self.decide_now(a);
                if let Some(ptr) = self.pending_open.take() {
                    mem.open_session(self.thread, ptr);
                }
            }
            Access::Quiesced => mem.quiesce(self.thread),
            // The kernel's bank's S set first (profiling stays stopped), then the higher
            // bank cleared.
            Access::Reflect(bank) => {
                let st = std::mem::take(&mut self.status);
                if pmbsr::S.is_set(st) {
                    let own = self.settings.status_bank();
                    self.front(&[Access::Write(own, st), Access::Write(bank, 0)]);
                }
            }
            Access::Write(..) | Access::Read(_) | Access::Psb => unreachable!("bus access"),
        }
    }

    /// The decisions that need no memory: a begin (the memory hears of it at the next
    /// observe, before the PMBPTR write can matter) and a phase change.
    fn decide_now(&mut self, a: Access) {
        match a {
            Access::Begin => {
                let (ptr, limit) = self.begin();
                if !self.settings.discard {
                    self.pending_open = Some(ptr);
                    self.open = Some(ptr);
                }
                self.front(&[
                    Access::Write(RegId::Pmbptr, pmbptr::PTR.place(ptr)),
                    Access::Write(RegId::Pmblimitr, limit),
                ]);
            }
            Access::Enter(p) => self.phase = p,
            _ => unreachable!("not a memory-free decision"),
        }
    }

    /// Puts `seq` at the front of the program, in order.
    fn front(&mut self, seq: &[Access]) {
        for a in seq.iter().rev() {
            self.queue.push_front(*a);
        }
    }

    /// `arm_spe_pmu_disable_and_drain_local`: PMSCR = 0 (but for EE and KE, which a driver
    /// using FEAT_SPE_EXC keeps), PSB, PMBLIMITR = 0.
    fn disable_and_drain(&self) -> Vec<Access> {
        vec![
            Access::Write(self.settings.control(), self.settings.exc_bits()),
            Access::Psb,
            Access::Quiesced,
            Access::Write(RegId::Pmblimitr, 0),
        ]
    }

    /// The fault check (`arm_spe_pmu_buf_get_fault_act`): PSB, then read PMBSR.
    fn fault_check(&mut self, ctx: Ctx) {
        let own = self.settings.status_bank();
        self.queue
            .extend([Access::Psb, Access::Read(own), Access::Status(ctx)]);
    }

    /// The next output of the ring: PMBPTR at the head, the limit at the next watermark
    /// boundary or the ring's end (always at least one record slot above the head).
    fn begin(&mut self) -> (u64, u64) {
        self.settings.buffer(self.head)
    }

    /// Ends the open output at the PMBPTR just read: copies [head, PMBPTR) out, audits the
    /// memory, records the AUX record and the management event, moves the head.
    fn aux_end(&mut self, cycle: u64, mem: &mut Memory) {
        let ptr = self.ptr;
        let Some(start) = self.open.take() else {
            return;
        };
        let (base, size) = (self.settings.buffer_base, self.settings.buffer_size);
        let end = ptr.clamp(start, base + size);
        let bytes = end - start;
        mem.audit_session(self.thread, cycle, start, ptr);
        self.aux.extend(mem.read(start, bytes));
        if pmbsr::S.is_set(self.status) || bytes > 0 {
            self.events.push(MgmtEvent {
                cycle,
                pmbsr: self.status,
                pmbptr: ptr,
                bytes,
            });
        }
        self.records.push(AuxRecord {
            offset: start - base,
            size: bytes,
            truncated: self.truncated,
            collision: self.collision,
        });
        self.truncated = false;
        self.collision = false;
        self.status = 0;
        // Whole records only: the head stays on a record slot; it wraps at the ring's end.
        self.head = (end - base) & !(self.slot - 1);
        if self.head >= size {
            self.head = 0;
        }
    }

    /// A context switch away: stop (`arm_spe_pmu_stop` with PERF_EF_UPDATE). Ignored unless
    /// profiling runs and the driver is idle.
    pub fn switch_out(&mut self) -> bool {
        if self.phase != Phase::Running || !self.idle() {
            return false;
        }
        self.phase = Phase::Off;
        let stop = self.disable_and_drain();
        self.queue.extend(stop);
        self.fault_check(Ctx::Stop);
        true
    }

    /// A context switch back: start again (`arm_spe_pmu_start` with PERF_EF_RELOAD).
    pub fn switch_in(&mut self) -> bool {
        if self.phase != Phase::Off || !self.idle() {
            return false;
        }
        self.phase = Phase::Running;
        // A new FEAT_SPE_EXC routing: PMSEE from the next drive on, EL2's EE written now
        // (non-VHE), EL1's with the control at the end of the start.
        // A VHE host's EE is its control's, written at the end of the start.
        if let Some(r) = &mut self.reroute {
            let s = &mut self.settings;
            if s.host {
                (s.pmsee, s.exc_ee) = exc_routing_host(r);
            } else {
                (s.pmsee, s.el2_ee, s.exc_ee) = exc_routing(r);
            }
            if let Some((reg, v)) = s.el2_boot() {
                self.queue.push_back(Access::Write(reg, v));
            }
        }
        if let Some((r, own, terms)) = &mut self.reroll {
            self.settings.set_type_bits(*own);
            if self.settings.and_term_always || r.chance(0.5) {
                let t = terms.next(r) as usize;
                self.settings.set_and_term(t / 2, t.is_multiple_of(2));
            }
        }
        if !self.settings.discard {
            self.queue.push_back(Access::Begin);
        } else {
            self.queue
                .push_back(Access::Write(RegId::Pmblimitr, self.settings.pmblimitr()));
        }
        let seq = self.settings.start_after_buffer(self.period_left);
        self.queue
            .extend(seq.into_iter().map(|(r, v)| Access::Write(r, v)));
        true
    }

    /// The end of the run: the final stop (as at a context switch), then done.
    pub fn finish(&mut self) {
        match self.phase {
            Phase::Running => {
                // The stop follows whatever is queued: an interrupt service in progress
                // ends first (switch_out would refuse to start while one is, and the run
                // would then end without its stop and its last output).
                self.phase = Phase::Off;
                let stop = self.disable_and_drain();
                self.queue.extend(stop);
                self.fault_check(Ctx::Stop);
                self.queue.push_back(Access::Enter(Phase::Done));
            }
            Phase::Off | Phase::Stopped => self.queue.push_back(Access::Enter(Phase::Done)),
            Phase::Done => {}
        }
    }

    /// True when nothing is queued and no access is in flight.
    pub fn idle(&self) -> bool {
        self.queue.is_empty() && self.issued.is_none()
    }

    /// True once the final stop finished.
    pub fn done(&self) -> bool {
        self.phase == Phase::Done && self.queue.is_empty()
    }

    /// The drained record bytes, in order (the perf AUX data).
    pub fn aux(&self) -> &[u8] {
        &self.aux
    }

    pub fn take_aux(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.aux)
    }

    /// Management events (each serviced status with S set, and every output with data).
    pub fn events(&self) -> &[MgmtEvent] {
        &self.events
    }

    /// The AUX records, in order.
    pub fn aux_records(&self) -> &[AuxRecord] {
        &self.records
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use spe_defs::PRESETS;

    #[test]
    fn check_for_refuses_what_the_unit_does_not_build_and_accepts_it_where_built() {
        let v1p2x = Config::preset("v1p2x").unwrap();
        let v1p4 = Config::preset("v1p4").unwrap();
        let plain = &Config::default();
        for (what, built_in, s) in [
            (
                "FEAT_SPE_EFT",
                "v1p4, v1p5, smt2_v1p4",
                SampleSettings {
                    store_filter_mask: true,
                    ..SampleSettings::perf_default(plain)
                },
            ),
            (
                "FEAT_SPE_FDS",
                "v1p4, v1p5, smt2_v1p4",
                SampleSettings {
                    inv_data_src_filter: 1,
                    ..SampleSettings::perf_default(plain)
                },
            ),
            (
                "PMBLIMITR.PMFZ",
                "v1p2x, v1p4, v1p5, smt2_v1p4",
                SampleSettings {
                    pmfz: true,
                    ..SampleSettings::perf_default(plain)
                },
            ),
            (
                "FEAT_SPE_FnE",
                "v1p2x, v1p4, v1p5, smt2_v1p4",
                SampleSettings {
                    inv_event_filter: 1 << 7,
                    ..SampleSettings::perf_default(plain)
                },
            ),
        ] {
            let e = s.check_for(plain).unwrap_err();
            assert!(e.contains(what) && e.contains("EOPNOTSUPP"), "{e}");
            assert!(e.contains(&format!("built in {built_in})")), "{e}");
            assert_eq!(s.check_for(v1p4), Ok(()), "{what} on v1p4");
            // v1p2x (SPEv1p2) has FnE and PMFZ, not SPEv1p4's EFT and FDS.
            assert_eq!(
                s.check_for(v1p2x).is_ok(),
                built_in.contains("v1p2x"),
                "{what} on v1p2x"
            );
        }
        let s = SampleSettings {
            inv_event_filter: 1 << 12,
            ..SampleSettings::perf_default(plain)
        };
        assert!(s.check_for(v1p2x).unwrap_err().contains("RES0"));
        // E[6] (Not taken) is filterable only with FEAT_SPE_FnE.
        let s = SampleSettings {
            event_filter: 1 << 6,
            ..SampleSettings::perf_default(plain)
        };
        assert!(s.check_for(plain).unwrap_err().contains("RES0"));
        assert_eq!(s.check_for(v1p2x), Ok(()));
        assert_eq!(SampleSettings::perf_default(plain).check_for(plain), Ok(()));
        // SPEv1p5's two options: only v1p5 builds them.
        let v1p5 = Config::preset("v1p5").unwrap();
        for (what, s) in [
            (
                "FEAT_SPE_nVM",
                SampleSettings {
                    nvm: Some(0xff),
                    ..SampleSettings::perf_default(plain)
                },
            ),
            (
                "FEAT_SPE_EXC",
                SampleSettings {
                    exc_ee: 0b11,
                    ..SampleSettings::perf_default(plain)
                },
            ),
            (
                "FEAT_SPE_EXC",
                SampleSettings {
                    pmsee: spe_defs::regs::mdcr_pmsee::DELEGATED,
                    ..SampleSettings::perf_default(plain)
                },
            ),
        ] {
            let e = s.check_for(v1p4).unwrap_err();
            assert!(e.contains(what) && e.contains("built in v1p5)"), "{e}");
            assert_eq!(s.check_for(v1p5), Ok(()), "{what} on v1p5");
        }
    }

    #[test]
    fn perf_defaults_follow_the_configuration() {
        for cfg in PRESETS {
            let s = SampleSettings::perf_default(cfg);
            s.validate().unwrap();
            assert_eq!(s.interval, u64::from(cfg.min_interval()));
            assert!(s.user && s.kernel && s.ts && !s.pa && !s.discard);
        }
    }

    #[test]
    fn invalid_buffers_are_rejected() {
        let mut s = SampleSettings {
            buffer_base: 0x1001,
            ..SampleSettings::default()
        };
        assert!(s.validate().unwrap_err().contains("aligned"));
        s.buffer_base = 0x1000;
        s.buffer_size = 100;
        assert!(s.validate().is_err());
        s.buffer_size = 4096;
        s.interval = 1 << 40;
        assert!(s.validate().is_err());
    }

    #[test]
    fn enable_is_the_last_write_of_the_start_up_sequence() {
        let s = SampleSettings::default();
        let seq = s.program();
        assert_eq!(seq.last().unwrap().0, RegId::PmscrEl1);
        let host = SampleSettings {
            host: true,
            ..SampleSettings::default()
        }
        .program();
        assert_eq!(host.last().unwrap().0, RegId::PmscrEl2);
        assert!(pmscr::E0SPE.is_set(host.last().unwrap().1));
    }
}
