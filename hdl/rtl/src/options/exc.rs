//! FEAT_SPE_EXC (`Options::exc`; part of FEAT_SPEv1p5; choice exc): buffer management
//! events as SPE Profiling exceptions. The banks PMBSR_EL2 and PMBSR_EL3 are rows of the
//! register table (optional registers, flops of the register block); PMSCR_ELx.EE and KE
//! are bits of PMSCR_EL1 and PMSCR_EL2 beyond their 8-bit flops (the register block's
//! `h_scr1`, `h_scr2`). What the option does with them is here, in two blocks of the
//! register block, kept apart so that nothing the writer drives reaches `stop`, which the
//! writer reads (one kernel is one `always` block):
//!
//! ```text
//!  PMSEE, EL2 enabled, EE, KE, each bank's S --> [ RegsExcState ] --> stop (writer, PMBSR
//!                                                  enable, PMFZ), ee1on (irq), exc (ports)
//!  PMSEE, EL2, owner, EA, TEA, EE, the writer's --> [ RegsExcBanks ] --> the three banks'
//!  events, COLL, the banks as stored                                      next values
//! ```

use crate::regs::{k, pmbsr_event};
use crate::K;
use rust_hdl::prelude::*;
use spe_defs::regs::{pmbsr, pmscr};

/// One PMBSR value of `N` bits: S, EC, MSS, EA and DL.
fn bsr<const N: usize>(ec: u64, mss: u64, ea: u64, dl: u64) -> K<Bits<N>> {
    k(pmbsr_event(ec, mss, ea, dl))
}

/// J1 `EffectivePMSCR_EL2_EE`, `EffectivePMSCR_EL1_EE`, `SPEProfilingStopped` and the
/// pending exceptions (`spe_regs_exc_state_<preset>`), from the flops and the core's
/// controls only: EL2's EE is effectively 00 with PMSEE = 00, 01 without EL2, else
/// PMSCR_EL2.EE; EL1's is 11 only with EL2's not 00 and PMSCR_EL1.EE = 11 (01 and 10 used
/// as 00). `stop`: profiling stopped by any enabled bank's S. `ee1on`: EL1's EE effectively
/// 11 (PMBIRQ is then not raised). `exc`: {KE2, KE1, EL3, EL2, EL1} (bits 4..0), low in
/// reset.
#[derive(LogicBlock)]
pub struct RegsExcState {
    pub reset: Signal<In, Bit>,
    /// MDCR_EL3.PMSEE and EL2 enabled (ports).
    pub pmsee: Signal<In, Bits<2>>,
    pub el2: Signal<In, Bit>,
    /// PMSCR_EL1's and PMSCR_EL2's EE and KE.
    pub ee1: Signal<In, Bits<2>>,
    pub ke1: Signal<In, Bit>,
    pub ee2: Signal<In, Bits<2>>,
    pub ke2: Signal<In, Bit>,
    /// PMBSR_EL1.S, PMBSR_EL2.S, PMBSR_EL3.S as stored.
    pub s1: Signal<In, Bit>,
    pub s2: Signal<In, Bit>,
    pub s3: Signal<In, Bit>,
    pub stop: Signal<Out, Bit>,
    pub ee1on: Signal<Out, Bit>,
    pub exc: Signal<Out, Bits<5>>,
    on2: Signal<Local, Bit>,
    on3: Signal<Local, Bit>,
    k_three2: K<Bits<2>>,
    k_zero5: K<Bits<5>>,
    /// Bit k of `exc`.
    k_exc_bit: Vec<K<Bits<5>>>,
}

impl Default for RegsExcState {
    fn default() -> Self {
        Self {
            reset: Default::default(),
            pmsee: Default::default(),
            el2: Default::default(),
            ee1: Default::default(),
            ke1: Default::default(),
            ee2: Default::default(),
            ke2: Default::default(),
            s1: Default::default(),
            s2: Default::default(),
            s3: Default::default(),
            stop: Default::default(),
            ee1on: Default::default(),
            exc: Default::default(),
            on2: Default::default(),
            on3: Default::default(),
            k_three2: k(0b11),
            k_zero5: Default::default(),
            k_exc_bit: (0..5).map(|b| k(1u64 << b)).collect(),
        }
    }
}

impl Logic for RegsExcState {
    #[hdl_gen]
    fn update(&mut self) {
        // EL2's EE is effectively 1x with PMSEE not 00, EL2 enabled and PMSCR_EL2.EE 1x; it
        // is not 00 with PMSEE not 00 and either EL2 disabled (01) or PMSCR_EL2.EE not 00.
        self.on2.next = self.pmsee.val().any() & self.el2.val() & self.ee2.val().get_bit(1);
        self.on3.next = self.pmsee.val().get_bit(1);
        self.ee1on.next = self.pmsee.val().any()
            & (!self.el2.val() | self.ee2.val().any())
            & (self.ee1.val() == self.k_three2.val());
        self.stop.next =
            self.s1.val() | (self.on3.val() & self.s3.val()) | (self.on2.val() & self.s2.val());
        // The pending exceptions and the KE masks, low in reset.
        self.exc.next = self.k_zero5.val();
        if !self.reset.val() {
            if self.ee1on.val() & self.s1.val() {
                self.exc.next = self.exc.val() | self.k_exc_bit[0].val();
            }
            if self.on2.val() & self.s2.val() {
                self.exc.next = self.exc.val() | self.k_exc_bit[1].val();
            }
            if self.on3.val() & self.s3.val() {
                self.exc.next = self.exc.val() | self.k_exc_bit[2].val();
            }
            if self.ke1.val() {
                self.exc.next = self.exc.val() | self.k_exc_bit[3].val();
            }
            if (self.ee2.val() == self.k_three2.val()) & self.ke2.val() {
                self.exc.next = self.exc.val() | self.k_exc_bit[4].val();
            }
        }
    }
}

/// J1 `ReportSPEEvent`'s banks (`spe_regs_exc_banks_<preset>`): where COLL and this
/// cycle's event (buffer full or a fault) go, and each bank's next value. COLL and buffer
/// full go to DefaultSPEEvent's bank: EL3 with PMSEE = 11, EL2 with EL2's EE effectively 1x
/// and PMSCR_EL2.EE = 11, else EL1; a fault to EL3 with PMSEE 1x and either that or a
/// synchronous external abort with SCR_EL3.EA, else to EL2 with EL2's EE effectively 1x and
/// PMSCR_EL2.EE = 11, a stage 1 fault under an EL2 owner, a stage 2 fault, or a synchronous
/// external abort with HCR_EL2.TEA; else EL1. In a bank, an event writes what the one-bank
/// unit writes in PMBSR_EL1 (the register block's own code, which this block's `bsr1_d`
/// replaces).
#[derive(LogicBlock)]
pub struct RegsExcBanks {
    /// MDCR_EL3.PMSEE, EL2 enabled, MDCR_EL2.E2PB, SCR_EL3.EA, HCR_EL2.TEA (ports).
    pub pmsee: Signal<In, Bits<2>>,
    pub el2: Signal<In, Bit>,
    pub e2pb: Signal<In, Bits<2>>,
    pub ea: Signal<In, Bit>,
    pub tea: Signal<In, Bit>,
    /// PMSCR_EL2.EE.
    pub ee2: Signal<In, Bits<2>>,
    /// The sampler's collision and the writer's events (`BufferUpdate`'s fields).
    pub coll_set: Signal<In, Bit>,
    pub full: Signal<In, Bit>,
    pub full_dl: Signal<In, Bit>,
    pub abort: Signal<In, Bit>,
    pub abort_first: Signal<In, Bit>,
    pub abort_kind: Signal<In, Bits<2>>,
    pub abort_fsc: Signal<In, Bits<6>>,
    /// The banks as stored, and their next values.
    pub bsr1: Signal<In, Bits<32>>,
    pub bsr2: Signal<In, Bits<64>>,
    pub bsr3: Signal<In, Bits<64>>,
    pub bsr1_d: Signal<Out, Bits<32>>,
    pub bsr2_d: Signal<Out, Bits<64>>,
    pub bsr3_d: Signal<Out, Bits<64>>,
    on2: Signal<Local, Bit>,
    s1f: Signal<Local, Bit>,
    s2f: Signal<Local, Bit>,
    sea: Signal<Local, Bit>,
    /// EL2 is enabled and owns the buffer (MDCR_EL2.E2PB 00: `mdcr_e2pb::EL2_OWNS`).
    own2: Signal<Local, Bit>,
    d3: Signal<Local, Bit>,
    d2: Signal<Local, Bit>,
    t3: Signal<Local, Bit>,
    t2: Signal<Local, Bit>,
    b1: Signal<Local, Bits<32>>,
    b2: Signal<Local, Bits<64>>,
    b3: Signal<Local, Bits<64>>,
    ab64: Signal<Local, Bits<64>>,
    fscw: Signal<Local, Bits<64>>,
    // PMBSR values of the events, 32 bits for PMBSR_EL1 and 64 for the others (as the
    // register block's): COLL; buffer full and what it keeps; DL; a fault's S and EC by
    // stage, an external abort's, what a fault keeps (at the record's first beat, DL too).
    k_coll: K<Bits<32>>,
    k_full_keep: K<Bits<32>>,
    k_full: K<Bits<32>>,
    k_dl: K<Bits<32>>,
    k_ab_keep: K<Bits<32>>,
    k_ab_keep_first: K<Bits<32>>,
    x_coll: K<Bits<64>>,
    x_full_keep: K<Bits<64>>,
    x_full: K<Bits<64>>,
    x_dl: K<Bits<64>>,
    x_ab_s1: K<Bits<64>>,
    x_ab_s2: K<Bits<64>>,
    x_ab_ext: K<Bits<64>>,
    x_ab_keep: K<Bits<64>>,
    x_ab_keep_first: K<Bits<64>>,
    /// FSC bit k's place in a 64-bit PMBSR.
    x_fscb: Vec<K<Bits<64>>>,
    k_zero64: K<Bits<64>>,
    /// The fault kinds (`pmbsr::ERR_*`) and the FSC patterns of a synchronous external
    /// abort (010000, 01001x, 0101xx, 011011).
    k_kind_s1: K<Bits<2>>,
    k_kind_s2: K<Bits<2>>,
    k_kind_ext: K<Bits<2>>,
    k_kind_res: K<Bits<2>>,
    k_fsc_sea: K<Bits<6>>,
    k_fsc_sea5: K<Bits<5>>,
    k_fsc_sea4: K<Bits<4>>,
    k_fsc_ttw: K<Bits<6>>,
    k_three2: K<Bits<2>>,
}

impl Default for RegsExcBanks {
    fn default() -> Self {
        let coll = pmbsr::COLL.mask();
        let full_keep = pmbsr::COLL.mask() | pmbsr::DL.mask() | pmbsr::EA.mask();
        let ab_keep = pmbsr::COLL.mask() | pmbsr::EA.mask();
        let ab_keep_first = ab_keep | pmbsr::DL.mask();
        Self {
            pmsee: Default::default(),
            el2: Default::default(),
            e2pb: Default::default(),
            own2: Default::default(),
            ea: Default::default(),
            tea: Default::default(),
            ee2: Default::default(),
            coll_set: Default::default(),
            full: Default::default(),
            full_dl: Default::default(),
            abort: Default::default(),
            abort_first: Default::default(),
            abort_kind: Default::default(),
            abort_fsc: Default::default(),
            bsr1: Default::default(),
            bsr2: Default::default(),
            bsr3: Default::default(),
            bsr1_d: Default::default(),
            bsr2_d: Default::default(),
            bsr3_d: Default::default(),
            on2: Default::default(),
            s1f: Default::default(),
            s2f: Default::default(),
            sea: Default::default(),
            d3: Default::default(),
            d2: Default::default(),
            t3: Default::default(),
            t2: Default::default(),
            b1: Default::default(),
            b2: Default::default(),
            b3: Default::default(),
            ab64: Default::default(),
            fscw: Default::default(),
            k_coll: k(coll),
            k_full_keep: k(full_keep),
            k_full: bsr(pmbsr::EC_BUF, pmbsr::BSC_FULL, 0, 0),
            k_dl: k(pmbsr::DL.mask()),
            k_ab_keep: k(ab_keep),
            k_ab_keep_first: k(ab_keep_first),
            x_coll: k(coll),
            x_full_keep: k(full_keep),
            x_full: bsr(pmbsr::EC_BUF, pmbsr::BSC_FULL, 0, 0),
            x_dl: k(pmbsr::DL.mask()),
            x_ab_s1: bsr(pmbsr::EC_FAULT_S1, 0, 0, 0),
            x_ab_s2: bsr(pmbsr::EC_FAULT_S2, 0, 0, 0),
            x_ab_ext: bsr(pmbsr::EC_FAULT_S1, pmbsr::FSC_EXTERNAL_ABORT, 1, 0),
            x_ab_keep: k(ab_keep),
            x_ab_keep_first: k(ab_keep_first),
            x_fscb: (0..6).map(|b| k(1u64 << b)).collect(),
            k_zero64: Default::default(),
            k_kind_s1: k(u64::from(pmbsr::ERR_STAGE1)),
            k_kind_s2: k(u64::from(pmbsr::ERR_STAGE2)),
            k_kind_ext: k(u64::from(pmbsr::ERR_EXTERNAL)),
            k_kind_res: k(u64::from(pmbsr::ERR_RESERVED)),
            k_fsc_sea: k(pmbsr::FSC_EXTERNAL_ABORT),
            k_fsc_sea5: k(pmbsr::FSC_SEA_WALK_5_1),
            k_fsc_sea4: k(pmbsr::FSC_SEA_WALK_5_2),
            k_fsc_ttw: k(pmbsr::FSC_SEA_WALK_ECC),
            k_three2: k(0b11),
        }
    }
}

impl Logic for RegsExcBanks {
    #[hdl_gen]
    fn update(&mut self) {
        // The fault's stage and whether it is a synchronous external abort: the external
        // kinds (00, 11) are stage 1 with FSC 010000; an MMU fault's FSC 010000, 01001x,
        // 0101xx or 011011.
        self.own2.next = self.el2.val() & !self.e2pb.val().any();
        self.s2f.next = self.abort_kind.val() == self.k_kind_s2.val();
        self.s1f.next = !self.s2f.val();
        self.sea.next = (self.abort_kind.val() == self.k_kind_ext.val())
            | (self.abort_kind.val() == self.k_kind_res.val())
            | (self.abort_fsc.val() == self.k_fsc_sea.val())
            | (self.abort_fsc.val().get_bits::<5>(1) == self.k_fsc_sea5.val())
            | (self.abort_fsc.val().get_bits::<4>(2) == self.k_fsc_sea4.val())
            | (self.abort_fsc.val() == self.k_fsc_ttw.val());
        // The banks: COLL's and buffer full's (DefaultSPEEvent), and a fault's
        // (ReportSPEEvent). EL2's EE effectively 1x as `RegsExcState` has it.
        self.on2.next = self.pmsee.val().any() & self.el2.val() & self.ee2.val().get_bit(1);
        self.d3.next = self.pmsee.val() == self.k_three2.val();
        self.d2.next = self.on2.val() & (self.ee2.val() == self.k_three2.val());
        self.t3.next = self.d3.val();
        self.t2.next = !self.d3.val() & self.d2.val();
        if self.abort.val() {
            self.t3.next =
                self.pmsee.val().get_bit(1) & (self.d3.val() | (self.sea.val() & self.ea.val()));
            self.t2.next = !self.t3.val()
                & self.on2.val()
                & ((self.ee2.val() == self.k_three2.val())
                    | (self.s1f.val() & self.own2.val())
                    | self.s2f.val()
                    | (self.sea.val() & self.el2.val() & self.tea.val()));
        }
        // Each bank with this cycle's COLL, if it is COLL's bank.
        self.b1.next = self.bsr1.val();
        self.b2.next = self.bsr2.val();
        self.b3.next = self.bsr3.val();
        if self.coll_set.val() {
            if self.d3.val() {
                self.b3.next = self.bsr3.val() | self.x_coll.val();
            } else if self.d2.val() {
                self.b2.next = self.bsr2.val() | self.x_coll.val();
            } else {
                self.b1.next = self.bsr1.val() | self.k_coll.val();
            }
        }
        self.bsr1_d.next = self.b1.val();
        self.bsr2_d.next = self.b2.val();
        self.bsr3_d.next = self.b3.val();
        // A fault's S, EC, EA and MSS in 64 bits (PMBSR_EL1's are its low 32, as the register
        // block's `ab`): the FSC bit by bit.
        self.fscw.next = self.k_zero64.val();
        if self.abort_fsc.val().get_bit(0) {
            self.fscw.next = self.fscw.val() | self.x_fscb[0].val();
        }
        if self.abort_fsc.val().get_bit(1) {
            self.fscw.next = self.fscw.val() | self.x_fscb[1].val();
        }
        if self.abort_fsc.val().get_bit(2) {
            self.fscw.next = self.fscw.val() | self.x_fscb[2].val();
        }
        if self.abort_fsc.val().get_bit(3) {
            self.fscw.next = self.fscw.val() | self.x_fscb[3].val();
        }
        if self.abort_fsc.val().get_bit(4) {
            self.fscw.next = self.fscw.val() | self.x_fscb[4].val();
        }
        if self.abort_fsc.val().get_bit(5) {
            self.fscw.next = self.fscw.val() | self.x_fscb[5].val();
        }
        self.ab64.next = self.x_ab_ext.val();
        if self.abort_kind.val() == self.k_kind_s1.val() {
            self.ab64.next = self.x_ab_s1.val() | self.fscw.val();
        }
        if self.abort_kind.val() == self.k_kind_s2.val() {
            self.ab64.next = self.x_ab_s2.val() | self.fscw.val();
        }
        // The event (buffer full or a fault) in its bank.
        if self.t3.val() {
            if self.full.val() {
                self.bsr3_d.next = (self.b3.val() & self.x_full_keep.val()) | self.x_full.val();
                if self.full_dl.val() {
                    self.bsr3_d.next = (self.b3.val() & self.x_full_keep.val())
                        | self.x_full.val()
                        | self.x_dl.val();
                }
            }
            if self.abort.val() {
                self.bsr3_d.next =
                    self.ab64.val() | (self.b3.val() & self.x_ab_keep.val()) | self.x_dl.val();
                if self.abort_first.val() {
                    self.bsr3_d.next =
                        self.ab64.val() | (self.b3.val() & self.x_ab_keep_first.val());
                }
            }
        } else if self.t2.val() {
            if self.full.val() {
                self.bsr2_d.next = (self.b2.val() & self.x_full_keep.val()) | self.x_full.val();
                if self.full_dl.val() {
                    self.bsr2_d.next = (self.b2.val() & self.x_full_keep.val())
                        | self.x_full.val()
                        | self.x_dl.val();
                }
            }
            if self.abort.val() {
                self.bsr2_d.next =
                    self.ab64.val() | (self.b2.val() & self.x_ab_keep.val()) | self.x_dl.val();
                if self.abort_first.val() {
                    self.bsr2_d.next =
                        self.ab64.val() | (self.b2.val() & self.x_ab_keep_first.val());
                }
            }
        } else {
            if self.full.val() {
                self.bsr1_d.next = (self.b1.val() & self.k_full_keep.val()) | self.k_full.val();
                if self.full_dl.val() {
                    self.bsr1_d.next = (self.b1.val() & self.k_full_keep.val())
                        | self.k_full.val()
                        | self.k_dl.val();
                }
            }
            if self.abort.val() {
                self.bsr1_d.next = self.ab64.val().get_bits::<32>(0)
                    | (self.b1.val() & self.k_ab_keep.val())
                    | self.k_dl.val();
                if self.abort_first.val() {
                    self.bsr1_d.next = self.ab64.val().get_bits::<32>(0)
                        | (self.b1.val() & self.k_ab_keep_first.val());
                }
            }
        }
    }
}

/// PMSCR_ELx.EE and KE as the register block slices them for these blocks.
const _: () = assert!(pmscr::EE.lsb == 8 && pmscr::EE.width == 2 && pmscr::KE.lsb == 10);
