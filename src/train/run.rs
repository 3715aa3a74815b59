//! A whole run: start the memory sampler, build, step until done or stopped, summarise.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::error::TrainError;
use super::stall::{Busy, Journal, Watchdog};
use super::stop::StopFlag;
use super::summarize::{summarize, Measured, Outcome, ScalerState};
use super::trainer::{Instruments, JoinError, StepRecord, Trainer};
use crate::config::{MemoryMode, RunConfig};
use crate::data::Corpus;
use crate::device::CacheCounts;
use crate::model::{ParamFingerprint, ParamStats};
use crate::oom::contained;
use crate::probe::AllocatorProbe;
use crate::probe::{host, reconcile, MemoryProbe, MemoryReading, MemoryReport, Sampler, Timeline};
use crate::results::{AttemptRecord, StepAnatomy};
use crate::results::{CacheCleanups, DeviceInfo, KernelCacheReport, RunSummary, StopReason};
use crate::strategy::{self, OomResponse, StepPlan, Strategy};
use crate::units::Bytes;
use crate::words::{Checks, MemoryKind};

/// Receives progress as the loop runs (the progress bar, the run folder's step log).
pub trait StepObserver {
    /// Before the first step.
    fn on_start(&mut self, _steps: usize) {}
    /// After every step.
    fn on_step(&mut self, _record: &StepRecord) {}
    /// After every attempt at a split not yet proven to fit (the retry log).
    fn on_attempt(&mut self, _record: &AttemptRecord) {}
    /// Something the user should see before the steps (e.g. what preallocation took).
    fn on_note(&mut self, _line: &str) {}
    /// Before the dry warm-up step (CUDA), where kernels are compiled and autotuned;
    /// `kernel_cache` is the folder they are written to, when there is one.
    fn on_warm_up(&mut self, _kernel_cache: Option<&std::path::Path>) {}
    /// After the warm-up step.
    fn on_warm_up_done(&mut self) {}
}

/// What a run measures with.
#[derive(Clone)]
pub struct RunKit {
    /// Detector and phase-boundary sources for the trainer.
    pub instruments: Instruments,
    /// What the background sampler reads: NVML on a GPU, the host otherwise.
    pub sampled: Option<Arc<dyn MemoryProbe>>,
    /// Sampling interval.
    pub sample_interval: Duration,
    /// `gpu` or `host`.
    pub memory_kind: MemoryKind,
    /// Sources that are unavailable, and why.
    pub notes: Vec<String>,
    /// VRAM held outside burn to emulate a smaller card.
    pub ballast: Option<Bytes>,
    /// The budget the run trains under (`--vram-budget` or `--memory-budget`), recorded
    /// in the summary so that a report drawn from the run folder alone can draw it.
    pub budget: Option<Bytes>,
    /// Samples of a dry step before the first real one (CUDA: see [`Trainer::warm_up`]).
    pub warm_up_rows: Option<usize>,
    /// burn's GPU pool, for `--memory-mode prealloc`.
    pub pool: Option<Arc<dyn super::PoolHooks>>,
    /// Whether the backend fully supports the run's half type (burn's `supports_dtype`).
    pub supports_half: Option<bool>,
    /// Where compiled kernels and autotune results are kept (CUDA), to count what the
    /// run added.
    pub kernel_cache: Option<std::path::PathBuf>,
    /// Where and how often to write checkpoints (`--checkpoint-every`).
    pub checkpoints: Option<super::CheckpointPlan>,
    /// The checkpoint a resumed run starts from (`--resume`).
    pub resume: Option<Arc<super::ResumeFrom>>,
    /// The leak detector's settings.
    pub leak: crate::results::LeakSpec,
    /// `--leak-demo`: leak on purpose, for the detector to catch.
    pub leak_demo: Option<crate::words::LeakDemo>,
    /// Called, on a watchdog thread, with the summary of a run that a stop request could
    /// not reach because the device stayed busy (a kernel compilation): it writes the
    /// summary and ends the process. `None`: stops wait for the step to end.
    pub abandon: Option<Arc<dyn Fn(RunResult) + Send + Sync>>,
    /// A SIMULATED slow start for tests of the stop path on the CPU: the loop sleeps this
    /// long before step 1, without looking at the stop flag, as a compilation would.
    pub simulated_slow_start: Option<Duration>,
}

impl Default for RunKit {
    fn default() -> Self {
        Self {
            instruments: Instruments::default(),
            sampled: None,
            sample_interval: Duration::from_millis(20),
            memory_kind: MemoryKind::Host,
            notes: Vec::new(),
            ballast: None,
            budget: None,
            warm_up_rows: None,
            pool: None,
            supports_half: None,
            kernel_cache: None,
            checkpoints: None,
            resume: None,
            leak: crate::results::LeakSpec::default(),
            leak_demo: None,
            abandon: None,
            simulated_slow_start: None,
        }
    }
}

impl CacheCleanups {
    /// Returns the pool's free pages to the driver and records what that freed and took.
    fn record<B: super::TrainBackend>(
        &mut self,
        trainer: &Trainer<B>,
        allocator: Option<&AllocatorProbe>,
    ) {
        let reserved = || allocator.and_then(|a| a.stats()).map(|s| s.reserved.0);
        let before = reserved();
        let started = Instant::now();
        B::memory_cleanup(trainer.device());
        let _ = B::sync(trainer.device());
        self.seconds += started.elapsed().as_secs_f64();
        self.count += 1;
        if let (Some(b), Some(a)) = (before, reserved()) {
            let freed = b.saturating_sub(a);
            self.freed_total = Some(Bytes(self.freed_total.map_or(0, |t| t.0) + freed));
            self.freed_max = Some(Bytes(self.freed_max.map_or(0, |m| m.0).max(freed)));
            self.reserved_after_last = Some(Bytes(a));
        }
    }
}

/// A finished run: its summary and the sampler's timeline.
pub struct RunResult {
    /// The summary.
    pub summary: RunSummary,
    /// Memory over time (empty without a sampled source).
    pub timeline: Timeline,
}

/// Trains with `cfg` on `device`, in step with the other devices `sync` connects
/// ([`Alone`](super::Alone) for none), until all steps ran, `stop` is requested, or a step
/// fails; the summary is returned in every case. `cfg.train.batch` is this device's share.
#[allow(clippy::too_many_arguments)]
pub fn train<B: super::TrainBackend>(
    cfg: &RunConfig,
    corpus: Arc<Corpus>,
    device: B::Device,
    device_info: DeviceInfo,
    mut kit: RunKit,
    sync: Arc<dyn super::GradSync<B>>,
    stop: &StopFlag,
    observer: &mut dyn StepObserver,
) -> RunResult {
    let started = Instant::now();
    host::reset_peak();
    let sampler = kit
        .sampled
        .clone()
        .map(|p| Sampler::start(p, kit.sample_interval));
    let read_now = || {
        let sampled = kit.sampled.as_ref().map(|p| p.read()).unwrap_or_default();
        let alloc = kit
            .instruments
            .allocator
            .as_ref()
            .map(|a| a.read())
            .unwrap_or_default();
        alloc.or(sampled)
    };
    let baseline = read_now();

    // TensorFlow-style: take the memory before anything else does.
    let (mut prealloc, notes) = preallocate(cfg, &kit, observer);
    kit.notes.extend(notes);

    let mut strategy = strategy::for_split(cfg.train.split);
    let mut initial_plan = strategy.plan(cfg.train.batch);
    let vocab = corpus.vocab.len();
    let data = corpus.origin.clone();
    let mut trainer =
        Trainer::<B>::with_instruments(cfg, corpus, initial_plan, device, kit.instruments.clone());
    // With preallocation, memory is never handed back (TensorFlow does not either).
    trainer.set_keep_pool(prealloc.is_some());
    trainer.set_leak_demo(kit.leak_demo);
    let mut start_step = 0;
    let mut restore_failed = None;
    let mut oom_before_start = None;
    match trainer.join(sync.clone()) {
        Ok(()) => {}
        Err(JoinError::OutOfMemory(e)) => {
            sync.leave();
            oom_before_start = Some(e);
        }
        Err(JoinError::Failed(e)) => {
            sync.leave();
            restore_failed = Some(format!("cannot join the other devices: {e}"));
        }
    }
    if let Some(from) = &kit.resume {
        match super::resume::restore(&mut trainer, strategy.as_mut(), from, initial_plan) {
            Ok((next, plan)) => {
                start_step = next;
                initial_plan = plan;
                trainer.set_plan(plan);
            }
            Err(e) => restore_failed = Some(format!("cannot resume from {}: {e}", from.mark.from)),
        }
    }
    let params = ParamStats::of(trainer.model());
    let compute_params = trainer.compute_param_stats();

    let cache_counts = || kit.kernel_cache.as_deref().map(CacheCounts::read);
    let cache_before = cache_counts();
    let journal = Journal::default();
    let watchdog = kit.abandon.clone().map(|abandon| {
        let early = EarlyStop {
            cfg: cfg.clone(),
            journal: journal.clone(),
            stop: stop.clone(),
            plan: initial_plan,
            measured: Measured {
                device: device_info.clone(),
                data: data.clone(),
                vocab,
                initial_plan,
                params: params.clone(),
                compute_params: compute_params.clone(),
                final_params: None,
                memory: MemoryReport::default(),
                warm_up_s: None,
                kernel_cache: None,
                prealloc: None,
                scaler: None,
                supports_half: kit.supports_half,
                detector: kit.instruments.detector.name().to_string(),
                checks: if kit.instruments.check_every_phase {
                    Checks::Phase
                } else {
                    Checks::Step
                },
                wall_s: 0.0,
                host_peak_rss: None,
                anatomy: None,
            },
            kit: kit.clone(),
            baseline,
            cache_before,
            started,
        };
        Watchdog::start(
            journal.clone(),
            stop.clone(),
            Box::new(move || abandon(early.result())),
        )
    });
    if let Some(r) = &kit.resume {
        journal.restored(&r.records, &r.attempts);
    }
    let warm_up_s = kit.warm_up_rows.and_then(|rows| {
        observer.on_warm_up(kit.kernel_cache.as_deref());
        journal.enter(Busy::WarmUp, initial_plan, true);
        let took = contained(|| trainer.warm_up(rows))
            .and_then(Result::ok)
            .map(|d| d.as_secs_f64());
        journal.leave();
        observer.on_warm_up_done();
        took
    });
    if let Some(slow) = kit.simulated_slow_start {
        observer.on_note(&format!(
            "SIMULATED slow start: waiting {:.1} s before step 1 without looking at the stop flag, as a kernel compilation would (a test of the stop path)",
            slow.as_secs_f64()
        ));
        journal.enter(Busy::SimulatedSlowStart, initial_plan, true);
        std::thread::sleep(slow);
        journal.leave();
    }
    let cache_after_warm_up = cache_counts();

    let outcome = match (oom_before_start, restore_failed) {
        (Some(e), _) => Outcome::out_of_memory_before_start(e, initial_plan),
        (None, None) => drive(
            cfg,
            &mut trainer,
            strategy.as_mut(),
            Start {
                step: start_step,
                plan: initial_plan,
            },
            &kit,
            sampler.as_ref(),
            stop,
            observer,
            started,
            &journal,
        ),
        (None, Some(why)) => Outcome::failed_before_start(why, initial_plan),
    };
    // The loop came back: it writes the summary itself.
    if let Some(w) = watchdog {
        w.finish();
    }
    let poisoned = outcome.poisoned;
    // Peers still waiting for this one are released, whatever ended the loop.
    trainer.leave();

    // Every source at one moment, for the reconciliation (skipped when the backend
    // already panicked: its device state cannot be trusted, or even read).
    let end_state = (!poisoned)
        .then(|| {
            contained(|| {
                let _ = B::sync(trainer.device());
                let end = read_now();
                let allocator_end = kit.instruments.allocator.as_ref().and_then(|a| a.stats());
                let fingerprint = ParamFingerprint::of(trainer.model());
                (end, allocator_end, fingerprint)
            })
        })
        .flatten();
    let (end, allocator_end, final_params): (MemoryReading, _, _) = match end_state {
        Some((e, a, f)) => (e, a, Some(f)),
        None => (MemoryReading::default(), None, None),
    };
    let timeline = sampler.map(|s| s.finish()).unwrap_or_default();
    let kernel_cache = match (&kit.kernel_cache, cache_before, cache_after_warm_up) {
        (Some(dir), Some(before), Some(after_warm_up)) => Some(KernelCacheReport {
            dir: dir.display().to_string(),
            before,
            added_in_warm_up: after_warm_up.since(before),
            added_in_run: cache_counts().unwrap_or_default().since(before),
        }),
        _ => None,
    };
    let phases = trainer.phase_peaks();
    let mut memory = MemoryReport {
        kind: kit.memory_kind,
        sources: [
            kit.sampled.as_ref().map(|p| p.source().to_string()),
            kit.instruments
                .allocator
                .as_ref()
                .map(|_| "allocator".to_string()),
            host::counting().then(|| "host heap".to_string()),
        ]
        .into_iter()
        .flatten()
        .collect(),
        notes: kit.notes.clone(),
        baseline,
        end,
        allocator_end,
        phases,
        allocator_peak_in_use: phases.peak_in_use(),
        allocator_peak_reserved: phases.peak_reserved(),
        device_total: end.device_total,
        host_heap_peak: host::counting().then(host::heap_peak),
        ballast: kit.ballast,
        budget: kit.budget,
        reconciliation: reconcile(kit.memory_kind, end, allocator_end, kit.ballast),
        ..Default::default()
    }
    .with_timeline(&timeline);
    if memory.kind == MemoryKind::Host {
        memory.process_peak = memory.process_peak.max(host::peak_rss());
    }
    if memory.kind == MemoryKind::Gpu && kit.sampled.is_some() && memory.process_peak.is_none() {
        memory.notes.push(
            "NVML listed no memory for this PID (a container's PID namespace, or a driver that does not attribute per process): per-process VRAM unavailable, device figures shown".into(),
        );
    }

    // The recorded step's reads (after the forward pass, activations alive) are reads of
    // the allocator too: without them the highest read is a step end's, where the
    // activations are gone.
    if memory.kind == MemoryKind::Gpu {
        if let Some((_, _, points)) = trainer.anatomy() {
            let highest = points.iter().filter_map(|p| p.in_use).max();
            memory.allocator_peak_in_use = memory.allocator_peak_in_use.max(highest);
        }
    }
    if let (Some(p), Some(a)) = (prealloc.as_mut(), allocator_end) {
        p.grew_after = Some(Bytes(a.reserved.0.saturating_sub(p.reserved_after.0)));
    }
    let measured = Measured {
        device: device_info,
        data,
        vocab,
        initial_plan,
        params,
        compute_params,
        final_params,
        memory,
        warm_up_s,
        kernel_cache,
        prealloc,
        scaler: trainer.scaler().map(|s| ScalerState {
            scale: s.scale(),
            skipped: s.skipped(),
            growths: s.growths(),
        }),
        supports_half: kit.supports_half,
        detector: kit.instruments.detector.name().to_string(),
        checks: if kit.instruments.check_every_phase {
            Checks::Phase
        } else {
            Checks::Step
        },
        wall_s: started.elapsed().as_secs_f64(),
        host_peak_rss: host::peak_rss(),
        anatomy: trainer.anatomy().map(|(step, plan, points)| StepAnatomy {
            // The process figure without `--vram-budget`'s ballast, which this process
            // holds too (NVML counts it), so that it is the run's own.
            measured: points
                .iter()
                .cloned()
                .map(|mut p| {
                    if let (Some(proc_), Some(b)) = (p.process, kit.ballast) {
                        p.process = Some(Bytes(proc_.0.saturating_sub(b.0)));
                    }
                    p
                })
                .collect(),
            ..StepAnatomy::empty(Some(*step), *plan, kit.memory_kind)
        }),
    };
    RunResult {
        summary: summarize(cfg, outcome, measured),
        timeline,
    }
}

/// Where the loop starts: step 0 at the strategy's first split, or where a checkpoint
/// left off.
struct Start {
    step: usize,
    plan: StepPlan,
}

/// Runs the steps: each one attempted until it succeeds, the strategy gives up, the backend
/// fails or a stop is requested.
#[allow(clippy::too_many_arguments)]
fn drive<B: super::TrainBackend>(
    cfg: &RunConfig,
    trainer: &mut Trainer<B>,
    strategy: &mut dyn Strategy,
    start: Start,
    kit: &RunKit,
    sampler: Option<&Sampler>,
    stop: &StopFlag,
    observer: &mut dyn StepObserver,
    started: Instant,
    journal: &Journal,
) -> Outcome {
    let mut plan = start.plan;
    observer.on_start(cfg.train.max_steps);
    let mut records: Vec<StepRecord> = Vec::with_capacity(cfg.train.max_steps);
    let mut attempts: Vec<AttemptRecord> = Vec::new();
    let mut checkpointer = kit.checkpoints.clone().map(|p| {
        let resumes = kit
            .resume
            .as_ref()
            .map(|r| {
                let mut all = r.checkpoint.meta.resumes.clone();
                all.push(r.mark.clone());
                all
            })
            .unwrap_or_default();
        super::Checkpointer::new(p, cfg.train.seed, resumes)
    });
    if let Some(r) = &kit.resume {
        records.extend(r.records.iter().cloned());
        attempts.extend(r.attempts.iter().cloned());
        observer.on_note(&format!(
            "resumed from {} at step {} ({} step(s) done again)",
            r.mark.from,
            start.step + 1,
            r.mark.steps_redone
        ));
    }
    let leak_source = match kit.instruments.allocator {
        Some(_) => "allocator in use",
        None => "host heap in use",
    };
    let mut leak = super::LeakWatch::new(kit.leak, leak_source);
    let mut proven: Vec<StepPlan> = Vec::new();
    let mut log_attempt = |mut a: AttemptRecord, observer: &mut dyn StepObserver| {
        a.attempt = attempts.len() + 1;
        observer.on_attempt(&a);
        journal.attempt(&a);
        attempts.push(a);
    };
    let mut time_to_first_step = None;
    let mut reason = StopReason::Completed;
    let mut gave_up = None;
    let mut poisoned = false;
    let mut cleanups = CacheCleanups {
        every: cfg.train.empty_cache_every.unwrap_or(0),
        ..Default::default()
    };
    if cfg.train.max_steps.saturating_sub(start.step) == 1 {
        // A one-step run: that step is the one read by category.
        trainer.record_anatomy();
    }
    'steps: for step in start.step..cfg.train.max_steps {
        if let Some(s) = sampler {
            s.mark_step(step);
        }
        // Attempts at this step: one, unless an OOM makes the strategy retry it.
        loop {
            if trainer.stop_requested(stop) {
                observer.on_note(&format!(
                    "{}: stopped before step {}; the steps before it are applied{}",
                    stop.signal_name(),
                    step + 1,
                    if kit.checkpoints.is_some() {
                        ", a checkpoint and the summary are written"
                    } else {
                        "; the summary is written (no checkpoint: --checkpoint-every not given)"
                    }
                ));
                reason = StopReason::Interrupted;
                break 'steps;
            }
            trainer.set_plan(plan);
            let attempt_started = Instant::now();
            journal.enter(Busy::Step(step), plan, !proven.contains(&plan));
            // A backend panic (see oom::contained) stops the run with its summary.
            let stepped = contained(|| trainer.step(step));
            journal.leave();
            let Some(outcome) = stepped else {
                // What the detector saw during the step tells why the backend broke.
                let seen = kit
                    .instruments
                    .detector
                    .check(step, crate::oom::Phase::Step);
                if let Some(event) = &seen {
                    let seconds = attempt_started.elapsed().as_secs_f64();
                    let note = format!("stop: {}", panic_after_oom_note());
                    log_attempt(AttemptRecord::oom(plan, event, seconds, note), observer);
                }
                (reason, gave_up) = stop_after_panic(step, seen);
                poisoned = true;
                break 'steps;
            };
            match outcome {
                Ok(rec) => {
                    if step == start.step {
                        time_to_first_step = Some(started.elapsed().as_secs_f64());
                    }
                    if !proven.contains(&plan) {
                        proven.push(plan);
                        let allocator = kit.instruments.allocator.as_ref().and_then(|a| a.stats());
                        let memory = kit.instruments.memory.as_ref().map(|m| m.read());
                        let a = AttemptRecord::ok(
                            step,
                            plan,
                            attempt_started.elapsed().as_secs_f64(),
                            allocator,
                            memory,
                        );
                        log_attempt(a, observer);
                    }
                    observer.on_step(&rec);
                    journal.step(&rec, time_to_first_step);
                    if let Some(line) = leak.observe(step, plan, rec.in_use) {
                        observer.on_note(&line);
                    }
                    records.push(rec);
                    // The step after the first applied one is read by category.
                    trainer.record_anatomy();
                    plan = strategy.on_success(plan);
                    if let Some(c) = checkpointer.as_mut().filter(|c| c.due(step)) {
                        let every = format!("every {} steps", c.every());
                        if let Err(failed) = c.save(trainer, strategy, step + 1, plan, &every) {
                            observer.on_note(&failed.to_string());
                        }
                    }
                    if let Some(every) = cfg.train.empty_cache_every {
                        if (step + 1) % every == 0 {
                            cleanups.record(trainer, kit.instruments.allocator.as_ref());
                        }
                    }
                    break;
                }
                Err(TrainError::OutOfMemory(event)) => {
                    // Memory that grew step after step at this split is a leak: a smaller
                    // batch would only postpone the next failure.
                    let response = match leak.suspect() {
                        Some(alarm) => OomResponse::Stop(format!(
                            "{}. Out of memory after that: this is a leak, not a batch too large, so the split is kept (halving would only postpone the next failure). {}",
                            alarm.line(leak.source()),
                            match kit.leak_demo {
                                Some(d) => format!("Here it is the deliberate one of --leak-demo {}", d.name()),
                                None => "Find what keeps each step's tensors alive: a loss or output kept with its graph (summed, appended to a list) instead of its value".into(),
                            }
                        )),
                        None => strategy.on_oom(plan, &event),
                    };
                    let seconds = attempt_started.elapsed().as_secs_f64();
                    proven.retain(|p| *p != plan);
                    match response {
                        OomResponse::Retry { plan: next, note } => {
                            log_attempt(AttemptRecord::oom(plan, &event, seconds, note), observer);
                            plan = next;
                        }
                        OomResponse::Stop(why) => {
                            log_attempt(
                                AttemptRecord::oom(plan, &event, seconds, format!("stop: {why}")),
                                observer,
                            );
                            reason = StopReason::OutOfMemory(event);
                            gave_up = Some(why);
                            break 'steps;
                        }
                    }
                }
                Err(e) => {
                    reason = StopReason::Failed(e.to_string());
                    break 'steps;
                }
            }
        }
    }

    // The state at the stop, unless the backend can no longer be read.
    if let Some(c) = checkpointer.as_mut() {
        let next_step = records.last().map_or(start.step, |r| r.step + 1);
        let why = match &reason {
            StopReason::Completed => Some("end of the run".to_string()),
            StopReason::Interrupted => Some(stop.signal_name().to_string()),
            StopReason::OutOfMemory(_) => Some("out of memory: the strategy stopped".to_string()),
            StopReason::Failed(_) => None,
        };
        if let (Some(why), false, false) = (why, poisoned, c.has(next_step)) {
            if let Err(failed) = c.save(trainer, strategy, next_step, plan, &why) {
                observer.on_note(&failed.to_string());
            }
        }
    }

    Outcome {
        records,
        attempts,
        stop: reason,
        gave_up,
        time_to_first_step_s: time_to_first_step,
        next_plan: plan,
        cleanups,
        poisoned,
        checkpoints: checkpointer.map(|c| c.report()),
        leak: Some(leak.report()),
        stopped_during: None,
    }
}

/// Why nothing can retry a step whose out-of-memory failure broke the backend.
fn panic_after_oom_note() -> &'static str {
    "burn's backend panicked after this failure (the messages above on stderr) and cannot run anything more in this process, so no strategy can retry the step here. Run again with a smaller --batch, or with --strategy auto-halve: it checks after every phase, and on a fresh H200 it recovered from a case (the tiny config, 16384 samples, 4 GiB) in which a run without it died of an autotune inside the failing step"
}

/// The run's stop after the backend panicked during `step`: out of memory when the
/// detector saw a failure in that step (exit 3 and the event in the summary, though the
/// device can no longer be read), else a failure.
fn stop_after_panic(
    step: usize,
    seen: Option<crate::oom::OomEvent>,
) -> (StopReason, Option<String>) {
    match seen {
        Some(event) => (
            StopReason::OutOfMemory(Box::new(event)),
            Some(panic_after_oom_note().to_string()),
        ),
        None => (
            StopReason::Failed(format!(
                "the backend panicked during step {step} (see the message above on stderr), and oomlab's detector saw no out-of-memory failure in it"
            )),
            None,
        ),
    }
}

/// What the watchdog needs to summarise a run whose loop it cannot wait for.
struct EarlyStop {
    cfg: RunConfig,
    journal: Journal,
    stop: StopFlag,
    plan: StepPlan,
    measured: Measured,
    kit: RunKit,
    baseline: MemoryReading,
    cache_before: Option<CacheCounts>,
    started: Instant,
}

impl EarlyStop {
    /// The summary as of now, read without the device (which is busy): the process's
    /// memory from the sampled source (NVML), the kernel cache from its folder.
    fn result(self) -> RunResult {
        let mut m = self.measured;
        let end = self
            .kit
            .sampled
            .as_ref()
            .map(|p| p.read())
            .unwrap_or_default();
        m.memory = MemoryReport {
            kind: self.kit.memory_kind,
            sources: self
                .kit
                .sampled
                .as_ref()
                .map(|p| vec![p.source().to_string()])
                .unwrap_or_default(),
            notes: {
                let mut n = self.kit.notes.clone();
                n.push("stopped while the device was busy: the allocator was not read; figures are the process's as the sampled source saw it at the stop".into());
                n
            },
            baseline: self.baseline,
            end,
            device_total: end.device_total,
            host_heap_peak: host::counting().then(host::heap_peak),
            ballast: self.kit.ballast,
            budget: self.kit.budget,
            ..Default::default()
        };
        if m.memory.kind == MemoryKind::Host {
            m.memory.process_peak = host::peak_rss();
        } else {
            m.memory.process_peak = end.process;
        }
        m.kernel_cache = match (&self.kit.kernel_cache, self.cache_before) {
            (Some(dir), Some(before)) => {
                let now = CacheCounts::read(dir).since(before);
                Some(KernelCacheReport {
                    dir: dir.display().to_string(),
                    before,
                    added_in_warm_up: now,
                    added_in_run: now,
                })
            }
            _ => None,
        };
        m.wall_s = self.started.elapsed().as_secs_f64();
        m.host_peak_rss = host::peak_rss();
        let outcome = self.journal.abandoned(&self.stop, self.plan);
        RunResult {
            summary: summarize(&self.cfg, outcome, m),
            timeline: Timeline::default(),
        }
    }
}

/// `--memory-mode prealloc`: fills burn's GPU pool before the model exists. What it did
/// (or why it reserved nothing) goes to the user and comes back as notes for the summary.
fn preallocate(
    cfg: &RunConfig,
    kit: &RunKit,
    observer: &mut dyn StepObserver,
) -> (Option<crate::device::PreallocReport>, Vec<String>) {
    let mut notes = Vec::new();
    let (MemoryMode::Prealloc { fraction }, Some(pool)) = (cfg.train.memory_mode, &kit.pool) else {
        return (None, notes);
    };
    let probe = kit.sampled.clone();
    let mut free = || probe.as_ref()?.read().device_free();
    // burn does not report a failed allocation: ask the detector, as after every phase.
    kit.instruments.detector.arm();
    let result = pool.preallocate(fraction, &mut free);
    if let Some(event) = kit
        .instruments
        .detector
        .check(0, crate::oom::Phase::Forward)
    {
        let line = format!(
            "--memory-mode prealloc: {} while reserving pages ({}); what was placed before it stays reserved",
            event.label(),
            event.message
        );
        observer.on_note(&line);
        notes.push(line);
    }
    kit.instruments.detector.arm();
    let report = match result {
        Ok(r) => {
            let line = format!(
                "--memory-mode prealloc: reserved {} in {} pool pages ({} of {} free asked) in {:.2} s",
                r.reserved_after,
                r.pages.len(),
                r.target,
                r.free_before,
                r.seconds
            );
            observer.on_note(&line);
            notes.push(line);
            Some(r)
        }
        Err(e) => {
            notes.push(format!("--memory-mode prealloc: nothing reserved: {e}"));
            None
        }
    };
    (report, notes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::CpuBackend;
    use crate::config::{load, ConfigSource};
    use crate::oom::{Phase, ScriptedDetector};
    use crate::results::AttemptOutcome;

    struct Quiet;
    impl StepObserver for Quiet {}

    #[test]
    fn a_panic_after_a_detected_oom_stops_as_out_of_memory_else_as_a_failure() {
        use crate::oom::OomDetector;
        let event = ScriptedDetector::new(vec![(2, Phase::Step)])
            .check(2, Phase::Step)
            .unwrap();
        let (reason, why) = stop_after_panic(2, Some(event.clone()));
        assert_eq!(reason, StopReason::OutOfMemory(Box::new(event)));
        assert!(why.unwrap().contains("no strategy can retry"));
        let (reason, why) = stop_after_panic(2, None);
        assert!(
            matches!(&reason, StopReason::Failed(m) if m.contains("during step 2") && m.contains("saw no out-of-memory"))
        );
        assert_eq!(why, None);
    }

    #[test]
    fn an_oom_later_in_the_run_is_handled_the_same_way() {
        let over = vec![
            (
                "train.strategy".to_string(),
                toml::Value::String("auto-halve".into()),
            ),
            ("train.batch".to_string(), toml::Value::Integer(8)),
            ("train.max_steps".to_string(), toml::Value::Integer(5)),
            ("model.seq_len".to_string(), toml::Value::Integer(16)),
        ];
        let (_, cfg) = load(&ConfigSource::Builtin("tiny".into()), &over).unwrap();
        let corpus = Arc::new(Corpus::load(&cfg.data, 16).unwrap());
        let kit = RunKit {
            instruments: Instruments {
                detector: Arc::new(ScriptedDetector::new(vec![(3, Phase::Backward)])),
                ..Default::default()
            },
            ..Default::default()
        };
        let info = DeviceInfo {
            kind: crate::words::DeviceKind::Cpu,
            index: 0,
            backend: "flex".into(),
            label: "cpu".into(),
        };
        let r = train::<CpuBackend>(
            &cfg,
            corpus,
            Default::default(),
            info,
            kit,
            Arc::new(crate::train::Alone),
            &StopFlag::new(),
            &mut Quiet,
        );
        let s = r.summary;
        assert_eq!(s.stop, StopReason::Completed);
        assert_eq!(s.steps_completed, 5);
        assert_eq!((s.plan.micro_batch, s.plan.accumulation), (4, 2));
        let a = &s.adaptation.attempts;
        let outcomes: Vec<(usize, usize, AttemptOutcome)> = a
            .iter()
            .map(|x| (x.step, x.micro_batch, x.outcome))
            .collect();
        assert_eq!(
            outcomes,
            vec![
                (0, 8, AttemptOutcome::Ok),
                (3, 8, AttemptOutcome::Oom),
                (3, 4, AttemptOutcome::Ok),
            ]
        );
    }
}
