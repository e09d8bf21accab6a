//! Register file: values of every read/write register, port reads and writes with the
//! RES0/read-only rules of `spe_defs::regs`, and named accessors for the fields the rest of
//! the unit reads.

use spe_defs::regs::{
    self, mdcr_pmsee, pmbidr, pmblimitr, pmbmar, pmbsr, pmscr, pmsfcr, pmsicr, pmsirr, pmslatfr,
    RegId,
};
use spe_defs::Config;

/// The register values, indexed by `RegId`. Read-only registers are not stored: their
/// value comes from the configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Regs {
    cfg: Config,
    vals: [u64; REG_COUNT],
    /// FEAT_SPE_EXC's view of the core this cycle ([`Regs::set_exc_inputs`]).
    exc: ExcInputs,
}

/// What FEAT_SPE_EXC reads of the core (Arm ARM D24.3, J1 `ReportSPEEvent`): MDCR_EL3.PMSEE,
/// whether EL2 is enabled, whether EL2 owns the buffer, SCR_EL3.EA and HCR_EL2.TEA.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExcInputs {
    pub pmsee: u8,
    pub el2: bool,
    pub owner_el2: bool,
    pub scr_ea: bool,
    pub hcr_tea: bool,
}

/// One slot per row of the register table (`RegId` values are 0..REGS.len()).
const REG_COUNT: usize = regs::REGS.len();

impl Regs {
    /// Reset values (each read/write register its table row's).
    pub fn new(cfg: &Config) -> Regs {
        let mut vals = [0; REG_COUNT];
        for def in regs::REGS {
            vals[def.id as usize] = def.reset_value(cfg);
        }
        Regs {
            cfg: *cfg,
            vals,
            exc: ExcInputs::default(),
        }
    }

    /// Current value of a register.
    pub fn get(&self, id: RegId) -> u64 {
        self.vals[id as usize]
    }

    /// Hardware update of a read/write register (no masking: callers set only real fields).
    pub fn set(&mut self, id: RegId, v: u64) {
        debug_assert!(!regs::reg(id).read_only);
        self.vals[id as usize] = v;
    }

    /// Value read at a port address (zero where there is no register), by a thread whose
    /// buffer EL1 owns with EL2 enabled (`own_el1`): PMBIDR.AddrMode reads 00 while the
    /// Effective PMSCR_EL2.EnVM is 0 (Arm ARM D24.7.1).
    pub fn read(&self, addr: u8, own_el1: bool) -> u64 {
        let v = regs::reg_at(addr).map_or(0, |def| self.get(def.id));
        if regs::reg_at(addr).is_some_and(|d| d.id == RegId::Pmbidr)
            && !self.effective_envm(own_el1)
        {
            v & !pmbidr::ADDRMODE.mask()
        } else {
            v
        }
    }

    /// A port write: RES0 bits dropped; read-only registers and unmapped addresses ignore it.
    pub fn write(&mut self, addr: u8, data: u64) {
        if let Some(def) = regs::reg_at(addr) {
            if !def.read_only {
                self.vals[def.id as usize] = data & def.writable_mask(&self.cfg);
            }
        }
    }

    // ---- Field accessors used by the blocks ----

    /// FEAT_SPE_nVM: the Effective value of PMSCR_EL2.EnVM, 1 unless EL2 is enabled and
    /// EL1 owns the buffer (`own_el1`), where EnVM decides (Arm ARM D24.7.9).
    pub fn effective_envm(&self, own_el1: bool) -> bool {
        !own_el1 || pmscr::ENVM.is_set(self.get(RegId::PmscrEl2))
    }
    /// The address space of buffer writes and, when not virtual, PMBMAR's SH and Attr
    /// (Arm ARM D17.7.2, J1 `EffectivePMBLIMITR_EL1_nVM`): with the Effective nVM, IPAs
    /// under an EL1 owner with EL2 enabled (`own_el1`: its regime has stage 2), physical
    /// addresses otherwise. choice: nvm
    pub fn buffer_space(&self, own_el1: bool) -> (u8, u16) {
        let nvm = pmblimitr::NVM.is_set(self.get(RegId::Pmblimitr)) && self.effective_envm(own_el1);
        if !nvm {
            return (pmbmar::SPACE_VA, 0);
        }
        let space = if own_el1 {
            pmbmar::SPACE_IPA
        } else {
            pmbmar::SPACE_PA
        };
        let mar = self.get(RegId::Pmbmar) & (pmbmar::SH.mask() | pmbmar::ATTR.mask());
        (space, mar as u16)
    }

    /// PMBLIMITR.E and profiling not stopped: the buffer accepts records and sampling runs.
    pub fn profiling_enabled(&self) -> bool {
        pmblimitr::E.is_set(self.get(RegId::Pmblimitr)) && !self.stopped()
    }

    // ---- FEAT_SPE_EXC (choice: exc) ----

    /// This cycle's inputs of FEAT_SPE_EXC (the unit sets them before anything reads them).
    pub fn set_exc_inputs(&mut self, x: ExcInputs) {
        self.exc = x;
    }
    /// J1 `EffectivePMSCR_EL2_EE`: 00 without FEAT_SPE_EXC or with MDCR_EL3.PMSEE = 00, 01
    /// when EL2 is not enabled, else PMSCR_EL2.EE.
    fn ee2(&self) -> u64 {
        if !self.cfg.options.exc || self.exc.pmsee & 3 == mdcr_pmsee::DISABLED {
            0b00
        } else if !self.exc.el2 {
            0b01
        } else {
            pmscr::EE.get(self.get(RegId::PmscrEl2))
        }
    }
    /// J1 `EffectivePMSCR_EL1_EE` is 11: EL2's is not 00 and PMSCR_EL1.EE is 11 (01 and 10,
    /// FEAT_NV's values, are used as 00: the Arm ARM's Constraint_DISABLED).
    fn ee1_exceptions(&self) -> bool {
        self.ee2() != 0 && pmscr::EE.get(self.get(RegId::PmscrEl1)) == 0b11
    }
    /// PMBSR_EL3's events and exception are enabled: MDCR_EL3.PMSEE is 1x.
    fn el3_bank_on(&self) -> bool {
        self.cfg.options.exc && self.exc.pmsee & 2 != 0
    }
    /// PMBSR_EL2's: the Effective PMSCR_EL2.EE is 1x.
    fn el2_bank_on(&self) -> bool {
        self.ee2() & 2 != 0
    }
    fn s_of(&self, id: RegId) -> bool {
        pmbsr::S.is_set(self.get(id))
    }
    /// J1 `SPEProfilingStopped`: PMBSR_EL1.S, or the S of an enabled EL2 or EL3 bank.
    pub fn stopped(&self) -> bool {
        self.s_of(RegId::Pmbsr)
            || (self.el3_bank_on() && self.s_of(RegId::PmbsrEl3))
            || (self.el2_bank_on() && self.s_of(RegId::PmbsrEl2))
    }
    /// PMBIRQ (J1 `SPECycle`, `SPEInterruptEnabled`): PMBSR_EL1.S while PMSCR_EL1.EE is
    /// effectively 00 (always without FEAT_SPE_EXC).
    pub fn irq(&self) -> bool {
        self.s_of(RegId::Pmbsr) && !self.ee1_exceptions()
    }
    /// The pending SPE Profiling exceptions for EL1, EL2 and EL3 (J1
    /// `CheckForSPEException`, before the masks the core applies), and the KE masks:
    /// PMSCR_EL1.KE, and PMSCR_EL2.KE with EE = 11.
    pub fn exceptions(&self) -> ([bool; 3], [bool; 2]) {
        if !self.cfg.options.exc {
            return ([false; 3], [false; 2]);
        }
        let scr2 = self.get(RegId::PmscrEl2);
        (
            [
                self.ee1_exceptions() && self.s_of(RegId::Pmbsr),
                self.el2_bank_on() && self.s_of(RegId::PmbsrEl2),
                self.el3_bank_on() && self.s_of(RegId::PmbsrEl3),
            ],
            [
                pmscr::KE.is_set(self.get(RegId::PmscrEl1)),
                pmscr::EE.get(scr2) == 0b11 && pmscr::KE.is_set(scr2),
            ],
        )
    }
    /// The bank J1 `ReportSPEEvent` picks for an event of EC `ec` and FSC `fsc` (no
    /// FEAT_RME: no GPC fault or GPF).
    fn report_bank(&self, ec: u64, fsc: u64) -> RegId {
        if !self.cfg.options.exc {
            return RegId::Pmbsr;
        }
        let s1 = ec == pmbsr::EC_FAULT_S1;
        let s2 = ec == pmbsr::EC_FAULT_S2;
        let sync_ext = (s1 || s2) && pmbsr::is_sync_external_abort(fsc);
        let pmsee = self.exc.pmsee & 3;
        let ee2 = pmscr::EE.get(self.get(RegId::PmscrEl2));
        let to_el3 =
            self.el3_bank_on() && (pmsee == mdcr_pmsee::TRAP_ALL || (sync_ext && self.exc.scr_ea));
        let to_el2 = self.el2_bank_on()
            && (ee2 == 0b11
                || (s1 && self.exc.owner_el2)
                || s2
                || (sync_ext && self.exc.el2 && self.exc.hcr_tea));
        if to_el3 {
            RegId::PmbsrEl3
        } else if to_el2 {
            RegId::PmbsrEl2
        } else {
            RegId::Pmbsr
        }
    }
    /// J1 `DefaultSPEEvent`: the bank of an event with EC 0 (buffer full, COLL).
    fn default_bank(&self) -> RegId {
        self.report_bank(pmbsr::EC_BUF, 0)
    }
    /// A fault on a buffer write of `kind` and `fsc` (`pmbsr::fault`) in the bank
    /// `ReportSPEEvent` picks for it.
    pub fn fault_event(&mut self, kind: u8, fsc: u8, first_byte: bool) {
        let (ec, code) = pmbsr::fault_syndrome(kind, fsc);
        let bank = self.report_bank(ec, code);
        let old = self.get(bank);
        self.set(bank, pmbsr::fault(old, kind & 3, fsc, first_byte));
    }
    /// FEAT_SPEv1p2's PMU freeze (Arm ARM D13.5.2.2, J1 `SPEFreezeOnEvent`): PMBLIMITR.PMFZ
    /// and E are 1 and profiling is stopped (PMBSR.S = 1, J1 `SPEProfilingStopped`). PMFZ is
    /// RES0, so never set, in a unit that does not build it.
    pub fn pmu_freeze(&self) -> bool {
        let limitr = self.get(RegId::Pmblimitr);
        pmblimitr::PMFZ.is_set(limitr) && pmblimitr::E.is_set(limitr) && self.stopped()
    }
    /// The EL's sampling enable for an op at `el` (J1 `StatisticalProfilingEnabled`'s
    /// `spe_bit`); `tge` (HCR_EL2.TGE with EL2 enabled) selects PMSCR_EL2.E0HSPE for EL0.
    pub fn el_enabled(&self, el: u8, tge: bool) -> bool {
        match el {
            0 if tge => pmscr::E0SPE.is_set(self.get(RegId::PmscrEl2)), // E0HSPE
            0 => pmscr::E0SPE.is_set(self.get(RegId::PmscrEl1)),
            1 => pmscr::E1SPE.is_set(self.get(RegId::PmscrEl1)),
            2 => pmscr::E1SPE.is_set(self.get(RegId::PmscrEl2)), // E2SPE
            _ => false,                                          // never at EL3
        }
    }
    /// PMSIRR.RND.
    pub fn jitter(&self) -> bool {
        pmsirr::RND.is_set(self.get(RegId::Pmsirr))
    }
    /// The reload value's bits 31:8: PMSIRR.INTERVAL as written, below the advertised
    /// minimum too (J1 `SPEResetSampleCounter`). INTERVAL = 0, whose interval the
    /// architecture leaves UNKNOWN (D24.7.15), is used as 1: a reload of 256.
    // choice: interval-zero
    pub fn effective_interval(&self) -> u64 {
        pmsirr::INTERVAL.get(self.get(RegId::Pmsirr)).max(1)
    }
    /// PMSICR.COUNT.
    pub fn count(&self) -> u32 {
        self.get(RegId::Pmsicr) as u32
    }
    pub fn set_count(&mut self, c: u32) {
        let e = self.get(RegId::Pmsicr) & pmsicr::ECOUNT.mask();
        self.set(RegId::Pmsicr, e | u64::from(c));
    }
    /// PMSICR.ECOUNT (FEAT_SPE_ERnd; zero in a unit without it, where it is RES0).
    pub fn ecount(&self) -> u8 {
        pmsicr::ECOUNT.get(self.get(RegId::Pmsicr)) as u8
    }
    pub fn set_ecount(&mut self, e: u8) {
        let c = self.get(RegId::Pmsicr) & !pmsicr::ECOUNT.mask();
        self.set(RegId::Pmsicr, c | pmsicr::ECOUNT.place(u64::from(e)));
    }
    /// A PMSFCR field.
    pub fn fcr(&self, f: spe_defs::Field) -> bool {
        f.is_set(self.get(RegId::Pmsfcr))
    }
    pub fn min_latency(&self) -> u64 {
        pmslatfr::MINLAT_FIELD.get(self.get(RegId::Pmslatfr))
    }
    /// True in discard mode (FM = 10); the reserved values behave as fill. choice: fm-reserved
    pub fn discard(&self) -> bool {
        pmblimitr::FM.get(self.get(RegId::Pmblimitr)) == pmblimitr::FM_DISCARD
    }
    /// The limit address (LIMIT << 12).
    pub fn limit(&self) -> u64 {
        self.get(RegId::Pmblimitr) & pmblimitr::LIMIT.mask()
    }
    /// Raises a management event (S = 1) with the given EC/syndrome bits. COLL, EA and DL
    /// keep their values (a buffer-full event leaves DL and EA as they were: Arm ARM
    /// D17.8.2, J1 `OtherSPEManagementEvent`); `ea` and `dl` set them.
    /// With FEAT_SPE_EXC the event goes to the bank J1 `DefaultSPEEvent` picks.
    pub fn management_event(&mut self, ec: u64, mss: u64, ea: bool, dl: bool) {
        let bank = self.default_bank();
        let keep = self.get(bank) & (pmbsr::COLL.mask() | pmbsr::EA.mask() | pmbsr::DL.mask());
        let v = keep
            | pmbsr::S.place(1)
            | pmbsr::EC.place(ec)
            | pmbsr::MSS.place(mss)
            | pmbsr::EA.place(ea as u64)
            | pmbsr::DL.place(dl as u64);
        self.set(bank, v);
    }
    /// Sets the sticky collision flag (J1 `SPESampleCollision`: in the bank of
    /// `DefaultSPEEvent`).
    pub fn set_collision(&mut self) {
        let bank = self.default_bank();
        let v = self.get(bank) | pmbsr::COLL.mask();
        self.set(bank, v);
    }
    /// Type-filter bits (B, LD, ST).
    /// J1 `SPEFilterByType`'s `ctrl` and `mask`: PMSFCR.TYPE (B, LD, ST, FP, SIMD from bit 0)
    /// and TYPEm (their mask bits). Without FEAT_SPE_EFT, FP, SIMD and TYPEm are RES0 and
    /// read as zero, as J1 has them.
    pub fn type_ctl(&self) -> (u8, u8) {
        let v = self.get(RegId::Pmsfcr);
        (pmsfcr::TYPE.get(v) as u8, pmsfcr::TYPEM.get(v) as u8)
    }
}
