//! Writes the port contract's types (`contract.rs`) into `OUT_DIR`: their emitter is
//! `spe_gen::emit::contract`, which says what it holds.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let out = std::path::Path::new(&std::env::var("OUT_DIR").unwrap()).join("contract.rs");
    std::fs::write(out, spe_gen::emit::contract::contract()).unwrap();
}
