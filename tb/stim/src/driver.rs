//! The software driver: programs the unit through the register port the way the Linux
//! `arm_spe_pmu` driver does (one access per cycle), services the buffer interrupt, and
//! collects the records into a byte stream (what perf would find in its AUX area).
//!
//! Start-up: PMSCR_EL2 as EL2 boot code leaves it (non-VHE: PA and physical-counter
//! permission only), then PMSIRR, PMSFCR, PMSEVFR, PMSNEVFR, PMSLATFR, PMSICR, PMBPTR,
//! PMBLIMITR (limit | fill mode | E) and the sampling control last (PMSCR_EL1, or
//! PMSCR_EL2 in a VHE host, with PMSCR_EL1 left 0).
//!
//! Interrupt (seen on `irq`): read PMBSR and PMBPTR, copy [base, PMBPTR) from memory to
//! the output, record the management event, then PMBPTR = base, PMBLIMITR again and
//! PMBSR = 0 (profiling resumes). A buffer fault follows [`FaultAction`].
//!
//! Drain at the end of a run: disable sampling, wait until the unit is quiet (the runner
//! decides), read PMBSR and PMBPTR, copy what remains, disable the buffer.

use crate::memory::Memory;
use spe_defs::config::Config;
use spe_defs::impdef::RECORD_SIZE;
use spe_defs::regs::{
    pmblimitr, pmbptr, pmbsr, pmscr, pmsfcr, pmsicr, pmsirr, pmslatfr, reg, RegId,
};
use spe_ports::{Inputs, Outputs};
use std::collections::VecDeque;

/// PMBLIMITR.LIMIT granule (4 KiB).
const LIMIT_GRANULE: u64 = 1 << pmblimitr::LIMIT.lsb;

/// What the driver does after a buffer fault (external abort on a record write).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultAction {
    /// Like Linux: the data is truncated and profiling stays off (buffer disabled).
    Stop,
    /// Rewind and resume, to keep a long run exercising the unit.
    Restart,
}

/// How software configures sampling. Defaults match `perf record -e arm_spe//` run as
/// root on a per-CPU (`-a`) session: period = the advertised minimum interval, no jitter,
/// no filters, user and kernel, timestamps on (perf sets ts_enable for per-CPU sessions),
/// virtual counter, context on (the kernel sets CX for perfmon-capable users when built
/// with CONFIG_PID_IN_CONTEXTIDR), no physical addresses, fill mode, 4 MiB AUX buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SampleSettings {
    /// Sampling period in ops (perf `-c`/`period=`); PMSIRR.INTERVAL = interval >> 8.
    /// Values below the advertised minimum are written as given (an illegal-value test).
    pub interval: u64,
    /// PMSIRR.RND (perf `jitter=1`).
    pub jitter: bool,
    /// Type filter (perf `branch_filter`, `load_filter`, `store_filter`): sets FT and B/LD/ST.
    pub branch_filter: bool,
    pub load_filter: bool,
    pub store_filter: bool,
    /// PMSEVFR (perf `event_filter`); FE is set when non-zero.
    pub event_filter: u64,
    /// PMSNEVFR (perf `inv_event_filter`); FnE is set when non-zero.
    pub inv_event_filter: u64,
    /// PMSLATFR.MINLAT (perf `min_latency`); FL is set when non-zero.
    pub min_latency: u64,
    /// Sample at EL0 (perf: not exclude_user).
    pub user: bool,
    /// Sample in the kernel, EL1 or the EL2 host (perf: not exclude_kernel).
    pub kernel: bool,
    /// PMSCR.TS (perf `ts_enable`).
    pub ts: bool,
    /// PMSCR.PA (perf `pa_enable`).
    pub pa: bool,
    /// PMSCR.PCT = physical (perf `pct_enable`).
    pub pct: bool,
    /// PMSCR.CX.
    pub cx: bool,
    /// PMBLIMITR.FM = discard (perf `discard=1`): nothing is written.
    pub discard: bool,
    /// The kernel runs at EL2 (VHE host): sampling is controlled by PMSCR_EL2.
    pub host: bool,
    /// Buffer start (64-byte aligned).
    pub buffer_base: u64,
    /// Buffer size in bytes (a multiple of 4 KiB).
    pub buffer_size: u64,
    /// Initial PMSICR.COUNT; `None`: the interval (Linux writes the period left).
    pub initial_count: Option<u64>,
    pub on_fault: FaultAction,
}

impl SampleSettings {
    /// perf's defaults for a unit built with `cfg`.
    pub fn perf_default(cfg: &Config) -> SampleSettings {
        SampleSettings {
            interval: u64::from(cfg.min_interval()),
            jitter: false,
            branch_filter: false,
            load_filter: false,
            store_filter: false,
            event_filter: 0,
            inv_event_filter: 0,
            min_latency: 0,
            user: true,
            kernel: true,
            ts: true,
            pa: false,
            pct: false,
            cx: true,
            discard: false,
            host: false,
            buffer_base: 0xffff_8000_2000_0000,
            buffer_size: 4 << 20,
            initial_count: None,
            on_fault: FaultAction::Stop,
        }
    }

    /// Checks what software could not program at all.
    pub fn validate(&self) -> Result<(), String> {
        if !self.buffer_base.is_multiple_of(RECORD_SIZE as u64) {
            return Err(format!("buffer base {:#x} is not aligned to the {RECORD_SIZE}-byte record slot (PMBIDR.Align)", self.buffer_base));
        }
        if self.buffer_size == 0 || !self.buffer_size.is_multiple_of(LIMIT_GRANULE) {
            return Err(format!(
                "buffer size {} is not a non-zero multiple of 4096 (PMBLIMITR granule)",
                self.buffer_size
            ));
        }
        if self.buffer_base.checked_add(self.buffer_size).is_none() {
            return Err("buffer base + size overflows the address space".into());
        }
        if self.interval >> 8 > pmsirr::INTERVAL.mask() >> pmsirr::INTERVAL.lsb {
            return Err(format!(
                "interval {} does not fit PMSIRR.INTERVAL",
                self.interval
            ));
        }
        Ok(())
    }

    /// The buffer limit (exclusive); 4 KiB aligned down as PMBLIMITR holds it.
    pub fn limit(&self) -> u64 {
        (self.buffer_base + self.buffer_size) & !(LIMIT_GRANULE - 1)
    }

    /// The window records may be written to: [base, limit), empty in discard mode.
    pub fn window(&self) -> (u64, u64) {
        if self.discard {
            (0, 0)
        } else {
            (self.buffer_base, self.limit())
        }
    }

    fn pmsirr(&self) -> u64 {
        pmsirr::INTERVAL.place(self.interval >> pmsirr::INTERVAL.lsb)
            | pmsirr::RND.place(self.jitter.into())
    }

    fn pmsfcr(&self) -> u64 {
        let ft = self.branch_filter || self.load_filter || self.store_filter;
        pmsfcr::FE.place((self.event_filter != 0).into())
            | pmsfcr::FT.place(ft.into())
            | pmsfcr::FL.place((self.min_latency != 0).into())
            | pmsfcr::FNE.place((self.inv_event_filter != 0).into())
            | pmsfcr::B.place(self.branch_filter.into())
            | pmsfcr::LD.place(self.load_filter.into())
            | pmsfcr::ST.place(self.store_filter.into())
    }

    fn pmblimitr(&self) -> u64 {
        if self.discard {
            pmblimitr::FM.place(pmblimitr::FM_DISCARD) | pmblimitr::E.place(1)
        } else {
            pmblimitr::LIMIT.place(self.limit() >> pmblimitr::LIMIT.lsb)
                | pmblimitr::FM.place(pmblimitr::FM_FILL)
                | pmblimitr::E.place(1)
        }
    }

    /// Sampling control: enables in bits 0/1 (E0SPE/E1SPE, or E0HSPE/E2SPE at EL2), then
    /// CX, PA, TS, PCT.
    fn pmscr(&self) -> u64 {
        pmscr::E0SPE.place(self.user.into())
            | pmscr::E1SPE.place(self.kernel.into())
            | pmscr::CX.place(self.cx.into())
            | pmscr::PA.place(self.pa.into())
            | pmscr::TS.place(self.ts.into())
            | pmscr::PCT.place(if self.pct {
                pmscr::PCT_PHYSICAL
            } else {
                pmscr::PCT_VIRTUAL
            })
    }

    /// The full start-up sequence, in order.
    pub fn program(&self) -> Vec<(RegId, u64)> {
        // Non-VHE EL2 boot code grants EL1 physical addresses and the physical counter.
        let el2_boot = pmscr::PA.place(1) | pmscr::PCT.place(pmscr::PCT_PHYSICAL);
        let mut seq = Vec::new();
        if !self.host {
            seq.push((RegId::PmscrEl2, el2_boot));
        }
        seq.extend([
            (RegId::Pmsirr, self.pmsirr()),
            (RegId::Pmsfcr, self.pmsfcr()),
            (RegId::Pmsevfr, self.event_filter),
            (RegId::Pmsnevfr, self.inv_event_filter),
            (
                RegId::Pmslatfr,
                pmslatfr::MINLAT_FIELD.place(self.min_latency),
            ),
            (
                RegId::Pmsicr,
                pmsicr::COUNT.place(self.initial_count.unwrap_or(self.interval)),
            ),
            (RegId::Pmbptr, pmbptr::PTR.place(self.buffer_base)),
            (RegId::Pmblimitr, self.pmblimitr()),
        ]);
        if self.host {
            seq.push((RegId::PmscrEl1, 0));
            seq.push((RegId::PmscrEl2, self.pmscr()));
        } else {
            seq.push((RegId::PmscrEl1, self.pmscr()));
        }
        seq
    }
}

impl Default for SampleSettings {
    fn default() -> Self {
        SampleSettings::perf_default(&Config::default())
    }
}

/// One buffer management event the driver serviced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MgmtEvent {
    pub cycle: u64,
    pub pmbsr: u64,
    pub pmbptr: u64,
    /// Bytes copied to the output for this event.
    pub bytes: u64,
}

impl MgmtEvent {
    /// Buffer-full event (EC = buffer management, BSC = full).
    pub fn is_full(&self) -> bool {
        pmbsr::EC.get(self.pmbsr) == pmbsr::EC_BUF && pmbsr::BSC.get(self.pmbsr) == pmbsr::BSC_FULL
    }
    /// Fault event (external abort on a record write).
    pub fn is_fault(&self) -> bool {
        pmbsr::EC.get(self.pmbsr) != pmbsr::EC_BUF || pmbsr::EA.is_set(self.pmbsr)
    }
}

/// One register access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Access {
    Write(RegId, u64),
    Read(RegId),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Start-up writes in flight, or profiling on.
    Running,
    /// Reading status after an interrupt or for the final drain.
    Collecting { drain: bool },
    /// Profiling stopped after a fault (Linux truncates the session).
    Stopped,
    /// Sampling disabled at the end of the run, waiting for `collect_final`.
    Disabled,
    /// Drained and the buffer disabled.
    Done,
}

/// The driver.
pub struct Driver {
    settings: SampleSettings,
    queue: VecDeque<Access>,
    issued: Option<Access>,
    phase: Phase,
    /// `irq` seen high last cycle (and not just cleared).
    irq: bool,
    status: Option<u64>,
    aux: Vec<u8>,
    events: Vec<MgmtEvent>,
}

impl Driver {
    /// A driver that will program `settings` from the first cycle.
    pub fn new(settings: SampleSettings) -> Result<Driver, String> {
        settings.validate()?;
        let queue = settings
            .program()
            .into_iter()
            .map(|(r, v)| Access::Write(r, v))
            .collect();
        Ok(Driver {
            settings,
            queue,
            issued: None,
            phase: Phase::Running,
            irq: false,
            status: None,
            aux: Vec::new(),
            events: Vec::new(),
        })
    }

    /// Drives this cycle's register access, if any.
    pub fn drive(&mut self, _cycle: u64, inp: &mut Inputs) {
        if self.irq
            && self.queue.is_empty()
            && matches!(self.phase, Phase::Running | Phase::Disabled)
        {
            self.start_collect(false);
        }
        self.issued = self.queue.pop_front();
        let Some(a) = self.issued else { return };
        inp.reg_en = true;
        match a {
            Access::Write(r, v) => {
                inp.reg_we = true;
                inp.reg_addr = reg(r).addr();
                inp.reg_wdata = v;
            }
            Access::Read(r) => {
                inp.reg_we = false;
                inp.reg_addr = reg(r).addr();
            }
        }
    }

    /// Takes read data and the interrupt; copies drained records out of `mem`.
    pub fn observe(&mut self, cycle: u64, out: &Outputs, mem: &mut Memory) {
        let cleared = self.issued == Some(Access::Write(RegId::Pmbsr, 0));
        // irq is registered: in the cycle PMBSR is cleared it still shows the old status.
        self.irq = out.irq && !cleared;
        match self.issued.take() {
            Some(Access::Read(RegId::Pmbsr)) => self.status = Some(out.reg_rdata),
            Some(Access::Read(RegId::Pmbptr)) => self.collected(cycle, out.reg_rdata, mem),
            _ => {}
        }
        if cleared && matches!(self.phase, Phase::Collecting { .. }) {
            self.phase = Phase::Running;
        }
    }

    fn start_collect(&mut self, drain: bool) {
        self.phase = Phase::Collecting { drain };
        self.status = None;
        self.queue.push_back(Access::Read(RegId::Pmbsr));
        self.queue.push_back(Access::Read(RegId::Pmbptr));
    }

    /// Both status and pointer read: copy the records and decide what happens next.
    fn collected(&mut self, cycle: u64, ptr: u64, mem: &mut Memory) {
        let Phase::Collecting { drain } = self.phase else {
            return;
        };
        let status = self.status.unwrap_or(0);
        let (base, limit) = self.settings.window();
        let end = ptr.clamp(base, limit);
        let bytes = end - base;
        self.aux.extend(mem.read(base, bytes));
        let service = pmbsr::S.is_set(status);
        let ev = MgmtEvent {
            cycle,
            pmbsr: status,
            pmbptr: ptr,
            bytes,
        };
        if service || bytes > 0 {
            self.events.push(ev);
        }
        let restart = [
            Access::Write(RegId::Pmbptr, pmbptr::PTR.place(self.settings.buffer_base)),
            Access::Write(RegId::Pmblimitr, self.settings.pmblimitr()),
            Access::Write(RegId::Pmbsr, 0),
        ];
        mem.rewound();
        if drain {
            self.queue.push_back(Access::Write(RegId::Pmblimitr, 0));
            self.queue.push_back(Access::Write(RegId::Pmbsr, 0));
            self.phase = Phase::Done;
        } else if !service {
            // Spurious interrupt: nothing to do but rewind.
            self.queue.extend(restart);
        } else if ev.is_fault() && self.settings.on_fault == FaultAction::Stop {
            self.queue.push_back(Access::Write(RegId::Pmblimitr, 0));
            self.queue.push_back(Access::Write(RegId::Pmbsr, 0));
            self.phase = Phase::Stopped;
        } else {
            self.queue.extend(restart);
        }
    }

    /// End of the run: disable sampling (both controls, so no new sample starts).
    pub fn disable(&mut self) {
        self.queue.push_back(Access::Write(RegId::PmscrEl1, 0));
        self.queue.push_back(Access::Write(RegId::PmscrEl2, 0));
        if self.phase == Phase::Running {
            self.phase = Phase::Disabled;
        }
    }

    /// After the unit went quiet: read what remains and disable the buffer.
    pub fn collect_final(&mut self) {
        match self.phase {
            Phase::Disabled | Phase::Running => self.start_collect(true),
            Phase::Stopped => self.phase = Phase::Done,
            Phase::Collecting { .. } | Phase::Done => {}
        }
    }

    /// True when nothing is queued and no interrupt is being serviced.
    pub fn idle(&self) -> bool {
        self.queue.is_empty()
            && self.issued.is_none()
            && !matches!(self.phase, Phase::Collecting { .. })
    }

    /// True once the final drain finished.
    pub fn done(&self) -> bool {
        self.phase == Phase::Done && self.queue.is_empty()
    }

    /// The drained record bytes, in order (the perf AUX data).
    pub fn aux(&self) -> &[u8] {
        &self.aux
    }

    pub fn take_aux(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.aux)
    }

    /// Management events (each interrupt serviced, and the final drain if it found data).
    pub fn events(&self) -> &[MgmtEvent] {
        &self.events
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use spe_defs::PRESETS;

    #[test]
    fn perf_defaults_follow_the_configuration() {
        for cfg in PRESETS {
            let s = SampleSettings::perf_default(cfg);
            s.validate().unwrap();
            assert_eq!(s.interval, u64::from(cfg.min_interval()));
            assert!(s.user && s.kernel && s.ts && !s.pa && !s.discard);
        }
    }

    #[test]
    fn invalid_buffers_are_rejected() {
        let mut s = SampleSettings {
            buffer_base: 0x1001,
            ..SampleSettings::default()
        };
        assert!(s.validate().unwrap_err().contains("aligned"));
        s.buffer_base = 0x1000;
        s.buffer_size = 100;
        assert!(s.validate().is_err());
        s.buffer_size = 4096;
        s.interval = 1 << 40;
        assert!(s.validate().is_err());
    }

    #[test]
    fn enable_is_the_last_write_of_the_start_up_sequence() {
        let s = SampleSettings::default();
        let seq = s.program();
        assert_eq!(seq.last().unwrap().0, RegId::PmscrEl1);
        let host = SampleSettings {
            host: true,
            ..SampleSettings::default()
        }
        .program();
        assert_eq!(host.last().unwrap().0, RegId::PmscrEl2);
        assert!(pmscr::E0SPE.is_set(host.last().unwrap().1));
    }
}
