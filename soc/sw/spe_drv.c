/* spe_drv: see spe_drv.h. Register names, addresses and fields come from gen/spe_regs.h;
 * the bus is 32 bits wide, each 64-bit register is two words (low at +0, high at +4), and
 * a word write keeps the other half. Only the low halves are written for registers whose
 * high half is all RES0; the buffer's address registers get both halves, high first. */
#include "spe_drv.h"
#include "soc.h"
#include "spe_dump.h"
#include "spe_regs.h"


/* PMBSR_EL1 syndrome values (Arm ARM, PMBSR_EL1): EC = 0 buffer management, BSC = 1
 * buffer full. */
#define PMBSR_EC_BUF 0u
#define PMBSR_BSC_MASK 0x3fu
#define PMBSR_BSC_FULL 1u

#define BUF_LIMIT (SOC_BUF_BASE + SOC_BUF_SIZE)

/* The values written, checked against the fields at compile time: nothing lands in a
 * reserved bit. */
#define PMSCR_VAL ((uint32_t)(SPE_PMSCR_EL1_E0SPE_MASK | SPE_PMSCR_EL1_E1SPE_MASK))
#define PMBLIMITR_VAL ((uint32_t)(BUF_LIMIT | SPE_PMBLIMITR_EL1_E_MASK)) /* FM = 00: fill */
_Static_assert((BUF_LIMIT & ~SPE_PMBLIMITR_EL1_LIMIT_MASK) == 0, "buffer limit not 4 KiB aligned");
_Static_assert((SOC_BUF_BASE & 63u) == 0, "buffer base not aligned to the 64-byte records");
_Static_assert(SPE_INTERVAL % 256u == 0 && (SPE_INTERVAL & ~SPE_PMSIRR_EL1_INTERVAL_MASK) == 0,
               "SPE_INTERVAL must be a multiple of 256 that fits PMSIRR_EL1.INTERVAL");

volatile struct spe_stats spe_stats;
static struct spe_dump_state dump;
static int no_records; /* set when the buffer holds nothing to send (owned, or faulted) */

static uint32_t spe_read(uint32_t reg)
{
    return mmio_read(SOC_SPE_LO(reg));
}

static void spe_write(uint32_t reg, uint32_t lo)
{
    mmio_write(SOC_SPE_LO(reg), lo);
}

static void spe_write64(uint32_t reg, uint32_t hi, uint32_t lo)
{
    mmio_write(SOC_SPE_HI(reg), hi);
    mmio_write(SOC_SPE_LO(reg), lo);
}

/* The smallest interval the unit recommends: PMSIDR_EL1.Interval as the Linux driver
 * decodes it (arm_spe_pmu_set_min_interval; the reserved
 * code 1 and codes above 8 give 4096). */
static uint32_t min_interval(void)
{
    static const uint16_t by_code[9] = {256, 4096, 512, 768, 1024, 1536, 2048, 3072, 4096};
    uint32_t code = (spe_read(SPE_PMSIDR_EL1_ADDR) & (uint32_t)SPE_PMSIDR_EL1_Interval_MASK) >>
                    SPE_PMSIDR_EL1_Interval_SHIFT;
    return code < 9 ? by_code[code] : 4096u;
}

/* PSB CSYNC; DSB. This SoC gives the core's PSB as a memory-mapped request: the write
 * raises the unit's psb_req, which stays high until psb_done; then every record of an op
 * sampled before it is in the buffer (or dropped) and PMBPTR is past it. */
static void psb_csync(void)
{
    mmio_write(SOC_CTL_PSB, 1u);
    while (mmio_read(SOC_CTL_PSB) & 1u)
        ;
}

/* The record buffer: the RAM the SoC reports at CTL+12 fills the top of the BUF window
 * (a board build may have less than the window), so the limit is the window's end. */
static uint32_t buf_base = SOC_BUF_BASE;

/* The AUX head: the next record to send. The buffer-full handler rewinds it; a context
 * switch keeps it, so profiling resumes mid-buffer. */
static uint32_t head = SOC_BUF_BASE;

uint32_t spe_start(void)
{
    spe_dump_begin(&dump, uart_putc);
    no_records = 1;
    if (spe_read(SPE_PMBIDR_EL1_ADDR) & (uint32_t)SPE_PMBIDR_EL1_P_MASK)
        return EXIT_SPE_OWNED;
    no_records = 0;
    uint32_t bytes = mmio_read(SOC_CTL_BUF_BYTES);
    if (bytes - 64u > SOC_BUF_SIZE - 64u || (bytes & 63u))
        bytes = SOC_BUF_SIZE; /* not a size this map can hold: the whole window */
    buf_base = BUF_LIMIT - bytes;
    head = buf_base;
    uint32_t interval = SPE_INTERVAL;
    uint32_t min = min_interval();
    if (interval < min)
        interval = min;


    /* The order of Linux's arm_spe_pmu_start: first the buffer
     * (arm_spe_perf_aux_output_begin: pointer, then limit with E, fill mode), then the
     * filters off, the interval with jitter and a zero counter, and PMSCR last. */
    spe_write64(SPE_PMBPTR_EL1_ADDR, 0, buf_base);
    spe_write64(SPE_PMBLIMITR_EL1_ADDR, 0, PMBLIMITR_VAL);
    spe_write(SPE_PMSFCR_EL1_ADDR, 0);
    spe_write(SPE_PMSEVFR_EL1_ADDR, 0);
    spe_write(SPE_PMSLATFR_EL1_ADDR, 0);
    spe_write(SPE_PMSIRR_EL1_ADDR, interval | (uint32_t)SPE_PMSIRR_EL1_RND_MASK);
    spe_write(SPE_PMSICR_EL1_ADDR, 0);
    /* Sampling at EL0 and EL1; no timestamp, physical address or context packets. */
    spe_write(SPE_PMSCR_EL1_ADDR, PMSCR_VAL);

    soc_maskirq(SOC_IRQ_MASK_RUN);
    return 0;
}

void spe_stop(void)
{
    /* arm_spe_pmu_disable_and_drain_local: sampling off, PSB (records in flight land),
     * buffer off. */
    spe_write(SPE_PMSCR_EL1_ADDR, 0);
    psb_csync();
    spe_write(SPE_PMBLIMITR_EL1_ADDR, 0);
}

/* Sends the records in [head, PMBPTR) as the next piece of the dump stream. */
static void send_filled(void)
{
    uint32_t ptr = spe_read(SPE_PMBPTR_EL1_ADDR);
    if (ptr < head || ptr > BUF_LIMIT)
        ptr = head; /* not ours: send nothing */
    uint32_t n = ptr - head;
    spe_dump_chunk(&dump, (const uint8_t *)SOC_IO(head), n);
    spe_stats.bytes += n;
    head = ptr;
}

/* Handles PMBSR with S = 1; returns 1 when profiling may resume. */
static int service(uint32_t sr)
{
    uint32_t ec = (sr & (uint32_t)SPE_PMBSR_EL1_EC_MASK) >> SPE_PMBSR_EL1_EC_SHIFT;
    spe_stats.irqs++;
    if (sr & (uint32_t)SPE_PMBSR_EL1_COLL_MASK)
        spe_stats.collisions++;
    if (ec == PMBSR_EC_BUF && (sr & PMBSR_BSC_MASK) == PMBSR_BSC_FULL &&
        !(sr & (uint32_t)SPE_PMBSR_EL1_EA_MASK)) {
        /* Buffer full. This unit sets DL with it when the record that found no room is
         * lost; like the Linux driver (PERF_AUX_FLAG_TRUNCATED) that is counted, not
         * fatal. */
        spe_stats.fills++;
        if (sr & (uint32_t)SPE_PMBSR_EL1_DL_MASK)
            spe_stats.lost++;
        send_filled();
        head = buf_base;
        spe_write64(SPE_PMBPTR_EL1_ADDR, 0, buf_base);
        return 1;
    }
    /* A fault, an external abort or an unknown syndrome: stop profiling. */
    if (spe_stats.faults++ == 0)
        spe_stats.fault_pmbsr = sr;
    no_records = 1;
    spe_write(SPE_PMSCR_EL1_ADDR, 0);
    spe_write(SPE_PMBLIMITR_EL1_ADDR, 0);
    return 0;
}

/* arm_spe_pmu_stop then arm_spe_pmu_start, as at a context switch: stop with the PSB, send
 * what was written (the head moves to PMBPTR), save PMSICR; start again at the head,
 * mid-buffer, with the saved counter. */
void spe_switch(void)
{
    soc_maskirq(SOC_IRQ_MASK_TRAPS);
    spe_stop();
    psb_csync();
    uint32_t sr = spe_read(SPE_PMBSR_EL1_ADDR);
    if (sr & (uint32_t)SPE_PMBSR_EL1_S_MASK) {
        if (!service(sr))
            return; /* a fault: profiling stays off */
        spe_write(SPE_PMBSR_EL1_ADDR, 0);
    } else {
        send_filled();
    }
    uint32_t count = spe_read(SPE_PMSICR_EL1_ADDR);
    spe_stats.switches++;
    spe_write64(SPE_PMBPTR_EL1_ADDR, 0, head);
    spe_write64(SPE_PMBLIMITR_EL1_ADDR, 0, PMBLIMITR_VAL);
    spe_write(SPE_PMSICR_EL1_ADDR, count);
    spe_write(SPE_PMSCR_EL1_ADDR, PMSCR_VAL);
    soc_maskirq(SOC_IRQ_MASK_RUN);
}

void spe_irq(void)
{
    psb_csync(); /* arm_spe_pmu_buf_get_fault_act: PSB before PMBSR */
    uint32_t sr = spe_read(SPE_PMBSR_EL1_ADDR);
    if (!(sr & (uint32_t)SPE_PMBSR_EL1_S_MASK)) {
        /* PicoRV32 latches the level IRQ again while the handler clears it. */
        spe_stats.spurious++;
        return;
    }
    service(sr);
    /* Clear the syndrome: PMBIRQ drops and, after a buffer-full, profiling resumes. */
    spe_write(SPE_PMBSR_EL1_ADDR, 0);
}

uint32_t spe_finish(void)
{
    soc_maskirq(SOC_IRQ_MASK_TRAPS);
    psb_csync();
    uint32_t sr = spe_read(SPE_PMBSR_EL1_ADDR);
    if (sr & (uint32_t)SPE_PMBSR_EL1_S_MASK) {
        service(sr); /* a buffer-full sends its records and rewinds the pointer */
        spe_write(SPE_PMBSR_EL1_ADDR, 0);
    }
    if (!no_records)
        send_filled();
    spe_dump_end(&dump);
    return spe_stats.faults ? EXIT_SPE_FAULT : 0;
}
