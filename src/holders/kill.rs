//! Freeing VRAM by ending a holder: only a PID that holds VRAM, never PID 1, oomlab itself
//! or its parent; SIGTERM first, SIGKILL only if asked.

pub use nix::sys::signal::Signal;

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
    /// NVML's PIDs cannot be matched to processes in this PID namespace.
    #[error("refusing to signal PID {pid}: oomlab runs in a PID namespace of its own ({namespace}, not the host's) and none of NVML's holders is a process here, so NVML's PIDs are probably the host's and which process here holds that memory cannot be known; run `oomlab gpu --kill` on the host (or with docker run --pid=host), or end the process yourself if you know it is the one")]
    PidNamespace {
        /// PID asked for.
        pid: u32,
        /// This process's namespace.
        namespace: String,
    },
    /// The PID now names another process than the one shown before asking.
    #[error("PID {0} is no longer the process shown (it exited and the PID was reused); nothing sent. Run `oomlab gpu` again")]
    Reused(u32),
    /// A zombie: signals do nothing.
    #[error("PID {pid} is a zombie (parent {ppid}): it has exited and closed its files, and signals do nothing. A zombie holds no VRAM of its own (on the H200 a killed process's memory came back at exit, before it was reaped); memory still charged to it is kept by a process that inherited its CUDA device files: `oomlab gpu` names it, `oomlab gpu --kill THAT_PID` ends it")]
    Zombie {
        /// PID.
        pid: u32,
        /// The parent that must reap it.
        ppid: u32,
    },
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
    /// When it started (`procinfo::start_time`), re-checked before each signal.
    pub started: Option<u64>,
    /// Stopped: SIGTERM stays pending until it runs again, so SIGCONT follows it.
    pub stopped: bool,
}

impl KillError {
    /// A refusal of what was asked (exit 2) rather than a failure while doing it (1).
    pub fn is_refusal(&self) -> bool {
        matches!(
            self,
            KillError::Protected { .. }
                | KillError::NotAHolder(_)
                | KillError::NotVisible(_)
                | KillError::PidNamespace { .. }
        )
    }
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
        // NVML's PIDs are not this namespace's: a process here is not known to hold it.
        if let Some(namespace) = &snapshot.unmatched_pid_namespace {
            return Err(KillError::PidNamespace {
                pid,
                namespace: namespace.clone(),
            });
        }
        // Not charged itself, but keeping a dead holder's context open.
        if let Some(i) = snapshot.inheritors.iter().find(|i| i.pid == pid) {
            let vram = snapshot
                .holders
                .iter()
                .filter(|h| matches!(h.proc, ProcState::Gone | ProcState::Zombie { .. }))
                .try_fold(0u64, |acc, h| h.used.map(|u| acc + u.0))
                .map(Bytes);
            return Ok(KillPlan {
                pid,
                command: format!(
                    "{} (keeps an exited process's CUDA context open)",
                    i.command
                ),
                vram,
                zombie_parent: None,
                started: super::procinfo::start_time(pid),
                stopped: false,
            });
        }
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
            started: super::procinfo::start_time(pid),
            stopped: false,
        }),
        ProcState::Stopped { command, .. } => Ok(KillPlan {
            pid,
            command: command.clone(),
            vram,
            zombie_parent: None,
            started: super::procinfo::start_time(pid),
            stopped: true,
        }),
        ProcState::Zombie { ppid } => Ok(KillPlan {
            pid,
            command: String::from("<zombie>"),
            vram,
            zombie_parent: Some(*ppid),
            started: super::procinfo::start_time(pid),
            stopped: false,
        }),
        ProcState::Gone => Err(KillError::NotVisible(pid)),
    }
}

/// Sends `signal` to the process of `plan`, after checking that its PID still names the
/// same process (same start time): between the prompt and the signal it may have exited
/// and its PID gone to another.
pub fn signal_planned(plan: &KillPlan, signal: Signal) -> Result<(), KillError> {
    if super::procinfo::start_time(plan.pid) != plan.started {
        return Err(KillError::Reused(plan.pid));
    }
    send_signal(plan.pid, signal)
}

/// Sends `signal` (e.g. `Signal::SIGTERM`) to `pid`.
pub fn send_signal(pid: u32, signal: Signal) -> Result<(), KillError> {
    let raw = i32::try_from(pid).map_err(|_| KillError::Signal {
        pid,
        reason: "PID out of range".into(),
    })?;
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(raw), signal).map_err(|e| KillError::Signal {
        pid,
        reason: e.desc().to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::holders::HolderRow;

    fn snap(rows: Vec<HolderRow>) -> GpuSnapshot {
        GpuSnapshot {
            devices: vec![],
            holders: rows,
            notes: vec![],
            inheritors: vec![],
            unmatched_pid_namespace: None,
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
    fn a_plan_whose_pid_names_another_process_now_sends_nothing() {
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .unwrap();
        let pid = child.id();
        let plan = KillPlan {
            pid,
            command: "sleep 30".into(),
            vram: None,
            zombie_parent: None,
            // As if the process shown had started at another time than this one.
            started: super::super::procinfo::start_time(pid).map(|t| t + 1),
            stopped: false,
        };
        assert_eq!(
            signal_planned(&plan, Signal::SIGTERM),
            Err(KillError::Reused(pid))
        );
        // The child was not signalled: it is still running.
        assert!(child.try_wait().unwrap().is_none());
        let same = KillPlan {
            started: super::super::procinfo::start_time(pid),
            ..plan
        };
        assert_eq!(signal_planned(&same, Signal::SIGTERM), Ok(()));
        child.wait().unwrap();
    }

    #[test]
    fn a_process_keeping_a_dead_holders_context_may_be_ended() {
        let mut s = snap(vec![row(4243, ProcState::Gone)]);
        assert_eq!(plan_kill(&s, 777), Err(KillError::NotAHolder(777)));
        s.inheritors.push(super::super::Inheritor {
            pid: 777,
            command: "python worker".into(),
        });
        let plan = plan_kill(&s, 777).unwrap();
        assert_eq!(plan.vram, Some(Bytes(1 << 30)));
        assert!(plan
            .command
            .contains("keeps an exited process's CUDA context open"));
        let (stale, advice) = crate::holders::advice(4243, &ProcState::Gone, &s.inheritors);
        assert!(stale);
        let advice = advice.unwrap();
        assert!(
            advice.contains("PID 777 (python worker)") && advice.contains("oomlab gpu --kill 777"),
            "{advice}"
        );
    }

    #[test]
    fn a_local_cuda_process_is_not_offered_when_nvml_pids_are_another_namespaces() {
        // A container without the host's PID namespace: NVML lists host PID 4243, which is
        // no process here, and PID 777 here has CUDA's device files open.
        let mut s = snap(vec![row(4243, ProcState::Gone)]);
        s.inheritors.push(super::super::Inheritor {
            pid: 777,
            command: "python train.py".into(),
        });
        s.unmatched_pid_namespace = Some("pid:[4026532511]".into());
        let refused = plan_kill(&s, 777).unwrap_err();
        assert!(refused.is_refusal());
        assert!(
            refused.to_string().contains("PID namespace of its own"),
            "{refused}"
        );
        let advice = crate::holders::namespace_advice("pid:[4026532511]", &s.inheritors);
        assert!(
            advice.contains("PID 777")
                && advice.contains("cannot tell")
                && !advice.contains("--kill"),
            "{advice}"
        );
    }

    #[test]
    fn a_zombie_points_at_its_parent() {
        let s = snap(vec![row(4243, ProcState::Zombie { ppid: 77 })]);
        assert_eq!(plan_kill(&s, 4243).unwrap().zombie_parent, Some(77));
    }
}
