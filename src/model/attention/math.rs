//! Attention written out, the way most textbooks (and burn's MultiHeadAttention) do it.

use burn::prelude::*;
use burn::tensor::activation::softmax;

use super::{future_mask, scale};

/// softmax(QKᵀ/√d + causal mask)·V as separate operations. Under autodiff every
/// intermediate the backward pass needs is kept: the scores and the probabilities, each
/// `[batch, heads, seq_len, seq_len]`. The softmax runs in f32 whatever the input dtype,
/// as PyTorch's autocast does; the probabilities go back to the input dtype for the
/// product with V.
///
/// # Shapes
/// - q, k, v: `[batch, heads, seq_len, head_dim]`
/// - output: `[batch, heads, seq_len, head_dim]`
pub fn math_attention<B: Backend>(
    q: Tensor<B, 4>,
    k: Tensor<B, 4>,
    v: Tensor<B, 4>,
) -> Tensor<B, 4> {
    let [batch, heads, seq_len, head_dim] = q.dims();
    let dtype = v.dtype();
    let scores = q.matmul(k.swap_dims(2, 3)).mul_scalar(scale(head_dim));
    let scores = crate::model::in_f32(scores).mask_fill(
        future_mask::<B>([batch, heads, seq_len], &v.device()),
        f32::NEG_INFINITY,
    );
    let probs = softmax(scores, 3);
    crate::model::in_dtype(probs, dtype).matmul(v)
}
