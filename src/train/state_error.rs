//! What can fail when a run's state is read for a checkpoint or put back from one.

use crate::technique::OffloadRecordError;

/// Reading the weights and optimizer state for a checkpoint, or putting them back.
#[derive(Debug, thiserror::Error)]
pub enum StateError {
    /// burn's recorder could not write or read a record.
    #[error("{0}")]
    Record(#[from] burn::record::RecorderError),
    /// The checkpoint holds another optimizer's state than the run's offloaded AdamW.
    #[error(transparent)]
    Offload(#[from] OffloadRecordError),
    /// The out-of-memory detector found a failure while the tensors were read or placed
    /// (burn 0.21 on CUDA does not report one: a tensor would read as zeros).
    #[error("{label} while {what}: {message}")]
    OutOfMemory {
        /// The failure's kind, as the detector names it.
        label: String,
        /// What was being done.
        what: &'static str,
        /// The detector's message.
        message: String,
    },
    /// The backend panicked while the weights were read (the panic was contained).
    #[error("the backend panicked while reading the weights")]
    PanickedReading,
    /// burn's recorder panicked while decoding the tensors (the panic was contained).
    #[error("burn's recorder panicked while decoding the tensors")]
    PanickedDecoding,
    /// The strategy's saved search does not read back.
    #[error("the strategy's saved search: {0}")]
    Strategy(#[from] serde_json::Error),
}
