#!/usr/bin/env python3
"""replay.py: the golden model through ctypes (libspe_capi.so), as a cocotb bench would use
it: replays a `spe sim --vectors` file and writes the records the model wrote.

Usage: replay.py LIB.so run.vec records.bin
"""
import ctypes
import sys


def load(path):
    lib = ctypes.CDLL(path)
    lib.spe_model_new.restype = ctypes.c_void_p
    lib.spe_model_new.argtypes = [ctypes.c_char_p]
    lib.spe_model_free.argtypes = [ctypes.c_void_p]
    lib.spe_model_set.restype = ctypes.c_int
    lib.spe_model_set.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_uint32, ctypes.c_uint64]
    lib.spe_model_step.restype = ctypes.c_int
    lib.spe_model_step.argtypes = [ctypes.c_void_p]
    lib.spe_model_get.restype = ctypes.c_uint64
    lib.spe_model_get.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_uint32]
    lib.spe_model_record_count.restype = ctypes.c_size_t
    lib.spe_model_record_count.argtypes = [ctypes.c_void_p]
    lib.spe_model_record_bytes.restype = ctypes.c_size_t
    lib.spe_model_record_bytes.argtypes = [ctypes.c_void_p]
    lib.spe_model_record.restype = ctypes.c_int
    lib.spe_model_record.argtypes = [ctypes.c_void_p, ctypes.c_size_t,
                                     ctypes.POINTER(ctypes.c_uint64), ctypes.c_char_p]
    return lib


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    lib = load(sys.argv[1])
    with open(sys.argv[2]) as f:
        header = f.readline().split()
        if header[:3] != ["#", "spe", "vectors"] or not header[3].startswith("spe_top_"):
            sys.exit(f"{sys.argv[2]}: not a vector file of spe sim --vectors")
        preset = header[3][len("spe_top_"):]
        m = lib.spe_model_new(preset.encode())
        if not m:
            sys.exit(f"unknown preset {preset}")
        ports = []
        for field in header[4:]:
            name, bits = field.split(":")
            lanes = 1
            while lib.spe_model_set(m, name.encode(), lanes, 0) == 0:
                lanes += 1
            ports.append((name.encode(), lanes, int(bits) // lanes))
        cycles = 0
        for line in f:
            values = line.split()
            if len(values) != len(ports):
                sys.exit(f"cycle {cycles}: {len(values)} of {len(ports)} ports")
            for (name, lanes, bits), v in zip(ports, values):
                v = int(v, 16)
                for lane in range(lanes):
                    lib.spe_model_set(m, name, lane, (v >> (lane * bits)) & ((1 << bits) - 1))
            lib.spe_model_step(m)
            cycles += 1
    n = lib.spe_model_record_count(m)
    addr = ctypes.c_uint64()
    size = lib.spe_model_record_bytes(m)
    buf = ctypes.create_string_buffer(128)  # SPE_RECORD_BYTES: any preset's record
    with open(sys.argv[3], "wb") as out:
        for k in range(n):
            if lib.spe_model_record(m, k, ctypes.byref(addr), buf) != 0:
                sys.exit(f"record {k} missing")
            out.write(buf.raw[:size])
    lib.spe_model_free(m)
    print(f"replay.py: {cycles} cycles of {sys.argv[2]} (preset {preset}), {n} records")


if __name__ == "__main__":
    main()
