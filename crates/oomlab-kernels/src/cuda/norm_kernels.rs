//! LayerNorm's forward and backward passes as cubecl kernels, on CUDA (crate::ops's
//! norm_kernel module says why).
//!
//! The row kernels give one plane (32 threads) to each row of the `[rows, d]` input, 8
//! rows per cube; each thread walks the row with a stride of the plane's width and the
//! plane's sums combine the threads' parts. Per row they compute the mean, then the
//! (biased) variance from the centred values, rstd = 1/√(var + ε), as burn's
//! `var_mean_bias` does, all in f32:
//! - forward: y = (x − mean)·rstd·γ + β;
//! - backward: with x̂ = (x − mean)·rstd and g = dy·γ,
//!   dx = rstd·(g − mean(g) − x̂·mean(g·x̂)); it also writes each row's mean and rstd.
//!
//! dγ = Σ_rows dy·x̂ and dβ = Σ_rows dy come from a third kernel, one thread per column
//! and block of `BLOCK_ROWS` rows (consecutive threads, consecutive columns), which
//! writes each block's two partial sums; burn sums the blocks (a `[blocks, d]` tensor).
//!
//! The kernels are oomlab's own, in super::cube::norm (their code alone there: their cache
//! key carries a hash of that file, `source_key`, so this file's host code can change without
//! invalidating the shipped pack).

use burn::tensor::{DType, Tensor, TensorPrimitive};
use burn_cubecl::tensor::CubeTensor;
use cubecl::cuda::CudaRuntime;
use cubecl::prelude::*;

use super::cube::norm::{
    layer_norm_columns_kernel, layer_norm_grad_kernel, layer_norm_kernel, source_key, BLOCK_ROWS,
};
use super::cublas::CubeCuda;
use super::error::CudaOpError::{self, Unfit};
use super::plane_rows::{
    contiguous, on_kernels_by_default, packed_empty, planes_fit, row_grid, Calls, Fallback,
};
use crate::ops::{burn_layer_norm, burn_layer_norm_backward, norm_setting, NormKernelBackend};

/// `[rows, d]` of a 2-D float tensor the kernels read, and `[d]` of the 1-D ones; or why
/// the kernels cannot take them.
fn dims(
    x: &CubeTensor<CudaRuntime>,
    vectors: &[&CubeTensor<CudaRuntime>],
    like_x: Option<&CubeTensor<CudaRuntime>>,
) -> Result<(u32, u32), CudaOpError> {
    let float =
        |t: &CubeTensor<CudaRuntime>| matches!(t.dtype, DType::F32 | DType::BF16 | DType::F16);
    let shape = x.meta.shape();
    if shape.num_dims() != 2 || !float(x) {
        return Err(Unfit(format!(
            "an input {shape:?} of {:?}, not a float matrix",
            x.dtype
        )));
    }
    let (rows, d) = (shape[0], shape[1]);
    for v in vectors {
        let s = v.meta.shape();
        if s.num_dims() != 1 || s[0] != d || !float(v) {
            return Err(Unfit(format!(
                "γ or β {s:?} of {:?} for rows of {d}",
                v.dtype
            )));
        }
    }
    if let Some(t) = like_x {
        if t.meta.shape() != shape || !float(t) {
            return Err(Unfit(format!("dy {:?} for x {shape:?}", t.meta.shape())));
        }
    }
    match (u32::try_from(rows), u32::try_from(d)) {
        (Ok(r), Ok(w)) if r > 0 && w > 0 && rows * d < u32::MAX as usize => Ok((r, w)),
        _ => Err(Unfit(format!(
            "an input {shape:?}: empty or too many elements"
        ))),
    }
}

/// [`layer_norm_kernel`]; `Err` says why it cannot run.
fn launch_forward(
    x: &CubeTensor<CudaRuntime>,
    gamma: &CubeTensor<CudaRuntime>,
    beta: &CubeTensor<CudaRuntime>,
    epsilon: f64,
) -> Result<CubeTensor<CudaRuntime>, CudaOpError> {
    let (rows, width) = dims(x, &[gamma, beta], None)?;
    if gamma.dtype != beta.dtype {
        return Err(Unfit(format!(
            "γ of {:?}, β of {:?}",
            gamma.dtype, beta.dtype
        )));
    }
    planes_fit(x)?;
    let (x, gamma, beta) = (contiguous(x), contiguous(gamma), contiguous(beta));
    let y = packed_empty(&x, x.meta.shape().clone(), x.dtype);
    let (count, dim) = row_grid(rows);
    let dtypes = [x.dtype.into(), gamma.dtype.into()];
    layer_norm_kernel::launch::<CudaRuntime>(
        &x.client.clone(),
        count,
        dim,
        x.into_array_arg(),
        gamma.into_array_arg(),
        beta.into_array_arg(),
        y.clone().into_array_arg(),
        rows,
        width,
        epsilon as f32,
        source_key(),
        dtypes,
    );
    Ok(y)
}

/// [`layer_norm_grad_kernel`] and [`layer_norm_columns_kernel`], then burn's sum over the
/// blocks: dx, dγ, dβ; `Err` says why they cannot run.
fn launch_backward(
    x: &CubeTensor<CudaRuntime>,
    gamma: &CubeTensor<CudaRuntime>,
    dy: &CubeTensor<CudaRuntime>,
    epsilon: f64,
    beta_dtype: DType,
) -> Result<[CubeTensor<CudaRuntime>; 3], CudaOpError> {
    let (rows, width) = dims(x, &[gamma], Some(dy))?;
    planes_fit(x)?;
    let (x, gamma, dy) = (contiguous(x), contiguous(gamma), contiguous(dy));
    let dy_dtype = dy.dtype;
    let dx = packed_empty(&x, x.meta.shape().clone(), x.dtype);
    let means = packed_empty(&x, [rows as usize].into(), DType::F32);
    let rstds = packed_empty(&x, [rows as usize].into(), DType::F32);
    let (count, dim) = row_grid(rows);
    let client = x.client.clone();
    layer_norm_grad_kernel::launch::<CudaRuntime>(
        &client,
        count,
        dim,
        x.clone().into_array_arg(),
        gamma.clone().into_array_arg(),
        dy.clone().into_array_arg(),
        dx.clone().into_array_arg(),
        means.clone().into_array_arg(),
        rstds.clone().into_array_arg(),
        rows,
        width,
        epsilon as f32,
        source_key(),
        [x.dtype.into(), gamma.dtype.into(), dy.dtype.into()],
    );
    let blocks = rows.div_ceil(BLOCK_ROWS);
    let partial = packed_empty(&x, [2, blocks as usize, width as usize].into(), DType::F32);
    let threads = blocks as usize * width as usize;
    let dim = CubeDim::new_1d(256);
    let count = CubeCount::Static(threads.div_ceil(256) as u32, 1, 1);
    layer_norm_columns_kernel::launch::<CudaRuntime>(
        &client,
        count,
        dim,
        x.clone().into_array_arg(),
        dy.into_array_arg(),
        means.into_array_arg(),
        rstds.into_array_arg(),
        partial.clone().into_array_arg(),
        rows,
        width,
        blocks,
        BLOCK_ROWS,
        source_key(),
        [x.dtype.into(), dy_dtype.into()],
    );
    let sums = Tensor::<CubeCuda, 3>::from_primitive(TensorPrimitive::Float(partial)).sum_dim(1);
    let part = |i: usize, dtype: DType| {
        sums.clone()
            .narrow(0, i, 1)
            .reshape([width as usize])
            .cast(burn::tensor::FloatDType::from(dtype))
            .into_primitive()
            .tensor()
    };
    Ok([dx, part(0, gamma.dtype), part(1, beta_dtype)])
}

/// Says why a LayerNorm pass did not run on the kernels.
static FALLBACK: Fallback = Fallback::new("LayerNorm");

/// LayerNorm passes run on the kernels so far ([`kernel_calls`]).
static CALLS: Calls = Calls::new();

/// How many LayerNorm passes (forward or backward) this process has run on the kernels:
/// tests/gpu/norm.rs checks that what it compares did run on them.
pub fn kernel_calls() -> u64 {
    CALLS.get()
}

impl NormKernelBackend for CubeCuda {
    /// f32's and bf16's inputs unless `kernels.layer_norm` says otherwise
    /// (super::plane_rows's `on_kernels_by_default`; crate::ops's norm_kernel module has
    /// the measurements).
    fn norm_on_kernels(dtype: DType) -> bool {
        norm_setting().unwrap_or(on_kernels_by_default(dtype))
    }

    fn row_norm(
        x: CubeTensor<CudaRuntime>,
        gamma: CubeTensor<CudaRuntime>,
        beta: CubeTensor<CudaRuntime>,
        epsilon: f64,
    ) -> CubeTensor<CudaRuntime> {
        FALLBACK.or_burn(&CALLS, launch_forward(&x, &gamma, &beta, epsilon), || {
            burn_layer_norm::<Self>(x, gamma, beta, epsilon)
        })
    }

    fn row_norm_backward(
        x: CubeTensor<CudaRuntime>,
        gamma: CubeTensor<CudaRuntime>,
        grad: CubeTensor<CudaRuntime>,
        epsilon: f64,
        beta_dtype: DType,
        split_sum: bool,
    ) -> [CubeTensor<CudaRuntime>; 3] {
        FALLBACK.or_burn(
            &CALLS,
            launch_backward(&x, &gamma, &grad, epsilon, beta_dtype),
            || burn_layer_norm_backward::<Self>(x, gamma, grad, epsilon, beta_dtype, split_sum),
        )
    }
}
