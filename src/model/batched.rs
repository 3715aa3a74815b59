//! Attention's batched matrix products (`[batch, heads, rows, k]`·`[batch, heads, k,
//! cols]`) as a backend choice: on CUDA cuBLAS's strided batched calls by default
//! (`OOMLAB_ATTENTION_PRODUCTS=burn` turns them off, `=cublas` on), elsewhere burn's
//! matmul (issue 29).
//!
//! Measured on an H100 (docs/results/2026-12-05-h100-attention-products: aff6af9's paired
//! rows, one repeat, and its kernel profile; 2ca240c's 100-step runs on another H100):
//! the `gpu` config's f32 step 0.898x the one on burn's matmul (58.0 against 64.6 ms,
//! 1.91x PyTorch TF32 SDPA where it was 2.12x), AMP bf16 0.934x; the final losses and the
//! NVML peaks the same (the losses bit for bit: at these shapes cuBLAS gave cubecl's bits);
//! per profiled f32 step 24 copy launches instead of 88 and 11.3 ms less kernel time.
//!
//! Why: burn's matmul copies each view that is not packed (the heads view of the linear
//! layers' `[batch, seq, d_model]` outputs, a transpose of the last two dimensions) into a
//! contiguous tensor, and the gradients dQ, dK and dV are copied again when the model
//! turns them back into `[batch, seq, d_model]`. The committed f32 profile of the gpu
//! config on an H100 (docs/results/2026-12-05-h100-attention-forward-head) spends
//! 8.65 ms of a steady step in 88 `CopyKernel` launches, next to 6.75 ms in cubecl's
//! products. cuBLAS reads such views through leading dimensions and batch strides
//! (crate::device's strided_batch module), and writes dQ, dK and dV straight into
//! `[batch, seq, heads, head_dim]` storage ([`Rows::Tokens`]).
//!
//! Off (the default, and always on the CPU), [`batched`] is `a.matmul(b)`: the same
//! operations as before this module existed.

use burn::prelude::*;
use burn::tensor::ops::FloatTensor;
use burn::tensor::TensorPrimitive;

use super::fusion_op::{custom_op, Operands};
use super::ProductBackend;

/// The variable that chooses where attention's batched products run: `cublas` the
/// backend's library (on CUDA: cuBLAS), `burn` burn's matmul, unset the backend's default
/// (on CUDA cuBLAS, elsewhere burn's matmul).
pub const ATTENTION_PRODUCTS_ENV: &str = "OOMLAB_ATTENTION_PRODUCTS";

/// What `OOMLAB_ATTENTION_PRODUCTS` asks for (read once: a run's graph does not change
/// halfway): `Some(true)` for `cublas`, `Some(false)` for `burn`, `None` otherwise.
pub fn batched_setting() -> Option<bool> {
    static SETTING: std::sync::OnceLock<Option<bool>> = std::sync::OnceLock::new();
    super::env_setting(&SETTING, ATTENTION_PRODUCTS_ENV, "cublas", "burn")
}

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

/// burn's matmul of two 4-D tensors, times `alpha` unless it is 1 (the default
/// [`ProductBackend::batched_product`]).
pub fn burn_batched<B: Backend>(
    a: FloatTensor<B>,
    b: FloatTensor<B>,
    alpha: f32,
) -> FloatTensor<B> {
    let t = |p| Tensor::<B, 4>::from_primitive(TensorPrimitive::Float(p));
    let product = t(a).matmul(t(b));
    if alpha == 1.0 {
        product.into_primitive().tensor()
    } else {
        product.mul_scalar(alpha).into_primitive().tensor()
    }
}

/// a·b for every batch index: the backend's batched product where
/// [`ProductBackend::batched_on_library`] says so for the dtype, else burn's matmul.
/// `rows` is where the output's rows should go; burn's matmul ignores it (its output is
/// contiguous), so only the layout, never the values, depends on it.
///
/// # Shapes
/// - a: `[d0, d1, m, k]`, b: `[d0, d1, k, n]`
/// - output: `[d0, d1, m, n]`
pub fn batched<B: ProductBackend>(a: Tensor<B, 4>, b: Tensor<B, 4>, rows: Rows) -> Tensor<B, 4> {
    if B::batched_on_library(a.dtype()) {
        Tensor::from_primitive(TensorPrimitive::Float(B::batched_product(
            a.into_primitive().tensor(),
            b.into_primitive().tensor(),
            rows,
            1.0,
        )))
    } else {
        a.matmul(b)
    }
}

/// softmax's input QKᵀ·`scale` in f32: on the backend's library (where
/// [`ProductBackend::batched_on_library`] says so) with the scale as the product's alpha,
/// one kernel over the `[batch, heads, seq, seq]` scores less; else burn's matmul, cast to
/// f32 and scaled (the operations before this module existed).
///
/// # Shapes
/// - q, k: `[batch, heads, seq_len, head_dim]`
/// - output: `[batch, heads, seq_len, seq_len]`
pub fn scaled_scores<B: ProductBackend>(
    q: Tensor<B, 4>,
    k: Tensor<B, 4>,
    scale: f64,
) -> Tensor<B, 4> {
    let kt = k.swap_dims(2, 3);
    if B::batched_on_library(q.dtype()) {
        super::in_f32(Tensor::from_primitive(TensorPrimitive::Float(
            B::batched_product(
                q.into_primitive().tensor(),
                kt.into_primitive().tensor(),
                Rows::Heads,
                scale as f32,
            ),
        )))
    } else {
        super::in_f32(q.matmul(kt)).mul_scalar(scale)
    }
}

/// burn's fusion backend: the batched product as a custom operation of the backend it
/// wraps (super::fusion_op).
pub fn fusion_batched<B: burn_fusion::FusionBackend + ProductBackend>(
    a: FloatTensor<burn_fusion::Fusion<B>>,
    b: FloatTensor<burn_fusion::Fusion<B>>,
    rows: Rows,
    alpha: f32,
) -> FloatTensor<burn_fusion::Fusion<B>> {
    let shape = [a.shape[0], a.shape[1], a.shape[2], b.shape[3]];
    let op = BatchedOp { rows, alpha };
    let dtype = a.dtype;
    let [out] = custom_op::<B, BatchedOp, 2, 1>(
        "oomlab_batched_product",
        [a, b],
        [(shape.into(), dtype)],
        op,
    );
    out
}

/// [`ProductBackend::batched_product`]'s settings, as fusion's custom operation.
#[derive(Debug, Clone, Copy)]
struct BatchedOp {
    rows: Rows,
    alpha: f32,
}

impl<B: ProductBackend> Operands<B, 2, 1> for BatchedOp {
    fn run(self, [a, b]: [FloatTensor<B>; 2]) -> [FloatTensor<B>; 1] {
        [B::batched_product(a, b, self.rows, self.alpha)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::CpuBackend;
    use burn::tensor::Distribution;

    #[test]
    fn the_variable_reads_cublas_burn_or_the_default() {
        assert_eq!(
            super::super::parse_setting(Some("cublas"), "cublas", "burn"),
            Some(true)
        );
        assert_eq!(
            super::super::parse_setting(Some("burn"), "cublas", "burn"),
            Some(false)
        );
        assert_eq!(super::super::parse_setting(None, "cublas", "burn"), None);
    }

    /// The CPU's backend under autodiff, where the product backends sit.
    type B = <CpuBackend as burn::tensor::backend::AutodiffBackend>::InnerBackend;

    #[test]
    fn off_the_library_it_is_burns_matmul_bit_for_bit() {
        let device = Default::default();
        let a = Tensor::<B, 4>::random([2, 3, 4, 5], Distribution::Default, &device);
        let b = Tensor::<B, 4>::random([2, 3, 6, 5], Distribution::Default, &device);
        assert!(!<B as ProductBackend>::batched_on_library(a.dtype()));
        let burns = a.clone().matmul(b.clone().swap_dims(2, 3)).into_data();
        for rows in [Rows::Heads, Rows::Tokens] {
            let ours = batched(a.clone(), b.clone().swap_dims(2, 3), rows);
            assert_eq!(ours.into_data(), burns, "{rows:?}");
            // The backend's own batched product, which the CPU has from the trait's
            // default: the same values whatever the layout asked.
            let own = <B as ProductBackend>::batched_product(
                a.clone().into_primitive().tensor(),
                b.clone().swap_dims(2, 3).into_primitive().tensor(),
                rows,
                1.0,
            );
            let own = Tensor::<B, 4>::from_primitive(TensorPrimitive::Float(own));
            assert_eq!(own.into_data(), burns, "{rows:?}");
        }
        // A factor other than 1 scales burn's product after it.
        let half = <B as ProductBackend>::batched_product(
            a.clone().into_primitive().tensor(),
            b.clone().swap_dims(2, 3).into_primitive().tensor(),
            Rows::Heads,
            0.5,
        );
        let half = Tensor::<B, 4>::from_primitive(TensorPrimitive::Float(half));
        let scaled = a.clone().matmul(b.clone().swap_dims(2, 3)).mul_scalar(0.5);
        assert_eq!(half.into_data(), scaled.into_data());
        // The scores: cast to f32 after the product, scaled after the cast.
        let scores = scaled_scores(a.clone(), b.clone(), 0.125);
        let before = super::super::in_f32(a.matmul(b.swap_dims(2, 3))).mul_scalar(0.125);
        assert_eq!(scores.into_data(), before.into_data());
    }
}
