//! The `#[cube]` kernels of the feed-forward layer's bias and GELU (super::super::gelu_kernels
//! launches them and says what they compute).
//!
//! Their cache key carries a hash of this file (`source_key`), so a compiled-kernel pack made
//! before an edit of it cannot serve them; edits of the host code leave the key as it was.

use cubecl::prelude::*;

/// A hash of this file (the kernels' code alone, not the host code that launches them),
/// a compile-time argument of both kernels: part of their cache key
/// (a test in super::super::compiled holds every `#[cube]` kernel of oomlab's to that).
pub(crate) fn source_key() -> u32 {
    crc32fast::hash(include_str!("gelu.rs").as_bytes())
}

/// z = gelu(y + b) for each element (`sqrt2`: √2, by which burn's `gelu` divides).
#[cube(launch)]
pub(crate) fn bias_gelu_kernel<Y: Float, W: Float>(
    y: &Array<Y>,
    bias: &Array<W>,
    z: &mut Array<Y>,
    len: u32,
    width: u32,
    sqrt2: f32,
    #[comptime] _source: u32,
    #[define(Y, W)] _dtypes: [StorageType; 2],
) {
    let at = ABSOLUTE_POS;
    if at >= len as usize {
        terminate!();
    }
    let h = f32::cast_from(y[at]) + f32::cast_from(bias[at % width as usize]);
    let e = Erf::erf(h / sqrt2);
    z[at] = Y::cast_from(h * (e + 1.0f32) / 2.0f32);
}

/// dy = dz·g(y + b) for each element (g: see the module documentation).
#[cube(launch)]
pub(crate) fn bias_gelu_grad_kernel<Y: Float, W: Float, D: Float>(
    y: &Array<Y>,
    bias: &Array<W>,
    dz: &Array<D>,
    dy: &mut Array<Y>,
    len: u32,
    width: u32,
    #[comptime] _source: u32,
    #[define(Y, W, D)] _dtypes: [StorageType; 3],
) {
    let at = ABSOLUTE_POS;
    if at >= len as usize {
        terminate!();
    }
    let h = f32::cast_from(y[at]) + f32::cast_from(bias[at % width as usize]);
    let h3 = h * h * h;
    let u = h3 * 0.035_677_4f32 + h * 0.797_885f32;
    let v = h3 * 0.053_516_1f32 + h * 0.398_942f32;
    let t = f32::tanh(u);
    let g = t * 0.5f32 + (v * (1.0f32 - t * t) + 0.5f32);
    dy[at] = Y::cast_from(g * f32::cast_from(dz[at]));
}
