//! The summary of one training run.

use serde::{Deserialize, Serialize};

use super::stop::StopReason;
use super::AttemptRecord;
use crate::config::{AutoHalveSpec, ModelSpec, Split};
use crate::model::{ParamFingerprint, ParamStats};
use crate::probe::MemoryReport;
use crate::strategy::StepPlan;
use crate::units::Bytes;
use crate::words::Strategy;

/// The fewest steps after which a loss above the first step's says a run diverged. Fewer
/// cannot tell a divergence from AdamW's first updates, which raise the loss of a deep
/// model before it falls: the lesson's 128-layer model went 3.94, 5.37, 4.67 in its first
/// three steps and ended under 3.94 at the tenth, in f32 with its moments offloaded and in
/// pure bf16 alike (an NVIDIA H100, 2026-12-07). A loss that is no number diverged at any
/// step.
pub const DIVERGENCE_MIN_STEPS: u64 = 5;

/// Bumped when a field of the JSON summary changes meaning or disappears.
pub const SUMMARY_SCHEMA_VERSION: u32 = 3;

/// Which device the run used.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeviceInfo {
    /// `cpu` or `cuda`.
    pub kind: crate::words::DeviceKind,
    /// Device index (0 on the CPU).
    pub index: usize,
    /// The burn backend, e.g. `flex`, `cuda (cubecl; linear layers' f32 and bf16 products
    /// on cuBLAS)` (the default where libcublas loads) or, with `kernels.linear_products=cublas`, `cuda
    /// (cubecl; linear layers' products on cuBLAS)`.
    pub backend: String,
    /// A label for humans, e.g. `cuda:0` or `cpu`.
    pub label: String,
}

/// The split a run started with, every attempt at a split not yet proven to fit, and
/// what they cost.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Adaptation {
    /// The split of the first attempt.
    pub initial_plan: StepPlan,
    /// Attempts logged (every OOM and the first success at each split).
    pub attempts_made: usize,
    /// How many of them ran out of memory.
    pub oom_attempts: usize,
    /// Wall time spent in attempts that failed, releases included.
    pub failed_attempts_s: f64,
    /// Why the strategy gave up, when it did.
    pub gave_up: Option<String>,
    /// The retry log (also `retries.jsonl` in the run folder).
    pub attempts: Vec<AttemptRecord>,
}

/// What `--empty-cache-every` did: burn's `memory_cleanup` after every N-th step.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CacheCleanups {
    /// N.
    pub every: usize,
    /// Cleanups made.
    pub count: usize,
    /// Reserved bytes returned to the driver, all cleanups together (GPU; `None` where
    /// the backend has no pool statistics).
    pub freed_total: Option<Bytes>,
    /// The most one cleanup returned.
    pub freed_max: Option<Bytes>,
    /// Reserved bytes right after the last cleanup.
    pub reserved_after_last: Option<Bytes>,
    /// Time spent in the cleanups themselves (the re-allocations they cause show up in
    /// the following steps' time).
    pub seconds: f64,
}

/// Which float types the run really used, read back from its tensors.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PrecisionReport {
    /// `f32`, `amp-bf16`, `amp-f16`, `half-bf16` or `half-f16`.
    pub mode: crate::words::PrecisionKind,
    /// dtypes of the stored weights (the optimizer's state follows them).
    pub weight_dtypes: Vec<String>,
    /// dtypes of the weights the forward pass ran on (the AMP cast), read back from them.
    pub compute_dtypes: Vec<String>,
    /// Bytes each parameter costs between steps and during one: weights, gradients,
    /// optimizer moments (2 for AdamW, 0 for SGD) and, for AMP, the half copy.
    pub bytes_per_param: f64,
    /// Whether the backend reported full support for the half type on this device.
    pub backend_supports_half: Option<bool>,
}

/// What dynamic loss scaling did (f16 only).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LossScaleReport {
    /// The first scale.
    pub init_scale: f64,
    /// The scale at the end.
    pub final_scale: f64,
    /// Steps whose update was skipped because a gradient was inf/NaN.
    pub skipped_steps: usize,
    /// Times the scale grew.
    pub growths: usize,
    /// Clean steps in a row before it grows.
    pub growth_interval: usize,
}

/// What the run added to the kernel cache: on CUDA the first step at a new shape
/// compiles kernels (NVRTC) and autotunes operations, and this is where that time goes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KernelCacheReport {
    /// The cache folder.
    pub dir: String,
    /// Entries already there when the run started.
    pub before: crate::device::CacheCounts,
    /// Kernels compiled and operations autotuned during the warm-up step.
    pub added_in_warm_up: crate::device::CacheCounts,
    /// ... and during the whole run (later shapes, e.g. auto-halve's, add more).
    pub added_in_run: crate::device::CacheCounts,
}

/// The strategy a run was started with, as `summary.json` records it: the preset's name
/// with its split's settings (`{"name": "grad-accum", "steps": 4}`). Built from the run's
/// settings by [`StrategySpec::of`]; only the record has this shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "name")]
pub enum StrategySpec {
    /// One batch, one backward pass, one optimizer step.
    Baseline,
    /// `steps` micro-batches of `batch / steps` samples per optimizer step.
    GradAccum {
        /// Micro-batches per optimizer step.
        steps: usize,
    },
    /// Halve the micro-batch on OOM and retry the step.
    AutoHalve(AutoHalveSpec),
    /// The whole batch, with burn's balanced activation checkpointing.
    Checkpointing,
    /// The whole batch, with weights, gradients and optimizer state all in half precision.
    Half,
    /// Data parallel with the optimizer state sharded across the devices (ZeRO stage 1).
    ShardOptimizer,
    /// The whole batch, with AdamW's moments and update in host memory.
    OffloadOptimizer,
}

impl StrategySpec {
    /// The record of preset `preset` run with `split`.
    pub fn of(preset: Strategy, split: Split) -> Self {
        match (preset, split) {
            (_, Split::GradAccum { steps }) => StrategySpec::GradAccum { steps },
            (_, Split::AutoHalve(spec)) => StrategySpec::AutoHalve(spec),
            (Strategy::Checkpointing, Split::Whole) => StrategySpec::Checkpointing,
            (Strategy::Half, Split::Whole) => StrategySpec::Half,
            (Strategy::ShardOptimizer, Split::Whole) => StrategySpec::ShardOptimizer,
            (Strategy::OffloadOptimizer, Split::Whole) => StrategySpec::OffloadOptimizer,
            (_, Split::Whole) => StrategySpec::Baseline,
        }
    }

    /// The strategy's word, e.g. `grad-accum`.
    pub fn kind(&self) -> Strategy {
        match self {
            StrategySpec::Baseline => Strategy::Baseline,
            StrategySpec::GradAccum { .. } => Strategy::GradAccum,
            StrategySpec::AutoHalve(_) => Strategy::AutoHalve,
            StrategySpec::Checkpointing => Strategy::Checkpointing,
            StrategySpec::Half => Strategy::Half,
            StrategySpec::ShardOptimizer => Strategy::ShardOptimizer,
            StrategySpec::OffloadOptimizer => Strategy::OffloadOptimizer,
        }
    }

    /// The name users type after `--strategy`.
    pub fn name(&self) -> &'static str {
        self.kind().name()
    }
}

/// Everything a run reports, in one place, for every renderer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunSummary {
    /// [`SUMMARY_SCHEMA_VERSION`].
    pub schema_version: u32,
    /// oomlab's version.
    pub oomlab_version: String,
    /// The process that trained (`oomlab compare` runs each strategy in its own).
    pub pid: u32,
    /// The strategy and its parameters.
    pub strategy: StrategySpec,
    /// Activation checkpointing was on (the `checkpointing` strategy, or
    /// `train.checkpointing` with any other).
    #[serde(default)]
    pub checkpointing: bool,
    /// AdamW's moments were in host memory (the `offload-optimizer` strategy, or
    /// `train.offload_optimizer` with any other).
    #[serde(default)]
    pub offload_optimizer: bool,
    /// Micro-batch and accumulation of the last applied step.
    pub plan: StepPlan,
    /// Samples per optimizer step (of the last applied step).
    pub effective_batch: usize,
    /// How the split changed on the way: the retry log.
    pub adaptation: Adaptation,
    /// Device and backend.
    pub device: DeviceInfo,
    /// Model shapes.
    pub model: ModelSpec,
    /// Parameters, with the dtype read back from the tensors.
    pub params: ParamStats,
    /// Where the text came from.
    pub data: String,
    /// Vocabulary size.
    pub vocab: usize,
    /// Steps the config asked for.
    pub steps_planned: usize,
    /// Steps that finished and were applied.
    pub steps_completed: usize,
    /// Why the loop ended.
    pub stop: StopReason,
    /// Which OOM detector watched the run.
    pub oom_detector: String,
    /// Loss of the first step.
    pub first_loss: Option<f32>,
    /// Mean loss of the last 10% of steps (at least one).
    pub final_loss: Option<f32>,
    /// Time from the start of the run (model creation) to the end of the first step: on a
    /// GPU this includes kernel compilation and autotuning.
    pub time_to_first_step_s: Option<f64>,
    /// Median step time after the first step.
    pub steady_step_s: Option<f64>,
    /// Samples per second at the steady step time.
    pub samples_per_s: Option<f64>,
    /// Fingerprint of the weights at the end, to compare runs (absent when the backend
    /// failed and could not be read).
    pub final_params: Option<ParamFingerprint>,
    /// Duration of the dry warm-up step before the first real one (CUDA), if any.
    pub warm_up_s: Option<f64>,
    /// What `--empty-cache-every` did, when set.
    pub cache_cleanups: Option<CacheCleanups>,
    /// Float types, read back from the tensors.
    pub precision: PrecisionReport,
    /// Dynamic loss scaling, when the run used it.
    pub loss_scale: Option<LossScaleReport>,
    /// What `--memory-mode prealloc` reserved, when set.
    pub prealloc: Option<crate::device::PreallocReport>,
    /// How the GPU pool places tensors (growth, prealloc, exact).
    pub memory_mode: crate::config::MemoryMode,
    /// How each of the step's operations ran, as the config's `[kernels]` section said
    /// (summaries from before the section: every key `auto`).
    #[serde(default)]
    pub kernels: crate::config::KernelsSection,
    /// What the run compiled and autotuned (CUDA with a kernel cache).
    pub kernel_cache: Option<KernelCacheReport>,
    /// When oomlab looked for out-of-memory failures: `phase` (after the forward pass,
    /// the backward pass and the optimizer step) or `step` (once, at the end of each).
    pub checks: crate::words::Checks,
    /// Wall time of the whole run.
    pub wall_s: f64,
    /// Peak resident set size of this process (`VmHWM`), where the OS reports it.
    pub host_peak_rss: Option<Bytes>,
    /// Memory as every source saw it, reconciled.
    pub memory: MemoryReport,
    /// Checkpoints written and resumes made (`--checkpoint-every`, `--resume`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checkpoints: Option<super::CheckpointReport>,
    /// What the leak detector watched and found.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leak: Option<super::LeakReport>,
    /// Several devices (`--devices`): every peer's share and memory. The rest of the
    /// summary is rank 0's (its memory figures are its device's), with the batch and
    /// throughput of the whole run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parallel: Option<super::ParallelReport>,
    /// A stop that could not wait for the step in progress (Ctrl-C or SIGTERM while
    /// kernels compiled): where it found the run, and what that means.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped_during: Option<String>,
    /// One step's memory by category, measured beside the estimate's prediction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub anatomy: Option<super::StepAnatomy>,
}

impl RunSummary {
    /// The run's out-of-memory failures were SIMULATED: a budget on the CPU is their only
    /// source, and the detector's description says so.
    pub fn simulated_oom(&self) -> bool {
        self.oom_detector.contains("simulated")
    }

    /// The loss is no number, or it ended above where it started after at least
    /// [`DIVERGENCE_MIN_STEPS`] steps: the updates broke the weights instead of training
    /// them. Pure f16 does this (AdamW's second moment underflows, `oomlab explain half`);
    /// a learning rate too high does too.
    pub fn diverged(&self) -> bool {
        match (self.first_loss, self.final_loss) {
            (Some(first), Some(last)) if self.steps_completed > 1 => {
                !last.is_finite()
                    || (last > first && self.steps_completed >= DIVERGENCE_MIN_STEPS as usize)
            }
            _ => false,
        }
    }

    /// The strategy as tables name it: the preset, with activation checkpointing added
    /// when it was on under another preset (`train.checkpointing`).
    pub fn strategy_label(&self) -> String {
        match (self.checkpointing, self.strategy) {
            (true, StrategySpec::Checkpointing) | (false, _) => self.strategy.name().to_string(),
            (true, _) => format!("{} + activation checkpointing", self.strategy.name()),
        }
    }
}
