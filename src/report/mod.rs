//! Run summaries: built once as data, then rendered for humans (terminal) or scripts (JSON).
//! The training loop fills them in; nothing here depends on the loop.

mod attempt;
mod render;
mod summary;

pub use attempt::{AttemptOutcome, AttemptRecord};
pub use render::{render_attempts, render_memory, render_summary};
pub use summary::{
    Adaptation, CacheCleanups, DeviceInfo, KernelCacheReport, LossScaleReport, PrecisionReport,
    RunSummary, StopReason, SUMMARY_SCHEMA_VERSION,
};
