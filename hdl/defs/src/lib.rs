//! Single source of truth for the SPE sampling unit.
//!
//! Every register number, field position, packet header byte, event bit, width and
//! implementation-defined choice used by the RTL (`hdl/`), the golden model (`verif/model`),
//! the decoder (`tools/decode`), the stimulus (`verif/stim`), the CLI and the generated docs is
//! defined here, once. Nothing else may write one of these numbers again.
//!
//! Facts come from `docs/spe-reference.md` (the Arm ARM pseudocode and the
//! Linux perf decoder); choices the architecture leaves to the implementation are in
//! [`impdef`], each with its reason.
//!
//! This crate has no dependencies, by design.

pub mod config;
pub mod constants;
pub mod events;
pub mod impdef;
pub mod mutants;
pub mod packet;
pub mod ports;
pub mod regs;
pub mod soc;
pub mod wiring;

pub use config::{Config, CounterWidth, Options, PRESETS};

/// A bit field inside a 64-bit register or payload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    pub name: &'static str,
    /// Least significant bit.
    pub lsb: u32,
    /// Width in bits (1..=64).
    pub width: u32,
    /// One-line meaning, used in the generated register map.
    pub desc: &'static str,
}

impl Field {
    pub const fn new(name: &'static str, lsb: u32, width: u32, desc: &'static str) -> Field {
        Field {
            name,
            lsb,
            width,
            desc,
        }
    }
    /// The field's bits in place, e.g. `0x0000_00C0` for bits 7:6.
    pub const fn mask(&self) -> u64 {
        if self.width >= 64 {
            u64::MAX
        } else {
            ((1u64 << self.width) - 1) << self.lsb
        }
    }
    /// Extracts the field from a register value (right-aligned).
    pub const fn get(&self, reg: u64) -> u64 {
        (reg & self.mask()) >> self.lsb
    }
    /// True when a one-bit field is set.
    pub const fn is_set(&self, reg: u64) -> bool {
        self.get(reg) != 0
    }
    /// Returns `reg` with the field replaced by `value` (extra high bits of `value` dropped).
    pub const fn set(&self, reg: u64, value: u64) -> u64 {
        (reg & !self.mask()) | ((value << self.lsb) & self.mask())
    }
    /// The field's value placed in an otherwise-zero register.
    pub const fn place(&self, value: u64) -> u64 {
        self.set(0, value)
    }
}

/// Bit mask of the `n` low bits (`n` in 0..=64).
pub const fn low_mask(n: u32) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}
