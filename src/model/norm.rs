//! LayerNorm as a custom autodiff operation that keeps only its input for the backward
//! pass, with autocast's precision policy (statistics in f32 whatever the compute dtype).
//!
//! burn's own `layer_norm` is a chain of tensor operations, and autodiff keeps the
//! intermediates of that chain: the centred and the normalised input, each as large as
//! the input (in f32 under mixed precision, where the input is cast up first). This
//! operation keeps the input, in its own dtype; the backward pass recomputes the mean,
//! 1/std and the normalised input from it (PyTorch keeps the mean and 1/std too, one f32
//! each per row; recomputing them is one reduction). On the gpu config burn's chain kept
//! ~0.6 GiB of f32 intermediates (issue 26).
//!
//! The operation is memory-bound, like the elementwise operations it replaces: under
//! burn's checkpointing its output is recomputed from its inputs (`RetroRowNorm`) rather
//! than kept, and its input is kept or recomputed as the checkpointer decides.
//!
//! Under mixed precision the model's weights (scale and shift included) are cast to half
//! for the passes; PyTorch's autocast still runs `layer_norm` in f32, because a mean and a
//! variance over hundreds of half values lose digits (bf16 keeps 8 bits of mantissa). Here
//! the statistics and the normalisation run in f32 and the result goes back to the input's
//! dtype for the next matmul; under pure half the same (PyTorch's CUDA `layer_norm`
//! accumulates in f32 for half inputs too). `model.norm_in_f32 = false` runs burn's own
//! LayerNorm in the compute dtype instead (the comparison of
//! docs/results/2026-11-30-h200-issue12-smoke).
//!
//! Both passes run as the backend's own kernels where
//! [`crate::model::NormKernelBackend::norm_on_kernels`] says so (on CUDA for f32 unless
//! `kernels.layer_norm` says otherwise: super::norm_kernel), else as burn's tensor
//! operations (super::norm_rows, which says how the backward pass is computed).

use std::marker::PhantomData;

use burn::backend::autodiff::checkpoint::base::Checkpointer;
use burn::backend::autodiff::checkpoint::retro_forward::RetroForward;
use burn::backend::autodiff::checkpoint::state::BackwardStates;
use burn::backend::autodiff::checkpoint::strategy::CheckpointStrategy;
use burn::backend::autodiff::grads::Gradients;
use burn::backend::autodiff::ops::{Backward, Ops, OpsKind};
use burn::backend::autodiff::NodeId;
use burn::backend::Autodiff;
use burn::nn::LayerNorm;
use burn::prelude::*;
use burn::tensor::ops::FloatTensor;
use burn::tensor::{DType, TensorPrimitive};

use super::LinearBackend;
use oomlab_kernels::ops::{norm_backward, norm_forward, NormKernelBackend};

/// The epsilon of every LayerNorm in oomlab's models (burn's default).
pub const LAYER_NORM_EPSILON: f64 = 1e-5;

/// A backend that can run [`NormBackend::layer_norm_rows`]: every autodiff backend (the
/// operation is generic over the inner backend).
pub trait NormBackend: Backend {
    /// LayerNorm over the last dimension of a matrix, keeping only the input for the
    /// backward pass.
    ///
    /// # Shapes
    /// - x: `[rows, d]`
    /// - gamma, beta: `[d]`
    /// - output: `[rows, d]`, in x's dtype
    fn layer_norm_rows(
        x: FloatTensor<Self>,
        gamma: FloatTensor<Self>,
        beta: FloatTensor<Self>,
        epsilon: f64,
    ) -> FloatTensor<Self>;
}

/// `norm(x)`: with [`NormBackend::layer_norm_rows`] (statistics in f32, output in x's
/// dtype) when `in_f32`, else burn's LayerNorm in x's dtype.
///
/// # Shapes
/// - x: `[..., d_model]`
/// - output: same as x
pub fn layer_norm<B: NormBackend, const D: usize>(
    norm: &LayerNorm<B>,
    x: Tensor<B, D>,
    in_f32: bool,
) -> Tensor<B, D> {
    let Some(beta) = norm.beta.as_ref().filter(|_| in_f32) else {
        return norm.forward(x);
    };
    let dims = x.dims();
    let d = dims[D - 1];
    let rows = x.shape().num_elements() / d.max(1);
    let y = B::layer_norm_rows(
        x.reshape([rows, d]).into_primitive().tensor(),
        norm.gamma.val().into_primitive().tensor(),
        beta.val().into_primitive().tensor(),
        LAYER_NORM_EPSILON,
    );
    Tensor::<B, 2>::from_primitive(TensorPrimitive::Float(y)).reshape(dims)
}

/// Recomputes the operation's output from its inputs, for burn's checkpointing (the
/// operation is memory-bound, like the elementwise ones burn's LayerNorm is made of).
#[derive(Debug)]
struct RetroRowNorm<B: Backend> {
    x: NodeId,
    gamma: NodeId,
    beta: NodeId,
    epsilon: f64,
    _backend: PhantomData<B>,
}

impl<B: NormKernelBackend> RetroForward for RetroRowNorm<B> {
    fn forward(&self, states: &mut BackwardStates, out_node: NodeId) {
        let m = |p| Tensor::<B, 2>::from_primitive(TensorPrimitive::Float(p));
        let v = |p| Tensor::<B, 1>::from_primitive(TensorPrimitive::Float(p));
        let x = states.get_state::<FloatTensor<B>>(&self.x);
        let gamma = states.get_state::<FloatTensor<B>>(&self.gamma);
        let beta = states.get_state::<FloatTensor<B>>(&self.beta);
        let y = norm_forward(m(x), v(gamma), v(beta), self.epsilon);
        states.save(out_node, y.into_primitive().tensor())
    }
}

impl<B: super::ProductBackend + NormKernelBackend, C: CheckpointStrategy> NormBackend
    for Autodiff<B, C>
{
    fn layer_norm_rows(
        x: FloatTensor<Self>,
        gamma: FloatTensor<Self>,
        beta: FloatTensor<Self>,
        epsilon: f64,
    ) -> FloatTensor<Self> {
        /// `split_sum`: whether dγ and dβ are summed in two stages.
        #[derive(Debug)]
        struct RowNorm {
            split_sum: bool,
        }

        impl<B: NormKernelBackend> Backward<B, 3> for RowNorm {
            /// x's and γ's nodes (their values come from the checkpointer: kept, or
            /// recomputed under checkpointing), β's dtype and epsilon.
            type State = (NodeId, NodeId, DType, f64);

            fn backward(
                self,
                ops: Ops<Self::State, 3>,
                grads: &mut Gradients,
                checkpointer: &mut Checkpointer,
            ) {
                let [node_x, node_gamma, node_beta] = ops.parents;
                let grad = grads.consume::<B>(&ops.node);
                let (x, gamma, beta_dtype, epsilon) = ops.state;
                let m = |p| Tensor::<B, 2>::from_primitive(TensorPrimitive::Float(p));
                let x = m(checkpointer.retrieve_node_output(x));
                let gamma = Tensor::<B, 1>::from_primitive(TensorPrimitive::Float(
                    checkpointer.retrieve_node_output(gamma),
                ));
                let (dx, dgamma, dbeta) =
                    norm_backward(x, gamma, m(grad), epsilon, beta_dtype, self.split_sum);
                if let Some(node) = node_x {
                    grads.register::<B>(node.id, dx.into_primitive().tensor());
                }
                if let Some(node) = node_gamma {
                    grads.register::<B>(node.id, dgamma.into_primitive().tensor());
                }
                if let Some(node) = node_beta {
                    grads.register::<B>(node.id, dbeta.into_primitive().tensor());
                }
            }
        }

        let m = |p| Tensor::<B, 2>::from_primitive(TensorPrimitive::Float(p));
        let v = |p| Tensor::<B, 1>::from_primitive(TensorPrimitive::Float(p));
        let retro = RetroRowNorm::<B> {
            x: x.node.id,
            gamma: gamma.node.id,
            beta: beta.node.id,
            epsilon,
            _backend: PhantomData,
        };
        let split_sum = Self::split_sums(burn::tensor::TensorMetadata::dtype(&x.primitive));
        match (RowNorm { split_sum })
            .prepare::<C>([x.node.clone(), gamma.node.clone(), beta.node.clone()])
            .memory_bound()
            .retro_forward(retro)
            .parents([&x, &gamma, &beta])
            .stateful()
        {
            OpsKind::Tracked(mut prep) => {
                let state = (
                    prep.checkpoint(&x),
                    prep.checkpoint(&gamma),
                    v(beta.primitive.clone()).dtype(),
                    epsilon,
                );
                let y = norm_forward(
                    m(x.primitive),
                    v(gamma.primitive),
                    v(beta.primitive),
                    epsilon,
                );
                prep.finish(state, y.into_primitive().tensor())
            }
            OpsKind::UnTracked(prep) => {
                let y = norm_forward(
                    m(x.primitive),
                    v(gamma.primitive),
                    v(beta.primitive),
                    epsilon,
                );
                prep.finish(y.into_primitive().tensor())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::in_f32;
    use super::*;
    use crate::backend::{CpuBackend, CpuCheckpointed};
    use burn::nn::LayerNormConfig;
    use burn::tensor::backend::AutodiffBackend;
    use burn::tensor::{DType, Distribution, FloatDType, Tolerance};
    use oomlab_kernels::ops::backward_rows;

    /// Output and gradients (x, γ, β) of `norm(x)` for a loss of sum(out ⊙ w), with the
    /// custom operation (`ours`) or burn's LayerNorm, γ and β made non-trivial first.
    fn run<B: NormBackend + AutodiffBackend>(ours: bool, half: bool) -> [TensorData; 4] {
        let device = Default::default();
        B::seed(&device, 5);
        let mut norm = LayerNormConfig::new(16)
            .with_epsilon(LAYER_NORM_EPSILON)
            .init::<B>(&device);
        norm.gamma = norm
            .gamma
            .map(|_| Tensor::random([16], Distribution::Normal(1.0, 0.5), &device).require_grad());
        norm.beta = norm.beta.map(|b| {
            b.map(|_| Tensor::random([16], Distribution::Normal(0.0, 0.5), &device).require_grad())
        });
        let x = Tensor::<B, 3>::random([3, 5, 16], Distribution::Normal(3.0, 2.0), &device);
        let w = Tensor::<B, 3>::random([3, 5, 16], Distribution::Normal(0.0, 1.0), &device);
        let x = if half { x.cast(FloatDType::BF16) } else { x }.require_grad();
        let y = if ours {
            layer_norm(&norm, x.clone(), true)
        } else {
            norm.forward(in_f32(x.clone()))
        };
        let loss = (in_f32(y.clone()) * w).sum();
        let grads = loss.backward();
        let data = |t: Tensor<B::InnerBackend, 1>| in_f32(t).into_data();
        let beta = norm.beta.as_ref().unwrap().val();
        [
            in_f32(y.inner()).into_data(),
            in_f32(x.grad(&grads).unwrap()).into_data(),
            data(norm.gamma.val().grad(&grads).unwrap()),
            data(beta.grad(&grads).unwrap()),
        ]
    }

    #[test]
    fn output_and_gradients_match_burns_layer_norm() {
        let ours = run::<CpuBackend>(true, false);
        let burns = run::<CpuBackend>(false, false);
        for (a, b) in ours.iter().zip(&burns) {
            a.assert_approx_eq::<f32>(b, Tolerance::absolute(1e-4));
        }
    }

    #[test]
    fn under_checkpointing_too() {
        let ours = run::<CpuCheckpointed>(true, false);
        let burns = run::<CpuBackend>(false, false);
        for (a, b) in ours.iter().zip(&burns) {
            a.assert_approx_eq::<f32>(b, Tolerance::absolute(1e-4));
        }
    }

    #[test]
    fn a_half_input_gives_a_half_output_and_gradient_close_to_f32() {
        let device = Default::default();
        let norm = LayerNormConfig::new(8)
            .with_epsilon(LAYER_NORM_EPSILON)
            .init::<CpuBackend>(&device);
        let x = Tensor::<CpuBackend, 2>::random([4, 8], Distribution::Normal(3.0, 2.0), &device)
            .cast(FloatDType::BF16)
            .require_grad();
        let y = layer_norm(&norm, x.clone(), true);
        assert_eq!(y.dtype(), DType::BF16);
        let grads = y.clone().sum().backward();
        assert_eq!(x.grad(&grads).unwrap().dtype(), DType::BF16);
        // Against burn's LayerNorm in f32 on the same (bf16-rounded) values: within bf16's
        // rounding of the f32 result, and the gradients likewise.
        let ours = run::<CpuBackend>(true, true);
        let f32s = run::<CpuBackend>(false, true);
        for (a, b) in ours.iter().zip(&f32s) {
            a.assert_approx_eq::<f32>(b, Tolerance::absolute(0.05));
        }
    }

    #[test]
    fn the_two_stage_sums_give_the_one_stage_gradients() {
        type Inner = <CpuBackend as AutodiffBackend>::InnerBackend;
        let device = Default::default();
        let random = |shape: [usize; 2], mean| {
            Tensor::<Inner, 2>::random(shape, Distribution::Normal(mean, 2.0), &device)
        };
        // 24 rows: split as 6 x 4 (column_sum's split).
        let (x, grad) = (random([24, 16], 3.0), random([24, 16], 0.0));
        let gamma = Tensor::<Inner, 1>::random([16], Distribution::Normal(1.0, 0.5), &device);
        let run = |split| {
            let (dx, dgamma, dbeta) = backward_rows(
                x.clone(),
                gamma.clone(),
                grad.clone(),
                LAYER_NORM_EPSILON,
                DType::F32,
                split,
            );
            [dx.into_data(), dgamma.into_data(), dbeta.into_data()]
        };
        for (a, b) in run(true).iter().zip(&run(false)) {
            a.assert_approx_eq::<f32>(b, Tolerance::absolute(1e-5));
        }
    }

    #[test]
    fn off_it_is_burns_layer_norm_in_the_input_dtype() {
        let device = Default::default();
        let norm = LayerNormConfig::new(8).init::<CpuBackend>(&device);
        let x = Tensor::<CpuBackend, 2>::random([4, 8], Distribution::Normal(3.0, 2.0), &device);
        layer_norm(&norm, x.clone(), false)
            .into_data()
            .assert_eq(&norm.forward(x).into_data(), true);
    }
}
