//! The GPU-only tests, in one binary so burn's CUDA backend is compiled into one test
//! program instead of two. Ignored by default (CI has no GPU); the H200 scripts run this
//! binary (`cargo test --release --test gpu --no-run`) with `--ignored --nocapture` and a
//! filter: `oom::` (scripts/gpu/oom-detector.sh, memory-probes.sh, auto-halve.sh, crash.sh),
//! `attention::` (scripts/gpu/cold-first-step.sh), each run by scripts/gpu/run.sh, or
//! `adamw::` (AdamW's update on oomlab's kernel against burn's AdamW; one test at a time),
//! `linear::` (the cuBLAS product against burn's Linear; scripts/gpu/cublas-order.sh,
//! cublas-diag.sh and step-levers.sh), or, through step-levers.sh: `batched::`
//! (attention's batched products on cuBLAS against burn's matmul), `softmax::`, `norm::`
//! and `gelu::` (oomlab's kernels against burn's tensor operations; one test at a time,
//! `--test-threads=1`, as they count the process's kernel calls).

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod adamw;
mod attention;
mod batched;
mod gelu;
mod linear;
mod norm;
mod oom;
mod softmax;

use burn::prelude::*;
use burn::tensor::backend::AutodiffBackend;
use burn::tensor::FloatDType;

/// The inner backend of oomlab's CUDA training backend (no autodiff).
type Inner = <oomlab::backend::CudaBackend as AutodiffBackend>::InnerBackend;

/// Sets one `[kernels]` key for the rest of this process, keeping the others as they are
/// (as a run's config would; the tests run one at a time).
fn choose(edit: impl FnOnce(&mut oomlab::config::KernelsSection)) {
    static SECTION: std::sync::Mutex<Option<oomlab::config::KernelsSection>> =
        std::sync::Mutex::new(None);
    let mut kept = SECTION
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let section = kept.get_or_insert_with(Default::default);
    edit(section);
    oomlab::model::use_kernels(*section);
}

/// cubecl configured as `oomlab train` does it (its kernel cache folder, the default pool),
/// its notes printed.
fn configure_cubecl_as_train() {
    use oomlab::device::{configure_cubecl, default_kernel_cache, CubeclSettings};
    for note in configure_cubecl(&CubeclSettings {
        kernel_cache: default_kernel_cache(),
        exact_memory: false,
    })
    .notes
    {
        println!("{note}");
    }
}

/// ‖a − b‖ / ‖b‖ in f32 (Frobenius norms), whatever the tensors' dtype and backend (the
/// GPU's, or the host's for references computed there).
fn relative<Bk: Backend, const D: usize>(a: Tensor<Bk, D>, b: Tensor<Bk, D>) -> f64 {
    let a = a.cast(FloatDType::F32);
    let b = b.cast(FloatDType::F32);
    let diff: f64 = (a - b.clone())
        .powi_scalar(2)
        .sum()
        .into_scalar()
        .elem::<f64>()
        .sqrt();
    let norm: f64 = b.powi_scalar(2).sum().into_scalar().elem::<f64>().sqrt();
    diff / norm
}
