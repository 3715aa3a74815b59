//! A small GPT: token + position embeddings, pre-norm transformer blocks with causal
//! self-attention, a final norm and a linear head.

use burn::nn::loss::CrossEntropyLossConfig;
use burn::nn::{Embedding, EmbeddingConfig, LayerNorm, LayerNormConfig, Linear, LinearConfig};
use burn::prelude::*;

use super::attention::AttentionKind;
use super::block::{Block, BlockConfig};

/// Shapes of a [`Gpt`].
#[derive(Config, Debug)]
pub struct GptConfig {
    /// Vocabulary size.
    pub vocab: usize,
    /// Residual width.
    pub d_model: usize,
    /// Transformer blocks.
    pub n_layers: usize,
    /// Attention heads.
    pub n_heads: usize,
    /// Feed-forward width.
    pub d_ff: usize,
    /// Longest context.
    pub max_seq_len: usize,
    /// How attention is computed and what it keeps for the backward pass.
    #[config(default = "AttentionKind::Efficient")]
    pub attention: AttentionKind,
    /// Dropout probability.
    #[config(default = 0.0)]
    pub dropout: f64,
    /// LayerNorm in f32 whatever the compute dtype (autocast's policy).
    #[config(default = true)]
    pub norms_in_f32: bool,
}

/// Decoder-only transformer, character level.
#[derive(Module, Debug)]
pub struct Gpt<B: Backend> {
    token: Embedding<B>,
    position: Embedding<B>,
    blocks: Vec<Block<B>>,
    norm: LayerNorm<B>,
    head: Linear<B>,
    norms_in_f32: bool,
}

impl GptConfig {
    /// Creates the model with freshly initialised weights on `device`.
    pub fn init<B: Backend>(&self, device: &B::Device) -> Gpt<B> {
        let block = BlockConfig::new(self.d_model, self.n_heads, self.d_ff, self.attention)
            .with_dropout(self.dropout)
            .with_norms_in_f32(self.norms_in_f32);
        Gpt {
            token: EmbeddingConfig::new(self.vocab, self.d_model).init(device),
            position: EmbeddingConfig::new(self.max_seq_len, self.d_model).init(device),
            blocks: (0..self.n_layers).map(|_| block.init(device)).collect(),
            norm: LayerNormConfig::new(self.d_model)
                .with_epsilon(super::norm::LAYER_NORM_EPSILON)
                .init(device),
            head: LinearConfig::new(self.d_model, self.vocab).init(device),
            norms_in_f32: self.norms_in_f32,
        }
    }
}

impl<B: super::ModelBackend> Gpt<B> {
    /// Next-token logits.
    ///
    /// # Shapes
    /// - inputs: `[batch, seq_len]`
    /// - output: `[batch, seq_len, vocab]`
    pub fn forward(&self, inputs: Tensor<B, 2, Int>) -> Tensor<B, 3> {
        let mut x = super::embed(&self.token, &self.position, inputs);
        for block in &self.blocks {
            x = block.forward(x);
        }
        super::linear::linear_burn(
            &self.head,
            super::norm::layer_norm(&self.norm, x, self.norms_in_f32),
        )
    }

    /// Mean cross-entropy over every position.
    ///
    /// # Shapes
    /// - inputs, targets: `[batch, seq_len]`
    /// - output: `[1]`
    pub fn loss(&self, inputs: Tensor<B, 2, Int>, targets: Tensor<B, 2, Int>) -> Tensor<B, 1> {
        let [batch, seq_len] = inputs.dims();
        // Softmax and log in f32 whatever the compute dtype, as autocast does.
        let logits = super::in_f32(self.forward(inputs));
        let vocab = logits.dims()[2];
        CrossEntropyLossConfig::new()
            .init(&logits.device())
            .forward(
                logits.reshape([batch * seq_len, vocab]),
                targets.reshape([batch * seq_len]),
            )
    }
}
