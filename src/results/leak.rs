//! The leak detector's settings and findings, for the summary (the detector itself is
//! `train::LeakWatch`).

use serde::{Deserialize, Serialize};

use crate::units::Bytes;

/// When to raise the alarm.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct LeakSpec {
    /// Steps at the start of the run (and after a resume) that are not watched: the
    /// allocator and the optimizer's state settle there.
    pub warm_up: usize,
    /// Steps at one split the growth is measured over; 0 turns the detector off.
    pub window: usize,
    /// Growth per step that counts as a leak.
    pub per_step: Bytes,
}

impl Default for LeakSpec {
    fn default() -> Self {
        Self {
            warm_up: 5,
            window: 20,
            per_step: Bytes(1 << 20),
        }
    }
}

/// A leak found: memory in use grew step after step at a fixed split.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LeakAlarm {
    /// First step of the window.
    pub from_step: usize,
    /// Last step of the window.
    pub to_step: usize,
    /// The split all those steps used.
    pub micro_batch: usize,
    /// Least-squares growth per step.
    pub per_step: Bytes,
    /// In use at the last step minus in use at the first.
    pub grown: Bytes,
}

impl LeakAlarm {
    /// The line for the progress output and the summary.
    pub fn line(&self, source: &str) -> String {
        format!(
            "LEAK: {source} grew {} per step over {} steps (steps {}-{}, micro-batch {}, {} in all): something keeps tensors from earlier steps (`oomlab explain leak`)",
            self.per_step,
            self.to_step - self.from_step + 1,
            self.from_step + 1,
            self.to_step + 1,
            self.micro_batch,
            self.grown
        )
    }
}

/// What the detector watched and found, for the summary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LeakReport {
    /// Its settings.
    pub spec: LeakSpec,
    /// What it read: `allocator in use` (GPU) or `host heap in use` (CPU).
    pub source: String,
    /// Steps it saw after the warm-up.
    pub watched_steps: usize,
    /// The alarm, when raised (the latest window that qualified).
    pub alarm: Option<LeakAlarm>,
}
