//! Stopping a run cleanly: Ctrl-C (SIGINT) and SIGTERM ask the loop to stop after the
//! current step; the run then writes its checkpoint and summary and exits 130 or 143.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A flag the loop checks between steps, and which signal set it.
#[derive(Debug, Clone, Default)]
pub struct StopFlag {
    interrupted: Arc<AtomicBool>,
    terminated: Arc<AtomicBool>,
}

impl StopFlag {
    /// A flag that is not set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks the loop to stop (Ctrl-C, or a caller).
    pub fn request(&self) {
        self.interrupted.store(true, Ordering::SeqCst);
    }

    /// Sets the flag on SIGTERM, from the signal handler (async-signal-safe: one atomic
    /// store). Fails only when the handler cannot be installed.
    pub fn on_sigterm(&self) -> std::io::Result<()> {
        signal_hook::flag::register(signal_hook::consts::SIGTERM, self.terminated.clone())
            .map(|_| ())
    }

    /// Whether a stop was asked for.
    pub fn requested(&self) -> bool {
        self.interrupted.load(Ordering::SeqCst) || self.terminated.load(Ordering::SeqCst)
    }

    /// Whether SIGTERM asked for it.
    pub fn terminated(&self) -> bool {
        self.terminated.load(Ordering::SeqCst)
    }

    /// `SIGTERM` or `Ctrl-C`, for messages and the checkpoint's reason.
    pub fn signal_name(&self) -> &'static str {
        if self.terminated() {
            "SIGTERM"
        } else {
            "Ctrl-C"
        }
    }
}
