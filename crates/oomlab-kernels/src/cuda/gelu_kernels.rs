//! The feed-forward layer's bias and GELU as one cubecl kernel each way, on CUDA
//! (oomlab's model::gelu module says why).
//!
//! Both are element-wise over the `[rows, width]` product y = x·W (no bias), one thread
//! per element (consecutive threads, consecutive elements), computing in f32 whatever they
//! read, with h = y + b (b broadcast over the rows):
//! - forward: z = h·(1 + erf(h/√2))/2, burn's `gelu`;
//! - backward: dy = dz·g(h), with g the derivative of GELU's tanh approximation and its
//!   constants, as burn-backend's `gelu_backward` (which autodiff's GELU calls) computes it:
//!   with u = 0.0356774·h³ + 0.797885·h, v = 0.0535161·h³ + 0.398942·h and t = tanh(u),
//!   g = t/2 + v·(1 − t²) + 1/2.
//!
//! The bias's gradient, Σ over the rows of dy, stays burn's sum (super::super::model's
//! column_sum).
//!
//! The kernels are oomlab's own, in super::cube::gelu (their code alone there: their cache
//! key carries a hash of that file, `source_key`, so this file's host code can change without
//! invalidating the shipped pack).

use burn::tensor::DType;
use burn_cubecl::tensor::CubeTensor;
use cubecl::cuda::CudaRuntime;
use cubecl::prelude::*;

use super::cube::gelu::{bias_gelu_grad_kernel, bias_gelu_kernel, source_key};
use super::cublas::CubeCuda;
use super::error::CudaOpError::{self, Unfit};
use super::plane_rows::{contiguous, on_kernels_by_default, packed_empty, Calls, Fallback};
use crate::ops::{burn_bias_gelu, burn_bias_gelu_backward, gelu_setting, GeluKernelBackend};

/// Threads per cube.
const CUBE_THREADS: u32 = 256;

/// `(elements, width)` of y `[rows, width]` with a bias `[width]` (and dz like y); or why
/// the kernels cannot take them.
fn dims(
    y: &CubeTensor<CudaRuntime>,
    bias: &CubeTensor<CudaRuntime>,
    dz: Option<&CubeTensor<CudaRuntime>>,
) -> Result<(u32, u32), CudaOpError> {
    let float =
        |t: &CubeTensor<CudaRuntime>| matches!(t.dtype, DType::F32 | DType::BF16 | DType::F16);
    let shape = y.meta.shape();
    if shape.num_dims() != 2 || !float(y) {
        return Err(Unfit(format!(
            "an input {shape:?} of {:?}, not a float matrix",
            y.dtype
        )));
    }
    let width = shape[1];
    let b = bias.meta.shape();
    if b.num_dims() != 1 || b[0] != width || !float(bias) {
        return Err(Unfit(format!(
            "a bias {b:?} of {:?} for rows of {width}",
            bias.dtype
        )));
    }
    if let Some(dz) = dz {
        if dz.meta.shape() != shape || !float(dz) {
            return Err(Unfit(format!("dz {:?} for y {shape:?}", dz.meta.shape())));
        }
    }
    let len = shape.num_elements();
    match (u32::try_from(len), u32::try_from(width)) {
        (Ok(n), Ok(w)) if n > 0 && w > 0 && len < u32::MAX as usize - CUBE_THREADS as usize => {
            Ok((n, w))
        }
        _ => Err(Unfit(format!(
            "an input {shape:?}: empty or too many elements"
        ))),
    }
}

/// The cube count and dimension for `len` elements.
fn grid(len: u32) -> (CubeCount, CubeDim) {
    (
        CubeCount::Static(len.div_ceil(CUBE_THREADS), 1, 1),
        CubeDim::new_1d(CUBE_THREADS),
    )
}

/// [`bias_gelu_kernel`]; `Err` says why it cannot run.
fn launch_forward(
    y: &CubeTensor<CudaRuntime>,
    bias: &CubeTensor<CudaRuntime>,
) -> Result<CubeTensor<CudaRuntime>, CudaOpError> {
    let (len, width) = dims(y, bias, None)?;
    let (y, bias) = (contiguous(y), contiguous(bias));
    let z = packed_empty(&y, y.meta.shape().clone(), y.dtype);
    let (count, dim) = grid(len);
    let dtypes = [y.dtype.into(), bias.dtype.into()];
    bias_gelu_kernel::launch::<CudaRuntime>(
        &y.client.clone(),
        count,
        dim,
        y.into_array_arg(),
        bias.into_array_arg(),
        z.clone().into_array_arg(),
        len,
        width,
        std::f32::consts::SQRT_2,
        source_key(),
        dtypes,
    );
    Ok(z)
}

/// [`bias_gelu_grad_kernel`]; `Err` says why it cannot run.
fn launch_backward(
    y: &CubeTensor<CudaRuntime>,
    bias: &CubeTensor<CudaRuntime>,
    dz: &CubeTensor<CudaRuntime>,
) -> Result<CubeTensor<CudaRuntime>, CudaOpError> {
    let (len, width) = dims(y, bias, Some(dz))?;
    let (y, bias, dz) = (contiguous(y), contiguous(bias), contiguous(dz));
    let dy = packed_empty(&y, y.meta.shape().clone(), y.dtype);
    let (count, dim) = grid(len);
    let dtypes = [y.dtype.into(), bias.dtype.into(), dz.dtype.into()];
    bias_gelu_grad_kernel::launch::<CudaRuntime>(
        &y.client.clone(),
        count,
        dim,
        y.into_array_arg(),
        bias.into_array_arg(),
        dz.into_array_arg(),
        dy.clone().into_array_arg(),
        len,
        width,
        source_key(),
        dtypes,
    );
    Ok(dy)
}

/// Says why a bias and GELU did not run on the kernels.
static FALLBACK: Fallback = Fallback::new("the feed-forward layer's bias and GELU");

/// Passes run on the kernels so far ([`kernel_calls`]).
static CALLS: Calls = Calls::new();

/// How many bias-and-GELU passes (forward or backward) this process has run on the
/// kernels: tests/gpu/gelu.rs checks that what it compares did run on them.
pub fn kernel_calls() -> u64 {
    CALLS.get()
}

impl GeluKernelBackend for CubeCuda {
    /// f32's and bf16's products unless `kernels.gelu` says otherwise
    /// (super::plane_rows's `on_kernels_by_default`; crate::ops's gelu_kernel module has
    /// the measurements).
    fn gelu_on_kernels(dtype: DType) -> bool {
        gelu_setting().unwrap_or(on_kernels_by_default(dtype))
    }

    fn bias_gelu(
        y: CubeTensor<CudaRuntime>,
        bias: CubeTensor<CudaRuntime>,
    ) -> CubeTensor<CudaRuntime> {
        FALLBACK.or_burn(&CALLS, launch_forward(&y, &bias), || {
            burn_bias_gelu::<Self>(y, bias)
        })
    }

    fn bias_gelu_backward(
        y: CubeTensor<CudaRuntime>,
        bias: CubeTensor<CudaRuntime>,
        grad: CubeTensor<CudaRuntime>,
    ) -> CubeTensor<CudaRuntime> {
        FALLBACK.or_burn(&CALLS, launch_backward(&y, &bias, &grad), || {
            burn_bias_gelu_backward::<Self>(y, bias, grad)
        })
    }
}
