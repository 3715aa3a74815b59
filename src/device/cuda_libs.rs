//! Finding the CUDA driver and NVRTC before burn needs them.
//!
//! cudarc (under cubecl) loads `libcuda` and `libnvrtc` by name at run time, so a missing
//! library shows up as a panic deep inside the first kernel launch. We look first and say
//! what to do, and when NVRTC is installed but not on the library path (the usual case:
//! `/usr/local/cuda-*/lib64`) we restart ourselves with it added.

use std::ffi::{c_char, c_int, CStr};
use std::path::{Path, PathBuf};

/// Set in the environment of the restarted process so we never loop.
const REEXEC_MARKER: &str = "OOMLAB_NVRTC_REEXEC";

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

/// Loads `libcuda.so.1` and asks it for the devices. `Err` says why CUDA is unusable.
pub fn cuda_driver() -> Result<CudaDriver, String> {
    type CuInit = unsafe extern "C" fn(u32) -> c_int;
    type CuDeviceGetCount = unsafe extern "C" fn(*mut c_int) -> c_int;
    type CuDeviceGet = unsafe extern "C" fn(*mut c_int, c_int) -> c_int;
    type CuDeviceGetName = unsafe extern "C" fn(*mut c_char, c_int, c_int) -> c_int;

    // SAFETY: loading the system's CUDA driver library runs its initialisers, which is
    // what every CUDA program does; the symbols are called with their documented C types.
    unsafe {
        let lib = libloading::Library::new("libcuda.so.1")
            .map_err(|e| format!("the CUDA driver (libcuda.so.1) cannot be loaded: {e}"))?;
        let sym = |name: &[u8]| {
            lib.get::<*const ()>(name)
                .map(|s| *s)
                .map_err(|e| format!("libcuda.so.1 lacks {}: {e}", String::from_utf8_lossy(name)))
        };
        let init: CuInit = std::mem::transmute(sym(b"cuInit\0")?);
        let count_fn: CuDeviceGetCount = std::mem::transmute(sym(b"cuDeviceGetCount\0")?);
        let get: CuDeviceGet = std::mem::transmute(sym(b"cuDeviceGet\0")?);
        let name_fn: CuDeviceGetName = std::mem::transmute(sym(b"cuDeviceGetName\0")?);
        let rc = init(0);
        if rc != 0 {
            return Err(format!(
                "cuInit failed with CUDA error {rc} (is the driver loaded? does nvidia-smi work?)"
            ));
        }
        let mut count: c_int = 0;
        let rc = count_fn(&mut count);
        if rc != 0 {
            return Err(format!("cuDeviceGetCount failed with CUDA error {rc}"));
        }
        let mut names = Vec::new();
        for i in 0..count {
            let mut dev: c_int = 0;
            let mut buf = [0 as c_char; 256];
            let name = if get(&mut dev, i) == 0 && name_fn(buf.as_mut_ptr(), 255, dev) == 0 {
                CStr::from_ptr(buf.as_ptr()).to_string_lossy().into_owned()
            } else {
                format!("CUDA device {i}")
            };
            names.push(name);
        }
        // Keep the driver loaded for the life of the process; cudarc will load it again.
        std::mem::forget(lib);
        Ok(CudaDriver {
            devices: count.max(0) as usize,
            names,
        })
    }
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
    for var in ["CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"] {
        if let Some(v) = std::env::var_os(var) {
            dirs.push(Path::new(&v).join("lib64"));
            dirs.push(Path::new(&v).join("lib"));
        }
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
    if std::env::var_os(REEXEC_MARKER).is_none() {
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
    let mut path = std::env::var_os("LD_LIBRARY_PATH").unwrap_or_default();
    if !path.is_empty() {
        path.push(":");
    }
    path.push(dir.as_os_str());
    let exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("/proc/self/exe"));
    std::process::Command::new(exe)
        .args(std::env::args_os().skip(1))
        .env("LD_LIBRARY_PATH", path)
        .env(REEXEC_MARKER, "1")
        .exec()
}
