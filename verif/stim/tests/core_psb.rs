//! The core model's side of a PSB CSYNC that meets a sampled op (`Core::psb_meets_young`,
//! `Core::psb_lag`), driven cycle by cycle at its ports with no unit behind it: the test
//! plays the unit's tag.

use spe_defs::Config;
use spe_ports::{Inputs, Outputs};
use spe_stim::core::{Core, YOUNG_WINDOW};
use spe_stim::Workload;

/// A core running `mix` with `young` as its `psb_young_rate`, and the cycle at which the
/// first op it dispatched was tagged (it follows that op from then on).
fn tagged_core(young: f64, lag_max: u32) -> (Core, u64) {
    let cfg = Config::default();
    let w = Workload::by_name("mix").unwrap();
    let mut params = w.params;
    params.psb_young_rate = young;
    params.psb_lag_max = lag_max;
    let mut core = Core::new(&cfg, w.program, params, 7).unwrap();
    for cycle in 0..1_000 {
        let mut inp = Inputs::default();
        core.drive(cycle, &mut inp);
        let mut out = Outputs::default();
        if let Some(k) = inp.disp.iter().position(|s| s.valid) {
            out.tag = 1 << k;
        }
        core.observe(cycle, &out);
        if out.tag != 0 {
            assert!(core.is_tracking());
            return (core, cycle);
        }
    }
    panic!("the core dispatched nothing in 1,000 cycles");
}

#[test]
fn only_an_op_tagged_within_the_young_window_can_be_younger_than_a_psb() {
    // psb_young_rate 1: every PSB that may find the op younger does. A PSB CSYNC
    // dispatched before the op has executed YOUNG_WINDOW cycles after the op's tag, so
    // a later one is older than the op and waits for its completion.
    let (mut core, at) = tagged_core(1.0, 0);
    assert!(core.psb_meets_young(at + 1));
    assert!(core.psb_meets_young(at + YOUNG_WINDOW));
    assert!(!core.psb_meets_young(at + YOUNG_WINDOW + 1));
    assert!(!core.psb_meets_young(at + 1_000_000));
    // Without the lever no PSB finds it younger, however soon.
    let (mut core, at) = tagged_core(0.0, 0);
    assert!(!core.psb_meets_young(at + 1));
}

#[test]
fn a_held_psb_lags_by_zero_to_psb_lag_max_cycles_each_value_drawn() {
    let (mut core, _) = tagged_core(0.0, 0);
    assert!((0..100).all(|_| core.psb_lag() == 0));
    let (mut core, _) = tagged_core(0.0, 3);
    let mut seen = [0u32; 4];
    for _ in 0..400 {
        let l = core.psb_lag();
        assert!(l <= 3, "lag {l} above psb_lag_max 3");
        seen[l as usize] += 1;
    }
    assert!(
        seen.iter().all(|&n| n > 50),
        "lags drawn unevenly: {seen:?}"
    );
}
