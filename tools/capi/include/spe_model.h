/* spe_model.h: the golden model of the SPE sampling unit as a C library, and the
 * record-level scoreboard built on it (tools/capi, built as libspe_capi.a and libspe_capi.so
 * by `cargo build --release -p spe-capi`).
 *
 * A port-level API: every port of gen/spe_tables.md by name, one clock cycle per
 * spe_model_step, and the records the model has written to memory so far with their
 * addresses. A port is set and read one lane at a time: a per-slot port's lane is the slot
 * (0 .. W-1), a per-thread port's the hardware thread (0 .. T-1), any other port has lane 0;
 * bits above a lane's width are ignored. Inputs keep their values until set again: the
 * caller clears its own pulses. A model is used by one thread at a time.
 *
 * Link: cc your.c -I tools/capi/include target/release/libspe_capi.a -lpthread -ldl -lm
 */
#ifndef SPE_MODEL_H
#define SPE_MODEL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes of the largest record: the unit writes fixed-size records of 64 bytes (eight
 * 8-byte beats), or of 128 in a preset with FEAT_SPE_CRR ("v1p4", "v1p5", "smt2_v1p4");
 * spe_model_record_bytes gives a model's. A buffer of this size holds any record. */
#define SPE_RECORD_BYTES 128

typedef struct SpeModel SpeModel;

/* A model of a preset ("default", "minimal", "w2", "c16", "wide", "fastsim", "smt2",
 * "smt4") after reset, or NULL for an unknown preset. */
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

/* The value of register `addr` (its register-port address, gen/spe_regs.h) of hardware
 * thread `thread` now, as a read through the port would return it, without a clock cycle.
 * 0, or -1 for a NULL pointer or a thread the preset does not have. */
int spe_model_reg_read(SpeModel *m, uint32_t thread, uint32_t addr, uint64_t *value);

/* One clock cycle writing `value` to register `addr` of thread `thread` through the
 * register port, the other inputs as set (which keep their set values afterwards). 0, or
 * -1 for a NULL model or a thread the preset does not have. */
int spe_model_reg_write(SpeModel *m, uint32_t thread, uint32_t addr, uint64_t value);

/* Bytes of one record of the model's preset: 64, or 128 (0 for NULL). */
size_t spe_model_record_bytes(SpeModel *m);

/* Whole records written so far (every beat taken: wr_valid and wr_ready, no wr_err). */
size_t spe_model_record_count(SpeModel *m);

/* Record k (in the order written): its address and its spe_model_record_bytes bytes (at
 * most SPE_RECORD_BYTES). 0, or -1 when there is no such record. */
int spe_model_record(SpeModel *m, size_t k, uint64_t *addr, uint8_t *bytes);

/* ---- The record-level scoreboard (docs/integration.md, "The rule") ----
 * The golden model following one instance of the unit: give it every port of the unit
 * as the unit had it in a cycle (inputs and outputs, sampled before the clock edge), then
 * step. The model tags what the unit tagged and writes when the unit writes; each beat
 * the unit writes (address, data, strobes, thread) and each register read is compared.
 * Ports and lanes as above (outputs included; SMT ports such as disp_tid and wr_tid on
 * the SMT presets). Values keep from cycle to cycle until set again. */

typedef struct SpeScoreboard SpeScoreboard;

/* A scoreboard for a preset (also "smt2", "smt4"), or NULL for an unknown preset. */
SpeScoreboard *spe_scoreboard_new(const char *preset);

/* Frees a scoreboard (NULL is ignored). */
void spe_scoreboard_free(SpeScoreboard *s);

/* Sets lane `lane` of port `port` (input or output) for this cycle. 0, or -1 for an
 * unknown port or a lane the preset does not have. */
int spe_scoreboard_set(SpeScoreboard *s, const char *port, uint32_t lane, uint64_t value);

/* Ends the cycle: the model steps and compares. 0 when the cycle matched, 1 when it found
 * a mismatch (spe_scoreboard_message has the run's first), -1 for NULL. */
int spe_scoreboard_step(SpeScoreboard *s);

/* The end of the run: 0 when every check passed, 1 when one failed (a mismatch, or beats
 * the unit wrote that the model does not), -1 for NULL. Read every register through the
 * port before it: management events are compared when software reads them. */
int spe_scoreboard_finish(SpeScoreboard *s);

/* The run's first mismatch ("cycle N: record K (thread T, at A), beat B: byte ..."), or ""
 * when there is none. Valid until the next call on `s`. */
const char *spe_scoreboard_message(SpeScoreboard *s);

/* What was checked so far (cycles, records, beats, register reads, tags, mismatches).
 * Valid until the next call on `s`. */
const char *spe_scoreboard_summary(SpeScoreboard *s);

/* Records the model has written so far, whole or up to a write fault. */
size_t spe_scoreboard_record_count(SpeScoreboard *s);

/* Record k (write order): its address, its bytes (the preset's record size; beats after a fault
 * are zero) and its hardware thread. 0, or -1 when there is no such record. */
int spe_scoreboard_record(SpeScoreboard *s, size_t k, uint64_t *addr, uint8_t *bytes,
                          uint32_t *thread);

#ifdef __cplusplus
}
#endif

#endif /* SPE_MODEL_H */
