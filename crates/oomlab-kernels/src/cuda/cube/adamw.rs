//! The `#[cube]` kernel of AdamW's update (super::super::adamw_kernels launches it and says
//! what it computes).
//!
//! Its cache key carries a hash of this file (`source_key`), so a compiled-kernel pack made
//! before an edit of it cannot serve it; edits of the host code leave the key as it was.

use cubecl::prelude::*;

/// A hash of this file (the kernel's code alone, not the host code that launches it), a
/// compile-time argument of the kernel: part of its cache key (a test in
/// super::super::compiled holds every `#[cube]` kernel of oomlab's to that).
pub(crate) fn source_key() -> u32 {
    crc32fast::hash(include_str!("adamw.rs").as_bytes())
}

/// One AdamW update of each element, in f32, the operations in the order burn's `AdamW`
/// writes them: m' = m·β₁ + g·(1 − β₁), v' = v·β₂ + g²·(1 − β₂),
/// p' = p·keep − (m'/c₁)/(√(v'/c₂) + ε)·lr. Each output may be its input's buffer (an
/// update in place): every element is read, then written, by one thread.
#[cube(launch)]
pub(crate) fn adamw_kernel(
    param: &Array<f32>,
    grad: &Array<f32>,
    moment_1: &Array<f32>,
    moment_2: &Array<f32>,
    param_out: &mut Array<f32>,
    moment_1_out: &mut Array<f32>,
    moment_2_out: &mut Array<f32>,
    len: u32,
    beta_1: f32,
    factor_1: f32,
    beta_2: f32,
    factor_2: f32,
    correction_1: f32,
    correction_2: f32,
    epsilon: f32,
    lr: f32,
    keep: f32,
    #[comptime] _source: u32,
) {
    let at = ABSOLUTE_POS;
    if at >= len as usize {
        terminate!();
    }
    let g = grad[at];
    let m = moment_1[at] * beta_1 + g * factor_1;
    let v = moment_2[at] * beta_2 + g * g * factor_2;
    let delta = (m / correction_1) / (f32::sqrt(v / correction_2) + epsilon);
    param_out[at] = param[at] * keep - delta * lr;
    moment_1_out[at] = m;
    moment_2_out[at] = v;
}
