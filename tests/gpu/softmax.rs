//! GPU-only: attention's softmax kernels (`kernels.attention_softmax=kernel`,
//! crates/oomlab-kernels/src/cuda/softmax_kernels.rs) equal burn's tensor operations on burn's CUDA backend:
//! the causal softmax and its gradient (from P in f32, and in bf16 where the inputs are:
//! `kernels.backward_probs=inputs`), read and written in f32 and bf16, at small and
//! odd shapes (rows shorter than a plane, not a multiple of it) and at the `gpu` config's
//! (batch 64, 8 heads, sequence 256); and (a second test) the efficient attention with
//! them against the written-out one. Checks that every softmax compared ran on the
//! kernels (none fell back). Sets the variable before anything reads it, so run it alone,
//! one test at a time (the tests count the process's kernel calls): `gpu --ignored
//! --nocapture --test-threads=1 softmax::`.

use burn::backend::cuda::CudaDevice;
use burn::prelude::*;
use burn::tensor::{DType, Distribution, FloatDType, TensorPrimitive};
use oomlab::config::kernels;
use oomlab::model::{
    burn_causal_softmax, burn_softmax_grad, causal_softmax, softmax_grad, SoftmaxBackend,
};
use oomlab_kernels::cuda::softmax_kernels::kernel_calls;

use crate::batched::check;
use crate::{relative, Inner};

/// Sets `kernels.attention_softmax=kernel` and configures cubecl.
fn ask_for_kernels() {
    crate::choose(|k| k.attention_softmax = kernels::AttentionSoftmax::Kernel);
    crate::configure_cubecl_as_train();
    assert!(<Inner as SoftmaxBackend>::softmax_on_kernels(DType::BF16));
}

fn tensor(p: burn::tensor::ops::FloatTensor<Inner>) -> Tensor<Inner, 4> {
    Tensor::from_primitive(TensorPrimitive::Float(p))
}

/// burn's causal softmax of `scores` (scale 0.125) in `dtype`.
fn p_read(scores: &Tensor<Inner, 4>, dtype: FloatDType) -> Tensor<Inner, 4> {
    tensor(burn_causal_softmax::<Inner>(
        scores.clone().into_primitive().tensor(),
        0.125,
        dtype.into(),
    ))
}

#[test]
#[ignore = "needs a CUDA GPU: run on the GPU machine with --ignored"]
fn softmax_kernels_equal_burns_tensor_operations_on_cuda() {
    ask_for_kernels();
    let device = CudaDevice::new(0);
    let mut problems = Vec::new();
    for shape in [
        [2, 4, 16, 16],
        [1, 3, 37, 37],
        [2, 2, 5, 5],
        [64, 8, 256, 256],
    ] {
        for (read, write, bound) in [
            (FloatDType::F32, DType::F32, 1e-5),
            (FloatDType::BF16, DType::F32, 1e-5),
            (FloatDType::BF16, DType::BF16, 1e-2),
        ] {
            Inner::seed(&device, 3);
            let normal = Distribution::Normal(0.0, 2.0);
            let scores = Tensor::<Inner, 4>::random(shape, normal, &device).cast(read);
            let dp = Tensor::<Inner, 4>::random(shape, normal, &device).cast(read);
            let before = kernel_calls();
            let ours = causal_softmax(scores.clone(), 0.125, write);
            let theirs = tensor(burn_causal_softmax::<Inner>(
                scores.clone().into_primitive().tensor(),
                0.125,
                write,
            ));
            let what = format!("{shape:?} {read:?} to {write:?}");
            if ours.dtype() != write {
                problems.push(format!("{what}: P in {:?}", ours.dtype()));
            }
            // The future is exactly zero.
            let future: f64 = ours
                .clone()
                .cast(FloatDType::F32)
                .mask_fill(
                    Tensor::<Inner, 2, Bool>::tril_mask([shape[2], shape[3]], 0, &device)
                        .bool_not()
                        .unsqueeze::<4>()
                        .expand(shape),
                    0.0,
                )
                .abs()
                .sum()
                .into_scalar()
                .elem();
            if future != 0.0 {
                problems.push(format!("{what}: {future} above the diagonal"));
            }
            check(
                &mut problems,
                format!("{what} P"),
                relative(ours, theirs.clone()),
                bound,
            );
            // The gradient from P in f32 (as the backward pass keeps it) and dP as read.
            let p = theirs.cast(FloatDType::F32);
            let ours = softmax_grad(p.clone(), dp.clone(), 0.125, write);
            let theirs = tensor(burn_softmax_grad::<Inner>(
                p.into_primitive().tensor(),
                dp.clone().into_primitive().tensor(),
                0.125,
                write,
            ));
            check(
                &mut problems,
                format!("{what} dS"),
                relative(ours, theirs),
                bound,
            );
            // And from P in the dtype read (kernels.backward_probs=inputs), where that is
            // not f32: the kernel reads it as it is, burn's operations cast it to f32.
            let mut kernels = 2;
            if read != FloatDType::F32 {
                let p = p_read(&scores, read);
                let ours = softmax_grad(p.clone(), dp.clone(), 0.125, write);
                let theirs = tensor(burn_softmax_grad::<Inner>(
                    p.into_primitive().tensor(),
                    dp.into_primitive().tensor(),
                    0.125,
                    write,
                ));
                check(
                    &mut problems,
                    format!("{what} dS from P in {read:?}"),
                    relative(ours, theirs),
                    bound,
                );
                kernels += 1;
            }
            let ran = kernel_calls() - before;
            if ran != kernels {
                problems.push(format!("{what}: {ran} of {kernels} ran on the kernels"));
            }
        }
    }
    assert!(problems.is_empty(), "{problems:?}");
}

#[test]
#[ignore = "needs a CUDA GPU: run on the GPU machine with --ignored"]
fn the_efficient_attention_on_the_softmax_kernels_equals_the_written_out_one_on_cuda() {
    ask_for_kernels();
    // The backward pass's softmax and gradient at least.
    let problems = crate::attention::efficient_against_written_out(
        &[[2, 4, 64, 16], [8, 8, 256, 64]],
        kernel_calls,
        2,
        "softmaxes on the kernels",
    );
    assert!(problems.is_empty(), "{problems:?}");
}
