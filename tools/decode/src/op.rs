//! Operation Type subclasses: recognises the payload encodings of docs/spe-reference.md §1.4 with the
//! tests newer perf uses (`arm-spe-pkt-decoder.h`, `SPE_OP_PKT_*`), in perf's order, and
//! describes them with perf's words (`arm_spe_pkt_desc_op_type()`).
//!
//! The masks that `spe_defs::packet::subclass` already names are used from there; the SVE,
//! SME, GCS and CR encodings are named there too.

use spe_defs::packet::{op_class, subclass as sc};

/// perf `GENMASK_ULL(7, 1)`: load/store subclass bits, everything but ST.
const LDST_SUBCLASS_MASK: u8 = !sc::LDST_ST;
/// Every branch payload bit the architecture defines (COND, IND, GCS, CR).
const BR_DEFINED: u8 = sc::BR_COND | sc::BR_IND | sc::BR_GCS | (sc::BR_CR_FIELD << sc::BR_CR_SHIFT);

/// A recognised subclass, in the order perf tests for it.
enum Subclass {
    /// Class 0, `(v & 0x89) == 0x08`.
    SveOther,
    /// Class 0, `(v & 0x89) == 0x88`.
    SmeOther,
    /// Class 0, `(v & 0xF8) == 0`.
    Other,
    /// Class 1 encodings.
    Extended,
    SimdFp,
    GpReg,
    UnspecReg,
    NvSysreg,
    MteTag,
    Memcpy,
    Memset,
    SveSmeReg,
    Gcs,
    /// Class 2: every payload is described; reserved bits 7:5 are reported by the checker.
    Branch,
    /// Class 0 or 1 payload that matches no known encoding (perf prints no subclass words).
    Unknown,
    /// Class 3: undefined.
    Reserved,
}

/// Recognises the subclass of `v` for `class`, with perf's tests in perf's order.
fn classify(class: u8, v: u8) -> Subclass {
    let ldst = |mask: u8, value: u8| v & mask == value;
    match class {
        op_class::OTHER if v & sc::OTHER_SVE_SME_MASK == sc::OTHER_SVE => Subclass::SveOther,
        op_class::OTHER if v & sc::OTHER_SVE_SME_MASK == sc::OTHER_SME => Subclass::SmeOther,
        op_class::OTHER if v & sc::OTHER_PLAIN_MASK == 0 => Subclass::Other,
        op_class::LD_ST_ATOMIC if ldst(sc::LDST_EXT_MASK, sc::LDST_EXT) => Subclass::Extended,
        op_class::LD_ST_ATOMIC if ldst(LDST_SUBCLASS_MASK, sc::LDST_SIMD_FP) => Subclass::SimdFp,
        op_class::LD_ST_ATOMIC if ldst(LDST_SUBCLASS_MASK, sc::LDST_GP) => Subclass::GpReg,
        op_class::LD_ST_ATOMIC if ldst(LDST_SUBCLASS_MASK, sc::LDST_UNSPEC) => Subclass::UnspecReg,
        op_class::LD_ST_ATOMIC if ldst(LDST_SUBCLASS_MASK, sc::LDST_NV2_SYSREG) => {
            Subclass::NvSysreg
        }
        op_class::LD_ST_ATOMIC if ldst(LDST_SUBCLASS_MASK, sc::LDST_MTE_TAG) => Subclass::MteTag,
        op_class::LD_ST_ATOMIC if ldst(LDST_SUBCLASS_MASK, sc::LDST_MEMCPY) => Subclass::Memcpy,
        op_class::LD_ST_ATOMIC if v == sc::LDST_MEMSET => Subclass::Memset,
        op_class::LD_ST_ATOMIC if ldst(sc::LDST_SVE_SME_MASK, sc::LDST_SVE_SME) => {
            Subclass::SveSmeReg
        }
        op_class::LD_ST_ATOMIC if ldst(sc::LDST_GCS_MASK, sc::LDST_GCS) => Subclass::Gcs,
        op_class::OTHER | op_class::LD_ST_ATOMIC => Subclass::Unknown,
        op_class::BRANCH => Subclass::Branch,
        _ => Subclass::Reserved,
    }
}

/// SVE effective vector length, perf `SPE_OP_PKG_SVE_EVL`: `32 << v[6:4]`.
fn sve_evl(v: u8) -> u32 {
    32 << ((v >> sc::VL_SHIFT) & sc::VL_FIELD)
}

/// SME effective tile size, perf `SPE_OP_PKG_SME_ETS`: `128 << (v[6:4] << 1 | v[2])`.
fn sme_ets(v: u8) -> u32 {
    128 << ((u32::from((v >> sc::VL_SHIFT) & sc::VL_FIELD) << 1) | u32::from((v >> 2) & 1))
}

/// Appends `word` (with a leading space) to `s` when `cond` holds.
fn flag(s: &mut String, cond: bool, word: &str) {
    if cond {
        s.push(' ');
        s.push_str(word);
    }
}

/// perf's description of an Operation Type packet (newer `arm_spe_pkt_desc_op_type()`), e.g.
/// `LD GP-REG`, `B COND`, `B IND CR-RET`, `OTHER INSN-OTHER`. `None` for class 3, for which
/// perf falls back to the raw form (see `crate::text::describe`). A class-0 payload that
/// matches no encoding gives an empty string, as in perf.
pub fn describe_op(class: u8, v: u8) -> Option<String> {
    let mut s = String::new();
    match classify(class, v) {
        Subclass::Reserved => return None,
        Subclass::SveOther => {
            s.push_str(&format!("SVE-OTHER EVLEN {}", sve_evl(v)));
            flag(&mut s, v & sc::SVE_FP != 0, "FP");
            flag(&mut s, v & sc::SVE_PRED != 0, "PRED");
        }
        Subclass::SmeOther => {
            s.push_str(&format!("SME-OTHER ETS {}", sme_ets(v)));
            flag(&mut s, v & sc::OTHER_FP != 0, "FP");
        }
        Subclass::Other => {
            s.push_str("OTHER");
            flag(&mut s, v & sc::OTHER_SIMD != 0, "ASE");
            flag(&mut s, v & sc::OTHER_FP != 0, "FP");
            flag(
                &mut s,
                true,
                if v & sc::OTHER_COND != 0 {
                    "COND-SELECT"
                } else {
                    "INSN-OTHER"
                },
            );
        }
        Subclass::Branch => {
            s.push('B');
            flag(&mut s, v & sc::BR_COND != 0, "COND");
            flag(&mut s, v & sc::BR_IND != 0, "IND");
            flag(&mut s, v & sc::BR_GCS != 0, "GCS");
            let cr = sc::br_cr(v);
            flag(&mut s, cr == sc::CR_BL, "CR-BL");
            flag(&mut s, cr == sc::CR_RET, "CR-RET");
            flag(&mut s, cr == sc::CR_NON_BL_RET, "CR-NON-BL-RET");
        }
        Subclass::Unknown if class == op_class::OTHER => {}
        ldst => {
            s.push_str(if sc::ldst_is_store(v) { "ST" } else { "LD" });
            match ldst {
                Subclass::Extended => {
                    flag(&mut s, v & sc::LDST_EXT_AT != 0, "AT");
                    flag(&mut s, v & sc::LDST_EXT_EXCL != 0, "EXCL");
                    flag(&mut s, v & sc::LDST_EXT_AR != 0, "AR");
                }
                Subclass::SimdFp => flag(&mut s, true, "SIMD-FP"),
                Subclass::GpReg => flag(&mut s, true, "GP-REG"),
                Subclass::UnspecReg => flag(&mut s, true, "UNSPEC-REG"),
                Subclass::NvSysreg => flag(&mut s, true, "NV-SYSREG"),
                Subclass::MteTag => flag(&mut s, true, "MTE-TAG"),
                Subclass::Memcpy => flag(&mut s, true, "MEMCPY"),
                Subclass::Memset => flag(&mut s, true, "MEMSET"),
                Subclass::SveSmeReg => {
                    s.push_str(&format!(" SVE-SME-REG EVLEN {}", sve_evl(v)));
                    flag(&mut s, v & sc::SVE_PRED != 0, "PRED");
                    flag(&mut s, v & sc::SVE_SG != 0, "SG");
                }
                Subclass::Gcs => {
                    flag(&mut s, true, "GCS");
                    flag(&mut s, v & sc::GCS_COMM != 0, "COMM");
                }
                _ => {}
            }
        }
    }
    Some(s)
}

/// True when `v` is one of the subclass encodings of docs/spe-reference.md §1.4 for `class` (0..=2):
/// class 0 Other/SVE/SME, class 1 one of the listed load/store subclasses, class 2 with no
/// bit set outside COND, IND, GCS and CR. Always false for class 3.
pub fn subclass_is_defined(class: u8, v: u8) -> bool {
    match classify(class, v) {
        Subclass::Unknown | Subclass::Reserved => false,
        Subclass::Branch => v & !BR_DEFINED == 0,
        _ => true,
    }
}
