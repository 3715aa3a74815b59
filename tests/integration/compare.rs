//! `oomlab compare` and `oomlab explain` through the real binary on the CPU.

use std::path::Path;

use serde_json::Value;

fn compare(dir: &Path, extra: &[&str]) -> (Option<i32>, Value) {
    let out = crate::util::oomlab()
        .args([
            "compare",
            "--device",
            "cpu",
            "--max-steps",
            "4",
            "--json",
            "--out",
        ])
        .arg(dir)
        .args(extra)
        .output()
        .unwrap();
    let v = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: no JSON on stdout; stderr:\n{}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code(), v)
}

#[test]
fn each_strategy_runs_in_its_own_process_and_every_format_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let (code, c) = compare(dir.path(), &["--strategies", "baseline,grad-accum"]);
    assert_eq!(code, Some(0));
    assert_eq!(c["schema_version"], 1);
    assert_eq!(c["memory_kind"], "host");
    let rows = c["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    let pids: Vec<u64> = rows.iter().map(|r| r["pid"].as_u64().unwrap()).collect();
    assert_ne!(pids[0], pids[1], "each strategy in a fresh process");
    assert_eq!(rows[0]["strategy"], "baseline");
    // Ratios come from the baseline row's own figures.
    let peak = |r: &Value| r["peak_process_bytes"].as_f64().unwrap();
    let ratio = rows[1]["memory_vs_baseline"].as_f64().unwrap();
    assert!(
        (ratio - peak(&rows[1]) / peak(&rows[0])).abs() < 1e-9,
        "{rows:?}"
    );
    // Each run's complete config is written beside the comparison and is what ran.
    let toml = std::fs::read_to_string(dir.path().join("grad-accum.toml")).unwrap();
    assert!(toml.contains("strategy = \"grad-accum\""), "{toml}");
    let ran = std::fs::read_to_string(dir.path().join("grad-accum/config.toml")).unwrap();
    assert!(ran.contains("grad_accum_steps = 4"), "{ran}");
    assert_eq!(rows[1]["split"], "8 x 4");
    for r in rows {
        assert_eq!(r["status"]["kind"], "completed", "{r}");
        assert!(r["peak_process_bytes"].as_u64().unwrap() > 1 << 20);
        assert!(r["steady_step_s"].as_f64().unwrap() > 0.0);
    }
    // grad-accum keeps fewer activations alive than the whole batch.
    assert!(
        rows[1]["peak_in_use_bytes"].as_u64() < rows[0]["peak_in_use_bytes"].as_u64(),
        "{rows:?}"
    );
    for f in [
        "compare.txt",
        "compare.md",
        "compare.csv",
        "compare.json",
        "memory.svg",
    ] {
        assert!(dir.path().join(f).is_file(), "{f} missing");
    }
    let md = std::fs::read_to_string(dir.path().join("compare.md")).unwrap();
    assert!(md.contains("| baseline"), "{md}");
    let csv = std::fs::read_to_string(dir.path().join("compare.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3);
    let svg = std::fs::read_to_string(dir.path().join("memory.svg")).unwrap();
    assert!(
        svg.matches("<polyline").count() >= 2,
        "one line per strategy"
    );
    assert!(dir.path().join("grad-accum/summary.json").is_file());
}

#[test]
fn a_strategy_that_runs_out_of_memory_becomes_a_row_that_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let (code, c) = compare(
        dir.path(),
        &[
            "--strategies",
            "baseline,grad-accum",
            "--memory-budget",
            "20MiB",
        ],
    );
    assert_eq!(code, Some(0), "the comparison itself completes");
    let rows = c["rows"].as_array().unwrap();
    assert_eq!(rows[0]["status"]["kind"], "out-of-memory", "{}", rows[0]);
    assert!(rows[0]["status"]["detail"]
        .as_str()
        .unwrap()
        .contains("auto-halve"));
    assert_eq!(rows[1]["status"]["kind"], "completed", "{}", rows[1]);
    let txt = std::fs::read_to_string(dir.path().join("compare.txt")).unwrap();
    // The budget is --memory-budget's: every rendering says the OOM was SIMULATED.
    assert!(txt.contains("OOM (SIMULATED):"), "{txt}");
    assert_eq!(c["simulated"], true);
    let md = std::fs::read_to_string(dir.path().join("compare.md")).unwrap();
    assert!(md.contains("SIMULATED"), "{md}");
}

#[test]
fn a_row_that_fails_makes_compare_exit_1_with_the_table_still_written() {
    let dir = tempfile::tempdir().unwrap();
    let out = crate::util::oomlab()
        .args(["compare", "--device", "cpu", "--max-steps", "2", "--json"])
        .args(["--strategies", "baseline,grad-accum"])
        // A corpus shorter than one sequence: every row's `train` refuses it.
        .args(["--set", "data.corpus_chars=10", "--out"])
        .arg(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("2 of 2 rows failed"), "{stderr}");
    let c: Value = serde_json::from_slice(&out.stdout).unwrap();
    for r in c["rows"].as_array().unwrap() {
        assert_eq!(r["status"]["kind"], "failed", "{r}");
        assert!(
            r["status"]["detail"].as_str().unwrap().contains("text"),
            "{r}"
        );
    }
    assert!(dir.path().join("compare.json").is_file());
}

#[test]
fn an_unknown_strategy_exits_2_and_lists_the_known_ones() {
    crate::util::oomlab()
        .args(["compare", "--strategies", "baseline,magic"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("auto-halve"));
}

#[test]
fn explain_ends_with_numbers_oomlab_measured() {
    crate::util::oomlab()
        .args(["explain", "grad-accum"])
        .assert()
        .success()
        .stdout(predicates::str::contains("Measured by oomlab compare"));
}
