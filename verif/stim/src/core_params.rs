//! The behaviour parameters of the core model ([`CoreParams`]): shared by the core
//! ([`crate::core`]), its front end (the walker) and the workloads that tune them.

use crate::uop::Mode;

/// Behaviour of the core. Ranges are inclusive `(min, max)`; rates are probabilities.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CoreParams {
    /// Reorder-buffer entries: dispatch stalls while this many ops are incomplete.
    pub rob_size: usize,
    /// Per-cycle probability that a front-end bubble (I-cache miss, fetch stall) starts.
    pub bubble_rate: f64,
    pub bubble_len: (u32, u32),
    /// Per-cycle probability that fewer than W ops dispatch (rename limits).
    pub partial_group_rate: f64,
    /// Cycles from dispatch to issue.
    pub issue_lat: (u32, u32),
    /// Probability that an op waits much longer to issue (operand from a cache miss).
    pub long_issue_rate: f64,
    pub long_issue_lat: (u32, u32),
    /// Empty cycles after a flush before the correct path dispatches.
    pub redirect_penalty: u32,
    /// Per-op probability that a user load/store faults or an op traps (needs kernel code).
    pub exception_rate: f64,
    /// Probability that a conditional select fails its condition.
    pub cond_fail_rate: f64,
    /// Probability that a load/store is misaligned.
    pub misaligned_rate: f64,
    /// Per-op probability of an interrupt or system call into the kernel (needs kernel code).
    pub kernel_rate: f64,
    /// Ops per kernel stretch.
    pub kernel_len: (u32, u32),
    /// Probability that a kernel stretch switches process (new CONTEXTIDR_EL1).
    pub ctx_switch_rate: f64,
    /// Per-op probability that user code enters an AArch32 stretch.
    pub aarch32_rate: f64,
    pub aarch32_len: (u32, u32),
    /// Per-op probability of a stretch with profiling disallowed by EL3.
    pub noprof_rate: f64,
    pub noprof_len: (u32, u32),
    /// Per-cycle probability of a stray hook report while no op is tagged (robustness).
    pub stray_rate: f64,
    /// Run in Secure state (NS = 0).
    pub secure: bool,
    /// The Guarded Control Stack is enabled (FEAT_GCS): every branch with link pushes it
    /// and every procedure return pops it, so the core reports them with GCS (subclass bit
    /// 2) set. A unit with FEAT_SPE_CRR records the bit and filters such a branch as a
    /// store or a load too (D17.6.3); any other unit clears it.
    pub gcs: bool,
    /// VHE host: HCR_EL2.{E2H,TGE} = 11 and the kernel runs at EL2.
    pub vhe_host: bool,
    /// In a VHE host, the per-op probability that the host enters a guest (KVM on a VHE
    /// kernel) for `guest_len` ops: HCR_EL2.TGE = 0 with E2H still 1, the program's user
    /// code at EL0 and its kernel code at EL1 (the guest's), MDCR_EL2.E2PB the host's.
    pub guest_rate: f64,
    pub guest_len: (u32, u32),
    /// The per-op probability, in kernel code, of a call into EL3 firmware (an SMC to the
    /// secure monitor: PSCI, a trusted service) for `el3_len` ops of kernel code run at
    /// EL3 in Secure state, AArch64, `prof_allowed` as before: ops the unit never samples
    /// nor counts (DESIGN §4, J1 `StatisticalProfilingEnabled`: no owner is above EL3).
    pub el3_rate: f64,
    pub el3_len: (u32, u32),
    /// The share of indirect branches the core's decoder does not classify: dispatched
    /// with IND clear in `disp_subclass`, the branch report's `br_indirect` sets it (the
    /// port's contract: ORed into the op-type IND bit).
    pub late_ind_rate: f64,
    /// EL2 implemented and enabled (`el2_en`); without it the HCR_EL2 and MDCR_EL2 inputs
    /// do not count and the buffer is EL1's.
    pub el2: bool,
    /// MDCR_EL2.E2PB; `None` is Linux's value: 00 (EL2 owns the buffer) in a VHE host,
    /// else 11 (EL1 owns it).
    pub e2pb: Option<u8>,
    /// Virtual counter at cycle 0 (it advances by one per cycle).
    pub counter_start: u64,
    /// Physical counter = virtual counter + this.
    pub counter_offset: u64,
    /// Initial CONTEXTIDR_EL1 (a process id).
    pub pid: u32,
    /// A context switch writes CONTEXTIDR_EL1 = this plus a random value below 30000.
    pub pid_base: u32,
    /// CONTEXTIDR_EL2 (constant).
    pub ctx_el2: u32,
    /// Fraction of user pages on the remote node.
    pub remote_fraction: f64,
    /// Probability that an L2 miss is served by a peer core or cluster.
    pub peer_rate: f64,
    /// Physical base of DRAM: the kernel's linear map and the user pages are above it.
    pub dram_base: u64,
    /// Probability that a TLB miss is a slow two-stage walk (256 to 65535 cycles more).
    pub slow_walk_rate: f64,
    /// Per sampled op, the probability that it stalls for `sampled_stall_len` cycles (a
    /// stream of its own, see [`crate::core::Core`]): before its issue, in its
    /// translation (a load/store) or before its completion, so that the latency counters
    /// of a written record reach their maximum (the functional coverage's
    /// `latency/<counter>-saturated` points).
    pub sampled_stall_rate: f64,
    pub sampled_stall_len: (u32, u32),
    /// At most this many sampled ops stall in a run (`u32::MAX`: no limit).
    pub sampled_stall_max: u32,
    /// No sampled op stalls before this cycle (the regression's timeouts job, whose
    /// stall phase needs the unit free to track a sample of each class in turn).
    pub sampled_stall_from: u64,
    /// The stalls take each place in turn (before the issue, in the translation, before
    /// the completion) instead of a place drawn; the translation's turn waits for a
    /// sampled load/store (the regression's timeouts job, whose few stalls must give each
    /// latency counter its maximum).
    pub sampled_stall_rotate: bool,
    /// When software's PSB CSYNC comes while a sampled op is in flight, the probability
    /// that the op is younger than the PSB (dispatched after it and stalled behind it):
    /// the core raises `psb_req` at once instead of after the op's completion report, the
    /// unit drops the sample, and the core sends no further report for it (a stream of
    /// its own, see [`crate::core::Core::psb_meets_young`]).
    pub psb_young_rate: f64,
    /// A PSB CSYNC held back by the sampled op older than it reaches the unit this many
    /// cycles after that op's completion report at most (0 to this, drawn per PSB from a
    /// stream of its own, see [`crate::core::Core::psb_lag`]), as the PSB retires a few
    /// cycles behind the ops before it: the PSB meets the sample completing, kept or
    /// being written (the functional coverage's `psb/<phase>`). 0: the cycle after.
    pub psb_lag_max: u32,
}

/// Highest DRAM base: the memory system's PAs (DRAM base, plus below 2^40 for the kernel's
/// linear map or 2^36 for user pages, plus the remote node's bit 44) stay below 2^52.
pub const MAX_DRAM_BASE: u64 = (1 << 51) - (1 << 30);

impl Default for CoreParams {
    fn default() -> Self {
        CoreParams {
            rob_size: 128,
            bubble_rate: 0.02,
            bubble_len: (1, 8),
            partial_group_rate: 0.15,
            issue_lat: (1, 3),
            long_issue_rate: 0.1,
            long_issue_lat: (5, 60),
            redirect_penalty: 4,
            exception_rate: 0.0,
            cond_fail_rate: 0.3,
            misaligned_rate: 0.0,
            kernel_rate: 0.0,
            kernel_len: (100, 1000),
            ctx_switch_rate: 0.2,
            aarch32_rate: 0.0,
            aarch32_len: (200, 2000),
            noprof_rate: 0.0,
            noprof_len: (200, 2000),
            stray_rate: 0.0,
            secure: false,
            gcs: false,
            vhe_host: false,
            guest_rate: 0.0,
            guest_len: (500, 5000),
            el3_rate: 0.0,
            el3_len: (16, 256),
            late_ind_rate: 0.0,
            el2: true,
            e2pb: None,
            counter_start: 0x14_20B3_1FA5,
            counter_offset: 0x1000_0000,
            pid: 1234,
            pid_base: 1000,
            ctx_el2: 7,
            remote_fraction: 0.0,
            peer_rate: 0.01,
            dram_base: 0x8000_0000,
            slow_walk_rate: 0.0,
            sampled_stall_rate: 0.0,
            sampled_stall_len: (4096, 5120),
            sampled_stall_max: u32::MAX,
            sampled_stall_from: 0,
            sampled_stall_rotate: false,
            psb_young_rate: 0.0,
            psb_lag_max: 0,
        }
    }
}

impl CoreParams {
    /// The processor state of an op at `el` under these parameters (AArch64, profiling
    /// allowed): Security state, EL2, the buffer's owner and the VHE host bits.
    pub fn mode(&self, el: u8) -> Mode {
        let mut m = Mode::at(el);
        m.ns = !self.secure;
        m.el2 = self.el2;
        if self.vhe_host {
            m = m.in_vhe_host();
        }
        if let Some(e) = self.e2pb {
            m.e2pb = e;
        }
        m
    }

    pub fn validate(&self) -> Result<(), String> {
        let rates = [
            ("bubble_rate", self.bubble_rate),
            ("partial_group_rate", self.partial_group_rate),
            ("long_issue_rate", self.long_issue_rate),
            ("exception_rate", self.exception_rate),
            ("cond_fail_rate", self.cond_fail_rate),
            ("misaligned_rate", self.misaligned_rate),
            ("kernel_rate", self.kernel_rate),
            ("ctx_switch_rate", self.ctx_switch_rate),
            ("aarch32_rate", self.aarch32_rate),
            ("noprof_rate", self.noprof_rate),
            ("stray_rate", self.stray_rate),
            ("guest_rate", self.guest_rate),
            ("el3_rate", self.el3_rate),
            ("late_ind_rate", self.late_ind_rate),
            ("remote_fraction", self.remote_fraction),
            ("peer_rate", self.peer_rate),
            ("slow_walk_rate", self.slow_walk_rate),
            ("sampled_stall_rate", self.sampled_stall_rate),
            ("psb_young_rate", self.psb_young_rate),
        ];
        for (name, r) in rates {
            if !(0.0..=1.0).contains(&r) {
                return Err(format!("core parameter {name} = {r} is not a probability"));
            }
        }
        if let Some(e) = self.e2pb.filter(|&e| e > 3) {
            return Err(format!("core parameter e2pb = {e} is not a 2-bit value"));
        }
        let ranges = [
            ("bubble_len", self.bubble_len),
            ("issue_lat", self.issue_lat),
            ("long_issue_lat", self.long_issue_lat),
            ("kernel_len", self.kernel_len),
            ("aarch32_len", self.aarch32_len),
            ("noprof_len", self.noprof_len),
            ("guest_len", self.guest_len),
            ("el3_len", self.el3_len),
            ("sampled_stall_len", self.sampled_stall_len),
        ];
        for (name, (lo, hi)) in ranges {
            if lo > hi {
                return Err(format!(
                    "core parameter {name} = ({lo}, {hi}) has min above max"
                ));
            }
        }
        if !self.dram_base.is_multiple_of(1 << 30) || self.dram_base > MAX_DRAM_BASE {
            return Err(format!(
                "core parameter dram_base = {:#x} is not a 1 GiB-aligned address at most {MAX_DRAM_BASE:#x} (PAs are at most 52 bits)",
                self.dram_base
            ));
        }
        if self.rob_size == 0 {
            return Err("core parameter rob_size must be at least 1".into());
        }
        Ok(())
    }
}
