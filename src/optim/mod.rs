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
//!
//! Measured on an H100 (docs/results/2026-12-06-h100-adamw-kernel, the paired yardstick,
//! the same binary with `kernels.adamw=burn` as the other side): the gpu config's AMP bf16
//! step 36.4 ms against 40.6 and 30.3 against 33.3 in two runs; its f32 step, which the GPU
//! sets the pace of, 38.9 against 38.2 (within the runs' spread); the h200 config's AMP
//! step 347.0 against 353.3. The same NVML peaks; final losses after 100 steps against the
//! binary before it 3.7e-4 (f32) and 9.7e-4 (bf16) apart, relative.

mod fused_adamw;

pub use fused_adamw::FusedAdamW;
pub use oomlab_kernels::ops::{adamw_setting, burn_adamw_update, AdamWKernelBackend, AdamWScalars};
