//! The RTL of `hdl/rtl` under rust-hdl's own simulator, behind the [`Dut`] trait of
//! `spe-ports` ([`RtlSim`], [`rtl_sim`]): exact but slow (about 11k cycles/s), for short
//! runs and block-level checks. The lockstep checker and the fast Verilated backend are in
//! `spe-cosim`.
//!
//! The ports of the rust-hdl top are fields named like the ports of `spe_defs` and the
//! fields of `spe_ports::Inputs` / `Outputs`, so the mapping is generated from the name
//! lists of `spe-ports` ([`spe_ports::for_scalar_inputs!`], [`spe_ports::for_slot_inputs!`],
//! [`spe_ports::for_thread_inputs!`], [`spe_ports::for_outputs!`]): a new port needs no change here.

use rust_hdl::prelude::*;
use spe_defs::Config;
use spe_ports::{slot_bits, Dut, Inputs, Outputs};
use spe_rtl::sim;
use spe_rtl::top::SpeTop;

/// Bits<N> from the low N bits of `v`.
fn b<const N: usize>(v: u64) -> Bits<N> {
    let m = spe_defs::low_mask(N.min(64) as u32);
    Bits::<N>::from(v & m)
}

/// An input port of the top, driven from a `u64` port value.
trait Drive {
    /// Sets the port to the low bits of `v`.
    fn drive(&mut self, v: u64);
}

impl Drive for Signal<In, Bit> {
    fn drive(&mut self, v: u64) {
        self.next = v != 0;
    }
}

impl<const N: usize> Drive for Signal<In, Bits<N>> {
    fn drive(&mut self, v: u64) {
        self.next = b(v);
    }
}

/// An option input (`spe_defs::ports::OPTION_PORTS`): a vector of one signal in a top
/// that builds the option, empty (nothing to drive) otherwise.
impl<T: Drive> Drive for Vec<T> {
    fn drive(&mut self, v: u64) {
        if let Some(s) = self.first_mut() {
            s.drive(v);
        }
    }
}

/// A per-slot input bus of the top.
trait DriveSlots {
    /// Sets the bus: one value per slot, `field_bits` each, slot 0 in the low bits.
    fn drive_slots(&mut self, vals: impl Iterator<Item = u64>, field_bits: u32);
}

impl<const N: usize> DriveSlots for Signal<In, Bits<N>> {
    fn drive_slots(&mut self, vals: impl Iterator<Item = u64>, field_bits: u32) {
        let mut acc = Bits::<N>::default();
        for (i, v) in vals.enumerate() {
            let f = b::<N>(v & spe_defs::low_mask(field_bits));
            acc = acc | (f << ((i * field_bits as usize) as u64));
        }
        self.next = acc;
    }
}

/// An output port of the top, read as a `u64` port value.
trait Sense {
    fn sense(&self) -> u64;
}

impl Sense for Signal<Out, Bit> {
    fn sense(&self) -> u64 {
        u64::from(self.val())
    }
}

impl<const N: usize> Sense for Signal<Out, Bits<N>> {
    fn sense(&self) -> u64 {
        u64::from(self.val())
    }
}

/// An option port (`spe_defs::ports::OPTION_PORTS`): a vector of one signal in a top that
/// builds the option, empty (zero) otherwise.
impl<T: Sense> Sense for Vec<T> {
    fn sense(&self) -> u64 {
        self.first().map_or(0, Sense::sense)
    }
}

/// The RTL top of one configuration under rust-hdl's simulator.
pub struct RtlSim<
    const W: usize,
    const PCB: usize,
    const CB: usize,
    const SB: usize,
    const CW: usize,
> {
    top: SpeTop<W, PCB, CB, SB, CW>,
}

impl<const W: usize, const PCB: usize, const CB: usize, const SB: usize, const CW: usize>
    RtlSim<W, PCB, CB, SB, CW>
{
    pub fn new(mut top: SpeTop<W, PCB, CB, SB, CW>) -> Self {
        sim::start(&mut top);
        RtlSim { top }
    }
}

impl<const W: usize, const PCB: usize, const CB: usize, const SB: usize, const CW: usize> Dut
    for RtlSim<W, PCB, CB, SB, CW>
{
    fn step(&mut self, i: &Inputs) -> Outputs {
        sim::cycle(
            &mut self.top,
            |t| {
                let slots = &i.disp[..W];
                macro_rules! drive_slots {
                    ($($port:ident: $field:ident),*) => {$(
                        t.$port.drive_slots(
                            slots.iter().map(|s| u64::from(s.$field)),
                            slot_bits(stringify!($port)),
                        );
                    )*};
                }
                spe_ports::for_slot_inputs!(drive_slots);
                macro_rules! drive {
                    ($($port:ident: $($f:ident).+),*) => {$(
                        t.$port.drive(u64::from(i.$($f).+));
                    )*};
                }
                spe_ports::for_scalar_inputs!(drive);
                // A one-thread top (`rtl_sim` refuses more): a per-thread port is thread
                // 0's copy.
                let x = &i.thr[0];
                macro_rules! drive_thread {
                    ($($port:ident: $($f:ident).+),*) => {$(
                        t.$port.drive(u64::from(x.$($f).+));
                    )*};
                }
                spe_ports::for_thread_inputs!(drive_thread);
                spe_ports::for_option_thread_inputs!(drive_thread);
            },
            |t| {
                // A one-thread top: the outputs only a multithreaded unit has are zero.
                macro_rules! sense {
                    ($($f:ident),*) => {
                        [$(t.$f.sense()),*]
                    };
                }
                let mut v = [0u64; spe_ports::OUTPUTS];
                let sensed = spe_ports::for_outputs!(sense);
                v[..sensed.len()].copy_from_slice(&sensed);
                // The option outputs end the list (zero where the option is not built).
                let options = spe_ports::for_option_outputs!(sense);
                v[spe_ports::OUTPUTS - options.len()..].copy_from_slice(&options);
                Outputs::from_values(v)
            },
        )
    }
}

/// The RTL of `cfg` under rust-hdl's simulator, as a DUT: one-thread presets only (the
/// multithreaded top runs under Verilator).
pub fn rtl_sim(cfg: &Config) -> Result<Box<dyn Dut>, String> {
    if cfg.threads > 1 {
        return Err(format!(
            "preset {}: the rust-hdl simulator backend serves one-thread presets; use --backend verilator or lockstep",
            cfg.name
        ));
    }
    Ok(spe_rtl::with_top!(cfg, |t| Box::new(RtlSim::new(t)) as Box<dyn Dut>))
}
