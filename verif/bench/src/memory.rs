//! The memory the unit writes records into: drives `wr_ready`/`wr_err` from a backpressure
//! and error-injection profile, stores accepted beats in a sparse byte map, and checks the
//! write protocol, reporting every breach as a [`Violation`]:
//!
//! * a beat offered and not accepted must be offered again, unchanged, the next cycle
//!   (address, data and byte enables held; valid not withdrawn);
//! * beats are 8-byte aligned with every byte enabled;
//! * a record is eight beats from a 64-byte slot boundary in increasing address order, and
//!   each record starts at or after the end of the previous one (until the driver rewinds);
//! * every beat lies inside the buffer window [base, limit) the driver programmed.
//!
//! `wr_valid` is a registered output, so `wr_ready` is driven without knowing it. An error
//! is injected by holding `wr_ready` low until a beat is waiting, then accepting that beat
//! with `wr_err`: the error always lands on a real handshake.

use spe_defs::config::MAX_THREADS;
use spe_defs::impdef::{BEAT_BYTES, BEAT_STRB, RECORD_SIZE_LOG2};
use spe_defs::regs::pmbsr;
use spe_ports::{Inputs, Outputs};
use spe_stim::rng::Rng;
use std::collections::HashMap;
use std::fmt;

/// Violation messages kept (all are counted).
const MAX_VIOLATIONS_KEPT: usize = 64;

/// When the memory accepts beats.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Backpressure {
    /// Ready every cycle.
    AlwaysReady,
    /// Ready with probability `p_ready` each cycle.
    Random { p_ready: f64 },
    /// Ready, except for stalls starting with probability `p_stall` per cycle and lasting
    /// `min..=max` cycles (bursts of very long stalls).
    Stalls { p_stall: f64, min: u32, max: u32 },
}

/// Which accepted beats get an external abort (`wr_err`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ErrorInjection {
    Never,
    /// The beat with this index (0 = the first beat accepted in the run).
    AtBeat(u64),
    /// Each beat with probability `p`.
    Random {
        p: f64,
    },
    /// A fault in every `every`-th record, the n-th such fault (counting from `start`) on
    /// beat `n mod 8` of its record and, with `FaultSpec::Any`, of kind `(n + n / 8) mod 4`
    /// (external abort, stage-1, stage-2 MMU fault, the reserved kind): 32 faults in a row
    /// meet every kind at every beat.
    Sweep {
        every: u64,
        start: u64,
    },
}

/// What an injected error reports (`wr_err_kind`, `wr_err_fsc`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultSpec {
    /// External abort.
    External,
    /// Stage-1 MMU fault with this FSC.
    Stage1(u8),
    /// Stage-2 fault with this FSC.
    Stage2(u8),
    /// Each error draws its kind (and an MMU fault its FSC: [`random_mmu_fsc`]).
    Any,
}

/// MMU fault status codes a buffer write can meet (Arm ARM D17.8.3): translation fault at
/// levels 0..3, access flag fault at levels 1..3, permission fault at levels 1..3.
pub const MMU_FSCS: [u8; 10] = [
    0b000100, 0b000101, 0b000110, 0b000111, 0b001001, 0b001010, 0b001011, 0b001101, 0b001110,
    0b001111,
];

/// The FSCs of a synchronous external abort that a stage 1 or stage 2 fault of a buffer
/// write reports (Arm ARM D17.8.3; `pmbsr::is_sync_external_abort`): on the access itself
/// (010000), on a translation table walk at level -1 (010011) and at levels 0..3
/// (0101xx), and FEAT_RAS's parity or ECC error on a walk (011011). FEAT_SPE_EXC routes
/// these by SCR_EL3.EA and HCR_EL2.TEA (J1 `ReportSPEEvent`).
pub const SEA_FSCS: [u8; 7] = {
    use pmbsr::{FSC_EXTERNAL_ABORT, FSC_SEA_WALK_5_1, FSC_SEA_WALK_5_2, FSC_SEA_WALK_ECC};
    let (w1, w2) = (FSC_SEA_WALK_5_1 << 1, FSC_SEA_WALK_5_2 << 2);
    [
        FSC_EXTERNAL_ABORT as u8,
        (w1 | 1) as u8,
        w2 as u8,
        (w2 | 1) as u8,
        (w2 | 2) as u8,
        (w2 | 3) as u8,
        FSC_SEA_WALK_ECC as u8,
    ]
};

/// An MMU fault's FSC, drawn from `r` (one draw): one of [`MMU_FSCS`] or of [`SEA_FSCS`],
/// each of the seventeen alike.
pub fn random_mmu_fsc(r: &mut Rng) -> u8 {
    let i = r.below((MMU_FSCS.len() + SEA_FSCS.len()) as u64) as usize;
    match MMU_FSCS.get(i) {
        Some(&f) => f,
        None => SEA_FSCS[i - MMU_FSCS.len()],
    }
}

/// Backpressure and error behaviour of the memory.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MemoryProfile {
    pub backpressure: Backpressure,
    pub errors: ErrorInjection,
    /// What each error reports.
    pub fault: FaultSpec,
}

impl Default for MemoryProfile {
    fn default() -> Self {
        MemoryProfile {
            backpressure: Backpressure::AlwaysReady,
            errors: ErrorInjection::Never,
            fault: FaultSpec::External,
        }
    }
}

impl MemoryProfile {
    pub fn validate(&self) -> Result<(), String> {
        let prob = |name: &str, p: f64| {
            if (0.0..=1.0).contains(&p) {
                Ok(())
            } else {
                Err(format!("memory {name} {p} is not a probability"))
            }
        };
        match self.backpressure {
            Backpressure::AlwaysReady => {}
            Backpressure::Random { p_ready } => {
                prob("ready probability", p_ready)?;
                if p_ready == 0.0 {
                    return Err("memory ready probability 0 would never accept a beat".into());
                }
            }
            Backpressure::Stalls { p_stall, min, max } => {
                prob("stall probability", p_stall)?;
                if min > max {
                    return Err(format!(
                        "memory stall length {min}..={max} has min above max"
                    ));
                }
            }
        }
        if let ErrorInjection::Random { p } = self.errors {
            prob("error probability", p)?;
        }
        if let ErrorInjection::Sweep { every: 0, .. } = self.errors {
            return Err(
                "memory error sweep: a fault every 0 records is none; give 1 or more".into(),
            );
        }
        Ok(())
    }

    /// Parses a backpressure spec: `ready`, `random:P`, or `stalls:P:MIN:MAX`.
    pub fn parse_backpressure(spec: &str) -> Result<Backpressure, String> {
        let parts: Vec<&str> = spec.split(':').collect();
        let num = |s: &str| {
            s.parse::<f64>()
                .map_err(|_| format!("{s:?} in backpressure {spec:?} is not a number"))
        };
        let int = |s: &str| {
            s.parse::<u32>()
                .map_err(|_| format!("{s:?} in backpressure {spec:?} is not a cycle count"))
        };
        match parts.as_slice() {
            ["ready"] => Ok(Backpressure::AlwaysReady),
            ["random", p] => Ok(Backpressure::Random { p_ready: num(p)? }),
            ["stalls", p, lo, hi] => Ok(Backpressure::Stalls {
                p_stall: num(p)?,
                min: int(lo)?,
                max: int(hi)?,
            }),
            _ => Err(format!(
                "backpressure {spec:?}: expected ready, random:P or stalls:P:MIN:MAX"
            )),
        }
    }

    /// Parses the fault kind of an error spec, its part after `@`: `ext` (the default),
    /// `s1[:FSC]`, `s2[:FSC]` (FSC in decimal or 0x hex; default translation fault level 3),
    /// or `any` (each error draws its kind).
    pub fn parse_fault(spec: &str) -> Result<FaultSpec, String> {
        let Some((_, kind)) = spec.split_once('@') else {
            return Ok(FaultSpec::External);
        };
        let fsc = |f: Option<&str>| -> Result<u8, String> {
            let Some(f) = f else { return Ok(0b000111) };
            let v = match f.strip_prefix("0x") {
                Some(h) => u8::from_str_radix(h, 16),
                None => f.parse(),
            }
            .map_err(|_| format!("errors {spec:?}: {f:?} is not a fault status code"))?;
            if v >= 64 {
                return Err(format!("errors {spec:?}: FSC {v} does not fit 6 bits"));
            }
            Ok(v)
        };
        let (k, f) = match kind.split_once(':') {
            Some((k, f)) => (k, Some(f)),
            None => (kind, None),
        };
        match k {
            "ext" if f.is_none() => Ok(FaultSpec::External),
            "any" if f.is_none() => Ok(FaultSpec::Any),
            "s1" => Ok(FaultSpec::Stage1(fsc(f)?)),
            "s2" => Ok(FaultSpec::Stage2(fsc(f)?)),
            _ => Err(format!(
                "errors {spec:?}: fault kind {kind:?} is not ext, s1[:FSC], s2[:FSC] or any"
            )),
        }
    }

    /// Parses an error spec: `none`, `beat:N`, `random:P` or `sweep:N`, each optionally followed by
    /// `@KIND` ([`MemoryProfile::parse_fault`]).
    pub fn parse_errors(spec: &str) -> Result<ErrorInjection, String> {
        let spec = spec.split_once('@').map_or(spec, |(s, _)| s);
        match spec.split_once(':') {
            None if spec == "none" => Ok(ErrorInjection::Never),
            Some(("beat", n)) => n
                .parse()
                .map(ErrorInjection::AtBeat)
                .map_err(|_| format!("errors {spec:?}: {n:?} is not a beat number")),
            Some(("random", p)) => p
                .parse()
                .map(|p| ErrorInjection::Random { p })
                .map_err(|_| format!("errors {spec:?}: {p:?} is not a probability")),
            Some(("sweep", n)) => match n.parse::<u64>() {
                Ok(every) if every > 0 => Ok(ErrorInjection::Sweep { every, start: 0 }),
                _ => Err(format!(
                    "errors {spec:?}: {n:?} is not a record count of 1 or more"
                )),
            },
            _ => Err(format!(
                "errors {spec:?}: expected none, beat:N, random:P or sweep:N (then @KIND)"
            )),
        }
    }
}

/// Kinds of write-protocol breach.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ViolationKind {
    /// Address, data or byte enables changed while a beat waited for ready.
    HeldBeatChanged,
    /// `wr_valid` dropped while a beat waited for ready.
    ValidWithdrawn,
    /// Beat address not 8-byte aligned.
    Unaligned,
    /// Not every byte enabled.
    PartialStrobe,
    /// A record not written as eight increasing beats from a slot boundary, or a record
    /// before the end of the previous one.
    OutOfOrder,
    /// A beat at or past the buffer limit.
    PastLimit,
    /// A beat below the buffer base.
    BelowBase,
    /// Profiling synchronization: a beat offered after a stop's PSB completed, or the beats
    /// accepted since an AUX output began are not exactly the whole records below the
    /// PMBPTR read at its end.
    SyncAudit,
}

/// One protocol breach.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    pub cycle: u64,
    pub kind: ViolationKind,
    pub detail: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cycle {}: {:?}: {}", self.cycle, self.kind, self.detail)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Beat {
    addr: u64,
    data: u64,
    strb: u8,
}

/// The memory model.
pub struct Memory {
    profile: MemoryProfile,
    rng: Rng,
    /// Written bytes, by 8-byte word address (bytes never written read as 0).
    words: HashMap<u64, [u8; BEAT_BYTES]>,
    /// Each hardware thread's buffer (window, record order, open output); `cur` is the
    /// thread of the beat being observed (`wr_tid`).
    bufs: [Buffer; MAX_THREADS],
    cur: usize,
    /// Ready/err driven this cycle.
    ready: bool,
    err: bool,
    /// Beat offered and not accepted last cycle.
    held: Option<Beat>,
    stall_left: u32,
    /// The next beat accepted gets `wr_err`.
    err_next: bool,
    beats: u64,
    /// Records begun (their first beat accepted).
    records: u64,
    /// A sweep's kind for the error on the next beat (`FaultSpec::Any` only).
    sweep_kind: Option<u8>,
    errors_injected: u64,
    violations: Vec<Violation>,
    violation_count: u64,
    /// The unit ignores an external abort on a buffer write (PMBIDR.EA = 1,
    /// `Options::v1p3`): such a beat does not end its record (its data is lost).
    ea_ignored: bool,
    /// The error on the beat accepted this cycle is an external abort (kind 00 or 11).
    err_external: bool,
    /// The unit's record slot (`Config::record_size`): 64 bytes, or 128.
    record_size: usize,
}

/// One hardware thread's buffer as the memory checks it.
#[derive(Clone, Copy, Debug, Default)]
struct Buffer {
    base: u64,
    limit: u64,
    /// Address of the last beat of the record being written, and beats so far.
    record: Option<(u64, usize)>,
    /// End of the last complete record since the last rewind.
    last_record_end: Option<u64>,
    /// The driver's open AUX output: where the next good beat must land.
    session_next: Option<u64>,
    /// A stop's PSB completed: no beat may be offered until the next output begins.
    quiet: bool,
}

impl Memory {
    pub fn new(profile: MemoryProfile, seed: u64) -> Memory {
        let mut m = Memory {
            profile,
            rng: Rng::derive(seed, 3),
            words: HashMap::new(),
            bufs: [Buffer::default(); MAX_THREADS],
            cur: 0,
            ready: false,
            err: false,
            held: None,
            stall_left: 0,
            err_next: false,
            beats: 0,
            records: 0,
            sweep_kind: None,
            errors_injected: 0,
            violations: Vec::new(),
            violation_count: 0,
            ea_ignored: false,
            err_external: false,
            record_size: 1 << RECORD_SIZE_LOG2,
        };
        // The first beat: by its index or its place; a random error is drawn only after a
        // beat (so a seed's draws stay where they were before sweeps existed).
        if !matches!(m.profile.errors, ErrorInjection::Random { .. }) {
            m.err_next = m.next_beat_errs();
        }
        m
    }

    /// Whether the next beat accepted gets `wr_err` (and, for a sweep, its kind).
    fn next_beat_errs(&mut self) -> bool {
        self.sweep_kind = None;
        match self.profile.errors {
            ErrorInjection::Never => false,
            ErrorInjection::AtBeat(n) => n == self.beats,
            ErrorInjection::Random { p } => self.rng.chance(p),
            ErrorInjection::Sweep { every, start } => {
                // The next beat's place: the next of the record being written, or the
                // first of the next record.
                let (beat, record) = match self.bufs[self.cur].record {
                    Some((_, n)) => (n as u64, self.records.saturating_sub(1)),
                    None => (0, self.records),
                };
                if every == 0 || !record.is_multiple_of(every) {
                    return false;
                }
                let n = start + record / every;
                let beats = self.record_beats() as u64;
                let hit = n % beats == beat;
                if hit {
                    // Kind (n + n / beats) mod 4: each run of a record's beats of faults
                    // shifts the kinds by one against the beats.
                    self.sweep_kind = Some(pmbsr::ERR_KINDS[((n + n / beats) % 4) as usize]);
                }
                hit
            }
        }
    }

    /// For a unit that ignores external aborts on buffer writes (PMBIDR.EA = 1): a beat
    /// answered with one goes on to the next beat of its record.
    pub fn ignore_external_aborts(&mut self, on: bool) {
        self.ea_ignored = on;
    }

    /// For a unit whose records are `size` bytes (`Config::record_size`; 64 unless set).
    pub fn set_record_size(&mut self, size: usize) {
        self.record_size = size;
    }

    fn record_beats(&self) -> usize {
        self.record_size / BEAT_BYTES
    }

    /// The driver begins an AUX output at `ptr` (it writes PMBPTR = `ptr`): records may
    /// start again from there, and the good beats from now on must follow each other
    /// from `ptr` up.
    pub fn open_session(&mut self, thread: usize, ptr: u64) {
        let b = &mut self.bufs[thread];
        b.last_record_end = None;
        b.session_next = Some(ptr);
        b.quiet = false;
    }

    /// A stop's PSB completed: from now until the next output begins, any beat offered is
    /// a violation.
    pub fn quiesce(&mut self, thread: usize) {
        self.bufs[thread].quiet = true;
    }

    /// The driver ends the output begun at `start` with `ptr` read from PMBPTR: the good
    /// beats since the begin must be exactly the records in [start, ptr).
    pub fn audit_session(&mut self, thread: usize, cycle: u64, start: u64, ptr: u64) {
        if let Some(next) = self.bufs[thread].session_next.take() {
            if next != ptr {
                self.violation(
                    cycle,
                    ViolationKind::SyncAudit,
                    format!(
                        "output from {start:#x}: PMBPTR read {ptr:#x}, but the beats written end at {next:#x}"
                    ),
                );
            }
        }
    }

    /// Tells the memory the buffer window the unit may write: [base, limit).
    pub fn set_window(&mut self, thread: usize, base: u64, limit: u64) {
        self.bufs[thread].base = base;
        self.bufs[thread].limit = limit;
    }

    /// Drives `wr_ready` and `wr_err` for this cycle.
    pub fn drive(&mut self, _cycle: u64, inp: &mut Inputs) {
        let mut ready = match self.profile.backpressure {
            Backpressure::AlwaysReady => true,
            Backpressure::Random { p_ready } => self.rng.chance(p_ready),
            Backpressure::Stalls { p_stall, min, max } => {
                if self.stall_left > 0 {
                    self.stall_left -= 1;
                    false
                } else if self.rng.chance(p_stall) {
                    self.stall_left = self.rng.range32((min, max)).saturating_sub(1);
                    false
                } else {
                    true
                }
            }
        };
        let mut err = false;
        if self.err_next {
            // Accept the waiting beat with an error; wait for one if none is waiting.
            ready = self.held.is_some();
            err = ready;
        }
        self.ready = ready;
        self.err = err;
        inp.wr_ready = ready;
        inp.wr_err = err;
        let (kind, fsc) = if !err {
            (0, 0)
        } else {
            match self.profile.fault {
                FaultSpec::External => (pmbsr::ERR_EXTERNAL, 0),
                FaultSpec::Stage1(f) => (pmbsr::ERR_STAGE1, f),
                FaultSpec::Stage2(f) => (pmbsr::ERR_STAGE2, f),
                FaultSpec::Any => match self.sweep_kind {
                    Some(kind) => (kind, random_mmu_fsc(&mut self.rng)),
                    None => {
                        // Every kind, the reserved one (reported as an external abort) too.
                        let kind = self.rng.below(4) as u8;
                        (kind, random_mmu_fsc(&mut self.rng))
                    }
                },
            }
        };
        inp.wr_err_kind = kind;
        inp.wr_err_fsc = fsc;
        self.err_external = err && pmbsr::is_external(kind);
    }

    /// Checks the port and accepts the beat on a handshake.
    pub fn observe(&mut self, cycle: u64, out: &Outputs) {
        self.cur = usize::from(out.wr_tid) % MAX_THREADS;
        let offered = Beat {
            addr: out.wr_addr,
            data: out.wr_data,
            strb: out.wr_strb,
        };
        if let Some(h) = self.held {
            if !out.wr_valid {
                self.violation(
                    cycle,
                    ViolationKind::ValidWithdrawn,
                    format!("beat at {:#x} withdrawn before it was accepted", h.addr),
                );
            } else if offered != h {
                self.violation(
                    cycle,
                    ViolationKind::HeldBeatChanged,
                    format!("waiting beat changed from {h:x?} to {offered:x?}"),
                );
            }
        }
        if !out.wr_valid {
            self.held = None;
            return;
        }
        if self.bufs[self.cur].quiet {
            self.bufs[self.cur].quiet = false; // one report per stop
            self.violation(
                cycle,
                ViolationKind::SyncAudit,
                format!("beat at {:#x} offered after the PSB completed", out.wr_addr),
            );
        }
        if !self.ready {
            self.held = Some(offered);
            return;
        }
        self.held = None;
        self.accept(cycle, offered);
    }

    fn accept(&mut self, cycle: u64, b: Beat) {
        if !b.addr.is_multiple_of(BEAT_BYTES as u64) {
            self.violation(
                cycle,
                ViolationKind::Unaligned,
                format!("beat at {:#x} is not {BEAT_BYTES}-byte aligned", b.addr),
            );
        }
        if b.strb != BEAT_STRB {
            self.violation(
                cycle,
                ViolationKind::PartialStrobe,
                format!("beat at {:#x} has byte enables {:#04x}", b.addr, b.strb),
            );
        }
        if b.addr < self.bufs[self.cur].base {
            self.violation(
                cycle,
                ViolationKind::BelowBase,
                format!(
                    "beat at {:#x} is below the buffer base {:#x}",
                    b.addr, self.bufs[self.cur].base
                ),
            );
        }
        if b.addr.saturating_add(BEAT_BYTES as u64) > self.bufs[self.cur].limit {
            self.violation(
                cycle,
                ViolationKind::PastLimit,
                format!(
                    "beat at {:#x} reaches the limit {:#x}",
                    b.addr, self.bufs[self.cur].limit
                ),
            );
        }
        self.check_order(cycle, b.addr);
        for (i, byte) in b.data.to_le_bytes().iter().enumerate() {
            if b.strb & (1 << i) != 0 {
                let a = b.addr.wrapping_add(i as u64);
                self.words
                    .entry(a & !(BEAT_BYTES as u64 - 1))
                    .or_insert([0; BEAT_BYTES])[(a % BEAT_BYTES as u64) as usize] = *byte;
            }
        }
        self.beats += 1;
        // An ignored external abort: the beat's data is lost, the record goes on.
        let ends = self.err && !(self.ea_ignored && self.err_external);
        if let Some(next) = self.bufs[self.cur].session_next {
            if ends {
                // The faulting beat is not written; PMBPTR must hold its address.
            } else if b.addr == next {
                self.bufs[self.cur].session_next = Some(next.wrapping_add(BEAT_BYTES as u64));
            } else {
                self.bufs[self.cur].session_next = None;
                self.violation(
                    cycle,
                    ViolationKind::SyncAudit,
                    format!(
                        "beat at {:#x}, but the open output continues at {next:#x}",
                        b.addr
                    ),
                );
            }
        }
        if self.err {
            self.errors_injected += 1;
        }
        if ends {
            // The faulting beat ends the record: the unit writes nothing more of it.
            self.bufs[self.cur].record = None;
        }
        self.err_next = self.next_beat_errs();
    }

    fn check_order(&mut self, cycle: u64, addr: u64) {
        match self.bufs[self.cur].record {
            None => {
                let size = self.record_size;
                if !addr.is_multiple_of(size as u64) {
                    self.violation(
                        cycle,
                        ViolationKind::OutOfOrder,
                        format!("record starts at {addr:#x}, not at a {size}-byte slot boundary"),
                    );
                }
                if let Some(end) = self.bufs[self.cur].last_record_end.filter(|&e| addr < e) {
                    self.violation(
                        cycle,
                        ViolationKind::OutOfOrder,
                        format!(
                            "record at {addr:#x} is below the end of the previous record {end:#x}"
                        ),
                    );
                }
                self.bufs[self.cur].record = Some((addr, 1));
                self.records += 1;
            }
            Some((last, n)) => {
                let want = last.wrapping_add(BEAT_BYTES as u64);
                if addr != want {
                    self.violation(
                        cycle,
                        ViolationKind::OutOfOrder,
                        format!("beat {n} of a record at {addr:#x}, expected {want:#x}"),
                    );
                }
                self.bufs[self.cur].record = Some((addr, n + 1));
            }
        }
        if let Some((last, n)) = self.bufs[self.cur].record {
            if n == self.record_beats() {
                self.bufs[self.cur].record = None;
                self.bufs[self.cur].last_record_end = Some(last.wrapping_add(BEAT_BYTES as u64));
            }
        }
    }

    fn violation(&mut self, cycle: u64, kind: ViolationKind, detail: String) {
        self.violation_count += 1;
        if self.violations.len() < MAX_VIOLATIONS_KEPT {
            self.violations.push(Violation {
                cycle,
                kind,
                detail,
            });
        }
    }

    /// `len` bytes from `addr` (never-written bytes read as 0).
    pub fn read(&self, addr: u64, len: u64) -> Vec<u8> {
        (0..len)
            .map(|i| {
                let a = addr.wrapping_add(i);
                self.words
                    .get(&(a & !(BEAT_BYTES as u64 - 1)))
                    .map_or(0, |w| w[(a % BEAT_BYTES as u64) as usize])
            })
            .collect()
    }

    /// The first violations seen (all are counted in `violation_count`).
    pub fn violations(&self) -> &[Violation] {
        &self.violations
    }

    pub fn violation_count(&self) -> u64 {
        self.violation_count
    }

    /// Beats accepted.
    pub fn beats(&self) -> u64 {
        self.beats
    }

    /// Beats accepted with `wr_err`.
    pub fn errors_injected(&self) -> u64 {
        self.errors_injected
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mmu_faults_draw_every_fsc_the_sea_ones_among_them() {
        use spe_defs::regs::pmbsr::is_sync_external_abort;
        for f in MMU_FSCS {
            assert!(!is_sync_external_abort(f.into()), "{f:#08b}");
        }
        for f in SEA_FSCS {
            assert!(is_sync_external_abort(f.into()), "{f:#08b}");
        }
        let mut r = Rng::new(3);
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..2000 {
            seen.insert(random_mmu_fsc(&mut r));
        }
        let all: std::collections::BTreeSet<u8> =
            MMU_FSCS.iter().chain(&SEA_FSCS).copied().collect();
        assert_eq!(seen, all);
    }

    #[test]
    fn specs_parse_and_bad_specs_are_errors() {
        assert_eq!(
            MemoryProfile::parse_backpressure("ready"),
            Ok(Backpressure::AlwaysReady)
        );
        assert_eq!(
            MemoryProfile::parse_backpressure("random:0.5"),
            Ok(Backpressure::Random { p_ready: 0.5 })
        );
        assert_eq!(
            MemoryProfile::parse_backpressure("stalls:0.01:10:5000"),
            Ok(Backpressure::Stalls {
                p_stall: 0.01,
                min: 10,
                max: 5000
            })
        );
        assert!(MemoryProfile::parse_backpressure("random").is_err());
        assert!(MemoryProfile::parse_backpressure("stalls:x:1:2").is_err());
        assert_eq!(
            MemoryProfile::parse_errors("beat:17"),
            Ok(ErrorInjection::AtBeat(17))
        );
        assert_eq!(
            MemoryProfile::parse_errors("none"),
            Ok(ErrorInjection::Never)
        );
        assert!(MemoryProfile::parse_errors("beat:-1").is_err());
        let bad = MemoryProfile {
            backpressure: Backpressure::Random { p_ready: 0.0 },
            ..MemoryProfile::default()
        };
        assert!(bad.validate().is_err());
    }
}
