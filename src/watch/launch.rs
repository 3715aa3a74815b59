//! The job's launch: its output passed through untouched and kept, Ctrl-C and SIGTERM
//! reaching it, and its exit status as a shell reports it.
//!
//! Two ways, by where oomlab runs. In the foreground of a terminal, the job stays in
//! oomlab's process group, the one the shell made its foreground job: the terminal's
//! Ctrl-C reaches the job directly, Ctrl-Z stops oomlab and the job together and `fg`
//! resumes both, and the job reads the terminal as it would without oomlab. oomlab itself
//! survives Ctrl-C (it notes it) and passes SIGTERM on to the job. Anywhere else (a
//! script, a scheduler, the background), the job gets a process group of its own and
//! oomlab passes SIGINT and SIGTERM on to that whole group.

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
    #[error("cannot write {path}: {source} (choose another folder with --out DIR)")]
    File {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The job's end could not be read.
    #[error("lost track of the job: {0}")]
    Wait(std::io::Error),
}

/// A running job.
pub struct Job {
    child: Child,
    /// Its PID (its process group's too, unless it shares the terminal's group).
    pub pid: u32,
    /// Its process group, where it has one of its own (not in a terminal's foreground).
    pub group: Option<u32>,
    copies: Vec<JoinHandle<()>>,
    signals: Option<signal_hook::iterator::Handle>,
    /// The last SIGINT or SIGTERM oomlab received while the job ran (0: none).
    pub forwarded: Arc<AtomicI32>,
}

/// How the job ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ended {
    /// Its exit code as a shell gives it: its own, or 128 + N for signal N.
    pub code: i32,
    /// The signal that ended it, if one did.
    pub signal: Option<i32>,
    /// Whether a process the job left running still held its output when oomlab stopped
    /// copying it (a few seconds after the job ended).
    pub output_left_open: bool,
}

/// How long the output is still copied after the job ended, for what it wrote last; a
/// process it left running that keeps the output open is not waited for longer.
const DRAIN: std::time::Duration = std::time::Duration::from_secs(3);

/// Starts `command` with stdin inherited, stdout and stderr copied byte for byte to
/// oomlab's and into `dir/stdout.txt` and `dir/stderr.txt`; SIGINT and SIGTERM reach it as
/// the module's documentation says.
pub fn launch(command: &[String], dir: &Path) -> Result<Job, LaunchError> {
    use std::os::unix::process::CommandExt;
    let (program, args) = command.split_first().ok_or(LaunchError::NoCommand)?;
    let file = |name: &str| {
        let path = dir.join(name);
        File::create(&path).map_err(|source| LaunchError::File { path, source })
    };
    let (out_file, err_file) = (file("stdout.txt")?, file("stderr.txt")?);
    // Caught from before the spawn: a signal in between must not end oomlab and leave the
    // job running on its own.
    let signals = signal_hook::iterator::Signals::new([
        signal_hook::consts::SIGINT,
        signal_hook::consts::SIGTERM,
    ])
    .ok();
    let foreground = in_terminal_foreground();
    let mut cmd = Command::new(program);
    cmd.args(args)
        .stdin(Stdio::inherit())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if !foreground {
        cmd.process_group(0);
    }
    let mut child = cmd.spawn().map_err(|source| LaunchError::Spawn {
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
    let signals = signals.map(|s| forward_signals(s, pid, foreground, forwarded.clone()));
    Ok(Job {
        child,
        pid,
        group: (!foreground).then_some(pid),
        copies,
        signals,
        forwarded,
    })
}

/// Whether standard input is a terminal whose foreground process group is oomlab's.
fn in_terminal_foreground() -> bool {
    use std::io::IsTerminal;
    // SAFETY: tcgetpgrp and getpgrp only read the state of file descriptor 0's terminal
    // and of this process.
    std::io::stdin().is_terminal() && unsafe { libc::tcgetpgrp(0) == libc::getpgrp() }
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

/// SIGINT and SIGTERM to oomlab, noted in `last` and passed on: in the terminal's
/// foreground, SIGTERM to the job (the terminal sends Ctrl-C to the job itself); elsewhere,
/// both to the job's process group.
fn forward_signals(
    mut signals: signal_hook::iterator::Signals,
    pid: u32,
    foreground: bool,
    last: Arc<AtomicI32>,
) -> signal_hook::iterator::Handle {
    use nix::sys::signal::{kill, killpg, Signal};
    use nix::unistd::Pid;
    let handle = signals.handle();
    std::thread::spawn(move || {
        for sig in signals.forever() {
            last.store(sig, Ordering::SeqCst);
            let (Ok(target), Ok(signal)) = (i32::try_from(pid), Signal::try_from(sig)) else {
                continue;
            };
            let target = Pid::from_raw(target);
            let _ = match (foreground, signal) {
                (true, Signal::SIGINT) => Ok(()),
                (true, _) => kill(target, signal),
                (false, _) => killpg(target, signal),
            };
        }
    });
    handle
}

impl Job {
    /// Whether it is still running (its exit status when not).
    pub fn try_wait(&mut self) -> std::io::Result<Option<ExitStatus>> {
        self.child.try_wait()
    }

    /// Waits for the job and for its output to be copied (a process it left running that
    /// keeps the output open is given a few seconds), then stops passing signals on.
    pub fn finish(mut self) -> Result<Ended, LaunchError> {
        use std::os::unix::process::ExitStatusExt;
        let status = self.child.wait();
        let deadline = std::time::Instant::now() + DRAIN;
        while self.copies.iter().any(|c| !c.is_finished()) && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let output_left_open = self.copies.iter().any(|c| !c.is_finished());
        for c in self.copies.drain(..).filter(|c| c.is_finished()) {
            let _ = c.join();
        }
        if let Some(h) = self.signals.take() {
            h.close();
        }
        let status = status.map_err(LaunchError::Wait)?;
        Ok(Ended {
            code: exit_code(status),
            signal: status.signal(),
            output_left_open,
        })
    }
}

impl Drop for Job {
    fn drop(&mut self) {
        if let Some(h) = self.signals.take() {
            h.close();
        }
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
            let ended = job.finish().unwrap();
            (ended.code, ended.signal)
        };
        assert_eq!(run("exit 7"), (7, None));
        assert_eq!(run("exit 143"), (143, None));
        assert_eq!(run("kill -TERM $$"), (143, Some(15)));
        assert_eq!(
            std::fs::read_to_string(dir.path().join("stdout.txt")).unwrap(),
            ""
        );
    }

    #[test]
    fn a_process_left_holding_the_output_does_not_keep_oomlab_waiting() {
        let dir = tempfile::tempdir().unwrap();
        let start = std::time::Instant::now();
        let job = launch(
            &[
                "sh".into(),
                "-c".into(),
                "echo before; sleep 30 & exit 3".into(),
            ],
            dir.path(),
        )
        .unwrap();
        let ended = job.finish().unwrap();
        assert_eq!((ended.code, ended.output_left_open), (3, true));
        assert!(start.elapsed() < std::time::Duration::from_secs(20));
        assert_eq!(
            std::fs::read_to_string(dir.path().join("stdout.txt")).unwrap(),
            "before\n"
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
