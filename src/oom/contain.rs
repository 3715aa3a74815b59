//! Panic containment for calls into the backend on the training thread.
//!
//! burn panics on the calling thread when its device state broke (seen on CUDA after an
//! out-of-memory failure while kernels were being built). Every such call of the loop
//! (the warm-up step, each step, the end-of-run readings) goes through [`contained`], so
//! that the run stops with its summary written instead of dying without one. The panic
//! message itself has already gone to stderr through the panic hook.

use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};

/// Set once a call through [`contained`] panicked in this process.
static BROKE: AtomicBool = AtomicBool::new(false);

/// `f()`, or `None` when it panicked.
pub fn contained<T>(f: impl FnOnce() -> T) -> Option<T> {
    // The state `f` touched is not used again after a panic: the caller stops the run
    // and reads nothing more from the device.
    let out = catch_unwind(AssertUnwindSafe(f)).ok();
    if out.is_none() {
        BROKE.store(true, Ordering::SeqCst);
    }
    out
}

/// Whether a call through [`contained`] panicked in this process: burn's backend is
/// broken, and its threads may still be failing.
pub fn backend_broke() -> bool {
    BROKE.load(Ordering::SeqCst)
}

/// Flushes stdout and stderr and ends the process with `code` without the C libraries'
/// exit handlers, for a process whose backend is broken or busy once its results are
/// written: on the H200 a run whose products were on cuBLAS ended in a segmentation fault
/// after printing its summary of an out-of-memory failure (docs/results/2026-12-04-h200-cublas-oom,
/// call4), as a stop during a kernel compilation had (cmd/train.rs), where the exit code
/// should have said what happened.
pub fn exit_without_teardown(code: i32) -> ! {
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    // SAFETY: `_exit` ends the process at once; nothing after it runs.
    unsafe { libc::_exit(code) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_none_and_a_value_passes_through() {
        assert_eq!(contained(|| 7), Some(7));
        let quiet = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let r: Option<()> = contained(|| panic!("device state broke"));
        std::panic::set_hook(quiet);
        assert_eq!(r, None);
        assert!(backend_broke());
    }
}
