//! A dynamic micro-op with its outcome fully decided: what the core dispatches and, if the
//! unit tags it, what the core will report through the hooks.
//!
//! Both the code-program walker and trace files produce [`MicroOp`]s; the core only turns
//! them into dispatch slots and hook reports with cycle timing. The `default_*` functions
//! give the values a trace line may leave out (see `docs/trace-format.md`); the walker uses
//! the same tables, so generated and hand-written ops look alike.

use spe_defs::impdef::data_source;
use spe_defs::packet::{op_class, subclass};
use spe_defs::regs::mdcr_e2pb;

/// Processor state of the group an op dispatches in (group-wide hook inputs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Mode {
    /// Exception level 0..=3.
    pub el: u8,
    /// Non-secure.
    pub ns: bool,
    /// EL2 is implemented and enabled in this Security state (`el2_en`).
    pub el2: bool,
    /// MDCR_EL2.E2PB (`mdcr_e2pb`): 00 the buffer is owned by EL2, else by EL1.
    pub e2pb: u8,
    /// HCR_EL2.TGE and E2H (`hcr_tge`, `hcr_e2h`); both set is a VHE host.
    pub tge: bool,
    pub e2h: bool,
    /// AArch32 state (not in the population).
    pub aarch32: bool,
    /// EL3 policy allows profiling.
    pub prof_allowed: bool,
}

impl Mode {
    /// Non-secure AArch64 at `el`, profiling allowed, EL2 enabled with the buffer owned by
    /// EL1 and HCR_EL2.{E2H,TGE} = 00 (a Linux kernel at EL1: MDCR_EL2.E2PB = 11).
    pub const fn at(el: u8) -> Mode {
        Mode {
            el,
            ns: true,
            el2: true,
            e2pb: mdcr_e2pb::EL1_OWNS,
            tge: false,
            e2h: false,
            aarch32: false,
            prof_allowed: true,
        }
    }

    /// The same op in a VHE host (HCR_EL2.{E2H,TGE} = 11) whose EL2 owns the buffer
    /// (MDCR_EL2.E2PB = 00, as Linux sets it in a VHE host).
    pub const fn in_vhe_host(self) -> Mode {
        Mode {
            e2pb: mdcr_e2pb::EL2_OWNS,
            tge: true,
            e2h: true,
            ..self
        }
    }

    /// Both HCR_EL2.E2H and TGE set (the `host` flag of a trace line).
    pub const fn vhe_host(&self) -> bool {
        self.tge && self.e2h
    }

    /// The MDCR_EL2.E2PB a trace line leaves out: 00 in a VHE host, else 11.
    pub const fn default_e2pb(tge: bool, e2h: bool) -> u8 {
        if tge && e2h {
            mdcr_e2pb::EL2_OWNS
        } else {
            mdcr_e2pb::EL1_OWNS
        }
    }
}

/// Address translation outcome of a load/store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tlb {
    /// No TLB involved (no TLB events), e.g. translation disabled.
    Off,
    /// TLB hit (TLB-ACCESS).
    Hit,
    /// TLB miss and page walk (TLB-ACCESS and TLB-REFILL).
    Walk,
}

impl Tlb {
    pub const fn access(self) -> bool {
        !matches!(self, Tlb::Off)
    }
    pub const fn walk(self) -> bool {
        matches!(self, Tlb::Walk)
    }
}

/// Cache events reported with the memory hook.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemEvents {
    pub l1d_access: bool,
    pub l1d_refill: bool,
    pub llc_access: bool,
    pub llc_miss: bool,
    pub remote: bool,
}

impl MemEvents {
    /// The events that match a data-source code (`spe_defs::impdef::data_source`): every
    /// access looks up the L1D; anything beyond it refilled the L1D; the system cache is the
    /// LLC; DRAM, a peer cluster and a remote node are LLC misses; remote sets REMOTE.
    pub fn for_source(source: u8) -> MemEvents {
        let mut e = MemEvents {
            l1d_access: true,
            ..MemEvents::default()
        };
        match source {
            data_source::L1D => {}
            data_source::L2 | data_source::PEER_CORE | data_source::LOCAL_CLUSTER => {
                e.l1d_refill = true
            }
            data_source::SYSTEM_CACHE => {
                e.l1d_refill = true;
                e.llc_access = true;
            }
            data_source::PEER_CLUSTER | data_source::DRAM => {
                e.l1d_refill = true;
                e.llc_access = true;
                e.llc_miss = true;
            }
            data_source::REMOTE => {
                e.l1d_refill = true;
                e.llc_access = true;
                e.llc_miss = true;
                e.remote = true;
            }
            _ => {}
        }
        e
    }
}

/// The data access of a load/store/atomic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemAccess {
    /// Data virtual address (reported with translation start).
    pub va: u64,
    /// Physical address (56 bits, reported with translation done).
    pub pa: u64,
    pub tlb: Tlb,
    /// Cycles from translation start to done (0: done in the same cycle).
    pub xlat_lat: u32,
    /// Data-source code (reported with memory done).
    pub source: u8,
    pub events: MemEvents,
    /// Misaligned access (ALIGNMENT event).
    pub misaligned: bool,
    /// The page is Non-secure memory: a Secure-state access to it is in the Non-secure
    /// physical address space (`xl_pa_ns`). Non-secure state accesses are always.
    pub ns_mem: bool,
    /// Cycles from translation done to memory done (at least 1).
    pub mem_lat: u32,
}

/// How a branch resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BranchOutcome {
    pub target: u64,
    pub taken: bool,
    pub mispred: bool,
    /// Resolved as an indirect branch (ORed into the op-type IND bit by the unit).
    pub indirect: bool,
    /// The Exception level and Security state at the target (`br_target_el`,
    /// `br_target_ns`): the branch's own, except after an exception return.
    pub target_el: u8,
    pub target_ns: bool,
}

/// One dispatched micro-op and everything that will happen to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MicroOp {
    pub pc: u64,
    /// Operation Type class (`spe_defs::packet::op_class`).
    pub class: u8,
    /// Operation Type payload (`spe_defs::packet::subclass`).
    pub subclass: u8,
    /// The dispatch hook's conditional flag.
    pub cond: bool,
    pub mode: Mode,
    /// Dispatched on a mispredicted path (or behind an exception): it is flushed and
    /// completes with retired = 0.
    pub wrong_path: bool,
    /// Generates an exception (EXCEPTION-GEN). A faulting load/store does not retire and
    /// makes no memory access; other ops (SVC-like) retire.
    pub exception: bool,
    /// A conditional non-branch op that failed its condition.
    pub cond_fail: bool,
    /// Data access (load/store ops only).
    pub mem: Option<MemAccess>,
    /// Branch resolution (branch ops only).
    pub branch: Option<BranchOutcome>,
    /// Cycles from dispatch (the tag cycle) to issue, at least 1.
    pub issue_lat: u32,
    /// Execution cycles after issue for non-memory ops (branch resolution included), at least 1.
    pub exec_lat: u32,
    /// CONTEXTIDR_EL1 takes this value after the op dispatches (a context switch).
    pub ctx_el1: Option<u32>,
}

impl MicroOp {
    /// A plain op: correct path, no memory or branch outcome, default latencies.
    pub fn new(pc: u64, class: u8, subclass: u8, mode: Mode) -> MicroOp {
        MicroOp {
            pc,
            class,
            subclass,
            cond: default_cond(class, subclass),
            mode,
            wrong_path: false,
            exception: false,
            cond_fail: false,
            mem: None,
            branch: None,
            issue_lat: DEFAULT_ISSUE_LAT,
            exec_lat: default_exec_lat(class, subclass),
            ctx_el1: None,
        }
    }

    /// The completion hook's `retired` flag.
    pub fn retired(&self) -> bool {
        !(self.wrong_path || (self.exception && self.class == op_class::LD_ST_ATOMIC))
    }

    /// True when the op redirects the front end once it resolves (mispredicted branch or
    /// exception): younger ops are on a wrong path and get flushed.
    pub fn redirects(&self) -> bool {
        !self.wrong_path && (self.exception || self.branch.is_some_and(|b| b.mispred))
    }
}

/// Default issue latency (cycles from dispatch to issue).
pub const DEFAULT_ISSUE_LAT: u32 = 2;

/// The conditional flag implied by the subclass: class Other bit COND, class Branch bit COND.
pub fn default_cond(class: u8, sub: u8) -> bool {
    match class {
        op_class::OTHER => sub & subclass::OTHER_COND != 0,
        op_class::BRANCH => sub & subclass::BR_COND != 0,
        _ => false,
    }
}

/// Default execution latency: FP and SIMD take longer than integer ops and branches.
pub fn default_exec_lat(class: u8, sub: u8) -> u32 {
    if class == op_class::OTHER && sub & (subclass::OTHER_FP | subclass::OTHER_SIMD) != 0 {
        4
    } else {
        1
    }
}

/// Default translation latency: same cycle without a TLB, one cycle on a hit, a walk longer.
pub fn default_xlat_lat(tlb: Tlb) -> u32 {
    match tlb {
        Tlb::Off => 0,
        Tlb::Hit => 1,
        Tlb::Walk => 30,
    }
}

/// Typical load-to-use latency of a data source (cycles after translation).
pub fn default_mem_lat(source: u8) -> u32 {
    match source {
        data_source::L1D => 4,
        data_source::L2 => 12,
        data_source::SYSTEM_CACHE => 35,
        data_source::LOCAL_CLUSTER => 40,
        data_source::PEER_CORE => 45,
        data_source::PEER_CLUSTER => 80,
        data_source::DRAM => 180,
        data_source::REMOTE => 320,
        _ => 20,
    }
}

/// Start of the kernel half of the address space: PCs at or above it run at EL1 by default.
pub const KERNEL_VA_BASE: u64 = 0xffff_0000_0000_0000;

/// The address the MMU translates: with top-byte-ignore (TBI), bits 63:56 of a data
/// address are a tag that translation ignores; bit 55 selects the half (TTBR0 or TTBR1),
/// whose addresses have bits 63:56 all zero or all one.
pub fn untagged(va: u64) -> u64 {
    if va & (1 << 55) != 0 {
        va | 0xff << 56
    } else {
        va & !(0xff << 56)
    }
}

/// End of the user half of a 48-bit virtual address space.
pub const USER_VA_END: u64 = 1 << 48;

/// Default exception level of a PC: kernel addresses run at EL1, the rest at EL0.
pub fn default_el(pc: u64) -> u8 {
    if pc >= KERNEL_VA_BASE {
        1
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retired_follows_wrong_path_and_faults() {
        let mut op = MicroOp::new(
            0x1000,
            op_class::LD_ST_ATOMIC,
            subclass::LDST_GP,
            Mode::at(0),
        );
        assert!(op.retired());
        op.exception = true;
        assert!(!op.retired(), "a faulting load does not retire");
        assert!(op.redirects());
        let mut svc = MicroOp::new(0x1004, op_class::OTHER, 0, Mode::at(0));
        svc.exception = true;
        assert!(svc.retired(), "an SVC-like op retires");
        svc.wrong_path = true;
        assert!(!svc.retired() && !svc.redirects());
    }

    #[test]
    fn events_grow_with_the_distance_of_the_source() {
        assert_eq!(
            MemEvents::for_source(data_source::L1D),
            MemEvents {
                l1d_access: true,
                ..Default::default()
            }
        );
        let dram = MemEvents::for_source(data_source::DRAM);
        assert!(dram.l1d_refill && dram.llc_access && dram.llc_miss && !dram.remote);
        assert!(MemEvents::for_source(data_source::REMOTE).remote);
        assert!(default_mem_lat(data_source::L1D) < default_mem_lat(data_source::L2));
        assert!(default_mem_lat(data_source::DRAM) < default_mem_lat(data_source::REMOTE));
    }
}
