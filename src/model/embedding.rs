//! The token embedding with its gradient as a matrix product (issue 29).
//!
//! burn 0.21's embedding gradient is `select_assign` into a zero table: on CUDA its kernel
//! runs one thread per column of the table (512 threads on the gpu config), each adding
//! all 16,384 rows of the batch one after another. The committed profile
//! (docs/results/2026-11-30-h200-step-profile) has that kernel at 7.3 ms of a 93.6 ms f32
//! step in 2 launches; the earlier try below found one of them (4.0 ms) not an
//! embedding's.
//!
//! Here the gradient of the table is onehot(tokens)ᵀ·dY, `[vocab, n]·[n, d]`, on the
//! backend's matrix product ([`ProductBackend::product`], cuBLAS where that is on): for a
//! character vocabulary (oomlab's is 47) that is a small product; the one-hot matrix
//! (`n × vocab` in dY's dtype) lives only during the backward pass. The forward pass is
//! burn's gather, as before; the operation keeps the indices and the table's row count
//! (burn's keeps the table itself).
//!
//! An earlier try (docs/results/2026-12-04-h200-embed-grad, reverted: no gain beyond the
//! noise of one sample) got the same gradient with `c − detach(c)`, `c` = onehot·table:
//! a product and element-wise kernels more in every forward pass. This operation adds
//! nothing to the forward pass.
//!
//! Where it runs: where [`EmbeddingBackend::dense_embeddings`] says so for the table's
//! dtype (on CUDA for f32 and bf16 by default, `kernels.embedding_grad=dense` or `=scatter`
//! says otherwise), on backends whose [`ProductBackend::dense_embedding_grad`] says the product
//! pays (CUDA; on the CPU the product's `vocab` times more arithmetic would not), for
//! vocabularies of at most [`MAX_DENSE_VOCAB`] tokens. The position embedding then needs
//! none of it ([`embed`]): every sequence starts at position 0, so the model adds the
//! table's first `seq_len` rows to each, and the gradient is a sum over the batch.
//!
//! Measured: on cubecl's products (docs/results/2026-12-04-h200-cublas-oom) the `gpu`
//! config's f32 step 4.3 ms faster, AMP bf16 level. With f32's products on cuBLAS and the
//! split column sums (docs/results/2026-12-05-h100-new-defaults, an H100) the f32 step took
//! 62.3 ms against 70.9, the final loss after 100 steps 3.3e-4 (relative) away, the NVML
//! peak the same, 4 kernels more to compile on top of the shipped pack: the default for
//! f32 on CUDA since. For AMP bf16 on cuBLAS's products (an H100, the `gpu` config,
//! docs/results/2026-12-06-h100-bf16-levers, seeds 42 to 46, 100 steps each) the median
//! step took 34.3 ms against 41.1, the final loss 9.2e-4 from the scatter's on the mean
//! over the seeds (within issue 29's 1e-3), the NVML peak the same; on the `h200` config
//! 482.9 ms against the scatter's 533.4 (`h200-39652be/`): bf16's default on CUDA since,
//! pure bf16 (`half-bf16`) included, which had no seed runs of its own. f16 keeps the
//! scatter: not measured.

use burn::backend::autodiff::checkpoint::base::Checkpointer;
use burn::backend::autodiff::checkpoint::strategy::CheckpointStrategy;
use burn::backend::autodiff::grads::Gradients;
use burn::backend::autodiff::ops::{Backward, Ops, OpsKind};
use burn::backend::Autodiff;
use burn::nn::Embedding;
use burn::prelude::*;
use burn::tensor::ops::{FloatTensor, IntTensor};
use burn::tensor::{DType, FloatDType, TensorMetadata, TensorPrimitive};

use super::{Form, ProductBackend};

/// The largest vocabulary whose gradient runs as a product: the one-hot matrix is
/// `tokens × vocab` elements for the backward pass (16,384 × 512 f32, 32 MiB, on the gpu
/// config's batch).
pub const MAX_DENSE_VOCAB: usize = 512;

/// What `kernels.embedding_grad` chooses (read once): `Some(true)` for `dense`,
/// `Some(false)` for `scatter`, `None` otherwise.
fn dense_setting() -> Option<bool> {
    oomlab_kernels::chosen().embedding_grad
}

/// A backend that can run [`embed`]'s operation: every autodiff backend over a
/// [`ProductBackend`].
pub trait EmbeddingBackend: Backend {
    /// Whether the gradient as a product pays on this backend.
    fn dense_embedding_grad() -> bool;

    /// Whether [`embed`] takes its dense path for a table of `dtype`: as
    /// `kernels.embedding_grad` says, else as [`ProductBackend::dense_embeddings_by_default`].
    fn dense_embeddings(dtype: DType) -> bool;

    /// The rows of `weights` the indices name, with the table's gradient as
    /// onehot(indices)ᵀ·dY.
    ///
    /// # Shapes
    /// - weights: `[vocab, d]`
    /// - indices: `[n]`
    /// - output: `[n, d]`
    fn embedding_dense_grad(
        weights: FloatTensor<Self>,
        indices: IntTensor<Self>,
    ) -> FloatTensor<Self>;
}

impl<B: ProductBackend, C: CheckpointStrategy> EmbeddingBackend for Autodiff<B, C> {
    fn dense_embedding_grad() -> bool {
        B::dense_embedding_grad()
    }

    fn dense_embeddings(dtype: DType) -> bool {
        dense_setting().unwrap_or_else(|| B::dense_embeddings_by_default(dtype))
    }

    fn embedding_dense_grad(
        weights: FloatTensor<Self>,
        indices: IntTensor<Self>,
    ) -> FloatTensor<Self> {
        #[derive(Debug)]
        struct DenseGrad;

        impl<B: ProductBackend> Backward<B, 1> for DenseGrad {
            /// The indices and the table's row count.
            type State = (IntTensor<B>, usize);

            fn backward(
                self,
                ops: Ops<Self::State, 1>,
                grads: &mut Gradients,
                _checkpointer: &mut Checkpointer,
            ) {
                let [node] = ops.parents;
                let grad = grads.consume::<B>(&ops.node);
                let (indices, vocab) = ops.state;
                if let Some(node) = node {
                    grads.register::<B>(node.id, table_grad::<B>(grad, indices, vocab));
                }
            }
        }

        let vocab = weights.primitive.shape()[0];
        let rows = |w: FloatTensor<B>, i: IntTensor<B>| {
            let d = w.shape()[1];
            let n = i.shape()[0];
            B::float_reshape(
                B::embedding(w, B::int_reshape(i, [1, n].into())),
                [n, d].into(),
            )
        };
        match DenseGrad
            .prepare::<C>([weights.node.clone()])
            .compute_bound()
            .stateful()
        {
            OpsKind::Tracked(prep) => {
                prep.finish((indices.clone(), vocab), rows(weights.primitive, indices))
            }
            OpsKind::UnTracked(prep) => prep.finish(rows(weights.primitive, indices)),
        }
    }
}

/// onehot(indices)ᵀ·grad: `[vocab, d]` from grad `[n, d]` and indices `[n]`.
fn table_grad<B: ProductBackend>(
    grad: FloatTensor<B>,
    indices: IntTensor<B>,
    vocab: usize,
) -> FloatTensor<B> {
    let grad = Tensor::<B, 2>::from_primitive(TensorPrimitive::Float(grad));
    let indices = Tensor::<B, 1, Int>::from_primitive(indices);
    let n = indices.dims()[0];
    let classes = Tensor::<B, 1, Int>::arange(0..vocab as i64, &indices.device());
    let one_hot = indices
        .reshape([n, 1])
        .expand([n, vocab])
        .equal(classes.reshape([1, vocab]).expand([n, vocab]))
        .float()
        .cast(FloatDType::from(grad.dtype()));
    B::product(
        one_hot.into_primitive().tensor(),
        grad.into_primitive().tensor(),
        Form::WeightGrad,
    )
}

/// The token rows plus the position rows of a batch of sequences that each start at
/// position 0.
///
/// Where [`EmbeddingBackend::dense_embeddings`] says no: burn's two embeddings, the positions repeated
/// for every sequence (both gradients burn's scatter), the operations in the order the
/// shipped autotune results and kernels were measured with. Where it says yes: the token rows by
/// [`EmbeddingBackend::embedding_dense_grad`] (where the backend says it pays and the
/// vocabulary is at most [`MAX_DENSE_VOCAB`]) and the position table's first `seq_len`
/// rows added to every sequence by broadcasting (its gradient a sum over the batch).
///
/// # Shapes
/// - inputs: `[batch, seq_len]`
/// - output: `[batch, seq_len, d]`
pub fn embed<B: EmbeddingBackend>(
    tokens: &Embedding<B>,
    positions: &Embedding<B>,
    inputs: Tensor<B, 2, Int>,
) -> Tensor<B, 3> {
    let [batch, seq_len] = inputs.dims();
    if !B::dense_embeddings(tokens.weight.val().dtype()) {
        let device = inputs.device();
        let ids = Tensor::<B, 1, Int>::arange(0..seq_len as i64, &device)
            .reshape([1, seq_len])
            .repeat_dim(0, batch);
        return tokens.forward(inputs) + positions.forward(ids);
    }
    let [vocab, d] = tokens.weight.dims();
    let rows = if B::dense_embedding_grad() && vocab <= MAX_DENSE_VOCAB {
        let rows = B::embedding_dense_grad(
            tokens.weight.val().into_primitive().tensor(),
            inputs.reshape([batch * seq_len]).into_primitive(),
        );
        Tensor::<B, 2>::from_primitive(TensorPrimitive::Float(rows)).reshape([batch, seq_len, d])
    } else {
        tokens.forward(inputs)
    };
    rows + positions
        .weight
        .val()
        .narrow(0, 0, seq_len)
        .unsqueeze_dim::<3>(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::CpuBackend;
    use burn::nn::EmbeddingConfig;
    use burn::tensor::Distribution;

    type B = CpuBackend;

    #[test]
    fn the_dense_gradient_equals_burns_scatter() {
        let device = Default::default();
        let layer = EmbeddingConfig::new(7, 5).init::<B>(&device);
        // Repeated ids (3 three times, 0 three times) and ids never used (2, 4, 5).
        let ids = Tensor::<B, 2, Int>::from_data([[0, 3, 3, 6], [1, 3, 0, 0]], &device);
        let upstream = Tensor::<B, 3>::random([2, 4, 5], Distribution::Default, &device);
        let rows = B::embedding_dense_grad(
            layer.weight.val().into_primitive().tensor(),
            ids.clone().reshape([8]).into_primitive(),
        );
        let ours = Tensor::<B, 2>::from_primitive(TensorPrimitive::Float(rows)).reshape([2, 4, 5]);
        let theirs = layer.forward(ids);
        ours.to_data()
            .assert_approx_eq::<f32>(&theirs.to_data(), burn::tensor::Tolerance::default());
        let g1 = (ours * upstream.clone()).sum().backward();
        let g2 = (theirs * upstream).sum().backward();
        let dw = |g: &_| layer.weight.val().grad(g).unwrap();
        let (d1, d2) = (dw(&g1), dw(&g2));
        assert!(d2.clone().abs().sum().into_scalar() > 0.0);
        d1.to_data()
            .assert_approx_eq::<f32>(&d2.to_data(), burn::tensor::Tolerance::default());
    }
}
