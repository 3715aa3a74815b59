//! `oomlab estimate --model NAME | --hf-config PATH`: the training peak of a Hugging Face
//! decoder-only model (GPT-2, Llama, Mistral, Qwen2) trained with PyTorch, from its
//! config.json alone, checked against real transformers runs on an H200
//! (benches/hf_memory.py, docs/results/2026-12-04-hf-estimate-validation.md).
//!
//! - [`shape`]: config.json to shapes and the parameter count.
//! - [`setup`]: the run to size (precision, optimizer, batch, GPUs, ZeRO, LoRA, offload).
//! - [`memory`]: what PyTorch keeps, term by term, and when it peaks.
//! - [`measured`]: the allocator's slack and the CUDA context, read from the H200 run.
//! - [`allocator`]: PyTorch's caching allocator as a model (segments from tensors).
//! - [`template`]: a training run's allocation sequence, read from H200 traces of small
//!   models of each architecture (src/hf/templates/).
//! - [`replay`]: a template replayed for the model through the allocator: the reserved
//!   peak.
//! - [`table`]: the table, the largest micro-batch, the smallest card, what to change.

pub mod allocator;
pub mod measured;
pub mod memory;
pub mod replay;
pub mod setup;
pub mod shape;
pub mod table;
pub mod template;

pub use memory::{estimate, largest_micro_batch, Estimate};
pub use setup::{Optimizer, Precision, Setup};
pub use shape::{Shape, ShapeError};
pub use table::HfReport;
