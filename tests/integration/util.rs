//! What the integration tests share: the binary, a CPU training run, its step log.

use std::path::Path;
use std::time::Duration;

use assert_cmd::Command;
use serde_json::Value;

/// The oomlab binary this build made, with a generous timeout (tests run side by side on
/// two cores), laid out for 100 columns whatever the terminal that runs the tests.
pub fn oomlab() -> Command {
    let mut c = Command::cargo_bin("oomlab").unwrap();
    c.timeout(Duration::from_secs(600)).env("COLUMNS", "100");
    c
}

/// `text` with every run of whitespace made one space: a message as its words, wherever
/// the terminal layout broke its lines.
pub fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `oomlab estimate ARGS` as a machine without a GPU or NVML runs it: its output, whatever
/// the exit status.
pub fn estimate_without_gpu(args: &[&str]) -> std::process::Output {
    oomlab()
        .arg("estimate")
        .args(args)
        .env("CUDA_VISIBLE_DEVICES", "")
        .env("OOMLAB_NVML_LIB", "/nonexistent/libnvidia-ml.so.1")
        .output()
        .unwrap()
}

/// `oomlab train --device cpu --json --out DIR ARGS`, which must succeed: its summary.
pub fn train_json(dir: &Path, args: &[&str]) -> Value {
    train_json_with_env(dir, args, &[]).0
}

/// [`train_json`] with the variables `vars` set: its summary and its stderr.
pub fn train_json_with_env(dir: &Path, args: &[&str], vars: &[(&str, &str)]) -> (Value, String) {
    let out = oomlab()
        .args(["train", "--device", "cpu", "--json", "--out"])
        .arg(dir)
        .args(args)
        .envs(vars.iter().copied())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        out.status.success(),
        "exit {:?}\nstderr:\n{stderr}",
        out.status.code(),
    );
    (serde_json::from_slice(&out.stdout).unwrap(), stderr)
}

/// The run folder's steps.jsonl, one value per finished step.
pub fn steps(dir: &Path) -> Vec<Value> {
    std::fs::read_to_string(dir.join("steps.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Asserts that a command exited with `code`, showing its stderr when it did not.
pub fn assert_exit(out: &std::process::Output, code: i32) {
    assert_eq!(
        out.status.code(),
        Some(code),
        "stderr:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
