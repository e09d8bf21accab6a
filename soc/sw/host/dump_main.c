/* Host harness for the tests: reads a buffer from stdin and writes its dump stream to
 * stdout (soc/dump/tests/c_dump.rs compares it with the Rust encoder and decodes it).
 *
 *     dump_main              one shot: spe_dump(buffer)
 *     dump_main N1 N2 ...    streaming: spe_dump_begin, then spe_dump_chunk with the next
 *                            N1, N2, ... bytes (the list repeats until the buffer is sent;
 *                            a 0 is an empty chunk), then spe_dump_end */
#include <stdio.h>
#include <stdlib.h>
#include "../spe_dump.h"

static void put_stdout(uint8_t b) { putchar(b); }

int main(int argc, char **argv)
{
    static uint8_t buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf, stdin);
    if (!feof(stdin)) {
        fprintf(stderr, "dump_main: input larger than %zu bytes\n", sizeof buf);
        return 2;
    }
    if (argc < 2) {
        spe_dump(buf, (uint32_t)n, put_stdout);
        return fflush(stdout) == 0 ? 0 : 2;
    }

    uint32_t sizes[64];
    int count = argc - 1, any = 0;
    if (count > 64) {
        fprintf(stderr, "dump_main: at most 64 chunk sizes\n");
        return 2;
    }
    for (int i = 0; i < count; i++) {
        char *end;
        unsigned long v = strtoul(argv[i + 1], &end, 10);
        if (*argv[i + 1] == '\0' || *end != '\0' || v > 0xffffffffUL) {
            fprintf(stderr, "dump_main: bad chunk size `%s`\n", argv[i + 1]);
            return 2;
        }
        sizes[i] = (uint32_t)v;
        any |= v != 0;
    }
    if (!any && n > 0) {
        fprintf(stderr, "dump_main: all chunk sizes are 0\n");
        return 2;
    }

    struct spe_dump_state st;
    spe_dump_begin(&st, put_stdout);
    size_t at = 0;
    /* One pass over the list at least, so empty chunks are sent even for an empty buffer. */
    for (int i = 0; at < n || i < count; i++) {
        size_t want = sizes[i % count];
        size_t len = want < n - at ? want : n - at;
        spe_dump_chunk(&st, buf + at, (uint32_t)len);
        at += len;
    }
    spe_dump_end(&st);
    return fflush(stdout) == 0 ? 0 : 2;
}
