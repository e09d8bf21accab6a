//! The core model's calls into EL3 firmware (`CoreParams::el3_rate`): stretches of kernel
//! code run at EL3 in Secure state, AArch64, entered from and returning to the kernel,
//! each at most `el3_len` ops long; none without the lever. Driven at the ports with no
//! unit behind it (nothing tagged).

use spe_defs::Config;
use spe_ports::{Inputs, Outputs};
use spe_stim::core::Core;
use spe_stim::Workload;

/// Each dispatching cycle's (EL, NS, AArch32, valid slots) of `modes` (kernel entries at
/// 0.002 an op) for `cycles` cycles with `el3_rate`.
fn groups(el3_rate: f64, cycles: u64) -> Vec<(u8, bool, bool, usize)> {
    let cfg = Config::default();
    let w = Workload::by_name("modes").unwrap();
    let mut params = w.params;
    params.el3_rate = el3_rate;
    params.el3_len = (16, 128);
    let mut core = Core::new(&cfg, w.program, params, 11).unwrap();
    let mut seen = Vec::new();
    for cycle in 0..cycles {
        let mut inp = Inputs::default();
        core.drive(cycle, &mut inp);
        core.observe(cycle, &Outputs::default());
        let n = inp.disp.iter().filter(|s| s.valid).count();
        if n > 0 {
            let x = &inp.thr[0];
            seen.push((x.disp_el, x.disp_ns, x.disp_aarch32, n));
        }
    }
    seen
}

#[test]
fn calls_into_el3_run_kernel_code_at_el3_in_secure_state_and_return_to_the_kernel() {
    let seen = groups(0.01, 200_000);
    let mut stretches = 0;
    let mut lens = Vec::new();
    let mut i = 0;
    while i < seen.len() {
        if seen[i].0 != 3 {
            i += 1;
            continue;
        }
        // A stretch: entered from EL1 (the kernel's SMC), Secure, AArch64, back to EL1.
        assert!(
            i > 0 && seen[i - 1].0 == 1,
            "EL3 entered from EL{}",
            seen[i - 1].0
        );
        let start = i;
        let mut ops = 0;
        while i < seen.len() && seen[i].0 == 3 {
            let (_, ns, a32, n) = seen[i];
            assert!(
                !ns && !a32,
                "an EL3 group non-secure ({ns}) or AArch32 ({a32})"
            );
            ops += n;
            i += 1;
        }
        if i < seen.len() {
            assert_eq!(
                seen[i].0, 1,
                "EL3 left for EL{} after group {start}",
                seen[i].0
            );
        }
        lens.push(ops);
        stretches += 1;
    }
    assert!(
        stretches >= 5,
        "only {stretches} calls into EL3 in 200,000 cycles"
    );
    // el3_len is 16 to 128 correct-path ops; the ports show wrong-path ops (flushed, at
    // the same EL) too, so the mean over the stretches lies in the range with room.
    let mean = lens.iter().sum::<usize>() as f64 / lens.len() as f64;
    eprintln!("{stretches} calls into EL3, mean {mean:.0} ops at the ports");
    assert!(
        (16.0..=192.0).contains(&mean),
        "mean stretch {mean:.0} ops (el3_len 16 to 128): {lens:?}"
    );
    assert!(
        groups(0.0, 200_000).iter().all(|g| g.0 != 3),
        "EL3 without the lever"
    );
}
