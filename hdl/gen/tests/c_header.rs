//! `gen/spe_regs.h` compiles as C (`cc -std=c99 -Wall -Werror`) and every macro has the
//! value of the definitions: a generated C program prints them all and the test compares.

use spe_defs::regs::{read_only_value, REGS};
use spe_defs::PRESETS;
use spe_gen::emit::c_header::header;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::process::Command;

/// Every macro the header must define, with its value.
fn expected() -> BTreeMap<String, u64> {
    let mut m = BTreeMap::new();
    for r in REGS {
        m.insert(format!("SPE_{}_ADDR", r.name), u64::from(r.addr()));
        for f in r.fields {
            let n = format!("SPE_{}_{}", r.name, f.name);
            m.insert(format!("{n}_SHIFT"), u64::from(f.lsb));
            m.insert(format!("{n}_WIDTH"), u64::from(f.width));
            m.insert(format!("{n}_MASK"), f.mask());
        }
    }
    for cfg in PRESETS {
        let p = cfg.name.to_ascii_uppercase();
        for r in REGS {
            if r.read_only {
                m.insert(
                    format!("SPE_{p}_{}_VALUE", r.name),
                    read_only_value(r.id, cfg),
                );
            } else {
                m.insert(format!("SPE_{p}_{}_WRITABLE", r.name), r.writable_mask(cfg));
            }
        }
    }
    m
}

#[test]
fn the_c_header_compiles_and_every_macro_has_the_definitions_value() {
    let dir = std::env::temp_dir().join(format!("spe-c-header-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("spe_regs.h"), header()).unwrap();
    let want = expected();
    let mut c = String::from("#include <stdio.h>\n#include \"spe_regs.h\"\nint main(void) {\n");
    for name in want.keys() {
        writeln!(
            c,
            "    printf(\"{name} %llu\\n\", (unsigned long long)({name}));"
        )
        .unwrap();
    }
    c.push_str("    return 0;\n}\n");
    std::fs::write(dir.join("main.c"), c).unwrap();
    let exe = dir.join("print_regs");
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let out = Command::new(&cc)
        .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-o"])
        .arg(&exe)
        .arg(dir.join("main.c"))
        .current_dir(&dir)
        .output()
        .unwrap_or_else(|e| panic!("cannot run the C compiler `{cc}` ({e}); install gcc"));
    assert!(
        out.status.success(),
        "spe_regs.h does not compile:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = Command::new(&exe).output().unwrap();
    let got: BTreeMap<String, u64> = String::from_utf8(run.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let (n, v) = l.split_once(' ').unwrap();
            (n.to_string(), v.parse().unwrap())
        })
        .collect();
    assert_eq!(got, want);
}
