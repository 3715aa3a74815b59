//! `oomlab estimate`: peak memory, the largest batch and the card a run needs, predicted
//! from the model's shapes before training, and checked against short real runs
//! (`--calibrate`).
//!
//! - [`activations`]: what autodiff keeps, operation by operation.
//! - [`model`]: every term, the two moments where memory peaks, the predicted peak.
//! - [`measured`]: the terms that cannot be derived (CUDA context, pool slack), each
//!   with the committed run it was read from.
//! - [`pool`]: the pages burn's growth pool reserves for the live tensors.
//! - [`flex`]: whether the CPU backend multiplies on several threads (its buffers).
//! - [`anatomy`]: the prediction at a step's phase boundaries, by category.
//! - [`fit`] and [`cards`]: the largest batch for a capacity, the smallest card for a peak.
//! - [`calibrate`]: peak = a + b x micro-batch from two real probe runs.
//! - [`report`]: the table; `run`: from a plan to the report.

pub mod activations;
pub mod anatomy;
pub mod calibrate;
pub mod cards;
pub mod check;
pub mod fit;
pub mod flex;
pub mod measured;
pub mod model;
pub mod pool;
pub mod report;

pub use crate::technique::OffloadTerms;
pub use calibrate::{Calibration, Prober};
pub use cards::{parse_card, Card};
pub use check::{check_fits, WontFit};
pub use fit::{largest_batch, largest_micro_batch, smallest_card};
pub use model::{Estimate, Moment, Target, Term, TermKind};
pub use report::{EstimateReport, EstimateRow};
