//! Sampler: the population count over a dispatch group, the interval down-counter with the
//! architecture's reload rule (`SPEToCollectSample`, docs/spe-reference.md §6.1), with
//! FEAT_SPE_ERnd's secondary counter ECOUNT when the unit builds it (`Options::ernd`),
//! the LFSR jitter, and the selection of at most one slot per cycle, for one hardware thread:
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
    /// PMSICR.ECOUNT after the group (FEAT_SPE_ERnd; otherwise it stays zero).
    pub next_ecount: u8,
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

/// The reload value: `INTERVAL << 8`, with the low byte from the LFSR when RND = 1 in a
/// unit without FEAT_SPE_ERnd (with it the random value goes into ECOUNT instead).
/// choice: jitter
pub fn reload_value(regs: &Regs, lfsr: u16, ernd: bool) -> u32 {
    let base = (regs.effective_interval() << 8) as u32;
    if regs.jitter() && !ernd {
        base | u32::from(lfsr & 0xFF)
    } else {
        base
    }
}

/// Counts the group in slot (program) order, per population op as J1
/// `SPEToCollectSample`: a zero counter reloads (that op is not selected by COUNT);
/// otherwise the counter decrements and the op that brings it to zero is selected. With
/// FEAT_SPE_ERnd (`ernd`) and RND = 1, that op instead loads ECOUNT with a random byte
/// (the LFSR's low byte, as the jitter; choice: jitter) and is selected only if it is zero;
/// every other population op (the reload's too) decrements a nonzero ECOUNT and is
/// selected when it reaches zero. So with ERnd the expiries are exactly `reload + 1` ops
/// apart and each sample comes 0 to 255 population ops after its expiry.
/// At most one op is selected per group: the reload is at least 256 and ECOUNT at most
/// 255, so a second selection needs software to have written PMSICR with COUNT and
/// ECOUNT both small; then the first in slot order is taken and the second is not
/// (neither tagged nor a collision; choice: jitter).
/// `t` is the thread counting, of `threads`; `regs` and `lfsr` are its own.
pub fn count_group(
    regs: &Regs,
    inp: &Inputs,
    (t, threads): (usize, usize),
    (width, ernd): (usize, bool),
    lfsr: u16,
) -> SampleDecision {
    let mut count = regs.count();
    let mut ecount = if ernd { regs.ecount() } else { 0 };
    let mut d = SampleDecision::default();
    let select = |d: &mut SampleDecision, i: usize| {
        if d.selected.is_none() {
            d.selected = Some(i);
        }
    };
    for i in 0..width {
        if !in_population(regs, inp, t, threads, i) {
            continue;
        }
        d.pop += 1;
        if count == 0 {
            count = reload_value(regs, lfsr, ernd);
        } else {
            count -= 1;
            if count == 0 {
                if ernd && regs.jitter() {
                    ecount = (lfsr & 0xFF) as u8;
                    if ecount == 0 {
                        select(&mut d, i);
                    }
                } else {
                    select(&mut d, i);
                }
                continue;
            }
        }
        if ecount != 0 {
            ecount -= 1;
            if ecount == 0 {
                select(&mut d, i);
            }
        }
    }
    d.next_count = count;
    d.next_ecount = ecount;
    d
}

/// Thread `t`'s jitter source after reset.
pub fn lfsr_reset(t: usize) -> u16 {
    impdef::LFSR_SEEDS[t]
}
