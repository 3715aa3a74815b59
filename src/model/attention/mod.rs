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
pub(crate) use oomlab_kernels::ops::future_mask;

pub use efficient::{causal_attention_backward, AttentionBackend};
pub use math::math_attention;

pub use crate::words::AttentionKind;

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
        self.forward_with(x, qkv_fused())
    }

    /// [`CausalSelfAttention::forward`], with Q, K and V from one product of x with the
    /// three weights side by side when `fused` (`kernels.qkv`).
    fn forward_with(&self, x: Tensor<B, 3>, fused: bool) -> Tensor<B, 3> {
        let [batch, seq_len, d_model] = x.dims();
        let heads = |t: Tensor<B, 3>| {
            t.reshape([batch, seq_len, self.n_heads, d_model / self.n_heads])
                .swap_dims(1, 2)
        };
        let qkv = if fused {
            self.fused_qkv(x.clone())
        } else {
            None
        };
        let context = match qkv {
            // One operation over the packed tensor, whose gradient comes back packed.
            Some(qkv) if self.efficient => efficient::causal_attention_packed(qkv, self.n_heads),
            Some(qkv) => {
                let (q, k, v) = efficient::unpack(qkv, self.n_heads);
                math_attention(q, k, v)
            }
            None => {
                let q = heads(linear(&self.query, x.clone()));
                let k = heads(linear(&self.key, x.clone()));
                let v = heads(linear(&self.value, x));
                if self.efficient {
                    efficient::causal_attention(q, k, v)
                } else {
                    math_attention(q, k, v)
                }
            }
        };
        let context = context.swap_dims(1, 2).reshape([batch, seq_len, d_model]);
        self.dropout.forward(linear(&self.output, context))
    }

    /// x·[W_Q W_K W_V] + [b_Q b_K b_V] (`[batch, seq_len, 3·d_model]`), or `None` when
    /// the three layers do not all have a bias or all lack one.
    fn fused_qkv(&self, x: Tensor<B, 3>) -> Option<Tensor<B, 3>> {
        let layers = [&self.query, &self.key, &self.value];
        let weight = Tensor::cat(layers.iter().map(|l| l.weight.val()).collect(), 1);
        let biases: Vec<_> = layers
            .iter()
            .filter_map(|l| l.bias.as_ref().map(|b| b.val()))
            .collect();
        let bias = match biases.len() {
            0 => None,
            3 => Some(Tensor::cat(biases, 0)),
            _ => return None,
        };
        Some(crate::model::linear_parts(weight, bias, x))
    }
}

/// Whether `kernels.qkv` asks for Q, K and V in one product (`fused`): x·[W_Q W_K W_V] +
/// [b_Q b_K b_V], the weights put side by side every step (their gradients flow back
/// through that). The efficient attention takes the result packed
/// ([`efficient::causal_attention_packed`]) and returns its gradient packed, so on CUDA
/// it is one cuBLAS product instead of three in the forward pass and in each of the
/// backward pass's two, with one bias sum. Opt-in until measured on a GPU
/// (scripts/gpu/step-levers.sh, variant `qkv`); the parameters stay three layers, so
/// checkpoints do not change.
fn qkv_fused() -> bool {
    oomlab_kernels::chosen().qkv == Some(true)
}

/// The scale of the scores: 1/√head_dim.
fn scale(head_dim: usize) -> f64 {
    1.0 / (head_dim as f64).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::CpuBackend;
    use burn::tensor::Distribution;

    type B = CpuBackend;

    /// ‖a − b‖ / ‖b‖
    fn relative<const D: usize>(a: Tensor<B, D>, b: Tensor<B, D>) -> f64 {
        let norm = |t: Tensor<B, D>| t.powi_scalar(2).sum().into_scalar().elem::<f64>().sqrt();
        norm(a - b.clone()) / norm(b)
    }

    #[test]
    fn q_k_v_in_one_product_give_the_same_output_and_gradients() {
        let device = Default::default();
        for kind in [AttentionKind::Efficient, AttentionKind::Math] {
            let layer = CausalSelfAttentionConfig::new(16, 4, kind).init::<B>(&device);
            let x = Tensor::<B, 3>::random([2, 9, 16], Distribution::Normal(0.0, 1.0), &device)
                .require_grad();
            let w = Tensor::<B, 3>::random([2, 9, 16], Distribution::Normal(0.0, 1.0), &device);
            let run = |fused: bool| {
                let out = layer.forward_with(x.clone(), fused);
                let grads = (out.clone() * w.clone()).sum().backward();
                let weight_grads: Vec<Tensor<B, 2>> = [&layer.query, &layer.key, &layer.value]
                    .iter()
                    .map(|l| Tensor::from_inner(l.weight.val().grad(&grads).unwrap()))
                    .collect();
                let bias_grad = Tensor::<B, 1>::from_inner(
                    layer.key.bias.as_ref().unwrap().val().grad(&grads).unwrap(),
                );
                (
                    out,
                    Tensor::from_inner(x.grad(&grads).unwrap()),
                    weight_grads,
                    bias_grad,
                )
            };
            // The fused path runs: all three layers have a bias.
            assert!(layer.fused_qkv(x.clone()).is_some());
            let (out1, dx1, dw1, db1) = run(false);
            let (out3, dx3, dw3, db3) = run(true);
            assert!(relative(out3, out1) <= 1e-5, "{kind:?} output");
            assert!(relative(dx3, dx1) <= 1e-5, "{kind:?} dX");
            for (i, (a, b)) in dw3.into_iter().zip(dw1).enumerate() {
                assert!(relative(a, b) <= 1e-5, "{kind:?} dW of projection {i}");
            }
            assert!(
                relative(db3, db1) <= 1e-5,
                "{kind:?} db of the key projection"
            );
        }
    }
}
