//! FEAT_SPE_FPF (`Options::fpf`, PMSIDR_EL1.FPF): the Operation Type of a class-Other op
//! that is not SVE or SME keeps the FP (bit 1) and SIMD (bit 2) flags the core reports
//! (Arm ARM D18.2.7: without it they read as zero).
//!
//! ```text
//!  class Other, not SVE/SME: payload as reported & other_keep(cfg) --> payload as recorded (capture)
//! ```
//!
//! The option is a constant and no logic: the capture block's mask of the payload bits a
//! class-Other op keeps (`k_other_keep`), COND alone without FPF, COND, FP and SIMD with it,
//! the definitions' `spe_defs::packet::subclass::other_keep` (which `recorded_payload`
//! uses too); a test below holds the mask to `recorded_payload`.

use spe_defs::packet::subclass;
use spe_defs::Config;

/// The payload bits of a class-Other op without the SVE/SME bit that the record keeps.
pub const fn other_keep(cfg: &Config) -> u8 {
    subclass::other_keep(cfg)
}

#[cfg(test)]
mod tests {
    use super::*;
    use spe_defs::packet::op_class;

    #[test]
    fn the_mask_is_the_recorded_payload_of_a_class_other_op() {
        for fpf in [false, true] {
            let mut cfg = spe_defs::Config::default();
            cfg.options.fpf = fpf;
            for v in 0..=u8::MAX {
                if v & subclass::OTHER_SVE_SME_BIT == 0 {
                    assert_eq!(
                        v & other_keep(&cfg),
                        subclass::recorded_payload(op_class::OTHER, v, &cfg),
                        "fpf {fpf}, payload {v:#04x}"
                    );
                }
            }
        }
    }
}
