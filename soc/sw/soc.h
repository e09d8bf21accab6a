/* soc.h: access to the SoC's devices and the core's IRQ mask (see README.md). The build
 * defines SOC_CORE_VEXRISCV for the VexRiscv SoCs, and SOC_CORE_VEXRISCV_FULL as well for
 * VexRiscv Full; PicoRV32 otherwise. */
#ifndef SOC_H
#define SOC_H

#include <stdint.h>
#include "spe_soc.h"

/* The address at which the core reads and writes device `a` (or the record buffer) past
 * its data cache: VexRiscv Full caches addresses with bit 31 clear, and the SoC's wrapper
 * of that core ignores bit 31, so the devices are there again at SOC_IO_ALIAS + a. */
#ifdef SOC_CORE_VEXRISCV_FULL
#define SOC_IO(a) ((a) | SOC_IO_ALIAS)
#else
#define SOC_IO(a) (a)
#endif

static inline uint32_t mmio_read(uint32_t addr)
{
    return *(volatile uint32_t *)SOC_IO(addr);
}

static inline void mmio_write(uint32_t addr, uint32_t v)
{
    *(volatile uint32_t *)SOC_IO(addr) = v;
}

#ifdef SOC_CORE_VEXRISCV
/* VexRiscv (LiteX configuration): the external interrupt lines go through a mask CSR at
 * 0xBC0 (a set bit enables that line) into the machine external interrupt; their levels
 * read at 0xFC0. Sets the mask (a set bit masks that IRQ, as PicoRV32's maskirq) and
 * returns the old one. */
static inline uint32_t soc_maskirq(uint32_t mask)
{
    uint32_t old;
    __asm__ volatile(".option push\n.option arch, +zicsr\ncsrrw %0, 0xbc0, %1\n.option pop"
                     : "=r"(old)
                     : "r"(~mask)
                     : "memory");
    return ~old;
}

/* crt0_vexriscv.S: `n` rounds of an ECALL and a misaligned load, each taken as an exception
 * and skipped; returns the exceptions taken. */
uint32_t traps(uint32_t n);
#define TRAPS_N 2000u
#else
/* PicoRV32 `maskirq rd, rs`: custom0 opcode (0001011), funct7 0000011, rs1 = the new mask
 * (a set bit masks that IRQ), rd = the old mask. */
static inline uint32_t soc_maskirq(uint32_t mask)
{
    uint32_t old;
    __asm__ volatile(".insn r 0x0b, 0, 3, %0, %1, x0" : "=r"(old) : "r"(mask) : "memory");
    return old;
}
#endif

/* The IRQs this software takes: the SPE buffer interrupt, and PicoRV32's own IRQ 1
 * (EBREAK/ECALL/illegal instruction) and IRQ 2 (bus error), which end the program with a
 * nonzero exit code instead of the core's trap state. IRQ 0 (timer) stays masked. */
#define SOC_IRQ_EBREAK 1u
#define SOC_IRQ_BUSERR 2u
#define SOC_IRQ_MASK_ALL 0xffffffffu
#define SOC_IRQ_MASK_RUN (~((1u << SOC_SPE_IRQ) | (1u << SOC_IRQ_EBREAK) | (1u << SOC_IRQ_BUSERR)))
#define SOC_IRQ_MASK_TRAPS (~((1u << SOC_IRQ_EBREAK) | (1u << SOC_IRQ_BUSERR)))

/* Exit codes of the program (main's return value, or soc_exit from a trap). */
/* EXIT_OK, EXIT_CRC, EXIT_SORT, EXIT_MATMUL (1 to 3): see workloads.h. */
#define EXIT_SPE_OWNED 4u /* PMBIDR.P = 1: the buffer is not ours */
#define EXIT_SPE_FAULT 5u /* a buffer fault or external abort stopped profiling */
#define EXIT_TRAPS 7u     /* VexRiscv: `traps` saw fewer exceptions than it raised */
#define EXIT_TRAP 0x100u  /* | the pending IRQ bits: EBREAK/ECALL/illegal or bus error */

/* Writes the exit code to the control block (the simulation stops there) and waits. */
void soc_exit(uint32_t code) __attribute__((noreturn));

/* Sends one byte over the UART, waiting while the transmitter is busy. */
void uart_putc(uint8_t b);

/* Called by the IRQ entry of crt0 with the bitmask of pending IRQs (PicoRV32's q1; on
 * VexRiscv the pending lines, or SOC_IRQ_EBREAK for an exception). */
void soc_irq(uint32_t pending);

#endif
