//! Run configuration: TOML files in `configs/`, flag overrides, validation.
//!
//! Raw values (what the file and the flags say) and the resolved [`RunConfig`] are two
//! types; the trainer only ever sees the latter.

pub mod kernels;
mod load;
mod resolved;
mod schema;

pub use kernels::{KernelChoice, KernelsSection};
pub use load::{apply_override, builtin_config, load, ConfigSource, Draft, BUILTIN_CONFIGS};
pub use resolved::{
    AutoHalveSpec, DataSource, HalfDtype, LossScaleSpec, MemoryMode, ModelKind, ModelSpec,
    OptimKind, OptimSpec, PrecisionMode, RunConfig, SearchMode, Split, Task, TrainSpec,
};
pub use schema::{
    count, AutoHalveSection, ConfigFile, DataSection, LossScaleSection, MemorySection,
    ModelSection, OptimSection, TrainSection,
};

/// What went wrong reading or checking a configuration. Every variant names the source
/// (file or flag) and, where there is one, the key.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("cannot read config file {path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// The TOML does not parse, or has an unknown key or a value of the wrong type.
    #[error("{origin}: {message}")]
    Parse {
        /// The file (or `built-in config NAME`).
        origin: String,
        /// The parser's message, which names the key and line.
        message: String,
    },
    /// A value parses but is not allowed.
    #[error("{origin}: `{key}`{flag} {reason}")]
    Invalid {
        /// The file, with the flags applied on top of it.
        origin: String,
        /// Dotted key, e.g. `train.batch`.
        key: String,
        /// ` (from --batch 0; flag --batch)`: what set the key and the flags that can, else
        /// empty.
        flag: String,
        /// What is wrong and what would be valid.
        reason: String,
    },
    /// A flag's value is malformed or does not apply (`--set x`, `--steps 4` with
    /// baseline, `--strategies nope`).
    #[error("{given}: {reason}")]
    Override {
        /// The flag and what the user wrote after it, e.g. `--set train.batch`.
        given: String,
        /// What is wrong.
        reason: String,
    },
}
