//! Writes the RTL's table macros (`top_ports.rs`, `reg_table.rs`) into `OUT_DIR`: their
//! emitter is `spe_gen::emit::rtl_macros`, which says what each macro expands to.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR").unwrap());
    for (name, text) in [
        ("reg_table.rs", spe_gen::emit::rtl_macros::reg_table()),
        ("top_ports.rs", spe_gen::emit::rtl_macros::top_ports()),
    ] {
        std::fs::write(out.join(name), text).unwrap();
    }
}
