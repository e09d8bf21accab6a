//! Verilated models of `gen/`, one per preset and variant, with safe Rust bindings.
//!
//! The build script verilates `gen/<preset>/files.f` with Debian's Verilator 5 (found through
//! `$VERILATOR` or PATH), compiles the models and the Verilator runtime at -O2 whatever the
//! cargo profile, and exposes them through a small C ABI shim: create, evaluate, port
//! pointers, VCD trace and coverage. Each [`Model`] owns its own `VerilatedContext`, so
//! several models (even of one preset) can live in one process and run on different threads.
//! Ports are read and written in place through pointers ([`Model::set`], [`Model::get`]);
//! the hot loop instead makes one call per clock cycle ([`Model::cycle`]) into per-model
//! shim code that writes every input from one value per lane and reads every output.
//!
//! Ports are addressed by [`PortId`], found by name with [`Model::port_id`]: index 0 is
//! `clk`, then the ports of `spe_defs::ports::ports_of` for the model's preset (`PORTS`,
//! `SMT_PORTS` in a multithreaded preset, the option ports the preset builds) in order.
//! Inputs are masked to their width on every write (Verilator requires the bits above a
//! port's width to be zero).

use spe_defs::ports::{ports_of, Dir};
use spe_defs::{low_mask, Config};
use std::ffi::{c_char, c_int, c_void, CString};
use std::fmt;
use std::path::Path;

/// What a model was built with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// Plain `--cc`: the fastest, for regressions.
    Fast,
    /// `--trace`: can write a VCD of every signal (costs ≈ 0.6 µs per dumped cycle).
    Trace,
    /// `--coverage-line --coverage-toggle`: counts line and toggle coverage of the Verilog
    /// (built only with the crate's `coverage` feature).
    Coverage,
}

/// One model in the library.
#[derive(Clone, Copy, Debug)]
pub struct ModelInfo {
    id: u32,
    pub preset: &'static str,
    pub variant: Variant,
    /// A deliberately broken copy of the preset's Verilog (see [`mutants`]), or `None`.
    pub mutant: Option<&'static str>,
}

include!(concat!(env!("OUT_DIR"), "/models.rs"));

extern "C" {
    fn vsys_new(model: u32) -> *mut c_void;
    fn vsys_delete(h: *mut c_void);
    fn vsys_eval(h: *mut c_void);
    fn vsys_port(h: *mut c_void, i: u32) -> *mut c_void;
    fn vsys_set_lanes(h: *mut c_void, v: *const u64);
    fn vsys_get_outputs(h: *mut c_void, out: *mut u64);
    fn vsys_cycle(h: *mut c_void, v: *const u64, out: *mut u64);
    fn vsys_trace_open(h: *mut c_void, path: *const c_char) -> c_int;
    fn vsys_trace_dump(h: *mut c_void, time: u64);
    fn vsys_trace_flush(h: *mut c_void);
    fn vsys_trace_close(h: *mut c_void);
    fn vsys_coverage_write(h: *mut c_void, path: *const c_char) -> c_int;
}

/// Errors of the bindings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// No model was built for this preset and variant.
    NoModel { preset: String, variant: Variant },
    /// No mutant of this name was built.
    NoMutant(String),
    /// The shim could not create the model.
    Create(String),
    /// The operation needs another variant (trace on a non-traced model, ...).
    WrongVariant { wanted: Variant, have: Variant },
    /// A file the model was asked to write.
    File(String),
    /// This binary was built without Verilated models ([`NOT_BUILT`] says why).
    NotBuilt(&'static str),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NoModel {
                preset,
                variant: Variant::Coverage,
            } if spe_defs::Config::preset(preset).is_some() => write!(
                f,
                "the coverage build of {preset:?} is not in this binary: build with \
                 `--features coverage` (for example `cargo run --release --features coverage \
                 --bin spe -- coverage`)"
            ),
            Error::NoModel { preset, variant } => {
                let names: Vec<_> = spe_defs::PRESETS.iter().map(|c| c.name).collect();
                write!(
                    f,
                    "no Verilated model of preset {preset:?} ({variant:?}); built presets: {}",
                    names.join(", ")
                )
            }
            Error::NoMutant(m) => {
                let names: Vec<_> = mutants().filter_map(|m| m.mutant).collect();
                write!(f, "no mutant {m:?}; built mutants: {}", names.join(", "))
            }
            Error::Create(m) => write!(f, "cannot create the Verilated model {m}"),
            Error::WrongVariant { wanted, have } => write!(
                f,
                "this needs a {wanted:?} build of the model, but it is a {have:?} build"
            ),
            Error::File(m) => write!(f, "{m}"),
            Error::NotBuilt(why) => write!(f, "this binary has no Verilated models: {why}"),
        }
    }
}

impl std::error::Error for Error {}

/// Where and how a port is stored in the Verilated model.
#[derive(Clone, Copy, Debug)]
enum Store {
    U8,
    U16,
    U32,
    U64,
    /// `VlWide`: an array of 32-bit words, least significant first.
    Wide(usize),
}

impl Store {
    fn for_bits(bits: u32) -> Store {
        match bits {
            0..=8 => Store::U8,
            9..=16 => Store::U16,
            17..=32 => Store::U32,
            33..=64 => Store::U64,
            _ => Store::Wide(bits.div_ceil(32) as usize),
        }
    }
}

/// A port: name, direction and width in this model's preset.
#[derive(Clone, Copy, Debug)]
pub struct Port {
    pub name: &'static str,
    pub dir: Dir,
    pub bits: u32,
    store: Store,
    ptr: *mut c_void,
}

impl Port {
    /// Writes the low 64 bits (bits above the width dropped, a wide port's upper words
    /// cleared).
    #[inline]
    fn write(&self, v: u64) {
        let v = v & low_mask(self.bits);
        // SAFETY: `ptr` points at the port's storage of type `store` inside the live model
        // that owns this port.
        unsafe {
            match self.store {
                Store::U8 => *(self.ptr as *mut u8) = v as u8,
                Store::U16 => *(self.ptr as *mut u16) = v as u16,
                Store::U32 => *(self.ptr as *mut u32) = v as u32,
                Store::U64 => *(self.ptr as *mut u64) = v,
                Store::Wide(words) => {
                    let w = self.ptr as *mut u32;
                    *w = v as u32;
                    *w.add(1) = (v >> 32) as u32;
                    for k in 2..words {
                        *w.add(k) = 0;
                    }
                }
            }
        }
    }

    /// The low 64 bits.
    #[inline]
    fn read(&self) -> u64 {
        // SAFETY: as in `write`.
        unsafe {
            match self.store {
                Store::U8 => u64::from(*(self.ptr as *const u8)),
                Store::U16 => u64::from(*(self.ptr as *const u16)),
                Store::U32 => u64::from(*(self.ptr as *const u32)),
                Store::U64 => *(self.ptr as *const u64),
                Store::Wide(_) => {
                    let w = self.ptr as *const u32;
                    u64::from(*w) | (u64::from(*w.add(1)) << 32)
                }
            }
        }
    }

    /// Every bit, as 64-bit words least significant first, into `out` (cleared first).
    fn read_words(&self, out: &mut Vec<u64>) {
        out.clear();
        match self.store {
            Store::Wide(words) => {
                let w = self.ptr as *const u32;
                for k in (0..words).step_by(2) {
                    // SAFETY: `k` (and `k + 1` when below `words`) index the VlWide.
                    let lo = u64::from(unsafe { *w.add(k) });
                    let hi = if k + 1 < words {
                        u64::from(unsafe { *w.add(k + 1) })
                    } else {
                        0
                    };
                    out.push(lo | (hi << 32));
                }
            }
            _ => out.push(self.read()),
        }
    }
}

/// The ports of a freshly created model `h`, in shim index order; deletes the model and
/// fails when the shim lacks one.
fn open_ports(
    h: *mut c_void,
    shapes: &[(&'static str, Dir, u32)],
    what: &str,
) -> Result<Vec<Port>, Error> {
    let mut ports = Vec::with_capacity(shapes.len());
    for (i, &(name, dir, bits)) in shapes.iter().enumerate() {
        // SAFETY: `h` is a live model; the shim returns a pointer into it or null.
        let ptr = unsafe { vsys_port(h, i as u32) };
        if ptr.is_null() {
            // SAFETY: `h` came from vsys_new and is not used again.
            unsafe { vsys_delete(h) };
            return Err(Error::Create(format!(
                "{what}: the shim has no port {name}"
            )));
        }
        ports.push(Port {
            name,
            dir,
            bits,
            store: Store::for_bits(bits),
            ptr,
        });
    }
    Ok(ports)
}

/// Index of a port of a [`Model`] (0 is `clk`, then `spe_defs::ports::ports_of` of its
/// preset in order; [`Model::port_id`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PortId(pub usize);

/// The clock.
pub const CLK: PortId = PortId(0);

/// Every model this build contains.
pub fn models() -> &'static [ModelInfo] {
    MODELS
}

/// The mutants built: each is the fast model of one preset with one deliberate bug in its
/// Verilog (`spe_defs::mutants`, those with `regress_cycles`), so that a regression can show that it catches the bug.
pub fn mutants() -> impl Iterator<Item = &'static ModelInfo> {
    MODELS.iter().filter(|m| m.mutant.is_some())
}

/// A Verilated `spe_top_<preset>` with its own `VerilatedContext`.
pub struct Model {
    h: *mut c_void,
    info: ModelInfo,
    ports: Vec<Port>,
    /// The input ports (`clk` aside) with the index of their lane 0 in
    /// [`Model::set_lanes`]'s values, and the lanes in all.
    lanes: Vec<(&'static str, usize)>,
    lane_count: usize,
    /// The output ports in [`Model::get_outputs`]'s order.
    outputs: Vec<&'static str>,
    tracing: bool,
}

// The model is a plain C++ object owned by this handle: it has its own context and no
// thread affinity between calls, so it may move to another thread.
unsafe impl Send for Model {}

impl Model {
    /// Creates the model of `preset` built as `variant`.
    pub fn new(preset: &str, variant: Variant) -> Result<Model, Error> {
        if let Some(why) = NOT_BUILT {
            return Err(Error::NotBuilt(why));
        }
        let info = *MODELS
            .iter()
            .find(|m| m.preset == preset && m.variant == variant && m.mutant.is_none())
            .ok_or_else(|| Error::NoModel {
                preset: preset.to_string(),
                variant,
            })?;
        Model::create(info)
    }

    /// Creates the mutant `name` (see [`mutants`]).
    pub fn new_mutant(name: &str) -> Result<Model, Error> {
        if let Some(why) = NOT_BUILT {
            return Err(Error::NotBuilt(why));
        }
        let info = *mutants()
            .find(|m| m.mutant == Some(name))
            .ok_or_else(|| Error::NoMutant(name.to_string()))?;
        Model::create(info)
    }

    fn create(info: ModelInfo) -> Result<Model, Error> {
        let (preset, variant) = (info.preset, info.variant);
        let cfg = Config::preset(preset).ok_or_else(|| Error::NoModel {
            preset: preset.to_string(),
            variant,
        })?;
        // SAFETY: `info.id` comes from the table the build script generated with the shim.
        let h = unsafe { vsys_new(info.id) };
        if h.is_null() {
            return Err(Error::Create(format!("{preset} ({variant:?})")));
        }
        let shapes: Vec<(&'static str, Dir, u32)> = std::iter::once(("clk", Dir::In, 1))
            .chain(ports_of(cfg).map(|p| (p.name, p.dir, p.bits_for(cfg))))
            .collect();
        let ports = open_ports(h, &shapes, preset)?;
        let (mut lanes, mut lane_count, mut outputs) = (Vec::new(), 0, Vec::new());
        for p in ports_of(cfg) {
            if p.dir == Dir::Out {
                outputs.push(p.name);
            } else {
                lanes.push((p.name, lane_count));
                lane_count += p.width.lanes_for(cfg.dispatch_width, cfg.threads).0;
            }
        }
        Ok(Model {
            h,
            info,
            ports,
            lanes,
            lane_count,
            outputs,
            tracing: false,
        })
    }

    /// Where input `name`'s lanes start in the values of [`Model::set_lanes`] (a per-slot
    /// port has one lane per slot, a per-thread port one per thread, any other one); `None`
    /// for no input of this model.
    pub fn lane_index(&self, name: &str) -> Option<usize> {
        self.lanes.iter().find(|l| l.0 == name).map(|l| l.1)
    }

    /// The number of values [`Model::set_lanes`] takes.
    pub fn lane_count(&self) -> usize {
        self.lane_count
    }

    /// Writes every input (`clk` aside) from one value per lane, in port order (`v[k]` at
    /// [`Model::lane_index`]), each masked to its lane's bits: one call into the shim,
    /// whose per-model code has every port's type and place as constants.
    #[inline]
    pub fn set_lanes(&mut self, v: &[u64]) {
        assert_eq!(v.len(), self.lane_count, "one value per input lane");
        // SAFETY: live model; `v` holds exactly the lanes the shim reads.
        unsafe { vsys_set_lanes(self.h, v.as_ptr()) }
    }

    /// Where output `name` is in [`Model::get_outputs`]'s values; `None` for no output.
    pub fn output_index(&self, name: &str) -> Option<usize> {
        self.outputs.iter().position(|o| *o == name)
    }

    /// The number of values [`Model::get_outputs`] writes.
    pub fn output_count(&self) -> usize {
        self.outputs.len()
    }

    /// One clock cycle in one call into the shim: [`Model::set_lanes`] with `v`, `clk` low
    /// and [`Model::eval`], [`Model::get_outputs`] into `out`, `clk` high and evaluate (the
    /// rising edge). A trace is not dumped: dump around separate calls instead.
    #[inline]
    pub fn cycle(&mut self, v: &[u64], out: &mut [u64]) {
        assert_eq!(v.len(), self.lane_count, "one value per input lane");
        assert_eq!(out.len(), self.outputs.len(), "one value per output");
        // SAFETY: live model; `v` and `out` hold exactly what the shim reads and writes.
        unsafe { vsys_cycle(self.h, v.as_ptr(), out.as_mut_ptr()) }
    }

    /// Reads the low 64 bits of every output, in port order, in one call into the shim.
    #[inline]
    pub fn get_outputs(&self, out: &mut [u64]) {
        assert_eq!(out.len(), self.outputs.len(), "one value per output");
        // SAFETY: live model; `out` holds exactly the outputs the shim writes.
        unsafe { vsys_get_outputs(self.h, out.as_mut_ptr()) }
    }

    pub fn info(&self) -> ModelInfo {
        self.info
    }

    /// Index of the port `name` of this model (`clk`, or any port of `ports_of` its
    /// preset); `None` for a port its preset does not have.
    pub fn port_id(&self, name: &str) -> Option<PortId> {
        self.ports.iter().position(|p| p.name == name).map(PortId)
    }

    /// Every port, indexed by [`PortId`].
    pub fn ports(&self) -> &[Port] {
        &self.ports
    }

    /// Writes the low 64 bits of input `p` (bits above the port's width are dropped; a wide
    /// port's upper words are cleared).
    #[inline]
    pub fn set(&mut self, p: PortId, v: u64) {
        debug_assert!(
            self.ports[p.0].dir == Dir::In || p == CLK,
            "{} is an output",
            self.ports[p.0].name
        );
        self.ports[p.0].write(v);
    }

    /// The low 64 bits of port `p`.
    #[inline]
    pub fn get(&self, p: PortId) -> u64 {
        self.ports[p.0].read()
    }

    /// Evaluates the model (settles the logic for the current inputs, takes a clock edge if
    /// `clk` rose since the last call).
    #[inline]
    pub fn eval(&mut self) {
        // SAFETY: `h` is live for the lifetime of `self`.
        unsafe { vsys_eval(self.h) }
    }

    /// Starts a VCD of every signal at `path` (a [`Variant::Trace`] model only). Dump with
    /// [`Model::trace_dump`] after each `eval`.
    pub fn trace_open(&mut self, path: &Path) -> Result<(), Error> {
        let c = CString::new(path.as_os_str().as_encoded_bytes())
            .map_err(|_| Error::File(format!("bad path {}", path.display())))?;
        // SAFETY: live model, NUL-terminated path.
        match unsafe { vsys_trace_open(self.h, c.as_ptr()) } {
            0 => {
                self.tracing = true;
                Ok(())
            }
            -1 => Err(Error::WrongVariant {
                wanted: Variant::Trace,
                have: self.info.variant,
            }),
            _ => Err(Error::File(format!(
                "cannot open {} for the VCD trace",
                path.display()
            ))),
        }
    }

    /// Records the current value of every signal at `time` (no-op when no trace is open).
    #[inline]
    pub fn trace_dump(&mut self, time: u64) {
        if self.tracing {
            // SAFETY: live model.
            unsafe { vsys_trace_dump(self.h, time) }
        }
    }

    /// Flushes and closes the trace.
    pub fn trace_close(&mut self) {
        if self.tracing {
            // SAFETY: live model.
            unsafe {
                vsys_trace_flush(self.h);
                vsys_trace_close(self.h);
            }
            self.tracing = false;
        }
    }

    /// Writes the coverage counts collected so far to `path` in Verilator's
    /// `coverage.dat` format (a [`Variant::Coverage`] model only).
    pub fn write_coverage(&mut self, path: &Path) -> Result<(), Error> {
        let c = CString::new(path.as_os_str().as_encoded_bytes())
            .map_err(|_| Error::File(format!("bad path {}", path.display())))?;
        // SAFETY: live model, NUL-terminated path.
        match unsafe { vsys_coverage_write(self.h, c.as_ptr()) } {
            0 => Ok(()),
            _ => Err(Error::WrongVariant {
                wanted: Variant::Coverage,
                have: self.info.variant,
            }),
        }
    }
}

impl Drop for Model {
    fn drop(&mut self) {
        self.trace_close();
        // SAFETY: `h` came from vsys_new and is dropped exactly once.
        unsafe { vsys_delete(self.h) }
    }
}

/// A demo SoC (`gen/soc` around PicoRV32, `gen/soc_vexriscv` and `gen/soc_vexriscv_full`
/// around VexRiscv Lite and Full; top
/// `spe_soc`, the unit at preset `spe_defs::soc::SOC_PRESET`), Verilated with its own
/// context. Ports are
/// `spe_defs::soc::SOC_PORTS`, addressed by [`SocModel::port`].
pub struct SocModel {
    h: *mut c_void,
    ports: Vec<Port>,
}

// As for [`Model`]: a plain C++ object with its own context.
unsafe impl Send for SocModel {}

impl SocModel {
    pub fn new(core: spe_defs::soc::Core) -> Result<SocModel, Error> {
        if let Some(why) = NOT_BUILT {
            return Err(Error::NotBuilt(why));
        }
        let id = SOC_MODELS[core as usize];
        // SAFETY: `SOC_MODELS` comes from the table the build script generated with the shim.
        let h = unsafe { vsys_new(id) };
        if h.is_null() {
            return Err(Error::Create("spe_soc".into()));
        }
        let shapes: Vec<(&'static str, Dir, u32)> = spe_defs::soc::SOC_PORTS
            .iter()
            .map(|p| (p.name, p.dir, p.bits))
            .collect();
        let ports = open_ports(h, &shapes, "spe_soc")?;
        Ok(SocModel { h, ports })
    }

    /// The index of port `name` of `spe_defs::soc::SOC_PORTS`.
    pub fn port(name: &str) -> Option<PortId> {
        spe_defs::soc::SOC_PORTS
            .iter()
            .position(|p| p.name == name)
            .map(PortId)
    }

    /// Writes input `p` (low 64 bits, masked to its width).
    #[inline]
    pub fn set(&mut self, p: PortId, v: u64) {
        debug_assert!(
            self.ports[p.0].dir == Dir::In,
            "{} is an output",
            self.ports[p.0].name
        );
        self.ports[p.0].write(v);
    }

    /// The low 64 bits of port `p`.
    #[inline]
    pub fn get(&self, p: PortId) -> u64 {
        self.ports[p.0].read()
    }

    /// Every bit of port `p` as 64-bit words, least significant first.
    pub fn get_words(&self, p: PortId, out: &mut Vec<u64>) {
        self.ports[p.0].read_words(out);
    }

    /// Settles the logic; takes a clock edge if `clk` rose since the last call.
    #[inline]
    pub fn eval(&mut self) {
        // SAFETY: `h` is live for the lifetime of `self`.
        unsafe { vsys_eval(self.h) }
    }
}

impl Drop for SocModel {
    fn drop(&mut self) {
        // SAFETY: `h` came from vsys_new and is dropped exactly once.
        unsafe { vsys_delete(self.h) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cycle(m: &mut Model) {
        m.set(CLK, 0);
        m.eval();
        m.set(CLK, 1);
        m.eval();
    }

    #[test]
    fn every_preset_and_variant_is_built() {
        for cfg in spe_defs::PRESETS {
            let mut variants = vec![Variant::Fast, Variant::Trace];
            if cfg!(feature = "coverage") {
                variants.push(Variant::Coverage);
            }
            for v in variants {
                let m = Model::new(cfg.name, v).unwrap();
                assert_eq!(m.ports().len(), ports_of(cfg).count() + 1);
                let pc = &m.ports()[m.port_id("disp_pc").unwrap().0];
                assert_eq!(pc.bits, 56 * cfg.dispatch_width as u32);
                let va = &m.ports()[m.port_id("xl_va").unwrap().0];
                assert_eq!(va.bits, 64 * cfg.threads as u32, "one copy per thread");
                for o in spe_defs::ports::OPTION_PORTS {
                    assert_eq!(m.port_id(o.port.name).is_some(), (o.built)(cfg));
                }
                if cfg.threads > 1 {
                    let tid = &m.ports()[m.port_id("wr_tid").unwrap().0];
                    assert_eq!(tid.bits, cfg.threads.trailing_zeros());
                }
            }
        }
        assert!(matches!(
            Model::new("nonesuch", Variant::Fast),
            Err(Error::NoModel { .. })
        ));
    }

    /// Writes PMSIRR through the register port and reads it back: proves the port pointers,
    /// the masking and the clocking all reach the RTL.
    #[test]
    fn register_write_reads_back() {
        use spe_defs::regs::{pmsirr, reg, RegId};
        let mut m = Model::new("default", Variant::Fast).unwrap();
        let (reset, en, we, addr, wdata, rdata) = (
            m.port_id("reset").unwrap(),
            m.port_id("reg_en").unwrap(),
            m.port_id("reg_we").unwrap(),
            m.port_id("reg_addr").unwrap(),
            m.port_id("reg_wdata").unwrap(),
            m.port_id("reg_rdata").unwrap(),
        );
        m.set(reset, 1);
        cycle(&mut m);
        m.set(reset, 0);
        let a = u64::from(reg(RegId::Pmsirr).addr());
        m.set(en, 1);
        m.set(we, 1);
        // Bits above reg_addr's 5 bits must be dropped by the mask.
        m.set(addr, a | 0xffe0);
        let v = pmsirr::INTERVAL.place(0x100);
        m.set(wdata, v);
        cycle(&mut m);
        m.set(we, 0);
        m.eval();
        assert_eq!(m.get(rdata), v);
        // Another context of the same preset is independent.
        let mut m2 = Model::new("default", Variant::Fast).unwrap();
        m2.set(en, 1);
        m2.set(addr, a);
        m2.eval();
        assert_eq!(m2.get(rdata), 0);
    }

    /// The mutant exists, is a different model of its preset, and unknown names fail.
    #[test]
    fn mutants_are_built() {
        let m: Vec<_> = mutants().collect();
        assert!(!m.is_empty());
        for info in m {
            let model = Model::new_mutant(info.mutant.unwrap()).unwrap();
            assert_eq!(model.info().preset, info.preset);
        }
        assert!(matches!(
            Model::new_mutant("nonesuch"),
            Err(Error::NoMutant(_))
        ));
        // The plain model of the preset is not the mutant.
        let plain = Model::new("default", Variant::Fast).unwrap();
        assert_eq!(plain.info().mutant, None);
    }

    /// `set_lanes` puts every lane of every input at its bits (masked to the lane's width),
    /// as writing each port through its pointer would; `get_outputs` reads what `get` does;
    /// `cycle` is the separate calls in one.
    #[test]
    fn lanes_write_every_input_and_outputs_read_back() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for cfg in spe_defs::PRESETS {
            let mut m = Model::new(cfg.name, Variant::Fast).unwrap();
            let mut twin = Model::new(cfg.name, Variant::Fast).unwrap();
            for round in 0..4 {
                let v: Vec<u64> = (0..m.lane_count()).map(|_| next()).collect();
                m.set_lanes(&v);
                let mut words = Vec::new();
                for p in ports_of(cfg).filter(|p| p.dir == Dir::In) {
                    let (lanes, bits) = p.width.lanes_for(cfg.dispatch_width, cfg.threads);
                    let at = m.lane_index(p.name).unwrap();
                    let mut want = vec![0u64; (lanes * bits as usize).div_ceil(64)];
                    for l in 0..lanes {
                        let (val, o) = (v[at + l] & low_mask(bits), l * bits as usize);
                        want[o / 64] |= val << (o % 64);
                        if o % 64 + bits as usize > 64 {
                            want[o / 64 + 1] |= val >> (64 - o % 64);
                        }
                    }
                    let id = m.port_id(p.name).unwrap();
                    m.ports()[id.0].read_words(&mut words);
                    assert_eq!(words, want, "{} of {}, round {round}", p.name, cfg.name);
                }
                cycle(&mut m);
                let mut out = vec![0u64; m.output_count()];
                m.get_outputs(&mut out);
                // `cycle` is the same clock cycle as the separate calls, on a twin model.
                let mut twin_out = vec![0u64; m.output_count()];
                twin.cycle(&v, &mut twin_out);
                twin.get_outputs(&mut twin_out);
                assert_eq!(twin_out, out, "{}: cycle vs separate calls", cfg.name);
                for p in ports_of(cfg).filter(|p| p.dir == Dir::Out) {
                    let id = m.port_id(p.name).unwrap();
                    assert_eq!(
                        out[m.output_index(p.name).unwrap()],
                        m.get(id),
                        "{}",
                        p.name
                    );
                }
            }
        }
    }

    #[test]
    fn wide_ports_pack_words() {
        let mut m = Model::new("wide", Variant::Fast).unwrap();
        let pc = m.port_id("disp_pc").unwrap();
        let mut v = vec![0u64; m.lane_count()];
        let at = m.lane_index("disp_pc").unwrap();
        v[at..at + 8].fill(u64::MAX);
        m.set_lanes(&v);
        // 8 x 56 = 448 bits = 14 words, all ones: the low 64 bits read back as all ones.
        assert_eq!(m.get(pc), u64::MAX);
        m.set(pc, 5);
        assert_eq!(m.get(pc), 5);
    }

    #[test]
    fn trace_needs_the_trace_variant() {
        let dir = std::env::temp_dir().join(format!("vsys-trace-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut fast = Model::new("minimal", Variant::Fast).unwrap();
        assert!(matches!(
            fast.trace_open(&dir.join("x.vcd")),
            Err(Error::WrongVariant { .. })
        ));
        assert!(fast.write_coverage(&dir.join("c.dat")).is_err());
        let mut t = Model::new("minimal", Variant::Trace).unwrap();
        let vcd = dir.join("t.vcd");
        t.trace_open(&vcd).unwrap();
        for k in 0..10 {
            t.set(CLK, 0);
            t.eval();
            t.trace_dump(2 * k);
            t.set(CLK, 1);
            t.eval();
            t.trace_dump(2 * k + 1);
        }
        t.trace_close();
        let text = std::fs::read_to_string(&vcd).unwrap();
        assert!(text.contains("$enddefinitions"), "not a VCD");
        assert!(text.contains(" clk "), "no clk signal in the VCD");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(feature = "coverage")]
    #[test]
    fn coverage_model_writes_counts() {
        let dir = std::env::temp_dir().join(format!("vsys-cov-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut c = Model::new("minimal", Variant::Coverage).unwrap();
        cycle(&mut c);
        let cov = dir.join("c.dat");
        c.write_coverage(&cov).unwrap();
        let text = std::fs::read_to_string(&cov).unwrap();
        assert!(
            text.contains("spe_writer_minimal.v"),
            "coverage names no source"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
