//! `spe_filter`: decides in the one filter cycle after completion whether the record is
//! kept (`SPEFilterBy*`, docs/spe-reference.md §5.4–5.6), and pulses SAMPLE_FEED / SAMPLE_FILTRATE.
//!
//! ```text
//!  filtering --------------------------------------------> feed
//!  type bits, class --> type filter ----\
//!  events, PMSEVFR ---> event filter -----> keep --------> filtrate = feed & keep
//!  events, PMSNEVFR --> inverted filter -/
//!  total latency, MINLAT --> latency filter -/
//! ```
//!
//! CONSTRAINED UNPREDICTABLE cases (`spe_defs::impdef::CONSTRAINED`): FT with no type bit,
//! FE with an empty mask and FL with MINLAT 0 pass; an event in both masks fails one of
//! the two filters. The EL enables and `prof_allowed` act on the population (sampler).

use crate::bundles::{FilterCtl, FilterView, SamplePhase};
use crate::K;
use rust_hdl::prelude::*;
use spe_defs::Config;

#[derive(LogicBlock, Default)]
pub struct SpeFilter<const CW: usize> {
    pub reset: Signal<In, Bit>,
    pub phase: Signal<In, SamplePhase>,
    // PMSFCR, PMSEVFR, PMSNEVFR and PMSLATFR.MINLAT.
    pub ctl: Signal<In, FilterCtl>,
    pub minlat: Signal<In, Bits<CW>>,
    // The sample: its class and events, and its total latency.
    pub view: Signal<In, FilterView>,
    pub lat_total: Signal<In, Bits<CW>>,
    // PMU events.
    pub feed: Signal<Out, Bit>,
    pub filtrate: Signal<Out, Bit>,
    /// SPEv1p2's SAMPLE_FEED_BR, _LD, _ST, _OP, _EVENT, _LAT: one element each in a unit
    /// built with `Options::feed_events`, none otherwise (so no Verilog at all).
    pub feed_br: Vec<Signal<Out, Bit>>,
    pub feed_ld: Vec<Signal<Out, Bit>>,
    pub feed_st: Vec<Signal<Out, Bit>>,
    pub feed_op: Vec<Signal<Out, Bit>>,
    pub feed_event: Vec<Signal<Out, Bit>>,
    pub feed_lat: Vec<Signal<Out, Bit>>,
    filtering: Signal<Local, Bit>,
    type_ok: Signal<Local, Bit>,
    ev_ok: Signal<Local, Bit>,
    nev_ok: Signal<Local, Bit>,
    lat_ok: Signal<Local, Bit>,
    k_zero12: K<Bits<12>>,
}

impl<const CW: usize> SpeFilter<CW> {
    pub fn new(cfg: &Config) -> Self {
        assert_eq!(
            CW as u32,
            cfg.counter_width.bits(),
            "counter width mismatch"
        );
        let option = || {
            (0..usize::from(cfg.options.feed_events))
                .map(|_| Default::default())
                .collect()
        };
        Self {
            feed_br: option(),
            feed_ld: option(),
            feed_st: option(),
            feed_op: option(),
            feed_event: option(),
            feed_lat: option(),
            ..Default::default()
        }
    }
}

impl<const CW: usize> Logic for SpeFilter<CW> {
    #[hdl_gen]
    fn update(&mut self) {
        self.filtering.next = self.phase.val() == SamplePhase::Filter;
        // Type filter: with FT set and at least one type bit, the op must match one.
        // choice: ft-no-type-bit
        self.type_ok.next = true;
        if self.ctl.val().ft & (self.ctl.val().b | self.ctl.val().ld | self.ctl.val().st) {
            self.type_ok.next = (self.ctl.val().b & self.view.val().is_branch)
                | (self.ctl.val().ld & self.view.val().is_load)
                | (self.ctl.val().st & self.view.val().is_store);
        }
        // Event filter: every selected event set. An empty selection passes (choice:
        // fe-empty-filter); with the same event in PMSNEVFR both filters apply
        // (choice: fe-fne-same-event).
        self.ev_ok.next = true;
        if self.ctl.val().fe {
            self.ev_ok.next = (self.view.val().events & self.ctl.val().evfr) == self.ctl.val().evfr;
        }
        // Inverted event filter: no selected event set.
        self.nev_ok.next = true;
        if self.ctl.val().fne {
            self.nev_ok.next =
                (self.view.val().events & self.ctl.val().nevfr) == self.k_zero12.val();
        }
        // Minimum latency on the total latency (MINLAT = 0 keeps all). choice: fl-minlat-zero
        self.lat_ok.next = true;
        if self.ctl.val().fl {
            self.lat_ok.next = self.lat_total.val() >= self.minlat.val();
        }
        self.feed.next = self.filtering.val() & !self.reset.val();
        self.filtrate.next = self.filtering.val()
            & !self.reset.val()
            & self.type_ok.val()
            & self.ev_ok.val()
            & self.nev_ok.val()
            & self.lat_ok.val();
        // SPEv1p2's SAMPLE_FEED_* (J1 SPEFilterByType, SPEFilterByEvents,
        // SPEFilterByLatency): with SAMPLE_FEED, from the sample and the filter registers
        // whether or not FT, FE, FnE or FL enable the filters.
        for i in 0..self.feed_br.len() {
            self.feed_br[i].next =
                self.filtering.val() & !self.reset.val() & self.view.val().is_branch;
        }
        for i in 0..self.feed_ld.len() {
            self.feed_ld[i].next =
                self.filtering.val() & !self.reset.val() & self.view.val().is_load;
        }
        for i in 0..self.feed_st.len() {
            self.feed_st[i].next =
                self.filtering.val() & !self.reset.val() & self.view.val().is_store;
        }
        for i in 0..self.feed_op.len() {
            self.feed_op[i].next = self.filtering.val()
                & !self.reset.val()
                & ((self.ctl.val().b & self.view.val().is_branch)
                    | (self.ctl.val().ld & self.view.val().is_load)
                    | (self.ctl.val().st & self.view.val().is_store));
        }
        for i in 0..self.feed_event.len() {
            self.feed_event[i].next = self.filtering.val()
                & !self.reset.val()
                & ((self.view.val().events & self.ctl.val().evfr) == self.ctl.val().evfr)
                & ((self.view.val().events & self.ctl.val().nevfr) == self.k_zero12.val());
        }
        for i in 0..self.feed_lat.len() {
            self.feed_lat[i].next = self.filtering.val()
                & !self.reset.val()
                & (self.lat_total.val() >= self.minlat.val());
        }
    }
}
