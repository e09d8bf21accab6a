//! Timing diagrams of the unit's ports drawn from real simulation (`spe diagrams`): each
//! situation an integrator must get right is driven cycle by cycle through the golden model
//! and the Verilated RTL in lockstep (so the picture is what the Verilog does), recorded,
//! and written as WaveJSON (WaveDrom's format) for the cycles around it. The JSON files live
//! in `docs/timing/` with a page that shows them ([`markdown`], `docs/timing/README.md`); a
//! test regenerates them and fails on drift; `scripts/diagrams.sh` renders them to SVG with
//! the `yowasp-wavedrom` package.

use crate::{lockstep::Lockstep, make_dut, Backend};
use spe_defs::packet::op_class;
use spe_defs::ports::Width;
use spe_defs::regs::{mdcr_pmsee, pmblimitr, pmbmar, pmbsr, pmscr, pmsicr, pmsirr, reg, RegId};
use spe_defs::Config;
use spe_ports::{Dut, Inputs, Outputs};
use std::fmt::Write as _;

/// One recorded cycle.
#[derive(Clone, Debug)]
struct Cycle {
    inp: Inputs,
    out: Outputs,
}

/// A signal of a diagram: a port (an input or an output of `all_ports`) or one slot of a
/// per-slot input, whole or its low bits (a 64-bit address or data word would not fit a
/// cycle).
#[derive(Clone, Copy, Debug)]
struct Sig {
    port: &'static str,
    slot: Option<usize>,
    low: Option<u32>,
}

/// Port `port`, whole.
fn port(port: &'static str) -> Sig {
    Sig {
        port,
        slot: None,
        low: None,
    }
}

/// Slot `k` of the per-slot input `port`.
fn slot(port: &'static str, k: usize) -> Sig {
    Sig {
        slot: Some(k),
        ..self::port(port)
    }
}

impl Sig {
    /// The signal's low `bits` bits only.
    fn low(self, bits: u32) -> Sig {
        Sig {
            low: Some(bits),
            ..self
        }
    }

    fn name(&self) -> String {
        let mut n = self.port.to_string();
        if let Some(k) = self.slot {
            n += &format!("[{k}]");
        }
        if let Some(b) = self.low {
            n += &format!("[{}:0]", b - 1);
        }
        n
    }

    /// The signal's value in cycle `c` and whether it is drawn as one bit.
    fn value(&self, c: &Cycle, w: usize) -> (u64, bool) {
        let n = self.port;
        let p = spe_defs::ports::all_ports()
            .find(|p| p.name == n)
            .unwrap_or_else(|| panic!("no port {n}"));
        let (v, bits) = if let Some(k) = self.slot {
            (c.inp.lane(n, k).expect("a per-slot input"), p.width.bits())
        } else if let Some(f) = c.out.fields().iter().find(|f| f.0 == n) {
            (f.1, p.width.total(w))
        } else if let Width::PerSlot(1) = p.width {
            // A one-bit per-slot input as one W-bit bus.
            let v = (0..w).fold(0, |a, k| a | (c.inp.lane(n, k).unwrap_or(0) & 1) << k);
            (v, p.width.total(w))
        } else {
            // Thread 0's copy of a per-thread input, or a shared one.
            (c.inp.lane(n, 0).expect("an input"), p.width.total(w))
        };
        match self.low {
            Some(b) => (v & spe_defs::low_mask(b), false),
            None => (v, bits == 1),
        }
    }
}

/// One diagram: its file name, what it shows, and its signals in groups.
pub struct Diagram {
    pub name: &'static str,
    pub title: &'static str,
    /// What to read in it (docs/timing.md, under the picture).
    pub note: String,
    groups: Vec<(&'static str, Vec<Sig>)>,
    cycles: Vec<Cycle>,
    width: usize,
    /// The run's cycle number of the first cycle drawn.
    first: u64,
    /// Horizontal scale (2 where hex values need the room).
    hscale: u32,
    /// The preset the run simulated.
    preset: &'static str,
}

impl Diagram {
    /// The diagram as WaveJSON, one signal per line (stable text: the drift check compares
    /// it byte for byte).
    pub fn wavejson(&self) -> String {
        let n = self.cycles.len();
        let mut s = String::from("{\"signal\": [\n");
        write!(
            s,
            "  {{\"name\": \"clk\", \"wave\": \"p{}\"}}",
            ".".repeat(n - 1)
        )
        .unwrap();
        for (g, sigs) in &self.groups {
            s.push_str(",\n  {},\n");
            write!(s, "  [\"{g}\"").unwrap();
            for sig in sigs {
                let mut wave = String::new();
                let mut data: Vec<String> = Vec::new();
                let mut last = None;
                for c in &self.cycles {
                    let (v, one) = sig.value(c, self.width);
                    if last == Some(v) {
                        wave.push('.');
                    } else if one {
                        wave.push(if v != 0 { '1' } else { '0' });
                    } else {
                        wave.push('=');
                        data.push(format!("{v:x}"));
                    }
                    last = Some(v);
                }
                write!(
                    s,
                    ",\n    {{\"name\": \"{}\", \"wave\": \"{wave}\"",
                    sig.name()
                )
                .unwrap();
                if !data.is_empty() {
                    let d: Vec<String> = data.iter().map(|x| format!("\"{x}\"")).collect();
                    write!(s, ", \"data\": [{}]", d.join(", ")).unwrap();
                }
                s.push('}');
            }
            s.push(']');
        }
        write!(
            s,
            "\n],\n \"head\": {{\"text\": \"{}\", \"tick\": 0}},\n \"foot\": {{\"text\": \"lockstep run, preset {}; cycle 0 = cycle {} of the run; values in hex\"}},\n \"config\": {{\"hscale\": {}}}\n}}\n",
            self.title, self.preset, self.first, self.hscale
        )
        .unwrap();
        s
    }
}

/// docs/timing.md: every diagram's picture and what to read in it.
pub fn markdown(diagrams: &[Diagram]) -> String {
    let mut s = String::from(
        "# Timing diagrams of the unit's ports\n\n\
         Drawn from simulation, not by hand: `spe diagrams` drives each situation cycle by \
         cycle through the golden model and the Verilated RTL in lockstep (preset `fastsim`, \
         W = 2, or the one a diagram's title names) and writes the cycles around it as WaveJSON; `scripts/diagrams.sh` renders \
         the SVGs with WaveDrom (`yowasp-wavedrom`). A test fails when a JSON file here \
         differs from a fresh run, so the pictures follow the RTL.\n\n\
         Conventions: one column per clock cycle; every input is sampled at the rising edge \
         that ends its column; a combinational output (`tag`, `hook_stray`, `reg_rdata`, \
         `pmu_sample_pop`, `pmu_sample_collision`, `psb_done`, `exc_el*`) answers the inputs of its own \
         column, a registered one (`wr_*`, `irq`, `pmu_sample_feed`, `pmu_sample_filtrate`) \
         the state at its start. Values are hex; wide buses show their low bits (the name \
         says which). The rules are in the port table and the hook protocol of \
         [gen/spe_tables.md](../../gen/spe_tables.md).\n",
    );
    for d in diagrams {
        s.push_str(&format!(
            "\n## {}\n\n![{}]({}.svg)\n\n{}.\n",
            d.title, d.title, d.name, d.note
        ));
    }
    s
}

/// The directed bench: the model and the Verilated RTL in lockstep, every cycle recorded.
struct Scene {
    dut: Lockstep,
    cfg: &'static Config,
    inp: Inputs,
    rec: Vec<Cycle>,
    pc: u64,
}

const BASE: u64 = 0xffff_8000_4000_0000;

impl Scene {
    /// The unit of `cfg` after reset, programmed as Linux does for EL0 and EL1 sampling into
    /// a buffer at `BASE` of `size` bytes from `ptr`, the interval counter at `count`.
    fn new(cfg: &'static Config, size: u64, ptr: u64, count: u64) -> Result<Scene, String> {
        let mut t = Scene {
            dut: Lockstep::new(cfg, make_dut(cfg, Backend::Verilator)?),
            cfg,
            inp: Inputs::default(),
            rec: Vec::new(),
            pc: 0xffff_0000_0010_0000,
        };
        let x = &mut t.inp.thr[0];
        x.disp_el = 1;
        x.disp_ns = true;
        x.prof_allowed = true;
        t.inp.wr_ready = true;
        t.inp.reset = true;
        t.steps(2);
        t.write(RegId::Pmbptr, ptr);
        t.write(
            RegId::Pmblimitr,
            pmblimitr::LIMIT.place((BASE + size) >> pmblimitr::LIMIT.lsb) | pmblimitr::E.place(1),
        );
        let interval = u64::from(cfg.min_interval());
        t.write(
            RegId::Pmsirr,
            pmsirr::INTERVAL.place(interval >> pmsirr::INTERVAL.lsb),
        );
        t.write(RegId::Pmsicr, pmsicr::COUNT.place(count));
        t.write(
            RegId::PmscrEl1,
            pmscr::E0SPE.place(1) | pmscr::E1SPE.place(1),
        );
        Ok(t)
    }

    /// One cycle with the current inputs; then the pulses (dispatch, hooks, register port,
    /// reset) are cleared.
    fn step(&mut self) -> Outputs {
        let out = self.dut.step(&self.inp);
        self.rec.push(Cycle {
            inp: self.inp.clone(),
            out: out.clone(),
        });
        // A report's data are drawn only in its cycle: zero outside it.
        let x = &mut self.inp.thr[0];
        x.iss_valid = false;
        x.xl = Default::default();
        x.mem = Default::default();
        x.br = Default::default();
        x.cpl = Default::default();
        self.inp.reg_en = false;
        self.inp.reg_we = false;
        self.inp.reg_addr = 0;
        self.inp.reg_wdata = 0;
        self.inp.reset = false;
        for s in &mut self.inp.disp {
            *s = Default::default();
        }
        out
    }

    fn steps(&mut self, n: usize) {
        for _ in 0..n {
            self.step();
        }
    }

    /// Completes the sampled op (retired) in the next cycle.
    fn complete(&mut self) {
        let c = &mut self.inp.thr[0].cpl;
        c.done = true;
        c.retired = true;
    }

    fn write(&mut self, id: RegId, v: u64) {
        self.inp.reg_en = true;
        self.inp.reg_we = true;
        self.inp.reg_addr = reg(id).addr();
        self.inp.reg_wdata = v;
        self.step();
    }

    /// Dispatches `n` ops of `class` in this cycle's slots 0..n.
    fn dispatch(&mut self, n: usize, class: u8) {
        for s in &mut self.inp.disp[..n] {
            s.valid = true;
            s.pc = self.pc;
            s.class = class;
            self.pc += 4;
        }
    }

    /// Dispatches a full group of `class` every cycle until one is tagged; returns the
    /// tag's cycle.
    fn until_tag(&mut self, class: u8) -> u64 {
        for _ in 0..10_000 {
            self.dispatch(self.cfg.dispatch_width, class);
            if self.step().tag != 0 {
                return self.rec.len() as u64 - 1;
            }
        }
        panic!("no tag in 10000 cycles");
    }

    /// A sampled op completes and its record goes out (filling the buffer when PMBPTR is
    /// one record below the limit); then software clears PMBSR. Returns the cycles of the
    /// record's last beat and of the clearing write.
    fn fill_and_clear(&mut self) -> (u64, u64) {
        self.until_tag(op_class::OTHER);
        self.complete();
        self.step();
        let mut last_beat = 0;
        for _ in 0..16 {
            if self.step().wr_valid {
                last_beat = self.rec.len() as u64 - 1;
            }
        }
        self.step();
        self.write(RegId::Pmbsr, 0);
        let cleared = self.rec.len() as u64 - 1;
        self.steps(2);
        (last_beat, cleared)
    }

    /// The diagram of cycles `from..to` of the recording; fails if model and RTL ever
    /// differed.
    fn diagram(
        mut self,
        name: &'static str,
        title: &'static str,
        note: String,
        (from, to): (u64, u64),
        groups: Vec<(&'static str, Vec<Sig>)>,
    ) -> Result<Diagram, String> {
        if let Some(d) = self.dut.verdict().err() {
            return Err(format!("diagram {name}: {d}"));
        }
        let cycles = self.rec[from as usize..to as usize].to_vec();
        Ok(Diagram {
            name,
            title,
            note,
            groups,
            cycles,
            width: self.cfg.dispatch_width,
            first: from,
            hscale: 1,
            preset: self.cfg.name,
        })
    }
}

/// Every diagram, in the order of the docs, from lockstep runs of preset `fastsim`
/// (W = 2), and of `v1p5` for its options' ports.
pub fn all() -> Result<Vec<Diagram>, String> {
    let cfg = Config::preset("fastsim").expect("preset fastsim");
    let note = |what: &str| what.to_string();
    let mut out = Vec::new();

    // Dispatch and tag: the interval counter at 5, two ops a cycle, one cycle with one.
    let mut t = Scene::new(cfg, 0x1000, BASE, 5)?;
    let start = t.rec.len() as u64;
    t.dispatch(2, op_class::OTHER);
    t.step();
    t.dispatch(1, op_class::OTHER);
    t.step();
    let tag = t.until_tag(op_class::OTHER);
    t.complete();
    t.dispatch(2, op_class::OTHER);
    t.step();
    t.dispatch(2, op_class::OTHER);
    t.step();
    out.push(t.diagram(
        "dispatch-and-tag",
        "Dispatch and tag",
        note("PMSICR.COUNT = 5 before the first group: the 5th population op (slot 1 of the third group) is tagged; a selection while a sample is in flight would pulse pmu_sample_collision instead"),
        (start - 1, tag + 3),
        vec![
            ("dispatch", vec![port("disp_valid"), slot("disp_pc", 0).low(16), slot("disp_pc", 1).low(16)]),
            ("unit", vec![port("pmu_sample_pop"), port("tag"), port("pmu_sample_collision")]),
            ("completion", vec![port("cpl_done")]),
        ],
    )?);
    out.last_mut().expect("just pushed").hscale = 2;

    // A load's hooks: issue, translation start and done, memory, completion; a repeated
    // issue report is stray; then the filter cycle and the first beat.
    let mut t = Scene::new(cfg, 0x1000, BASE, 3)?;
    let tag = t.until_tag(op_class::LD_ST_ATOMIC);
    fn x(t: &mut Scene) -> &mut spe_ports::ThreadInputs {
        &mut t.inp.thr[0]
    }
    x(&mut t).iss_valid = true;
    t.step();
    x(&mut t).xl.start = true;
    x(&mut t).xl.va = 0x0000_7fff_1234_5678;
    t.step();
    x(&mut t).iss_valid = true; // a second issue report: ignored, hook_stray
    t.step();
    x(&mut t).xl.done = true;
    x(&mut t).xl.pa = 0x0000_0008_8123_4678;
    x(&mut t).xl.tlb_access = true;
    t.steps(2);
    x(&mut t).mem.done = true;
    x(&mut t).mem.source = 0b1000_0000 | 0x0b;
    x(&mut t).mem.l1d_access = true;
    t.step();
    x(&mut t).cpl.done = true;
    x(&mut t).cpl.retired = true;
    t.step();
    t.steps(4);
    out.push(t.diagram(
        "load-hooks",
        "A sampled load's hook reports",
        note("The second iss_valid is a repeat: ignored, hook_stray pulses in its cycle; after cpl_done the filter cycle (feed, filtrate), the check cycle, then the record's first beat"),
        (tag - 1, tag + 12),
        vec![
            ("unit", vec![port("tag"), port("hook_stray")]),
            ("issue", vec![port("iss_valid")]),
            ("translation", vec![port("xl_start"), port("xl_va"), port("xl_done"), port("xl_pa"), port("xl_tlb_access")]),
            ("memory", vec![port("mem_done"), port("mem_source"), port("mem_l1d_access")]),
            ("completion", vec![port("cpl_done"), port("cpl_retired")]),
            ("record", vec![port("pmu_sample_feed"), port("pmu_sample_filtrate"), port("wr_valid")]),
        ],
    )?);

    // A branch's report and completion in the same cycle.
    let mut t = Scene::new(cfg, 0x1000, BASE, 3)?;
    let tag = t.until_tag(op_class::BRANCH);
    t.steps(2);
    let b = &mut t.inp.thr[0];
    b.br.done = true;
    b.br.target = 0xffff_0000_0020_0040;
    b.br.target_el = 1;
    b.br.taken = true;
    b.br.mispred = true;
    b.cpl.done = true;
    b.cpl.retired = true;
    t.steps(3);
    out.push(t.diagram(
        "branch-hook",
        "A sampled branch's report, with its completion",
        note("The branch report's br_target, br_taken and br_mispred are read in the br_done cycle, cpl_retired in the cpl_done cycle; both in one cycle is allowed"),
        (tag - 1, tag + 6),
        vec![
            ("unit", vec![port("tag"), port("hook_stray")]),
            ("branch", vec![port("br_done"), port("br_target"), port("br_taken"), port("br_mispred")]),
            ("completion", vec![port("cpl_done"), port("cpl_retired")]),
            ("record", vec![port("pmu_sample_feed")]),
        ],
    )?);

    // A record's eight beats under backpressure.
    let mut t = Scene::new(cfg, 0x1000, BASE, 3)?;
    t.until_tag(op_class::OTHER);
    t.complete();
    let cpl = t.rec.len() as u64;
    t.step();
    let ready = [1, 1, 0, 1, 0, 0, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1];
    for r in ready {
        t.inp.wr_ready = r == 1;
        t.step();
    }
    t.inp.wr_ready = true;
    t.step();
    out.push(t.diagram(
        "record-beats",
        "A record's eight beats under backpressure",
        note("The memory drives wr_ready; a beat is taken in a cycle with wr_valid and wr_ready high, and stays offered, unchanged, until then; wr_addr steps by 8 from the record's 64-byte slot at PMBPTR; the first beat comes two cycles after the filter cycle"),
        (cpl - 1, cpl + ready.len() as u64 + 2),
        vec![
            ("completion", vec![port("cpl_done")]),
            ("unit", vec![port("pmu_sample_feed"), port("pmu_sample_filtrate")]),
            ("write port", vec![port("wr_valid"), port("wr_ready"), port("wr_addr").low(12), port("wr_data").low(16), port("wr_strb")]),
        ],
    )?);
    out.last_mut().expect("just pushed").hscale = 2;

    // Buffer full: the last record that fits, the management event, PMBIRQ, software
    // clearing PMBSR.
    let mut t = Scene::new(cfg, 0x1000, BASE + 0x1000 - 0x40, 3)?;
    let (last_beat, cleared) = t.fill_and_clear();
    out.push(t.diagram(
        "buffer-full-irq",
        "Buffer full and the interrupt",
        note(&format!(
            "PMBPTR 64 bytes below the limit; the write of PMBSR (address {:#x}) = 0 drops irq in the next cycle; PMBSR.S = bit {}",
            reg(RegId::Pmbsr).addr(),
            pmbsr::S.lsb
        )),
        (last_beat - 9, cleared + 3),
        vec![
            ("write port", vec![port("wr_valid"), port("wr_ready"), port("wr_addr").low(12)]),
            ("interrupt", vec![port("irq")]),
            ("register port", vec![port("reg_en"), port("reg_we"), port("reg_addr"), port("reg_wdata")]),
        ],
    )?);

    // Register port: a write, a read of it (same-cycle data), a read of PMSIDR.
    let mut t = Scene::new(cfg, 0x1000, BASE, 1000)?;
    let from = t.rec.len() as u64;
    t.step();
    t.write(RegId::Pmsevfr, 0x0000_0000_0000_0022);
    for id in [RegId::Pmsevfr, RegId::Pmsidr] {
        t.inp.reg_en = true;
        t.inp.reg_addr = reg(id).addr();
        t.step();
    }
    t.step();
    out.push(t.diagram(
        "register-access",
        "A register write and reads",
        note(&format!(
            "PMSEVFR_EL1 (address {:#x}) written then read back; PMSIDR_EL1 (address {:#x}) read",
            reg(RegId::Pmsevfr).addr(),
            reg(RegId::Pmsidr).addr()
        )),
        (from, from + 5),
        vec![(
            "register port",
            vec![
                port("reg_en"),
                port("reg_we"),
                port("reg_addr"),
                port("reg_wdata"),
                port("reg_rdata"),
            ],
        )],
    )?);

    // PSB CSYNC while a record is being written under backpressure.
    let mut t = Scene::new(cfg, 0x1000, BASE, 3)?;
    t.until_tag(op_class::OTHER);
    t.complete();
    t.steps(2);
    let from = t.rec.len() as u64;
    t.inp.thr[0].psb_req = true;
    t.inp.wr_ready = false;
    t.steps(3);
    t.inp.wr_ready = true;
    let mut done = 0;
    for _ in 0..16 {
        if t.step().thr[0].psb_done {
            done = t.rec.len() as u64 - 1;
            break;
        }
    }
    t.inp.thr[0].psb_req = false;
    t.steps(2);
    out.push(t.diagram(
        "psb",
        "PSB CSYNC during a record",
        note("The core holds psb_req until psb_done; psb_done (combinational) waits for the last beat of the record in flight; a sample still tracked when psb_req rises is dropped instead"),
        (from - 1, done + 3),
        vec![
            ("synchronization", vec![port("psb_req"), port("psb_done")]),
            ("write port", vec![port("wr_valid"), port("wr_ready")]),
        ],
    )?);

    // FEAT_SPE_nVM (preset v1p5): under an EL1 owner with EL2 enabled, PMBLIMITR.nVM and
    // PMSCR_EL2.EnVM set, the buffer pointer is an IPA: each beat says so, with PMBMAR's
    // shareability and attributes.
    let v1p5 = Config::preset("v1p5").expect("preset v1p5");
    let mut t = Scene::new(v1p5, 0x1000, BASE, 3)?;
    t.inp.thr[0].el2_en = true;
    t.inp.thr[0].mdcr_e2pb = 0b11;
    let mar = pmbmar::SH.place(0b11) | pmbmar::ATTR.place(0xff);
    t.write(RegId::Pmbmar, mar);
    t.write(RegId::PmscrEl2, pmscr::ENVM.place(1));
    t.write(
        RegId::Pmblimitr,
        pmblimitr::LIMIT.place((BASE + 0x1000) >> pmblimitr::LIMIT.lsb)
            | pmblimitr::E.place(1)
            | pmblimitr::NVM.place(1),
    );
    t.until_tag(op_class::OTHER);
    t.complete();
    let cpl = t.rec.len() as u64;
    t.steps(12);
    out.push(t.diagram(
        "nvm-address-space",
        "v1p5 (FEAT_SPE_nVM): a record written by IPA",
        note(&format!(
            "PMBLIMITR_EL1.nVM and PMSCR_EL2.EnVM set, EL2 enabled and EL1 owning the buffer (mdcr_e2pb = 11): every beat's wr_addr_space is {:02b} (an IPA; {:02b} a VA, {:02b} a PA, under an EL2 owner), wr_mem_attr PMBMAR_EL1's SH and Attr (here Inner Shareable, Write-Back), both held with wr_addr while wr_valid is high",
            pmbmar::SPACE_IPA,
            pmbmar::SPACE_VA,
            pmbmar::SPACE_PA
        )),
        (cpl - 1, cpl + 12),
        vec![
            ("completion", vec![port("cpl_done")]),
            ("write port", vec![port("wr_valid"), port("wr_ready"), port("wr_addr").low(12), port("wr_addr_space"), port("wr_mem_attr")]),
        ],
    )?);
    out.last_mut().expect("just pushed").hscale = 2;

    // FEAT_SPE_EXC (preset v1p5): buffer full reported as an SPE Profiling exception to
    // EL1 instead of PMBIRQ.
    let mut t = Scene::new(v1p5, 0x1000, BASE + 0x1000 - 0x40, 3)?;
    t.inp.thr[0].mdcr_pmsee = mdcr_pmsee::DELEGATED;
    t.write(
        RegId::PmscrEl1,
        pmscr::E0SPE.place(1) | pmscr::E1SPE.place(1) | pmscr::EE.place(0b11),
    );
    let (last_beat, cleared) = t.fill_and_clear();
    out.push(t.diagram(
        "exc-buffer-full",
        "v1p5 (FEAT_SPE_EXC): buffer full as an exception to EL1",
        note(&format!(
            "MDCR_EL3.PMSEE = {:02b} (mdcr_pmsee: delegated) and PMSCR_EL1.EE = 11: the buffer-full event sets PMBSR_EL1.S and raises exc_el1, a level like irq, which stays low; writing PMBSR_EL1 (address {:#x}) = 0 drops exc_el1 in the next cycle. exc_el2 and exc_el3 rise instead when J1 ReportSPEEvent routes an event to those ELs",
            mdcr_pmsee::DELEGATED,
            reg(RegId::Pmbsr).addr()
        )),
        (last_beat - 9, cleared + 3),
        vec![
            ("write port", vec![port("wr_valid"), port("wr_ready"), port("wr_addr").low(12)]),
            ("exception and interrupt", vec![port("irq"), port("exc_el1"), port("exc_el2"), port("exc_el3")]),
            ("register port", vec![port("reg_en"), port("reg_we"), port("reg_addr"), port("reg_wdata")]),
        ],
    )?);
    Ok(out)
}
