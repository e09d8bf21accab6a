//! `gen/spe_tables.md` is generated from the definitions; this fails when it is stale.

#[test]
fn generated_tables_in_gen_are_current() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../gen/spe_tables.md");
    let on_disk = std::fs::read_to_string(path).expect("gen/spe_tables.md exists");
    assert!(
        on_disk == spe_defs::tables::markdown(),
        "gen/spe_tables.md is stale: run `cargo run --release --bin spe -- docs --out gen` and commit it"
    );
}
