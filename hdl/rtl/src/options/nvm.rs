//! FEAT_SPE_nVM (`Options::nvm`; part of FEAT_SPEv1p5; choice nvm): PMBLIMITR_EL1.nVM, the
//! EL2 enable PMSCR_EL2.EnVM and the register PMBMAR_EL1 (rows of the register table; EnVM
//! is a bit of PMSCR_EL2 beyond its 8-bit flop, the register block's `h_scr2`). With the
//! Effective value of nVM 1 (J1 `EffectivePMBLIMITR_EL1_nVM`) the buffer pointers are
//! physical addresses, or IPAs under an EL1 owner with EL2 enabled, written with PMBMAR's
//! attributes (Arm ARM D17.7.2): the write port says which (`wr_addr_space`,
//! `wr_mem_attr`).
//!
//! ```text
//!  nVM, EnVM, el2, e2pb, PMBMAR --> [ RegsNvm ] --> ctl (space 11:10, SH and Attr 9:0) --> (top)
//!                                             --> eff_envm (PMBIDR.AddrMode's read-back)
//!  --> [ WriterNvm: taken with the slot ] --> out, with each beat --> wr_addr_space, wr_mem_attr
//! ```

use crate::flop::Rff;
use crate::K;
use rust_hdl::prelude::*;
use spe_defs::regs::pmbmar;

/// The register block's part (`spe_regs_nvm_<preset>`): EnVM is effectively 1 unless EL2 is
/// enabled (`el2`) and EL1 owns the buffer (MDCR_EL2.E2PB, `e2pb`, other than 00:
/// `own_el1`, the regime in which PMSCR_EL2.EnVM counts);
/// the Effective nVM makes the pointers IPAs under that EL1 owner, physical addresses
/// otherwise, with PMBMAR's SH and Attr; `ctl` is zero (virtual) while it is 0.
#[derive(LogicBlock)]
pub struct RegsNvm {
    pub el2: Signal<In, Bit>,
    pub e2pb: Signal<In, Bits<2>>,
    own_el1: Signal<Local, Bit>,
    /// PMSCR_EL2.EnVM and PMBLIMITR_EL1.nVM as stored.
    pub envm: Signal<In, Bit>,
    pub nvm: Signal<In, Bit>,
    /// PMBMAR_EL1's bits 11:0 (SH and Attr below bit 10) as stored.
    pub mar: Signal<In, Bits<12>>,
    /// The address space (bits 11:10: 00 virtual, 01 IPA, 10 physical) and PMBMAR's SH and
    /// Attr (bits 9:0), for the writer.
    pub ctl: Signal<Out, Bits<12>>,
    /// EnVM effectively 1 (PMBIDR.AddrMode reads 01 only then: Arm ARM D24.7.1).
    pub eff_envm: Signal<Out, Bit>,
    eff_nvm: Signal<Local, Bit>,
    k_zero12: K<Bits<12>>,
    /// `ctl`'s address spaces (bits 11:10; 00 virtual), as the write port's
    /// `wr_addr_space` gives them (`pmbmar::SPACE_*`).
    k_space_pa: K<Bits<12>>,
    k_space_ipa: K<Bits<12>>,
}

impl Default for RegsNvm {
    fn default() -> Self {
        Self {
            el2: Default::default(),
            e2pb: Default::default(),
            own_el1: Default::default(),
            envm: Default::default(),
            nvm: Default::default(),
            mar: Default::default(),
            ctl: Default::default(),
            eff_envm: Default::default(),
            eff_nvm: Default::default(),
            k_zero12: Default::default(),
            k_space_pa: K::new((u64::from(pmbmar::SPACE_PA) << 10).into()),
            k_space_ipa: K::new((u64::from(pmbmar::SPACE_IPA) << 10).into()),
        }
    }
}

impl Logic for RegsNvm {
    #[hdl_gen]
    fn update(&mut self) {
        self.own_el1.next = self.el2.val() & self.e2pb.val().any();
        self.eff_envm.next = !self.own_el1.val() | self.envm.val();
        self.eff_nvm.next = self.nvm.val() & self.eff_envm.val();
        self.ctl.next = self.k_zero12.val();
        if self.eff_nvm.val() {
            self.ctl.next = self.mar.val() | self.k_space_pa.val();
            if self.own_el1.val() {
                self.ctl.next = self.mar.val() | self.k_space_ipa.val();
            }
        }
    }
}

/// The writer's part (`spe_writer_nvm_<preset>`): the granted record's address space and
/// attributes ([`RegsNvm`]'s `ctl`, the granted thread's), taken with the slot while the
/// writer neither checks nor writes (`take`) and given with each beat (`give`; zero when no
/// beat is offered).
#[derive(LogicBlock, Default)]
pub struct WriterNvm {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub take: Signal<In, Bit>,
    pub give: Signal<In, Bit>,
    pub ctl: Signal<In, Bits<12>>,
    pub out: Signal<Out, Bits<12>>,
    held: Rff<Bits<12>>,
    k_zero12: K<Bits<12>>,
}

crate::rff_setup!(impl[] WriterNvm: held);

impl crate::flop::Kernel for WriterNvm {
    #[hdl_gen]
    fn update(&mut self) {
        self.held.clock.next = self.clock.val();
        self.held.d.next = self.held.q.val();
        if self.take.val() {
            self.held.d.next = self.ctl.val();
        }
        self.out.next = self.k_zero12.val();
        if self.give.val() {
            self.out.next = self.held.q.val();
        }
    }
}

/// `own_el1` reads "E2PB is not 00" as any bit of it set (and RegsExcBanks's `own2` "E2PB
/// is 00" as none).
const _: () = assert!(spe_defs::regs::mdcr_e2pb::EL2_OWNS == 0);
