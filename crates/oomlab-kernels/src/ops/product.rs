//! A linear layer's matrix products, and attention's batched ones, as operations of the
//! backend, so that each backend runs them with its best library: on CUDA, cuBLAS,
//! everywhere else burn's own matmul.
//!
//! A linear layer's three products, for x `[m, k]`, W `[k, n]` and dY `[m, n]`
//! ([`Form`]): the forward pass's y = x·W, and the backward pass's dX = dY·Wᵀ and
//! dW = xᵀ·dY.
//!
//! Why it exists: on the H200, for these shapes, cuBLAS's kernels take a fraction of
//! cubecl 0.10's matmul time, and a product with the two host syncs cubecl's private
//! stream forces around each call is still faster than cubecl's, measured alone
//! (docs/results/2026-12-04-h200-gemm-handshake, the crate's benches/gemm_handshake.rs).
//!
//! The backends: [`ProductBackend`] has burn's matmul as its default (the CPU's path, and
//! the reference every custom product is tested against); the CUDA backend
//! (`CubeBackend<CudaRuntime>`) overrides it with [`crate::cuda::cublas`] where the
//! library loads and the dtype has a cuBLAS type, and burn's fusion backend passes the
//! operation through to the backend it wraps as a custom operation
//! (super::product_fusion). The autodiff operation over them, a linear layer whose
//! backward pass calls these products, is the model's.

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
    /// as one operation: the model's `linear`'s backward pass calls it where
    /// [`linear_grads_together`] says so (else [`linear_grads_apart`]). By default two
    /// [`Self::product`]s; a backend may run both behind one ordering of its library's
    /// stream (cuBLAS: one handshake instead of two, crate::cuda::cublas).
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

    /// Whether the model's `linear` takes the custom product for inputs of `dtype` when
    /// `kernels.linear_products` is unset: not by default (burn's `Linear` then runs, as it always
    /// did on the CPU).
    fn custom_products_by_default(_dtype: DType) -> bool {
        false
    }

    /// Whether the model's `linear` runs its `linear_2d` (where the custom product does not run) when
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
    /// (the model's `Joined` gathers attention's groups of
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

/// What `kernels.attention_products` asks for (read once: a run's graph does not change
/// halfway): `Some(true)` for `cublas`, `Some(false)` for `burn`, `None` otherwise.
pub fn batched_setting() -> Option<bool> {
    crate::choices::chosen().attention_products
}

/// What `kernels.linear_products` asks for (read once): `Some(true)` for `1`, `Some(false)` for
/// `0`, `None` (the backend's default) when unset or anything else.
pub fn custom_products_setting() -> Option<bool> {
    crate::choices::chosen().linear_products
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
    crate::choices::chosen()
        .linear_grads
        .unwrap_or_else(B::linear_grads_together_by_default)
}

/// What `kernels.linear` asks for (read once): `Some(true)` for `2d`, `Some(false)` for
/// `burn`, `None` (the backend's default) when unset or anything else.
pub fn linear_setting() -> Option<bool> {
    crate::choices::chosen().linear
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
    use burn::tensor::Distribution;

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
