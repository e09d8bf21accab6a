//! The deliberate bugs the verification must catch, one table for all of it: each is a
//! one-line edit of a preset's generated Verilog. `spe formal --mutant NAME` proves that
//! its property (`prop`) fails on it; `verif/verilator-sys` builds a Verilated model of each
//! one with `regress_cycles`, and `scripts/test.sh` runs `spe regress --mutant NAME` for
//! that many cycles, which must fail with a divergence report (`spe regress --mutant list`
//! prints them). A mutant whose `from` no longer occurs exactly once in its file stops the
//! build or the proof: the check cannot silently stop applying.

/// A deliberate bug: `from` replaced by `to` in `gen/<preset>/<file>` (`{p}` in `file` is
/// the preset's name).
#[derive(Clone, Copy, Debug)]
pub struct Mutant {
    pub name: &'static str,
    /// The preset it breaks (`spe formal --mutant NAME` runs it there unless `--preset`
    /// names another; the regression's model is built from this preset's Verilog).
    pub preset: &'static str,
    /// The formal property that must fail on it, if any.
    pub prop: Option<&'static str>,
    pub file: &'static str,
    pub from: &'static str,
    pub to: &'static str,
    /// Cycles of `spe regress --mutant NAME` in the full suite, if the regression must
    /// catch it (a Verilated model of it is built).
    pub regress_cycles: Option<u64>,
}

impl Mutant {
    /// The file it edits for `preset`.
    pub fn file_for(&self, preset: &str) -> String {
        self.file.replace("{p}", preset)
    }
}

pub const MUTANTS: &[Mutant] = &[
    // Slot 1's selection also tags slot 0: two slots in one cycle.
    Mutant {
        name: "tag-two",
        preset: "default",
        prop: Some("tag-onehot"),
        file: "spe_sampler_{p}.v",
        from: "            sel = k_onehot__1;",
        to: "            sel = k_onehot__1 | k_onehot__0;",
        regress_cycles: None,
    },
    // The population ignores prof_allowed.
    Mutant {
        name: "tag-prohibited",
        preset: "default",
        prop: Some("tag-allowed"),
        file: "spe_sampler_{p}.v",
        from: "& prof_allowed & ~disp_aarch32 & ~reset;",
        to: "& ~disp_aarch32 & ~reset;",
        regress_cycles: None,
    },
    // EL1 ops sampled with PMSCR_EL1.E1SPE clear (the E0SPE bit read instead).
    Mutant {
        name: "el1-as-el0",
        preset: "default",
        prop: Some("tag-population"),
        file: "spe_regs_{p}.v",
        from: "sample_ctl[(2)+:(1)] = pmscr_el1__q[p_e1];",
        to: "sample_ctl[(2)+:(1)] = pmscr_el1__q[p_e0];",
        regress_cycles: None,
    },
    // psb_done is not held low in reset.
    Mutant {
        name: "psb-in-reset",
        preset: "default",
        prop: Some("reset-quiet"),
        file: "spe_tracker_{p}.v",
        from: "psb_done = psb_req & (in_idle | in_trk) & ~reset;",
        to: "psb_done = psb_req & (in_idle | in_trk);",
        regress_cycles: None,
    },
    // The beat index lands at bit 2 of a beat's address.
    Mutant {
        name: "wr-unaligned",
        preset: "default",
        prop: Some("wr-aligned"),
        file: "spe_writer_{p}.v",
        from: "beat_addr[(3)+:(3)] = s_beat__q;",
        to: "beat_addr[(2)+:(3)] = s_beat__q;",
        regress_cycles: None,
    },
    // The beat index moves on without the handshake.
    Mutant {
        name: "wr-no-wait",
        preset: "default",
        prop: Some("wr-hold"),
        file: "spe_writer_{p}.v",
        from: "if (writing & resp[(0)+:(1)]) begin",
        to: "if (writing) begin",
        regress_cycles: None,
    },
    // irq from the collision bit instead of S.
    Mutant {
        name: "irq-coll",
        preset: "default",
        prop: Some("irq-is-s"),
        file: "spe_regs_{p}.v",
        from: "irq = pmbsr__q[p_s];",
        to: "irq = pmbsr__q[p_s - 1];",
        regress_cycles: None,
    },
    // The sampler tags while a sample is in flight.
    Mutant {
        name: "tag-busy",
        preset: "default",
        prop: Some("one-in-flight"),
        file: "spe_sampler_{p}.v",
        from: "        if (pop_en & ~busy) begin",
        to: "        if (pop_en) begin",
        regress_cycles: None,
    },
    // The PSB completes at once, while a record is still being written (a record still in
    // its filter, check or write cycles lands after the PSB completed): caught by the
    // formal proof and by the regression.
    Mutant {
        name: "psb-early",
        preset: "default",
        prop: Some("psb-quiet"),
        file: "spe_tracker_{p}.v",
        from: "psb_done = psb_req & (in_idle | in_trk) & ~reset;",
        to: "psb_done = psb_req & ~reset;",
        regress_cycles: Some(20_000_000),
    },
    // The room check compares against the limit's page minus one: a record may end past
    // the limit.
    Mutant {
        name: "room-late",
        preset: "default",
        prop: Some("wr-limit"),
        file: "spe_writer_{p}.v",
        from: "c_lo_ge__d = base[(32'hc)+:(26)] >= limit[(32'hc)+:(26)];",
        to: "c_lo_ge__d = base[(32'hc)+:(26)] > limit[(32'hc)+:(26)];",
        regress_cycles: None,
    },
    // The second beat skips a word.
    Mutant {
        name: "wr-skip",
        preset: "default",
        prop: Some("wr-slot"),
        file: "spe_writer_{p}.v",
        from: "s_beat__d = s_beat__q + k_one3;",
        to: "s_beat__d = s_beat__q + k_one3 + (s_beat__q == k_zero3);",
        regress_cycles: None,
    },
    // The writer's stop tests the held-beat flag the wrong way round: it goes on writing
    // at beat boundaries with PMBSR.S set (and would withdraw a held beat).
    Mutant {
        name: "s-ignored",
        preset: "default",
        prop: Some("s-no-write"),
        file: "spe_writer_{p}.v",
        from: "stop = writing & stopped & ~s_held__q;",
        to: "stop = writing & stopped & s_held__q;",
        regress_cycles: None,
    },
    // The register block takes the writer's PMBPTR value every cycle, not only when the
    // writer updates it: PMBPTR is overwritten after the PSB.
    Mutant {
        name: "ptr-no-enable",
        preset: "default",
        prop: Some("ptr-kept"),
        file: "spe_regs_{p}.v",
        from: "if (upd[(0)+:(1)]) begin",
        to: "if (1'b1) begin",
        regress_cycles: None,
    },
    // Records are kept for writing whether or not profiling is on (only discard mode
    // drops them).
    Mutant {
        name: "write-when-off",
        preset: "default",
        prop: Some("off-quiet"),
        file: "spe_regs_{p}.v",
        from: "write_en = prof_en & ~discard;",
        to: "write_en = ~discard;",
        regress_cycles: None,
    },
    // The arbiter grants the writer while it holds a record: another thread's record
    // takes it over between two beats (the owner invariants of owner.vh, proven with
    // every property at T > 1).
    Mutant {
        name: "grant-busy",
        preset: "smt2",
        prop: Some("wr-slot"),
        file: "spe_arbiter_{p}.v",
        from: "if (~busy & ~reset) begin",
        to: "if (~reset) begin",
        regress_cycles: None,
    },
    // An option's output is not held low in reset: PMBLIMITR.PMFZ's freeze (v1p2x), left
    // high from before the reset (reset-quiet's f_option_outs).
    Mutant {
        name: "freeze-in-reset",
        preset: "v1p2x",
        prop: Some("reset-quiet"),
        file: "spe_regs_pmfz_{p}.v",
        from: "freeze = pmfz & e & stopped & ~reset;",
        to: "freeze = pmfz & e & stopped;",
        regress_cycles: None,
    },
    // The latency filter's `>=` made `>`: a record of exactly the minimum latency is
    // dropped.
    Mutant {
        name: "filter-latency",
        preset: "default",
        prop: None,
        file: "spe_filter_{p}.v",
        from: "lat_ok = lat_total >= minlat;",
        to: "lat_ok = lat_total > minlat;",
        regress_cycles: Some(40_000_000),
    },
    // FEAT_SPE_ERnd without its random delay: the op that expires COUNT with RND is
    // sampled at once instead of the one that brings ECOUNT to zero.
    Mutant {
        name: "ernd-no-delay",
        preset: "v1p2x",
        prop: None,
        file: "spe_sampler_ernd_{p}.v",
        from: "shifted = kc << r3;",
        to: "shifted = kc;",
        regress_cycles: Some(20_000_000),
    },
    // A 128-byte record's second half written over its first: the base does not move on
    // by 64 after beat 7 (v1p4, which records GCS: sixteen beats a record).
    Mutant {
        name: "half-stays",
        preset: "v1p4",
        prop: Some("wr-slot"),
        file: "spe_writer_{p}.v",
        from: "s_base__d = s_base__q | k_half__0;",
        to: "s_base__d = s_base__q;",
        regress_cycles: None,
    },
    // FEAT_SPE_PBT for a branch not taken too: its record gets the previous-branch target,
    // which J1 SPEBranch gives only a taken branch.
    Mutant {
        name: "pbt-not-taken",
        preset: "v1p2x",
        prop: None,
        file: "spe_tracker_pbt_{p}.v",
        from: "en = br_done & taken & retired & p_valid__q;",
        to: "en = br_done & retired & p_valid__q;",
        regress_cycles: Some(20_000_000),
    },
];

#[cfg(test)]
mod tests {
    use super::MUTANTS;

    #[test]
    fn names_are_unique_and_every_mutant_is_checked_by_something() {
        for (i, m) in MUTANTS.iter().enumerate() {
            assert!(
                MUTANTS[..i].iter().all(|o| o.name != m.name),
                "{} twice",
                m.name
            );
            assert!(
                m.prop.is_some() || m.regress_cycles.is_some(),
                "{}: neither a property nor the regression catches it",
                m.name
            );
            assert_ne!(m.from, m.to, "{}: no edit", m.name);
            assert!(
                crate::config::PRESETS.iter().any(|c| c.name == m.preset),
                "{}: no preset {}",
                m.name,
                m.preset
            );
        }
    }
}
