//! What a run, a comparison row or an estimate produced, as plain data: built by the
//! loop and the commands, written to `summary.json`, read back typed, rendered by
//! `report`. A leaf: nothing here imports the training loop, the commands or the
//! renderers (only the vocabulary, units and the measured types they hold).

pub mod anatomy;
mod attempt;
mod checkpoint;
mod comparison;
mod leak;
mod parallel;
mod row;
mod stop;
mod summary;

pub use anatomy::{Category, PointPrediction, PointReading, Slice, StepAnatomy, StepPoint};
pub use attempt::{AttemptOutcome, AttemptRecord};
pub use checkpoint::CheckpointReport;
pub use comparison::{Comparison, COMPARE_SCHEMA_VERSION};
pub use leak::{LeakAlarm, LeakReport, LeakSpec};
pub use parallel::{ParallelReport, PeerReport};
pub use row::{DeviceFigures, Row, RowStatus};
pub use stop::StopReason;
pub use summary::{
    Adaptation, CacheCleanups, DeviceInfo, KernelCacheReport, LossScaleReport, PrecisionReport,
    RunSummary, StrategySpec, DIVERGENCE_MIN_STEPS, SUMMARY_SCHEMA_VERSION,
};
