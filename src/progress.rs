//! Progress on stderr: an indicatif bar on a terminal, a log line every tenth of the run
//! otherwise (so `2>run.log` and CI logs still show the loss falling).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::device::CacheCounts;
use crate::results::{AttemptOutcome, AttemptRecord};
use crate::train::{StepObserver, StepRecord};

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
    warm_up: Option<(Arc<AtomicBool>, JoinHandle<()>)>,
}

/// What the warm-up step is doing, for the progress line: kernels compiled and
/// operations autotuned so far (counted in the kernel cache folder), and for how long.
fn warm_up_status(started: Instant, cache: Option<&(PathBuf, CacheCounts)>) -> String {
    let secs = started.elapsed().as_secs();
    match cache {
        Some((dir, before)) => {
            let n = CacheCounts::read(dir).since(*before);
            format!(
                "first step at this shape: {} kernels compiled, {} operations autotuned, {secs} s (later runs reuse them)",
                n.kernels, n.tuned
            )
        }
        None => format!("first step at this shape: compiling and autotuning kernels, {secs} s"),
    }
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
            warm_up: None,
        }
    }

    /// Clears the bar.
    pub fn finish(&mut self) {
        self.on_warm_up_done();
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
                "step {n}/{} loss {:.4} ({}, {:.3} s, {sps:.0} samples/s{mem})",
                self.total,
                r.loss,
                crate::strategy::StepPlan {
                    micro_batch: r.micro_batch,
                    accumulation: r.accumulation,
                    batch: r.batch,
                },
                secs
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
            self.bar
                .suspend(|| eprint!("{}", crate::text::hang("oomlab: ", line)));
        }
    }

    /// Updates the bar's message every half second while kernels compile, and off a
    /// terminal prints the same line every 15 s, so a long first step says what it does.
    fn on_warm_up(&mut self, kernel_cache: Option<&Path>) {
        if self.quiet {
            return;
        }
        let cache = kernel_cache.map(|d| (d.to_path_buf(), CacheCounts::read(d)));
        let stop = Arc::new(AtomicBool::new(false));
        let (bar, lines, flag) = (self.bar.clone(), self.log_lines, stop.clone());
        let ticker = std::thread::spawn(move || {
            let started = Instant::now();
            let mut next_line = Duration::from_secs(15);
            // Wakes every 100 ms so the step's end stops it promptly; reads the cache
            // folder every fifth time.
            for tick in 1u64.. {
                std::thread::sleep(Duration::from_millis(100));
                if flag.load(Ordering::Relaxed) {
                    break;
                }
                if tick % 5 != 0 {
                    continue;
                }
                let status = warm_up_status(started, cache.as_ref());
                bar.set_message(status.clone());
                if lines && started.elapsed() >= next_line {
                    eprint!("{}", crate::text::hang("oomlab: ", &status));
                    next_line += Duration::from_secs(15);
                }
            }
        });
        self.warm_up = Some((stop, ticker));
    }

    fn on_warm_up_done(&mut self) {
        if let Some((stop, ticker)) = self.warm_up.take() {
            stop.store(true, Ordering::Relaxed);
            let _ = ticker.join();
        }
    }
}
