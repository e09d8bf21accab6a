//! The sampling accuracy study (`spe bench accuracy`): how well the samples estimate where the population went. For
//! several workloads, with and without jitter (PMSIRR.RND), it runs the golden model (the
//! RTL matches it cycle for cycle in the regression), and compares each PC's and each basic
//! block's share of the samples with its exact share of the population (the core model
//! counts every population op). Each share's error is measured in binomial standard
//! deviations, sqrt(p(1 - p) / n) for n samples; with independent samples about 0.27 % of
//! the PCs fall beyond 3 sigma. A strictly periodic loop (no mispredicts) whose length
//! divides the sampling period aliases without jitter: every sample lands on the same PC.
//! The period is the interval plus one op (J1 `SPEResetSampleCounter` reloads COUNT at the
//! op after the one that brought it to zero), so the loop has the smallest length of at
//! least 8 that divides interval + 1 (25 ops for 1024; a 16-op loop would not alias, it
//! walks the samples one op further each time). It writes a Markdown table (`accuracy.md`) and one PNG per workload (sampled share
//! against exact share, per PC, with the 3-sigma envelope) to `--out`.
//!
//! Per-function accuracy on compiled C code is `spe soc` (the SoC's C workloads against
//! perf's profile); the core model's programs have basic blocks, not functions.

use crate::{MemoryProfile, SampleSettings};
use spe_defs::Config;
use spe_model::Model;
use spe_stim::program::{Builder, Exit, Program, StaticOp, BR_DIRECT};
use spe_stim::{CoreParams, Workload};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The periodic loop's length for `interval`: the smallest divisor of at least 8 of the
/// sampling period, interval + 1 ops.
fn loop_length(interval: u64) -> usize {
    let period = interval + 1;
    (8..=period)
        .find(|d| period.is_multiple_of(*d))
        .unwrap_or(period) as usize
}

/// A loop of `len` ops, the last a direct branch back: the same op sequence forever (no
/// mispredicts, no wrong path, no exceptions, no kernel).
fn periodic(len: usize) -> Result<Workload, String> {
    let mut b = Builder::new("periodic", 0x0000_aaaa_d002_0000, 0xffff_8000_1002_0000);
    let mut ops = vec![StaticOp::other(0); len - 1];
    ops.push(StaticOp::branch(BR_DIRECT));
    b.block(false, ops, Exit::Jump(0));
    let prog = b.finish(0, None)?;
    let mut w = Workload::from_program(Program::Code(prog));
    w.description = format!("strictly periodic loop of {len} ops, no mispredicts");
    w.params = CoreParams {
        ctx_switch_rate: 0.0,
        ..CoreParams::default()
    };
    Ok(w)
}

/// One run's accuracy.
struct Accuracy {
    workload: String,
    jitter: bool,
    samples: u64,
    population: u64,
    /// (exact share, sampled share) per PC with an expected count of at least 5.
    points: Vec<(f64, f64)>,
    pc: ErrorStats,
    block: ErrorStats,
}

/// Errors of a set of shares against the binomial bound.
#[derive(Default)]
struct ErrorStats {
    /// Items with an expected count n p >= 5 (the normal approximation holds).
    items: usize,
    max_z: f64,
    beyond_3sigma: usize,
    /// How many of `items` fall beyond 3 sigma by chance, on average.
    expected_beyond: f64,
    /// Total variation distance between the two distributions, in percent.
    tvd: f64,
}

impl ErrorStats {
    /// `pairs`: (exact count, sampled count) per item; `pop`, `n`: their totals.
    fn of(pairs: &[(u64, u64)], pop: u64, n: u64) -> ErrorStats {
        let mut e = ErrorStats::default();
        let nf = n.max(1) as f64;
        for &(g, k) in pairs {
            let p = g as f64 / pop.max(1) as f64;
            let share = k as f64 / nf;
            e.tvd += 50.0 * (share - p).abs();
            if nf * p < 5.0 || p >= 1.0 {
                continue;
            }
            let z = (share - p) / (p * (1.0 - p) / nf).sqrt();
            e.items += 1;
            e.max_z = e.max_z.max(z.abs());
            e.beyond_3sigma += usize::from(z.abs() > 3.0);
        }
        e.expected_beyond = 0.0027 * e.items as f64;
        e
    }

    /// Within the binomial bound: no more PCs beyond 3 sigma than chance gives (its mean
    /// plus three of its standard deviations, and at least one).
    fn within(&self) -> bool {
        let m = self.expected_beyond;
        (self.beyond_3sigma as f64) <= (m + 3.0 * m.sqrt()).max(1.0)
    }
}

/// What the study runs and where it writes.
#[derive(Clone, Debug)]
pub struct AccuracyOptions {
    /// Output folder (created): accuracy.md and accuracy-<workload>.png.
    pub out: PathBuf,
    /// Clock cycles per run (8 runs).
    pub cycles: usize,
    /// Sampling interval in population ops (PMSIRR.INTERVAL << 8).
    pub interval: u64,
    /// Master seed (each run's stimulus derives from it).
    pub seed: u64,
    /// A TrueType font for the plots' text.
    pub font: PathBuf,
}

/// Runs the study on the golden model: prints the Markdown table, writes it and one PNG
/// per workload to `a.out`; progress goes to stderr.
pub fn accuracy(a: &AccuracyOptions) -> Result<(), String> {
    let cfg = Config::default();
    if a.interval == 0 || !a.interval.is_multiple_of(256) {
        return Err(format!(
            "--interval {}: a multiple of 256 (PMSIRR.INTERVAL counts 256 ops)",
            a.interval
        ));
    }
    let font = std::fs::read(&a.font).map_err(|e| {
        format!(
            "--font {}: {e} (the plots need a TrueType font; name one with --font)",
            a.font.display()
        )
    })?;
    std::fs::create_dir_all(&a.out).map_err(|e| format!("--out {}: {e}", a.out.display()))?;
    eprintln!(
        "spe bench accuracy: replay with `spe bench accuracy --out {} --cycles {} --interval {} --seed {}`",
        a.out.display(),
        a.cycles,
        a.interval,
        a.seed
    );
    let mut workloads = Vec::new();
    for name in ["loop", "mix", "branchy"] {
        workloads.push(Workload::by_name(name)?);
    }
    workloads.push(periodic(loop_length(a.interval))?);
    let mut results = Vec::new();
    for (wi, w) in workloads.iter().enumerate() {
        let Program::Code(prog) = &w.program else {
            return Err(format!("{}: not a code program", w.name));
        };
        // PC -> basic block (its index), from the program's blocks.
        let block_of = |pc: u64| {
            prog.blocks
                .iter()
                .position(|b| pc >= b.base && pc < b.base + 4 * b.ops.len() as u64)
        };
        for jitter in [false, true] {
            let settings = SampleSettings {
                interval: a.interval,
                jitter,
                ..SampleSettings::perf_default(&cfg)
            };
            let seed = a.seed.wrapping_add(wi as u64);
            eprintln!(
                "spe bench accuracy: {} {} ({} cycles, interval {}, seed {seed})",
                w.name,
                if jitter {
                    "with jitter"
                } else {
                    "without jitter"
                },
                a.cycles,
                a.interval,
            );
            let mut dut = Model::new(&cfg);
            let r = crate::run(
                &mut dut,
                &cfg,
                w,
                &settings,
                &MemoryProfile::default(),
                a.cycles as u64,
                seed,
                &mut |_, _| {},
            )?;
            let st = &r.stats;
            let pop: u64 = st.ground_truth.values().sum();
            let n: u64 = st.samples_per_pc.values().sum();
            let pairs: Vec<(u64, u64)> = st
                .ground_truth
                .iter()
                .map(|(pc, &g)| (g, st.samples_per_pc.get(pc).copied().unwrap_or(0)))
                .collect();
            let mut blocks: BTreeMap<Option<usize>, (u64, u64)> = BTreeMap::new();
            for (pc, &g) in &st.ground_truth {
                let e = blocks.entry(block_of(*pc)).or_default();
                e.0 += g;
                e.1 += st.samples_per_pc.get(pc).copied().unwrap_or(0);
            }
            let block_pairs: Vec<(u64, u64)> = blocks.into_values().collect();
            let points = pairs
                .iter()
                .filter(|&&(g, _)| n as f64 * g as f64 / pop.max(1) as f64 >= 5.0)
                .map(|&(g, k)| {
                    (
                        100.0 * g as f64 / pop.max(1) as f64,
                        100.0 * k as f64 / n.max(1) as f64,
                    )
                })
                .collect();
            results.push(Accuracy {
                workload: w.name.clone(),
                jitter,
                samples: n,
                population: pop,
                points,
                pc: ErrorStats::of(&pairs, pop, n),
                block: ErrorStats::of(&block_pairs, pop, n),
            });
        }
    }
    let table = report(a, &results);
    print!("{table}");
    let md = a.out.join("accuracy.md");
    std::fs::write(&md, &table).map_err(|e| format!("{}: {e}", md.display()))?;
    let font: &'static [u8] = Box::leak(font.into_boxed_slice());
    plotters::style::register_font("sans-serif", plotters::style::FontStyle::Normal, font)
        .map_err(|_| format!("--font {}: not a usable TrueType font", a.font.display()))?;
    for w in &workloads {
        let path = a.out.join(format!("accuracy-{}.png", w.name));
        let runs: Vec<&Accuracy> = results.iter().filter(|r| r.workload == w.name).collect();
        plot(&path, &w.name, &runs).map_err(|e| format!("{}: {e}", path.display()))?;
        eprintln!("spe bench accuracy: wrote {}", path.display());
    }
    eprintln!("spe bench accuracy: wrote {}", md.display());
    Ok(())
}

/// The Markdown report.
fn report(a: &AccuracyOptions, results: &[Accuracy]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# Sampling accuracy (`spe bench accuracy`, preset default, golden model)\n\n\
         {} cycles per run, interval {}, seed {}. Errors in binomial standard deviations of each \
         share (PCs and basic blocks with an expected count of at least 5); \"beyond 3σ\" \
         against the number chance gives (0.27 % of them); TVD is the total variation distance \
         between the sampled and the exact distribution.\n",
        a.cycles, a.interval, a.seed
    );
    let _ = writeln!(
        s,
        "| workload | jitter | samples | population | PCs | max \\|z\\| PC | PCs beyond 3σ (chance) | TVD PC | blocks | max \\|z\\| block | blocks beyond 3σ | verdict |"
    );
    let _ = writeln!(
        s,
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
    );
    for r in results {
        let verdict = if r.pc.within() && r.block.within() {
            "within the binomial bound"
        } else {
            "**beyond the bound** (aliasing)"
        };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {:.1} | {} ({:.2}) | {:.1} % | {} | {:.1} | {} | {verdict} |",
            r.workload,
            if r.jitter { "on" } else { "off" },
            r.samples,
            r.population,
            r.pc.items,
            r.pc.max_z,
            r.pc.beyond_3sigma,
            r.pc.expected_beyond,
            r.pc.tvd,
            r.block.items,
            r.block.max_z,
            r.block.beyond_3sigma,
        );
    }
    s
}

/// Sampled share against exact share per PC, both runs of a workload, with the line y = x
/// and its 3-sigma envelope for the jittered run's sample count.
fn plot(path: &Path, name: &str, runs: &[&Accuracy]) -> Result<(), Box<dyn std::error::Error>> {
    use plotters::prelude::*;
    let root = BitMapBackend::new(path, (900, 700)).into_drawing_area();
    root.fill(&WHITE)?;
    let max = runs
        .iter()
        .flat_map(|r| r.points.iter())
        .map(|&(x, y)| x.max(y))
        .fold(1.0f64, f64::max)
        * 1.05;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("{name}: sampled against exact share per PC"),
            ("sans-serif", 24),
        )
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(55)
        .build_cartesian_2d(0.0..max, 0.0..max)?;
    chart
        .configure_mesh()
        .x_desc("exact share of the population (%)")
        .y_desc("share of the samples (%)")
        .label_style(("sans-serif", 14))
        .draw()?;
    let n = runs.iter().map(|r| r.samples).max().unwrap_or(1).max(1) as f64;
    let steps = 200;
    let xs: Vec<f64> = (0..=steps)
        .map(|i| max.min(100.0) * i as f64 / steps as f64)
        .collect();
    chart
        .draw_series(LineSeries::new(xs.iter().map(|&x| (x, x)), &BLACK))?
        .label("exact")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK));
    let band = |sign: f64| {
        xs.iter()
            .map(move |&x| {
                let p = x / 100.0;
                (x, 100.0 * (p + sign * 3.0 * (p * (1.0 - p) / n).sqrt()))
            })
            .collect::<Vec<_>>()
    };
    chart
        .draw_series(LineSeries::new(band(1.0), &RGBColor(150, 150, 150)))?
        .label("±3σ")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], RGBColor(150, 150, 150)));
    chart.draw_series(LineSeries::new(band(-1.0), &RGBColor(150, 150, 150)))?;
    for r in runs {
        let (color, label) = if r.jitter {
            (BLUE, "jitter on")
        } else {
            (RED, "jitter off")
        };
        chart
            .draw_series(
                r.points
                    .iter()
                    .map(|&(x, y)| Circle::new((x, y), 3, color.filled())),
            )?
            .label(label)
            .legend(move |(x, y)| Circle::new((x + 10, y), 4, color.filled()));
    }
    chart
        .configure_series_labels()
        .label_font(("sans-serif", 16))
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::LowerRight)
        .draw()?;
    root.present()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_periodic_loop_divides_the_sampling_period_of_interval_plus_one() {
        assert_eq!(loop_length(1024), 25); // 1025 = 25 x 41
        assert_eq!(loop_length(256), 257); // prime: the loop is the whole period
        assert_eq!(loop_length(2048), 683); // 2049 = 3 x 683
        for i in [256u64, 512, 1024, 2048, 4096] {
            assert_eq!((i + 1) % loop_length(i) as u64, 0);
        }
    }

    #[test]
    fn shares_in_proportion_are_within_the_bound_and_an_aliased_one_is_not() {
        // Four PCs of 1000 population ops each, 400 samples.
        let even = ErrorStats::of(&[(1000, 100); 4], 4000, 400);
        assert_eq!((even.items, even.beyond_3sigma), (4, 0));
        assert!(even.max_z < 1e-9 && even.tvd < 1e-9 && even.within());
        // Every sample on one PC: z = (1 - 1/4) / sqrt(1/4 * 3/4 / 400) = 34.6.
        let aliased = ErrorStats::of(&[(1000, 400), (1000, 0), (1000, 0), (1000, 0)], 4000, 400);
        assert!((aliased.max_z - 34.64).abs() < 0.01, "{}", aliased.max_z);
        assert_eq!(aliased.beyond_3sigma, 4);
        assert!((aliased.tvd - 75.0).abs() < 1e-9);
        assert!(!aliased.within());
        // Too few expected samples for the normal approximation: not counted.
        assert_eq!(ErrorStats::of(&[(1, 0), (3999, 400)], 4000, 400).items, 1);
    }
}
