//! The CUDA detector: a process-wide panic hook that recognises cubecl's allocation
//! failures on its device threads, where nothing else ever sees them.
//!
//! The hook appends to one log for the process; each detector reads it from its own
//! cursor. With one trainer per GPU (data parallel), every trainer arms and checks its
//! own detector without clearing the events another one has yet to see. cubecl's panic
//! message does not say which device failed, so each trainer sees every device's
//! failures: the peers' vote (`parallel::vote`) discards the step everywhere anyway.

use std::sync::{Mutex, OnceLock};

use super::base::{OomDetector, OomEvent, OomKind, Phase};
use super::classify::{classify, Fault};

#[derive(Debug, Clone)]
struct Captured {
    fault: Fault,
    message: String,
}

/// Everything the hook recognised, in order, and how many entries were dropped from the
/// front (a detector's cursor counts from the first entry ever logged).
struct Log {
    dropped: usize,
    entries: Vec<Captured>,
}

/// Entries kept at most; older ones are dropped (a cursor before them sees the rest).
const LOG_LIMIT: usize = 4096;

static CAPTURED: Mutex<Log> = Mutex::new(Log {
    dropped: 0,
    entries: Vec::new(),
});
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
                        c.entries.push(Captured {
                            fault,
                            message: message.lines().next().unwrap_or("").to_string(),
                        });
                        if c.entries.len() > LOG_LIMIT {
                            c.entries.remove(0);
                            c.dropped += 1;
                        }
                    }
                }
                None => previous(info),
            }
        }));
    });
}

/// Detects allocation failures that cubecl swallows on its device threads.
#[derive(Debug)]
pub struct DevicePanicDetector {
    /// Index (counted from the first entry ever logged) of the first entry this detector
    /// has not seen.
    cursor: Mutex<usize>,
}

fn log_end() -> usize {
    CAPTURED
        .lock()
        .map(|c| c.dropped + c.entries.len())
        .unwrap_or(0)
}

impl DevicePanicDetector {
    /// Installs the panic hook (once per process) and returns a detector armed now.
    pub fn install() -> Self {
        install_hook();
        Self {
            cursor: Mutex::new(log_end()),
        }
    }
}

impl OomDetector for DevicePanicDetector {
    fn name(&self) -> &'static str {
        "device-thread panic hook"
    }

    fn arm(&self) {
        if let Ok(mut cursor) = self.cursor.lock() {
            *cursor = log_end();
        }
    }

    fn check(&self, step: usize, phase: Phase) -> Option<OomEvent> {
        let mut cursor = self.cursor.lock().ok()?;
        let captured: Vec<Captured> = {
            let log = CAPTURED.lock().ok()?;
            let from = cursor.saturating_sub(log.dropped).min(log.entries.len());
            *cursor = log.dropped + log.entries.len();
            log.entries[from..].to_vec()
        };
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

    /// The log is the process's: these tests take turns.
    static TURN: Mutex<()> = Mutex::new(());

    #[test]
    fn a_swallowed_allocation_panic_on_another_thread_is_detected() {
        let _turn = TURN.lock().unwrap_or_else(|p| p.into_inner());
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

    #[test]
    fn two_detectors_each_see_an_event_once_without_clearing_the_other() {
        let _turn = TURN.lock().unwrap_or_else(|p| p.into_inner());
        let (a, b) = (
            DevicePanicDetector::install(),
            DevicePanicDetector::install(),
        );
        a.arm();
        b.arm();
        std::thread::spawn(|| {
            let _ = std::panic::catch_unwind(|| {
                panic!("called `Result::unwrap()` on an `Err` value: can't allocate buffer of size: 64");
            });
        })
        .join()
        .unwrap();
        // a re-arming (the next step of another trainer) must not hide it from b.
        assert!(a.check(1, Phase::Forward).is_some());
        a.arm();
        assert!(b.check(1, Phase::Forward).is_some());
        assert!(a.check(2, Phase::Forward).is_none());
        assert!(b.check(2, Phase::Forward).is_none());
    }
}
