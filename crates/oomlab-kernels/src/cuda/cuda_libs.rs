//! Finding the CUDA driver and NVRTC before burn needs them.
//!
//! cudarc (under cubecl) loads `libcuda` and `libnvrtc` by name at run time, so a missing
//! library shows up as a panic deep inside the first kernel launch. We ask cudarc first
//! (whether the driver library is present, then the devices) and say what to do, and when NVRTC is installed but not on the library path (the usual case:
//! `/usr/local/cuda-*/lib64`) we restart ourselves with it added.

use super::error::CudaOpError;
use std::path::{Path, PathBuf};

/// The names cudarc 0.19 tries for NVRTC on Linux.
const NVRTC_NAMES: &[&str] = &[
    "libnvrtc.so",
    "libnvrtc.so.13",
    "libnvrtc.so.12",
    "libnvrtc.so.11",
];

/// What the CUDA driver reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CudaDriver {
    /// Number of CUDA devices.
    pub devices: usize,
    /// Device names, by index.
    pub names: Vec<String>,
}

/// Loads the CUDA driver (through cudarc, as burn's backend will) and asks it for the
/// devices. `Err` says why CUDA is unusable.
pub fn cuda_driver() -> Result<CudaDriver, CudaOpError> {
    use cudarc::driver::{result, sys};
    // cudarc panics on a call when the library is missing: look first.
    // SAFETY: loading the system's CUDA driver library runs its initialisers, which is
    // what every CUDA program does.
    if !unsafe { sys::is_culib_present() } {
        return Err(CudaOpError::NoDriver);
    }
    result::init().map_err(CudaOpError::driver("cuInit"))?;
    let count = result::device::get_count().map_err(CudaOpError::driver("cuDeviceGetCount"))?;
    let names = (0..count)
        .map(|i| {
            result::device::get(i)
                .and_then(result::device::get_name)
                .unwrap_or_else(|_| format!("CUDA device {i}"))
        })
        .collect();
    Ok(CudaDriver {
        devices: count.max(0) as usize,
        names,
    })
}

/// Where NVRTC is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NvrtcStatus {
    /// It loads by name: cudarc will find it.
    Loadable,
    /// It exists in this folder, which is not on the library path.
    FoundAt(PathBuf),
    /// Not found in any of these folders.
    Missing {
        /// Folders searched.
        searched: Vec<PathBuf>,
    },
}

fn loads_by_name() -> bool {
    NVRTC_NAMES.iter().any(|name| {
        // SAFETY: loading NVRTC runs no code beyond its initialisers; we drop it at once.
        unsafe { libloading::Library::new(name) }.is_ok()
    })
}

fn search_dirs() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    for toolkit in crate::env::cuda_toolkits() {
        dirs.push(toolkit.join("lib64"));
        dirs.push(toolkit.join("lib"));
    }
    dirs.push(PathBuf::from("/usr/local/cuda/lib64"));
    // Newest toolkit first.
    let mut versioned: Vec<PathBuf> = std::fs::read_dir("/usr/local")
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("cuda-"))
        })
        .map(|p| p.join("lib64"))
        .collect();
    versioned.sort();
    versioned.reverse();
    dirs.extend(versioned);
    dirs.push(PathBuf::from("/opt/cuda/lib64"));
    dirs.push(PathBuf::from("/usr/lib/x86_64-linux-gnu"));
    dirs.push(PathBuf::from("/usr/lib64"));
    dirs
}

fn has_nvrtc(dir: &Path) -> bool {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .any(|e| {
            e.file_name()
                .to_str()
                .is_some_and(|n| n.starts_with("libnvrtc.so"))
        })
}

/// Looks for NVRTC: loadable as is, in a known folder, or nowhere.
pub fn locate_nvrtc() -> NvrtcStatus {
    if loads_by_name() {
        return NvrtcStatus::Loadable;
    }
    let searched = search_dirs();
    // After a restart with the folder added, a failure to load means the library there is
    // broken; do not offer the same folder again.
    if !crate::env::nvrtc_restarted() {
        if let Some(dir) = searched.iter().find(|d| has_nvrtc(d)) {
            return NvrtcStatus::FoundAt(dir.clone());
        }
    }
    NvrtcStatus::Missing { searched }
}

/// Restarts this program with `dir` appended to `LD_LIBRARY_PATH` (the dynamic loader
/// reads it only at start). Returns only if the restart failed.
pub fn reexec_with_library_dir(dir: &Path) -> std::io::Error {
    use std::os::unix::process::CommandExt;
    let mut path = crate::env::library_path();
    if !path.is_empty() {
        path.push(":");
    }
    path.push(dir.as_os_str());
    let exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("/proc/self/exe"));
    std::process::Command::new(exe)
        .args(std::env::args_os().skip(1))
        .env("LD_LIBRARY_PATH", path)
        .env(crate::env::NVRTC_RESTARTED, "1")
        .exec()
}
