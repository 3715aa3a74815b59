//! The optimizer's update as a backend choice (issue 29): AdamW's update of each parameter
//! as one kernel on CUDA ([`AdamWKernelBackend`]), burn's `AdamW` elsewhere, behind one
//! burn `SimpleOptimizer` ([`FusedAdamW`]) whose state and record are burn's `AdamW`'s.
//!
//! Why: burn's `AdamW` is thirteen tensor operations a parameter and a step (the two
//! moments, their bias corrections, the update), about 1,300 a step for the `gpu` config's
//! ~100 parameters. burn's fusion fuses them into few kernels on the GPU, but each is
//! registered with burn's fusion thread, which the host profile of the `gpu` config found
//! setting the pace of an AMP bf16 step (docs/results/2026-12-06-h100-host-profile). One
//! custom operation a parameter registers one.

mod adamw_kernel;
mod fused_adamw;

pub use adamw_kernel::{adamw_setting, burn_adamw_update, AdamWKernelBackend, AdamWScalars};
pub use fused_adamw::FusedAdamW;
