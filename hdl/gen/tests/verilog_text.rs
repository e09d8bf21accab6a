//! The clean-ups of rust-hdl's Verilog (`spe_gen::emit::verilog`), each on a small text.

use spe_gen::emit::verilog::*;

#[test]
fn indexed_one_bit_signals_get_a_range() {
    let v = "input wire  a;\n    reg  b;\nalways @(*) b = a[0];";
    assert_eq!(
        range_indexed_scalars(v),
        "input wire [0:0] a;\n    reg  b;\nalways @(*) b = a[0];"
    );
}

#[test]
fn only_the_enum_variants_a_module_uses_are_declared() {
    let v = "localparam P__A = 0;\nlocalparam P__B = 1;\nlocalparam k_x = 2'h1;\nif (s == P__B) y = k_x;";
    assert_eq!(
        drop_unused_enum_params(v),
        "localparam P__B = 1;\nlocalparam k_x = 2'h1;\nif (s == P__B) y = k_x;"
    );
}

#[test]
fn struct_field_offsets_become_plain_numbers() {
    assert_eq!(
        unsize_slice_offsets("a[(64'h38)+:(5)] = b[(32'h0)+:(8)];"),
        "a[(56)+:(5)] = b[(32'h0)+:(8)];"
    );
}

#[test]
fn identifiers_are_renamed_whole() {
    assert_eq!(
        rename_identifier("x__0, x__0)\n  assign x__0 = ab_x__0 | x__01;", "x__0", "x"),
        "x, x)\n  assign x = ab_x__0 | x__01;"
    );
}

#[test]
fn separators_inside_identifiers_become_double_underscores() {
    assert_eq!(
        rewrite_separators("a$b = $signed(c$d);"),
        "a__b = $signed(c__d);"
    );
}
