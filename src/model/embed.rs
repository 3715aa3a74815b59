//! The token and position embeddings' lookups, written so that their gradients are a
//! matrix product and a sum instead of a scatter.
//!
//! burn 0.21 computes an embedding's weight gradient with one scatter-add (`select_assign`)
//! of every token's gradient row into the table. With oomlab's 47-character vocabulary,
//! thousands of rows land on each table row, and on the H200 the two embeddings' scatters
//! took 7.3 ms of a 93.6 ms f32 step (docs/results/2026-11-30-h200-step-profile). Here:
//! - the token embedding's value is the plain lookup, with the table detached, plus
//!   `c - detach(c)` for `c = one_hot(ids) x table`: exactly zero in the forward pass, and
//!   the path the gradient takes, so the table's gradient is `one_hot(ids)^T x grad`, one
//!   matrix product; autodiff keeps the one-hot matrix (tokens x vocabulary);
//! - the position embedding is the table's first `seq_len` rows added to every sample
//!   (broadcast), so its gradient is a sum over the batch.
//! Forward values are the lookup's, bit for bit.

use burn::prelude::*;
use burn::tensor::module::embedding;
use burn::tensor::IndexingUpdateOp;

/// `table[ids]`, shape `[batch, seq, d_model]`, whose gradient reaches `table` through a
/// matrix product with the one-hot matrix of `ids`.
pub fn token_embedding<B: Backend>(table: Tensor<B, 2>, ids: Tensor<B, 2, Int>) -> Tensor<B, 3> {
    let [batch, seq] = ids.dims();
    let [vocab, d_model] = table.dims();
    let device = ids.device();
    let looked_up = embedding(table.clone().detach(), ids.clone());
    let rows = batch * seq;
    let one_hot = Tensor::<B, 2>::zeros([rows, vocab], &device)
        .cast(table.dtype())
        .scatter(
            1,
            ids.reshape([rows, 1]),
            Tensor::<B, 2>::ones([rows, 1], &device).cast(table.dtype()),
            IndexingUpdateOp::Add,
        );
    let carried = one_hot.matmul(table).reshape([batch, seq, d_model]);
    looked_up + (carried.clone() - carried.detach())
}

/// The first `seq` rows of `table` as `[1, seq, d_model]`, to be added to every sample.
pub fn position_embedding<B: Backend>(table: Tensor<B, 2>, seq: usize) -> Tensor<B, 3> {
    table.slice([0..seq]).unsqueeze_dim(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::CpuBackend as A;

    #[test]
    fn values_and_gradients_are_the_lookups() {
        let device = Default::default();
        let table = Tensor::<A, 2>::random(
            [5, 3],
            burn::tensor::Distribution::Normal(0.0, 1.0),
            &device,
        )
        .require_grad();
        let ids = Tensor::<A, 2, Int>::from_ints([[0, 4, 4, 1], [2, 4, 0, 0]], &device);
        let weights = Tensor::<A, 3>::random(
            [2, 4, 3],
            burn::tensor::Distribution::Normal(0.0, 1.0),
            &device,
        );

        let ours = token_embedding(table.clone(), ids.clone());
        let theirs = embedding(table.clone(), ids);
        ours.to_data().assert_eq(&theirs.to_data(), true);

        let g_ours = table
            .grad(&(ours * weights.clone()).sum().backward())
            .unwrap();
        let g_theirs = table.grad(&(theirs * weights).sum().backward()).unwrap();
        g_ours
            .to_data()
            .assert_approx_eq::<f32>(&g_theirs.to_data(), burn::tensor::Tolerance::default());
    }

    #[test]
    fn the_position_rows_broadcast_over_the_batch() {
        let device = Default::default();
        let table = Tensor::<A, 2>::from_floats([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], &device)
            .require_grad();
        let x = Tensor::<A, 3>::zeros([2, 2, 2], &device) + position_embedding(table.clone(), 2);
        x.clone().to_data().assert_eq(
            &TensorData::from([[[1.0f32, 2.0], [3.0, 4.0]], [[1.0, 2.0], [3.0, 4.0]]]),
            true,
        );
        let grad = table.grad(&x.sum().backward()).unwrap();
        grad.to_data().assert_eq(
            &TensorData::from([[2.0f32, 2.0], [2.0, 2.0], [0.0, 0.0]]),
            true,
        );
    }
}
