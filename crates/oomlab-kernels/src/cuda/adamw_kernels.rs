//! AdamW's update of one f32 parameter as one cubecl kernel, on CUDA (crate::ops says
//! why).
//!
//! One thread per element (consecutive threads, consecutive elements) reads the parameter,
//! its gradient and both moments and writes the three updated, in f32, the operations in
//! the order burn's `AdamW` writes them (crate::ops's `burn_adamw_update`). Where an
//! input's buffer is the operation's alone (the old parameter or moment, dropped after the
//! update: cubecl's `can_mut`) and contiguous, its update is written into it, as burn's
//! fused element-wise kernels write in place; elsewhere into a new buffer.
//!
//! The kernel is oomlab's own, in super::cube::adamw (its code alone there: its cache key
//! carries a hash of that file, `source_key`, so this file's host code can change without
//! invalidating the shipped pack).

use burn::tensor::DType;
use burn_cubecl::tensor::CubeTensor;
use cubecl::cuda::CudaRuntime;
use cubecl::prelude::*;

use super::cube::adamw::{adamw_kernel, source_key};
use super::cublas::CubeCuda;
use super::error::CudaOpError::{self, Unfit};
use super::plane_rows::{contiguous, packed_empty, Calls, Fallback};
use crate::ops::{adamw_setting, burn_adamw_update, AdamWKernelBackend, AdamWScalars};

/// Threads per cube.
const CUBE_THREADS: u32 = 256;

/// The elements of the four tensors (one shape, f32); or why the kernel cannot take them.
fn elements(tensors: [&CubeTensor<CudaRuntime>; 4]) -> Result<u32, CudaOpError> {
    let shape = tensors[0].meta.shape();
    for t in tensors {
        if t.dtype != DType::F32 {
            return Err(Unfit(format!("a tensor of {:?}, not f32", t.dtype)));
        }
        if t.meta.shape() != shape {
            return Err(Unfit(format!(
                "tensors of shapes {shape:?} and {:?}",
                t.meta.shape()
            )));
        }
    }
    let len = shape.num_elements();
    match u32::try_from(len) {
        Ok(n) if n > 0 && len < u32::MAX as usize - CUBE_THREADS as usize => Ok(n),
        _ => Err(Unfit(format!(
            "a parameter {shape:?}: empty or too many elements"
        ))),
    }
}

/// Where `t`'s update goes: its own buffer where nothing else holds it and it is
/// contiguous, else a new one.
fn target(t: &CubeTensor<CudaRuntime>) -> CubeTensor<CudaRuntime> {
    if t.can_mut() && t.is_contiguous() && t.is_contiguous_buffer() {
        t.clone()
    } else {
        packed_empty(t, t.meta.shape().clone(), t.dtype)
    }
}

/// [`adamw_kernel`]; `Err` says why it cannot run.
fn launch(
    param: &CubeTensor<CudaRuntime>,
    grad: &CubeTensor<CudaRuntime>,
    moment_1: &CubeTensor<CudaRuntime>,
    moment_2: &CubeTensor<CudaRuntime>,
    scalars: AdamWScalars,
) -> Result<[CubeTensor<CudaRuntime>; 3], CudaOpError> {
    let len = elements([param, grad, moment_1, moment_2])?;
    // The targets first: `can_mut` counts the references to a buffer, and the contiguous
    // views below are more.
    let outs = [target(param), target(moment_1), target(moment_2)];
    let ins = [param, grad, moment_1, moment_2].map(contiguous);
    let [p, g, m, v] = ins;
    let (factor_1, factor_2) = scalars.factors();
    let (correction_1, correction_2) = scalars.corrections();
    let keep = scalars.keep().map_or(1.0, |k| k as f32);
    adamw_kernel::launch::<CudaRuntime>(
        &p.client.clone(),
        CubeCount::Static(len.div_ceil(CUBE_THREADS), 1, 1),
        CubeDim::new_1d(CUBE_THREADS),
        p.into_array_arg(),
        g.into_array_arg(),
        m.into_array_arg(),
        v.into_array_arg(),
        outs[0].clone().into_array_arg(),
        outs[1].clone().into_array_arg(),
        outs[2].clone().into_array_arg(),
        len,
        scalars.beta_1,
        factor_1,
        scalars.beta_2,
        factor_2,
        correction_1,
        correction_2,
        scalars.epsilon,
        scalars.lr as f32,
        keep,
        source_key(),
    );
    Ok(outs)
}

/// Says why an update did not run on the kernel.
static FALLBACK: Fallback = Fallback::new("AdamW's update");

/// Updates run on the kernel so far ([`kernel_calls`]).
static CALLS: Calls = Calls::new();

/// How many parameter updates this process has run on the kernel: tests/gpu/adamw.rs
/// checks that what it compares did run on it.
pub fn kernel_calls() -> u64 {
    CALLS.get()
}

impl AdamWKernelBackend for CubeCuda {
    /// f32 parameters (the kernel's one dtype) unless `kernels.adamw=burn` (crate::ops has
    /// the measurements).
    fn adamw_on_kernel(dtype: DType) -> bool {
        dtype == DType::F32 && adamw_setting() != Some(false)
    }

    fn adamw_update(
        param: CubeTensor<CudaRuntime>,
        grad: CubeTensor<CudaRuntime>,
        moment_1: CubeTensor<CudaRuntime>,
        moment_2: CubeTensor<CudaRuntime>,
        scalars: AdamWScalars,
    ) -> [CubeTensor<CudaRuntime>; 3] {
        FALLBACK.or_burn(
            &CALLS,
            launch(&param, &grad, &moment_1, &moment_2, scalars),
            || burn_adamw_update::<Self>(param, grad, moment_1, moment_2, scalars),
        )
    }
}
