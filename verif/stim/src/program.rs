//! Programs the core runs: either static code (basic blocks with loops, branches, calls and
//! memory access patterns, walked with random but seeded outcomes) or a trace (a fixed list
//! of micro-ops replayed in order, see `trace`).

use crate::rng::{hash64, Rng};
use crate::uop::{untagged, MicroOp, KERNEL_VA_BASE, USER_VA_END};
use spe_defs::packet::{op_class, subclass};
use std::collections::BTreeMap;
use std::ops::Range;

/// Bytes per instruction (A64).
pub const INSN_BYTES: u64 = 4;

/// How a load/store computes its data address each time it runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemPattern {
    /// Start of the region.
    pub base: u64,
    /// Region size in bytes (addresses wrap inside it); at least `size`.
    pub span: u64,
    /// Bytes between consecutive executions (streaming); ignored when `random`.
    pub stride: u64,
    /// Access size in bytes (1, 2, 4, 8 or 16): natural alignment.
    pub size: u64,
    /// Random addresses in the region instead of a stream.
    pub random: bool,
}

/// One instruction of a block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StaticOp {
    pub class: u8,
    pub subclass: u8,
    /// Load/store address pattern (class load/store only).
    pub mem: Option<MemPattern>,
}

impl StaticOp {
    pub const fn other(sub: u8) -> StaticOp {
        StaticOp {
            class: op_class::OTHER,
            subclass: sub,
            mem: None,
        }
    }
    pub const fn ldst(sub: u8, mem: MemPattern) -> StaticOp {
        StaticOp {
            class: op_class::LD_ST_ATOMIC,
            subclass: sub,
            mem: Some(mem),
        }
    }
    pub const fn branch(sub: u8) -> StaticOp {
        StaticOp {
            class: op_class::BRANCH,
            subclass: sub,
            mem: None,
        }
    }
}

/// How control leaves a block. Every exit but `Fall` is taken by the block's last op,
/// which must be a branch.
#[derive(Clone, Debug, PartialEq)]
pub enum Exit {
    /// No branch: continue with this block.
    Fall(usize),
    /// Unconditional direct branch.
    Jump(usize),
    /// Conditional backward branch of a counted loop: taken `trips - 1` times in a row to
    /// `back`, then falls to `exit` (the counter restarts on the next entry).
    Loop {
        back: usize,
        exit: usize,
        trips: u32,
    },
    /// Conditional branch taken with probability `p_taken`.
    Cond {
        taken: usize,
        not_taken: usize,
        p_taken: f64,
    },
    /// Indirect branch to one of `targets` (the first is the most likely).
    Indirect(Vec<usize>),
    /// Call (branch with link) to `callee`; the matching `Return` comes back to `ret`.
    Call { callee: usize, ret: usize },
    /// Procedure return to the innermost call's `ret`.
    Return,
    /// Exception return from a kernel stretch to the interrupted user code.
    Eret,
}

/// A basic block: consecutive instructions from `base`.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// PC of the first instruction; instruction `i` is at `base + 4 * i`.
    pub base: u64,
    /// Kernel code (runs at EL1, or EL2 in a VHE host).
    pub kernel: bool,
    pub ops: Vec<StaticOp>,
    pub exit: Exit,
}

/// Kernel code the walker enters on exceptions and interrupts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelEntry {
    /// Vector / handler entry block.
    pub entry: usize,
    /// Block ending with `Exit::Eret`, entered when the stretch's budget is used up.
    pub exit: usize,
}

/// Static code.
#[derive(Clone, Debug, PartialEq)]
pub struct CodeProgram {
    pub name: String,
    pub blocks: Vec<Block>,
    pub user_entry: usize,
    /// Kernel code; without it there are no exceptions or kernel stretches.
    pub kernel: Option<KernelEntry>,
}

impl CodeProgram {
    /// Checks the structure the walker relies on.
    pub fn validate(&self) -> Result<(), String> {
        let n = self.blocks.len();
        let name = &self.name;
        let ok = |i: usize| i < n;
        if !ok(self.user_entry) || self.blocks[self.user_entry].kernel {
            return Err(format!(
                "program {name}: user entry {} is not a user block",
                self.user_entry
            ));
        }
        if let Some(k) = self.kernel {
            if !ok(k.entry)
                || !self.blocks[k.entry].kernel
                || !ok(k.exit)
                || !self.blocks[k.exit].kernel
            {
                return Err(format!(
                    "program {name}: kernel entry/exit must be kernel blocks"
                ));
            }
            if self.blocks[k.exit].exit != Exit::Eret {
                return Err(format!(
                    "program {name}: kernel exit block {} must end with Eret",
                    k.exit
                ));
            }
        }
        for (i, b) in self.blocks.iter().enumerate() {
            let last = match b.ops.last() {
                Some(op) => op,
                None => return Err(format!("program {name}: block {i} is empty")),
            };
            if b.kernel != (b.base >= KERNEL_VA_BASE) {
                return Err(format!("program {name}: block {i} at {:#x} is on the wrong side of the kernel boundary", b.base));
            }
            if !b.kernel && b.base + b.ops.len() as u64 * INSN_BYTES > USER_VA_END {
                return Err(format!("program {name}: block {i} at {:#x} runs past the user half of a 48-bit address space", b.base));
            }
            if b.base % INSN_BYTES != 0 {
                return Err(format!(
                    "program {name}: block {i} base {:#x} is not 4-byte aligned",
                    b.base
                ));
            }
            for (j, op) in b.ops.iter().enumerate() {
                if op.class > op_class::RESERVED {
                    return Err(format!(
                        "program {name}: block {i} op {j} has class {}",
                        op.class
                    ));
                }
                if op.mem.is_some() != (op.class == op_class::LD_ST_ATOMIC) {
                    return Err(format!("program {name}: block {i} op {j}: loads/stores (and only they) need a memory pattern"));
                }
                if let Some(m) = op.mem {
                    if !matches!(m.size, 1 | 2 | 4 | 8 | 16) || m.span < m.size {
                        return Err(format!(
                            "program {name}: block {i} op {j}: bad memory pattern {m:?}"
                        ));
                    }
                    // The region lies in one half: user (a tag byte allowed) or kernel.
                    let va = untagged(m.base);
                    let in_half = if va >= KERNEL_VA_BASE {
                        va == m.base && va.checked_add(m.span).is_some()
                    } else {
                        va + m.span <= USER_VA_END
                    };
                    if !in_half {
                        return Err(format!("program {name}: block {i} op {j}: memory region {:#x} + {:#x} is outside the user and kernel halves", m.base, m.span));
                    }
                }
                if op.class == op_class::BRANCH && j + 1 != b.ops.len() {
                    return Err(format!(
                        "program {name}: block {i} has a branch before its end"
                    ));
                }
            }
            let is_branch = last.class == op_class::BRANCH;
            let targets: Vec<usize> = match &b.exit {
                Exit::Fall(t) | Exit::Jump(t) => vec![*t],
                Exit::Loop { back, exit, trips } => {
                    if *trips == 0 {
                        return Err(format!("program {name}: block {i} loop has 0 trips"));
                    }
                    vec![*back, *exit]
                }
                Exit::Cond {
                    taken,
                    not_taken,
                    p_taken,
                } => {
                    if !(0.0..=1.0).contains(p_taken) {
                        return Err(format!("program {name}: block {i} branch probability {p_taken} is outside 0..1"));
                    }
                    vec![*taken, *not_taken]
                }
                Exit::Indirect(t) => {
                    if t.is_empty() {
                        return Err(format!(
                            "program {name}: block {i} indirect branch has no target"
                        ));
                    }
                    t.clone()
                }
                Exit::Call { callee, ret } => vec![*callee, *ret],
                Exit::Return | Exit::Eret => vec![],
            };
            if is_branch == matches!(b.exit, Exit::Fall(_)) {
                return Err(format!("program {name}: block {i} must end with a branch exactly when its exit is a branch"));
            }
            if matches!(b.exit, Exit::Eret) && !b.kernel {
                return Err(format!(
                    "program {name}: block {i}: Eret outside kernel code"
                ));
            }
            for t in targets {
                if !ok(t) || self.blocks[t].kernel != b.kernel {
                    return Err(format!(
                        "program {name}: block {i} branches to {t}, not a block of the same space"
                    ));
                }
            }
        }
        Ok(())
    }

    /// Range of PCs of the user (or kernel) blocks.
    pub fn pc_range(&self, kernel: bool) -> Option<Range<u64>> {
        let mut it = self.blocks.iter().filter(|b| b.kernel == kernel);
        let first = it.next()?;
        let mut r = first.base..first.base + first.ops.len() as u64 * INSN_BYTES;
        for b in it {
            r.start = r.start.min(b.base);
            r.end = r.end.max(b.base + b.ops.len() as u64 * INSN_BYTES);
        }
        Some(r)
    }

    /// Addresses of the user (or kernel) data regions: lowest base to highest end, tags
    /// ignored.
    pub fn data_range(&self, kernel: bool) -> Option<Range<u64>> {
        self.blocks
            .iter()
            .flat_map(|b| b.ops.iter().filter_map(|op| op.mem))
            .map(|m| untagged(m.base)..untagged(m.base) + m.span)
            .filter(|r| (r.start >= KERNEL_VA_BASE) == kernel)
            .reduce(|a, b| a.start.min(b.start)..a.end.max(b.end))
    }

    /// Gives the SVE ops their vector lengths, and makes some of them SME array ops, from
    /// `r`: each op with an EVL field (an SVE data-processing op, an SVE or SME load or
    /// store) gets one of the eight EVL values alike (processes differ in their vector
    /// length, and streaming mode has its own; 0b111, more than 2048 bits, is defined only
    /// with FEAT_SPE_SME, and a unit without it records 0b110: choice: sme-reserved), and
    /// about one SVE data-processing op in eight becomes an SME array op of a random element
    /// size (`1 ETS[3:1] 1 ETS[0] FP 0`, D18.2.7; reserved without FEAT_SPE_SME). `r` is
    /// drawn from only for such ops: a program without SVE ops is left as it was.
    pub fn vary_vectors(&mut self, r: &mut Rng) {
        use subclass::{sme_array, with_evl, SVE_FP, VL_FIELD};
        for op in self.blocks.iter_mut().flat_map(|b| b.ops.iter_mut()) {
            if !subclass::has_evl(op.class, op.subclass) {
                continue;
            }
            if op.class == op_class::OTHER && r.chance(0.125) {
                let ets = r.below(16) as u8;
                op.subclass = sme_array(ets, op.subclass & SVE_FP);
            } else {
                let evl = r.below(u64::from(VL_FIELD) + 1) as u8;
                op.subclass = with_evl(op.subclass, evl);
            }
        }
    }

    /// Moves the code and data by `p`; fails if a block or region leaves its half of the
    /// address space.
    pub fn place(&mut self, p: &Placement) -> Result<(), String> {
        for b in &mut self.blocks {
            let slide = if b.kernel { p.kernel_code } else { p.user_code };
            b.base = b.base.wrapping_add(slide);
            for m in b.ops.iter_mut().filter_map(|op| op.mem.as_mut()) {
                if m.base >= KERNEL_VA_BASE {
                    m.base = m.base.wrapping_add(p.kernel_data);
                } else {
                    let tag = p.tag_seed.map_or(0, |s| hash64(s ^ m.base) >> 56);
                    m.base = m.base.wrapping_add(p.user_data) | tag << 56;
                }
            }
        }
        self.validate()
    }
}

/// Where a program runs: slides added (wrapping) to the addresses it was built with, as
/// ASLR and KASLR move code and data, and tags in the top byte of user data pointers
/// (top-byte-ignore, as HWASan and MTE use it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Placement {
    pub user_code: u64,
    pub kernel_code: u64,
    pub user_data: u64,
    pub kernel_data: u64,
    /// With `Some(seed)`, every user data region gets a tag byte: a hash of the seed and
    /// the region's base (one tag per region, like a tag per allocation).
    pub tag_seed: Option<u64>,
}

impl Placement {
    /// A random placement of `prog` (ASLR, KASLR): each of its four address ranges (user
    /// code, kernel code, user data, kernel data) moves as a whole to anywhere in its half
    /// of a 48-bit address space; data by whole 4 KiB pages (so pages and cache lines are
    /// laid out as before), code by whole instructions (so every PC bit above bit 1 takes
    /// both values); with `tags`, user data pointers are tagged.
    pub fn random(prog: &CodeProgram, tags: bool, r: &mut crate::rng::Rng) -> Placement {
        const PAGE: u64 = 4096;
        let mut slide = |range: Option<Range<u64>>, kernel: bool, align: u64| match range {
            None => 0,
            Some(x) => {
                let (lo, hi) = if kernel {
                    (KERNEL_VA_BASE, u64::MAX - (1 << 40))
                } else {
                    (PAGE, USER_VA_END)
                };
                let room = (hi - lo).saturating_sub(x.end - x.start + PAGE).max(1);
                let start = (lo + r.below(room)) & !(align - 1);
                start.wrapping_sub(x.start & !(align - 1))
            }
        };
        Placement {
            user_code: slide(prog.pc_range(false), false, INSN_BYTES),
            kernel_code: slide(prog.pc_range(true), true, INSN_BYTES),
            user_data: slide(prog.data_range(false), false, PAGE),
            kernel_data: slide(prog.data_range(true), true, PAGE),
            tag_seed: tags.then(|| r.next_u64()),
        }
    }
}

/// A trace: micro-ops replayed in order, from the first again after the last.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceProgram {
    pub name: String,
    pub ops: Vec<MicroOp>,
}

/// What the core runs.
#[derive(Clone, Debug, PartialEq)]
pub enum Program {
    Code(CodeProgram),
    Trace(TraceProgram),
}

impl Program {
    pub fn name(&self) -> &str {
        match self {
            Program::Code(c) => &c.name,
            Program::Trace(t) => &t.name,
        }
    }

    pub fn validate(&self) -> Result<(), String> {
        match self {
            Program::Code(c) => c.validate(),
            Program::Trace(t) if t.ops.is_empty() => Err(format!("trace {} has no ops", t.name)),
            Program::Trace(_) => Ok(()),
        }
    }
}

/// Lays blocks out contiguously, user and kernel code each from its own base address.
/// Blocks are numbered in the order they are added, so exits may name later blocks.
#[derive(Clone, Debug)]
pub struct Builder {
    name: String,
    next_pc: BTreeMap<bool, u64>,
    blocks: Vec<Block>,
}

impl Builder {
    pub fn new(name: &str, user_base: u64, kernel_base: u64) -> Builder {
        Builder {
            name: name.to_string(),
            next_pc: BTreeMap::from([(false, user_base), (true, kernel_base)]),
            blocks: Vec::new(),
        }
    }

    /// Index the next block will get.
    pub fn next_index(&self) -> usize {
        self.blocks.len()
    }

    /// Appends a block after the previous one of the same space; returns its index.
    pub fn block(&mut self, kernel: bool, ops: Vec<StaticOp>, exit: Exit) -> usize {
        let pc = self.next_pc.get_mut(&kernel).expect("both spaces present");
        let base = *pc;
        *pc += ops.len() as u64 * INSN_BYTES;
        self.blocks.push(Block {
            base,
            kernel,
            ops,
            exit,
        });
        self.blocks.len() - 1
    }

    pub fn finish(
        self,
        user_entry: usize,
        kernel: Option<KernelEntry>,
    ) -> Result<CodeProgram, String> {
        let p = CodeProgram {
            name: self.name,
            blocks: self.blocks,
            user_entry,
            kernel,
        };
        p.validate()?;
        Ok(p)
    }
}

/// Subclass of an unconditional direct branch (B): no flags, CR 00 (a core reports its
/// other branches so; a unit with FEAT_SPE_CRR records them as CR 11).
pub const BR_DIRECT: u8 = 0;
/// The CR field of a branch with link (BL, BLR), ORed into its subclass (FEAT_SPE_CRR's
/// encoding; a unit without it records CR as 00).
pub const BR_CALL: u8 = subclass::CR_BL << subclass::BR_CR_SHIFT;
/// Subclass of a procedure return (RET): indirect, CR 10.
pub const BR_RETURN: u8 = subclass::BR_IND | subclass::CR_RET << subclass::BR_CR_SHIFT;
/// Conditional direct branch (B.cond, CBZ, TBZ).
pub const BR_CONDITIONAL: u8 = subclass::BR_COND;
/// Indirect branch (BR, BLR, RET, ERET).
pub const BR_INDIRECT: u8 = subclass::BR_IND;

#[cfg(test)]
mod tests {
    use super::*;

    fn mem() -> MemPattern {
        MemPattern {
            base: 0x1000,
            span: 64,
            stride: 8,
            size: 8,
            random: false,
        }
    }

    #[test]
    fn builder_lays_blocks_out_contiguously_and_validates() {
        let mut b = Builder::new("t", 0x1000, 0xffff_8000_0000_0000);
        let b0 = b.block(
            false,
            vec![StaticOp::other(0), StaticOp::ldst(0, mem())],
            Exit::Fall(1),
        );
        let b1 = b.block(
            false,
            vec![StaticOp::other(0), StaticOp::branch(BR_DIRECT)],
            Exit::Jump(0),
        );
        let p = b.finish(b0, None).unwrap();
        assert_eq!(p.blocks[b1].base, 0x1008);
        assert_eq!(p.pc_range(false), Some(0x1000..0x1010));
        assert_eq!(p.pc_range(true), None);
    }

    #[test]
    fn vary_vectors_gives_sve_ops_every_evl_and_some_sme_array_ops_and_leaves_the_rest() {
        use subclass::{
            is_sme_array, LDST_GP, LDST_ST, LDST_SVE_SME, OTHER_SVE, SVE_FP, SVE_PRED, SVE_SG,
            VL_FIELD, VL_SHIFT,
        };
        let evl = |v: u8| (v >> VL_SHIFT) & VL_FIELD;
        let mut ops = Vec::new();
        for k in 0..64u8 {
            ops.push(StaticOp::other(OTHER_SVE | SVE_PRED | ((k & 1) * SVE_FP)));
            ops.push(StaticOp::ldst(LDST_SVE_SME | SVE_SG | LDST_ST, mem()));
            ops.push(StaticOp::ldst(LDST_GP, mem()));
            ops.push(StaticOp::other(0));
        }
        ops.push(StaticOp::branch(BR_DIRECT));
        let mut b = Builder::new("v", 0x1000, 0xffff_8000_0000_0000);
        b.block(false, ops, Exit::Jump(0));
        let before = b.finish(0, None).unwrap();
        let mut p = before.clone();
        p.vary_vectors(&mut Rng::new(1));
        let (mut other_evls, mut ldst_evls, mut sme) = (0u8, 0u8, 0);
        for (a, z) in before.blocks[0].ops.iter().zip(&p.blocks[0].ops) {
            assert_eq!((a.class, a.mem), (z.class, z.mem));
            if !subclass::has_evl(a.class, a.subclass) {
                assert_eq!(a, z, "an op without an EVL field is left as it was");
            } else if is_sme_array(z.class, z.subclass) {
                assert_eq!(
                    a.class,
                    op_class::OTHER,
                    "only data-processing ops become SME"
                );
                assert_eq!(a.subclass & SVE_FP, z.subclass & SVE_FP, "FP kept");
                sme += 1;
            } else {
                assert!(subclass::has_evl(z.class, z.subclass));
                let keep = !(VL_FIELD << VL_SHIFT);
                assert_eq!(a.subclass & keep, z.subclass & keep, "only the EVL changes");
                if z.class == op_class::OTHER {
                    other_evls |= 1 << evl(z.subclass);
                } else {
                    ldst_evls |= 1 << evl(z.subclass);
                }
            }
        }
        assert_eq!(
            (other_evls, ldst_evls),
            (0xff, 0xff),
            "every EVL, 0b111 among them"
        );
        assert!(
            (2..=20).contains(&sme),
            "{sme} of 64 SVE data-processing ops became SME"
        );
        // A program without SVE ops: unchanged, and the stream not drawn from.
        let mut b = Builder::new("plain", 0x1000, 0xffff_8000_0000_0000);
        b.block(
            false,
            vec![StaticOp::other(0), StaticOp::branch(BR_DIRECT)],
            Exit::Jump(0),
        );
        let plain = b.finish(0, None).unwrap();
        let (mut q, mut r) = (plain.clone(), Rng::new(2));
        q.vary_vectors(&mut r);
        assert_eq!(q.blocks[0].ops, plain.blocks[0].ops);
        assert_eq!(r.next_u64(), Rng::new(2).next_u64());
    }

    #[test]
    fn validation_rejects_broken_programs() {
        let mut b = Builder::new("bad", 0x1000, 0xffff_8000_0000_0000);
        b.block(false, vec![StaticOp::other(0)], Exit::Jump(0));
        assert!(b
            .finish(0, None)
            .unwrap_err()
            .contains("must end with a branch"));
        let mut b = Builder::new("bad", 0x1000, 0xffff_8000_0000_0000);
        b.block(false, vec![StaticOp::branch(BR_DIRECT)], Exit::Jump(5));
        assert!(b.finish(0, None).is_err());
        let mut b = Builder::new("bad", 0x1000, 0xffff_8000_0000_0000);
        b.block(
            false,
            vec![
                StaticOp {
                    class: op_class::LD_ST_ATOMIC,
                    subclass: 0,
                    mem: None,
                },
                StaticOp::branch(0),
            ],
            Exit::Jump(0),
        );
        assert!(b.finish(0, None).is_err());
        assert!(Program::Trace(TraceProgram {
            name: "e".into(),
            ops: vec![]
        })
        .validate()
        .is_err());
    }
}
