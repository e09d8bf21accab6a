//! Serializer: encodes a kept sample as one record of the unit's slot size (64 bytes, or
//! 128 with FEAT_SPE_CRR), each packet at its fixed offset (`spe_defs::impdef::layout`),
//! absent packets left as Padding. The record ends with a Timestamp when one was
//! collected, else with End.

use crate::capture::Sample;
use spe_defs::impdef::{self, layout, Slot};
use spe_defs::packet::{self, addr_index, addr_payload, context_index, counter_index, subclass};
use spe_defs::Config;

/// One encoded record slot (`Config::record_size` bytes).
pub type Record = Vec<u8>;

/// Writes `header` and the low `len` bytes of `payload` (little-endian) at the slot's offset.
fn put(rec: &mut Record, slot: Slot, header: u8, payload: u64, len: usize) {
    debug_assert!(len < slot.len, "header plus payload must fit the slot");
    rec[slot.offset] = header;
    rec[slot.offset + 1..slot.offset + 1 + len].copy_from_slice(&payload.to_le_bytes()[..len]);
}

/// Encodes the record of a completed sample in a unit of `cfg` (its Events payload size).
/// choice: record-slot, choice: events-payload, choice: data-source, choice: security-state
pub fn encode(s: &Sample, cfg: &Config) -> Record {
    let mut r = vec![packet::PAD; cfg.record_size()];
    if s.collect.context_el1 {
        put(
            &mut r,
            layout::CONTEXT_EL1,
            packet::context_header(context_index::EL1),
            u64::from(s.ctx_el1),
            packet::CONTEXT_PAYLOAD,
        );
    }
    if s.collect.context_el2 {
        put(
            &mut r,
            layout::CONTEXT_EL2,
            packet::context_header(context_index::EL2),
            u64::from(s.ctx_el2),
            packet::CONTEXT_PAYLOAD,
        );
    }
    put(
        &mut r,
        layout::LAT_TOTAL,
        packet::counter_header(counter_index::TOTAL),
        s.lat_total,
        packet::COUNTER_PAYLOAD,
    );
    put(
        &mut r,
        layout::LAT_ISSUE,
        packet::counter_header(counter_index::ISSUE),
        s.lat_issue,
        packet::COUNTER_PAYLOAD,
    );
    if s.xl_done {
        put(
            &mut r,
            layout::LAT_XLAT,
            packet::counter_header(counter_index::TRANSLATION),
            s.lat_xlat,
            packet::COUNTER_PAYLOAD,
        );
    }
    // D17.6.4.2, J1 SPEConstructRecord: "If Statistical Profiling is disabled at EL2, the
    // virtual address for the memory access [of an NV2 access] is not recorded"; and with
    // no data VA packet there is no data PA packet either (D17.6.4). choice: nv2-address
    let va_allowed = s.collect.nv2_va || !subclass::is_nv2(s.class, s.subclass);
    let pc = addr_payload::instruction(s.pc, s.el, s.ns);
    put(
        &mut r,
        layout::PC,
        packet::address_header(addr_index::PC),
        pc,
        packet::ADDRESS_PAYLOAD,
    );
    if s.br_done {
        // D18.2.1: "For a branch target address, this is the Exception level [Security
        // state] at the target of the branch": the branch report's, not the op's.
        let tgt = addr_payload::instruction(s.target, s.target_el, s.target_ns);
        put(
            &mut r,
            layout::TGT_OR_VA,
            packet::address_header(addr_index::BRANCH_TARGET),
            tgt,
            packet::ADDRESS_PAYLOAD,
        );
    }
    // D17.6.3: a call or return with a Guarded Control Stack access collects "the
    // information for both the branch and the load or store": its data addresses have
    // places of their own in a unit that records GCS (128-byte slots); in a 64-byte slot
    // only a load/store (never a resolved branch) has them.
    let data_place = cfg.long_records() || !s.br_done;
    if s.xl_started && va_allowed && data_place {
        put(
            &mut r,
            layout::va(cfg),
            packet::address_header(addr_index::DATA_VA),
            s.va,
            packet::ADDRESS_PAYLOAD,
        );
    }
    if s.xl_done && s.collect.phys_addr && va_allowed && data_place {
        // NS: the physical address space of the access (D18.2.1, J1 uses
        // addrdesc.paddress.paspace), not the PE's Security state.
        let pa = addr_payload::physical(s.pa, s.pa_ns);
        put(
            &mut r,
            layout::pa(cfg),
            packet::address_header(addr_index::DATA_PA),
            pa,
            packet::ADDRESS_PAYLOAD,
        );
    }
    // D17.6.3.1: the target of the most recent branch "taken and retired in program order
    // before the sampled operation"; not recorded when "the sampled operation is still
    // speculative": a branch flushed from the pipeline has no PBT packet. choice: prev-branch
    if let Some(pbt) = s.prev_branch.filter(|_| s.retired) {
        // FEAT_SPE_PBT: a branch, so the place has no data PA (in a 64-byte slot a
        // branch has no translation; in a 128-byte one the PA has a place of its own).
        debug_assert!(!s.xl_done || cfg.long_records());
        put(
            &mut r,
            layout::PA,
            packet::address_header(addr_index::PREV_BRANCH_TARGET),
            pbt,
            packet::ADDRESS_PAYLOAD,
        );
    }
    if s.is_load() && s.mem_done {
        put(
            &mut r,
            layout::DATA_SOURCE,
            packet::data_source_header(impdef::DATA_SOURCE_PAYLOAD),
            u64::from(s.data_source),
            impdef::DATA_SOURCE_PAYLOAD,
        );
    }
    put(
        &mut r,
        layout::OP_TYPE,
        packet::op_type_header(s.class),
        u64::from(s.op_payload()),
        packet::OP_TYPE_PAYLOAD,
    );
    let events = impdef::events_payload(cfg);
    put(
        &mut r,
        layout::events(cfg),
        packet::events_header(events),
        s.events(),
        events,
    );
    let end = layout::end_or_ts(cfg);
    if s.collect.timestamp {
        put(
            &mut r,
            end,
            packet::TIMESTAMP,
            s.timestamp,
            packet::TIMESTAMP_PAYLOAD,
        );
    } else {
        r[end.offset] = packet::END;
    }
    r
}
