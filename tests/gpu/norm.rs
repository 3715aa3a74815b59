//! GPU-only: LayerNorm's kernels (`kernels.layer_norm=kernel`, crates/oomlab-kernels/src/cuda/norm_kernels.rs)
//! equal burn's tensor operations on burn's CUDA backend: the forward pass and the
//! backward pass's dx, dγ and dβ, in f32 and bf16 (γ and β in the input's dtype, as
//! autocast casts them), at small and odd shapes (rows shorter than a plane, a row count
//! that leaves the last block of the column sums short) and at the `gpu` config's (16,384
//! rows of 512). Checks that every pass compared ran on the kernels (none fell back). Sets
//! the variable before anything reads it, so run it alone, one test at a time (it counts the process's kernel calls): `gpu
//! --ignored --nocapture --test-threads=1 norm::`.

use burn::backend::cuda::CudaDevice;
use burn::prelude::*;
use burn::tensor::{DType, Distribution, FloatDType, TensorPrimitive};
use oomlab::config::kernels;
use oomlab::model::{burn_layer_norm, burn_layer_norm_backward, NormKernelBackend};
use oomlab_kernels::cuda::norm_kernels::kernel_calls;

use crate::batched::check;
use crate::{relative, Inner};

#[test]
#[ignore = "needs a CUDA GPU: run on the GPU machine with --ignored"]
fn layer_norm_kernels_equal_burns_tensor_operations_on_cuda() {
    crate::choose(|k| k.layer_norm = kernels::LayerNorm::Kernel);
    crate::configure_cubecl_as_train();
    assert!(<Inner as NormKernelBackend>::norm_on_kernels(DType::BF16));
    let device = CudaDevice::new(0);
    let mut problems = Vec::new();
    let m = |p| Tensor::<Inner, 2>::from_primitive(TensorPrimitive::Float(p));
    let v = |p| Tensor::<Inner, 1>::from_primitive(TensorPrimitive::Float(p));
    for [rows, d] in [[5, 16], [37, 100], [130, 48], [16384, 512]] {
        for (dtype, bound) in [(FloatDType::F32, 1e-5), (FloatDType::BF16, 1e-2)] {
            Inner::seed(&device, 5);
            let x = Tensor::<Inner, 2>::random([rows, d], Distribution::Normal(3.0, 2.0), &device)
                .cast(dtype);
            let dy = Tensor::<Inner, 2>::random([rows, d], Distribution::Normal(0.0, 1.0), &device)
                .cast(dtype);
            let gamma = Tensor::<Inner, 1>::random([d], Distribution::Normal(1.0, 0.5), &device)
                .cast(dtype);
            let beta = Tensor::<Inner, 1>::random([d], Distribution::Normal(0.0, 0.5), &device)
                .cast(dtype);
            let what = format!("[{rows}, {d}] {dtype:?}");
            let before = kernel_calls();
            let p = |t: &Tensor<Inner, 2>| t.clone().into_primitive().tensor();
            let q = |t: &Tensor<Inner, 1>| t.clone().into_primitive().tensor();
            let ours = m(<Inner as NormKernelBackend>::row_norm(
                p(&x),
                q(&gamma),
                q(&beta),
                1e-5,
            ));
            let theirs = m(burn_layer_norm::<Inner>(p(&x), q(&gamma), q(&beta), 1e-5));
            if ours.dtype() != theirs.dtype() {
                problems.push(format!("{what}: y in {:?}", ours.dtype()));
            }
            check(
                &mut problems,
                format!("{what} y"),
                relative(ours, theirs),
                bound,
            );
            let [dx, dg, db] = <Inner as NormKernelBackend>::row_norm_backward(
                p(&x),
                q(&gamma),
                p(&dy),
                1e-5,
                DType::from(dtype),
                false,
            );
            let [tdx, tdg, tdb] = burn_layer_norm_backward::<Inner>(
                p(&x),
                q(&gamma),
                p(&dy),
                1e-5,
                dtype.into(),
                false,
            );
            check(
                &mut problems,
                format!("{what} dx"),
                relative(m(dx), m(tdx)),
                bound,
            );
            check(
                &mut problems,
                format!("{what} dγ"),
                relative(v(dg), v(tdg)),
                bound,
            );
            check(
                &mut problems,
                format!("{what} dβ"),
                relative(v(db), v(tdb)),
                bound,
            );
            let ran = kernel_calls() - before;
            if ran != 2 {
                problems.push(format!("{what}: {ran} of 2 passes ran on the kernels"));
            }
        }
    }
    assert!(problems.is_empty(), "{problems:?}");
}
