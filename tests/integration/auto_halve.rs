//! `--strategy auto-halve` through the real binary on the CPU. The OOMs here are
//! SIMULATED (`--memory-budget`: the host heap crossing a budget), and every check below
//! also verifies they are labelled so. The budgets were measured with attention written
//! out (`--attention math`, pinned below: its kept scores make the heap grow the most with
//! the batch): the tiny config's step at batch 32 peaks near 39 MiB of heap; 16 fits in
//! 30 MiB, 8 in 20 MiB, and 16 does not fit in 18 (25 MiB with 2 MiB of L2 per core, about
//! 4.5 less with 512 KiB: docs/results/2026-12-05-cpu-estimate-2d, attention-math rows).

use std::path::Path;

use serde_json::Value;

fn run(dir: &Path, args: &[&str]) -> (Option<i32>, Value, String) {
    let out = crate::util::oomlab()
        .args([
            "train",
            "--device",
            "cpu",
            "--attention",
            "math",
            "--json",
            "--out",
        ])
        .arg(dir)
        .args(if args.contains(&"--max-steps") {
            &[][..]
        } else {
            &["--max-steps", "6"][..]
        })
        .args(args)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    let summary = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: no JSON summary; stderr:\n{stderr}"));
    (out.status.code(), summary, stderr)
}

fn retry_log(dir: &Path) -> Vec<Value> {
    std::fs::read_to_string(dir.join("retries.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn halves_until_the_step_fits_and_keeps_the_effective_batch() {
    let dir = tempfile::tempdir().unwrap();
    let (code, s, stderr) = run(
        dir.path(),
        &["--strategy", "auto-halve", "--memory-budget", "30MiB"],
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(s["steps_completed"], 6);
    assert_eq!(s["plan"]["micro_batch"], 16);
    assert_eq!(s["plan"]["accumulation"], 2);
    assert_eq!(
        s["effective_batch"], 32,
        "the optimizer still sees the configured batch"
    );
    assert_eq!(s["adaptation"]["initial_plan"]["micro_batch"], 32);
    assert_eq!(s["adaptation"]["oom_attempts"], 1);
    assert!(stderr.contains("SIMULATED out of memory"), "{stderr}");
}

#[test]
fn the_retry_log_records_every_attempt_with_its_memory() {
    let dir = tempfile::tempdir().unwrap();
    let (_, s, _) = run(
        dir.path(),
        &["--strategy", "auto-halve", "--memory-budget", "30MiB"],
    );
    let log = retry_log(dir.path());
    assert_eq!(log.len(), 2, "{log:?}");
    let (oom, ok) = (&log[0], &log[1]);
    assert_eq!(oom["attempt"], 1);
    assert_eq!(oom["step"], 0);
    assert_eq!(oom["outcome"], "oom");
    assert_eq!(oom["simulated"], true);
    assert_eq!(oom["micro_batch"], 32);
    assert!(oom["phase"].is_string());
    assert!(oom["requested"].as_u64().unwrap() > 0);
    assert!(oom["in_use"].as_u64().unwrap() > 0);
    assert!(oom["seconds"].as_f64().unwrap() > 0.0);
    assert!(oom["next"].as_str().unwrap().contains("32 -> 16"), "{oom}");
    assert_eq!(ok["outcome"], "ok");
    assert_eq!(ok["step"], 0, "the same step is retried");
    assert_eq!(ok["micro_batch"], 16);
    assert_eq!(ok["accumulation"], 2);
    // The summary carries the same log.
    assert_eq!(s["adaptation"]["attempts"].as_array().unwrap().len(), 2);
    let txt = std::fs::read_to_string(dir.path().join("summary.txt")).unwrap();
    assert!(txt.contains("OOM (SIMULATED)"), "{txt}");
}

#[test]
fn a_recovered_run_ends_with_the_weights_of_a_clean_run_at_the_final_split() {
    let recovered = tempfile::tempdir().unwrap();
    let clean = tempfile::tempdir().unwrap();
    let (_, a, _) = run(
        recovered.path(),
        &["--strategy", "auto-halve", "--memory-budget", "30MiB"],
    );
    let (_, b, _) = run(clean.path(), &["--strategy", "grad-accum", "--steps", "2"]);
    assert_eq!(a["adaptation"]["oom_attempts"], 1);
    assert_eq!(b["plan"], a["plan"]);
    // Bit for bit: the failed attempt left the weights and AdamW's moments untouched and
    // the retry used the same samples.
    assert_eq!(a["final_params"], b["final_params"]);
    assert_eq!(a["final_loss"], b["final_loss"]);
}

#[test]
fn without_keeping_the_effective_batch_the_batch_shrinks() {
    let dir = tempfile::tempdir().unwrap();
    let (code, s, _) = run(
        dir.path(),
        &[
            "--strategy",
            "auto-halve",
            "--keep-effective-batch",
            "false",
            "--memory-budget",
            "30MiB",
        ],
    );
    assert_eq!(code, Some(0));
    assert_eq!(s["plan"]["micro_batch"], 16);
    assert_eq!(s["plan"]["accumulation"], 1);
    assert_eq!(s["effective_batch"], 16);
}

#[test]
fn bisect_lands_within_ten_percent_of_the_largest_micro_batch_that_fits() {
    let dir = tempfile::tempdir().unwrap();
    let (code, s, stderr) = run(
        dir.path(),
        &[
            "--strategy",
            "auto-halve",
            "--search",
            "bisect",
            "--memory-budget",
            "20MiB",
            "--max-steps",
            "10",
        ],
    );
    assert_eq!(code, Some(0), "{stderr}");
    let log = retry_log(dir.path());
    let smallest_failure = log
        .iter()
        .filter(|a| a["outcome"] == "oom")
        .map(|a| a["micro_batch"].as_u64().unwrap())
        .min()
        .unwrap();
    let last = s["plan"]["micro_batch"].as_u64().unwrap();
    assert!(last < smallest_failure, "{log:?}");
    // The largest fit is below the smallest failure; the run ends within 10% of it.
    assert!(
        last * 10 >= (smallest_failure - 1) * 9,
        "ended at {last}: {log:?}"
    );
    assert!(
        log.iter()
            .any(|a| a["outcome"] == "ok" && a["micro_batch"].as_u64().unwrap() > 8),
        "bisection grew past the halving result (8): {log:?}"
    );
    assert_eq!(s["effective_batch"], 32);
}

#[test]
fn below_the_minimum_micro_batch_it_stops_with_exit_3_and_says_what_would_help() {
    let dir = tempfile::tempdir().unwrap();
    let (code, s, _) = run(
        dir.path(),
        &[
            "--strategy",
            "auto-halve",
            "--min-micro-batch",
            "16",
            "--memory-budget",
            "18MiB",
        ],
    );
    assert_eq!(code, Some(3));
    assert_eq!(s["stop"]["kind"], "out-of-memory");
    assert_eq!(s["steps_completed"], 0);
    let why = s["adaptation"]["gave_up"].as_str().unwrap();
    assert!(why.contains("--min-micro-batch 16"), "{why}");
    assert!(why.contains("--seq-len"), "{why}");
    let txt = std::fs::read_to_string(dir.path().join("summary.txt")).unwrap();
    assert!(crate::util::flat(&txt).contains("What would help"), "{txt}");
}

#[test]
fn auto_halve_flags_with_another_strategy_exit_2() {
    crate::util::oomlab()
        .args(["train", "--strategy", "baseline", "--search", "bisect"])
        .assert()
        .code(2);
}
