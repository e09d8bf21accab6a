//! The implementation's fixed choices that the configuration and the register map are built
//! from: the bottom of `spe-defs`' import order (`constants` <- `config` <- `regs` <-
//! `impdef`). [`crate::impdef`] re-exports them and lists them with its other choices.

/// Population: dispatched (speculative) micro-ops, so PMSIDR.ArchInst = 0.
pub const ARCH_INST: bool = false;

/// Record slot: 64 bytes, or 128 in a unit that records the Guarded Control Stack
/// (FEAT_SPE_CRR: a call or return that pushes or pops it carries the packets of a branch
/// and of a load or store, D17.6.3, more than 64 bytes hold; `Config::record_log2`). Every
/// record of a unit occupies exactly one slot of its size (PMSIDR.MaxSize) and the buffer
/// is written in slots aligned to it (PMBIDR.Align = MaxSize).
pub const RECORD_SIZE_LOG2: u32 = 6;
/// The slot of a unit with FEAT_SPE_CRR (GCS recording).
pub const GCS_RECORD_SIZE_LOG2: u32 = 7;
/// The largest slot of any unit: buffers that hold one record of any preset.
pub const MAX_RECORD_SIZE: usize = 1 << GCS_RECORD_SIZE_LOG2;

/// Memory write port: 64-bit data beats (eight or sixteen per record).
pub const BEAT_BYTES: usize = 8;

/// Minimum interval for a PMSIDR.Interval code (docs/spe-reference.md §5.7); `None` for codes the
/// architecture does not list.
pub const fn min_interval_for_code(code: u8) -> Option<u32> {
    Some(match code {
        0b0000 => 256,
        0b0010 => 512,
        0b0011 => 768,
        0b0100 => 1024,
        0b0101 => 1536,
        0b0110 => 2048,
        0b0111 => 3072,
        0b1000 => 4096,
        _ => return None,
    })
}
