//! The environment the CUDA operations read: the one module of this crate that does.
//!
//! [`OVERRIDES`] lists the variables a user may set here, with the reason; the program
//! that uses this crate lists them beside its own.

use std::ffi::OsString;
use std::path::PathBuf;

/// A variable a user may set, and what it changes.
#[derive(Debug, Clone, Copy)]
pub struct Override {
    /// The variable.
    pub name: &'static str,
    /// What it does.
    pub what: &'static str,
}

/// The variables a user may set for the CUDA operations.
pub const OVERRIDES: &[Override] = &[
    Override {
        name: CUBLAS_TIMING,
        what: "1 prints where the host's time goes in each cuBLAS product, every 500 products (a profiling aid)",
    },
    Override {
        name: CUBLAS_WORKSPACE_CONFIG,
        what: "cuBLAS's own variable for its workspace (`:KiB:count`); unset, oomlab sets one buffer of 4 MiB",
    },
    Override {
        name: "CUDA_HOME, CUDA_PATH, CUDA_ROOT",
        what: "where the CUDA toolkit is, searched for NVRTC and cuBLAS when they are not on the library path",
    },
];

const CUBLAS_TIMING: &str = "OOMLAB_CUBLAS_TIMING";
const CUBLAS_WORKSPACE_CONFIG: &str = "CUBLAS_WORKSPACE_CONFIG";
/// Set on the process restarted with NVRTC's folder on the library path, so that the
/// restarted one does not offer the same folder again.
pub const NVRTC_RESTARTED: &str = "OOMLAB_NVRTC_REEXEC";

/// `name`'s value, unless unset or empty.
fn os(name: &str) -> Option<OsString> {
    std::env::var_os(name).filter(|v| !v.is_empty())
}

/// `name`'s value as text, unless unset, empty or not UTF-8.
fn text(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

/// Whether `OOMLAB_CUBLAS_TIMING=1` asks for the cuBLAS products' host timing.
pub fn cublas_timing() -> bool {
    text(CUBLAS_TIMING).as_deref() == Some("1")
}

/// `CUBLAS_WORKSPACE_CONFIG`, as this process has it.
pub fn cublas_workspace_config() -> Option<String> {
    text(CUBLAS_WORKSPACE_CONFIG)
}

/// Sets `CUBLAS_WORKSPACE_CONFIG` for cuBLAS to read. Only before any other thread starts
/// (the binary's first line): setting a variable while another thread reads the
/// environment is a data race in the C library.
pub fn set_cublas_workspace_config(value: &str) {
    std::env::set_var(CUBLAS_WORKSPACE_CONFIG, value);
}

/// The CUDA toolkit folders the user's `CUDA_HOME`, `CUDA_PATH` and `CUDA_ROOT` name.
pub fn cuda_toolkits() -> Vec<PathBuf> {
    ["CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"]
        .into_iter()
        .filter_map(os)
        .map(PathBuf::from)
        .collect()
}

/// `LD_LIBRARY_PATH` as it is (empty when unset).
pub fn library_path() -> OsString {
    std::env::var_os("LD_LIBRARY_PATH").unwrap_or_default()
}

/// Whether this process is the one restarted with NVRTC's folder added.
pub fn nvrtc_restarted() -> bool {
    os(NVRTC_RESTARTED).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variable_read_here_is_listed_for_users_but_the_restart_marker() {
        let names: Vec<&str> = OVERRIDES.iter().map(|o| o.name).collect();
        for ours in [CUBLAS_TIMING, CUBLAS_WORKSPACE_CONFIG] {
            assert!(names.contains(&ours), "{ours}");
        }
        assert!(!names.contains(&NVRTC_RESTARTED));
    }
}
