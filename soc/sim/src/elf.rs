//! The parts of a 32-bit little-endian ELF executable the SoC needs: the loadable segments
//! (the RAM image) and the function symbols (to name the code the retire stream runs).
//! Written from the ELF specification (System V gABI); only what RISC-V `ld` emits for a
//! static program is accepted, anything else is an error that says what.

use std::path::Path;

/// A loadable segment (`PT_LOAD`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    pub vaddr: u32,
    /// File offset of its bytes.
    pub offset: u32,
    /// Bytes from the file, then `memsz - data.len()` zero bytes.
    pub data: Vec<u8>,
    pub memsz: u32,
    pub exec: bool,
}

/// The function only a program for VexRiscv has (`soc/sw/crt0_vexriscv.S`).
pub const VEXRISCV_MARK: &str = "traps";
/// The function only a program for VexRiscv Full has (`crt0_vexriscv.S` built with
/// `SOC_CORE_VEXRISCV_FULL`: its devices are reached through `SOC_IO_ALIAS`).
pub const VEXRISCV_FULL_MARK: &str = "vexriscv_full";

/// A function symbol (`STT_FUNC`) with its extent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Func {
    pub name: String,
    pub addr: u32,
    pub size: u32,
}

/// A parsed executable.
#[derive(Clone, Debug)]
pub struct Elf {
    pub entry: u32,
    pub machine: u16,
    pub segments: Vec<Segment>,
    /// Sorted by address; zero-sized symbols left out.
    pub funcs: Vec<Func>,
}

const PT_LOAD: u32 = 1;
const PF_X: u32 = 1;
const SHT_SYMTAB: u32 = 2;
const STT_FUNC: u8 = 2;
/// `e_machine` of RISC-V.
pub const EM_RISCV: u16 = 243;

fn u16le(b: &[u8], at: usize) -> Result<u16, String> {
    b.get(at..at + 2)
        .map(|s| u16::from_le_bytes([s[0], s[1]]))
        .ok_or_else(|| format!("truncated at byte {at}"))
}

fn u32le(b: &[u8], at: usize) -> Result<u32, String> {
    b.get(at..at + 4)
        .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
        .ok_or_else(|| format!("truncated at byte {at}"))
}

impl Elf {
    pub fn read(path: &Path) -> Result<Elf, String> {
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Elf::parse(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// [`Elf::read`], then [`Elf::check_core`] with the file named in its error.
    pub fn read_for(path: &Path, core: spe_defs::soc::Core) -> Result<Elf, String> {
        let elf = Elf::read(path)?;
        elf.check_core(core)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(elf)
    }

    pub fn parse(b: &[u8]) -> Result<Elf, String> {
        if b.get(0..4) != Some(b"\x7fELF".as_slice()) {
            return Err("not an ELF file".into());
        }
        if b[4] != 1 || b[5] != 1 {
            return Err(format!(
                "not a 32-bit little-endian ELF (class {}, data {}): the SoC runs RV32",
                b[4], b[5]
            ));
        }
        let machine = u16le(b, 18)?;
        if machine != EM_RISCV {
            return Err(format!("machine {machine} is not RISC-V ({EM_RISCV})"));
        }
        let entry = u32le(b, 24)?;
        let (phoff, shoff) = (u32le(b, 28)? as usize, u32le(b, 32)? as usize);
        let (phentsize, phnum) = (u16le(b, 42)? as usize, u16le(b, 44)? as usize);
        let (shentsize, shnum) = (u16le(b, 46)? as usize, u16le(b, 48)? as usize);
        let mut segments = Vec::new();
        for i in 0..phnum {
            let h = phoff + i * phentsize;
            if u32le(b, h)? != PT_LOAD {
                continue;
            }
            let (offset, vaddr) = (u32le(b, h + 4)?, u32le(b, h + 8)?);
            let (filesz, memsz, flags) = (u32le(b, h + 16)?, u32le(b, h + 20)?, u32le(b, h + 24)?);
            let data = b
                .get(offset as usize..(offset + filesz) as usize)
                .ok_or_else(|| format!("segment {i} lies outside the file"))?
                .to_vec();
            if memsz < filesz {
                return Err(format!("segment {i}: memsz {memsz} < filesz {filesz}"));
            }
            segments.push(Segment {
                vaddr,
                offset,
                data,
                memsz,
                exec: flags & PF_X != 0,
            });
        }
        if segments.is_empty() {
            return Err("no loadable segment".into());
        }
        // The symbol table and its string table (the section it links to).
        let mut funcs = Vec::new();
        for i in 0..shnum {
            let h = shoff + i * shentsize;
            if u32le(b, h + 4)? != SHT_SYMTAB {
                continue;
            }
            let (off, size, link, entsize) = (
                u32le(b, h + 16)? as usize,
                u32le(b, h + 20)? as usize,
                u32le(b, h + 24)? as usize,
                u32le(b, h + 36)?.max(16) as usize,
            );
            let sh = shoff + link * shentsize;
            let (stroff, strsize) = (u32le(b, sh + 16)? as usize, u32le(b, sh + 20)? as usize);
            let strtab = b
                .get(stroff..stroff + strsize)
                .ok_or("string table outside the file")?;
            for k in 0..size / entsize {
                let s = off + k * entsize;
                let (name, value, ssize) =
                    (u32le(b, s)? as usize, u32le(b, s + 4)?, u32le(b, s + 8)?);
                let info = *b.get(s + 12).ok_or("symbol outside the file")?;
                if info & 0xf != STT_FUNC || ssize == 0 {
                    continue;
                }
                let end = strtab[name.min(strtab.len())..]
                    .iter()
                    .position(|&c| c == 0)
                    .ok_or("unterminated symbol name")?;
                funcs.push(Func {
                    name: String::from_utf8_lossy(&strtab[name..name + end]).into_owned(),
                    addr: value,
                    size: ssize,
                });
            }
        }
        funcs.sort_by_key(|f| (f.addr, f.name.clone()));
        funcs.dedup_by_key(|f| f.addr);
        Ok(Elf {
            entry,
            machine,
            segments,
            funcs,
        })
    }

    /// Checks that the program was built for `core`: `scripts/soc-sw.sh --core vexriscv`
    /// links `crt0_vexriscv.S`, the only start-up file with the function
    /// [`VEXRISCV_MARK`] (its exception loop); PicoRV32's `crt0.S` has none; `--core
    /// vexriscv-full` adds [`VEXRISCV_FULL_MARK`]. A program for another core would hang or
    /// fail on this one (its interrupt entry and IRQ instructions differ; a Lite program's
    /// device reads would hit Full's data cache).
    pub fn check_core(&self, core: spe_defs::soc::Core) -> Result<(), String> {
        use spe_defs::soc::Core;
        if self.funcs.is_empty() {
            // Stripped: nothing tells the cores apart (and nothing names the profile's
            // functions either); let it run.
            return Ok(());
        }
        let has = |mark: &str| self.funcs.iter().any(|f| f.name == mark);
        let built = if has(VEXRISCV_FULL_MARK) {
            Core::VexriscvFull
        } else if has(VEXRISCV_MARK) {
            Core::Vexriscv
        } else {
            Core::Picorv32
        };
        if built == core {
            return Ok(());
        }
        let flag = match core {
            Core::Picorv32 => String::new(),
            c => format!("--core {} ", c.name()),
        };
        Err(format!(
            "the program was built for {}, not {}: build it with `scripts/soc-sw.sh {flag}OUTDIR`",
            built.name(),
            core.name()
        ))
    }

    /// The function that holds `pc`, by index into `funcs`.
    pub fn func_at(&self, pc: u32) -> Option<usize> {
        let i = self.funcs.partition_point(|f| f.addr <= pc);
        let f = self.funcs.get(i.checked_sub(1)?)?;
        (pc < f.addr.wrapping_add(f.size)).then_some(i - 1)
    }

    /// The RAM image: words from `base`, `words` of them, every segment placed (an error
    /// when one falls outside).
    pub fn image(&self, base: u32, words: usize) -> Result<Vec<u32>, String> {
        let mut bytes = vec![0u8; words * 4];
        for s in &self.segments {
            let start = s.vaddr.wrapping_sub(base) as usize;
            let end = start + s.memsz as usize;
            if s.vaddr < base || end > bytes.len() {
                return Err(format!(
                    "segment at 0x{:08x} ({} bytes) does not fit the RAM at 0x{base:08x} ({} bytes)",
                    s.vaddr,
                    s.memsz,
                    bytes.len()
                ));
            }
            bytes[start..start + s.data.len()].copy_from_slice(&s.data);
        }
        Ok(bytes
            .chunks(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p16(v: &mut Vec<u8>, x: u16) {
        v.extend_from_slice(&x.to_le_bytes());
    }
    fn p32(v: &mut Vec<u8>, x: u32) {
        v.extend_from_slice(&x.to_le_bytes());
    }

    /// An ELF32 RISC-V executable: one loadable segment of `code` at `vaddr` (memsz 16 bytes
    /// more: zeroed .bss), and the function symbols `funcs` (name, address, size) plus one
    /// object symbol that must be ignored.
    fn build(vaddr: u32, code: &[u8], funcs: &[(&str, u32, u32)]) -> Vec<u8> {
        let mut strtab = vec![0u8];
        let mut syms = vec![0u8; 16]; // the null symbol
        let mut add = |name: &str, value: u32, size: u32, info: u8| {
            let off = strtab.len() as u32;
            strtab.extend_from_slice(name.as_bytes());
            strtab.push(0);
            p32(&mut syms, off);
            p32(&mut syms, value);
            p32(&mut syms, size);
            syms.extend_from_slice(&[info, 0, 1, 0]);
        };
        for &(n, a, s) in funcs {
            add(n, a, s, STT_FUNC | 0x10);
        }
        add("a_variable", vaddr, 4, 1);
        let (ehsize, phsize, shsize) = (52u32, 32u32, 40u32);
        let code_off = ehsize + phsize;
        let sym_off = code_off + code.len() as u32;
        let str_off = sym_off + syms.len() as u32;
        let sh_off = str_off + strtab.len() as u32;
        let mut v = b"\x7fELF\x01\x01\x01".to_vec();
        v.resize(16, 0);
        p16(&mut v, 2); // ET_EXEC
        p16(&mut v, EM_RISCV);
        p32(&mut v, 1);
        p32(&mut v, vaddr); // entry
        p32(&mut v, ehsize); // phoff
        p32(&mut v, sh_off);
        p32(&mut v, 0); // flags
        p16(&mut v, ehsize as u16);
        p16(&mut v, phsize as u16);
        p16(&mut v, 1);
        p16(&mut v, shsize as u16);
        p16(&mut v, 3);
        p16(&mut v, 2); // shstrndx (unused here)
        for x in [
            PT_LOAD,
            code_off,
            vaddr,
            vaddr,
            code.len() as u32,
            code.len() as u32 + 16,
            5,
            4,
        ] {
            p32(&mut v, x);
        }
        v.extend_from_slice(code);
        v.extend_from_slice(&syms);
        v.extend_from_slice(&strtab);
        v.extend(std::iter::repeat(0).take(40)); // null section
        for x in [0, SHT_SYMTAB, 0, 0, sym_off, syms.len() as u32, 2, 1, 4, 16] {
            p32(&mut v, x);
        }
        for x in [0, 3, 0, 0, str_off, strtab.len() as u32, 0, 0, 1, 0] {
            p32(&mut v, x);
        }
        v
    }

    #[test]
    fn segments_image_and_functions() {
        let code: Vec<u8> = (1..=12).collect();
        let elf = Elf::parse(&build(0x100, &code, &[("b", 0x108, 4), ("a", 0x100, 8)])).unwrap();
        assert_eq!(elf.entry, 0x100);
        assert_eq!(elf.segments.len(), 1);
        assert!(elf.segments[0].exec);
        let names: Vec<_> = elf.funcs.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["a", "b"], "sorted by address, objects left out");
        assert_eq!(elf.func_at(0x100), Some(0));
        assert_eq!(elf.func_at(0x107), Some(0));
        assert_eq!(elf.func_at(0x10b), Some(1));
        assert_eq!(elf.func_at(0x10c), None, "past the last function's size");
        assert_eq!(elf.func_at(0xff), None);
        let img = elf.image(0x100, 8).unwrap();
        assert_eq!(img[0], 0x0403_0201);
        assert_eq!(img[2], 0x0c0b_0a09);
        assert_eq!(&img[3..], &[0; 5], ".bss and the rest are zero");
        let err = elf.image(0x100, 4).unwrap_err();
        assert!(err.contains("does not fit"), "{err}");
    }

    #[test]
    fn a_program_for_the_other_core_is_refused() {
        use spe_defs::soc::Core;
        let pico = Elf::parse(&build(0, &[0; 8], &[("main", 0, 8)])).unwrap();
        let vex = Elf::parse(&build(0, &[0; 8], &[("main", 0, 4), ("traps", 4, 4)])).unwrap();
        assert_eq!(pico.check_core(Core::Picorv32), Ok(()));
        assert_eq!(vex.check_core(Core::Vexriscv), Ok(()));
        let e = pico.check_core(Core::Vexriscv).unwrap_err();
        assert!(
            e.contains("built for picorv32, not vexriscv") && e.contains("--core vexriscv"),
            "{e}"
        );
        let e = vex.check_core(Core::Picorv32).unwrap_err();
        assert!(e.contains("built for vexriscv, not picorv32"), "{e}");
        let full = Elf::parse(&build(
            0,
            &[0; 12],
            &[("main", 0, 4), ("traps", 4, 4), ("vexriscv_full", 8, 4)],
        ))
        .unwrap();
        assert_eq!(full.check_core(Core::VexriscvFull), Ok(()));
        let e = full.check_core(Core::Vexriscv).unwrap_err();
        assert!(e.contains("built for vexriscv-full, not vexriscv"), "{e}");
        let e = vex.check_core(Core::VexriscvFull).unwrap_err();
        assert!(
            e.contains("built for vexriscv, not vexriscv-full")
                && e.contains("--core vexriscv-full"),
            "{e}"
        );
    }

    #[test]
    fn other_files_are_refused_with_the_reason() {
        assert!(Elf::parse(b"hello").unwrap_err().contains("not an ELF"));
        let mut v = build(0, &[0; 4], &[]);
        v[4] = 2;
        assert!(Elf::parse(&v).unwrap_err().contains("32-bit"));
        let mut v = build(0, &[0; 4], &[]);
        v[18] = 62; // x86-64
        assert!(Elf::parse(&v).unwrap_err().contains("not RISC-V"));
        let v = build(0, &[0; 4], &[]);
        assert!(Elf::parse(&v[..60]).is_err(), "truncated");
    }
}
