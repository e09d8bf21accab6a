/* spe_dump: the board side of docs/uart-protocol.md (see spe_dump.h). The host side, and
 * the reference encoder these bytes are tested against, is soc/dump/src/lib.rs. */
#include "spe_dump.h"

#define SPE_DUMP_MAX_PAYLOAD 1024u

/* CRC-32 four bits at a time: crc_nibble[i] is the register after shifting the nibble i
 * through the reflected polynomial 0xEDB88320. Two look-ups per byte instead of eight
 * shift/xor steps: the dump runs in the interrupt handler, so its speed matters (RV32I,
 * no multiplier needed). */
static const uint32_t crc_nibble[16] = {
    0x00000000u, 0x1DB71064u, 0x3B6E20C8u, 0x26D930ACu,
    0x76DC4190u, 0x6B6B51F4u, 0x4DB26158u, 0x5005713Cu,
    0xEDB88320u, 0xF00F9344u, 0xD6D6A3E8u, 0xCB61B38Cu,
    0x9B64C2B0u, 0x86D3D2D4u, 0xA00AE278u, 0xBDBDF21Cu,
};

/* One byte into a CRC register kept in its inverted (running) form. */
static inline uint32_t crc_step(uint32_t c, uint8_t b)
{
    c ^= b;
    c = (c >> 4) ^ crc_nibble[c & 15u];
    c = (c >> 4) ^ crc_nibble[c & 15u];
    return c;
}

uint32_t spe_crc32(uint32_t crc, const uint8_t *bytes, uint32_t len)
{
    uint32_t c = ~crc;
    for (uint32_t i = 0; i < len; i++)
        c = crc_step(c, bytes[i]);
    return ~c;
}

static void put_le32(spe_putc_fn putc, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        putc((uint8_t)(v >> (8 * i)));
}

/* One frame: sync, then kind, seq and len (little-endian), the payload, and the CRC of
 * everything after the sync bytes. The payload is read once: each byte is sent and added
 * to the frame's CRC and, for data frames (`whole` != 0), to the whole buffer's CRC. */
static void frame(struct spe_dump_state *st, uint8_t kind, const uint8_t *p, uint16_t len,
                  int whole)
{
    spe_putc_fn putc = st->putc;
    uint8_t head[5] = {kind, (uint8_t)st->seq, (uint8_t)(st->seq >> 8), (uint8_t)len,
                       (uint8_t)(len >> 8)};
    uint32_t fc = ~0u;
    uint32_t bc = ~st->crc;
    putc('S');
    putc('P');
    for (int i = 0; i < 5; i++) {
        putc(head[i]);
        fc = crc_step(fc, head[i]);
    }
    for (uint16_t i = 0; i < len; i++) {
        uint8_t b = p[i];
        putc(b);
        fc = crc_step(fc, b);
        if (whole)
            bc = crc_step(bc, b);
    }
    put_le32(putc, ~fc);
    if (whole) {
        st->crc = ~bc;
        st->total += len;
    }
    st->seq++;
}

void spe_dump_begin(struct spe_dump_state *st, spe_putc_fn putc)
{
    st->putc = putc;
    st->total = 0;
    st->crc = 0;
    st->seq = 0;
}

void spe_dump_chunk(struct spe_dump_state *st, const uint8_t *buf, uint32_t len)
{
    while (len > 0) {
        uint32_t n = len < SPE_DUMP_MAX_PAYLOAD ? len : SPE_DUMP_MAX_PAYLOAD;
        frame(st, 'D', buf, (uint16_t)n, 1);
        buf += n;
        len -= n;
    }
}

void spe_dump_end(struct spe_dump_state *st)
{
    /* End frame: the buffer's length and CRC-32, little-endian. */
    uint8_t end[8];
    for (int i = 0; i < 4; i++) {
        end[i] = (uint8_t)(st->total >> (8 * i));
        end[4 + i] = (uint8_t)(st->crc >> (8 * i));
    }
    frame(st, 'E', end, 8, 0);
}

void spe_dump(const uint8_t *buf, uint32_t len, spe_putc_fn putc)
{
    struct spe_dump_state st;
    spe_dump_begin(&st, putc);
    spe_dump_chunk(&st, buf, len);
    spe_dump_end(&st);
}
