//! Mixed precision and pure half precision, which burn 0.21 does not have built in.
//!
//! - AMP ([`PrecisionMode::Mixed`]): the model and AdamW's state stay in f32 (the
//!   "master weights"); every micro-batch casts the weights to f16/bf16
//!   ([`compute_copy`]), runs forward and backward in half, and the cast's backward turns
//!   the gradients back into f32 for the update (`kernels.amp_cast=step` casts once a step
//!   instead, [`cast_once_a_step`], and the gradients after each backward pass, [`grads_in_f32`]:
//!   the same values). The loss itself is computed from f32 logits.
//! - f16 adds dynamic loss scaling ([`LossScaler`], [`unscale_and_check`]): the loss is
//!   multiplied before backward so small gradients survive f16's narrow range, and a step
//!   whose gradients came back inf/NaN is skipped.
//! - Pure half ([`PrecisionMode::Pure`]): weights, gradients and optimizer state all in
//!   half ([`into_half`]), the contrast that shows what AMP keeps in f32.
//!
//! In burn 0.21 the backend's float type parameter does not make tensors half (measured,
//! shared notes): every dtype here comes from an explicit cast, and reports read the dtype
//! back from the tensors.

mod cast;
mod grads;
mod scaler;

pub use cast::{cast_once_a_step, compute_copy, into_half};
pub use grads::{grads_in_f32, unscale_and_check};
pub use scaler::{LossScaler, ScaleUpdate};

pub use crate::config::{HalfDtype, LossScaleSpec, PrecisionMode};
