//! GPU-only: memory-efficient attention on burn's CUDA backend equals the written-out one
//! (forward and dQ, dK, dV), in f32 and bf16, at a small shape and at the `gpu` config's
//! shape; prints the time of a forward + backward of each. Ignored by default (CI has no
//! GPU); run on the H200 by `scripts/gpu/run.sh cold-first-step` (`gpu --ignored --nocapture attention::`).

use std::time::Instant;

use burn::backend::cuda::CudaDevice;
use burn::prelude::*;
use burn::tensor::{Distribution, FloatDType};
use oomlab::backend::CudaBackend;
use oomlab::model::attention::{efficient::causal_attention, math_attention};

type B = CudaBackend;
use crate::{relative, Inner};

/// Output, dQ, dK and dV of `attend` on x = [q, k, v, w] (w weighs the output in the
/// loss), and the seconds it took.
pub(crate) fn run(
    attend: fn(Tensor<B, 4>, Tensor<B, 4>, Tensor<B, 4>) -> Tensor<B, 4>,
    x: &[Tensor<B, 4>; 4],
) -> ([Tensor<Inner, 4>; 4], f64) {
    let device = x[0].device();
    let [q, k, v, w] = x.clone();
    let started = Instant::now();
    let (q, k, v) = (q.require_grad(), k.require_grad(), v.require_grad());
    let out = attend(q.clone(), k.clone(), v.clone());
    let grads = (out.clone() * w).sum().backward();
    let r = [
        out.inner(),
        q.grad(&grads).unwrap(),
        k.grad(&grads).unwrap(),
        v.grad(&grads).unwrap(),
    ];
    B::sync(&device).unwrap();
    (r, started.elapsed().as_secs_f64())
}

/// The efficient attention on heads views (`[b, t, h, d]` storage seen as `[b, h, t, d]`,
/// as the model's Q, K and V are) against the written-out one, in f32 (bound 2e-3) and
/// bf16 (3e-2), at each of `shapes`; one attention must add at least `least` to the
/// process counter `count` (its calls on the lever under test, `what` names them). The
/// problems found, each comparison printed.
pub(crate) fn efficient_against_written_out(
    shapes: &[[usize; 4]],
    count: fn() -> u64,
    least: u64,
    what: &str,
) -> Vec<String> {
    let device = CudaDevice::new(0);
    let mut problems = Vec::new();
    for &shape in shapes {
        for (dtype, bound) in [(FloatDType::F32, 2e-3), (FloatDType::BF16, 3e-2)] {
            B::seed(&device, 11);
            let [b, h, t, d] = shape;
            let x = [0, 1, 2, 3].map(|_| {
                Tensor::<B, 4>::random([b, t, h, d], Distribution::Normal(0.0, 1.0), &device)
                    .cast(dtype)
                    .swap_dims(1, 2)
            });
            let before = count();
            let (eff, _) = run(causal_attention, &x);
            let ran = count() - before;
            if ran < least {
                problems.push(format!("{shape:?} {dtype:?}: {ran} {what}"));
            }
            let (math, _) = run(math_attention, &x);
            for (name, (e, m)) in ["out", "dQ", "dK", "dV"]
                .iter()
                .zip(eff.into_iter().zip(math))
            {
                crate::batched::check(
                    &mut problems,
                    format!("attention {shape:?} {dtype:?} {name}"),
                    relative(e, m),
                    bound,
                );
            }
        }
    }
    problems
}

#[test]
#[ignore = "needs a CUDA GPU: run on the GPU machine with --ignored"]
fn efficient_attention_equals_the_written_out_one_on_cuda() {
    crate::configure_cubecl_as_train();
    let device = CudaDevice::new(0);
    let mut problems = Vec::new();
    for shape in [[2, 4, 64, 16], [64, 8, 256, 64]] {
        for (dtype, bound) in [(FloatDType::F32, 2e-3), (FloatDType::BF16, 3e-2)] {
            B::seed(&device, 11);
            let x = [0, 1, 2, 3].map(|_| {
                Tensor::<B, 4>::random(shape, Distribution::Normal(0.0, 1.0), &device).cast(dtype)
            });
            // Twice each: the first call compiles and autotunes.
            let _ = run(causal_attention, &x);
            let _ = run(math_attention, &x);
            let (eff, t_eff) = run(causal_attention, &x);
            let (math, t_math) = run(math_attention, &x);
            for (name, (e, m)) in ["out", "dQ", "dK", "dV"]
                .iter()
                .zip(eff.into_iter().zip(math))
            {
                let r = relative(e, m);
                println!(
                    "{shape:?} {dtype:?} {name}: relative difference {r:.2e} (bound {bound:e})"
                );
                if r.is_nan() || r > bound {
                    problems.push(format!("{shape:?} {dtype:?} {name}: {r:e}"));
                }
            }
            println!(
                "{shape:?} {dtype:?}: forward + backward efficient {:.2} ms, math {:.2} ms",
                t_eff * 1e3,
                t_math * 1e3
            );
        }
    }
    assert!(problems.is_empty(), "{problems:?}");
}
