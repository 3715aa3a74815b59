//! One pre-norm transformer block: causal self-attention and a GELU feed-forward layer,
//! each behind a LayerNorm (statistics in f32, see [`super::norm`]) and added to the
//! residual stream.

use burn::nn::transformer::{PositionWiseFeedForward, PositionWiseFeedForwardConfig};
use burn::nn::{LayerNorm, LayerNormConfig};
use burn::prelude::*;

use super::attention::{AttentionKind, CausalSelfAttention, CausalSelfAttentionConfig};
use super::gelu::linear_gelu;
use super::linear::linear;
use super::norm::{layer_norm, LAYER_NORM_EPSILON};

/// Shapes of a [`Block`].
#[derive(Config, Debug)]
pub struct BlockConfig {
    /// Residual width.
    pub d_model: usize,
    /// Attention heads.
    pub n_heads: usize,
    /// Feed-forward width.
    pub d_ff: usize,
    /// How attention is computed.
    pub attention: AttentionKind,
    /// Dropout probability.
    #[config(default = 0.0)]
    pub dropout: f64,
    /// LayerNorm in f32 whatever the compute dtype (autocast's policy).
    #[config(default = true)]
    pub norms_in_f32: bool,
}

/// `x + attention(norm(x))`, then `x + feed_forward(norm(x))`.
#[derive(Module, Debug)]
pub struct Block<B: Backend> {
    norm_attention: LayerNorm<B>,
    attention: CausalSelfAttention<B>,
    norm_feed_forward: LayerNorm<B>,
    feed_forward: PositionWiseFeedForward<B>,
    norms_in_f32: bool,
}

impl BlockConfig {
    /// Creates the block with freshly initialised weights on `device`.
    pub fn init<B: Backend>(&self, device: &B::Device) -> Block<B> {
        Block {
            norm_attention: LayerNormConfig::new(self.d_model)
                .with_epsilon(LAYER_NORM_EPSILON)
                .init(device),
            attention: CausalSelfAttentionConfig::new(self.d_model, self.n_heads, self.attention)
                .with_dropout(self.dropout)
                .init(device),
            norm_feed_forward: LayerNormConfig::new(self.d_model)
                .with_epsilon(LAYER_NORM_EPSILON)
                .init(device),
            feed_forward: PositionWiseFeedForwardConfig::new(self.d_model, self.d_ff)
                .with_dropout(self.dropout)
                .init(device),
            norms_in_f32: self.norms_in_f32,
        }
    }
}

impl<B: super::ModelBackend> Block<B> {
    /// # Shapes
    /// - x: `[batch, seq_len, d_model]`
    /// - output: `[batch, seq_len, d_model]`
    pub fn forward(&self, x: Tensor<B, 3>) -> Tensor<B, 3> {
        let in_f32 = self.norms_in_f32;
        let x = x.clone()
            + self
                .attention
                .forward(layer_norm(&self.norm_attention, x, in_f32));
        let ff = &self.feed_forward;
        let h = linear_gelu(
            &ff.linear_inner,
            &ff.activation,
            layer_norm(&self.norm_feed_forward, x.clone(), in_f32),
        );
        let h = ff.dropout.forward(h);
        x + linear(&ff.linear_outer, h)
    }
}
