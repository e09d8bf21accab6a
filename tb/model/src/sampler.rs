//! Sampler: the population count over a dispatch group, the interval down-counter with the
//! architecture's reload rule (`SPEToCollectSample`, docs/spe-reference.md §6.1, without ERnd), the
//! LFSR jitter, and the selection of at most one slot per cycle, for one hardware thread:
//! a slot's op counts only towards the thread its `disp_tid` names (docs/smt.md).

use crate::regime::Regime;
use crate::regs::Regs;
use spe_defs::impdef;
use spe_ports::Inputs;

/// Result of counting one dispatch group.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SampleDecision {
    /// Ops counted into the population (SAMPLE_POP).
    pub pop: u8,
    /// Slot whose op the counter selected, if any.
    pub selected: Option<usize>,
    /// The counter after the group.
    pub next_count: u32,
}

/// The thread of the op in slot `i` in a unit of `threads` threads (`disp_tid`; bits above
/// log2(T) are ignored, so at T = 1 every op is thread 0's).
pub fn slot_thread(inp: &Inputs, i: usize, threads: usize) -> usize {
    usize::from(inp.disp[i].tid) & (threads - 1)
}

/// True when the op in slot `i` is in thread `t`'s sample population this cycle: the
/// thread's op, and J1 `StatisticalProfilingEnabled` for the thread (its buffer enabled,
/// AArch64, its owner allowing the EL, and the EL's enable bit).
/// choice: population
pub fn in_population(regs: &Regs, inp: &Inputs, t: usize, threads: usize, i: usize) -> bool {
    let x = &inp.thr[t];
    let r = Regime::of(x);
    let el = x.disp_el & 3;
    inp.disp[i].valid
        && slot_thread(inp, i, threads) == t
        && regs.profiling_enabled()
        && x.prof_allowed
        && !x.disp_aarch32
        && r.owner_allows(el)
        && regs.el_enabled(el, r.tge)
}

/// The reload value: `INTERVAL << 8`, with the low byte from the LFSR when RND = 1.
/// choice: jitter
pub fn reload_value(regs: &Regs, lfsr: u16) -> u32 {
    let base = (regs.effective_interval() << 8) as u32;
    if regs.jitter() {
        base | u32::from(lfsr & 0xFF)
    } else {
        base
    }
}

/// Counts the group in slot (program) order. Per population op: a zero counter reloads
/// (that op is not sampled); otherwise the counter decrements and the op that brings it to
/// zero is selected. A second selection in one cycle cannot happen (the reload is at least
/// 256) but would be ignored.
/// `t` is the thread counting, of `threads`; `regs` and `lfsr` are its own.
pub fn count_group(
    regs: &Regs,
    inp: &Inputs,
    (t, threads): (usize, usize),
    width: usize,
    lfsr: u16,
) -> SampleDecision {
    let mut count = regs.count();
    let mut d = SampleDecision::default();
    for i in 0..width {
        if !in_population(regs, inp, t, threads, i) {
            continue;
        }
        d.pop += 1;
        if count == 0 {
            count = reload_value(regs, lfsr);
        } else {
            count -= 1;
            if count == 0 && d.selected.is_none() {
                d.selected = Some(i);
            }
        }
    }
    d.next_count = count;
    d
}

/// Thread `t`'s jitter source after reset.
pub fn lfsr_reset(t: usize) -> u16 {
    impdef::LFSR_SEEDS[t]
}
