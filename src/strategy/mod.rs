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

use crate::config::StrategySpec;

/// The strategy a configuration asks for.
pub fn from_spec(spec: StrategySpec) -> Box<dyn Strategy> {
    match spec {
        // Checkpointing is a property of the autodiff backend (see `backend::dispatch`);
        // the split is the baseline's.
        // Sharding is a property of the data-parallel run (see `parallel`); each device's
        // share of the batch goes in one pass.
        StrategySpec::Baseline
        | StrategySpec::Checkpointing
        | StrategySpec::Half
        | StrategySpec::ShardOptimizer => Box::new(Baseline),
        StrategySpec::GradAccum { steps } => Box::new(GradAccum { steps }),
        StrategySpec::AutoHalve(spec) => Box::new(AutoHalve::new(spec)),
    }
}
