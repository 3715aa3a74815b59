//! What burn's autodiff keeps for the backward pass, per sample, counted operation by
//! operation from the model's shapes.
//!
//! Each count names the operation that keeps the tensor. They were read from burn 0.21's
//! autodiff (`burn-autodiff/src/ops`: a matmul or linear keeps its input, GELU keeps its
//! input; oomlab's LayerNorm operation keeps its input, `crate::model::norm`, while
//! burn's own, with `model.norm_in_f32 = false`, is decomposed into elementwise operations
//! of which `sub`/`div`/`mul` keep the centred and the normalised input) and checked
//! against the counting
//! allocator on the CPU and burn's allocator on the H200: the tensors alive at the end of
//! the forward pass match these counts to within a few bytes per token (see
//! `oomlab explain estimate`).

use serde::{Deserialize, Serialize};

use crate::config::{HalfDtype, ModelKind, ModelSpec, PrecisionMode};

/// Bytes of one element in the passes and in the LayerNorms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Widths {
    /// Activations of the forward pass: 4 (f32) or 2 (a half type).
    pub compute: u64,
    /// LayerNorm's working width: 4 when its statistics run in f32 (oomlab's operation),
    /// else the compute width (burn's own LayerNorm, whose intermediates autodiff keeps).
    pub norm: u64,
}

impl Widths {
    /// The widths a run of `precision` uses; `norms_in_f32` as in [`ModelSpec`].
    pub fn of(precision: PrecisionMode, norms_in_f32: bool) -> Self {
        let compute = if precision.half().is_some() { 2 } else { 4 };
        Self {
            compute,
            norm: if norms_in_f32 { 4 } else { compute },
        }
    }
}

/// One kind of kept tensor, per sample.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Kept {
    /// What it is and which operation keeps it.
    pub what: String,
    /// How many such tensors (all layers together).
    pub count: u64,
    /// Bytes of one of them: per sample where [`kept_per_sample`] gives it, for the whole
    /// micro-batch in an estimate (`Estimate::kept`, `--json`'s `kept`).
    pub tensor_bytes: u64,
}

impl Kept {
    /// Bytes of all of them together (per sample or per micro-batch, as `tensor_bytes`).
    pub fn bytes(&self) -> u64 {
        self.count * self.tensor_bytes
    }
}

/// The tensors the forward pass leaves for the backward pass, per sample (`on_cpu`: on
/// the CPU backend, else on CUDA).
pub fn kept_per_sample(
    model: &ModelSpec,
    vocab: usize,
    precision: PrecisionMode,
    checkpointing: bool,
    on_cpu: bool,
) -> Vec<Kept> {
    let w = Widths::of(precision, model.norms_in_f32);
    let checkpointing = match (checkpointing, on_cpu) {
        (false, _) => Checkpointing::Off,
        (true, true) => Checkpointing::Cpu,
        (true, false) => Checkpointing::Cuda,
    };
    match model.kind {
        ModelKind::Gpt => gpt(model, vocab as u64, w, checkpointing, model.norms_in_f32),
        ModelKind::Mlp => mlp(model, vocab as u64, w),
    }
}

fn kept(what: &str, count: u64, tensor_bytes: u64) -> Kept {
    Kept {
        what: what.to_string(),
        count,
        tensor_bytes,
    }
}

/// Checkpointing, and on which backend (what it keeps differs, see [`gpt`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Checkpointing {
    Off,
    Cpu,
    Cuda,
}

fn gpt(m: &ModelSpec, v: u64, w: Widths, checkpointing: Checkpointing, norm_op: bool) -> Vec<Kept> {
    let (t, d, ff, h, l) = (
        m.seq_len as u64,
        m.d_model as u64,
        m.d_ff as u64,
        m.n_heads as u64,
        m.n_layers as u64,
    );
    let c = w.compute;
    let mut out = Vec::new();
    if checkpointing != Checkpointing::Off {
        // burn's balanced checkpointing keeps the outputs of compute-bound operations
        // (linear, attention) and recomputes memory-bound ones (LayerNorm, GELU, adds).
        out.push(kept(
            "q, k, v, attention output, its projection, FFN output (d_model; checkpointed)",
            6 * l,
            t * d * c,
        ));
        out.push(kept(
            "FFN first linear output (d_ff; checkpointed)",
            l,
            t * ff * c,
        ));
    }
    if checkpointing == Checkpointing::Cuda {
        // Measured, not read from burn's code: on the H200 checkpointed runs hold two
        // d_model tensors per layer more than the CPU's (without this term they were 11-12%
        // low on the gpu and h200 configs, docs/results/2026-12-02-h200-memory-defaults;
        // the CPU's within 5%). Presumably burn-fusion's kernels materialise the residual
        // stream the LayerNorms checkpoint, which the CPU recomputes.
        out.push(kept(
            "CUDA: two more d_model tensors per layer (measured; residual stream at the LayerNorms)",
            2 * l,
            t * d * c,
        ));
    }
    if checkpointing == Checkpointing::Off {
        if norm_op {
            out.push(kept(
                "LayerNorm x2 per layer: its input, kept by oomlab's LayerNorm operation (d_model)",
                2 * l,
                t * d * c,
            ));
        } else {
            out.push(kept(
                "LayerNorm x2 per layer (burn's): centred and normalised input (d_model)",
                4 * l,
                t * d * w.norm,
            ));
            out.push(kept(
                "LayerNorm statistics (burn's; 1 value per token)",
                6 * l,
                t * 4,
            ));
        }
        out.push(kept(
            "linear inputs: normalised x for q/k/v, attention context, normalised x for the FFN (d_model)",
            3 * l,
            t * d * c,
        ));
        out.push(kept(
            "q, k, v kept by the attention operation (d_model)",
            3 * l,
            t * d * c,
        ));
        out.push(kept(
            "FFN: GELU input and second linear input (d_ff)",
            2 * l,
            t * ff * c,
        ));
    }
    if m.attention == crate::model::AttentionKind::Math {
        out.push(kept(
            "math attention: scores and softmax output in f32 (heads x seq_len)",
            2 * l,
            h * t * t * 4,
        ));
        out.push(kept(
            "math attention: probabilities in the compute dtype (heads x seq_len)",
            l,
            h * t * t * c,
        ));
    }
    if norm_op {
        out.push(kept("final LayerNorm: its input (d_model)", 1, t * d * c));
    } else {
        out.push(kept("final LayerNorm (burn's; d_model)", 2, t * d * w.norm));
    }
    out.push(kept("head input (d_model)", 1, t * d * c));
    out.push(kept(
        "loss: log-softmax of the logits (vocab, f32)",
        1,
        t * v * 4,
    ));
    out
}

fn mlp(m: &ModelSpec, v: u64, w: Widths) -> Vec<Kept> {
    let (t, d, ff, l) = (
        m.seq_len as u64,
        m.d_model as u64,
        m.d_ff as u64,
        m.n_layers as u64,
    );
    vec![
        kept(
            "flattened embeddings (first linear input)",
            1,
            t * d * w.compute,
        ),
        kept(
            "ReLU input and next linear input (d_ff)",
            2 * l,
            ff * w.compute,
        ),
        kept("loss: log-softmax of the logits (vocab, f32)", 1, v * 4),
    ]
}

/// What one layer's backward pass adds to the kept activations at the backward peak, per
/// sample: the tensors of its largest transient set as (count, bytes of one per sample),
/// and the bytes per sample of kept tensors already freed by then.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkingSet {
    /// (count, bytes of one per sample).
    pub tensors: Vec<(u64, u64)>,
    /// Kept tensors the backward pass consumed and freed before the peak.
    pub freed_per_sample: u64,
}

/// The backward pass's working set at its peak (see [`WorkingSet`]).
///
/// In general: the gradient of the feed-forward output, GELU's temporary and the gradient
/// of its input (3 x d_ff; on the CPU in f32 whatever the compute dtype, measured on Flex,
/// whose elementwise backward works in f32; on CUDA in the compute dtype, burn-fusion's
/// kernels write it), plus, under checkpointing, the LayerNorm work of the layer's
/// recomputation (4 x d_model at the norm's width), and on the CPU in bf16 with burn's
/// `Linear` an f32 copy of a d_ff-wide matrix operand.
///
/// On the CPU in f32 with the 2-D linear (`cpu_linear_2d`, [`crate::model::linear_2d`],
/// the CPU's default) the peak is inside the last block's GELU backward, and the heap has
/// let go of what was consumed before it: the loss's log-softmax, the head's input and
/// the final LayerNorm's input. Live beside the kept rest: the gradient through the
/// second linear and GELU's input gradient (2 x d_ff) and the residual stream's gradient
/// (d_model). Measured on the tiny config at batch 32: 3.29 MB above the forward pass's
/// end against these terms' 3.28 (docs/results/2026-12-05-cpu-estimate-2d has the rows).
/// In half precision the general count holds (the same folder's rows); with burn's
/// `Linear`, whose weight gradient is a batched product (`[batch, k, n]`), it held in the
/// CPU sets measured with it (2026-12-02-cpu-estimate, now in git history).
pub fn backward_working_set(
    model: &ModelSpec,
    vocab: usize,
    precision: PrecisionMode,
    checkpointing: bool,
    on_cpu: bool,
    cpu_linear_2d: bool,
) -> WorkingSet {
    let w = Widths::of(precision, model.norms_in_f32);
    let g = if on_cpu { 4 } else { w.compute };
    let (t, d, ff) = (
        model.seq_len as u64,
        model.d_model as u64,
        model.d_ff as u64,
    );
    let gpt = model.kind == ModelKind::Gpt;
    if on_cpu && cpu_linear_2d && gpt && !checkpointing && precision.half().is_none() {
        let c = w.compute;
        let final_norm = if model.norms_in_f32 {
            t * d * c
        } else {
            2 * t * d * w.norm
        };
        return WorkingSet {
            tensors: vec![(2, t * ff * g), (1, t * d * g)],
            freed_per_sample: t * vocab as u64 * 4 + t * d * c + final_norm,
        };
    }
    let tokens = if gpt { t } else { 1 };
    let mut set = vec![(3, tokens * ff * g)];
    if gpt && checkpointing {
        set.push((4, t * d * w.norm));
    }
    if on_cpu && !cpu_linear_2d && precision.half() == Some(HalfDtype::Bf16) {
        // Flex multiplies bf16 matrices in f32 (burn-flex 0.21 `matmul_bf16` converts both
        // operands and the product): the largest operand of the backward, [tokens, d_ff],
        // in f32 beside the working set (measured: it closes the -10% of the CPU's bf16
        // rows against f16's -1%, docs/results/2026-12-02-estimate-validation.md). With
        // the 2-D linear the bf16 rows' peaks equal f16's: no such copy at the peak.
        set.push((1, tokens * ff * 4));
    }
    WorkingSet {
        tensors: set,
        freed_per_sample: 0,
    }
}
