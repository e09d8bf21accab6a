/* spe_soc.h: the memory map of the PicoRV32 SoC around the SPE unit.
 * Placeholder with the agreed names and values; the SoC build generates this file. */
#ifndef SPE_SOC_H
#define SPE_SOC_H

#define SOC_RAM_BASE   0x00000000u  /* code, data, stack: 8 KiB, byte-writable */
#define SOC_RAM_SIZE   0x00002000u
#define SOC_BUF_BASE   0x00010000u  /* SPE record buffer RAM: 4 KiB, written by the SPE unit, read-only to the core (32-bit reads) */
#define SOC_BUF_SIZE   0x00001000u
#define SOC_UART_BASE  0x02000000u
#define SOC_UART_DATA  (SOC_UART_BASE + 0x0u) /* write: send the low byte (8N1) */
#define SOC_UART_STATUS (SOC_UART_BASE + 0x4u) /* read: bit 0 = transmitter busy */
#define SOC_SPE_BASE   0x03000000u /* SPE register port address A at SOC_SPE_BASE + 8*A; low 32 bits at +0, high 32 bits at +4 */
#define SOC_CTL_BASE   0x04000000u
#define SOC_CTL_EXIT   (SOC_CTL_BASE + 0x0u) /* write: end of program; the value is the exit code (0 = success). The simulation stops here; on an FPGA it lights the LEDs */
#define SOC_CTL_CYCLES (SOC_CTL_BASE + 0x4u) /* read: free-running cycle counter, low 32 bits */
#define SOC_SPE_IRQ    4u          /* PicoRV32 irq line of PMBIRQ (level, high while PMBSR.S = 1) */

#endif
