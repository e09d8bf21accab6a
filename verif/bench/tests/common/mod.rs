//! Shared test helpers: a small fake unit (`FakeDut`) that behaves like the SPE unit on
//! the ports the stimulus drives, and checks the core's side of the hook contract; and
//! seed handling for replayable random tests.

#![allow(dead_code)]

use spe_defs::impdef::{BEAT_BYTES, BEAT_STRB, RECORD_SIZE_LOG2};
use spe_defs::packet::op_class;
use spe_defs::regs::{pmblimitr, pmbsr, pmscr, reg, RegId};
use spe_ports::{Dut, Inputs, Outputs};
use std::collections::{BTreeSet, HashMap};

/// The fake unit writes 64-byte records (a preset without FEAT_SPE_CRR), the size the
/// memory checks unless told otherwise (`Memory::set_record_size`).
pub const RECORD_SIZE: usize = 1 << RECORD_SIZE_LOG2;
pub const BEATS_PER_RECORD: usize = RECORD_SIZE / BEAT_BYTES;

/// Environment variable that replays a seeded test.
pub const SEED_ENV: &str = "SPE_STIM_SEED";

/// The seed of a random test: `SPE_STIM_SEED` if set, else a fresh one. Prints it with
/// the command that replays the test.
pub fn seed(test_file: &str, test: &str) -> u64 {
    let seed = match std::env::var(SEED_ENV) {
        Ok(s) => s
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("{SEED_ENV}={s:?} is not a number")),
        Err(_) => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1),
    };
    eprintln!("{test}: seed {seed}; replay: {SEED_ENV}={seed} cargo test -p spe-bench --test {test_file} -- --exact {test}");
    seed
}

/// What the fake saw of the hook reports (coverage of the stimulus).
#[derive(Clone, Debug, Default)]
pub struct Seen {
    pub issue: u64,
    pub xl_start: u64,
    pub xl_done: u64,
    pub tlb_walk: u64,
    pub xl_same_cycle: u64,
    pub mem: u64,
    pub sources: BTreeSet<u8>,
    pub misaligned: u64,
    pub branch: u64,
    pub mispred: u64,
    pub completions: u64,
    pub flushed: u64,
    pub exceptions: u64,
    pub cond_fail: u64,
    pub els: BTreeSet<u8>,
    pub aarch32_groups: u64,
    pub noprof_groups: u64,
    pub ctx_values: BTreeSet<u32>,
    /// Completed samples whose latency reached [`LONG`] cycles: from the tag to the issue
    /// report (or to the completion when it never issued), from `xl_start` to `xl_done`,
    /// and from the tag to the completion.
    pub long_issue: u64,
    pub long_xlat: u64,
    pub long_total: u64,
}

/// A latency the fake counts as long (a 12-bit latency counter's maximum and one).
pub const LONG: u64 = 4096;

struct Track {
    class: u8,
    tag_cycle: u64,
    /// The cycles of its issue and translation reports.
    issue_cycle: Option<u64>,
    xl_start_cycle: Option<u64>,
    xlat_lat: Option<u64>,
    /// issue, xl_start, xl_done, mem, branch.
    seen: [bool; 5],
}

/// A fake unit: counts the population like the unit (EL enables, AArch32, prof_allowed,
/// buffer enabled and not stopped), tags every `every`-th population op while nothing is
/// in flight, tracks the tagged op's hooks (recording contract breaches in `errors`), and
/// writes a 64-byte dummy record per completed sample at PMBPTR, with buffer-full and
/// external-abort handling in PMBSR. Record `n` holds the words `n << 32 | beat`.
pub struct FakeDut {
    width: usize,
    every: u64,
    pub regs: HashMap<u8, u64>,
    /// Register writes: (cycle, address, data).
    pub writes: Vec<(u64, u8, u64)>,
    /// Register reads: (cycle, address, data returned).
    pub reads: Vec<(u64, u8, u64)>,
    cycle: u64,
    counted: u64,
    track: Option<Track>,
    /// Beat index of the record being written.
    writer: Option<usize>,
    in_flight: bool,
    /// A PSB dropped the tracked sample: its completion writes no record.
    psb_dropped: bool,
    feed: bool,
    pub records: u64,
    pub strays: u64,
    pub collisions: u64,
    pub errors: Vec<String>,
    pub seen: Seen,
}

impl FakeDut {
    pub fn new(width: usize, every: u64) -> FakeDut {
        FakeDut {
            width,
            every,
            regs: HashMap::new(),
            writes: Vec::new(),
            reads: Vec::new(),
            cycle: 0,
            counted: 0,
            track: None,
            writer: None,
            in_flight: false,
            psb_dropped: false,
            feed: false,
            records: 0,
            strays: 0,
            collisions: 0,
            errors: Vec::new(),
            seen: Seen::default(),
        }
    }

    pub fn reg(&self, id: RegId) -> u64 {
        self.regs.get(&reg(id).addr()).copied().unwrap_or(0)
    }

    fn set(&mut self, id: RegId, v: u64) {
        self.regs.insert(reg(id).addr(), v);
    }

    fn error(&mut self, msg: String) {
        if self.errors.len() < 32 {
            self.errors.push(msg);
        }
    }

    fn in_population(&self, inp: &Inputs) -> bool {
        let el1 = self.reg(RegId::PmscrEl1);
        let el2 = self.reg(RegId::PmscrEl2);
        let lim = self.reg(RegId::Pmblimitr);
        // J1 StatisticalProfilingEnabled: the owner (EL2 when EL2 is enabled and
        // MDCR_EL2.E2PB = 00) allows ELs up to itself, and nothing under TGE when EL1 owns.
        let owner = if inp.thr[0].el2_en && inp.thr[0].mdcr_e2pb == 0 {
            2
        } else {
            1
        };
        let tge = inp.thr[0].el2_en && inp.thr[0].hcr_tge;
        let el_on = match inp.thr[0].disp_el {
            0 if tge => pmscr::E0SPE.is_set(el2),
            0 => pmscr::E0SPE.is_set(el1),
            1 => pmscr::E1SPE.is_set(el1),
            2 => pmscr::E1SPE.is_set(el2),
            _ => false,
        };
        el_on
            && inp.thr[0].disp_el <= owner
            && !(tge && owner == 1)
            && !inp.thr[0].disp_aarch32
            && inp.thr[0].prof_allowed
            && pmblimitr::E.is_set(lim)
            && !pmbsr::S.is_set(self.reg(RegId::Pmbsr))
    }

    fn hooks(&mut self, c: u64, inp: &Inputs, out: &mut Outputs) {
        let reports = [
            inp.thr[0].iss_valid,
            inp.thr[0].xl.start,
            inp.thr[0].xl.done,
            inp.thr[0].mem.done,
            inp.thr[0].br.done,
        ];
        let names = ["issue", "xl_start", "xl_done", "mem_done", "br_done"];
        let tracking = self.track.as_ref().is_some_and(|t| c > t.tag_cycle);
        if !tracking {
            if inp.any_hook() {
                out.thr[0].hook_stray = true;
                self.strays += 1;
            }
            return;
        }
        let mut errs = Vec::new();
        let t = self.track.as_mut().expect("tracking");
        for (i, &r) in reports.iter().enumerate() {
            if !r {
                continue;
            }
            if t.seen[i] {
                errs.push(format!("cycle {c}: {} reported twice", names[i]));
            }
            t.seen[i] = true;
            let need = match i {
                1..=3 => Some(op_class::LD_ST_ATOMIC),
                4 => Some(op_class::BRANCH),
                _ => None,
            };
            if need.is_some_and(|k| k != t.class) {
                errs.push(format!(
                    "cycle {c}: {} for an op of class {}",
                    names[i], t.class
                ));
            }
        }
        if inp.thr[0].iss_valid {
            t.issue_cycle.get_or_insert(c);
        }
        if inp.thr[0].xl.start {
            t.xl_start_cycle.get_or_insert(c);
        }
        if inp.thr[0].xl.done {
            t.xlat_lat = t.xl_start_cycle.map(|x| c - x);
        }
        let lat = (
            t.issue_cycle.unwrap_or(c) - t.tag_cycle,
            t.xlat_lat.unwrap_or(0),
            c - t.tag_cycle,
        );
        if inp.thr[0].xl.done && !t.seen[1] {
            errs.push(format!("cycle {c}: xl_done before xl_start"));
        }
        if inp.thr[0].mem.done && !t.seen[2] {
            errs.push(format!("cycle {c}: mem_done before xl_done"));
        }
        let s = &mut self.seen;
        s.issue += u64::from(inp.thr[0].iss_valid);
        s.xl_start += u64::from(inp.thr[0].xl.start);
        s.xl_same_cycle += u64::from(inp.thr[0].xl.start && inp.thr[0].xl.done);
        if inp.thr[0].xl.done {
            s.xl_done += 1;
            s.tlb_walk += u64::from(inp.thr[0].xl.tlb_walk);
            if inp.thr[0].xl.tlb_walk && !inp.thr[0].xl.tlb_access {
                errs.push(format!("cycle {c}: TLB walk without TLB access"));
            }
            if inp.thr[0].xl.pa >> 56 != 0 {
                errs.push(format!(
                    "cycle {c}: PA {:#x} wider than 56 bits",
                    inp.thr[0].xl.pa
                ));
            }
        }
        if inp.thr[0].mem.done {
            s.mem += 1;
            s.sources.insert(inp.thr[0].mem.source);
            s.misaligned += u64::from(inp.thr[0].mem.misaligned);
        }
        if inp.thr[0].br.done {
            s.branch += 1;
            s.mispred += u64::from(inp.thr[0].br.mispred);
        }
        if inp.thr[0].cpl.done {
            if reports.iter().any(|&r| r) {
                errs.push(format!(
                    "cycle {c}: completion in the same cycle as another report"
                ));
            }
            s.completions += 1;
            s.long_issue += u64::from(lat.0 >= LONG);
            s.long_xlat += u64::from(lat.1 >= LONG);
            s.long_total += u64::from(lat.2 >= LONG);
            s.flushed += u64::from(!inp.thr[0].cpl.retired);
            s.exceptions += u64::from(inp.thr[0].cpl.exception);
            s.cond_fail += u64::from(inp.thr[0].cpl.cond_fail);
            self.track = None;
            self.feed = true;
            let lim = self.reg(RegId::Pmblimitr);
            let fill = pmblimitr::FM.get(lim) != pmblimitr::FM_DISCARD;
            let dropped = std::mem::take(&mut self.psb_dropped);
            if fill
                && !dropped
                && pmblimitr::E.is_set(lim)
                && !pmbsr::S.is_set(self.reg(RegId::Pmbsr))
            {
                self.writer = Some(0);
            } else {
                self.in_flight = false;
            }
        }
        for e in errs {
            self.error(e);
        }
    }
}

impl Dut for FakeDut {
    fn step(&mut self, inp: &Inputs) -> Outputs {
        let mut out = Outputs::default();
        if inp.reset {
            let (w, e) = (self.width, self.every);
            *self = FakeDut::new(w, e);
            return out;
        }
        let c = self.cycle;
        self.cycle += 1;
        // Registered outputs: state at the start of the cycle.
        let ptr = self.reg(RegId::Pmbptr);
        out.thr[0].irq = pmbsr::S.is_set(self.reg(RegId::Pmbsr));
        if let Some(beat) = self.writer {
            out.wr_valid = true;
            out.wr_addr = ptr + (beat * BEAT_BYTES) as u64;
            out.wr_data = self.records << 32 | beat as u64;
            out.wr_strb = BEAT_STRB;
        }
        // PSB: complete once no record is being written; a sample not yet completed is
        // dropped (its record is never written; the fake keeps accepting its reports).
        out.thr[0].psb_done = inp.thr[0].psb_req && self.writer.is_none();
        if out.thr[0].psb_done && self.track.is_some() {
            self.psb_dropped = true;
        }
        out.thr[0].pmu_sample_feed = std::mem::take(&mut self.feed);
        out.thr[0].pmu_sample_filtrate = out.thr[0].pmu_sample_feed;

        self.hooks(c, inp, &mut out);

        // Dispatch: population and tag (one per cycle; a second hit collides).
        let s = &mut self.seen;
        if inp.disp.iter().take(self.width).any(|d| d.valid) {
            s.els.insert(inp.thr[0].disp_el);
            s.aarch32_groups += u64::from(inp.thr[0].disp_aarch32);
            s.noprof_groups += u64::from(!inp.thr[0].prof_allowed);
        }
        s.ctx_values.insert(inp.thr[0].ctx_el1);
        if self.in_population(inp) {
            for (i, d) in inp.disp.iter().enumerate().take(self.width) {
                if !d.valid {
                    continue;
                }
                out.thr[0].pmu_sample_pop += 1;
                self.counted += 1;
                if self.counted.is_multiple_of(self.every) {
                    if self.in_flight || out.tag != 0 {
                        self.collisions += 1;
                        out.thr[0].pmu_sample_collision = true;
                    } else {
                        out.tag = 1 << i;
                        self.in_flight = true;
                        self.track = Some(Track {
                            class: d.class,
                            tag_cycle: c,
                            issue_cycle: None,
                            xl_start_cycle: None,
                            xlat_lat: None,
                            seen: [false; 5],
                        });
                    }
                }
            }
        }
        for d in inp.disp.iter().skip(self.width) {
            if d.valid {
                self.error(format!(
                    "cycle {c}: slot beyond the dispatch width is valid"
                ));
            }
        }

        // Memory write handshake.
        if out.wr_valid && inp.wr_ready {
            if inp.wr_err {
                let st = pmbsr::S.place(1)
                    | pmbsr::EA.place(1)
                    | pmbsr::EC.place(pmbsr::EC_FAULT_S1)
                    | pmbsr::FSC.place(pmbsr::FSC_EXTERNAL_ABORT);
                self.set(RegId::Pmbsr, st);
                self.writer = None;
                self.in_flight = false;
            } else if let Some(b) = self.writer {
                if b + 1 == BEATS_PER_RECORD {
                    self.writer = None;
                    self.in_flight = false;
                    self.records += 1;
                    let next = ptr + RECORD_SIZE as u64;
                    self.set(RegId::Pmbptr, next);
                    let limit =
                        pmblimitr::LIMIT.get(self.reg(RegId::Pmblimitr)) << pmblimitr::LIMIT.lsb;
                    if next > limit.saturating_sub(RECORD_SIZE as u64) {
                        self.set(
                            RegId::Pmbsr,
                            pmbsr::S.place(1) | pmbsr::BSC.place(pmbsr::BSC_FULL),
                        );
                    }
                } else {
                    self.writer = Some(b + 1);
                }
            }
        }

        // Register port: read data is combinational; software writes land at the edge.
        if inp.reg_en {
            out.reg_rdata = self.regs.get(&inp.reg_addr).copied().unwrap_or(0);
            if inp.reg_we {
                self.regs.insert(inp.reg_addr, inp.reg_wdata);
                self.writes.push((c, inp.reg_addr, inp.reg_wdata));
            } else {
                self.reads.push((c, inp.reg_addr, out.reg_rdata));
            }
        }
        out
    }
}

/// A DUT that never tags, counts nothing and ignores everything (to run the core alone).
pub struct NullDut;

impl Dut for NullDut {
    fn step(&mut self, _inp: &Inputs) -> Outputs {
        Outputs::default()
    }
}
