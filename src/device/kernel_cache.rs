//! cubecl's runtime configuration, set once before burn's CUDA backend starts: persistent
//! kernel and autotune caches, and how the memory pool places tensors.
//!
//! On burn 0.21 the first step at a new shape costs minutes on an H200 (NVRTC compiles
//! every kernel, autotune benchmarks the candidates). cubecl can keep compiled PTX and
//! autotune results on disk, but by default keeps only autotune results, under `target/`
//! of whatever Cargo project the current folder belongs to. oomlab points both at one
//! folder per user so every later process, from any folder, starts warm.

use std::path::{Path, PathBuf};

use cubecl::config::cache::CacheConfig;
use cubecl::config::memory::PersistentMemory;
use cubecl::config::{CubeClRuntimeConfig, RuntimeConfig};
use serde::{Deserialize, Serialize};

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

/// What oomlab sets in cubecl's configuration.
#[derive(Debug, Clone, Default)]
pub struct CubeclSettings {
    /// Folder for compiled kernels and autotune results; `None` keeps nothing on disk.
    pub kernel_cache: Option<PathBuf>,
    /// Every allocation gets a buffer of its exact size (`--memory-mode exact`).
    pub exact_memory: bool,
}

/// What [`configure_cubecl`] did.
#[derive(Debug, Clone, Default)]
pub struct CubeclSetup {
    /// Lines for the user.
    pub notes: Vec<String>,
    /// The kernel cache folder cubecl now uses, when it is oomlab's.
    pub kernel_cache: Option<PathBuf>,
    /// With the kernel cache off: the folder of this process's autotune results, which
    /// [`CubeclSetup::remove_scratch`] deletes at the end of the run.
    pub scratch: Option<PathBuf>,
}

impl CubeclSetup {
    /// Deletes the scratch autotune folder of `--kernel-cache off`, if any.
    pub fn remove_scratch(&self) {
        if let Some(dir) = &self.scratch {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// Configures cubecl before its first use: the user's `cubecl.toml` (if any) and
/// `CUBECL_*` variables as usual, with the compilation and autotune caches in the kernel
/// cache folder unless the user's file chose a compilation cache, and exact-size
/// allocation when asked.
pub fn configure_cubecl(settings: &CubeclSettings) -> CubeclSetup {
    let mut config = CubeClRuntimeConfig::from_current_dir().override_from_env();
    let mut notes = Vec::new();
    let mut kernel_cache = None;
    let mut scratch = None;
    match &settings.kernel_cache {
        Some(dir) if config.compilation.cache.is_none() => match std::fs::create_dir_all(dir) {
            Ok(()) => {
                config.compilation.cache = Some(CacheConfig::File(dir.clone()));
                config.autotune.cache = CacheConfig::File(dir.clone());
                notes.push(format!("kernel and autotune cache: {}", dir.display()));
                kernel_cache = Some(dir.clone());
            }
            Err(e) => notes.push(format!(
                "kernel cache disabled: cannot create {} ({e}); the first step compiles every kernel",
                dir.display()
            )),
        },
        Some(_) => notes.push("kernel cache: as set in cubecl.toml".to_string()),
        None => {
            // cubecl always writes autotune results somewhere (there is no "off" in 0.10);
            // a folder of this process's own, removed at its end, keeps nothing for later.
            let dir = std::env::temp_dir().join(format!("oomlab-autotune-{}", std::process::id()));
            config.autotune.cache = CacheConfig::File(dir.clone());
            notes.push(format!(
                "kernel cache: off (--kernel-cache off): kernels compile in memory, autotune results go to {} and are removed at exit",
                dir.display()
            ));
            scratch = Some(dir);
        }
    }
    if settings.exact_memory {
        config.memory.persistent_memory = PersistentMemory::Enforced;
        notes.push(
            "--memory-mode exact: every allocation gets a buffer of its exact size (cubecl persistent_memory = \"enforced\")"
                .to_string(),
        );
    }
    // `set` panics if cubecl already read its configuration; this runs before any CUDA
    // work, once per process.
    if std::panic::catch_unwind(|| CubeClRuntimeConfig::set(config)).is_err() {
        return CubeclSetup {
            notes: vec![
                "cubecl was already configured; kernel cache and memory mode left as they were"
                    .into(),
            ],
            kernel_cache: None,
            scratch: None,
        };
    }
    CubeclSetup {
        notes,
        kernel_cache,
        scratch,
    }
}

/// Entries in a kernel cache folder.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CacheCounts {
    /// Compiled kernels (lines of cubecl's PTX table of contents).
    pub kernels: u64,
    /// Autotune results (one per tuned operation and shape class).
    pub tuned: u64,
}

impl CacheCounts {
    /// Entries in `dir` now: `<dir>/cuda/<version>/ptx/toc.json.log` holds one line per
    /// compiled kernel, `<dir>/autotune/...` one line per autotune result. A missing or
    /// unreadable folder counts as empty.
    pub fn read(dir: &Path) -> Self {
        let mut counts = CacheCounts::default();
        walk(dir, &mut |path| {
            if !path.to_string_lossy().ends_with(".json.log") {
                return;
            }
            let lines = std::fs::read(path)
                .map(|b| b.iter().filter(|c| **c == b'\n').count() as u64)
                .unwrap_or(0);
            let under = |name: &str| path.components().any(|c| c.as_os_str() == name);
            if under("ptx") {
                counts.kernels += lines;
            } else if under("autotune") {
                counts.tuned += lines;
            }
        });
        counts
    }

    /// What was added since `before`.
    pub fn since(self, before: CacheCounts) -> CacheCounts {
        CacheCounts {
            kernels: self.kernels.saturating_sub(before.kernels),
            tuned: self.tuned.saturating_sub(before.tuned),
        }
    }
}

fn walk(dir: &Path, visit: &mut dyn FnMut(&Path)) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, visit);
        } else {
            visit(&path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_kernels_and_autotune_results_by_folder() {
        let dir = tempfile::tempdir().unwrap();
        let ptx = dir.path().join("cuda/0.10.0/ptx");
        let tune = dir.path().join("autotune/0.10.0/device-0");
        std::fs::create_dir_all(&ptx).unwrap();
        std::fs::create_dir_all(&tune).unwrap();
        std::fs::write(ptx.join("toc.json.log"), "{}\n{}\n{}\n").unwrap();
        std::fs::write(ptx.join("chunk0.cbor"), "\n\n\n\n").unwrap();
        std::fs::write(tune.join("matmul.json.log"), "{}\n{}\n").unwrap();
        let before = CacheCounts::read(dir.path());
        assert_eq!(
            before,
            CacheCounts {
                kernels: 3,
                tuned: 2
            }
        );
        std::fs::write(tune.join("reduce.json.log"), "{}\n").unwrap();
        assert_eq!(
            CacheCounts::read(dir.path()).since(before),
            CacheCounts {
                kernels: 0,
                tuned: 1
            }
        );
        assert_eq!(
            CacheCounts::read(&dir.path().join("nothing")),
            CacheCounts::default()
        );
    }
}
