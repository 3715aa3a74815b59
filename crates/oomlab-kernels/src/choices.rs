//! The run's choices of how each operation runs, where the operations read them.
//!
//! burn's backend traits decide how an operation runs in functions that have no model or
//! configuration at hand (`<B as NormKernelBackend>::norm_on_kernels(dtype)`), so the
//! program hands this module its choices before it builds the model ([`choose`]), and each
//! operation reads its own here ([`chosen`]). Nothing else sets them: a process that
//! chooses nothing keeps every operation on its backend's default.

use std::sync::{PoisonError, RwLock};

/// One choice per operation: `Some(true)` for the first of its two ways (oomlab's library
/// or kernel, or the first shape of the computation), `Some(false)` for the second (burn's
/// plain operations, or the other shape), `None` for the backend's default. The program's
/// configuration names each field and its two words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Choices {
    /// The linear layers' products on cuBLAS, or burn's matmul.
    pub linear_products: Option<bool>,
    /// Sums over every token in two stages, or one.
    pub column_sums: Option<bool>,
    /// The embeddings' gradients as a one-hot product, or burn's scatter.
    pub embedding_grad: Option<bool>,
    /// Where cuBLAS does not run a linear layer: burn's linear on one matrix, or burn's
    /// `Linear`.
    pub linear: Option<bool>,
    /// A linear layer's two gradient products as one operation, or two.
    pub linear_grads: Option<bool>,
    /// Attention's independent backward products as one operation a pair, or one each.
    pub attention_pairs: Option<bool>,
    /// AMP's cast of the parameters once a step, or in each micro-batch's graph.
    pub amp_cast: Option<bool>,
    /// Attention's forward pass written out around the softmax kernel, or burn-cubecl's.
    pub attention_forward: Option<bool>,
    /// Q, K and V from one product, or three.
    pub qkv: Option<bool>,
    /// Attention's batched products on cuBLAS, or burn's matmul.
    pub attention_products: Option<bool>,
    /// A group of heads read at an offset, or sliced first.
    pub attention_heads: Option<bool>,
    /// Attention's groups of heads written in place into one buffer, or joined by `cat`.
    pub attention_join: Option<bool>,
    /// The recomputed probabilities in the inputs' dtype, or f32.
    pub backward_probs: Option<bool>,
    /// Attention's causal softmax and its gradient on oomlab's kernels, or burn's.
    pub attention_softmax: Option<bool>,
    /// LayerNorm on oomlab's kernels, or burn's.
    pub layer_norm: Option<bool>,
    /// The feed-forward layer's bias and GELU on oomlab's kernels, or burn's.
    pub gelu: Option<bool>,
    /// AdamW's update on oomlab's kernel, or burn's.
    pub adamw: Option<bool>,
}

static CHOSEN: RwLock<Option<Choices>> = RwLock::new(None);

/// Makes `choices` the ones every later operation of this process reads.
pub fn choose(choices: Choices) {
    *CHOSEN.write().unwrap_or_else(PoisonError::into_inner) = Some(choices);
}

/// The choices in force: the last [`choose`]'s, else every backend default.
pub fn chosen() -> Choices {
    CHOSEN
        .read()
        .unwrap_or_else(PoisonError::into_inner)
        .unwrap_or_default()
}
