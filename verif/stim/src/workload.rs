//! Named workloads: a program plus the core behaviour that suits it.
//!
//! | name      | what it exercises |
//! |-----------|-------------------|
//! | `loop`    | a tight loop nest in [`LOOP_PC_RANGE`]: loads, adds, a store, an FMA, loop branches; L1 hits; user code only |
//! | `mix`     | random op mix (loads, stores, atomics, FP/SIMD, conditional selects, every branch kind) over small and large data: cache misses, TLB walks, mispredicts, flushes, exceptions, kernel stretches |
//! | `memory`  | pointer chasing and large streams: DRAM, remote and peer data sources, page walks, misaligned accesses, long latencies |
//! | `branchy` | short blocks of hard-to-predict conditional and indirect branches, calls and returns: many flushes |
//! | `modes`   | frequent EL0/EL1 switches and context switches, AArch32 and profiling-disallowed stretches |
//!
//! Programs are fixed for a name (generated from constant seeds), so PCs are stable across
//! runs; the run seed drives the dynamic behaviour.

use crate::core_params::CoreParams;
use crate::program::{
    Builder, CodeProgram, Exit, KernelEntry, MemPattern, Program, StaticOp, BR_CALL,
    BR_CONDITIONAL, BR_DIRECT, BR_INDIRECT, BR_RETURN, INSN_BYTES,
};
use crate::rng::Rng;
use spe_defs::packet::subclass;
use std::ops::Range;

/// Base of user code (a typical AArch64 Linux PIE text address).
pub const USER_CODE_BASE: u64 = 0x0000_aaaa_d000_1000;
/// Base of kernel code.
pub const KERNEL_CODE_BASE: u64 = 0xffff_8000_1010_0000;
/// User heap.
const HEAP: u64 = 0x0000_aaaa_e000_0000;
/// Large user mapping (mmap area).
const MMAP: u64 = 0x0000_ffff_8000_0000;
/// Memory shared with other cores and nodes.
const SHARED: u64 = 0x0000_ffff_4000_0000;
/// User stack.
const STACK: u64 = 0x0000_ffff_fff0_0000;
/// Kernel data (linear map).
const KERNEL_DATA: u64 = 0xffff_0000_8000_0000;

/// Number of instructions of the `loop` workload.
pub const LOOP_OPS: u64 = 19;
/// PCs of the `loop` workload: every op it dispatches (wrong path included) is in here.
pub const LOOP_PC_RANGE: Range<u64> = USER_CODE_BASE..USER_CODE_BASE + LOOP_OPS * INSN_BYTES;

/// Names and one-line descriptions of the workloads.
pub const WORKLOADS: &[(&str, &str)] = &[
    ("loop", "tight loop nest (loads, adds, a store, branches) with known PC range and L1 hits"),
    ("mix", "random op mix with cache misses, TLB walks, mispredicts, flushes, exceptions and kernel stretches"),
    ("memory", "pointer chasing and large streams: DRAM, remote and peer sources, page walks, misaligned accesses"),
    ("branchy", "hard-to-predict conditional and indirect branches, calls and returns: many flushes"),
    ("modes", "frequent EL0/EL1 and context switches, AArch32 and profiling-disallowed stretches"),
    ("sve", "the mix with SVE ops (predicated data processing, SVE loads and stores): a core with SVE reports their predicates"),
];

/// A program and the core behaviour to run it with.
#[derive(Clone, Debug, PartialEq)]
pub struct Workload {
    pub name: String,
    pub description: String,
    pub program: Program,
    pub params: CoreParams,
}

impl Workload {
    /// The named workload, or an error listing the valid names.
    pub fn by_name(name: &str) -> Result<Workload, String> {
        let (program, params) = match name {
            "loop" => (loop_program(), CoreParams::default()),
            "mix" => (mix_program(), mix_params()),
            "memory" => (memory_program(), memory_params()),
            "branchy" => (
                branchy_program(),
                CoreParams {
                    cond_fail_rate: 0.5,
                    ..CoreParams::default()
                },
            ),
            "modes" => (modes_program(), modes_params()),
            "sve" => (sve_program(), mix_params()),
            _ => {
                return Err(format!(
                    "unknown workload {name:?}; valid names: {}",
                    Workload::names().join(", ")
                ))
            }
        };
        let description = WORKLOADS
            .iter()
            .find(|w| w.0 == name)
            .map(|w| w.1)
            .unwrap_or_default()
            .to_string();
        Ok(Workload {
            name: name.to_string(),
            description,
            program: Program::Code(program),
            params,
        })
    }

    /// Valid workload names.
    pub fn names() -> Vec<&'static str> {
        WORKLOADS.iter().map(|w| w.0).collect()
    }

    /// A workload for any program (for example a trace) with default core behaviour.
    pub fn from_program(program: Program) -> Workload {
        Workload {
            name: program.name().to_string(),
            description: String::new(),
            program,
            params: CoreParams::default(),
        }
    }
}

fn stream(base: u64, span: u64, stride: u64, size: u64) -> MemPattern {
    MemPattern {
        base,
        span,
        stride,
        size,
        random: false,
    }
}
fn random(base: u64, span: u64, size: u64) -> MemPattern {
    MemPattern {
        base,
        span,
        stride: 0,
        size,
        random: true,
    }
}
fn ld(m: MemPattern) -> StaticOp {
    StaticOp::ldst(subclass::LDST_GP, m)
}
fn st(m: MemPattern) -> StaticOp {
    StaticOp::ldst(subclass::LDST_GP | subclass::LDST_ST, m)
}
fn alu() -> StaticOp {
    StaticOp::other(0)
}
fn fp() -> StaticOp {
    StaticOp::other(subclass::OTHER_FP)
}
fn simd() -> StaticOp {
    StaticOp::other(subclass::OTHER_SIMD)
}
fn csel() -> StaticOp {
    StaticOp::other(subclass::OTHER_COND)
}
fn with_branch(mut ops: Vec<StaticOp>, sub: u8) -> Vec<StaticOp> {
    ops.push(StaticOp::branch(sub));
    ops
}

/// `for (j..16) for (i..64) c[i] = a[i] * b[i] + k` over 8 KiB arrays (all L1-resident).
fn loop_program() -> CodeProgram {
    let a = stream(HEAP, 8192, 8, 8);
    let bb = stream(HEAP + 0x4000, 8192, 8, 8);
    let c = stream(HEAP + 0x8000, 8192, 8, 8);
    let mut b = Builder::new("loop", USER_CODE_BASE, KERNEL_CODE_BASE);
    b.block(false, vec![alu(), alu(), alu()], Exit::Fall(1));
    b.block(false, vec![alu(), alu()], Exit::Fall(2));
    b.block(
        false,
        with_branch(
            vec![ld(a), ld(bb), alu(), fp(), alu(), st(c), alu(), alu()],
            BR_CONDITIONAL,
        ),
        Exit::Loop {
            back: 2,
            exit: 3,
            trips: 64,
        },
    );
    b.block(
        false,
        with_branch(vec![alu(), alu()], BR_CONDITIONAL),
        Exit::Loop {
            back: 1,
            exit: 4,
            trips: 16,
        },
    );
    b.block(false, with_branch(vec![alu()], BR_DIRECT), Exit::Jump(0));
    b.finish(0, None).expect("the loop program is well formed")
}

/// Kernel code shared by the workloads with kernel stretches: an entry that saves
/// registers, a loop over kernel data, a branchy part, and an exit block that ERETs.
/// The blocks are appended after those already in `b`.
fn add_kernel(b: &mut Builder) -> KernelEntry {
    let first = b.next_index();
    let (k0, k1, k2, k3, k4, k5) = (first, first + 1, first + 2, first + 3, first + 4, first + 5);
    let kstack = stream(KERNEL_DATA, 4096, 16, 8);
    let kdata = random(KERNEL_DATA + 0x10_0000, 4 << 20, 8);
    b.block(
        true,
        vec![alu(), st(kstack), st(kstack), alu()],
        Exit::Fall(k1),
    );
    b.block(
        true,
        with_branch(vec![ld(kdata), alu(), ld(kstack), alu()], BR_CONDITIONAL),
        Exit::Loop {
            back: k1,
            exit: k2,
            trips: 8,
        },
    );
    b.block(
        true,
        with_branch(vec![alu(), csel()], BR_CONDITIONAL),
        Exit::Cond {
            taken: k4,
            not_taken: k3,
            p_taken: 0.4,
        },
    );
    b.block(true, vec![st(kdata), alu()], Exit::Fall(k4));
    b.block(
        true,
        with_branch(vec![alu(), alu()], BR_DIRECT),
        Exit::Jump(k1),
    );
    b.block(
        true,
        with_branch(vec![ld(kstack), ld(kstack), alu()], BR_INDIRECT),
        Exit::Eret,
    );
    KernelEntry {
        entry: k0,
        exit: k5,
    }
}

/// Shape of a randomly generated program.
struct RandomSpec {
    name: &'static str,
    seed: u64,
    main_blocks: usize,
    funcs: usize,
    ops_per_block: (u64, u64),
    /// Weights of: load, store, atomic, ALU, FP, SIMD, conditional select.
    op_weights: [u32; 8],
    /// Weights of block exits: fall, conditional, loop, indirect, call, jump.
    exit_weights: [u32; 6],
    /// Weights of address patterns: small stream, large stream, random large, shared.
    mem_weights: [u32; 4],
    /// Taken probabilities of conditional branches.
    cond_probs: &'static [f64],
    indirect_targets: (u64, u64),
}

fn random_mem(r: &mut Rng, spec: &RandomSpec) -> MemPattern {
    match r.weighted(&spec.mem_weights) {
        0 => stream(
            HEAP + r.below(64) * 0x1000,
            4096 << r.below(4),
            8 << r.below(2),
            8,
        ),
        1 => stream(
            MMAP + r.below(16) * 0x100_0000,
            (1 << 20) << r.below(4),
            64,
            8,
        ),
        2 => random(MMAP + 0x1000_0000, 64 << 20, 8),
        _ => random(SHARED, 16 << 20, 8),
    }
}

fn random_op(r: &mut Rng, spec: &RandomSpec) -> StaticOp {
    use subclass::*;
    match r.weighted(&spec.op_weights) {
        0 => StaticOp::ldst(
            if r.chance(0.2) { LDST_SIMD_FP } else { LDST_GP },
            random_mem(r, spec),
        ),
        1 => StaticOp::ldst(
            if r.chance(0.2) {
                LDST_SIMD_FP | LDST_ST
            } else {
                LDST_GP | LDST_ST
            },
            random_mem(r, spec),
        ),
        2 => {
            // Atomic read-modify-write, exclusive, or acquire/release (extended encoding).
            let flag = [LDST_EXT_AT, LDST_EXT_EXCL, LDST_EXT_AR][r.below(3) as usize];
            let st = if r.chance(0.5) { LDST_ST } else { 0 };
            StaticOp::ldst(LDST_EXT | flag | st, random_mem(r, spec))
        }
        3 => alu(),
        4 => fp(),
        5 => {
            if r.chance(0.5) {
                simd()
            } else {
                StaticOp::other(OTHER_SIMD | OTHER_FP)
            }
        }
        6 => csel(),
        // An SVE op: a predicated data-processing op (FP or integer), or an SVE load or
        // store (contiguous or gather/scatter).
        _ => {
            if r.chance(0.6) {
                StaticOp::other(OTHER_SVE | SVE_PRED | if r.chance(0.5) { SVE_FP } else { 0 })
            } else {
                let sg = if r.chance(0.3) { SVE_SG } else { 0 };
                let st = if r.chance(0.3) { LDST_ST } else { 0 };
                StaticOp::ldst(LDST_SVE_SME | sg | st, random_mem(r, spec))
            }
        }
    }
}

/// A random program: `main_blocks` blocks that only branch backwards through loops or
/// probabilistic conditions (so control always reaches the end, which jumps to the start),
/// `funcs` two-block functions that are called and return, and the shared kernel code.
fn random_program(spec: &RandomSpec) -> CodeProgram {
    let mut r = Rng::new(spec.seed);
    let mut b = Builder::new(spec.name, USER_CODE_BASE, KERNEL_CODE_BASE);
    let main = spec.main_blocks;
    let func_entry = |f: usize| main + 2 * f;
    let fwd = |r: &mut Rng, i: usize, reach: u64| (i + 1 + r.below(reach) as usize).min(main - 1);
    for i in 0..main {
        let n = r.range(spec.ops_per_block.0, spec.ops_per_block.1) as usize;
        let mut ops: Vec<StaticOp> = (0..n.saturating_sub(1).max(1))
            .map(|_| random_op(&mut r, spec))
            .collect();
        let kind = if i + 1 == main {
            5
        } else {
            r.weighted(&spec.exit_weights)
        };
        let (exit, sub) = match kind {
            0 => (Exit::Fall(i + 1), None),
            1 => {
                let backward = r.chance(0.3);
                let taken = if backward {
                    i - r.below(4.min(i as u64 + 1)) as usize
                } else {
                    fwd(&mut r, i, 6)
                };
                let mut p = spec.cond_probs[r.below(spec.cond_probs.len() as u64) as usize];
                if backward {
                    p = p.min(0.9);
                }
                (
                    Exit::Cond {
                        taken,
                        not_taken: i + 1,
                        p_taken: p,
                    },
                    Some(BR_CONDITIONAL),
                )
            }
            2 => (
                Exit::Loop {
                    back: i - r.below(3.min(i as u64 + 1)) as usize,
                    exit: i + 1,
                    trips: r.range(2, 40) as u32,
                },
                Some(BR_CONDITIONAL),
            ),
            3 => {
                let targets = (0..r.range(spec.indirect_targets.0, spec.indirect_targets.1))
                    .map(|_| fwd(&mut r, i, 8))
                    .collect();
                (Exit::Indirect(targets), Some(BR_INDIRECT))
            }
            4 if spec.funcs > 0 => {
                let callee = func_entry(r.below(spec.funcs as u64) as usize);
                (
                    Exit::Call { callee, ret: i + 1 },
                    Some(
                        BR_CALL
                            | if r.chance(0.2) {
                                BR_INDIRECT
                            } else {
                                BR_DIRECT
                            },
                    ),
                )
            }
            4 => (Exit::Fall(i + 1), None),
            _ => (
                Exit::Jump(if i + 1 == main { 0 } else { fwd(&mut r, i, 5) }),
                Some(BR_DIRECT),
            ),
        };
        if let Some(s) = sub {
            ops.push(StaticOp::branch(s));
        } else {
            ops.push(random_op(&mut r, spec));
        }
        b.block(false, ops, exit);
    }
    for f in 0..spec.funcs {
        let (head, tail) = (func_entry(f), func_entry(f) + 1);
        let body: Vec<StaticOp> = (0..r.range(2, 8))
            .map(|_| random_op(&mut r, spec))
            .collect();
        if r.chance(0.5) {
            b.block(
                false,
                with_branch(body, BR_CONDITIONAL),
                Exit::Loop {
                    back: head,
                    exit: tail,
                    trips: r.range(2, 20) as u32,
                },
            );
        } else {
            b.block(false, body, Exit::Fall(tail));
        }
        let ret: Vec<StaticOp> = (0..r.range(1, 4))
            .map(|_| random_op(&mut r, spec))
            .collect();
        b.block(false, with_branch(ret, BR_RETURN), Exit::Return);
    }
    let kernel = add_kernel(&mut b);
    b.finish(0, Some(kernel))
        .expect("generated programs are well formed")
}

fn mix_program() -> CodeProgram {
    random_program(&mix_spec())
}

fn mix_spec() -> RandomSpec {
    RandomSpec {
        name: "mix",
        seed: 0x006d_6978,
        main_blocks: 40,
        funcs: 8,
        ops_per_block: (3, 12),
        op_weights: [28, 12, 3, 30, 8, 5, 4, 0],
        exit_weights: [25, 30, 15, 8, 15, 7],
        mem_weights: [65, 20, 12, 3],
        cond_probs: &[0.05, 0.5, 0.7, 0.9, 0.97],
        indirect_targets: (2, 4),
    }
}

/// The mix with about a quarter of its ops SVE ones (its own seed).
fn sve_program() -> CodeProgram {
    let mix = mix_spec();
    let mut op_weights = mix.op_weights;
    op_weights[7] = 30;
    random_program(&RandomSpec {
        name: "sve",
        seed: 0x0073_7665,
        op_weights,
        ..mix
    })
}

fn mix_params() -> CoreParams {
    CoreParams {
        exception_rate: 0.0005,
        kernel_rate: 0.00025,
        kernel_len: (50, 400),
        misaligned_rate: 0.02,
        remote_fraction: 0.1,
        peer_rate: 0.02,
        ..CoreParams::default()
    }
}

fn branchy_program() -> CodeProgram {
    random_program(&RandomSpec {
        name: "branchy",
        seed: 0x6272_616e_6368,
        main_blocks: 48,
        funcs: 12,
        ops_per_block: (2, 5),
        op_weights: [15, 5, 1, 50, 3, 2, 10, 0],
        exit_weights: [5, 50, 10, 15, 15, 5],
        mem_weights: [90, 5, 5, 0],
        cond_probs: &[0.3, 0.5, 0.5, 0.7],
        indirect_targets: (4, 8),
    })
}

/// A chase through 256 MiB (every access a walk and a DRAM or remote access), a shared
/// region and two large streams.
fn memory_program() -> CodeProgram {
    let chase = random(MMAP, 256 << 20, 8);
    let shared = random(SHARED, 32 << 20, 8);
    let out = stream(MMAP + 0x2000_0000, 16 << 20, 64, 8);
    let inp = stream(MMAP + 0x3000_0000, 32 << 20, 64, 16);
    let stack = stream(STACK, 4096, 8, 8);
    let mut b = Builder::new("memory", USER_CODE_BASE, KERNEL_CODE_BASE);
    b.block(
        false,
        with_branch(
            vec![
                alu(),
                ld(chase),
                alu(),
                ld(chase),
                ld(shared),
                st(out),
                ld(inp),
                ld(stack),
                alu(),
            ],
            BR_CONDITIONAL,
        ),
        Exit::Loop {
            back: 0,
            exit: 1,
            trips: 1000,
        },
    );
    b.block(
        false,
        with_branch(vec![alu(), st(stack)], BR_DIRECT),
        Exit::Jump(0),
    );
    let kernel = add_kernel(&mut b);
    b.finish(0, Some(kernel))
        .expect("the memory program is well formed")
}

fn memory_params() -> CoreParams {
    CoreParams {
        rob_size: 192,
        long_issue_rate: 0.3,
        exception_rate: 0.0002,
        misaligned_rate: 0.05,
        remote_fraction: 0.25,
        peer_rate: 0.05,
        ..CoreParams::default()
    }
}

/// User code like `loop` (with a system-call-like exit) plus kernel code.
fn modes_program() -> CodeProgram {
    let a = stream(HEAP, 16384, 8, 8);
    let stack = stream(STACK, 4096, 8, 8);
    let mut b = Builder::new("modes", USER_CODE_BASE, KERNEL_CODE_BASE);
    b.block(false, vec![alu(), st(stack), alu()], Exit::Fall(1));
    b.block(
        false,
        with_branch(vec![ld(a), alu(), csel(), fp(), alu()], BR_CONDITIONAL),
        Exit::Loop {
            back: 1,
            exit: 2,
            trips: 50,
        },
    );
    b.block(
        false,
        with_branch(vec![ld(stack), alu()], BR_CONDITIONAL),
        Exit::Cond {
            taken: 0,
            not_taken: 3,
            p_taken: 0.8,
        },
    );
    b.block(
        false,
        with_branch(vec![alu(), simd()], BR_DIRECT),
        Exit::Jump(0),
    );
    let kernel = add_kernel(&mut b);
    b.finish(0, Some(kernel))
        .expect("the modes program is well formed")
}

fn modes_params() -> CoreParams {
    CoreParams {
        exception_rate: 0.0005,
        kernel_rate: 0.002,
        kernel_len: (50, 300),
        ctx_switch_rate: 0.5,
        aarch32_rate: 0.0005,
        aarch32_len: (200, 1000),
        noprof_rate: 0.0005,
        noprof_len: (200, 1000),
        ..CoreParams::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_named_workload_builds_and_validates() {
        for name in Workload::names() {
            let w = Workload::by_name(name).unwrap();
            w.program.validate().unwrap();
            w.params.validate().unwrap();
            assert_eq!(w.name, name);
            assert!(!w.description.is_empty());
        }
    }

    #[test]
    fn unknown_names_list_the_valid_ones() {
        let e = Workload::by_name("nope").unwrap_err();
        assert!(
            e.contains("nope") && e.contains("loop") && e.contains("mix") && e.contains("branchy"),
            "{e}"
        );
    }

    #[test]
    fn loop_program_occupies_exactly_its_documented_range() {
        let Program::Code(p) = Workload::by_name("loop").unwrap().program else {
            panic!("code")
        };
        assert_eq!(p.pc_range(false), Some(LOOP_PC_RANGE));
        assert!(p.kernel.is_none());
    }

    /// A random placement keeps every workload valid: each range moves as a whole into
    /// its half (blocks and regions keep their distances and page offsets), user data
    /// regions get one tag each, kernel data none. Across placements the high address
    /// bits take both values.
    #[test]
    fn random_placements_move_each_range_as_a_whole() {
        use crate::program::Placement;
        use crate::rng::Rng;
        use crate::uop::{untagged, KERNEL_VA_BASE, USER_VA_END};
        let mut r = Rng::new(0x9e55);
        for name in Workload::names() {
            let Program::Code(p) = Workload::by_name(name).unwrap().program else {
                panic!("code")
            };
            let (mut ones, mut zeros, mut tag_ones, mut code_ones) = (0u64, 0u64, 0u64, 0u64);
            for i in 0..200 {
                let pl = Placement::random(&p, i % 2 == 0, &mut r);
                let mut q = p.clone();
                q.place(&pl).unwrap();
                let u = q.pc_range(false).unwrap();
                assert!(u.end <= USER_VA_END);
                assert_eq!(u.end - u.start, {
                    let o = p.pc_range(false).unwrap();
                    o.end - o.start
                });
                if let Some(k) = q.pc_range(true) {
                    assert!(k.start >= KERNEL_VA_BASE);
                }
                let mut tags = std::collections::BTreeMap::new();
                for (a, b) in p.blocks.iter().zip(&q.blocks) {
                    let (first_a, first_b) = if a.kernel {
                        (
                            p.pc_range(true).unwrap().start,
                            q.pc_range(true).unwrap().start,
                        )
                    } else {
                        (
                            p.pc_range(false).unwrap().start,
                            q.pc_range(false).unwrap().start,
                        )
                    };
                    assert_eq!(a.base - first_a, b.base - first_b);
                    assert_eq!(b.base % INSN_BYTES, 0);
                    ones |= b.base;
                    zeros |= !b.base;
                    code_ones |= b.base;
                    for (x, y) in a.ops.iter().zip(&b.ops) {
                        let (Some(x), Some(y)) = (x.mem, y.mem) else {
                            assert_eq!(x, y);
                            continue;
                        };
                        assert_eq!((x.span, x.stride, x.size), (y.span, y.stride, y.size));
                        assert_eq!(untagged(x.base) & 0xfff, untagged(y.base) & 0xfff);
                        let tag = y.base >> 56;
                        if x.base >= KERNEL_VA_BASE {
                            assert_eq!(y.base, untagged(y.base), "kernel data untagged");
                        } else {
                            assert_eq!(*tags.entry(x.base).or_insert(tag), tag);
                            tag_ones |= tag;
                            if pl.tag_seed.is_none() {
                                assert_eq!(tag, 0);
                            }
                        }
                        ones |= y.base;
                        zeros |= !y.base;
                    }
                }
            }
            // Bits 47:2 of code and 47:12 of data addresses were seen as 1 and as 0, and
            // every bit of the tag byte of user data as 1.
            let mid = ((1u64 << 48) - 1) & !0xfff;
            assert_eq!(code_ones & 0xffc, 0xffc, "{name}: {code_ones:#x}");
            assert_eq!(ones & mid, mid, "{name}: {ones:#x}");
            assert_eq!(zeros & mid, mid, "{name}: {zeros:#x}");
            if p.data_range(false).is_some() {
                assert_eq!(tag_ones, 0xff, "{name}");
            }
        }
    }

    /// Placing with all slides zero and no tags changes nothing.
    #[test]
    fn the_identity_placement_changes_nothing() {
        for name in Workload::names() {
            let Program::Code(p) = Workload::by_name(name).unwrap().program else {
                panic!("code")
            };
            let mut q = p.clone();
            q.place(&crate::program::Placement::default()).unwrap();
            assert_eq!(p, q);
        }
    }
}
