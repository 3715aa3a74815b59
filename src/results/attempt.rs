//! The retry log: one record per attempt at a step with a split not yet proven to fit
//! (every out-of-memory failure, and the first success at each new split).

use serde::{Deserialize, Serialize};

use crate::oom::{OomEvent, Phase};
use crate::probe::{AllocatorStats, MemoryReading};
use crate::strategy::StepPlan;
use crate::units::Bytes;

/// How an attempt ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AttemptOutcome {
    /// The step ran and was applied.
    Ok,
    /// Out of memory: the step was discarded.
    Oom,
}

/// One attempt at a step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AttemptRecord {
    /// 1-based, in the order made.
    pub attempt: usize,
    /// The optimizer step attempted.
    pub step: usize,
    /// Samples per forward/backward pass.
    pub micro_batch: usize,
    /// Passes per optimizer step.
    pub accumulation: usize,
    /// Samples per optimizer step.
    pub effective_batch: usize,
    /// ok or oom.
    pub outcome: AttemptOutcome,
    /// True when the OOM was a SIMULATED one (`--memory-budget` on the CPU).
    pub simulated: bool,
    /// Phase of the failure.
    pub phase: Option<Phase>,
    /// Size of the allocation that failed.
    pub requested: Option<Bytes>,
    /// Bytes in use: burn's allocator on a GPU, the host heap on the CPU.
    pub in_use: Option<Bytes>,
    /// burn's allocator pool (GPU).
    pub reserved: Option<Bytes>,
    /// Free VRAM on the device by NVML (GPU).
    pub device_free: Option<Bytes>,
    /// Wall time of the attempt, including the release of memory after a failure.
    pub seconds: f64,
    /// What the strategy decided next, and why.
    pub next: Option<String>,
}

impl AttemptRecord {
    /// A successful attempt at `plan`, with memory read after it.
    pub fn ok(
        step: usize,
        plan: StepPlan,
        seconds: f64,
        allocator: Option<AllocatorStats>,
        memory: Option<MemoryReading>,
    ) -> Self {
        Self {
            attempt: 0,
            step,
            micro_batch: plan.micro_batch,
            accumulation: plan.accumulation,
            effective_batch: plan.effective_batch(),
            outcome: AttemptOutcome::Ok,
            simulated: false,
            phase: None,
            requested: None,
            in_use: allocator
                .map(|a| a.in_use)
                .or_else(|| memory.and_then(|m| m.in_use)),
            reserved: allocator.map(|a| a.reserved),
            device_free: memory.and_then(|m| m.device_free()),
            seconds,
            next: None,
        }
    }

    /// An attempt at `plan` that ended in `oom`.
    pub fn oom(plan: StepPlan, oom: &OomEvent, seconds: f64, next: String) -> Self {
        Self {
            attempt: 0,
            step: oom.step,
            micro_batch: plan.micro_batch,
            accumulation: plan.accumulation,
            effective_batch: plan.effective_batch(),
            outcome: AttemptOutcome::Oom,
            simulated: oom.simulated,
            phase: Some(oom.phase),
            requested: oom.requested,
            in_use: oom
                .allocator
                .map(|a| a.in_use)
                .or_else(|| oom.memory.and_then(|m| m.in_use)),
            reserved: oom.allocator.map(|a| a.reserved),
            device_free: oom.memory.and_then(|m| m.device_free()),
            seconds,
            next: Some(next),
        }
    }
}
