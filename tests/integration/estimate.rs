//! `oomlab estimate` through the real binary: the table without a GPU, and the CPU
//! prediction checked against measured runs of every strategy.

use serde_json::Value;

fn estimate(args: &[&str]) -> Value {
    // No GPU, no NVML: what a machine without a GPU sees.
    let mut a = args.to_vec();
    a.push("--json");
    let out = crate::util::estimate_without_gpu(&a);
    assert!(
        out.status.success(),
        "stderr:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn a_card_gives_the_largest_batch_of_every_strategy_without_a_gpu() {
    let r = estimate(&["--config", "gpu", "--card", "24GiB"]);
    assert_eq!(r["target"]["kind"], "cuda");
    // A 24 GB card: the capacity PyTorch reports on the list's 24 GB card, not 24 GiB.
    assert_eq!(r["capacity"], 24207u64 << 20);
    let rows = r["rows"].as_array().unwrap();
    assert!(rows.len() >= 10, "your run and the compare rows: {rows:?}");
    let largest = |label: &str| {
        rows.iter().find(|x| x["label"] == label).unwrap()["largest_batch"]
            .as_u64()
            .unwrap()
    };
    // Saving activation memory fits more samples than the baseline on the same card.
    for saver in ["grad-accum", "checkpointing", "amp-bf16", "half-bf16"] {
        assert!(largest(saver) > largest("baseline"), "{saver}: {rows:?}");
    }
    assert!(largest("attention-math") < largest("baseline"));
    for x in rows {
        let peak = x["estimate"]["peak"].as_u64().unwrap();
        let sum: u64 = x["estimate"]["terms"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| t["at_peak"] == true)
            .map(|t| t["bytes"].as_u64().unwrap())
            .sum();
        assert_eq!(peak, sum, "the peak is the sum of its terms: {x}");
        assert!(x["smallest_card"].is_string(), "{x}");
    }
    // The terminal form names the card and the largest batch.
    let out = crate::util::oomlab()
        .args(["estimate", "--config", "gpu", "--card", "RTX 4090"])
        .output()
        .unwrap();
    let text = crate::util::flat(&String::from_utf8_lossy(&out.stdout));
    // The header may fold: "largest" and "batch" in one cell.
    assert!(
        text.contains("largest") && text.contains("micro 298"),
        "{text}"
    );
    assert!(
        text.contains("Capacity: 23.64 GiB (--card RTX 4090 (24 GB, 23.64 GiB visible))"),
        "{text}"
    );
}

#[test]
fn an_unknown_card_names_the_known_ones() {
    let out = crate::util::oomlab()
        .args(["estimate", "--card", "voodoo2"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--card voodoo2") && err.contains("RTX 4090"),
        "{err}"
    );
}

/// `--memory-budget` sizes for the run under it: the budget is the capacity, and the
/// compute threads are the ones such a run fixes, whatever this machine has (the lesson's
/// first exercise runs this command and its answer key is computed that way).
#[test]
fn a_memory_budget_is_the_capacity_and_fixes_the_threads() {
    for threads in ["64", "2"] {
        let out = crate::util::oomlab()
            .env("RAYON_NUM_THREADS", threads)
            .args([
                "estimate",
                "--config",
                "tiny",
                "--device",
                "cpu",
                "--memory-budget",
                "67MiB",
                "--strategy",
                "baseline",
                "--json",
            ])
            .output()
            .unwrap();
        assert!(out.status.success());
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["capacity"], 67 << 20, "{v}");
        assert_eq!(
            v["target"]["threads"], 2,
            "RAYON_NUM_THREADS={threads}: {v}"
        );
        assert!(
            v["capacity_from"].as_str().unwrap().contains("SIMULATED"),
            "{v}"
        );
    }
}

/// The bound issue 13 sets: on the tiny config, every compare row's predicted peak within
/// 10% of the measured host heap peak.
#[test]
fn the_cpu_prediction_is_within_ten_percent_for_every_strategy() {
    let dir = tempfile::tempdir().unwrap();
    // Two compute threads whatever the runner has: the heap holds one L2-sized matrix
    // buffer per thread that multiplies, and with many more threads than cores (64 on
    // CI's 2) which of them get a product's work changes from run to run: at 64 threads
    // there, auto-halve's estimate was 1.6% above its measured peak in one compare and
    // 15.3% in another. The estimate reads the thread count; this checks the rest.
    let out = crate::util::oomlab()
        .env("RAYON_NUM_THREADS", "2")
        .args([
            "compare",
            "--device",
            "cpu",
            "--max-steps",
            "2",
            "--json",
            "--out",
        ])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let c: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = c["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 12);
    for r in rows {
        let measured = r["peak_in_use_bytes"].as_f64().unwrap();
        let predicted = r["predicted_peak_bytes"].as_f64().unwrap();
        let err = predicted / measured - 1.0;
        assert!(
            err.abs() <= 0.10,
            "{}: predicted {predicted}, measured {measured} ({:+.1}%)",
            r["strategy"],
            err * 100.0
        );
    }
}

#[test]
fn train_refuses_a_run_that_cannot_fit_and_says_what_would() {
    // 2^21 samples of the tiny GPT need far more than any build machine's RAM.
    let out = crate::util::oomlab()
        .args(["train", "--device", "cpu", "--batch", "2097152", "--quiet"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot fit") && err.contains("--batch") && err.contains("grad-accum"),
        "{err}"
    );
}

#[test]
fn over_two_devices_each_row_is_one_devices_and_sharding_halves_its_optimizer_state() {
    // A wide, shallow model where AdamW's state is a large share of the peak.
    let model = [
        "--config",
        "gpu",
        "--set",
        "model.n_layers=2",
        "--card",
        "24GiB",
        "--batch",
        "8",
    ];
    let one = estimate(&model);
    let two = estimate(&[&model[..], &["--devices", "cuda:0,cuda:1"]].concat());
    assert_eq!(two["world"], 2);
    let row = |r: &Value, label: &str| -> Value {
        r["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["label"] == label)
            .unwrap_or_else(|| panic!("no {label} row: {r}"))
            .clone()
    };
    let term = |row: &Value, kind: &str| -> u64 {
        row["estimate"]["terms"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["kind"] == kind)
            .map_or(0, |t| t["bytes"].as_u64().unwrap())
    };
    let (single, plain, sharded) = (
        row(&one, "baseline"),
        row(&two, "baseline"),
        row(&two, "shard-optimizer"),
    );
    // Plain data parallel: each device takes half the batch and keeps all the state.
    assert_eq!(plain["estimate"]["plan"]["micro_batch"], 4);
    assert_eq!(
        term(&plain, "optimizer-state"),
        term(&single, "optimizer-state")
    );
    assert!(term(&plain, "activations") < term(&single, "activations"));
    // Sharded: the largest share of whole parameters, about half.
    let (all, share) = (
        term(&plain, "optimizer-state") as f64,
        term(&sharded, "optimizer-state") as f64,
    );
    assert!(share >= all / 2.0 && share < all * 0.6, "{share} of {all}");
    assert!(sharded["estimate"]["peak"].as_u64() < plain["estimate"]["peak"].as_u64());
    // The largest batch is the whole run's: two devices' worth.
    assert!(sharded["largest_batch"].as_u64().unwrap() >= plain["largest_batch"].as_u64().unwrap());
    assert!(plain["largest_batch"].as_u64().unwrap() > single["largest_batch"].as_u64().unwrap());
}

#[test]
fn several_devices_need_a_batch_that_splits_and_cannot_be_calibrated() {
    let refused = |args: &[&str], says: &str| {
        let out = crate::util::oomlab()
            .arg("estimate")
            .args(args)
            .env("CUDA_VISIBLE_DEVICES", "")
            .output()
            .unwrap();
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(crate::util::flat(&err).contains(says), "{err}");
    };
    refused(
        &["--devices", "cpu,cpu", "--batch", "7"],
        "does not split evenly over 2 devices",
    );
    refused(
        &["--devices", "cpu,cpu", "--calibrate"],
        "--calibrate with 2 devices",
    );
    refused(
        &["--strategy", "shard-optimizer"],
        "give two or more with --devices",
    );
}
