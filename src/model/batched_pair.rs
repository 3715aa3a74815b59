//! Two of attention's batched products that do not depend on each other as one operation of
//! the backend's, so that on CUDA both cuBLAS calls go behind one handshake with cubecl's
//! stream instead of one each (as a linear layer's dW and dX do, super::product's
//! `linear_grads`).
//!
//! The backward pass has two such pairs in each group of heads
//! (super::attention::efficient's `backward_into`): dV = Pᵀ·dO (into its heads of the
//! joined gradient) with dP = dO·Vᵀ (a tensor of its own, softmax's gradient reads it), and
//! dQ = dS·K with dK = dSᵀ·Q (both into the joined gradient, the packed Q, K, V's where
//! the model packs them). [`Joined::product_and`](super::Joined::product_and) and
//! [`Joined::products`](super::Joined::products) hand them to the backend as pairs where
//! [`attention_pairs_together`] says so and the products run on the backend's library;
//! elsewhere each is the operation it was before.
//!
//! Why: on an H100 the `gpu` config's AMP bf16 step is bound by the host, and each
//! handshake costs cubecl's device thread two kernel launches of the fence and the
//! thread that queues the products a custom operation's registration; the linear layers'
//! pairs took the step from 29.9 ms to 28.2 (docs/results/2026-12-06-h100-grads-together).
//!
//! Measured on an H100 (docs/results/2026-12-06-h100-attention-pairs, `gpu-248382e-r3/`,
//! 3 runs each, interleaved, the pairs asked for with `kernels.attention_pairs=together`
//! before they became CUDA's default): the `gpu` config's AMP bf16 step 28.1 ms against
//! 29.0 one handshake each (0.967x; the runs' ranges overlap, and the call before gave
//! 27.8 against 29.3), f32's 37.2 either way; the final losses the same bits, the NVML
//! peaks the same. The forced-groups test of tests/gpu/batched.rs passed with them (the
//! pairs counted, the packed gradient equal to the three side by side). The CPU tests
//! below hold the backend's default pair operations to the products.

use burn::tensor::backend::Backend;
use burn::tensor::ops::FloatTensor;

use super::batched::{Place, Rows, Span};
use super::fusion_op::{custom_op, Operands};
use super::ProductBackend;

/// Whether attention's backward pass hands its independent products to the backend in
/// pairs: what [`ATTENTION_PAIRS_ENV`] says (read once), else the backend's default.
pub fn attention_pairs_together<B: ProductBackend>() -> bool {
    crate::model::kernels()
        .attention_pairs
        .choice()
        .unwrap_or_else(B::batched_pairs_together_by_default)
}

/// One product of a pair: a·b of `span`'s heads of two 4-D tensors (the factor is 1), as
/// [`ProductBackend::batched_product`] takes it.
pub struct Operand<B: Backend> {
    /// The left operand, `[d0, ≥ span.a + span.count, m, k]`.
    pub a: FloatTensor<B>,
    /// The right operand, `[d0, ≥ span.b + span.count, k, n]`.
    pub b: FloatTensor<B>,
    /// The heads taken of each.
    pub span: Span,
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
pub fn fusion_into_and_new<B: burn_fusion::FusionBackend + ProductBackend>(
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
pub fn fusion_into_twice<B: burn_fusion::FusionBackend + ProductBackend>(
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::CpuBackend;
    use burn::prelude::*;
    use burn::tensor::{Distribution, TensorPrimitive};

    /// The CPU's backend under autodiff, where the product backends sit.
    type B = <CpuBackend as burn::tensor::backend::AutodiffBackend>::InnerBackend;

    fn random(shape: [usize; 4]) -> Tensor<B, 4> {
        Tensor::random(shape, Distribution::Default, &Default::default())
    }

    fn tensor(p: FloatTensor<B>) -> Tensor<B, 4> {
        Tensor::from_primitive(TensorPrimitive::Float(p))
    }

    fn operand(a: &Tensor<B, 4>, b: &Tensor<B, 4>, span: Span) -> Operand<B> {
        Operand {
            a: a.clone().into_primitive().tensor(),
            b: b.clone().into_primitive().tensor(),
            span,
        }
    }

    /// Heads `start..start + count` of `t`.
    fn heads(t: &Tensor<B, 4>, start: usize, count: usize) -> Tensor<B, 4> {
        t.clone().narrow(1, start, count)
    }

    #[test]
    fn a_pair_into_a_whole_and_a_new_tensor_gives_both_products() {
        // Heads 1..3 of a·b into heads 2..4 of a whole of 5 (made by the first product),
        // and heads 0..2 of c with heads 1..3 of d as a tensor of its own.
        let (a, b) = (random([2, 4, 3, 5]), random([2, 4, 5, 6]));
        let (c, d) = (random([2, 3, 4, 3]), random([2, 3, 3, 2]));
        let first = operand(
            &a,
            &b,
            Span {
                a: 1,
                b: 1,
                count: 2,
            },
        );
        let second = operand(
            &c,
            &d,
            Span {
                a: 0,
                b: 1,
                count: 2,
            },
        );
        let place = Place {
            heads: 5,
            at: 2,
            owned: true,
        };
        for rows in [Rows::Heads, Rows::Tokens] {
            let (whole, new) = <B as ProductBackend>::batched_into_and_new(
                operand(&a, &b, first.span),
                None,
                place,
                operand(&c, &d, second.span),
                rows,
            );
            let (whole, new) = (tensor(whole), tensor(new));
            assert_eq!(whole.dims(), [2, 5, 3, 6]);
            assert_eq!(
                heads(&whole, 2, 2).into_data(),
                heads(&a, 1, 2).matmul(heads(&b, 1, 2)).into_data()
            );
            assert_eq!(
                new.into_data(),
                heads(&c, 0, 2).matmul(heads(&d, 1, 2)).into_data(),
                "{rows:?}"
            );
        }
    }

    #[test]
    fn a_pair_into_one_whole_writes_each_product_into_its_heads() {
        // dQ's and dK's way in the packed gradient: heads 0..2 and 4..6 of a whole of 6,
        // into a given whole (its other heads kept) and into a new one.
        let (a, b) = (random([2, 2, 3, 4]), random([2, 2, 4, 5]));
        let (c, d) = (random([2, 2, 3, 4]), random([2, 2, 4, 5]));
        let given = random([2, 6, 3, 5]);
        for whole in [Some(given.clone()), None] {
            let place = Place {
                heads: 6,
                at: 0,
                owned: true,
            };
            let out = tensor(<B as ProductBackend>::batched_into_twice(
                operand(&a, &b, Span::all(2)),
                place,
                operand(&c, &d, Span::all(2)),
                4,
                whole.clone().map(|w| w.into_primitive().tensor()),
            ));
            assert_eq!(out.dims(), [2, 6, 3, 5]);
            assert_eq!(
                heads(&out, 0, 2).into_data(),
                a.clone().matmul(b.clone()).into_data()
            );
            assert_eq!(
                heads(&out, 4, 2).into_data(),
                c.clone().matmul(d.clone()).into_data()
            );
            if let Some(given) = whole {
                assert_eq!(
                    heads(&out, 2, 2).into_data(),
                    heads(&given, 2, 2).into_data()
                );
            }
        }
    }

    #[test]
    fn off_a_library_the_pairs_are_apart_by_default() {
        assert!(!<B as ProductBackend>::batched_pairs_together_by_default());
    }
}
