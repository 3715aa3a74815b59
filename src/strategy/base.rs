use serde::Serialize;

/// How one optimizer step is split: `accumulation` micro-batches of `micro_batch` samples.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct StepPlan {
    /// Samples per forward/backward pass.
    pub micro_batch: usize,
    /// Forward/backward passes per optimizer step.
    pub accumulation: usize,
}

impl StepPlan {
    /// Samples the optimizer sees per step.
    pub fn effective_batch(&self) -> usize {
        self.micro_batch * self.accumulation
    }
}

/// A way of running a training step within a memory limit.
pub trait Strategy: Send {
    /// The name users type after `--strategy`.
    fn name(&self) -> &'static str;

    /// How an optimizer step of `batch` samples is split. The configuration was validated,
    /// so the split is always exact.
    fn plan(&self, batch: usize) -> StepPlan;
}
