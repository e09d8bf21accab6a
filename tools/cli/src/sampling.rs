//! The sampling options of `spe sim`, named after perf's: what `perf record -e arm_spe/.../`
//! would program into the unit's registers, turned into [`SampleSettings`].

use clap::{Args, ValueEnum};
use spe_bench::SampleSettings;
use spe_defs::Config;
use spe_stim::parse_num;

/// Exception levels to sample at (perf's exclude_user / exclude_kernel).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Els {
    User,
    Kernel,
    All,
}

#[derive(Args)]
pub struct SamplingArgs {
    /// Sampling period in ops, as perf's -c (PMSIRR.INTERVAL = period >> 8). Default: the
    /// preset's minimum interval.
    #[arg(long, value_parser = parse_num, value_name = "OPS")]
    interval: Option<u64>,
    /// Random jitter on the interval (PMSIRR.RND).
    #[arg(long)]
    jitter: bool,
    /// Collect timestamps (PMSCR.TS; on by default, as perf does).
    #[arg(long, conflicts_with = "no_ts")]
    ts: bool,
    /// Do not collect timestamps: records end with End.
    #[arg(long)]
    no_ts: bool,
    /// Physical instead of virtual timestamps (PMSCR.PCT = 01).
    #[arg(long)]
    pct_physical: bool,
    /// Collect CONTEXTIDR (PMSCR.CX; on by default, as perf does for root).
    #[arg(long, conflicts_with = "no_cx")]
    cx: bool,
    /// Do not collect CONTEXTIDR.
    #[arg(long)]
    no_cx: bool,
    /// Collect data physical addresses (PMSCR.PA).
    #[arg(long)]
    pa: bool,
    /// Exception levels to sample.
    #[arg(long, value_enum, default_value_t = Els::All)]
    el: Els,
    /// The kernel runs at EL2 (VHE host): PMSCR_EL2 controls sampling.
    #[arg(long)]
    host: bool,
    /// Keep only these types: comma-separated b, ld, st, and with FEAT_SPE_EFT (preset
    /// v1p4) fp, simd (PMSFCR.FT with B/LD/ST/FP/SIMD; perf `branch_filter`,
    /// `load_filter`, `store_filter`, `float_filter`, `simd_filter`).
    #[arg(long, value_name = "TYPES", value_delimiter = ',')]
    filter_type: Vec<String>,
    /// FEAT_SPE_EFT: these types are AND terms (PMSFCR.Bm/LDm/STm/FPm/SIMDm; perf
    /// `*_filter_mask`): a kept op is of the type if it is in --filter-type, not of it if
    /// not. Comma-separated b, ld, st, fp, simd.
    #[arg(long, value_name = "TYPES", value_delimiter = ',')]
    filter_type_mask: Vec<String>,
    /// Keep only records with all these events set (PMSEVFR; hex or decimal).
    #[arg(long, value_name = "MASK", value_parser = parse_num)]
    event_filter: Option<u64>,
    /// Drop records with any of these events set (PMSNEVFR, FEAT_SPE_FnE: presets v1p2x and
    /// v1p4; hex or decimal).
    #[arg(long, value_name = "MASK", value_parser = parse_num)]
    inv_event_filter: Option<u64>,
    /// FEAT_SPE_FDS (preset v1p4): drop the loads whose data source (bits 5:0) is set in
    /// MASK (perf `inv_data_src_filter`: PMSDSFR = !MASK, PMSFCR.FDS; hex or decimal).
    #[arg(long, value_name = "MASK", value_parser = parse_num)]
    inv_data_src_filter: Option<u64>,
    /// perf's event string, applied after the other options: `arm_spe/TERMS/MODS` with
    /// perf's term names (`ts_enable`, `jitter`, `branch_filter`, `float_filter`,
    /// `store_filter_mask`, `event_filter=0x..`, `min_latency=N`, `inv_data_src_filter=0x..`,
    /// `period=N`, ...; modifiers `u`, `k`); a term the preset does not implement is
    /// refused as Linux refuses it (EOPNOTSUPP).
    #[arg(long, value_name = "EVENT")]
    event: Option<String>,
    /// Drop records with total latency below N cycles (PMSLATFR.MINLAT).
    #[arg(long, value_parser = parse_num, value_name = "N")]
    min_latency: Option<u64>,
    /// Discard mode: sample and filter, write nothing (PMBLIMITR.FM = 10).
    #[arg(long)]
    discard: bool,
    /// Freeze the PMU on a buffer management event (PMBLIMITR.PMFZ, the `pmu_freeze`
    /// output; presets built with it: v1p2x, v1p4).
    #[arg(long)]
    pmfz: bool,
    /// Buffer size in bytes, a multiple of 4096 (default 4 MiB, perf's AUX default).
    #[arg(long, value_name = "BYTES", value_parser = parse_num)]
    buffer_size: Option<u64>,
}

impl SamplingArgs {
    /// The software settings the options ask for, starting from perf's defaults.
    pub fn settings(&self, cfg: &Config) -> Result<SampleSettings, String> {
        let mut s = SampleSettings::perf_default(cfg);
        if let Some(i) = self.interval {
            if i % 256 != 0 {
                return Err(format!(
                    "--interval {i} is not a multiple of 256 (PMSIRR.INTERVAL holds period bits 31:8)"
                ));
            }
            s.interval = i;
        }
        s.jitter = self.jitter;
        s.ts = !self.no_ts;
        s.cx = !self.no_cx;
        s.pct = self.pct_physical;
        s.pa = self.pa;
        s.host = self.host;
        (s.user, s.kernel) = match self.el {
            Els::User => (true, false),
            Els::Kernel => (false, true),
            Els::All => (true, true),
        };
        s.set_types("--filter-type", &self.filter_type, false)?;
        s.set_types("--filter-type-mask", &self.filter_type_mask, true)?;
        if let Some(m) = self.inv_data_src_filter {
            s.inv_data_src_filter = m;
        }
        s.event_filter = self.event_filter.unwrap_or(0);
        s.inv_event_filter = self.inv_event_filter.unwrap_or(0);
        if let Some(m) = self.min_latency {
            if m > cfg.counter_width.max() {
                return Err(format!(
                    "--min-latency {m} exceeds the {}-bit counters of preset {}",
                    cfg.counter_width.bits(),
                    cfg.name
                ));
            }
            s.min_latency = m;
        }
        s.discard = self.discard;
        s.pmfz = self.pmfz;
        if let Some(b) = self.buffer_size {
            s.buffer_size = b;
        }
        if let Some(e) = &self.event {
            spe_bench::perf_event::apply(&mut s, cfg, e).map_err(|e| format!("--event: {e}"))?;
        }
        s.check_for(cfg)?;
        s.validate()?;
        Ok(s)
    }
}
