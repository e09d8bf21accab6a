/* spe_dump: send a buffer over a byte channel in the framed, checksummed format of
 * docs/uart-protocol.md ('S' 'P', kind, seq, len, payload, CRC-32), for `spe fpga capture`.
 * Freestanding C: no library calls, so it builds for the SoC (riscv64-unknown-elf) and,
 * in the tests, for the host. */
#ifndef SPE_DUMP_H
#define SPE_DUMP_H

#include <stdint.h>

/* Writes one byte to the channel (the UART's transmit routine, which waits while busy). */
typedef void (*spe_putc_fn)(uint8_t byte);

/* CRC-32 as zlib computes it (reflected 0xEDB88320, all-ones initial value and final
 * XOR), continued from `crc` (start with 0). */
uint32_t spe_crc32(uint32_t crc, const uint8_t *bytes, uint32_t len);

/* Sends `len` bytes of `buf` as data frames of at most 1024 bytes, then the end frame. */
void spe_dump(const uint8_t *buf, uint32_t len, spe_putc_fn putc);

#endif
