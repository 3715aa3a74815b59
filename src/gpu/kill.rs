//! Freeing VRAM by ending a holder: only a PID that holds VRAM, never PID 1, oomlab itself
//! or its parent; SIGTERM first, SIGKILL only if asked.

use super::procinfo::ProcState;
use super::view::GpuSnapshot;
use crate::units::Bytes;

/// Why a PID will not be signalled.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum KillError {
    /// PID 1, ourselves or our parent.
    #[error("refusing to signal PID {pid}: {why}")]
    Protected {
        /// PID.
        pid: u32,
        /// Which protection.
        why: &'static str,
    },
    /// Not in NVML's list.
    #[error(
        "PID {0} holds no VRAM according to NVML; oomlab only ends VRAM holders (see `oomlab gpu`)"
    )]
    NotAHolder(u32),
    /// Listed by NVML but not visible here.
    #[error("PID {0} holds VRAM but is not visible in this PID namespace (another container/VM); it cannot be signalled from here")]
    NotVisible(u32),
    /// kill(2) failed.
    #[error("signalling PID {pid} failed: {reason}")]
    Signal {
        /// PID.
        pid: u32,
        /// errno text.
        reason: String,
    },
}

/// What `--kill` is about to do, shown before asking.
#[derive(Debug, Clone, PartialEq)]
pub struct KillPlan {
    /// Target.
    pub pid: u32,
    /// Its command line.
    pub command: String,
    /// VRAM it holds, summed over devices.
    pub vram: Option<Bytes>,
    /// A zombie: signalling it does nothing, its parent must reap it.
    pub zombie_parent: Option<u32>,
}

/// Checks that `pid` may be signalled.
pub fn plan_kill(snapshot: &GpuSnapshot, pid: u32) -> Result<KillPlan, KillError> {
    let me = std::process::id();
    let parent = std::os::unix::process::parent_id();
    if pid <= 1 {
        return Err(KillError::Protected {
            pid,
            why: "it is init (PID 1) or invalid",
        });
    }
    if pid == me {
        return Err(KillError::Protected {
            pid,
            why: "it is oomlab itself",
        });
    }
    if pid == parent {
        return Err(KillError::Protected {
            pid,
            why: "it is oomlab's parent (your shell or script)",
        });
    }
    let rows: Vec<_> = snapshot.holders.iter().filter(|h| h.pid == pid).collect();
    let Some(first) = rows.first() else {
        return Err(KillError::NotAHolder(pid));
    };
    let vram = rows
        .iter()
        .map(|r| r.used)
        .try_fold(0u64, |acc, u| u.map(|b| acc + b.0))
        .map(Bytes);
    match &first.proc {
        ProcState::Alive { command, .. } => Ok(KillPlan {
            pid,
            command: command.clone(),
            vram,
            zombie_parent: None,
        }),
        ProcState::Zombie { ppid } => Ok(KillPlan {
            pid,
            command: String::from("<zombie>"),
            vram,
            zombie_parent: Some(*ppid),
        }),
        ProcState::Gone => Err(KillError::NotVisible(pid)),
    }
}

/// Sends `signal` (e.g. `libc::SIGTERM`) to `pid`.
pub fn send_signal(pid: u32, signal: i32) -> Result<(), KillError> {
    let pid_t = i32::try_from(pid).map_err(|_| KillError::Signal {
        pid,
        reason: "PID out of range".into(),
    })?;
    // SAFETY: kill(2) with a checked positive PID and a plain signal number.
    let rc = unsafe { libc::kill(pid_t, signal) };
    if rc == 0 {
        Ok(())
    } else {
        Err(KillError::Signal {
            pid,
            reason: std::io::Error::last_os_error().to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::HolderRow;

    fn snap(rows: Vec<HolderRow>) -> GpuSnapshot {
        GpuSnapshot {
            devices: vec![],
            holders: rows,
            notes: vec![],
        }
    }

    fn row(pid: u32, proc: ProcState) -> HolderRow {
        HolderRow {
            device: 0,
            pid,
            used: Some(Bytes(1 << 30)),
            proc,
            stale: false,
            advice: None,
        }
    }

    #[test]
    fn init_self_and_parent_are_never_signalled() {
        let s = snap(vec![]);
        assert!(matches!(plan_kill(&s, 1), Err(KillError::Protected { .. })));
        assert!(matches!(
            plan_kill(&s, std::process::id()),
            Err(KillError::Protected { .. })
        ));
        let parent = std::os::unix::process::parent_id();
        assert!(matches!(
            plan_kill(&s, parent),
            Err(KillError::Protected { .. })
        ));
    }

    #[test]
    fn a_pid_without_vram_is_refused() {
        let s = snap(vec![row(
            4242,
            ProcState::Alive {
                command: "python x.py".into(),
                ppid: 1,
            },
        )]);
        assert_eq!(plan_kill(&s, 999_999), Err(KillError::NotAHolder(999_999)));
        let p = plan_kill(&s, 4242).unwrap();
        assert_eq!(p.command, "python x.py");
        assert_eq!(p.vram, Some(Bytes(1 << 30)));
    }

    #[test]
    fn a_zombie_points_at_its_parent() {
        let s = snap(vec![row(4243, ProcState::Zombie { ppid: 77 })]);
        assert_eq!(plan_kill(&s, 4243).unwrap().zombie_parent, Some(77));
    }
}
