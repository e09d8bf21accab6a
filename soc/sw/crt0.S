/* crt0.S: reset and interrupt entry of the SoC program on PicoRV32 (RV32I, machine mode).
 *
 * 0x00  reset: jumps over the IRQ entry to `reset`.
 * 0x10  PROGADDR_IRQ: saves the caller-saved registers on the interrupted stack, calls
 *       soc_irq(q1 = pending IRQs) in C, restores them and returns with retirq (q0 holds
 *       the return address; IRQs are disabled until retirq).
 *
 * PicoRV32's IRQ instructions are custom0 (opcode 0001011) R-type words; funct7 selects
 * the operation, rs1 names the source (a q register for getq), rd the destination:
 *   getq  rd, qs   funct7 0000000, rs1 = qs
 *   retirq         funct7 0000010, all register fields 0
 */
    .section .text.start, "ax", @progbits
    .option norvc

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
    sw      ra, 0(sp)
    sw      t0, 4(sp)
    sw      t1, 8(sp)
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
    .insn r 0x0b, 0, 0, a0, x1, x0      /* getq a0, q1: the pending-IRQ bitmask */
    call    soc_irq
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
    .insn r 0x0b, 0, 2, x0, x0, x0      /* retirq: pc = q0, IRQs enabled again */
    .size irq_entry, . - irq_entry

    .type reset, @function
reset:
    la      sp, __stack_top
    la      t0, __bss_start
    la      t1, __bss_end
1:  bgeu    t0, t1, 2f
    sw      zero, 0(t0)
    addi    t0, t0, 4
    j       1b
2:  call    main
    tail    soc_exit                    /* a0: main's return value, the exit code */
    .size reset, . - reset
