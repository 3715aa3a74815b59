//! Persistent kernel and autotune caches for burn's CUDA backend.
//!
//! On burn 0.21 the first step at a new shape costs minutes on an H200 (NVRTC compiles
//! every kernel, autotune benchmarks the candidates). cubecl can keep compiled PTX and
//! autotune results on disk, but by default keeps only autotune results, under `target/`
//! of whatever Cargo project the current folder belongs to. oomlab points both at one
//! folder per user so every later process, from any folder, starts warm.

use std::path::PathBuf;

use cubecl::config::cache::CacheConfig;
use cubecl::config::{CubeClRuntimeConfig, RuntimeConfig};

/// The default cache folder: `$OOMLAB_KERNEL_CACHE`, else `$XDG_CACHE_HOME/oomlab/cubecl`,
/// else `~/.cache/oomlab/cubecl`.
pub fn default_kernel_cache() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("OOMLAB_KERNEL_CACHE") {
        return Some(PathBuf::from(p));
    }
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
    Some(base.join("oomlab").join("cubecl"))
}

/// Configures cubecl before its first use: the user's `cubecl.toml` (if any) and
/// `CUBECL_*` variables as usual, with the compilation and autotune caches in `dir`
/// unless the user's file chose a compilation cache. Returns a line for the user.
pub fn configure_kernel_cache(dir: Option<PathBuf>) -> String {
    let mut config = CubeClRuntimeConfig::from_current_dir().override_from_env();
    let note = match dir {
        Some(dir) if config.compilation.cache.is_none() => {
            if let Err(e) = std::fs::create_dir_all(&dir) {
                return format!(
                    "kernel cache disabled: cannot create {} ({e}); the first step compiles every kernel",
                    dir.display()
                );
            }
            config.compilation.cache = Some(CacheConfig::File(dir.clone()));
            config.autotune.cache = CacheConfig::File(dir.clone());
            format!("kernel and autotune cache: {}", dir.display())
        }
        Some(_) => "kernel cache: as set in cubecl.toml".to_string(),
        None => "kernel cache: off (--kernel-cache off)".to_string(),
    };
    // `set` panics if cubecl already read its configuration; this runs before any CUDA
    // work, once per process.
    if std::panic::catch_unwind(|| CubeClRuntimeConfig::set(config)).is_err() {
        return "kernel cache: cubecl was already configured; left as it was".into();
    }
    note
}
