//! The formal top around `spe_top_<preset>` that `spe formal` proves a property on
//! (`verif/formal`: the property files, the constants they name and the runner).

use spe_defs::ports::{ports_of, Dir};
use spe_defs::Config;

/// The invariants of the shared writer's owner (`verif/formal/props/owner.vh`), which the wrapper
/// of a multithreaded unit includes beside every property.
pub const OWNER_FILE: &str = "owner.vh";

/// The formal top (`consts`: the `localparam`s the property files name): every port of `spe_top_<preset>`, its inputs as the wrapper's (free in
/// every cycle), reset assumed in the first cycle, the view of the thread under check
/// (`TH`) and `prop.vh` included in the body. Every port is declared with a range (`[0:0]`
/// for one bit), so a per-thread port's copy is `name[TH*b +: b]` at any thread count.
///
/// The view: `th_<port>` is thread TH's copy of each per-thread port; `th_slots` the
/// dispatch slots whose op is thread TH's (every slot at T = 1), `th_tag` the tags of
/// those; `th_reg` the register port addresses thread TH; `th_wr` a beat of thread TH's
/// buffer is offered; `wr_thread` the thread of the beat offered (`wr_tid`, 0 at T = 1);
/// `th_s_el1` PMBSR_EL1.S as the outputs show it (PMBIRQ, or the EL1 exception);
/// `f_stopped` each thread's profiling stopped (PMBIRQ, or any pending SPE exception).
pub fn text(cfg: &Config, th: usize, consts: &str) -> String {
    use spe_defs::ports::Width;
    let mut ins = vec!["  input wire clk".to_string()];
    let mut outs = Vec::new();
    let mut conns = vec!["    .clk(clk)".to_string()];
    let mut view = vec![
        format!("localparam T = {};", cfg.threads),
        format!("localparam TH = {th};"),
        format!("localparam W = {};", cfg.dispatch_width),
        // FEAT_SPEv1p3's PMBIDR.EA = 1: an external abort on a buffer write is ignored.
        format!(
            "localparam EA_IGNORED = {};",
            u8::from(spe_defs::config::option::v1p3(cfg))
        ),
        // The record slot: 64 bytes, or 128 with FEAT_SPE_CRR (`Config::record_log2`).
        format!("localparam REC_LOG2 = {};", cfg.record_log2()),
    ];
    for p in ports_of(cfg) {
        let d = format!("[{}:0] ", p.bits_for(cfg) - 1);
        match p.dir {
            Dir::In => ins.push(format!("  input wire {d}{}", p.name)),
            Dir::Out => outs.push(format!("  wire {d}{};", p.name)),
        }
        conns.push(format!("    .{n}({n})", n = p.name));
        if let Width::PerThread(b) = p.width {
            view.push(format!(
                "wire [{}:0] th_{n} = {n}[TH*{b} +: {b}];",
                b - 1,
                n = p.name
            ));
        }
    }
    if cfg.threads == 1 {
        view.push("wire [W-1:0] th_slots = {W{1'b1}};".into());
        view.push("wire th_reg = 1'b1;".into());
        view.push("wire th_wr = wr_valid;".into());
        view.push("wire [0:0] wr_thread = 1'b0;".into());
    } else {
        let b = cfg.threads.trailing_zeros();
        view.push("wire [W-1:0] th_slots;".into());
        view.push("genvar f_i;".into());
        view.push(format!(
            "generate for (f_i = 0; f_i < W; f_i = f_i + 1) begin : f_slot\n  assign th_slots[f_i] = disp_tid[f_i*{b} +: {b}] == TH;\nend endgenerate"
        ));
        view.push("wire th_reg = reg_tid == TH;".into());
        view.push("wire th_wr = wr_valid && wr_tid == TH;".into());
        view.push(format!("wire [{}:0] wr_thread = wr_tid;", b - 1));
    }
    view.push("wire [W-1:0] th_tag = tag & th_slots;".into());
    // PMBSR_EL1.S as the outputs show it: PMBIRQ, or with FEAT_SPE_EXC (which keeps the
    // interrupt low while PMSCR_EL1.EE is effectively 11) PMBIRQ or the EL1 exception.
    // Each thread's profiling stopped (J1 SPEProfilingStopped) as the outputs show it:
    // PMBIRQ, or with FEAT_SPE_EXC PMBIRQ or any bank's pending exception (an enabled
    // bank's S).
    view.push(
        if spe_defs::config::option::exc(cfg) {
            "wire th_s_el1 = th_irq | th_exc_el1;\nwire [T-1:0] f_stopped = irq | exc_el1 | exc_el2 | exc_el3;"
        } else {
            "wire th_s_el1 = th_irq;\nwire [T-1:0] f_stopped = irq;"
        }
        .into(),
    );
    // The outputs only an option builds (spe_defs::ports::OPTION_PORTS), ORed: a property
    // about every output names this (zero in a preset without options).
    let options: Vec<&str> = ports_of(cfg)
        .filter(|p| p.dir == Dir::Out && spe_defs::ports::option_port_built(p.name, cfg))
        .map(|p| p.name)
        .collect();
    view.push(format!(
        "wire f_option_outs = {};",
        if options.is_empty() {
            "1'b0".to_string()
        } else {
            format!("|{{{}}}", options.join(", "))
        }
    ));
    format!(
        "// spe_formal_{name}: spe_top_{name} under the property of prop.vh (spe formal).\n\
         // Written by `spe formal` (hdl/gen/src/emit/formal_wrapper.rs); not part of the unit.\n\
         `default_nettype none\n\
         module spe_formal_{name} (\n{ins}\n);\n\
         // Register addresses and fields (spe_defs::regs) and the tracker's phases\n\
         // (spe_rtl::bundles::SamplePhase) the property files name.\n\
         {consts}\n\
         {outs}\n\
         {top} dut (\n{conns}\n);\n\
         // The thread under check and its view of the ports.\n\
         {view}\n\
         // Reset in the first cycle; every input is free afterwards.\n\
         reg f_init = 1'b1;\n\
         always @(posedge clk) f_init <= 1'b0;\n\
         always @(*) if (f_init) assume(reset);\n\
         `include \"prop.vh\"\n\
         {owner}\
         endmodule\n",
        name = cfg.name,
        ins = ins.join(",\n"),
        outs = outs.join("\n"),
        top = cfg.top_module(),
        conns = conns.join(",\n"),
        view = view.join("\n"),
        owner = if cfg.threads > 1 {
            format!("// The writer's owner: invariants of every run at T > 1.\n`include \"{OWNER_FILE}\"\n")
        } else {
            String::new()
        },
    )
}
