//! The demo SoCs (`gen/soc`: PicoRV32 and the unit; `gen/soc_vexriscv` and
//! `gen/soc_vexriscv_full`: VexRiscv Lite and Full and the unit) under Verilator, driven
//! from Rust.
//!
//! [`run`] loads a program into the SoC's RAM through its loader port, releases reset and
//! clocks it until the program writes its exit code (or a cycle limit). Every cycle it
//! * decodes the UART from the TX pin, bit by bit ([`UartRx`]), and feeds the bytes to the
//!   dump-protocol decoder of `spe fpga capture` (`spe_dump::Decoder`): the buffer the
//!   program sent;
//! * counts the retired instructions per function (RVFI retire port, ELF symbol table), and
//!   the ops the unit counted into its sampling population per function (the unit's
//!   dispatch inputs and its `pmu_sample_pop` output): the ground truth for the samples;
//! * counts, from the core's own signals rather than the hooks (`core_disp_*`, RVFI), the
//!   instructions dispatched into the population and, matching them against the in-order
//!   retire stream, the ones retired and the ones flushed ([`FuncCount::dispatched`]);
//! * checks the unit against the golden model: the unit's inputs this cycle (the `spe_in`
//!   probe) go to `spe_model::Model`, whose outputs must equal the unit's (`spe_out`),
//!   like `spe sim --backend lockstep`.

pub mod elf;
pub mod report;

use elf::Elf;
use spe_defs::ports::{Dir, PORTS};
use spe_defs::soc::{probe_layout, RAM, RAM_WORDS, SIM_BAUD_DIV, SOC_PRESET, SOC_THREADS, SOC_W};
use spe_dump::{Captured, Decoder};
use spe_ports::{Inputs, Outputs, OUTPUTS};
use std::collections::HashMap;
use verilator_sys::{PortId, SocModel};

/// Cycles the reset is held after loading.
const RESET_CYCLES: u64 = 8;

/// What to run and check.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Stop with an error after this many cycles without an exit code.
    pub max_cycles: u64,
    /// Check the unit against the golden model every cycle.
    pub lockstep: bool,
    /// Print progress to stderr every this many cycles (0: never).
    pub progress_every: u64,
    /// The SoC's core.
    pub core: spe_defs::soc::Core,
    /// VexRiscv's hook adapter broken on purpose (`hook_fault` port, an index into
    /// [`HOOK_FAULTS`]); 0: correct.
    pub hook_fault: u8,
}

/// The faults VexRiscv's hook adapter can be built to make, by their `hook_fault` port
/// value: none, a flushed op reported as retired, ops dispatched when they retire (not
/// when they enter execution), the issue report in the tag's own cycle.
pub const HOOK_FAULTS: [&str; 4] = [
    "none",
    "flush-as-retired",
    "dispatch-at-retire",
    "issue-at-dispatch",
];

/// The `hook_fault` port value of a fault named as in [`HOOK_FAULTS`].
pub fn parse_hook_fault(s: &str) -> Result<u8, String> {
    HOOK_FAULTS
        .iter()
        .position(|f| *f == s)
        .map(|i| i as u8)
        .ok_or_else(|| format!("unknown fault {s:?}: one of {}", HOOK_FAULTS.join(", ")))
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            max_cycles: 50_000_000,
            lockstep: true,
            progress_every: 0,
            core: spe_defs::soc::Core::Picorv32,
            hook_fault: 0,
        }
    }
}

/// Per-function counts of one run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FuncCount {
    pub name: String,
    /// Instructions retired (RVFI), traps excluded.
    pub retired: u64,
    /// Ops the unit counted into its sampling population.
    pub population: u64,
    /// The ground truth from the core's own signals (`core_disp_*`, RVFI), not from the
    /// hooks: instructions the core dispatched while the unit's registers put a dispatch in
    /// the sampling population, and of those, the ones that retired and the ones flushed
    /// (dispatched, then gone from the in-order retire stream).
    pub dispatched: u64,
    pub disp_retired: u64,
    pub disp_flushed: u64,
}

/// What a run did.
#[derive(Clone, Debug)]
pub struct RunResult {
    /// Cycles after reset.
    pub cycles: u64,
    pub exit_code: u32,
    pub retired: u64,
    pub population: u64,
    /// The core's dispatches in the population window, and of those the flushed ones (all
    /// functions; see [`FuncCount::dispatched`]).
    pub dispatched: u64,
    pub disp_flushed: u64,
    /// One entry per function symbol of the ELF, in address order.
    pub funcs: Vec<FuncCount>,
    /// Retired instructions outside every function symbol.
    pub retired_unnamed: u64,
    /// Bytes the UART sent.
    pub uart_bytes: u64,
    /// The buffer of the dump stream (None: the program sent no complete stream).
    pub captured: Option<Captured>,
    /// Cycles the golden model checked (0 without lockstep).
    pub lockstep_cycles: u64,
    /// Samples the unit took (its SAMPLE_FEED pulses) and records it kept.
    pub samples: u64,
    pub records: u64,
    /// Cycles in which the unit ignored a hook report (`hook_stray`): the SoC's hooks broke
    /// the port contract. Zero in a correct run.
    pub stray_hooks: u64,
    /// PSBs the unit completed (`psb_done` cycles).
    pub psbs: u64,
    /// Every beat the memory accepted without error, in order: the records as the unit
    /// wrote them (the dump must hold exactly these bytes).
    pub written: Vec<u8>,
}

/// UART receiver on a sampled pin: 8N1, `div` cycles per bit, LSB first.
#[derive(Clone, Debug)]
pub struct UartRx {
    div: u32,
    /// Cycles to the middle of the next bit; `None` while idle.
    wait: Option<u32>,
    bit: u32,
    byte: u8,
}

impl UartRx {
    pub fn new(div: u32) -> UartRx {
        assert!(
            div >= 2,
            "a bit must last two cycles or more to be sampled in its middle"
        );
        UartRx {
            div,
            wait: None,
            bit: 0,
            byte: 0,
        }
    }

    /// The pin's level in one cycle; a byte when its stop bit has been seen. A low stop
    /// bit is a framing error.
    pub fn sample(&mut self, pin: bool) -> Result<Option<u8>, String> {
        match self.wait {
            None => {
                if !pin {
                    // Start bit: its middle is half a bit away, check it there.
                    self.wait = Some(self.div / 2 - 1);
                    self.bit = 0;
                    self.byte = 0;
                }
                Ok(None)
            }
            Some(0) => {
                self.wait = Some(self.div - 1);
                self.bit += 1;
                match self.bit {
                    1 if pin => {
                        // A glitch, not a start bit.
                        self.wait = None;
                        Ok(None)
                    }
                    1 => Ok(None),
                    2..=9 => {
                        self.byte |= u8::from(pin) << (self.bit - 2);
                        Ok(None)
                    }
                    _ => {
                        self.wait = None;
                        if pin {
                            Ok(Some(self.byte))
                        } else {
                            Err(format!(
                                "UART framing error: stop bit low after byte 0x{:02x}",
                                self.byte
                            ))
                        }
                    }
                }
            }
            Some(n) => {
                self.wait = Some(n - 1);
                Ok(None)
            }
        }
    }
}

/// `width` bits (at most 64) of a little-endian word vector from bit `off`.
fn bits(words: &[u64], off: u32, width: u32) -> u64 {
    let (w, s) = ((off / 64) as usize, off % 64);
    let mut v = words.get(w).copied().unwrap_or(0) >> s;
    if s + width > 64 && s > 0 {
        v |= words.get(w + 1).copied().unwrap_or(0) << (64 - s);
    }
    if width >= 64 {
        v
    } else {
        v & ((1u64 << width) - 1)
    }
}

/// The unit's inputs from the `spe_in` probe.
struct InProbe {
    at: HashMap<&'static str, (u32, u32)>,
    /// The bit ranges `Inputs::from_port_bits` asks for, in the order it asks (it always
    /// asks in the same order): looked up once here, not by name every cycle.
    order: Vec<(u32, u32)>,
}

impl InProbe {
    fn new() -> InProbe {
        let at: HashMap<&'static str, (u32, u32)> = probe_layout(Dir::In)
            .into_iter()
            .map(|(i, off, w)| (PORTS[i].name, (off, w)))
            .collect();
        let order = std::cell::RefCell::new(Vec::new());
        Inputs::from_port_bits(SOC_W, SOC_THREADS, |name, off, width| {
            let (base, w) = at[name];
            order.borrow_mut().push((base + off, width.min(w - off)));
            0
        });
        InProbe {
            at,
            order: order.into_inner(),
        }
    }

    fn inputs(&self, words: &[u64]) -> Inputs {
        let next = std::cell::Cell::new(0);
        Inputs::from_port_bits(SOC_W, SOC_THREADS, |_, _, _| {
            let (off, w) = self.order[next.get()];
            next.set(next.get() + 1);
            bits(words, off, w)
        })
    }

    fn port(&self, words: &[u64], name: &str) -> u64 {
        let (off, w) = self.at[name];
        bits(words, off, w)
    }
}

fn port(name: &str) -> PortId {
    SocModel::port(name).unwrap_or_else(|| panic!("spe_soc has no port {name}"))
}

/// Runs `elf` on the simulated SoC (see the crate documentation).
pub fn run(elf: &Elf, opts: &RunOptions) -> Result<RunResult, String> {
    let image = elf.image(RAM.base, RAM_WORDS)?;
    let mut soc = SocModel::new(opts.core).map_err(|e| e.to_string())?;
    let (clk, reset, load_en, load_addr, load_data) = (
        port("clk"),
        port("reset"),
        port("load_en"),
        port("load_addr"),
        port("load_data"),
    );
    let (uart_tx, exit_valid, exit_code) = (port("uart_tx"), port("exit_valid"), port("exit_code"));
    let (rvfi_valid, rvfi_pc, rvfi_trap) = (port("rvfi_valid"), port("rvfi_pc"), port("rvfi_trap"));
    let (core_disp_valid, core_disp_pc) = (port("core_disp_valid"), port("core_disp_pc"));
    soc.set(port("hook_fault"), u64::from(opts.hook_fault));
    let (spe_in, spe_out) = (port("spe_in"), port("spe_out"));
    let edge = |soc: &mut SocModel| {
        soc.set(clk, 0);
        soc.eval();
        soc.set(clk, 1);
        soc.eval();
    };
    // Load the program with the SoC in reset, then hold reset a few more cycles.
    soc.set(reset, 1);
    soc.set(load_en, 1);
    for (i, w) in image.iter().enumerate() {
        soc.set(load_addr, i as u64);
        soc.set(load_data, u64::from(*w));
        edge(&mut soc);
    }
    soc.set(load_en, 0);
    for _ in 0..RESET_CYCLES {
        edge(&mut soc);
    }

    let cfg = spe_defs::Config::preset(SOC_PRESET).ok_or("no SoC preset")?;
    let mut model = spe_model::Model::new(cfg);
    let probe_in = InProbe::new();
    let out_layout = probe_layout(Dir::Out);
    // Where one of the unit's outputs sits in the `spe_out` probe.
    let out_at = |name: &str| {
        out_layout
            .iter()
            .find(|(i, _, _)| PORTS[*i].name == name)
            .map(|&(_, off, w)| (off, w))
            .ok_or_else(|| format!("the unit has no output {name}"))
    };
    let pop_at = out_at("pmu_sample_pop")?;
    let feed_at = out_at("pmu_sample_feed")?;
    let stray_at = out_at("hook_stray")?;
    let filt_at = out_at("pmu_sample_filtrate")?;
    let psb_at = out_at("psb_done")?;
    let wr_valid_at = out_at("wr_valid")?;
    let wr_data_at = out_at("wr_data")?;
    let mut rx = UartRx::new(SIM_BAUD_DIV);
    let mut decoder = Decoder::new();
    let mut res = RunResult {
        cycles: 0,
        exit_code: 0,
        retired: 0,
        population: 0,
        dispatched: 0,
        disp_flushed: 0,
        funcs: elf
            .funcs
            .iter()
            .map(|f| FuncCount {
                name: f.name.clone(),
                ..Default::default()
            })
            .collect(),
        retired_unnamed: 0,
        uart_bytes: 0,
        captured: None,
        lockstep_cycles: 0,
        samples: 0,
        records: 0,
        stray_hooks: 0,
        psbs: 0,
        written: Vec::new(),
    };
    let (mut win, mut wout) = (Vec::new(), Vec::new());
    // The core's dispatched instructions not yet retired, oldest first: (address, in the
    // population). The core retires in order, so a retirement at PC p retires the oldest
    // entry at p and every older entry was flushed.
    let mut inflight: std::collections::VecDeque<(u32, bool)> = std::collections::VecDeque::new();
    soc.set(reset, 0);
    // The golden model starts from reset too: replay the reset cycles' inputs into it.
    let mut reset_inputs = Inputs {
        reset: true,
        ..Default::default()
    };
    reset_inputs.clear_hooks();
    for _ in 0..RESET_CYCLES {
        model.step(&reset_inputs);
    }
    loop {
        if res.cycles >= opts.max_cycles {
            return Err(format!(
                "the program did not finish in {} cycles ({} instructions retired, {} UART bytes): raise --cycles",
                opts.max_cycles, res.retired, res.uart_bytes
            ));
        }
        // The cycle's settled values (after the falling edge), then the rising edge.
        soc.set(clk, 0);
        soc.eval();
        if soc.get(exit_valid) != 0 {
            res.exit_code = soc.get(exit_code) as u32;
            break;
        }
        if let Some(b) = rx
            .sample(soc.get(uart_tx) != 0)
            .map_err(|e| format!("cycle {}: {e}", res.cycles))?
        {
            res.uart_bytes += 1;
            if let Some(c) = decoder.push(&[b]).map_err(|e| e.to_string())? {
                res.captured = Some(c);
            }
        }
        soc.get_words(spe_in, &mut win);
        soc.get_words(spe_out, &mut wout);
        let inputs = probe_in.inputs(&win);
        if soc.get(core_disp_valid) != 0 {
            // In the population if the unit's registers (the golden model's, this cycle)
            // count a dispatch of this thread now: the hooks do not enter into it.
            let mut probe = inputs.clone();
            probe.disp[0].valid = true;
            let pc = soc.get(core_disp_pc) as u32;
            let in_pop = spe_model::sampler::in_population(model.regs(), &probe, 0, 1, 0);
            if in_pop {
                res.dispatched += 1;
                if let Some(f) = elf.func_at(pc) {
                    res.funcs[f].dispatched += 1;
                }
            }
            inflight.push_back((pc, in_pop));
        }
        if soc.get(rvfi_valid) != 0 && soc.get(rvfi_trap) == 0 {
            let pc = soc.get(rvfi_pc) as u32;
            res.retired += 1;
            match elf.func_at(pc) {
                Some(f) => res.funcs[f].retired += 1,
                None => res.retired_unnamed += 1,
            }
            if !inflight.iter().any(|&(p, _)| p == pc) {
                return Err(format!(
                    "cycle {}: the core retired 0x{pc:08x}, which it never dispatched (core_disp_valid)",
                    res.cycles
                ));
            }
            while let Some((p, in_pop)) = inflight.pop_front() {
                let f = elf.func_at(p);
                if p == pc {
                    if let (true, Some(f)) = (in_pop, f) {
                        res.funcs[f].disp_retired += 1;
                    }
                    break;
                }
                if in_pop {
                    res.disp_flushed += 1;
                    if let Some(f) = f {
                        res.funcs[f].disp_flushed += 1;
                    }
                }
            }
        }
        if bits(&wout, pop_at.0, pop_at.1) != 0 {
            res.population += 1;
            let pc = probe_in.port(&win, "disp_pc") as u32;
            if let Some(f) = elf.func_at(pc) {
                res.funcs[f].population += 1;
            }
        }
        res.samples += bits(&wout, feed_at.0, feed_at.1);
        res.records += bits(&wout, filt_at.0, filt_at.1);
        res.stray_hooks += bits(&wout, stray_at.0, stray_at.1);
        res.psbs += bits(&wout, psb_at.0, psb_at.1);
        if bits(&wout, wr_valid_at.0, wr_valid_at.1) != 0
            && probe_in.port(&win, "wr_ready") != 0
            && probe_in.port(&win, "wr_err") == 0
        {
            let beat = bits(&wout, wr_data_at.0, wr_data_at.1);
            res.written.extend_from_slice(&beat.to_le_bytes());
        }
        // The model always runs (the ground truth reads its registers); lockstep compares.
        let want = model.step(&inputs);
        if opts.lockstep {
            let mut vals = [0u64; OUTPUTS];
            for (k, &(_, off, w)) in out_layout.iter().enumerate() {
                vals[k] = bits(&wout, off, w);
            }
            let got = Outputs::from_values(vals);
            if got != want {
                let diffs: Vec<String> = got
                    .fields()
                    .iter()
                    .zip(want.fields().iter())
                    .filter(|(g, w)| g.1 != w.1)
                    .map(|(g, w)| format!("{} rtl 0x{:x} model 0x{:x}", g.0, g.1, w.1))
                    .collect();
                return Err(format!(
                    "lockstep MISMATCH at cycle {} ({} instructions retired): {}",
                    res.cycles,
                    res.retired,
                    diffs.join(", ")
                ));
            }
            res.lockstep_cycles += 1;
        }
        soc.set(clk, 1);
        soc.eval();
        res.cycles += 1;
        if opts.progress_every > 0 && res.cycles % opts.progress_every == 0 {
            eprintln!(
                "  {} Mcycles: {} instructions retired, {} UART bytes",
                res.cycles / 1_000_000,
                res.retired,
                res.uart_bytes
            );
        }
    }
    if res.captured.is_none() && decoder.position() > 0 {
        return Err(format!(
            "the program ended inside the dump stream: {}",
            decoder.finish()
        ));
    }
    Ok(res)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pin waveform of `bytes` at `div` cycles per bit, with idle cycles around.
    fn wave(bytes: &[u8], div: u32) -> Vec<bool> {
        let mut v = vec![true; 7];
        for &b in bytes {
            let frame = (u16::from(b) << 1) | (1 << 9);
            for i in 0..10 {
                v.extend(std::iter::repeat(frame >> i & 1 != 0).take(div as usize));
            }
            v.extend([true; 3]);
        }
        v
    }

    #[test]
    fn the_receiver_reads_back_what_a_transmitter_sends() {
        for div in [2, 4, 5, 104] {
            let sent: Vec<u8> = (0..=255).collect();
            let mut rx = UartRx::new(div);
            let got: Vec<u8> = wave(&sent, div)
                .into_iter()
                .filter_map(|p| rx.sample(p).unwrap())
                .collect();
            assert_eq!(got, sent, "div {div}");
        }
    }

    #[test]
    fn a_low_stop_bit_is_a_framing_error() {
        let mut w = wave(&[0x55], 4);
        // Stop bit: the last 4 cycles of the frame before the 3 idle cycles.
        let n = w.len();
        for p in &mut w[n - 7..n - 3] {
            *p = false;
        }
        let mut rx = UartRx::new(4);
        let r: Result<Vec<_>, _> = w.into_iter().map(|p| rx.sample(p)).collect();
        assert!(r.unwrap_err().contains("framing error"));
    }

    #[test]
    fn bits_cross_word_boundaries() {
        let words = [0xf000_0000_0000_0000u64, 0x5];
        assert_eq!(bits(&words, 60, 8), 0x5f);
        assert_eq!(bits(&words, 0, 64), words[0]);
        assert_eq!(bits(&words, 64, 3), 5);
    }
}
