//! One module per output; each is a function from the definitions to text.
//!
//! | module | output | written by |
//! |---|---|---|
//! | [`verilog`] | the RTL's modules, cleaned and checked (rust-hdl's raw text in) | `spe gen` (via `spe_rtl::gen`) |
//! | [`preset`] | `gen/<preset>/`: a file per module, the file lists | `spe gen` |
//! | [`sv`] | `gen/<preset>/*.sv`: package, wrapper, replay bench, scoreboard monitor | `spe gen` |
//! | [`fusesoc`] | `gen/spe.core` | `spe gen` |
//! | [`tables`] | `gen/spe_tables.md` | `spe gen` |
//! | [`c_header`] | `gen/spe_regs.h` | `spe gen` |
//! | [`soc_map`] | `gen/soc/spe_soc.h`, `gen/soc/spe_soc_map.py` | `spe gen` (via `spe_soc`) |
//! | [`index`] | `gen/README.md` | `spe gen` |
//! | [`rtl_macros`] | `top_ports.rs`, `reg_table.rs` (the RTL's table macros) | `hdl/rtl/build.rs` |
//! | [`contract`] | `contract.rs` (the port contract's Rust types) | `verif/ports/build.rs` |
//! | [`fpga_wrapper`] | the pin-limited wrapper of `spe synth` | `spe_fpga`, into its run folder |
//! | [`formal_wrapper`] | the formal top of `spe formal` | `spe_formal`, into its run folder |
//! | [`bench_harness`] | the raw C++ harness of `spe bench sim` | `spe_harness`, into its build folder |
//!
//! Made elsewhere, and written through [`crate::write_dir`] where they are files of `gen/`:
//! `gen/spe_rff.v` (its text is the flop's own, `spe_rtl::flop::RFF_VERILOG`), the SoC's
//! `gen/soc*/` Verilog and lists (`spe_soc`, from its rust-hdl blocks), the marker
//! `.spe-generated` ([`crate::marker_file`]); and, outside `gen/`, the timing diagrams
//! (`spe_cosim::diagrams`, `spe diagrams`) and the coverage reports (`spe coverage`).
//!
//! One emitter stays outside, on purpose: the C ABI shim over the Verilated models
//! (`verif/verilator-sys/build.rs`). It is written from Verilator's own output (each model's
//! class list) in the same run that Verilates, and were that build script to depend on this
//! crate, any change to any emitter here would re-Verilate and recompile every model
//! (minutes on two cores).

pub mod bench_harness;
pub mod c_header;
pub mod contract;
pub mod formal_wrapper;
pub mod fpga_wrapper;
pub mod fusesoc;
pub mod index;
pub mod preset;
pub mod rtl_macros;
pub mod soc_map;
pub mod sv;
pub mod tables;
pub mod verilog;
