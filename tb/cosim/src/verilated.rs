//! The Verilated RTL (`gen/`, through `verilator-sys`) behind the model's [`Dut`] trait.
//!
//! One `step` = write every input, `clk` low and evaluate (the comb outputs settle and are
//! read), then `clk` high and evaluate (the rising edge). A [`Variant::Trace`] model can dump
//! a window of cycles to a VCD of every internal signal: cycle `c` is dumped at times `2c`
//! (clock low, outputs as read) and `2c + 1` (after the edge).

use spe_defs::config::MAX_DISPATCH_WIDTH;
use spe_defs::Config;
use spe_model::{Dut, Inputs, Outputs, Slot};
use std::path::{Path, PathBuf};
use verilator_sys::{port_id, Model, PortId, Variant, CLK};

/// Bits of one `disp_pc` slot.
const PC_BITS: u32 = 56;

macro_rules! ports {
    ($($f:ident),* $(,)?) => {
        /// Port ids of every input and output, resolved once by name.
        struct Ids { $($f: PortId,)* }
        impl Ids {
            fn new() -> Ids {
                Ids { $($f: port_id(stringify!($f)).expect(concat!("no port ", stringify!($f))),)* }
            }
        }
    };
}

ports!(
    reset,
    disp_valid,
    disp_pc,
    disp_class,
    disp_subclass,
    disp_cond,
    disp_el,
    disp_ns,
    disp_host,
    disp_aarch32,
    prof_allowed,
    tag,
    iss_valid,
    xl_start,
    xl_va,
    xl_done,
    xl_pa,
    xl_tlb_access,
    xl_tlb_walk,
    mem_done,
    mem_source,
    mem_l1d_access,
    mem_l1d_refill,
    mem_llc_access,
    mem_llc_miss,
    mem_remote,
    mem_misaligned,
    br_done,
    br_target,
    br_taken,
    br_mispred,
    br_indirect,
    cpl_done,
    cpl_retired,
    cpl_exception,
    cpl_cond_fail,
    hook_stray,
    ctx_el1,
    ctx_el2,
    cnt_virt,
    cnt_phys,
    reg_en,
    reg_we,
    reg_addr,
    reg_wdata,
    reg_rdata,
    wr_valid,
    wr_addr,
    wr_data,
    wr_strb,
    wr_ready,
    wr_err,
    irq,
    pmu_sample_pop,
    pmu_sample_feed,
    pmu_sample_filtrate,
    pmu_sample_collision,
);

/// Any unsigned field or flag as u64.
fn u(x: impl Into<u64>) -> u64 {
    x.into()
}

/// Packs one field per slot (`bits` each, slot 0 lowest) into 64-bit words.
fn pack(slots: &[Slot], bits: u32, f: impl Fn(&Slot) -> u64) -> [u64; MAX_DISPATCH_WIDTH] {
    let mut w = [0u64; MAX_DISPATCH_WIDTH];
    let m = spe_defs::low_mask(bits);
    for (i, s) in slots.iter().enumerate() {
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
    cycle: u64,
    window: Option<Window>,
}

impl Verilated {
    /// The Verilated RTL of `cfg`, built as `variant`.
    pub fn new(cfg: &Config, variant: Variant) -> Result<Verilated, String> {
        cfg.validate()?;
        let m = Model::new(cfg.name, variant).map_err(|e| e.to_string())?;
        Ok(Verilated {
            m,
            ids: Ids::new(),
            width: cfg.dispatch_width,
            cycle: 0,
            window: None,
        })
    }

    /// The mutant `name` (one deliberate bug in one preset's Verilog, see
    /// `verilator_sys::mutants`), and the preset it is a copy of.
    pub fn mutant(name: &str) -> Result<(Verilated, &'static Config), String> {
        let m = Model::new_mutant(name).map_err(|e| e.to_string())?;
        let cfg = Config::preset(m.info().preset)
            .ok_or_else(|| format!("mutant {name}: unknown preset {}", m.info().preset))?;
        Ok((
            Verilated {
                m,
                ids: Ids::new(),
                width: cfg.dispatch_width,
                cycle: 0,
                window: None,
            },
            cfg,
        ))
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
        m.set_words(p.disp_valid, &pack(slots, 1, |s| u64::from(s.valid)));
        m.set_words(p.disp_pc, &pack(slots, PC_BITS, |s| s.pc));
        m.set_words(p.disp_class, &pack(slots, 2, |s| u64::from(s.class)));
        m.set_words(p.disp_subclass, &pack(slots, 8, |s| u64::from(s.subclass)));
        m.set_words(p.disp_cond, &pack(slots, 1, |s| u64::from(s.cond)));
        for (id, v) in [
            (p.reset, u(i.reset)),
            (p.disp_el, u(i.disp_el)),
            (p.disp_ns, u(i.disp_ns)),
            (p.disp_host, u(i.disp_host)),
            (p.disp_aarch32, u(i.disp_aarch32)),
            (p.prof_allowed, u(i.prof_allowed)),
            (p.iss_valid, u(i.iss_valid)),
            (p.xl_start, u(i.xl_start)),
            (p.xl_va, i.xl_va),
            (p.xl_done, u(i.xl_done)),
            (p.xl_pa, i.xl_pa),
            (p.xl_tlb_access, u(i.xl_tlb_access)),
            (p.xl_tlb_walk, u(i.xl_tlb_walk)),
            (p.mem_done, u(i.mem_done)),
            (p.mem_source, u(i.mem_source)),
            (p.mem_l1d_access, u(i.mem_l1d_access)),
            (p.mem_l1d_refill, u(i.mem_l1d_refill)),
            (p.mem_llc_access, u(i.mem_llc_access)),
            (p.mem_llc_miss, u(i.mem_llc_miss)),
            (p.mem_remote, u(i.mem_remote)),
            (p.mem_misaligned, u(i.mem_misaligned)),
            (p.br_done, u(i.br_done)),
            (p.br_target, i.br_target),
            (p.br_taken, u(i.br_taken)),
            (p.br_mispred, u(i.br_mispred)),
            (p.br_indirect, u(i.br_indirect)),
            (p.cpl_done, u(i.cpl_done)),
            (p.cpl_retired, u(i.cpl_retired)),
            (p.cpl_exception, u(i.cpl_exception)),
            (p.cpl_cond_fail, u(i.cpl_cond_fail)),
            (p.ctx_el1, u(i.ctx_el1)),
            (p.ctx_el2, u(i.ctx_el2)),
            (p.cnt_virt, i.cnt_virt),
            (p.cnt_phys, i.cnt_phys),
            (p.reg_en, u(i.reg_en)),
            (p.reg_we, u(i.reg_we)),
            (p.reg_addr, u(i.reg_addr)),
            (p.reg_wdata, i.reg_wdata),
            (p.wr_ready, u(i.wr_ready)),
            (p.wr_err, u(i.wr_err)),
        ] {
            m.set(id, v);
        }
    }

    fn read_outputs(&self) -> Outputs {
        let (m, p) = (&self.m, &self.ids);
        Outputs {
            tag: m.get(p.tag) as u8,
            hook_stray: m.get(p.hook_stray) != 0,
            reg_rdata: m.get(p.reg_rdata),
            wr_valid: m.get(p.wr_valid) != 0,
            wr_addr: m.get(p.wr_addr),
            wr_data: m.get(p.wr_data),
            wr_strb: m.get(p.wr_strb) as u8,
            irq: m.get(p.irq) != 0,
            pmu_sample_pop: m.get(p.pmu_sample_pop) as u8,
            pmu_sample_feed: m.get(p.pmu_sample_feed) != 0,
            pmu_sample_filtrate: m.get(p.pmu_sample_filtrate) != 0,
            pmu_sample_collision: m.get(p.pmu_sample_collision) != 0,
        }
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

impl Drop for Verilated {
    fn drop(&mut self) {
        self.m.trace_close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
