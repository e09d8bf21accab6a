//! FEAT_SPEv1p3's buffer rules (`Options::v1p3`, PMBIDR_EL1.EA = 0b0001 and F = 1): the PE
//! ignores an external abort on a write of the Statistical Profiling Unit. F = 1 is the
//! core's MMU's (the translation of buffer writes manages the Access flag and dirty state);
//! both fields are rows of the register table.
//!
//! ```text
//!  wr_err, wr_err_kind (the write response) --> [ WriterV1p3 ] --> err (the response's error, less an ignored external abort)
//! ```
//!
//! The writer takes `err` instead of the response's own (choice: external-abort).

use rust_hdl::prelude::*;

/// The writer's part (`spe_writer_v1p3_<preset>`): the response's `err`, low for an
/// external abort (`kind` 00, or the reserved 11 counted as one): the beat counts as
/// written. Stage 1 and 2 faults (01, 10) still stop the record.
#[derive(LogicBlock, Default)]
pub struct WriterV1p3 {
    pub err_in: Signal<In, Bit>,
    pub kind: Signal<In, Bits<2>>,
    pub err: Signal<Out, Bit>,
}

// The kernel's test for an external abort, the kind's two bits equal, is the definitions'
// encoding of the kinds (`spe_defs::regs::pmbsr::is_external`): checked at compile time.
const _: () = {
    use spe_defs::regs::pmbsr::{is_external, ERR_KINDS};
    let mut i = 0;
    while i < ERR_KINDS.len() {
        let k = ERR_KINDS[i];
        assert!(is_external(k) == ((k & 1) == ((k >> 1) & 1)));
        i += 1;
    }
};

impl Logic for WriterV1p3 {
    #[hdl_gen]
    fn update(&mut self) {
        self.err.next =
            self.err_in.val() & (self.kind.val().get_bit(0) != self.kind.val().get_bit(1));
    }
}
