//! The training loop, generic over the burn backend.

mod anatomy;
mod devices;
mod error;
mod hooks;
mod leak;
mod optim;
mod resume;
mod run;
mod stall;
mod state_error;
mod stop;
mod summarize;
mod sync;
mod trainer;

pub use devices::{check_split, train_on, DeviceRun, UnevenSplit};
pub use error::{SyncError, TrainError};
pub use hooks::PoolHooks;
pub use leak::LeakWatch;
pub use optim::AnyOptim;
pub use resume::{CheckpointPlan, Checkpointer, ResumeFrom};
pub use run::{train, RunKit, RunResult, StepObserver};
pub use stall::{Busy, Journal, Watchdog};
pub use state_error::StateError;
pub use stop::StopFlag;
pub use summarize::{summarize, Measured, Outcome, ScalerState};
pub use sync::{Alone, GradSync};
pub use trainer::{Instruments, JoinError, StepRecord, Trainer};

use burn::tensor::backend::AutodiffBackend;

use crate::model::ModelBackend;
use crate::optim::AdamWKernelBackend;

/// What training needs of a backend: autodiff, the models' custom operations
/// (memory-efficient attention and LayerNorm, implemented for every autodiff backend) and
/// AdamW's update (crate::optim, implemented for every backend oomlab trains on).
pub trait TrainBackend: AutodiffBackend<InnerBackend: AdamWKernelBackend> + ModelBackend {}

impl<B: AutodiffBackend<InnerBackend: AdamWKernelBackend> + ModelBackend> TrainBackend for B {}
