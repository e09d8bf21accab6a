/* replay: drives the golden model (libspe_capi) with a vector file written by
 *   spe sim --preset P --vectors run.vec ...
 * (a header line naming every input port with its width, then one line per cycle with each
 * port's value in hex) and prints every record the model wrote: its address, then its 64
 * bytes in hex. With -o FILE it also writes the records' bytes back to back (what the
 * software driver drains, when the buffer does not wrap).
 *
 * Usage: replay [-o records.bin] run.vec
 */
#include "spe_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PORTS 128
#define MAX_LINE 65536

/* Sets every lane of a port from its hex value, `lane_bits` bits per lane (lane 0 lowest). */
static int set_port(SpeModel *m, const char *name, unsigned lanes, unsigned lane_bits,
                    const char *hex) {
    size_t n = strlen(hex);
    for (unsigned lane = 0; lane < lanes; lane++) {
        uint64_t v = 0;
        for (unsigned b = 0; b < lane_bits; b++) {
            unsigned bit = lane * lane_bits + b;
            size_t digit = bit / 4;
            if (digit >= n) break;
            char c = hex[n - 1 - digit];
            unsigned d = (c >= '0' && c <= '9') ? (unsigned)(c - '0') : (unsigned)((c | 32) - 'a' + 10);
            v |= (uint64_t)((d >> (bit % 4)) & 1) << b;
        }
        if (spe_model_set(m, name, lane, v) != 0) return -1;
    }
    return 0;
}

int main(int argc, char **argv) {
    const char *out_path = NULL, *vec_path = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) out_path = argv[++i];
        else vec_path = argv[i];
    }
    if (!vec_path) {
        fprintf(stderr, "usage: replay [-o records.bin] run.vec\n");
        return 2;
    }
    FILE *f = fopen(vec_path, "r");
    if (!f) {
        perror(vec_path);
        return 2;
    }
    static char line[MAX_LINE];
    if (!fgets(line, sizeof line, f) || strncmp(line, "# spe vectors spe_top_", 22) != 0) {
        fprintf(stderr, "%s: not a vector file of spe sim --vectors\n", vec_path);
        return 2;
    }
    /* Header: "# spe vectors spe_top_<preset> name:bits ..." (bits of the whole port). */
    char preset[64];
    if (sscanf(line + 22, "%63s", preset) != 1) return 2;
    SpeModel *m = spe_model_new(preset);
    if (!m) {
        fprintf(stderr, "unknown preset %s\n", preset);
        return 2;
    }
    char names[MAX_PORTS][64];
    unsigned bits[MAX_PORTS], nports = 0;
    char *tok = strtok(line + 22 + strlen(preset), " \n");
    while (tok && nports < MAX_PORTS) {
        char *colon = strchr(tok, ':');
        if (!colon) return 2;
        *colon = 0;
        snprintf(names[nports], sizeof names[nports], "%s", tok);
        bits[nports++] = (unsigned)atoi(colon + 1);
        tok = strtok(NULL, " \n");
    }
    /* Lanes of each port: the model accepts lane l of a per-slot port for every slot, of a
     * per-thread port for every thread, and only lane 0 of any other port. */
    unsigned lanes[MAX_PORTS], lane_bits[MAX_PORTS];
    for (unsigned p = 0; p < nports; p++) {
        unsigned l = 1;
        while (l < 64 && spe_model_set(m, names[p], l, 0) == 0) l++;
        lanes[p] = l;
        lane_bits[p] = bits[p] / l;
    }
    unsigned long cycles = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned p = 0;
        for (char *v = strtok(line, " \n"); v && p < nports; v = strtok(NULL, " \n"), p++) {
            if (set_port(m, names[p], lanes[p], lane_bits[p], v) != 0) {
                fprintf(stderr, "cycle %lu: cannot set %s\n", cycles, names[p]);
                return 1;
            }
        }
        if (p != nports) {
            fprintf(stderr, "cycle %lu: %u of %u ports\n", cycles, p, nports);
            return 1;
        }
        spe_model_step(m);
        cycles++;
    }
    fclose(f);
    FILE *out = out_path ? fopen(out_path, "wb") : NULL;
    if (out_path && !out) {
        perror(out_path);
        return 2;
    }
    size_t n = spe_model_record_count(m);
    size_t bytes = spe_model_record_bytes(m);
    for (size_t k = 0; k < n; k++) {
        uint64_t addr;
        uint8_t rec[SPE_RECORD_BYTES];
        if (spe_model_record(m, k, &addr, rec) != 0) return 1;
        printf("record %zu at 0x%016llx:", k, (unsigned long long)addr);
        for (size_t b = 0; b < bytes; b++) printf(" %02x", rec[b]);
        printf("\n");
        if (out) fwrite(rec, 1, bytes, out);
    }
    if (out) fclose(out);
    printf("replay: %lu cycles of %s (preset %s), %zu records\n", cycles, vec_path, preset, n);
    spe_model_free(m);
    return 0;
}
