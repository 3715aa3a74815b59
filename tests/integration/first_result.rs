//! Issue 23 on the CPU: a stop that a busy first step keeps from the loop (as a kernel
//! compilation does on a GPU; here a SIMULATED slow start) ends the process within
//! seconds with its summary, and `oomlab warm-up` runs compare's rows and reports them.

use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::util::{assert_exit, oomlab};

fn spawn_slow(dir: &std::path::Path, slow: &str) -> std::process::Child {
    std::process::Command::new(assert_cmd::cargo::cargo_bin("oomlab"))
        .args(["train", "--device", "cpu", "--max-steps", "5", "--json"])
        .args(["--simulate-slow-start", slow, "--out"])
        .arg(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits until the run folder exists (the run has started), at most 60 s.
fn wait_started(dir: &std::path::Path) {
    let t = Instant::now();
    while !dir.join("config.toml").exists() {
        assert!(
            t.elapsed() < Duration::from_secs(60),
            "the run never started"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // The slow start begins right after the folder is made.
    std::thread::sleep(Duration::from_millis(500));
}

#[test]
fn sigterm_during_a_slow_first_step_ends_the_run_within_seconds_with_its_summary() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("run");
    let child = spawn_slow(&dir, "120");
    wait_started(&dir);
    let signalled = Instant::now();
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGTERM,
    )
    .unwrap();
    let out = child.wait_with_output().unwrap();
    let took = signalled.elapsed();
    assert_eq!(
        out.status.code(),
        Some(143),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The grace is 3 s before step 1; the rest is writing the summary.
    assert!(took < Duration::from_secs(10), "{took:?}");
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["stop"]["kind"], "interrupted");
    assert_eq!(summary["steps_completed"], 0);
    let during = summary["stopped_during"].as_str().unwrap();
    assert!(
        during.contains("SIGTERM") && during.contains("SIMULATED"),
        "{during}"
    );
    let written: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap();
    assert_eq!(written["stopped_during"], summary["stopped_during"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("SIMULATED slow start"), "{stderr}");
}

#[test]
fn a_stop_between_steps_still_waits_for_the_step_and_says_nothing_of_a_busy_device() {
    // A slow start shorter than the grace: the loop sees the flag itself, before step 1.
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("run");
    let child = spawn_slow(&dir, "1.5");
    wait_started(&dir);
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["stop"]["kind"], "interrupted");
    assert!(summary.get("stopped_during").is_none(), "{summary}");
}

#[test]
fn warm_up_runs_the_rows_and_the_halvings_and_reports_each() {
    let tmp = tempfile::tempdir().unwrap();
    let out = oomlab()
        .args(["warm-up", "--device", "cpu", "--config", "tiny"])
        .args(["--strategies", "baseline,grad-accum", "--halvings", "1"])
        .args(["--max-steps", "1", "--json", "--out"])
        .arg(tmp.path())
        .output()
        .unwrap();
    assert_exit(&out, 0);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = report["rows"].as_array().unwrap();
    let seen: Vec<(u64, &str)> = rows
        .iter()
        .map(|r| {
            (
                r["batch"].as_u64().unwrap(),
                r["strategy"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        vec![(32, "baseline"), (32, "grad-accum"), (16, "baseline")]
    );
    assert!(rows
        .iter()
        .all(|r| r["status"] == "completed" && r["first_step_s"].is_number()));
    assert_eq!(report["device"], "cpu");
    // The same report is kept in the folder.
    let kept: Value =
        serde_json::from_str(&std::fs::read_to_string(tmp.path().join("warm-up.json")).unwrap())
            .unwrap();
    assert_eq!(kept["rows"], report["rows"]);
}
