/* spe_drv: a minimal driver for the SPE unit on the SoC, after the Linux driver
 * (drivers/perf/arm_spe_pmu.c): program the filters and interval, the buffer, then
 * PMSCR; drain the buffer over the UART at each buffer-full interrupt (one logical dump
 * stream for the whole run, see spe_dump.h); stop in the Linux order. */
#ifndef SPE_DRV_H
#define SPE_DRV_H

#include <stdint.h>

/* Sampling interval in retired operations (PMSIRR_EL1.INTERVAL, with RND); raised to the
 * unit's minimum (PMSIDR_EL1.Interval) when below it. A multiple of 256. */
#ifndef SPE_INTERVAL
#define SPE_INTERVAL 1024u
#endif

/* Counters kept by the interrupt handler (read them after spe_finish). */
struct spe_stats {
    uint32_t irqs;      /* handler entries with PMBSR.S = 1 */
    uint32_t spurious;  /* handler entries with PMBSR.S = 0 (the level IRQ latched again) */
    uint32_t fills;     /* buffer-full events drained */
    uint32_t lost;      /* of those, with PMBSR.DL: the record that found no room is lost */
    uint32_t collisions;/* PMBSR.COLL seen (sticky; cleared with PMBSR) */
    uint32_t faults;    /* any other syndrome: profiling was stopped */
    uint32_t fault_pmbsr; /* PMBSR of the first such syndrome */
    uint32_t bytes;     /* record bytes sent */
    uint32_t switches;  /* context switches (stop with a PSB, send, start again) */
};
extern volatile struct spe_stats spe_stats;

/* Starts the dump stream and profiling; unmasks the SPE IRQ. Returns 0, or EXIT_SPE_OWNED
 * when PMBIDR.P says the buffer belongs to a higher EL (then spe_finish sends an empty
 * buffer). */
uint32_t spe_start(void);

/* Stops profiling: PMSCR_EL1 = 0, PSB CSYNC (records in flight land), PMBLIMITR_EL1 = 0
 * (the pointer is kept). */
void spe_stop(void);

/* After spe_stop (or a failed spe_start): masks the SPE IRQ, handles a syndrome raised meanwhile, sends the rest
 * of the buffer and the end frame. Returns 0, or EXIT_SPE_FAULT when a fault stopped
 * profiling during the run. */
uint32_t spe_finish(void);

/* A context switch: stops profiling with a PSB (Linux's stop), sends the records written
 * so far, and starts again where the buffer was left (Linux's start, PMSICR restored). */
void spe_switch(void);
/* The buffer-management interrupt (from soc_irq when the SPE IRQ is pending). */
void spe_irq(void);

#endif
