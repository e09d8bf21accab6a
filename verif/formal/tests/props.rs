//! Without the formal tools: the property table, the property files and the wrapper fit
//! every preset's generated Verilog.

use spe_defs::PRESETS;
use spe_formal::wrapper::{owner_taps, tap_signal, wrapper_text, OWNER_FILE};
use spe_formal::{PROPS, PROP_DIR};
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The identifiers a text uses that start with `prefix` (Verilog identifier chars).
fn idents<'a>(text: &'a str, prefix: &str) -> Vec<&'a str> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    for (i, _) in text.match_indices(prefix) {
        if i > 0 && ident(bytes[i - 1]) {
            continue;
        }
        let end = text[i..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(text.len(), |e| i + e);
        // A bare prefix (`th_<port>` in a comment) names nothing.
        if end > i + prefix.len() || !prefix.ends_with('_') {
            out.push(&text[i..end]);
        }
    }
    out
}

/// Without the formal tools: every property file names only wires the wrapper of every
/// preset declares (its `th_` view, `wr_thread`), and every tap resolves to a signal of
/// that preset's generated Verilog (for thread 0 and the last thread).
#[test]
fn every_property_fits_every_preset_s_wrapper_and_its_taps_exist() {
    for cfg in PRESETS {
        let dir = repo().join("gen").join(cfg.name);
        let top = std::fs::read_to_string(dir.join(format!("spe_top_{}.v", cfg.name)))
            .expect("the preset's top");
        let mut all = String::new();
        for e in std::fs::read_dir(&dir).expect("the preset's folder") {
            all += &std::fs::read_to_string(e.expect("an entry").path()).unwrap_or_default();
        }
        for th in [0, cfg.threads - 1] {
            let w = wrapper_text(cfg, th);
            for p in PROPS {
                let text = std::fs::read_to_string(repo().join(PROP_DIR).join(p.file))
                    .expect("the property file");
                for id in idents(&text, "th_")
                    .into_iter()
                    .chain(idents(&text, "wr_thread"))
                    .chain(idents(&text, "f_option_outs"))
                {
                    let declared = w.lines().any(|l| {
                        l.starts_with("wire")
                            && (l.contains(&format!(" {id} =")) || l.ends_with(&format!(" {id};")))
                    });
                    assert!(
                        declared,
                        "{}: {} uses {id}, which the wrapper of {} (thread {th}) does not declare",
                        p.name, p.file, cfg.name
                    );
                }
                for (wire, t) in p.taps {
                    assert!(
                        text.contains(&format!(" {wire}")),
                        "{}: tap {wire} is not a wire of {}",
                        p.name,
                        p.file
                    );
                    let sig = tap_signal(cfg, th, t);
                    let ok = match sig.split_once('.') {
                        Some((inst, s)) => {
                            top.contains(&format!(" {inst}(")) && all.contains(&format!(" {s};"))
                        }
                        None => top.contains(&format!(" {sig};")),
                    };
                    assert!(ok, "{}: tap {sig} is not in gen/{}", p.name, cfg.name);
                }
            }
            // The owner's invariants: included, and their taps exist, at T > 1 only.
            let owner = std::fs::read_to_string(repo().join(PROP_DIR).join(OWNER_FILE))
                .expect("the owner file");
            let included = w.contains(&format!("`include \"{OWNER_FILE}\""));
            assert_eq!(included, cfg.threads > 1, "{}: owner.vh included", cfg.name);
            let taps = owner_taps(cfg);
            assert_eq!(
                taps.len(),
                if cfg.threads > 1 { cfg.threads + 3 } else { 0 }
            );
            for (wire, sig) in taps {
                let base = wire.split('[').next().expect("a name");
                assert!(
                    owner.contains(&format!(" {base};")),
                    "owner tap {base} is not a wire of {OWNER_FILE}"
                );
                let (inst, s) = sig.split_once('.').unwrap_or(("", &sig));
                let ok = if inst.is_empty() {
                    top.contains(&format!(" {s};"))
                } else {
                    top.contains(&format!(" {inst}(")) && all.contains(&format!(" {s};"))
                };
                assert!(ok, "owner tap {sig} is not in gen/{}", cfg.name);
            }
        }
    }
}

/// Every formal mutant of the one table names a property of this crate's table, and every
/// property has a mutant that must break it.
#[test]
fn every_mutant_names_a_property_and_every_property_has_a_mutant() {
    for m in spe_formal::mutants() {
        let p = m.prop.expect("a formal mutant names its property");
        assert!(
            spe_formal::prop(p).is_ok(),
            "mutant {} names {p}, which is not a property",
            m.name
        );
    }
    for p in PROPS {
        assert!(
            spe_formal::mutants().any(|m| m.prop == Some(p.name)),
            "no mutant breaks {}",
            p.name
        );
    }
}

/// docs/formal.md's table of properties is hand-written prose: it must still name exactly
/// the properties of `PROPS`, in their order (a property added, renamed or dropped there
/// without the page fails here).
#[test]
fn the_docs_property_table_names_every_property_of_the_table_in_order() {
    let page = repo().join("docs/formal.md");
    let doc = std::fs::read_to_string(&page).unwrap();
    let names: Vec<&str> = doc
        .lines()
        .skip_while(|l| !l.starts_with("| property | promise | how |"))
        .skip(2)
        .take_while(|l| l.starts_with("| `"))
        .map(|l| l["| `".len()..].split('`').next().unwrap_or(""))
        .collect();
    let want: Vec<&str> = PROPS.iter().map(|p| p.name).collect();
    assert_eq!(
        names,
        want,
        "{}: its property table (| property | promise | how |) is not spe_formal::PROPS",
        page.display()
    );
}

/// `SPE_FORMAL_ALL` runs every preset of the one table but `default` (which the default run
/// proves): each one-thread preset once, each multithreaded one for thread 0 and the last.
#[test]
fn the_other_preset_runs_cover_every_preset_of_the_table() {
    let runs = spe_formal::other_preset_runs();
    for cfg in PRESETS.iter().filter(|c| c.name != "default") {
        let threads: Vec<usize> = runs
            .iter()
            .filter(|r| r.preset == cfg.name)
            .map(|r| r.thread)
            .collect();
        let want = if cfg.threads == 1 {
            vec![0]
        } else {
            vec![0, cfg.threads - 1]
        };
        assert_eq!(threads, want, "{}", cfg.name);
    }
    assert!(runs.iter().all(|r| r.preset != "default"));
    assert!(runs.iter().any(|r| r.preset == "v1p4"));
}

/// wr-slot's record ends at a faulted beat but for an ignored external abort: the wrapper
/// says which presets ignore them (FEAT_SPEv1p3's PMBIDR.EA = 1).
#[test]
fn the_wrapper_says_where_external_aborts_are_ignored() {
    for cfg in PRESETS {
        let w = wrapper_text(cfg, 0);
        let want = format!("localparam EA_IGNORED = {};", u8::from(cfg.options.v1p3));
        assert!(w.contains(&want), "{}: no `{want}`", cfg.name);
    }
    let text = std::fs::read_to_string(repo().join(PROP_DIR).join("wr_slot.vh")).unwrap();
    assert!(text.contains("EA_IGNORED"));
}
