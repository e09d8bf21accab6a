//! Functional coverage: which situations the unit met in a run, as cover points and
//! crosses, observed at its ports only (the inputs it was given, the outputs it gave, the
//! record bytes it wrote), so that the plan holds for any implementation of the port
//! contract, the golden model's as much as the RTL's.
//!
//! * [`Plan`]: the one table of cover points of a unit of a [`Config`] (the points that
//!   apply to it: SMT points only at T > 1, an option's points only where it is built),
//!   each a name and what it means in port terms;
//! * [`Observer`]: a [`Dut`] decorator that counts each point's hits while the run steps
//!   the unit under it (the regression puts it between its chaos and the lockstep pair,
//!   so it sees exactly the inputs the unit got);
//! * [`report`]: hit counts per preset and the holes, as Markdown (`spe coverage
//!   --functional`).
//!
//! The points, in port terms (thread t's ports; a sample is *in flight* from the tag of a
//! slot whose `disp_tid` is t until its outcome):
//! * `sample/<outcome>/<class>`: the outcome of a sample of op class other, load-store or
//!   branch (`disp_class` of the tagged slot; the reserved class counts as other): `kept`
//!   (SAMPLE_FILTRATE with its SAMPLE_FEED, the op retired), `kept-flushed` (the same, its
//!   `cpl_retired` low), `filtered` (SAMPLE_FEED without SAMPLE_FILTRATE), `timed-out`
//!   (`sample_timeout`), `psb-dropped` (`psb_req` high before its `cpl_done`);
//!   `sample/collision` (SAMPLE_COLLISION), `sample/reset-dropped` (`reset` while one is
//!   in flight);
//! * `fault/<kind>/beat<k>`: a write fault (`wr_err` with the handshake) of each
//!   `wr_err_kind` (ea 00, stage1 01, stage2 10, reserved 11) at beat k of its record (0
//!   is the first byte's beat; a record's beats are the handshakes at consecutive
//!   addresses of one thread after its first). A fault ends its record, but an external
//!   abort (or the reserved kind) on a unit with SPEv1p3 (`Options::v1p3`), which ignores
//!   it: there the record goes on;
//! * `fault/mmu-sea`: a stage 1 or stage 2 write fault whose FSC is a synchronous external
//!   abort, on the access or on a translation table walk (the faults FEAT_SPE_EXC routes by
//!   SCR_EL3.EA and HCR_EL2.TEA);
//! * `backpressure/beat<k>`: a cycle with beat k of a record offered and `wr_ready` low;
//! * `psb/<phase>`: `psb_req` rising while the thread is `idle`, `tracking` (a sample in
//!   flight before its `cpl_done`), `completing` (after its `cpl_done`, before its
//!   SAMPLE_FEED), `kept` (its sample kept, no beat of the record offered yet: waiting for
//!   the writer or in its check cycle), `writing` (a beat of its record offered and taken)
//!   or `writing-stalled` (offered, `wr_ready` low);
//! * `event/E<n>`: a written record whose Events packet has bit n set (each bit the unit
//!   implements);
//! * `packet/<kind>`: a written record with a packet of each kind the unit makes (each
//!   Address index, Context EL1 and EL2, each Counter, Data Source, Operation Type per
//!   class, Events, Timestamp, End);
//! * `latency/<counter>-saturated`: a written record whose TOT, ISSUE or XLAT counter is
//!   at the preset's counter maximum;
//! * `mgmt/buffer-full-after-last-beat`, `mgmt/buffer-full-at-check` (units with the
//!   SAMPLE_FEED_* events): SAMPLE_BUFFER_FULL with a record's last beat, or at the
//!   check of a record that finds no room; `mgmt/irq` (PMBIRQ rising); `mgmt/freeze`
//!   (PMFZ: `pmu_freeze` rising); `mgmt/stop-writing`: software stops profiling (a
//!   register write that sets PMBSR.S or clears PMBLIMITR.E) while a beat past the first
//!   of its thread's record is offered;
//! * `feed/<event>`: each SAMPLE_FEED_* output the unit has, pulsed;
//! * `smt/thread<t>/kept` and `smt/thread<t>/waits` (T > 1): thread t's sample kept, and
//!   kept while another thread's beat is offered (contention for the one writer);
//! * `gcs/<call|return>/<kept|filtered>` (units with FEAT_SPE_CRR, which record GCS): a
//!   sampled branch with link or procedure return whose payload has GCS (it pushes or
//!   pops the Guarded Control Stack, and so is a store or a load for the filters: review
//!   finding N1) reaches the filters, with SAMPLE_FEED_ST or _LD, and is kept or dropped;
//!   `gcs/<call|return>/data`: its record carries the GCS access's data VA beside the
//!   branch target (D17.6.3, the 128-byte slot);
//! * `exc/el<n>` (units with FEAT_SPE_EXC): `exc_el<n>` rising, a management event
//!   reported as an SPE Profiling exception to ELn (J1 `ReportSPEEvent`'s bank);
//!   `exc/el<n>/ke` (n = 1, 2): rising with `exc_ke<n>`, an exception that may be taken at
//!   ELn itself (PMSCR_ELn.KE);
//! * `nvm/<ipa|pa>` (units with FEAT_SPE_nVM): a beat written with `wr_addr_space` 01
//!   (an IPA) or 10 (a physical address);
//! * `hook/stray`: `hook_stray`; `hook/repeated`: while a sample is in flight (from the
//!   cycle after its tag to its `cpl_done`), a report of a kind it already had (`iss_valid`,
//!   `xl_start`, `xl_done`, `mem_done`, `br_done`); `hook/wrong-class`: while one is in
//!   flight, a translation or memory report for an op that is not a load/store, or a
//!   branch report for one that is not a branch (the unit ignores both);
//! * `branch/indirect-at-resolution`: a sampled branch dispatched with IND clear in its
//!   `disp_subclass` whose branch report has `br_indirect` (IND from the report);
//! * `mode/guest-el0`, `mode/guest-el1`: a tag of an op at EL0 or EL1 of a guest under a
//!   VHE host (`el2_en` and `hcr_e2h` high, `hcr_tge` low);
//! * `mode/el3`: a dispatch group with a valid slot at EL3, AArch64, `prof_allowed` high
//!   (ops the unit never samples nor counts: DESIGN §4);
//! * `mgmt/stop-while-held`: software sets PMBSR.S or clears PMBLIMITR.E in a cycle its
//!   thread's beat is offered with `wr_ready` low;
//! * `eft/<br|ld|st|fp|simd>/<set|clear>-<is|isnt>` (units with FEAT_SPE_EFT and the
//!   SAMPLE_FEED_* outputs): a sample reaches the filters (SAMPLE_FEED) while its thread's
//!   PMSFCR, as the register port last wrote it, has FT and the type's mask bit (TYPEm:
//!   the type is an AND term, J1 `SPEFilterByType`), with the type bit set or clear, and
//!   the op is or is not of that type (its SAMPLE_FEED_<type> output): each row of each
//!   type's AND term.

use crate::hooks;
use spe_defs::impdef::{
    events_payload, layout, BEAT_BYTES, DATA_SOURCE_PAYLOAD, MAX_RECORD_BEATS, MAX_RECORD_SIZE,
};
use spe_defs::packet::{self, addr_index, context_index, counter_index, op_class, subclass};
use spe_defs::regs::{pmblimitr, pmbmar, pmbsr, pmsfcr, reg, RegId};
use spe_defs::{events, Config};
use spe_ports::{Dut, Inputs, Outputs};
use std::collections::HashMap;

/// The cover points of one unit: names in plan order, with what each means.
#[derive(Clone, Debug)]
pub struct Plan {
    pub preset: &'static str,
    pub points: Vec<(String, String)>,
    index: HashMap<String, usize>,
}

/// The op classes by `op_class` value (the reserved class 3 counts as other).
const CLASSES: [&str; 3] = ["other", "load-store", "branch"];
const OUTCOMES: [(&str, &str); 5] = [
    (
        "kept",
        "kept by the filters (SAMPLE_FILTRATE), the op retired",
    ),
    (
        "kept-flushed",
        "kept by the filters, the op not retired (cpl_retired low)",
    ),
    (
        "filtered",
        "dropped by a filter (SAMPLE_FEED without SAMPLE_FILTRATE)",
    ),
    (
        "timed-out",
        "dropped by the completion timeout (sample_timeout)",
    ),
    (
        "psb-dropped",
        "dropped by a PSB (psb_req high before its cpl_done)",
    ),
];
const FAULT_KINDS: [&str; 4] = ["ea", "stage1", "stage2", "reserved"];
const PSB_PHASES: [&str; 6] = [
    "idle",
    "tracking",
    "completing",
    "writing",
    "writing-stalled",
    "kept",
];
/// The latency counters by their Counter packet index, as the points name them.
const COUNTERS: [(u8, &str); 3] = [
    (counter_index::TOTAL, "total"),
    (counter_index::ISSUE, "issue"),
    (counter_index::TRANSLATION, "translation"),
];
/// The Address packets by index, as the points name them (the previous-branch target only
/// with FEAT_SPE_PBT).
const ADDRESSES: [(u8, &str); 5] = [
    (addr_index::PC, "pc"),
    (addr_index::BRANCH_TARGET, "target"),
    (addr_index::DATA_VA, "data-va"),
    (addr_index::DATA_PA, "data-pa"),
    (addr_index::PREV_BRANCH_TARGET, "prev-branch-target"),
];
/// FEAT_SPE_EFT's five op types as the `eft/` points name them, in the order of J1
/// `SPEFilterByType` (B, LD, ST, FP, SIMD): type k is bit k of PMSFCR's TYPE field, its
/// mask bit k of TYPEm; an op's type is its SAMPLE_FEED_<type> output, the [`FEEDS`]
/// entry of that name.
const EFT_TYPES: [&str; 5] = ["br", "ld", "st", "fp", "simd"];

/// The SAMPLE_FEED_* outputs in the order [`feeds`] reads them ([`has_feed`]: which a unit has).
const FEEDS: [&str; 10] = [
    "br",
    "ld",
    "st",
    "op",
    "event",
    "lat",
    "fp",
    "simd",
    "ds",
    "buffer-full",
];

fn feeds(o: &spe_ports::ThreadOutputs) -> [bool; 10] {
    [
        o.pmu_sample_feed_br,
        o.pmu_sample_feed_ld,
        o.pmu_sample_feed_st,
        o.pmu_sample_feed_op,
        o.pmu_sample_feed_event,
        o.pmu_sample_feed_lat,
        o.pmu_sample_feed_fp,
        o.pmu_sample_feed_simd,
        o.pmu_sample_feed_ds,
        o.pmu_sample_buffer_full,
    ]
}

/// Whether a unit of `cfg` has the SAMPLE_FEED_* output `name`.
fn has_feed(cfg: &Config, name: &str) -> bool {
    let o = &cfg.options;
    o.feed_events
        && match name {
            "fp" | "simd" => o.eft,
            "ds" => o.fds,
            _ => true,
        }
}

impl Plan {
    /// The points that apply to a unit of `cfg`.
    pub fn new(cfg: &Config) -> Plan {
        let mut p: Vec<(String, String)> = Vec::new();
        let mut add = |name: String, what: String| p.push((name, what));
        for (o, what) in OUTCOMES {
            for c in CLASSES {
                add(
                    format!("sample/{o}/{c}"),
                    format!("a sample of an op of class {c}: {what}"),
                );
            }
        }
        add(
            "sample/collision".into(),
            "SAMPLE_COLLISION: a selection while a sample is in flight".into(),
        );
        add(
            "sample/reset-dropped".into(),
            "reset while a sample is in flight".into(),
        );
        for (n, k) in FAULT_KINDS.iter().enumerate() {
            for b in 0..cfg.record_beats() {
                add(
                    format!("fault/{k}/beat{b}"),
                    format!("a write fault of wr_err_kind {n:02b} at beat {b} of a record"),
                );
            }
        }
        add(
            "fault/mmu-sea".into(),
            "a stage 1 or 2 write fault with the FSC of a synchronous external abort".into(),
        );
        for b in 0..cfg.record_beats() {
            add(
                format!("backpressure/beat{b}"),
                format!("beat {b} of a record offered with wr_ready low"),
            );
        }
        for ph in PSB_PHASES {
            add(
                format!("psb/{ph}"),
                format!("psb_req rising while the thread is {ph}"),
            );
        }
        let mask = events::implemented_mask(cfg);
        for n in (0..32).filter(|n| mask >> n & 1 != 0) {
            let name = events::name(n).unwrap_or("IMPDEF");
            add(
                format!("event/E{n}"),
                format!("a written record with event bit {n} ({name}) set"),
            );
        }
        for (_, kind) in packet_kinds(cfg) {
            add(
                format!("packet/{kind}"),
                format!("a written record with a {kind} packet"),
            );
        }
        for (_, c) in COUNTERS {
            add(
                format!("latency/{c}-saturated"),
                format!(
                    "a written record whose {c} latency counter is at its maximum ({})",
                    cfg.counter_width.max()
                ),
            );
        }
        if cfg.options.feed_events {
            add(
                "mgmt/buffer-full-after-last-beat".into(),
                "SAMPLE_BUFFER_FULL with a record's last beat".into(),
            );
            add(
                "mgmt/buffer-full-at-check".into(),
                "SAMPLE_BUFFER_FULL at the check of a record that finds no room".into(),
            );
        }
        add(
            "mgmt/irq".into(),
            "PMBIRQ rising (a management event)".into(),
        );
        add(
            "mgmt/stop-writing".into(),
            "software sets PMBSR.S or clears PMBLIMITR.E while a beat past the first of its thread's record is offered".into(),
        );
        add(
            "mgmt/stop-while-held".into(),
            "software sets PMBSR.S or clears PMBLIMITR.E in a cycle its thread's beat is offered with wr_ready low".into(),
        );
        if cfg.options.pmfz {
            add("mgmt/freeze".into(), "pmu_freeze rising (PMFZ)".into());
        }
        for f in FEEDS.iter().filter(|f| has_feed(cfg, f)) {
            add(
                format!("feed/{f}"),
                format!("a SAMPLE_FEED_{} pulse", f.to_uppercase()),
            );
        }
        if has_feed(cfg, "fp") {
            for t in EFT_TYPES {
                for (set, want) in [
                    ("set", "kept only if it is"),
                    ("clear", "kept only if it is not"),
                ] {
                    for (is, what) in [("is", "is one"), ("isnt", "is not one")] {
                        add(
                            format!("eft/{t}/{set}-{is}"),
                            format!("a sample reaches the filters with PMSFCR.FT and the {t} mask set and the {t} type bit {set} ({want} a {t} op), and {what} (SAMPLE_FEED_{})", t.to_uppercase()),
                        );
                    }
                }
            }
        }
        if cfg.threads > 1 {
            for t in 0..cfg.threads {
                add(
                    format!("smt/thread{t}/kept"),
                    format!("a sample of thread {t} kept"),
                );
                add(
                    format!("smt/thread{t}/waits"),
                    format!("a sample of thread {t} kept while another thread's beat is offered"),
                );
            }
        }
        if cfg.options.crr {
            for (op, what) in [("call", "branch with link"), ("return", "procedure return")] {
                for (how, fate) in [("kept", "kept"), ("filtered", "dropped by a filter")] {
                    add(
                        format!("gcs/{op}/{how}"),
                        format!("a sampled {what} with GCS reaches the filters and is {fate}"),
                    );
                }
                add(
                    format!("gcs/{op}/data"),
                    format!("the record of a {what} with GCS carries its target and the data VA of its GCS access"),
                );
            }
        }
        if cfg.options.exc {
            for n in 1..=3 {
                add(
                    format!("exc/el{n}"),
                    format!("exc_el{n} rising: a management event as an exception to EL{n}"),
                );
            }
            for n in 1..=2 {
                add(
                    format!("exc/el{n}/ke"),
                    format!("exc_el{n} rising with exc_ke{n}: the exception may be taken at EL{n} itself"),
                );
            }
        }
        if cfg.options.nvm {
            for (sp, what) in [("ipa", "01, an IPA"), ("pa", "10, a physical address")] {
                add(
                    format!("nvm/{sp}"),
                    format!("a beat written with wr_addr_space {what}"),
                );
            }
        }
        add(
            "hook/stray".into(),
            "hook_stray: a hook report the unit ignored".into(),
        );
        add(
            "hook/repeated".into(),
            "a report of a kind the sample in flight already had (issue, translation start or done, memory, branch)".into(),
        );
        add(
            "hook/wrong-class".into(),
            "a translation or memory report for a sample in flight that is not a load/store, or a branch report for one that is not a branch".into(),
        );
        add(
            "branch/indirect-at-resolution".into(),
            "a sampled branch dispatched with IND clear whose branch report has br_indirect".into(),
        );
        for el in 0..2 {
            add(
                format!("mode/guest-el{el}"),
                format!("a tag of an op at EL{el} of a guest under a VHE host (el2_en, hcr_e2h, not hcr_tge)"),
            );
        }
        add(
            "mode/el3".into(),
            "a dispatch group with a valid slot at EL3, AArch64, prof_allowed high (never in the population)".into(),
        );
        let index = p
            .iter()
            .enumerate()
            .map(|(i, (n, _))| (n.clone(), i))
            .collect();
        Plan {
            preset: cfg.name,
            points: p,
            index,
        }
    }

    /// The index of point `name` (every name the observer hits is in the plan).
    pub fn id(&self, name: &str) -> usize {
        match self.index.get(name) {
            Some(&i) => i,
            None => panic!(
                "functional coverage: no point {name} in the plan of {}",
                self.preset
            ),
        }
    }

    fn find(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied()
    }
}

/// Every packet kind a unit of `cfg` writes: its header byte (`spe_defs`' encodings) and its
/// name in the `packet/` points (a counter's also names its `latency/` point).
fn packet_kinds(cfg: &Config) -> Vec<(u8, String)> {
    let named = |h: u8, n: &str| (h, n.to_string());
    let mut k = vec![
        named(packet::context_header(context_index::EL1), "context-el1"),
        named(packet::context_header(context_index::EL2), "context-el2"),
    ];
    k.extend(COUNTERS.map(|(i, c)| (packet::counter_header(i), format!("counter-{c}"))));
    k.extend(
        ADDRESSES
            .iter()
            .filter(|(i, _)| *i != addr_index::PREV_BRANCH_TARGET || cfg.options.pbt)
            .map(|&(i, a)| (packet::address_header(i), format!("address-{a}"))),
    );
    k.push(named(
        packet::data_source_header(DATA_SOURCE_PAYLOAD),
        "data-source",
    ));
    k.extend(
        [op_class::OTHER, op_class::LD_ST_ATOMIC, op_class::BRANCH]
            .into_iter()
            .zip(CLASSES)
            .map(|(c, n)| (packet::op_type_header(c), format!("op-type-{n}"))),
    );
    k.push(named(packet::events_header(events_payload(cfg)), "events"));
    k.push(named(packet::TIMESTAMP, "timestamp"));
    k.push(named(packet::END, "end"));
    k
}

/// One thread's state as the ports show it.
#[derive(Clone, Debug)]
struct Thread {
    /// The op class (`op_class`; the reserved class as other) of the sample in flight.
    in_flight: Option<u8>,
    /// It is a call (0) or a return (1) with GCS, on a unit that records GCS.
    gcs: Option<usize>,
    /// Its `cpl_done` came; `Some(retired)`.
    completed: Option<bool>,
    /// The reports it had (a [`crate::hooks`] set), and whether it is a branch dispatched
    /// with IND clear.
    had: u8,
    ind_clear: bool,
    /// A sample of the thread was kept and its record's first beat not yet offered (it
    /// waits for the writer or is in its check cycle).
    kept: bool,
    psb_req: bool,
    irq: bool,
    freeze: bool,
    /// PMSFCR as the register port last wrote it (its writable bits), for the `eft/`
    /// points.
    pmsfcr: u64,
    /// `exc_el1..3` last cycle.
    exc: [bool; 3],
    /// The record being written: the beat index the next consecutive handshake takes, the
    /// address of the last one, and the bytes so far.
    next_beat: usize,
    last_addr: u64,
    record: [u8; MAX_RECORD_SIZE],
}

impl Default for Thread {
    fn default() -> Self {
        Thread {
            in_flight: None,
            gcs: None,
            completed: None,
            had: 0,
            ind_clear: false,
            kept: false,
            psb_req: false,
            irq: false,
            freeze: false,
            pmsfcr: 0,
            exc: [false; 3],
            next_beat: 0,
            last_addr: 0,
            record: [0; MAX_RECORD_SIZE],
        }
    }
}

/// The thread of a `disp_tid` / `wr_tid` value (0 at T = 1, where the port is absent).
fn tid(threads: usize, v: u8) -> usize {
    if threads > 1 {
        usize::from(v) % threads
    } else {
        0
    }
}

impl Thread {
    /// The index of a beat at `addr` in its record: the next one when it follows the
    /// thread's last beat, else the first of a new record.
    fn beat_at(&self, addr: u64) -> usize {
        if self.next_beat > 0 && addr == self.last_addr.wrapping_add(BEAT_BYTES as u64) {
            self.next_beat
        } else {
            0
        }
    }
}

/// Hit counts of one run, point by point in the plan's order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hits {
    pub preset: &'static str,
    pub counts: Vec<u64>,
}

impl Hits {
    /// Adds another run's counts of the same preset.
    pub fn add(&mut self, other: &Hits) {
        assert_eq!(self.preset, other.preset, "hits of one preset");
        for (a, b) in self.counts.iter_mut().zip(&other.counts) {
            *a += b;
        }
    }
}

/// Counts the cover points of the unit under it (see the module's text); a plain pass
/// through when built disabled.
pub struct Observer<D> {
    pub inner: D,
    cfg: Config,
    plan: Option<Plan>,
    counts: Vec<u64>,
    thr: Vec<Thread>,
    ids: Ids,
}

/// The indices of the points hit on hot paths, looked up once.
#[derive(Default)]
struct Ids {
    outcome: [[usize; 3]; 5],
    collision: usize,
    reset_dropped: usize,
    fault: [[usize; MAX_RECORD_BEATS]; 4],
    mmu_sea: usize,
    backpressure: [usize; MAX_RECORD_BEATS],
    psb: [usize; 6],
    irq: usize,
    stop_writing: usize,
    freeze: Option<usize>,
    full_last: Option<usize>,
    full_check: Option<usize>,
    feed: [Option<usize>; 10],
    smt_kept: Vec<usize>,
    smt_waits: Vec<usize>,
    /// `gcs/<call|return>/<kept|filtered>`, where the unit records GCS.
    gcs: Option<[[usize; 2]; 2]>,
    /// `exc/el1..3` (FEAT_SPE_EXC) and `nvm/ipa`, `nvm/pa` (FEAT_SPE_nVM).
    exc: Option<[usize; 3]>,
    exc_ke: Option<[usize; 2]>,
    nvm: Option<[usize; 2]>,
    stray: usize,
    repeated: usize,
    wrong_class: usize,
    late_ind: usize,
    guest: [usize; 2],
    el3: usize,
    stop_held: usize,
    /// `eft/<type>/<set|clear>-<is|isnt>` (FEAT_SPE_EFT with the SAMPLE_FEED_* outputs).
    eft: Option<[[[usize; 2]; 2]; 5]>,
}

impl<D: Dut> Observer<D> {
    /// Wraps `inner`, a unit of `cfg`; counts only when `enabled`.
    pub fn new(inner: D, cfg: &Config, enabled: bool) -> Self {
        let plan = enabled.then(|| Plan::new(cfg));
        let mut ids = Ids::default();
        if let Some(p) = &plan {
            for (o, (oname, _)) in OUTCOMES.iter().enumerate() {
                for (c, cname) in CLASSES.iter().enumerate() {
                    ids.outcome[o][c] = p.id(&format!("sample/{oname}/{cname}"));
                }
            }
            ids.collision = p.id("sample/collision");
            ids.reset_dropped = p.id("sample/reset-dropped");
            for (k, kind) in FAULT_KINDS.iter().enumerate() {
                for b in 0..cfg.record_beats() {
                    ids.fault[k][b] = p.id(&format!("fault/{kind}/beat{b}"));
                }
            }
            ids.mmu_sea = p.id("fault/mmu-sea");
            for b in 0..cfg.record_beats() {
                ids.backpressure[b] = p.id(&format!("backpressure/beat{b}"));
            }
            for (i, ph) in PSB_PHASES.iter().enumerate() {
                ids.psb[i] = p.id(&format!("psb/{ph}"));
            }
            ids.irq = p.id("mgmt/irq");
            ids.stop_writing = p.id("mgmt/stop-writing");
            ids.freeze = p.find("mgmt/freeze");
            ids.full_last = p.find("mgmt/buffer-full-after-last-beat");
            ids.full_check = p.find("mgmt/buffer-full-at-check");
            for (i, f) in FEEDS.iter().enumerate() {
                ids.feed[i] = p.find(&format!("feed/{f}"));
            }
            if cfg.threads > 1 {
                for t in 0..cfg.threads {
                    ids.smt_kept.push(p.id(&format!("smt/thread{t}/kept")));
                    ids.smt_waits.push(p.id(&format!("smt/thread{t}/waits")));
                }
            }
            ids.stray = p.id("hook/stray");
            ids.repeated = p.id("hook/repeated");
            ids.wrong_class = p.id("hook/wrong-class");
            ids.late_ind = p.id("branch/indirect-at-resolution");
            ids.guest = [0, 1].map(|el| p.id(&format!("mode/guest-el{el}")));
            ids.el3 = p.id("mode/el3");
            ids.stop_held = p.id("mgmt/stop-while-held");
            if has_feed(cfg, "fp") {
                ids.eft = Some(EFT_TYPES.map(|t| {
                    ["set", "clear"]
                        .map(|b| ["is", "isnt"].map(|i| p.id(&format!("eft/{t}/{b}-{i}"))))
                }));
            }
            if cfg.options.exc {
                ids.exc = Some([1, 2, 3].map(|n| p.id(&format!("exc/el{n}"))));
                ids.exc_ke = Some([1, 2].map(|n| p.id(&format!("exc/el{n}/ke"))));
            }
            if cfg.options.nvm {
                ids.nvm = Some(["ipa", "pa"].map(|sp| p.id(&format!("nvm/{sp}"))));
            }
            if cfg.options.crr {
                let id = |op: &str, how: &str| p.id(&format!("gcs/{op}/{how}"));
                ids.gcs = Some([
                    [id("call", "kept"), id("call", "filtered")],
                    [id("return", "kept"), id("return", "filtered")],
                ]);
            }
        }
        Observer {
            inner,
            cfg: *cfg,
            counts: vec![0; plan.as_ref().map_or(0, |p| p.points.len())],
            plan,
            thr: vec![Thread::default(); cfg.threads],
            ids,
        }
    }

    /// The counts so far (None when built disabled).
    pub fn hits(&self) -> Option<Hits> {
        self.plan.as_ref().map(|p| Hits {
            preset: p.preset,
            counts: self.counts.clone(),
        })
    }

    fn observe(&mut self, i: &Inputs, o: &Outputs) {
        let threads = self.cfg.threads;
        if i.reset {
            for th in &mut self.thr {
                if th.in_flight.is_some() {
                    self.counts[self.ids.reset_dropped] += 1;
                }
                *th = Thread::default();
            }
            return;
        }
        // The writer: the offered beat, its thread and its index in the record.
        let wt = o.wr_valid.then(|| tid(threads, o.wr_tid));
        let beat = wt.map(|t| self.thr[t].beat_at(o.wr_addr));
        let ids = &self.ids;
        let c = &mut self.counts;
        if let (Some(t), Some(b)) = (wt, beat) {
            let stops = i.reg_en
                && i.reg_we
                && tid(threads, i.reg_tid) == t
                && ((i.reg_addr == reg(RegId::Pmbsr).addr() && pmbsr::S.get(i.reg_wdata) == 1)
                    || (i.reg_addr == reg(RegId::Pmblimitr).addr()
                        && pmblimitr::E.get(i.reg_wdata) == 0));
            if stops && b > 0 {
                c[ids.stop_writing] += 1;
            }
            if stops && !i.wr_ready {
                c[ids.stop_held] += 1;
            }
        }
        for t in 0..threads {
            let (ti, to) = (&i.thr[t], &o.thr[t]);
            let writing = wt == Some(t);
            let th = &mut self.thr[t];
            // PSB: the thread's phase when psb_req rises.
            if ti.psb_req && !th.psb_req {
                let ph = match (th.in_flight, th.completed) {
                    _ if writing && !i.wr_ready => 4,
                    _ if writing => 3,
                    _ if th.kept => 5,
                    (Some(_), None) => 1,
                    (Some(_), Some(_)) => 2,
                    (None, _) => 0,
                };
                c[ids.psb[ph]] += 1;
            }
            th.psb_req = ti.psb_req;
            // A kept record is no longer waiting once a beat of it is offered, or when it
            // finds no room (buffer full: a management event).
            if writing || to.pmu_sample_buffer_full || (to.irq && !th.irq) {
                th.kept = false;
            }
            if to.pmu_sample_collision {
                c[ids.collision] += 1;
            }
            if to.hook_stray {
                c[ids.stray] += 1;
            }
            if to.irq && !th.irq {
                c[ids.irq] += 1;
            }
            th.irq = to.irq;
            if let (true, false, Some(f)) = (to.pmu_freeze, th.freeze, ids.freeze) {
                c[f] += 1;
            }
            th.freeze = to.pmu_freeze;
            if let Some(e) = ids.exc {
                let ke = [to.exc_ke1, to.exc_ke2, false];
                for (n, on) in [to.exc_el1, to.exc_el2, to.exc_el3].into_iter().enumerate() {
                    if on && !th.exc[n] {
                        c[e[n]] += 1;
                        if let (true, Some(k)) = (ke[n], ids.exc_ke) {
                            c[k[n]] += 1;
                        }
                    }
                    th.exc[n] = on;
                }
            }
            let fed = feeds(to);
            for (k, &on) in fed.iter().enumerate() {
                if let (true, Some(id)) = (on, ids.feed[k]) {
                    c[id] += 1;
                }
            }
            // A sample at the filters under an AND term of FEAT_SPE_EFT's type filter: each
            // type whose mask bit is set, by its type bit and whether the op is one.
            if let (true, Some(eft)) = (to.pmu_sample_feed, &ids.eft) {
                let fcr = th.pmsfcr;
                if pmsfcr::FT.is_set(fcr) {
                    let (types, masks) = (pmsfcr::TYPE.get(fcr), pmsfcr::TYPEM.get(fcr));
                    for (k, name) in EFT_TYPES.iter().enumerate() {
                        if masks >> k & 1 != 0 {
                            let set = usize::from(types >> k & 1 == 0);
                            let feed = FEEDS.iter().position(|f| f == name);
                            let is = usize::from(!feed.is_some_and(|i| fed[i]));
                            c[eft[k][set][is]] += 1;
                        }
                    }
                }
            }
            // SAMPLE_BUFFER_FULL with the thread's last beat taken (an external abort on it
            // ignored by a SPEv1p3 unit is taken too), or at a record's check.
            if to.pmu_sample_buffer_full {
                let last = writing
                    && i.wr_ready
                    && (!i.wr_err || pmbsr::is_ignored(&self.cfg, i.wr_err_kind))
                    && beat == Some(self.cfg.record_beats() - 1);
                if let Some(id) = if last { ids.full_last } else { ids.full_check } {
                    c[id] += 1;
                }
            }
            // The sample in flight: the reports it gets until its completion, then its
            // outcome.
            let Some(class) = th.in_flight else { continue };
            if th.completed.is_none() {
                let got = hooks::reported(ti);
                if got & th.had != 0 {
                    c[ids.repeated] += 1;
                }
                if got & hooks::wrong_class(class) != 0 {
                    c[ids.wrong_class] += 1;
                }
                if class == op_class::BRANCH
                    && th.ind_clear
                    && th.had & hooks::BRANCH == 0
                    && ti.br.done
                    && ti.br.indirect
                {
                    c[ids.late_ind] += 1;
                }
                th.had |= got;
            }
            let outcome = if to.pmu_sample_feed {
                Some(match (to.pmu_sample_filtrate, th.completed) {
                    (false, _) => 2,
                    (true, Some(false)) => 1,
                    (true, _) => 0,
                })
            } else if to.sample_timeout {
                Some(3)
            } else if ti.psb_req && th.completed.is_none() {
                Some(4)
            } else {
                None
            };
            match outcome {
                Some(k) => {
                    c[ids.outcome[k][usize::from(class)]] += 1;
                    // A GCS call counts as a store, a return as a load (N1): the feed
                    // event says so.
                    let as_access = [to.pmu_sample_feed_st, to.pmu_sample_feed_ld];
                    if let (Some(g), Some(op), true) = (ids.gcs, th.gcs, k < 3) {
                        if as_access[op] {
                            c[g[op][usize::from(k == 2)]] += 1;
                        }
                    }
                    th.in_flight = None;
                    th.completed = None;
                    th.kept = k < 2;
                    if k < 2 && threads > 1 {
                        c[ids.smt_kept[t]] += 1;
                        if wt.is_some_and(|x| x != t) {
                            c[ids.smt_waits[t]] += 1;
                        }
                    }
                }
                None if ti.cpl.done && th.completed.is_none() => {
                    th.completed = Some(ti.cpl.retired);
                }
                None => {}
            }
        }
        // A group at EL3 with profiling allowed: each thread's valid slots.
        for t in 0..threads {
            let x = &i.thr[t];
            if x.disp_el == 3
                && x.prof_allowed
                && !x.disp_aarch32
                && (0..self.cfg.dispatch_width)
                    .any(|s| i.disp[s].valid && tid(threads, i.disp[s].tid) == t)
            {
                c[ids.el3] += 1;
            }
        }
        // PMSFCR written this cycle: the filters use it from the next (the `eft/` points).
        if i.reg_en && i.reg_we && i.reg_addr == reg(RegId::Pmsfcr).addr() {
            let t = tid(threads, i.reg_tid);
            self.thr[t].pmsfcr = i.reg_wdata & reg(RegId::Pmsfcr).writable_mask(&self.cfg);
        }
        // A tag this cycle: the slot's thread has a sample in flight from the next cycle.
        if o.tag != 0 {
            let s = o.tag.trailing_zeros() as usize;
            if s < self.cfg.dispatch_width {
                let slot = &i.disp[s];
                let class = match slot.class & 3 {
                    op_class::RESERVED => op_class::OTHER,
                    c => c,
                };
                // A call or a return with GCS, as the unit records the payload.
                let rec = subclass::recorded_payload(slot.class & 3, slot.subclass, &self.cfg);
                let gcs = if self.ids.gcs.is_none() || class != op_class::BRANCH {
                    None
                } else if subclass::br_gcs_is_store(rec) {
                    Some(0)
                } else if subclass::br_gcs_is_load(rec) {
                    Some(1)
                } else {
                    None
                };
                let t = tid(threads, slot.tid);
                let x = &i.thr[t];
                if x.el2_en && x.hcr_e2h && !x.hcr_tge && x.disp_el < 2 {
                    c[ids.guest[usize::from(x.disp_el)]] += 1;
                }
                let th = &mut self.thr[t];
                th.in_flight = Some(class);
                th.kept = false;
                th.gcs = gcs;
                th.completed = None;
                th.had = 0;
                th.ind_clear = class == op_class::BRANCH && slot.subclass & subclass::BR_IND == 0;
            }
        }
        // Beats: back-pressure, faults, whole records.
        let (Some(t), Some(b)) = (wt, beat) else {
            return;
        };
        if !i.wr_ready {
            c[ids.backpressure[b]] += 1;
            return;
        }
        let th = &mut self.thr[t];
        th.record[b * BEAT_BYTES..(b + 1) * BEAT_BYTES].copy_from_slice(&o.wr_data.to_le_bytes());
        th.last_addr = o.wr_addr;
        th.next_beat = b + 1;
        if i.wr_err {
            c[ids.fault[usize::from(i.wr_err_kind & 3)][b]] += 1;
            if matches!(i.wr_err_kind, pmbsr::ERR_STAGE1 | pmbsr::ERR_STAGE2)
                && pmbsr::is_sync_external_abort(u64::from(i.wr_err_fsc))
            {
                c[ids.mmu_sea] += 1;
            }
        }
        if let Some(n) = ids.nvm {
            match o.wr_addr_space {
                pmbmar::SPACE_IPA => c[n[0]] += 1,
                pmbmar::SPACE_PA => c[n[1]] += 1,
                _ => {}
            }
        }
        // A fault ends the record, but an external abort on a unit with SPEv1p3's
        // PMBIDR.EA = 1: the PE ignores it and the beat counts as written.
        let ignored = pmbsr::is_ignored(&self.cfg, i.wr_err_kind);
        if i.wr_err && !ignored {
            th.next_beat = 0;
        } else if b + 1 == self.cfg.record_beats() {
            th.next_beat = 0;
            let rec = th.record;
            self.record(&rec[..self.cfg.record_size()]);
        }
    }

    /// A whole record written: its packets, event bits and saturated counters.
    fn record(&mut self, rec: &[u8]) {
        let Some(plan) = &self.plan else { return };
        let max = self.cfg.counter_width.max();
        let kinds = packet_kinds(&self.cfg);
        for s in layout::all(&self.cfg) {
            let h = rec[s.offset];
            let Some((_, kind)) = kinds.iter().find(|(k, _)| *k == h) else {
                continue;
            };
            if let Some(id) = plan.find(&format!("packet/{kind}")) {
                self.counts[id] += 1;
            }
            let payload = &rec[s.offset + 1..s.offset + s.len];
            let value = payload
                .iter()
                .rev()
                .fold(0u64, |v, &b| v << 8 | u64::from(b));
            if let (Some(c), true) = (kind.strip_prefix("counter-"), value == max) {
                self.counts[plan.id(&format!("latency/{c}-saturated"))] += 1;
            }
            if kind == "events" {
                for n in 0..32 {
                    if value >> n & 1 != 0 {
                        if let Some(id) = plan.find(&format!("event/E{n}")) {
                            self.counts[id] += 1;
                        }
                    }
                }
            }
        }
        // A call or return with GCS whose record has its branch target and its GCS
        // access's data VA (the 128-byte slot's own places).
        if self.cfg.long_records() {
            let (op, pl) = (rec[layout::OP_TYPE.offset], rec[layout::OP_TYPE.offset + 1]);
            let va = layout::va(&self.cfg).offset;
            let both = rec[layout::LONG_TGT.offset]
                == packet::address_header(addr_index::BRANCH_TARGET)
                && rec[va] == packet::address_header(addr_index::DATA_VA);
            if op == packet::op_type_header(op_class::BRANCH) && both {
                let which = if subclass::br_gcs_is_store(pl) {
                    Some("call")
                } else if subclass::br_gcs_is_load(pl) {
                    Some("return")
                } else {
                    None
                };
                if let Some(w) = which {
                    self.counts[plan.id(&format!("gcs/{w}/data"))] += 1;
                }
            }
        }
    }
}

impl<D: Dut> Dut for Observer<D> {
    fn step(&mut self, inputs: &Inputs) -> Outputs {
        let o = self.inner.step(inputs);
        if self.plan.is_some() {
            self.observe(inputs, &o);
        }
        o
    }
    fn verdict(&mut self) -> Result<Option<String>, String> {
        self.inner.verdict()
    }
}

/// The holes of `hits`: the points never hit.
pub fn holes<'a>(plan: &'a Plan, hits: &Hits) -> Vec<&'a str> {
    plan.points
        .iter()
        .zip(&hits.counts)
        .filter(|(_, &n)| n == 0)
        .map(|((name, _), _)| name.as_str())
        .collect()
}

/// The holes of a run as `preset point` pairs, in plan order (what [`known_holes`] reads).
pub fn hole_list(runs: &[Hits]) -> Vec<(String, String)> {
    runs.iter()
        .flat_map(|h| {
            let plan = Plan::new(Config::preset(h.preset).expect("a preset's hits"));
            holes(&plan, h)
                .into_iter()
                .map(|p| (h.preset.to_string(), p.to_string()))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// A known-holes file: `preset point` a line, `#` comments. What [`write_holes`] writes.
pub fn known_holes(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut v: Vec<(String, String)> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        let [preset, point] = f[..] else {
            return Err(format!(
                "line {}: expected `<preset> <point>`: {line:?}",
                n + 1
            ));
        };
        let Some(cfg) = Config::preset(preset) else {
            return Err(format!("line {}: no preset {preset:?}", n + 1));
        };
        if Plan::new(cfg).find(point).is_none() {
            return Err(format!("line {}: {preset} has no point {point:?}", n + 1));
        }
        let e = (preset.to_string(), point.to_string());
        if v.contains(&e) {
            return Err(format!("line {}: {preset} {point} listed twice", n + 1));
        }
        v.push(e);
    }
    Ok(v)
}

/// The known-holes file of `holes` ([`hole_list`]) of the jobs `what` describes.
pub fn write_holes(holes: &[(String, String)], what: &str) -> String {
    use std::fmt::Write as _;
    let mut s = format!(
        "# Functional cover points the regression's jobs do not hit yet, a line each (preset\n\
         # point): {what}.\n\
         # `spe regress --known-holes FILE` (CI) and `spe coverage --functional --require\n\
         # --known-holes FILE` fail when a point not listed here is a hole (a stimulus change\n\
         # lost it) or a listed one is hit (work closed it: write the file again).\n\
         # Written by `spe coverage --functional --write-holes FILE`; never edited by hand.\n\
         # {} holes.\n",
        holes.len()
    );
    for (p, point) in holes {
        let _ = writeln!(s, "{p} {point}");
    }
    s
}

/// [`check_known`] against the known-holes file `f` (`spe coverage --functional
/// --known-holes`, `spe regress --known-holes`): the outer error when the file cannot be
/// read or parsed, the inner one naming the points that disagree.
pub fn check_known_file(
    holes: &[(String, String)],
    f: &std::path::Path,
) -> Result<Result<(), String>, String> {
    let text =
        std::fs::read_to_string(f).map_err(|e| format!("cannot read {}: {e}", f.display()))?;
    let known = known_holes(&text).map_err(|e| format!("{}: {e}", f.display()))?;
    Ok(check_known(holes, &known))
}

/// Holds this run's holes to the known ones: every hole known, every known one still a
/// hole. The errors name each point either way.
pub fn check_known(holes: &[(String, String)], known: &[(String, String)]) -> Result<(), String> {
    let new: Vec<String> = holes
        .iter()
        .filter(|h| !known.contains(h))
        .map(|(p, x)| format!("{p} {x}"))
        .collect();
    let closed: Vec<String> = known
        .iter()
        .filter(|k| !holes.contains(k))
        .map(|(p, x)| format!("{p} {x}"))
        .collect();
    let mut e = Vec::new();
    if !new.is_empty() {
        e.push(format!(
            "{} point(s) no longer hit (not in the known holes): {}",
            new.len(),
            new.join(", ")
        ));
    }
    if !closed.is_empty() {
        e.push(format!(
            "{} known hole(s) now hit (write the file again): {}",
            closed.len(),
            closed.join(", ")
        ));
    }
    if e.is_empty() {
        Ok(())
    } else {
        Err(e.join("; "))
    }
}

/// The report of `runs` (one [`Hits`] per preset, in preset order) as Markdown: a summary
/// table (points, hit, holes per preset), each preset's holes, then one row per point with
/// its hit count on each preset (**0** a hole, a dash where the point does not apply).
pub fn report(what: &str, runs: &[Hits]) -> String {
    use std::fmt::Write as _;
    let plans: Vec<Plan> = runs
        .iter()
        .map(|h| Plan::new(Config::preset(h.preset).expect("a preset's hits")))
        .collect();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Run: {what}. Every point is observed at the unit's ports (its inputs, outputs and the \
         record bytes it wrote); `verif/cosim/src/functional.rs` defines each.\n"
    );
    let _ = writeln!(s, "| preset | points | hit | holes |\n|---|---:|---:|---:|");
    for (plan, h) in plans.iter().zip(runs) {
        let n = plan.points.len();
        let holes = holes(plan, h).len();
        let _ = writeln!(s, "| {} | {n} | {} | {holes} |", h.preset, n - holes);
    }
    let _ = writeln!(s, "\n## Holes\n");
    for (plan, h) in plans.iter().zip(runs) {
        let hs = holes(plan, h);
        let list = if hs.is_empty() {
            "none".to_string()
        } else {
            hs.iter()
                .map(|x| format!("`{x}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let _ = writeln!(s, "- **{}** ({}): {list}", h.preset, hs.len());
    }
    // Every point of any preset, in the order the plans list them.
    let mut names: Vec<&str> = Vec::new();
    for plan in &plans {
        for (n, _) in &plan.points {
            if !names.contains(&n.as_str()) {
                names.push(n);
            }
        }
    }
    let _ = writeln!(s, "\n## Hits per point\n");
    let _ = write!(s, "| point |");
    for h in runs {
        let _ = write!(s, " {} |", h.preset);
    }
    let _ = write!(s, "\n|---|");
    for _ in runs {
        let _ = write!(s, "---:|");
    }
    let _ = writeln!(s);
    for n in names {
        let _ = write!(s, "| `{n}` |");
        for (plan, h) in plans.iter().zip(runs) {
            let _ = match plan.find(n) {
                Some(i) if h.counts[i] == 0 => write!(s, " **0** |"),
                Some(i) => write!(s, " {} |", h.counts[i]),
                None => write!(s, " — |"),
            };
        }
        let _ = writeln!(s);
    }
    s
}

/// The plan of every point a unit of `cfg` has, as a Markdown table (name, meaning).
pub fn plan_table(cfg: &Config) -> String {
    let mut s = String::from("| point | what |\n|---|---|\n");
    for (n, w) in Plan::new(cfg).points {
        s.push_str(&format!("| `{n}` | {w} |\n"));
    }
    s
}
