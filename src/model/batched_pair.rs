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

use super::ProductBackend;

/// Whether attention's backward pass hands its independent products to the backend in
/// pairs: what `kernels.attention_pairs` says, else the backend's default.
pub fn attention_pairs_together<B: ProductBackend>() -> bool {
    oomlab_kernels::chosen()
        .attention_pairs
        .unwrap_or_else(B::batched_pairs_together_by_default)
}

#[cfg(test)]
mod tests {
    use super::super::{Operand, Place, Rows, Span};
    use super::*;
    use crate::backend::CpuBackend;
    use burn::prelude::*;
    use burn::tensor::ops::FloatTensor;
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
