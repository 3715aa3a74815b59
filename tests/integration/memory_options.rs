//! Activation checkpointing, `--empty-cache-every`, `--memory-mode` and
//! `--check-every` through the real binary on the CPU.

use serde_json::Value;

/// A 6-step CPU run in a fresh folder: its summary.
fn train(args: &[&str]) -> Value {
    let dir = tempfile::tempdir().unwrap();
    crate::util::train_json(dir.path(), &[&["--max-steps", "6"][..], args].concat())
}

#[test]
fn checkpointing_lowers_the_activation_peak_and_changes_nothing_else() {
    let base = train(&["--strategy", "baseline"]);
    let ckpt = train(&["--strategy", "checkpointing"]);
    assert!(
        ckpt["device"]["backend"]
            .as_str()
            .unwrap()
            .contains("checkpointing"),
        "{}",
        ckpt["device"]
    );
    let peak = |s: &Value| s["memory"]["host_heap_peak"].as_u64().unwrap();
    assert!(
        peak(&ckpt) < peak(&base),
        "checkpointing {} vs baseline {}",
        peak(&ckpt),
        peak(&base)
    );
    // Recomputed activations are the same numbers: the weights end bit for bit equal.
    assert_eq!(ckpt["final_params"], base["final_params"]);
}

#[test]
fn checkpointing_is_a_setting_of_its_own_and_combines_with_grad_accum() {
    let plain = train(&["--strategy", "grad-accum", "--steps", "4"]);
    let both = train(&[
        "--strategy",
        "grad-accum",
        "--steps",
        "4",
        "--checkpointing",
    ]);
    assert_eq!(both["checkpointing"], true);
    assert_eq!(plain["checkpointing"], false);
    assert_eq!(both["strategy"]["name"], "grad-accum");
    assert!(
        both["device"]["backend"]
            .as_str()
            .unwrap()
            .contains("checkpointing"),
        "{}",
        both["device"]
    );
    // The split is grad-accum's; recomputation changes no number.
    assert_eq!(both["plan"], plain["plan"]);
    assert_eq!(both["final_params"], plain["final_params"]);
}

#[test]
fn empty_cache_every_n_steps_reports_each_cleanup() {
    let s = train(&["--empty-cache-every", "2"]);
    let c = &s["cache_cleanups"];
    assert_eq!(c["every"], 2);
    assert_eq!(c["count"], 3, "{c}");
    // The CPU backend has no pool statistics: said, not invented.
    assert!(c["freed_total"].is_null());
    assert!(train(&[])["cache_cleanups"].is_null());
}

#[test]
fn the_default_pool_is_exact_and_on_the_cpu_growth_trains_the_same() {
    let default = train(&[]);
    let growth = train(&["--memory-mode", "growth"]);
    assert_eq!(default["memory_mode"]["mode"], "exact");
    assert_eq!(growth["memory_mode"]["mode"], "growth");
    assert_eq!(default["final_params"], growth["final_params"]);
}

#[test]
fn checks_once_per_step_train_the_same_and_still_catch_an_oom() {
    // Default (auto) for baseline: once per step; auto-halve: after every phase.
    let step = train(&[]);
    let phase = train(&["--check-every", "phase"]);
    assert_eq!(step["checks"], "step");
    assert_eq!(phase["checks"], "phase");
    assert_eq!(step["final_params"], phase["final_params"]);
    assert_eq!(step["final_loss"], phase["final_loss"]);
    let halving = train(&["--strategy", "auto-halve"]);
    assert_eq!(halving["checks"], "phase");

    // A SIMULATED out-of-memory failure found at the end of the step: discarded, exit 3,
    // reported as the step's (its phase is not known).
    let dir = tempfile::tempdir().unwrap();
    let out = crate::util::oomlab()
        .args([
            "train",
            "--device",
            "cpu",
            "--max-steps",
            "3",
            "--memory-budget",
            "21MiB",
            "--json",
            "--out",
        ])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let s: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["stop"]["kind"], "out-of-memory");
    assert_eq!(s["stop"]["detail"]["phase"], "step");
    // The failed step is the one after the last applied one: it was not applied.
    assert_eq!(s["stop"]["detail"]["step"], s["steps_completed"]);
    assert!(s["steps_completed"].as_u64().unwrap() < 3);

    let refused = crate::util::oomlab()
        .args([
            "train",
            "--device",
            "cpu",
            "--strategy",
            "auto-halve",
            "--check-every",
            "step",
        ])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--check-every phase"));
}
