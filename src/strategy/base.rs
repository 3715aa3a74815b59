use serde::{Deserialize, Serialize};

use crate::oom::OomEvent;

/// How one optimizer step is split: `batch` samples in `accumulation` micro-batches of
/// `micro_batch` samples; when `micro_batch` does not divide `batch`, the last micro-batch
/// holds the rest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepPlan {
    /// Samples per forward/backward pass (the last pass may have fewer).
    pub micro_batch: usize,
    /// Forward/backward passes per optimizer step.
    pub accumulation: usize,
    /// Samples the optimizer sees per step.
    pub batch: usize,
}

impl StepPlan {
    /// `accumulation` equal micro-batches of `micro_batch` samples.
    pub fn even(micro_batch: usize, accumulation: usize) -> Self {
        Self {
            micro_batch,
            accumulation,
            batch: micro_batch * accumulation,
        }
    }

    /// `batch` samples in micro-batches of at most `micro_batch` (at least 1).
    pub fn split(batch: usize, micro_batch: usize) -> Self {
        let micro_batch = micro_batch.clamp(1, batch.max(1));
        Self {
            micro_batch,
            accumulation: batch.div_ceil(micro_batch),
            batch,
        }
    }

    /// Samples the optimizer sees per step.
    pub fn effective_batch(&self) -> usize {
        self.batch
    }

    /// First row and length of micro-batch `i`.
    pub fn chunk(&self, i: usize) -> (usize, usize) {
        let start = i * self.micro_batch;
        (
            start,
            self.micro_batch.min(self.batch.saturating_sub(start)),
        )
    }

    /// Whether every micro-batch has the same size.
    pub fn is_even(&self) -> bool {
        self.micro_batch * self.accumulation == self.batch
    }

    /// The last micro-batch's size where it is smaller than the others.
    pub fn short_last(&self) -> Option<usize> {
        let before = self.micro_batch * self.accumulation.saturating_sub(1);
        (self.micro_batch * self.accumulation > self.batch && before < self.batch)
            .then(|| self.batch - before)
    }

    /// `micro x accumulation = batch`, with the last micro-batch's size where it is
    /// smaller (`90 x 2 (last 6) = 96`), so that the product printed is the batch.
    pub fn with_total(&self) -> String {
        match self.short_last() {
            Some(last) => format!(
                "{} x {} (last {last}) = {}",
                self.micro_batch, self.accumulation, self.batch
            ),
            None => format!(
                "{} x {} = {}",
                self.micro_batch, self.accumulation, self.batch
            ),
        }
    }
}

impl std::fmt::Display for StepPlan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.short_last().is_some() {
            f.write_str(&self.with_total())
        } else {
            write!(f, "{} x {}", self.micro_batch, self.accumulation)
        }
    }
}

/// What to do after a step was hit by an out-of-memory failure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OomResponse {
    /// Retry the same step (same samples when the effective batch is kept) with `plan`.
    Retry {
        /// The split of the retry.
        plan: StepPlan,
        /// Why this plan, for the retry log.
        note: String,
    },
    /// Stop the run; the message says what would help.
    Stop(String),
}

/// A way of running a training step within a memory limit.
pub trait Strategy: Send {
    /// The name users type after `--strategy`.
    fn name(&self) -> &'static str;

    /// How an optimizer step of `batch` samples is split at the start. The configuration
    /// was validated, so the split is always exact.
    fn plan(&self, batch: usize) -> StepPlan;

    /// A step at `plan` was hit by `oom` (discarded, memory released). Fixed strategies
    /// stop; adaptive ones pick a plan to retry the step with.
    fn on_oom(&mut self, plan: StepPlan, oom: &OomEvent) -> OomResponse {
        let _ = oom;
        let split = match plan.accumulation {
            1 => format!("runs all {} samples in one pass", plan.micro_batch),
            k => format!("runs {k} micro-batches of {}", plan.micro_batch),
        };
        OomResponse::Stop(format!(
            "it {split} and does not change that when memory runs out: try --strategy auto-halve (it halves the micro-batch on OOM and keeps the effective batch), or --strategy grad-accum --steps K with K > {}",
            plan.accumulation
        ))
    }

    /// A step at `plan` succeeded; returns the plan of the next step (an adaptive
    /// strategy may try a larger one).
    fn on_success(&mut self, plan: StepPlan) -> StepPlan {
        plan
    }

    /// What a checkpoint must keep for the run to resume as if never stopped (an
    /// adaptive strategy's search); `null` for strategies without state.
    fn save_state(&self) -> serde_json::Value {
        serde_json::Value::Null
    }

    /// Puts back what [`save_state`](Self::save_state) returned.
    fn load_state(&mut self, state: &serde_json::Value) -> Result<(), serde_json::Error> {
        let _ = state;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_uneven_split_puts_the_rest_in_the_last_micro_batch() {
        let p = StepPlan::split(32, 12);
        assert_eq!((p.micro_batch, p.accumulation, p.batch), (12, 3, 32));
        assert_eq!(p.chunk(2), (24, 8));
        assert!(!p.is_even());
        assert_eq!(p.to_string(), "12 x 3 (last 8) = 32");
        assert_eq!(StepPlan::split(32, 8).to_string(), "8 x 4");
        // Every place that prints a product prints the batch it makes.
        assert_eq!(p.short_last(), Some(8));
        assert_eq!(p.with_total(), "12 x 3 (last 8) = 32");
        assert_eq!(StepPlan::split(32, 8).with_total(), "8 x 4 = 32");
        assert_eq!(StepPlan::split(32, 8).short_last(), None);
    }
}
