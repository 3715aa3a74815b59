//! What /proc says about a PID.

use serde::{Deserialize, Serialize};

/// The state of a process as /proc sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "state")]
pub enum ProcState {
    /// Running or sleeping.
    Alive {
        /// Command line.
        command: String,
        /// Parent PID.
        ppid: u32,
    },
    /// Stopped (SIGSTOP, Ctrl-Z, a debugger; `T` or `t` in /proc): it runs no code and
    /// keeps every byte it holds until it is continued (SIGCONT) or killed (SIGKILL works
    /// on a stopped process; SIGTERM waits until it continues).
    Stopped {
        /// Command line.
        command: String,
        /// Parent PID.
        ppid: u32,
    },
    /// Exited but not reaped by its parent: it still holds its GPU context until reaped.
    Zombie {
        /// Parent PID (the one that must reap it, or be ended).
        ppid: u32,
    },
    /// No such PID in this PID namespace: NVML reports a holder we cannot see (another
    /// container or VM) or one that just exited.
    Gone,
}

impl ProcState {
    /// One line for lists: the command, or what is wrong with the holder.
    pub fn describe(&self) -> String {
        match self {
            ProcState::Alive { command, .. } => command.clone(),
            ProcState::Stopped { command, .. } => {
                format!("STOPPED (not running, keeps its VRAM): {command}")
            }
            ProcState::Zombie { ppid } => format!("STALE: zombie, parent {ppid}"),
            ProcState::Gone => "STALE: not visible here (another container, or exited)".into(),
        }
    }
}

/// `/proc/self/ns/pid` of a process in the host's (the initial) PID namespace: the kernel
/// gives that namespace the fixed inode `PROC_PID_INIT_INO` (0xEFFFFFFC).
pub(super) const HOST_PID_NAMESPACE: &str = "pid:[4026531836]";

/// This process's PID namespace as `/proc/self/ns/pid` names it.
pub(super) fn pid_namespace() -> Option<String> {
    std::fs::read_link("/proc/self/ns/pid")
        .ok()
        .map(|p| p.to_string_lossy().into_owned())
}

/// When NVML's PIDs cannot be matched to processes here: every holder is unknown to
/// /proc and this process runs in a PID namespace of its own (a container without the
/// host's). NVML then may report host PIDs, and a local process with CUDA's device files
/// open may be one of its holders under another number, not a dead holder's heir.
/// Returns the namespace, for the message. In the host's namespace, or with one holder
/// visible here, the PIDs are this namespace's.
pub(super) fn unmatched_namespace(
    holders: &[ProcState],
    namespace: Option<&str>,
) -> Option<String> {
    let ns = namespace?;
    let all_gone = !holders.is_empty() && holders.iter().all(|p| *p == ProcState::Gone);
    (all_gone && ns != HOST_PID_NAMESPACE).then(|| ns.to_string())
}

/// A process that has CUDA's device files open without being in NVML's list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Inheritor {
    /// PID.
    pub pid: u32,
    /// Command line.
    pub command: String,
}

/// Processes with `/dev/nvidia-uvm` open: every CUDA context opens it, while NVML-only
/// tools (nvidia-smi, `oomlab gpu`) do not; a forked child inherits it.
pub fn cuda_file_holders() -> Vec<Inheritor> {
    pids_with_open_file(|target| target == std::path::Path::new("/dev/nvidia-uvm"))
}

/// Processes (visible here) with a file descriptor whose target passes `matches`.
pub(super) fn pids_with_open_file(matches: impl Fn(&std::path::Path) -> bool) -> Vec<Inheritor> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for e in entries.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else {
            continue;
        };
        let Ok(fds) = std::fs::read_dir(e.path().join("fd")) else {
            continue;
        };
        let open = fds
            .flatten()
            .any(|fd| std::fs::read_link(fd.path()).is_ok_and(|t| matches(&t)));
        if open {
            found.push(Inheritor {
                pid,
                command: process_state(pid).describe(),
            });
        }
    }
    found.sort_by_key(|i| i.pid);
    found
}

/// When `pid` started, in clock ticks since boot (field 22 of `/proc/<pid>/stat`): with the
/// PID, it names one process, so a PID reused by a new process is told apart.
pub(super) fn start_time(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat_field(&stat, 22)?.parse().ok()
}

/// Field `n` of a `/proc/<pid>/stat` line, numbered as proc(5) numbers them (3 is the
/// state, 4 the parent, 5 the process group): the fields after `(comm)`, which may itself
/// hold spaces and parentheses.
pub fn stat_field(stat: &str, n: usize) -> Option<&str> {
    let after = stat.rsplit_once(')')?.1;
    after.split_whitespace().nth(n.checked_sub(3)?)
}

/// `pid`'s command line, its arguments joined by spaces (empty for a kernel thread or a
/// process that cannot be read).
pub fn command_line(pid: u32) -> String {
    std::fs::read(format!("/proc/{pid}/cmdline"))
        .map(|b| {
            String::from_utf8_lossy(&b)
                .split('\0')
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_default()
}

/// Reads `/proc/<pid>/stat` and `cmdline`.
pub fn process_state(pid: u32) -> ProcState {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return ProcState::Gone;
    };
    let state = stat_field(&stat, 3).unwrap_or("?");
    let ppid = stat_field(&stat, 4)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    if state == "Z" {
        return ProcState::Zombie { ppid };
    }
    let command = command_line(pid);
    if state == "T" || state == "t" {
        return ProcState::Stopped { command, ppid };
    }
    ProcState::Alive { command, ppid }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_is_alive_with_its_command() {
        match process_state(std::process::id()) {
            ProcState::Alive { command, ppid } => {
                assert!(!command.is_empty());
                assert!(ppid > 0);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_start_time_tells_two_processes_apart() {
        let mine = start_time(std::process::id()).unwrap();
        let mut child = std::process::Command::new("sleep")
            .arg("5")
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(50));
        let theirs = start_time(child.id()).unwrap();
        assert!(theirs >= mine);
        assert_eq!(start_time(child.id()), Some(theirs));
        child.kill().unwrap();
        child.wait().unwrap();
        assert_eq!(start_time(child.id()), None);
    }

    #[test]
    fn a_stopped_process_is_told_from_a_running_one() {
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .unwrap();
        let pid = nix::unistd::Pid::from_raw(child.id() as i32);
        nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGSTOP).unwrap();
        let mut state = process_state(child.id());
        for _ in 0..100 {
            if matches!(state, ProcState::Stopped { .. }) {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
            state = process_state(child.id());
        }
        assert!(
            matches!(&state, ProcState::Stopped { command, .. } if command.starts_with("sleep")),
            "{state:?}"
        );
        child.kill().unwrap();
        child.wait().unwrap();
    }

    #[test]
    fn a_process_holding_a_file_open_is_found() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("device");
        std::fs::write(&file, b"x").unwrap();
        let mut child = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("exec 3<'{}'; exec sleep 30", file.display()))
            .spawn()
            .unwrap();
        let pid = child.id();
        let mut found = Vec::new();
        for _ in 0..200 {
            found = pids_with_open_file(|t| t == file.as_path());
            if found.iter().any(|i| i.command.starts_with("sleep")) {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        child.kill().unwrap();
        child.wait().unwrap();
        assert_eq!(found.iter().map(|i| i.pid).collect::<Vec<_>>(), vec![pid]);
        assert!(found[0].command.contains("sleep"), "{found:?}");
    }

    #[test]
    fn a_pid_that_does_not_exist_is_gone() {
        assert_eq!(process_state(u32::MAX - 1), ProcState::Gone);
    }

    #[test]
    fn an_exited_unreaped_child_is_a_zombie() {
        let child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        std::thread::sleep(std::time::Duration::from_millis(300));
        assert!(matches!(process_state(pid), ProcState::Zombie { .. }));
        drop(child); // not waited: reaped when the test process exits
    }
}

#[cfg(test)]
mod namespace_tests {
    use super::*;

    #[test]
    fn pids_are_unmatched_only_when_every_holder_is_unknown_inside_a_namespace_of_its_own() {
        let gone = [ProcState::Gone, ProcState::Gone];
        let one_here = [
            ProcState::Gone,
            ProcState::Alive {
                command: "python".into(),
                ppid: 1,
            },
        ];
        let container = Some("pid:[4026532511]");
        assert_eq!(
            unmatched_namespace(&gone, container),
            Some("pid:[4026532511]".into())
        );
        // In the host's namespace NVML's PIDs are ours: a gone holder is a dead process.
        assert_eq!(unmatched_namespace(&gone, Some(HOST_PID_NAMESPACE)), None);
        // One holder visible here: the PIDs are this namespace's.
        assert_eq!(unmatched_namespace(&one_here, container), None);
        assert_eq!(unmatched_namespace(&[], container), None);
        assert_eq!(unmatched_namespace(&gone, None), None);
    }
}
