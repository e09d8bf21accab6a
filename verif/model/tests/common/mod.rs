//! Test bench for the golden model: persistent inputs, pulse clearing, register access
//! through the port, and a capture of every accepted memory beat.
#![allow(dead_code)]

use spe_defs::regs::{self, pmblimitr, pmscr, RegId};
use spe_defs::Config;
use spe_model::Model;
use spe_ports::{Inputs, Outputs, Slot};
use std::collections::BTreeMap;

pub const BASE: u64 = 0x10_0000;
pub const SIZE: u64 = 0x10_0000;

pub struct Tb {
    pub m: Model,
    pub cfg: Config,
    pub inp: Inputs,
    pub cycle: u64,
    /// Accepted beats: address → data.
    pub mem: BTreeMap<u64, u64>,
    pub tags: Vec<(u64, usize)>,
    pub collisions: u64,
    pub feeds: u64,
    pub filtrates: u64,
    pub strays: u64,
}

pub fn addr(id: RegId) -> u8 {
    regs::reg(id).addr()
}

impl Tb {
    pub fn new(cfg: &Config) -> Tb {
        // A Linux kernel at EL1 under a hypervisor: EL2 enabled, the buffer EL1's
        // (MDCR_EL2.E2PB = 11), HCR_EL2.{E2H,TGE} = 00.
        let mut inp = Inputs {
            wr_ready: true,
            ..Inputs::default()
        };
        inp.thr[0] = spe_ports::ThreadInputs {
            prof_allowed: true,
            disp_ns: true,
            el2_en: true,
            mdcr_e2pb: 0b11,
            ..Default::default()
        };
        Tb {
            m: Model::new(cfg),
            cfg: *cfg,
            inp,
            cycle: 0,
            mem: BTreeMap::new(),
            tags: vec![],
            collisions: 0,
            feeds: 0,
            filtrates: 0,
            strays: 0,
        }
    }

    /// One cycle with the current inputs; pulses (hooks, register access, dispatch) are
    /// cleared afterwards.
    pub fn step(&mut self) -> Outputs {
        let out = self.m.step(&self.inp);
        if out.tag != 0 {
            assert_eq!(out.tag.count_ones(), 1, "tag must be one-hot");
            self.tags
                .push((self.cycle, out.tag.trailing_zeros() as usize));
        }
        if out.wr_valid && self.inp.wr_ready && !self.inp.wr_err {
            assert!(
                self.mem.insert(out.wr_addr, out.wr_data).is_none(),
                "beat written twice at {:#x}",
                out.wr_addr
            );
        }
        self.collisions += out.thr[0].pmu_sample_collision as u64;
        self.feeds += out.thr[0].pmu_sample_feed as u64;
        self.filtrates += out.thr[0].pmu_sample_filtrate as u64;
        self.strays += out.thr[0].hook_stray as u64;
        self.inp.clear_hooks();
        self.inp.reg_en = false;
        self.inp.reg_we = false;
        self.inp.reset = false;
        for s in self.inp.disp.iter_mut() {
            s.valid = false;
        }
        self.cycle += 1;
        out
    }

    pub fn steps(&mut self, n: u64) {
        for _ in 0..n {
            self.step();
        }
    }

    pub fn write_reg(&mut self, id: RegId, v: u64) {
        self.inp.reg_en = true;
        self.inp.reg_we = true;
        self.inp.reg_addr = addr(id);
        self.inp.reg_wdata = v;
        self.step();
    }

    pub fn read_reg(&mut self, id: RegId) -> u64 {
        self.inp.reg_en = true;
        self.inp.reg_addr = addr(id);
        self.step().reg_rdata
    }

    /// Programs a buffer at BASE of SIZE bytes, interval field `interval`, EL0/EL1 sampling,
    /// plus extra PMSCR_EL1 bits, with PMSCR_EL2 allowing PA and physical timestamps.
    pub fn enable(&mut self, interval: u64, pmscr_extra: u64) {
        self.write_reg(RegId::Pmsirr, interval << 8);
        self.write_reg(RegId::Pmbptr, BASE);
        self.write_reg(RegId::Pmblimitr, (BASE + SIZE) | pmblimitr::E.place(1));
        self.write_reg(
            RegId::PmscrEl2,
            pmscr::PA.place(1) | pmscr::PCT.place(pmscr::PCT_PHYSICAL),
        );
        self.write_reg(
            RegId::PmscrEl1,
            pmscr::E0SPE.place(1) | pmscr::E1SPE.place(1) | pmscr_extra,
        );
    }

    /// Sets slot `i` of the next cycle's dispatch group.
    pub fn op(&mut self, i: usize, pc: u64, class: u8, subclass: u8) {
        self.inp.disp[i] = Slot {
            valid: true,
            pc,
            class,
            subclass,
            cond: false,
            ..Default::default()
        };
    }

    /// Dispatches one op per cycle (slot 0) of the given class until one is tagged;
    /// returns the tag cycle. Panics after `limit` cycles.
    pub fn dispatch_until_tag(&mut self, pc: u64, class: u8, subclass: u8, limit: u64) -> u64 {
        for _ in 0..limit {
            self.op(0, pc, class, subclass);
            let c = self.cycle;
            if self.step().tag != 0 {
                return c;
            }
        }
        panic!("no tag within {limit} cycles");
    }

    /// Sets the counter so the `n`-th population op from now is sampled.
    pub fn sample_after(&mut self, n: u32) {
        self.write_reg(RegId::Pmsicr, u64::from(n));
    }

    /// Bytes of the record slot at `addr` from accepted beats (None if incomplete).
    pub fn record_at(&self, addr: u64) -> Option<Vec<u8>> {
        let mut v = Vec::new();
        for b in 0..self.cfg.record_beats() as u64 {
            v.extend_from_slice(&self.mem.get(&(addr + 8 * b))?.to_le_bytes());
        }
        Some(v)
    }

    pub fn complete(&mut self, retired: bool) {
        self.inp.thr[0].cpl.done = true;
        self.inp.thr[0].cpl.retired = retired;
        self.step();
    }
}

/// Tiny seeded PRNG (splitmix64) for the random tests.
pub struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    pub fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 > 1.0 - p
    }
}

/// Seed for a random test: `SPE_MODEL_SEED` replays one; otherwise a fixed default (CI is
/// reproducible) mixed with the test name. Prints the replay command.
pub fn seed(test: &str) -> u64 {
    let s = match std::env::var("SPE_MODEL_SEED") {
        Ok(v) => v.parse().expect("SPE_MODEL_SEED must be an integer"),
        Err(_) => test.bytes().fold(0xC0FFEE_u64, |h, b| {
            h.wrapping_mul(31).wrapping_add(u64::from(b))
        }),
    };
    eprintln!(
        "seed={s} replay: SPE_MODEL_SEED={s} cargo test -p spe-model --test {} -- {test}",
        env!("CARGO_CRATE_NAME")
    );
    s
}
