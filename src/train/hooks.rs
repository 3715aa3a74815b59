//! What the loop asks of a device beyond burn's `Backend` trait. Implemented in
//! `backend.rs` for CUDA, so that nothing under `train/` names a concrete backend.

use crate::device::{PreallocError, PreallocReport};
use crate::units::Bytes;

/// burn's memory pool on the training device.
pub trait PoolHooks: Send + Sync {
    /// Reserves empty pool pages for `fraction` of the device's free memory, which `free`
    /// reads (`--memory-mode prealloc`). Called on the thread that trains.
    fn preallocate(
        &self,
        fraction: f64,
        free: &mut dyn FnMut() -> Option<Bytes>,
    ) -> Result<PreallocReport, PreallocError>;
}
