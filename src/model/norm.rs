//! LayerNorm with autocast's precision policy: statistics in f32 whatever the compute
//! dtype.
//!
//! Under mixed precision the model's weights (LayerNorm's scale and shift included) are
//! cast to half for the passes. PyTorch's autocast still runs `layer_norm` in f32, because
//! a mean and a variance over hundreds of half values lose digits (bf16 keeps 8 bits of
//! mantissa). oomlab does the same: the input, scale and shift are cast to f32, burn's
//! LayerNorm runs there, and the result goes back to the input's dtype for the next
//! matmul. In f32 runs nothing is cast. It costs memory: autodiff keeps f32 copies where
//! it kept half ones (`model.norm_in_f32 = false` turns it off; measured in
//! docs/results/2026-11-30-h200-issue12-smoke).

use burn::nn::LayerNorm;
use burn::prelude::*;
use burn::tensor::{DType, TensorPrimitive};

use super::{in_dtype, in_f32};

/// The epsilon of every LayerNorm in oomlab's models (burn's default).
pub const LAYER_NORM_EPSILON: f64 = 1e-5;

/// `norm(x)`: in f32 when `in_f32` (see [`norm_in_f32`]), else in `x`'s dtype.
pub fn layer_norm<B: Backend, const D: usize>(
    norm: &LayerNorm<B>,
    x: Tensor<B, D>,
    in_f32: bool,
) -> Tensor<B, D> {
    if in_f32 {
        norm_in_f32(norm, x)
    } else {
        norm.forward(x)
    }
}

/// `norm(x)` with the statistics in f32, returned in `x`'s dtype.
///
/// # Shapes
/// - x: `[..., d_model]`
/// - output: same as x
pub fn norm_in_f32<B: Backend, const D: usize>(
    norm: &LayerNorm<B>,
    x: Tensor<B, D>,
) -> Tensor<B, D> {
    let dtype = x.dtype();
    if dtype == DType::F32 && norm.gamma.val().dtype() == DType::F32 {
        return norm.forward(x);
    }
    let gamma = in_f32(norm.gamma.val()).into_primitive().tensor();
    let beta = norm
        .beta
        .as_ref()
        .map(|b| in_f32(b.val()).into_primitive().tensor());
    let y = Tensor::<B, D>::from_primitive(TensorPrimitive::Float(B::layer_norm(
        in_f32(x).into_primitive().tensor(),
        gamma,
        beta,
        LAYER_NORM_EPSILON,
    )));
    in_dtype(y, dtype)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::CpuBackend;
    use burn::nn::LayerNormConfig;

    #[test]
    fn in_f32_it_is_burns_layer_norm_and_in_half_it_keeps_the_input_dtype() {
        let device = Default::default();
        let norm = LayerNormConfig::new(8)
            .with_epsilon(LAYER_NORM_EPSILON)
            .init::<CpuBackend>(&device);
        let x = Tensor::<CpuBackend, 2>::random(
            [4, 8],
            burn::tensor::Distribution::Normal(3.0, 2.0),
            &device,
        );
        let plain = norm.forward(x.clone());
        let ours = norm_in_f32(&norm, x.clone());
        ours.clone()
            .into_data()
            .assert_approx_eq::<f32>(&plain.into_data(), Default::default());
        let half = x.cast(burn::tensor::FloatDType::BF16);
        let y = norm_in_f32(&norm, half);
        assert_eq!(y.dtype(), DType::BF16);
        // bf16 output of an f32 normalisation: within bf16's rounding of the f32 result.
        let back = y.cast(burn::tensor::FloatDType::F32);
        back.into_data()
            .assert_approx_eq::<f32>(&ours.into_data(), burn::tensor::Tolerance::absolute(0.05));
    }
}
