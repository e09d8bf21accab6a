//! Micro-op trace files: a line-oriented text format for feeding your own op streams to
//! the core (`docs/trace-format.md` is the user documentation), its parser (errors name
//! the line) and its writer.
//!
//! One op per line: `<pc> <class> <subclass> [flag ...] [key=value ...]`, `#` starts a
//! comment. Every field of a [`MicroOp`] the core acts on has a spelling, and the writer
//! leaves out exactly the values the parser would fill in by default, so writing then
//! parsing gives the same ops back.

use crate::program::TraceProgram;
use crate::uop::{
    default_cond, default_el, default_exec_lat, default_mem_lat, default_xlat_lat, BranchOutcome,
    MemAccess, MemEvents, MicroOp, Mode, Tlb, DEFAULT_ISSUE_LAT,
};
use spe_defs::impdef::data_source;
use spe_defs::packet::op_class;
use std::fmt::{self, Write as _};
use std::path::Path;

/// Physical addresses on the hook are 56 bits.
const PA_BITS: u32 = spe_defs::packet::addr_payload::ADDR_BITS;
/// Default physical address: the VA's low 48 bits (identity mapping).
const DEFAULT_PA_MASK: u64 = (1 << 48) - 1;
/// Largest latency a trace may give (keeps schedules far from overflow).
const MAX_LATENCY: u64 = 1_000_000;

/// A parse error at a 1-based line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for TraceError {}

const CLASS_NAMES: [(&str, u8); 3] = [
    ("other", op_class::OTHER),
    ("ldst", op_class::LD_ST_ATOMIC),
    ("branch", op_class::BRANCH),
];

const SOURCE_NAMES: [(&str, u8); 8] = [
    ("l1d", data_source::L1D),
    ("l2", data_source::L2),
    ("peer-core", data_source::PEER_CORE),
    ("local-cluster", data_source::LOCAL_CLUSTER),
    ("llc", data_source::SYSTEM_CACHE),
    ("peer-cluster", data_source::PEER_CLUSTER),
    ("remote", data_source::REMOTE),
    ("dram", data_source::DRAM),
];

const TLB_NAMES: [(&str, Tlb); 3] = [("off", Tlb::Off), ("hit", Tlb::Hit), ("walk", Tlb::Walk)];

const EVENT_NAMES: [&str; 5] = ["l1d", "l1d-refill", "llc", "llc-miss", "remote"];

fn events_flags(e: &MemEvents) -> [bool; 5] {
    [
        e.l1d_access,
        e.l1d_refill,
        e.llc_access,
        e.llc_miss,
        e.remote,
    ]
}

/// Parses a number: decimal, hexadecimal with `0x`, or a whole number in e-notation
/// (`1e6`, `2.5e6`); `_` separators allowed (`1_000_000`).
pub fn parse_num(s: &str) -> Result<u64, String> {
    let clean = s.replace('_', "");
    let err = || {
        format!(
            "{s:?} is not a number (decimal, 0x hex, or a whole number in e-notation: 1e6, 2.5e6)"
        )
    };
    if let Some(h) = clean
        .strip_prefix("0x")
        .or_else(|| clean.strip_prefix("0X"))
    {
        return u64::from_str_radix(h, 16).map_err(|_| err());
    }
    if let Some((mantissa, exp)) = clean.split_once(['e', 'E']) {
        let exp: u32 = exp.parse().map_err(|_| err())?;
        let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let frac = frac.trim_end_matches('0');
        let digits = format!("{int}{frac}");
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(err());
        }
        let scale = exp
            .checked_sub(frac.len() as u32)
            .ok_or_else(|| format!("{s:?} is not a whole number"))?;
        return digits
            .parse::<u64>()
            .ok()
            .and_then(|d| d.checked_mul(10u64.checked_pow(scale)?))
            .ok_or_else(|| format!("{s:?} does not fit in 64 bits"));
    }
    clean.parse().map_err(|_| err())
}

fn parse_bounded(key: &str, s: &str, min: u64, max: u64) -> Result<u64, String> {
    let v = parse_num(s)?;
    if v < min || v > max {
        return Err(format!("{key}={v} is outside {min}..={max}"));
    }
    Ok(v)
}

/// Everything one line says, before defaults.
#[derive(Default)]
struct Line {
    flags: Vec<String>,
    el: Option<u8>,
    e2pb: Option<u8>,
    iss: Option<u32>,
    exe: Option<u32>,
    ctx: Option<u32>,
    va: Option<u64>,
    pa: Option<u64>,
    tlb: Option<Tlb>,
    xl: Option<u32>,
    src: Option<u8>,
    ev: Option<MemEvents>,
    mem: Option<u32>,
    tgt: Option<u64>,
    tel: Option<u8>,
    tns: Option<bool>,
}

impl Line {
    fn has(&self, flag: &str) -> bool {
        self.flags.iter().any(|f| f == flag)
    }
}

const FLAGS: [&str; 17] = [
    "cond",
    "uncond",
    "wrong",
    "exc",
    "fail",
    "taken",
    "mispred",
    "ind",
    "misaligned",
    "ns-mem",
    "a32",
    "noprof",
    "secure",
    "host",
    "tge",
    "e2h",
    "no-el2",
];

fn set<T>(slot: &mut Option<T>, key: &str, v: T) -> Result<(), String> {
    if slot.is_some() {
        return Err(format!("{key}= given twice"));
    }
    *slot = Some(v);
    Ok(())
}

fn parse_key(l: &mut Line, key: &str, val: &str) -> Result<(), String> {
    let lat = |v: &str| parse_bounded(key, v, 0, MAX_LATENCY).map(|x| x as u32);
    match key {
        "el" => set(&mut l.el, key, parse_bounded(key, val, 0, 3)? as u8),
        "e2pb" => set(&mut l.e2pb, key, parse_bounded(key, val, 0, 3)? as u8),
        "iss" => set(
            &mut l.iss,
            key,
            parse_bounded(key, val, 1, MAX_LATENCY)? as u32,
        ),
        "exe" => set(
            &mut l.exe,
            key,
            parse_bounded(key, val, 1, MAX_LATENCY)? as u32,
        ),
        "ctx" => set(
            &mut l.ctx,
            key,
            parse_bounded(key, val, 0, u64::from(u32::MAX))? as u32,
        ),
        "va" => set(&mut l.va, key, parse_num(val)?),
        "pa" => set(
            &mut l.pa,
            key,
            parse_bounded(key, val, 0, (1 << PA_BITS) - 1)?,
        ),
        "tlb" => {
            let t = TLB_NAMES
                .iter()
                .find(|t| t.0 == val)
                .map(|t| t.1)
                .ok_or_else(|| format!("tlb={val}: expected off, hit or walk"))?;
            set(&mut l.tlb, key, t)
        }
        "xl" => set(&mut l.xl, key, lat(val)?),
        "src" => {
            let s = match SOURCE_NAMES.iter().find(|s| s.0 == val) {
                Some(s) => s.1,
                None => parse_bounded(key, val, 0, 255).map_err(|_| {
                    let names: Vec<&str> = SOURCE_NAMES.iter().map(|s| s.0).collect();
                    format!(
                        "src={val}: expected a number 0..=255 or one of {}",
                        names.join(", ")
                    )
                })? as u8,
            };
            set(&mut l.src, key, s)
        }
        "ev" => {
            let mut f = [false; 5];
            if val != "none" {
                for name in val.split(',') {
                    let i = EVENT_NAMES.iter().position(|n| *n == name).ok_or_else(|| {
                        format!(
                            "ev={val}: unknown event {name:?} (expected none or a list of {})",
                            EVENT_NAMES.join(", ")
                        )
                    })?;
                    f[i] = true;
                }
            }
            let e = MemEvents {
                l1d_access: f[0],
                l1d_refill: f[1],
                llc_access: f[2],
                llc_miss: f[3],
                remote: f[4],
            };
            set(&mut l.ev, key, e)
        }
        "mem" => set(
            &mut l.mem,
            key,
            parse_bounded(key, val, 1, MAX_LATENCY)? as u32,
        ),
        "tgt" => set(&mut l.tgt, key, parse_num(val)?),
        "tel" => set(&mut l.tel, key, parse_bounded(key, val, 0, 3)? as u8),
        "tns" => set(&mut l.tns, key, parse_bounded(key, val, 0, 1)? == 1),
        _ => Err(format!(
            "unknown key {key}= (expected el, e2pb, iss, exe, ctx, va, pa, tlb, xl, src, ev, mem, tgt, tel or tns)"
        )),
    }
}

/// Parses one non-empty line (comment already removed).
fn parse_line(content: &str) -> Result<MicroOp, String> {
    let mut tok = content.split_whitespace();
    let (Some(pc), Some(class), Some(sub)) = (tok.next(), tok.next(), tok.next()) else {
        return Err("expected `<pc> <class> <subclass> [flags] [key=value]`".into());
    };
    let pc = parse_num(pc).map_err(|e| format!("bad PC: {e}"))?;
    let class = match CLASS_NAMES.iter().find(|c| c.0 == class) {
        Some(c) => c.1,
        None => parse_bounded("class", class, 0, 3)
            .map_err(|_| format!("bad class {class:?}: expected other, ldst, branch or 0..=3"))?
            as u8,
    };
    let sub =
        parse_bounded("subclass", sub, 0, 255).map_err(|e| format!("bad subclass: {e}"))? as u8;
    let mut l = Line::default();
    for t in tok {
        match t.split_once('=') {
            Some((k, v)) => parse_key(&mut l, k, v)?,
            None => {
                if !FLAGS.contains(&t) {
                    return Err(format!(
                        "unknown flag {t:?} (expected one of {})",
                        FLAGS.join(", ")
                    ));
                }
                if l.has(t) {
                    return Err(format!("flag {t} given twice"));
                }
                l.flags.push(t.to_string());
            }
        }
    }
    build(pc, class, sub, &l)
}

/// Applies defaults and the rules that tie fields to classes.
fn build(pc: u64, class: u8, sub: u8, l: &Line) -> Result<MicroOp, String> {
    if l.has("cond") && l.has("uncond") {
        return Err("cond and uncond together".into());
    }
    if l.has("host") && (l.has("tge") || l.has("e2h")) {
        return Err("host already sets tge and e2h".into());
    }
    let tge = l.has("host") || l.has("tge");
    let e2h = l.has("host") || l.has("e2h");
    let mode = Mode {
        el: l.el.unwrap_or(default_el(pc)),
        ns: !l.has("secure"),
        el2: !l.has("no-el2"),
        e2pb: l.e2pb.unwrap_or(Mode::default_e2pb(tge, e2h)),
        tge,
        e2h,
        aarch32: l.has("a32"),
        prof_allowed: !l.has("noprof"),
    };
    let mut op = MicroOp::new(pc, class, sub, mode);
    if l.has("cond") {
        op.cond = true;
    } else if l.has("uncond") {
        op.cond = false;
    }
    op.wrong_path = l.has("wrong");
    op.exception = l.has("exc");
    op.cond_fail = l.has("fail");
    if op.cond_fail && class == op_class::BRANCH {
        return Err(
            "fail is for conditional non-branch ops (a branch reports taken instead)".into(),
        );
    }
    op.issue_lat = l.iss.unwrap_or(DEFAULT_ISSUE_LAT);
    op.exec_lat = l.exe.unwrap_or(default_exec_lat(class, sub));
    op.ctx_el1 = l.ctx;

    let mem_keys = [
        ("pa", l.pa.is_some()),
        ("tlb", l.tlb.is_some()),
        ("xl", l.xl.is_some()),
        ("src", l.src.is_some()),
        ("ev", l.ev.is_some()),
        ("mem", l.mem.is_some()),
        ("misaligned", l.has("misaligned")),
        ("ns-mem", l.has("ns-mem")),
    ];
    match l.va {
        Some(va) => {
            if class != op_class::LD_ST_ATOMIC {
                return Err(
                    "va= is only for ldst ops (translation and memory reports are for class 1)"
                        .into(),
                );
            }
            let tlb = l.tlb.unwrap_or(Tlb::Hit);
            let source = l.src.unwrap_or(data_source::L1D);
            op.mem = Some(MemAccess {
                va,
                pa: l.pa.unwrap_or(va & DEFAULT_PA_MASK),
                tlb,
                xlat_lat: l.xl.unwrap_or(default_xlat_lat(tlb)),
                source,
                events: l.ev.unwrap_or(MemEvents::for_source(source)),
                misaligned: l.has("misaligned"),
                ns_mem: l.has("ns-mem"),
                mem_lat: l.mem.unwrap_or(default_mem_lat(source)),
            });
        }
        None => {
            if let Some((k, _)) = mem_keys.iter().find(|k| k.1) {
                return Err(format!("{k} needs va= (the data address)"));
            }
        }
    }

    let br_flags = [
        ("taken", l.has("taken")),
        ("mispred", l.has("mispred")),
        ("ind", l.has("ind")),
        ("tel", l.tel.is_some()),
        ("tns", l.tns.is_some()),
    ];
    match l.tgt {
        Some(target) => {
            if class != op_class::BRANCH {
                return Err("tgt= is only for branch ops".into());
            }
            op.branch = Some(BranchOutcome {
                target,
                taken: l.has("taken"),
                mispred: l.has("mispred"),
                indirect: l.has("ind"),
                target_el: l.tel.unwrap_or(op.mode.el),
                target_ns: l.tns.unwrap_or(op.mode.ns),
            });
        }
        None => {
            if let Some((k, _)) = br_flags.iter().find(|k| k.1) {
                return Err(format!("{k} needs tgt= (the branch target)"));
            }
        }
    }
    Ok(op)
}

/// Parses a whole trace.
pub fn parse(text: &str) -> Result<Vec<MicroOp>, TraceError> {
    let mut ops = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        ops.push(parse_line(content).map_err(|message| TraceError {
            line: i + 1,
            message,
        })?);
    }
    Ok(ops)
}

/// Reads a trace file into a program named after the file.
pub fn load(path: &Path) -> Result<TraceProgram, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read trace {}: {e}", path.display()))?;
    let ops = parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    if ops.is_empty() {
        return Err(format!("{}: the trace has no ops", path.display()));
    }
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "trace".into());
    Ok(TraceProgram { name, ops })
}

/// Writes ops in the trace format, one line each, after a short header comment. Memory
/// outcomes are written for load/store ops and branch outcomes for branches only (the
/// core reports nothing else); latencies are written at least 1 where the core uses 1.
pub fn write(ops: &[MicroOp]) -> String {
    let mut s = String::from(
        "# spe-stim micro-op trace (docs/trace-format.md)\n\
         # <pc> <class> <subclass> [flags] [key=value]; omitted fields take their defaults\n",
    );
    for op in ops {
        write_op(&mut s, op);
        s.push('\n');
    }
    s
}

/// Writes ops to a file.
pub fn save(path: &Path, ops: &[MicroOp]) -> Result<(), String> {
    std::fs::write(path, write(ops))
        .map_err(|e| format!("cannot write trace {}: {e}", path.display()))
}

fn write_op(s: &mut String, op: &MicroOp) {
    let class = CLASS_NAMES
        .iter()
        .find(|c| c.1 == op.class)
        .map(|c| c.0.to_string())
        .unwrap_or_else(|| (op.class & 3).to_string());
    let _ = write!(s, "{:#x} {} {:#04x}", op.pc, class, op.subclass);
    let mut flag = |on: bool, name: &str| {
        if on {
            s.push(' ');
            s.push_str(name);
        }
    };
    let dc = default_cond(op.class, op.subclass);
    flag(op.cond && !dc, "cond");
    flag(!op.cond && dc, "uncond");
    flag(op.wrong_path, "wrong");
    flag(op.exception, "exc");
    flag(op.cond_fail && op.class != op_class::BRANCH, "fail");
    flag(op.mode.aarch32, "a32");
    flag(!op.mode.prof_allowed, "noprof");
    flag(!op.mode.ns, "secure");
    flag(op.mode.vhe_host(), "host");
    flag(op.mode.tge && !op.mode.e2h, "tge");
    flag(op.mode.e2h && !op.mode.tge, "e2h");
    flag(!op.mode.el2, "no-el2");
    let mem = op.mem.filter(|_| op.class == op_class::LD_ST_ATOMIC);
    let br = op.branch.filter(|_| op.class == op_class::BRANCH);
    flag(mem.is_some_and(|m| m.misaligned), "misaligned");
    flag(mem.is_some_and(|m| m.ns_mem), "ns-mem");
    flag(br.is_some_and(|b| b.taken), "taken");
    flag(br.is_some_and(|b| b.mispred), "mispred");
    flag(br.is_some_and(|b| b.indirect), "ind");
    let mut key = |on: bool, k: &str, v: String| {
        if on {
            let _ = write!(s, " {k}={v}");
        }
    };
    key(
        op.mode.el != default_el(op.pc),
        "el",
        (op.mode.el & 3).to_string(),
    );
    let e2pb = op.mode.e2pb & 3;
    key(
        e2pb != Mode::default_e2pb(op.mode.tge, op.mode.e2h),
        "e2pb",
        e2pb.to_string(),
    );
    let iss = op.issue_lat.max(1);
    key(iss != DEFAULT_ISSUE_LAT, "iss", iss.to_string());
    let exe = op.exec_lat.max(1);
    key(
        exe != default_exec_lat(op.class, op.subclass),
        "exe",
        exe.to_string(),
    );
    key(
        op.ctx_el1.is_some(),
        "ctx",
        format!("{:#x}", op.ctx_el1.unwrap_or(0)),
    );
    if let Some(m) = mem {
        key(true, "va", format!("{:#x}", m.va));
        let pa = m.pa & ((1 << PA_BITS) - 1);
        key(pa != m.va & DEFAULT_PA_MASK, "pa", format!("{pa:#x}"));
        key(
            m.tlb != Tlb::Hit,
            "tlb",
            TLB_NAMES
                .iter()
                .find(|t| t.1 == m.tlb)
                .map(|t| t.0)
                .unwrap_or("hit")
                .to_string(),
        );
        key(
            m.xlat_lat != default_xlat_lat(m.tlb),
            "xl",
            m.xlat_lat.to_string(),
        );
        let src = SOURCE_NAMES
            .iter()
            .find(|n| n.1 == m.source)
            .map(|n| n.0.to_string())
            .unwrap_or_else(|| format!("{:#x}", m.source));
        key(m.source != data_source::L1D, "src", src);
        if m.events != MemEvents::for_source(m.source) {
            let names: Vec<&str> = EVENT_NAMES
                .iter()
                .zip(events_flags(&m.events))
                .filter(|(_, on)| *on)
                .map(|(n, _)| *n)
                .collect();
            key(
                true,
                "ev",
                if names.is_empty() {
                    "none".into()
                } else {
                    names.join(",")
                },
            );
        }
        let ml = m.mem_lat.max(1);
        key(ml != default_mem_lat(m.source), "mem", ml.to_string());
    }
    if let Some(b) = br {
        key(true, "tgt", format!("{:#x}", b.target));
        key(
            b.target_el != op.mode.el,
            "tel",
            (b.target_el & 3).to_string(),
        );
        key(
            b.target_ns != op.mode.ns,
            "tns",
            u8::from(b.target_ns).to_string(),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_parse_in_decimal_hex_separators_and_e_notation() {
        for (text, v) in [
            ("1000000", 1_000_000),
            ("1_000_000", 1_000_000),
            ("0x1e6", 0x1e6),
            ("1e6", 1_000_000),
            ("2.5e6", 2_500_000),
            ("1.50e1", 15),
            ("1E3", 1000),
            ("0e0", 0),
        ] {
            assert_eq!(parse_num(text), Ok(v), "{text}");
        }
        for (text, why) in [
            ("1.5e0", "not a whole number"),
            ("1e20", "does not fit"),
            ("1e", "not a number"),
            ("e6", "not a number"),
            ("1.2.3e4", "not a number"),
            ("-1e3", "not a number"),
            ("ten", "not a number"),
        ] {
            let e = parse_num(text).unwrap_err();
            assert!(e.contains(why), "{text}: {e}");
        }
    }

    #[test]
    fn a_minimal_line_takes_every_default() {
        let ops = parse("0x400000 ldst 0x00 va=0x1000\n").unwrap();
        let op = &ops[0];
        assert_eq!(op.mode, Mode::at(0));
        let m = op.mem.unwrap();
        assert_eq!(
            (m.pa, m.tlb, m.source, m.mem_lat),
            (
                0x1000,
                Tlb::Hit,
                data_source::L1D,
                default_mem_lat(data_source::L1D)
            )
        );
        assert_eq!(op.issue_lat, DEFAULT_ISSUE_LAT);
        let k = &parse("0xffff800010000000 other 0").unwrap()[0];
        assert_eq!(k.mode.el, 1, "kernel PCs default to EL1");
        let c = &parse("0x10 branch 0x01 tgt=0x20 taken").unwrap()[0];
        assert!(c.cond && c.branch.unwrap().taken);
    }

    #[test]
    fn comments_and_blank_lines_are_skipped_and_numbers_take_both_bases() {
        let ops = parse("# header\n\n  16 0 0 # trailing\n0x10 other 0x0\n").unwrap();
        assert_eq!(ops.len(), 2);
        assert_eq!(ops[0].pc, ops[1].pc);
    }

    #[test]
    fn malformed_lines_name_their_line() {
        let cases = [
            ("0x10 other\n", "expected"),
            ("0x10 foo 0\n", "bad class"),
            ("zz other 0\n", "bad PC"),
            ("0x10 other 0x100\n", "subclass"),
            ("0x10 other 0 va=0x10\n", "only for ldst"),
            ("0x10 ldst 0 pa=0x10\n", "needs va="),
            ("0x10 other 0 taken\n", "needs tgt="),
            ("0x10 ldst 0 tgt=0x10\n", "only for branch"),
            ("0x10 other 0 bogus\n", "unknown flag"),
            ("0x10 other 0 wat=1\n", "unknown key"),
            ("0x10 other 0 iss=0\n", "outside"),
            ("0x10 ldst 0 va=1 src=moon\n", "src=moon"),
            ("0x10 ldst 0 va=1 ev=l1d,bad\n", "unknown event"),
            ("0x10 other 0 el=1 el=1\n", "twice"),
            ("0x10 branch 1 tgt=0 fail\n", "fail is for"),
        ];
        for (text, want) in cases {
            let e = parse(&format!("0x0 other 0\n# ok\n{text}")).unwrap_err();
            assert_eq!(e.line, 3, "{text:?}: {e}");
            assert!(
                e.to_string().starts_with("line 3: ") && e.message.contains(want),
                "{text:?}: {e}"
            );
        }
    }
}
