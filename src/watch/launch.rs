//! The job's launch: its own process group, its output passed through untouched and kept,
//! Ctrl-C and SIGTERM forwarded to the group, and its exit status as a shell reports it.

use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

/// Why the job could not start.
#[derive(Debug, thiserror::Error)]
pub enum LaunchError {
    /// Nothing to run.
    #[error("no command to run: give it after `--`, e.g. oomlab run -- python train.py")]
    NoCommand,
    /// The program could not be started.
    #[error("cannot start {program}: {source} (is it on PATH, and executable?)")]
    Spawn {
        /// What was asked for.
        program: String,
        /// Why.
        source: std::io::Error,
    },
    /// A file of the run folder could not be written.
    #[error("cannot write {path}: {source}")]
    File {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// A running job.
pub struct Job {
    child: Child,
    /// Its PID, which is also its process group's.
    pub pid: u32,
    copies: Vec<JoinHandle<()>>,
    signals: Option<signal_hook::iterator::Handle>,
    /// The last signal oomlab received and forwarded (0: none).
    pub forwarded: Arc<AtomicI32>,
    terminal: Option<i32>,
}

/// Starts `command` in a process group of its own, stdin inherited, stdout and stderr
/// copied byte for byte to oomlab's and into `dir/stdout.txt` and `dir/stderr.txt`; while
/// it runs, SIGINT and SIGTERM sent to oomlab go to the job's whole group. When standard
/// input is a terminal, the job's group gets it (as a shell's foreground job does), so
/// that Ctrl-C and reads from the terminal reach the job itself.
pub fn launch(command: &[String], dir: &Path) -> Result<Job, LaunchError> {
    use std::os::unix::process::CommandExt;
    let (program, args) = command.split_first().ok_or(LaunchError::NoCommand)?;
    let file = |name: &str| {
        let path = dir.join(name);
        File::create(&path).map_err(|source| LaunchError::File { path, source })
    };
    let (out_file, err_file) = (file("stdout.txt")?, file("stderr.txt")?);
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::inherit())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .map_err(|source| LaunchError::Spawn {
            program: program.clone(),
            source,
        })?;
    let pid = child.id();
    let mut copies = Vec::new();
    if let Some(out) = child.stdout.take() {
        copies.push(copy(out, std::io::stdout(), out_file));
    }
    if let Some(err) = child.stderr.take() {
        copies.push(copy(err, std::io::stderr(), err_file));
    }
    let forwarded = Arc::new(AtomicI32::new(0));
    let signals = forward_signals(pid, forwarded.clone());
    let terminal = give_terminal(pid);
    Ok(Job {
        child,
        pid,
        copies,
        signals,
        forwarded,
        terminal,
    })
}

/// A thread copying `from` to `to` and to `keep`, chunk by chunk as it comes.
fn copy(
    mut from: impl Read + Send + 'static,
    mut to: impl Write + Send + 'static,
    mut keep: File,
) -> JoinHandle<()> {
    std::thread::spawn(move || {
        let mut buf = [0u8; 8192];
        loop {
            match from.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    // A closed terminal or pipe on oomlab's side must not stop the job
                    // or the copy kept in the run folder.
                    let _ = to.write_all(&buf[..n]).and_then(|_| to.flush());
                    let _ = keep.write_all(&buf[..n]);
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            }
        }
        let _ = keep.flush();
    })
}

/// SIGINT and SIGTERM to oomlab are sent on to the job's process group `pgid`; the last
/// one is kept in `last`.
fn forward_signals(pgid: u32, last: Arc<AtomicI32>) -> Option<signal_hook::iterator::Handle> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM]).ok()?;
    let handle = signals.handle();
    std::thread::spawn(move || {
        for sig in signals.forever() {
            last.store(sig, Ordering::SeqCst);
            if let (Ok(group), Ok(signal)) =
                (i32::try_from(pgid), nix::sys::signal::Signal::try_from(sig))
            {
                let _ = nix::sys::signal::killpg(nix::unistd::Pid::from_raw(group), signal);
            }
        }
    });
    Some(handle)
}

/// When standard input is a terminal: makes `pgid` its foreground group and returns the
/// group that had it, to give it back.
fn give_terminal(pgid: u32) -> Option<i32> {
    use std::io::IsTerminal;
    if !std::io::stdin().is_terminal() {
        return None;
    }
    let group = i32::try_from(pgid).ok()?;
    // SAFETY: tcgetpgrp and tcsetpgrp act on the terminal of file descriptor 0 only; a
    // process outside the foreground group gets SIGTTOU for tcsetpgrp, which is ignored
    // around the call.
    unsafe {
        let before = libc::tcgetpgrp(0);
        if before < 0 {
            return None;
        }
        let old = libc::signal(libc::SIGTTOU, libc::SIG_IGN);
        let ok = libc::tcsetpgrp(0, group) == 0;
        libc::signal(libc::SIGTTOU, old);
        ok.then_some(before)
    }
}

impl Job {
    /// Whether it is still running (its exit status when not).
    pub fn try_wait(&mut self) -> std::io::Result<Option<ExitStatus>> {
        self.child.try_wait()
    }

    /// Waits for the job and for its output to be copied; gives the terminal back and
    /// stops forwarding signals. Its exit code as a shell gives it: its own, or 128 + N
    /// for a job ended by signal N.
    pub fn finish(mut self) -> std::io::Result<i32> {
        let status = self.child.wait()?;
        for c in self.copies.drain(..) {
            let _ = c.join();
        }
        if let Some(before) = self.terminal.take() {
            // SAFETY: as in give_terminal: the terminal of file descriptor 0, SIGTTOU
            // ignored around the call.
            unsafe {
                let old = libc::signal(libc::SIGTTOU, libc::SIG_IGN);
                libc::tcsetpgrp(0, before);
                libc::signal(libc::SIGTTOU, old);
            }
        }
        if let Some(h) = self.signals.take() {
            h.close();
        }
        Ok(exit_code(status))
    }
}

/// A shell's exit code for `status`: the code, or 128 + the signal that ended it.
pub fn exit_code(status: ExitStatus) -> i32 {
    use std::os::unix::process::ExitStatusExt;
    status
        .code()
        .or_else(|| status.signal().map(|s| 128 + s))
        .unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_jobs_code_and_signal_become_a_shells_exit_code() {
        let dir = tempfile::tempdir().unwrap();
        let run = |script: &str| {
            let job = launch(&["sh".into(), "-c".into(), script.into()], dir.path()).unwrap();
            job.finish().unwrap()
        };
        assert_eq!(run("exit 7"), 7);
        assert_eq!(run("kill -TERM $$"), 143);
        assert_eq!(
            std::fs::read_to_string(dir.path().join("stdout.txt")).unwrap(),
            ""
        );
    }

    #[test]
    fn nothing_to_run_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(
            launch(&[], dir.path()),
            Err(LaunchError::NoCommand)
        ));
        let missing = launch(&["/nonexistent/program".into()], dir.path());
        assert!(matches!(missing, Err(LaunchError::Spawn { .. })));
    }
}
