"""cocotb test: spe_top_default (the Verilog of gen/default) driven from a replayed trace,
checked by the record-level scoreboard of the golden model's C library (libspe_capi.so)
through ctypes: every port of the unit, every cycle, then every register read through the
port, then the scoreboard's verdict (docs/integration.md, "The rule").

Environment (scripts/cocotb-check.sh sets it): SPE_VECTORS, a `spe sim --vectors` file of
the preset; SPE_CAPI_LIB, the path of libspe_capi.so; SPE_REGS_H, gen/spe_regs.h (the
register addresses the sweep reads); SPE_EXPECT_RECORDS, the records `spe sim` wrote in
that run (the scoreboard must have checked as many).
"""
import ctypes
import os
import re

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ReadOnly, RisingEdge

# The inputs the end-of-run register sweep holds low, so that nothing new is sampled or
# written (the generated replay bench holds the same ones).
SWEEP_QUIET = ["disp_valid", "iss_valid", "xl_start", "xl_done", "mem_done", "br_done",
               "cpl_done", "reg_we", "wr_ready", "wr_err"]


def load(path):
    lib = ctypes.CDLL(path)
    p, s, u32, u64 = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_uint32, ctypes.c_uint64
    for name, res, args in [
        ("spe_scoreboard_new", p, [s]),
        ("spe_scoreboard_free", None, [p]),
        ("spe_scoreboard_set", ctypes.c_int, [p, s, u32, u64]),
        ("spe_scoreboard_step", ctypes.c_int, [p]),
        ("spe_scoreboard_finish", ctypes.c_int, [p]),
        ("spe_scoreboard_message", s, [p]),
        ("spe_scoreboard_summary", s, [p]),
        ("spe_scoreboard_record_count", ctypes.c_size_t, [p]),
    ]:
        f = getattr(lib, name)
        f.restype = res
        f.argtypes = args
    return lib


class Scoreboard:
    """The scoreboard of one preset, fed by port name and lane."""

    def __init__(self, lib, preset):
        self.lib = lib
        self.h = lib.spe_scoreboard_new(preset.encode())
        assert self.h, f"unknown preset {preset}"

    def lanes(self, name):
        n = 1
        while self.lib.spe_scoreboard_set(self.h, name.encode(), n, 0) == 0:
            n += 1
        return n

    def set(self, name, lane, value):
        assert self.lib.spe_scoreboard_set(self.h, name, lane, value) == 0, (name, lane)

    def step(self):
        return self.lib.spe_scoreboard_step(self.h)

    def finish(self):
        return self.lib.spe_scoreboard_finish(self.h)

    def message(self):
        return self.lib.spe_scoreboard_message(self.h).decode()

    def summary(self):
        return self.lib.spe_scoreboard_summary(self.h).decode()

    def records(self):
        return self.lib.spe_scoreboard_record_count(self.h)


def read_vectors(path):
    with open(path) as f:
        header = f.readline().split()
        assert header[:3] == ["#", "spe", "vectors"], f"{path}: not a spe sim --vectors file"
        top = header[3]
        ports = [(n, int(b)) for n, b in (x.split(":") for x in header[4:])]
        rows = [[int(v, 16) for v in line.split()] for line in f]
    return top, ports, rows


@cocotb.test()
async def replayed_trace_passes_the_scoreboard(dut):
    top, ports, rows = read_vectors(os.environ["SPE_VECTORS"])
    preset = top[len("spe_top_"):]
    sb = Scoreboard(load(os.environ["SPE_CAPI_LIB"]), preset)
    # An input's lanes (slots or threads) and bits per lane, as the library has them.
    inputs = []
    for name, bits in ports:
        lanes = sb.lanes(name)
        inputs.append((name, name.encode(), lanes, bits // lanes))
    outputs = ["tag", "hook_stray", "sample_timeout", "reg_rdata", "wr_valid", "wr_addr",
               "wr_data", "wr_strb", "irq", "pmu_sample_pop", "pmu_sample_feed",
               "pmu_sample_filtrate", "pmu_sample_collision", "psb_done"]
    handles = {name: getattr(dut, name) for name, _, _, _ in inputs}
    out_handles = [(n.encode(), getattr(dut, n)) for n in outputs]

    cocotb.start_soon(Clock(dut.clk, 10, units="ns").start())
    await RisingEdge(dut.clk)
    failed = 0

    async def cycle(values):
        nonlocal failed
        for (name, bname, lanes, bits), v in zip(inputs, values):
            handles[name].value = v
            mask = (1 << bits) - 1
            for lane in range(lanes):
                sb.set(bname, lane, (v >> (lane * bits)) & mask)
        await ReadOnly()
        for bname, h in out_handles:
            sb.set(bname, 0, int(h.value))
        if sb.step() != 0 and failed == 0:
            dut._log.error("scoreboard: MISMATCH %s", sb.message())
            failed = 1
        await RisingEdge(dut.clk)

    for values in rows:
        await cycle(values)
    # The end: every register read once through the port, the other inputs quiet.
    last = dict(zip([p[0] for p in inputs], rows[-1]))
    for name in SWEEP_QUIET:
        last[name] = 0
    last["reg_en"] = 1
    with open(os.environ["SPE_REGS_H"]) as f:
        addrs = [int(a) for a in re.findall(r"^#define SPE_\w+_ADDR (\d+)u", f.read(), re.M)]
    assert len(addrs) >= 13, f"{len(addrs)} register addresses in spe_regs.h"
    for addr in addrs:
        last["reg_addr"] = addr
        await cycle([last[p[0]] for p in inputs])
    verdict = sb.finish()
    dut._log.info("scoreboard: %s", sb.summary())
    assert verdict == 0, sb.message()
    expect = int(os.environ["SPE_EXPECT_RECORDS"])
    assert sb.records() >= expect > 0, f"{sb.records()} records checked, spe sim wrote {expect}"
