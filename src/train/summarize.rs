//! From what a run did and measured to its [`RunSummary`]: a pure function, tested
//! without a backend.

use super::trainer::StepRecord;
use crate::config::{OptimKind, PrecisionMode, RunConfig};
use crate::device::PreallocReport;
use crate::model::{ParamFingerprint, ParamStats};
use crate::probe::MemoryReport;
use crate::results::{
    Adaptation, CacheCleanups, DeviceInfo, KernelCacheReport, LossScaleReport, PrecisionReport,
    RunSummary, StopReason, SUMMARY_SCHEMA_VERSION,
};
use crate::results::{AttemptOutcome, AttemptRecord};
use crate::strategy::StepPlan;
use crate::units::Bytes;
use crate::words::Checks;

/// What the step loop did (`run`'s `drive`).
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// Every finished step.
    pub records: Vec<StepRecord>,
    /// Every attempt at a split not yet proven to fit.
    pub attempts: Vec<AttemptRecord>,
    /// Why the loop ended.
    pub stop: StopReason,
    /// Why the strategy gave up, when it did.
    pub gave_up: Option<String>,
    /// Seconds from the start of the run to the end of the first step.
    pub time_to_first_step_s: Option<f64>,
    /// The split the loop would have used next (the summary's plan when no step ran).
    pub next_plan: StepPlan,
    /// What `--empty-cache-every` did.
    pub cleanups: CacheCleanups,
    /// The backend panicked: its device state cannot be read any more.
    pub poisoned: bool,
    /// What checkpointing did, when on.
    pub checkpoints: Option<crate::results::CheckpointReport>,
    /// What the leak detector saw.
    pub leak: Option<crate::results::LeakReport>,
    /// Where a stop that could not wait for the loop found it (see `train::stall`).
    pub stopped_during: Option<String>,
}

impl Outcome {
    /// A run that stopped before its first step (e.g. a checkpoint that could not be
    /// put back).
    pub fn failed_before_start(why: String, plan: StepPlan) -> Self {
        Self::stopped_before_start(StopReason::Failed(why), plan)
    }

    /// The memory ran out (or the CPU's budget was crossed) before the first step: the
    /// model and its optimizer alone did not fit.
    pub fn out_of_memory_before_start(e: Box<crate::oom::OomEvent>, plan: StepPlan) -> Self {
        Self::stopped_before_start(StopReason::OutOfMemory(e), plan)
    }

    fn stopped_before_start(stop: StopReason, plan: StepPlan) -> Self {
        Self {
            records: Vec::new(),
            attempts: Vec::new(),
            stop,
            gave_up: None,
            time_to_first_step_s: None,
            next_plan: plan,
            cleanups: CacheCleanups::default(),
            poisoned: false,
            checkpoints: None,
            leak: None,
            stopped_during: None,
        }
    }
}

/// The loss scaler at the end of the run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScalerState {
    /// The scale.
    pub scale: f64,
    /// Updates skipped.
    pub skipped: usize,
    /// Times the scale grew.
    pub growths: usize,
}

/// What was measured around the loop.
#[derive(Debug, Clone, PartialEq)]
pub struct Measured {
    /// The device.
    pub device: DeviceInfo,
    /// Where the text came from.
    pub data: String,
    /// Vocabulary size.
    pub vocab: usize,
    /// The split of the first attempt.
    pub initial_plan: StepPlan,
    /// The stored weights.
    pub params: ParamStats,
    /// The weights the passes ran on (the AMP cast).
    pub compute_params: ParamStats,
    /// The weights at the end, when readable.
    pub final_params: Option<ParamFingerprint>,
    /// Memory, reconciled.
    pub memory: MemoryReport,
    /// The dry warm-up step's seconds (CUDA).
    pub warm_up_s: Option<f64>,
    /// What the run added to the kernel cache.
    pub kernel_cache: Option<KernelCacheReport>,
    /// What `--memory-mode prealloc` reserved.
    pub prealloc: Option<PreallocReport>,
    /// The loss scaler, when the run had one.
    pub scaler: Option<ScalerState>,
    /// burn's `supports_dtype` for the half type.
    pub supports_half: Option<bool>,
    /// The OOM detector's name.
    pub detector: String,
    /// When the detector looked.
    pub checks: Checks,
    /// Wall time of the whole run.
    pub wall_s: f64,
    /// The process's peak RSS.
    pub host_peak_rss: Option<Bytes>,
    /// The step read by category, when one was.
    pub anatomy: Option<crate::results::StepAnatomy>,
}

/// Mean loss of the last 10% of steps (at least one).
pub(super) fn final_loss(records: &[StepRecord]) -> Option<f32> {
    let tail = (records.len() / 10).max(1).min(records.len());
    (!records.is_empty()).then(|| {
        records[records.len() - tail..]
            .iter()
            .map(|r| r.loss)
            .sum::<f32>()
            / tail as f32
    })
}

/// Median duration of the steps after the first (of an even count, the mean of the two
/// middle ones: of two steps, their mean rather than the slower).
pub(super) fn steady_step_s(records: &[StepRecord]) -> Option<f64> {
    let mut steady: Vec<f64> = records
        .iter()
        .skip(1)
        .map(|r| r.duration.as_secs_f64())
        .collect();
    steady.sort_by(f64::total_cmp);
    let n = steady.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(steady[n / 2]),
        _ => Some((steady[n / 2 - 1] + steady[n / 2]) / 2.0),
    }
}

/// Bytes each parameter costs: weights, their gradients (same dtype), optimizer moments
/// (AdamW: two, in the weights' dtype; SGD without momentum, or AdamW's moments offloaded
/// to host memory: none), and for AMP the half copy of the weights that exists during a
/// step.
pub(super) fn bytes_per_param(cfg: &RunConfig, weights: &ParamStats, compute: &ParamStats) -> f64 {
    let per = |s: &ParamStats| {
        if s.count == 0 {
            0.0
        } else {
            s.bytes.0 as f64 / s.count as f64
        }
    };
    let w = per(weights);
    let moments = match cfg.optim.kind {
        OptimKind::AdamW if cfg.train.offload_optimizer => 0.0,
        OptimKind::AdamW => 2.0,
        OptimKind::Sgd => 0.0,
    };
    let copy = match cfg.train.precision {
        PrecisionMode::Mixed(_) => per(compute),
        _ => 0.0,
    };
    w * (2.0 + moments) + copy
}

/// The summary of a run.
pub fn summarize(cfg: &RunConfig, outcome: Outcome, m: Measured) -> RunSummary {
    let records = outcome.records;
    let final_plan = records
        .last()
        .map(|r| StepPlan {
            micro_batch: r.micro_batch,
            accumulation: r.accumulation,
            batch: r.batch,
        })
        .unwrap_or(outcome.next_plan);
    let failed = |a: &&AttemptRecord| a.outcome == AttemptOutcome::Oom;
    let adaptation = Adaptation {
        initial_plan: m.initial_plan,
        attempts_made: outcome.attempts.len(),
        oom_attempts: outcome.attempts.iter().filter(failed).count(),
        failed_attempts_s: outcome
            .attempts
            .iter()
            .filter(failed)
            .fold(0.0, |total, a| total + a.seconds),
        gave_up: outcome.gave_up,
        attempts: outcome.attempts,
    };
    let precision = PrecisionReport {
        mode: cfg.train.precision.kind(),
        bytes_per_param: bytes_per_param(cfg, &m.params, &m.compute_params),
        weight_dtypes: m.params.dtypes.clone(),
        compute_dtypes: m.compute_params.dtypes,
        backend_supports_half: m.supports_half,
    };
    let loss_scale = match (cfg.train.loss_scale, m.scaler) {
        (Some(spec), Some(s)) => Some(LossScaleReport {
            init_scale: spec.init_scale,
            final_scale: s.scale,
            skipped_steps: s.skipped,
            growths: s.growths,
            growth_interval: spec.growth_interval,
        }),
        _ => None,
    };
    let steady = steady_step_s(&records);
    RunSummary {
        schema_version: SUMMARY_SCHEMA_VERSION,
        oomlab_version: env!("CARGO_PKG_VERSION").to_string(),
        pid: std::process::id(),
        strategy: crate::results::StrategySpec::of(cfg.train.preset, cfg.train.split),
        checkpointing: cfg.train.checkpointing,
        offload_optimizer: cfg.train.offload_optimizer,
        plan: final_plan,
        effective_batch: final_plan.effective_batch(),
        adaptation,
        device: m.device,
        model: cfg.model.clone(),
        params: m.params,
        data: m.data,
        vocab: m.vocab,
        steps_planned: cfg.train.max_steps,
        steps_completed: records.len(),
        stop: outcome.stop,
        oom_detector: m.detector,
        first_loss: records.first().map(|r| r.loss),
        final_loss: final_loss(&records),
        time_to_first_step_s: outcome.time_to_first_step_s,
        steady_step_s: steady,
        samples_per_s: steady.map(|s| final_plan.effective_batch() as f64 / s),
        final_params: m.final_params,
        warm_up_s: m.warm_up_s,
        cache_cleanups: cfg.train.empty_cache_every.map(|_| outcome.cleanups),
        precision,
        loss_scale,
        prealloc: m.prealloc,
        memory_mode: cfg.train.memory_mode,
        kernels: cfg.kernels,
        kernel_cache: m.kernel_cache,
        checks: m.checks,
        wall_s: m.wall_s,
        host_peak_rss: m.host_peak_rss,
        memory: m.memory,
        checkpoints: outcome.checkpoints,
        leak: outcome.leak,
        parallel: None,
        stopped_during: outcome.stopped_during,
        anatomy: m.anatomy,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{load, ConfigSource};
    use std::time::Duration;

    fn record(step: usize, loss: f32, ms: u64, micro_batch: usize) -> StepRecord {
        StepRecord {
            step,
            loss,
            micro_batch,
            accumulation: 8 / micro_batch,
            batch: 8,
            duration: Duration::from_millis(ms),
            memory: None,
            loss_scale: None,
            skipped: false,
            in_use: None,
        }
    }

    fn params() -> ParamStats {
        ParamStats {
            count: 10,
            bytes: Bytes(40),
            dtypes: vec!["f32".into()],
        }
    }

    fn measured(initial_plan: StepPlan) -> Measured {
        Measured {
            device: DeviceInfo {
                kind: crate::words::DeviceKind::Cpu,
                index: 0,
                backend: "flex".into(),
                label: "cpu".into(),
            },
            data: "test".into(),
            vocab: 3,
            initial_plan,
            params: params(),
            compute_params: params(),
            final_params: None,
            memory: MemoryReport::default(),
            warm_up_s: None,
            kernel_cache: None,
            prealloc: None,
            scaler: None,
            supports_half: None,
            detector: "scripted".into(),
            checks: Checks::Step,
            wall_s: 1.0,
            host_peak_rss: None,
            anatomy: None,
        }
    }

    #[test]
    fn the_summary_is_built_from_the_steps_and_attempts_alone() {
        let (_, cfg) = load(&ConfigSource::Builtin("tiny".into()), &[]).unwrap();
        let whole = StepPlan {
            micro_batch: 8,
            accumulation: 1,
            batch: 8,
        };
        let half = StepPlan {
            micro_batch: 4,
            accumulation: 2,
            batch: 8,
        };
        // 20 steps, the first slow (warm-up), losses 20, 19, ..., 1.
        let records: Vec<StepRecord> = (0..20)
            .map(|i| {
                record(
                    i,
                    20.0 - i as f32,
                    if i == 0 { 900 } else { 10 + i as u64 },
                    4,
                )
            })
            .collect();
        let outcome = Outcome {
            records: records.clone(),
            attempts: vec![],
            stop: StopReason::Completed,
            gave_up: None,
            time_to_first_step_s: Some(0.9),
            next_plan: half,
            cleanups: CacheCleanups::default(),
            poisoned: false,
            checkpoints: None,
            leak: None,
            stopped_during: None,
        };
        let s = summarize(&cfg, outcome, measured(whole));
        // The last 10% of 20 steps: losses 2 and 1.
        assert_eq!(s.final_loss, Some(1.5));
        assert_eq!(s.first_loss, Some(20.0));
        // Steps 1..19 took 11..29 ms: the median is 20 ms; the slow first step is left out.
        assert_eq!(s.steady_step_s, Some(0.020));
        // Of an even count, the mean of the middle two: 11..28 ms gives 19.5 ms.
        let even = steady_step_s(&records[..19]).unwrap();
        assert!((even - 0.0195).abs() < 1e-12, "{even}");
        assert_eq!(s.samples_per_s, Some(8.0 / 0.020));
        // The plan is the last step's split, not the first attempt's.
        assert_eq!(s.plan, half);
        assert_eq!(s.adaptation.initial_plan, whole);
        assert_eq!(s.steps_completed, 20);
        assert_eq!(s.precision.bytes_per_param, 16.0);
    }

    #[test]
    fn a_run_without_steps_has_no_loss_or_speed_and_keeps_its_planned_split() {
        let (_, cfg) = load(&ConfigSource::Builtin("tiny".into()), &[]).unwrap();
        let whole = StepPlan {
            micro_batch: 8,
            accumulation: 1,
            batch: 8,
        };
        let outcome = Outcome {
            records: vec![],
            attempts: vec![],
            stop: StopReason::Interrupted,
            gave_up: None,
            time_to_first_step_s: None,
            next_plan: whole,
            cleanups: CacheCleanups::default(),
            poisoned: false,
            checkpoints: None,
            leak: None,
            stopped_during: None,
        };
        let s = summarize(&cfg, outcome, measured(whole));
        assert_eq!(
            (s.final_loss, s.steady_step_s, s.samples_per_s),
            (None, None, None)
        );
        assert_eq!(s.plan, whole);
        assert_eq!(s.stop, StopReason::Interrupted);
    }
}
