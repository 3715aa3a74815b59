//! Attention's causal softmax and its gradient as one cubecl kernel each, on CUDA
//! (crate::model's softmax module says why).
//!
//! One plane (32 threads) per row of the `[batch, heads, seq, seq]` scores, 8 rows per
//! cube. A row's query position i is its index modulo seq; only columns 0..=i are read,
//! the rest are written as zeros. Each thread walks the row with a stride of the plane's
//! width (consecutive threads, consecutive columns), and the plane's reductions
//! (`plane_max`, `plane_sum`) combine the threads' partial results. Everything is computed
//! in f32, whatever dtype is read or written.
//!
//! The kernels are oomlab's own: their cache key carries a hash of this file
//! (`source_key`), so a compiled-kernel pack made before an edit cannot serve them.

use burn::tensor::DType;
use burn_cubecl::tensor::CubeTensor;
use cubecl::cuda::CudaRuntime;
use cubecl::prelude::*;

use super::cublas::CubeCuda;
use super::plane_rows::{packed_empty, planes_fit, row_grid, Calls, Fallback};
use crate::model::{burn_causal_softmax, burn_softmax_grad, softmax_setting, SoftmaxBackend};

/// A hash of this file, a compile-time argument of both kernels: part of their cache key
/// (a test in super::compiled holds every `#[cube]` kernel of oomlab's to that).
fn source_key() -> u32 {
    crc32fast::hash(include_str!("softmax_kernels.rs").as_bytes())
}

/// P = softmax(scores·scale) over columns 0..=i of each row (i: the row's query
/// position), zero beyond.
#[cube(launch)]
fn causal_softmax_kernel<I: Float, O: Float>(
    scores: &Array<I>,
    out: &mut Array<O>,
    rows: u32,
    seq: u32,
    scale: f32,
    #[comptime] _source: u32,
    #[define(I, O)] _dtypes: [StorageType; 2],
) {
    let row = CUBE_POS * CUBE_DIM_Y as usize + UNIT_POS_Y as usize;
    if row >= rows as usize {
        terminate!();
    }
    let lanes = CUBE_DIM_X as usize;
    let lane = UNIT_POS_X as usize;
    let cols = seq as usize;
    let base = row * cols;
    let end = row % cols + 1;

    let mut max = f32::new(-3.0e38);
    let mut j = lane;
    while j < end {
        let v = f32::cast_from(scores[base + j]) * scale;
        if v > max {
            max = v;
        }
        j += lanes;
    }
    max = plane_max(max);

    let mut sum = 0.0f32;
    j = lane;
    while j < end {
        sum += (f32::cast_from(scores[base + j]) * scale - max).exp();
        j += lanes;
    }
    sum = plane_sum(sum);

    j = lane;
    while j < cols {
        let mut p = 0.0f32;
        if j < end {
            p = (f32::cast_from(scores[base + j]) * scale - max).exp() / sum;
        }
        out[base + j] = O::cast_from(p);
        j += lanes;
    }
}

/// dS = P ⊙ (dP − rowsum(P ⊙ dP))·scale over columns 0..=i of each row, zero beyond.
#[cube(launch)]
fn softmax_grad_kernel<P: Float, D: Float, O: Float>(
    p: &Array<P>,
    dp: &Array<D>,
    out: &mut Array<O>,
    rows: u32,
    seq: u32,
    scale: f32,
    #[comptime] _source: u32,
    #[define(P, D, O)] _dtypes: [StorageType; 3],
) {
    let row = CUBE_POS * CUBE_DIM_Y as usize + UNIT_POS_Y as usize;
    if row >= rows as usize {
        terminate!();
    }
    let lanes = CUBE_DIM_X as usize;
    let lane = UNIT_POS_X as usize;
    let cols = seq as usize;
    let base = row * cols;
    let end = row % cols + 1;

    let mut dot = 0.0f32;
    let mut j = lane;
    while j < end {
        dot += f32::cast_from(p[base + j]) * f32::cast_from(dp[base + j]);
        j += lanes;
    }
    dot = plane_sum(dot);

    j = lane;
    while j < cols {
        let mut g = 0.0f32;
        if j < end {
            let pj = f32::cast_from(p[base + j]);
            g = pj * (f32::cast_from(dp[base + j]) - dot) * scale;
        }
        out[base + j] = O::cast_from(g);
        j += lanes;
    }
}

/// The rows (`batch·heads·seq`) and the row length `seq` of square `[batch, heads, seq,
/// seq]` scores of a float dtype the kernels read, or why the kernels cannot take them.
fn rows_of(t: &CubeTensor<CudaRuntime>) -> Result<(u32, u32), String> {
    let shape = t.meta.shape();
    if shape.num_dims() != 4 || shape[2] != shape[3] {
        return Err(format!(
            "scores of shape {shape:?}, not [batch, heads, seq, seq]"
        ));
    }
    if !matches!(t.dtype, DType::F32 | DType::BF16 | DType::F16) {
        return Err(format!("scores of dtype {:?}", t.dtype));
    }
    let rows = shape[0] * shape[1] * shape[2];
    match (u32::try_from(rows), u32::try_from(shape[3])) {
        (Ok(rows), Ok(seq)) if rows > 0 && (rows as usize) * (seq as usize) < u32::MAX as usize => {
            Ok((rows, seq))
        }
        _ => Err(format!("scores of shape {shape:?}: too many elements")),
    }
}

/// [`causal_softmax_kernel`] on `scores`; `Err` says why it cannot run them.
fn causal_softmax(
    scores: &CubeTensor<CudaRuntime>,
    scale: f32,
    out: DType,
) -> Result<CubeTensor<CudaRuntime>, String> {
    let (rows, seq) = rows_of(scores)?;
    planes_fit(scores)?;
    if !matches!(out, DType::F32 | DType::BF16 | DType::F16) {
        return Err(format!("an output of dtype {out:?}"));
    }
    let scores = burn_cubecl::kernel::into_contiguous(scores.clone());
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
) -> Result<CubeTensor<CudaRuntime>, String> {
    let (rows, seq) = rows_of(p)?;
    if rows_of(dp)? != (rows, seq) || dp.meta.shape() != p.meta.shape() {
        return Err(format!(
            "P {:?} and dP {:?} differ",
            p.meta.shape(),
            dp.meta.shape()
        ));
    }
    planes_fit(p)?;
    if !matches!(out, DType::F32 | DType::BF16 | DType::F16) {
        return Err(format!("an output of dtype {out:?}"));
    }
    let p = burn_cubecl::kernel::into_contiguous(p.clone());
    let dp = burn_cubecl::kernel::into_contiguous(dp.clone());
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
    /// f32's scores unless `OOMLAB_ATTENTION_SOFTMAX` says otherwise (crate::model's
    /// softmax module has the measurements, and why not bf16's).
    fn softmax_on_kernels(dtype: DType) -> bool {
        softmax_setting().unwrap_or(dtype == DType::F32)
    }

    fn causal_softmax(
        scores: CubeTensor<CudaRuntime>,
        scale: f32,
        out: DType,
    ) -> CubeTensor<CudaRuntime> {
        match causal_softmax(&scores, scale, out) {
            Ok(p) => {
                CALLS.add();
                p
            }
            Err(why) => {
                FALLBACK.say(&why);
                burn_causal_softmax::<Self>(scores, scale, out)
            }
        }
    }

    fn softmax_grad(
        p: CubeTensor<CudaRuntime>,
        dp: CubeTensor<CudaRuntime>,
        scale: f32,
        out: DType,
    ) -> CubeTensor<CudaRuntime> {
        match softmax_grad(&p, &dp, scale, out) {
            Ok(ds) => {
                CALLS.add();
                ds
            }
            Err(why) => {
                FALLBACK.say(&why);
                burn_softmax_grad::<Self>(p, dp, scale, out)
            }
        }
    }
}
