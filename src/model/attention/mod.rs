//! Causal self-attention in two forms that compute the same function and differ in what
//! they keep for the backward pass.
//!
//! - [`AttentionKind::Math`]: softmax(QKᵀ/√d)·V written out as ordinary tensor operations.
//!   burn's autodiff keeps every intermediate it needs for the backward pass, among them
//!   the `[batch, heads, seq, seq]` scores and probabilities of every layer, until the
//!   backward pass reaches that layer.
//! - [`AttentionKind::Efficient`]: one custom autodiff operation ([`efficient`]). The
//!   forward pass is the backend's fused attention with causal masking (on CUDA burn
//!   autotunes between flash-attention kernels and its written-out fallback); it keeps only
//!   Q, K and V. The backward pass recomputes the scores of one layer, a few heads at a
//!   time, and returns dQ, dK and dV. No score tensor outlives its layer's backward.

pub mod efficient;
mod math;

use burn::module::Initializer;
use burn::nn::{Dropout, DropoutConfig, Linear, LinearConfig};
use burn::prelude::*;

use crate::model::linear;

pub use efficient::{causal_attention_backward, AttentionBackend};
pub use math::math_attention;

pub use crate::vocab::AttentionKind;

/// Shapes of a [`CausalSelfAttention`].
#[derive(Config, Debug)]
pub struct CausalSelfAttentionConfig {
    /// Residual width.
    pub d_model: usize,
    /// Heads; must divide `d_model`.
    pub n_heads: usize,
    /// How scores are computed and kept.
    pub kind: AttentionKind,
    /// Dropout on the output projection.
    #[config(default = 0.0)]
    pub dropout: f64,
}

/// Multi-head causal self-attention: Q, K, V and output projections around
/// [`math_attention`] or the efficient operation.
#[derive(Module, Debug)]
pub struct CausalSelfAttention<B: Backend> {
    query: Linear<B>,
    key: Linear<B>,
    value: Linear<B>,
    output: Linear<B>,
    dropout: Dropout,
    n_heads: usize,
    efficient: bool,
}

impl CausalSelfAttentionConfig {
    /// Creates the layer with freshly initialised weights on `device`.
    pub fn init<B: Backend>(&self, device: &B::Device) -> CausalSelfAttention<B> {
        // burn's MultiHeadAttention initialiser.
        let linear = || {
            LinearConfig::new(self.d_model, self.d_model)
                .with_initializer(Initializer::KaimingUniform {
                    gain: 1.0 / 3f64.sqrt(),
                    fan_out_only: false,
                })
                .init(device)
        };
        CausalSelfAttention {
            query: linear(),
            key: linear(),
            value: linear(),
            output: linear(),
            dropout: DropoutConfig::new(self.dropout).init(),
            n_heads: self.n_heads,
            efficient: self.kind == AttentionKind::Efficient,
        }
    }
}

impl<B: AttentionBackend + crate::model::LinearBackend> CausalSelfAttention<B> {
    /// Each position attends to itself and the positions before it.
    ///
    /// # Shapes
    /// - x: `[batch, seq_len, d_model]`
    /// - output: `[batch, seq_len, d_model]`
    pub fn forward(&self, x: Tensor<B, 3>) -> Tensor<B, 3> {
        let [batch, seq_len, d_model] = x.dims();
        let heads = |t: Tensor<B, 3>| {
            t.reshape([batch, seq_len, self.n_heads, d_model / self.n_heads])
                .swap_dims(1, 2)
        };
        let q = heads(linear(&self.query, x.clone()));
        let k = heads(linear(&self.key, x.clone()));
        let v = heads(linear(&self.value, x));
        let context = if self.efficient {
            efficient::causal_attention(q, k, v)
        } else {
            math_attention(q, k, v)
        };
        let context = context.swap_dims(1, 2).reshape([batch, seq_len, d_model]);
        self.dropout.forward(linear(&self.output, context))
    }
}

/// The scale of the scores: 1/√head_dim.
fn scale(head_dim: usize) -> f64 {
    1.0 / (head_dim as f64).sqrt()
}

/// `true` above the diagonal: the future positions a query must not see.
///
/// # Shapes
/// - output: `[batch, heads, seq_len, seq_len]` (a broadcast view of one `[seq_len,
///   seq_len]` mask)
fn future_mask<B: Backend>(
    [batch, heads, seq_len]: [usize; 3],
    device: &B::Device,
) -> Tensor<B, 4, Bool> {
    Tensor::<B, 2, Bool>::tril_mask([seq_len, seq_len], 0, device)
        .unsqueeze::<4>()
        .expand([batch, heads, seq_len, seq_len])
}
