//! FEAT_SPE_FDS (`Options::fds`, PMSIDR_EL1.FDS): PMSFCR_EL1.FDS and the register
//! PMSDSFR_EL1, which keep the loads whose data source's bits 5:0 select a set bit (J1
//! `SPEFilterByDataSource`); with `Options::feed_events`, SAMPLE_FEED_DS.
//!
//! ```text
//!  PMSDSFR, PMSFCR.FDS (regs) --\
//!  data source, its enable ------> [ FilterFds: PMSDSFR's bit of the source ] --> drop (filtrate)
//!  (tracker), is_branch (filter)                                               --> hit (SAMPLE_FEED_DS)
//! ```
//!
//! PMSDSFR is a row of the register table (an optional register: its flop is the register
//! block's, generated), FDS an optional field of PMSFCR's row; the tracker gives the
//! sample's data source and whether the record carries one (`sample`'s fields, as they
//! are), the filter whether the op is a branch.

use crate::K;
use rust_hdl::prelude::*;

/// The filter's part (`spe_filter_fds_<preset>`): `hit`, the sample is a load with a data
/// source whose bits 5:0 (J1's `data_source<5:0>`) select a set bit of PMSDSFR; `drop`,
/// FDS is set and the sample is a load with a data source PMSDSFR does not select (a
/// sample without one is kept). J1 `SPEFilterByDataSource` filters the op types Load and
/// LoadAtomic only: a return with GCS (FEAT_SPE_CRR) has a data source but stays a Branch.
#[derive(LogicBlock)]
pub struct FilterFds {
    /// PMSDSFR_EL1 and PMSFCR_EL1.FDS as stored.
    pub dsfr: Signal<In, Bits<64>>,
    pub fds: Signal<In, Bit>,
    /// The record's Data Source packet is due (a load with a data source), and the source;
    /// the op is a branch (a GCS return has a data source too).
    pub ds_en: Signal<In, Bit>,
    pub ds_src: Signal<In, Bits<8>>,
    pub is_branch: Signal<In, Bit>,
    pub hit: Signal<Out, Bit>,
    pub drop: Signal<Out, Bit>,
    sel: Signal<Local, Bit>,
    load_ds: Signal<Local, Bit>,
    /// The index's mask (the source's bits 5:0), and one and zero of PMSDSFR's width (the
    /// selected bit is tested by a shift: a part-select of an expression is not Verilog).
    k_ds_index: K<Bits<8>>,
    k_one64: K<Bits<64>>,
    k_zero64: K<Bits<64>>,
}

impl Default for FilterFds {
    fn default() -> Self {
        Self {
            dsfr: Default::default(),
            fds: Default::default(),
            ds_en: Default::default(),
            ds_src: Default::default(),
            is_branch: Default::default(),
            hit: Default::default(),
            drop: Default::default(),
            sel: Default::default(),
            load_ds: Default::default(),
            k_ds_index: K::new(u64::from(spe_defs::regs::pmsdsfr::SOURCE_INDEX_MASK).into()),
            k_one64: K::new(1u64.into()),
            k_zero64: Default::default(),
        }
    }
}

impl Logic for FilterFds {
    #[hdl_gen]
    fn update(&mut self) {
        self.sel.next = ((self.dsfr.val() >> (self.ds_src.val() & self.k_ds_index.val()))
            & self.k_one64.val())
            != self.k_zero64.val();
        self.load_ds.next = self.ds_en.val() & !self.is_branch.val();
        self.hit.next = self.load_ds.val() & self.sel.val();
        self.drop.next = self.fds.val() & self.load_ds.val() & !self.sel.val();
    }
}
