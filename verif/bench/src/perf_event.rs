//! perf's `arm_spe` event (`perf record -e 'arm_spe/TERMS/MODIFIERS'`) as software settings:
//! each term sets the [`SampleSettings`] field the Linux driver (`drivers/perf/arm_spe_pmu.c`)
//! turns into a register value, and a term the unit cannot honour is refused as the driver
//! refuses it (EOPNOTSUPP), so a command line that works here works on a core with this
//! unit and the same features.
//!
//! Terms (`name` or `name=value`, value decimal or `0x` hex, a bare name meaning 1):
//!
//! | term | settings field | register |
//! |---|---|---|
//! | `ts_enable`, `pa_enable`, `pct_enable` | `ts`, `pa`, `pct` | PMSCR.TS, PA, PCT |
//! | `jitter` | `jitter` | PMSIRR.RND |
//! | `branch_filter`, `load_filter`, `store_filter` | `*_filter` | PMSFCR.B, LD, ST (and FT) |
//! | `float_filter`, `simd_filter` and the five `*_filter_mask` (FEAT_SPE_EFT) | `float_filter`, ... | PMSFCR.FP, SIMD, Bm, LDm, STm, FPm, SIMDm |
//! | `event_filter`, `inv_event_filter` | same | PMSEVFR, PMSNEVFR (FE, FnE) |
//! | `min_latency` (12 bits) | `min_latency` | PMSLATFR.MINLAT (FL) |
//! | `inv_data_src_filter` (FEAT_SPE_FDS) | same | PMSDSFR = its complement (FDS) |
//! | `discard` | `discard` | PMBLIMITR.FM = discard |
//! | `period` | `interval` | PMSIRR.INTERVAL (perf `-c`) |
//!
//! Modifiers after the last `/`: `u` samples EL0 only, `k` the kernel only (perf's
//! `exclude_kernel`, `exclude_user`).

use crate::driver::SampleSettings;
use spe_defs::Config;

/// The term names, in the order of the table above.
pub const TERMS: &[&str] = &[
    "ts_enable",
    "pa_enable",
    "pct_enable",
    "jitter",
    "branch_filter",
    "load_filter",
    "store_filter",
    "float_filter",
    "simd_filter",
    "branch_filter_mask",
    "load_filter_mask",
    "store_filter_mask",
    "float_filter_mask",
    "simd_filter_mask",
    "event_filter",
    "inv_event_filter",
    "min_latency",
    "inv_data_src_filter",
    "discard",
    "period",
];

/// Applies `event` (`arm_spe/TERMS/MODS`, `arm_spe_0/TERMS/`, or bare `TERMS`) to `s` for
/// a unit built with `cfg`, then checks the result as the driver would
/// ([`SampleSettings::check_for`]).
pub fn apply(s: &mut SampleSettings, cfg: &Config, event: &str) -> Result<(), String> {
    let (terms, mods) = split_event(event)?;
    for term in terms.split(',').map(str::trim).filter(|t| !t.is_empty()) {
        let (name, value) = match term.split_once('=') {
            Some((n, v)) => (n.trim(), parse_value(v.trim(), term)?),
            None => (term, 1),
        };
        set(s, name, value)?;
    }
    match mods {
        "" => {}
        "u" => (s.user, s.kernel) = (true, false),
        "k" => (s.user, s.kernel) = (false, true),
        "uk" | "ku" => (s.user, s.kernel) = (true, true),
        m => return Err(format!("event modifier {m:?}: expected u, k or uk")),
    }
    s.check_for(cfg)
}

/// The terms and the modifiers of an event string.
fn split_event(event: &str) -> Result<(&str, &str), String> {
    let e = event.trim();
    if !e.contains('/') {
        return Ok((e, ""));
    }
    let mut parts = e.splitn(3, '/');
    let pmu = parts.next().unwrap_or_default();
    if pmu != "arm_spe" && !pmu.starts_with("arm_spe_") {
        return Err(format!(
            "event {e:?}: the PMU is {pmu:?}, expected arm_spe (arm_spe/TERMS/)"
        ));
    }
    let terms = parts.next().unwrap_or_default();
    let mods = parts
        .next()
        .ok_or_else(|| format!("event {e:?}: no closing '/' after the terms"))?;
    Ok((terms, mods))
}

fn parse_value(v: &str, term: &str) -> Result<u64, String> {
    let parsed = match v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16),
        None => v.parse(),
    };
    parsed.map_err(|_| format!("term {term:?}: {v:?} is not a number"))
}

/// One term. Errors read like perf's: a value too wide for the format field (what the unit
/// implements is checked after every term, by [`SampleSettings::check_for`]).
fn set(s: &mut SampleSettings, name: &str, v: u64) -> Result<(), String> {
    let bit = |v: u64| -> Result<bool, String> {
        match v {
            0 | 1 => Ok(v == 1),
            _ => Err(format!(
                "{name}={v:#x}: value too big for format (a 1-bit field)"
            )),
        }
    };
    match name {
        "ts_enable" => s.ts = bit(v)?,
        "pa_enable" => s.pa = bit(v)?,
        "pct_enable" => s.pct = bit(v)?,
        "jitter" => s.jitter = bit(v)?,
        "branch_filter" => s.branch_filter = bit(v)?,
        "load_filter" => s.load_filter = bit(v)?,
        "store_filter" => s.store_filter = bit(v)?,
        "discard" => s.discard = bit(v)?,
        "float_filter" | "simd_filter" | "branch_filter_mask" | "load_filter_mask"
        | "store_filter_mask" | "float_filter_mask" | "simd_filter_mask" => {
            let on = bit(v)?;
            *match name {
                "float_filter" => &mut s.float_filter,
                "simd_filter" => &mut s.simd_filter,
                "branch_filter_mask" => &mut s.branch_filter_mask,
                "load_filter_mask" => &mut s.load_filter_mask,
                "store_filter_mask" => &mut s.store_filter_mask,
                "float_filter_mask" => &mut s.float_filter_mask,
                _ => &mut s.simd_filter_mask,
            } = on;
        }
        "event_filter" => s.event_filter = v,
        "inv_event_filter" => s.inv_event_filter = v,
        "min_latency" => {
            if v > 0xfff {
                return Err(format!(
                    "min_latency={v}: value too big for format (config2:0-11)"
                ));
            }
            s.min_latency = v;
        }
        "inv_data_src_filter" => s.inv_data_src_filter = v,
        "period" => s.interval = v,
        _ => {
            return Err(format!(
                "unknown term {name:?}; arm_spe terms: {}",
                TERMS.join(", ")
            ))
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use spe_defs::regs::{pmsfcr, RegId};

    fn settings(cfg: &Config, event: &str) -> Result<SampleSettings, String> {
        let mut s = SampleSettings::perf_default(cfg);
        apply(&mut s, cfg, event).map(|()| s)
    }

    /// PMSFCR and PMSDSFR as the start sequence writes them.
    fn filters(s: &SampleSettings) -> (u64, Option<u64>) {
        let seq = s.start_after_buffer(0);
        let get = |id| seq.iter().find(|(r, _)| *r == id).map(|(_, v)| *v);
        (get(RegId::Pmsfcr).unwrap(), get(RegId::Pmsdsfr))
    }

    #[test]
    fn eft_and_fds_terms_program_pmsfcr_and_pmsdsfr_as_linux_does() {
        let cfg = Config::preset("v1p4").unwrap();
        let s = settings(
            cfg,
            "arm_spe/store_filter=1,store_filter_mask=1,float_filter,inv_data_src_filter=0xff00,period=4096/u",
        )
        .unwrap();
        let (fcr, dsfr) = filters(&s);
        assert_eq!(
            fcr,
            pmsfcr::FT.place(1)
                | pmsfcr::FDS.place(1)
                | pmsfcr::ST.place(1)
                | pmsfcr::STM.place(1)
                | pmsfcr::FP.place(1)
        );
        assert_eq!(dsfr, Some(!0xff00));
        assert_eq!((s.interval, s.user, s.kernel), (4096, true, false));
        // A mask alone sets FT too (Linux: any of the type or mask bits).
        let (fcr, dsfr) = filters(&settings(cfg, "arm_spe/simd_filter_mask=1/").unwrap());
        assert_eq!(fcr, pmsfcr::FT.place(1) | pmsfcr::SIMDM.place(1));
        // No inv_data_src_filter: PMSDSFR all ones (every source), FDS clear.
        assert_eq!(dsfr, Some(u64::MAX));
    }

    #[test]
    fn a_unit_without_the_feature_refuses_its_terms_and_bad_terms_are_named() {
        let plain = Config::default();
        for (event, want) in [
            ("arm_spe/float_filter=1/", "FEAT_SPE_EFT"),
            ("arm_spe/load_filter_mask/", "FEAT_SPE_EFT"),
            ("arm_spe/inv_data_src_filter=1/", "FEAT_SPE_FDS"),
            ("arm_spe/jitter=2/", "too big"),
            ("arm_spe/min_latency=0x1000/", "too big"),
            ("arm_spe/event_filter=0x1/", "RES0"),
            ("arm_spe/no_such_term/", "unknown term"),
            ("cs_etm/ts_enable/", "expected arm_spe"),
            ("arm_spe/ts_enable", "closing"),
            ("arm_spe/period=12x/", "not a number"),
            ("arm_spe//h", "modifier"),
        ] {
            let e = settings(&plain, event).unwrap_err();
            assert!(e.contains(want), "{event}: {e}");
        }
        // Zero values of those terms are what perf sends when they are absent: accepted.
        let s = settings(&plain, "arm_spe/float_filter=0,inv_data_src_filter=0/").unwrap();
        assert_eq!(s, SampleSettings::perf_default(&plain));
        // The default unit has no PMSDSFR: the driver does not write it.
        assert_eq!(filters(&s).1, None);
    }
}
