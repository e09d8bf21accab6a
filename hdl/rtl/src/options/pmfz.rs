//! FEAT_SPEv1p2's PMU freeze (`Options::pmfz`): PMBLIMITR_EL1.PMFZ and the `pmu_freeze`
//! output, which asks the core's PMU to freeze its counters (J1 `SPEFreezeOnEvent`).
//!
//! ```text
//!  PMBLIMITR.PMFZ, PMBLIMITR.E, stopped, reset --> [ AND ] --> freeze (regs) --> pmu_freeze (top)
//! ```
//!
//! The field itself is a row of the register table (`spe_defs::regs`, writable only in a
//! unit that builds the option); the host reads it from its PMBLIMITR flop.

use rust_hdl::prelude::*;

/// The register block's part (`spe_regs_pmfz_<preset>`): `freeze` is high while PMFZ and E
/// are set and profiling is stopped (`stopped`: PMBSR_EL1.S, or with FEAT_SPE_EXC any
/// enabled bank's S, J1 `SPEProfilingStopped`); low in reset, like every output of the
/// unit but `irq`.
#[derive(LogicBlock, Default)]
pub struct RegsPmfz {
    pub reset: Signal<In, Bit>,
    /// PMBLIMITR_EL1.PMFZ and .E as stored.
    pub pmfz: Signal<In, Bit>,
    pub e: Signal<In, Bit>,
    pub stopped: Signal<In, Bit>,
    pub freeze: Signal<Out, Bit>,
}

impl Logic for RegsPmfz {
    #[hdl_gen]
    fn update(&mut self) {
        self.freeze.next = self.pmfz.val() & self.e.val() & self.stopped.val() & !self.reset.val();
    }
}
