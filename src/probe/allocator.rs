//! burn/cubecl's own allocator statistics (CUDA): bytes in live tensors vs bytes reserved
//! in pool pages.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::base::{MemoryProbe, MemoryReading};
use crate::units::Bytes;

/// cubecl's `MemoryUsage`, in our units.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AllocatorStats {
    /// Live allocations (slices, not pages).
    pub allocs: u64,
    /// Bytes in live tensors.
    pub in_use: Bytes,
    /// Padding inside live allocations.
    pub padding: Bytes,
    /// Bytes of pool pages held from the device.
    pub reserved: Bytes,
}

/// Reads the statistics; `None` when the device does not answer.
pub type StatsFn = Arc<dyn Fn() -> Option<AllocatorStats> + Send + Sync>;

/// The allocator as a [`MemoryProbe`]. Reading it submits a request to the device's
/// runner thread, so it is read at step and phase boundaries, not by the sampler.
#[derive(Clone)]
pub struct AllocatorProbe {
    stats: StatsFn,
}

impl AllocatorProbe {
    /// Wraps a backend-specific statistics function (made in `backend.rs`).
    pub fn new(stats: StatsFn) -> Self {
        Self { stats }
    }

    /// The full statistics.
    pub fn stats(&self) -> Option<AllocatorStats> {
        (self.stats)()
    }
}

impl MemoryProbe for AllocatorProbe {
    fn source(&self) -> &'static str {
        "allocator"
    }
    fn read(&self) -> MemoryReading {
        match self.stats() {
            Some(s) => MemoryReading {
                in_use: Some(s.in_use),
                reserved: Some(s.reserved),
                ..Default::default()
            },
            None => MemoryReading::default(),
        }
    }
}
