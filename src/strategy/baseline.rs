use super::{StepPlan, Strategy};

/// The whole batch in one forward and one backward pass: the reference every other
/// strategy is measured against.
#[derive(Debug, Clone, Copy)]
pub struct Baseline;

impl Strategy for Baseline {
    fn name(&self) -> &'static str {
        "baseline"
    }

    fn plan(&self, batch: usize) -> StepPlan {
        StepPlan::even(batch, 1)
    }
}
