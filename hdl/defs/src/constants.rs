//! The implementation's fixed choices that the configuration and the register map are built
//! from: the bottom of `spe-defs`' import order (`constants` <- `config` <- `regs` <-
//! `impdef`). [`crate::impdef`] re-exports them and lists them with its other choices.

/// Population: dispatched (speculative) micro-ops, so PMSIDR.ArchInst = 0.
pub const ARCH_INST: bool = false;

/// Record slot: 64 bytes. Every record occupies exactly one slot (PMSIDR.MaxSize = 6) and
/// the buffer is written in 64-byte aligned slots (PMBIDR.Align = 6).
pub const RECORD_SIZE_LOG2: u32 = 6;
pub const RECORD_SIZE: usize = 1 << RECORD_SIZE_LOG2;

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
