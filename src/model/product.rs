//! The linear layers' matrix products as a custom autodiff operation, so that each
//! backend runs them with its best library: on CUDA, cuBLAS (issue 29), everywhere else
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
//! (docs/results/2026-12-04-h200-gemm-handshake, benches/gemm_handshake.rs).
//!
//! Where it runs ([`LinearBackend::custom_products`]): on CUDA for f32 and bf16 inputs by
//! default, for every dtype with `kernels.linear_products=cublas`, nowhere with `kernels.linear_products=burn`; on the
//! CPU only with `kernels.linear_products=cublas`. On the H200 the `gpu` config's f32 step took 74.1 ms
//! with it against cubecl's 87.5 (docs/results/2026-12-04-h200-cublas-queued;
//! src/device/cublas.rs's `by_default` has bf16's measurements and why f16 stays on
//! cubecl). Elsewhere [`linear`] is burn's
//! linear on the input seen as one matrix ([`linear_2d`]) on the CPU and with
//! `kernels.linear=2d`, burn's `Linear::forward` on CUDA and with `kernels.linear=burn`.
//!
//! The backends: [`ProductBackend`] has burn's matmul as its default; the CUDA backend
//! (`CubeBackend<CudaRuntime>`) overrides it with [`crate::device::cublas`] where the
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

use super::product_layout::{narrow_heads, Operand, Place, Rows, Span};

/// Which of a linear layer's products.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Form {
    /// y = x·W: a `[m, k]`, b `[k, n]`, out `[m, n]`.
    Forward,
    /// dX = dY·Wᵀ: a `[m, n]`, b `[k, n]`, out `[m, k]`.
    InputGrad,
    /// dW = xᵀ·dY: a `[m, k]`, b `[m, n]`, out `[k, n]`.
    WeightGrad,
}

impl Form {
    /// (m, k, n) of the layer, read from the operands' shapes.
    pub fn mkn(self, a: [usize; 2], b: [usize; 2]) -> (usize, usize, usize) {
        match self {
            Form::Forward => (a[0], a[1], b[1]),
            Form::InputGrad => (a[0], b[0], a[1]),
            Form::WeightGrad => (a[0], a[1], b[1]),
        }
    }

    /// The output's shape.
    pub fn output(self, a: [usize; 2], b: [usize; 2]) -> [usize; 2] {
        let (m, k, n) = self.mkn(a, b);
        match self {
            Form::Forward => [m, n],
            Form::InputGrad => [m, k],
            Form::WeightGrad => [k, n],
        }
    }
}

/// burn's matmul in the product's form (transposes as views).
pub fn burn_product<B: Backend>(
    a: FloatTensor<B>,
    b: FloatTensor<B>,
    form: Form,
) -> FloatTensor<B> {
    let m = |p| Tensor::<B, 2>::from_primitive(TensorPrimitive::Float(p));
    let (a, b) = (m(a), m(b));
    match form {
        Form::Forward => a.matmul(b),
        Form::InputGrad => a.matmul(b.transpose()),
        Form::WeightGrad => a.transpose().matmul(b),
    }
    .into_primitive()
    .tensor()
}

/// A backend's matrix product of a linear layer (no autodiff).
pub trait ProductBackend: Backend {
    /// The product `form` of two matrices (see [`Form`] for the shapes).
    fn product(a: FloatTensor<Self>, b: FloatTensor<Self>, form: Form) -> FloatTensor<Self> {
        burn_product::<Self>(a, b, form)
    }

    /// A linear layer's two gradient products, dW = xᵀ·dY and dX = dY·Wᵀ, in that order,
    /// as one operation: [`linear`]'s backward pass calls it where
    /// [`linear_grads_together`] says so (else [`linear_grads_apart`]). By default two
    /// [`Self::product`]s; a backend may run both behind one ordering of its library's
    /// stream (cuBLAS: one handshake instead of two, super::super::device::cublas).
    ///
    /// # Shapes
    /// - x: `[m, k]`, grad: `[m, n]`, w: `[k, n]`
    /// - output: (dW `[k, n]`, dX `[m, k]`)
    fn linear_grads(
        x: FloatTensor<Self>,
        grad: FloatTensor<Self>,
        w: FloatTensor<Self>,
    ) -> (FloatTensor<Self>, FloatTensor<Self>) {
        linear_grads_apart::<Self>(x, grad, w)
    }

    /// Whether [`Self::linear_grads`] is what the backward pass calls when
    /// `kernels.linear_grads` is unset: not by default (nothing to gain from two products
    /// as one call where they run one after the other anyway).
    fn linear_grads_together_by_default() -> bool {
        false
    }

    /// Whether an embedding's gradient pays as a product with a one-hot matrix
    /// (super::embedding) rather than burn's scatter: not by default (on the CPU the
    /// product's `vocab` times more arithmetic costs more than the scatter).
    fn dense_embedding_grad() -> bool {
        false
    }

    /// Whether [`linear`] takes the custom product for inputs of `dtype` when
    /// `kernels.linear_products` is unset: not by default (burn's `Linear` then runs, as it always
    /// did on the CPU).
    fn custom_products_by_default(_dtype: DType) -> bool {
        false
    }

    /// Whether [`linear`] runs [`linear_2d`] (where the custom product does not run) when
    /// `kernels.linear` is unset: not by default (burn's `Linear` then runs).
    fn linear_2d_by_default() -> bool {
        false
    }

    /// Whether the sums over every token (LayerNorm's dγ and dβ, a bias's gradient) of
    /// `dtype` activations run in two stages (super::column_sum) when `kernels.column_sums`
    /// is unset: not by default.
    fn split_sums_by_default(_dtype: DType) -> bool {
        false
    }

    /// Whether the embeddings take their dense path (super::embedding) for a table of
    /// `dtype` when `kernels.embedding_grad` is unset: not by default.
    fn dense_embeddings_by_default(_dtype: DType) -> bool {
        false
    }

    /// Whether attention's batched products of `dtype` run on the backend's library
    /// ([`Self::batched_product`]; super::batched): not by default.
    fn batched_on_library(_dtype: DType) -> bool {
        false
    }

    /// alpha·a·b for every batch index of `span`'s heads (dimension 1) of two 4-D tensors
    /// (views included), the output's rows stored as `rows` asks where the backend can:
    /// burn's matmul of the heads sliced by default (a contiguous output whatever `rows`
    /// says), times alpha unless it is 1.
    ///
    /// # Shapes
    /// - a: `[d0, ≥ span.a + span.count, m, k]`, b: `[d0, ≥ span.b + span.count, k, n]`
    /// - output: `[d0, span.count, m, n]`
    fn batched_product(
        a: FloatTensor<Self>,
        b: FloatTensor<Self>,
        span: Span,
        rows: Rows,
        alpha: f32,
    ) -> FloatTensor<Self> {
        let _ = rows;
        burn_batched::<Self>(a, b, span, alpha)
    }

    /// alpha·a·b of `span`'s heads written as heads `place.at..place.at + span.count` of
    /// `whole` (`[d0, place.heads, m, n]`, stored as `[d0, m, place.heads, n]`), or of a new
    /// such tensor where `whole` is `None`; returns that tensor. `whole` is consumed: a
    /// backend may write into its buffer where `place.owned` says no other tensor shares it
    /// (super::batched's [`Joined`](super::batched::Joined) gathers attention's groups of
    /// heads this way). By default [`Self::batched_product`] and burn's `slice_assign`.
    ///
    /// # Shapes
    /// - a: `[d0, ≥ span.a + span.count, m, k]`, b: `[d0, ≥ span.b + span.count, k, n]`
    /// - whole and output: `[d0, place.heads, m, n]`
    fn batched_product_into(
        a: FloatTensor<Self>,
        b: FloatTensor<Self>,
        span: Span,
        alpha: f32,
        whole: Option<FloatTensor<Self>>,
        place: Place,
    ) -> FloatTensor<Self> {
        burn_batched_into::<Self>(a, b, span, alpha, whole, place)
    }

    /// Whether attention's backward pass hands its independent products to
    /// [`Self::batched_into_and_new`] and [`Self::batched_into_twice`] when
    /// `kernels.attention_pairs` is unset: not by default (super::batched_pair).
    fn batched_pairs_together_by_default() -> bool {
        false
    }

    /// `first` written as heads `place.at..` of `whole` (a new such tensor where it is
    /// `None`), as [`Self::batched_product_into`], and `second` as a tensor of its own
    /// stored as `rows`, as [`Self::batched_product`], as one operation: (the whole, the
    /// second product). By default the two one after the other; a backend may run both
    /// behind one ordering of its library's stream (super::batched_pair says why).
    fn batched_into_and_new(
        first: Operand<Self>,
        whole: Option<FloatTensor<Self>>,
        place: Place,
        second: Operand<Self>,
        rows: Rows,
    ) -> (FloatTensor<Self>, FloatTensor<Self>) {
        apart_into_and_new::<Self>(first, whole, place, second, rows)
    }

    /// `first` written as heads `place.at..` of `whole` (a new such tensor where it is
    /// `None`) and `second` as heads `second_at..` of the same tensor, as two
    /// [`Self::batched_product_into`]s, as one operation; returns the whole. By default the
    /// two one after the other (super::batched_pair).
    fn batched_into_twice(
        first: Operand<Self>,
        place: Place,
        second: Operand<Self>,
        second_at: usize,
        whole: Option<FloatTensor<Self>>,
    ) -> FloatTensor<Self> {
        apart_into_twice::<Self>(first, place, second, second_at, whole)
    }
}

/// The CPU: the 2-D linear by default (docs/results/2026-12-04-cpu-linear-default: a
/// shorter step and a lower heap peak than burn's `Linear` in f32 and bf16).
impl ProductBackend for burn::backend::Flex {
    fn linear_2d_by_default() -> bool {
        true
    }
}

/// [`ProductBackend::linear_grads`]'s default: dW = xᵀ·dY, then dX = dY·Wᵀ, as two
/// [`ProductBackend::product`]s.
pub fn linear_grads_apart<B: ProductBackend>(
    x: FloatTensor<B>,
    grad: FloatTensor<B>,
    w: FloatTensor<B>,
) -> (FloatTensor<B>, FloatTensor<B>) {
    let dw = B::product(x, grad.clone(), Form::WeightGrad);
    (dw, B::product(grad, w, Form::InputGrad))
}

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
        super::column_sum::split_setting().unwrap_or_else(|| B::split_sums_by_default(dtype))
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

/// What `kernels.linear_products` asks for (read once): `Some(true)` for `1`, `Some(false)` for
/// `0`, `None` (the backend's default) when unset or anything else.
pub fn custom_products_setting() -> Option<bool> {
    crate::model::kernels().linear_products.choice()
}

/// Whether the backward pass calls [`ProductBackend::linear_grads`]: what
/// `kernels.linear_grads` says, else the backend's default.
///
/// The variable that puts a linear layer's two gradient products together
/// ([`ProductBackend::linear_grads`]): `together` one operation (on CUDA, both cuBLAS calls
/// behind one handshake with cubecl's stream), `apart` two; unset, the backend's default
/// ([`ProductBackend::linear_grads_together_by_default`]: together on CUDA, apart
/// elsewhere). On an H100 the gpu config's AMP bf16 step is bound by the host and each
/// cuBLAS product costs the thread that queues it about 48 µs, half of it the handshake
/// (docs/results/2026-12-06-h100-probs-bf16, `host-threads-a3b32e1/`); together, the step
/// took 28.2 ms against 29.9 apart, f32's 37.1 against 37.6, the final losses the same
/// bits (docs/results/2026-12-06-h100-grads-together, `gpu-91e0fb5/`).
pub fn linear_grads_together<B: ProductBackend>() -> bool {
    crate::model::kernels()
        .linear_grads
        .choice()
        .unwrap_or_else(B::linear_grads_together_by_default)
}

/// What `kernels.linear` asks for (read once): `Some(true)` for `2d`, `Some(false)` for
/// `burn`, `None` (the backend's default) when unset or anything else.
pub fn linear_setting() -> Option<bool> {
    crate::model::kernels().linear.choice()
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
/// on cubecl, as the shipped kernel pack (kernels/nvidia-h200) was made, since the head on
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

/// burn's linear on the input seen as one matrix, the bias added after it (issue 29; the
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
        Some(bias) => super::column_sum::add_to_rows(y, bias, B::split_sums(dtype)),
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

/// burn's matmul of `span`'s heads of two 4-D tensors, times `alpha` unless it is 1 (the
/// default [`ProductBackend::batched_product`]).
pub fn burn_batched<B: Backend>(
    a: FloatTensor<B>,
    b: FloatTensor<B>,
    span: Span,
    alpha: f32,
) -> FloatTensor<B> {
    let t = |p| Tensor::<B, 4>::from_primitive(TensorPrimitive::Float(p));
    let product =
        narrow_heads(t(a), span.a, span.count).matmul(narrow_heads(t(b), span.b, span.count));
    if alpha == 1.0 {
        product.into_primitive().tensor()
    } else {
        product.mul_scalar(alpha).into_primitive().tensor()
    }
}

/// The default [`ProductBackend::batched_product_into`]: the backend's
/// [`ProductBackend::batched_product`], then burn's `slice_assign` into `whole` (a new
/// tensor where it is `None`).
pub fn burn_batched_into<B: ProductBackend>(
    a: FloatTensor<B>,
    b: FloatTensor<B>,
    span: Span,
    alpha: f32,
    whole: Option<FloatTensor<B>>,
    place: Place,
) -> FloatTensor<B> {
    let t = |p| Tensor::<B, 4>::from_primitive(TensorPrimitive::Float(p));
    let product = t(B::batched_product(a, b, span, Rows::Tokens, alpha));
    let [d0, count, m, n] = product.dims();
    let whole = match whole {
        Some(w) => t(w),
        None => Tensor::<B, 4>::empty(
            [d0, m, place.heads, n],
            (&product.device(), product.dtype()),
        )
        .swap_dims(1, 2),
    };
    whole
        .slice_assign([0..d0, place.at..place.at + count, 0..m, 0..n], product)
        .into_primitive()
        .tensor()
}

/// [`ProductBackend::batched_into_and_new`]'s default: the two products one after the
/// other, [`ProductBackend::batched_product_into`] then [`ProductBackend::batched_product`].
pub fn apart_into_and_new<B: ProductBackend>(
    first: Operand<B>,
    whole: Option<FloatTensor<B>>,
    place: Place,
    second: Operand<B>,
    rows: Rows,
) -> (FloatTensor<B>, FloatTensor<B>) {
    let whole = B::batched_product_into(first.a, first.b, first.span, 1.0, whole, place);
    let new = B::batched_product(second.a, second.b, second.span, rows, 1.0);
    (whole, new)
}

/// [`ProductBackend::batched_into_twice`]'s default: two
/// [`ProductBackend::batched_product_into`]s, the second into the first's output (then the
/// caller's alone: the first wrote it or made it).
pub fn apart_into_twice<B: ProductBackend>(
    first: Operand<B>,
    place: Place,
    second: Operand<B>,
    second_at: usize,
    whole: Option<FloatTensor<B>>,
) -> FloatTensor<B> {
    let whole = B::batched_product_into(first.a, first.b, first.span, 1.0, whole, place);
    let place = Place {
        at: second_at,
        owned: true,
        ..place
    };
    B::batched_product_into(second.a, second.b, second.span, 1.0, Some(whole), place)
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

    #[test]
    fn the_cpu_takes_the_2d_linear_not_the_custom_product_unless_asked() {
        for dtype in [DType::F32, DType::BF16, DType::F16] {
            assert!(!<burn::backend::Flex as ProductBackend>::custom_products_by_default(dtype));
            // The CPU path stays as measured: every sum in one stage.
            assert!(!<burn::backend::Flex as ProductBackend>::split_sums_by_default(dtype));
            assert!(!<burn::backend::Flex as ProductBackend>::dense_embeddings_by_default(dtype));
        }
        assert!(<burn::backend::Flex as ProductBackend>::linear_2d_by_default());
    }

    #[test]
    fn the_three_forms_have_the_layers_shapes() {
        assert_eq!(Form::Forward.output([4, 6], [6, 5]), [4, 5]);
        assert_eq!(Form::InputGrad.output([4, 5], [6, 5]), [4, 6]);
        assert_eq!(Form::WeightGrad.output([4, 6], [4, 5]), [6, 5]);
        let device = Default::default();
        let a = Tensor::<burn::backend::Flex, 2>::random([4, 5], Distribution::Default, &device);
        let b = Tensor::<burn::backend::Flex, 2>::random([6, 5], Distribution::Default, &device);
        let y = burn_product::<burn::backend::Flex>(
            a.into_primitive().tensor(),
            b.into_primitive().tensor(),
            Form::InputGrad,
        );
        assert_eq!(
            Tensor::<burn::backend::Flex, 2>::from_primitive(TensorPrimitive::Float(y)).dims(),
            [4, 6]
        );
    }
}
