//! `spe decode`: prints a line per record of an SPE buffer, then its packets the way `perf
//! report -D` does, and checks it: bad or truncated packets, abandoned records, an
//! unterminated tail, and (with `--check-slots`) the record rules of the
//! docs/spe-reference.md §7.5 for every record slot (64 bytes, or `--slot 128` for a unit
//! with FEAT_SPE_CRR). An empty file or one that is recognisably something else (text,
//! ELF, perf.data, VCD) is refused.

use clap::Args;
use spe_decode::{check_record_rules, decode, dump, record_summary};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct DecodeArgs {
    /// The raw SPE buffer (as written by `spe sim --out`, or perf's AUX data).
    file: PathBuf,
    /// Print only the totals (no packet dump, no per-record lines).
    #[arg(long)]
    summary: bool,
    /// Print nothing but errors and the totals line.
    #[arg(long)]
    quiet: bool,
    /// Also check every record slot against the record rules (this unit's record format).
    #[arg(long)]
    check_slots: bool,
    /// The record slot for `--check-slots`: 64 bytes, or 128 for a unit with FEAT_SPE_CRR
    /// (presets v1p4, v1p5, smt2_v1p4; PMSIDR.MaxSize = 7).
    #[arg(long, value_name = "BYTES", default_value_t = 64, value_parser = parse_slot)]
    slot: usize,
    /// Fail unless exactly N records decode.
    #[arg(long, value_name = "N", value_parser = crate::parse_usize)]
    expect_records: Option<usize>,
}

pub fn run(a: DecodeArgs) -> Result<ExitCode, String> {
    let buf =
        std::fs::read(&a.file).map_err(|e| format!("cannot read {}: {e}", a.file.display()))?;
    if buf.is_empty() {
        return Err(format!(
            "{} is empty: no SPE data to decode",
            a.file.display()
        ));
    }
    if let Some(kind) = crate::files::file_kind(&buf) {
        return Err(format!(
            "{} is not a raw SPE buffer: it is {kind}",
            a.file.display()
        ));
    }
    let d = decode(&buf);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let io = crate::output_error;
    // A line per record first (what `spe decode FILE | head` should show), then every
    // packet, perf-dump style.
    if !a.summary && !a.quiet {
        for (i, r) in d.records.iter().enumerate() {
            writeln!(out, "{}", record_summary(i, r)).map_err(io)?;
        }
        writeln!(out).map_err(io)?;
        out.write_all(dump(&buf).as_bytes()).map_err(io)?;
        writeln!(out).map_err(io)?;
    }
    let mut problems = Vec::new();
    for &o in &d.bad_offsets {
        problems.push(format!("bad packet at offset {o:#x}"));
    }
    for &o in &d.truncated_offsets {
        problems.push(format!("truncated packet at offset {o:#x}"));
    }
    for ab in &d.abandoned {
        problems.push(format!(
            "record at {:#x} abandoned at {:#x} ({:?})",
            ab.start, ab.at, ab.cause
        ));
    }
    if let Some(t) = &d.unterminated_tail {
        problems.push(format!(
            "bytes {:#x}..{:#x} are not terminated by Timestamp or End",
            t.start, t.end
        ));
    }
    if a.check_slots {
        let size = a.slot;
        if buf.len() % size != 0 {
            problems.push(format!(
                "buffer size {} is not a whole number of {size}-byte slots",
                buf.len()
            ));
        }
        for (i, slot) in buf.chunks_exact(size).enumerate() {
            for p in check_record_rules(slot) {
                problems.push(format!("slot {i} at {:#x}: {p}", i * size));
            }
        }
    }
    if let Some(n) = a.expect_records {
        if n != d.records.len() {
            problems.push(format!("expected {n} records, decoded {}", d.records.len()));
        }
    }
    writeln!(
        out,
        "{} bytes, {} packets, {} records, {} bad, {} truncated, {} abandoned",
        buf.len(),
        d.packets.len(),
        d.records.len(),
        d.bad_offsets.len(),
        d.truncated_offsets.len(),
        d.abandoned.len()
    )
    .map_err(io)?;
    const SHOWN: usize = 20;
    for p in problems.iter().take(SHOWN) {
        eprintln!("spe decode: {p}");
    }
    if problems.len() > SHOWN {
        eprintln!(
            "spe decode: ... and {} more problems",
            problems.len() - SHOWN
        );
    }
    Ok(if problems.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// `--slot`: a record slot size some preset builds (`Config::record_size`).
fn parse_slot(v: &str) -> Result<usize, String> {
    let n = crate::parse_usize(v)?;
    if spe_defs::PRESETS.iter().any(|c| c.record_size() == n) {
        Ok(n)
    } else {
        Err(format!(
            "{n} is not a record slot size of this unit (64, or 128 with FEAT_SPE_CRR)"
        ))
    }
}
