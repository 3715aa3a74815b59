//! A deterministic detector for tests: fires at chosen (step, phase) checks.

use std::sync::Mutex;

use super::base::{OomDetector, OomEvent, OomKind, Phase};

/// Reports a simulated OOM at each listed `(step, phase)`, once.
#[derive(Debug, Default)]
pub struct ScriptedDetector {
    at: Mutex<Vec<(usize, Phase)>>,
}

impl ScriptedDetector {
    /// Fires at these checks.
    pub fn new(at: Vec<(usize, Phase)>) -> Self {
        Self { at: Mutex::new(at) }
    }
}

impl OomDetector for ScriptedDetector {
    fn name(&self) -> &'static str {
        "scripted (test)"
    }

    fn arm(&self) {}

    fn check(&self, step: usize, phase: Phase) -> Option<OomEvent> {
        let mut at = self.at.lock().ok()?;
        let i = at.iter().position(|&(s, p)| s == step && p == phase)?;
        at.remove(i);
        Some(OomEvent {
            kind: OomKind::OutOfMemory,
            simulated: true,
            phase,
            step,
            requested: None,
            message: "SIMULATED by a test".into(),
            allocator: None,
            memory: None,
            step_needed_at_least: None,
            step_available: None,
        })
    }
}
