//! Out-of-memory detection. burn 0.21 on CUDA does not report a failed allocation to the
//! caller (shared/notes): the allocation panics on cubecl's device thread, the panic is
//! swallowed, and the tensor reads as zeros. The detectors here turn every such failure
//! into a typed [`OomEvent`] at the next phase boundary. One trait in `base.rs`, one
//! detector per file; [`contained`] is the one place a backend panic is caught.

mod base;
mod budget;
mod classify;
mod contain;
mod device_panic;
mod scripted;

pub use base::{NoDetector, OomDetector, OomEvent, OomKind, Phase};
pub use budget::HostBudgetDetector;
pub use classify::{classify, Fault};
pub use contain::{backend_broke, contained, exit_without_teardown};
pub use device_panic::DevicePanicDetector;
pub use scripted::ScriptedDetector;
