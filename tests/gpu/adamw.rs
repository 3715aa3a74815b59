//! GPU-only: AdamW's update on oomlab's kernel (the kernels crate's cuda/adamw_kernels.rs, behind
//! oomlab's `FusedAdamW`) equals burn's `AdamW` on burn's CUDA backend: the parameter and both
//! moments after five updates (the first is burn's own in both), with and without weight
//! decay, at small, odd and the `gpu` config's largest shapes; once with every input the
//! update's alone (the kernel writes in place) and once with a copy of the parameter and of
//! the moments kept elsewhere, which must come out unchanged. Checks that every update
//! after the first ran on the kernel. Counts the process's kernel calls, so run it alone:
//! `gpu --ignored --nocapture --test-threads=1 adamw::`.

use burn::backend::cuda::CudaDevice;
use burn::optim::{AdamWConfig, AdamWState, SimpleOptimizer};
use burn::prelude::*;
use burn::tensor::Distribution;
use oomlab::optim::{AdamWKernelBackend, FusedAdamW};
use oomlab_kernels::cuda::adamw_kernels::kernel_calls;

use crate::batched::check;
use crate::{relative, Inner};

/// Updates of one parameter, and its state after them.
type Updated<const D: usize> = (Tensor<Inner, D>, Option<AdamWState<Inner, D>>);

/// `steps` updates of `param` by `optim` with the gradients `grads`; where `keep_copies`,
/// a copy of the parameter and of the moments is held through each update and checked
/// unchanged after it (pushed to `problems` otherwise).
fn updates<O: SimpleOptimizer<Inner, State<D> = AdamWState<Inner, D>>, const D: usize>(
    optim: &O,
    param: Tensor<Inner, D>,
    grads: &[Tensor<Inner, D>],
    keep_copies: bool,
    problems: &mut Vec<String>,
) -> Updated<D> {
    let mut state: Option<AdamWState<Inner, D>> = None;
    let mut param = param;
    for (i, g) in grads.iter().enumerate() {
        let held = keep_copies.then(|| {
            let m = state.as_ref().map(|s| {
                (
                    s.momentum.moment_1.clone(),
                    s.momentum.moment_1.to_data(),
                    s.momentum.moment_2.clone(),
                    s.momentum.moment_2.to_data(),
                )
            });
            (param.clone(), param.to_data(), m)
        });
        let (p, s) = optim.step(1e-3, param, g.clone(), state);
        param = p;
        state = s;
        if let Some((p0, d0, m)) = held {
            let unchanged = |t: Tensor<Inner, D>, d: &burn::tensor::TensorData| t.to_data() == *d;
            if !unchanged(p0, &d0) {
                problems.push(format!("update {i}: a held copy of the parameter changed"));
            }
            if let Some((m1, d1, m2, d2)) = m {
                if !unchanged(m1, &d1) || !unchanged(m2, &d2) {
                    problems.push(format!("update {i}: a held copy of a moment changed"));
                }
            }
        }
    }
    (param, state)
}

/// Five updates of a parameter of `shape` on the kernel and by burn's `AdamW`, compared.
fn compare<const D: usize>(
    shape: [usize; D],
    weight_decay: f32,
    keep_copies: bool,
    problems: &mut Vec<String>,
) {
    let device = CudaDevice::new(0);
    Inner::seed(&device, 11);
    let param = Tensor::<Inner, D>::random(shape, Distribution::Normal(0.0, 0.5), &device);
    let grads: Vec<_> = (0..5)
        .map(|_| Tensor::<Inner, D>::random(shape, Distribution::Normal(0.0, 1e-2), &device))
        .collect();
    let data = param.to_data();
    let fresh = || Tensor::<Inner, D>::from_data(data.clone(), &device);
    let what = format!("{shape:?} weight decay {weight_decay} copies held {keep_copies}");
    let before = kernel_calls();
    let ours = updates(
        &FusedAdamW::new(weight_decay),
        fresh(),
        &grads,
        keep_copies,
        problems,
    );
    let burn = AdamWConfig::new().with_weight_decay(weight_decay).build();
    let theirs = updates(&burn, fresh(), &grads, false, problems);
    let (ours_state, theirs_state) = (ours.1.unwrap().momentum, theirs.1.unwrap().momentum);
    if ours_state.time != theirs_state.time {
        problems.push(format!(
            "{what}: time {} against {}",
            ours_state.time, theirs_state.time
        ));
    }
    check(
        problems,
        format!("{what} param"),
        relative(ours.0, theirs.0),
        1e-6,
    );
    let (m1, m2) = (ours_state.moment_1, ours_state.moment_2);
    check(
        problems,
        format!("{what} m"),
        relative(m1, theirs_state.moment_1),
        1e-6,
    );
    check(
        problems,
        format!("{what} v"),
        relative(m2, theirs_state.moment_2),
        1e-6,
    );
    let ran = kernel_calls() - before;
    if ran != 4 {
        problems.push(format!("{what}: {ran} of 4 updates ran on the kernel"));
    }
}

#[test]
#[ignore = "needs a CUDA GPU: run on the GPU machine with --ignored"]
fn adamw_on_the_kernel_equals_burns_adamw_on_cuda() {
    crate::configure_cubecl_as_train();
    assert!(<Inner as AdamWKernelBackend>::adamw_on_kernel(
        burn::tensor::DType::F32
    ));
    let mut problems = Vec::new();
    for weight_decay in [0.0, 0.1] {
        for keep_copies in [false, true] {
            compare([5], weight_decay, keep_copies, &mut problems);
            compare([37, 100], weight_decay, keep_copies, &mut problems);
            compare([3, 7, 11], weight_decay, keep_copies, &mut problems);
            compare([512, 2048], weight_decay, keep_copies, &mut problems);
        }
    }
    assert!(problems.is_empty(), "{problems:?}");
}
