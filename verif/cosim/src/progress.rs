//! Progress for long commands: a bar redrawn in place on a terminal, or a line about every
//! ten seconds when stderr is a file or a pipe (CI logs).

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// Seconds between progress lines when stderr is not a terminal.
const LOG_EVERY: Duration = Duration::from_secs(10);
const BAR: usize = 30;

/// One long command's progress: `update` with the work done so far, `finish` at the end.
pub struct Progress {
    what: &'static str,
    total: u64,
    quiet: bool,
    tty: bool,
    started: Instant,
    last: Instant,
    drawn: bool,
}

impl Progress {
    /// Progress of `what` over `total` units of work (cycles); nothing is shown when `quiet`.
    pub fn new(what: &'static str, total: u64, quiet: bool) -> Progress {
        let now = Instant::now();
        Progress {
            what,
            total: total.max(1),
            quiet,
            tty: std::io::stderr().is_terminal(),
            started: now,
            last: now,
            drawn: false,
        }
    }

    /// `done` of `total` cycles so far, plus a short status text.
    pub fn update(&mut self, done: u64, status: &str) {
        if self.quiet {
            return;
        }
        let every = if self.tty {
            Duration::from_millis(200)
        } else {
            LOG_EVERY
        };
        if self.last.elapsed() < every {
            return;
        }
        self.last = Instant::now();
        let secs = self.started.elapsed().as_secs_f64().max(1e-9);
        let frac = (done as f64 / self.total as f64).min(1.0);
        let rate = done as f64 / secs;
        let eta = if rate > 0.0 {
            (self.total.saturating_sub(done)) as f64 / rate
        } else {
            0.0
        };
        let mut err = std::io::stderr().lock();
        if self.tty {
            let fill = (frac * BAR as f64) as usize;
            let _ = write!(
                err,
                "\r{}: [{}{}] {:>3.0}% {:.2} Mcycles/s, ETA {:.0} s, {status}\x1b[K",
                self.what,
                "#".repeat(fill),
                ".".repeat(BAR - fill),
                frac * 100.0,
                rate / 1e6,
                eta
            );
            self.drawn = true;
        } else {
            let _ = writeln!(
                err,
                "{}: {done} / {} cycles ({:.0}%), {:.2} Mcycles/s, ETA {:.0} s, {status}",
                self.what,
                self.total,
                frac * 100.0,
                rate / 1e6,
                eta
            );
        }
        let _ = err.flush();
    }

    /// Ends the bar's line.
    pub fn finish(&mut self) {
        if self.drawn {
            eprintln!();
            self.drawn = false;
        }
    }
}
