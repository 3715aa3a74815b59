//! GPU-only: the feed-forward layer's bias-and-GELU kernels (`kernels.gelu=kernel`,
//! crates/oomlab-kernels/src/cuda/gelu_kernels.rs) equal burn's tensor operations on burn's CUDA backend: the
//! forward pass and the backward pass's dy, in f32 and bf16 (the bias in the product's
//! dtype, as autocast casts it), at small and odd shapes (a row shorter than a cube, widths
//! that are no multiple of 32) and at the `gpu` config's (16,384 rows of 2,048); then the
//! whole layer, gelu(x·W + b) with its gradients of x, W and b through autodiff, against
//! burn's linear and GELU. Checks that every pass compared ran on the kernels (none fell
//! back). Sets the variable before anything reads it, so run it alone, one test at a time
//! (it counts the process's kernel calls): `gpu --ignored --nocapture --test-threads=1 gelu::`.

use burn::backend::cuda::CudaDevice;
use burn::nn::activation::ActivationConfig;
use burn::nn::LinearConfig;
use burn::prelude::*;
use burn::tensor::{DType, Distribution, FloatDType, TensorPrimitive};
use oomlab::backend::CudaBackend;
use oomlab::config::kernels;
use oomlab::model::{
    burn_bias_gelu, burn_bias_gelu_backward, linear, linear_gelu, GeluKernelBackend,
};
use oomlab_kernels::cuda::gelu_kernels::kernel_calls;

use crate::batched::check;
use crate::{relative, Inner};

/// `kernels.gelu=kernel` and cubecl configured, once per process (both tests call it).
fn kernels_on() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        crate::choose(|k| k.gelu = kernels::Gelu::Kernel);
        crate::configure_cubecl_as_train();
    });
    assert!(<Inner as GeluKernelBackend>::gelu_on_kernels(DType::BF16));
}

#[test]
#[ignore = "needs a CUDA GPU: run on the GPU machine with --ignored"]
fn bias_gelu_kernels_equal_burns_tensor_operations_on_cuda() {
    kernels_on();
    let device = CudaDevice::new(0);
    let mut problems = Vec::new();
    let m = |p| Tensor::<Inner, 2>::from_primitive(TensorPrimitive::Float(p));
    for [rows, d] in [[5, 16], [37, 100], [130, 48], [16384, 2048]] {
        for (dtype, bound) in [(FloatDType::F32, 1e-5), (FloatDType::BF16, 1e-2)] {
            Inner::seed(&device, 7);
            let y = Tensor::<Inner, 2>::random([rows, d], Distribution::Normal(0.0, 2.0), &device)
                .cast(dtype);
            let dz = Tensor::<Inner, 2>::random([rows, d], Distribution::Normal(0.0, 1.0), &device)
                .cast(dtype);
            let bias = Tensor::<Inner, 1>::random([d], Distribution::Normal(0.0, 0.5), &device)
                .cast(dtype);
            let what = format!("[{rows}, {d}] {dtype:?}");
            let before = kernel_calls();
            let p = |t: &Tensor<Inner, 2>| t.clone().into_primitive().tensor();
            let b = || bias.clone().into_primitive().tensor();
            let ours = m(<Inner as GeluKernelBackend>::bias_gelu(p(&y), b()));
            let theirs = m(burn_bias_gelu::<Inner>(p(&y), b()));
            if ours.dtype() != theirs.dtype() {
                problems.push(format!("{what}: z in {:?}", ours.dtype()));
            }
            check(
                &mut problems,
                format!("{what} z"),
                relative(ours, theirs),
                bound,
            );
            let dy = m(<Inner as GeluKernelBackend>::bias_gelu_backward(
                p(&y),
                b(),
                p(&dz),
            ));
            let tdy = m(burn_bias_gelu_backward::<Inner>(p(&y), b(), p(&dz)));
            check(
                &mut problems,
                format!("{what} dy"),
                relative(dy, tdy),
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

#[test]
#[ignore = "needs a CUDA GPU: run on the GPU machine with --ignored"]
fn the_layer_on_the_kernels_equals_burns_linear_and_gelu_with_gradients_on_cuda() {
    kernels_on();
    type B = CudaBackend;
    let device = CudaDevice::new(0);
    let mut problems = Vec::new();
    for [batch, seq, k, n] in [[2, 3, 8, 40], [64, 256, 512, 2048]] {
        B::seed(&device, 13);
        let layer = LinearConfig::new(k, n).init::<B>(&device);
        let activation = ActivationConfig::Gelu.init::<B>(&device);
        let x = Tensor::<B, 3>::random([batch, seq, k], Distribution::Normal(0.0, 1.0), &device);
        let w = Tensor::<B, 3>::random([batch, seq, n], Distribution::Default, &device);
        let run = |ours: bool| {
            let x = x.clone().require_grad();
            let out = if ours {
                linear_gelu(&layer, &activation, x.clone())
            } else {
                activation.forward(linear(&layer, x.clone()))
            };
            let grads = (out.clone() * w.clone()).sum().backward();
            let inner = |t: Tensor<B, 3>| t.inner();
            (
                inner(out),
                x.grad(&grads).unwrap(),
                layer.weight.grad(&grads).unwrap(),
                layer.bias.as_ref().unwrap().grad(&grads).unwrap(),
            )
        };
        // Fusion runs the custom operations when their outputs are read: count after the
        // comparisons read them.
        let before = kernel_calls();
        let ours = run(true);
        let theirs = run(false);
        let what = format!("[{batch}, {seq}, {k}] x [{k}, {n}] f32");
        let (z, dx) = (relative(ours.0, theirs.0), relative(ours.1, theirs.1));
        let (dw, db) = (relative(ours.2, theirs.2), relative(ours.3, theirs.3));
        for (part, r) in [("z", z), ("dx", dx), ("dW", dw), ("db", db)] {
            check(&mut problems, format!("{what} {part}"), r, 1e-5);
        }
        let ran = kernel_calls() - before;
        if ran != 2 {
            problems.push(format!("{what}: {ran} of 2 passes ran on the kernels"));
        }
    }
    assert!(problems.is_empty(), "{problems:?}");
}
