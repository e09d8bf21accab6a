//! `spe_filter`: decides in the one filter cycle after completion whether the record is
//! kept (`SPEFilterBy*`, reference §5.4–5.6), and pulses SAMPLE_FEED / SAMPLE_FILTRATE.
//!
//! ```text
//!  filtering --------------------------------------------> feed
//!  type bits, class --> type filter ----\
//!  events, PMSEVFR ---> event filter -----> keep --------> filtrate = feed & keep
//!  events, PMSNEVFR --> inverted filter -/
//!  total latency, MINLAT --> latency filter -/
//! ```
//!
//! CONSTRAINED UNPREDICTABLE cases (`spe_defs::impdef::CONSTRAINED`): FT with no type bit
//! passes everything; FE with an empty mask passes; FL with MINLAT 0 passes; an event in
//! both masks fails one of the two filters. The EL enables and `prof_allowed` act earlier,
//! on the population (sampler).

use rust_hdl::prelude::*;
use spe_defs::Config;

#[derive(LogicBlock)]
pub struct SpeFilter<const CW: usize> {
    pub reset: Signal<In, Bit>,
    /// The filter cycle (from the capture block).
    pub filtering: Signal<In, Bit>,
    // PMSFCR and the filter registers.
    pub f_fe: Signal<In, Bit>,
    pub f_ft: Signal<In, Bit>,
    pub f_fl: Signal<In, Bit>,
    pub f_fne: Signal<In, Bit>,
    pub f_b: Signal<In, Bit>,
    pub f_ld: Signal<In, Bit>,
    pub f_st: Signal<In, Bit>,
    pub evfr: Signal<In, Bits<12>>,
    pub nevfr: Signal<In, Bits<12>>,
    pub minlat: Signal<In, Bits<CW>>,
    // The sample.
    /// Event bits 11:0 of the Events payload.
    pub events: Signal<In, Bits<12>>,
    pub is_branch: Signal<In, Bit>,
    pub is_load: Signal<In, Bit>,
    pub is_store: Signal<In, Bit>,
    pub lat_total: Signal<In, Bits<CW>>,
    // PMU events.
    pub feed: Signal<Out, Bit>,
    pub filtrate: Signal<Out, Bit>,
    // Local signals.
    type_ok: Signal<Local, Bit>,
    ev_ok: Signal<Local, Bit>,
    nev_ok: Signal<Local, Bit>,
    lat_ok: Signal<Local, Bit>,
    k_zero12: Constant<Bits<12>>,
}

impl<const CW: usize> SpeFilter<CW> {
    pub fn new(cfg: &Config) -> Self {
        assert_eq!(
            CW as u32,
            cfg.counter_width.bits(),
            "counter width mismatch"
        );
        Self {
            reset: Default::default(),
            filtering: Default::default(),
            f_fe: Default::default(),
            f_ft: Default::default(),
            f_fl: Default::default(),
            f_fne: Default::default(),
            f_b: Default::default(),
            f_ld: Default::default(),
            f_st: Default::default(),
            evfr: Default::default(),
            nevfr: Default::default(),
            minlat: Default::default(),
            events: Default::default(),
            is_branch: Default::default(),
            is_load: Default::default(),
            is_store: Default::default(),
            lat_total: Default::default(),
            feed: Default::default(),
            filtrate: Default::default(),
            type_ok: Default::default(),
            ev_ok: Default::default(),
            nev_ok: Default::default(),
            lat_ok: Default::default(),
            k_zero12: Constant::new(0u64.into()),
        }
    }
}

impl<const CW: usize> Logic for SpeFilter<CW> {
    #[hdl_gen]
    fn update(&mut self) {
        // Type filter: with FT set and at least one type bit, the op must match one.
        self.type_ok.next = true;
        if self.f_ft.val() & (self.f_b.val() | self.f_ld.val() | self.f_st.val()) {
            self.type_ok.next = (self.f_b.val() & self.is_branch.val())
                | (self.f_ld.val() & self.is_load.val())
                | (self.f_st.val() & self.is_store.val());
        }
        // Event filter: every selected event set.
        self.ev_ok.next = true;
        if self.f_fe.val() {
            self.ev_ok.next = (self.events.val() & self.evfr.val()) == self.evfr.val();
        }
        // Inverted event filter: no selected event set.
        self.nev_ok.next = true;
        if self.f_fne.val() {
            self.nev_ok.next = (self.events.val() & self.nevfr.val()) == self.k_zero12.val();
        }
        // Minimum latency on the total latency.
        self.lat_ok.next = true;
        if self.f_fl.val() {
            self.lat_ok.next = self.lat_total.val() >= self.minlat.val();
        }
        self.feed.next = self.filtering.val() & !self.reset.val();
        self.filtrate.next = self.filtering.val()
            & !self.reset.val()
            & self.type_ok.val()
            & self.ev_ok.val()
            & self.nev_ok.val()
            & self.lat_ok.val();
    }
}
