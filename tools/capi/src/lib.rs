//! The golden model of the SPE sampling unit as a C library (`include/spe_model.h`), for
//! benches that are not written in Rust (SystemVerilog through DPI-C, cocotb through
//! ctypes, plain C): a port-level API by port name, one clock cycle per call, and the
//! records the model has written to memory so far, with their addresses.
//!
//! Ports are those of `gen/spe_tables.md` (`spe_defs::ports::PORTS`), by name. A port is
//! set and read one lane at a time: a per-slot port's lane is the slot, a per-thread port's
//! the hardware thread, any other port has lane 0 only; a value's bits above the lane's
//! width are ignored. Inputs keep their values from cycle to cycle until set again (the C
//! side clears its pulses). Errors are return codes; no call panics across the boundary.

use spe_defs::config::{MAX_DISPATCH_WIDTH, MAX_THREADS};
use spe_defs::impdef::{BEAT_BYTES, MAX_RECORD_SIZE};
use spe_defs::ports::{all_ports, Dir, Width};
use spe_defs::Config;
use spe_model::Model;
use spe_ports::{Inputs, Outputs, OUTPUTS};
use spe_scoreboard::Scoreboard;
use std::collections::BTreeMap;
use std::ffi::{c_char, c_int, CStr, CString};

/// One model and its ports' current values.
pub struct SpeModel {
    model: Model,
    cfg: Config,
    inp: Inputs,
    out: Outputs,
    /// Accepted beats: address -> data (a beat taken with `wr_ready` and no `wr_err`).
    mem: BTreeMap<u64, u64>,
    /// Record base addresses in the order their first beat was taken.
    order: Vec<u64>,
}

fn name_of(p: *const c_char) -> Option<&'static spe_defs::ports::Port> {
    if p.is_null() {
        return None;
    }
    // SAFETY: the caller passes a NUL-terminated string (the header says so).
    let s = unsafe { CStr::from_ptr(p) }.to_str().ok()?;
    all_ports().find(|q| q.name == s)
}

/// The preset a C string names, if it is one.
fn preset_of(preset: *const c_char) -> Option<&'static Config> {
    if preset.is_null() {
        return None;
    }
    // SAFETY: a NUL-terminated string, as the header says.
    let name = unsafe { CStr::from_ptr(preset) }.to_str().ok()?;
    Config::preset(name)
}

/// A model of preset `preset` (`default`, `minimal`, ...) after reset, or NULL for an
/// unknown preset.
///
/// # Safety
/// Pointers are NULL or valid as the header says: `m` from [`spe_model_new`] and not yet
/// freed, used by one thread at a time; strings NUL-terminated; out-buffers large enough.
#[no_mangle]
pub unsafe extern "C" fn spe_model_new(preset: *const c_char) -> *mut SpeModel {
    let Some(cfg) = preset_of(preset) else {
        return std::ptr::null_mut();
    };
    Box::into_raw(Box::new(SpeModel {
        model: Model::new(cfg),
        cfg: *cfg,
        inp: Inputs::default(),
        out: Outputs::default(),
        mem: BTreeMap::new(),
        order: Vec::new(),
    }))
}

/// Frees a model from [`spe_model_new`] (NULL is ignored).
///
/// # Safety
/// Pointers are NULL or valid as the header says: `m` from [`spe_model_new`] and not yet
/// freed, used by one thread at a time; strings NUL-terminated; out-buffers large enough.
#[no_mangle]
pub unsafe extern "C" fn spe_model_free(m: *mut SpeModel) {
    if !m.is_null() {
        // SAFETY: `m` came from `spe_model_new` and is freed once (the header says so).
        drop(unsafe { Box::from_raw(m) });
    }
}

fn model<'a>(m: *mut SpeModel) -> Option<&'a mut SpeModel> {
    // SAFETY: NULL or a live model from `spe_model_new`, used by one thread at a time.
    unsafe { m.as_mut() }
}

/// The lanes an input port has in this preset.
fn lanes(cfg: &Config, w: Width) -> usize {
    match w {
        Width::PerSlot(_) | Width::PerSlotThreadId => cfg.dispatch_width,
        Width::PerThread(_) => cfg.threads,
        _ => 1,
    }
}

/// Sets lane `lane` of input port `port` for the next steps. Returns 0, or -1 for an
/// unknown port, an output, or a lane the preset does not have.
///
/// # Safety
/// Pointers are NULL or valid as the header says: `m` from [`spe_model_new`] and not yet
/// freed, used by one thread at a time; strings NUL-terminated; out-buffers large enough.
#[no_mangle]
pub unsafe extern "C" fn spe_model_set(
    m: *mut SpeModel,
    port: *const c_char,
    lane: u32,
    value: u64,
) -> c_int {
    let (Some(m), Some(p)) = (model(m), name_of(port)) else {
        return -1;
    };
    if p.dir != Dir::In {
        return -1;
    }
    set_input(&m.cfg, &mut m.inp, p, lane, value)
}

/// One clock cycle with the inputs as set: the outputs of the cycle become readable with
/// [`spe_model_get`], then the rising edge. Returns 0, or -1 for a NULL model.
///
/// # Safety
/// Pointers are NULL or valid as the header says: `m` from [`spe_model_new`] and not yet
/// freed, used by one thread at a time; strings NUL-terminated; out-buffers large enough.
#[no_mangle]
pub unsafe extern "C" fn spe_model_step(m: *mut SpeModel) -> c_int {
    let Some(m) = model(m) else { return -1 };
    let inp = m.inp.clone();
    step_on(m, &inp);
    0
}

/// One cycle of `m` on `inp`: the outputs kept, a beat taken into the record view.
fn step_on(m: &mut SpeModel, inp: &Inputs) {
    let out = m.model.step(inp);
    if out.wr_valid && inp.wr_ready && !inp.wr_err && !inp.reset {
        let base = out.wr_addr & !(m.cfg.record_size() as u64 - 1);
        if out.wr_addr == base {
            m.order.push(base);
        }
        m.mem.insert(out.wr_addr, out.wr_data);
    }
    m.out = out;
}

/// The value of register `addr` (register-port address) of hardware thread `thread` now,
/// as a read through the port would return it, without a clock cycle. Returns 0, or -1
/// for a NULL pointer or a thread the preset does not have (an unmapped address reads 0).
///
/// # Safety
/// `m` is NULL or a live model; `value` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn spe_model_reg_read(
    m: *mut SpeModel,
    thread: u32,
    addr: u32,
    value: *mut u64,
) -> c_int {
    let Some(m) = model(m) else { return -1 };
    if value.is_null() || thread as usize >= m.cfg.threads || addr > 0xff {
        return -1;
    }
    let own_el1 = spe_model::regime::Regime::of(&m.inp.thr[thread as usize]).el1_owner_under_el2();
    let v = m
        .model
        .thread(thread as usize)
        .regs
        .read(addr as u8, own_el1);
    // SAFETY: the caller gives room for a u64 (the header says so).
    unsafe { *value = v };
    0
}

/// One clock cycle that writes `value` to register `addr` of hardware thread `thread`
/// through the register port, the other inputs as set (their set values are kept for the
/// next steps). Returns 0, or -1 for a NULL model or a thread the preset does not have.
///
/// # Safety
/// `m` is NULL or a live model.
#[no_mangle]
pub unsafe extern "C" fn spe_model_reg_write(
    m: *mut SpeModel,
    thread: u32,
    addr: u32,
    value: u64,
) -> c_int {
    let Some(m) = model(m) else { return -1 };
    if thread as usize >= m.cfg.threads || addr > 0xff {
        return -1;
    }
    let mut inp = m.inp.clone();
    inp.reg_en = true;
    inp.reg_we = true;
    inp.reg_tid = thread as u8;
    inp.reg_addr = addr as u8;
    inp.reg_wdata = value;
    step_on(m, &inp);
    0
}

/// Lane `lane` of output port `port` in the last step (a per-thread output's lane is the
/// thread; `tag` is one value, bit i for slot i). 0 for an unknown port or lane.
///
/// # Safety
/// Pointers are NULL or valid as the header says: `m` from [`spe_model_new`] and not yet
/// freed, used by one thread at a time; strings NUL-terminated; out-buffers large enough.
#[no_mangle]
pub unsafe extern "C" fn spe_model_get(m: *mut SpeModel, port: *const c_char, lane: u32) -> u64 {
    let (Some(m), Some(p)) = (model(m), name_of(port)) else {
        return 0;
    };
    let lanes = match p.width {
        Width::PerThread(_) => m.cfg.threads,
        _ => 1,
    };
    if p.dir != Dir::Out || lane as usize >= lanes {
        return 0;
    }
    let v = m
        .out
        .fields()
        .iter()
        .find(|f| f.0 == p.name)
        .map_or(0, |f| f.1);
    match p.width {
        Width::PerThread(b) => (v >> (lane * b)) & spe_defs::low_mask(b),
        _ => v,
    }
}

/// The bytes of one record of the model's preset: 64, or 128 with FEAT_SPE_CRR (at most
/// `SPE_RECORD_BYTES`). 0 for a NULL model.
///
/// # Safety
/// `m` is NULL or a live model.
#[no_mangle]
pub unsafe extern "C" fn spe_model_record_bytes(m: *mut SpeModel) -> usize {
    model(m).map_or(0, |m| m.cfg.record_size())
}

/// The number of whole records (every beat taken) the model has written.
///
/// # Safety
/// Pointers are NULL or valid as the header says: `m` from [`spe_model_new`] and not yet
/// freed, used by one thread at a time; strings NUL-terminated; out-buffers large enough.
#[no_mangle]
pub unsafe extern "C" fn spe_model_record_count(m: *mut SpeModel) -> usize {
    let Some(m) = model(m) else { return 0 };
    m.order.iter().filter(|&&b| whole(m, b)).count()
}

fn whole(m: &SpeModel, base: u64) -> bool {
    (0..m.cfg.record_beats()).all(|k| m.mem.contains_key(&(base + (k * BEAT_BYTES) as u64)))
}

/// Record `k` (in the order written) of [`spe_model_record_count`]: its address in
/// `*addr` and its [`spe_model_record_bytes`] bytes in `bytes`. Returns 0, or -1 when there
/// is no such record.
///
/// # Safety
/// Pointers are NULL or valid as the header says: `m` from [`spe_model_new`] and not yet
/// freed, used by one thread at a time; strings NUL-terminated; out-buffers large enough.
#[no_mangle]
pub unsafe extern "C" fn spe_model_record(
    m: *mut SpeModel,
    k: usize,
    addr: *mut u64,
    bytes: *mut u8,
) -> c_int {
    let Some(m) = model(m) else { return -1 };
    let Some(&base) = m.order.iter().filter(|&&b| whole(m, b)).nth(k) else {
        return -1;
    };
    if addr.is_null() || bytes.is_null() {
        return -1;
    }
    let mut rec = vec![0u8; m.cfg.record_size()];
    for (j, chunk) in rec.chunks_mut(BEAT_BYTES).enumerate() {
        chunk.copy_from_slice(&m.mem[&(base + (j * BEAT_BYTES) as u64)].to_le_bytes());
    }
    // SAFETY: the caller gives room for a u64 and the preset's record (at most
    // SPE_RECORD_BYTES: the header says so).
    unsafe {
        *addr = base;
        std::ptr::copy_nonoverlapping(rec.as_ptr(), bytes, rec.len());
    }
    0
}

/// Sets lane `lane` of input port `p` in `inp`: 0, or -1 for a lane the preset lacks.
fn set_input(
    cfg: &Config,
    inp: &mut Inputs,
    p: &spe_defs::ports::Port,
    lane: u32,
    v: u64,
) -> c_int {
    let lane = lane as usize;
    if lane >= lanes(cfg, p.width) {
        return -1;
    }
    let v = v & spe_defs::low_mask(p.width.bits());
    if inp.set_lane(p.name, lane, v) {
        0
    } else {
        -1
    }
}

/// What a text function returns for a NULL scoreboard.
const EMPTY: &[u8] = b"\0";

/// The golden model following one instance of the unit (`spe-scoreboard`): every port of
/// the unit as set for the cycle, the outputs packed as on the port.
pub struct SpeScoreboard {
    board: Scoreboard,
    inp: Inputs,
    out: [u64; OUTPUTS],
    /// The text [`spe_scoreboard_message`] / [`spe_scoreboard_summary`] last returned.
    text: CString,
}

fn board<'a>(s: *mut SpeScoreboard) -> Option<&'a mut SpeScoreboard> {
    // SAFETY: NULL or a live scoreboard from `spe_scoreboard_new`, used by one thread.
    unsafe { s.as_mut() }
}

/// A scoreboard for preset `preset` (its model after reset), or NULL for an unknown one.
///
/// # Safety
/// `preset` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn spe_scoreboard_new(preset: *const c_char) -> *mut SpeScoreboard {
    let Some(cfg) = preset_of(preset) else {
        return std::ptr::null_mut();
    };
    Box::into_raw(Box::new(SpeScoreboard {
        board: Scoreboard::new(cfg),
        inp: Inputs::default(),
        out: [0; OUTPUTS],
        text: CString::default(),
    }))
}

/// Frees a scoreboard (NULL is ignored).
///
/// # Safety
/// `s` is NULL or from [`spe_scoreboard_new`], not yet freed.
#[no_mangle]
pub unsafe extern "C" fn spe_scoreboard_free(s: *mut SpeScoreboard) {
    if !s.is_null() {
        // SAFETY: `s` came from `spe_scoreboard_new` and is freed once.
        drop(unsafe { Box::from_raw(s) });
    }
}

/// Sets lane `lane` of port `port`, an input or an output of the unit, to its value in
/// this cycle. 0, or -1 for an unknown port or a lane the preset lacks.
///
/// # Safety
/// `s` is NULL or a live scoreboard; `port` NULL or NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn spe_scoreboard_set(
    s: *mut SpeScoreboard,
    port: *const c_char,
    lane: u32,
    value: u64,
) -> c_int {
    let (Some(s), Some(p)) = (board(s), name_of(port)) else {
        return -1;
    };
    let cfg = *s.board.config();
    if p.dir == Dir::In {
        return set_input(&cfg, &mut s.inp, p, lane, value);
    }
    let Some(k) = Outputs::default()
        .fields()
        .iter()
        .position(|f| f.0 == p.name)
    else {
        return -1;
    };
    match p.width {
        Width::PerThread(b) if (lane as usize) < cfg.threads => {
            let m = spe_defs::low_mask(b) << (lane * b);
            s.out[k] = (s.out[k] & !m) | (value << (lane * b) & m);
            0
        }
        Width::PerThread(_) => -1,
        _ if lane == 0 => {
            s.out[k] = value & spe_defs::low_mask(p.bits_for(&cfg));
            0
        }
        _ => -1,
    }
}

/// Ends the cycle: the model steps on the inputs as set and compares. 0 when the cycle
/// matched, 1 when it found a mismatch ([`spe_scoreboard_message`] has the run's first),
/// -1 for NULL.
///
/// # Safety
/// `s` is NULL or a live scoreboard.
#[no_mangle]
pub unsafe extern "C" fn spe_scoreboard_step(s: *mut SpeScoreboard) -> c_int {
    let Some(s) = board(s) else { return -1 };
    let out = Outputs::from_values(s.out);
    c_int::from(s.board.step(&s.inp, &out).is_some())
}

/// The end of the run: 0 when every check passed, 1 when one failed (a mismatch, or beats
/// the unit wrote that the model does not), -1 for NULL.
///
/// # Safety
/// `s` is NULL or a live scoreboard.
#[no_mangle]
pub unsafe extern "C" fn spe_scoreboard_finish(s: *mut SpeScoreboard) -> c_int {
    let Some(s) = board(s) else { return -1 };
    c_int::from(s.board.finish().is_err())
}

/// The run's first mismatch as text ("cycle N: record K (thread T, at A), beat B: ..."),
/// or "" when there is none. Valid until the next call on `s`.
///
/// # Safety
/// `s` is NULL or a live scoreboard.
#[no_mangle]
pub unsafe extern "C" fn spe_scoreboard_message(s: *mut SpeScoreboard) -> *const c_char {
    let Some(s) = board(s) else {
        return EMPTY.as_ptr().cast();
    };
    let text = s.board.first().map_or(String::new(), |m| m.to_string());
    s.text = CString::new(text).unwrap_or_default();
    s.text.as_ptr()
}

/// What was checked so far ("N cycles, R records (B beats), ... M mismatches"). Valid
/// until the next call on `s`.
///
/// # Safety
/// `s` is NULL or a live scoreboard.
#[no_mangle]
pub unsafe extern "C" fn spe_scoreboard_summary(s: *mut SpeScoreboard) -> *const c_char {
    let Some(s) = board(s) else {
        return EMPTY.as_ptr().cast();
    };
    s.text = CString::new(s.board.summary().to_string()).unwrap_or_default();
    s.text.as_ptr()
}

/// Records the model has written so far, whole or up to a write fault.
///
/// # Safety
/// `s` is NULL or a live scoreboard.
#[no_mangle]
pub unsafe extern "C" fn spe_scoreboard_record_count(s: *mut SpeScoreboard) -> usize {
    board(s).map_or(0, |s| s.board.records().len())
}

/// Record `k` the model wrote (write order): its address, its bytes (the preset's record
/// size, [`spe_model_record_bytes`]'s; beats after a fault are zero) and its thread. 0, or
/// -1 when there is no such record.
///
/// # Safety
/// `s` is NULL or a live scoreboard; `addr`, `bytes` (`SPE_RECORD_BYTES`) and `thread`
/// writable.
#[no_mangle]
pub unsafe extern "C" fn spe_scoreboard_record(
    s: *mut SpeScoreboard,
    k: usize,
    addr: *mut u64,
    bytes: *mut u8,
    thread: *mut u32,
) -> c_int {
    let Some(s) = board(s) else { return -1 };
    let Some(r) = s.board.records().get(k) else {
        return -1;
    };
    if addr.is_null() || bytes.is_null() || thread.is_null() {
        return -1;
    }
    // SAFETY: the caller gives room for a u64, the preset's record (at most
    // SPE_RECORD_BYTES) and a u32 (the header says so).
    unsafe {
        *addr = r.addr;
        *thread = u32::from(r.thread);
        std::ptr::copy_nonoverlapping(r.bytes.as_ptr(), bytes, r.bytes.len());
    }
    0
}

/// The limits the header states, checked at build time.
const _: () = assert!(MAX_DISPATCH_WIDTH == 8 && MAX_THREADS == 4 && MAX_RECORD_SIZE == 128);

#[cfg(test)]
mod tests {
    use super::*;
    use spe_defs::regs::{pmblimitr, pmscr, pmsicr, reg, RegId};
    use std::ffi::CString;

    fn c(s: &str) -> CString {
        CString::new(s).unwrap()
    }

    fn set(m: *mut SpeModel, port: &str, lane: u32, v: u64) -> c_int {
        // SAFETY: a live model and a NUL-terminated name.
        unsafe { spe_model_set(m, c(port).as_ptr(), lane, v) }
    }

    #[test]
    fn ports_by_name_and_lane_with_errors_for_the_rest() {
        // SAFETY: every pointer is a live model or a NUL-terminated string.
        unsafe {
            assert!(spe_model_new(c("nope").as_ptr()).is_null());
            assert!(spe_model_new(std::ptr::null()).is_null());
            let m = spe_model_new(c("default").as_ptr());
            assert!(!m.is_null());
            assert_eq!(set(m, "disp_valid", 3, 1), 0);
            assert_eq!(set(m, "disp_valid", 4, 1), -1, "W = 4: no slot 4");
            assert_eq!(set(m, "irq", 0, 1), -1, "an output");
            assert_eq!(set(m, "no_such_port", 0, 1), -1);
            assert_eq!(set(m, "disp_el", 1, 1), -1, "T = 1: no thread 1");
            assert_eq!(spe_model_step(std::ptr::null_mut()), -1);
            assert_eq!(spe_model_get(m, c("tag").as_ptr(), 0), 0);
            spe_model_free(m);
        }
    }

    /// A register write through the port, then ops until one is tagged and completed: the
    /// record appears, at PMBPTR, once its last beat is taken.
    #[test]
    fn a_sampled_op_becomes_a_record_at_pmbptr() {
        // SAFETY: every pointer is a live model, a NUL-terminated string or a local buffer.
        unsafe {
            let m = spe_model_new(c("minimal").as_ptr());
            let base = 0xffff_8000_0010_0000u64;
            let write = |id: RegId, v: u64| {
                assert_eq!(spe_model_reg_write(m, 0, u32::from(reg(id).addr()), v), 0);
                let mut back = 0;
                assert_eq!(
                    spe_model_reg_read(m, 0, u32::from(reg(id).addr()), &mut back),
                    0
                );
                assert_eq!(back, v, "{id:?} reads back what was written");
            };
            assert_eq!(spe_model_reg_write(m, 1, 0, 0), -1, "T = 1: no thread 1");
            assert_eq!(spe_model_reg_read(m, 1, 0, &mut 0), -1);
            set(m, "disp_el", 0, 1);
            set(m, "prof_allowed", 0, 1);
            set(m, "wr_ready", 0, 1);
            write(RegId::Pmbptr, base);
            write(
                RegId::Pmblimitr,
                pmblimitr::LIMIT.place((base + 0x1000) >> pmblimitr::LIMIT.lsb)
                    | pmblimitr::E.place(1),
            );
            write(RegId::Pmsicr, pmsicr::COUNT.place(2));
            write(RegId::PmscrEl1, pmscr::E1SPE.place(1));
            let mut tagged = false;
            for n in 0..40u64 {
                set(m, "cpl_done", 0, u64::from(tagged));
                set(m, "cpl_retired", 0, u64::from(tagged));
                set(m, "disp_valid", 0, u64::from(n < 5));
                set(m, "disp_pc", 0, 0x1000 + 4 * n);
                spe_model_step(m);
                tagged = spe_model_get(m, c("tag").as_ptr(), 0) != 0;
            }
            assert_eq!(spe_model_record_count(m), 1);
            let (mut addr, mut bytes) = (0u64, [0u8; MAX_RECORD_SIZE]);
            assert_eq!(spe_model_record(m, 0, &mut addr, bytes.as_mut_ptr()), 0);
            assert_eq!(addr, base);
            assert_ne!(bytes, [0u8; MAX_RECORD_SIZE]);
            assert_eq!(spe_model_record(m, 1, &mut addr, bytes.as_mut_ptr()), -1);
            spe_model_free(m);
        }
    }

    /// The scenario above through the scoreboard: the model's own ports pass and the record
    /// is the model's; the same run with one bit of the record's third beat flipped fails
    /// naming record 0, beat 2.
    #[test]
    fn the_scoreboard_passes_the_model_and_names_a_corrupted_record() {
        for flip in [false, true] {
            // SAFETY: every pointer is live, a NUL-terminated string or a local buffer.
            unsafe {
                let m = spe_model_new(c("minimal").as_ptr());
                let s = spe_scoreboard_new(c("minimal").as_ptr());
                assert!(spe_scoreboard_new(c("nope").as_ptr()).is_null());
                assert_eq!(spe_scoreboard_set(s, c("nope").as_ptr(), 0, 1), -1);
                assert_eq!(spe_scoreboard_set(s, c("irq").as_ptr(), 1, 1), -1, "T = 1");
                let both = |port: &str, v: u64| {
                    set(m, port, 0, v);
                    assert_eq!(spe_scoreboard_set(s, c(port).as_ptr(), 0, v), 0, "{port}");
                };
                let mut beats = 0;
                let mut fails = 0;
                let cycle = |beats: &mut u32| {
                    spe_model_step(m);
                    for (name, mut v) in (*m).out.fields() {
                        if name == "wr_data" && (*m).out.wr_valid && (*m).inp.wr_ready {
                            if flip && *beats == 2 {
                                v ^= 1 << 9;
                            }
                            *beats += 1;
                        }
                        assert_eq!(spe_scoreboard_set(s, c(name).as_ptr(), 0, v), 0, "{name}");
                    }
                    spe_scoreboard_step(s)
                };
                let base = 0xffff_8000_0010_0000u64;
                both("disp_el", 1);
                both("prof_allowed", 1);
                both("wr_ready", 1);
                for (id, v) in [
                    (RegId::Pmbptr, base),
                    (
                        RegId::Pmblimitr,
                        pmblimitr::LIMIT.place((base + 0x1000) >> pmblimitr::LIMIT.lsb)
                            | pmblimitr::E.place(1),
                    ),
                    (RegId::Pmsicr, pmsicr::COUNT.place(2)),
                    (RegId::PmscrEl1, pmscr::E1SPE.place(1)),
                ] {
                    both("reg_en", 1);
                    both("reg_we", 1);
                    both("reg_addr", u64::from(reg(id).addr()));
                    both("reg_wdata", v);
                    fails += cycle(&mut beats);
                }
                both("reg_en", 0);
                both("reg_we", 0);
                let mut tagged = false;
                for n in 0..40u64 {
                    both("cpl_done", u64::from(tagged));
                    both("cpl_retired", u64::from(tagged));
                    both("disp_valid", u64::from(n < 5));
                    both("disp_pc", 0x1000 + 4 * n);
                    fails += cycle(&mut beats);
                    tagged = (*m).out.tag != 0;
                }
                both("reg_en", 1);
                both("reg_addr", u64::from(reg(RegId::Pmbptr).addr()));
                fails += cycle(&mut beats);
                let verdict = spe_scoreboard_finish(s);
                let msg = CStr::from_ptr(spe_scoreboard_message(s))
                    .to_str()
                    .unwrap()
                    .to_string();
                assert_eq!(spe_scoreboard_record_count(s), 1);
                let (mut addr, mut bytes, mut t) = (0u64, [0u8; MAX_RECORD_SIZE], 9u32);
                assert_eq!(
                    spe_scoreboard_record(s, 0, &mut addr, bytes.as_mut_ptr(), &mut t),
                    0
                );
                assert_eq!((addr, t), (base, 0));
                if flip {
                    assert_eq!((verdict, fails), (1, 1), "{msg}");
                    assert!(
                        msg.contains("record 0 (thread 0, at 0xffff800000100000), beat 2: byte 17"),
                        "{msg}"
                    );
                } else {
                    assert_eq!((verdict, fails), (0, 0), "{msg}");
                    assert_eq!(msg, "");
                    let (mut a2, mut b2) = (0u64, [0u8; MAX_RECORD_SIZE]);
                    spe_model_record(m, 0, &mut a2, b2.as_mut_ptr());
                    assert_eq!(
                        (a2, b2),
                        (addr, bytes),
                        "the scoreboard's record is the model's"
                    );
                }
                spe_scoreboard_free(s);
                spe_model_free(m);
            }
        }
    }
}
