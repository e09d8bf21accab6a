//! The lockstep checker: the golden model and another backend (the Verilated RTL, or the
//! RTL under rust-hdl's simulator) get the same inputs every cycle, and every output is
//! compared every cycle. The stimulus sees the model's outputs, so a run replays exactly
//! from its seed whatever the RTL does.
//!
//! On the first divergence the checker keeps the cycle, the signal, the expected and actual
//! values and every other output that differed in that cycle; with [`Lockstep::record_vcd`]
//! it also writes a VCD window around it ([`WINDOW_BEFORE`] cycles before, [`WINDOW_AFTER`]
//! after): every input, the model's outputs (`model_*`), the other backend's (`rtl_*`) and a
//! `mismatch` flag, one clock period per cycle.

use spe_defs::config::MAX_DISPATCH_WIDTH;
use spe_defs::ports::all_ports;
use spe_defs::Config;
use spe_model::Model;
use spe_ports::{
    Dut, Inputs, Outputs, ThreadField, OPTION_THREAD_FIELDS, SLOT_FIELDS, THREAD_FIELDS,
};
use std::collections::VecDeque;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Cycles kept before the divergence in the VCD window.
pub const WINDOW_BEFORE: usize = 256;
/// Cycles recorded after the divergence.
pub const WINDOW_AFTER: usize = 64;

/// The first output that differed between the model and the other backend.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    pub cycle: u64,
    pub signal: &'static str,
    pub expected: u64,
    pub actual: u64,
    /// Other outputs that differed in the same cycle.
    pub also: Vec<&'static str>,
}

impl std::fmt::Display for Divergence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cycle {}: {} expected {:#x} (model), got {:#x} (RTL)",
            self.cycle, self.signal, self.expected, self.actual
        )?;
        if !self.also.is_empty() {
            write!(f, "; also differing: {}", self.also.join(", "))?;
        }
        Ok(())
    }
}

/// Compares two output sets; `None` when equal.
pub fn compare(cycle: u64, model: &Outputs, other: &Outputs) -> Option<Divergence> {
    if model == other {
        return None;
    }
    let (m, r) = (model.fields(), other.fields());
    let mut diff = m.iter().zip(r.iter()).filter(|(a, b)| a.1 != b.1);
    let (first_m, first_r) = diff.next()?;
    Some(Divergence {
        cycle,
        signal: first_m.0,
        expected: first_m.1,
        actual: first_r.1,
        also: diff.map(|(a, _)| a.0).collect(),
    })
}

/// One recorded cycle.
#[derive(Clone, Default)]
struct Sample {
    cycle: u64,
    inputs: Inputs,
    model: Outputs,
    other: Outputs,
}

/// Where the VCD window goes and what was recorded for it.
struct Recorder {
    path: PathBuf,
    before: VecDeque<Sample>,
    after: Vec<Sample>,
    written: bool,
}

/// The golden model and another backend in lockstep.
pub struct Lockstep<O: Dut = Box<dyn Dut>> {
    pub model: Model,
    pub other: O,
    width: usize,
    threads: usize,
    /// The option inputs the unit has (`OPTION_THREAD_FIELDS`), for the VCD window.
    options: Vec<(&'static str, ThreadField)>,
    cycle: u64,
    first: Option<Divergence>,
    mismatches: u64,
    rec: Option<Recorder>,
    vcd_result: Option<Result<PathBuf, String>>,
}

impl<O: Dut> Lockstep<O> {
    pub fn new(cfg: &Config, other: O) -> Self {
        Lockstep {
            model: Model::new(cfg),
            other,
            width: cfg.dispatch_width,
            threads: cfg.threads,
            options: OPTION_THREAD_FIELDS
                .into_iter()
                .filter(|(n, _)| spe_defs::ports::option_port_built(n, cfg))
                .collect(),
            cycle: 0,
            first: None,
            mismatches: 0,
            rec: None,
            vcd_result: None,
        }
    }

    /// Keeps the last [`WINDOW_BEFORE`] cycles so that a divergence can be written as a VCD
    /// window to `path` (written [`WINDOW_AFTER`] cycles later, or by [`Lockstep::finish`]).
    pub fn record_vcd(&mut self, path: &Path) {
        self.rec = Some(Recorder {
            path: path.to_path_buf(),
            before: VecDeque::with_capacity(WINDOW_BEFORE + 1),
            after: Vec::new(),
            written: false,
        });
    }

    /// The first divergence, if any.
    pub fn first(&self) -> Option<&Divergence> {
        self.first.as_ref()
    }

    /// Cycles in which at least one output differed.
    pub fn mismatches(&self) -> u64 {
        self.mismatches
    }

    /// Cycles stepped.
    pub fn cycles(&self) -> u64 {
        self.cycle
    }

    /// Writes the VCD window now if a divergence was seen and it is not written yet (the
    /// run ended less than [`WINDOW_AFTER`] cycles after it). Returns where it went.
    pub fn finish(&mut self) -> Option<Result<PathBuf, String>> {
        if self.first.is_some() {
            if let Some(rec) = &self.rec {
                if !rec.written {
                    self.write_window();
                }
            }
        }
        self.vcd_result.clone()
    }

    fn write_window(&mut self) {
        let Some(rec) = &mut self.rec else { return };
        rec.written = true;
        let samples: Vec<&Sample> = rec.before.iter().chain(rec.after.iter()).collect();
        let res = write_vcd(
            &rec.path,
            (self.width, self.threads),
            &self.options,
            &samples,
        )
        .map(|_| rec.path.clone())
        .map_err(|e| format!("cannot write {}: {e}", rec.path.display()));
        rec.before.clear();
        rec.after.clear();
        self.vcd_result = Some(res);
    }
}

impl<O: Dut> Dut for Lockstep<O> {
    fn step(&mut self, inputs: &Inputs) -> Outputs {
        let m = self.model.step(inputs);
        let r = self.other.step(inputs);
        if m != r {
            self.mismatches += 1;
            if self.first.is_none() {
                self.first = compare(self.cycle, &m, &r);
            }
        }
        if let Some(rec) = &mut self.rec {
            if !rec.written {
                let s = Sample {
                    cycle: self.cycle,
                    inputs: inputs.clone(),
                    model: m.clone(),
                    other: r,
                };
                if self.first.is_none() {
                    if rec.before.len() == WINDOW_BEFORE {
                        rec.before.pop_front();
                    }
                    rec.before.push_back(s);
                } else {
                    rec.after.push(s);
                    if rec.after.len() > WINDOW_AFTER {
                        self.write_window();
                    }
                }
            }
        }
        self.cycle += 1;
        m
    }

    /// `Ok` with the cycle count when the two agreed on every output of every cycle;
    /// `Err` with the first divergence, the count of cycles that differed and where the VCD
    /// window went.
    fn verdict(&mut self) -> Result<Option<String>, String> {
        let vcd = self.finish();
        let Some(d) = &self.first else {
            return Ok(Some(format!(
                "lockstep: the RTL matched the model on every output for {} cycles",
                self.cycle
            )));
        };
        let mut text = format!(
            "LOCKSTEP MISMATCH: {d} ({} cycles differed)",
            self.mismatches
        );
        match vcd {
            Some(Ok(p)) => text += &format!("\nVCD window around it: {}", p.display()),
            Some(Err(e)) => text += &format!("\n{e}"),
            None => {}
        }
        Err(text)
    }
}

/// Width of port `name` for dispatch width `w` and `t` threads, from the port table.
fn port_bits(name: &str, (w, t): (usize, usize)) -> u32 {
    all_ports()
        .find(|p| p.name == name)
        .map_or(64, |p| p.width.total_for(w, t).max(1))
}

/// Input fields as (name, bits, value): per-slot fields as one vector per slot
/// (`disp_pc_0`, ...), except single-bit ones, which are one W-bit vector; per-thread
/// fields as one vector per thread (`xl_va_1`), named as the port in a one-thread unit.
/// The option inputs `options` follow, per thread like the per-thread fields.
fn input_fields(
    i: &Inputs,
    (w, t): (usize, usize),
    options: &[(&'static str, ThreadField)],
) -> Vec<(String, u32, u64)> {
    let slots = &i.disp[..w.min(MAX_DISPATCH_WIDTH)];
    let mut v = Vec::new();
    for (name, field) in SLOT_FIELDS {
        let bits = port_bits(name, (1, 1));
        if bits == 1 {
            let packed = slots
                .iter()
                .enumerate()
                .fold(0u64, |acc, (k, s)| acc | ((field(s) & 1) << k));
            v.push((name.to_string(), w as u32, packed));
        } else {
            for (k, s) in slots.iter().enumerate() {
                v.push((format!("{name}_{k}"), bits, field(s)));
            }
        }
    }
    // A per-thread field: one vector per thread, `name_k`, or `name` in a one-thread unit.
    let per_thread = |v: &mut Vec<(String, u32, u64)>, name: &str, field: ThreadField| {
        let bits = port_bits(name, (1, 1));
        for (k, x) in i.thr[..t].iter().enumerate() {
            let n = if t == 1 {
                name.to_string()
            } else {
                format!("{name}_{k}")
            };
            v.push((n, bits, field(x)));
        }
    };
    for (name, field) in THREAD_FIELDS {
        per_thread(&mut v, name, field);
    }
    v.extend(
        i.scalar_fields()
            .iter()
            .map(|&(name, x)| (name.to_string(), port_bits(name, (w, t)), x)),
    );
    for &(name, field) in options {
        per_thread(&mut v, name, field);
    }
    v
}

fn vector(v: u64, bits: u32) -> impl Iterator<Item = vcd::Value> {
    (0..bits)
        .rev()
        .map(move |k| vcd::Value::from((v >> k) & 1 == 1))
}

/// Writes the recorded cycles as a VCD: 10 time units per cycle, `clk` high in the second
/// half, every signal changing at the start of its cycle.
fn write_vcd(
    path: &Path,
    w: (usize, usize),
    options: &[(&'static str, ThreadField)],
    samples: &[&Sample],
) -> std::io::Result<()> {
    let mut out = vcd::Writer::new(BufWriter::new(File::create(path)?));
    out.comment(
        "spe lockstep: inputs, the golden model's outputs (model_*) and the RTL's (rtl_*)",
    )?;
    out.timescale(1, vcd::TimescaleUnit::NS)?;
    out.add_module("lockstep")?;
    let clk = out.add_wire(1, "clk")?;
    let cycle = out.add_wire(64, "cycle")?;
    let mismatch = out.add_wire(1, "mismatch")?;
    let first = samples
        .first()
        .map(|s| s.inputs.clone())
        .unwrap_or_default();
    let mut in_ids = Vec::new();
    for (name, bits, _) in input_fields(&first, w, options) {
        in_ids.push(out.add_wire(bits, &name)?);
    }
    let mut out_ids = Vec::new();
    for (name, _) in Outputs::default().fields() {
        let b = port_bits(name, w);
        out_ids.push((
            out.add_wire(b, &format!("model_{name}"))?,
            out.add_wire(b, &format!("rtl_{name}"))?,
            b,
        ));
    }
    out.upscope()?;
    out.enddefinitions()?;
    // Last value written per variable (None: not yet written): only changes are dumped.
    let mut last: Vec<Option<u64>> = vec![None; in_ids.len() + 2 * out_ids.len()];
    let mut change = |out: &mut vcd::Writer<_>, slot: usize, id, v: u64, bits| {
        if last[slot] == Some(v) {
            return Ok(());
        }
        last[slot] = Some(v);
        out.change_vector(id, vector(v, bits))
    };
    for s in samples {
        let t = s.cycle * 10;
        out.timestamp(t)?;
        out.change_scalar(clk, false)?;
        out.change_vector(cycle, vector(s.cycle, 64))?;
        out.change_scalar(mismatch, s.model != s.other)?;
        for (k, (_, bits, v)) in input_fields(&s.inputs, w, options).into_iter().enumerate() {
            change(&mut out, k, in_ids[k], v, bits)?;
        }
        let (m, r) = (s.model.fields(), s.other.fields());
        for (k, &(mid, rid, bits)) in out_ids.iter().enumerate() {
            let slot = in_ids.len() + 2 * k;
            change(&mut out, slot, mid, m[k].1, bits)?;
            change(&mut out, slot + 1, rid, r[k].1, bits)?;
        }
        out.timestamp(t + 5)?;
        out.change_scalar(clk, true)?;
    }
    if let Some(s) = samples.last() {
        out.timestamp(s.cycle * 10 + 10)?;
    }
    out.writer().flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A DUT that is the model, except that `wr_strb` is wrong from cycle `at`.
    struct Broken {
        m: Model,
        cycle: u64,
        at: u64,
    }

    impl Dut for Broken {
        fn step(&mut self, i: &Inputs) -> Outputs {
            let mut o = self.m.step(i);
            if self.cycle >= self.at {
                o.wr_strb ^= 0x80;
                o.thr[0].irq = !o.thr[0].irq;
            }
            self.cycle += 1;
            o
        }
    }

    #[test]
    fn first_divergence_and_vcd_window() {
        let cfg = Config::default();
        let at = 1000;
        let mut ls = Lockstep::new(
            &cfg,
            Box::new(Broken {
                m: Model::new(&cfg),
                cycle: 0,
                at,
            }),
        );
        let dir = std::env::temp_dir().join(format!("spe-ls-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("w.vcd");
        ls.record_vcd(&path);
        let mut inp = Inputs {
            reset: true,
            ..Inputs::default()
        };
        for c in 0..1100u64 {
            inp.reset = c < 4;
            inp.thr[0].cnt_virt = c;
            ls.step(&inp);
        }
        let d = ls.first().unwrap().clone();
        assert_eq!(d.cycle, at);
        assert_eq!(d.signal, "wr_strb");
        assert_eq!((d.expected, d.actual), (0, 0x80));
        assert_eq!(d.also, vec!["irq"]);
        assert_eq!(ls.mismatches(), 100);
        assert_eq!(ls.finish().unwrap().unwrap(), path);

        // Read it back: the window spans WINDOW_BEFORE + WINDOW_AFTER + 1 cycles and shows the
        // mismatch flag rising at the divergence.
        let mut p = vcd::Parser::new(std::io::BufReader::new(File::open(&path).unwrap()));
        let h = p.parse_header().unwrap();
        let code = |n: &str| h.find_var(&["lockstep", n]).unwrap().code;
        let (mm, cyc) = (code("mismatch"), code("cycle"));
        let mut t = 0;
        let mut first_t = None;
        let mut rise = None;
        let mut cycles = Vec::new();
        for cmd in p {
            match cmd.unwrap() {
                vcd::Command::Timestamp(x) => t = x,
                vcd::Command::ChangeScalar(id, vcd::Value::V1) if id == mm && rise.is_none() => {
                    rise = Some(t)
                }
                vcd::Command::ChangeVector(id, v) if id == cyc => {
                    first_t.get_or_insert(t);
                    let n = v
                        .iter()
                        .fold(0u64, |a, b| (a << 1) | u64::from(b == vcd::Value::V1));
                    cycles.push(n);
                }
                _ => {}
            }
        }
        assert_eq!(rise, Some(at * 10));
        assert_eq!(cycles.first(), Some(&(at - WINDOW_BEFORE as u64)));
        assert_eq!(cycles.last(), Some(&(at + WINDOW_AFTER as u64)));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn equal_backends_never_diverge() {
        let cfg = Config::default();
        let mut ls = Lockstep::new(&cfg, Box::new(Model::new(&cfg)));
        let mut inp = Inputs::default();
        for c in 0..500u64 {
            inp.reset = c < 2;
            inp.disp[0].valid = c % 3 == 0;
            ls.step(&inp);
        }
        assert!(ls.first().is_none());
        assert_eq!(ls.mismatches(), 0);
        assert!(ls.finish().is_none());
    }
}
