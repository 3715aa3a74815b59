//! The environment oomlab reads, all of it, in one place.
//!
//! What changes a run's numbers is a setting of the typed configuration (its config.toml
//! keeps it, a resume checks it). What is read here does not: it says where something is
//! on this machine (a library, a cache folder), it is another program's own variable
//! (CUDA's, cuBLAS's, cubecl's, the shell's), or it turns on a diagnostic that prints more.
//! [`OVERRIDES`] lists those a user may set, with the reason, and [`overrides`] adds the
//! CUDA operations' own (the kernels crate reads those, in its own one module); the
//! guide's table is checked against that list.

use std::ffi::OsString;
use std::path::PathBuf;

pub use oomlab_kernels::env::Override;

/// oomlab's variables a user may set, besides the CUDA operations' ([`overrides`] has both).
pub const OVERRIDES: &[Override] = &[
    Override {
        name: KERNEL_CACHE,
        what: "the folder of compiled kernels and autotune results (default: ~/.cache/oomlab/cubecl); a shared disk lets several machines start warm",
    },
    Override {
        name: CALIBRATION,
        what: "the folder of `estimate --calibrate`'s measurements (default: ~/.cache/oomlab/calibration)",
    },
    Override {
        name: NVML_LIB,
        what: "the path of libnvidia-ml when it is not on the library path (NVML gives the card's memory and its processes)",
    },
    Override {
        name: COMPILE_LOG,
        what: "a file that gets every kernel compiled, with its source: what a slow first step compiled (slows compiling; not for timing)",
    },
    Override {
        name: "CUBECL_AUTOTUNE_LEVEL",
        what: "cubecl's own autotune level; unset, oomlab runs at the level its shipped results were measured at",
    },
    Override {
        name: "CUDA_VISIBLE_DEVICES",
        what: "CUDA's own list of the cards a process may use; oomlab's device numbers count within it",
    },
    Override {
        name: "COLUMNS",
        what: "the width tables are fitted to (default: the terminal's, else 100)",
    },
    Override {
        name: "XDG_CACHE_HOME",
        what: "the base of oomlab's cache folders (default: ~/.cache)",
    },
];

/// Every variable a user may set: oomlab's, then the CUDA operations' (the guide lists
/// them all).
pub fn overrides() -> Vec<Override> {
    OVERRIDES
        .iter()
        .chain(oomlab_kernels::env::OVERRIDES)
        .copied()
        .collect()
}

const KERNEL_CACHE: &str = "OOMLAB_KERNEL_CACHE";
const CALIBRATION: &str = "OOMLAB_CALIBRATION";
const NVML_LIB: &str = "OOMLAB_NVML_LIB";
const COMPILE_LOG: &str = "OOMLAB_COMPILE_LOG";

/// `name`'s value, unless unset or empty.
fn os(name: &str) -> Option<OsString> {
    std::env::var_os(name).filter(|v| !v.is_empty())
}

/// `name`'s value as text, unless unset, empty or not UTF-8.
fn text(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

/// The base of oomlab's cache folders: `$XDG_CACHE_HOME`, else `~/.cache`.
fn cache_base() -> Option<PathBuf> {
    os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| os("HOME").map(|h| PathBuf::from(h).join(".cache")))
}

/// The kernel cache folder: `$OOMLAB_KERNEL_CACHE`, else `<cache base>/oomlab/cubecl`.
pub fn kernel_cache() -> Option<PathBuf> {
    os(KERNEL_CACHE)
        .map(PathBuf::from)
        .or_else(|| Some(cache_base()?.join("oomlab").join("cubecl")))
}

/// The calibration folder: `$OOMLAB_CALIBRATION`, else `<cache base>/oomlab/calibration`.
pub fn calibration() -> Option<PathBuf> {
    os(CALIBRATION)
        .map(PathBuf::from)
        .or_else(|| Some(cache_base()?.join("oomlab").join("calibration")))
}

/// The variable naming the compilation log, for messages.
pub const COMPILE_LOG_VAR: &str = COMPILE_LOG;

/// The file cubecl's compilation log goes to, when asked for.
pub fn compile_log() -> Option<PathBuf> {
    os(COMPILE_LOG).map(PathBuf::from)
}

/// The user's `CUBECL_AUTOTUNE_LEVEL`.
pub fn cubecl_autotune_level() -> Option<String> {
    text("CUBECL_AUTOTUNE_LEVEL")
}

/// The user's path of libnvidia-ml.
pub fn nvml_lib() -> Option<OsString> {
    os(NVML_LIB)
}

/// `CUDA_VISIBLE_DEVICES`, as set (empty included: no card visible).
pub fn cuda_visible_devices() -> Option<String> {
    std::env::var("CUDA_VISIBLE_DEVICES").ok()
}

/// `COLUMNS` as a number, when it is one.
pub fn columns() -> Option<usize> {
    text("COLUMNS")?.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variable_of_oomlab_read_here_is_listed_for_users_but_the_restart_marker() {
        let names: Vec<&str> = OVERRIDES.iter().map(|o| o.name).collect();
        for ours in [KERNEL_CACHE, CALIBRATION, NVML_LIB, COMPILE_LOG] {
            assert!(names.contains(&ours), "{ours}");
        }
    }
}
