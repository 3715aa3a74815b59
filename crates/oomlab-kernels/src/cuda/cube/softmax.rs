//! The `#[cube]` kernels of attention's causal softmax and its gradient
//! (super::super::softmax_kernels launches them and says what they compute).
//!
//! Their cache key carries a hash of this file (`source_key`), so a compiled-kernel pack made
//! before an edit of it cannot serve them; edits of the host code leave the key as it was.

use cubecl::prelude::*;

/// A hash of this file (the kernels' code alone, not the host code that launches them),
/// a compile-time argument of both kernels: part of their cache key
/// (a test in super::super::compiled holds every `#[cube]` kernel of oomlab's to that).
pub(crate) fn source_key() -> u32 {
    crc32fast::hash(include_str!("softmax.rs").as_bytes())
}

/// P = softmax(scores·scale) over columns 0..=i of each row (i: the row's query
/// position), zero beyond.
#[cube(launch)]
pub(crate) fn causal_softmax_kernel<I: Float, O: Float>(
    scores: &Array<I>,
    out: &mut Array<O>,
    rows: u32,
    seq: u32,
    scale: f32,
    #[comptime] _source: u32,
    #[define(I, O)] _dtypes: [StorageType; 2],
) {
    let row = CUBE_POS * CUBE_DIM_Y as usize + UNIT_POS_Y as usize;
    if row >= rows as usize {
        terminate!();
    }
    let lanes = CUBE_DIM_X as usize;
    let lane = UNIT_POS_X as usize;
    let cols = seq as usize;
    let base = row * cols;
    let end = row % cols + 1;

    let mut max = f32::new(-3.0e38);
    let mut j = lane;
    while j < end {
        let v = f32::cast_from(scores[base + j]) * scale;
        if v > max {
            max = v;
        }
        j += lanes;
    }
    max = plane_max(max);

    let mut sum = 0.0f32;
    j = lane;
    while j < end {
        sum += (f32::cast_from(scores[base + j]) * scale - max).exp();
        j += lanes;
    }
    sum = plane_sum(sum);

    j = lane;
    while j < cols {
        let mut p = 0.0f32;
        if j < end {
            p = (f32::cast_from(scores[base + j]) * scale - max).exp() / sum;
        }
        out[base + j] = O::cast_from(p);
        j += lanes;
    }
}

/// dS = P ⊙ (dP − rowsum(P ⊙ dP))·scale over columns 0..=i of each row, zero beyond.
#[cube(launch)]
pub(crate) fn softmax_grad_kernel<P: Float, D: Float, O: Float>(
    p: &Array<P>,
    dp: &Array<D>,
    out: &mut Array<O>,
    rows: u32,
    seq: u32,
    scale: f32,
    #[comptime] _source: u32,
    #[define(P, D, O)] _dtypes: [StorageType; 3],
) {
    let row = CUBE_POS * CUBE_DIM_Y as usize + UNIT_POS_Y as usize;
    if row >= rows as usize {
        terminate!();
    }
    let lanes = CUBE_DIM_X as usize;
    let lane = UNIT_POS_X as usize;
    let cols = seq as usize;
    let base = row * cols;
    let end = row % cols + 1;

    let mut dot = 0.0f32;
    let mut j = lane;
    while j < end {
        dot += f32::cast_from(p[base + j]) * f32::cast_from(dp[base + j]);
        j += lanes;
    }
    dot = plane_sum(dot);

    j = lane;
    while j < cols {
        let mut g = 0.0f32;
        if j < end {
            let pj = f32::cast_from(p[base + j]);
            g = pj * (f32::cast_from(dp[base + j]) - dot) * scale;
        }
        out[base + j] = O::cast_from(g);
        j += lanes;
    }
}
