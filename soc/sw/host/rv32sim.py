#!/usr/bin/env python3
"""rv32sim: a small instruction-set simulator for checking soc/sw's program on the host.

Runs spe-demo.elf as PicoRV32 would (RV32I; custom0 getq/setq/retirq/maskirq with
PicoRV32's IRQ rules: IRQ entry at 0x10, q0 = return address, q1 = pending IRQs, latched
IRQ lines) against models of the SoC's devices (gen/soc/spe_soc.h): RAM, UART, control
block, and a stand-in for the SPE unit that writes a 64-byte dummy record every
PMSIRR.INTERVAL instructions while PMSCR.E0SPE and PMBLIMITR.E are set, raises the
buffer-full syndrome (S, EC = 0, BSC = 1, DL) when PMBPTR reaches LIMIT - 64, and holds
the IRQ line high while PMBSR.S = 1. It is not the RTL: it checks the software's side
(crt0, IRQ entry, driver order, draining, dump stream) and counts retired instructions per
function. Timing is one instruction per cycle.

Checks: the exit code is 0; the UART stream decodes (docs/uart-protocol.md) to exactly the
records the stand-in wrote, in order; no register write sets a reserved bit.

Usage: rv32sim.py spe-demo.elf [--quiet]
"""
import os
import struct
import sys
import zlib

# The memory map and the unit's register table (port address -> name, writable mask; the
# ID registers' values) come from gen/soc/spe_soc_map.py, which `spe gen` writes from
# hdl/defs beside gen/soc/spe_soc.h and `spe gen --check` keeps current.
# No __pycache__ in gen/ (`spe gen --check` would find a file it did not write).
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "gen", "soc"))
from spe_soc_map import (  # noqa: E402
    RAM_BASE, RAM_SIZE, BUF_BASE, BUF_SIZE, UART_DATA, UART_STATUS, SPE_BASE, SPE_SIZE,
    CTL_EXIT, CTL_CYCLES, CTL_PSB, CTL_BUF_BYTES, SPE_IRQ, SPE_REGS, ID_VALUES,
)

M32 = 0xFFFFFFFF


def load_elf(path):
    data = open(path, "rb").read()
    assert data[:4] == b"\x7fELF" and data[4] == 1, "not an ELF32 file"
    (e_entry, e_phoff, e_shoff) = struct.unpack_from("<III", data, 24)
    (e_phentsize, e_phnum, e_shentsize, e_shnum) = struct.unpack_from("<HHHH", data, 42)
    ram = bytearray(RAM_SIZE)
    for i in range(e_phnum):
        p_type, p_off, p_vaddr, _, p_filesz, p_memsz, _, _ = struct.unpack_from(
            "<IIIIIIII", data, e_phoff + i * e_phentsize)
        if p_type == 1 and p_filesz:
            assert RAM_BASE <= p_vaddr and p_vaddr + p_memsz <= RAM_BASE + RAM_SIZE
            ram[p_vaddr - RAM_BASE:p_vaddr - RAM_BASE + p_filesz] = data[p_off:p_off + p_filesz]
    sections = [struct.unpack_from("<IIIIIIIIII", data, e_shoff + i * e_shentsize)
                for i in range(e_shnum)]
    funcs, syms = [], {}
    for sh in sections:
        if sh[1] != 2:  # SHT_SYMTAB
            continue
        strtab = sections[sh[6]]
        for off in range(sh[4], sh[4] + sh[5], 16):
            st_name, st_value, st_size, st_info, _, _ = struct.unpack_from("<IIIBBH", data, off)
            name_at = strtab[4] + st_name
            name = data[name_at:data.index(b"\0", name_at)].decode()
            syms[name] = st_value
            if st_info & 0xF == 2 and st_size:  # STT_FUNC
                funcs.append((st_value, st_size, name))
    return ram, sorted(funcs), syms


def decode_stream(stream):
    """The host decoder of docs/uart-protocol.md, in short: (buffer, data frames)."""
    at = stream.find(b"SP")
    assert at >= 0, "no frame in the UART stream"
    buf, seq, frames = bytearray(), 0, 0
    while True:
        assert stream[at:at + 2] == b"SP", f"no sync at {at}"
        kind, fseq, n = struct.unpack_from("<BHH", stream, at + 2)
        body = stream[at + 2:at + 7 + n]
        (crc,) = struct.unpack_from("<I", stream, at + 7 + n)
        assert crc == zlib.crc32(body), f"frame {fseq}: bad CRC"
        assert fseq == seq, f"frame {fseq}, expected {seq}"
        seq = (seq + 1) & 0xFFFF
        payload = stream[at + 7:at + 7 + n]
        at += 11 + n
        if kind == ord("D"):
            assert 1 <= n <= 1024, f"data frame of {n} bytes"
            buf += payload
            frames += 1
        else:
            assert kind == ord("E") and n == 8, "bad end frame"
            total, whole = struct.unpack("<II", payload)
            assert total == len(buf) and whole == zlib.crc32(buf), "end frame disagrees"
            assert at == len(stream), "bytes after the end frame"
            return bytes(buf), frames


class Spe:
    """Stand-in for the SPE unit's programmer's model (see the module doc)."""

    def __init__(self):
        self.r = {name: 0 for name, _ in SPE_REGS.values()}
        self.r.update(ID_VALUES)
        self.countdown = None
        self.records = []
        self.rng = 0x1234
        self.errors = []
        self.log = []

    def read(self, port, hi):
        name = SPE_REGS.get(port, (None,))[0]
        v = self.r.get(name, 0)
        return (v >> 32) & M32 if hi else v & M32

    def write(self, port, hi, value):
        if port not in SPE_REGS:
            self.errors.append(f"write to unmapped port {port}")
            return
        name, mask = SPE_REGS[port]
        old = self.r[name]
        v = (old & M32) | (value << 32) if hi else (old & ~M32) | value
        if v & ~mask & 0xFFFFFFFFFFFFFFFF:
            self.errors.append(f"{name} = {v:#x} sets reserved bits {v & ~mask:#x}")
        if name not in ID_VALUES:
            self.r[name] = v & mask if name not in ("PMBPTR", "PMSICR") else v
        self.log.append((name, "hi" if hi else "lo", value))
        if name == "PMSIRR" or name == "PMSICR":
            self.countdown = None

    def irq(self):
        return (self.r["PMBSR"] >> 17) & 1

    def step(self, pc):
        """One retired instruction at `pc` (in profiled code)."""
        r = self.r
        if not (r["PMSCR"] & 1 and r["PMBLIMITR"] & 1) or r["PMBSR"] & (1 << 17):
            return
        if self.countdown is None:
            interval = max(r["PMSIRR"] & 0xFFFFFF00, 1024)
            jitter = 0
            if r["PMSIRR"] & 1:
                self.rng = (self.rng * 1103515245 + 12345) & 0x7FFFFFFF
                jitter = self.rng & 0xFF
            self.countdown = interval + jitter
        self.countdown -= 1
        if self.countdown > 0:
            return
        self.countdown = None
        ptr, limit = r["PMBPTR"], r["PMBLIMITR"] & ~0xFFF
        if ptr >= limit - 64:
            r["PMBSR"] = (1 << 17) | (1 << 19) | 1  # S, DL, EC = 0, BSC = full
            return
        if not (BUF_BASE <= ptr and ptr + 64 <= BUF_BASE + BUF_SIZE):
            self.errors.append(f"record at {ptr:#x}, outside the buffer")
            r["PMBSR"] = (1 << 17) | (0x24 << 26)  # a fault
            return
        rec = struct.pack("<IIQ", 0x5EC0DE00 | (len(self.records) & 0xFF), pc,
                          len(self.records)) + bytes(range(48))
        self.records.append(rec)
        return ptr - BUF_BASE, rec


def run(path, quiet=False):
    ram, funcs, syms = load_elf(path)
    buf = bytearray(BUF_SIZE)
    spe = Spe()
    uart = bytearray()
    x = [0] * 32
    q = [0] * 4
    pc = 0
    irq_mask, irq_pending, irq_active = M32, 0, False
    count, irq_count = 0, 0
    per_pc = {}
    decoded = {}
    exit_code = None

    def load(addr, size, signed):
        if RAM_BASE <= addr < RAM_BASE + RAM_SIZE:
            b = ram[addr - RAM_BASE:addr - RAM_BASE + size]
        elif BUF_BASE <= addr < BUF_BASE + BUF_SIZE:
            b = buf[addr - BUF_BASE:addr - BUF_BASE + size]
        else:
            assert size == 4 and addr % 4 == 0, f"{size}-byte MMIO read at {addr:#x}"
            if addr == UART_STATUS:
                return 0
            if addr == CTL_CYCLES:
                return count & M32
            if addr == CTL_PSB:
                return 0  # the stand-in unit writes records at once: a PSB completes at once
            if addr == CTL_BUF_BYTES:
                return BUF_SIZE  # the simulated SoC's buffer RAM fills the window
            if SPE_BASE <= addr < SPE_BASE + SPE_SIZE:
                return spe.read((addr - SPE_BASE) >> 3, addr & 4)
            raise AssertionError(f"read of unmapped {addr:#x} at pc {pc:#x}")
        v = int.from_bytes(b, "little")
        if signed and v >> (8 * size - 1):
            v -= 1 << (8 * size)
        return v & M32

    def store(addr, size, v):
        nonlocal exit_code
        if RAM_BASE <= addr < RAM_BASE + RAM_SIZE:
            ram[addr - RAM_BASE:addr - RAM_BASE + size] = (v & ((1 << 8 * size) - 1)).to_bytes(size, "little")
            return
        assert size == 4 and addr % 4 == 0, f"{size}-byte MMIO write at {addr:#x}"
        if addr == UART_DATA:
            uart.append(v & 0xFF)
        elif addr == CTL_EXIT:
            exit_code = v
        elif addr == CTL_PSB:
            pass  # PSB CSYNC: nothing in flight in the stand-in unit
        elif SPE_BASE <= addr < SPE_BASE + SPE_SIZE:
            spe.write((addr - SPE_BASE) >> 3, addr & 4, v)
        else:
            raise AssertionError(f"write of {v:#x} to unmapped {addr:#x} at pc {pc:#x}")

    def sx(v, bits):
        return v - (1 << bits) if v >> (bits - 1) else v

    while exit_code is None:
        # IRQs: lines latch into pending; one is taken between instructions.
        if spe.irq():
            irq_pending |= 1 << SPE_IRQ
        if not irq_active and irq_pending & ~irq_mask:
            q[0], q[1] = pc, irq_pending & ~irq_mask
            irq_pending &= irq_mask
            irq_active = True
            pc = 0x10
        ins = decoded.get(pc)
        if ins is None:
            w = load(pc, 4, False)
            assert w & 3 == 3, f"compressed instruction at {pc:#x}"
            op, rd, f3 = w & 0x7F, (w >> 7) & 31, (w >> 12) & 7
            rs1, rs2, f7 = (w >> 15) & 31, (w >> 20) & 31, w >> 25
            i_imm = sx(w >> 20, 12)
            s_imm = sx(((w >> 25) << 5) | ((w >> 7) & 31), 12)
            b_imm = sx((((w >> 31) & 1) << 12) | (((w >> 7) & 1) << 11) | (((w >> 25) & 63) << 5)
                       | (((w >> 8) & 15) << 1), 13)
            j_imm = sx((((w >> 31) & 1) << 20) | (((w >> 12) & 255) << 12) | (((w >> 20) & 1) << 11)
                       | (((w >> 21) & 1023) << 1), 21)
            ins = decoded[pc] = (op, rd, f3, rs1, rs2, f7, i_imm, s_imm, b_imm, j_imm, w)
        op, rd, f3, rs1, rs2, f7, i_imm, s_imm, b_imm, j_imm, w = ins
        a, b = x[rs1], x[rs2]
        npc = pc + 4
        res = None
        if op == 0x13:  # OP-IMM
            sh = i_imm & 31
            if f3 == 0: res = a + i_imm
            elif f3 == 1: res = a << sh
            elif f3 == 2: res = int(sx(a, 32) < i_imm)
            elif f3 == 3: res = int(a < (i_imm & M32))
            elif f3 == 4: res = a ^ (i_imm & M32)
            elif f3 == 5: res = (sx(a, 32) >> sh) if f7 & 0x20 else a >> sh
            elif f3 == 6: res = a | (i_imm & M32)
            else: res = a & (i_imm & M32)
        elif op == 0x33:  # OP
            assert f7 in (0, 0x20), f"M-extension or unknown OP at {pc:#x}: {w:#010x}"
            if f3 == 0: res = a - b if f7 else a + b
            elif f3 == 1: res = a << (b & 31)
            elif f3 == 2: res = int(sx(a, 32) < sx(b, 32))
            elif f3 == 3: res = int(a < b)
            elif f3 == 4: res = a ^ b
            elif f3 == 5: res = (sx(a, 32) >> (b & 31)) if f7 else a >> (b & 31)
            elif f3 == 6: res = a | b
            else: res = a & b
        elif op == 0x03:
            res = load((a + i_imm) & M32, (1, 2, 4, 0, 1, 2)[f3], f3 < 3)
        elif op == 0x23:
            store((a + s_imm) & M32, (1, 2, 4)[f3], b)
        elif op == 0x63:
            sa, sb = sx(a, 32), sx(b, 32)
            taken = (a == b, a != b, None, None, sa < sb, sa >= sb, a < b, a >= b)[f3]
            assert taken is not None, f"bad branch at {pc:#x}"
            if taken:
                npc = pc + b_imm
        elif op == 0x37:
            res = w & 0xFFFFF000
        elif op == 0x17:
            res = pc + (w & 0xFFFFF000)
        elif op == 0x6F:
            res, npc = pc + 4, pc + j_imm
        elif op == 0x67:
            res, npc = pc + 4, (a + i_imm) & ~1 & M32
        elif op == 0x0B:  # PicoRV32 custom0
            if f7 == 0:  # getq rd, qs
                res = q[rs1 & 3]
            elif f7 == 1:  # setq qd, rs
                q[rd & 3] = a
            elif f7 == 2:  # retirq
                assert irq_active, f"retirq outside the handler at {pc:#x}"
                npc, irq_active = q[0], False
            elif f7 == 3:  # maskirq rd, rs
                res, irq_mask = irq_mask, a
            else:
                raise AssertionError(f"unsupported custom0 {w:#010x} at {pc:#x}")
        else:
            raise AssertionError(f"illegal instruction {w:#010x} at {pc:#x}")
        if res is not None and rd:
            x[rd] = res & M32
        count += 1
        if irq_active:
            irq_count += 1
        elif spe.r["PMSCR"] & 1 and spe.r["PMBLIMITR"] & 1:
            per_pc[pc] = per_pc.get(pc, 0) + 1
            wrote = spe.step(pc)
            if wrote:
                off, rec = wrote
                buf[off:off + 64] = rec
                spe.r["PMBPTR"] += 64
        pc = npc
        assert count < 50_000_000, "runaway program"

    # Per-function counts in the profiled window: outside the IRQ handler while PMSCR.E0SPE
    # and PMBLIMITR.E are set (from spe_start to spe_stop).
    names = {}
    starts = [f[0] for f in funcs]
    import bisect
    for p, n in per_pc.items():
        i = bisect.bisect_right(starts, p) - 1
        name = funcs[i][2] if i >= 0 and p < funcs[i][0] + funcs[i][1] else f"?{p:#x}"
        names[name] = names.get(name, 0) + n
    profiled = sum(names.values())
    stream_buf, frames = decode_stream(bytes(uart))
    want = b"".join(spe.records)
    ok = exit_code == 0 and stream_buf == want and not spe.errors
    if not quiet or not ok:
        print(f"exit code {exit_code}; {count} instructions retired: {profiled} profiled "
              f"(sampling on, outside the IRQ handler), {irq_count} in the IRQ handler, "
              f"{count - profiled - irq_count} other (start-up, stop, last drain)")
        print(f"SPE stand-in: {len(spe.records)} records ({len(want)} bytes); UART: {len(uart)} "
              f"bytes, {frames} data frames, buffer {len(stream_buf)} bytes")
        for name, n in sorted(names.items(), key=lambda t: -t[1]):
            if n * 200 >= profiled:
                print(f"  {name:24} {n:9} {100.0 * n / profiled:5.1f}%")
        first = [f"{n} {h}={v:#x}" for n, h, v in spe.log[:14]]
        print("SPE writes (first): " + ", ".join(first))
        for e in spe.errors:
            print("SPE error: " + e)
        if stream_buf != want:
            print("the UART stream does not carry the records written, in order")
    return ok


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__)
        sys.exit(2)
    sys.exit(0 if run(sys.argv[1], "--quiet" in sys.argv[2:]) else 1)
