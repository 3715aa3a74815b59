use serde::{Deserialize, Serialize};

use crate::probe::{AllocatorStats, MemoryReading};
use crate::units::Bytes;

/// The phases of a training step, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// Moving the batch to the device and the forward pass.
    Forward,
    /// The backward pass.
    Backward,
    /// The optimizer step.
    Optimizer,
    /// Somewhere in the step: with `--check-every step` oomlab looks only at its end.
    Step,
}

impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Phase::Forward => "forward",
            Phase::Backward => "backward",
            Phase::Optimizer => "optimizer",
            Phase::Step => "step (phases not checked separately)",
        })
    }
}

/// What kind of failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OomKind {
    /// A real allocation failure reported by the device.
    OutOfMemory,
    /// The device thread failed on memory it should have had (the aftermath of an
    /// allocation failure, e.g. "Memory page 0 doesn't exist").
    DeviceFault,
}

/// One detected out-of-memory failure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OomEvent {
    /// Failure kind.
    pub kind: OomKind,
    /// True for the CPU's `--memory-budget`: nothing failed, the budget was crossed.
    pub simulated: bool,
    /// Phase whose boundary check found it.
    pub phase: Phase,
    /// Optimizer step.
    pub step: usize,
    /// Size of the allocation that failed (or crossed the budget), when known.
    pub requested: Option<Bytes>,
    /// The first message that revealed it.
    pub message: String,
    /// Allocator statistics read right after detection, before cleanup.
    pub allocator: Option<AllocatorStats>,
    /// NVML (or host) reading right after detection.
    pub memory: Option<MemoryReading>,
    /// What the step itself had taken when it failed (in use above the step's start, plus
    /// the failed request): a lower bound of what the step needs. Filled in by the trainer.
    pub step_needed_at_least: Option<Bytes>,
    /// What the step could have had: free VRAM and pool slack at the failure, above the
    /// step's start (GPU), or the budget minus the heap at the step's start (CPU).
    pub step_available: Option<Bytes>,
}

impl OomEvent {
    /// "simulated OOM" or "CUDA OOM", for every place a user sees it.
    pub fn label(&self) -> &'static str {
        match (self.simulated, self.kind) {
            (true, _) => "SIMULATED out of memory (--memory-budget)",
            (false, OomKind::OutOfMemory) => "out of memory",
            (false, OomKind::DeviceFault) => "device fault after a failed allocation",
        }
    }
}

/// Finds out-of-memory failures at phase boundaries.
pub trait OomDetector: Send + Sync {
    /// Name for summaries.
    fn name(&self) -> &'static str;
    /// Forgets anything seen so far (start of a step, or after recovery).
    fn arm(&self);
    /// Reports a failure seen since [`arm`](Self::arm), if any. `step` and `phase` locate
    /// the check; memory fields are filled in by the caller.
    fn check(&self, step: usize, phase: Phase) -> Option<OomEvent>;
}

/// For the CPU without a budget: a real host OOM ends the process, there is nothing to
/// catch.
#[derive(Debug, Default)]
pub struct NoDetector;

impl OomDetector for NoDetector {
    fn name(&self) -> &'static str {
        "none"
    }
    fn arm(&self) {}
    fn check(&self, _: usize, _: Phase) -> Option<OomEvent> {
        None
    }
}
