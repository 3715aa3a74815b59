//! Attention's causal softmax and its gradient over the `[batch, heads, seq, seq]` scores
//! as a backend choice: on CUDA one kernel of oomlab's each (crate::cuda's
//! softmax_kernels module), by default for f32 and bf16 (`kernels.attention_softmax=kernel` for
//! every dtype, `=burn` for none); elsewhere burn's tensor operations (issue 29).
//!
//! Measured on the H200 (docs/results/2026-12-06-h200-row-kernels, the `gpu` config,
//! paired with PyTorch, 2 repeats), with the written-out forward pass that the kernel
//! makes the default (the model's efficient attention) and LayerNorm's kernels
//! (super::norm_kernel): the f32 step 39.5 ms against 56.7 (0.696x; 1.46x PyTorch TF32
//! SDPA where it was 2.10x), the final loss after 100 steps 2.4e-4 (relative) away, the
//! NVML peak 32 MiB lower. AMP bf16 stepped 0.681x but its final loss moved by 5.0e-3 in
//! that one run (seed 42), over issue 29's 1e-3; bf16 runs on the kernels by default since
//! docs/results/2026-12-06-h100-bf16-kernels judged them, with LayerNorm's and GELU's, over five
//! seeds (its README).
//!
//! Why: as tensor operations the softmax is a chain of kernels over the scores (the scale,
//! the mask, the row maximum, the exponentials, the row sum, the division) and its
//! gradient three more (P ⊙ dP, its row sum, P ⊙ (dP − sum)); burn's fusion merges some,
//! not the reductions. The committed f32 profile of the `gpu` config on an H100
//! (docs/results/2026-12-05-h100-attention-products, `aff6af9/`) shows each layer's
//! backward pass spending about 0.95 ms in seven such kernels over 128 MiB tensors. One
//! kernel reads each row once or twice (a row is 1 KiB at seq 256: the second read comes
//! from the cache) and writes it once; it reads and writes the dtypes the products give
//! and take, so the casts around them are gone too, and it skips the masked half of each
//! row.
//!
//! The kernels compute in f32 whatever they read, as the tensor operations do (the scores
//! are cast to f32 first there); the sums run in another order, so their values differ in
//! the last bits.

use burn::prelude::*;
use burn::tensor::activation::softmax;
use burn::tensor::ops::FloatTensor;
use burn::tensor::{DType, TensorPrimitive};

use super::fusion_op::{custom_op, Operands};
use super::{in_dtype, in_f32};

/// What `kernels.attention_softmax` asks for (read once: a run's graph does not change
/// halfway): `Some(true)` for `kernel`, `Some(false)` for `burn`, `None` otherwise.
pub fn softmax_setting() -> Option<bool> {
    crate::choices::chosen().attention_softmax
}

/// A backend's causal softmax over attention's scores and its gradient. The defaults are
/// burn's tensor operations ([`burn_causal_softmax`], [`burn_softmax_grad`]).
pub trait SoftmaxBackend: Backend {
    /// Whether [`Self::causal_softmax`] and [`Self::softmax_grad`] are kernels of the
    /// backend's own, which attention should call for scores of `dtype`: not by default.
    fn softmax_on_kernels(_dtype: DType) -> bool {
        false
    }

    /// Whether the efficient attention's backward pass recomputes the probabilities P in
    /// the inputs' `dtype` rather than in f32 when `kernels.backward_probs` is not set
    /// (`kernels.backward_probs`): not by default.
    fn probs_in_inputs_by_default(_dtype: DType) -> bool {
        false
    }

    /// P = softmax(scores·scale + causal mask) along the last dimension, computed in f32,
    /// stored in `out`.
    ///
    /// # Shapes
    /// - scores: `[batch, heads, seq, seq]` (query positions along dimension 2)
    /// - output: `[batch, heads, seq, seq]`, zero above the diagonal
    fn causal_softmax(scores: FloatTensor<Self>, scale: f32, out: DType) -> FloatTensor<Self> {
        burn_causal_softmax::<Self>(scores, scale, out)
    }

    /// dS = P ⊙ (dP − rowsum(P ⊙ dP))·scale, the softmax's gradient (times the scores'
    /// scale), computed in f32, stored in `out`.
    ///
    /// # Shapes
    /// - p (f32, or dP's dtype where the backward pass recomputes it so: `kernels.backward_probs`), dp: `[batch, heads, seq, seq]`
    /// - output: `[batch, heads, seq, seq]`
    fn softmax_grad(
        p: FloatTensor<Self>,
        dp: FloatTensor<Self>,
        scale: f32,
        out: DType,
    ) -> FloatTensor<Self> {
        burn_softmax_grad::<Self>(p, dp, scale, out)
    }
}

/// [`SoftmaxBackend::causal_softmax`] where [`SoftmaxBackend::softmax_on_kernels`] says
/// so for the scores' dtype, else [`burn_causal_softmax`].
///
/// # Shapes
/// - scores: `[batch, heads, seq, seq]`
/// - output: `[batch, heads, seq, seq]`
pub fn causal_softmax<B: SoftmaxBackend>(
    scores: Tensor<B, 4>,
    scale: f64,
    out: DType,
) -> Tensor<B, 4> {
    let on_kernels = B::softmax_on_kernels(scores.dtype());
    let scores = scores.into_primitive().tensor();
    let p = if on_kernels {
        B::causal_softmax(scores, scale as f32, out)
    } else {
        burn_causal_softmax::<B>(scores, scale as f32, out)
    };
    Tensor::from_primitive(TensorPrimitive::Float(p))
}

/// [`SoftmaxBackend::softmax_grad`] where [`SoftmaxBackend::softmax_on_kernels`] says so
/// for dP's dtype, else [`burn_softmax_grad`].
///
/// # Shapes
/// - p (f32, or dP's dtype where the backward pass recomputes it so: `kernels.backward_probs`), dp: `[batch, heads, seq, seq]`
/// - output: `[batch, heads, seq, seq]`
pub fn softmax_grad<B: SoftmaxBackend>(
    p: Tensor<B, 4>,
    dp: Tensor<B, 4>,
    scale: f64,
    out: DType,
) -> Tensor<B, 4> {
    let on_kernels = B::softmax_on_kernels(dp.dtype());
    let (p, dp) = (p.into_primitive().tensor(), dp.into_primitive().tensor());
    let ds = if on_kernels {
        B::softmax_grad(p, dp, scale as f32, out)
    } else {
        burn_softmax_grad::<B>(p, dp, scale as f32, out)
    };
    Tensor::from_primitive(TensorPrimitive::Float(ds))
}

/// [`SoftmaxBackend::causal_softmax`] as burn's tensor operations: the scores cast to f32,
/// scaled, the future masked with −∞, burn's softmax, the cast to `out`.
pub fn burn_causal_softmax<B: Backend>(
    scores: FloatTensor<B>,
    scale: f32,
    out: DType,
) -> FloatTensor<B> {
    let scores = in_f32(Tensor::<B, 4>::from_primitive(TensorPrimitive::Float(
        scores,
    )));
    let [batch, heads, seq_len, _] = scores.dims();
    let device = scores.device();
    let masked = scores.mul_scalar(scale).mask_fill(
        future_mask::<B>([batch, heads, seq_len], &device),
        f32::NEG_INFINITY,
    );
    in_dtype(softmax(masked, 3), out).into_primitive().tensor()
}

/// [`SoftmaxBackend::softmax_grad`] as burn's tensor operations.
pub fn burn_softmax_grad<B: Backend>(
    p: FloatTensor<B>,
    dp: FloatTensor<B>,
    scale: f32,
    out: DType,
) -> FloatTensor<B> {
    let t = |x| Tensor::<B, 4>::from_primitive(TensorPrimitive::Float(x));
    let (p, dp) = (in_f32(t(p)), in_f32(t(dp)));
    let row = (p.clone() * dp.clone()).sum_dim(3);
    in_dtype((p * (dp - row)).mul_scalar(scale), out)
        .into_primitive()
        .tensor()
}

/// `true` above the diagonal: the future positions a query must not see.
///
/// # Shapes
/// - output: `[batch, heads, seq_len, seq_len]` (a broadcast view of one `[seq_len,
///   seq_len]` mask)
pub fn future_mask<B: Backend>(
    [batch, heads, seq_len]: [usize; 3],
    device: &B::Device,
) -> Tensor<B, 4, Bool> {
    Tensor::<B, 2, Bool>::tril_mask([seq_len, seq_len], 0, device)
        .unsqueeze::<4>()
        .expand([batch, heads, seq_len, seq_len])
}

/// The CPU: burn's tensor operations.
impl SoftmaxBackend for burn::backend::Flex {}

/// burn's fusion backend: the kernels as custom operations of the backend it wraps
/// (super::fusion_op).
impl<B: burn_fusion::FusionBackend + SoftmaxBackend> SoftmaxBackend for burn_fusion::Fusion<B> {
    fn softmax_on_kernels(dtype: DType) -> bool {
        B::softmax_on_kernels(dtype)
    }

    fn probs_in_inputs_by_default(dtype: DType) -> bool {
        B::probs_in_inputs_by_default(dtype)
    }

    fn causal_softmax(scores: FloatTensor<Self>, scale: f32, out: DType) -> FloatTensor<Self> {
        let shape = scores.shape.clone();
        let op = SoftmaxOp { scale, out };
        let [p] =
            custom_op::<B, SoftmaxOp, 1, 1>("oomlab_causal_softmax", [scores], [(shape, out)], op);
        p
    }

    fn softmax_grad(
        p: FloatTensor<Self>,
        dp: FloatTensor<Self>,
        scale: f32,
        out: DType,
    ) -> FloatTensor<Self> {
        let shape = p.shape.clone();
        let op = SoftmaxOp { scale, out };
        let [ds] =
            custom_op::<B, SoftmaxOp, 2, 1>("oomlab_softmax_grad", [p, dp], [(shape, out)], op);
        ds
    }
}

/// The kernels' settings, as fusion's custom operations.
#[derive(Debug, Clone, Copy)]
struct SoftmaxOp {
    scale: f32,
    out: DType,
}

impl<B: SoftmaxBackend> Operands<B, 1, 1> for SoftmaxOp {
    fn run(self, [scores]: [FloatTensor<B>; 1]) -> [FloatTensor<B>; 1] {
        [B::causal_softmax(scores, self.scale, self.out)]
    }
}

impl<B: SoftmaxBackend> Operands<B, 2, 1> for SoftmaxOp {
    fn run(self, [p, dp]: [FloatTensor<B>; 2]) -> [FloatTensor<B>; 1] {
        [B::softmax_grad(p, dp, self.scale, self.out)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_backend::CpuBackend;
    use burn::tensor::Distribution;

    type B = <CpuBackend as burn::tensor::backend::AutodiffBackend>::InnerBackend;

    #[test]
    fn the_causal_softmax_sums_to_one_over_the_past_and_is_zero_in_the_future() {
        let device = Default::default();
        let scores = Tensor::<B, 4>::random([2, 3, 7, 7], Distribution::Default, &device);
        let p = B::causal_softmax(scores.into_primitive().tensor(), 0.5, DType::F32);
        let p = Tensor::<B, 4>::from_primitive(TensorPrimitive::Float(p));
        let rows = p.clone().sum_dim(3).into_data().to_vec::<f32>().unwrap();
        assert!(rows.iter().all(|s| (s - 1.0).abs() < 1e-6), "{rows:?}");
        let values = p.into_data().to_vec::<f32>().unwrap();
        for (n, v) in values.iter().enumerate() {
            let (i, j) = ((n / 7) % 7, n % 7);
            assert_eq!(*v == 0.0, j > i, "row {i}, column {j}: {v}");
        }
    }

    #[test]
    fn the_gradient_is_the_softmaxs_vector_jacobian_product() {
        // dS_j = Σ_k ∂P_k/∂s_j · dP_k with ∂P_k/∂s_j = P_k(δ_kj − P_j), times the scale.
        let device = Default::default();
        let p = B::causal_softmax(
            Tensor::<B, 4>::random([1, 1, 5, 5], Distribution::Default, &device)
                .into_primitive()
                .tensor(),
            1.0,
            DType::F32,
        );
        let dp = Tensor::<B, 4>::random([1, 1, 5, 5], Distribution::Default, &device);
        let p = Tensor::<B, 4>::from_primitive(TensorPrimitive::Float(p));
        let ds = B::softmax_grad(
            p.clone().into_primitive().tensor(),
            dp.clone().into_primitive().tensor(),
            0.25,
            DType::F32,
        );
        let ds = Tensor::<B, 4>::from_primitive(TensorPrimitive::Float(ds));
        let [p, dp, ds] = [p, dp, ds].map(|t| t.into_data().to_vec::<f32>().unwrap());
        for i in 0..5 {
            for j in 0..5 {
                let jacobian: f32 = (0..5)
                    .map(|k| {
                        let d = if k == j { 1.0 } else { 0.0 };
                        p[i * 5 + k] * (d - p[i * 5 + j]) * dp[i * 5 + k]
                    })
                    .sum();
                let got = ds[i * 5 + j];
                assert!((got - 0.25 * jacobian).abs() < 1e-6, "{i},{j}: {got}");
            }
        }
    }

    #[test]
    fn half_inputs_are_read_in_f32_and_the_output_takes_the_asked_dtype() {
        let device = Default::default();
        let scores = Tensor::<B, 4>::random([1, 2, 4, 4], Distribution::Default, &device);
        let half = scores.clone().cast(burn::tensor::FloatDType::BF16);
        let p = B::causal_softmax(half.clone().into_primitive().tensor(), 1.0, DType::BF16);
        assert_eq!(p.dtype(), DType::BF16);
        let via_f32 = B::causal_softmax(
            half.cast(burn::tensor::FloatDType::F32)
                .into_primitive()
                .tensor(),
            1.0,
            DType::F32,
        );
        let via_f32 = Tensor::<B, 4>::from_primitive(TensorPrimitive::Float(via_f32))
            .cast(burn::tensor::FloatDType::BF16);
        let p = Tensor::<B, 4>::from_primitive(TensorPrimitive::Float(p));
        assert_eq!(p.into_data(), via_f32.into_data());
    }
}
