/* main: the SoC program. Profiles the workloads with the SPE unit and streams the records
 * over the UART (docs/uart-protocol.md) as one buffer: a piece at each buffer-full
 * interrupt, the rest and the end frame after the run. Exit code 0 when every check
 * passed (see soc.h and workloads.h for the others). */
#include "soc.h"
#include "spe_drv.h"
#include "workloads.h"

void soc_exit(uint32_t code)
{
    mmio_write(SOC_CTL_EXIT, code);
    for (;;)
        ;
}

void uart_putc(uint8_t b)
{
    while (mmio_read(SOC_UART_STATUS) & 1u)
        ;
    mmio_write(SOC_UART_DATA, b);
}

void soc_irq(uint32_t pending)
{
    /* EBREAK/ECALL/illegal instruction or bus error: a bug in this program. */
    if (pending & ((1u << SOC_IRQ_EBREAK) | (1u << SOC_IRQ_BUSERR)))
        soc_exit(EXIT_TRAP | pending);
    if (pending & (1u << SOC_SPE_IRQ))
        spe_irq();
}

int main(void)
{
    soc_maskirq(SOC_IRQ_MASK_TRAPS);
    uint32_t rc = spe_start();
    if (rc == EXIT_OK) {
        rc = workloads_selftest();
        /* Half the rounds, a context switch (stop and start again mid-buffer), the rest. */
        if (rc == EXIT_OK)
            rc = workloads_run(ROUNDS / 2u);
#ifdef SOC_CORE_VEXRISCV
        /* Exceptions taken while profiling (crt0_vexriscv.S): every one must trap. */
        if (rc == EXIT_OK && traps(TRAPS_N) != 2u * TRAPS_N)
            rc = EXIT_TRAPS;
#endif
        spe_switch();
        if (rc == EXIT_OK)
            rc = workloads_run(ROUNDS - ROUNDS / 2u);
        spe_stop();
    }
    uint32_t spe = spe_finish(); /* the stream always ends, even if empty */
    return (int)(rc != EXIT_OK ? rc : spe);
}
