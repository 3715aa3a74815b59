//! Before the job starts: does the card it will use have the memory it needs, who holds
//! the rest, and, when asked, waiting for the memory or ending stale holders of the same
//! user (as `oomlab gpu --kill` does, with the same care).

use std::time::{Duration, Instant};

use serde::Serialize;

use crate::holders::{
    free_check, plan_kill, signal_planned, snapshot, FreeCheck, GpuSnapshot, ProcState, Signal,
};
use crate::probe::NvmlView;
use crate::text::clip;
use crate::units::Bytes;

/// What to check before the launch.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Need {
    /// Free memory the job needs on the first card it sees.
    pub bytes: Bytes,
    /// How long to wait for it.
    pub wait: Option<Duration>,
    /// End stale holders of this user to make room.
    pub reap_stale: bool,
}

/// The outcome of the check.
#[derive(Debug, Clone, Serialize)]
pub struct Prelaunch {
    /// The card checked (NVML index) and what it had when the job started or was refused.
    pub check: Option<FreeCheck>,
    /// Whether the job may start.
    pub ok: bool,
    /// What was done on the way, one line each (waited, ended a holder).
    pub done: Vec<String>,
    /// Why nothing was checked (no GPU), where that is the case.
    pub skipped: Option<String>,
}

/// The NVML index of the first card a job sees: CUDA_VISIBLE_DEVICES's first entry when it
/// is an index, else card 0. (A UUID or MIG entry is not resolved: card 0 is checked, and
/// the note says so.)
pub fn first_visible(visible: Option<&str>) -> (u32, Option<String>) {
    match visible.map(str::trim) {
        None | Some("") => (0, None),
        Some(list) => {
            let first = list.split(',').next().unwrap_or("").trim();
            match first.parse::<u32>() {
                Ok(i) => (i, None),
                Err(_) => (
                    0,
                    Some(format!(
                        "CUDA_VISIBLE_DEVICES={list} names a card by UUID or MIG instance: card 0 was checked"
                    )),
                ),
            }
        }
    }
}

/// Checks `need` on `card`; waits, or ends stale holders of this user, as asked.
/// `progress` gets a line while waiting.
pub fn prelaunch(
    view: &NvmlView,
    card: u32,
    need: Need,
    mut progress: impl FnMut(&str),
) -> Result<Prelaunch, crate::holders::NoSuchGpu> {
    let mut done = Vec::new();
    let mut check = free_check(&snapshot(view), card, need.bytes)?;
    if !check.ok && need.reap_stale {
        for line in reap_stale(view, card) {
            done.push(line);
        }
        check = free_check(&snapshot(view), card, need.bytes)?;
    }
    if !check.ok {
        if let Some(wait) = need.wait {
            let deadline = Instant::now() + wait;
            let started = Instant::now();
            while !check.ok && Instant::now() < deadline {
                progress(&format!(
                    "waiting for {} free on GPU {card} ({} free; held by {}) {:.0} s of {:.0} s",
                    need.bytes,
                    check.free,
                    holders_line(&check),
                    started.elapsed().as_secs_f64(),
                    wait.as_secs_f64()
                ));
                std::thread::sleep(Duration::from_secs(1));
                check = free_check(&snapshot(view), card, need.bytes)?;
            }
            done.push(format!(
                "waited {:.0} s for the memory",
                started.elapsed().as_secs_f64()
            ));
        }
    }
    Ok(Prelaunch {
        ok: check.ok,
        check: Some(check),
        done,
        skipped: None,
    })
}

/// The holders of a check in one line, largest first:
/// `PID 123 20.00 GiB (python train.py)`, `PID 7 20.00 GiB (stopped: python hold.py)`.
pub fn holders_line(check: &FreeCheck) -> String {
    if check.holders.is_empty() {
        return "no process NVML lists".into();
    }
    check
        .holders
        .iter()
        .map(|h| {
            let what = match &h.proc {
                ProcState::Alive { command, .. } => clip(command, 40),
                ProcState::Stopped { command, .. } => format!("stopped: {}", clip(command, 40)),
                ProcState::Zombie { ppid } => format!("zombie, parent {ppid}"),
                ProcState::Gone => "not visible here".into(),
            };
            let used = h.used.map_or("n/a".into(), |b| b.to_string());
            format!("PID {} {used} ({what})", h.pid)
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The real user ID of `pid` (/proc/PID/status's `Uid:` line).
pub(super) fn owner(pid: u32) -> Option<u32> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("Uid:"))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// Ends the stale holders of `card` that this user owns: a stopped process gets SIGTERM
/// and SIGCONT (so that it receives it), then SIGKILL if it still holds memory after 5 s.
/// A zombie (its parent must reap it) or a process of another user or container is left
/// alone, and said so. One line per holder.
fn reap_stale(view: &NvmlView, card: u32) -> Vec<String> {
    let me = nix_uid();
    let snap: GpuSnapshot = snapshot(view);
    let mut lines = Vec::new();
    for h in snap.holders.iter().filter(|h| h.device == card && h.stale) {
        let pid = h.pid;
        let held = h.used.map_or("an unknown amount".into(), |b| b.to_string());
        match &h.proc {
            ProcState::Stopped { command, .. } if owner(pid) == Some(me) => {
                let plan = match plan_kill(&snap, pid) {
                    Ok(p) => p,
                    Err(e) => {
                        lines.push(format!("left PID {pid} alone: {e}"));
                        continue;
                    }
                };
                let ended = signal_planned(&plan, Signal::SIGTERM)
                    .and_then(|_| signal_planned(&plan, Signal::SIGCONT));
                if let Err(e) = ended {
                    lines.push(format!("could not end PID {pid}: {e}"));
                    continue;
                }
                let deadline = Instant::now() + Duration::from_secs(5);
                while holds(view, pid) && Instant::now() < deadline {
                    std::thread::sleep(Duration::from_millis(200));
                }
                if holds(view, pid) {
                    let _ = signal_planned(&plan, Signal::SIGKILL);
                    std::thread::sleep(Duration::from_millis(500));
                }
                lines.push(format!(
                    "ended PID {pid} ({command}), stopped and holding {held}: {}",
                    if holds(view, pid) {
                        "it still holds memory"
                    } else {
                        "its memory is free"
                    }
                ));
            }
            ProcState::Stopped { .. } => lines.push(format!(
                "left PID {pid} alone: stopped and holding {held}, but another user's"
            )),
            ProcState::Zombie { ppid } => lines.push(format!(
                "left PID {pid} alone: a zombie holding {held}; its parent {ppid} must reap it"
            )),
            ProcState::Gone | ProcState::Alive { .. } => lines.push(format!(
                "left PID {pid} alone: holding {held}, not a process of this user here"
            )),
        }
    }
    lines
}

/// Whether `pid` still runs or holds memory.
fn holds(view: &NvmlView, pid: u32) -> bool {
    snapshot(view)
        .holders
        .iter()
        .any(|h| h.pid == pid && h.proc != ProcState::Gone)
}

/// This process's real user ID.
fn nix_uid() -> u32 {
    // SAFETY: getuid has no preconditions and cannot fail.
    unsafe { libc::getuid() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::holders::HolderRow;

    #[test]
    fn the_first_visible_card_is_cuda_visible_devices_first_index() {
        assert_eq!(first_visible(None), (0, None));
        assert_eq!(first_visible(Some("2,3")), (2, None));
        assert_eq!(first_visible(Some(" 1 ")), (1, None));
        let (card, note) = first_visible(Some("GPU-8f6e1c2a"));
        assert_eq!(card, 0);
        assert!(note.unwrap().contains("UUID"));
    }

    #[test]
    fn a_refusal_names_each_holder_with_its_bytes_and_a_short_command() {
        let holder = |pid, proc| HolderRow {
            device: 0,
            pid,
            used: Some(Bytes(20 * 1024 * 1024 * 1024)),
            proc,
            stale: false,
            advice: None,
        };
        let long = "python3 scripts/gpu/jobs/holder.py --size 20 --then-sleep-for-a-very-long-time";
        let check = FreeCheck {
            device: 0,
            wanted: Bytes(1),
            free: Bytes(0),
            total: Bytes(1),
            ok: false,
            holders: vec![
                holder(
                    772,
                    ProcState::Stopped {
                        command: long.into(),
                        ppid: 1,
                    },
                ),
                holder(
                    9,
                    ProcState::Alive {
                        command: "python3 a.py".into(),
                        ppid: 1,
                    },
                ),
                holder(10, ProcState::Zombie { ppid: 3 }),
            ],
        };
        assert_eq!(
            holders_line(&check),
            "PID 772 20.00 GiB (stopped: python3 scripts/gpu/jobs/holder.py...), \
             PID 9 20.00 GiB (python3 a.py), PID 10 20.00 GiB (zombie, parent 3)"
        );
    }

    #[test]
    fn this_process_is_owned_by_this_user() {
        assert_eq!(owner(std::process::id()), Some(nix_uid()));
    }
}
