//! The analytic estimate of one run's peak memory: every term from the config's shapes,
//! the two moments where memory peaks, and what the allocator and the runtime add.

use serde::{Deserialize, Serialize};

use super::activations::{backward_working_set, kept_per_sample, Kept};
use super::{measured, pool};
use crate::config::{DataSource, MemoryMode, OptimKind, PrecisionMode, RunConfig};
use crate::model::{param_count, param_tensor_sizes};
use crate::parallel::ShardPlan;
use crate::strategy::{for_split, StepPlan};
use crate::technique::OffloadTerms;
use crate::units::Bytes;

/// Where the run would train.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Target {
    /// The CPU (Flex): host heap, no pool.
    Cpu {
        /// Worker threads of the backend.
        threads: usize,
    },
    /// A CUDA GPU: burn's pool and the CUDA context.
    Cuda {
        /// The card's memory (the pool's page sizes follow from it).
        total: Bytes,
    },
}

impl Target {
    /// The CPU with the threads this machine has.
    pub fn this_cpu() -> Self {
        Target::Cpu {
            threads: crate::device::compute_threads(),
        }
    }

    /// The CPU of a run under a SIMULATED host-heap budget, whose compute threads are
    /// fixed (`device::BUDGET_THREADS`).
    pub fn budgeted_cpu() -> Self {
        Target::Cpu {
            threads: crate::device::BUDGET_THREADS,
        }
    }

    /// `cpu` or `cuda`.
    pub fn label(self) -> &'static str {
        match self {
            Target::Cpu { .. } => "cpu",
            Target::Cuda { .. } => "cuda",
        }
    }
}

/// When memory peaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Moment {
    /// Early in the backward pass: every activation still kept, the first layer's
    /// gradients being made.
    Backward,
    /// The optimizer step: the last good weights and state are kept beside the new ones
    /// until the step has passed its checks.
    Optimizer,
}

/// Which term of the estimate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TermKind {
    /// The parameters.
    Weights,
    /// One gradient per parameter.
    Gradients,
    /// AdamW's two moments.
    OptimizerState,
    /// AMP's half-precision copy of the weights, made per micro-batch.
    HalfCopy,
    /// Gradient accumulation's running sum.
    AccumulationBuffer,
    /// What autodiff keeps from the forward pass.
    Activations,
    /// The largest transient set of one layer's backward pass.
    BackwardWorkingSet,
    /// The new weights and state while the old ones are kept (optimizer step).
    OptimizerStepCopy,
    /// What the pool holds beyond live tensors (GPU).
    AllocatorOverhead,
    /// CUDA context (GPU) or data and backend buffers (CPU).
    Runtime,
}

impl TermKind {
    /// The row label.
    pub fn label(self) -> &'static str {
        match self {
            TermKind::Weights => "weights",
            TermKind::Gradients => "gradients",
            TermKind::OptimizerState => "optimizer state",
            TermKind::HalfCopy => "half copy of weights (AMP)",
            TermKind::AccumulationBuffer => "accumulation buffer",
            TermKind::Activations => "activations kept for backward",
            TermKind::BackwardWorkingSet => "backward working set",
            TermKind::OptimizerStepCopy => "optimizer step: new weights + state",
            TermKind::AllocatorOverhead => "allocator overhead",
            TermKind::Runtime => "runtime",
        }
    }
}

/// One line of the estimate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Term {
    /// Which term.
    pub kind: TermKind,
    /// Its size.
    pub bytes: Bytes,
    /// Alive at the peak moment (a term of the other moment is shown, not added).
    pub at_peak: bool,
    /// How it was computed.
    pub how: String,
}

/// The analytic estimate of one configuration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// Where it would run.
    pub target: Target,
    /// The split of the first step.
    pub plan: StepPlan,
    /// Parameters.
    pub params: u64,
    /// Every term.
    pub terms: Vec<Term>,
    /// The activations, kept tensor by kept tensor (per micro-batch).
    pub kept: Vec<Kept>,
    /// When memory peaks.
    pub moment: Moment,
    /// Live tensors at the peak.
    pub tensors_peak: Bytes,
    /// The predicted peak: NVML process memory on a GPU, the host heap on the CPU.
    pub peak: Bytes,
    /// The growth pool only: the peak with one more page in every pool the live tensors
    /// use, the top of the predicted range (`peak` is its bottom: no fragmentation). Freed
    /// slices a later tensor does not fit make the pool take a page more.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peak_high: Option<Bytes>,
    /// With AdamW's moments in host memory on a GPU (`offload-optimizer`): what they cost
    /// the host and the bus.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offload: Option<OffloadTerms>,
}

impl Estimate {
    /// The estimate for `cfg` with its configured batch (`vocab` from the corpus).
    pub fn of(cfg: &RunConfig, vocab: usize, target: Target) -> Self {
        let plan = for_split(cfg.train.split).plan(cfg.train.batch);
        Self::with_plan(cfg, vocab, target, plan)
    }

    /// The estimate for `cfg` at `batch` samples per optimizer step (the strategy's split
    /// of it).
    pub fn at_batch(cfg: &RunConfig, vocab: usize, target: Target, batch: usize) -> Self {
        let plan = for_split(cfg.train.split).plan(batch);
        Self::with_plan(cfg, vocab, target, plan)
    }

    /// The estimate for `cfg` split as `plan`.
    pub fn with_plan(cfg: &RunConfig, vocab: usize, target: Target, plan: StepPlan) -> Self {
        Self::sharded(cfg, vocab, target, plan, 1)
    }

    /// The estimate for one device of a data-parallel run whose optimizer state is split
    /// over `shards` devices (ZeRO stage 1, `shard-optimizer`; 1: every device keeps all
    /// of it). `cfg`'s batch is this device's share. The device that owns the most
    /// elements is the one estimated.
    pub fn sharded(
        cfg: &RunConfig,
        vocab: usize,
        target: Target,
        plan: StepPlan,
        shards: usize,
    ) -> Self {
        let params = param_count(&cfg.model, vocab);
        let sizes = param_tensor_sizes(&cfg.model, vocab);
        // Which parameters' state this device keeps: all, or the largest share of the plan
        // the trainers make (`parallel::ShardPlan`, whole parameters, largest first).
        let owned: Vec<bool> = if shards > 1 {
            let elements: Vec<usize> = sizes.iter().map(|&n| n as usize).collect();
            let split = ShardPlan::balance(&elements, shards);
            let rank = (0..shards)
                .max_by_key(|&r| (split.elements_of(r), std::cmp::Reverse(r)))
                .unwrap_or(0);
            split.owner.iter().map(|&o| o == rank).collect()
        } else {
            vec![true; sizes.len()]
        };
        let owned_params: u64 = sizes
            .iter()
            .zip(&owned)
            .filter(|(_, o)| **o)
            .map(|(n, _)| n)
            .sum();
        let precision = cfg.train.precision;
        let (weight_bytes, grad_bytes) = match precision {
            PrecisionMode::Pure(_) => (2, 2),
            PrecisionMode::F32 | PrecisionMode::Mixed(_) => (4, 4),
        };
        let moments = match cfg.optim.kind {
            OptimKind::AdamW => 2,
            OptimKind::Sgd => 0,
        };
        // Offloaded to the host, the moments leave a GPU; on the CPU backend the host is
        // the device, and they stay in its count.
        let offload =
            (cfg.train.offload_optimizer && moments > 0 && matches!(target, Target::Cuda { .. }))
                .then(|| OffloadTerms::of(params, owned_params, moments, weight_bytes, grad_bytes));
        let moments = if offload.is_some() { 0 } else { moments };
        let weights = Bytes(params * weight_bytes);
        let grads = Bytes(params * grad_bytes);
        let state = Bytes(owned_params * weight_bytes * moments);
        // The update makes new weights for the parameters this device owns.
        let owned_weights = Bytes(owned_params * weight_bytes);
        let half_copy = match precision {
            PrecisionMode::Mixed(_) => Bytes(params * 2),
            _ => Bytes(0),
        };
        let accum = if plan.accumulation > 1 {
            grads
        } else {
            Bytes(0)
        };
        let checkpointing = cfg.train.checkpointing;
        let micro = plan.micro_batch as u64;
        let on_cpu = matches!(target, Target::Cpu { .. });
        let kept: Vec<Kept> = kept_per_sample(&cfg.model, vocab, precision, checkpointing, on_cpu)
            .into_iter()
            .map(|k| Kept {
                tensor_bytes: k.tensor_bytes * micro,
                ..k
            })
            .collect();
        let activations = Bytes(kept.iter().map(Kept::bytes).sum());
        let cpu_linear_2d = on_cpu && crate::backend::cpu_linear_2d();
        let working_set = backward_working_set(
            &cfg.model,
            vocab,
            precision,
            checkpointing,
            on_cpu,
            cpu_linear_2d,
        );
        let working_tensors: Vec<(u64, u64)> = working_set
            .tensors
            .iter()
            .map(|&(count, bytes)| (bytes * micro, count))
            .collect();
        let working = Bytes(
            working_tensors
                .iter()
                .map(|(b, n)| b * n)
                .sum::<u64>()
                .saturating_sub(working_set.freed_per_sample * micro),
        );
        let backward = weights.0 + state.0 + half_copy.0 + accum.0 + activations.0 + working.0;
        // The update goes parameter by parameter and consumes each gradient as it makes
        // that parameter's new weights and state, while the last good weights and state
        // stay: it starts with weights + state + gradients and ends with old and new weights
        // and state of the owned parameters. With 28 / 12 bytes a parameter (all of it held
        // at once) the big-model lesson's pure-bf16 and SGD peaks on the H200 were predicted
        // 24% / 35% high; with this, 8% (docs/results/2026-12-03-h200-lesson-parts).
        let update_start = weights.0 + state.0 + grads.0;
        let update_end = weights.0 + state.0 + owned_weights.0 + state.0;
        let grads_at_update = update_start > update_end;
        let optimizer = update_start.max(update_end);
        let (moment, tensors_peak) = if backward >= optimizer {
            (Moment::Backward, Bytes(backward))
        } else {
            (Moment::Optimizer, Bytes(optimizer))
        };
        // The live tensors at the peak, by size, for the pool model.
        let per_param = |bytes: u64, copies: u64| {
            sizes
                .iter()
                .map(move |&n| (n * bytes, copies))
                .collect::<Vec<_>>()
        };
        let per_owned = |bytes: u64, copies: u64| {
            sizes
                .iter()
                .zip(&owned)
                .filter(|(_, o)| **o)
                .map(move |(&n, _)| (n * bytes, copies))
                .collect::<Vec<_>>()
        };
        let mut live: Vec<(u64, u64)> = Vec::new();
        match moment {
            Moment::Backward => {
                live.extend(per_param(weight_bytes, 1));
                live.extend(per_owned(weight_bytes, moments));
                if half_copy.0 > 0 {
                    live.extend(per_param(2, 1));
                }
                if accum.0 > 0 {
                    live.extend(per_param(grad_bytes, 1));
                }
                live.extend(kept.iter().map(|k| (k.tensor_bytes, k.count)));
                live.extend(working_tensors.iter().copied());
            }
            Moment::Optimizer => {
                live.extend(per_param(weight_bytes, 1));
                if grads_at_update {
                    live.extend(per_owned(weight_bytes, moments));
                    live.extend(per_param(grad_bytes, 1));
                } else {
                    live.extend(per_owned(weight_bytes, 1 + 2 * moments));
                }
            }
        }
        let mut extra_pages = None;
        let (overhead, overhead_how) = match (target, cfg.train.memory_mode) {
            (Target::Cpu { .. }, _) => (
                Bytes(0),
                "none: the CPU backend takes exactly sized blocks from the system allocator"
                    .to_string(),
            ),
            (Target::Cuda { .. }, MemoryMode::Exact) => (
                scale(tensors_peak, measured::EXACT_POOL_FACTOR - 1.0),
                format!(
                    "exact pool: {:.0}% of the live tensors (measured on the H200)",
                    (measured::EXACT_POOL_FACTOR - 1.0) * 100.0
                ),
            ),
            (Target::Cuda { total }, mode) => {
                let reserved = pool::reserved(total, &live);
                extra_pages = Some(pool::one_page_each(total, &live));
                (
                    Bytes(reserved.0.saturating_sub(tensors_peak.0)),
                    match mode {
                        MemoryMode::Prealloc { fraction } => format!(
                            "as growth ({reserved} of pages); prealloc reserves {:.0}% of the free VRAM before the first step, so NVML shows that instead",
                            fraction * 100.0
                        ),
                        _ => format!(
                            "growth pool: these tensors packed whole into pages of their size class, {reserved}"
                        ),
                    },
                )
            }
        };
        let (runtime, runtime_how) = match target {
            Target::Cpu { threads } => {
                let data = match &cfg.data {
                    DataSource::Generated { chars, .. } => measured::data_bytes(*chars),
                    DataSource::File(path) => measured::data_bytes(
                        std::fs::metadata(path)
                            .map(|m| m.len() as usize)
                            .unwrap_or(0),
                    ),
                };
                // The worker threads keep buffers only once a product runs on them.
                let parallel = super::flex::step_multiplies_in_parallel(
                    &cfg.model,
                    vocab,
                    plan.micro_batch,
                    cpu_linear_2d,
                );
                let workers = if parallel { threads } else { 0 };
                let ws = measured::cpu_workspace(workers);
                (
                    Bytes(data.0 + ws.0),
                    format!(
                        "data {data} (5 bytes per character) + backend buffers {ws} ({} x (the matrix library's {} L2-sized packing buffer + 50 kB), measured{})",
                        if parallel {
                            format!("{} threads", threads + 1)
                        } else {
                            "the main thread".to_string()
                        },
                        measured::l2_per_thread(),
                        if parallel {
                            ""
                        } else {
                            ": no product of this micro-batch is large enough for the backend to use its other threads"
                        }
                    ),
                )
            }
            Target::Cuda { .. } => (
                measured::CUDA_CONTEXT,
                "CUDA context and modules (measured on the H200)".into(),
            ),
        };
        let at_bwd = moment == Moment::Backward;
        let mb = plan.micro_batch;
        let term = |kind, bytes: Bytes, at_peak: bool, how: String| Term {
            kind,
            bytes,
            at_peak,
            how,
        };
        let mut terms = vec![
            term(
                TermKind::Weights,
                weights,
                true,
                format!("{params} parameters x {weight_bytes} bytes"),
            ),
            term(
                TermKind::Gradients,
                grads,
                !at_bwd && grads_at_update,
                format!("{params} x {grad_bytes} bytes; complete only after the backward pass"),
            ),
            term(
                TermKind::OptimizerState,
                state,
                true,
                match cfg.optim.kind {
                    OptimKind::AdamW if offload.is_some() => {
                        offload.map(|o| o.state_term_how()).unwrap_or_default()
                    }
                    OptimKind::AdamW if shards > 1 => format!(
                        "AdamW: 2 moments x {owned_params} of the {params} parameters (this device's share of {shards}, the largest) x {weight_bytes} bytes"
                    ),
                    OptimKind::AdamW => {
                        format!("AdamW: 2 moments x {params} x {weight_bytes} bytes")
                    }
                    OptimKind::Sgd => "SGD keeps none".into(),
                },
            ),
        ];
        if half_copy.0 > 0 {
            terms.push(term(
                TermKind::HalfCopy,
                half_copy,
                at_bwd,
                format!("{params} x 2 bytes, cast per micro-batch"),
            ));
        }
        if accum.0 > 0 {
            terms.push(term(
                TermKind::AccumulationBuffer,
                accum,
                at_bwd,
                format!("summed gradients over {} micro-batches", plan.accumulation),
            ));
        }
        terms.extend([
            term(
                TermKind::Activations,
                activations,
                at_bwd,
                format!(
                    "micro-batch {mb} x {} tokens{}",
                    cfg.model.seq_len,
                    if checkpointing { ", checkpointed" } else { "" }
                ),
            ),
            term(
                TermKind::BackwardWorkingSet,
                working,
                at_bwd,
                if working_set.freed_per_sample > 0 {
                    "one layer's backward: 2 x d_ff + d_model per token in f32 (FFN and residual gradients), less the loss's, head's and final norm's kept tensors, freed by then (the CPU's 2-D linear layers)".into()
                } else if on_cpu
                    && !cpu_linear_2d
                    && precision.half() == Some(crate::config::HalfDtype::Bf16)
                {
                    "one layer's backward: 3 x d_ff per token (FFN gradients, f32 on the CPU) + 1 x d_ff in f32 (the CPU multiplies bf16 matrices in f32)".into()
                } else {
                    "one layer's backward: 3 x d_ff per token (FFN gradients; f32 on the CPU)".into()
                },
            ),
            term(
                TermKind::OptimizerStepCopy,
                Bytes(owned_weights.0 + state.0),
                !at_bwd && !grads_at_update,
                "the trainer keeps the last good weights and state until the step passes its checks; the update frees each gradient as it makes that parameter's new weights and state".into(),
            ),
            term(TermKind::AllocatorOverhead, overhead, true, overhead_how),
            term(TermKind::Runtime, runtime, true, runtime_how),
        ]);
        Self {
            target,
            plan,
            params,
            terms,
            kept,
            moment,
            tensors_peak,
            peak: Bytes(tensors_peak.0 + overhead.0 + runtime.0),
            peak_high: extra_pages.map(|p| Bytes(tensors_peak.0 + overhead.0 + runtime.0 + p.0)),
            offload,
        }
    }

    /// Weights, gradients and optimizer state: what no batch technique shrinks.
    pub fn fixed_state(&self) -> Bytes {
        Bytes(
            self.term(TermKind::Weights).0
                + self.term(TermKind::Gradients).0
                + self.term(TermKind::OptimizerState).0,
        )
    }

    /// The tensors of the update moment: the last good weights and state, and the larger
    /// of the gradients (its start) and the new weights and state (its end).
    pub fn update(&self) -> Bytes {
        let t = |k| self.term(k).0;
        Bytes(
            t(TermKind::Weights)
                + t(TermKind::OptimizerState)
                + t(TermKind::Gradients).max(t(TermKind::OptimizerStepCopy)),
        )
    }

    /// The bytes of `kind` (0 when absent).
    pub fn term(&self, kind: TermKind) -> Bytes {
        self.terms
            .iter()
            .find(|t| t.kind == kind)
            .map(|t| t.bytes)
            .unwrap_or(Bytes(0))
    }
}

fn scale(b: Bytes, f: f64) -> Bytes {
    Bytes((b.0 as f64 * f).round() as u64)
}
