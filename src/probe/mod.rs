//! Memory probes: what the GPU driver (NVML), burn's allocator and the host each say about
//! this process's memory. One trait in `base.rs`, one source per file.

mod allocator;
mod base;
pub mod host;
mod nvml;
mod reconcile;
mod sampler;

pub use allocator::{AllocatorProbe, AllocatorStats, StatsFn};
pub use base::{FixedProbe, MemoryProbe, MemoryReading};
pub use host::HostProbe;
pub use nvml::{GpuProcess, NvmlDevice, NvmlProbe, NvmlView, ProbeError};
pub use reconcile::{reconcile, MemoryReport, PhasePeaks};
pub use sampler::{read_memory_csv, MemoryRow, Sample, Sampler, Timeline};
