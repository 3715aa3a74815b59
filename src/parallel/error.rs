//! Why moving tensors between the devices of a data-parallel run failed.

use burn::collective::CollectiveError;

use crate::train::SyncError;

/// A collective operation of a data-parallel run that failed: burn's collective refused
/// it, or the peers' parameters did not line up.
#[derive(Debug, thiserror::Error)]
pub enum ParallelError {
    /// burn's collective did not register this device.
    #[error("burn-collective register: {0:?}")]
    Register(CollectiveError),
    /// burn's all-reduce failed.
    #[error("burn-collective all-reduce: {0:?}")]
    AllReduce(CollectiveError),
    /// burn's broadcast failed.
    #[error("burn-collective broadcast: {0:?}")]
    Broadcast(CollectiveError),
    /// A parameter had no gradient, so the peers would not reduce the same tensors.
    #[error("a parameter has no gradient: every peer must reduce the same tensors")]
    MissingGradient,
    /// A gradient taken for a bucket was gone when the bucket was packed.
    #[error("a bucket lost a gradient")]
    BucketLostGradient,
    /// A parameter this device owns was gone when its bucket was to be sent.
    #[error("an owned parameter is missing")]
    MissingOwned,
}

impl From<ParallelError> for SyncError {
    fn from(e: ParallelError) -> Self {
        SyncError::Link(Box::new(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_read_as_before_through_the_sync_seam() {
        let e: SyncError = ParallelError::MissingGradient.into();
        assert_eq!(
            e.to_string(),
            "a parameter has no gradient: every peer must reduce the same tensors"
        );
        assert_eq!(
            ParallelError::Broadcast(CollectiveError::BroadcastNoTensor).to_string(),
            "burn-collective broadcast: BroadcastNoTensor"
        );
    }
}
