/* spe_model.h: the golden model of the SPE sampling unit as a C library (tb/capi, built as
 * libspe_capi.a and libspe_capi.so by `cargo build --release -p spe-capi`).
 *
 * A port-level API: every port of gen/spe_tables.md by name, one clock cycle per
 * spe_model_step, and the records the model has written to memory so far with their
 * addresses. A port is set and read one lane at a time: a per-slot port's lane is the slot
 * (0 .. W-1), a per-thread port's the hardware thread (0 .. T-1), any other port has lane 0;
 * bits above a lane's width are ignored. Inputs keep their values until set again: the
 * caller clears its own pulses. A model is used by one thread at a time.
 *
 * Link: cc your.c -I tb/capi/include target/release/libspe_capi.a -lpthread -ldl -lm
 */
#ifndef SPE_MODEL_H
#define SPE_MODEL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes of one record (the unit writes fixed-size records, eight 8-byte beats). */
#define SPE_RECORD_BYTES 64

typedef struct SpeModel SpeModel;

/* A model of a preset ("default", "minimal", "w2", "c16", "wide", "fastsim") after
 * reset, or NULL for an unknown preset. */
SpeModel *spe_model_new(const char *preset);

/* Frees a model (NULL is ignored). */
void spe_model_free(SpeModel *m);

/* Sets lane `lane` of input port `port` for the next steps. 0, or -1 for an unknown port,
 * an output, or a lane the preset does not have. */
int spe_model_set(SpeModel *m, const char *port, uint32_t lane, uint64_t value);

/* One clock cycle with the inputs as set: its outputs become readable with spe_model_get,
 * then the rising edge. 0, or -1 for a NULL model. */
int spe_model_step(SpeModel *m);

/* Lane `lane` of output port `port` in the last step (`tag` is one value, bit i for slot
 * i; a per-thread output's lane is the thread). 0 for an unknown port or lane. */
uint64_t spe_model_get(SpeModel *m, const char *port, uint32_t lane);

/* Whole records written so far (every beat taken: wr_valid and wr_ready, no wr_err). */
size_t spe_model_record_count(SpeModel *m);

/* Record k (in the order written): its address and its SPE_RECORD_BYTES bytes. 0, or -1
 * when there is no such record. */
int spe_model_record(SpeModel *m, size_t k, uint64_t *addr, uint8_t *bytes);

#ifdef __cplusplus
}
#endif

#endif /* SPE_MODEL_H */
