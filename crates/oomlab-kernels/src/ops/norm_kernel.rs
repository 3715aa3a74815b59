//! LayerNorm's forward and backward passes (super::norm's operation) as a backend choice:
//! on CUDA kernels of oomlab's (crate::cuda's norm_kernels module), by default for f32
//! and bf16 (`kernels.layer_norm=kernel` for every dtype, `=burn` for none); elsewhere burn's tensor
//! operations ([`forward_rows`], [`backward_rows`]) (issue 29).
//!
//! Measured on the H200 with attention's softmax kernels (super::softmax says what and
//! where; docs/results/2026-12-06-h200-row-kernels): the f32 step 45.1 ms with the
//! softmax kernels alone, 39.5 ms with these too (the defaults before both: 56.7). bf16's
//! loss moved by 5.0e-3 with both in that one run (seed 42); bf16 runs on them by default
//! since docs/results/2026-12-06-h100-bf16-kernels judged them over five seeds (its README).
//!
//! Why: as tensor operations each LayerNorm is a chain of kernels over the `[rows, d]`
//! activations: the committed f32 profile of the `gpu` config on an H100
//! (docs/results/2026-12-05-h100-attention-products, `aff6af9/`) shows about 0.28 ms of
//! them per LayerNorm in the forward pass (six kernels over 32 MiB tensors) and about
//! 0.6 ms in the backward pass (fifteen, the column sums of dγ and dβ included), 16
//! LayerNorms per step. A kernel reads each row once from memory (the later passes over
//! it come from the cache) and writes it once.
//!
//! The kernels compute in f32 whatever they read, as the tensor operations do; their sums
//! run in another order, so the values differ in the last bits.

use burn::prelude::*;
use burn::tensor::ops::FloatTensor;
use burn::tensor::{DType, TensorPrimitive};

use super::fusion_op::{custom_op, Operands};
use super::norm_rows::{backward_rows, forward_rows};

/// What `kernels.layer_norm` asks for (read once: a run's graph does not change halfway):
/// `Some(true)` for `kernel`, `Some(false)` for `burn`, `None` otherwise.
pub fn norm_setting() -> Option<bool> {
    crate::choices::chosen().layer_norm
}

/// A backend's LayerNorm over the rows of a matrix, statistics in f32. The defaults are
/// burn's tensor operations.
pub trait NormKernelBackend: Backend {
    /// Whether [`Self::row_norm`] and [`Self::row_norm_backward`] are kernels of the
    /// backend's own, which the operation should call for inputs of `dtype`: not by
    /// default.
    fn norm_on_kernels(_dtype: DType) -> bool {
        false
    }

    /// y = (x − mean)·rstd·γ + β over each row, in x's dtype ([`forward_rows`]).
    ///
    /// # Shapes
    /// - x: `[rows, d]`; gamma, beta: `[d]`
    /// - output: `[rows, d]`
    fn row_norm(
        x: FloatTensor<Self>,
        gamma: FloatTensor<Self>,
        beta: FloatTensor<Self>,
        epsilon: f64,
    ) -> FloatTensor<Self> {
        burn_layer_norm::<Self>(x, gamma, beta, epsilon)
    }

    /// dx, dγ and dβ (in x's, γ's and `beta_dtype`) from x, γ and dy
    /// ([`backward_rows`]; `split_sum`: its sums over the rows in two stages).
    ///
    /// # Shapes
    /// - x, grad: `[rows, d]`; gamma: `[d]`
    /// - output: `[rows, d]`, `[d]`, `[d]`
    fn row_norm_backward(
        x: FloatTensor<Self>,
        gamma: FloatTensor<Self>,
        grad: FloatTensor<Self>,
        epsilon: f64,
        beta_dtype: DType,
        split_sum: bool,
    ) -> [FloatTensor<Self>; 3] {
        burn_layer_norm_backward::<Self>(x, gamma, grad, epsilon, beta_dtype, split_sum)
    }
}

/// [`NormKernelBackend::row_norm`] as burn's tensor operations ([`forward_rows`]).
pub fn burn_layer_norm<B: Backend>(
    x: FloatTensor<B>,
    gamma: FloatTensor<B>,
    beta: FloatTensor<B>,
    epsilon: f64,
) -> FloatTensor<B> {
    let m = |p| Tensor::<B, 2>::from_primitive(TensorPrimitive::Float(p));
    let v = |p| Tensor::<B, 1>::from_primitive(TensorPrimitive::Float(p));
    forward_rows(m(x), v(gamma), v(beta), epsilon)
        .into_primitive()
        .tensor()
}

/// [`NormKernelBackend::row_norm_backward`] as burn's tensor operations
/// ([`backward_rows`]).
pub fn burn_layer_norm_backward<B: Backend>(
    x: FloatTensor<B>,
    gamma: FloatTensor<B>,
    grad: FloatTensor<B>,
    epsilon: f64,
    beta_dtype: DType,
    split_sum: bool,
) -> [FloatTensor<B>; 3] {
    let m = |p| Tensor::<B, 2>::from_primitive(TensorPrimitive::Float(p));
    let v = |p| Tensor::<B, 1>::from_primitive(TensorPrimitive::Float(p));
    let (dx, dgamma, dbeta) =
        backward_rows(m(x), v(gamma), m(grad), epsilon, beta_dtype, split_sum);
    [
        dx.into_primitive().tensor(),
        dgamma.into_primitive().tensor(),
        dbeta.into_primitive().tensor(),
    ]
}

/// The CPU: burn's tensor operations.
impl NormKernelBackend for burn::backend::Flex {}

/// burn's fusion backend: the kernels as custom operations of the backend it wraps
/// (super::fusion_op), where they run; else the default.
impl<B: burn_fusion::FusionBackend + NormKernelBackend> NormKernelBackend
    for burn_fusion::Fusion<B>
{
    fn norm_on_kernels(dtype: DType) -> bool {
        B::norm_on_kernels(dtype)
    }

    fn row_norm(
        x: FloatTensor<Self>,
        gamma: FloatTensor<Self>,
        beta: FloatTensor<Self>,
        epsilon: f64,
    ) -> FloatTensor<Self> {
        let out = (x.shape.clone(), x.dtype);
        let op = NormOp {
            epsilon,
            beta_dtype: beta.dtype,
            split_sum: false,
        };
        let [y] = custom_op::<B, NormOp, 3, 1>("oomlab_layer_norm", [x, gamma, beta], [out], op);
        y
    }

    fn row_norm_backward(
        x: FloatTensor<Self>,
        gamma: FloatTensor<Self>,
        grad: FloatTensor<Self>,
        epsilon: f64,
        beta_dtype: DType,
        split_sum: bool,
    ) -> [FloatTensor<Self>; 3] {
        let outs = [
            (x.shape.clone(), x.dtype),
            (gamma.shape.clone(), gamma.dtype),
            (gamma.shape.clone(), beta_dtype),
        ];
        let op = NormOp {
            epsilon,
            beta_dtype,
            split_sum,
        };
        custom_op::<B, NormOp, 3, 3>("oomlab_layer_norm_backward", [x, gamma, grad], outs, op)
    }
}

/// The passes' settings, as fusion's custom operations.
#[derive(Debug, Clone, Copy)]
struct NormOp {
    epsilon: f64,
    beta_dtype: DType,
    split_sum: bool,
}

impl<B: NormKernelBackend> Operands<B, 3, 1> for NormOp {
    fn run(self, [x, gamma, beta]: [FloatTensor<B>; 3]) -> [FloatTensor<B>; 1] {
        [B::row_norm(x, gamma, beta, self.epsilon)]
    }
}

impl<B: NormKernelBackend> Operands<B, 3, 3> for NormOp {
    fn run(self, [x, gamma, grad]: [FloatTensor<B>; 3]) -> [FloatTensor<B>; 3] {
        B::row_norm_backward(
            x,
            gamma,
            grad,
            self.epsilon,
            self.beta_dtype,
            self.split_sum,
        )
    }
}

/// The forward pass: [`NormKernelBackend::row_norm`] where
/// [`NormKernelBackend::norm_on_kernels`] says so for x's dtype, else [`forward_rows`].
///
/// # Shapes
/// - x: `[rows, d]`; gamma, beta: `[d]`
/// - output: `[rows, d]`
pub fn norm_forward<B: NormKernelBackend>(
    x: Tensor<B, 2>,
    gamma: Tensor<B, 1>,
    beta: Tensor<B, 1>,
    epsilon: f64,
) -> Tensor<B, 2> {
    if !B::norm_on_kernels(x.dtype()) {
        return forward_rows(x, gamma, beta, epsilon);
    }
    Tensor::from_primitive(TensorPrimitive::Float(B::row_norm(
        x.into_primitive().tensor(),
        gamma.into_primitive().tensor(),
        beta.into_primitive().tensor(),
        epsilon,
    )))
}

/// The backward pass: [`NormKernelBackend::row_norm_backward`] where
/// [`NormKernelBackend::norm_on_kernels`] says so for x's dtype, else [`backward_rows`].
///
/// # Shapes
/// - x, grad: `[rows, d]`; gamma: `[d]`
/// - output: (`[rows, d]`, `[d]`, `[d]`)
pub fn norm_backward<B: NormKernelBackend>(
    x: Tensor<B, 2>,
    gamma: Tensor<B, 1>,
    grad: Tensor<B, 2>,
    epsilon: f64,
    beta_dtype: DType,
    split_sum: bool,
) -> (Tensor<B, 2>, Tensor<B, 1>, Tensor<B, 1>) {
    if !B::norm_on_kernels(x.dtype()) {
        return backward_rows(x, gamma, grad, epsilon, beta_dtype, split_sum);
    }
    let [dx, dgamma, dbeta] = B::row_norm_backward(
        x.into_primitive().tensor(),
        gamma.into_primitive().tensor(),
        grad.into_primitive().tensor(),
        epsilon,
        beta_dtype,
        split_sum,
    );
    let m = |p| Tensor::<B, 2>::from_primitive(TensorPrimitive::Float(p));
    let v = |p| Tensor::<B, 1>::from_primitive(TensorPrimitive::Float(p));
    (m(dx), v(dgamma), v(dbeta))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn off_the_kernels_the_passes_are_burns_tensor_operations_bit_for_bit() {
        use crate::test_backend::CpuBackend;
        use burn::tensor::Distribution;
        type B = <CpuBackend as burn::tensor::backend::AutodiffBackend>::InnerBackend;
        let device = Default::default();
        assert!(!<B as NormKernelBackend>::norm_on_kernels(DType::F32));
        let x = Tensor::<B, 2>::random([6, 8], Distribution::Normal(1.0, 2.0), &device);
        let gamma = Tensor::<B, 1>::random([8], Distribution::Default, &device);
        let beta = Tensor::<B, 1>::random([8], Distribution::Default, &device);
        let dy = Tensor::<B, 2>::random([6, 8], Distribution::Default, &device);
        let y = norm_forward(x.clone(), gamma.clone(), beta.clone(), 1e-5);
        let theirs = forward_rows(x.clone(), gamma.clone(), beta, 1e-5);
        assert_eq!(y.into_data(), theirs.into_data());
        // The trait's own default is the same operations.
        let [dx, dg, db] = <B as NormKernelBackend>::row_norm_backward(
            x.clone().into_primitive().tensor(),
            gamma.clone().into_primitive().tensor(),
            dy.clone().into_primitive().tensor(),
            1e-5,
            DType::F32,
            false,
        );
        let (tdx, tdg, tdb) = backward_rows(x, gamma, dy, 1e-5, DType::F32, false);
        let m = |p| Tensor::<B, 2>::from_primitive(TensorPrimitive::Float(p));
        let v = |p| Tensor::<B, 1>::from_primitive(TensorPrimitive::Float(p));
        assert_eq!(m(dx).into_data(), tdx.into_data());
        assert_eq!(v(dg).into_data(), tdg.into_data());
        assert_eq!(v(db).into_data(), tdb.into_data());
    }
}
