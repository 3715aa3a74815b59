//! What a data-parallel run reports per peer, next to rank 0's summary.

use serde::{Deserialize, Serialize};

use super::stop::StopReason;
use crate::model::ParamFingerprint;
use crate::units::Bytes;

/// One peer's share of the run and the memory its device needed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PeerReport {
    /// 0-based rank.
    pub rank: usize,
    /// `cuda:1 NVIDIA H200`, `cpu`.
    pub device: String,
    /// Steps this peer applied.
    pub steps_completed: usize,
    /// Why its loop ended.
    pub stop: StopReason,
    /// Peak of this process's memory on the device (NVML per process), or of the host
    /// process on the CPU (shared by all CPU peers: they are threads of one process).
    pub process_peak: Option<Bytes>,
    /// Peak bytes in burn's tensors on this device (allocator, at phase ends).
    pub allocator_peak_in_use: Option<Bytes>,
    /// Peak bytes burn's pool reserved on this device.
    pub allocator_peak_reserved: Option<Bytes>,
    /// Parameters whose optimizer state this peer keeps.
    pub optimizer_params: usize,
    /// Their elements.
    pub optimizer_elements: usize,
    /// What their optimizer state takes: elements x the optimizer's bytes per element
    /// (AdamW in f32: two moments, 8 bytes; plain SGD keeps none).
    pub optimizer_state: Option<Bytes>,
    /// Fingerprint of its weights at the end.
    pub final_params: Option<ParamFingerprint>,
}

/// A run over several devices (`--devices`), with one trainer per device.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ParallelReport {
    /// Optimizer state sharded across peers (`--strategy shard-optimizer`, ZeRO stage 1).
    pub sharded: bool,
    /// Peers.
    pub world: usize,
    /// Samples each peer takes per optimizer step (the effective batch / peers).
    pub batch_per_peer: usize,
    /// What moves the tensors between peers.
    pub engine: String,
    /// Every peer, by rank.
    pub peers: Vec<PeerReport>,
    /// Every peer's weights hash the same at the end (`None` when one could not be read).
    pub replicas_identical: Option<bool>,
    /// How far apart the replicas ended: the largest relative difference of a peer's
    /// weight sum, or sum of squares, from rank 0's. 0 when identical. Peers apply the
    /// same all-reduced gradients, so this is rounding: measured on the H200, kernels
    /// that burn picks per thread (fusion, autotune) round differently.
    #[serde(default)]
    pub replica_spread: Option<f64>,
}

impl ParallelReport {
    /// The largest relative difference of a peer's weight sum or sum of squares from
    /// rank 0's (`None` when one could not be read).
    pub fn spread(peers: &[PeerReport]) -> Option<f64> {
        let first = peers.first()?.final_params.as_ref()?;
        let rel = |a: f64, b: f64| {
            if a == b {
                0.0
            } else {
                (a - b).abs() / a.abs().max(f64::MIN_POSITIVE)
            }
        };
        let mut worst = 0.0f64;
        for p in peers {
            let f = p.final_params.as_ref()?;
            worst = worst
                .max(rel(first.sum, f.sum))
                .max(rel(first.sum_sq, f.sum_sq));
        }
        Some(worst)
    }

    /// Whether every peer's final fingerprint is known and the same.
    pub fn identical(peers: &[PeerReport]) -> Option<bool> {
        let first = peers.first()?.final_params.as_ref()?;
        let mut same = true;
        for p in peers {
            same &= p.final_params.as_ref()?.fnv1a64 == first.fnv1a64;
        }
        Some(same)
    }
}
