//! A perf.data writer for raw SPE buffers, so that Linux perf (tested with 6.1) decodes the
//! records this unit writes: `perf report -D`, `perf script --itrace=i1i`, `perf mem report`.
//!
//! Written from the public layout description (`tools/perf/Documentation/perf.data-file-format.txt`
//! in the kernel tree) and the facts in `docs/toolchain.md`:
//! * a `PERFILE2` header whose attribute entries are a 128-byte `perf_event_attr` (`size` =
//!   128) plus its 16-byte id section;
//! * the attribute's `type` is the SPE PMU type that AUXTRACE_INFO names, with
//!   `sample_id_all` and the IDENTIFIER sample bit set;
//! * AUXTRACE_INFO (type 70) with auxtrace type 4 (Arm SPE) and two private words (PMU type,
//!   per-cpu mmaps), then TIME_CONV (so SPE timestamps map to perf time), COMM and MMAP
//!   records (so PCs resolve to a task and symbols), AUX records (type 11: each output of
//!   the AUX ring with its offset, size and flags, as the kernel reports them), AUXTRACE
//!   records (type 71) each followed by the raw bytes;
//! * feature sections for the architecture (aarch64), the CPU count and a CPUID (a MIDR), so
//!   that perf applies its Arm SPE data-source decoding.
//!
//! Everything is little-endian, as on the Arm hosts perf expects.

/// PMU type number given to the SPE event (any value works; attr and AUXTRACE_INFO agree).
pub const SPE_PMU_TYPE: u32 = 8;
/// `PERF_AUXTRACE_ARM_SPE`.
pub const AUXTRACE_ARM_SPE: u32 = 4;
/// Neoverse N1 MIDR_EL1 (r4p1): perf decodes N1 data sources for it.
pub const NEOVERSE_N1_MIDR: u64 = 0x414F_D0C1;

const PERF_RECORD_MMAP: u32 = 1;
const PERF_RECORD_COMM: u32 = 3;
const PERF_RECORD_AUX: u32 = 11;
const PERF_RECORD_FINISHED_ROUND: u32 = 68;
const PERF_RECORD_AUXTRACE_INFO: u32 = 70;
const PERF_RECORD_AUXTRACE: u32 = 71;
const PERF_RECORD_TIME_CONV: u32 = 79;
const PERF_RECORD_MISC_USER: u16 = 2;

const SAMPLE_IP: u64 = 1 << 0;
const SAMPLE_TID: u64 = 1 << 1;
const SAMPLE_TIME: u64 = 1 << 2;
const SAMPLE_ADDR: u64 = 1 << 3;
const SAMPLE_CPU: u64 = 1 << 7;
const SAMPLE_WEIGHT: u64 = 1 << 14;
const SAMPLE_DATA_SRC: u64 = 1 << 15;
const SAMPLE_IDENTIFIER: u64 = 1 << 16;

/// `perf_event_attr` flag bits used here.
const ATTR_DISABLED: u64 = 1 << 0;
const ATTR_SAMPLE_ID_ALL: u64 = 1 << 18;

/// Feature bits (`HEADER_*`).
const HEADER_ARCH: usize = 6;
const HEADER_NRCPUS: usize = 7;
const HEADER_CPUID: usize = 9;

const FILE_HEADER_SIZE: u64 = 104;
const ATTR_SIZE: u64 = 128;
/// Size of a PERF_RECORD_AUXTRACE record before its data: the header, size, offset,
/// reference, idx, tid, cpu and a reserved word.
const AUXTRACE_HEADER: u64 = 48;
/// The one event id (sample_id's IDENTIFIER).
const EVENT_ID: u64 = 1;
/// Largest AUXTRACE chunk (perf handles any size; chunks keep records moderate).
const AUX_CHUNK: usize = 1 << 20;

/// `PERF_AUX_FLAG_*` bits of an AUX record.
pub const PERF_AUX_FLAG_TRUNCATED: u64 = 0x01;
pub const PERF_AUX_FLAG_PARTIAL: u64 = 0x04;
pub const PERF_AUX_FLAG_COLLISION: u64 = 0x08;

/// One output of the AUX ring (PERF_RECORD_AUX): `size` bytes at `offset` of the AUX data
/// (offsets count the data from its start, as the AUXTRACE records do), and its flags.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AuxOutput {
    pub offset: u64,
    pub size: u64,
    /// `PERF_AUX_FLAG_*` bits.
    pub flags: u64,
}

/// An executable mapping, so user PCs resolve to symbols.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mapping {
    pub start: u64,
    pub len: u64,
    pub pgoff: u64,
    pub path: String,
}

/// What the perf.data file says about where the buffer came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerfOptions {
    /// CPU the buffer was captured on.
    pub cpu: u32,
    /// Process and thread the records belong to (the COMM record); SPE CONTEXT packets
    /// carrying this value as CONTEXTIDR attribute records to it.
    pub pid: u32,
    pub tid: u32,
    pub comm: String,
    pub mappings: Vec<Mapping>,
    /// Generic-timer frequency in Hz: SPE timestamps are converted to perf time (ns) with it.
    pub timer_hz: u64,
    /// MIDR_EL1 reported as the CPUID.
    pub midr: u64,
    /// The AUX ring's outputs, in order (none: no AUX records, the data alone).
    pub aux_outputs: Vec<AuxOutput>,
}

impl Default for PerfOptions {
    fn default() -> Self {
        PerfOptions {
            cpu: 0,
            pid: 1234,
            tid: 1234,
            comm: "spe-workload".into(),
            mappings: Vec::new(),
            timer_hz: 100_000_000,
            midr: NEOVERSE_N1_MIDR,
            aux_outputs: Vec::new(),
        }
    }
}

fn u16le(v: &mut Vec<u8>, x: u16) {
    v.extend_from_slice(&x.to_le_bytes());
}
fn u32le(v: &mut Vec<u8>, x: u32) {
    v.extend_from_slice(&x.to_le_bytes());
}
fn u64le(v: &mut Vec<u8>, x: u64) {
    v.extend_from_slice(&x.to_le_bytes());
}
fn pad8(v: &mut Vec<u8>) {
    while !v.len().is_multiple_of(8) {
        v.push(0);
    }
}

/// A NUL-terminated string padded to a multiple of 8 bytes.
fn cstr8(v: &mut Vec<u8>, s: &str) {
    v.extend_from_slice(s.as_bytes());
    v.push(0);
    pad8(v);
}

/// One record: header (type, misc, size) then `body`.
fn record(out: &mut Vec<u8>, ty: u32, misc: u16, body: &[u8]) {
    let size = 8 + body.len();
    assert!(
        size <= u16::MAX as usize && size.is_multiple_of(8),
        "record size {size}"
    );
    u32le(out, ty);
    u16le(out, misc);
    u16le(out, size as u16);
    out.extend_from_slice(body);
}

/// The sample_id trailer of non-sample records for our sample_type
/// (TID, TIME, CPU, IDENTIFIER): pid, tid, time, cpu, res, id.
fn sample_id(v: &mut Vec<u8>, o: &PerfOptions) {
    sample_id_on(v, o, o.cpu);
}

/// The same trailer for a record of CPU `cpu`.
fn sample_id_on(v: &mut Vec<u8>, o: &PerfOptions, cpu: u32) {
    u32le(v, o.pid);
    u32le(v, o.tid);
    u64le(v, 0);
    u32le(v, cpu);
    u32le(v, 0);
    u64le(v, EVENT_ID);
}

/// One CPU's SPE buffer for [`write_cpus`]: the CPU, its AUX data and its AUX ring's
/// outputs (offsets in its own data).
#[derive(Clone, Debug)]
pub struct CpuAux<'a> {
    pub cpu: u32,
    pub aux: &'a [u8],
    pub aux_outputs: Vec<AuxOutput>,
}

/// The 128-byte `perf_event_attr` of the SPE event.
fn attr() -> Vec<u8> {
    let mut a = Vec::with_capacity(ATTR_SIZE as usize);
    u32le(&mut a, SPE_PMU_TYPE); // type
    u32le(&mut a, ATTR_SIZE as u32); // size
    u64le(&mut a, 0); // config
    u64le(&mut a, 1); // sample_period
    u64le(
        &mut a,
        // ADDR, WEIGHT and DATA_SRC as `perf mem record` asks for them (`perf mem report`
        // requires DATA_SRC); only TID, TIME, CPU and IDENTIFIER shape the sample_id trailer.
        SAMPLE_IP
            | SAMPLE_TID
            | SAMPLE_TIME
            | SAMPLE_ADDR
            | SAMPLE_CPU
            | SAMPLE_WEIGHT
            | SAMPLE_DATA_SRC
            | SAMPLE_IDENTIFIER,
    );
    u64le(&mut a, 0); // read_format
    u64le(&mut a, ATTR_DISABLED | ATTR_SAMPLE_ID_ALL);
    a.resize(ATTR_SIZE as usize, 0);
    a
}

/// A perf_header_string: u32 length (NUL included, padded to 64) then the bytes.
fn header_string(s: &str) -> Vec<u8> {
    let len = (s.len() + 1).div_ceil(64) * 64;
    let mut v = Vec::new();
    u32le(&mut v, len as u32);
    v.extend_from_slice(s.as_bytes());
    v.resize(4 + len, 0);
    v
}

/// Time conversion for a `hz` timer, as perf computes it:
/// `ns = (ticks >> shift) * mult + (((ticks & mask) * mult) >> shift)`. perf keeps `time_mult` in 32 bits (a larger value is
/// silently truncated), so the shift is the largest (up to 31) for which `mult` fits 32 bits
/// and `(2^shift - 1) * mult` cannot overflow 64 bits.
fn time_conv(hz: u64) -> (u64, u64) {
    let hz = u128::from(hz.max(1));
    for shift in (0..=31u32).rev() {
        let mult = (1_000_000_000u128 << shift) / hz;
        if mult > 0 && mult <= u128::from(u32::MAX) && mult.leading_zeros() >= 64 + shift {
            return (u64::from(shift), mult as u64);
        }
    }
    (0, (1_000_000_000u128 / hz).max(1) as u64)
}

/// perf's conversion (tools/perf/util/tsc.c semantics), for the tests.
#[cfg(test)]
fn perf_time(ticks: u64, shift: u64, mult: u64) -> u64 {
    // perf's `struct perf_tsc_conversion` holds the multiplier as u32.
    let mult = u64::from(mult as u32);
    let quot = ticks >> shift;
    let rem = ticks & ((1u64 << shift) - 1);
    quot.wrapping_mul(mult)
        .wrapping_add(rem.wrapping_mul(mult) >> shift)
}

/// The whole perf.data file for `aux` (raw SPE buffer bytes, as drained from the buffer)
/// captured on `o.cpu`, with `o.aux_outputs`.
pub fn write(aux: &[u8], o: &PerfOptions) -> Vec<u8> {
    write_cpus(
        &[CpuAux {
            cpu: o.cpu,
            aux,
            aux_outputs: o.aux_outputs.clone(),
        }],
        o,
    )
}

/// One perf.data file for several CPUs' buffers (per-CPU AUX areas, as `perf record -e
/// arm_spe//` on several CPUs gives): each buffer's AUX and AUXTRACE records carry its
/// CPU, so `perf report --sort cpu` separates them. `o.cpu` is the CPU of the COMM and MMAP
/// records, `o.aux_outputs` is not used; the CPU count is the largest CPU plus one.
pub fn write_cpus(cpus: &[CpuAux], o: &PerfOptions) -> Vec<u8> {
    // Layout: header, attr entry, ids, data, feature table, features.
    let attrs_off = FILE_HEADER_SIZE;
    let attrs_size = ATTR_SIZE + 16;
    let ids_off = attrs_off + attrs_size;
    let data_off = ids_off + 8;
    // Data section.
    let mut data = Vec::new();
    // TIME_CONV first: perf's SPE decoder copies the time conversion when it meets
    // AUXTRACE_INFO.
    let mut b = Vec::new();
    let (shift, mult) = time_conv(o.timer_hz);
    u64le(&mut b, shift);
    u64le(&mut b, mult);
    u64le(&mut b, 0); // time_zero
    u64le(&mut b, 0); // time_cycles
    u64le(&mut b, u64::MAX); // time_mask
    b.push(1); // cap_user_time_zero
    b.push(0); // cap_user_time_short
    b.extend_from_slice(&[0; 6]);
    record(&mut data, PERF_RECORD_TIME_CONV, 0, &b);

    b.clear();
    u32le(&mut b, AUXTRACE_ARM_SPE);
    u32le(&mut b, 0);
    u64le(&mut b, u64::from(SPE_PMU_TYPE));
    u64le(&mut b, 1); // per-cpu mmaps
    record(&mut data, PERF_RECORD_AUXTRACE_INFO, 0, &b);

    b.clear();
    u32le(&mut b, o.pid);
    u32le(&mut b, o.tid);
    cstr8(&mut b, &o.comm);
    sample_id(&mut b, o);
    record(&mut data, PERF_RECORD_COMM, 0, &b);

    for m in &o.mappings {
        b.clear();
        u32le(&mut b, o.pid);
        u32le(&mut b, o.tid);
        u64le(&mut b, m.start);
        u64le(&mut b, m.len);
        u64le(&mut b, m.pgoff);
        cstr8(&mut b, &m.path);
        sample_id(&mut b, o);
        record(&mut data, PERF_RECORD_MMAP, PERF_RECORD_MISC_USER, &b);
    }

    for c in cpus {
        for a in &c.aux_outputs {
            b.clear();
            u64le(&mut b, a.offset);
            u64le(&mut b, a.size);
            u64le(&mut b, a.flags);
            sample_id_on(&mut b, o, c.cpu);
            record(&mut data, PERF_RECORD_AUX, 0, &b);
        }
    }

    for c in cpus {
        let mut offset = 0u64;
        for chunk in c.aux.chunks(AUX_CHUNK) {
            let padded = chunk.len().div_ceil(8) * 8;
            // perf decodes the AUX data in place, in its mapping of the file, and its
            // alignment pseudo-packet (an extended header followed by 0x00) skips to a
            // boundary of up to 16 bytes of that host address. The data starts on a
            // 16-byte boundary of the file (so of the page-aligned mapping): then perf
            // splits it as `spe decode` does, which counts from the buffer's start. An
            // empty FINISHED_ROUND record moves it there when it would not be.
            if !(data_off + data.len() as u64 + AUXTRACE_HEADER).is_multiple_of(16) {
                record(&mut data, PERF_RECORD_FINISHED_ROUND, 0, &[]);
            }
            b.clear();
            u64le(&mut b, padded as u64); // size
            u64le(&mut b, offset); // offset in the CPU's AUX area
            u64le(&mut b, offset ^ 0x5E5E ^ (u64::from(c.cpu) << 48)); // reference
            u32le(&mut b, c.cpu); // idx (per-cpu mmaps: the cpu)
            u32le(&mut b, o.tid);
            u32le(&mut b, c.cpu);
            u32le(&mut b, 0);
            record(&mut data, PERF_RECORD_AUXTRACE, 0, &b);
            data.extend_from_slice(chunk);
            data.resize(data.len() + padded - chunk.len(), 0);
            offset += padded as u64;
        }
    }
    record(&mut data, PERF_RECORD_FINISHED_ROUND, 0, &[]);

    let data_size = data.len() as u64;
    let features: Vec<(usize, Vec<u8>)> = vec![
        (HEADER_ARCH, header_string("aarch64")),
        (HEADER_NRCPUS, {
            let n = cpus.iter().map(|c| c.cpu + 1).max().unwrap_or(1);
            let mut v = Vec::new();
            u32le(&mut v, n);
            u32le(&mut v, n);
            v
        }),
        (HEADER_CPUID, header_string(&format!("0x{:016x}", o.midr))),
    ];

    let mut f = Vec::new();
    f.extend_from_slice(b"PERFILE2");
    u64le(&mut f, FILE_HEADER_SIZE);
    u64le(&mut f, attrs_size);
    u64le(&mut f, attrs_off);
    u64le(&mut f, attrs_size);
    u64le(&mut f, data_off);
    u64le(&mut f, data_size);
    u64le(&mut f, 0); // event_types
    u64le(&mut f, 0);
    let mut bits = [0u64; 4];
    for (bit, _) in &features {
        bits[bit / 64] |= 1 << (bit % 64);
    }
    for w in bits {
        u64le(&mut f, w);
    }
    debug_assert_eq!(f.len() as u64, FILE_HEADER_SIZE);
    f.extend_from_slice(&attr());
    u64le(&mut f, ids_off);
    u64le(&mut f, 8);
    u64le(&mut f, EVENT_ID);
    f.extend_from_slice(&data);
    // Feature table then contents.
    let table_off = f.len() as u64;
    let mut content_off = table_off + 16 * features.len() as u64;
    for (_, body) in &features {
        u64le(&mut f, content_off);
        u64le(&mut f, body.len() as u64);
        content_off += body.len() as u64;
    }
    for (_, body) in &features {
        f.extend_from_slice(body);
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rd64(b: &[u8], at: usize) -> u64 {
        u64::from_le_bytes(b[at..at + 8].try_into().unwrap())
    }

    #[test]
    fn header_sections_point_inside_the_file() {
        let aux = vec![0u8; 64 * 3];
        let f = write(&aux, &PerfOptions::default());
        assert_eq!(&f[..8], b"PERFILE2");
        assert_eq!(rd64(&f, 8), 104);
        assert_eq!(rd64(&f, 16), 144);
        let (ao, asz, doff, dsz) = (rd64(&f, 24), rd64(&f, 32), rd64(&f, 40), rd64(&f, 48));
        assert_eq!((ao, asz), (104, 144));
        assert!(doff + dsz <= f.len() as u64);
        // The attr: type = the PMU type, size 128, sample_id_all set.
        assert_eq!(
            u32::from_le_bytes(f[104..108].try_into().unwrap()),
            SPE_PMU_TYPE
        );
        assert_eq!(u32::from_le_bytes(f[108..112].try_into().unwrap()), 128);
        assert_ne!(rd64(&f, 104 + 40) & ATTR_SAMPLE_ID_ALL, 0);
        // Walk the data section record by record: sizes add up exactly.
        let mut at = doff as usize;
        let end = (doff + dsz) as usize;
        let mut types = Vec::new();
        while at < end {
            let ty = u32::from_le_bytes(f[at..at + 4].try_into().unwrap());
            let size = u16::from_le_bytes(f[at + 6..at + 8].try_into().unwrap()) as usize;
            assert!(size >= 8 && size.is_multiple_of(8));
            types.push(ty);
            at += size;
            if ty == PERF_RECORD_AUXTRACE {
                at += rd64(&f, at - size + 8) as usize;
            }
        }
        assert_eq!(at, end);
        // (The first FINISHED_ROUND puts the AUX data on a 16-byte boundary.)
        assert_eq!(types, vec![79, 70, 3, 68, 71, 68]);
        // Three features: arch, nrcpus, cpuid.
        assert_eq!(rd64(&f, 72).count_ones(), 3);
    }

    #[test]
    fn aux_outputs_become_aux_records_with_their_flags_before_the_data() {
        let aux = vec![0u8; 64 * 3];
        let outs = vec![
            AuxOutput {
                offset: 0,
                size: 128,
                flags: PERF_AUX_FLAG_COLLISION,
            },
            AuxOutput {
                offset: 128,
                size: 64,
                flags: PERF_AUX_FLAG_TRUNCATED | PERF_AUX_FLAG_PARTIAL,
            },
        ];
        let f = write(
            &aux,
            &PerfOptions {
                aux_outputs: outs.clone(),
                ..PerfOptions::default()
            },
        );
        let (doff, dsz) = (rd64(&f, 40) as usize, rd64(&f, 48) as usize);
        let mut at = doff;
        let mut types = Vec::new();
        let mut got = Vec::new();
        while at < doff + dsz {
            let ty = u32::from_le_bytes(f[at..at + 4].try_into().unwrap());
            let size = u16::from_le_bytes(f[at + 6..at + 8].try_into().unwrap()) as usize;
            types.push(ty);
            if ty == PERF_RECORD_AUX {
                got.push(AuxOutput {
                    offset: rd64(&f, at + 8),
                    size: rd64(&f, at + 16),
                    flags: rd64(&f, at + 24),
                });
            }
            at += size;
            if ty == PERF_RECORD_AUXTRACE {
                at += rd64(&f, at - size + 8) as usize;
            }
        }
        assert_eq!(types, vec![79, 70, 3, 11, 11, 68, 71, 68]);
        assert_eq!(got, outs);
    }

    /// Every AUXTRACE record's data starts on a 16-byte boundary of the file, whatever
    /// records come before it (perf's alignment pseudo-packet then splits the data as
    /// `spe decode` does): one to four AUX records before it, and a second CPU's buffer
    /// after a first one of 40 bytes.
    #[test]
    fn auxtrace_data_starts_on_a_16_byte_boundary() {
        let starts = |f: &[u8]| {
            let (doff, dsz) = (rd64(f, 40) as usize, rd64(f, 48) as usize);
            let (mut at, mut v) = (doff, Vec::new());
            while at < doff + dsz {
                let ty = u32::from_le_bytes(f[at..at + 4].try_into().unwrap());
                let size = u16::from_le_bytes(f[at + 6..at + 8].try_into().unwrap()) as usize;
                at += size;
                if ty == PERF_RECORD_AUXTRACE {
                    v.push(at);
                    at += rd64(f, at - size + 8) as usize;
                }
            }
            v
        };
        let aux = vec![0u8; 40];
        for n in 1..=4 {
            let outs = (0..n)
                .map(|i| AuxOutput {
                    offset: 8 * i,
                    size: 8,
                    flags: 0,
                })
                .collect();
            let f = write(
                &aux,
                &PerfOptions {
                    aux_outputs: outs,
                    ..PerfOptions::default()
                },
            );
            let s = starts(&f);
            assert_eq!(s.len(), 1);
            assert!(
                s.iter().all(|a| a.is_multiple_of(16)),
                "{n} AUX records: {s:?}"
            );
        }
        let cpus: Vec<CpuAux> = (0..2)
            .map(|cpu| CpuAux {
                cpu,
                aux: &aux,
                aux_outputs: vec![],
            })
            .collect();
        let s = starts(&write_cpus(&cpus, &PerfOptions::default()));
        assert_eq!(s.len(), 2);
        assert!(s.iter().all(|a| a.is_multiple_of(16)), "{s:?}");
    }

    /// Several CPUs' buffers: each AUXTRACE record carries its CPU (as mmap index and CPU),
    /// its offsets count in that CPU's own AUX area, its bytes follow it, and the AUX
    /// records' sample_id names the CPU; the CPU count covers them all.
    #[test]
    fn each_cpu_buffer_is_its_own_auxtrace_queue() {
        let (a0, a1) = (vec![0x11u8; 64 * 2], vec![0x22u8; 64 * 3]);
        let out = |size| AuxOutput {
            offset: 0,
            size,
            flags: 0,
        };
        let cpus = [
            CpuAux {
                cpu: 0,
                aux: &a0,
                aux_outputs: vec![out(128)],
            },
            CpuAux {
                cpu: 1,
                aux: &a1,
                aux_outputs: vec![out(192)],
            },
        ];
        let f = write_cpus(&cpus, &PerfOptions::default());
        let (doff, dsz) = (rd64(&f, 40) as usize, rd64(&f, 48) as usize);
        let mut at = doff;
        let (mut traces, mut aux_cpus) = (Vec::new(), Vec::new());
        while at < doff + dsz {
            let ty = u32::from_le_bytes(f[at..at + 4].try_into().unwrap());
            let size = u16::from_le_bytes(f[at + 6..at + 8].try_into().unwrap()) as usize;
            if ty == PERF_RECORD_AUX {
                // sample_id after offset, size, flags: pid, tid, time, cpu.
                aux_cpus.push(u32::from_le_bytes(f[at + 48..at + 52].try_into().unwrap()));
            }
            if ty == PERF_RECORD_AUXTRACE {
                let len = rd64(&f, at + 8) as usize;
                let idx = u32::from_le_bytes(f[at + 32..at + 36].try_into().unwrap());
                let cpu = u32::from_le_bytes(f[at + 40..at + 44].try_into().unwrap());
                traces.push((idx, cpu, rd64(&f, at + 16), len, f[at + size]));
                at += len;
            }
            at += size;
        }
        assert_eq!(aux_cpus, vec![0, 1]);
        assert_eq!(traces, vec![(0, 0, 0, 128, 0x11), (1, 1, 0, 192, 0x22)]);
        // HEADER_NRCPUS: 2 online, 2 available (the second feature's section).
        let feat = (doff + dsz) + 16;
        let (off, _) = (rd64(&f, feat) as usize, rd64(&f, feat + 8));
        assert_eq!(&f[off..off + 8], &[2, 0, 0, 0, 2, 0, 0, 0]);
    }

    /// Timer ticks become nanoseconds without overflow in perf's arithmetic.
    #[test]
    fn time_conversion_matches_the_timer() {
        for hz in [
            1_000_000u64,
            24_000_000,
            25_000_000,
            100_000_000,
            1_000_000_000,
        ] {
            let (shift, mult) = time_conv(hz);
            for ticks in [0u64, 1, 12_345, 86_447_957_412, 1 << 40] {
                let want = (u128::from(ticks) * 1_000_000_000 / u128::from(hz)) as u64;
                let got = perf_time(ticks, shift, mult);
                let err = got.abs_diff(want);
                assert!(
                    err <= 1 + want / 1_000_000,
                    "{hz} Hz, {ticks} ticks: {got} ns, want {want}"
                );
            }
        }
    }
}
