//! cubecl's runtime configuration, set once before burn's CUDA backend starts: persistent
//! kernel and autotune caches, and how the memory pool places tensors.
//!
//! On burn 0.21 the first step at a new shape costs minutes on an H200 (NVRTC compiles
//! every kernel, autotune benchmarks the candidates). cubecl can keep compiled PTX and
//! autotune results on disk, but by default keeps only autotune results, under `target/`
//! of whatever Cargo project the current folder belongs to. oomlab points both at one
//! folder per user so every later process, from any folder, starts warm.

use std::path::{Path, PathBuf};

use cubecl::config::autotune::AutotuneLevel;
use cubecl::config::cache::CacheConfig;
use cubecl::config::compilation::CompilationLogLevel;
use cubecl::config::memory::PersistentMemory;
use cubecl::config::{CubeClRuntimeConfig, RuntimeConfig};
use serde::{Deserialize, Serialize};

/// The default cache folder: `$OOMLAB_KERNEL_CACHE`, else `$XDG_CACHE_HOME/oomlab/cubecl`,
/// else `~/.cache/oomlab/cubecl`.
pub fn default_kernel_cache() -> Option<PathBuf> {
    crate::env::kernel_cache()
}

/// The variable naming a file for cubecl's compilation log: each kernel a process
/// compiles (not those loaded from the kernel cache), with its name, its id and the source
/// handed to NVRTC, appended. What a slow first step compiled, and which kernels the
/// shipped pack lacks (a fresh H200's AMP bf16 first step compiled 11 kernels in 20-28 s
/// with no way to name them: docs/results/2026-12-04-h200-cublas-queued).
pub(super) const COMPILE_LOG_ENV: &str = crate::env::COMPILE_LOG_VAR;

/// Points cubecl's compilation log at `path` (every compiled kernel in full, appended) and
/// says so. cubecl also attaches debug information to each kernel it then compiles and
/// tries `clang-format` on its source: a diagnostic, not for timing a first step.
fn log_compilations(config: &mut CubeClRuntimeConfig, path: &Path) -> String {
    config.compilation.logger.level = CompilationLogLevel::Full;
    config.compilation.logger.file = Some(path.to_path_buf());
    config.compilation.logger.append = true;
    format!(
        "kernel compilation log: {} ({COMPILE_LOG_ENV}; each kernel compiled, with its source; slows compiling, not for timing)",
        path.display()
    )
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
    /// The autotune level cubecl runs at, and who chose it.
    pub autotune: AutotuneChoice,
}

/// The autotune level the results oomlab ships were measured at. cubecl's autotune keys
/// hold sizes rounded by the level (minimal: powers of 2.5, balanced: powers of 2), so a
/// result measured at one level is not found at another.
pub const SHIPPED_AUTOTUNE_LEVEL: &str = "minimal";

/// The autotune level of this process.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AutotuneChoice {
    /// `minimal`, `balanced`, `extensive` or `full`.
    pub level: &'static str,
    /// Where it came from: `oomlab` (nothing set), `CUBECL_AUTOTUNE_LEVEL` or
    /// `cubecl.toml`.
    pub set_by: &'static str,
}

impl AutotuneChoice {
    /// Whether the shipped autotune results can match at this level.
    pub fn matches_shipped(&self) -> bool {
        self.level == SHIPPED_AUTOTUNE_LEVEL
    }

    /// The line for the user.
    pub fn note(&self) -> String {
        if self.set_by == "oomlab" {
            format!(
                "autotune level: {} (oomlab's choice when CUBECL_AUTOTUNE_LEVEL is not set: the level its shipped autotune results were measured at)",
                self.level
            )
        } else if self.matches_shipped() {
            format!("autotune level: {} (set by {})", self.level, self.set_by)
        } else {
            format!(
                "autotune level: {} (set by {}): the autotune results oomlab ships were measured at '{SHIPPED_AUTOTUNE_LEVEL}' and do not match this level, so the first step at each shape benchmarks candidate kernels (minutes on a fresh machine); unset it to use them",
                self.level, self.set_by
            )
        }
    }
}

fn level_name(level: &AutotuneLevel) -> &'static str {
    match level {
        AutotuneLevel::Minimal => "minimal",
        AutotuneLevel::Balanced => "balanced",
        AutotuneLevel::Extensive => "extensive",
        AutotuneLevel::Full => "full",
    }
}

/// The level to run at: the user's (`CUBECL_AUTOTUNE_LEVEL`, or a level other than the
/// default in `cubecl.toml`) or, when they set none, the shipped results' level.
fn choose_level(from_file: &AutotuneLevel, env: Option<&str>) -> (AutotuneLevel, AutotuneChoice) {
    let parsed = env.and_then(|v| match v {
        "minimal" | "0" => Some(AutotuneLevel::Minimal),
        "balanced" | "1" => Some(AutotuneLevel::Balanced),
        "extensive" | "2" => Some(AutotuneLevel::Extensive),
        "full" | "3" => Some(AutotuneLevel::Full),
        _ => None,
    });
    let (level, set_by) = match parsed {
        Some(level) => (level, "CUBECL_AUTOTUNE_LEVEL"),
        None if !matches!(from_file, AutotuneLevel::Balanced) => (from_file.clone(), "cubecl.toml"),
        None => (AutotuneLevel::Minimal, "oomlab"),
    };
    let choice = AutotuneChoice {
        level: level_name(&level),
        set_by,
    };
    (level, choice)
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
    let env_level = crate::env::cubecl_autotune_level();
    let (level, autotune) = choose_level(&config.autotune.level, env_level.as_deref());
    config.autotune.level = level;
    notes.push(autotune.note());
    if let Some(path) = crate::env::compile_log() {
        notes.push(log_compilations(&mut config, &path));
    }
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
            autotune: AutotuneChoice::default(),
        };
    }
    CubeclSetup {
        notes,
        kernel_cache,
        scratch,
        autotune,
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
    fn the_compilation_log_names_every_kernel_in_a_file_appended() {
        let mut config = CubeClRuntimeConfig::default();
        assert!(matches!(
            config.compilation.logger.level,
            CompilationLogLevel::Disabled
        ));
        let note = log_compilations(&mut config, Path::new("/tmp/compiled.log"));
        assert!(matches!(
            config.compilation.logger.level,
            CompilationLogLevel::Full
        ));
        assert_eq!(
            config.compilation.logger.file.as_deref(),
            Some(Path::new("/tmp/compiled.log"))
        );
        assert!(config.compilation.logger.append);
        assert!(note.contains("/tmp/compiled.log") && note.contains(COMPILE_LOG_ENV));
    }

    #[test]
    fn the_shipped_level_unless_the_user_chose_one() {
        let (_, c) = choose_level(&AutotuneLevel::Balanced, None);
        assert_eq!((c.level, c.set_by), ("minimal", "oomlab"));
        assert!(c.matches_shipped() && c.note().contains("oomlab's choice"));
        let (_, c) = choose_level(&AutotuneLevel::Balanced, Some("balanced"));
        assert_eq!((c.level, c.set_by), ("balanced", "CUBECL_AUTOTUNE_LEVEL"));
        assert!(!c.matches_shipped() && c.note().contains("do not match"));
        let (_, c) = choose_level(&AutotuneLevel::Full, None);
        assert_eq!((c.level, c.set_by), ("full", "cubecl.toml"));
        // A value cubecl does not know is ignored by cubecl too: the file's or oomlab's.
        let (_, c) = choose_level(&AutotuneLevel::Balanced, Some("fast"));
        assert_eq!(c.set_by, "oomlab");
    }

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
