/* spe_dump: the board side of docs/uart-protocol.md (see spe_dump.h). The host side, and
 * the reference encoder these bytes are tested against, is tb/fpga/src/uart.rs. */
#include "spe_dump.h"

#define SPE_DUMP_MAX_PAYLOAD 1024u

uint32_t spe_crc32(uint32_t crc, const uint8_t *bytes, uint32_t len)
{
    uint32_t c = ~crc;
    for (uint32_t i = 0; i < len; i++) {
        c ^= bytes[i];
        for (int k = 0; k < 8; k++)
            c = (c & 1u) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
    }
    return ~c;
}

static void put_le(spe_putc_fn putc, uint32_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        putc((uint8_t)(v >> (8 * i)));
}

/* One frame: sync, then kind, seq and len (little-endian), the payload, and the CRC of
 * everything after the sync bytes. */
static void frame(spe_putc_fn putc, uint8_t kind, uint16_t seq, const uint8_t *p, uint16_t len)
{
    uint8_t head[5] = {kind, (uint8_t)seq, (uint8_t)(seq >> 8), (uint8_t)len, (uint8_t)(len >> 8)};
    uint32_t crc = spe_crc32(spe_crc32(0, head, 5), p, len);
    putc('S');
    putc('P');
    for (int i = 0; i < 5; i++)
        putc(head[i]);
    for (uint16_t i = 0; i < len; i++)
        putc(p[i]);
    put_le(putc, crc, 4);
}

void spe_dump(const uint8_t *buf, uint32_t len, spe_putc_fn putc)
{
    uint16_t seq = 0;
    for (uint32_t at = 0; at < len; at += SPE_DUMP_MAX_PAYLOAD) {
        uint32_t n = len - at < SPE_DUMP_MAX_PAYLOAD ? len - at : SPE_DUMP_MAX_PAYLOAD;
        frame(putc, 'D', seq++, buf + at, (uint16_t)n);
    }
    /* End frame: the buffer's length and CRC-32. */
    uint32_t sum = spe_crc32(0, buf, len);
    uint8_t end[8];
    for (int i = 0; i < 4; i++) {
        end[i] = (uint8_t)(len >> (8 * i));
        end[4 + i] = (uint8_t)(sum >> (8 * i));
    }
    frame(putc, 'E', seq, end, 8);
}
