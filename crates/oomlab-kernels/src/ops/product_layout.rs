//! Where a batched product's operands and output lie: the heads each operand takes, where
//! an output goes in a tensor of all the heads, how it is stored. Plain descriptions that
//! the model's attention, the backend trait and its implementations all read.

use burn::prelude::*;
use burn::tensor::ops::FloatTensor;

/// How a batched product's output `[d0, d1, rows, cols]` is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rows {
    /// Contiguous `[d0, d1, rows, cols]`.
    Heads,
    /// `[d0, rows, d1, cols]` storage seen as `[d0, d1, rows, cols]`: attention's dQ, dK
    /// and dV, which the model turns back into `[batch, seq, d_model]` (a swap of the
    /// middle dimensions and a reshape, then free of copies).
    Tokens,
}

/// Where each operand's heads start in its tensor (dimension 1), and how many a batched
/// product takes: [`crate::ops::ProductBackend::batched_product`]'s operands are the whole tensors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    /// a's first head.
    pub a: usize,
    /// b's first head.
    pub b: usize,
    /// How many heads.
    pub count: usize,
}

impl Span {
    /// Every one of `count` heads of both operands.
    pub fn all(count: usize) -> Span {
        Span { a: 0, b: 0, count }
    }
}

/// Where [`crate::ops::ProductBackend::batched_product_into`] writes a product of `count` heads: as
/// heads `at..at + count` of a `[d0, heads, m, n]` tensor stored as `[d0, m, heads, n]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    /// The whole output's heads.
    pub heads: usize,
    /// The first head written.
    pub at: usize,
    /// Whether the caller's tensor is the only one sharing the whole output's buffer, so
    /// that a backend may write into it (else it copies it first).
    pub owned: bool,
}

/// One product of a pair: a·b of `span`'s heads of two 4-D tensors (the factor is 1), as
/// [`crate::ops::ProductBackend::batched_product`] takes it.
pub struct Operand<B: Backend> {
    /// The left operand, `[d0, ≥ span.a + span.count, m, k]`.
    pub a: FloatTensor<B>,
    /// The right operand, `[d0, ≥ span.b + span.count, k, n]`.
    pub b: FloatTensor<B>,
    /// The heads taken of each.
    pub span: Span,
}

/// Heads `start..start + count` of `t` (`t` itself when that is all of them).
pub fn narrow_heads<B: Backend>(t: Tensor<B, 4>, start: usize, count: usize) -> Tensor<B, 4> {
    if start == 0 && count == t.dims()[1] {
        t
    } else {
        t.narrow(1, start, count)
    }
}
