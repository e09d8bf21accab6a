//! The formal top around `spe_top_<preset>` (its text: `spe_gen::emit::formal_wrapper`), the
//! constants and the names it gives the property files.

use spe_defs::Config;
pub use spe_gen::emit::formal_wrapper::OWNER_FILE;

/// The formal top around `spe_top_<preset>` for thread `th`, with the constants the
/// property files name ([`consts`]): `spe_gen::emit::formal_wrapper::text`.
pub fn wrapper_text(cfg: &Config, th: usize) -> String {
    spe_gen::emit::formal_wrapper::text(cfg, th, &consts())
}

/// A tap's signal in `cfg`'s flattened top for thread `th`: `{t}` names thread th's copy
/// of a per-thread block (`tracker{t}__phase`: `tracker__phase` at T = 1,
/// `tracker__1__phase` for thread 1; `regs{t}.pmbsr__q`: `regs.pmbsr__q`, `regs__1.pmbsr__q`).
pub fn tap_signal(cfg: &Config, th: usize, template: &str) -> String {
    let t = if cfg.threads == 1 {
        String::new()
    } else {
        format!("__{th}")
    };
    template.replace("{t}", &t)
}

/// `owner.vh`'s taps in `cfg` (none at T = 1, which has no arbiter): the arbiter's `cur`
/// flop, its copy of the held record's phase (`s_chk`, `s_wr`) and each thread's tracker
/// phase, thread t's at `f_own_phase[t*3 +: 3]`.
pub fn owner_taps(cfg: &Config) -> Vec<(String, String)> {
    if cfg.threads == 1 {
        return Vec::new();
    }
    let mut taps = vec![
        ("f_own_cur".to_string(), "arbiter.s_cur__q".to_string()),
        ("f_own_chk".to_string(), "arbiter.s_chk__q".to_string()),
        ("f_own_wr".to_string(), "arbiter.s_wr__q".to_string()),
    ];
    for t in 0..cfg.threads {
        taps.push((
            format!("f_own_phase[{}:{}]", t * 3 + 2, t * 3),
            tap_signal(cfg, t, "tracker{t}__phase"),
        ));
    }
    taps
}

/// The named constants of the property files, from the definitions and the RTL.
pub fn consts() -> String {
    use spe_defs::regs::{pmblimitr, pmbsr, pmscr, reg, RegId};
    use spe_rtl::bundles::SamplePhase;
    [
        ("REG_PMBSR", u64::from(reg(RegId::Pmbsr).addr())),
        ("REG_PMBPTR", u64::from(reg(RegId::Pmbptr).addr())),
        ("PMBSR_S", u64::from(pmbsr::S.lsb)),
        ("PMBLIMITR_E", u64::from(pmblimitr::E.lsb)),
        ("PMSCR_E0SPE", u64::from(pmscr::E0SPE.lsb)),
        ("PMSCR_E1SPE", u64::from(pmscr::E1SPE.lsb)),
        ("PHASE_IDLE", SamplePhase::Idle as u64),
        ("PHASE_CHECK", SamplePhase::Check as u64),
        ("PHASE_WRITING", SamplePhase::Writing as u64),
    ]
    .iter()
    .map(|(n, v)| format!("localparam {n} = {v};"))
    .collect::<Vec<_>>()
    .join("\n")
}
