//! The multithreaded top (`SpeSmtTop`) generates: one module per block, shared by the
//! threads' copies, except the sampler, whose LFSR seed differs per thread (an option's
//! block inside a thread's block is shared too); the option ports of the options it
//! builds, T copies of each.

use spe_defs::PRESETS;

#[test]
fn smt_tops_share_every_block_module_but_the_samplers() {
    let smt: Vec<_> = PRESETS.iter().filter(|c| c.threads > 1).collect();
    assert_eq!(
        smt.iter().map(|c| c.name).collect::<Vec<_>>(),
        ["smt2", "smt4", "smt2_v1p4"]
    );
    for cfg in smt {
        let files = spe_rtl::gen::generate(cfg).unwrap();
        let mut verilog: Vec<&str> = files
            .iter()
            .filter_map(|f| f.path.strip_suffix(".v"))
            .filter_map(|p| p.strip_prefix(&format!("{}/", cfg.name)))
            .collect();
        verilog.sort();
        let n = cfg.name;
        let mut want: Vec<String> = [
            "arbiter",
            "capture",
            "filter",
            "latency",
            "regs",
            "room",
            "serializer",
            "top",
            "tracker",
            "writer",
        ]
        .iter()
        .map(|b| format!("spe_{b}_{n}"))
        .chain((0..cfg.threads).map(|t| format!("spe_sampler_t{t}_{n}")))
        // The options' blocks (hdl/rtl/src/options), one module each for every thread's.
        .chain(
            [
                ("regs_pmfz", cfg.options.pmfz),
                ("regs_eft", cfg.options.eft),
                ("filter_eft", cfg.options.eft),
                ("capture_eft", cfg.options.eft),
                ("tracker_eft", cfg.options.eft),
                ("regs_exc_state", cfg.options.exc),
                ("regs_exc_banks", cfg.options.exc),
                ("regs_nvm", cfg.options.nvm),
                ("writer_nvm", cfg.options.nvm),
                ("writer_v1p3", cfg.options.v1p3),
                ("filter_fds", cfg.options.fds),
                ("filter_feed_events", cfg.options.feed_events),
                ("tracker_pbt", cfg.options.pbt),
                ("serializer_pbt", cfg.options.pbt),
                ("sampler_ernd", cfg.options.ernd),
                ("capture_crr", cfg.options.crr),
                ("tracker_sve_events", cfg.options.sve_events),
                ("tracker_v1p4_events", cfg.options.v1p4_events),
                ("tracker_sme_events", cfg.options.sme),
                ("regs_events_hi", spe_defs::events::has_high_events(cfg)),
                ("filter_events_hi", spe_defs::events::has_high_events(cfg)),
                (
                    "serializer_events_hi",
                    spe_defs::events::has_high_events(cfg),
                ),
            ]
            .iter()
            .filter(|(_, built)| *built)
            .map(|(b, _)| format!("spe_{b}_{n}")),
        )
        .collect();
        want.sort();
        assert_eq!(verilog, want, "{n}");
        let top = &files
            .iter()
            .find(|f| f.path == format!("{n}/spe_top_{n}.v"))
            .unwrap()
            .text;
        // Thread t's instances, and the SMT ports with their widths.
        for t in 0..cfg.threads {
            for inst in [
                format!("spe_tracker_{n} tracker__{t}("),
                format!("spe_sampler_t{t}_{n} sampler__{t}("),
                format!("spe_regs_{n} regs__{t}("),
            ] {
                assert!(top.contains(&inst), "{n}: no `{inst}`");
            }
        }
        let tidw = cfg.threads.trailing_zeros() as usize;
        let decl = |dir: &str, bits: usize, name: &str| match bits {
            1 => format!("{dir}  {name};"),
            b => format!("{dir}  [{}:0] {name};", b - 1),
        };
        for decl in [
            decl("input wire", cfg.dispatch_width * tidw, "disp_tid"),
            decl("input wire", cfg.threads, "thr_active"),
            decl("output reg", tidw, "wr_tid"),
            decl("output reg", 4 * cfg.threads, "pmu_sample_pop"),
            decl("input wire", 64 * cfg.threads, "xl_va"),
        ] {
            assert!(top.contains(&decl), "{n}: no `{decl}`");
        }
        // The option ports the preset builds, T copies of each (none in smt2 and smt4).
        let mut built = 0;
        for o in spe_defs::ports::OPTION_PORTS {
            let p = &o.port;
            let dir = match p.dir {
                spe_defs::ports::Dir::In => "input wire",
                spe_defs::ports::Dir::Out => "output reg",
            };
            let d = decl(dir, p.bits_for(cfg) as usize, p.name);
            assert_eq!(top.contains(&d), (o.built)(cfg), "{n}: `{d}`");
            built += usize::from((o.built)(cfg));
        }
        assert_eq!(built > 0, n == "smt2_v1p4", "{n}: {built} option ports");
    }
}

#[test]
fn an_option_of_the_shared_write_port_is_one_copy_at_any_thread_count() {
    // FEAT_SPE_nVM's `wr_addr_space` and `wr_mem_attr` go with the write port, which the
    // threads share: as wide at T = 2 as at T = 1, and the granted thread's value;
    // FEAT_SPE_EXC's ports are per thread. No preset builds the options yet: v1p4 and
    // smt2_v1p4 with them, linted.
    for base in ["v1p4", "smt2_v1p4"] {
        let b = spe_defs::Config::preset(base).unwrap();
        let cfg = spe_defs::Config {
            name: "nvm_check",
            options: spe_defs::config::Options {
                nvm: true,
                exc: true,
                ..b.options
            },
            ..*b
        };
        let files = spe_rtl::gen::generate(&cfg).unwrap();
        let text = |m: &str| {
            &files
                .iter()
                .find(|f| f.path == format!("nvm_check/spe_{m}_nvm_check.v"))
                .unwrap_or_else(|| panic!("{base}: no {m}"))
                .text
        };
        let top = text("top");
        let t = cfg.threads;
        let decl = |dir: &str, bits: usize, name: &str| match bits {
            1 => format!("{dir}  {name};"),
            b => format!("{dir}  [{}:0] {name};", b - 1),
        };
        for d in [
            decl("output reg", 2, "wr_addr_space"),
            decl("output reg", 10, "wr_mem_attr"),
            decl("input wire", 2 * t, "mdcr_pmsee"),
            decl("output reg", t, "exc_el3"),
        ] {
            assert!(top.contains(&d), "{base}: no `{d}`");
        }
        assert!(
            text("regs").contains("nvm_ctl"),
            "{base}: regs without nvm_ctl"
        );
        assert!(
            text("writer").contains("nvm_out"),
            "{base}: writer without nvm_out"
        );
        lint(&files, &cfg);
    }
}

/// `verilator --lint-only -Wall` of a configuration's generated Verilog (as
/// scripts/rtl-check.sh runs it on the presets), when Verilator is installed.
fn lint(files: &[spe_gen::GenFile], cfg: &spe_defs::Config) {
    let ok = std::process::Command::new("verilator")
        .arg("--version")
        .output();
    if ok.is_err() {
        eprintln!("verilator not found: the lint of {} is skipped", cfg.name);
        return;
    }
    let dir = std::env::temp_dir().join(format!("spe-lint-{}-{}", cfg.name, std::process::id()));
    for f in files {
        let path = dir.join(&f.path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &f.text).unwrap();
    }
    // The shared flop module that every preset's file list names (gen/spe_rff.v).
    std::fs::write(dir.join("spe_rff.v"), spe_rtl::flop::RFF_VERILOG).unwrap();
    let list = dir.join(cfg.name).join(spe_defs::config::GEN_FILE_LIST);
    let out = std::process::Command::new("verilator")
        .args(["--lint-only", "-Wall", "-F"])
        .arg(&list)
        .args(["--top-module", &cfg.top_module()])
        .output()
        .unwrap();
    if std::env::var_os("SPE_LINT_KEEP").is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(
        out.status.success(),
        "{}: verilator --lint-only -Wall:\n{}",
        cfg.name,
        String::from_utf8_lossy(&out.stderr)
    );
}
