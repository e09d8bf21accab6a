//! Verilog generation: rust-hdl visits the blocks, `spe_gen` writes the files of `gen/`.
//!
//! rust-hdl's own `generate_verilog` names the top `top`. This module instead visits the
//! design with `ModuleDefines` under the name `spe_top_<preset>` and hands the raw text to
//! `spe_gen::emit::verilog::clean_modules` (which renames each block module to
//! `spe_<block>_<preset>`, rewrites the `$` separators and checks the result) and the
//! modules to `spe_gen::emit::preset::files`. The flops are instances of the shared
//! `spe_rff` module (`gen/spe_rff.v`, [`crate::flop`]). The output is deterministic.

use crate::flop::{RFF_MODULE, RFF_VERILOG};
use rust_hdl::prelude::*;
use spe_defs::{Config, PRESETS};
use spe_gen::{banner, GenFile};

/// Runs `$body` with `$t` bound to the RTL top of `$cfg`: one monomorphisation per
/// dispatch width W (1..=8) and counter width (12 or 16). The per-slot bus widths are
/// spelled out (`56·W`, `2·W`, `8·W`) because Rust cannot compute them in a type.
#[macro_export]
macro_rules! with_top {
    ($cfg:expr, |$t:ident| $body:expr) => {{
        let cfg: &spe_defs::Config = $cfg;
        $crate::with_top!(@arms cfg, $t, $body, (cfg.dispatch_width, cfg.counter_width.bits());
            (1, 56, 2, 8) (2, 112, 4, 16) (3, 168, 6, 24) (4, 224, 8, 32)
            (5, 280, 10, 40) (6, 336, 12, 48) (7, 392, 14, 56) (8, 448, 16, 64))
    }};
    (@arms $cfg:ident, $t:ident, $body:expr, $key:expr; $(($w:literal, $pcb:literal, $cb:literal, $sb:literal))*) => {
        match $key {
            $(
                ($w, 12) => {
                    let mut $t = $crate::top::SpeTop::<$w, $pcb, $cb, $sb, 12>::new($cfg);
                    $body
                }
                ($w, 16) => {
                    let mut $t = $crate::top::SpeTop::<$w, $pcb, $cb, $sb, 16>::new($cfg);
                    $body
                }
            )*
            (w, c) => panic!("no RTL for dispatch width {w} and counter width {c}"),
        }
    };
}

/// Runs `$body` with `$t` bound to the multithreaded RTL top of `$cfg` (`threads` > 1):
/// one monomorphisation per (W, counter width, T) of a preset; the widths derived from them
/// (`56·W`, `2·W`, `8·W`, `W·log2 T`, `n·T`) are spelled out.
#[macro_export]
macro_rules! with_smt_top {
    ($cfg:expr, |$t:ident| $body:expr) => {{
        let cfg: &spe_defs::Config = $cfg;
        match (cfg.dispatch_width, cfg.counter_width.bits(), cfg.threads) {
            (4, 12, 2) => {
                let mut $t = $crate::smt_top::SpeSmtTop::<4, 224, 8, 32, 12, 2, 1, 4, 4, 8, 16, 64, 112, 128>::new(cfg);
                $body
            }
            (8, 16, 4) => {
                let mut $t = $crate::smt_top::SpeSmtTop::<8, 448, 16, 64, 16, 4, 2, 16, 8, 16, 32, 128, 224, 256>::new(cfg);
                $body
            }
            (w, c, t) => panic!(
                "no multithreaded RTL for dispatch width {w}, counter width {c}, {t} threads (hdl/rtl/src/gen.rs, with_smt_top!)"
            ),
        }
    }};
}

/// The raw rust-hdl output for a design visited under `name`.
fn raw_verilog<B: Block>(top: &mut B, name: &str) -> Result<String, String> {
    // rust-hdl's own checks first (open inputs, combinational loops): it would panic
    // inside its generator otherwise.
    top.connect_all();
    check_all(top).map_err(|e| format!("rust-hdl design check failed: {e:?}"))?;
    // `ModuleDefines` under our own top name, instead of `generate_verilog`'s `top`.
    let mut defines = ModuleDefines::default();
    top.accept(name, &mut defines);
    Ok(defines.defines())
}

/// The modules of a design visited under `top_name`, cleaned up and checked
/// (`spe_gen::emit::verilog::clean_modules`: `child` names each block's module;
/// `allow_initial` only for RAM contents of a board build). In rust-hdl's order, top last.
pub fn design_modules<B: Block>(
    top: &mut B,
    top_name: &str,
    child: &dyn Fn(&str) -> String,
    allow_initial: bool,
) -> Result<Vec<(String, String)>, String> {
    let raw = raw_verilog(top, top_name)?;
    spe_gen::emit::verilog::clean_modules(&raw, top_name, child, allow_initial)
}

/// The files of one preset: a Verilog file per module, the file lists and the
/// SystemVerilog surface (`spe_gen::emit::preset::files`).
pub fn generate(cfg: &Config) -> Result<Vec<GenFile>, String> {
    cfg.validate()?;
    let top = cfg.top_module();
    let child = |block: &str| format!("spe_{block}_{}", cfg.name);
    let modules = if cfg.threads > 1 {
        with_smt_top!(cfg, |t| design_modules(&mut t, &top, &child, false))?
    } else {
        with_top!(cfg, |t| design_modules(&mut t, &top, &child, false))?
    };
    Ok(spe_gen::emit::preset::files(cfg, modules))
}

/// Every file of `gen/` that holds Verilog: `spe_rff.v` and each preset's folder.
pub fn generate_all() -> Result<Vec<GenFile>, String> {
    // The shared flop once, at the top of `gen/`; each preset's folder refers to it.
    let mut files = vec![GenFile {
        path: format!("{RFF_MODULE}.v"),
        text: format!(
            "{}\n{RFF_VERILOG}",
            banner("spe_rff: the flip-flop shared by every preset")
        ),
    }];
    for cfg in PRESETS {
        files.extend(generate(cfg)?);
    }
    let core = spe_gen::emit::fusesoc::core_file(&files);
    files.push(GenFile {
        path: spe_gen::emit::preset::CORE_FILE.into(),
        text: core,
    });
    Ok(files)
}

/// Every file of `gen/`: the RTL's ([`generate_all`]), then `spe_gen::all_files` adds the
/// tables, the C header, `extra` (the SoC's folder, from `soc/rtl`, which builds on this
/// crate), the marker and the index.
pub fn all_files(extra: Vec<GenFile>) -> Result<Vec<GenFile>, String> {
    Ok(spe_gen::all_files(generate_all()?, extra))
}
