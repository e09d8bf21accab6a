//! Renders the integration tables (presets, ports, register map, record layout, events,
//! implementation-defined choices) as Markdown, from the definitions alone. `spe gen`
//! writes the result to `gen/spe_tables.md`; a test fails when that file is stale.

use spe_defs::config::PRESETS;
use spe_defs::ports::{Dir, Width, PORTS, SMT_PORTS};
use spe_defs::regs::{self, REGS};
use spe_defs::{events, impdef};
use std::fmt::Write;

/// Banner on every generated file.
pub const BANNER: &str = "Generated from hdl/defs by `spe gen` - do not edit; regenerate with `cargo run --release --bin spe -- gen --out gen`.";

fn width_text(w: Width) -> String {
    match w {
        Width::Bits(b) => b.to_string(),
        Width::PerSlot(1) => "W".to_string(),
        Width::PerSlot(b) => format!("W x {b}"),
        Width::PerThread(1) => "T".to_string(),
        Width::PerThread(b) => format!("T x {b}"),
        Width::ThreadId => "log2(T)".to_string(),
        Width::PerSlotThreadId => "W x log2(T)".to_string(),
    }
}

/// One table row per port: name, direction, width, group, meaning, timing.
fn port_rows(s: &mut String, ports: &[spe_defs::ports::Port]) -> std::fmt::Result {
    for p in ports {
        let dir = if p.dir == Dir::In { "in" } else { "out" };
        writeln!(
            s,
            "| `{}` | {} | {} | {} | {} | {} |",
            p.name,
            dir,
            width_text(p.width),
            p.group,
            p.meaning,
            p.timing
        )?;
    }
    Ok(())
}

/// One table row per choice: key, topic, Arm ARM rule, behaviour.
fn choice_rows(s: &mut String, choices: &[impdef::Choice]) -> std::fmt::Result {
    for c in choices {
        writeln!(
            s,
            "| `{}` | {} | {} | {} |",
            c.key, c.topic, c.rule, c.behaviour
        )?;
    }
    Ok(())
}

/// The whole document.
pub fn markdown() -> String {
    let mut s = String::new();
    render(&mut s).expect("writing to a String cannot fail");
    s
}

fn render(s: &mut String) -> std::fmt::Result {
    writeln!(s, "<!-- {BANNER} -->")?;
    writeln!(s, "# SPE unit: integration tables\n")?;
    writeln!(s, "## Presets\n")?;
    writeln!(
        s,
        "| preset | W | T | counters | min interval | completion timeout | PMSIDR_EL1 | PMSVer | purpose |"
    )?;
    writeln!(s, "|---|---|---|---|---|---|---|---|---|")?;
    for c in PRESETS {
        let idr = regs::read_only_value(regs::RegId::Pmsidr, c);
        writeln!(
            s,
            "| `{}` | {} | {} | {}-bit | {} | 2^{} cycles | `{:#x}` | `{:#06b}` | {} |",
            c.name,
            c.dispatch_width,
            c.threads,
            c.counter_width.bits(),
            c.min_interval(),
            c.cpl_timeout_log2,
            idr,
            impdef::pmsver_of(c, false),
            c.desc
        )?;
    }

    writeln!(s, "\n## Ports of `spe_top`\n")?;
    // The multithreaded presets, from the preset table: `a`, `b` and `c`.
    let smt: Vec<String> = PRESETS
        .iter()
        .filter(|c| c.threads > 1)
        .map(|c| format!("`{}`", c.name))
        .collect();
    let smt = match smt.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => "none".into(),
    };
    writeln!(s, "Single clock `clk` (rising edge). `W` is the preset's dispatch width; per-slot ports pack slot 0 in the low bits. `T` is the number of hardware threads (1 but in {smt}): a per-thread port (`T x b`) gives each thread its own copy of `b` bits, thread 0 in the low bits, so it is `b` bits at T = 1 ([docs/smt.md](../docs/smt.md)). ")?;
    writeln!(s, "**comb**: depends on the same cycle's inputs; **reg**: registered. Every output except `reg_rdata` and `irq` is low while `reset` is high.\n")?;
    writeln!(s, "| port | dir | width | hook | meaning | timing |")?;
    writeln!(s, "|---|---|---|---|---|---|")?;
    port_rows(s, PORTS)?;

    writeln!(s, "\n### Hook protocol\n")?;
    writeln!(s, "Every rule the unit applies to the hook reports (`iss_valid`, `xl_*`, `mem_*`, `br_*`, `cpl_*`); the golden model and the RTL implement exactly these.\n")?;
    writeln!(s, "| rule | what the unit does |")?;
    writeln!(s, "|---|---|")?;
    for r in spe_defs::ports::HOOK_RULES {
        writeln!(s, "| `{}` | {} |", r.key, r.rule)?;
    }

    writeln!(s, "\n### Ports of a multithreaded unit (T > 1)\n")?;
    writeln!(s, "After the ports above, in presets with T > 1 (`smt2`, `smt4`; [docs/smt.md](../docs/smt.md)).\n")?;
    writeln!(s, "| port | dir | width | group | meaning | timing |")?;
    writeln!(s, "|---|---|---|---|---|---|")?;
    port_rows(s, SMT_PORTS)?;

    writeln!(s, "\n### Ports of the options\n")?;
    writeln!(s, "Last, only in a unit built with the option (the other presets do not have the port; their Verilog does not change).\n")?;
    writeln!(
        s,
        "| port | dir | width | option | presets | meaning | timing |"
    )?;
    writeln!(s, "|---|---|---|---|---|---|---|")?;
    for o in spe_defs::ports::OPTION_PORTS {
        let p = &o.port;
        let presets: Vec<String> = PRESETS
            .iter()
            .filter(|c| (o.built)(c))
            .map(|c| format!("`{}`", c.name))
            .collect();
        writeln!(
            s,
            "| `{}` | {} | {} | `Options::{}` | {} | {} | {} |",
            p.name,
            if p.dir == Dir::In { "in" } else { "out" },
            width_text(p.width),
            o.option,
            presets.join(", "),
            p.meaning,
            p.timing
        )?;
    }

    writeln!(s, "\n## Register map\n")?;
    writeln!(s, "Port address = `{{op1 == 4, CRm[0], op2}}`. Unmapped addresses read zero and ignore writes; RES0 bits read zero; read-only registers ignore writes; a port write in the same cycle as a hardware update wins. Writable masks and ID values below are for the `default` preset (PMSLATFR's mask follows the counter width, PMSIDR.CountSize/Interval the preset).\n")?;
    writeln!(
        s,
        "| register | op0,op1,CRn,CRm,op2 | port addr | access | reset | writable mask | purpose |"
    )?;
    writeln!(s, "|---|---|---|---|---|---|---|")?;
    let cfg = &PRESETS[0];
    for r in REGS {
        let (a, b, c, d, e) = r.enc;
        let access = if r.read_only { "RO" } else { "RW" };
        writeln!(
            s,
            "| {} | {a},{b},{c},{d},{e} | `{:#04x}` | {access} | `{:#x}` | `{:#x}` | {} |",
            r.name,
            r.addr(),
            r.reset_value(cfg),
            r.writable_mask(cfg),
            r.desc
        )?;
    }
    for r in REGS {
        writeln!(s, "\n### {}\n", r.name)?;
        writeln!(s, "| bits | field | meaning |")?;
        writeln!(s, "|---|---|---|")?;
        for f in r.fields {
            let bits = if f.width == 1 {
                f.lsb.to_string()
            } else {
                format!("{}:{}", f.lsb + f.width - 1, f.lsb)
            };
            writeln!(s, "| {bits} | {} | {} |", f.name, f.desc)?;
        }
    }

    let short = 1usize << impdef::RECORD_SIZE_LOG2;
    writeln!(s, "\n## Record layout ({short} bytes, fixed offsets)\n")?;
    writeln!(
        s,
        "Absent packets leave their bytes as Padding (`0x00`). Bytes {}..{} are always padding, but in a unit with a 4-byte Events payload (`Options::sve_events`, `Options::v1p4_events`): its Events packet takes bytes 50..54 and Timestamp / End bytes 55..63.\n",
        impdef::MAX_RECORD_BYTES,
        short - 1
    )?;
    writeln!(s, "| offset | bytes | packet | present when |")?;
    writeln!(s, "|---|---|---|---|")?;
    for slot in impdef::layout::ALL {
        writeln!(
            s,
            "| {} | {} | {} | {} |",
            slot.offset, slot.len, slot.name, slot.when
        )?;
    }
    let long: Vec<&spe_defs::Config> = spe_defs::PRESETS
        .iter()
        .filter(|c| c.long_records())
        .collect();
    assert!(
        long.iter()
            .all(|c| impdef::layout::all(c) == impdef::layout::all(long[0])),
        "the presets with 128-byte slots share one layout"
    );
    writeln!(
        s,
        "\n## Record layout ({} bytes, FEAT_SPE_CRR: {})\n",
        impdef::MAX_RECORD_SIZE,
        long.iter().map(|c| c.name).collect::<Vec<_>>().join(", ")
    )?;
    writeln!(
        s,
        "A unit that records the Guarded Control Stack puts each packet in a place of its own, so that a call or return with a GCS access carries its target and its data addresses (D17.6.3). The Events packet is as in the 64-byte layout (4-byte payload: bytes 50..54); the bytes between the places are Padding.\n"
    )?;
    writeln!(s, "| offset | bytes | packet | present when |")?;
    writeln!(s, "|---|---|---|---|")?;
    for slot in impdef::layout::all(long[0]) {
        writeln!(
            s,
            "| {} | {} | {} | {} |",
            slot.offset, slot.len, slot.name, slot.when
        )?;
    }

    writeln!(s, "\n## Events packet bits\n")?;
    writeln!(s, "| bit | perf name | filterable |")?;
    writeln!(s, "|---|---|---|")?;
    // Every event any preset builds; an option's event names the option.
    let any = spe_defs::PRESETS
        .iter()
        .fold(0, |m, c| m | events::implemented_mask(c));
    for b in 0..64 {
        if any & events::bit(b) != 0 {
            let f = if events::FNE_MASK & events::bit(b) != 0 {
                "yes (`Options::fne` only)"
            } else if events::FILTERABLE_MASK & events::bit(b) != 0 {
                "yes"
            } else if events::SVE_MASK & events::bit(b) != 0 {
                "yes (`Options::sve_events` only)"
            } else if events::V1P4_MASK & events::bit(b) != 0 {
                "yes (`Options::v1p4_events` only, loads)"
            } else {
                "no"
            };
            writeln!(s, "| {b} | {} | {f} |", events::name(b).unwrap_or("IMPDEF"))?;
        }
    }

    writeln!(s, "\n## Implementation-defined choices\n")?;
    writeln!(
        s,
        "- **Architecture version.** The integrating core advertises ID_AA64DFR0_EL1.PMSVer = `{:#06b}` (SPEv1p1), or `{:#06b}` (FEAT_SPE) on a PE with SVE or SME: the highest version whose mandatory features the unit all implements (below). Discard mode (SPEv1p2's) is implemented too; the inverted event filter (FEAT_SPE_FnE), which the Arm ARM makes go with SPEv1p2 both ways (A2.2.8), only with the options. A preset with options can claim more (`PMSVer` column of the presets: `v1p2x` builds PMBLIMITR.PMFZ, the SAMPLE_FEED_* events and FEAT_SPE_FnE, so SPEv1p2 without SVE).",
        impdef::PMSVER,
        impdef::PMSVER_WITH_SVE
    )?;
    writeln!(s, "\n| feature | mandatory from PMSVer | implemented |")?;
    writeln!(s, "|---|---|---|")?;
    for f in impdef::FEATURES {
        let from = match (f.mandatory_from, f.needs_sve) {
            (0, _) => "optional".to_string(),
            (v, false) => format!("`{v:#06b}`"),
            (v, true) => format!("`{v:#06b}` with SVE or SME"),
        };
        let imp = if f.implemented {
            "yes".to_string()
        } else if f.option.is_some() {
            let with: Vec<String> = PRESETS
                .iter()
                .filter(|c| f.built_in(c))
                .map(|c| format!("`{}`", c.name))
                .collect();
            format!("option: {}", with.join(", "))
        } else {
            "no".to_string()
        };
        writeln!(s, "| {} | {from} | {imp} |", f.name)?;
    }
    writeln!(s)?;
    writeln!(s, "Each row's key tags the code that implements it in the golden model and the RTL, or in `hdl/defs` for an advertised ID value (`choice: KEY`); a test checks that every row is tagged and every tag has a row.\n")?;
    writeln!(s, "| key | topic | Arm ARM rule | behaviour of this unit |")?;
    writeln!(s, "|---|---|---|---|")?;
    choice_rows(s, impdef::CHOICES)?;
    writeln!(s, "\n## CONSTRAINED UNPREDICTABLE cases\n")?;
    writeln!(s, "Each row's key tags the code that implements it in the golden model and the RTL (`choice: KEY`); a test checks both.\n")?;
    writeln!(s, "| key | case | Arm ARM rule | behaviour of this unit |")?;
    writeln!(s, "|---|---|---|---|")?;
    choice_rows(s, impdef::CONSTRAINED)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn tables_name_every_register_port_and_layout_slot() {
        let md = super::markdown();
        for r in spe_defs::regs::REGS {
            assert!(md.contains(r.name));
        }
        for p in spe_defs::ports::PORTS {
            assert!(md.contains(&format!("`{}`", p.name)));
        }
        for s in spe_defs::impdef::layout::ALL {
            assert!(md.contains(s.name));
        }
        for r in spe_defs::ports::HOOK_RULES {
            assert!(md.contains(&format!("| `{}` | {} |", r.key, r.rule)));
        }
    }
}
