//! The feed-forward layer's first linear layer and its GELU, gelu(x·W + b), as the linear
//! layer's product and one custom autodiff operation for the bias and GELU (issue 29).
//!
//! The operation keeps the product y = x·W and the bias for the backward pass, and
//! recomputes y + b there: as much memory as burn's chain, whose GELU keeps its input
//! y + b (one `[rows, d_ff]` tensor either way). The backward pass gives dy = dz·gelu'(y + b)
//! from the backend (super::gelu_kernel: on CUDA a kernel of oomlab's, by default for
//! f32) and the bias's gradient as [`column_sum`] of dy, in two
//! stages where [`LinearBackend::split_sums`] says so, as [`super::column_sum::add_to_rows`]
//! gives it. The gradient of GELU is burn's: the derivative of GELU's tanh approximation
//! (burn-backend's `gelu_backward`), while the forward pass is the exact GELU.
//!
//! Like burn's GELU the operation is memory-bound: under burn's checkpointing its output is
//! recomputed from its inputs rather than kept.

use std::marker::PhantomData;

use burn::backend::autodiff::checkpoint::base::Checkpointer;
use burn::backend::autodiff::checkpoint::retro_forward::RetroForward;
use burn::backend::autodiff::checkpoint::state::BackwardStates;
use burn::backend::autodiff::checkpoint::strategy::CheckpointStrategy;
use burn::backend::autodiff::grads::Gradients;
use burn::backend::autodiff::ops::{Backward, Ops, OpsKind};
use burn::backend::autodiff::NodeId;
use burn::backend::Autodiff;
use burn::nn::activation::Activation;
use burn::nn::Linear;
use burn::prelude::*;
use burn::tensor::ops::FloatTensor;
use burn::tensor::{DType, FloatDType, TensorMetadata, TensorPrimitive};

use super::linear::{linear, linear_parts, LinearBackend};
use oomlab_kernels::ops::{column_sum, GeluKernelBackend, ProductBackend};

/// A backend that can run [`GeluBackend::bias_gelu`]: every autodiff backend over a
/// [`ProductBackend`] and [`GeluKernelBackend`].
pub trait GeluBackend: Backend {
    /// Whether [`linear_gelu`] takes [`Self::bias_gelu`] for products of `dtype`: as the
    /// inner backend's [`GeluKernelBackend::gelu_on_kernels`] says.
    fn gelu_kernels(dtype: DType) -> bool;

    /// z = gelu(y + b) for every row, keeping y and b for the backward pass.
    ///
    /// # Shapes
    /// - y: `[rows, d]`; bias: `[d]`
    /// - output: `[rows, d]`, in y's dtype
    fn bias_gelu(y: FloatTensor<Self>, bias: FloatTensor<Self>) -> FloatTensor<Self>;
}

/// Recomputes the operation's output from its inputs, for burn's checkpointing.
#[derive(Debug)]
struct RetroBiasGelu<B: Backend> {
    y: NodeId,
    bias: NodeId,
    _backend: PhantomData<B>,
}

impl<B: GeluKernelBackend> RetroForward for RetroBiasGelu<B> {
    fn forward(&self, states: &mut BackwardStates, out_node: NodeId) {
        let y = states.get_state::<FloatTensor<B>>(&self.y);
        let bias = states.get_state::<FloatTensor<B>>(&self.bias);
        states.save(out_node, B::bias_gelu(y, bias))
    }
}

impl<B: ProductBackend + GeluKernelBackend, C: CheckpointStrategy> GeluBackend for Autodiff<B, C> {
    fn gelu_kernels(dtype: DType) -> bool {
        B::gelu_on_kernels(dtype)
    }

    fn bias_gelu(y: FloatTensor<Self>, bias: FloatTensor<Self>) -> FloatTensor<Self> {
        /// `split_sum`: whether the bias's gradient is summed in two stages.
        #[derive(Debug)]
        struct BiasGelu {
            split_sum: bool,
        }

        impl<B: GeluKernelBackend> Backward<B, 2> for BiasGelu {
            /// y's and the bias's nodes (their values come from the checkpointer), and the
            /// bias's dtype.
            type State = (NodeId, NodeId, DType);

            fn backward(
                self,
                ops: Ops<Self::State, 2>,
                grads: &mut Gradients,
                checkpointer: &mut Checkpointer,
            ) {
                let [node_y, node_bias] = ops.parents;
                let grad = grads.consume::<B>(&ops.node);
                let (y, bias, bias_dtype) = ops.state;
                let y = checkpointer.retrieve_node_output::<FloatTensor<B>>(y);
                let bias = checkpointer.retrieve_node_output::<FloatTensor<B>>(bias);
                let dy = B::bias_gelu_backward(y, bias, grad);
                if let Some(node) = node_bias {
                    let dy = Tensor::<B, 2>::from_primitive(TensorPrimitive::Float(dy.clone()));
                    let db = column_sum(dy, self.split_sum).cast(FloatDType::from(bias_dtype));
                    grads.register::<B>(node.id, db.into_primitive().tensor());
                }
                if let Some(node) = node_y {
                    grads.register::<B>(node.id, dy);
                }
            }
        }

        let retro = RetroBiasGelu::<B> {
            y: y.node.id,
            bias: bias.node.id,
            _backend: PhantomData,
        };
        let split_sum = Self::split_sums(y.primitive.dtype());
        match (BiasGelu { split_sum })
            .prepare::<C>([y.node.clone(), bias.node.clone()])
            .memory_bound()
            .retro_forward(retro)
            .parents([&y, &bias])
            .stateful()
        {
            OpsKind::Tracked(mut prep) => {
                let state = (
                    prep.checkpoint(&y),
                    prep.checkpoint(&bias),
                    bias.primitive.dtype(),
                );
                prep.finish(state, B::bias_gelu(y.primitive, bias.primitive))
            }
            OpsKind::UnTracked(prep) => prep.finish(B::bias_gelu(y.primitive, bias.primitive)),
        }
    }
}

/// `activation(layer(x))` of a feed-forward layer: the product and [`GeluBackend::bias_gelu`]
/// where the activation is GELU, the layer has a bias and [`GeluBackend::gelu_kernels`] says
/// so for x's dtype; else the layer ([`linear`]) and then the activation, as burn's
/// `PositionWiseFeedForward` runs them.
///
/// # Shapes
/// - x: `[..., d_input]`
/// - output: `[..., d_output]`
pub fn linear_gelu<B: LinearBackend + GeluBackend, const D: usize>(
    layer: &Linear<B>,
    activation: &Activation<B>,
    x: Tensor<B, D>,
) -> Tensor<B, D> {
    match (&layer.bias, activation) {
        (Some(bias), Activation::Gelu(_)) if B::gelu_kernels(x.dtype()) => {
            let y = linear_parts(layer.weight.val(), None, x);
            let dims = y.dims();
            let d = dims[D - 1];
            let rows = y.shape().num_elements() / d.max(1);
            let z = B::bias_gelu(
                y.reshape([rows, d]).into_primitive().tensor(),
                bias.val().into_primitive().tensor(),
            );
            Tensor::<B, 2>::from_primitive(TensorPrimitive::Float(z)).reshape(dims)
        }
        _ => activation.forward(linear(layer, x)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::{CpuBackend, CpuCheckpointed};
    use burn::module::Param;
    use burn::nn::activation::ActivationConfig;
    use burn::nn::LinearConfig;
    use burn::tensor::backend::AutodiffBackend;
    use burn::tensor::Tolerance;

    /// A tensor of `shape` whose values are scale·sin(0.7·i + phase) (no random generator:
    /// tests run in parallel and burn's seed is global).
    fn fixed<B: Backend, const D: usize>(
        shape: [usize; D],
        scale: f64,
        phase: f64,
    ) -> Tensor<B, D> {
        let n = shape.iter().product::<usize>() as i64;
        Tensor::<B, 1, Int>::arange(0..n, &Default::default())
            .float()
            .mul_scalar(0.7)
            .add_scalar(phase)
            .sin()
            .mul_scalar(scale)
            .reshape(shape)
    }

    /// A linear layer `[6, 10]` with fixed weight and bias.
    fn layer<B: Backend>() -> Linear<B> {
        let mut layer = LinearConfig::new(6, 10).init::<B>(&Default::default());
        layer.weight = Param::from_tensor(fixed([6, 10], 0.5, 0.3));
        layer.bias = Some(Param::from_tensor(fixed([10], 0.8, 1.1)));
        layer
    }

    /// Output and gradients (x, W, b) of gelu(layer(x)) for a loss of sum(out ⊙ w), with the
    /// custom operation (`ours`) or burn's linear and GELU.
    fn run<B: LinearBackend + GeluBackend + AutodiffBackend>(ours: bool) -> [TensorData; 4] {
        let layer = layer::<B>();
        let activation = ActivationConfig::Gelu.init::<B>(&Default::default());
        let x = fixed::<B, 3>([2, 3, 6], 2.0, 0.0).require_grad();
        let w = fixed::<B, 3>([2, 3, 10], 1.0, 2.0);
        let out = if ours {
            let y = linear_parts(layer.weight.val(), None, x.clone());
            let dims = y.dims();
            let bias = layer.bias.as_ref().map(|b| b.val()).unwrap();
            let z = B::bias_gelu(
                y.reshape([6, 10]).into_primitive().tensor(),
                bias.into_primitive().tensor(),
            );
            Tensor::<B, 2>::from_primitive(TensorPrimitive::Float(z)).reshape(dims)
        } else {
            activation.forward(layer.forward(x.clone()))
        };
        let grads = (out.clone() * w).sum().backward();
        [
            out.into_data(),
            x.grad(&grads).unwrap().into_data(),
            layer.weight.grad(&grads).unwrap().into_data(),
            layer
                .bias
                .as_ref()
                .unwrap()
                .grad(&grads)
                .unwrap()
                .into_data(),
        ]
    }

    #[test]
    fn equals_burns_linear_and_gelu_with_and_without_checkpointing() {
        let theirs = run::<CpuBackend>(false);
        for ours in [run::<CpuBackend>(true), run::<CpuCheckpointed>(true)] {
            for (a, b) in ours.iter().zip(&theirs) {
                a.assert_approx_eq::<f32>(b, Tolerance::absolute(1e-5));
            }
        }
    }

    #[test]
    fn off_the_kernels_the_layer_is_burns_linear_then_its_activation() {
        type B = CpuBackend;
        assert!(!<B as GeluBackend>::gelu_kernels(DType::F32));
        let layer = layer::<B>();
        let activation = ActivationConfig::Gelu.init::<B>(&Default::default());
        let x = fixed::<B, 3>([2, 3, 6], 1.0, 0.5);
        let ours = linear_gelu(&layer, &activation, x.clone());
        let theirs = activation.forward(linear(&layer, x));
        assert_eq!(ours.into_data(), theirs.into_data());
    }
}
