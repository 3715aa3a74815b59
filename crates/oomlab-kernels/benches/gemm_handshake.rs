//! Issue 29, the first measurement of "matrix products on cuBLAS": what a cuBLAS product
//! costs inside burn's CUDA pipeline when cubecl's stream cannot be named.
//!
//! cubecl-cuda 0.10 runs every kernel on a non-blocking stream it keeps private, so a
//! cuBLAS call on another stream is ordered after cubecl's kernels only by a host sync
//! (burn's `Backend::sync`) and before cubecl's next kernels only by synchronizing the
//! cuBLAS stream: two host waits per product. This bench measures, for the linear layers
//! of oomlab's `gpu` and `h200` configs (forward `x·W`, the backward's `dY·Wᵀ` and
//! `xᵀ·dY`), in f32 (cuBLAS with TF32 compute, as PyTorch's allow_tf32) and bf16:
//! - `cubecl`: burn's matmul, back to back, one sync at the end (what oomlab runs now);
//! - `cublas_kernel`: cuBLAS's GemmEx on the same buffers, back to back, one sync;
//! - `handshake_only`: burn's sync and the cuBLAS stream's sync with nothing queued;
//! - `pipeline_cubecl`: an element-wise kernel making the product's input, then the
//!   product, as the model's layers do, one sync at the end;
//! - `pipeline_cublas`: the same element-wise kernel, burn's sync, the buffers' addresses
//!   (`ComputeClient::get_resource`), cuBLAS, the cuBLAS stream's sync;
//! - `max_rel_diff`: the largest |cuBLAS − cubecl| over the largest |cubecl| (a check
//!   that the addresses and layouts are right).
//!
//! Per-product milliseconds, medians of `ROUNDS` rounds of `REPS` products each, one JSON
//! line per row on stdout. Needs CUDA and libcublas on the library path; run through the
//! device (scripts/gpu/gemm-handshake.sh). Figures belong in result files.

// Benchmark setup: a failed unwrap is a broken benchmark.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::time::Instant;

use burn::prelude::*;
use burn::tensor::{DType, Distribution, FloatDType};
use burn_cubecl::CubeBackend;
use cubecl::cuda::{CudaDevice, CudaRuntime};
use oomlab_kernels::cuda::cublas::Handle;
use oomlab_kernels::ops::Form;

type B = CubeBackend<CudaRuntime, f32, i32, u8>;

const REPS: usize = 10;
const ROUNDS: usize = 5;

/// One linear layer of a config: tokens per micro-batch x (in -> out).
struct Layer {
    config: &'static str,
    name: &'static str,
    m: usize,
    k: usize,
    n: usize,
}

/// How the JSON rows name a product.
fn label(form: Form) -> &'static str {
    match form {
        Form::Forward => "x.W",
        Form::InputGrad => "dY.W^T",
        Form::WeightGrad => "x^T.dY",
    }
}

/// The library's cuBLAS call (the one `kernels.linear_products=cublas` runs) for a layer's product.
fn gemm(h: &Handle, form: Form, l: &Layer, a: u64, b: u64, c: u64, bf16: bool) {
    let dtype = if bf16 { DType::BF16 } else { DType::F32 };
    // Row strides of contiguous (asserted by `address`) a, b and c.
    let lds = match form {
        Form::Forward => (l.k, l.n, l.n),
        Form::InputGrad => (l.n, l.n, l.k),
        Form::WeightGrad => (l.k, l.n, l.n),
    };
    // SAFETY: the addresses are live buffers of the layer's shapes (see `address`).
    unsafe { h.gemm(form, (l.m, l.k, l.n), (a, b, c), lds, dtype) }.unwrap();
}

/// The device address of a tensor's buffer, and the resource that keeps it alive.
fn address(t: &Tensor<B, 2>) -> (u64, impl Sized) {
    let ct = t.clone().into_primitive().tensor();
    assert!(
        ct.is_contiguous(),
        "cuBLAS is given contiguous buffers only"
    );
    let r = ct.client.get_resource(ct.handle.clone()).unwrap();
    (r.resource().ptr, r)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// Per-product milliseconds of `f` run REPS times, the median over ROUNDS.
fn time(mut f: impl FnMut(), end: impl Fn()) -> f64 {
    let mut rounds = Vec::new();
    for _ in 0..ROUNDS {
        end();
        let t = Instant::now();
        for _ in 0..REPS {
            f();
        }
        end();
        rounds.push(t.elapsed().as_secs_f64() * 1e3 / REPS as f64);
    }
    median(rounds)
}

fn main() {
    let device = CudaDevice::new(0);
    let sync = || B::sync(&device).unwrap();
    // Initialise cubecl's context (the primary context, which cuBLAS then shares).
    let _ = Tensor::<B, 1>::zeros([1], &device).into_data();
    let cublas = Handle::new(0).unwrap();
    let layers = [
        ("gpu", 64 * 256, 512, 2048),
        ("h200", 128 * 512, 1024, 4096),
    ]
    .into_iter()
    .flat_map(|(config, m, d, f)| {
        [
            Layer {
                config,
                name: "qkv",
                m,
                k: d,
                n: 3 * d,
            },
            Layer {
                config,
                name: "attention out",
                m,
                k: d,
                n: d,
            },
            Layer {
                config,
                name: "mlp up",
                m,
                k: d,
                n: f,
            },
            Layer {
                config,
                name: "mlp down",
                m,
                k: f,
                n: d,
            },
        ]
    })
    .collect::<Vec<_>>();
    let handshake = time(
        || {
            sync();
            cublas.sync().unwrap();
        },
        || {},
    );
    println!(
        "{}",
        serde_json::json!({"row": "handshake_only", "ms": handshake, "reps": REPS, "rounds": ROUNDS})
    );
    for l in &layers {
        for form in [Form::Forward, Form::InputGrad, Form::WeightGrad] {
            for bf16 in [false, true] {
                let (ar, ac, br, bc) = match form {
                    Form::Forward => (l.m, l.k, l.k, l.n),
                    Form::InputGrad => (l.m, l.n, l.k, l.n),
                    Form::WeightGrad => (l.m, l.k, l.m, l.n),
                };
                let cast = |t: Tensor<B, 2>| {
                    if bf16 {
                        t.cast(FloatDType::BF16)
                    } else {
                        t
                    }
                };
                let a = cast(Tensor::<B, 2>::random(
                    [ar, ac],
                    Distribution::Default,
                    &device,
                ));
                let b = cast(Tensor::<B, 2>::random(
                    [br, bc],
                    Distribution::Default,
                    &device,
                ));
                // burn's product in the layer's own form (transposes as views, as autodiff
                // hands them to matmul).
                let product = |a: Tensor<B, 2>, b: Tensor<B, 2>| match form {
                    Form::Forward => a.matmul(b),
                    Form::InputGrad => a.matmul(b.transpose()),
                    Form::WeightGrad => a.transpose().matmul(b),
                };
                // Warm up (autotune) and the reference result.
                let reference = product(a.clone(), b.clone());
                sync();
                let [cr, cc] = reference.dims();
                let c = cast(Tensor::<B, 2>::zeros([cr, cc], &device));
                let (pa, _ka) = address(&a);
                let (pb, _kb) = address(&b);
                let (pc, _kc) = address(&c);
                sync();
                gemm(&cublas, form, l, pa, pb, pc, bf16);
                cublas.sync().unwrap();
                let diff = {
                    let r = reference.clone().cast(FloatDType::F32);
                    let d = (c.clone().cast(FloatDType::F32) - r.clone()).abs().max();
                    let s = r.abs().max();
                    d.into_scalar() / s.into_scalar()
                };
                let cubecl = time(
                    || {
                        let _ = product(a.clone(), b.clone());
                    },
                    sync,
                );
                let kernel = time(
                    || gemm(&cublas, form, l, pa, pb, pc, bf16),
                    || cublas.sync().unwrap(),
                );
                let pipeline_cubecl = time(
                    || {
                        let a2 = a.clone() * 1.0001;
                        let _ = product(a2, b.clone());
                    },
                    sync,
                );
                let pipeline_cublas = time(
                    || {
                        let a2 = a.clone() * 1.0001;
                        sync();
                        let (p2, _k2) = address(&a2);
                        gemm(&cublas, form, l, p2, pb, pc, bf16);
                        cublas.sync().unwrap();
                    },
                    sync,
                );
                let flops = 2.0 * (l.m * l.k * l.n) as f64;
                let dtype = if bf16 { DType::BF16 } else { DType::F32 };
                println!(
                    "{}",
                    serde_json::json!({
                        "config": l.config, "layer": l.name, "form": label(form),
                        "m": l.m, "k": l.k, "n": l.n, "dtype": format!("{dtype:?}"),
                        "cubecl_ms": cubecl, "cublas_kernel_ms": kernel,
                        "pipeline_cubecl_ms": pipeline_cubecl, "pipeline_cublas_ms": pipeline_cublas,
                        "cubecl_tflops": flops / cubecl / 1e9, "cublas_tflops": flops / kernel / 1e9,
                        "max_rel_diff": diff, "reps": REPS, "rounds": ROUNDS,
                    })
                );
            }
        }
    }
}
