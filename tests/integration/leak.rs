//! The leak detector on the CPU with the real binary: a deliberate leak raises the alarm,
//! a normal run does not, and auto-halve does not chase a leak with smaller batches.

use serde_json::Value;

use crate::util::{assert_exit, oomlab, train_json};

#[test]
fn a_deliberate_leak_raises_the_alarm_and_a_normal_run_does_not() {
    let tmp = tempfile::tempdir().unwrap();
    let leaky = train_json(
        &tmp.path().join("leaky"),
        &["--max-steps", "30", "--leak-demo"],
    );
    let alarm = &leaky["leak"]["alarm"];
    assert!(alarm.is_object(), "{}", leaky["leak"]);
    assert!(alarm["per_step"].as_u64().unwrap() > 1 << 20, "{alarm}");
    assert_eq!(leaky["leak"]["source"], "host heap in use");

    let clean = train_json(&tmp.path().join("clean"), &["--max-steps", "30"]);
    assert!(clean["leak"]["alarm"].is_null(), "{}", clean["leak"]);
    assert_eq!(clean["leak"]["watched_steps"], 25);
}

#[test]
fn auto_halve_stops_and_says_leak_instead_of_halving() {
    let tmp = tempfile::tempdir().unwrap();
    let out = oomlab()
        .args(["train", "--device", "cpu", "--json", "--out"])
        .arg(tmp.path().join("run"))
        .args([
            "--strategy",
            "auto-halve",
            "--memory-budget",
            "300MiB",
            "--max-steps",
            "40",
            "--leak-demo",
        ])
        .output()
        .unwrap();
    assert_exit(&out, 3);
    let s: Value = serde_json::from_slice(&out.stdout).unwrap();
    let why = s["adaptation"]["gave_up"].as_str().unwrap();
    assert!(
        why.starts_with("LEAK: ") && why.contains("not a batch too large"),
        "{why}"
    );
    // No smaller split was tried: every attempt ran at the configured micro-batch.
    for a in s["adaptation"]["attempts"].as_array().unwrap() {
        assert_eq!(a["micro_batch"], 32, "{a}");
    }
    assert!(s["leak"]["alarm"].is_object());
}
