//! One thread's hook reports in a cycle as a bit set, so that the stimulus that breaks the
//! reporting protocol (chaos's forbidden reports) and the functional coverage that
//! observes it (`hook/repeated`, `hook/wrong-class`) name the reports and the acceptance
//! rule alike (`spe_defs::impdef`, choice hook-reports: translation and memory reports
//! count for a load/store only, branch reports for a branch only, each report once).

use spe_defs::packet::op_class;
use spe_ports::ThreadInputs;

pub const ISSUE: u8 = 1;
pub const XL_START: u8 = 1 << 1;
pub const XL_DONE: u8 = 1 << 2;
pub const MEM: u8 = 1 << 3;
pub const BRANCH: u8 = 1 << 4;
/// Every kind, lowest bit first.
pub const KINDS: [u8; 5] = [ISSUE, XL_START, XL_DONE, MEM, BRANCH];

/// The reports on thread lanes `x` this cycle (`iss_valid`, `xl_start`, `xl_done`,
/// `mem_done`, `br_done`; the completion is not among them).
pub fn reported(x: &ThreadInputs) -> u8 {
    [x.iss_valid, x.xl.start, x.xl.done, x.mem.done, x.br.done]
        .into_iter()
        .zip(KINDS)
        .fold(0, |m, (on, k)| if on { m | k } else { m })
}

/// The reports an op of class `class` (`op_class`; the reserved class counts as other)
/// never takes: the unit ignores them (`hook_stray`).
pub const fn wrong_class(class: u8) -> u8 {
    match class & 3 {
        op_class::LD_ST_ATOMIC => BRANCH,
        op_class::BRANCH => XL_START | XL_DONE | MEM,
        _ => XL_START | XL_DONE | MEM | BRANCH,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_and_the_class_rule() {
        let mut x = ThreadInputs::default();
        assert_eq!(reported(&x), 0);
        x.xl.done = true;
        x.br.done = true;
        assert_eq!(reported(&x), XL_DONE | BRANCH);
        assert_eq!(wrong_class(op_class::LD_ST_ATOMIC), BRANCH);
        assert_eq!(wrong_class(op_class::BRANCH) & BRANCH, 0);
        assert_eq!(
            wrong_class(op_class::OTHER),
            wrong_class(op_class::RESERVED)
        );
        assert_eq!(wrong_class(op_class::OTHER) & ISSUE, 0, "every op issues");
    }
}
