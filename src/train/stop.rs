//! Ctrl-C handling: the first Ctrl-C asks the loop to stop after the current step.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A flag the loop checks between steps.
#[derive(Debug, Clone, Default)]
pub struct StopFlag(Arc<AtomicBool>);

impl StopFlag {
    /// A flag that is not set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks the loop to stop.
    pub fn request(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    /// Whether a stop was asked for.
    pub fn requested(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}
