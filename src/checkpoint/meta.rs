//! What a checkpoint records besides the tensors: where the run is, how the next step is
//! split, the strategy's and the loss scaler's state, and the run's resume history.

use serde::{Deserialize, Serialize};

use crate::precision::LossScaler;
use crate::strategy::StepPlan;

/// The non-tensor state of a run at a step boundary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CheckpointMeta {
    /// oomlab's version that wrote it.
    pub oomlab_version: String,
    /// The step a resumed run starts with: steps `0..next_step` are in the weights.
    /// It is also the data position: step `s`'s samples are a function of the seed and
    /// `s` (see `BatchSampler`), so nothing else about the data needs saving.
    pub next_step: usize,
    /// The split the next step uses (auto-halve's current plan).
    pub plan: StepPlan,
    /// The strategy's own state (auto-halve's search), as the strategy wrote it.
    pub strategy_state: serde_json::Value,
    /// Dynamic loss scaling (f16), when the run scales losses.
    pub scaler: Option<LossScaler>,
    /// The run's seed. The backend's random generator is not saved: it is re-seeded from
    /// the seed and the step number before every step that uses it (dropout), so the
    /// step number is its state.
    pub seed: u64,
    /// Why it was written: `every N steps`, `SIGTERM`, `Ctrl-C`, `out of memory`, `end`.
    pub reason: String,
    /// Seconds since the Unix epoch.
    pub created_unix: i64,
    /// `--checkpoint-every` of the run that wrote it (a resume keeps it unless given).
    pub every: usize,
    /// `--keep-checkpoints` of the run that wrote it.
    pub keep: usize,
    /// Earlier resumes of this run, oldest first.
    pub resumes: Vec<ResumeMark>,
}

/// One resume of a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResumeMark {
    /// The first step of the resumed segment.
    pub at_step: usize,
    /// The checkpoint file it started from.
    pub from: String,
    /// Newer checkpoint files that could not be used, and why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<String>,
    /// Config keys that differed from the run's and were accepted with `--force`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub forced: Vec<String>,
    /// Steps that had finished after the checkpoint and were done again (lost work).
    pub steps_redone: usize,
}

#[cfg(test)]
impl CheckpointMeta {
    /// A meta for tests of the file layer.
    pub fn sample(next_step: usize) -> Self {
        Self {
            oomlab_version: "test".into(),
            next_step,
            plan: StepPlan::even(4, 2),
            strategy_state: serde_json::Value::Null,
            scaler: None,
            seed: 1,
            reason: "test".into(),
            created_unix: 0,
            every: 3,
            keep: 2,
            resumes: Vec::new(),
        }
    }
}
