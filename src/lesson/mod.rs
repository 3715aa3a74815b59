//! `oomlab lesson`: a guided run for a class or a first hour with out-of-memory errors.
//! Under a budget that stands in for a small card (a VRAM budget on a GPU, a SIMULATED
//! host-heap budget on the CPU), part 1 (a batch too big for the card) lets the baseline
//! run out of memory, then tries mixed precision, gradient accumulation, checkpointing and
//! auto-halve one by one; part 2 (a model too big for it) shows those fail where pure half
//! precision, SGD and (on a GPU) AdamW's state in host memory fit, with sharding
//! predicted. The stages are the techniques' own. Each stage has `oomlab estimate`'s
//! prediction beside the measurement (and the learner's guess, when asked); each part ends
//! with its comparison table. `--exercises` prints questions for a class instead.

mod exercises;
mod stages;
mod verdict;

pub use exercises::{exercises, handout_markdown, Exercise, Handout, HandoutPart};
pub use stages::{Expect, Part, Stage, PARTS};
pub use verdict::{after_text, several_devices_text, StageNumbers};
