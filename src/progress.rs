//! Progress on stderr: an indicatif bar on a terminal, a log line every tenth of the run
//! otherwise (so `2>run.log` and CI logs still show the loss falling).

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::train::{AttemptOutcome, AttemptRecord, StepObserver, StepRecord};

/// The one progress-bar factory: hidden when stderr is not a terminal.
pub fn bar(len: u64, template: &str) -> ProgressBar {
    let target = if std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let pb = ProgressBar::with_draw_target(Some(len), target);
    if let Ok(style) = ProgressStyle::with_template(template) {
        pb.set_style(style.progress_chars("=> "));
    }
    pb
}

/// Shows training progress.
pub struct TrainProgress {
    bar: ProgressBar,
    log_lines: bool,
    every: usize,
    total: usize,
    quiet: bool,
}

impl TrainProgress {
    /// `quiet` silences the log lines (the bar is hidden anyway off a terminal).
    pub fn new(quiet: bool) -> Self {
        Self {
            bar: bar(0, "{elapsed_precise} [{bar:30}] step {pos}/{len} {msg}"),
            log_lines: !std::io::stderr().is_terminal(),
            every: 1,
            total: 0,
            quiet,
        }
    }

    /// Clears the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl StepObserver for TrainProgress {
    fn on_start(&mut self, steps: usize) {
        self.total = steps;
        self.every = (steps / 10).max(1);
        self.bar.set_length(steps as u64);
        self.bar.set_message("(first step: building kernels...)");
    }

    fn on_step(&mut self, r: &StepRecord) {
        let secs = r.duration.as_secs_f64();
        let sps = if secs > 0.0 {
            r.batch as f64 / secs
        } else {
            0.0
        };
        self.bar.set_position(r.step as u64 + 1);
        let mem = r.memory.map(|b| format!(" | mem {b}")).unwrap_or_default();
        let scale = r
            .loss_scale
            .map(|s| format!(" | loss scale {s}"))
            .unwrap_or_default();
        self.bar.set_message(format!(
            "loss {:.4} | {sps:.0} samples/s{mem}{scale}",
            r.loss
        ));
        if r.skipped && !self.quiet {
            let line = format!(
                "step {}: a gradient overflowed at loss scale {}: update skipped, loss scale backed off",
                r.step + 1,
                r.loss_scale.unwrap_or(0.0)
            );
            self.bar.suspend(|| eprintln!("{line}"));
        }
        let n = r.step + 1;
        if self.log_lines && !self.quiet && (n % self.every == 0 || n == 1 || n == self.total) {
            let mem = r.memory.map(|b| format!(", mem {b}")).unwrap_or_default();
            eprintln!(
                "step {n}/{} loss {:.4} ({} x {}, {:.3} s, {sps:.0} samples/s{mem})",
                self.total, r.loss, r.micro_batch, r.accumulation, secs
            );
        }
    }

    fn on_attempt(&mut self, a: &AttemptRecord) {
        if self.quiet || a.outcome == AttemptOutcome::Ok {
            return;
        }
        let label = if a.simulated {
            "SIMULATED out of memory"
        } else {
            "out of memory"
        };
        let phase = a.phase.map(|p| format!(" in {p}")).unwrap_or_default();
        let line = format!(
            "step {}: {label}{phase} at {} x {}; {}",
            a.step + 1,
            a.micro_batch,
            a.accumulation,
            a.next.as_deref().unwrap_or("")
        );
        self.bar.suspend(|| eprintln!("{line}"));
    }

    fn on_note(&mut self, line: &str) {
        if !self.quiet {
            self.bar.suspend(|| eprintln!("oomlab: {line}"));
        }
    }
}
