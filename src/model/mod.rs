//! The networks oomlab trains. Both are character-level language models whose memory grows
//! with batch, sequence length, width and depth, so OOM can be provoked on purpose.

pub mod attention;
mod batched;
mod batched_pair;
mod block;
mod embedding;
mod gelu;
mod gpt;
mod kernel_choices;
mod linear;
mod mlp;
pub mod norm;
mod params;

pub use attention::{AttentionBackend, AttentionKind};
pub use batched::{batched, scaled_scores, Heads, Joined};
pub use batched_pair::attention_pairs_together;
pub use block::{Block, BlockConfig};
pub use embedding::{embed, EmbeddingBackend, MAX_DENSE_VOCAB};
pub use gelu::{linear_gelu, GeluBackend};
pub use gpt::{Gpt, GptConfig};
pub use kernel_choices::{chosen_line, use_kernels};
pub use linear::{linear, linear_2d, linear_burn, linear_custom, linear_parts, LinearBackend};
pub use mlp::{Mlp, MlpConfig};
pub use norm::NormBackend;
// The operations the networks call, each a backend trait with burn's plain operations as
// its default; the kernels crate runs them faster on CUDA.
pub use oomlab_kernels::ops::{
    burn_bias_gelu, burn_bias_gelu_backward, burn_causal_softmax, burn_layer_norm,
    burn_layer_norm_backward, burn_softmax_grad, causal_softmax, softmax_grad, Form,
    GeluKernelBackend, NormKernelBackend, Operand, Place, ProductBackend, Rows, SoftmaxBackend,
    Span,
};
pub use params::{
    flat_params, param_count, param_ids, param_tensor_sizes, ParamFingerprint, ParamStats,
};

use burn::prelude::*;

use oomlab_kernels::ops::{in_dtype, in_f32};

use crate::config::{ModelKind, ModelSpec};

/// One model type for the trainer, whichever network the config asks for.
// One model per run: the size difference between variants costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Module, Debug)]
pub enum Net<B: Backend> {
    /// Decoder-only transformer.
    Gpt(Gpt<B>),
    /// Next-character MLP.
    Mlp(Mlp<B>),
}

impl<B: Backend> Net<B> {
    /// Builds the network of `spec` for a vocabulary of `vocab` tokens.
    pub fn init(spec: &ModelSpec, vocab: usize, device: &B::Device) -> Self {
        match spec.kind {
            ModelKind::Gpt => Net::Gpt(
                GptConfig::new(
                    vocab,
                    spec.d_model,
                    spec.n_layers,
                    spec.n_heads,
                    spec.d_ff,
                    spec.seq_len,
                )
                .with_attention(spec.attention)
                .with_dropout(spec.dropout)
                .with_norms_in_f32(spec.norms_in_f32)
                .init(device),
            ),
            ModelKind::Mlp => Net::Mlp(
                MlpConfig::new(vocab, spec.d_model, spec.n_layers, spec.d_ff, spec.seq_len)
                    .init(device),
            ),
        }
    }
}

/// What the models' forward passes need of a backend: the custom autodiff operations of
/// [`attention`], [`norm`], the linear layers' products, the feed-forward layer's bias and
/// GELU and the token embedding (every autodiff backend has them).
pub trait ModelBackend:
    AttentionBackend + NormBackend + LinearBackend + EmbeddingBackend + GeluBackend
{
}

impl<B: AttentionBackend + NormBackend + LinearBackend + EmbeddingBackend + GeluBackend>
    ModelBackend for B
{
}

impl<B: ModelBackend> Net<B> {
    /// Mean next-character cross-entropy of a batch.
    ///
    /// # Shapes
    /// - inputs: `[batch, seq_len]`
    /// - targets: `[batch, seq_len]`
    /// - output: `[1]`
    pub fn loss(&self, inputs: Tensor<B, 2, Int>, targets: Tensor<B, 2, Int>) -> Tensor<B, 1> {
        match self {
            Net::Gpt(m) => m.loss(inputs, targets),
            Net::Mlp(m) => m.loss(inputs, targets),
        }
    }
}
