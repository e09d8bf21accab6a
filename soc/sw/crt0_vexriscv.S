/* crt0_vexriscv.S: reset and trap entry of the SoC program on VexRiscv (RV32I code,
 * machine mode, standard RISC-V privileged traps).
 *
 * 0x00  reset (the SoC ties externalResetVector to 0): jumps over the trap entry.
 * 0x10  trap entry (mtvec, direct mode): saves the caller-saved registers on the
 *       interrupted stack; an interrupt (mcause bit 31) calls soc_irq(pending) with the
 *       external lines that are high (CSR 0xFC0); an exception (EBREAK, ECALL, illegal
 *       instruction, misaligned or faulting access) calls soc_irq(1 << SOC_IRQ_EBREAK),
 *       which ends the program with EXIT_TRAP as on PicoRV32, except while `traps` runs
 *       (soc_trap_skip set): then the short path counts it (soc_traps) and returns past
 *       the instruction (mepc + 4). mret returns.
 * The same link.ld places both (its asserts: _start at 0, irq_entry at 0x10).
 */
    .section .text.start, "ax", @progbits
    .option norvc
    .option arch, +zicsr

    .globl _start
    .type _start, @function
_start:
    j       reset
    .size _start, . - _start

    .org 0x10
    .globl irq_entry
    .type irq_entry, @function
irq_entry:
    addi    sp, sp, -64
    sw      t0, 4(sp)
    sw      t1, 8(sp)
    csrr    t0, mcause
    bltz    t0, 3f                      /* an interrupt */
    la      t1, soc_trap_skip
    lw      t1, 0(t1)
    beqz    t1, 3f                      /* an exception outside `traps`: fatal */
    csrr    t0, mepc                    /* `traps`: count it, skip the instruction */
    addi    t0, t0, 4
    csrw    mepc, t0
    la      t0, soc_traps
    lw      t1, 0(t0)
    addi    t1, t1, 1
    sw      t1, 0(t0)
    lw      t0, 4(sp)
    lw      t1, 8(sp)
    addi    sp, sp, 64
    mret
3:  sw      ra, 0(sp)
    sw      t2, 12(sp)
    sw      a0, 16(sp)
    sw      a1, 20(sp)
    sw      a2, 24(sp)
    sw      a3, 28(sp)
    sw      a4, 32(sp)
    sw      a5, 36(sp)
    sw      a6, 40(sp)
    sw      a7, 44(sp)
    sw      t3, 48(sp)
    sw      t4, 52(sp)
    sw      t5, 56(sp)
    sw      t6, 60(sp)
    csrr    t0, mcause
    li      a0, 2                       /* 1 << SOC_IRQ_EBREAK: an exception */
    bgez    t0, 1f
    csrr    a0, 0xfc0                   /* an interrupt: the lines that are high */
1:  call    soc_irq
    lw      ra, 0(sp)
    lw      t0, 4(sp)
    lw      t1, 8(sp)
    lw      t2, 12(sp)
    lw      a0, 16(sp)
    lw      a1, 20(sp)
    lw      a2, 24(sp)
    lw      a3, 28(sp)
    lw      a4, 32(sp)
    lw      a5, 36(sp)
    lw      a6, 40(sp)
    lw      a7, 44(sp)
    lw      t3, 48(sp)
    lw      t4, 52(sp)
    lw      t5, 56(sp)
    lw      t6, 60(sp)
    addi    sp, sp, 64
    mret
    .size irq_entry, . - irq_entry

    .type reset, @function
reset:
    la      sp, __stack_top
    la      t0, irq_entry
    csrw    mtvec, t0
    csrw    0xbc0, zero                 /* every external line masked (soc_maskirq) */
    li      t0, 0x800                   /* mie.MEIE */
    csrw    mie, t0
    csrsi   mstatus, 0x8                /* mstatus.MIE */
    la      t0, __bss_start
    la      t1, __bss_end
1:  bgeu    t0, t1, 2f
    sw      zero, 0(t0)
    addi    t0, t0, 4
    j       1b
2:  call    main
    tail    soc_exit                    /* a0: main's return value, the exit code */
    .size reset, . - reset

/* traps(n): n rounds of an ECALL and a misaligned load (lw from an odd address), each an
 * exception of its own that the trap entry counts and skips; returns the count (2n when
 * every one trapped). Exceptions for the hooks: the op itself completes with EXCEPTION-GEN
 * (not RETIRED), the trap taken at write-back flushes what is younger. */
    .text
    .globl traps
    .type traps, @function
traps:
    la      t0, soc_trap_skip
    li      t1, 1
    sw      t1, 0(t0)
    la      t2, soc_traps
    sw      zero, 0(t2)
    la      a2, soc_trap_word
1:  beqz    a0, 2f
    ecall
    lw      a3, 1(a2)                   /* misaligned: address 4k + 1 */
    addi    a0, a0, -1
    j       1b
2:  sw      zero, 0(t0)
    lw      a0, 0(t2)
    ret
    .size traps, . - traps

#ifdef SOC_CORE_VEXRISCV_FULL
/* Marks a program built for VexRiscv Full, whose data cache covers addresses with bit 31
 * clear: soc.h reaches the devices and the record buffer at SOC_IO_ALIAS + their address.
 * `spe soc run --core vexriscv-full` looks for this function (soc/sim/src/elf.rs). */
    .globl vexriscv_full
    .type vexriscv_full, @function
vexriscv_full:
    ret
    .size vexriscv_full, . - vexriscv_full
#endif

    .bss
    .align  2
soc_trap_skip:
    .space  4
soc_traps:
    .space  4
soc_trap_word:
    .space  8
