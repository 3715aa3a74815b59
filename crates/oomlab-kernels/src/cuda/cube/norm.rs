//! The `#[cube]` kernels of LayerNorm's forward and backward passes (super::super::norm_kernels
//! launches them and says what they compute).
//!
//! Their cache key carries a hash of this file (`source_key`), so a compiled-kernel pack made
//! before an edit of it cannot serve them; edits of the host code leave the key as it was.

use cubecl::prelude::*;

/// Rows per block of the column sums.
pub(crate) const BLOCK_ROWS: u32 = 64;

/// A hash of this file (the kernels' code alone, not the host code that launches them),
/// a compile-time argument of its kernels: part of their cache key
/// (a test in super::super::compiled holds every `#[cube]` kernel of oomlab's to that).
pub(crate) fn source_key() -> u32 {
    crc32fast::hash(include_str!("norm.rs").as_bytes())
}

/// y = (x − mean)·rstd·γ + β for each row.
#[cube(launch)]
pub(crate) fn layer_norm_kernel<X: Float, W: Float>(
    x: &Array<X>,
    gamma: &Array<W>,
    beta: &Array<W>,
    y: &mut Array<X>,
    rows: u32,
    width: u32,
    epsilon: f32,
    #[comptime] _source: u32,
    #[define(X, W)] _dtypes: [StorageType; 2],
) {
    let row = CUBE_POS * CUBE_DIM_Y as usize + UNIT_POS_Y as usize;
    if row >= rows as usize {
        terminate!();
    }
    let lanes = CUBE_DIM_X as usize;
    let lane = UNIT_POS_X as usize;
    let d = width as usize;
    let base = row * d;
    let n = f32::cast_from(width);

    let mut sum = 0.0f32;
    let mut j = lane;
    while j < d {
        sum += f32::cast_from(x[base + j]);
        j += lanes;
    }
    let mean = plane_sum(sum) / n;
    let mut squares = 0.0f32;
    j = lane;
    while j < d {
        let c = f32::cast_from(x[base + j]) - mean;
        squares += c * c;
        j += lanes;
    }
    let rstd = 1.0f32 / (plane_sum(squares) / n + epsilon).sqrt();

    j = lane;
    while j < d {
        let xhat = (f32::cast_from(x[base + j]) - mean) * rstd;
        let v = xhat * f32::cast_from(gamma[j]) + f32::cast_from(beta[j]);
        y[base + j] = X::cast_from(v);
        j += lanes;
    }
}

/// dx for each row (see the module documentation), and the row's mean and rstd.
#[cube(launch)]
pub(crate) fn layer_norm_grad_kernel<X: Float, W: Float, D: Float>(
    x: &Array<X>,
    gamma: &Array<W>,
    dy: &Array<D>,
    dx: &mut Array<X>,
    means: &mut Array<f32>,
    rstds: &mut Array<f32>,
    rows: u32,
    width: u32,
    epsilon: f32,
    #[comptime] _source: u32,
    #[define(X, W, D)] _dtypes: [StorageType; 3],
) {
    let row = CUBE_POS * CUBE_DIM_Y as usize + UNIT_POS_Y as usize;
    if row >= rows as usize {
        terminate!();
    }
    let lanes = CUBE_DIM_X as usize;
    let lane = UNIT_POS_X as usize;
    let d = width as usize;
    let base = row * d;
    let n = f32::cast_from(width);

    let mut sum = 0.0f32;
    let mut j = lane;
    while j < d {
        sum += f32::cast_from(x[base + j]);
        j += lanes;
    }
    let mean = plane_sum(sum) / n;
    let mut squares = 0.0f32;
    j = lane;
    while j < d {
        let c = f32::cast_from(x[base + j]) - mean;
        squares += c * c;
        j += lanes;
    }
    let rstd = 1.0f32 / (plane_sum(squares) / n + epsilon).sqrt();

    let mut g_sum = 0.0f32;
    let mut gx_sum = 0.0f32;
    j = lane;
    while j < d {
        let g = f32::cast_from(dy[base + j]) * f32::cast_from(gamma[j]);
        let xhat = (f32::cast_from(x[base + j]) - mean) * rstd;
        g_sum += g;
        gx_sum += g * xhat;
        j += lanes;
    }
    let g_mean = plane_sum(g_sum) / n;
    let gx_mean = plane_sum(gx_sum) / n;

    j = lane;
    while j < d {
        let g = f32::cast_from(dy[base + j]) * f32::cast_from(gamma[j]);
        let xhat = (f32::cast_from(x[base + j]) - mean) * rstd;
        dx[base + j] = X::cast_from((g - g_mean - xhat * gx_mean) * rstd);
        j += lanes;
    }
    if lane == 0 {
        means[row] = mean;
        rstds[row] = rstd;
    }
}

/// Each block of `BLOCK_ROWS` rows' Σ dy·x̂ (at `block·d + column`) and Σ dy (at
/// `(blocks + block)·d + column`).
#[cube(launch)]
pub(crate) fn layer_norm_columns_kernel<X: Float, D: Float>(
    x: &Array<X>,
    dy: &Array<D>,
    means: &Array<f32>,
    rstds: &Array<f32>,
    partial: &mut Array<f32>,
    rows: u32,
    width: u32,
    blocks: u32,
    #[comptime] block_rows: u32,
    #[comptime] _source: u32,
    #[define(X, D)] _dtypes: [StorageType; 2],
) {
    let d = width as usize;
    let at = ABSOLUTE_POS;
    if at >= blocks as usize * d {
        terminate!();
    }
    let column = at % d;
    let block = at / d;
    let first = block * block_rows as usize;
    let mut last = first + block_rows as usize;
    if last > rows as usize {
        last = rows as usize;
    }
    let mut dgamma = 0.0f32;
    let mut dbeta = 0.0f32;
    let mut r = first;
    while r < last {
        let g = f32::cast_from(dy[r * d + column]);
        let xhat = (f32::cast_from(x[r * d + column]) - means[r]) * rstds[r];
        dgamma += g * xhat;
        dbeta += g;
        r += 1;
    }
    partial[block * d + column] = dgamma;
    partial[(blocks as usize + block) * d + column] = dbeta;
}
