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

use std::ffi::c_void;
use std::time::Instant;

use burn::prelude::*;
use burn::tensor::{DType, Distribution, FloatDType};
use burn_cubecl::CubeBackend;
use cubecl::cuda::{CudaDevice, CudaRuntime};
use cudarc::cublas::{result as blas, sys};
use cudarc::driver::result as drv;

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

/// Which product of the layer.
#[derive(Clone, Copy)]
enum Form {
    /// y = x·W: [m,k]·[k,n]
    Forward,
    /// dX = dY·Wᵀ: [m,n]·[n,k]
    InputGrad,
    /// dW = xᵀ·dY: [k,m]·[m,n]
    WeightGrad,
}

impl Form {
    fn label(self) -> &'static str {
        match self {
            Form::Forward => "x.W",
            Form::InputGrad => "dY.W^T",
            Form::WeightGrad => "x^T.dY",
        }
    }
}

struct Blas {
    handle: sys::cublasHandle_t,
    stream: cudarc::driver::sys::CUstream,
}

impl Blas {
    fn new() -> Self {
        unsafe {
            drv::init().unwrap();
            let dev = drv::device::get(0).unwrap();
            let ctx = drv::primary_ctx::retain(dev).unwrap();
            drv::ctx::set_current(ctx).unwrap();
            let stream = drv::stream::create(drv::stream::StreamKind::NonBlocking).unwrap();
            let handle = blas::create_handle().unwrap();
            blas::set_stream(handle, stream as sys::cudaStream_t).unwrap();
            Blas { handle, stream }
        }
    }

    fn sync(&self) {
        unsafe { drv::stream::synchronize(self.stream).unwrap() }
    }

    /// Row-major C[m,n] = op(A)·op(B) for `form`, written as the column-major call on the
    /// transposes (a row-major X is the column-major Xᵀ).
    #[allow(clippy::too_many_arguments)]
    fn gemm(&self, form: Form, l: &Layer, a: u64, b: u64, c: u64, bf16: bool) {
        use sys::cublasOperation_t::{CUBLAS_OP_N as N, CUBLAS_OP_T as T};
        let (m, k, n) = (l.m as i32, l.k as i32, l.n as i32);
        // (opA, opB, rows, cols, inner, A, lda, B, ldb, ldc) of the column-major call.
        let (oa, ob, r, cc, inner, pa, lda, pb, ldb, ldc) = match form {
            // Yᵀ[n,m] = Wᵀ[n,k]·xᵀ[k,m]: A = W (ld n), B = x (ld k)
            Form::Forward => (N, N, n, m, k, b, n, a, k, n),
            // dXᵀ[k,m] = W[k,n]·dYᵀ[n,m]: A = W stored [k,n] row-major = Wᵀ col-major, so T
            Form::InputGrad => (T, N, k, m, n, b, n, a, n, k),
            // dWᵀ[n,k] = dYᵀ[n,m]·x[m,k]: A = dY (ld n), B = x (ld k) transposed
            Form::WeightGrad => (N, T, n, k, m, b, n, a, k, n),
        };
        let (dt, compute) = if bf16 {
            (
                sys::cudaDataType::CUDA_R_16BF,
                sys::cublasComputeType_t::CUBLAS_COMPUTE_32F,
            )
        } else {
            (
                sys::cudaDataType::CUDA_R_32F,
                sys::cublasComputeType_t::CUBLAS_COMPUTE_32F_FAST_TF32,
            )
        };
        let (alpha, beta) = (1.0f32, 0.0f32);
        unsafe {
            blas::gemm_ex(
                self.handle,
                oa,
                ob,
                r,
                cc,
                inner,
                &alpha as *const f32 as *const c_void,
                pa as *const c_void,
                dt,
                lda,
                pb as *const c_void,
                dt,
                ldb,
                &beta as *const f32 as *const c_void,
                c as *mut c_void,
                dt,
                ldc,
                compute,
                sys::cublasGemmAlgo_t::CUBLAS_GEMM_DEFAULT,
            )
            .unwrap();
        }
    }
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
    let cublas = Blas::new();
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
            cublas.sync();
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
                cublas.gemm(form, l, pa, pb, pc, bf16);
                cublas.sync();
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
                let kernel = time(|| cublas.gemm(form, l, pa, pb, pc, bf16), || cublas.sync());
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
                        cublas.gemm(form, l, p2, pb, pc, bf16);
                        cublas.sync();
                    },
                    sync,
                );
                let flops = 2.0 * (l.m * l.k * l.n) as f64;
                let dtype = if bf16 { DType::BF16 } else { DType::F32 };
                println!(
                    "{}",
                    serde_json::json!({
                        "config": l.config, "layer": l.name, "form": form.label(),
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
