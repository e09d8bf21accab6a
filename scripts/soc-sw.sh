#!/usr/bin/env bash
# Builds the software of the demo SoC (soc/sw) into OUTDIR, for its PicoRV32 core or, with
# --core vexriscv or vexriscv-full, for its VexRiscv Lite or Full core (crt0_vexriscv.S,
# standard RISC-V traps; for Full the devices through SOC_IO_ALIAS, past its data cache):
#   OUTDIR/spe-demo.elf   the program (symbols kept: the host names functions from them)
#   OUTDIR/spe-demo.lst   its disassembly, for humans
# with riscv64-unknown-elf-gcc for RV32I/ilp32 (installed with apt-get when missing), every
# warning an error. Checks that only instructions PicoRV32 runs here are in the image (RV32I
# and its custom0 IRQ instructions; no M, no compressed), prints the image size against
# the RAM, runs the ELF on a small RV32I simulator with a stand-in SPE unit (exit code,
# dump stream, instructions per function), and builds and runs the workloads on the host
# (-DHOST) so a broken sort or CRC fails here.
# The instruction-set simulator knows PicoRV32's IRQ instructions, not the CSRs: the
# VexRiscv build is checked by its run on the Verilated SoC instead.
# Usage: scripts/soc-sw.sh [--core picorv32|vexriscv|vexriscv-full] OUTDIR
#        (ROUNDS=N and SPE_INTERVAL=N in the environment override the defaults)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
core=picorv32
if [ "${1:-}" = "--core" ]; then
    core=${2:-}
    shift 2 || true
fi
case "$core" in
    picorv32 | vexriscv | vexriscv-full) ;;
    *) echo "error: --core must be picorv32, vexriscv or vexriscv-full, not '$core'" >&2; exit 2 ;;
esac
[ $# -eq 1 ] || { echo "usage: $0 [--core picorv32|vexriscv|vexriscv-full] OUTDIR" >&2; exit 2; }
mkdir -p "$1"
out=$(cd "$1" && pwd)
cd "$(repo_root)"

need gcc-riscv64-unknown-elf riscv64-unknown-elf-gcc
need binutils-riscv64-unknown-elf riscv64-unknown-elf-objdump
if [ ! -d /usr/lib/picolibc/riscv64-unknown-elf ]; then
    echo "==> picolibc for riscv64-unknown-elf not found: installing picolibc-riscv64-unknown-elf"
    sudo=""
    if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
    if [ -z "${SPE_APT_UPDATED:-}" ]; then
        $sudo apt-get update -qq
        export SPE_APT_UPDATED=1
    fi
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq picolibc-riscv64-unknown-elf >/dev/null
fi
need gcc cc

sw=soc/sw
map=gen/soc/spe_soc.h
cross=riscv64-unknown-elf
# A value of the memory map, as a plain number for the linker (the header's have a `u`).
map_value() {
    local v
    v=$(sed -n "s/^#define $1 *\(0x[0-9a-fA-F]*\)u.*/\1/p" "$map")
    [ -n "$v" ] || { echo "error: $map has no #define $1 0x...u" >&2; exit 1; }
    echo "$v"
}
ram_base=$(map_value SOC_RAM_BASE)
ram_size=$(map_value SOC_RAM_SIZE)
stack_size=0x400

defs=()
[ -n "${ROUNDS:-}" ] && defs+=("-DROUNDS=$ROUNDS")
[ -n "${SPE_INTERVAL:-}" ] && defs+=("-DSPE_INTERVAL=${SPE_INTERVAL}u")
arch=(-march=rv32i -mabi=ilp32)
crt0="$sw/crt0.S"
if [ "$core" != picorv32 ]; then
    crt0="$sw/crt0_vexriscv.S"
    # The branch workload (workloads.c, SPE_BRANCHY) for the pipeline that flushes and
    # crt0_vexriscv.S's exception loop (traps); their room comes from the stack, 0x240
    # instead of 0x400. gcc -fstack-usage: the deepest chain is main 16 + workloads_run 96
    # + matmul 64, then the IRQ entry 64 + spe_irq 16 + service 16 + spe_dump_chunk 32 +
    # frame 64 = 368 bytes, so 576 leaves 208.
    defs+=(-DSOC_CORE_VEXRISCV -DSPE_BRANCHY)
    stack_size=0x240
fi
if [ "$core" = vexriscv-full ]; then
    # Devices through SOC_IO_ALIAS, and the workload whose loads all miss the data cache
    # (misses); its code comes from the sort's array, 320 ints instead of 384 (the image
    # and the stack fill the 8 KiB RAM to 8 bytes otherwise).
    defs+=(-DSOC_CORE_VEXRISCV_FULL -DSPE_MISSES -DSORT_N=320)
fi
cflags=("${arch[@]}" -std=c11 -O2 -g -Wall -Wextra -Werror -ffreestanding -fno-builtin
    -nostdlib -msmall-data-limit=0 -fno-asynchronous-unwind-tables -fno-unwind-tables
    -ffunction-sections -I gen -I gen/soc -I "$sw" "${defs[@]}")
srcs=("$crt0" "$sw/main.c" "$sw/spe_drv.c" "$sw/spe_dump.c" "$sw/workloads.c")

step "$cross-gcc" "${cflags[@]}" -T "$sw/link.ld" \
    "-Wl,--defsym=__soc_ram_base=$ram_base,--defsym=__soc_ram_size=$ram_size,--defsym=__stack_size=$stack_size" \
    -Wl,--gc-sections -Wl,--no-warn-rwx-segments -Wl,--fatal-warnings -Wl,-Map="$out/spe-demo.map" \
    -o "$out/spe-demo.elf" "${srcs[@]}" -lgcc
"$cross-objdump" -d "$out/spe-demo.elf" > "$out/spe-demo.lst"

echo
if [ "$core" != picorv32 ]; then
    echo "==> instruction check (RV32I, the machine-mode CSR instructions, mret and ecall only)"
else
    echo "==> instruction check (RV32I and PicoRV32's custom0 IRQ instructions only)"
fi
# Canonical mnemonics (no aliases), one per instruction word.
"$cross-objdump" -d -M no-aliases "$out/spe-demo.elf" | awk -v core="$core" '
    BEGIN {
        n = split("lui auipc jal jalr beq bne blt bge bltu bgeu lb lh lw lbu lhu sb sh sw " \
                  "addi slti sltiu xori ori andi slli srli srai add sub sll slt sltu xor " \
                  "srl sra or and", ok, " ")
        for (i = 1; i <= n; i++) rv32i[ok[i]] = 1
        if (core != "picorv32") {
            n = split("csrrw csrrs csrrc csrrwi csrrsi csrrci mret ecall", ok, " ")
            for (i = 1; i <= n; i++) rv32i[ok[i]] = 1
        }
    }
    /^ *[0-9a-f]+:\t/ {
        split($0, f, "\t")
        word = f[2]; gsub(/ /, "", word); op = f[3]; sub(/ .*/, "", op)
        if (length(word) != 8) { print "compressed instruction: " $0; bad++; next }
        if (core == "picorv32" && (op == ".4byte" || op == ".insn")) {
            # custom0 (opcode 0001011: low byte 0x0b or 0x8b) with funct7 (bits 31:25,
            # so the top byte is 2*funct7 or 2*funct7+1) 0 getq, 2 retirq or 3 maskirq
            lo = substr(word, 7, 2); hi = substr(word, 1, 2)
            if ((lo == "0b" || lo == "8b") && hi ~ /^0[014567]$/) { custom++; count++; next }
            print "not a PicoRV32 IRQ instruction: " $0; bad++; next
        }
        if (!(op in rv32i)) { print "not RV32I: " $0; bad++ }
        count++
    }
    END {
        if (bad) { print bad " bad instruction(s)"; exit 1 }
        if (core != "picorv32") printf "%d instructions: RV32I, Zicsr, mret, ecall\n", count
        else printf "%d instructions: RV32I, and %d PicoRV32 IRQ instructions (custom0)\n", count, custom
    }'
# No RVC flag in the ELF header (e_flags bit 0).
if "$cross-readelf" -h "$out/spe-demo.elf" | grep -q 'RVC'; then
    echo "error: the ELF is marked RVC (compressed)" >&2; exit 1
fi

echo
echo "==> size"
"$cross-size" -A "$out/spe-demo.elf" | grep -E '^\.(text|rodata|data|bss) '
end=$("$cross-nm" "$out/spe-demo.elf" | awk '$3 == "_end" { print $1 }')
printf 'image 0x%x .. 0x%x: %d bytes of %d bytes RAM (%d reserved for the stack, %d free)\n' \
    "$ram_base" "0x$end" $((0x$end - ram_base)) $((ram_size)) $((stack_size)) \
    $((ram_size - stack_size - (0x$end - ram_base)))

# The ELF on an instruction-set simulator with a stand-in SPE unit (soc/sw/host/rv32sim.py):
# exit code 0, and the UART stream carries exactly the records written.
if [ "$core" = picorv32 ]; then
    need python3 python3
    step python3 "$sw/host/rv32sim.py" "$out/spe-demo.elf"
fi

step cc -std=c99 -O2 -Wall -Wextra -Werror -DHOST "${defs[@]}" -o "$out/workloads-host" "$sw/workloads.c"
step "$out/workloads-host"
echo
echo "built $out/spe-demo.elf"
