//! The commands, each from a validated plan (made by `cli`) to its result: they
//! orchestrate the layers below (training loop, estimate, comparison tables, probes) and
//! are the only modules that do. Nothing below imports them.

pub mod compare;
pub mod estimate;
mod instruments;
pub mod lesson;
mod predicted;
pub mod preflight;
pub mod report;
pub mod run;
pub mod train;
mod train_plan;
pub mod warm_up;
