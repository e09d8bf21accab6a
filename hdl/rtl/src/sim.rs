//! A direct cycle driver for rust-hdl's simulator, without its thread-per-testbench
//! framework: set inputs, settle, read outputs, raise the clock, settle.
//!
//! Correct for this design because every flop sits at the same depth (blocks hold flops,
//! the top only wiring), so all flops see the edge in one delta pass, pre-edge values.

use rust_hdl::prelude::*;

/// Delta passes allowed for one settle before the design is declared non-convergent.
const MAX_DELTA: usize = 10_000;

/// Propagates until nothing changes. Panics when the logic does not converge (a
/// combinational loop), which is a design error.
pub fn settle<B: Block>(uut: &mut B) {
    assert!(
        simulate(uut, MAX_DELTA),
        "rust-hdl simulation did not converge (combinational loop?)"
    );
}

/// A block with a clock input that [`cycle`] can drive.
pub trait Clocked: Block {
    fn clock_signal(&mut self) -> &mut Signal<In, Clock>;
}

/// Prepares a block for driving: connects it and settles with the clock low.
pub fn start<B: Clocked>(uut: &mut B) {
    uut.connect_all();
    uut.clock_signal().next = Clock::from(false);
    settle(uut);
}

/// One clock cycle. `set` writes the inputs (`.next`); `get` reads the outputs after the
/// inputs settle (values seen during the cycle, before the edge); then the rising edge is
/// applied and the design settles with the clock high, and the clock returns low.
pub fn cycle<B: Clocked, R>(uut: &mut B, set: impl FnOnce(&mut B), get: impl FnOnce(&B) -> R) -> R {
    set(uut);
    settle(uut);
    let r = get(uut);
    uut.clock_signal().next = Clock::from(true);
    settle(uut);
    uut.clock_signal().next = Clock::from(false);
    settle(uut);
    r
}

/// Implements [`Clocked`] for blocks whose clock input is called `clock`.
macro_rules! clocked {
    ($($t:ty => [$($g:tt)*]),* $(,)?) => {
        $(impl<$($g)*> Clocked for $t {
            fn clock_signal(&mut self) -> &mut Signal<In, Clock> {
                &mut self.clock
            }
        })*
    };
}

clocked!(
    crate::regs::SpeRegs<CW> => [const CW: usize],
    crate::sampler::SpeSampler<W> => [const W: usize],
    crate::latency::SpeLatency<CW> => [const CW: usize],
    crate::capture::SpeCapture<W, PCB, CB, SB> => [const W: usize, const PCB: usize, const CB: usize, const SB: usize],
    crate::tracker::SpeTracker => [],
    crate::writer::SpeWriter => [],
    crate::arbiter::SpeArbiter<T, TIDW> => [const T: usize, const TIDW: usize],
    crate::room::SpeRoom => [],
);

/// Settles a block without a clock (a purely combinational block) after `set`.
pub fn comb<B: Block, R>(uut: &mut B, set: impl FnOnce(&mut B), get: impl FnOnce(&B) -> R) -> R {
    set(uut);
    settle(uut);
    get(uut)
}
