//! `oomlab lesson`: a guided run for a class or a first hour with out-of-memory errors.
//! Under a budget that stands in for a small card (a VRAM budget on a GPU, a SIMULATED
//! host-heap budget on the CPU), the baseline runs out of memory; then mixed precision,
//! gradient accumulation, checkpointing and auto-halve are tried one by one, each with
//! `oomlab estimate`'s prediction beside the measurement (and the learner's guess, when
//! asked), ending with the comparison table.

mod exercises;
mod stages;
mod verdict;

pub use exercises::{exercises, handout_markdown, Exercise, Handout, HandoutPart};
pub use stages::{Part, Stage, BIG_MODEL_STAGES, PARTS, STAGES};
pub use verdict::{after_text, several_devices_text, StageNumbers};
