//! The PE's EL2 state and the profiling buffer's owner for a dispatch group, from the
//! `el2_en`, `mdcr_e2pb`, `hcr_tge` and `hcr_e2h` inputs (Arm ARM J1 `EL2Enabled`,
//! `ProfilingBufferOwner`, `IsInHost`), and what they decide: which ELs may be sampled
//! (J1 `StatisticalProfilingEnabled`) and which collection controls apply (J1
//! `CollectTimeStamp`, `CollectPhysicalAddress`, `CollectContextIDR1`/`2`).

use spe_defs::regs::{mdcr_e2pb, pmscr};
use spe_ports::ThreadInputs;

/// The group's EL2 state; the HCR_EL2 bits read as 0 when EL2 is not enabled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Regime {
    /// EL2 is implemented and enabled in the PE's Security state.
    pub el2: bool,
    /// The buffer's owning EL is EL2 (EL2 enabled and MDCR_EL2.E2PB = 00), else EL1.
    pub owner_el2: bool,
    /// HCR_EL2.TGE = 1 with EL2 enabled (J1's `tge_set`).
    pub tge: bool,
    /// HCR_EL2.E2H = 1 with EL2 enabled.
    pub e2h: bool,
}

/// Which counter a timestamp records (J1 `TimeStamp`; no CNTPOFF_EL2 input, so the offset
/// physical count is the physical count).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counter {
    Virtual,
    Physical,
}

impl Regime {
    /// choice: buffer-owner
    pub fn of(x: &ThreadInputs) -> Regime {
        let el2 = x.el2_en;
        Regime {
            el2,
            owner_el2: el2 && x.mdcr_e2pb & 3 == mdcr_e2pb::EL2_OWNS,
            tge: el2 && x.hcr_tge,
            e2h: el2 && x.hcr_e2h,
        }
    }

    /// The owning EL, 1 or 2.
    pub fn owner(&self) -> u8 {
        if self.owner_el2 {
            2
        } else {
            1
        }
    }

    /// EL1 owns the buffer with EL2 enabled: the regime in which PMSCR_EL2.EnVM counts and
    /// FEAT_SPE_nVM's pointers are IPAs (J1 `EffectivePMBLIMITR_EL1_nVM`).
    pub fn el1_owner_under_el2(&self) -> bool {
        self.el2 && !self.owner_el2
    }

    /// J1 `IsInHost` at `el`: E2H, and EL2 or EL0 under TGE.
    pub fn in_host(&self, el: u8) -> bool {
        self.e2h && (el == 2 || (el == 0 && self.tge))
    }

    /// The owner lets `el` be profiled: not above the owning EL, and not under TGE = 1
    /// when EL1 owns the buffer (J1 `StatisticalProfilingEnabled`).
    /// choice: e2spe-el1-owner
    pub fn owner_allows(&self, el: u8) -> bool {
        let tge_under_el1 = self.tge && self.owner() == 1;
        el <= self.owner() && !tge_under_el1
    }

    /// J1 `CollectContextIDR1`: PMSCR_EL1.CX, not at EL2 and not under TGE = 1.
    pub fn context_el1(&self, el: u8, pmscr_el1: u64) -> bool {
        pmscr::CX.is_set(pmscr_el1) && el != 2 && !self.tge
    }

    /// J1 `CollectContextIDR2`: PMSCR_EL2.CX with EL2 enabled.
    pub fn context_el2(&self, pmscr_el2: u64) -> bool {
        self.el2 && pmscr::CX.is_set(pmscr_el2)
    }

    /// J1 `CollectPhysicalAddress`: with EL2, PMSCR_EL2.PA and (under an EL1 owner)
    /// PMSCR_EL1.PA; without EL2, PMSCR_EL1.PA alone.
    pub fn phys_addr(&self, pmscr_el1: u64, pmscr_el2: u64) -> bool {
        if self.el2 {
            pmscr::PA.is_set(pmscr_el2) && (self.owner_el2 || pmscr::PA.is_set(pmscr_el1))
        } else {
            pmscr::PA.is_set(pmscr_el1)
        }
    }

    /// J1 `CollectTimeStamp`, the enable: the owning EL's PMSCR.TS.
    pub fn timestamp(&self, pmscr_el1: u64, pmscr_el2: u64) -> bool {
        pmscr::TS.is_set(if self.owner_el2 { pmscr_el2 } else { pmscr_el1 })
    }

    /// J1 `CollectTimeStamp`, the counter for a sample at `el`: PMSCR_EL2.PCT first (with
    /// EL2 enabled), then PMSCR_EL1.PCT. PCT bit 1 is RES0 without FEAT_ECV (the register
    /// write mask clears it), and the reserved 10 is used as 00 (choice: pct-reserved).
    pub fn counter(&self, el: u8, pmscr_el1: u64, pmscr_el2: u64) -> Counter {
        let pct = |v: u64| match pmscr::PCT.get(v) {
            0b10 => 0b00,
            p => p,
        };
        let physical = |yes: bool| {
            if yes {
                Counter::Physical
            } else {
                Counter::Virtual
            }
        };
        let host = self.in_host(el);
        let pct1 = pct(pmscr_el1);
        if self.el2 {
            match pct(pmscr_el2) {
                0b00 => return physical(host),
                pmscr::PCT_PHYSICAL if self.owner_el2 => return Counter::Physical,
                pmscr::PCT_OFFSET_PHYSICAL => {
                    return if !self.owner_el2 && pct1 == 0b00 {
                        physical(host)
                    } else {
                        Counter::Physical
                    }
                }
                _ => {} // 01 under an EL1 owner: PMSCR_EL1.PCT decides
            }
        }
        match pct1 {
            0b00 => physical(host),
            _ => Counter::Physical,
        }
    }
}
