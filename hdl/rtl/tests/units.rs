//! The library's own unit checks, kept out of `src/` so that `cargo test` does not compile
//! the rust-hdl blocks a second time as a test harness (`[lib] test = false`): one build of
//! this crate at -O3 takes about 130 CPU-seconds, most of the gate's cold build of it.

mod flop {
    use rust_hdl::prelude::*;
    use spe_rtl::flop::*;

    #[test]
    fn flop_instance_names_the_shared_module_with_its_parameters() {
        let f: Rff<Bits<16>> = Rff::with_reset(0xACE1.into());
        match f.hdl() {
            Verilog::Blackbox(b) => {
                assert_eq!(b.name, "spe_rff #(.W(16), .INIT(16'hace1))");
                assert!(b.code.is_empty());
            }
            _ => panic!("expected a black box"),
        }
    }
}

mod lib {
    use rust_hdl::prelude::*;
    use spe_rtl::*;

    #[test]
    fn spliced_replaces_its_field_and_keeps_the_other_bits() {
        let base = Bits::<64>::from(0xFFFF_FFFF_FFFF_FFC0u64);
        let mut w: Spliced<3, 3, 64> = base.into();
        w.set_value_at(Bits::<3>::from(5u64));
        assert_eq!(w.to_bits(), Bits::<64>::from(0xFFFF_FFFF_FFFF_FFE8u64));
        w.set_value_at(Bits::<3>::from(0u64));
        assert_eq!(w.to_bits(), Bits::<64>::from(0xFFFF_FFFF_FFFF_FFC0u64));
        assert_eq!((w.get_my_width_at(), w.get_my_offset_at()), (3, 3));
    }

    #[test]
    fn high_event_words_carry_events_16_to_31_and_splice_at_their_places() {
        assert_eq!(
            hi_events(1 << 17 | 1 << 23 | 0xFFFF),
            Bits::<16>::from(0x82u64)
        );
        assert_eq!(hi_events(1 << 31), Bits::<16>::from(0x8000u64));
        assert!(std::panic::catch_unwind(|| hi_events(1 << 32)).is_err());
        let mut w = Bits::<64>::from(u64::MAX);
        w.set_value_ev_at16(Bits::<16>::from(0x1234u64));
        assert_eq!(w, Bits::<64>::from(0xFFFF_FFFF_1234_FFFFu64));
        w.set_value_ev_at40(Bits::<16>::from(0u64));
        assert_eq!(w, Bits::<64>::from(0xFF00_00FF_1234_FFFFu64));
    }
}

mod serializer {
    use rust_hdl::prelude::*;
    use spe_defs::impdef;
    use spe_defs::impdef::layout;
    use spe_defs::packet::addr_payload;
    use spe_defs::Config;
    use spe_rtl::serializer::*;

    #[test]
    fn wide_events_bits_follow_the_wide_layout() {
        // The kernel's literal places: beat 6 is bytes 48..55 (bit 384); Events bits
        // 31:16 shifted by 24 land in its bytes 5 and 6 (record bytes 53, 54), the header of
        // Timestamp / End in its byte 7 (record byte 55); the Timestamp's payload is beat 7.
        let cfg = Config::preset("v1p2x").unwrap();
        assert_eq!(impdef::events_payload(cfg), impdef::EVENTS_PAYLOAD_WIDE);
        let ev = layout::events(cfg);
        let end = layout::end_or_ts(cfg);
        assert_eq!(ev.offset, layout::EVENTS.offset);
        assert_eq!(layout::OP_TYPE.offset, 48);
        assert_eq!(8 * (ev.offset + 1 + impdef::EVENTS_PAYLOAD - 48), 16 + 24);
        assert_eq!(8 * (end.offset - 48), 56);
        assert_eq!(
            (end.offset + 1) * 8,
            7 * 64,
            "the Timestamp's payload is beat 7"
        );
        assert_eq!(end.offset + end.len, cfg.record_size());
        let r = Record::default();
        assert_eq!(r.get_my_offset_ev(), 8 * (ev.offset + 1));
        assert_eq!(r.get_my_width_ev(), 8 * impdef::EVENTS_PAYLOAD);
    }

    #[test]
    fn record_struct_places_every_packet_at_its_layout_offset() {
        let r = Record::default();
        assert_eq!(Record::BITS, RECORD_BITS);
        let check = |name: &str,
                     hdr_off: usize,
                     pl_off: usize,
                     pl_bits: usize,
                     slot: spe_defs::impdef::Slot| {
            assert_eq!(hdr_off, slot.offset * 8, "{name} header offset");
            assert_eq!(pl_off, (slot.offset + 1) * 8, "{name} payload offset");
            assert_eq!(pl_bits, (slot.len - 1) * 8, "{name} payload width");
        };
        check(
            "ctx1",
            r.get_my_offset_ctx1_hdr(),
            r.get_my_offset_ctx1(),
            r.get_my_width_ctx1(),
            layout::CONTEXT_EL1,
        );
        check(
            "ctx2",
            r.get_my_offset_ctx2_hdr(),
            r.get_my_offset_ctx2(),
            r.get_my_width_ctx2(),
            layout::CONTEXT_EL2,
        );
        check(
            "tot",
            r.get_my_offset_tot_hdr(),
            r.get_my_offset_tot(),
            r.get_my_width_tot(),
            layout::LAT_TOTAL,
        );
        check(
            "iss",
            r.get_my_offset_iss_hdr(),
            r.get_my_offset_iss(),
            r.get_my_width_iss(),
            layout::LAT_ISSUE,
        );
        check(
            "xlat",
            r.get_my_offset_xlat_hdr(),
            r.get_my_offset_xlat(),
            r.get_my_width_xlat(),
            layout::LAT_XLAT,
        );
        check(
            "pc",
            r.get_my_offset_pc_hdr(),
            r.get_my_offset_pc(),
            r.get_my_width_pc(),
            layout::PC,
        );
        check(
            "tgt",
            r.get_my_offset_tgt_hdr(),
            r.get_my_offset_tgt(),
            r.get_my_width_tgt(),
            layout::TGT_OR_VA,
        );
        check(
            "pa",
            r.get_my_offset_pa_hdr(),
            r.get_my_offset_pa(),
            r.get_my_width_pa(),
            layout::PA,
        );
        check(
            "ds",
            r.get_my_offset_ds_hdr(),
            r.get_my_offset_ds(),
            r.get_my_width_ds(),
            layout::DATA_SOURCE,
        );
        check(
            "op",
            r.get_my_offset_op_hdr(),
            r.get_my_offset_op(),
            r.get_my_width_op(),
            layout::OP_TYPE,
        );
        check(
            "ev",
            r.get_my_offset_ev_hdr(),
            r.get_my_offset_ev(),
            r.get_my_width_ev(),
            layout::EVENTS,
        );
        check(
            "end/ts",
            r.get_my_offset_end_hdr(),
            r.get_my_offset_ts(),
            r.get_my_width_ts(),
            layout::END_OR_TS,
        );
        assert_eq!(r.get_my_offset_pad(), 8 * impdef::MAX_RECORD_BYTES);
    }

    #[test]
    fn address_payload_structs_follow_the_packet_format() {
        let a = InstrAddr::default();
        assert_eq!(InstrAddr::BITS, 64);
        assert_eq!(a.get_my_width_addr() as u32, addr_payload::ADDR_BITS);
        assert_eq!(a.get_my_offset_el() as u32, addr_payload::EL_SHIFT);
        assert_eq!(a.get_my_width_el() as u32, addr_payload::EL_BITS);
        assert_eq!(a.get_my_offset_ns() as u32, addr_payload::NS_SHIFT);
        let p = PhysAddr::default();
        assert_eq!(PhysAddr::BITS, 64);
        assert_eq!(p.get_my_width_addr() as u32, addr_payload::ADDR_BITS);
        assert_eq!(p.get_my_offset_ns() as u32, addr_payload::NS_SHIFT);
    }
}

mod tracker {
    use rust_hdl::prelude::*;
    use spe_defs::events as ev;
    use spe_rtl::tracker::*;

    #[test]
    fn events_struct_puts_every_event_at_its_packet_bit() {
        let e = Events::default();
        assert_eq!(Events::BITS, 8 * spe_defs::impdef::EVENTS_PAYLOAD);
        let bits = [
            (e.get_my_offset_exception_gen(), ev::EXCEPTION_GEN),
            (e.get_my_offset_retired(), ev::RETIRED),
            (e.get_my_offset_l1d_access(), ev::L1D_ACCESS),
            (e.get_my_offset_l1d_refill(), ev::L1D_REFILL),
            (e.get_my_offset_tlb_access(), ev::TLB_ACCESS),
            (e.get_my_offset_tlb_walk(), ev::TLB_WALK),
            (e.get_my_offset_not_taken(), ev::NOT_TAKEN),
            (e.get_my_offset_mispred(), ev::MISPRED),
            (e.get_my_offset_llc_access(), ev::LLC_ACCESS),
            (e.get_my_offset_llc_miss(), ev::LLC_MISS),
            (e.get_my_offset_remote_access(), ev::REMOTE_ACCESS),
            (e.get_my_offset_alignment(), ev::ALIGNMENT),
        ];
        for (offset, bit) in bits {
            assert_eq!(offset as u32, bit);
        }
        assert_eq!(
            e.get_my_offset_rsvd() as u64,
            64 - u64::from(ev::IMPLEMENTED_MASK.leading_zeros())
        );
    }
}

mod gen {
    use spe_defs::config::GEN_FILE_LIST;
    use spe_defs::PRESETS;
    use spe_gen::emit::preset::{CORE_FILE, ENV_FILE_LIST, GEN_ENV_VAR, ROOT_FILE_LIST};
    use spe_rtl::gen::*;

    #[test]
    fn generation_names_every_module_spe_and_leaves_no_dollar() {
        let files = generate(&PRESETS[0]).unwrap();
        let names: Vec<_> = files.iter().map(|f| f.path.as_str()).collect();
        assert!(names.contains(&"default/spe_top_default.v"), "{names:?}");
        assert!(
            names.contains(&"default/spe_sampler_default.v"),
            "{names:?}"
        );
        // The root-relative list is bare paths (tools read every line as a file).
        for f in files.iter().filter(|f| !f.path.ends_with(ROOT_FILE_LIST)) {
            assert!(
                f.text.to_lowercase().contains("do not edit"),
                "{} has no banner",
                f.path
            );
            assert!(!f.text.contains("module top("));
        }
    }

    #[test]
    fn root_lists_and_the_fusesoc_core_name_every_module_of_each_preset_in_build_order() {
        let files = generate_all().unwrap();
        let core = files.iter().find(|f| f.path == CORE_FILE).unwrap();
        for cfg in PRESETS {
            let rel = files
                .iter()
                .find(|f| f.path == format!("{}/{GEN_FILE_LIST}", cfg.name))
                .unwrap();
            let root = files
                .iter()
                .find(|f| f.path == format!("{}/{ROOT_FILE_LIST}", cfg.name))
                .unwrap();
            // The same files in the same order as files.f, from the repository root.
            let want: Vec<String> = rel
                .text
                .lines()
                .filter(|l| !l.starts_with("//"))
                .map(|l| match l.strip_prefix("../") {
                    Some(shared) => format!("gen/{shared}"),
                    None => format!("gen/{}/{l}", cfg.name),
                })
                .collect();
            assert_eq!(root.text.lines().collect::<Vec<_>>(), want, "{}", cfg.name);
            // The env.f list: the same files through ${SPE_GEN}.
            let env = files
                .iter()
                .find(|f| f.path == format!("{}/{ENV_FILE_LIST}", cfg.name))
                .unwrap();
            let via_env: Vec<String> = want
                .iter()
                .map(|p| p.replacen("gen/", &format!("${{{GEN_ENV_VAR}}}/"), 1))
                .collect();
            assert_eq!(
                env.text
                    .lines()
                    .filter(|l| !l.starts_with("//"))
                    .collect::<Vec<_>>(),
                via_env,
                "{}",
                cfg.name
            );
            // The replay bench is a bench (scripts/protocol-check.sh), not part of the unit.
            // So is the scoreboard monitor (it needs hdl/sv/spe_scoreboard.sv and DPI-C).
            let bench = format!("{}/{}.sv", cfg.name, spe_gen::emit::sv::replay_name(cfg));
            let monitor = format!("{}/{}.sv", cfg.name, spe_gen::emit::sv::monitor_name(cfg));
            let modules = files.iter().filter(|f| {
                f.path.starts_with(&format!("{}/", cfg.name))
                    && (f.path.ends_with(".v") || f.path.ends_with(".sv"))
                    && f.path != bench
                    && f.path != monitor
            });
            for m in modules {
                assert!(
                    core.text.contains(&format!("      - {}\n", m.path)),
                    "{}",
                    m.path
                );
            }
            for target in [
                cfg.name.to_string(),
                format!("lint_{}", cfg.name),
                format!("sv_{}", cfg.name),
                format!("lint_sv_{}", cfg.name),
            ] {
                assert!(
                    core.text.contains(&format!("  {target}:\n")),
                    "no target {target}"
                );
            }
        }
        assert!(core.text.starts_with("CAPI=2:\n"));
    }

    #[test]
    fn generation_is_deterministic() {
        assert_eq!(
            generate(&PRESETS[1]).unwrap(),
            generate(&PRESETS[1]).unwrap()
        );
    }
}
