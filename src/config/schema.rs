//! The TOML schema of a run configuration, exactly as users write it.
//!
//! Counts are read as signed integers on purpose: `batch = -4` then reaches our own
//! validation, which names the key and says what would be valid, instead of a serde
//! message about `usize`. Words (strategy, precision, ...) are the enums of
//! [`crate::words`]: serde refuses a misspelled one, naming the words that exist.

use serde::{Deserialize, Serialize};

use crate::words::{
    AttentionKind, HostHeap, ModelKind, OptimKind, PoolMode, Precision, SearchMode, Strategy, Task,
};

/// A count from a flag (`u64`) as the schema's signed integer.
pub fn count(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

/// A whole configuration file: `[model]`, `[data]`, `[optim]`, `[train]`, `[kernels]`...
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ConfigFile {
    /// The network to train.
    pub model: ModelSection,
    /// Where the training text comes from.
    pub data: DataSection,
    /// The optimizer.
    pub optim: OptimSection,
    /// Batch, steps, strategy.
    pub train: TrainSection,
    /// Settings of `strategy = "auto-halve"`.
    pub auto_halve: AutoHalveSection,
    /// Dynamic loss scaling of `precision = "f16"`.
    pub loss_scale: LossScaleSection,
    /// How burn's GPU memory pool is filled.
    pub memory: MemorySection,
    /// How each of the step's operations runs (`auto`: oomlab's choice).
    pub kernels: super::KernelsSection,
}

impl ConfigFile {
    /// Every value as `section.key` and its TOML value, in the order of toml's tables
    /// (an unset optional key is absent).
    pub fn entries(&self) -> Vec<(String, toml::Value)> {
        let Ok(toml::Value::Table(doc)) = toml::Value::try_from(self) else {
            return Vec::new();
        };
        doc.into_iter()
            .filter_map(|(section, v)| match v {
                toml::Value::Table(t) => Some((section, t)),
                _ => None,
            })
            .flat_map(|(section, t)| {
                t.into_iter()
                    .map(move |(k, v)| (format!("{section}.{k}"), v))
            })
            .collect()
    }
}

/// `[loss_scale]`: dynamic loss scaling for f16 (PyTorch GradScaler's defaults).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LossScaleSection {
    /// Scale f16 losses at all (false shows what happens without: small gradients flush
    /// to zero).
    pub enabled: bool,
    /// The first scale.
    pub init_scale: f64,
    /// Factor the scale grows by after `growth_interval` clean steps.
    pub growth_factor: f64,
    /// Factor the scale shrinks by after a step with inf/NaN gradients.
    pub backoff_factor: f64,
    /// Clean steps in a row before the scale grows.
    pub growth_interval: i64,
}

impl Default for LossScaleSection {
    fn default() -> Self {
        Self {
            enabled: true,
            init_scale: 65536.0,
            growth_factor: 2.0,
            backoff_factor: 0.5,
            growth_interval: 2000,
        }
    }
}

/// `[memory]`
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MemorySection {
    /// `exact` (the default: every tensor its own buffer of its exact size), `growth`
    /// (burn's pool grows on demand in pages of a few size classes) or `prealloc`
    /// (reserve `prealloc_fraction` of the free VRAM up front, as TensorFlow and JAX do).
    pub mode: PoolMode,
    /// Share of the free VRAM `prealloc` reserves.
    pub prealloc_fraction: f64,
    /// Whether oomlab's allocator counts the host heap: `auto` (the default: on the CPU,
    /// not on CUDA, where one counter every allocation writes slowed host-bound steps),
    /// `count` (everywhere) or `off` (nowhere: no host heap figure, no --memory-budget).
    pub host_heap: HostHeap,
}

impl Default for MemorySection {
    fn default() -> Self {
        Self {
            mode: PoolMode::Exact,
            prealloc_fraction: 0.9,
            host_heap: HostHeap::Auto,
        }
    }
}

/// `[auto_halve]`
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AutoHalveSection {
    /// Micro-batches per optimizer step to start with; must divide `train.batch`.
    pub start_steps: i64,
    /// Double the accumulation when the micro-batch halves, so the optimizer still sees
    /// `train.batch` samples per step. `false`: the batch itself shrinks.
    pub keep_effective_batch: bool,
    /// `halve` (only ever down) or `bisect` (after the first fit, search back up to within
    /// 10% of the largest micro-batch that fits).
    pub search: SearchMode,
    /// The smallest micro-batch to try before giving up.
    pub min_micro_batch: i64,
    /// How many upward probes `bisect` may make.
    pub max_search_attempts: i64,
}

impl Default for AutoHalveSection {
    fn default() -> Self {
        Self {
            start_steps: 1,
            keep_effective_batch: true,
            search: SearchMode::Halve,
            min_micro_batch: 1,
            max_search_attempts: 6,
        }
    }
}

/// `[model]`
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ModelSection {
    /// `gpt` (decoder-only transformer) or `mlp` (next-character MLP over the context).
    pub kind: ModelKind,
    /// Width of embeddings and residual stream.
    pub d_model: i64,
    /// Transformer blocks (gpt) or hidden layers (mlp).
    pub n_layers: i64,
    /// Attention heads (gpt only); must divide `d_model`.
    pub n_heads: i64,
    /// Width of the feed-forward layer (gpt) or of the hidden layers (mlp).
    pub d_ff: i64,
    /// Context length in characters.
    pub seq_len: i64,
    /// Dropout probability, 0 to disable (the default, so runs are reproducible).
    pub dropout: f64,
    /// `efficient` (fused forward, scores recomputed in the backward pass) or `math`
    /// (written out; autodiff keeps every layer's scores). gpt only.
    pub attention: AttentionKind,
    /// Under mixed precision, run LayerNorm in f32 (torch.autocast's policy; costs the f32
    /// copies autodiff keeps, measured in docs/results/2026-11-30-h200-issue12-smoke).
    /// `false`: in the compute dtype, as before issue 12. Pure half always runs it in half.
    pub norm_in_f32: bool,
}

impl Default for ModelSection {
    fn default() -> Self {
        Self {
            kind: ModelKind::Gpt,
            d_model: 64,
            n_layers: 2,
            n_heads: 4,
            d_ff: 256,
            seq_len: 64,
            dropout: 0.0,
            attention: AttentionKind::default(),
            norm_in_f32: true,
        }
    }
}

/// `[data]`
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DataSection {
    /// Generated task: `arith`, `copy`, `brackets` or `mix`. Ignored when `file` is set.
    pub task: Task,
    /// A UTF-8 text file to train on instead of the generated task.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// Characters of generated text.
    pub corpus_chars: i64,
    /// Seed of the generator.
    pub seed: i64,
}

impl Default for DataSection {
    fn default() -> Self {
        Self {
            task: Task::Mix,
            file: None,
            corpus_chars: 200_000,
            seed: 7,
        }
    }
}

/// `[optim]`
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct OptimSection {
    /// `adamw` or `sgd`.
    pub kind: OptimKind,
    /// Learning rate.
    pub lr: f64,
    /// Decoupled weight decay (adamw) or L2 penalty (sgd); 0 disables it.
    pub weight_decay: f64,
}

impl Default for OptimSection {
    fn default() -> Self {
        Self {
            kind: OptimKind::AdamW,
            lr: 3e-3,
            weight_decay: 0.0,
        }
    }
}

/// `[train]`
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TrainSection {
    /// `baseline`, `grad-accum`, `auto-halve`, `checkpointing` or `half`.
    pub strategy: Strategy,
    /// `f32`, or `bf16`/`f16`: mixed precision (f32 master weights, half compute), or
    /// everything in half with `strategy = "half"`.
    pub precision: Precision,
    /// Samples per optimizer step (the effective batch).
    pub batch: i64,
    /// Micro-batches per optimizer step for `grad-accum`; must divide `batch`.
    pub grad_accum_steps: i64,
    /// Optimizer steps to run.
    pub max_steps: i64,
    /// Seed for weights and batch sampling.
    pub seed: i64,
    /// Return burn's free pool pages to the driver every N steps (0: never).
    pub empty_cache_every: i64,
    /// burn's balanced activation checkpointing, under any strategy (`strategy =
    /// "checkpointing"` is the baseline split with this on).
    pub checkpointing: bool,
    /// AdamW's moments in host memory, under any strategy (`strategy =
    /// "offload-optimizer"` is the baseline split with this on).
    pub offload_optimizer: bool,
    /// Over several devices: MiB of f32 gradients (and, sharded, weights) sent in one
    /// collective operation; 0: one operation per parameter.
    pub bucket_mib: i64,
}

impl Default for TrainSection {
    fn default() -> Self {
        Self {
            strategy: Strategy::Baseline,
            precision: Precision::F32,
            batch: 32,
            grad_accum_steps: 4,
            max_steps: 60,
            seed: 42,
            empty_cache_every: 0,
            checkpointing: false,
            offload_optimizer: false,
            bucket_mib: 64,
        }
    }
}
