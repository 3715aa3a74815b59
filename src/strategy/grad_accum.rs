use super::{StepPlan, Strategy};

/// Gradient accumulation: `steps` micro-batches of `batch / steps` samples, each loss
/// scaled by `1 / steps`, gradients summed, one optimizer step. The update equals that of
/// one full batch; activation memory is that of one micro-batch.
#[derive(Debug, Clone, Copy)]
pub struct GradAccum {
    /// Micro-batches per optimizer step.
    pub steps: usize,
}

impl Strategy for GradAccum {
    fn name(&self) -> &'static str {
        "grad-accum"
    }

    fn plan(&self, batch: usize) -> StepPlan {
        StepPlan::split(batch, batch / self.steps)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_the_batch_into_equal_micro_batches() {
        let p = GradAccum { steps: 4 }.plan(32);
        assert_eq!((p.micro_batch, p.accumulation), (8, 4));
        assert_eq!(p.effective_batch(), 32);
    }
}
