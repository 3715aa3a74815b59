//! Attention's causal softmax and its gradient as one cubecl kernel each, on CUDA
//! (crate::ops's softmax module says why).
//!
//! One plane (32 threads) per row of the `[batch, heads, seq, seq]` scores, 8 rows per
//! cube. A row's query position i is its index modulo seq; only columns 0..=i are read,
//! the rest are written as zeros. Each thread walks the row with a stride of the plane's
//! width (consecutive threads, consecutive columns), and the plane's reductions
//! (`plane_max`, `plane_sum`) combine the threads' partial results. Everything is computed
//! in f32, whatever dtype is read or written.
//!
//! The kernels are oomlab's own, in super::cube::softmax (their code alone there: their cache
//! key carries a hash of that file, `source_key`, so this file's host code can change without
//! invalidating the shipped pack).

use burn::tensor::DType;
use burn_cubecl::tensor::CubeTensor;
use cubecl::cuda::CudaRuntime;

use super::cube::softmax::{causal_softmax_kernel, softmax_grad_kernel, source_key};
use super::cublas::CubeCuda;
use super::error::CudaOpError::{self, Unfit};
use super::plane_rows::{
    contiguous, on_kernels_by_default, packed_empty, planes_fit, row_grid, Calls, Fallback,
};
use crate::ops::{burn_causal_softmax, burn_softmax_grad, softmax_setting, SoftmaxBackend};

/// The rows (`batch·heads·seq`) and the row length `seq` of square `[batch, heads, seq,
/// seq]` scores of a float dtype the kernels read, or why the kernels cannot take them.
fn rows_of(t: &CubeTensor<CudaRuntime>) -> Result<(u32, u32), CudaOpError> {
    let shape = t.meta.shape();
    if shape.num_dims() != 4 || shape[2] != shape[3] {
        return Err(Unfit(format!(
            "scores of shape {shape:?}, not [batch, heads, seq, seq]"
        )));
    }
    if !matches!(t.dtype, DType::F32 | DType::BF16 | DType::F16) {
        return Err(Unfit(format!("scores of dtype {:?}", t.dtype)));
    }
    let rows = shape[0] * shape[1] * shape[2];
    match (u32::try_from(rows), u32::try_from(shape[3])) {
        (Ok(rows), Ok(seq)) if rows > 0 && (rows as usize) * (seq as usize) < u32::MAX as usize => {
            Ok((rows, seq))
        }
        _ => Err(Unfit(format!(
            "scores of shape {shape:?}: too many elements"
        ))),
    }
}

/// [`causal_softmax_kernel`] on `scores`; `Err` says why it cannot run them.
fn causal_softmax(
    scores: &CubeTensor<CudaRuntime>,
    scale: f32,
    out: DType,
) -> Result<CubeTensor<CudaRuntime>, CudaOpError> {
    let (rows, seq) = rows_of(scores)?;
    planes_fit(scores)?;
    if !matches!(out, DType::F32 | DType::BF16 | DType::F16) {
        return Err(Unfit(format!("an output of dtype {out:?}")));
    }
    let scores = contiguous(scores);
    let output = packed_empty(&scores, scores.meta.shape().clone(), out);
    let (count, dim) = row_grid(rows);
    let dtypes = [scores.dtype.into(), out.into()];
    causal_softmax_kernel::launch::<CudaRuntime>(
        &scores.client.clone(),
        count,
        dim,
        scores.into_array_arg(),
        output.clone().into_array_arg(),
        rows,
        seq,
        scale,
        source_key(),
        dtypes,
    );
    Ok(output)
}

/// [`softmax_grad_kernel`] on `p` and `dp`; `Err` says why it cannot run them.
fn softmax_grad(
    p: &CubeTensor<CudaRuntime>,
    dp: &CubeTensor<CudaRuntime>,
    scale: f32,
    out: DType,
) -> Result<CubeTensor<CudaRuntime>, CudaOpError> {
    let (rows, seq) = rows_of(p)?;
    if rows_of(dp)? != (rows, seq) || dp.meta.shape() != p.meta.shape() {
        return Err(Unfit(format!(
            "P {:?} and dP {:?} differ",
            p.meta.shape(),
            dp.meta.shape()
        )));
    }
    planes_fit(p)?;
    if !matches!(out, DType::F32 | DType::BF16 | DType::F16) {
        return Err(Unfit(format!("an output of dtype {out:?}")));
    }
    let p = contiguous(p);
    let dp = contiguous(dp);
    let output = packed_empty(&p, p.meta.shape().clone(), out);
    let (count, dim) = row_grid(rows);
    let dtypes = [p.dtype.into(), dp.dtype.into(), out.into()];
    softmax_grad_kernel::launch::<CudaRuntime>(
        &p.client.clone(),
        count,
        dim,
        p.into_array_arg(),
        dp.into_array_arg(),
        output.clone().into_array_arg(),
        rows,
        seq,
        scale,
        source_key(),
        dtypes,
    );
    Ok(output)
}

/// Says why a softmax did not run on the kernels.
static FALLBACK: Fallback = Fallback::new("attention's softmax");

/// Softmaxes run on the kernels so far ([`kernel_calls`]).
static CALLS: Calls = Calls::new();

/// How many causal softmaxes and gradients this process has run on the kernels (none fell
/// back): tests/gpu/softmax.rs checks that what it compares did run on them.
pub fn kernel_calls() -> u64 {
    CALLS.get()
}

impl SoftmaxBackend for CubeCuda {
    /// f32's and bf16's scores unless `kernels.attention_softmax` says otherwise
    /// (super::plane_rows's `on_kernels_by_default`; crate::ops's softmax module has
    /// the measurements).
    fn softmax_on_kernels(dtype: DType) -> bool {
        softmax_setting().unwrap_or(on_kernels_by_default(dtype))
    }

    /// bf16: measured on H100s in docs/results/2026-12-06-h100-probs-bf16 (the h200
    /// config's AMP bf16 step 0.943x with P in f32, the NVML peak lower, the final loss
    /// over five seeds within issue 29's rule). f16 and f32 keep P in f32 (f32 inputs have
    /// nothing to cast; f16 is not measured).
    fn probs_in_inputs_by_default(dtype: DType) -> bool {
        dtype == DType::BF16
    }

    fn causal_softmax(
        scores: CubeTensor<CudaRuntime>,
        scale: f32,
        out: DType,
    ) -> CubeTensor<CudaRuntime> {
        FALLBACK.or_burn(&CALLS, causal_softmax(&scores, scale, out), || {
            burn_causal_softmax::<Self>(scores, scale, out)
        })
    }

    fn softmax_grad(
        p: CubeTensor<CudaRuntime>,
        dp: CubeTensor<CudaRuntime>,
        scale: f32,
        out: DType,
    ) -> CubeTensor<CudaRuntime> {
        FALLBACK.or_burn(&CALLS, softmax_grad(&p, &dp, scale, out), || {
            burn_softmax_grad::<Self>(p, dp, scale, out)
        })
    }
}
