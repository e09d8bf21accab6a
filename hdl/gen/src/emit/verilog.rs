//! The RTL's Verilog: rust-hdl's output (visited by `spe_rtl::gen`) split into modules,
//! renamed, cleaned of what tools trip over and checked.
//!
//! rust-hdl names every child by its instance path joined with `$`. [`clean_modules`]
//! renames each block module to the caller's name for it (`spe_<block>_<preset>`), rewrites
//! the remaining `$` separators to `__`, and applies the clean-ups below; the output is
//! deterministic.

/// Replaces the hierarchy separator `$` inside identifiers with `__` (system functions
/// such as `$signed` are left alone).
pub fn rewrite_separators(text: &str) -> String {
    let ident = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    for (i, &c) in chars.iter().enumerate() {
        let prev = if i > 0 { Some(chars[i - 1]) } else { None };
        // Between two identifier characters: a separator, not a system task or function.
        if c == '$' && ident(prev) && ident(chars.get(i + 1).copied()) {
            out.push_str("__");
        } else {
            out.push(c);
        }
    }
    out
}

/// rust-hdl emits struct-field slice offsets as 64-bit literals (`x[(64'h38)+:(5)]`),
/// which Verilator's WIDTH lint rejects as an index of a narrower vector. Offsets are
/// elaboration-time constants: write them as plain decimal numbers (`x[(56)+:(5)]`).
pub fn unsize_slice_offsets(text: &str) -> String {
    const OPEN: &str = "[(64'h";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(OPEN) {
        let after = &rest[i + OPEN.len()..];
        let digits = after.chars().take_while(|c| c.is_ascii_hexdigit()).count();
        if digits > 0 && after[digits..].starts_with(")+:(") {
            let v = u64::from_str_radix(&after[..digits], 16).expect("hex digits");
            out.push_str(&rest[..i]);
            out.push_str(&format!("[({v}"));
            rest = &after[digits..];
        } else {
            out.push_str(&rest[..i + OPEN.len()]);
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// rust-hdl declares every 1-bit signal as a scalar (`input wire  x;`), but a `Bits<W>` bus
/// with W = 1 is still indexed (`x[0]`), which Verilog forbids on a scalar. Give such
/// declarations the range `[0:0]`: same width, and the bit-select becomes legal.
pub fn range_indexed_scalars(text: &str) -> String {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    // `name[` preceded by a non-identifier character: a bit- or part-select of `name`.
    let indexed = |name: &str| {
        text.match_indices(&format!("{name}["))
            .any(|(i, _)| !text[..i].chars().next_back().is_some_and(is_ident))
    };
    text.lines()
        .map(|line| {
            let t = line.trim_start();
            for kind in [
                "input wire  ",
                "output reg  ",
                "output wire  ",
                "reg  ",
                "wire  ",
            ] {
                if let Some(name) = t.strip_prefix(kind).and_then(|r| r.strip_suffix(';')) {
                    if name.chars().all(is_ident) && indexed(name) {
                        let indent = &line[..line.len() - t.len()];
                        return format!("{indent}{} [0:0] {name};", kind.trim_end());
                    }
                }
            }
            line.to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// rust-hdl's kernel translation simplifies only the first index of a signal path: element
/// 0 of a vector of signals of element `t` of a vector of blocks (`self.regs[t].freeze[0]` in
/// a kernel) comes out as `regs__1__freeze[0]`, a bit-select of a signal that does not
/// exist. Write such a select as the element's name (`regs__1__freeze__0`) when the module
/// declares that name and not the indexed one; every other select is left alone.
pub fn nested_element_selects(text: &str) -> String {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let declared: std::collections::HashSet<&str> = text
        .lines()
        .filter_map(|line| {
            let t = line.trim_start();
            let decl = ["input ", "output ", "reg ", "wire "]
                .iter()
                .any(|k| t.starts_with(k));
            let name = t.strip_suffix(';')?.rsplit(' ').next()?;
            (decl && !name.is_empty() && name.chars().all(is_ident)).then_some(name)
        })
        .collect();
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        let (head, tail) = rest.split_at(open);
        let start = head
            .char_indices()
            .rev()
            .take_while(|(_, c)| is_ident(*c))
            .last()
            .map_or(head.len(), |(i, _)| i);
        let name = &head[start..];
        let digits: String = tail[1..].chars().take_while(char::is_ascii_digit).collect();
        let closes = tail[1 + digits.len()..].starts_with(']');
        let element = format!("{name}__{digits}");
        if !name.is_empty()
            && !digits.is_empty()
            && closes
            && !declared.contains(name)
            && declared.contains(element.as_str())
        {
            out.push_str(&head[..start]);
            out.push_str(&element);
            rest = &tail[digits.len() + 2..];
        } else {
            out.push_str(head);
            out.push('[');
            rest = &tail[1..];
        }
    }
    out.push_str(rest);
    out
}

/// rust-hdl declares every variant of a state enum (`localparam SamplePhase__Idle = 0;`) in
/// each module that carries a signal of that type, used or not (Verilator's UNUSEDPARAM).
/// Keep only the variants the module refers to.
pub fn drop_unused_enum_params(text: &str) -> String {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let uses = |name: &str| {
        text.match_indices(name)
            .filter(|(i, _)| {
                let before = text[..*i].chars().next_back();
                let after = text[i + name.len()..].chars().next();
                !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
            })
            .count()
    };
    // A variant's name once (its declaration) means unused; `__` marks enum variants.
    text.lines()
        .filter(|line| {
            let t = line.trim_start();
            match t
                .strip_prefix("localparam ")
                .and_then(|r| r.split_once(" = "))
            {
                Some((name, _)) if name.contains("__") => uses(name) > 1,
                _ => true,
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Splits rust-hdl's output into `(module name, module text)` pairs.
fn split_modules(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut mods = Vec::new();
    let mut rest = text;
    // rust-hdl ends each module with `endmodule // <name>`, which delimits it.
    while let Some(start) = rest.find("module ") {
        let after = &rest[start + "module ".len()..];
        let name_end = after
            .find('(')
            .ok_or("rust-hdl output: module header without a port list")?;
        let name = after[..name_end].trim().to_string();
        let end_marker = format!("endmodule // {name}");
        let end = rest
            .find(&end_marker)
            .ok_or_else(|| format!("rust-hdl output: module {name} has no end"))?;
        mods.push((name, rest[start..end + end_marker.len()].to_string()));
        rest = &rest[end + end_marker.len()..];
    }
    Ok(mods)
}

/// Trailing spaces off every line, one final newline.
fn tidy(text: &str) -> String {
    let mut out: String = text
        .lines()
        .map(|l| l.trim_end())
        .collect::<Vec<_>>()
        .join("\n");
    // At most one blank line in a row (rust-hdl leaves runs of them).
    while out.contains("\n\n\n") {
        out = out.replace("\n\n\n", "\n\n");
    }
    out.trim().to_string() + "\n"
}

/// The modules of rust-hdl's output `raw` for a design visited under `top_name`, cleaned up
/// and checked: each child
/// module (`<top>$<block>`, or `<top>$<block>$<N>` for element N of an array of blocks;
/// a block inside a block is `<top>$<a>$<b>`, or `<top>$<a>$<M>$<b>$<N>` inside an
/// array's element, its path `a_b`) renamed `child(path)` (the elements of an array share
/// it when their texts agree, else `child(<path>_t<M>_<N>)`) in its header,
/// its end marker and where the top instantiates it; then the clean-ups of rust-hdl's
/// output and [`check_module`] (which rejects `initial` unless `allow_initial`: only RAM
/// contents of a board build may come from one). In rust-hdl's order, top last.
pub fn clean_modules(
    raw: &str,
    top_name: &str,
    child: &dyn Fn(&str) -> String,
    allow_initial: bool,
) -> Result<Vec<(String, String)>, String> {
    let modules = split_modules(raw)?;
    // Each child's block path (`a`, or `a_b` for block `b` inside block `a`, array indices
    // left out) and its indices (the all-digit segments: `a$1$b$0` is element 0 of array
    // `b` inside element 1 of array `a`).
    let mut blocks: Vec<(&str, String, Vec<&str>)> = Vec::new();
    for (name, _) in &modules {
        if name == top_name {
            continue;
        }
        let path = name.strip_prefix(&format!("{top_name}$")).unwrap_or("");
        let segs: Vec<&str> = path.split('$').collect();
        let digits = |s: &str| s.bytes().all(|c| c.is_ascii_digit());
        if path.is_empty() || segs.iter().any(|s| s.is_empty()) || digits(segs[0]) {
            return Err(format!(
                "unexpected module {name}: not a block (or an array of blocks) under the top {top_name}"
            ));
        }
        let block: Vec<&str> = segs.iter().copied().filter(|s| !digits(s)).collect();
        let index: Vec<&str> = segs.iter().copied().filter(|s| digits(s)).collect();
        blocks.push((name.as_str(), block.join("_"), index));
    }
    // The elements of an array are one module when their texts agree, each leaving its own
    // name out and every block inside it read as the name it was given (so two elements
    // whose children were merged agree, and two whose children differ do not); that module
    // is `child(path)`, else each element is `child(<path>_t<indices joined by _>)`. Named
    // deepest first, so that a block's children are named before it.
    let mut order: Vec<usize> = (0..blocks.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(blocks[i].0.matches('$').count()));
    let mut renames: Vec<(String, String)> = Vec::new();
    let text_of = |name: &str, renames: &[(String, String)]| {
        let mut t = modules.iter().find(|(n, _)| n == name).unwrap().1.clone();
        t = rename_identifier(&t, name, "");
        for (old, new) in renames {
            t = rename_identifier(&t, old, new);
        }
        t
    };
    for &i in &order {
        let (name, block, index) = &blocks[i];
        let mine = text_of(name, &renames);
        let same = blocks
            .iter()
            .filter(|(_, b, _)| b == block)
            .all(|(n, _, _)| text_of(n, &renames) == mine);
        let new = if same {
            child(block)
        } else if index.is_empty() {
            return Err(format!(
                "module {name}: another block of path {block} has other text (a block named `a_b` beside a block `b` inside `a`?)"
            ));
        } else {
            child(&format!("{block}_t{}", index.join("_")))
        };
        renames.push((name.to_string(), new));
    }
    let mut out: Vec<(String, String)> = Vec::new();
    for (name, text) in &modules {
        if let Some((_, new)) = renames.iter().find(|(old, _)| old == name) {
            if out.iter().any(|(n, _)| n == new) {
                continue;
            }
        }
        let mut text = text.clone();
        let mut new_name = name.clone();
        // Its header, its end marker and its instances of other blocks: whole identifiers
        // (one name is never renamed as part of a longer one).
        for (old, new) in &renames {
            text = rename_identifier(&text, old, new);
            if old == name {
                new_name = new.clone();
            }
        }
        let text = drop_unused_enum_params(&range_indexed_scalars(&unsize_slice_offsets(
            &nested_element_selects(&rewrite_separators(&text)),
        )));
        check_module(&new_name, &text, allow_initial)?;
        out.push((new_name, tidy(&text)));
    }
    Ok(out)
}

/// `text` with every whole identifier `old` (not part of a longer one) replaced by `new`.
pub fn rename_identifier(text: &str, old: &str, new: &str) -> String {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(old) {
        let before = if at > 0 {
            rest[..at].chars().last()
        } else {
            out.chars().last()
        };
        let after = rest[at + old.len()..].chars().next();
        out.push_str(&rest[..at]);
        if before.is_some_and(ident) || after.is_some_and(ident) {
            out.push_str(old);
        } else {
            out.push_str(new);
        }
        rest = &rest[at + old.len()..];
    }
    out.push_str(rest);
    out
}

/// `(name, direction, bits)` of each port declaration of `module` in rust-hdl's output, in
/// header order (for the tests that hold a generated top to its port table).
pub fn verilog_ports(text: &str, module: &str) -> Vec<(String, spe_defs::ports::Dir, u32)> {
    use spe_defs::ports::Dir;
    let header = text
        .split(&format!("module {module}("))
        .nth(1)
        .and_then(|t| t.split(");").next())
        .unwrap_or_else(|| panic!("no header for {module}"));
    let decl = |name: &str| -> (Dir, u32) {
        for line in text.lines().map(str::trim) {
            for (kw, dir) in [
                ("input wire", Dir::In),
                ("output reg", Dir::Out),
                ("output wire", Dir::Out),
            ] {
                let Some(rest) = line.strip_prefix(kw) else {
                    continue;
                };
                let rest = rest.trim().trim_end_matches(';');
                let (range, n) = match rest.rsplit_once(' ') {
                    Some((r, n)) => (r.trim(), n),
                    None => ("", rest),
                };
                if n != name {
                    continue;
                }
                let bits = match range.strip_prefix('[').and_then(|r| r.strip_suffix(":0]")) {
                    Some(msb) => msb.parse::<u32>().expect("numeric range") + 1,
                    None => 1,
                };
                return (dir, bits);
            }
        }
        panic!("{module}: port {name} is not declared")
    };
    header
        .split(',')
        .map(str::trim)
        .map(|n| {
            let (d, b) = decl(n);
            (n.to_string(), d, b)
        })
        .collect()
}

/// Rejects anything a tool flow would trip over.
fn check_module(name: &str, text: &str, allow_initial: bool) -> Result<(), String> {
    if !name.starts_with("spe_") || name == "top" {
        return Err(format!("module {name}: every module must be named spe_*"));
    }
    // A `$` left in an identifier breaks Tcl/SDC scripts; system functions are fine.
    for (i, _) in text.match_indices('$') {
        let tail = &text[i..];
        if !(tail.starts_with("$signed(") || tail.starts_with("$unsigned(")) {
            let line = text[..i].lines().count();
            let src = text
                .lines()
                .nth(line.saturating_sub(1))
                .unwrap_or("")
                .trim();
            return Err(format!(
                "module {name}: a `$` survived on line {line}: {src}"
            ));
        }
    }
    // Every flop is an `spe_rff` with a real reset: no state may come from `initial`.
    if text.contains("initial") && !allow_initial {
        return Err(format!("module {name}: state set by an initial block"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{clean_modules, nested_element_selects};

    /// rust-hdl 0.46's output for a top with a block `mid` that holds a one-element array
    /// of blocks `leaf` (captured from `generate_verilog`).
    const NESTED: &str = "module top(a,y);
    
    // Module arguments
    input wire  a;
    output reg  y;
    
    // Stub signals
    reg  mid$a;
    wire  mid$y;
    
    // Sub module instances
    top$mid mid(
        .a(mid$a),
        .y(mid$y)
    );
    
    // Update code
    always @(*) begin
        mid$a = a;
        y = mid$y;
    end
    
endmodule // top


module top$mid(a,y);
    
    // Module arguments
    input wire  a;
    output reg  y;
    
    // Stub signals
    reg  leaf$0$a;
    wire  leaf$0$y;
    
    // Sub module instances
    top$mid$leaf$0 leaf$0(
        .a(leaf$0$a),
        .y(leaf$0$y)
    );
    
    // Update code
    always @(*) begin
        y = a;
        leaf$0$a = a;
        y = leaf$0$y;
    end
    
endmodule // top$mid


module top$mid$leaf$0(a,y);
    
    // Module arguments
    input wire  a;
    output reg  y;
    
    // Update code
    always @(*) begin
        y = ~a;
    end
    
endmodule // top$mid$leaf$0
";

    /// rust-hdl 0.46's output for a top with a two-element array of blocks `mid`, each
    /// holding a one-element array of blocks `leaf` (captured from `generate_verilog`, as
    /// the multithreaded top holds an option's block in each thread's block).
    const NESTED_ARRAY: &str = "module top(a,y);
    
    // Module arguments
    input wire  a;
    output reg  y;
    
    // Stub signals
    reg  mid$0$a;
    wire  mid$0$y;
    reg  mid$1$a;
    wire  mid$1$y;
    
    // Sub module instances
    top$mid$0 mid$0(
        .a(mid$0$a),
        .y(mid$0$y)
    );
    top$mid$1 mid$1(
        .a(mid$1$a),
        .y(mid$1$y)
    );
    
    // Update code
    always @(*) begin
        y = a;
        mid$0$a = a;
        y = mid$0$y;
        mid$1$a = a;
        y = mid$1$y;
    end
    
endmodule // top


module top$mid$0(a,y);
    
    // Module arguments
    input wire  a;
    output reg  y;
    
    // Stub signals
    reg  leaf$0$a;
    wire  leaf$0$y;
    
    // Sub module instances
    top$mid$0$leaf$0 leaf$0(
        .a(leaf$0$a),
        .y(leaf$0$y)
    );
    
    // Update code
    always @(*) begin
        y = a;
        leaf$0$a = a;
        y = leaf$0$y;
    end
    
endmodule // top$mid$0


module top$mid$0$leaf$0(a,y);
    
    // Module arguments
    input wire  a;
    output reg  y;
    
    // Update code
    always @(*) begin
        y = ~a;
    end
    
endmodule // top$mid$0$leaf$0


module top$mid$1(a,y);
    
    // Module arguments
    input wire  a;
    output reg  y;
    
    // Stub signals
    reg  leaf$0$a;
    wire  leaf$0$y;
    
    // Sub module instances
    top$mid$1$leaf$0 leaf$0(
        .a(leaf$0$a),
        .y(leaf$0$y)
    );
    
    // Update code
    always @(*) begin
        y = a;
        leaf$0$a = a;
        y = leaf$0$y;
    end
    
endmodule // top$mid$1


module top$mid$1$leaf$0(a,y);
    
    // Module arguments
    input wire  a;
    output reg  y;
    
    // Update code
    always @(*) begin
        y = ~a;
    end
    
endmodule // top$mid$1$leaf$0
";

    #[test]
    fn blocks_inside_an_array_of_blocks_are_one_module_when_alike() {
        let raw = NESTED_ARRAY.replace("top", "spe_top");
        let mods = clean_modules(&raw, "spe_top", &|b| format!("spe_{b}_x"), false).unwrap();
        let mut names: Vec<&str> = mods.iter().map(|(n, _)| n.as_str()).collect();
        names.sort_unstable();
        assert_eq!(names, ["spe_mid_leaf_x", "spe_mid_x", "spe_top"]);
        let text = |n: &str| mods.iter().find(|(m, _)| m == n).unwrap().1.clone();
        assert!(text("spe_mid_x").contains("spe_mid_leaf_x leaf__0("));
        assert!(
            text("spe_top").contains("spe_mid_x mid__0(")
                && text("spe_top").contains("spe_mid_x mid__1(")
        );
        assert!(
            mods.iter().all(|(_, t)| !t.contains("spe_top$")),
            "{mods:?}"
        );

        // Element 1's leaf differs: each leaf its own module, and so each `mid` (which
        // instantiate different leaves), named by their indices.
        let raw = raw.replace(
            "module spe_top$mid$1$leaf$0(a,y);
    
    // Module arguments
    input wire  a;
    output reg  y;
    
    // Update code
    always @(*) begin
        y = ~a;",
            "module spe_top$mid$1$leaf$0(a,y);
    
    // Module arguments
    input wire  a;
    output reg  y;
    
    // Update code
    always @(*) begin
        y = a;",
        );
        let mods = clean_modules(&raw, "spe_top", &|b| format!("spe_{b}_x"), false).unwrap();
        let mut names: Vec<&str> = mods.iter().map(|(n, _)| n.as_str()).collect();
        names.sort_unstable();
        assert_eq!(
            names,
            [
                "spe_mid_leaf_t0_0_x",
                "spe_mid_leaf_t1_0_x",
                "spe_mid_t0_x",
                "spe_mid_t1_x",
                "spe_top"
            ]
        );
        let text = |n: &str| mods.iter().find(|(m, _)| m == n).unwrap().1.clone();
        assert!(text("spe_mid_t1_x").contains("spe_mid_leaf_t1_0_x leaf__0("));
        assert!(text("spe_mid_leaf_t1_0_x").contains("y = a;"));
        assert!(
            text("spe_top").contains("spe_mid_t0_x mid__0(")
                && text("spe_top").contains("spe_mid_t1_x mid__1(")
        );
    }

    #[test]
    fn a_block_inside_a_block_is_named_by_its_path() {
        // Under a top named as ours are (`check_module` wants `spe_*`).
        let raw = NESTED.replace("top", "spe_top");
        let mods = clean_modules(&raw, "spe_top", &|b| format!("spe_{b}_x"), false).unwrap();
        let mut names: Vec<&str> = mods.iter().map(|(n, _)| n.as_str()).collect();
        names.sort_unstable();
        assert_eq!(names, ["spe_mid_leaf_x", "spe_mid_x", "spe_top"]);
        let text = |n: &str| &mods.iter().find(|(m, _)| m == n).unwrap().1;
        assert!(
            text("spe_mid_x").contains("spe_mid_leaf_x leaf__0("),
            "{}",
            text("spe_mid_x")
        );
        assert!(
            text("spe_top").contains("spe_mid_x mid("),
            "{}",
            text("spe_top")
        );
        assert!(text("spe_mid_leaf_x").contains("module spe_mid_leaf_x(a,y);"));
        assert!(
            mods.iter().all(|(_, t)| !t.contains("spe_top$")),
            "a rust-hdl path left: {mods:?}"
        );
        // A module that is no block of the top is still refused.
        let stray = raw.replace("spe_top$mid$leaf$0", "spe_other$leaf");
        assert!(clean_modules(&stray, "spe_top", &|b| format!("spe_{b}"), false).is_err());
    }

    #[test]
    fn a_select_of_an_undeclared_name_becomes_the_declared_element() {
        let text = "wire  regs__1__freeze__0;\nreg  [1:0] x;\n\
                    always @(*) begin\n    x = regs__1__freeze[0] | x[1] | y[2];\nend\n";
        let out = nested_element_selects(text);
        assert!(
            out.contains("x = regs__1__freeze__0 | x[1] | y[2];"),
            "{out}"
        );
        // Declared names, and names whose element is not declared, keep their selects.
        assert_eq!(
            nested_element_selects("wire  a__0;\nwire  a;\nassign b = a[0];\n"),
            "wire  a__0;\nwire  a;\nassign b = a[0];\n"
        );
    }
}
