//! What checkpointing did in a run, for the summary.

use serde::{Deserialize, Serialize};

use crate::checkpoint::ResumeMark;
use crate::units::Bytes;

/// What checkpointing did, for the summary.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CheckpointReport {
    /// The folder.
    pub dir: String,
    /// `--checkpoint-every` (0: only at a stop).
    pub every: usize,
    /// `--keep-checkpoints`.
    pub keep: usize,
    /// Checkpoints written by this process.
    pub written: usize,
    /// The newest one.
    pub last: Option<String>,
    /// Steps in the newest one.
    pub last_next_step: Option<usize>,
    /// Size of the newest one.
    pub last_bytes: Option<Bytes>,
    /// Time spent writing them (reading tensors back, encoding, fsync).
    pub seconds: f64,
    /// Writes that failed (the run goes on; the previous checkpoint stays).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<String>,
    /// Every resume of this run, oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resumes: Vec<ResumeMark>,
}
