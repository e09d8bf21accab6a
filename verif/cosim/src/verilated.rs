//! The Verilated RTL (`gen/`, through `verilator-sys`) behind the [`Dut`] trait of `spe-ports`.
//!
//! One `step` = write every input, `clk` low and evaluate (the comb outputs settle and are
//! read), then `clk` high and evaluate (the rising edge). A [`Variant::Trace`] model can dump
//! a window of cycles to a VCD of every internal signal: cycle `c` is dumped at times `2c`
//! (clock low, outputs as read) and `2c + 1` (after the edge).

use spe_defs::ports::ports_of;
use spe_defs::Config;
use spe_ports::{
    Dut, Inputs, Outputs, ThreadField, OPTION_THREAD_FIELDS, OUTPUTS, SCALAR_INPUTS, SLOT_FIELDS,
    THREAD_FIELDS,
};
use std::path::{Path, PathBuf};
use verilator_sys::{Model, Variant, CLK};

/// Where each input field's lanes are in the values of `Model::set_lanes` (resolved once
/// by name, in the order of the field tables of `spe-ports`), and where each output is in
/// those of `Model::get_outputs`.
struct Ids {
    /// Per-slot inputs ([`SLOT_FIELDS`] order): lane 0 (slot 0).
    slots: [usize; SLOT_FIELDS.len()],
    /// Per-thread inputs ([`THREAD_FIELDS`] order): lane 0 (thread 0).
    threads: [usize; THREAD_FIELDS.len()],
    /// Other inputs (`Inputs::scalar_fields` order).
    scalars: [usize; SCALAR_INPUTS],
    /// The outputs the unit has: their place in `Outputs::fields` and in `get_outputs`'s
    /// values (the others read zero).
    present: Vec<(usize, usize)>,
    /// The ports only a multithreaded unit has: `disp_tid` (a lane per slot),
    /// `thr_active` (a lane per thread), `reg_tid`.
    smt: Option<[usize; 3]>,
    /// The option inputs the unit has ([`OPTION_THREAD_FIELDS`]): lane 0 and the field.
    options: Vec<(usize, ThreadField)>,
}

impl Ids {
    fn new(m: &Model, cfg: &Config) -> Ids {
        let lane = |name: &str| {
            m.lane_index(name)
                .unwrap_or_else(|| panic!("{}'s model has no input {name}", cfg.name))
        };
        let has = |n: &str| ports_of(cfg).any(|p| p.name == n);
        Ids {
            slots: SLOT_FIELDS.map(|(n, _)| lane(n)),
            threads: THREAD_FIELDS.map(|(n, _)| lane(n)),
            scalars: Inputs::default().scalar_fields().map(|(n, _)| lane(n)),
            present: Outputs::default()
                .fields()
                .iter()
                .enumerate()
                .filter(|(_, (n, _))| has(n))
                .map(|(k, (n, _))| {
                    let j = m
                        .output_index(n)
                        .unwrap_or_else(|| panic!("{}'s model has no output {n}", cfg.name));
                    (k, j)
                })
                .collect(),
            smt: (cfg.threads > 1).then(|| ["disp_tid", "thr_active", "reg_tid"].map(lane)),
            options: OPTION_THREAD_FIELDS
                .iter()
                .filter(|(n, _)| has(n))
                .map(|&(n, f)| (lane(n), f))
                .collect(),
        }
    }
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
    /// One cycle's input lanes and outputs, as the shim takes and gives them.
    lanes: Vec<u64>,
    outs: Vec<u64>,
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
            lanes: vec![0; m.lane_count()],
            outs: vec![0; m.output_count()],
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

    /// Every input of `i` into the model: its lanes, then one call into the shim.
    fn write_inputs(&mut self, i: &Inputs) {
        self.fill_lanes(i);
        self.m.set_lanes(&self.lanes);
    }

    /// Every input of `i`, one value per lane (slot, thread), into `lanes`: every field is
    /// read directly (the `for_*!` lists of `spe-ports` expand to field accesses, in the
    /// order of the field tables `Ids` resolved the lanes in); the shim's generated code
    /// masks and places each lane with constants. This is the per-cycle hot path.
    fn fill_lanes(&mut self, i: &Inputs) {
        let (p, v) = (&self.ids, &mut self.lanes);
        let slots = &i.disp[..self.width];
        let threads = &i.thr[..self.threads];
        macro_rules! write_slots {
            ($($port:ident: $field:ident),*) => {{
                let mut at = p.slots.iter();
                $(
                    let o = *at.next().expect("a lane per slot field");
                    for (l, s) in slots.iter().enumerate() {
                        v[o + l] = u64::from(s.$field);
                    }
                )*
            }};
        }
        spe_ports::for_slot_inputs!(write_slots);
        macro_rules! write_threads {
            ($($port:ident: $($f:ident).+),*) => {{
                let mut at = p.threads.iter();
                $(
                    let o = *at.next().expect("a lane per thread field");
                    for (t, x) in threads.iter().enumerate() {
                        v[o + t] = u64::from(x.$($f).+);
                    }
                )*
            }};
        }
        spe_ports::for_thread_inputs!(write_threads);
        for &(o, field) in &p.options {
            for (t, x) in threads.iter().enumerate() {
                v[o + t] = field(x);
            }
        }
        macro_rules! write_scalars {
            ($($port:ident: $($f:ident).+),*) => {{
                let mut at = p.scalars.iter();
                $(
                    let o = *at.next().expect("a lane per scalar input");
                    v[o] = u64::from(i.$($f).+);
                )*
            }};
        }
        spe_ports::for_scalar_inputs!(write_scalars);
        if let Some([tid, active, reg_tid]) = p.smt {
            for (l, s) in slots.iter().enumerate() {
                v[tid + l] = u64::from(s.tid);
            }
            for (t, x) in threads.iter().enumerate() {
                v[active + t] = u64::from(x.active);
            }
            v[reg_tid] = u64::from(i.reg_tid);
        }
    }

    fn read_outputs(&mut self) -> Outputs {
        self.m.get_outputs(&mut self.outs);
        self.outputs()
    }

    /// The outputs of `outs`, in `Outputs`' fields.
    fn outputs(&self) -> Outputs {
        let mut v = [0u64; OUTPUTS];
        for &(k, j) in &self.ids.present {
            v[k] = self.outs[j];
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
        if self.window.is_none() {
            // No VCD to dump between the evaluations: the whole cycle in one call.
            self.fill_lanes(i);
            self.m.cycle(&self.lanes, &mut self.outs);
            self.cycle += 1;
            return self.outputs();
        }
        self.window_edge();
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
