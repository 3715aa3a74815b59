//! Why a step could not finish.

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
