use serde::{Deserialize, Serialize};

use crate::units::Bytes;

/// One reading of one or more memory sources. A source that does not know a figure
/// leaves it `None`; nothing is guessed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct MemoryReading {
    /// Bytes in live tensors (allocator) or live heap blocks (host counting allocator).
    pub in_use: Option<Bytes>,
    /// Bytes the allocator holds from the device, in use or cached for reuse.
    pub reserved: Option<Bytes>,
    /// What the OS or driver charges to this process: NVML per-process VRAM on a GPU,
    /// resident set size on the host.
    pub process: Option<Bytes>,
    /// Memory used on the whole device, all processes (NVML).
    pub device_used: Option<Bytes>,
    /// Device capacity (NVML) or host RAM.
    pub device_total: Option<Bytes>,
}

impl MemoryReading {
    /// Free memory on the device (capacity minus used), when both are known.
    pub fn device_free(&self) -> Option<Bytes> {
        Some(Bytes(
            self.device_total?.0.saturating_sub(self.device_used?.0),
        ))
    }

    /// Field by field: `self`'s value where it has one, else `other`'s.
    pub fn or(self, other: MemoryReading) -> MemoryReading {
        MemoryReading {
            in_use: self.in_use.or(other.in_use),
            reserved: self.reserved.or(other.reserved),
            process: self.process.or(other.process),
            device_used: self.device_used.or(other.device_used),
            device_total: self.device_total.or(other.device_total),
        }
    }
}

/// A source of memory readings.
pub trait MemoryProbe: Send + Sync {
    /// Short name for tables: `nvml`, `allocator`, `host`.
    fn source(&self) -> &'static str;
    /// Reads the source now.
    fn read(&self) -> MemoryReading;
}

/// Returns the same reading every time: the deterministic probe for tests.
#[derive(Debug, Clone, Copy)]
pub struct FixedProbe(pub MemoryReading);

impl MemoryProbe for FixedProbe {
    fn source(&self) -> &'static str {
        "fixed"
    }
    fn read(&self) -> MemoryReading {
        self.0
    }
}
