//! The integration tests that drive the real binary (or the library) on the CPU backend,
//! in one test binary so burn is linked once (bottom's tests/integration layout).
//! tests/oom_recovery_frees_memory.rs installs its own global allocator and tests/gpu/
//! tests need a GPU: those stay binaries of their own.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod util;

mod anatomy;
mod attention;
mod auto_halve;
mod cli;
mod collective;
mod compare;
mod diagnose;
mod estimate;
mod file_graph;
mod first_result;
mod grad_accum;
mod guide;
mod hf_allocator;
mod hf_estimate;
mod hf_replay;
mod leak;
mod lesson;
mod memory_options;
mod mixed_precision;
mod module_graph;
mod offload;
mod parallel;
mod readme;
mod report;
mod resume;
mod run;
mod widths;
