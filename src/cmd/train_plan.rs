//! What `oomlab train` runs, already validated: the plan the flags resolve to, read by the
//! command and by the checks and instruments it sets up before training.

use std::path::PathBuf;
use std::time::Duration;

use crate::config::{ConfigFile, RunConfig};
use crate::device::DeviceRequest;
use crate::units::Bytes;

/// Everything `train` needs, already validated.
#[derive(Debug, Clone)]
pub struct TrainPlan {
    /// The merged config file (written to the run folder).
    pub file: ConfigFile,
    /// The checked config.
    pub config: RunConfig,
    /// Where to train: one device, or several (`--devices`, `--gpus`) for a data-parallel
    /// run, one peer per entry. Never empty.
    pub devices: Vec<DeviceRequest>,
    /// Run folder; `None` picks `runs/<time>-<strategy>`.
    pub out: Option<PathBuf>,
    /// No progress lines on stderr.
    pub quiet: bool,
    /// CPU: simulated OOM past this much host heap.
    pub memory_budget: Option<Bytes>,
    /// GPU: emulate a card of this size with real driver-level OOMs.
    pub vram_budget: Option<Bytes>,
    /// Memory sampler interval.
    pub probe_interval: Duration,
    /// Where compiled kernels and autotune results persist; `None` turns it off.
    pub kernel_cache: Option<PathBuf>,
    /// Install the autotune results oomlab ships for this card into the kernel cache.
    pub tuned_pack: bool,
    /// Synchronise and look for OOM after every phase (`false`: once per step).
    pub check_every_phase: bool,
    /// `--checkpoint-every N` (0: only when the run stops); `None`: no checkpoints
    /// (a resumed run keeps its checkpoint's setting).
    pub checkpoint_every: Option<usize>,
    /// `--keep-checkpoints K`.
    pub keep_checkpoints: Option<usize>,
    /// `--resume RUN_DIR`: continue that run, in that folder.
    pub resume: Option<ResumeRequest>,
    /// The leak detector's settings.
    pub leak: crate::results::LeakSpec,
    /// `--leak-demo`: a deliberate leak.
    pub leak_demo: Option<crate::words::LeakDemo>,
    /// `--json`: the summary goes to stdout as JSON.
    pub json: bool,
    /// A SIMULATED slow start before step 1, for tests of the stop path.
    pub simulated_slow_start: Option<Duration>,
}

/// A checked `--resume`: the run folder and the configuration keys `--force` let change.
#[derive(Debug, Clone, PartialEq)]
pub struct ResumeRequest {
    /// The run folder.
    pub dir: PathBuf,
    /// `key: old -> new` for each key changed with `--force`.
    pub forced: Vec<String>,
}
