//! The run's `[kernels]` choices, where the model's operations read them.
//!
//! burn's backend traits decide how an operation runs in functions that have no model or
//! configuration at hand (`<B as NormKernelBackend>::norm_on_kernels(dtype)`), so the
//! trainer hands this module its configuration's section before it builds the model
//! ([`use_kernels`]), and each operation reads its key here ([`kernels`]). Nothing else
//! sets it: a process that trains nothing keeps every key `auto`.

use std::sync::{PoisonError, RwLock};

use crate::config::KernelsSection;

static CHOSEN: RwLock<Option<KernelsSection>> = RwLock::new(None);

/// Makes `section` the choices every later operation of this process reads.
pub fn use_kernels(section: KernelsSection) {
    *CHOSEN.write().unwrap_or_else(PoisonError::into_inner) = Some(section);
}

/// The choices in force: the last [`use_kernels`]'s, else every key `auto`.
pub fn kernels() -> KernelsSection {
    CHOSEN
        .read()
        .unwrap_or_else(PoisonError::into_inner)
        .unwrap_or_default()
}

/// The keys of `section` that are not `auto`: one line for the run's header, or `None`.
pub fn chosen_line(section: &KernelsSection) -> Option<String> {
    let chosen = section.chosen();
    (!chosen.is_empty()).then(|| format!("kernels chosen in the config: {}", chosen.join(", ")))
}
