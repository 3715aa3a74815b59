//! `oomlab run -- CMD` with real child processes on the CPU: the job's exit code and
//! signals pass through, its output arrives byte for byte (and is kept), its process tree
//! is sampled, and an out-of-memory message it prints is diagnosed.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::util::oomlab;

const FRAGMENTATION: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/oom-messages/real/034-pytorch21-capacty-fragmentation.txt"
);

/// `oomlab run --out DIR -- sh -c SCRIPT` on a machine without a GPU.
fn run(dir: &std::path::Path, script: &str) -> std::process::Output {
    oomlab()
        .env("OOMLAB_NVML_LIB", "/nonexistent/libnvidia-ml.so.1")
        .args(["run", "--interval", "20", "--out"])
        .arg(dir)
        .args(["--", "sh", "-c", script])
        .output()
        .unwrap()
}

fn summary(dir: &std::path::Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap()
}

#[test]
fn the_jobs_exit_code_is_oomlabs_and_a_signal_is_128_plus_it() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(run(dir.path(), "exit 7").status.code(), Some(7));
    assert_eq!(summary(dir.path())["exit_code"], 7);
    assert_eq!(run(dir.path(), "kill -TERM $$").status.code(), Some(143));
    assert_eq!(summary(dir.path())["signal"], 15);
    // A job's own code above 128 is its code, not a signal.
    assert_eq!(run(dir.path(), "exit 200").status.code(), Some(200));
    assert!(summary(dir.path())["signal"].is_null());
    assert_eq!(run(dir.path(), "true").status.code(), Some(0));
    // A program that is not there: 127, as a shell says.
    let out = oomlab()
        .args(["run", "--out"])
        .arg(dir.path())
        .args(["--", "/nonexistent/program"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(127));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot start /nonexistent/program"));
}

#[test]
fn the_jobs_output_passes_through_byte_for_byte_and_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        dir.path(),
        r"printf 'a\000b\001\377\r\nno newline at the end'; printf 'to stderr\n' >&2",
    );
    let expected: &[u8] = b"a\x00b\x01\xff\r\nno newline at the end";
    assert_eq!(out.stdout, expected);
    assert_eq!(
        std::fs::read(dir.path().join("stdout.txt")).unwrap(),
        expected
    );
    assert_eq!(
        std::fs::read(dir.path().join("stderr.txt")).unwrap(),
        b"to stderr\n"
    );
    // oomlab's own report comes after the job's error output, on stderr only.
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.starts_with("to stderr\n"), "{stderr}");
    assert!(stderr.contains("oomlab run:"), "{stderr}");
}

#[test]
fn every_process_of_the_tree_is_sampled_with_its_memory() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(dir.path(), "sleep 0.6 & sleep 0.6 & wait");
    assert!(out.status.success());
    let s = summary(dir.path());
    let procs = s["watched"]["processes"].as_array().unwrap();
    // The shell and its two children, each with a resident size.
    assert!(procs.len() >= 3, "{procs:?}");
    // The shell's two children. A child sampled only between its fork and its exec (a
    // loaded machine can starve the sampler) shows the shell's command line, so they are
    // counted by parent, not by command.
    let shell = procs[0]["pid"].as_u64().unwrap();
    let children = procs
        .iter()
        .filter(|p| p["ppid"].as_u64() == Some(shell))
        .count();
    assert_eq!(children, 2, "{procs:?}");
    assert!(procs.iter().all(|p| p["peak_rss"].as_u64().unwrap() > 0));
    assert!(s["watched"]["tree_peak_rss"].as_u64().unwrap() > 0);
    // Without NVML the summary says so, and holds no VRAM figure.
    assert!(s["watched"]["tree_peak_vram"].is_null());
    let notes = s["watched"]["notes"].to_string();
    assert!(notes.contains("no GPU figures"), "{notes}");
    let timeline = std::fs::read_to_string(dir.path().join("timeline.csv")).unwrap();
    assert!(timeline.lines().count() > 3, "{timeline}");
}

#[test]
fn an_out_of_memory_message_the_job_prints_is_diagnosed() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(dir.path(), &format!("cat '{FRAGMENTATION}' >&2; exit 1"));
    assert_eq!(out.status.code(), Some(1));
    let stderr = crate::util::flat(&String::from_utf8_lossy(&out.stderr));
    assert!(
        stderr.contains("The job printed an out-of-memory error"),
        "{stderr}"
    );
    assert!(stderr.contains("Case: fragmentation"), "{stderr}");
    let s = summary(dir.path());
    assert!(s["oom"]["diagnosis"].is_object(), "{s}");
    // A job that prints no such message gets no diagnosis.
    run(dir.path(), "echo all well");
    assert!(summary(dir.path())["oom"].is_null());
}

/// Starts `oomlab run -- sh -c SCRIPT`, waits until the job has started, sends SIGINT to
/// oomlab alone, and returns oomlab's exit code and the summary.
fn interrupt(script: &str) -> (Option<i32>, Value, String) {
    let dir = tempfile::tempdir().unwrap();
    let child = Command::new(assert_cmd::cargo::cargo_bin("oomlab"))
        .env("OOMLAB_NVML_LIB", "/nonexistent/libnvidia-ml.so.1")
        .args(["run", "--interval", "20", "--out"])
        .arg(dir.path())
        .args(["--", "sh", "-c", script])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The job is up once its first sample is in the timeline.
    let deadline = Instant::now() + Duration::from_secs(30);
    let timeline = dir.path().join("timeline.csv");
    while Instant::now() < deadline
        && std::fs::read_to_string(&timeline).map_or(0, |t| t.lines().count()) < 3
    {
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(200));
    let pid = nix::unistd::Pid::from_raw(child.id() as i32);
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGINT).unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        summary(dir.path()),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn ctrl_c_reaches_the_jobs_process_group_and_the_summary_is_written() {
    // A job that dies of it: oomlab exits as a shell would, 130.
    let (code, s, _) = interrupt("sleep 30");
    assert_eq!(code, Some(130), "{s}");
    assert_eq!(s["forwarded_signal"], 2);
    // A job that catches it: its own code, after its handler ran.
    let (code, s, stdout) =
        interrupt("trap 'echo caught; exit 42' INT; while :; do sleep 0.05; done");
    assert_eq!(code, Some(42), "{s}");
    assert!(stdout.contains("caught"), "{stdout}");
}

#[test]
fn need_without_a_gpu_is_skipped_and_said_and_bad_flags_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = oomlab()
        .env("OOMLAB_NVML_LIB", "/nonexistent/libnvidia-ml.so.1")
        .args(["run", "--need", "20GiB", "--out"])
        .arg(dir.path())
        .args(["--", "sh", "-c", "exit 0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stderr = crate::util::flat(&String::from_utf8_lossy(&out.stderr));
    assert!(stderr.contains("--need 20.00 GiB not checked"), "{stderr}");
    for (args, says) in [
        (
            &["run", "--interval", "0", "--", "true"][..],
            "--interval 0",
        ),
        (&["run"][..], "CMD"),
        (&["run", "--wait", "5", "--", "true"][..], "--need"),
        (
            &["run", "--need", "1GiB", "--wait", "1e20", "--", "true"][..],
            "30 days",
        ),
    ] {
        let out = oomlab().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}
