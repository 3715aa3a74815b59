//! The linear layers' matrix products as a custom autodiff operation, so that each
//! backend runs them with its best library: on CUDA, cuBLAS, everywhere else
//! burn's own matmul.
//!
//! A linear layer's three products, for x `[m, k]`, W `[k, n]` and dY `[m, n]`
//! ([`Form`]): the forward pass's y = x·W, and the backward pass's dX = dY·Wᵀ and
//! dW = xᵀ·dY. The operation keeps x and W for the backward pass (as burn's matmul does:
//! a compute-bound operation, so burn's checkpointing keeps rather than recomputes it).
//!
//! Why it exists: on the H200, for these shapes, cuBLAS's kernels take a fraction of
//! cubecl 0.10's matmul time, and a product with the two host syncs cubecl's private
//! stream forces around each call is still faster than cubecl's, measured alone
//! (docs/results/2026-12-04-h200-gemm-handshake, crates/oomlab-kernels/benches/gemm_handshake.rs).
//!
//! Where it runs ([`LinearBackend::custom_products`]): on CUDA for f32 and bf16 inputs by
//! default, for every dtype with `kernels.linear_products=cublas`, nowhere with `kernels.linear_products=burn`; on the
//! CPU only with `kernels.linear_products=cublas`. On the H200 the `gpu` config's f32 step took 74.1 ms
//! with it against cubecl's 87.5 (docs/results/2026-12-04-h200-cublas-queued;
//! the kernels crate's cuBLAS module, `by_default`, has bf16's measurements and why f16 stays on
//! cubecl). Elsewhere [`linear`] is burn's
//! linear on the input seen as one matrix ([`linear_2d`]) on the CPU and with
//! `kernels.linear=2d`, burn's `Linear::forward` on CUDA and with `kernels.linear=burn`.
//!
//! The backends: [`ProductBackend`] has burn's matmul as its default; the CUDA backend
//! (`CubeBackend<CudaRuntime>`) overrides it with the kernels crate's cuBLAS products where the
//! library loads and the dtype has a cuBLAS type, and burn's fusion backend passes the
//! operation through to the backend it wraps as a custom operation.

use burn::backend::autodiff::checkpoint::base::Checkpointer;
use burn::backend::autodiff::checkpoint::strategy::CheckpointStrategy;
use burn::backend::autodiff::grads::Gradients;
use burn::backend::autodiff::ops::{Backward, Ops, OpsKind};
use burn::backend::autodiff::NodeId;
use burn::backend::Autodiff;
use burn::nn::Linear;
use burn::prelude::*;
use burn::tensor::ops::FloatTensor;
use burn::tensor::{DType, TensorPrimitive};

use oomlab_kernels::ops::{
    add_to_rows, custom_products_setting, linear_grads_apart, linear_grads_together,
    linear_setting, split_setting, Form, ProductBackend,
};

/// A backend that can run [`linear`]'s product with its own backward pass: every autodiff
/// backend over a [`ProductBackend`].
pub trait LinearBackend: Backend {
    /// x·W, with dX = dY·Wᵀ and dW = xᵀ·dY on the inner backend's [`ProductBackend`].
    ///
    /// # Shapes
    /// - x: `[m, k]`, w: `[k, n]`
    /// - output: `[m, n]`
    fn linear_product(x: FloatTensor<Self>, w: FloatTensor<Self>) -> FloatTensor<Self>;

    /// Whether [`linear`] runs [`linear_custom`] for inputs of `dtype`: as `kernels.linear_products`
    /// says, else as the inner backend's [`ProductBackend::custom_products_by_default`].
    fn custom_products(dtype: DType) -> bool;

    /// Whether [`linear`] runs [`linear_2d`] where it does not run the custom product: as
    /// `kernels.linear` says, else as [`ProductBackend::linear_2d_by_default`].
    fn linear_2d() -> bool;

    /// Whether the sums over every token of `dtype` activations run in two stages: as
    /// `kernels.column_sums` says, else as [`ProductBackend::split_sums_by_default`].
    fn split_sums(dtype: DType) -> bool;
}

impl<B: ProductBackend, C: CheckpointStrategy> LinearBackend for Autodiff<B, C> {
    fn custom_products(dtype: DType) -> bool {
        custom_products_setting().unwrap_or_else(|| B::custom_products_by_default(dtype))
    }

    fn linear_2d() -> bool {
        linear_setting().unwrap_or_else(B::linear_2d_by_default)
    }

    fn split_sums(dtype: DType) -> bool {
        split_setting().unwrap_or_else(|| B::split_sums_by_default(dtype))
    }

    fn linear_product(x: FloatTensor<Self>, w: FloatTensor<Self>) -> FloatTensor<Self> {
        #[derive(Debug)]
        struct Product;

        impl<B: ProductBackend> Backward<B, 2> for Product {
            /// x's node when W needs a gradient, W's when x does.
            type State = (Option<NodeId>, Option<NodeId>);

            fn backward(
                self,
                ops: Ops<Self::State, 2>,
                grads: &mut Gradients,
                checkpointer: &mut Checkpointer,
            ) {
                let [node_x, node_w] = ops.parents;
                let grad = grads.consume::<B>(&ops.node);
                let (x, w) = ops.state;
                let x = x.map(|x| checkpointer.retrieve_node_output::<FloatTensor<B>>(x));
                let w = w.map(|w| checkpointer.retrieve_node_output::<FloatTensor<B>>(w));
                match (node_w.zip(x), node_x.zip(w)) {
                    (Some((node_w, x)), Some((node_x, w))) => {
                        let (dw, dx) = if linear_grads_together::<B>() {
                            B::linear_grads(x, grad, w)
                        } else {
                            linear_grads_apart::<B>(x, grad, w)
                        };
                        grads.register::<B>(node_w.id, dw);
                        grads.register::<B>(node_x.id, dx);
                    }
                    (Some((node, x)), None) => {
                        grads.register::<B>(node.id, B::product(x, grad, Form::WeightGrad));
                    }
                    (None, Some((node, w))) => {
                        grads.register::<B>(node.id, B::product(grad, w, Form::InputGrad));
                    }
                    (None, None) => {}
                }
            }
        }

        let (x_tracked, w_tracked) = (x.is_tracked(), w.is_tracked());
        match Product
            .prepare::<C>([x.node.clone(), w.node.clone()])
            .compute_bound()
            .stateful()
        {
            OpsKind::Tracked(mut prep) => {
                let x_state = w_tracked.then(|| prep.checkpoint(&x));
                let w_state = x_tracked.then(|| prep.checkpoint(&w));
                prep.finish(
                    (x_state, w_state),
                    B::product(x.primitive, w.primitive, Form::Forward),
                )
            }
            OpsKind::UnTracked(prep) => {
                prep.finish(B::product(x.primitive, w.primitive, Form::Forward))
            }
        }
    }
}

/// [`linear_custom`] where [`LinearBackend::custom_products`] says so; else
/// [`linear_2d`] where [`LinearBackend::linear_2d`] does; else `layer.forward(x)`.
///
/// # Shapes
/// - x: `[..., d_input]`
/// - output: `[..., d_output]`
pub fn linear<B: LinearBackend, const D: usize>(
    layer: &Linear<B>,
    x: Tensor<B, D>,
) -> Tensor<B, D> {
    if B::custom_products(x.dtype()) {
        linear_custom(layer, x)
    } else {
        linear_burn(layer, x)
    }
}

/// [`linear_2d`] where [`LinearBackend::linear_2d`] says so, else `layer.forward(x)`:
/// never the custom product. The GPT's head takes this: on CUDA its product has stayed
/// on cubecl, as the shipped kernel pack (crates/oomlab-kernels/pack/nvidia-h200) was made, since the head on
/// cuBLAS has not been measured.
///
/// # Shapes
/// - x: `[..., d_input]`
/// - output: `[..., d_output]`
pub fn linear_burn<B: LinearBackend, const D: usize>(
    layer: &Linear<B>,
    x: Tensor<B, D>,
) -> Tensor<B, D> {
    if B::linear_2d() {
        linear_2d(layer, x)
    } else {
        layer.forward(x)
    }
}

/// burn's linear on the input seen as one matrix, the bias added after it (the
/// CPU's default, `kernels.linear=2d` elsewhere).
///
/// burn 0.21's `Linear` keeps the input's batch dimensions: for x `[batch, seq, k]` its
/// weight gradient (burn-backend's `linear_weight_backward`) is a batched product xᵀ·dY,
/// `[batch, k, n]`, summed over the batch afterwards: on the gpu config's first MLP layer
/// a 64 x 512 x 2048 intermediate (256 MiB in f32) and 64 products of depth 256 where one
/// of depth 16,384 does. Seen as `[batch·seq, k]` the weight gradient is that one product.
/// The bias is added outside burn's operation so that its gradient can take
/// `column_sum`'s two stages (`kernels.column_sums=split`); burn's own sums a
/// matrix's first dimension in one.
///
/// # Shapes
/// - x: `[..., d_input]`
/// - output: `[..., d_output]`
pub fn linear_2d<B: LinearBackend, const D: usize>(
    layer: &Linear<B>,
    x: Tensor<B, D>,
) -> Tensor<B, D> {
    let (w, b) = parts(layer);
    on_rows(w, b, x, burn_linear_product)
}

/// A layer's weight and bias as tensors.
fn parts<B: Backend>(layer: &Linear<B>) -> (Tensor<B, 2>, Option<Tensor<B, 1>>) {
    (layer.weight.val(), layer.bias.as_ref().map(|b| b.val()))
}

/// x·W + b for a weight `[d_input, d_output]` and bias `[d_output]` given as tensors (a
/// computed weight, e.g. several layers' side by side, whose gradient flows back to
/// them): on the custom product where [`LinearBackend::custom_products`] says so, else
/// burn's linear on the input seen as one matrix ([`linear_2d`]'s way).
///
/// # Shapes
/// - weight: `[d_input, d_output]`, bias: `[d_output]`
/// - x: `[..., d_input]`
/// - output: `[..., d_output]`
pub fn linear_parts<B: LinearBackend, const D: usize>(
    weight: Tensor<B, 2>,
    bias: Option<Tensor<B, 1>>,
    x: Tensor<B, D>,
) -> Tensor<B, D> {
    if B::custom_products(x.dtype()) {
        on_rows(weight, bias, x, custom_product)
    } else {
        on_rows(weight, bias, x, burn_linear_product)
    }
}

/// x·W on burn's linear (no bias).
fn burn_linear_product<B: Backend>(x: Tensor<B, 2>, w: Tensor<B, 2>) -> Tensor<B, 2> {
    burn::tensor::module::linear(x, w, None)
}

/// x·W on [`LinearBackend::linear_product`].
fn custom_product<B: LinearBackend>(x: Tensor<B, 2>, w: Tensor<B, 2>) -> Tensor<B, 2> {
    Tensor::from_primitive(TensorPrimitive::Float(B::linear_product(
        x.into_primitive().tensor(),
        w.into_primitive().tensor(),
    )))
}

/// `product(x, W) + b` with x seen as one matrix `[rows, d_input]`, the bias added by
/// [`super::column_sum::add_to_rows`] (its gradient in two stages where
/// [`LinearBackend::split_sums`] says so), the result in x's shape.
fn on_rows<B: LinearBackend, const D: usize>(
    w: Tensor<B, 2>,
    bias: Option<Tensor<B, 1>>,
    x: Tensor<B, D>,
    product: impl FnOnce(Tensor<B, 2>, Tensor<B, 2>) -> Tensor<B, 2>,
) -> Tensor<B, D> {
    let mut dims = x.dims();
    let k = dims[D - 1];
    let rows = x.shape().num_elements() / k.max(1);
    let n = w.dims()[1];
    let dtype = x.dtype();
    let y = product(x.reshape([rows, k]), w);
    let y = match bias {
        Some(bias) => add_to_rows(y, bias, B::split_sums(dtype)),
        None => y,
    };
    dims[D - 1] = n;
    y.reshape(dims)
}

/// `layer.forward(x)` with the product as [`LinearBackend::linear_product`]: x·W + b over
/// the last dimension (b's gradient summed in two stages where
/// [`LinearBackend::split_sums`] says so: super::column_sum).
///
/// # Shapes
/// - x: `[..., d_input]`
/// - output: `[..., d_output]`
pub fn linear_custom<B: LinearBackend, const D: usize>(
    layer: &Linear<B>,
    x: Tensor<B, D>,
) -> Tensor<B, D> {
    let (w, b) = parts(layer);
    on_rows(w, b, x, custom_product)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::CpuBackend;
    use burn::nn::LinearConfig;
    use burn::tensor::Distribution;

    type B = CpuBackend;

    /// `ours(layer, x)` against `layer.forward(x)`: output, dX, dW and db for a loss of
    /// sum(out ⊙ w).
    fn matches_burns_linear(ours: impl Fn(&Linear<B>, Tensor<B, 3>) -> Tensor<B, 3>) {
        let device = Default::default();
        let layer = LinearConfig::new(6, 5).init::<B>(&device);
        let x = Tensor::<B, 3>::random([4, 3, 6], Distribution::Default, &device).require_grad();
        let mine = ours(&layer, x.clone());
        let theirs = layer.forward(x.clone());
        mine.to_data()
            .assert_approx_eq::<f32>(&theirs.to_data(), burn::tensor::Tolerance::default());
        let w = Tensor::<B, 3>::random([4, 3, 5], Distribution::Default, &device);
        let g1 = (mine * w.clone()).sum().backward();
        let g2 = (theirs * w).sum().backward();
        let dx = |g: &_| x.grad(g).unwrap();
        dx(&g1)
            .to_data()
            .assert_approx_eq::<f32>(&dx(&g2).to_data(), Default::default());
        let dw = |g: &_| layer.weight.val().grad(g).unwrap();
        dw(&g1)
            .to_data()
            .assert_approx_eq::<f32>(&dw(&g2).to_data(), Default::default());
        let db = |g: &_| layer.bias.as_ref().unwrap().val().grad(g).unwrap();
        db(&g1)
            .to_data()
            .assert_approx_eq::<f32>(&db(&g2).to_data(), Default::default());
    }

    #[test]
    fn linear_matches_burns_linear_forward_and_gradients() {
        matches_burns_linear(linear_custom::<B, 3>);
    }

    #[test]
    fn the_2d_linear_matches_burns_linear_forward_and_gradients() {
        matches_burns_linear(linear_2d::<B, 3>);
    }
}
