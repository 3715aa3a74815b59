//! The terms oomlab cannot derive from the model's shapes, measured, each with the file
//! it was read from. A test recomputes every one from that file, so a constant cannot
//! drift from its evidence.

use crate::units::Bytes;

/// What a CUDA process holds outside burn's pool (context, loaded modules, cuBLAS
/// workspace): the "+ outside the pool" line of the H200 runs, 0.53 GiB (driver
/// 580.159.04). Other cards and drivers differ by a few hundred MiB: `--calibrate` reads
/// the real figure.
pub const CUDA_CONTEXT: Bytes = Bytes(570_000_000);

/// The run the CUDA figures come from (f32 with the defaults since issue 26: efficient
/// attention, exact pool, oomlab's LayerNorm operation; `gpu` config, batch 64).
pub const CUDA_EVIDENCE_EXACT: &str =
    "docs/results/2026-12-02-h200-memory-defaults/paired-gpu/runs/oomlab-f32-defaults-r1/summary.json";

/// burn's exact pool (a buffer of each tensor's exact size, reused by a tensor of the
/// same size) holds this many bytes per byte of live tensors at the peak: the evidence
/// run's NVML peak, less the context, over the analytic live tensors.
pub const EXACT_POOL_FACTOR: f64 = 1.10;

/// Heap the CPU backend keeps besides tensors: Flex's matrix multiplications (the gemm
/// crate) keep one packing buffer the size of a core's share of the L2 cache on every
/// thread that multiplies (the worker threads and the main thread), plus about 50 kB per
/// thread of other buffers. Measured with the counting allocator on the 2-core build
/// machine (1 MiB of L2 per core; 1 thread: 2.2 MB, 2 threads: 3.3 MB above data and
/// model state). The L2 term makes the CPU's heap figures depend on the processor: on a
/// machine with 512 KiB of L2 per core every run's peak was 1.5 MiB lower (CI, 2026-12-01).
pub fn cpu_workspace(threads: usize) -> Bytes {
    Bytes((threads as u64 + 1) * (l2_per_thread().0 + 50_000))
}

/// The L2 bytes per core that gemm sizes its packing buffer by (what it read from the
/// system at its first use).
pub fn l2_per_thread() -> Bytes {
    Bytes(gemm_common::cache::CACHE_INFO[1].cache_bytes as u64)
}

/// Heap the training data takes on the CPU: each character as a `u32` token plus the
/// text itself (UTF-8, 1 byte for the generated languages).
pub fn data_bytes(chars: usize) -> Bytes {
    Bytes(chars as u64 * 5)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{load, ConfigSource, MemoryMode};
    use crate::estimate::{Estimate, Target};

    fn evidence() -> serde_json::Value {
        let path = format!("{}/{CUDA_EVIDENCE_EXACT}", env!("CARGO_MANIFEST_DIR"));
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    #[test]
    fn the_cuda_constants_are_those_of_their_evidence_run() {
        let run = evidence();
        let outside = run["memory"]["reconciliation"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["label"] == "+ outside the pool")
            .unwrap()["bytes"]
            .as_f64()
            .unwrap();
        assert!(
            (CUDA_CONTEXT.0 as f64 / outside - 1.0).abs() < 0.05,
            "{outside}"
        );
        let (_, mut cfg) = load(&ConfigSource::Builtin("gpu".into()), &[]).unwrap();
        cfg.train.memory_mode = MemoryMode::Exact;
        let total = Bytes(run["memory"]["device_total"].as_u64().unwrap());
        let vocab = run["vocab"].as_u64().unwrap() as usize;
        let e = Estimate::of(&cfg, vocab, Target::Cuda { total });
        let measured = run["memory"]["process_peak"].as_f64().unwrap();
        assert!(
            (e.peak.0 as f64 / measured - 1.0).abs() < 0.03,
            "predicted {} measured {measured}",
            e.peak
        );
    }
}
