//! SPEv1p2's PMU events for the core's PMU (`Options::feed_events`): SAMPLE_FEED_BR, _LD,
//! _ST, _OP, _EVENT and _LAT in the filter cycle, from the sample and the filter registers
//! whatever PMSFCR's FT, FE, FnE and FL say (J1 `SPEFilterByType`, `SPEFilterByEvents`,
//! `SPEFilterByLatency`); with FEAT_SPE_EFT, SAMPLE_FEED_FP and _SIMD and J1's `is_op` for
//! _OP; with FEAT_SPE_FDS, SAMPLE_FEED_DS. (SAMPLE_BUFFER_FULL is the register block's
//! `buffer_full`: the writer's buffer-full event.)
//!
//! ```text
//!  the filter cycle, the sample's type, events, total latency --\
//!  PMSFCR.{B, LD, ST}, PMSEVFR, PMSNEVFR, MINLAT ----------------> [ FilterFeed ] --> br, ld, st, op, ev, lat
//!  the high events' verdicts; EFT's is_op, FP, SIMD; FDS's hit --/                 --> fp, simd (EFT), ds (FDS)
//! ```

use crate::K;
use rust_hdl::prelude::*;
use spe_defs::Config;

/// The filter's part (`spe_filter_feed_events_<preset>`): each output is `pulse` (the
/// filter cycle outside reset, SAMPLE_FEED) and its condition. Its inputs of another option
/// are a vector of one element in a unit that builds that option, none otherwise.
#[derive(LogicBlock, Default)]
pub struct FilterFeed<const CW: usize> {
    pub pulse: Signal<In, Bit>,
    /// PMSFCR_EL1.B, LD and ST.
    pub fcr_b: Signal<In, Bit>,
    pub fcr_ld: Signal<In, Bit>,
    pub fcr_st: Signal<In, Bit>,
    /// The sample's type.
    pub is_branch: Signal<In, Bit>,
    pub is_load: Signal<In, Bit>,
    pub is_store: Signal<In, Bit>,
    /// The sample's Events bits 11:0, PMSEVFR's and PMSNEVFR's.
    pub events: Signal<In, Bits<12>>,
    pub evfr: Signal<In, Bits<12>>,
    pub nevfr: Signal<In, Bits<12>>,
    /// Events above bit 15 (`spe_defs::events::has_high_events`): those bits have every
    /// bit of PMSEVFR's and none of PMSNEVFR's.
    pub hi_ok: Vec<Signal<In, Bit>>,
    /// The sample's total latency and PMSLATFR.MINLAT.
    pub lat_total: Signal<In, Bits<CW>>,
    pub minlat: Signal<In, Bits<CW>>,
    /// FEAT_SPE_EFT: J1 `SPEFilterByType`'s `is_op` with TYPE or TYPEm selecting a type
    /// (instead of B, LD and ST alone), and the op's FP and SIMD kinds.
    pub eft_op: Vec<Signal<In, Bit>>,
    pub eft_fp: Vec<Signal<In, Bit>>,
    pub eft_simd: Vec<Signal<In, Bit>>,
    /// FEAT_SPE_FDS: the sample is a load whose data source PMSDSFR selects.
    pub fds_hit: Vec<Signal<In, Bit>>,
    /// SAMPLE_FEED_BR, _LD, _ST, _OP, _EVENT (`ev`: `event` is a SystemVerilog keyword),
    /// _LAT; _FP and _SIMD (EFT); _DS (FDS).
    pub br: Signal<Out, Bit>,
    pub ld: Signal<Out, Bit>,
    pub st: Signal<Out, Bit>,
    pub op: Signal<Out, Bit>,
    pub ev: Signal<Out, Bit>,
    pub lat: Signal<Out, Bit>,
    pub fp: Vec<Signal<Out, Bit>>,
    pub simd: Vec<Signal<Out, Bit>>,
    pub ds: Vec<Signal<Out, Bit>>,
    ev_lo: Signal<Local, Bit>,
    k_zero12: K<Bits<12>>,
}

impl<const CW: usize> FilterFeed<CW> {
    pub fn new(cfg: &Config) -> Self {
        fn n_of<T: Default>(on: bool) -> Vec<T> {
            (0..usize::from(on)).map(|_| T::default()).collect()
        }
        let eft = spe_defs::config::option::eft(cfg);
        let fds = spe_defs::config::option::fds(cfg);
        Self {
            hi_ok: n_of(spe_defs::events::has_high_events(cfg)),
            eft_op: n_of(eft),
            eft_fp: n_of(eft),
            eft_simd: n_of(eft),
            fds_hit: n_of(fds),
            fp: n_of(eft),
            simd: n_of(eft),
            ds: n_of(fds),
            ..Default::default()
        }
    }
}

impl<const CW: usize> Logic for FilterFeed<CW> {
    #[hdl_gen]
    fn update(&mut self) {
        self.br.next = self.pulse.val() & self.is_branch.val();
        self.ld.next = self.pulse.val() & self.is_load.val();
        self.st.next = self.pulse.val() & self.is_store.val();
        self.op.next = self.pulse.val()
            & ((self.fcr_b.val() & self.is_branch.val())
                | (self.fcr_ld.val() & self.is_load.val())
                | (self.fcr_st.val() & self.is_store.val()));
        for i in 0..self.eft_op.len() {
            self.op.next = self.pulse.val() & self.eft_op[i].val();
        }
        self.ev_lo.next = ((self.events.val() & self.evfr.val()) == self.evfr.val())
            & ((self.events.val() & self.nevfr.val()) == self.k_zero12.val());
        self.ev.next = self.pulse.val() & self.ev_lo.val();
        for i in 0..self.hi_ok.len() {
            self.ev.next = self.pulse.val() & self.ev_lo.val() & self.hi_ok[i].val();
        }
        self.lat.next = self.pulse.val() & (self.lat_total.val() >= self.minlat.val());
        for i in 0..self.fp.len() {
            self.fp[i].next = self.pulse.val() & self.eft_fp[i].val();
            self.simd[i].next = self.pulse.val() & self.eft_simd[i].val();
        }
        for i in 0..self.ds.len() {
            self.ds[i].next = self.pulse.val() & self.fds_hit[i].val();
        }
    }
}
