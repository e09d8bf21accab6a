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
use crate::{HI_EVENT_BITS, K};
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
    /// built with `Options::feed_events`, none otherwise (so no Verilog at all), from its
    /// block ([`crate::options::feed_events::FilterFeed`]).
    pub feed_br: Vec<Signal<Out, Bit>>,
    pub feed_ld: Vec<Signal<Out, Bit>>,
    pub feed_st: Vec<Signal<Out, Bit>>,
    pub feed_op: Vec<Signal<Out, Bit>>,
    pub feed_event: Vec<Signal<Out, Bit>>,
    pub feed_lat: Vec<Signal<Out, Bit>>,
    feed_events: Vec<crate::options::feed_events::FilterFeed<CW>>,
    /// FEAT_SPE_EFT (`Options::eft`; one element in a unit that builds it, none
    /// otherwise): PMSFCR.TYPE bits 4:3 (FP, SIMD) and TYPEm, the op's attributes and
    /// whether its access was scalar, for its block ([`crate::options::eft::FilterEft`]:
    /// the op's FP and SIMD kind, J1 `SPEFilterByType`'s `is_op`, and whether TYPE or
    /// TYPEm selects anything).
    pub eft_type: Vec<Signal<In, Bits<2>>>,
    pub eft_mask: Vec<Signal<In, Bits<5>>>,
    pub attr_fp: Vec<Signal<In, Bit>>,
    pub attr_simd: Vec<Signal<In, Bit>>,
    pub attr_simd_fp_ldst: Vec<Signal<In, Bit>>,
    pub fp_scalar: Vec<Signal<In, Bit>>,
    eft: Vec<crate::options::eft::FilterEft>,
    /// FEAT_SPE_FDS (`Options::fds`; one element in a unit that builds it, none
    /// otherwise): PMSDSFR, PMSFCR.FDS, whether the record's Data Source packet is due
    /// and that source, for its block (with `view`'s `is_branch`)
    /// ([`crate::options::fds::FilterFds`]: J1 `SPEFilterByDataSource`).
    pub dsfr: Vec<Signal<In, Bits<64>>>,
    pub fcr_fds: Vec<Signal<In, Bit>>,
    pub ds_en: Vec<Signal<In, Bit>>,
    pub ds_src: Vec<Signal<In, Bits<8>>>,
    fds: Vec<crate::options::fds::FilterFds>,
    /// SAMPLE_FEED_DS: FEAT_SPE_FDS with `Options::feed_events`.
    pub feed_ds: Vec<Signal<Out, Bit>>,
    /// SAMPLE_FEED_FP and _SIMD: FEAT_SPE_EFT with `Options::feed_events`.
    pub feed_fp: Vec<Signal<Out, Bit>>,
    pub feed_simd: Vec<Signal<Out, Bit>>,
    /// Events above bit 15 (`Options::sve_events`, `Options::v1p4_events`, `Options::sme`; one element in a
    /// unit that builds one, none otherwise): the sample's Events bits 31:16 and PMSEVFR's
    /// and PMSNEVFR's ([`HI_EVENT_BITS`], event 16 at bit 0), for their block
    /// ([`crate::options::events_hi::FilterEventsHi`]: whether those bits pass the event
    /// filter and the inverted one).
    pub ev_hi: Vec<Signal<In, Bits<HI_EVENT_BITS>>>,
    pub evfr_hi: Vec<Signal<In, Bits<HI_EVENT_BITS>>>,
    pub nevfr_hi: Vec<Signal<In, Bits<HI_EVENT_BITS>>>,
    events_hi: Vec<crate::options::events_hi::FilterEventsHi>,
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
        fn n_of<T: Default>(n: usize) -> Vec<T> {
            (0..n).map(|_| T::default()).collect()
        }
        let eft = usize::from(spe_defs::config::option::eft(cfg));
        let feed_eft = usize::from(spe_defs::config::option::feed_eft(cfg));
        let fds = usize::from(spe_defs::config::option::fds(cfg));
        let feed_fds = usize::from(spe_defs::config::option::feed_fds(cfg));
        let hi = usize::from(spe_defs::events::has_high_events(cfg));
        Self {
            ev_hi: n_of(hi),
            evfr_hi: n_of(hi),
            nevfr_hi: n_of(hi),
            events_hi: n_of(hi),
            feed_br: option(),
            feed_ld: option(),
            feed_st: option(),
            feed_op: option(),
            feed_event: option(),
            feed_lat: option(),
            feed_events: (0..usize::from(cfg.options.feed_events))
                .map(|_| crate::options::feed_events::FilterFeed::new(cfg))
                .collect(),
            eft_type: n_of(eft),
            eft_mask: n_of(eft),
            attr_fp: n_of(eft),
            attr_simd: n_of(eft),
            attr_simd_fp_ldst: n_of(eft),
            fp_scalar: n_of(eft),
            eft: n_of(eft),
            dsfr: n_of(fds),
            fcr_fds: n_of(fds),
            ds_en: n_of(fds),
            ds_src: n_of(fds),
            fds: n_of(fds),
            feed_ds: n_of(feed_fds),
            feed_fp: n_of(feed_eft),
            feed_simd: n_of(feed_eft),
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
        // FEAT_SPE_EFT (`options::eft`, J1 SPEFilterByType): FT rejects an op that fails
        // the OR term or the AND term of the types (TYPE and TYPEm zero: every op passes).
        for i in 0..self.eft.len() {
            self.eft[i].b.next = self.ctl.val().b;
            self.eft[i].ld.next = self.ctl.val().ld;
            self.eft[i].st.next = self.ctl.val().st;
            self.eft[i].ty.next = self.eft_type[i].val();
            self.eft[i].mask.next = self.eft_mask[i].val();
            self.eft[i].is_branch.next = self.view.val().is_branch;
            self.eft[i].is_load.next = self.view.val().is_load;
            self.eft[i].is_store.next = self.view.val().is_store;
            self.eft[i].attr_fp.next = self.attr_fp[i].val();
            self.eft[i].attr_simd.next = self.attr_simd[i].val();
            self.eft[i].simd_fp_ldst.next = self.attr_simd_fp_ldst[i].val();
            self.eft[i].fp_scalar.next = self.fp_scalar[i].val();
            self.type_ok.next = !self.ctl.val().ft | self.eft[i].is_op.val();
        }
        // Event filter: every selected event set. An empty selection passes (choice:
        // fe-empty-filter); with the same event in PMSNEVFR both filters apply
        // (choice: fe-fne-same-event).
        self.ev_ok.next = true;
        if self.ctl.val().fe {
            self.ev_ok.next = (self.view.val().events & self.ctl.val().evfr) == self.ctl.val().evfr;
        }
        // Inverted event filter: no selected event set. Without FEAT_SPE_FnE, `fne` and the
        // register's bits are constant zero from the register block (choice: fne-v1p2).
        self.nev_ok.next = true;
        if self.ctl.val().fne {
            self.nev_ok.next =
                (self.view.val().events & self.ctl.val().nevfr) == self.k_zero12.val();
        }
        // The events above bit 15 in both filters (`options::events_hi`).
        for i in 0..self.events_hi.len() {
            self.events_hi[i].ev.next = self.ev_hi[i].val();
            self.events_hi[i].evfr.next = self.evfr_hi[i].val();
            self.events_hi[i].nevfr.next = self.nevfr_hi[i].val();
            if self.ctl.val().fe {
                self.ev_ok.next = ((self.view.val().events & self.ctl.val().evfr)
                    == self.ctl.val().evfr)
                    & self.events_hi[i].ev_ok.val();
            }
            if self.ctl.val().fne {
                self.nev_ok.next = ((self.view.val().events & self.ctl.val().nevfr)
                    == self.k_zero12.val())
                    & self.events_hi[i].nev_ok.val();
            }
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
        // FEAT_SPE_FDS (`options::fds`, J1 SPEFilterByDataSource): with FDS a load with a
        // data source must have its source selected by PMSDSFR (the filtrate's terms again,
        // with this one: a vector's element cannot join the expression above).
        for i in 0..self.fds.len() {
            self.fds[i].dsfr.next = self.dsfr[i].val();
            self.fds[i].fds.next = self.fcr_fds[i].val();
            self.fds[i].ds_en.next = self.ds_en[i].val();
            self.fds[i].ds_src.next = self.ds_src[i].val();
            self.fds[i].is_branch.next = self.view.val().is_branch;
            self.filtrate.next = self.filtering.val()
                & !self.reset.val()
                & self.type_ok.val()
                & self.ev_ok.val()
                & self.nev_ok.val()
                & self.lat_ok.val()
                & !self.fds[i].drop.val();
        }
        // SPEv1p2's SAMPLE_FEED_* (`options::feed_events`), with EFT's and FDS's. (The
        // block's own option signals are its only element, `[0]`: rust-hdl 0.46 leaves a
        // loop index below an indexed block unresolved.)
        for i in 0..self.feed_events.len() {
            self.feed_events[i].pulse.next = self.filtering.val() & !self.reset.val();
            self.feed_events[i].fcr_b.next = self.ctl.val().b;
            self.feed_events[i].fcr_ld.next = self.ctl.val().ld;
            self.feed_events[i].fcr_st.next = self.ctl.val().st;
            self.feed_events[i].is_branch.next = self.view.val().is_branch;
            self.feed_events[i].is_load.next = self.view.val().is_load;
            self.feed_events[i].is_store.next = self.view.val().is_store;
            self.feed_events[i].events.next = self.view.val().events;
            self.feed_events[i].evfr.next = self.ctl.val().evfr;
            self.feed_events[i].nevfr.next = self.ctl.val().nevfr;
            self.feed_events[i].lat_total.next = self.lat_total.val();
            self.feed_events[i].minlat.next = self.minlat.val();
            for j in 0..self.events_hi.len() {
                self.feed_events[i].hi_ok[0].next =
                    self.events_hi[j].ev_ok.val() & self.events_hi[j].nev_ok.val();
            }
            for j in 0..self.eft.len() {
                self.feed_events[i].eft_op[0].next =
                    self.eft[j].sel.val() & self.eft[j].is_op.val();
                self.feed_events[i].eft_fp[0].next = self.eft[j].op_fp.val();
                self.feed_events[i].eft_simd[0].next = self.eft[j].op_simd.val();
            }
            for j in 0..self.fds.len() {
                self.feed_events[i].fds_hit[0].next = self.fds[j].hit.val();
            }
            self.feed_br[i].next = self.feed_events[i].br.val();
            self.feed_ld[i].next = self.feed_events[i].ld.val();
            self.feed_st[i].next = self.feed_events[i].st.val();
            self.feed_op[i].next = self.feed_events[i].op.val();
            self.feed_event[i].next = self.feed_events[i].ev.val();
            self.feed_lat[i].next = self.feed_events[i].lat.val();
            for j in 0..self.feed_fp.len() {
                self.feed_fp[j].next = self.feed_events[i].fp[0].val();
                self.feed_simd[j].next = self.feed_events[i].simd[0].val();
            }
            for j in 0..self.feed_ds.len() {
                self.feed_ds[j].next = self.feed_events[i].ds[0].val();
            }
        }
    }
}
