//! The terms oomlab cannot derive from the model's shapes, measured, each with the file
//! it was read from. A test recomputes every one from that file, so a constant cannot
//! drift from its evidence.

use crate::units::Bytes;

/// What a CUDA process holds outside burn's pool (context, loaded modules, cuBLAS
/// workspace): the "+ outside the pool" line of the H200 runs, 0.53 GiB (driver
/// 580.159.04). Other cards and drivers differ by a few hundred MiB: `--calibrate` reads
/// the real figure.
pub const CUDA_CONTEXT: Bytes = Bytes(570_000_000);

/// The run the CUDA figures come from (f32, efficient attention, growth pool, `gpu`
/// config, batch 64).
pub const CUDA_EVIDENCE_GROWTH: &str =
    "docs/results/2026-11-30-h200-paired-gpu/runs/oomlab-f32-efficient-growth-r1/summary.json";

/// The same configuration with the exact pool.
pub const CUDA_EVIDENCE_EXACT: &str =
    "docs/results/2026-11-30-h200-paired-gpu/runs/oomlab-f32-efficient-exact-r1/summary.json";

/// burn's growth pool holds this many bytes per byte of live tensors at the peak: the
/// pool's peak reserved bytes over the analytic in-use peak of the evidence run. Pages of
/// a few size classes are kept once allocated; tensors of the backward pass's sizes do not
/// reuse the forward pass's pages.
pub const GROWTH_POOL_FACTOR: f64 = 1.65;

/// The same for the exact pool (a buffer of each tensor's exact size, reused by a tensor
/// of the same size).
pub const EXACT_POOL_FACTOR: f64 = 1.10;

/// Heap the CPU backend keeps besides tensors: Flex's matrix multiplications keep a
/// packing buffer per worker thread (about 1 MiB each) and about 1 MiB more; measured with
/// the counting allocator on the 2-core build machine (1 thread: 2.2 MB, 2 threads:
/// 3.3 MB above data and model state).
pub fn cpu_workspace(threads: usize) -> Bytes {
    Bytes((threads as u64 + 1) * 1_100_000)
}

/// Heap the training data takes on the CPU: each character as a `u32` token plus the
/// text itself (UTF-8, 1 byte for the generated languages).
pub fn data_bytes(chars: usize) -> Bytes {
    Bytes(chars as u64 * 5)
}
