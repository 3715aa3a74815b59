//! The run's `[kernels]` section, handed to the operations that read it.
//!
//! burn's backend traits decide how an operation runs in functions that have no model or
//! configuration at hand, so the kernels crate keeps the choices of the process; the
//! trainer gives it the configuration's section before it builds the model
//! ([`use_kernels`]). Nothing else sets it: a process that trains nothing keeps every key
//! `auto`.

use crate::config::KernelsSection;

/// Makes `section` the choices every later operation of this process reads.
pub fn use_kernels(section: KernelsSection) {
    oomlab_kernels::choose(section.to_choices());
}

/// The keys of `section` that are not `auto`: one line for the run's header, or `None`.
pub fn chosen_line(section: &KernelsSection) -> Option<String> {
    let chosen = section.chosen();
    (!chosen.is_empty()).then(|| format!("kernels chosen in the config: {}", chosen.join(", ")))
}
