//! The memory responder detects every write-protocol violation it claims to detect,
//! accepts clean records under any backpressure, and injects errors on real handshakes.

mod common;

use common::{seed, FakeDut};
use common::{BEATS_PER_RECORD, RECORD_SIZE};
use spe_bench::{
    run, Backpressure, ErrorInjection, Memory, MemoryProfile, SampleSettings, ViolationKind,
};
use spe_defs::impdef::{BEAT_BYTES, BEAT_STRB};
use spe_defs::Config;
use spe_ports::{Inputs, Outputs};
use spe_stim::Workload;

const FILE: &str = "memory_protocol";
const BASE: u64 = 0x1000;
const LIMIT: u64 = 0x3000;

fn memory(backpressure: Backpressure, errors: ErrorInjection) -> Memory {
    let mut m = Memory::new(
        MemoryProfile {
            backpressure,
            errors,
            ..MemoryProfile::default()
        },
        1,
    );
    m.set_window(0, BASE, LIMIT);
    m
}

/// Never ready (a stall that does not end).
fn stalled() -> Memory {
    memory(
        Backpressure::Stalls {
            p_stall: 1.0,
            min: u32::MAX,
            max: u32::MAX,
        },
        ErrorInjection::Never,
    )
}

fn beat(addr: u64, data: u64) -> Outputs {
    Outputs {
        wr_valid: true,
        wr_addr: addr,
        wr_data: data,
        wr_strb: BEAT_STRB,
        ..Outputs::default()
    }
}

fn idle() -> Outputs {
    Outputs::default()
}

/// One cycle: the memory drives, then sees `out`. Returns what it drove.
fn cycle(m: &mut Memory, c: u64, out: &Outputs) -> Inputs {
    let mut inp = Inputs::default();
    m.drive(c, &mut inp);
    m.observe(c, out);
    inp
}

fn kinds(m: &Memory) -> Vec<ViolationKind> {
    m.violations().iter().map(|v| v.kind).collect()
}

/// Offers a whole record at `addr`, each beat until accepted.
fn write_record(m: &mut Memory, c: &mut u64, addr: u64) {
    for b in 0..BEATS_PER_RECORD as u64 {
        loop {
            let inp = cycle(m, *c, &beat(addr + b * BEAT_BYTES as u64, addr + b));
            *c += 1;
            if inp.wr_ready {
                break;
            }
        }
    }
}

#[test]
fn a_waiting_beat_that_changes_is_a_violation() {
    let mut m = stalled();
    assert!(!cycle(&mut m, 0, &beat(BASE, 1)).wr_ready);
    cycle(&mut m, 1, &beat(BASE, 1));
    assert_eq!(m.violation_count(), 0, "holding the beat is fine");
    cycle(&mut m, 2, &beat(BASE, 2));
    cycle(&mut m, 3, &beat(BASE + 8, 2));
    let strb = Outputs {
        wr_strb: 0x0f,
        ..beat(BASE + 8, 2)
    };
    cycle(&mut m, 4, &strb);
    assert_eq!(kinds(&m), vec![ViolationKind::HeldBeatChanged; 3]);
}

#[test]
fn a_waiting_beat_that_is_withdrawn_is_a_violation() {
    let mut m = stalled();
    cycle(&mut m, 0, &beat(BASE, 1));
    cycle(&mut m, 1, &idle());
    assert_eq!(kinds(&m), vec![ViolationKind::ValidWithdrawn]);
    cycle(&mut m, 2, &idle());
    assert_eq!(m.violation_count(), 1, "idle after idle is fine");
}

#[test]
fn unaligned_beats_and_partial_byte_enables_are_violations() {
    let mut m = memory(Backpressure::AlwaysReady, ErrorInjection::Never);
    cycle(&mut m, 0, &beat(BASE + 4, 0));
    assert!(kinds(&m).contains(&ViolationKind::Unaligned));
    let mut m = memory(Backpressure::AlwaysReady, ErrorInjection::Never);
    cycle(
        &mut m,
        0,
        &Outputs {
            wr_strb: 0x7f,
            ..beat(BASE, 0)
        },
    );
    assert_eq!(kinds(&m), vec![ViolationKind::PartialStrobe]);
}

#[test]
fn beats_out_of_order_within_a_record_are_violations() {
    let mut m = memory(Backpressure::AlwaysReady, ErrorInjection::Never);
    cycle(&mut m, 0, &beat(BASE, 0));
    cycle(&mut m, 1, &beat(BASE + 8, 0));
    cycle(&mut m, 2, &beat(BASE + 24, 0));
    assert_eq!(kinds(&m), vec![ViolationKind::OutOfOrder]);
    let mut m = memory(Backpressure::AlwaysReady, ErrorInjection::Never);
    cycle(&mut m, 0, &beat(BASE + 8, 0));
    assert_eq!(
        kinds(&m),
        vec![ViolationKind::OutOfOrder],
        "a record starts at a slot boundary"
    );
}

#[test]
fn a_record_below_the_previous_one_is_a_violation_until_the_driver_rewinds() {
    let mut m = memory(Backpressure::AlwaysReady, ErrorInjection::Never);
    let mut c = 0;
    write_record(&mut m, &mut c, BASE + RECORD_SIZE as u64);
    assert_eq!(m.violation_count(), 0);
    write_record(&mut m, &mut c, BASE);
    assert_eq!(kinds(&m), vec![ViolationKind::OutOfOrder]);
    m.open_session(0, BASE);
    write_record(&mut m, &mut c, BASE);
    assert_eq!(
        m.violation_count(),
        1,
        "after a rewind the base is fine again"
    );
}

#[test]
fn an_output_must_hold_exactly_the_records_below_pmbptr_and_nothing_follows_a_psb() {
    let mut m = memory(Backpressure::AlwaysReady, ErrorInjection::Never);
    let mut c = 0;
    m.open_session(0, BASE);
    write_record(&mut m, &mut c, BASE);
    write_record(&mut m, &mut c, BASE + RECORD_SIZE as u64);
    m.audit_session(0, c, BASE, BASE + 2 * RECORD_SIZE as u64);
    assert_eq!(
        m.violation_count(),
        0,
        "two whole records, PMBPTR after them"
    );
    // PMBPTR claims a record that was never written.
    m.open_session(0, BASE);
    write_record(&mut m, &mut c, BASE);
    m.audit_session(0, c, BASE, BASE + 2 * RECORD_SIZE as u64);
    assert_eq!(kinds(&m), vec![ViolationKind::SyncAudit]);
    // A beat after the PSB completed.
    let mut m = memory(Backpressure::AlwaysReady, ErrorInjection::Never);
    m.open_session(0, BASE);
    m.quiesce(0);
    cycle(&mut m, 0, &beat(BASE, 0));
    assert_eq!(kinds(&m), vec![ViolationKind::SyncAudit]);
    // A beat that does not continue the output (PMBPTR went back under it).
    let mut m = memory(Backpressure::AlwaysReady, ErrorInjection::Never);
    let mut c = 0;
    m.open_session(0, BASE + RECORD_SIZE as u64);
    write_record(&mut m, &mut c, BASE);
    assert!(kinds(&m).contains(&ViolationKind::SyncAudit));
}

#[test]
fn writes_outside_the_buffer_window_are_violations() {
    let mut m = memory(Backpressure::AlwaysReady, ErrorInjection::Never);
    let mut c = 0;
    write_record(&mut m, &mut c, LIMIT - RECORD_SIZE as u64);
    assert_eq!(
        m.violation_count(),
        0,
        "the last slot below the limit is fine"
    );
    m.open_session(0, LIMIT);
    cycle(&mut m, c, &beat(LIMIT, 0));
    assert_eq!(kinds(&m), vec![ViolationKind::PastLimit]);
    let mut m2 = memory(Backpressure::AlwaysReady, ErrorInjection::Never);
    cycle(&mut m2, 0, &beat(BASE - RECORD_SIZE as u64, 0));
    assert_eq!(kinds(&m2), vec![ViolationKind::BelowBase]);
}

#[test]
fn clean_records_under_random_backpressure_are_stored_intact() {
    let mut m = memory(Backpressure::Random { p_ready: 0.3 }, ErrorInjection::Never);
    let mut c = 0;
    for r in 0..4 {
        write_record(&mut m, &mut c, BASE + r * RECORD_SIZE as u64);
    }
    assert_eq!(m.violation_count(), 0, "{:?}", m.violations());
    assert_eq!(m.beats(), 4 * BEATS_PER_RECORD as u64);
    let bytes = m.read(BASE + RECORD_SIZE as u64, 16);
    assert_eq!(
        u64::from_le_bytes(bytes[..8].try_into().unwrap()),
        BASE + RECORD_SIZE as u64
    );
    assert_eq!(
        u64::from_le_bytes(bytes[8..].try_into().unwrap()),
        BASE + RECORD_SIZE as u64 + 1
    );
    assert_eq!(
        m.read(LIMIT, 4),
        vec![0; 4],
        "unwritten memory reads as zero"
    );
}

#[test]
fn an_error_is_injected_on_the_chosen_beat_with_a_real_handshake() {
    let mut m = memory(Backpressure::AlwaysReady, ErrorInjection::AtBeat(3));
    let mut errs = Vec::new();
    let mut accepted = 0u64;
    let mut c = 0;
    while accepted < 6 {
        let addr = BASE + accepted * BEAT_BYTES as u64;
        let inp = cycle(&mut m, c, &beat(addr, accepted));
        if inp.wr_err {
            assert!(inp.wr_ready, "wr_err only with a handshake");
            errs.push(accepted);
        }
        if inp.wr_ready {
            accepted += 1;
        }
        c += 1;
    }
    assert_eq!(errs, vec![3]);
    assert_eq!(m.errors_injected(), 1);
    // wr_err is never driven in a cycle with no beat offered.
    let mut m = memory(Backpressure::AlwaysReady, ErrorInjection::AtBeat(0));
    for c in 0..10 {
        assert!(!cycle(&mut m, c, &idle()).wr_err);
    }
}

#[test]
fn backpressure_of_any_length_loses_no_record() {
    let seed = seed(FILE, "backpressure_of_any_length_loses_no_record");
    let cfg = Config::default();
    let w = Workload::by_name("loop").unwrap();
    let s = SampleSettings {
        buffer_size: 16 << 10,
        ..SampleSettings::perf_default(&cfg)
    };
    for bp in [
        Backpressure::Random { p_ready: 0.2 },
        Backpressure::Stalls {
            p_stall: 0.01,
            min: 100,
            max: 5000,
        },
    ] {
        let mut dut = FakeDut::new(cfg.dispatch_width, 31);
        let prof = MemoryProfile {
            backpressure: bp,
            ..MemoryProfile::default()
        };
        let r = run(&mut dut, &cfg, &w, &s, &prof, 150_000, seed, &mut |_, _| {}).unwrap();
        assert_eq!(r.stats.protocol_violations, 0, "{bp:?}: {:?}", r.violations);
        assert!(dut.records > 0);
        assert_eq!(
            r.stats.records_written, dut.records,
            "{bp:?}: every record written is drained"
        );
        // The fake writes record n as words n << 32 | beat, in order.
        for (i, w) in r.aux.chunks(8).enumerate() {
            let v = u64::from_le_bytes(w.try_into().unwrap());
            let (n, b) = (i / BEATS_PER_RECORD, i % BEATS_PER_RECORD);
            assert_eq!(v, (n as u64) << 32 | b as u64, "{bp:?}: word {i}");
        }
    }
}

#[test]
fn an_external_abort_ends_the_record_unless_the_unit_ignores_it() {
    // Beat 3 gets an external abort (the default fault kind). A unit that reports it stops
    // there: going on with beat 4 breaks the record's order. A unit that ignores external
    // aborts (PMBIDR.EA = 1, preset v1p4) writes the whole record and the next one.
    for ignored in [false, true] {
        let mut m = Memory::new(
            MemoryProfile {
                backpressure: Backpressure::AlwaysReady,
                errors: ErrorInjection::AtBeat(3),
                ..MemoryProfile::default() // fault: external abort
            },
            1,
        );
        m.set_window(0, BASE, LIMIT);
        m.ignore_external_aborts(ignored);
        let mut c = 0;
        write_record(&mut m, &mut c, BASE);
        write_record(&mut m, &mut c, BASE + RECORD_SIZE as u64);
        assert_eq!(m.errors_injected(), 1);
        if ignored {
            assert!(kinds(&m).is_empty(), "{:?}", m.violations());
        } else {
            assert!(
                kinds(&m).contains(&ViolationKind::OutOfOrder),
                "{:?}",
                kinds(&m)
            );
        }
    }
}

#[test]
fn a_fault_sweep_walks_every_beat_of_a_record_and_every_kind() {
    use spe_bench::memory::FaultSpec;
    use spe_defs::regs::pmbsr;
    let mut m = Memory::new(
        MemoryProfile {
            backpressure: Backpressure::AlwaysReady,
            errors: ErrorInjection::Sweep { every: 1, start: 0 },
            fault: FaultSpec::Any,
        },
        1,
    );
    m.set_window(0, BASE, LIMIT);
    let kinds = pmbsr::ERR_KINDS;
    let mut c = 0;
    let mut seen = std::collections::BTreeSet::new();
    // Record r gets the r-th fault (every = 1): on its beat r mod 8, of kind
    // (r + r / 8) mod 4; a faulting beat ends the record, as the unit ends it.
    for r in 0..32u64 {
        let addr = BASE + r * RECORD_SIZE as u64;
        let mut fault = None;
        for b in 0..BEATS_PER_RECORD as u64 {
            // Offered until accepted (an error waits for a beat that is already offered).
            let inp = loop {
                let inp = cycle(&mut m, c, &beat(addr + b * BEAT_BYTES as u64, r));
                c += 1;
                if inp.wr_ready {
                    break inp;
                }
            };
            if inp.wr_err {
                fault = Some((b, inp.wr_err_kind));
                break;
            }
        }
        let want = (r % 8, kinds[((r + r / 8) % 4) as usize]);
        assert_eq!(fault, Some(want), "record {r}");
        seen.insert(want);
    }
    assert_eq!(
        seen.len(),
        32,
        "32 faults in a row meet every kind at every beat"
    );
    assert_eq!(m.violation_count(), 0, "{:?}", m.violations());
    // Every other record with every = 2; none with a parse of 0.
    assert_eq!(
        MemoryProfile::parse_errors("sweep:2"),
        Ok(ErrorInjection::Sweep { every: 2, start: 0 })
    );
    assert!(MemoryProfile::parse_errors("sweep:0").is_err());
    let zero = MemoryProfile {
        errors: ErrorInjection::Sweep { every: 0, start: 0 },
        ..MemoryProfile::default()
    };
    assert!(
        zero.validate().is_err(),
        "a sweep of every 0 records injects nothing"
    );
}
