//! Why a run's loop ended: the one word and detail every summary, row and report reads.

use serde::{Deserialize, Serialize};

use crate::oom::OomEvent;

/// Why the loop ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind", content = "detail")]
pub enum StopReason {
    /// All configured steps ran.
    Completed,
    /// Ctrl-C or SIGTERM: the loop stopped after the step in flight.
    Interrupted,
    /// A step failed; the message says how.
    Failed(String),
    /// An out-of-memory failure was detected; the step was discarded (not applied).
    OutOfMemory(Box<OomEvent>),
}

impl StopReason {
    /// One word for tables: completed, interrupted, failed, out of memory.
    pub fn label(&self) -> &'static str {
        match self {
            StopReason::Completed => "completed",
            StopReason::Interrupted => "interrupted",
            StopReason::Failed(_) => "failed",
            StopReason::OutOfMemory(_) => "out of memory",
        }
    }
}
