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

/* Streaming form: one logical buffer sent piece by piece, for a buffer that is produced
 * (and its memory reused) while it is being sent, such as the SPE buffer drained at each
 * buffer-full interrupt.
 *
 *     struct spe_dump_state st;
 *     spe_dump_begin(&st, putc);
 *     spe_dump_chunk(&st, a, na);   // any number of calls, any lengths (0 sends nothing)
 *     spe_dump_chunk(&st, b, nb);
 *     spe_dump_end(&st);            // end frame: total length and CRC of a ++ b ++ ...
 *
 * Each chunk goes out at once as data frames of at most 1024 bytes, so frame boundaries
 * follow the chunks; the host's decoder accepts any frame length from 1 to 1024 and
 * returns the concatenation of all chunks. Nothing is buffered: `buf` may be reused as
 * soon as spe_dump_chunk returns. */
struct spe_dump_state {
    spe_putc_fn putc;
    uint32_t total; /* bytes sent in data frames so far (mod 2^32) */
    uint32_t crc;   /* CRC-32 of those bytes, as spe_crc32 returns it */
    uint16_t seq;   /* number of the next frame */
};

void spe_dump_begin(struct spe_dump_state *st, spe_putc_fn putc);
void spe_dump_chunk(struct spe_dump_state *st, const uint8_t *buf, uint32_t len);
void spe_dump_end(struct spe_dump_state *st);

/* One shot: sends `len` bytes of `buf` as data frames of at most 1024 bytes, then the end
 * frame (spe_dump_begin, one spe_dump_chunk, spe_dump_end). */
void spe_dump(const uint8_t *buf, uint32_t len, spe_putc_fn putc);

#endif
