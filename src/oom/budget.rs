//! The CPU detector: a simulated OOM when the host heap crosses `--memory-budget`.

use super::base::{OomDetector, OomEvent, OomKind, Phase};
use crate::probe::host;
use crate::units::Bytes;

/// Reports a *simulated* OOM when the counting allocator saw the heap cross the budget.
#[derive(Debug)]
pub struct HostBudgetDetector {
    budget: Bytes,
}

impl HostBudgetDetector {
    /// Sets the process-wide budget and returns the detector.
    pub fn new(budget: Bytes) -> Self {
        host::set_budget(Some(budget));
        Self { budget }
    }
}

impl Drop for HostBudgetDetector {
    fn drop(&mut self) {
        host::set_budget(None);
    }
}

impl OomDetector for HostBudgetDetector {
    fn name(&self) -> &'static str {
        "host memory budget (simulated)"
    }

    fn arm(&self) {
        let _ = host::take_over_budget();
    }

    fn check(&self, step: usize, phase: Phase) -> Option<OomEvent> {
        let requested = host::take_over_budget()?;
        Some(OomEvent {
            kind: OomKind::OutOfMemory,
            simulated: true,
            phase,
            step,
            requested: Some(requested),
            message: format!(
                "SIMULATED: host heap crossed --memory-budget {} (the allocation of {requested} that crossed it; at the check, after the phase freed its temporaries, {} is in use)",
                self.budget,
                host::heap_in_use()
            ),
            allocator: None,
            memory: None,
            step_needed_at_least: None,
            step_available: None,
        })
    }
}
