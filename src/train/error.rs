//! Why a step could not finish, and why the devices of a run could not be kept in step.

use crate::oom::OomEvent;

/// A step that could not finish. In every case the model and optimizer are as they were
/// before the step.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// An out-of-memory failure was detected; the step was discarded and memory released.
    #[error("step {}: {} in the {} phase{}: {}", .0.step, .0.label(), .0.phase, .0.requested.map(|b| format!(" (allocation of {b})")).unwrap_or_default(), .0.message)]
    OutOfMemory(Box<OomEvent>),
    /// The backend reported an error when synchronising.
    #[error("step {step}: the device reported an error: {message}")]
    Device {
        /// The step.
        step: usize,
        /// The backend's message.
        message: String,
    },
}

/// The devices of a run could not be kept in step: joining them, reducing the gradients
/// or gathering the updated parameters failed in what links them.
#[derive(Debug, thiserror::Error)]
pub enum SyncError {
    /// What links the devices (burn's collective, for a data-parallel run) failed; its
    /// own error says how.
    #[error(transparent)]
    Link(Box<dyn std::error::Error + Send + Sync>),
}
