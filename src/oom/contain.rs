//! Panic containment for calls into the backend on the training thread.
//!
//! burn panics on the calling thread when its device state broke (seen on CUDA after an
//! out-of-memory failure while kernels were being built). Every such call of the loop
//! (the warm-up step, each step, the end-of-run readings) goes through [`contained`], so
//! that the run stops with its summary written instead of dying without one. The panic
//! message itself has already gone to stderr through the panic hook.

use std::panic::{catch_unwind, AssertUnwindSafe};

/// `f()`, or `None` when it panicked.
pub fn contained<T>(f: impl FnOnce() -> T) -> Option<T> {
    // The state `f` touched is not used again after a panic: the caller stops the run
    // and reads nothing more from the device.
    catch_unwind(AssertUnwindSafe(f)).ok()
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
    }
}
