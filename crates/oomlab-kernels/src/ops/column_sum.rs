//! Sums over the rows of a matrix, in one stage or two (issue 29).
//!
//! A gradient that is summed over every token (LayerNorm's dγ and dβ, a linear layer's
//! bias) is a sum over the rows of a `[rows, d]` matrix. cubecl 0.10's reductions
//! (cubek-reduce 0.2, `routines/{unit,plane,cube}.rs`) give a reduction along a matrix's
//! first dimension one working unit (a thread, a plane or a cube, as tuned) per vector of
//! output columns: `d / vector size` of them (128 for 512 f32 columns in vectors of 4 on
//! the gpu config), each over all 16,384 rows, so most of the H200 stays idle. The
//! kernel profile of docs/results/2026-12-04-h200-embed-grad (the "before" logs, read by
//! kernel order) has the two such sums of each LayerNorm's backward pass at about 0.18 ms
//! each, where the row-wise reductions over the same matrices take about 0.05 ms.
//!
//! Split, the rows are cut `rows = m·k` and the matrix read as `[m, k·d]` (a view: the
//! rows are contiguous): the first sum has `k·d` outputs of `m` values each, the second
//! `d` outputs of `k` values. The order of the additions changes (the result differs in
//! the last bits), the arithmetic does not.
//!
//! On CUDA the f32 sums are split by default ([`crate::ops::ProductBackend::split_sums_by_default`]):
//! on the H200 (docs/results/2026-12-05-h200-step-levers) the gpu config's f32 step took
//! 63.3 ms split against 73.1, its final loss after 100 steps 1.1e-4 (relative) away and
//! its NVML peak 2 MiB higher. bf16's sums (AMP) stayed in one stage then: split, on
//! cubecl's products, the final loss moved by 1.5e-3 in one seed's run, over issue 29's
//! bound, and the peak rose by 32 MiB. On cuBLAS's products and oomlab's kernels
//! (docs/results/2026-12-06-h100-bf16-levers, H100s) split bf16 passed the seed rule both
//! ways on the gpu config (5.5e-4 from one stage's final loss on the mean over seeds 42 to
//! 46; the median step 40.8 ms against 41.1, no gain there) and took the h200 config's step
//! to 393.1 ms against 437.5 (`offsets-53f15b4/`), the NVML peaks the same: bf16's default
//! on CUDA since, pure bf16 included. f16 stays in one stage (not measured). On the CPU
//! every sum is in one stage. `kernels.column_sums=split` splits them all, `=one` none.

use burn::prelude::*;

/// What `kernels.column_sums` chooses (read once): `Some(true)` for `split`, `Some(false)`
/// for `one`, `None` (the backend's default for the dtype) otherwise.
pub fn split_setting() -> Option<bool> {
    crate::choices::chosen().column_sums
}

/// `(m, k)` with `m·k = rows` and `k` the largest divisor of `rows` not above √rows (1
/// for a prime count: one stage).
pub fn split(rows: usize) -> (usize, usize) {
    let mut k = 1;
    let mut i = 1;
    while i * i <= rows {
        if rows % i == 0 {
            k = i;
        }
        i += 1;
    }
    (rows / k.max(1), k)
}

/// Σ over the rows of `x`, in two stages when `split_sum` (see the module documentation).
///
/// # Shapes
/// - x: `[rows, d]`
/// - output: `[d]`
pub fn column_sum<B: Backend>(x: Tensor<B, 2>, split_sum: bool) -> Tensor<B, 1> {
    let [rows, d] = x.dims();
    let (m, k) = split(rows);
    if !split_sum || k == 1 {
        return x.sum_dim(0).reshape([d]);
    }
    x.reshape([m, k * d])
        .sum_dim(0)
        .reshape([k, d])
        .sum_dim(0)
        .reshape([d])
}

/// `y + bias` for every row of `y`. When `split_sum`, written so that autodiff's gradient
/// of `bias` (a sum over the broadcast dimensions, one after the other) runs in
/// [`column_sum`]'s two stages.
///
/// # Shapes
/// - y: `[rows, d]`
/// - bias: `[d]`
/// - output: `[rows, d]`
pub fn add_to_rows<B: Backend>(
    y: Tensor<B, 2>,
    bias: Tensor<B, 1>,
    split_sum: bool,
) -> Tensor<B, 2> {
    let [rows, d] = y.dims();
    let (m, k) = split(rows);
    if !split_sum || k == 1 {
        return y + bias.unsqueeze_dim(0);
    }
    (y.reshape([m, k, d]) + bias.reshape([1, 1, d])).reshape([rows, d])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_backend::CpuBackend;
    use burn::tensor::{Distribution, Tolerance};

    type B = CpuBackend;

    #[test]
    fn splits_into_two_factors_near_the_square_root() {
        assert_eq!(split(16_384), (128, 128));
        assert_eq!(split(8_192), (128, 64));
        assert_eq!(split(12), (4, 3));
        assert_eq!(split(13), (13, 1));
        assert_eq!(split(1), (1, 1));
        assert_eq!(split(0), (0, 1));
    }

    #[test]
    fn equals_the_one_stage_sum() {
        let device = Default::default();
        for rows in [1, 7, 12, 64, 96] {
            let x = Tensor::<B, 2>::random([rows, 5], Distribution::Normal(0.0, 1.0), &device);
            column_sum(x.clone(), true)
                .into_data()
                .assert_approx_eq::<f32>(
                    &x.sum_dim(0).reshape([5]).into_data(),
                    Tolerance::default(),
                );
        }
    }

    #[test]
    fn the_bias_gradient_is_the_column_sum_of_the_upstream_gradient() {
        for split_sum in [true, false] {
            bias_gradient(split_sum);
        }
    }

    fn bias_gradient(split_sum: bool) {
        let device = Default::default();
        let y = Tensor::<B, 2>::random([24, 3], Distribution::Default, &device);
        let bias = Tensor::<B, 1>::from_floats([1.0, -2.0, 0.5], &device).require_grad();
        let w = Tensor::<B, 2>::random([24, 3], Distribution::Default, &device);
        let out = add_to_rows(y.clone(), bias.clone(), split_sum);
        out.clone().into_data().assert_approx_eq::<f32>(
            &(y + bias.clone().unsqueeze_dim(0)).into_data(),
            Tolerance::default(),
        );
        let grads = (out * w.clone()).sum().backward();
        bias.grad(&grads)
            .unwrap()
            .into_data()
            .assert_approx_eq::<f32>(
                &w.inner().sum_dim(0).reshape([3]).into_data(),
                Tolerance::default(),
            );
    }
}
