//! Mitigation strategies: how one optimizer step's batch is turned into forward/backward
//! passes. One trait in `base.rs`, one implementation per file.

mod auto_halve;
mod base;
mod baseline;
mod grad_accum;

pub use auto_halve::AutoHalve;
pub use base::{OomResponse, StepPlan, Strategy};
pub use baseline::Baseline;
pub use grad_accum::GradAccum;

use crate::config::Split;

/// The strategy for a run's split. (Checkpointing, precision, sharding and the pool mode
/// are settings of the run, not strategies: see `config::TrainSpec`.)
pub fn for_split(split: Split) -> Box<dyn Strategy> {
    match split {
        Split::Whole => Box::new(Baseline),
        Split::GradAccum { steps } => Box::new(GradAccum { steps }),
        Split::AutoHalve(spec) => Box::new(AutoHalve::new(spec)),
    }
}
