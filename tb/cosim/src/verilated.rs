//! The Verilated RTL (`gen/`, through `verilator-sys`) behind the [`Dut`] trait of `spe-ports`.
//!
//! One `step` = write every input, `clk` low and evaluate (the comb outputs settle and are
//! read), then `clk` high and evaluate (the rising edge). A [`Variant::Trace`] model can dump
//! a window of cycles to a VCD of every internal signal: cycle `c` is dumped at times `2c`
//! (clock low, outputs as read) and `2c + 1` (after the edge).

use spe_defs::config::MAX_DISPATCH_WIDTH;
use spe_defs::config::MAX_THREADS;
use spe_defs::ports::ports_of;
use spe_defs::Config;
use spe_ports::{
    slot_bits, thread_bits, Dut, Inputs, Outputs, ThreadField, OPTION_THREAD_FIELDS, OUTPUTS,
    SCALAR_INPUTS, SLOT_FIELDS, THREAD_FIELDS,
};
use std::path::{Path, PathBuf};
use verilator_sys::{Model, PortId, Variant, CLK};

/// Port ids, resolved once by name in the order of the field tables of `spe-ports`.
struct Ids {
    /// Per-slot inputs ([`SLOT_FIELDS`] order) with the bits of one slot.
    slots: [(PortId, u32); SLOT_FIELDS.len()],
    /// Per-thread inputs ([`THREAD_FIELDS`] order) with the bits of one thread's copy.
    threads: [(PortId, u32); THREAD_FIELDS.len()],
    /// Other inputs (`Inputs::scalar_fields` order).
    scalars: [PortId; SCALAR_INPUTS],
    /// The outputs the unit has: their place in `Outputs::fields` and port (the others
    /// read zero).
    present: Vec<(usize, PortId)>,
    /// The ports only a multithreaded unit has: `disp_tid`, `thr_active`, `reg_tid`.
    smt: Option<[PortId; 3]>,
    /// The option inputs the unit has ([`OPTION_THREAD_FIELDS`]; one-thread units only).
    options: Vec<(PortId, u32, ThreadField)>,
}

impl Ids {
    fn new(m: &Model, cfg: &Config) -> Ids {
        let id = |name: &str| {
            m.port_id(name)
                .unwrap_or_else(|| panic!("{}'s model has no port {name}", cfg.name))
        };
        let has = |n: &str| ports_of(cfg).any(|p| p.name == n);
        Ids {
            slots: SLOT_FIELDS.map(|(n, _)| (id(n), slot_bits(n))),
            threads: THREAD_FIELDS.map(|(n, _)| (id(n), thread_bits(n))),
            scalars: Inputs::default().scalar_fields().map(|(n, _)| id(n)),
            present: Outputs::default()
                .fields()
                .iter()
                .enumerate()
                .filter(|(_, (n, _))| has(n))
                .map(|(k, (n, _))| (k, id(n)))
                .collect(),
            smt: (cfg.threads > 1).then(|| ["disp_tid", "thr_active", "reg_tid"].map(id)),
            options: OPTION_THREAD_FIELDS
                .iter()
                .filter(|(n, _)| has(n))
                .map(|&(n, f)| (id(n), thread_bits(n), f))
                .collect(),
        }
    }
}

/// Words enough for a per-slot or per-thread port of at most 64 bits per lane.
const LANE_WORDS: usize = if MAX_DISPATCH_WIDTH > MAX_THREADS {
    MAX_DISPATCH_WIDTH
} else {
    MAX_THREADS
};

/// Packs one field per lane (a slot or a thread; `bits` each, lane 0 lowest) into 64-bit
/// words.
fn pack<L>(lanes: &[L], bits: u32, f: impl Fn(&L) -> u64) -> [u64; LANE_WORDS] {
    let mut w = [0u64; LANE_WORDS];
    let m = spe_defs::low_mask(bits);
    for (i, s) in lanes.iter().enumerate() {
        let v = f(s) & m;
        let at = i as u32 * bits;
        let (k, o) = ((at / 64) as usize, at % 64);
        w[k] |= v << o;
        if o + bits > 64 {
            w[k + 1] |= v >> (64 - o);
        }
    }
    w
}

/// A window of cycles to dump, and where.
struct Window {
    path: PathBuf,
    from: u64,
    to: u64,
    open: bool,
}

/// The Verilated `spe_top_<preset>` as a DUT.
pub struct Verilated {
    m: Model,
    ids: Ids,
    width: usize,
    threads: usize,
    cycle: u64,
    window: Option<Window>,
}

impl Verilated {
    /// The Verilated RTL of `cfg`, built as `variant`.
    pub fn new(cfg: &Config, variant: Variant) -> Result<Verilated, String> {
        cfg.validate()?;
        let m = Model::new(cfg.name, variant).map_err(|e| e.to_string())?;
        Ok(Verilated::wrap(m, cfg))
    }

    /// The mutant `name` (one deliberate bug in one preset's Verilog, see
    /// `verilator_sys::mutants`), and the preset it is a copy of.
    pub fn mutant(name: &str) -> Result<(Verilated, &'static Config), String> {
        let m = Model::new_mutant(name).map_err(|e| e.to_string())?;
        let cfg = Config::preset(m.info().preset)
            .ok_or_else(|| format!("mutant {name}: unknown preset {}", m.info().preset))?;
        Ok((Verilated::wrap(m, cfg), cfg))
    }

    fn wrap(m: Model, cfg: &Config) -> Verilated {
        Verilated {
            ids: Ids::new(&m, cfg),
            m,
            width: cfg.dispatch_width,
            threads: cfg.threads,
            cycle: 0,
            window: None,
        }
    }

    /// Dumps cycles `from..to` (counted from this DUT's first step) to a VCD at `path`.
    /// Needs a [`Variant::Trace`] model; the file is opened when `from` is reached.
    pub fn trace_window(&mut self, path: &Path, from: u64, to: u64) -> Result<(), String> {
        if self.m.info().variant != Variant::Trace {
            return Err(format!(
                "a VCD window needs the Trace build of the model, this is {:?}",
                self.m.info().variant
            ));
        }
        self.window = Some(Window {
            path: path.to_path_buf(),
            from,
            to,
            open: false,
        });
        Ok(())
    }

    /// Closes the VCD window early (it also closes by itself at its end).
    pub fn finish_trace(&mut self) {
        self.m.trace_close();
        self.window = None;
    }

    /// The underlying model (coverage, raw port access).
    pub fn model_mut(&mut self) -> &mut Model {
        &mut self.m
    }

    fn write_inputs(&mut self, i: &Inputs) {
        let (m, p) = (&mut self.m, &self.ids);
        let slots = &i.disp[..self.width];
        let threads = &i.thr[..self.threads];
        // Every field is read directly (the `for_*!` lists of `spe-ports` expand to field
        // accesses, in the order of the field tables `Ids` resolved the ports in), not
        // through the tables' function pointers: this is the per-cycle hot path.
        macro_rules! write_slots {
            ($($port:ident: $field:ident),*) => {{
                let mut ids = p.slots.iter();
                $(
                    let &(id, bits) = ids.next().expect("a port per slot field");
                    m.set_words(id, &pack(slots, bits, |s| u64::from(s.$field)));
                )*
            }};
        }
        spe_ports::for_slot_inputs!(write_slots);
        if self.threads == 1 {
            // One word per port (every per-thread port at T = 1): no packing.
            let x = &i.thr[0];
            macro_rules! write_thread {
                ($($port:ident: $($f:ident).+),*) => {{
                    let mut ids = p.threads.iter();
                    $(
                        let &(id, _) = ids.next().expect("a port per thread field");
                        m.set(id, u64::from(x.$($f).+));
                    )*
                }};
            }
            spe_ports::for_thread_inputs!(write_thread);
        } else {
            for (&(id, bits), (_, field)) in p.threads.iter().zip(THREAD_FIELDS.iter()) {
                m.set_words(id, &pack(threads, bits, field));
            }
        }
        // An option's inputs (a one-thread unit: thread 0's copy, one word).
        for &(id, bits, field) in &p.options {
            m.set(id, field(&i.thr[0]) & spe_defs::low_mask(bits));
        }
        macro_rules! write_scalars {
            ($($port:ident: $($f:ident).+),*) => {{
                let mut ids = p.scalars.iter();
                $(
                    let &id = ids.next().expect("a port per scalar input");
                    m.set(id, u64::from(i.$($f).+));
                )*
            }};
        }
        spe_ports::for_scalar_inputs!(write_scalars);
        if let Some([tid, active, reg_tid]) = p.smt {
            // Thread numbers of log2(T) bits: each slot's, then one bit per thread.
            let tidw = self.threads.trailing_zeros();
            m.set_words(tid, &pack(slots, tidw, |s| u64::from(s.tid)));
            let act = threads
                .iter()
                .enumerate()
                .fold(0, |a, (t, x)| a | u64::from(x.active) << t);
            m.set(active, act);
            m.set(reg_tid, u64::from(i.reg_tid));
        }
    }

    fn read_outputs(&self) -> Outputs {
        let mut v = [0u64; OUTPUTS];
        for &(k, id) in &self.ids.present {
            v[k] = self.m.get(id);
        }
        Outputs::from_values(v)
    }

    /// Opens or closes the VCD window around the current cycle.
    fn window_edge(&mut self) {
        let c = self.cycle;
        let Some(w) = &mut self.window else { return };
        if !w.open && c >= w.from && c < w.to {
            if let Err(e) = self.m.trace_open(&w.path) {
                eprintln!("warning: VCD window not written: {e}");
                self.window = None;
                return;
            }
            w.open = true;
        } else if w.open && c >= w.to {
            self.m.trace_close();
            self.window = None;
        }
    }
}

impl Dut for Verilated {
    fn step(&mut self, i: &Inputs) -> Outputs {
        if self.window.is_some() {
            self.window_edge();
        }
        self.write_inputs(i);
        self.m.set(CLK, 0);
        self.m.eval();
        self.m.trace_dump(2 * self.cycle);
        let out = self.read_outputs();
        self.m.set(CLK, 1);
        self.m.eval();
        self.m.trace_dump(2 * self.cycle + 1);
        self.cycle += 1;
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use spe_ports::Slot;

    #[test]
    fn pack_straddles_words() {
        let mut slots = [Slot::default(); 3];
        for (k, s) in slots.iter_mut().enumerate() {
            s.pc = 0x00AB_CDEF_0123_4567 + k as u64;
        }
        let w = pack(&slots, 56, |s| s.pc);
        assert_eq!(w[0] & spe_defs::low_mask(56), 0x00AB_CDEF_0123_4567);
        // Slot 1 starts at bit 56: 8 bits in word 0, 48 in word 1.
        let s1 = (w[0] >> 56) | ((w[1] & spe_defs::low_mask(48)) << 8);
        assert_eq!(s1, 0x00AB_CDEF_0123_4568);
        let s2 = (w[1] >> 48) | ((w[2] & spe_defs::low_mask(40)) << 16);
        assert_eq!(s2, 0x00AB_CDEF_0123_4569);
    }
}
