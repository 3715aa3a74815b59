//! The linear layers' and attention's products on burn's fusion backend (burn's default
//! CUDA backend): each product, or pair of products, as one custom operation of fusion's,
//! so that the backend fusion wraps (cubecl's, with cuBLAS) gets it whole.

use burn::prelude::*;
use burn::tensor::ops::FloatTensor;
use burn::tensor::DType;

use super::fusion_op::{custom_op, Operands};
use super::product::{Form, ProductBackend};
use super::product_layout::{Operand, Place, Rows, Span};

/// burn's fusion backend: the products as custom operations of the backend it wraps
/// (super::fusion_op).
impl<B: burn_fusion::FusionBackend + ProductBackend> ProductBackend for burn_fusion::Fusion<B> {
    fn dense_embedding_grad() -> bool {
        B::dense_embedding_grad()
    }

    fn custom_products_by_default(dtype: DType) -> bool {
        B::custom_products_by_default(dtype)
    }

    fn linear_grads_together_by_default() -> bool {
        B::linear_grads_together_by_default()
    }

    fn linear_2d_by_default() -> bool {
        B::linear_2d_by_default()
    }

    fn split_sums_by_default(dtype: DType) -> bool {
        B::split_sums_by_default(dtype)
    }

    fn dense_embeddings_by_default(dtype: DType) -> bool {
        B::dense_embeddings_by_default(dtype)
    }

    fn batched_on_library(dtype: DType) -> bool {
        B::batched_on_library(dtype)
    }

    fn batched_product(
        a: FloatTensor<Self>,
        b: FloatTensor<Self>,
        span: Span,
        rows: Rows,
        alpha: f32,
    ) -> FloatTensor<Self> {
        fusion_batched::<B>(a, b, span, rows, alpha)
    }

    fn batched_product_into(
        a: FloatTensor<Self>,
        b: FloatTensor<Self>,
        span: Span,
        alpha: f32,
        whole: Option<FloatTensor<Self>>,
        place: Place,
    ) -> FloatTensor<Self> {
        fusion_batched_into::<B>(a, b, span, alpha, whole, place)
    }

    fn batched_pairs_together_by_default() -> bool {
        B::batched_pairs_together_by_default()
    }

    fn batched_into_and_new(
        first: Operand<Self>,
        whole: Option<FloatTensor<Self>>,
        place: Place,
        second: Operand<Self>,
        rows: Rows,
    ) -> (FloatTensor<Self>, FloatTensor<Self>) {
        fusion_into_and_new::<B>(first, whole, place, second, rows)
    }

    fn batched_into_twice(
        first: Operand<Self>,
        place: Place,
        second: Operand<Self>,
        second_at: usize,
        whole: Option<FloatTensor<Self>>,
    ) -> FloatTensor<Self> {
        fusion_into_twice::<B>(first, place, second, second_at, whole)
    }

    /// One custom operation of three inputs and two outputs, so that the wrapped backend
    /// gets both products at once.
    fn linear_grads(
        x: FloatTensor<Self>,
        grad: FloatTensor<Self>,
        w: FloatTensor<Self>,
    ) -> (FloatTensor<Self>, FloatTensor<Self>) {
        let dims = |s: &burn::tensor::Shape| [s[0], s[1]];
        let dw = Form::WeightGrad.output(dims(&x.shape), dims(&grad.shape));
        let dx = Form::InputGrad.output(dims(&grad.shape), dims(&w.shape));
        let dtype = grad.dtype;
        let [dw, dx] = custom_op::<B, LinearGrads, 3, 2>(
            "oomlab_linear_grads",
            [x, grad, w],
            [(dw.into(), dtype), (dx.into(), dtype)],
            LinearGrads,
        );
        (dw, dx)
    }

    fn product(a: FloatTensor<Self>, b: FloatTensor<Self>, form: Form) -> FloatTensor<Self> {
        let dims = |s: &burn::tensor::Shape| [s[0], s[1]];
        let shape = form.output(dims(&a.shape), dims(&b.shape));
        let dtype = a.dtype;
        let [out] = custom_op::<B, Form, 2, 1>(
            "oomlab_linear_product",
            [a, b],
            [(shape.into(), dtype)],
            form,
        );
        out
    }
}

/// burn's fusion backend: the batched product as a custom operation of the backend it
/// wraps (super::fusion_op).
pub(super) fn fusion_batched<B: burn_fusion::FusionBackend + ProductBackend>(
    a: FloatTensor<burn_fusion::Fusion<B>>,
    b: FloatTensor<burn_fusion::Fusion<B>>,
    span: Span,
    rows: Rows,
    alpha: f32,
) -> FloatTensor<burn_fusion::Fusion<B>> {
    let shape = [a.shape[0], span.count, a.shape[2], b.shape[3]];
    let op = BatchedOp { span, rows, alpha };
    let dtype = a.dtype;
    let [out] = custom_op::<B, BatchedOp, 2, 1>(
        "oomlab_batched_product",
        [a, b],
        [(shape.into(), dtype)],
        op,
    );
    out
}

/// burn's fusion backend: [`ProductBackend::batched_product_into`] as a custom operation
/// of the backend it wraps, of a, b and the whole output where there is one; whether the
/// whole output is the caller's alone is fusion's read-write status of it, whatever
/// `place.owned` says.
pub(super) fn fusion_batched_into<B: burn_fusion::FusionBackend + ProductBackend>(
    a: FloatTensor<burn_fusion::Fusion<B>>,
    b: FloatTensor<burn_fusion::Fusion<B>>,
    span: Span,
    alpha: f32,
    whole: Option<FloatTensor<burn_fusion::Fusion<B>>>,
    place: Place,
) -> FloatTensor<burn_fusion::Fusion<B>> {
    let shape = [a.shape[0], place.heads, a.shape[2], b.shape[3]];
    let op = IntoOp { span, alpha, place };
    let dtype = a.dtype;
    let output = [(shape.into(), dtype)];
    let [out] = match whole {
        None => custom_op::<B, IntoOp, 2, 1>("oomlab_batched_into", [a, b], output, op),
        Some(w) => custom_op::<B, IntoOp, 3, 1>("oomlab_batched_into", [a, b, w], output, op),
    };
    out
}

/// [`ProductBackend::batched_product_into`]'s settings, as fusion's custom operation.
#[derive(Debug, Clone, Copy)]
struct IntoOp {
    span: Span,
    alpha: f32,
    place: Place,
}

impl<B: ProductBackend> Operands<B, 2, 1> for IntoOp {
    fn run(self, [a, b]: [FloatTensor<B>; 2]) -> [FloatTensor<B>; 1] {
        [B::batched_product_into(
            a, b, self.span, self.alpha, None, self.place,
        )]
    }
}

impl<B: ProductBackend> Operands<B, 3, 1> for IntoOp {
    fn run(self, inputs: [FloatTensor<B>; 3]) -> [FloatTensor<B>; 1] {
        <Self as Operands<B, 3, 1>>::run_owned(self, inputs, [false; 3])
    }

    fn run_owned(
        self,
        [a, b, whole]: [FloatTensor<B>; 3],
        owned: [bool; 3],
    ) -> [FloatTensor<B>; 1] {
        let place = Place {
            owned: owned[2],
            ..self.place
        };
        [B::batched_product_into(
            a,
            b,
            self.span,
            self.alpha,
            Some(whole),
            place,
        )]
    }
}

/// [`ProductBackend::batched_product`]'s settings, as fusion's custom operation.
#[derive(Debug, Clone, Copy)]
struct BatchedOp {
    span: Span,
    rows: Rows,
    alpha: f32,
}

impl<B: ProductBackend> Operands<B, 2, 1> for BatchedOp {
    fn run(self, [a, b]: [FloatTensor<B>; 2]) -> [FloatTensor<B>; 1] {
        [B::batched_product(a, b, self.span, self.rows, self.alpha)]
    }
}

/// The output shape `[d0, heads, m, n]` of a product of `a` `[d0, _, m, _]` and `b`
/// `[d0, _, _, n]` of `heads` heads.
fn shape_of<B: burn_fusion::FusionBackend>(
    a: &FloatTensor<burn_fusion::Fusion<B>>,
    b: &FloatTensor<burn_fusion::Fusion<B>>,
    heads: usize,
) -> burn::tensor::Shape {
    [a.shape[0], heads, a.shape[2], b.shape[3]].into()
}

/// burn's fusion backend: [`ProductBackend::batched_into_and_new`] as one custom operation
/// of the backend it wraps (of the two products' operands and the whole output where
/// there is one; whether the whole is the caller's alone is fusion's read-write status of
/// it, whatever `place.owned` says).
pub(super) fn fusion_into_and_new<B: burn_fusion::FusionBackend + ProductBackend>(
    first: Operand<burn_fusion::Fusion<B>>,
    whole: Option<FloatTensor<burn_fusion::Fusion<B>>>,
    place: Place,
    second: Operand<burn_fusion::Fusion<B>>,
    rows: Rows,
) -> (
    FloatTensor<burn_fusion::Fusion<B>>,
    FloatTensor<burn_fusion::Fusion<B>>,
) {
    let outputs = [
        (
            shape_of::<B>(&first.a, &first.b, place.heads),
            first.a.dtype,
        ),
        (
            shape_of::<B>(&second.a, &second.b, second.span.count),
            second.a.dtype,
        ),
    ];
    let op = IntoAndNewOp {
        spans: [first.span, second.span],
        place,
        rows,
    };
    let name = "oomlab_batched_into_and_new";
    let [whole, new] = match whole {
        None => custom_op::<B, IntoAndNewOp, 4, 2>(
            name,
            [first.a, first.b, second.a, second.b],
            outputs,
            op,
        ),
        Some(w) => custom_op::<B, IntoAndNewOp, 5, 2>(
            name,
            [first.a, first.b, second.a, second.b, w],
            outputs,
            op,
        ),
    };
    (whole, new)
}

/// burn's fusion backend: [`ProductBackend::batched_into_twice`] as one custom operation of
/// the backend it wraps (as [`fusion_into_and_new`]).
pub(super) fn fusion_into_twice<B: burn_fusion::FusionBackend + ProductBackend>(
    first: Operand<burn_fusion::Fusion<B>>,
    place: Place,
    second: Operand<burn_fusion::Fusion<B>>,
    second_at: usize,
    whole: Option<FloatTensor<burn_fusion::Fusion<B>>>,
) -> FloatTensor<burn_fusion::Fusion<B>> {
    let outputs = [(
        shape_of::<B>(&first.a, &first.b, place.heads),
        first.a.dtype,
    )];
    let op = IntoTwiceOp {
        spans: [first.span, second.span],
        place,
        second_at,
    };
    let name = "oomlab_batched_into_twice";
    let [whole] = match whole {
        None => custom_op::<B, IntoTwiceOp, 4, 1>(
            name,
            [first.a, first.b, second.a, second.b],
            outputs,
            op,
        ),
        Some(w) => custom_op::<B, IntoTwiceOp, 5, 1>(
            name,
            [first.a, first.b, second.a, second.b, w],
            outputs,
            op,
        ),
    };
    whole
}

/// The pair of a custom operation's first four inputs (a, b, c, d: a·b and c·d of `spans`).
fn pair<B: Backend>(
    spans: [Span; 2],
    [a, b, c, d]: [FloatTensor<B>; 4],
) -> (Operand<B>, Operand<B>) {
    let first = Operand {
        a,
        b,
        span: spans[0],
    };
    let second = Operand {
        a: c,
        b: d,
        span: spans[1],
    };
    (first, second)
}

/// A custom operation's five inputs split into the pair's four and the whole output, and
/// `place` told whether the whole is the caller's alone (fusion's read-write status).
fn with_whole<B: Backend>(
    [a, b, c, d, whole]: [FloatTensor<B>; 5],
    owned: [bool; 5],
    place: Place,
) -> ([FloatTensor<B>; 4], Option<FloatTensor<B>>, Place) {
    let place = Place {
        owned: owned[4],
        ..place
    };
    ([a, b, c, d], Some(whole), place)
}

/// [`ProductBackend::batched_into_and_new`]'s settings, as fusion's custom operation.
#[derive(Debug, Clone, Copy)]
struct IntoAndNewOp {
    spans: [Span; 2],
    place: Place,
    rows: Rows,
}

impl IntoAndNewOp {
    fn run_on<B: ProductBackend>(
        self,
        (inputs, whole, place): ([FloatTensor<B>; 4], Option<FloatTensor<B>>, Place),
    ) -> [FloatTensor<B>; 2] {
        let (first, second) = pair(self.spans, inputs);
        let (whole, new) = B::batched_into_and_new(first, whole, place, second, self.rows);
        [whole, new]
    }
}

impl<B: ProductBackend> Operands<B, 4, 2> for IntoAndNewOp {
    fn run(self, inputs: [FloatTensor<B>; 4]) -> [FloatTensor<B>; 2] {
        self.run_on::<B>((inputs, None, self.place))
    }
}

impl<B: ProductBackend> Operands<B, 5, 2> for IntoAndNewOp {
    fn run(self, inputs: [FloatTensor<B>; 5]) -> [FloatTensor<B>; 2] {
        <Self as Operands<B, 5, 2>>::run_owned(self, inputs, [false; 5])
    }

    fn run_owned(self, inputs: [FloatTensor<B>; 5], owned: [bool; 5]) -> [FloatTensor<B>; 2] {
        self.run_on::<B>(with_whole::<B>(inputs, owned, self.place))
    }
}

/// [`ProductBackend::batched_into_twice`]'s settings, as fusion's custom operation.
#[derive(Debug, Clone, Copy)]
struct IntoTwiceOp {
    spans: [Span; 2],
    place: Place,
    second_at: usize,
}

impl IntoTwiceOp {
    fn run_on<B: ProductBackend>(
        self,
        (inputs, whole, place): ([FloatTensor<B>; 4], Option<FloatTensor<B>>, Place),
    ) -> [FloatTensor<B>; 1] {
        let (first, second) = pair(self.spans, inputs);
        [B::batched_into_twice(
            first,
            place,
            second,
            self.second_at,
            whole,
        )]
    }
}

impl<B: ProductBackend> Operands<B, 4, 1> for IntoTwiceOp {
    fn run(self, inputs: [FloatTensor<B>; 4]) -> [FloatTensor<B>; 1] {
        self.run_on::<B>((inputs, None, self.place))
    }
}

impl<B: ProductBackend> Operands<B, 5, 1> for IntoTwiceOp {
    fn run(self, inputs: [FloatTensor<B>; 5]) -> [FloatTensor<B>; 1] {
        <Self as Operands<B, 5, 1>>::run_owned(self, inputs, [false; 5])
    }

    fn run_owned(self, inputs: [FloatTensor<B>; 5], owned: [bool; 5]) -> [FloatTensor<B>; 1] {
        self.run_on::<B>(with_whole::<B>(inputs, owned, self.place))
    }
}

/// A linear layer's two gradient products as one fusion custom operation
/// ([`ProductBackend::linear_grads`]).
#[derive(Debug, Clone, Copy)]
struct LinearGrads;

impl<B: ProductBackend> Operands<B, 3, 2> for LinearGrads {
    fn run(self, [x, grad, w]: [FloatTensor<B>; 3]) -> [FloatTensor<B>; 2] {
        let (dw, dx) = B::linear_grads(x, grad, w);
        [dw, dx]
    }
}

/// A linear layer's product as fusion's custom operation (super::fusion_op).
impl<B: ProductBackend> Operands<B, 2, 1> for Form {
    fn run(self, [a, b]: [FloatTensor<B>; 2]) -> [FloatTensor<B>; 1] {
        [B::product(a, b, self)]
    }
}
