//! What burn's autodiff keeps for the backward pass, per sample, counted operation by
//! operation from the model's shapes.
//!
//! Each count names the operation that keeps the tensor. They were read from burn 0.21's
//! autodiff (`burn-autodiff/src/ops`: a matmul or linear keeps its input, LayerNorm is
//! decomposed into elementwise operations of which `sub`/`div`/`mul` keep the centred
//! and the normalised input, GELU keeps its input) and checked against the counting
//! allocator on the CPU and burn's allocator on the H200: the tensors alive at the end of
//! the forward pass match these counts to within a few bytes per token (see
//! `oomlab explain estimate`).

use serde::{Deserialize, Serialize};

use crate::config::{ModelKind, ModelSpec, PrecisionMode};

/// Bytes of one element in the passes and in the LayerNorms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Widths {
    /// Activations of the forward pass: 4 (f32) or 2 (a half type).
    pub compute: u64,
    /// LayerNorm's kept intermediates: 4 when norms run in f32.
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
    /// Bytes per sample, all layers together.
    pub bytes_per_sample: u64,
}

/// The tensors the forward pass leaves for the backward pass, per sample.
pub fn kept_per_sample(
    model: &ModelSpec,
    vocab: usize,
    precision: PrecisionMode,
    checkpointing: bool,
) -> Vec<Kept> {
    let w = Widths::of(precision, model.norms_in_f32);
    match model.kind {
        ModelKind::Gpt => gpt(model, vocab as u64, w, checkpointing),
        ModelKind::Mlp => mlp(model, vocab as u64, w),
    }
}

fn gpt(m: &ModelSpec, v: u64, w: Widths, checkpointing: bool) -> Vec<Kept> {
    let (t, d, ff, h, l) = (
        m.seq_len as u64,
        m.d_model as u64,
        m.d_ff as u64,
        m.n_heads as u64,
        m.n_layers as u64,
    );
    let c = w.compute;
    let per_layer = |what: &str, per_token: u64| Kept {
        what: format!("{what} x {l} layers"),
        bytes_per_sample: l * t * per_token,
    };
    let mut kept = Vec::new();
    if checkpointing {
        // burn's balanced checkpointing keeps the outputs of compute-bound operations
        // (linear, attention) and recomputes memory-bound ones (LayerNorm, GELU, adds).
        kept.push(per_layer(
            "q, k, v, attention output, its projection, FFN out (d_model each, checkpointed)",
            6 * d * c,
        ));
        kept.push(per_layer(
            "FFN first linear output (d_ff, checkpointed)",
            ff * c,
        ));
    } else {
        kept.push(per_layer(
            "LayerNorm x2: centred and normalised input (2 x d_model each)",
            4 * d * w.norm + 2 * 3 * 4,
        ));
        kept.push(per_layer(
            "linear inputs: normalised x for q/k/v, attention context, normalised x for the FFN (d_model each)",
            3 * d * c,
        ));
        kept.push(per_layer(
            "q, k, v kept by the attention operation (d_model each)",
            3 * d * c,
        ));
        kept.push(per_layer(
            "FFN: GELU input and second linear input (d_ff each)",
            2 * ff * c,
        ));
    }
    if m.attention == crate::model::AttentionKind::Math {
        // scores, softmax output in f32, probabilities in the compute dtype.
        kept.push(per_layer(
            "math attention: scores, softmax (f32) and probabilities (heads x seq_len each)",
            h * t * (4 + 4 + c),
        ));
    }
    kept.push(Kept {
        what: "final LayerNorm, head input".into(),
        bytes_per_sample: t * (2 * d * w.norm + 3 * 4 + d * c),
    });
    kept.push(Kept {
        what: "loss: log-softmax of the logits (vocab, f32)".into(),
        bytes_per_sample: t * v * 4,
    });
    kept
}

fn mlp(m: &ModelSpec, v: u64, w: Widths) -> Vec<Kept> {
    let (t, d, ff, l) = (
        m.seq_len as u64,
        m.d_model as u64,
        m.d_ff as u64,
        m.n_layers as u64,
    );
    vec![
        Kept {
            what: "flattened embeddings (first linear input)".into(),
            bytes_per_sample: t * d * w.compute,
        },
        Kept {
            what: format!("ReLU input and next linear input x {l} layers (d_ff each)"),
            bytes_per_sample: l * 2 * ff * w.compute,
        },
        Kept {
            what: "loss: log-softmax of the logits (vocab, f32)".into(),
            bytes_per_sample: v * 4,
        },
    ]
}

/// The largest transient set of one layer's backward pass, per sample: the gradient of
/// the feed-forward output, GELU's temporary and the gradient of its input (3 x d_ff, in
/// f32 whatever the compute dtype: measured on Flex, whose elementwise backward works in
/// f32), plus, under checkpointing, the recomputed LayerNorm intermediates of the layer
/// (4 x d_model).
pub fn backward_working_set_per_sample(
    model: &ModelSpec,
    precision: PrecisionMode,
    checkpointing: bool,
) -> u64 {
    let w = Widths::of(precision, model.norms_in_f32);
    let (t, d, ff) = (
        model.seq_len as u64,
        model.d_model as u64,
        model.d_ff as u64,
    );
    match model.kind {
        ModelKind::Gpt => {
            let recompute = if checkpointing { 4 * d * w.norm } else { 0 };
            t * (3 * ff * 4 + recompute)
        }
        ModelKind::Mlp => 3 * ff * 4,
    }
}
