//! The peak memory of training a Hugging Face model with PyTorch, term by term.
//!
//! What PyTorch keeps, read from the model code as transformers writes it (a training loop
//! `loss = model(input_ids=x, labels=x).loss; loss.backward(); opt.step();
//! opt.zero_grad(set_to_none=True)`, SDPA attention, AdamW with its defaults):
//! - the fixed state: weights, gradients and AdamW's two moments in the parameters' dtype;
//!   AdamW updates in place (unlike oomlab's own trainer, which keeps the last good weights
//!   to roll a failed step back), but its default multi-tensor path makes one temporary
//!   the size of the state's dtype times the parameters (`sqrt` of the second moment);
//! - under autocast, a bf16 copy of every matrix product's weight, cached for the forward
//!   and kept by the backward;
//! - what autograd keeps per layer and token ([`layer_bytes_per_token`]);
//! - the logits and the loss: transformers upcasts the logits to f32 for the loss, whose
//!   log-softmax keeps vocabulary x tokens in f32; at the start of the backward pass the
//!   gradient of the log-softmax and of its input are alive beside it: 12 bytes a logit;
//! - PyTorch's caching allocator (reserved over allocated) and the CUDA context
//!   ([`super::measured`]).
//!
//! The peak is the largest of four moments: the end of the forward pass, the start of the
//! backward pass (the logits' gradients), the head's weight gradient, and the optimizer step.
//! The allocated and reserved peaks are replayed ([`super::replay`]: the allocation
//! sequence traced for the architecture, precision and checkpointing, through a model of
//! the allocator) where a template was traced for the run; the terms then say what the
//! memory is, and the allocator's term is the replayed reserve over them. Elsewhere the
//! reserved peak is the allocated one times the allocator's measured slack, or, when
//! the first optimizer step shaped the cache, what that step reserved plus the segments
//! the next step's logits need (they fit in no parameter-sized block once larger than the
//! largest parameter: measured in docs/results/2026-12-04-h200-hf-optimizer-peak).

use serde::Serialize;

use super::setup::{Optimizer, Precision, Setup};
use super::shape::{Family, Shape};
use crate::units::Bytes;

/// Which term.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// The parameters.
    Weights,
    /// One gradient per trained parameter.
    Gradients,
    /// The optimizer's state.
    OptimizerState,
    /// AdamW's multi-tensor temporary at the step.
    OptimizerTemporary,
    /// Autocast's bf16 copies of the weights.
    AutocastWeights,
    /// What autograd keeps in the decoder layers.
    LayerActivations,
    /// Embedding, final norm and head inputs.
    HeadActivations,
    /// The logits, the f32 log-softmax and their gradients.
    Logits,
    /// One layer recomputed during the backward pass (checkpointing).
    Recompute,
    /// The caching allocator's reserve beyond the allocated peak.
    AllocatorSlack,
    /// The CUDA context (outside the allocator).
    CudaContext,
}

impl Kind {
    /// The table's label.
    pub fn label(self) -> &'static str {
        match self {
            Kind::Weights => "weights",
            Kind::Gradients => "gradients",
            Kind::OptimizerState => "optimizer state",
            Kind::OptimizerTemporary => "optimizer step temporary",
            Kind::AutocastWeights => "autocast bf16 weight copies",
            Kind::LayerActivations => "activations (decoder layers)",
            Kind::HeadActivations => "activations (embedding, final norm, head)",
            Kind::Logits => "logits and cross-entropy",
            Kind::Recompute => "one layer recomputed (checkpointing)",
            Kind::AllocatorSlack => "allocator: reserved over allocated",
            Kind::CudaContext => "CUDA context",
        }
    }
}

/// One line of the table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Term {
    /// Which.
    pub kind: Kind,
    /// Its size.
    pub bytes: Bytes,
    /// Alive at the peak moment.
    pub at_peak: bool,
    /// How it is computed.
    pub how: String,
}

/// When the allocated memory peaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Moment {
    /// The loss computed, every activation kept.
    ForwardEnd,
    /// The loss's gradients made, every activation still kept.
    BackwardStart,
    /// The head's weight gradient made beside the kept activations.
    HeadGradient,
    /// Recomputing a layer near the end of the backward pass (checkpointing).
    Recompute,
    /// The optimizer step: weights, gradients, state and the step's temporary.
    OptimizerStep,
}

impl Moment {
    /// In words.
    pub fn label(self) -> &'static str {
        match self {
            Moment::ForwardEnd => "end of the forward pass (loss computed)",
            Moment::BackwardStart => "start of the backward pass (the loss's gradients)",
            Moment::HeadGradient => "the head's weight gradient",
            Moment::Recompute => "a layer recomputed late in the backward pass",
            Moment::OptimizerStep => "the optimizer step",
        }
    }
}

/// The estimate of one run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Estimate {
    /// The run.
    pub setup: Setup,
    /// Every term.
    pub terms: Vec<Term>,
    /// When the allocated memory peaks.
    pub moment: Moment,
    /// torch.cuda.max_memory_allocated at the peak.
    pub allocated: Bytes,
    /// torch.cuda.max_memory_reserved: allocated plus the allocator's slack.
    pub reserved: Bytes,
    /// What nvidia-smi shows for the process: reserved plus the CUDA context.
    pub process: Bytes,
    /// Weights + gradients + optimizer state (+ the step's temporary).
    pub fixed_state: Bytes,
    /// Where a template was traced for the architecture and loop: the replay that made
    /// the allocated and reserved peaks (else they come from the terms and the measured
    /// slack factor).
    pub replay: Option<Replayed>,
}

/// The allocation sequence replayed through the allocator's model ([`super::replay`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Replayed {
    /// src/hf/templates/NAME.tpl.
    pub template: String,
    /// Allocations and frees replayed (the build and four steps).
    pub events: usize,
    /// The allocated peak the terms make by formula, beside the replay's.
    pub terms_allocated: Bytes,
}

/// Bytes autograd keeps per token in one decoder layer (and the attention's log-sum-exp),
/// op by op as transformers' code runs them. `d` width, `q`/`kv` query and key-value
/// widths, `f` MLP width, `a` heads.
///
/// GPT-2 (fused qkv, LayerNorm, gelu_new written out, dropout masks of one byte):
/// - f32: LayerNorm inputs 2 x 4d, their outputs as the products' inputs 2 x 4d, qkv 12d,
///   attention output 4d and its contiguous copy 4d, two dropout masks 2d; gelu_new keeps
///   its input, tanh's output, 0.5x, 1 + tanh and the product: 5 x 4f.
/// - AMP: the residual stream stays f32 (LayerNorm inputs 2 x 4d), each product keeps a
///   bf16 copy of its input (2d each), qkv 6d, attention 2d + 2d, masks 2d; gelu_new's pow
///   and tanh run in f32: 4f + 4f + 4f (the f32 input, tanh, 1 + tanh) + 2f (0.5x) + 2f
///   (the product's bf16 copy).
/// - pure bf16: everything 2 bytes: 2 x 2d + 2 x 2d + 6d + 2d + 2d + 2d masks, 5 x 2f.
///
/// Llama / Mistral / Qwen2 (RMSNorm written out, RoPE, SwiGLU):
/// - f32: each RMSNorm keeps its input, the normalized tensor and its output: 2 x 12d;
///   queries: the projection, rotate_half's copy, the rotated queries, attention's output
///   and its contiguous copy: 5 x 4q; keys: projection, rotate_half, rotated, values: 4 x
///   4kv; SwiGLU: gate, silu(gate), up, their product: 4 x 4f.
/// - AMP: RMSNorm runs in f32 on the f32 stream (input and normalized, 8d each) and every
///   product casts its input to bf16 separately (autocast caches only weights): 3 x 2d
///   before q, k, v and 2 x 2d before gate and up; then 5 x 2q, 4 x 2kv, 4 x 2f.
/// - pure bf16: RMSNorm upcasts its input (4d) and keeps its bf16 output twice (2 x 2d)
///   per norm: 2 x 8d; 5 x 2q, 4 x 2kv, 4 x 2f.
///
/// Attention with SDPA keeps the log-sum-exp (4 bytes per head and token). In f32 with
/// grouped-query attention PyTorch has no fused kernel (flash needs 16-bit, the efficient
/// kernel does not take `enable_gqa`), so SDPA runs written out: it keeps the attention
/// probabilities, heads x sequence x 4 bytes per token.
pub fn layer_bytes_per_token(shape: &Shape, precision: Precision, seq: u64) -> u64 {
    let (d, q, kv, f, a) = (
        shape.hidden,
        shape.q_dim(),
        shape.kv_dim(),
        shape.intermediate,
        shape.heads,
    );
    let masks = if shape.dropout { 2 * d } else { 0 };
    let lse = 4 * a;
    let body = match (shape.family, precision) {
        (Family::Gpt2, Precision::F32) => 16 * d + 12 * d + 8 * d + 20 * f,
        (Family::Gpt2, Precision::AmpBf16) => 8 * d + 4 * d + 6 * d + 4 * d + 16 * f,
        (Family::Gpt2, Precision::Bf16) => 8 * d + 6 * d + 4 * d + 10 * f,
        (Family::Llama, Precision::F32) => 24 * d + 20 * q + 16 * kv + 16 * f,
        (Family::Llama, Precision::AmpBf16) => 16 * d + 10 * d + 10 * q + 8 * kv + 8 * f,
        (Family::Llama, Precision::Bf16) => 16 * d + 10 * q + 8 * kv + 8 * f,
    };
    let written_out = if precision == Precision::F32 && shape.gqa() {
        // Probabilities kept, keys and values repeated to every head.
        4 * a * seq + 2 * 4 * q
    } else {
        0
    };
    body + masks + lse + written_out
}

/// Bytes per token outside the layers: the embedding's dropout mask, the final norm and
/// the head's input.
fn head_bytes_per_token(shape: &Shape, precision: Precision) -> u64 {
    let d = shape.hidden;
    let mask = if shape.dropout { d } else { 0 };
    mask + match (shape.family, precision) {
        (Family::Gpt2, Precision::F32) => 8 * d,
        (Family::Gpt2, Precision::AmpBf16) => 6 * d,
        (Family::Gpt2, Precision::Bf16) => 4 * d,
        (Family::Llama, Precision::F32) => 12 * d,
        (Family::Llama, Precision::AmpBf16) => 10 * d,
        (Family::Llama, Precision::Bf16) => 8 * d,
    }
}

/// Bytes of a layer's input kept under checkpointing (the residual stream: f32 unless the
/// model is bf16).
fn stream_bytes(precision: Precision) -> u64 {
    match precision {
        Precision::Bf16 => 2,
        _ => 4,
    }
}

/// The estimate of `setup` for `shape`.
pub fn estimate(shape: &Shape, setup: Setup) -> Estimate {
    estimate_with(shape, setup, true)
}

/// [`estimate`], with the replay or (`replay` false) from the terms and the measured slack
/// alone, as for a run no template was traced for.
fn estimate_with(shape: &Shape, setup: Setup, replay: bool) -> Estimate {
    let p = shape.params();
    let pb = setup.precision.param_bytes();
    let gpus = setup.gpus.max(1);
    let shard = |stage: u8, bytes: u64| {
        if setup.zero >= stage && gpus > 1 {
            bytes.div_ceil(gpus)
        } else {
            bytes
        }
    };
    // Trained parameters: all, or none of the base with LoRA.
    let trained = if setup.lora { 0 } else { p };
    let weights = shard(3, p * pb);
    let grads = shard(2, trained * pb);
    let (state_full, temp_full) = match setup.optimizer {
        Optimizer::Adamw => (2 * trained * pb, trained * pb),
        Optimizer::Sgd => (0, 0),
        Optimizer::Adamw8bit => (2 * trained, 0),
        Optimizer::Adafactor => {
            let per_layer = 2 * (shape.hidden + shape.intermediate) * 4;
            (shape.layers * per_layer * 4, 0)
        }
    };
    let (state, temp) = if setup.offload {
        (0, 0)
    } else {
        (shard(1, state_full), shard(1, temp_full))
    };
    let tokens = setup.micro_batch * setup.seq;
    let amp = setup.precision == Precision::AmpBf16;
    let autocast_all = if amp { 2 * shape.autocast_params() } else { 0 };
    let head_cast = if amp {
        2 * shape.vocab * shape.hidden
    } else {
        0
    };
    let layer = layer_bytes_per_token(shape, setup.precision, setup.seq) * tokens;
    let head_acts = head_bytes_per_token(shape, setup.precision) * tokens;
    let layers_kept = if setup.checkpointing {
        shape.layers * stream_bytes(setup.precision) * shape.hidden * tokens
    } else {
        shape.layers * layer
    };
    let logits_fwd = match setup.precision {
        Precision::F32 => 8,
        _ => 10,
    } * shape.vocab
        * tokens;
    let logits_bwd = 12 * shape.vocab * tokens;
    // The head's weight gradient: f32 (AMP: made in bf16, then cast), beside the
    // gradient of the logits.
    let head_grad = if trained == 0 {
        0
    } else {
        match setup.precision {
            Precision::F32 => 4 * shape.vocab * shape.hidden + 4 * shape.vocab * tokens,
            Precision::AmpBf16 => 6 * shape.vocab * shape.hidden + 2 * shape.vocab * tokens,
            Precision::Bf16 => 2 * shape.vocab * shape.hidden + 2 * shape.vocab * tokens,
        }
    };
    // With accumulation, the gradients of earlier micro-batches stay through the passes.
    let grads_in_passes = if setup.accum > 1 { grads } else { 0 };
    let kept_cast = if setup.checkpointing {
        head_cast
    } else {
        autocast_all
    };
    let base = weights + state + grads_in_passes;
    let mut moments = vec![
        (
            Moment::ForwardEnd,
            base + autocast_all + layers_kept + head_acts + logits_fwd,
        ),
        (
            Moment::BackwardStart,
            base + kept_cast + layers_kept + head_acts + logits_bwd,
        ),
        (
            Moment::HeadGradient,
            base + kept_cast + layers_kept + head_acts + head_grad,
        ),
        (Moment::OptimizerStep, weights + grads + state + temp),
    ];
    let recompute = if setup.checkpointing {
        // The first layer recomputed near the end of the backward pass: its activations,
        // its bf16 weights under AMP, and by then nearly every gradient.
        let cast = if amp {
            2 * shape.layer_matmul_params()
        } else {
            0
        };
        let at = weights + state + grads + layers_kept + layer + cast;
        moments.push((Moment::Recompute, at));
        layer + cast
    } else {
        0
    };
    let (moment, allocated) =
        moments.iter().copied().fold(
            (Moment::OptimizerStep, 0),
            |m, x| if x.1 > m.1 { x } else { m },
        );
    let at_passes = moment != Moment::OptimizerStep;
    let ck_passes = setup.checkpointing && at_passes;
    // Which phase of the first step shaped the cache: its passes (no optimizer state yet)
    // or its optimizer step. When the optimizer step needed more than the passes had
    // reserved, the cache is made of parameter-sized blocks (the freed gradients and the
    // step's temporary): the next step's f32 logits tensors, each 4 x vocabulary x tokens
    // bytes, fit in none of them when they are larger than the largest parameter, and the
    // allocator adds a segment for each of the three alive at the loss's backward. (When
    // the passes shaped it, the measured slack factor already holds their segments.)
    let opt_allocated = weights + grads + state + temp;
    let passes_allocated = moments
        .iter()
        .filter(|m| m.0 != Moment::OptimizerStep)
        .map(|m| m.1)
        .max()
        .unwrap_or(0);
    let first_passes_reserved =
        super::measured::reserved(passes_allocated.saturating_sub(state), setup.checkpointing);
    let opt_reserved = super::measured::reserved(opt_allocated, false);
    let logit_tensor = 4 * shape.vocab * tokens;
    let largest_block = shape.largest_param() * pb;
    let step_shaped = opt_reserved.0 >= first_passes_reserved.0;
    let after_step = opt_reserved.0
        + if step_shaped && logit_tensor > largest_block {
            logits_bwd
        } else {
            0
        };
    let factor_reserved = super::measured::reserved(allocated, ck_passes)
        .0
        .max(after_step);
    // The new segments, where they set the reserved peak.
    let new_segments = if factor_reserved == after_step {
        after_step - opt_reserved.0
    } else {
        0
    };
    // Where a template was traced for this architecture and loop, the reserve is the
    // allocation sequence replayed through the allocator's model instead.
    let replayed = if replay {
        super::replay::for_run(shape, &setup)
    } else {
        None
    };
    let terms_allocated = allocated;
    let (allocated, reserved) = match &replayed {
        Some(Ok(r)) => (r.allocated_peak, Bytes(r.reserved_peak)),
        _ => (allocated, Bytes(factor_reserved)),
    };
    let context = super::measured::CONTEXT;
    let mut terms = vec![
        Term {
            kind: Kind::Weights,
            bytes: Bytes(weights),
            at_peak: true,
            how: format!(
                "{p} x {pb} bytes{}",
                if setup.zero >= 3 && gpus > 1 {
                    format!(" / {gpus} GPUs (ZeRO-3)")
                } else {
                    String::new()
                }
            ),
        },
        Term {
            kind: Kind::Gradients,
            bytes: Bytes(grads),
            at_peak: !at_passes || setup.accum > 1 || moment == Moment::Recompute,
            how: if setup.lora {
                "LoRA: the base is frozen (the adapters' few are left out)".into()
            } else {
                format!(
                    "{p} x {pb} bytes{}; freed by zero_grad(set_to_none=True), so only there from the backward pass to the step{}",
                    if setup.zero >= 2 && gpus > 1 { format!(" / {gpus} GPUs (ZeRO-2)") } else { String::new() },
                    if setup.accum > 1 { " and through the passes while micro-batches accumulate" } else { "" }
                )
            },
        },
        Term {
            kind: Kind::OptimizerState,
            bytes: Bytes(state),
            at_peak: true,
            how: match (setup.offload, setup.optimizer) {
                (true, _) => "offloaded to the CPU (DeepSpeed offload_optimizer)".into(),
                (_, Optimizer::Adamw) => format!("two moments, {trained} x 2 x {pb} bytes"),
                (_, Optimizer::Sgd) => "none (plain SGD)".into(),
                (_, Optimizer::Adamw8bit) => format!("two 8-bit moments, {trained} x 2 bytes"),
                (_, Optimizer::Adafactor) => {
                    "factored second moment: a row and a column per matrix".into()
                }
            },
        },
        Term {
            kind: Kind::OptimizerTemporary,
            bytes: Bytes(temp),
            at_peak: !at_passes,
            how: "AdamW's multi-tensor step (the default on CUDA) makes sqrt(second moment) for every parameter at once".into(),
        },
        Term {
            kind: Kind::AutocastWeights,
            bytes: Bytes(if moment == Moment::ForwardEnd { autocast_all } else { kept_cast }),
            at_peak: amp && at_passes && moment != Moment::Recompute,
            how: if amp {
                format!(
                    "{} matrix-product parameters x 2 bytes, cached by autocast and kept by the backward{}",
                    shape.autocast_params(),
                    if setup.checkpointing { " (checkpointing: the head's only, after the forward pass)" } else { "" }
                )
            } else {
                "none (no autocast)".into()
            },
        },
        Term {
            kind: Kind::LayerActivations,
            bytes: Bytes(layers_kept),
            at_peak: at_passes,
            how: if setup.checkpointing {
                format!(
                    "checkpointing: each layer's input, {} layers x {} tokens x {} x {} bytes",
                    shape.layers,
                    tokens,
                    shape.hidden,
                    stream_bytes(setup.precision)
                )
            } else {
                format!(
                    "{} layers x {} tokens x {} bytes (SDPA{})",
                    shape.layers,
                    tokens,
                    layer_bytes_per_token(shape, setup.precision, setup.seq),
                    if setup.precision == Precision::F32 && shape.gqa() {
                        "; f32 with grouped-query attention runs written out and keeps the probabilities"
                    } else {
                        ""
                    }
                )
            },
        },
        Term {
            kind: Kind::HeadActivations,
            bytes: Bytes(head_acts),
            at_peak: at_passes,
            how: format!("{tokens} tokens x {} bytes", head_bytes_per_token(shape, setup.precision)),
        },
        Term {
            kind: Kind::Logits,
            bytes: Bytes(match moment {
                Moment::ForwardEnd => logits_fwd,
                Moment::HeadGradient => head_grad,
                _ => logits_bwd,
            }),
            at_peak: matches!(moment, Moment::ForwardEnd | Moment::BackwardStart | Moment::HeadGradient),
            how: format!(
                "vocabulary {} x {tokens} tokens: the loss upcasts the logits to f32; its log-softmax and, at the backward pass's start, two gradients of that size: 12 bytes a logit",
                shape.vocab
            ),
        },
    ];
    if setup.checkpointing {
        terms.push(Term {
            kind: Kind::Recompute,
            bytes: Bytes(recompute),
            at_peak: moment == Moment::Recompute,
            how: "one layer's activations (and its bf16 weights under AMP) rebuilt during the backward pass".into(),
        });
    }
    terms.push(Term {
        kind: Kind::AllocatorSlack,
        // replayed: the reserve over what the terms make, so that the terms alive at the
        // peak still add up to it
        bytes: Bytes(reserved.0.saturating_sub(terms_allocated)),
        at_peak: true,
        how: if let Some(Ok(r)) = &replayed {
            format!(
                "what PyTorch's caching allocator reserves beyond the terms above: this run's {} allocations and frees (building the model, then {} steps), traced on small models of this architecture (NVIDIA H200, torch 2.11, transformers 5.17) and replayed through a model of the allocator",
                r.events,
                super::replay::STEPS,
            )
        } else if new_segments > 0 {
            format!(
                "PyTorch's caching allocator keeps freed blocks: the first optimizer step needed more than the first passes reserved, so the cache is its {} x {} (measured, {}), in parameter-sized blocks; the next step's f32 logits ({} each) are larger than the largest ({}), so it adds segments for the three alive at the loss's backward: 12 bytes x vocabulary {} x {tokens} tokens",
                Bytes(opt_allocated),
                super::measured::RESERVED_OVER_ALLOCATED,
                super::measured::SOURCE,
                Bytes(logit_tensor),
                Bytes(largest_block),
                shape.vocab
            )
        } else {
            format!(
                "PyTorch's caching allocator keeps freed blocks: reserved = allocated x {}{} (measured, {}){}",
                super::measured::reserved_factor(ck_passes),
                if ck_passes { " with checkpointing" } else { "" },
                super::measured::SOURCE,
                match (&replayed, super::replay::why_not(&setup)) {
                    (Some(Err(e)), _) => format!("; the replay failed: {e}"),
                    (None, Some(why)) => format!("; not replayed: {why}"),
                    (None, None) if replay => "; not replayed: no template was traced for this architecture".into(),
                    _ => String::new(),
                }
            )
        },
    });
    terms.push(Term {
        kind: Kind::CudaContext,
        bytes: context,
        at_peak: true,
        how: format!("measured ({})", super::measured::SOURCE),
    });
    Estimate {
        setup,
        terms,
        moment,
        allocated: Bytes(allocated),
        reserved,
        process: Bytes(reserved.0 + context.0),
        fixed_state: Bytes(weights + grads + state),
        replay: match replayed {
            Some(Ok(r)) => Some(Replayed {
                template: r.template,
                events: r.events,
                terms_allocated: Bytes(terms_allocated),
            }),
            _ => None,
        },
    }
}

impl Estimate {
    /// What a card must hold for the run to train: the allocated peak and the CUDA
    /// context. Before it raises out-of-memory, PyTorch's caching allocator frees the
    /// blocks it keeps cached and tries again, so its slack over the allocated peak
    /// (the reserved figure nvidia-smi shows on a roomy card) is given back on a full one.
    pub fn needs(&self) -> Bytes {
        Bytes(self.allocated.0 + super::measured::CONTEXT.0)
    }
}

/// The largest micro-batch whose [`Estimate::needs`] fits `capacity` (0 when not even one).
pub fn largest_micro_batch(shape: &Shape, setup: Setup, capacity: Bytes) -> u64 {
    let fits = |b: u64| {
        estimate(
            shape,
            Setup {
                micro_batch: b,
                ..setup
            },
        )
        .needs()
            <= capacity
    };
    if !fits(1) {
        return 0;
    }
    let (mut lo, mut hi) = (1u64, 2u64);
    while fits(hi) {
        lo = hi;
        hi *= 2;
        if hi > 1 << 20 {
            return lo;
        }
    }
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gpt2() -> Shape {
        Shape::builtin("gpt2").unwrap()
    }

    #[test]
    fn fixed_state_is_sixteen_bytes_a_parameter_in_f32_and_eight_in_pure_bf16() {
        let s = gpt2();
        let p = s.params();
        let e = estimate(&s, Setup::new(1024, 1, Precision::F32));
        assert_eq!(e.fixed_state.0, 16 * p);
        let e = estimate(&s, Setup::new(1024, 1, Precision::Bf16));
        assert_eq!(e.fixed_state.0, 8 * p);
        let sgd = Setup {
            optimizer: Optimizer::Sgd,
            ..Setup::new(1024, 1, Precision::F32)
        };
        assert_eq!(estimate(&s, sgd).fixed_state.0, 8 * p);
    }

    #[test]
    fn activations_grow_with_the_batch_and_checkpointing_keeps_less() {
        let s = Shape::builtin("llama-3.2-1b").unwrap();
        let one = estimate(&s, Setup::new(2048, 1, Precision::AmpBf16));
        let four = estimate(&s, Setup::new(2048, 4, Precision::AmpBf16));
        assert!(four.allocated.0 > one.allocated.0);
        let ck = estimate(
            &s,
            Setup {
                checkpointing: true,
                ..Setup::new(2048, 4, Precision::AmpBf16)
            },
        );
        assert!(ck.allocated.0 < four.allocated.0);
        // Logits: 12 bytes x vocabulary x tokens at the backward pass's start.
        let t = four.terms.iter().find(|t| t.kind == Kind::Logits).unwrap();
        if four.moment == Moment::BackwardStart {
            assert_eq!(t.bytes.0, 12 * 128_256 * 4 * 2048);
        }
    }

    #[test]
    fn after_an_optimizer_step_peak_logits_larger_than_any_parameter_add_segments() {
        // (the rule for runs no template was traced for)
        let s = Shape::builtin("llama-3.2-1b").unwrap();
        let ck = |batch| {
            estimate_with(
                &s,
                Setup {
                    checkpointing: true,
                    ..Setup::new(1024, batch, Precision::F32)
                },
                false,
            )
        };
        // 4 x 1024 tokens: an f32 logit tensor is twice the embedding (the largest
        // parameter), so the three alive at the loss's backward need new segments.
        let four = ck(4);
        assert_eq!(four.moment, Moment::OptimizerStep);
        let slack = super::super::measured::reserved(four.allocated.0, false).0;
        assert_eq!(four.reserved.0, slack + 12 * 128_256 * 4 * 1024);
        // 2 x 1024: the same size as the embedding, so it fits a cached block.
        let two = ck(2);
        assert_eq!(two.moment, Moment::OptimizerStep);
        assert_eq!(
            two.reserved,
            super::super::measured::reserved(two.allocated.0, false)
        );
        assert_eq!(s.largest_param(), 128_256 * 2048);
    }

    #[test]
    fn zero_shards_state_then_gradients_then_weights() {
        let s = Shape::builtin("mistral-7b").unwrap();
        let base = Setup {
            gpus: 4,
            ..Setup::new(1024, 1, Precision::AmpBf16)
        };
        let fixed = |zero| estimate(&s, Setup { zero, ..base }).fixed_state.0;
        assert!(fixed(0) > fixed(1) && fixed(1) > fixed(2) && fixed(2) > fixed(3));
        assert_eq!(fixed(0), 16 * s.params());
    }

    #[test]
    fn the_largest_micro_batch_fits_and_one_more_does_not() {
        let s = gpt2();
        let setup = Setup::new(1024, 1, Precision::AmpBf16);
        let card = Bytes(24 << 30);
        let b = largest_micro_batch(&s, setup, card);
        assert!(b > 0);
        let at = |m| {
            estimate(
                &s,
                Setup {
                    micro_batch: m,
                    ..setup
                },
            )
            .needs()
        };
        assert!(at(b) <= card && at(b + 1) > card);
        // The allocator's slack does not count against a full card.
        let e = estimate(
            &s,
            Setup {
                micro_batch: b,
                ..setup
            },
        );
        assert!(e.needs() < e.process);
        assert_eq!(
            largest_micro_batch(&Shape::builtin("llama-3-8b").unwrap(), setup, card),
            0
        );
    }
}
