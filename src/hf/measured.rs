//! The terms of a PyTorch run that do not follow from the model's shapes, read from the
//! H200 calibration run named in [`SOURCE`] (benches/hf_memory.py) by
//! `python3 scripts/hf-calibrate.py`: the CUDA context outside the caching allocator, and
//! how far the allocator's reserve runs over the allocated peak. The factors stand in only
//! where no template was traced for the run ([`super::replay`] replays the others). The
//! validation table (docs/results/2026-12-04-hf-estimate-validation.md) is made from
//! other runs.
//!
//! That run's rows after a worker's first began with an earlier row's segments in the
//! cache; run again from a fresh cache (docs/results/2026-12-04-h200-hf-fresh-rows) the
//! same rule gives the same context and checkpointing factor and 1.079 without
//! checkpointing (its rows 0.977 .. 1.191: one pure-bf16 row needed one more logits
//! segment). The constants stay as read: no factor holds every row within 10% once the
//! allocator's placement adds a logits segment or not
//! (docs/results/2026-12-04-h200-hf-allocator-trace).

use crate::units::Bytes;

/// The run these constants were read from.
pub const SOURCE: &str = "NVIDIA H200, 2026-12-04: docs/results/2026-12-04-h200-hf-estimate";

/// NVML's process peak less torch.cuda.max_memory_reserved: the median over the run's
/// 30 rows (torch 2.11, CUDA 13.0, H200).
pub const CONTEXT: Bytes = Bytes(796_917_760);

/// max_memory_reserved over the predicted allocated peak (the middle of 0.977 .. 1.122
/// over 25 rows).
pub const RESERVED_OVER_ALLOCATED: f64 = 1.047;

/// The same with gradient checkpointing when the peak is in the passes: the recomputed
/// layers' blocks of other sizes stay cached (the middle of 1.139 .. 1.281 over 5 rows).
pub const RESERVED_OVER_ALLOCATED_CHECKPOINTING: f64 = 1.208;

/// The factor for a run: checkpointed with its peak in the passes, or not.
pub fn reserved_factor(checkpointing_in_passes: bool) -> f64 {
    if checkpointing_in_passes {
        RESERVED_OVER_ALLOCATED_CHECKPOINTING
    } else {
        RESERVED_OVER_ALLOCATED
    }
}

/// The reserved peak for an allocated peak.
pub fn reserved(allocated: u64, checkpointing_in_passes: bool) -> Bytes {
    Bytes((allocated as f64 * reserved_factor(checkpointing_in_passes)).round() as u64)
}
