//! The multithreaded top (`SpeSmtTop`) generates: one module per block, shared by the
//! threads' copies, except the sampler, whose LFSR seed differs per thread; the option
//! ports of the options it builds, T copies of each.

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
