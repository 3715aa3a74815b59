//! LayerNorm over the rows of a matrix as burn's tensor operations: the CPU's path, the
//! path of dtypes without a kernel, and the reference every LayerNorm kernel is checked
//! against (super::norm_kernel chooses between them; super::norm is the autodiff
//! operation around both).
//!
//! Backward, with x̂ = (x − mean)·rstd and g = dy·γ, all in f32:
//! - dγ = Σ_rows dy·x̂, dβ = Σ_rows dy
//! - dx = rstd·(g − mean(g) − x̂·mean(g·x̂)), means over the normalised dimension
//!
//! The sums over rows (dγ, dβ) run in two stages (`column_sum`) where
//! [`crate::ops::LinearBackend::split_sums`] says so for x's dtype (f32 on CUDA, unless
//! `kernels.column_sums` says otherwise).

use burn::prelude::*;
use burn::tensor::DType;

use super::column_sum::column_sum;
use super::{in_dtype, in_f32};

/// Forward pass on the inner backend: statistics and normalisation in f32, the output in
/// x's dtype.
///
/// # Shapes
/// - x: `[rows, d]`; gamma, beta: `[d]`
/// - output: `[rows, d]`
pub fn forward_rows<B: Backend>(
    x: Tensor<B, 2>,
    gamma: Tensor<B, 1>,
    beta: Tensor<B, 1>,
    epsilon: f64,
) -> Tensor<B, 2> {
    let dtype = x.dtype();
    let xhat = normalised(in_f32(x), epsilon).0;
    let y = xhat * in_f32(gamma).unsqueeze_dim(0) + in_f32(beta).unsqueeze_dim(0);
    in_dtype(y, dtype)
}

/// x̂ = (x − mean)·rstd of an f32 matrix, and rstd.
///
/// # Shapes
/// - x: `[rows, d]`
/// - output: (`[rows, d]`, `[rows, 1]`)
fn normalised<B: Backend>(x: Tensor<B, 2>, epsilon: f64) -> (Tensor<B, 2>, Tensor<B, 2>) {
    let (var, mean) = x.clone().var_mean_bias(1);
    let rstd = var.add_scalar(epsilon).sqrt().recip();
    ((x - mean) * rstd.clone(), rstd)
}

/// Backward pass on the inner backend (see the module documentation): dx, dγ, dβ, each
/// in its input's dtype. The statistics are recomputed from x; dγ and dβ are summed in
/// two stages when `split_sum` (super::column_sum).
///
/// # Shapes
/// - x, grad: `[rows, d]`; gamma: `[d]`
/// - output: (`[rows, d]`, `[d]`, `[d]`)
pub fn backward_rows<B: Backend>(
    x: Tensor<B, 2>,
    gamma: Tensor<B, 1>,
    grad: Tensor<B, 2>,
    epsilon: f64,
    beta_dtype: DType,
    split_sum: bool,
) -> (Tensor<B, 2>, Tensor<B, 1>, Tensor<B, 1>) {
    let (x_dtype, gamma_dtype) = (x.dtype(), gamma.dtype());
    let (xhat, rstd) = normalised(in_f32(x), epsilon);
    let dy = in_f32(grad);
    let dgamma = column_sum(dy.clone() * xhat.clone(), split_sum);
    let dbeta = column_sum(dy.clone(), split_sum);
    let g = dy * in_f32(gamma).unsqueeze_dim(0);
    let g_mean = g.clone().mean_dim(1);
    let gx_mean = (g.clone() * xhat.clone()).mean_dim(1);
    let dx = (g - g_mean - xhat * gx_mean) * rstd;
    (
        in_dtype(dx, x_dtype),
        in_dtype(dgamma, gamma_dtype),
        in_dtype(dbeta, beta_dtype),
    )
}
