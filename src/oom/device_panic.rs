//! The CUDA detector: a process-wide panic hook that recognises cubecl's allocation
//! failures on its device threads, where nothing else ever sees them.

use std::sync::{Mutex, OnceLock};

use super::base::{OomDetector, OomEvent, OomKind, Phase};
use super::classify::{classify, Fault};

#[derive(Debug, Clone)]
struct Captured {
    fault: Fault,
    message: String,
}

static CAPTURED: Mutex<Vec<Captured>> = Mutex::new(Vec::new());
static INSTALLED: OnceLock<()> = OnceLock::new();

fn install_hook() {
    INSTALLED.get_or_init(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let payload = info.payload();
            let message = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            match classify(&message) {
                Some(fault) => {
                    // Recorded for the trainer; not printed: the run summary reports it.
                    if let Ok(mut c) = CAPTURED.lock() {
                        c.push(Captured {
                            fault,
                            message: message.lines().next().unwrap_or("").to_string(),
                        });
                    }
                }
                None => previous(info),
            }
        }));
    });
}

/// Detects allocation failures that cubecl swallows on its device threads.
#[derive(Debug)]
pub struct DevicePanicDetector;

impl DevicePanicDetector {
    /// Installs the panic hook (once per process) and returns the detector.
    pub fn install() -> Self {
        install_hook();
        Self
    }
}

impl OomDetector for DevicePanicDetector {
    fn name(&self) -> &'static str {
        "device-thread panic hook"
    }

    fn arm(&self) {
        if let Ok(mut c) = CAPTURED.lock() {
            c.clear();
        }
    }

    fn check(&self, step: usize, phase: Phase) -> Option<OomEvent> {
        let captured: Vec<Captured> = CAPTURED.lock().map(|mut c| std::mem::take(&mut *c)).ok()?;
        if captured.is_empty() {
            return None;
        }
        // Prefer the allocation failure itself over its aftermath.
        let first_oom = captured
            .iter()
            .find(|c| matches!(c.fault, Fault::OutOfMemory(_)));
        let (kind, requested, message) = match first_oom {
            Some(Captured {
                fault: Fault::OutOfMemory(size),
                message,
            }) => (OomKind::OutOfMemory, *size, message.clone()),
            _ => (OomKind::DeviceFault, None, captured[0].message.clone()),
        };
        Some(OomEvent {
            kind,
            simulated: false,
            phase,
            step,
            requested,
            message,
            allocator: None,
            memory: None,
            step_needed_at_least: None,
            step_available: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_swallowed_allocation_panic_on_another_thread_is_detected() {
        let d = DevicePanicDetector::install();
        d.arm();
        // What cubecl does: panic on its runner thread, catch it there, carry on.
        std::thread::Builder::new()
            .name("DSD-test".into())
            .spawn(|| {
                let _ = std::panic::catch_unwind(|| {
                    let size = 4096;
                    panic!(
                        "called `Result::unwrap()` on an `Err` value: can't allocate buffer of size: {size}"
                    );
                });
            })
            .unwrap()
            .join()
            .unwrap();
        let e = d.check(3, Phase::Backward).expect("the OOM must be seen");
        assert_eq!(e.kind, OomKind::OutOfMemory);
        assert_eq!(e.requested.map(|b| b.0), Some(4096));
        assert_eq!((e.step, e.phase), (3, Phase::Backward));
        assert!(!e.simulated);
        assert!(
            d.check(3, Phase::Optimizer).is_none(),
            "each event is reported once"
        );
    }
}
