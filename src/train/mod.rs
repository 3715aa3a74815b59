//! The training loop, generic over the burn backend.

mod hooks;
mod leak;
mod optim;
mod resume;
mod run;
mod stall;
mod stop;
mod summarize;
mod trainer;

pub use crate::report::{AttemptOutcome, AttemptRecord};
pub use hooks::PoolHooks;
pub use leak::{LeakAlarm, LeakReport, LeakSpec, LeakWatch};
pub use optim::AnyOptim;
pub use resume::{CheckpointPlan, CheckpointReport, Checkpointer, ResumeFrom};
pub use run::{train, RunKit, RunResult, StepObserver};
pub use stall::{Busy, Journal, Watchdog};
pub use stop::StopFlag;
pub use summarize::{summarize, Measured, Outcome, ScalerState};
pub use trainer::{Instruments, StepRecord, TrainError, Trainer};

use burn::tensor::backend::AutodiffBackend;

use crate::model::AttentionBackend;

/// What training needs of a backend: autodiff, and the memory-efficient attention
/// operation (implemented for every autodiff backend).
pub trait TrainBackend: AutodiffBackend + AttentionBackend {}

impl<B: AutodiffBackend + AttentionBackend> TrainBackend for B {}
