/* workloads: see workloads.h. The hot functions are noinline so that each is one symbol
 * in the ELF, and the profile can name it. */
#include "workloads.h"

#define NOINLINE __attribute__((noinline))

/* CRC-32 of data followed by its own CRC (little-endian): a constant for any data. */
#define CRC32_RESIDUE 0x2144DF1Cu

/* The CRC runs over the sort input before it is sorted: one buffer for both (8 KiB RAM). */
static int32_t sort_buf[SORT_N];
_Static_assert(CRC_BYTES <= sizeof sort_buf, "the CRC's data is the sort buffer");
static int32_t mat_a[MAT_N * MAT_N], mat_b[MAT_N * MAT_N], mat_c[MAT_N * MAT_N];

NOINLINE void fill_random(uint32_t *x, uint32_t *dst, uint32_t n)
{
    uint32_t s = *x;
    for (uint32_t i = 0; i < n; i++) {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        dst[i] = s;
    }
    *x = s;
}

NOINLINE uint32_t crc32_bitwise(uint32_t crc, const uint8_t *p, uint32_t len)
{
    uint32_t c = ~crc;
    for (uint32_t i = 0; i < len; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
    }
    return ~c;
}

NOINLINE void shell_sort(int32_t *a, uint32_t n)
{
    static const uint8_t gaps[] = {132, 57, 23, 10, 4, 1};
    for (uint32_t g = 0; g < sizeof gaps; g++) {
        uint32_t gap = gaps[g];
        for (uint32_t i = gap; i < n; i++) {
            int32_t v = a[i];
            uint32_t j = i;
            while (j >= gap && a[j - gap] > v) {
                a[j] = a[j - gap];
                j -= gap;
            }
            a[j] = v;
        }
    }
}

NOINLINE void matmul(const int32_t *a, const int32_t *b, int32_t *c)
{
    for (uint32_t i = 0; i < MAT_N; i++) {
        for (uint32_t j = 0; j < MAT_N; j++) {
            uint32_t s = 0; /* unsigned: wrapping sums and products are defined */
            for (uint32_t k = 0; k < MAT_N; k++)
                s += (uint32_t)a[i * MAT_N + k] * (uint32_t)b[k * MAT_N + j];
            c[i * MAT_N + j] = (int32_t)s;
        }
    }
}

#ifdef SPE_BRANCHY
/* Two data-dependent forward branches per element, each taken for about half of random
 * data: a static predictor (forward: not taken) is wrong every time one is taken, so the
 * instructions fetched after it are flushed. */
NOINLINE uint32_t branchy(const uint32_t *a, uint32_t n, uint32_t s)
{
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v = a[i];
        if (v & 1u)
            s += v >> 7;
        else
            s ^= v;
        if (v & 0x100u)
            s = (s << 3) | (s >> 29);
    }
    return s;
}

/* branchy's pass from 0, computed without a data-dependent branch. */
static uint32_t check_branchy(const uint32_t *a, uint32_t n, uint32_t got)
{
    uint32_t s = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v = a[i];
        uint32_t odd = 0u - (v & 1u);
        s = (odd & (s + (v >> 7))) | (~odd & (s ^ v));
        uint32_t rot = 0u - ((v >> 8) & 1u);
        s = (rot & ((s << 3) | (s >> 29))) | (~rot & s);
    }
    return s == got ? EXIT_OK : EXIT_BRANCHY;
}
#endif

#ifdef SPE_MISSES
NOINLINE uint32_t misses(const uint32_t *a, const uint32_t *b, uint32_t n, uint32_t s)
{
    for (uint32_t i = 0; i < n; i++)
        s += a[i] + b[i];
    return s;
}

/* MISSES_PASSES of misses' sums from 0, taken as two passes, one array each: one miss
 * per eight words (a cache line). */
static uint32_t check_misses(const uint32_t *a, const uint32_t *b, uint32_t n, uint32_t got)
{
    uint32_t s = 0;
    for (uint32_t i = 0; i < n; i++)
        s += a[i];
    for (uint32_t i = 0; i < n; i++)
        s += b[i];
    return MISSES_PASSES * s == got ? EXIT_OK : EXIT_MISSES;
}

/* The words 4 KiB below sort_buf: on the SoC the program's own code (a cache index
 * shared with sort_buf's), on the host an array of its own. */
#ifdef HOST
static uint32_t misses_far[SORT_N];
#define MISSES_FAR misses_far
#else
#define MISSES_FAR ((const uint32_t *)((uintptr_t)sort_buf - 4096u))
extern const char __text_end[]; /* link.ld: the end of the code */
#endif

/* The far array must be code, which nothing writes between misses and its check (the
 * IRQ handlers write data and stack): below sort_buf by 4 KiB, and ending before the code
 * does. A program that grew or shrank past that fails with EXIT_MISSES. */
static int misses_far_is_code(void)
{
#ifdef HOST
    return 1;
#else
    return (uintptr_t)sort_buf >= 4096u &&
           (uintptr_t)(MISSES_FAR + SORT_N) <= (uintptr_t)__text_end;
#endif
}
#endif

/* The checks below run in every round too: they are part of the profiled program. */

/* The CRC appended to its data gives the residue: checks crc32_bitwise against itself
 * (the known answer is in workloads_selftest). */
static uint32_t check_crc(uint32_t crc)
{
    uint8_t le[4] = {(uint8_t)crc, (uint8_t)(crc >> 8), (uint8_t)(crc >> 16), (uint8_t)(crc >> 24)};
    return crc32_bitwise(crc, le, 4) == CRC32_RESIDUE ? EXIT_OK : EXIT_CRC;
}

/* Ascending order, and the same multiset as far as a sum and an xor can tell. */
static uint32_t check_sorted(const int32_t *a, uint32_t n, uint32_t sum, uint32_t xr)
{
    for (uint32_t i = 1; i < n; i++)
        if (a[i - 1] > a[i])
            return EXIT_SORT;
    for (uint32_t i = 0; i < n; i++) {
        sum -= (uint32_t)a[i];
        xr ^= (uint32_t)a[i];
    }
    return sum == 0 && xr == 0 ? EXIT_OK : EXIT_SORT;
}

/* The sum of c = a * b is sum over k of (column k of a summed) * (row k of b summed). */
static uint32_t check_product(const int32_t *a, const int32_t *b, const int32_t *c)
{
    uint32_t want = 0, got = 0;
    for (uint32_t k = 0; k < MAT_N; k++) {
        uint32_t col = 0, row = 0;
        for (uint32_t i = 0; i < MAT_N; i++) {
            col += (uint32_t)a[i * MAT_N + k];
            row += (uint32_t)b[k * MAT_N + i];
        }
        want += col * row;
    }
    for (uint32_t i = 0; i < MAT_N * MAT_N; i++)
        got += (uint32_t)c[i];
    return got == want ? EXIT_OK : EXIT_MATMUL;
}

uint32_t workloads_selftest(void)
{
    static const uint8_t digits[9] = {'1', '2', '3', '4', '5', '6', '7', '8', '9'};
    if (crc32_bitwise(0, digits, 9) != 0xCBF43926u)
        return EXIT_CRC;

    static const int32_t unsorted[8] = {5, -1, 3, 2147483647, -2147483647 - 1, 0, 3, -7};
    static const int32_t sorted[8] = {-2147483647 - 1, -7, -1, 0, 3, 3, 5, 2147483647};
    for (uint32_t i = 0; i < 8; i++)
        sort_buf[i] = unsorted[i];
    shell_sort(sort_buf, 8);
    for (uint32_t i = 0; i < 8; i++)
        if (sort_buf[i] != sorted[i])
            return EXIT_SORT;

    /* (2 * identity) * b == b + b. */
    for (uint32_t i = 0; i < MAT_N * MAT_N; i++) {
        mat_a[i] = 0;
        mat_b[i] = (int32_t)i + 1;
    }
    for (uint32_t i = 0; i < MAT_N; i++)
        mat_a[i * (MAT_N + 1)] = 2;
    matmul(mat_a, mat_b, mat_c);
    for (uint32_t i = 0; i < MAT_N * MAT_N; i++)
        if (mat_c[i] != 2 * mat_b[i])
            return EXIT_MATMUL;
    return EXIT_OK;
}

uint32_t workloads_run(uint32_t rounds)
{
    uint32_t x = 0x2545F491u;
    for (uint32_t r = 0; r < rounds; r++) {
        fill_random(&x, (uint32_t *)sort_buf, SORT_N);
        uint32_t crc = crc32_bitwise(0, (const uint8_t *)sort_buf, CRC_BYTES);
        if (check_crc(crc) != EXIT_OK)
            return EXIT_CRC;

#ifdef SPE_BRANCHY
        /* BRANCHY_PASSES passes, chained (each from the last one's result, so that none
         * is dead code); the first one checked. */
        uint32_t first = branchy((const uint32_t *)sort_buf, SORT_N, 0);
        uint32_t b = first;
        for (uint32_t p = 1; p < BRANCHY_PASSES; p++)
            b = branchy((const uint32_t *)sort_buf, SORT_N, b);
        if (check_branchy((const uint32_t *)sort_buf, SORT_N, first) != EXIT_OK || b == first)
            return EXIT_BRANCHY;
#endif

#ifdef SPE_MISSES
        if (!misses_far_is_code())
            return EXIT_MISSES;
        uint32_t m = 0;
        for (uint32_t p = 0; p < MISSES_PASSES; p++)
            m = misses((const uint32_t *)sort_buf, MISSES_FAR, SORT_N, m);
        if (check_misses((const uint32_t *)sort_buf, MISSES_FAR, SORT_N, m) != EXIT_OK)
            return EXIT_MISSES;
#endif

        uint32_t sum = 0, xr = 0;
        for (uint32_t i = 0; i < SORT_N; i++) {
            sum += (uint32_t)sort_buf[i];
            xr ^= (uint32_t)sort_buf[i];
        }
        shell_sort(sort_buf, SORT_N);
        if (check_sorted(sort_buf, SORT_N, sum, xr) != EXIT_OK)
            return EXIT_SORT;

        /* Entries 0..255: __mulsi3 loops once per bit of its second operand. */
        fill_random(&x, (uint32_t *)mat_a, MAT_N * MAT_N);
        fill_random(&x, (uint32_t *)mat_b, MAT_N * MAT_N);
        for (uint32_t i = 0; i < MAT_N * MAT_N; i++) {
            mat_a[i] &= 0xff;
            mat_b[i] &= 0xff;
        }
        matmul(mat_a, mat_b, mat_c);
        if (check_product(mat_a, mat_b, mat_c) != EXIT_OK)
            return EXIT_MATMUL;
    }
    return EXIT_OK;
}

#ifdef HOST
#include <stdio.h>

/* Host check: the same self-test and rounds as on the SoC. */
int main(void)
{
    uint32_t rc = workloads_selftest();
    if (rc == EXIT_OK)
        rc = workloads_run(ROUNDS);
    printf("workloads: %u rounds, exit code %u\n", (unsigned)ROUNDS, (unsigned)rc);
    return rc == EXIT_OK ? 0 : 1;
}
#endif
