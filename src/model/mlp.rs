//! The quicker second model: embeds the whole context, flattens it and predicts the
//! character that follows it through a stack of ReLU layers.

use burn::nn::loss::CrossEntropyLossConfig;
use burn::nn::{Embedding, EmbeddingConfig, Linear, LinearConfig, Relu};
use burn::prelude::*;

/// Shapes of an [`Mlp`].
#[derive(Config, Debug)]
pub struct MlpConfig {
    /// Vocabulary size.
    pub vocab: usize,
    /// Embedding width per character.
    pub d_embed: usize,
    /// Hidden layers.
    pub n_layers: usize,
    /// Hidden width.
    pub d_hidden: usize,
    /// Context length.
    pub seq_len: usize,
}

/// Next-character MLP over a fixed context.
#[derive(Module, Debug)]
pub struct Mlp<B: Backend> {
    embed: Embedding<B>,
    hidden: Vec<Linear<B>>,
    head: Linear<B>,
    act: Relu,
}

impl MlpConfig {
    /// Creates the model with freshly initialised weights on `device`.
    pub fn init<B: Backend>(&self, device: &B::Device) -> Mlp<B> {
        let mut hidden = Vec::with_capacity(self.n_layers);
        let mut width = self.seq_len * self.d_embed;
        for _ in 0..self.n_layers {
            hidden.push(LinearConfig::new(width, self.d_hidden).init(device));
            width = self.d_hidden;
        }
        Mlp {
            embed: EmbeddingConfig::new(self.vocab, self.d_embed).init(device),
            hidden,
            head: LinearConfig::new(width, self.vocab).init(device),
            act: Relu::new(),
        }
    }
}

impl<B: Backend> Mlp<B> {
    /// Logits of the character after the context.
    ///
    /// # Shapes
    /// - inputs: `[batch, seq_len]`
    /// - output: `[batch, vocab]`
    pub fn forward(&self, inputs: Tensor<B, 2, Int>) -> Tensor<B, 2> {
        let [batch, seq_len] = inputs.dims();
        let d = self.embed.weight.dims()[1];
        let mut x = self.embed.forward(inputs).reshape([batch, seq_len * d]);
        for layer in &self.hidden {
            x = self.act.forward(layer.forward(x));
        }
        self.head.forward(x)
    }

    /// Cross-entropy of predicting the last target of each row (the character that follows
    /// the whole context).
    ///
    /// # Shapes
    /// - inputs, targets: `[batch, seq_len]`
    /// - output: `[1]`
    pub fn loss(&self, inputs: Tensor<B, 2, Int>, targets: Tensor<B, 2, Int>) -> Tensor<B, 1> {
        let [batch, seq_len] = targets.dims();
        let last = targets
            .slice([0..batch, seq_len - 1..seq_len])
            .reshape([batch]);
        // Softmax and log in f32 whatever the compute dtype, as autocast does.
        let logits = super::in_f32(self.forward(inputs));
        CrossEntropyLossConfig::new()
            .init(&logits.device())
            .forward(logits, last)
    }
}
