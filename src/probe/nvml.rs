//! NVML (the library behind nvidia-smi): device memory and per-process VRAM.
//!
//! NVML is loaded at run time; a machine without it gets "unavailable" with the reason,
//! never a crash.

use std::sync::Arc;

use nvml_wrapper::enums::device::UsedGpuMemory;
use nvml_wrapper::Nvml;
use serde::{Deserialize, Serialize};

use super::base::{MemoryProbe, MemoryReading};
use crate::units::Bytes;

/// An initialised NVML, shared by probes and the `gpu` view.
#[derive(Clone)]
pub struct NvmlView {
    nvml: Arc<Nvml>,
}

/// One device as NVML sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NvmlDevice {
    /// Index.
    pub index: u32,
    /// Product name.
    pub name: String,
    /// Capacity.
    pub total: Bytes,
    /// Used by all processes plus the driver's own reservation.
    pub used: Bytes,
    /// Free.
    pub free: Bytes,
}

/// A process holding VRAM on a device.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GpuProcess {
    /// Device index.
    pub device: u32,
    /// PID as NVML reports it (the host's PID namespace).
    pub pid: u32,
    /// VRAM charged to it; `None` when NVML cannot say (e.g. some virtualised setups).
    pub used: Option<Bytes>,
}

/// Why NVML could not answer. The message is one line for the user.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProbeError {
    /// The library did not load or initialise.
    #[error("NVML unavailable ({reason}){hint}")]
    Unavailable {
        /// NVML's error.
        reason: String,
        /// Where it was looked for and what to do.
        hint: String,
    },
    /// A query about one device failed.
    #[error("NVML device {index}: {reason}")]
    Device {
        /// The device.
        index: u32,
        /// NVML's error.
        reason: String,
    },
    /// Counting devices failed.
    #[error("NVML: {0}")]
    Query(String),
}

impl NvmlView {
    /// Loads and initialises NVML. `Err` carries a one-line reason for the user.
    ///
    /// `$OOMLAB_NVML_LIB` names the library file where it is not on the library path
    /// (e.g. `/usr/lib/wsl/lib/libnvidia-ml.so.1` under WSL).
    pub fn init() -> Result<Self, ProbeError> {
        let lib = crate::env::nvml_lib();
        let nvml = match &lib {
            Some(path) => Nvml::builder().lib_path(path).init(),
            None => Nvml::init(),
        };
        nvml.map(|nvml| Self {
            nvml: Arc::new(nvml),
        })
        .map_err(|e| ProbeError::Unavailable {
            // The loader's own words (the file and why it cannot be opened), without the
            // name of the crate that called it.
            reason: match e {
                nvml_wrapper::error::NvmlError::LibloadingError(inner) => inner.to_string(),
                other => other.to_string(),
            },
            hint: match &lib {
                Some(path) => format!(
                    " from $OOMLAB_NVML_LIB = {}",
                    std::path::Path::new(path).display()
                ),
                None => "; no NVIDIA driver, or libnvidia-ml.so.1 is not on the library path (or name it in $OOMLAB_NVML_LIB)".into(),
            },
        })
    }

    /// Every device.
    pub fn devices(&self) -> Result<Vec<NvmlDevice>, ProbeError> {
        let count = self
            .nvml
            .device_count()
            .map_err(|e| ProbeError::Query(e.to_string()))?;
        (0..count).map(|i| self.device(i)).collect()
    }

    /// Device `index` and a formatter for its errors.
    fn handle(
        &self,
        index: u32,
    ) -> Result<
        (
            nvml_wrapper::Device<'_>,
            impl Fn(nvml_wrapper::error::NvmlError) -> ProbeError,
        ),
        ProbeError,
    > {
        let err = move |e: nvml_wrapper::error::NvmlError| ProbeError::Device {
            index,
            reason: e.to_string(),
        };
        let d = self.nvml.device_by_index(index).map_err(err)?;
        Ok((d, err))
    }

    /// One device's memory, with its name.
    pub fn device(&self, index: u32) -> Result<NvmlDevice, ProbeError> {
        let (d, err) = self.handle(index)?;
        let m = d.memory_info().map_err(err)?;
        Ok(NvmlDevice {
            index,
            name: d.name().unwrap_or_else(|_| format!("GPU {index}")),
            total: Bytes(m.total),
            used: Bytes(m.used),
            free: Bytes(m.free),
        })
    }

    /// Used and total bytes of device `index` (no name lookup: the sampler calls this
    /// every few milliseconds).
    pub fn memory(&self, index: u32) -> Result<(Bytes, Bytes), ProbeError> {
        let (d, err) = self.handle(index)?;
        let m = d.memory_info().map_err(err)?;
        Ok((Bytes(m.used), Bytes(m.total)))
    }

    /// Whether NVML's accounting mode is on for device `index` (`nvidia-smi -am 1`, root
    /// only): the driver then keeps each process's highest memory, even after it exits.
    pub fn accounting_enabled(&self, index: u32) -> bool {
        self.handle(index)
            .ok()
            .and_then(|(d, _)| d.is_accounting_enabled().ok())
            .unwrap_or(false)
    }

    /// The highest memory the driver's accounting saw process `pid` hold on device
    /// `index` over its lifetime, where accounting mode is on and it knows the process.
    pub fn accounting_max(&self, index: u32, pid: u32) -> Option<Bytes> {
        let (d, _) = self.handle(index).ok()?;
        d.accounting_stats_for(pid)
            .ok()?
            .max_memory_usage
            .map(Bytes)
    }

    /// Compute processes holding memory on `index`.
    pub fn processes(&self, index: u32) -> Result<Vec<GpuProcess>, ProbeError> {
        let (d, err) = self.handle(index)?;
        let procs = d.running_compute_processes().map_err(err)?;
        Ok(procs
            .into_iter()
            .map(|p| GpuProcess {
                device: index,
                pid: p.pid,
                used: match p.used_gpu_memory {
                    UsedGpuMemory::Used(b) => Some(Bytes(b)),
                    UsedGpuMemory::Unavailable => None,
                },
            })
            .collect())
    }
}

/// NVML as a [`MemoryProbe`] for one device and one process.
#[derive(Clone)]
pub struct NvmlProbe {
    view: NvmlView,
    index: u32,
    pid: u32,
}

impl NvmlProbe {
    /// Probes device `index` for this process.
    pub fn new(view: NvmlView, index: u32) -> Self {
        Self {
            view,
            index,
            pid: std::process::id(),
        }
    }
}

impl MemoryProbe for NvmlProbe {
    fn source(&self) -> &'static str {
        "nvml"
    }
    fn read(&self) -> MemoryReading {
        let dev = self.view.memory(self.index).ok();
        let process = self
            .view
            .processes(self.index)
            .ok()
            .and_then(|ps| ps.into_iter().find(|p| p.pid == self.pid))
            .and_then(|p| p.used);
        MemoryReading {
            in_use: None,
            reserved: None,
            process,
            device_used: dev.map(|(used, _)| used),
            device_total: dev.map(|(_, total)| total),
        }
    }
}
