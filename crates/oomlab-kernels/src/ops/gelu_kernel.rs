//! The feed-forward layer's bias and GELU (super::gelu's operation) as a backend choice:
//! on CUDA one kernel of oomlab's each way (crate::cuda's gelu_kernels module), by default
//! for f32 and bf16 (`kernels.gelu=kernel` for every dtype, `=burn` for none); elsewhere burn's tensor
//! operations ([`burn_bias_gelu`], [`burn_bias_gelu_backward`]) (issue 29).
//!
//! Why: as tensor operations the bias and GELU of the gpu config's first feed-forward
//! product, a `[16384, 2048]` f32 matrix (128 MiB), took two element-wise kernels of about
//! 170 µs each in the forward pass and one of about 265 µs in the backward pass on the H200
//! (the f32 kernel profile of docs/results/2026-12-06-h200-row-kernels, `rowk`, read in
//! launch order), 8 layers a step. The forward pass reads the product and writes the
//! activation once; the backward pass reads the product and dz and writes dy once.
//!
//! Measured on an H100 (docs/results/2026-12-06-h100-gelu-kernels, paired with PyTorch in
//! one script run): the gpu config's f32 step 0.943x the defaults' then, its final loss
//! after 100 steps 1.3e-4 (relative) from theirs, the NVML peak unchanged. AMP bf16 stepped
//! 0.938x, but its final loss moved by 1.4e-3 in that one run (seed 42), over issue 29's
//! 1e-3. bf16 runs on the kernels by default since docs/results/2026-12-06-h100-bf16-kernels
//! judged them, with the softmax and LayerNorm kernels, over five seeds: that folder's
//! README has the figures, crate::cuda's plane_rows module the rule in one place.

use burn::prelude::*;
use burn::tensor::activation::gelu;
use burn::tensor::ops::FloatTensor;
use burn::tensor::{DType, TensorPrimitive};

use super::column_sum::add_to_rows;
use super::fusion_op::{custom_op, Operands};

/// What `kernels.gelu` asks for (read once: a run's graph does not change halfway):
/// `Some(true)` for `kernel`, `Some(false)` for `burn`, `None` otherwise.
pub fn gelu_setting() -> Option<bool> {
    crate::choices::chosen().gelu
}

/// A backend's z = gelu(y + b) over the rows of a matrix, with burn's GELU and burn's
/// gradient of it. The defaults are burn's tensor operations.
pub trait GeluKernelBackend: Backend {
    /// Whether [`Self::bias_gelu`] and [`Self::bias_gelu_backward`] are kernels of the
    /// backend's own, which the operation should call for products of `dtype`: not by
    /// default.
    fn gelu_on_kernels(_dtype: DType) -> bool {
        false
    }

    /// z = gelu(y + b), in y's dtype ([`burn_bias_gelu`]).
    ///
    /// # Shapes
    /// - y: `[rows, d]`; bias: `[d]`
    /// - output: `[rows, d]`
    fn bias_gelu(y: FloatTensor<Self>, bias: FloatTensor<Self>) -> FloatTensor<Self> {
        burn_bias_gelu::<Self>(y, bias)
    }

    /// dy from y, b and dz, in y's dtype ([`burn_bias_gelu_backward`]).
    ///
    /// # Shapes
    /// - y, grad: `[rows, d]`; bias: `[d]`
    /// - output: `[rows, d]`
    fn bias_gelu_backward(
        y: FloatTensor<Self>,
        bias: FloatTensor<Self>,
        grad: FloatTensor<Self>,
    ) -> FloatTensor<Self> {
        burn_bias_gelu_backward::<Self>(y, bias, grad)
    }
}

/// y + b for every row, as tensor operations ([`add_to_rows`] in one stage).
fn biased<B: Backend>(y: FloatTensor<B>, bias: FloatTensor<B>) -> Tensor<B, 2> {
    let y = Tensor::<B, 2>::from_primitive(TensorPrimitive::Float(y));
    let bias = Tensor::<B, 1>::from_primitive(TensorPrimitive::Float(bias));
    add_to_rows(y, bias, false)
}

/// [`GeluKernelBackend::bias_gelu`] as burn's tensor operations: burn's `gelu` of y + b.
pub fn burn_bias_gelu<B: Backend>(y: FloatTensor<B>, bias: FloatTensor<B>) -> FloatTensor<B> {
    gelu(biased::<B>(y, bias)).into_primitive().tensor()
}

/// [`GeluKernelBackend::bias_gelu_backward`] as burn's tensor operations: burn's
/// `gelu_backward` at y + b (what autodiff's GELU computes).
pub fn burn_bias_gelu_backward<B: Backend>(
    y: FloatTensor<B>,
    bias: FloatTensor<B>,
    grad: FloatTensor<B>,
) -> FloatTensor<B> {
    let h = biased::<B>(y, bias).into_primitive().tensor();
    B::gelu_backward(h, grad)
}

/// The CPU: burn's tensor operations.
impl GeluKernelBackend for burn::backend::Flex {}

/// burn's fusion backend: the kernels as custom operations of the backend it wraps
/// (super::fusion_op), where they run; else the default.
impl<B: burn_fusion::FusionBackend + GeluKernelBackend> GeluKernelBackend
    for burn_fusion::Fusion<B>
{
    fn gelu_on_kernels(dtype: DType) -> bool {
        B::gelu_on_kernels(dtype)
    }

    fn bias_gelu(y: FloatTensor<Self>, bias: FloatTensor<Self>) -> FloatTensor<Self> {
        let out = (y.shape.clone(), y.dtype);
        let [z] = custom_op::<B, GeluOp, 2, 1>("oomlab_bias_gelu", [y, bias], [out], GeluOp);
        z
    }

    fn bias_gelu_backward(
        y: FloatTensor<Self>,
        bias: FloatTensor<Self>,
        grad: FloatTensor<Self>,
    ) -> FloatTensor<Self> {
        let out = (y.shape.clone(), y.dtype);
        let [dy] = custom_op::<B, GeluOp, 3, 1>(
            "oomlab_bias_gelu_backward",
            [y, bias, grad],
            [out],
            GeluOp,
        );
        dy
    }
}

/// The passes as fusion's custom operations.
#[derive(Debug, Clone, Copy)]
struct GeluOp;

impl<B: GeluKernelBackend> Operands<B, 2, 1> for GeluOp {
    fn run(self, [y, bias]: [FloatTensor<B>; 2]) -> [FloatTensor<B>; 1] {
        [B::bias_gelu(y, bias)]
    }
}

impl<B: GeluKernelBackend> Operands<B, 3, 1> for GeluOp {
    fn run(self, [y, bias, grad]: [FloatTensor<B>; 3]) -> [FloatTensor<B>; 1] {
        [B::bias_gelu_backward(y, bias, grad)]
    }
}
