//! SPE packet encodings (Arm ARM shared pseudocode `SPEAddPacketToRecord`; Linux perf
//! `arm-spe-pkt-decoder`). Header byte: `hi[7:6] SZ[5:4] lo[3:0]`, payload `1 << SZ` bytes,
//! little-endian.

/// Padding (no payload).
pub const PAD: u8 = 0x00;
/// End of record when no timestamp is collected (no payload).
pub const END: u8 = 0x01;
/// Timestamp: 8-byte payload, ends the record.
pub const TIMESTAMP: u8 = 0x71;

/// A header family recognised by `(byte & mask) == value`, in the decoder's match order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeaderPattern {
    pub mask: u8,
    pub value: u8,
}

impl HeaderPattern {
    pub const fn matches(&self, byte: u8) -> bool {
        (byte & self.mask) == self.value
    }
}

/// Events packet: `01 SZ 0010` (any SZ).
pub const EVENTS: HeaderPattern = HeaderPattern {
    mask: 0xCF,
    value: 0x42,
};
/// Data Source packet: `01 SZ 0011` (any SZ).
pub const DATA_SOURCE: HeaderPattern = HeaderPattern {
    mask: 0xCF,
    value: 0x43,
};
/// Context packet: `01 10 01ii` (SZ must be 4 bytes).
pub const CONTEXT: HeaderPattern = HeaderPattern {
    mask: 0xFC,
    value: 0x64,
};
/// Operation Type packet: `01 00 10cc` (SZ must be 1 byte).
pub const OP_TYPE: HeaderPattern = HeaderPattern {
    mask: 0xFC,
    value: 0x48,
};
/// Extended-header prefix: `0010 00ii` carrying index bits 4:3.
pub const EXTENDED: HeaderPattern = HeaderPattern {
    mask: 0xFC,
    value: 0x20,
};
/// Address packet: `10 11 0iii` (SZ must be 8 bytes).
pub const ADDRESS: HeaderPattern = HeaderPattern {
    mask: 0xF8,
    value: 0xB0,
};
/// Counter packet: `10 01 1iii` (SZ must be 2 bytes).
pub const COUNTER: HeaderPattern = HeaderPattern {
    mask: 0xF8,
    value: 0x98,
};

/// Mask of the SZ field in a header byte.
pub const SZ_MASK: u8 = 0x30;
/// Shift of the SZ field.
pub const SZ_SHIFT: u32 = 4;

/// Payload length of a short header: `1 << SZ`.
pub const fn payload_len(header: u8) -> usize {
    1usize << ((header & SZ_MASK) >> SZ_SHIFT)
}

/// SZ value for a payload of `len` bytes (1, 2, 4 or 8).
pub const fn sz_for_len(len: usize) -> u8 {
    match len {
        1 => 0,
        2 => 1,
        4 => 2,
        8 => 3,
        _ => panic!("SPE payloads are 1, 2, 4 or 8 bytes"),
    }
}

/// Fixed payload sizes the decoder insists on.
pub const ADDRESS_PAYLOAD: usize = 8;
pub const COUNTER_PAYLOAD: usize = 2;
pub const CONTEXT_PAYLOAD: usize = 4;
pub const OP_TYPE_PAYLOAD: usize = 1;
pub const TIMESTAMP_PAYLOAD: usize = 8;

/// Address packet indices.
pub mod addr_index {
    pub const PC: u8 = 0;
    pub const BRANCH_TARGET: u8 = 1;
    pub const DATA_VA: u8 = 2;
    pub const DATA_PA: u8 = 3;
    pub const PREV_BRANCH_TARGET: u8 = 4;
    /// Names as perf prints them, by index.
    pub const NAMES: [&str; 5] = ["PC", "TGT", "VA", "PA", "PBT"];
}

/// Counter packet indices.
pub mod counter_index {
    pub const TOTAL: u8 = 0;
    pub const ISSUE: u8 = 1;
    pub const TRANSLATION: u8 = 2;
    /// Names as perf prints them, by index (other indices print with no name).
    pub const NAMES: [&str; 3] = ["TOT", "ISSUE", "XLAT"];
}

/// Context packet indices.
pub mod context_index {
    pub const EL1: u8 = 0;
    pub const EL2: u8 = 1;
}

/// Short header of an Address packet with index 0..=7.
pub const fn address_header(index: u8) -> u8 {
    ADDRESS.value | (index & 7)
}
/// Short header of a Counter packet with index 0..=7.
pub const fn counter_header(index: u8) -> u8 {
    COUNTER.value | (index & 7)
}
/// Header of a Context packet.
pub const fn context_header(index: u8) -> u8 {
    CONTEXT.value | (index & 3)
}
/// Header of an Operation Type packet for a class.
pub const fn op_type_header(class: u8) -> u8 {
    OP_TYPE.value | (class & 3)
}
/// Header of an Events packet with a payload of `len` bytes.
pub const fn events_header(len: usize) -> u8 {
    EVENTS.value | (sz_for_len(len) << SZ_SHIFT)
}
/// Header of a Data Source packet with a payload of `len` bytes.
pub const fn data_source_header(len: usize) -> u8 {
    DATA_SOURCE.value | (sz_for_len(len) << SZ_SHIFT)
}

/// Operation Type classes (`hdr[1:0]`).
pub mod op_class {
    pub const OTHER: u8 = 0;
    pub const LD_ST_ATOMIC: u8 = 1;
    pub const BRANCH: u8 = 2;
    /// Undefined; perf rejects it. The unit records such ops as class OTHER, payload 0.
    pub const RESERVED: u8 = 3;
}

/// Operation Type subclass (payload) bits and encodings.
pub mod subclass {
    /// Class OTHER: conditional (b0), FP (b1), SIMD (b2).
    pub const OTHER_COND: u8 = 1 << 0;
    pub const OTHER_FP: u8 = 1 << 1;
    pub const OTHER_SIMD: u8 = 1 << 2;
    /// Class OTHER subclasses must satisfy `(v & 0xF8) == 0` unless SVE/SME (not generated here).
    pub const OTHER_PLAIN_MASK: u8 = 0xF8;

    /// Class LD_ST_ATOMIC: b0 = store.
    pub const LDST_ST: u8 = 1 << 0;
    pub const LDST_GP: u8 = 0x00;
    pub const LDST_SIMD_FP: u8 = 0x04;
    pub const LDST_UNSPEC: u8 = 0x10;
    pub const LDST_MTE_TAG: u8 = 0x14;
    pub const LDST_MEMCPY: u8 = 0x20;
    pub const LDST_MEMSET: u8 = 0x25;
    pub const LDST_NV2_SYSREG: u8 = 0x30;
    /// An NV2 access (FEAT_NV2: an MRS or MSR at EL1 turned into a load or store of the
    /// VNCR_EL2 page): `(v & LDST_NV2_MASK) == LDST_NV2_SYSREG` (ST in b0).
    pub const LDST_NV2_MASK: u8 = !LDST_ST;
    /// Extended encoding `000 AR EXCL AT 1 ST`: recognised by `(v & 0xE2) == 0x02`.
    pub const LDST_EXT: u8 = 0x02;
    pub const LDST_EXT_MASK: u8 = 0xE2;
    pub const LDST_EXT_AT: u8 = 1 << 2;
    pub const LDST_EXT_EXCL: u8 = 1 << 3;
    pub const LDST_EXT_AR: u8 = 1 << 4;

    /// Class BRANCH: conditional (b0), indirect (b1), GCS (b2), CR (b4:3).
    pub const BR_COND: u8 = 1 << 0;
    pub const BR_IND: u8 = 1 << 1;
    pub const BR_GCS: u8 = 1 << 2;
    pub const BR_CR_SHIFT: u32 = 3;

    /// Class OTHER, SVE and SME encodings: `(v & OTHER_SVE_SME_MASK)` is `OTHER_SVE`
    /// (SVE other, `0 EVL 1 PRED FP 0`) or `OTHER_SME` (SME array op, `1 ETS 1 ETS0 FP 0`).
    pub const OTHER_SVE_SME_MASK: u8 = (1 << 7) | (1 << 3) | (1 << 0);
    pub const OTHER_SVE: u8 = 1 << 3;
    pub const OTHER_SME: u8 = (1 << 7) | (1 << 3);
    /// SVE flags: FP (b1), predicated (b2), gather/scatter (b7, load/store).
    pub const SVE_FP: u8 = 1 << 1;
    pub const SVE_PRED: u8 = 1 << 2;
    pub const SVE_SG: u8 = 1 << 7;
    /// EVL / ETS field `v[6:4]`.
    pub const VL_SHIFT: u32 = 4;
    pub const VL_FIELD: u8 = 0b111;
    /// An SME array op's ETS[0] (b2; ETS[3:1] is `v[6:4]`).
    pub const SME_ETS0: u8 = 1 << 2;

    /// Payload `v` (an SVE op or an SVE/SME load/store, [`has_evl`]) with its EVL field set
    /// to `evl`.
    pub const fn with_evl(v: u8, evl: u8) -> u8 {
        (v & !(VL_FIELD << VL_SHIFT)) | (evl & VL_FIELD) << VL_SHIFT
    }
    /// The payload of an SME array op (`1 ETS[3:1] 1 ETS[0] FP 0`, D18.2.7) of the 4-bit
    /// element size code `ets`, with `fp` (`SVE_FP` or 0).
    pub const fn sme_array(ets: u8, fp: u8) -> u8 {
        let ets0 = if ets & 1 != 0 { SME_ETS0 } else { 0 };
        OTHER_SME | ((ets >> 1) & VL_FIELD) << VL_SHIFT | ets0 | (fp & SVE_FP)
    }

    /// An SME array op (class Other, `0b1xxx1xx0`): D18.2.7 defines the encoding "only if
    /// FEAT_SPE_SME is implemented, and reserved otherwise". A unit without FEAT_SPE_SME
    /// (`Options::sme`) records such an op like the reserved class: Other, payload 0.
    /// choice: sme-reserved
    pub const fn is_sme_array(class: u8, v: u8) -> bool {
        class == super::op_class::OTHER && v & OTHER_SVE_SME_MASK == OTHER_SME
    }
    /// An SVE vector op (class Other, `0 EVL 1 PRED FP 0`) or an SVE/SME load/store: the
    /// payloads with an EVL field.
    pub const fn has_evl(class: u8, v: u8) -> bool {
        match class {
            super::op_class::OTHER => v & OTHER_SVE_SME_MASK == OTHER_SVE,
            super::op_class::LD_ST_ATOMIC => v & LDST_SVE_SME_MASK == LDST_SVE_SME,
            _ => false,
        }
    }
    /// A payload with an EVL field ([`has_evl`]) whose EVL is 0b111 ("More than 2048
    /// bits", defined only with FEAT_SPE_SME, D18.2.7): a unit without it records EVL 0b110,
    /// the largest without it. choice: sme-reserved
    pub const fn evl_reserved(class: u8, v: u8) -> bool {
        has_evl(class, v) && (v >> VL_SHIFT) & VL_FIELD == VL_FIELD
    }
    /// An SVE or SME operation (class Other with `OTHER_SVE` or `OTHER_SME`, or an SVE/SME
    /// load/store): the ops whose governing predicate the SVE events describe.
    pub const fn is_sve_sme(class: u8, v: u8) -> bool {
        match class {
            super::op_class::OTHER => {
                v & OTHER_SVE_SME_MASK == OTHER_SVE || v & OTHER_SVE_SME_MASK == OTHER_SME
            }
            super::op_class::LD_ST_ATOMIC => v & LDST_SVE_SME_MASK == LDST_SVE_SME,
            _ => false,
        }
    }
    /// Class LD_ST_ATOMIC, SVE/SME register load/store: `(v & LDST_SVE_SME_MASK) == LDST_SVE_SME`.
    pub const LDST_SVE_SME_MASK: u8 = (1 << 3) | (1 << 1);
    pub const LDST_SVE_SME: u8 = 1 << 3;
    /// Class LD_ST_ATOMIC, guarded control stack: `(v & LDST_GCS_MASK) == LDST_GCS`; b2 = COMM.
    pub const LDST_GCS_MASK: u8 = 0b1111_1000 | (1 << 1);
    pub const LDST_GCS: u8 = 1 << 6;
    pub const GCS_COMM: u8 = 1 << 2;
    /// Class BRANCH, CR field `v[4:3]` (FEAT_SPE_CRR) and its values.
    pub const BR_CR_FIELD: u8 = 0b11;
    pub const CR_BL: u8 = 1;
    pub const CR_RET: u8 = 2;
    pub const CR_NON_BL_RET: u8 = 3;
    /// The CR field (`v[4:3]`) of a branch's payload `v`.
    pub const fn br_cr(v: u8) -> u8 {
        (v >> BR_CR_SHIFT) & BR_CR_FIELD
    }

    /// Class OTHER payloads without b3 (not SVE/SME) keep only COND: the ASE (b2) and FP
    /// (b1) flags belong to FEAT_SPE_FPF, which this unit does not implement (PMSIDR.FPF = 0;
    /// Arm ARM D18.2.7).
    pub const OTHER_SVE_SME_BIT: u8 = 1 << 3;
    pub const OTHER_KEEP_WITHOUT_FPF: u8 = OTHER_COND;
    /// With FEAT_SPE_FPF they are kept: COND, FP and SIMD.
    pub const OTHER_KEEP_WITH_FPF: u8 = OTHER_COND | OTHER_FP | OTHER_SIMD;
    /// Class BRANCH bits this unit clears: GCS (b2, FEAT_GCS recording, SPEv1p4) and CR
    /// (b4:3, FEAT_SPE_CRR: "the only permitted value is 0b00" without it).
    pub const BR_CLEAR_WITHOUT_CRR_GCS: u8 = BR_GCS | (BR_CR_FIELD << BR_CR_SHIFT);

    /// A SIMD&FP load or store: `(v & LDST_SIMD_FP_MASK) == LDST_SIMD_FP` (ST in b0).
    pub const LDST_SIMD_FP_MASK: u8 = !LDST_ST;

    /// J1 `SPEOpAttr`'s `is_floating_point` and `is_simd` of an op of `class` whose core
    /// reports payload `v` (FEAT_SPE_EFT's type filter reads them, whether or not the record
    /// keeps them): class Other's FP and SIMD flags (`SPESampleOpOther`); an SVE vector op is
    /// SIMD, and FP by its FP flag; an SVE/SME load/store is SIMD, not FP; an SME array op
    /// ([`is_sme_array`]) with FEAT_SPE_SME (`sme`) is SIMD, and FP by its FP flag (J1
    /// `SPESampleOpSMEArrayOther`), and without it, where the encoding is reserved, neither,
    /// like the reserved class (choice: sme-reserved). choice: eft-simd (D17.5.1's list, where J1's
    /// `SPESampleOpSVEOther` and `SPESampleOpSVESMELoadStore` leave `is_simd` FALSE).
    /// `None` for a SIMD&FP load or store, whose kind is the access's (`scalar`: FP, else
    /// SIMD; `SPESampleSIMDFPLoadStore`), which the payload does not carry. Every other
    /// op (branches, other loads and stores, the reserved class) is neither.
    pub const fn fp_simd(class: u8, v: u8, sme: bool) -> Option<(bool, bool)> {
        match class {
            super::op_class::OTHER if is_sme_array(class, v) => Some((sme && v & SVE_FP != 0, sme)),
            // An SVE vector op (FP by its flag) or an SVE/SME load/store (not FP).
            _ if has_evl(class, v) => {
                Some((class == super::op_class::OTHER && v & SVE_FP != 0, true))
            }
            super::op_class::OTHER => {
                let simd = v & OTHER_SVE_SME_BIT == 0 && v & OTHER_SIMD != 0;
                Some((v & OTHER_FP != 0, simd))
            }
            super::op_class::LD_ST_ATOMIC if v & LDST_SIMD_FP_MASK == LDST_SIMD_FP => None,
            _ => Some((false, false)),
        }
    }

    /// The payload bits a unit of `cfg` keeps of a class-Other op that is not SVE or SME:
    /// COND, and FP and SIMD with FEAT_SPE_FPF (`cfg.options.fpf`).
    pub const fn other_keep(cfg: &crate::Config) -> u8 {
        if cfg.options.fpf {
            OTHER_KEEP_WITH_FPF
        } else {
            OTHER_KEEP_WITHOUT_FPF
        }
    }

    /// Whether a unit of `cfg` treats an SME array op and an EVL of 0b111 as reserved
    /// encodings ([`is_sme_array`], [`evl_reserved`]): without FEAT_SPE_SME
    /// (`cfg.options.sme`; D18.2.7).
    pub const fn sme_encodings_reserved(cfg: &crate::Config) -> bool {
        !cfg.options.sme
    }

    /// The Operation Type payload a unit of `cfg` records for a class and the core's
    /// subclass: the bits of features it does not build (FEAT_SPE_FPF's FP and SIMD unless
    /// `cfg.options.fpf`; FEAT_SPE_CRR's CR and GCS unless `cfg.options.crr`) are cleared;
    /// load/store subclasses pass through. With CRR a branch keeps CR (00 becomes 11,
    /// "other branch") and GCS only for a call or a return. Encodings reserved without
    /// FEAT_SPE_SME (`cfg.options.sme`): an SME array op is recorded with payload 0, an EVL
    /// of 0b111 as 0b110; with it both are recorded as reported.
    pub const fn recorded_payload(class: u8, v: u8, cfg: &crate::Config) -> u8 {
        match class {
            super::op_class::OTHER if v & OTHER_SVE_SME_BIT == 0 => v & other_keep(cfg),
            super::op_class::BRANCH if cfg.options.crr => {
                let cr = match br_cr(v) {
                    0 => CR_NON_BL_RET,
                    c => c,
                };
                let gcs = if cr == CR_BL || cr == CR_RET {
                    v & BR_GCS
                } else {
                    0
                };
                (v & !BR_CLEAR_WITHOUT_CRR_GCS) | (cr << BR_CR_SHIFT) | gcs
            }
            super::op_class::BRANCH => v & !BR_CLEAR_WITHOUT_CRR_GCS,
            _ if sme_encodings_reserved(cfg) && is_sme_array(class, v) => 0,
            _ if sme_encodings_reserved(cfg) && evl_reserved(class, v) => v & !(1 << VL_SHIFT),
            _ => v,
        }
    }

    /// True when an op of `class` with subclass `v` is an NV2 access.
    pub const fn is_nv2(class: u8, v: u8) -> bool {
        class == super::op_class::LD_ST_ATOMIC && v & LDST_NV2_MASK == LDST_NV2_SYSREG
    }

    /// True when a load/store subclass is an atomic (extended encoding with AT set). An
    /// atomic writes memory, so it is a store for the type filter; it is also a load when it
    /// returns a value to a register (ST clear; STADD and the other no-return atomics set
    /// ST). Arm ARM D17.5.1 and PMSFCR_EL1.LD: loads include "atomic operations that return
    /// a value"; J1 `SPESampleExtendedLoadStore`: not a load is `SPEOpType_Store`.
    pub const fn ldst_is_atomic(v: u8) -> bool {
        (v & LDST_EXT_MASK) == LDST_EXT && (v & LDST_EXT_AT) != 0
    }
    /// True when a load/store subclass is a store (b0; MEMSET is always a store).
    pub const fn ldst_is_store(v: u8) -> bool {
        (v & LDST_ST) != 0
    }
    /// True when a load/store subclass is a load for the type filter and the Data Source
    /// packet: ST clear (plain loads and the atomics that return a value; J1 `is_load` is
    /// `op_type IN {Load, LoadAtomic}`).
    pub const fn ldst_is_load(v: u8) -> bool {
        !ldst_is_store(v)
    }
    /// True when a load/store subclass writes memory: a store, or any atomic.
    pub const fn ldst_writes(v: u8) -> bool {
        ldst_is_store(v) || ldst_is_atomic(v)
    }
    /// The Guarded Control Stack access of a branch whose payload as recorded is `v`: a
    /// procedure return with GCS set pops the stack (a load), a branch with link with GCS
    /// set pushes it (a store). Such a branch is "treated as both a branch and a load or
    /// store for the purposes of filtering" (D17.6.3; J1 `SPEFilterByType`'s `is_gcs_ldst`:
    /// RET a load, BL a store), and so for SAMPLE_FEED_LD/ST. The recorded payload keeps
    /// GCS only in a unit with FEAT_SPE_CRR and only for CR 01 or 10
    /// ([`recorded_payload`]), so without the option no branch is either.
    pub const fn br_gcs_is_load(v: u8) -> bool {
        v & BR_CLEAR_WITHOUT_CRR_GCS == BR_GCS_LOAD
    }
    /// See [`br_gcs_is_load`]: a branch with link that pushes the Guarded Control Stack.
    pub const fn br_gcs_is_store(v: u8) -> bool {
        v & BR_CLEAR_WITHOUT_CRR_GCS == BR_GCS_STORE
    }
    /// The CR and GCS bits ([`BR_CLEAR_WITHOUT_CRR_GCS`]) of a procedure return and of a
    /// branch with link that pop and push the Guarded Control Stack.
    pub const BR_GCS_LOAD: u8 = BR_GCS | CR_RET << BR_CR_SHIFT;
    pub const BR_GCS_STORE: u8 = BR_GCS | CR_BL << BR_CR_SHIFT;
}

/// Layout of the 64-bit payload of an Address packet.
pub mod addr_payload {
    /// Bit 63: NS (instruction / branch addresses and PA).
    pub const NS_SHIFT: u32 = 63;
    /// Bits 62:61: exception level (instruction / branch addresses).
    pub const EL_SHIFT: u32 = 61;
    pub const EL_BITS: u32 = 2;
    /// Data PA: bit 62 CH (tag checked), bits 59:56 PAT (physical address tag).
    pub const CH_SHIFT: u32 = 62;
    pub const PAT_SHIFT: u32 = 56;
    pub const PAT_BITS: u32 = 4;
    /// Bit 60: NSE (Realm; not implemented, always 0).
    pub const NSE_SHIFT: u32 = 60;
    /// Bits 55:0: the address.
    pub const ADDR_BITS: u32 = 56;

    /// Payload of a PC, branch-target or previous-branch-target address.
    pub const fn instruction(va: u64, el: u8, ns: bool) -> u64 {
        ((ns as u64) << NS_SHIFT)
            | (((el & 3) as u64) << EL_SHIFT)
            | (va & crate::low_mask(ADDR_BITS))
    }
    /// Payload of a data physical address (CH=0, PAT=0).
    pub const fn physical(pa: u64, ns: bool) -> u64 {
        ((ns as u64) << NS_SHIFT) | (pa & crate::low_mask(ADDR_BITS))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_match_the_reference_bytes() {
        assert_eq!(address_header(addr_index::PC), 0xB0);
        assert_eq!(address_header(addr_index::DATA_PA), 0xB3);
        assert_eq!(counter_header(counter_index::TOTAL), 0x98);
        assert_eq!(counter_header(counter_index::TRANSLATION), 0x9A);
        assert_eq!(context_header(context_index::EL1), 0x64);
        assert_eq!(context_header(context_index::EL2), 0x65);
        assert_eq!(op_type_header(op_class::LD_ST_ATOMIC), 0x49);
        assert_eq!(events_header(2), 0x52);
        assert_eq!(events_header(8), 0x72);
        assert_eq!(data_source_header(1), 0x43);
        assert_eq!(data_source_header(2), 0x53);
    }

    #[test]
    fn payload_length_follows_sz_for_every_header_byte() {
        for h in 0..=255u8 {
            assert_eq!(payload_len(h), 1 << ((h >> 4) & 3));
        }
        for len in [1, 2, 4, 8] {
            assert_eq!(payload_len(events_header(len)), len);
        }
    }

    #[test]
    fn fixed_size_headers_carry_their_fixed_size() {
        assert_eq!(payload_len(address_header(0)), ADDRESS_PAYLOAD);
        assert_eq!(payload_len(counter_header(0)), COUNTER_PAYLOAD);
        assert_eq!(payload_len(context_header(0)), CONTEXT_PAYLOAD);
        assert_eq!(payload_len(op_type_header(0)), OP_TYPE_PAYLOAD);
        assert_eq!(payload_len(TIMESTAMP), TIMESTAMP_PAYLOAD);
    }

    #[test]
    fn instruction_address_payload_matches_the_worked_example() {
        // Reference §7.1: PC 0xaaaad0001000, EL0, NS=1 -> 0x8000aaaad0001000.
        assert_eq!(
            addr_payload::instruction(0xaaaa_d000_1000, 0, true),
            0x8000_aaaa_d000_1000
        );
        // Kernel variant: 0xffff800010203040 at EL1 NS -> top byte 0xa0.
        assert_eq!(
            addr_payload::instruction(0xffff_8000_1020_3040, 1, true),
            0xa0ff_8000_1020_3040
        );
        assert_eq!(
            addr_payload::physical(0x8_8000_1238, true),
            0x8000_0008_8000_1238
        );
    }

    #[test]
    fn atomics_are_recognised_only_in_the_extended_encoding() {
        assert!(subclass::ldst_is_atomic(0x06));
        assert!(subclass::ldst_is_atomic(0x07));
        assert!(!subclass::ldst_is_atomic(0x02));
        assert!(!subclass::ldst_is_atomic(0x04)); // SIMD&FP load, not extended
                                                  // A returning atomic (ST clear) is a load and a store; a no-return one (STADD,
                                                  // `49 07`) only a store.
        assert!(subclass::ldst_is_load(0x06) && subclass::ldst_writes(0x06));
        assert!(!subclass::ldst_is_load(0x07) && subclass::ldst_writes(0x07));
        assert!(subclass::ldst_is_store(subclass::LDST_MEMSET));
    }
}
