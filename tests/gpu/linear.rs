//! GPU-only: the linear layers' custom product (`model::linear_custom`) with cuBLAS on
//! burn's CUDA backend equals burn's `Linear::forward` (output, dX, dW, db), in f32 (cuBLAS
//! in TF32, cubecl's matmul as oomlab runs it) and bf16, at a small shape and at the `gpu`
//! config's feed-forward layer (batch 64, sequence 256, 512 -> 2048). Sets `kernels.linear_products=cublas`
//! before anything reads it; fails if libcublas does not load (the test is about cuBLAS).
//! Ignored by default (CI has no GPU); run on the H200 with `gpu --ignored --nocapture
//! linear::` (libcublas on the library path). Unless `kernels.linear_grads=apart`
//! (scripts/gpu/step-levers.sh's `TESTS=grads1`), dX and dW go to cuBLAS as one pair behind
//! one handshake, and the test checks that each layer's did.
//!
//! cubecl is configured as `oomlab train` does it (the kernel cache folder, and on a card
//! oomlab ships packs for, its autotune results and kernels), so that the reference's bf16
//! products at the training shape need not be autotuned on a fresh machine: every first
//! run of this test on a fresh machine before that change reached its time limit (150 to
//! 320 s), in that case where the output shows where.

use burn::backend::cuda::CudaDevice;
use burn::module::Param;
use burn::nn::{Linear, LinearConfig};
use burn::prelude::*;
use burn::tensor::{Distribution, FloatDType};
use oomlab::backend::CudaBackend;
use oomlab::config::kernels;
use oomlab::device::{
    compute_capability, configure_cubecl, default_kernel_cache, driver_version, install_compiled,
    install_tuned, CardId, CubeclSettings,
};
use oomlab::model::linear_custom;
use oomlab::probe::NvmlView;

type B = CudaBackend;
use crate::{relative, Inner};

/// A way to apply a linear layer.
type Apply = dyn Fn(&Linear<B>, Tensor<B, 3>) -> Tensor<B, 3>;

/// Output, dX, dW and db of `f(layer, x)` against the weight `w` of the upstream gradient.
fn run(
    f: &Apply,
    layer: &Linear<B>,
    x: &Tensor<B, 3>,
    w: &Tensor<B, 3>,
) -> (
    Tensor<Inner, 3>,
    Tensor<Inner, 3>,
    Tensor<Inner, 2>,
    Tensor<Inner, 1>,
) {
    let x = x.clone().require_grad();
    let out = f(layer, x.clone());
    let grads = (out.clone() * w.clone()).sum().backward();
    (
        out.inner(),
        x.grad(&grads).unwrap(),
        layer.weight.val().grad(&grads).unwrap(),
        layer.bias.as_ref().unwrap().val().grad(&grads).unwrap(),
    )
}

#[test]
#[ignore = "needs a CUDA GPU: run on the GPU machine with --ignored"]
fn the_cublas_product_equals_burns_linear_on_cuda() {
    crate::choose(|k| k.linear_products = kernels::LinearProducts::Cublas);
    assert!(
        oomlab_kernels::cuda::cublas::available(),
        "libcublas does not load: put the CUDA toolkit's lib64 on LD_LIBRARY_PATH"
    );
    println!("{}", oomlab_kernels::cuda::cublas::engine());
    let setup = configure_cubecl(&CubeclSettings {
        kernel_cache: default_kernel_cache(),
        exact_memory: false,
    });
    for note in &setup.notes {
        println!("{note}");
    }
    if let (Some(dir), true) = (&setup.kernel_cache, setup.autotune.matches_shipped()) {
        if let Ok(card) = NvmlView::init().and_then(|v| v.device(0)) {
            let card = CardId {
                name: &card.name,
                compute_capability: compute_capability(0),
            };
            if let Some(line) = install_tuned(dir, &card, 0) {
                println!("{line}");
            }
            if let Some(done) = install_compiled(dir, &card, driver_version()) {
                println!("{}", done.note());
            }
        }
    }
    let device = CudaDevice::new(0);
    let mut problems = Vec::new();
    for (batch, seq, d_in, d_out) in [(2, 8, 24, 40), (64, 256, 512, 2048)] {
        let rows = batch * seq;
        for (dtype, bound) in [(FloatDType::F32, 2e-3), (FloatDType::BF16, 3e-2)] {
            B::seed(&device, 5);
            let made = LinearConfig::new(d_in, d_out).init::<B>(&device);
            // The weights in the run's dtype, as the model's are under pure half; every
            // tensor cast on the inner backend and lifted, so each is a fresh leaf.
            let lift2 = |t: Tensor<B, 2>| Tensor::<B, 2>::from_inner(t.inner().cast(dtype));
            let lift1 = |t: Tensor<B, 1>| Tensor::<B, 1>::from_inner(t.inner().cast(dtype));
            let layer = Linear {
                weight: Param::from_tensor(lift2(made.weight.val())),
                bias: made.bias.map(|b| Param::from_tensor(lift1(b.val()))),
            };
            let shape = [batch, seq, d_in];
            let random = |shape: [usize; 3]| {
                Tensor::<B, 3>::from_inner(
                    Tensor::<Inner, 3>::random(shape, Distribution::Normal(0.0, 1.0), &device)
                        .cast(dtype),
                )
            };
            let x = random(shape);
            let w = random([batch, seq, d_out]);
            let pairs = oomlab_kernels::cuda::cublas::linear_grad_pairs_submitted();
            let ours = run(&|l, x| linear_custom(l, x), &layer, &x, &w);
            let theirs = run(&|l, x| l.forward(x), &layer, &x, &w);
            let errors = [
                ("out", relative(ours.0, theirs.0)),
                ("dX", relative(ours.1, theirs.1)),
                ("dW", relative(ours.2, theirs.2)),
                ("db", relative(ours.3, theirs.3)),
            ];
            // Read after the comparisons, which ran the queued work: unless
            // kernels.linear_grads=apart, dW and dX went to cuBLAS as one pair behind one
            // handshake.
            let paired = oomlab_kernels::cuda::cublas::linear_grad_pairs_submitted() - pairs;
            if oomlab_kernels::ops::linear_grads_together::<Inner>() && paired != 1 {
                problems.push(format!(
                    "{rows}x{d_in}->{d_out} {dtype:?}: {paired} gradient pairs on cuBLAS, not 1"
                ));
            }
            for (name, r) in errors {
                println!("{rows}x{d_in}->{d_out} {dtype:?} {name}: relative difference {r:.2e} (bound {bound:.0e})");
                if r.is_nan() || r > bound {
                    problems.push(format!("{rows}x{d_in}->{d_out} {dtype:?} {name}: {r:.2e}"));
                }
            }
        }
    }
    assert!(problems.is_empty(), "over the bound: {problems:?}");
}
