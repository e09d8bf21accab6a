//! What the SystemVerilog protocol checker (`hdl/sv/spe_protocol_checker.sv`) runs on:
//!
//! * [`VectorDump`]: a DUT wrapper that writes every cycle's input port values to a vector
//!   file (`spe sim --vectors`), which the generated replay bench `spe_<preset>_replay`
//!   drives into the Verilog with the checker bound (`scripts/protocol-check.sh`);
//! * [`Breaker`]: a DUT wrapper that breaks one rule of the core's side of the contract once,
//!   at the first chance after a given cycle (`spe sim --break RULE`): the stimulus the
//!   checker must catch, naming the rule.
//!
//! The file: a header line (`spe_gen::emit::sv::vectors_header`), then one line per cycle with
//! every input port of `PORTS` in order, as the flat port's value in hex (a per-slot port
//! packs its slots, slot 0 in the low bits; a per-thread port its threads).

use spe_defs::config::MAX_THREADS;
use spe_defs::packet::op_class;
use spe_defs::ports::{Dir, Width, PORTS};
use spe_defs::Config;
use spe_ports::{Dut, InputField, Inputs, Outputs};
use std::fmt::Write as _;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Writes each cycle's inputs, then steps the wrapped DUT.
pub struct VectorDump<D> {
    inner: D,
    out: BufWriter<File>,
    path: PathBuf,
    /// Every input port in `PORTS` order: its field, lanes and bits per lane.
    ports: Vec<(InputField, usize, u32)>,
    line: String,
    error: Option<String>,
}

impl<D: Dut> VectorDump<D> {
    pub fn new(inner: D, cfg: &Config, path: &Path) -> Result<VectorDump<D>, String> {
        let file =
            File::create(path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        let mut out = BufWriter::new(file);
        writeln!(out, "{}", spe_gen::emit::sv::vectors_header(cfg))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        let ports = PORTS
            .iter()
            .filter(|p| p.dir == Dir::In)
            .map(|p| {
                let (lanes, bits) = match p.width {
                    Width::PerSlot(b) => (cfg.dispatch_width, b),
                    Width::PerThread(b) => (cfg.threads.min(MAX_THREADS), b),
                    w => (1, w.bits()),
                };
                (
                    InputField::of(p.name).expect("a port of PORTS"),
                    lanes,
                    bits,
                )
            })
            .collect();
        Ok(VectorDump {
            inner,
            out,
            path: path.to_path_buf(),
            ports,
            line: String::new(),
            error: None,
        })
    }

    /// The line of one cycle.
    fn format(&mut self, i: &Inputs) {
        let scalars = i.scalar_fields();
        self.line.clear();
        for (k, &(field, lanes, bits)) in self.ports.iter().enumerate() {
            let lanes: Vec<u64> = (0..lanes).map(|l| field.value(i, &scalars, l)).collect();
            if k > 0 {
                self.line.push(' ');
            }
            hex(&mut self.line, &lanes, bits);
        }
        self.line.push('\n');
    }
}

/// Appends the lanes (`bits` each, lane 0 lowest) as one hex number, most significant
/// digit first, without leading zeros beyond one.
fn hex(out: &mut String, lanes: &[u64], bits: u32) {
    let total = lanes.len() as u32 * bits;
    let bit = |n: u32| -> u64 {
        let (lane, off) = ((n / bits) as usize, n % bits);
        (lanes[lane] >> off) & 1
    };
    let digits = total.div_ceil(4);
    let mut started = false;
    for d in (0..digits).rev() {
        let v = (0..4)
            .filter(|&b| d * 4 + b < total)
            .fold(0u64, |a, b| a | bit(d * 4 + b) << b);
        if v != 0 || started || d == 0 {
            started = true;
            write!(out, "{v:x}").expect("a String");
        }
    }
}

impl<D: Dut> Dut for VectorDump<D> {
    fn step(&mut self, inputs: &Inputs) -> Outputs {
        self.format(inputs);
        if self.error.is_none() {
            if let Err(e) = self.out.write_all(self.line.as_bytes()) {
                self.error = Some(format!("cannot write {}: {e}", self.path.display()));
            }
        }
        self.inner.step(inputs)
    }

    fn verdict(&mut self) -> Result<Option<String>, String> {
        if let Err(e) = self.out.flush() {
            self.error
                .get_or_insert(format!("cannot write {}: {e}", self.path.display()));
        }
        if let Some(e) = &self.error {
            return Err(e.clone());
        }
        self.inner.verdict()
    }
}

/// The core-side rules [`Breaker`] can break (the checker's keys).
pub const BREAKABLE: &[&str] = &[
    "window",
    "once",
    "class",
    "translation-order",
    "lost-completion",
    "reg-port",
    "wr-response",
];

/// Breaks one rule of the core's side of the contract, once, at its first chance from cycle
/// `from` on, in the inputs it passes to the wrapped DUT; the wrapped DUT (and the vectors
/// written around it) see the broken input. It follows the sampled op's window from the
/// outputs, as the checker does.
pub struct Breaker<D> {
    inner: D,
    rule: &'static str,
    from: u64,
    cycle: u64,
    broken_at: Option<u64>,
    in_flight: bool,
    class: u8,
    seen_iss: bool,
    seen_xl_start: bool,
    /// Cycles since the sampled op left the window, and whether the last cycle offered a
    /// beat: 4 or more cycles after the window with no beat in the last one, no record is
    /// being written (a kept record's first beat is offered 3 cycles after its completion,
    /// its beats are back to back until the last is taken).
    idle_cycles: u64,
    was_offered: bool,
}

impl<D: Dut> Breaker<D> {
    /// Breaks `rule` (one of [`BREAKABLE`]) from cycle `from` on.
    pub fn new(inner: D, rule: &str, from: u64) -> Result<Breaker<D>, String> {
        let rule = BREAKABLE.iter().find(|&&r| r == rule).ok_or_else(|| {
            format!(
                "--break {rule:?}: the rules a stimulus can break are {}",
                BREAKABLE.join(", ")
            )
        })?;
        Ok(Breaker {
            inner,
            rule,
            from,
            cycle: 0,
            broken_at: None,
            in_flight: false,
            class: 0,
            seen_iss: false,
            seen_xl_start: false,
            idle_cycles: 0,
            was_offered: false,
        })
    }

    /// Applies the break to `i` when this cycle is its chance; true if it did.
    fn apply(&self, i: &mut Inputs) -> bool {
        let x = &mut i.thr[0];
        let ldst = self.class == op_class::LD_ST_ATOMIC;
        match self.rule {
            "window" if !self.in_flight && !x.any_hook() => x.iss_valid = true,
            "once" if self.in_flight && self.seen_iss && !x.iss_valid => x.iss_valid = true,
            "class" if self.in_flight && !ldst && !x.mem.done => x.mem.done = true,
            "translation-order" if self.in_flight && ldst && !self.seen_xl_start && !x.xl.start => {
                x.xl.done = true
            }
            "lost-completion" if self.in_flight && x.cpl.done => x.cpl.done = false,
            "reg-port" if !i.reg_en => i.reg_we = true,
            "wr-response"
                if !self.in_flight && self.idle_cycles >= 4 && !self.was_offered && !i.wr_err =>
            {
                i.wr_err = true
            }
            _ => return false,
        }
        true
    }
}

impl<D: Dut> Dut for Breaker<D> {
    fn step(&mut self, inputs: &Inputs) -> Outputs {
        let mut i = inputs.clone();
        if self.broken_at.is_none() && self.cycle >= self.from && !i.reset && self.apply(&mut i) {
            self.broken_at = Some(self.cycle);
        }
        let out = self.inner.step(&i);
        // The window, as the checker follows it.
        let x = &i.thr[0];
        if i.reset {
            self.in_flight = false;
        } else {
            if self.in_flight {
                self.seen_iss |= x.iss_valid;
                self.seen_xl_start |= x.xl.start;
                if x.cpl.done || x.psb_req || out.thr[0].sample_timeout {
                    self.in_flight = false;
                }
            }
            if out.tag != 0 {
                let slot = out.tag.trailing_zeros() as usize;
                self.in_flight = true;
                self.class = i.disp[slot].class & 3;
                self.seen_iss = false;
                self.seen_xl_start = false;
            }
        }
        self.idle_cycles = if self.in_flight {
            0
        } else {
            self.idle_cycles + 1
        };
        self.was_offered = out.wr_valid;
        self.cycle += 1;
        out
    }

    fn verdict(&mut self) -> Result<Option<String>, String> {
        let inner = self.inner.verdict()?;
        let Some(at) = self.broken_at else {
            return Err(format!(
                "--break {}: the run gave no chance to break it after cycle {}",
                self.rule, self.from
            ));
        };
        let text = format!("broke rule {} at cycle {at} (--break)", self.rule);
        Ok(Some(match inner {
            Some(t) => format!("{t}\n{text}"),
            None => text,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_packs_lanes_low_first() {
        let mut s = String::new();
        hex(&mut s, &[0x1, 0x2, 0x3, 0x0], 2);
        assert_eq!(s, "39"); // 00 11 10 01
        s.clear();
        hex(&mut s, &[0], 1);
        assert_eq!(s, "0");
        s.clear();
        hex(&mut s, &[0x00ab_cdef_0123_4567, 1], 56);
        assert_eq!(s, "1abcdef01234567"); // lane 1 from bit 56
    }
}
