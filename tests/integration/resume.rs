//! Checkpoints and exact resume on the CPU, with the real binary: a run killed with
//! SIGKILL or stopped with SIGTERM and resumed ends with the parameters of a run that
//! was never stopped, bit for bit; a damaged checkpoint is skipped for the one before;
//! a changed configuration is refused unless --force.

use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::util::{assert_exit, oomlab, steps, train_json};

/// Auto-halve under a SIMULATED heap budget, so the checkpoint must also carry the
/// halved split and the strategy's search, not only weights and optimizer state.
const RUN: &[&str] = &[
    "--strategy",
    "auto-halve",
    "--memory-budget",
    "21MiB",
    "--max-steps",
    "40",
    "--checkpoint-every",
    "5",
];

fn spawn(dir: &Path, args: &[&str]) -> Child {
    Command::new(assert_cmd::cargo::cargo_bin("oomlab"))
        .args(["train", "--device", "cpu", "--quiet", "--out"])
        .arg(dir)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// Waits until the run has logged `n` steps (it must still be running).
fn wait_for_steps(child: &mut Child, dir: &Path, n: usize) {
    let started = Instant::now();
    loop {
        let lines = std::fs::read_to_string(dir.join("steps.jsonl"))
            .map(|t| t.lines().count())
            .unwrap_or(0);
        if lines >= n {
            return;
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before step {n}"
        );
        assert!(started.elapsed() < Duration::from_secs(300), "no progress");
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn resume(dir: &Path, extra: &[&str]) -> std::process::Output {
    oomlab()
        .args(["train", "--device", "cpu", "--json", "--resume"])
        .arg(dir)
        .args(extra)
        .output()
        .unwrap()
}

fn resume_json(dir: &Path) -> (Value, String) {
    let out = resume(dir, &[]);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(
        out.status.success(),
        "exit {:?}\n{stderr}",
        out.status.code()
    );
    (serde_json::from_slice(&out.stdout).unwrap(), stderr)
}

fn losses(dir: &Path) -> Vec<(u64, String)> {
    steps(dir)
        .iter()
        .map(|s| (s["step"].as_u64().unwrap(), s["loss"].to_string()))
        .collect()
}

#[test]
fn a_run_killed_with_sigkill_and_resumed_ends_bit_for_bit_where_an_uninterrupted_run_ends() {
    let tmp = tempfile::tempdir().unwrap();
    let (whole, cut) = (tmp.path().join("whole"), tmp.path().join("cut"));
    let reference = train_json(&whole, RUN);
    assert_eq!(reference["steps_completed"], 40);
    // The budget made auto-halve halve: the resumed run must continue at the halved split.
    assert_ne!(reference["adaptation"]["initial_plan"], reference["plan"]);

    let mut child = spawn(&cut, RUN);
    wait_for_steps(&mut child, &cut, 18);
    child.kill().unwrap(); // SIGKILL
    let status = child.wait().unwrap();
    assert_eq!(status.signal(), Some(9), "{status:?}");
    let logged = steps(&cut).len();
    assert!(
        !cut.join("summary.json").exists(),
        "SIGKILL leaves no summary"
    );

    let (resumed, stderr) = resume_json(&cut);
    assert!(stderr.contains("resuming"), "{stderr}");
    assert_eq!(resumed["steps_completed"], 40);
    assert_eq!(
        resumed["final_params"]["fnv1a64"], reference["final_params"]["fnv1a64"],
        "resumed weights differ from the uninterrupted run's"
    );
    assert_eq!(resumed["plan"], reference["plan"]);
    // The same losses, step by step, and one line per step in the appended log.
    assert_eq!(losses(&cut), losses(&whole));
    let mark = &resumed["checkpoints"]["resumes"][0];
    let at = mark["at_step"].as_u64().unwrap() as usize;
    assert!(
        at <= logged && logged - at < 5 + 1,
        "lost {logged} - {at} steps, at most 5 allowed"
    );
    assert_eq!(mark["steps_redone"].as_u64().unwrap() as usize, logged - at);
}

#[test]
fn sigterm_stops_after_a_step_with_a_checkpoint_and_a_summary_and_exits_143() {
    let tmp = tempfile::tempdir().unwrap();
    let (whole, cut) = (tmp.path().join("whole"), tmp.path().join("cut"));
    let reference = train_json(&whole, RUN);

    let mut child = spawn(&cut, RUN);
    wait_for_steps(&mut child, &cut, 7);
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGTERM,
    )
    .unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(143), "{status:?}");
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(cut.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["stop"]["kind"], "interrupted");
    let done = summary["steps_completed"].as_u64().unwrap();
    assert!(done < 40);
    // The stop wrote a checkpoint holding every finished step: nothing is lost.
    assert_eq!(summary["checkpoints"]["last_next_step"], done);
    assert_eq!(steps(&cut).len() as u64, done);

    let (resumed, _) = resume_json(&cut);
    assert_eq!(resumed["checkpoints"]["resumes"][0]["steps_redone"], 0);
    assert_eq!(
        resumed["final_params"]["fnv1a64"],
        reference["final_params"]["fnv1a64"]
    );
}

#[test]
fn a_damaged_newest_checkpoint_is_skipped_for_the_one_before() {
    let tmp = tempfile::tempdir().unwrap();
    let (whole, cut) = (tmp.path().join("whole"), tmp.path().join("cut"));
    let args = ["--max-steps", "12", "--checkpoint-every", "4"];
    let reference = train_json(&whole, &args);
    // Stop at step 8 by running 8 steps of the same run (max_steps is forced back up).
    train_json(&cut, &["--max-steps", "8", "--checkpoint-every", "4"]);
    let newest = cut.join("checkpoints/step-000008.ckpt");
    let mut bytes = std::fs::read(&newest).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x01;
    std::fs::write(&newest, bytes).unwrap();

    let out = resume(&cut, &["--max-steps", "12", "--force"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let said = crate::util::flat(&stderr);
    assert!(
        said.contains("step-000008.ckpt: checksum mismatch") && said.contains("step-000004.ckpt"),
        "{stderr}"
    );
    let resumed: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mark = &resumed["checkpoints"]["resumes"][0];
    assert_eq!(mark["at_step"], 4);
    assert_eq!(mark["steps_redone"], 4);
    assert!(mark["skipped"][0].as_str().unwrap().contains("checksum"));
    assert_eq!(
        resumed["final_params"]["fnv1a64"],
        reference["final_params"]["fnv1a64"]
    );
}

#[test]
fn a_changed_configuration_is_refused_with_its_keys_unless_forced() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("run");
    train_json(&dir, &["--max-steps", "4", "--checkpoint-every", "2"]);

    let out = resume(&dir, &["--lr", "0.5", "--max-steps", "6"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("optim.lr: ")
            && stderr.contains("train.max_steps: 4 -> 6")
            && stderr.contains("--force"),
        "{stderr}"
    );

    // Shapes never change, even with --force.
    let out = resume(&dir, &["--d-model", "32", "--force"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("model.d_model") && stderr.contains("cannot change"),
        "{stderr}"
    );

    let out = resume(&dir, &["--lr", "0.5", "--max-steps", "6", "--force"]);
    assert_exit(&out, 0);
    let s: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["steps_completed"], 6);
    let forced = s["checkpoints"]["resumes"][0]["forced"].to_string();
    assert!(
        forced.contains("optim.lr") && forced.contains("train.max_steps"),
        "{forced}"
    );
    // The folder's config is now the changed one: a plain resume continues it (and
    // would be refused, naming optim.lr, had the old config stayed).
    let out = resume(&dir, &["--lr", "0.5"]);
    assert_exit(&out, 0);

    // Not a run folder.
    let out = resume(tmp.path(), &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a run folder"));
}
