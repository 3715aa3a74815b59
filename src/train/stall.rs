//! Stopping while the device is busy: Ctrl-C or SIGTERM during a kernel compilation.
//!
//! The step loop looks at the stop flag between steps. On a GPU the first step at a shape
//! can take minutes (burn 0.21 compiles every kernel with NVRTC on its device thread, and
//! nothing can interrupt that), and schedulers follow SIGTERM with SIGKILL after a grace
//! period of 30-60 s: waiting for the step to end would lose the summary. A watchdog
//! thread sees the flag too; when the loop has not come back within a short grace after
//! it was set, the watchdog builds the summary from what the loop has recorded so far
//! (every finished step, every attempt) and hands it to the caller's `abandon`, which
//! writes it and ends the process. The step in progress is not applied, and no checkpoint
//! is written at that stop (reading the weights would wait for the busy device); the
//! checkpoints written before it stay.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::stop::StopFlag;
use super::summarize::Outcome;
use super::trainer::StepRecord;
use crate::results::{AttemptRecord, CacheCleanups, StopReason};
use crate::strategy::StepPlan;

/// The shortest wait between a stop request and abandoning the busy loop.
pub(super) const MIN_GRACE: Duration = Duration::from_secs(3);
/// The longest: schedulers' grace periods before SIGKILL are often 30 s.
pub(super) const MAX_GRACE: Duration = Duration::from_secs(20);

/// What the loop is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Busy {
    /// The dry warm-up step before the first real one (CUDA), where kernels compile.
    WarmUp,
    /// Optimizer step `n` (0-based).
    Step(usize),
    /// `--simulate-slow-start`: a SIMULATED wait before step 1 (tests of this path).
    SimulatedSlowStart,
}

impl Busy {
    fn describe(self, steps_done: usize, first_at_split: bool) -> String {
        match self {
            Busy::WarmUp => "the warm-up step before step 1, while kernels were compiling".into(),
            Busy::SimulatedSlowStart => {
                "the SIMULATED slow start before step 1 (--simulate-slow-start)".into()
            }
            Busy::Step(n) if steps_done == 0 => format!(
                "step {} (the run's first, which compiles its kernels on a GPU), before it ended",
                n + 1
            ),
            Busy::Step(n) if first_at_split => format!(
                "step {} (the first at a new split, which compiles kernels for its shapes on a GPU), before it ended",
                n + 1
            ),
            Busy::Step(n) => format!("step {}, before it ended", n + 1),
        }
    }
}

#[derive(Debug, Default)]
struct State {
    busy: Option<(Busy, Instant, bool)>,
    records: Vec<StepRecord>,
    attempts: Vec<AttemptRecord>,
    time_to_first_step_s: Option<f64>,
    plan: Option<StepPlan>,
}

/// What the loop has done so far, shared with the watchdog.
#[derive(Debug, Clone, Default)]
pub struct Journal {
    state: Arc<Mutex<State>>,
}

impl Journal {
    fn with<T>(&self, f: impl FnOnce(&mut State) -> T) -> T {
        let mut guard = match self.state.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        };
        f(&mut guard)
    }

    /// The loop starts `what`, at `plan`; `new_split`: the first attempt at this split.
    pub fn enter(&self, what: Busy, plan: StepPlan, new_split: bool) {
        self.with(|s| {
            s.busy = Some((what, Instant::now(), new_split));
            s.plan = Some(plan);
        });
    }

    /// The loop is between steps again.
    pub fn leave(&self) {
        self.with(|s| s.busy = None);
    }

    /// A step finished.
    pub fn step(&self, r: &StepRecord, time_to_first_step_s: Option<f64>) {
        self.with(|s| {
            s.records.push(r.clone());
            s.time_to_first_step_s = s.time_to_first_step_s.or(time_to_first_step_s);
        });
    }

    /// An attempt was logged.
    pub fn attempt(&self, a: &AttemptRecord) {
        self.with(|s| s.attempts.push(a.clone()));
    }

    /// Steps restored from a checkpoint, as the loop's own records.
    pub fn restored(&self, records: &[StepRecord], attempts: &[AttemptRecord]) {
        self.with(|s| {
            s.records.extend_from_slice(records);
            s.attempts.extend_from_slice(attempts);
        });
    }

    /// How long to wait after a stop request before abandoning the busy loop: three
    /// times the median step so far, within [`MIN_GRACE`, `MAX_GRACE`].
    fn grace(&self) -> Duration {
        self.with(|s| {
            let mut d: Vec<Duration> = s.records.iter().map(|r| r.duration).collect();
            d.sort();
            let median = d.get(d.len() / 2).copied().unwrap_or_default();
            (median * 3).clamp(MIN_GRACE, MAX_GRACE)
        })
    }

    /// What the loop is stuck in, and since when, if it is busy.
    fn busy_since(&self) -> Option<Instant> {
        self.with(|s| s.busy.map(|(_, t, _)| t))
    }

    /// The loop's outcome as of now, for a stop that cannot wait for it.
    pub fn abandoned(&self, stop: &StopFlag, fallback_plan: StepPlan) -> Outcome {
        self.with(|s| {
            let during = s.busy.map(|(what, _, new_split)| {
                format!(
                    "{} stopped it during {}: that step is not applied, and no checkpoint was written at the stop (the device was busy; checkpoints written before it are kept)",
                    stop.signal_name(),
                    what.describe(s.records.len(), new_split)
                )
            });
            Outcome {
                records: s.records.clone(),
                attempts: s.attempts.clone(),
                stop: StopReason::Interrupted,
                gave_up: None,
                time_to_first_step_s: s.time_to_first_step_s,
                next_plan: s.plan.unwrap_or(fallback_plan),
                cleanups: CacheCleanups::default(),
                poisoned: true,
                checkpoints: None,
                leak: None,
                stopped_during: during,
            }
        })
    }
}

/// The watchdog thread; dropping it (or [`Watchdog::finish`]) ends it.
pub struct Watchdog {
    done: Arc<AtomicBool>,
    handle: Option<JoinHandle<()>>,
}

impl Watchdog {
    /// Watches `journal` and `stop`: once a stop is requested and the loop stays busy
    /// for the grace period after it, calls `abandon` (which is expected to end the
    /// process) on this thread.
    pub fn start(journal: Journal, stop: StopFlag, abandon: Box<dyn FnOnce() + Send>) -> Self {
        let done = Arc::new(AtomicBool::new(false));
        let flag = done.clone();
        let handle = std::thread::Builder::new()
            .name("oomlab-stop-watch".into())
            .spawn(move || {
                let mut asked: Option<Instant> = None;
                while !flag.load(Ordering::SeqCst) {
                    std::thread::sleep(Duration::from_millis(50));
                    if !stop.requested() {
                        continue;
                    }
                    let asked_at = *asked.get_or_insert_with(Instant::now);
                    let Some(since) = journal.busy_since() else {
                        continue;
                    };
                    // Busy since before the request (or since it): how long it has kept
                    // the loop from seeing the flag.
                    let waited = asked_at.max(since).elapsed();
                    if waited >= journal.grace() {
                        abandon();
                        return;
                    }
                }
            })
            .ok();
        Self { done, handle }
    }

    /// Ends the watchdog (the loop is done: it will write the summary itself).
    pub fn finish(mut self) {
        self.stop_thread();
    }

    fn stop_thread(&mut self) {
        self.done.store(true, Ordering::SeqCst);
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.stop_thread();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    fn plan() -> StepPlan {
        StepPlan {
            micro_batch: 8,
            accumulation: 1,
            batch: 8,
        }
    }

    fn record(step: usize, ms: u64) -> StepRecord {
        StepRecord {
            step,
            loss: 1.0,
            micro_batch: 8,
            accumulation: 1,
            batch: 8,
            duration: Duration::from_millis(ms),
            memory: None,
            loss_scale: None,
            skipped: false,
            in_use: None,
        }
    }

    #[test]
    fn a_stop_during_a_long_first_step_is_abandoned_after_the_grace() {
        let journal = Journal::default();
        let stop = StopFlag::new();
        let (tx, rx) = mpsc::channel();
        let j = journal.clone();
        let s = stop.clone();
        let _dog = Watchdog::start(
            journal.clone(),
            stop.clone(),
            Box::new(move || {
                let _ = tx.send(j.abandoned(&s, plan()));
            }),
        );
        journal.enter(Busy::WarmUp, plan(), true);
        stop.request();
        let started = Instant::now();
        let outcome = rx.recv_timeout(Duration::from_secs(10)).expect("abandoned");
        let waited = started.elapsed();
        assert!(
            waited >= MIN_GRACE && waited < MIN_GRACE + Duration::from_secs(2),
            "{waited:?}"
        );
        assert_eq!(outcome.stop, StopReason::Interrupted);
        assert!(outcome.records.is_empty());
        let during = outcome.stopped_during.expect("says where");
        assert!(
            during.contains("Ctrl-C") && during.contains("warm-up"),
            "{during}"
        );
    }

    #[test]
    fn a_loop_between_steps_is_left_to_stop_by_itself() {
        let journal = Journal::default();
        let stop = StopFlag::new();
        let (tx, rx) = mpsc::channel::<()>();
        let dog = Watchdog::start(
            journal.clone(),
            stop.clone(),
            Box::new(move || {
                let _ = tx.send(());
            }),
        );
        journal.enter(Busy::Step(0), plan(), true);
        journal.step(&record(0, 10), Some(1.0));
        journal.leave();
        stop.request();
        assert!(rx.recv_timeout(MIN_GRACE + Duration::from_secs(1)).is_err());
        dog.finish();
    }

    #[test]
    fn the_grace_follows_the_steps_so_far_within_its_bounds() {
        let journal = Journal::default();
        assert_eq!(journal.grace(), MIN_GRACE);
        for (i, ms) in [2000, 2500, 3000].into_iter().enumerate() {
            journal.step(&record(i, ms), None);
        }
        assert_eq!(journal.grace(), Duration::from_millis(7500));
        for i in 3..6 {
            journal.step(&record(i, 60_000), None);
        }
        assert_eq!(journal.grace(), MAX_GRACE);
    }

    #[test]
    fn finished_steps_are_kept_in_the_abandoned_outcome() {
        let journal = Journal::default();
        let stop = StopFlag::new();
        journal.step(&record(0, 10), Some(0.5));
        journal.enter(Busy::Step(1), plan(), false);
        let o = journal.abandoned(&stop, plan());
        assert_eq!(o.records.len(), 1);
        assert_eq!(o.time_to_first_step_s, Some(0.5));
        assert!(o.stopped_during.expect("where").contains("step 2"));
    }
}
