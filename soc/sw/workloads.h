/* workloads: the programs profiled on the SoC, each a separate hot function. Plain C with
 * no library calls: built for the SoC and, with -DHOST, for the host (tests). */
#ifndef WORKLOADS_H
#define WORKLOADS_H

#include <stdint.h>

/* Rounds of the three workloads; the default makes the SoC program retire about 1.5
 * million instructions (see README.md). */
#ifndef ROUNDS
#define ROUNDS 2
#endif

/* Exit codes of the checks (the SoC program's exit codes 1 to 3; soc.h has the rest). */
#define EXIT_OK 0u
#define EXIT_CRC 1u    /* crc32_bitwise disagrees with the known answer or with itself */
#define EXIT_SORT 2u   /* shell_sort left the array unsorted or not a permutation */
#define EXIT_MATMUL 3u /* matmul's result fails its checksum */
#define EXIT_BRANCHY 6u /* branchy disagrees with its branch-free twin (SPE_BRANCHY) */
#define EXIT_MISSES 8u /* misses disagrees with the same sums taken line by line, or its far
                        * array is not all code (SPE_MISSES) */

#ifndef SORT_N
#define SORT_N 384    /* ints sorted per round (VexRiscv Full: 320, to leave RAM for misses) */
#endif
#define CRC_BYTES (4 * SORT_N) /* bytes checksummed per round: the sort input */
#define MAT_N 10      /* matrix side */

/* xorshift32 fill of `n` words from state `*x` (never 0). */
void fill_random(uint32_t *x, uint32_t *dst, uint32_t n);
/* CRC-32 (zlib's), one bit at a time without a table, continued from `crc` (start 0). */
uint32_t crc32_bitwise(uint32_t crc, const uint8_t *p, uint32_t len);
/* Shell sort (gaps 1, 4, 10, 23, 57, 132) of `n` ints, ascending. */
void shell_sort(int32_t *a, uint32_t n);
/* c = a * b for MAT_N x MAT_N int32 matrices, row-major (wrapping arithmetic). */
void matmul(const int32_t *a, const int32_t *b, int32_t *c);

#ifdef SPE_BRANCHY
/* Built for the VexRiscv SoC (scripts/soc-sw.sh --core vexriscv): a loop of data-dependent
 * branches over `n` random words from start value `s`, so that a pipeline predicting
 * statically flushes often; BRANCHY_PASSES passes per round. */
uint32_t branchy(const uint32_t *a, uint32_t n, uint32_t s);
#define BRANCHY_PASSES 8u
#endif

#ifdef SPE_MISSES
/* Built for VexRiscv Full (scripts/soc-sw.sh --core vexriscv-full), whose data cache is
 * 4 KiB and direct-mapped: `s` plus the sum of a[i] + b[i] for `n` words, b 4 KiB below a
 * on the SoC, so that each load evicts the line the next one needs and every load misses:
 * it is thrown away in write-back and dispatched again once its line is in (the cache's
 * redo); MISSES_PASSES passes per round, chained. */
uint32_t misses(const uint32_t *a, const uint32_t *b, uint32_t n, uint32_t s);
#define MISSES_PASSES 2u
#endif

/* Known-answer checks (CRC of "123456789", a small sort and product): 0 or an EXIT_*. */
uint32_t workloads_selftest(void);
/* `rounds` rounds of fill, CRC, sort and product, each result checked: 0 or an EXIT_*. */
uint32_t workloads_run(uint32_t rounds);

#endif
