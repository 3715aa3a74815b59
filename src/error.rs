//! The library's error type, with the exit code each kind of failure maps to.

use std::path::PathBuf;

use crate::config::ConfigError;
use crate::data::DataError;
use crate::device::{BudgetError, DeviceError};

/// Everything that can stop an oomlab command.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Bad configuration file or flags.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// Training text unavailable or unusable.
    #[error(transparent)]
    Data(#[from] DataError),
    /// The requested device cannot be used.
    #[error(transparent)]
    Device(#[from] DeviceError),
    /// A memory budget cannot be set up.
    #[error(transparent)]
    Budget(#[from] BudgetError),
    /// The run folder could not be written.
    #[error("cannot write run folder {path}: {source} (choose another folder with --out DIR)")]
    RunDir {
        /// The file or folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The device cannot do what the configuration asks (a dtype, a memory mode).
    #[error("{0}")]
    Unsupported(String),
    /// The run cannot fit the machine; refused before it starts. The message gives the
    /// numbers and a setting that would fit.
    #[error("{0}")]
    WontFit(String),
    /// A Hugging Face config.json cannot be estimated (`oomlab estimate --hf-config`).
    #[error(transparent)]
    Shape(#[from] crate::hf::ShapeError),
    /// NVML could not answer (`oomlab gpu`).
    #[error(transparent)]
    Probe(#[from] crate::probe::ProbeError),
    /// `gpu --kill` refused, or its signal failed.
    #[error(transparent)]
    Kill(#[from] crate::holders::KillError),
    /// A report could not be rendered.
    #[error("cannot render the report: {0}")]
    Report(String),
    /// `--resume` cannot continue this run folder (no usable checkpoint, a changed
    /// configuration without `--force`, a change no checkpoint can follow).
    #[error("{0}")]
    Resume(String),
    /// An input file (e.g. the message `oomlab diagnose` reads) could not be read.
    #[error("cannot read {path}: {source} (give a readable file, or pipe the text in: `oomlab diagnose < oom.txt`)")]
    Input {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A folder the command reads (`oomlab report DIR`) is not there.
    #[error("cannot read the folder {path}: {source} (give a folder `oomlab compare`, `lesson` or `train` wrote)")]
    InputDir {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// `oomlab run` could not start or follow the job.
    #[error(transparent)]
    Launch(#[from] crate::watch::LaunchError),
    /// A folder the command reads is there but no command of oomlab's wrote it.
    #[error("{path} holds neither compare.json (an `oomlab compare` folder) nor summary.json (an `oomlab train` run folder)")]
    NotARunFolder {
        /// The folder.
        path: PathBuf,
    },
}

/// Exit code for invalid input: config, flags, data file, unavailable device.
pub const EXIT_USAGE: i32 = 2;
/// Exit code for a failure while running.
pub const EXIT_FAILURE: i32 = 1;
/// Exit code when a run stopped on a detected out-of-memory failure.
pub const EXIT_OOM: i32 = 3;
/// Exit code of `oomlab run` when the card lacks the memory `--need` asks for (the job was
/// not started).
pub const EXIT_NOT_FREE: i32 = 4;
/// Exit code after Ctrl-C stopped a run (the summary was still written).
pub const EXIT_INTERRUPTED: i32 = 130;
/// Exit code after SIGTERM stopped a run (checkpoint and summary were still written).
pub const EXIT_TERMINATED: i32 = 143;

/// `oomlab run`'s code for a job it could not start or follow, as a shell's where a
/// shell has one: 127 for a program not found, 126 for one that cannot be run.
fn launch_exit_code(e: &crate::watch::LaunchError) -> i32 {
    use crate::watch::LaunchError;
    match e {
        LaunchError::NoCommand => EXIT_USAGE,
        LaunchError::Spawn { source, .. } if source.kind() == std::io::ErrorKind::NotFound => 127,
        LaunchError::Spawn { .. } => 126,
        LaunchError::File { .. } | LaunchError::Wait(_) => EXIT_FAILURE,
    }
}

impl Error {
    /// The process exit code for this error.
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Config(_)
            | Error::Data(_)
            | Error::Device(_)
            | Error::Budget(_)
            | Error::Unsupported(_)
            | Error::WontFit(_)
            | Error::Resume(_)
            | Error::Input { .. }
            | Error::Shape(_)
            | Error::InputDir { .. }
            | Error::NotARunFolder { .. } => EXIT_USAGE,
            Error::Kill(e) if e.is_refusal() => EXIT_USAGE,
            Error::Launch(e) => launch_exit_code(e),
            Error::RunDir { .. } | Error::Report(_) | Error::Kill(_) | Error::Probe(_) => {
                EXIT_FAILURE
            }
        }
    }
}
