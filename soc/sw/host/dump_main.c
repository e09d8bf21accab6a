/* Host harness for the tests: reads a buffer from stdin and writes its dump stream to
 * stdout through spe_dump (tb/fpga/tests/c_dump.rs compares it with the Rust encoder). */
#include <stdio.h>
#include <stdlib.h>
#include "../spe_dump.h"

static void put_stdout(uint8_t b) { putchar(b); }

int main(void)
{
    static uint8_t buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf, stdin);
    if (!feof(stdin)) {
        fprintf(stderr, "dump_main: input larger than %zu bytes\n", sizeof buf);
        return 2;
    }
    spe_dump(buf, (uint32_t)n, put_stdout);
    return fflush(stdout) == 0 ? 0 : 2;
}
