//! Data parallelism on the CPU with the real binary: two CPU peers (threads of one
//! process, burn-collective between them) train the same model a single device trains
//! with the same effective batch; shard-optimizer splits the optimizer state and changes
//! nothing else; what cannot work is refused with exit 2 and a way out.

use std::path::Path;

use serde_json::Value;

use crate::util::{assert_exit, oomlab, steps, train_json};

const SHAPE: [&str; 8] = [
    "--max-steps",
    "8",
    "--seq-len",
    "16",
    "--batch",
    "8",
    "--seed",
    "3",
];

fn train_on(dir: &Path, devices: &str, extra: &[&str]) -> Value {
    let out = oomlab()
        .args(["train", "--devices", devices, "--json", "--out"])
        .arg(dir)
        .args(SHAPE)
        .args(extra)
        .output()
        .unwrap();
    assert_exit(&out, 0);
    serde_json::from_slice(&out.stdout).unwrap()
}

fn losses(dir: &Path) -> Vec<f64> {
    steps(dir)
        .iter()
        .map(|s| s["loss"].as_f64().unwrap())
        .collect()
}

#[test]
fn two_cpu_peers_train_like_one_device_with_the_same_effective_batch() {
    let tmp = tempfile::tempdir().unwrap();
    let (one, two) = (tmp.path().join("one"), tmp.path().join("two"));
    let single = train_json(&one, &SHAPE);
    let parallel = train_on(&two, "cpu,cpu", &[]);

    let p = &parallel["parallel"];
    assert_eq!(p["world"], 2);
    assert_eq!(p["batch_per_peer"], 4);
    assert_eq!(p["sharded"], false);
    assert_eq!(p["replicas_identical"], true, "{p}");
    assert_eq!(parallel["effective_batch"], single["effective_batch"]);
    assert_eq!(parallel["steps_completed"], 8);
    // Each peer's half of the batch, all-reduced (mean), is the whole batch's gradient:
    // the losses follow the single device's (float sums in another order: not bitwise).
    let (a, b) = (losses(&one), losses(&two));
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(&b) {
        assert!((x - y).abs() <= 1e-4 * x.abs(), "{a:?}\n{b:?}");
    }
    assert!(a.first() > a.last(), "the model learns: {a:?}");
    // Without the all-reduce each peer would follow its own half: the weights differ
    // from the single device's only by rounding.
    let sum = |s: &Value| s["final_params"]["sum"].as_f64().unwrap();
    assert!((sum(&single) - sum(&parallel)).abs() <= 1e-4 * sum(&single).abs());
}

#[test]
fn shard_optimizer_splits_the_optimizer_state_and_ends_with_the_same_weights() {
    let tmp = tempfile::tempdir().unwrap();
    let dp = train_on(&tmp.path().join("dp"), "cpu,cpu", &[]);
    let zero = train_on(
        &tmp.path().join("zero"),
        "cpu,cpu",
        &["--strategy", "shard-optimizer"],
    );
    assert_eq!(zero["parallel"]["sharded"], true);
    assert_eq!(zero["parallel"]["replicas_identical"], true);
    // AdamW updates each parameter on its own: its owner computes what every peer did
    // in plain data parallelism, bit for bit.
    assert_eq!(
        zero["final_params"]["fnv1a64"], dp["final_params"]["fnv1a64"],
        "sharding changed the result"
    );
    let elements = |s: &Value| -> Vec<u64> {
        s["parallel"]["peers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["optimizer_elements"].as_u64().unwrap())
            .collect()
    };
    let total = zero["params"]["count"].as_u64().unwrap();
    let (full, shards) = (elements(&dp), elements(&zero));
    assert_eq!(full, vec![total, total]);
    assert_eq!(shards.iter().sum::<u64>(), total);
    assert!(shards.iter().all(|&e| e < total * 6 / 10), "{shards:?}");
    let state = |s: &Value, i: usize| {
        s["parallel"]["peers"][i]["optimizer_state"]
            .as_u64()
            .unwrap()
    };
    assert_eq!(state(&dp, 0), total * 8);
    assert_eq!(state(&zero, 0) + state(&zero, 1), total * 8);
}

fn refused(args: &[&str]) -> String {
    let tmp = tempfile::tempdir().unwrap();
    // No GPU for this process even where the machine has one, so the refusal is the
    // CPU's on every machine.
    let out = oomlab()
        .env("CUDA_VISIBLE_DEVICES", "")
        .args(["train", "--out"])
        .arg(tmp.path().join("run"))
        .args(args)
        .output()
        .unwrap();
    assert_exit(&out, 2);
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn what_data_parallelism_cannot_do_is_refused_with_a_way_out() {
    let e = refused(&["--strategy", "shard-optimizer", "--device", "cpu"]);
    assert!(
        e.contains("two or more") && e.contains("--devices cpu,cpu"),
        "{e}"
    );
    let e = refused(&["--devices", "cpu,cpu", "--batch", "7"]);
    assert!(e.contains("multiple of 2") && e.contains("6 or 8"), "{e}");
    let e = refused(&["--devices", "cpu,cpu", "--checkpoint-every", "2"]);
    assert!(e.contains("not built for data-parallel runs"), "{e}");
}

#[test]
fn gpus_without_a_gpu_is_refused_and_points_at_the_cpu_peers() {
    let e = refused(&["--gpus", "2"]);
    assert!(e.contains("--devices cpu,cpu"), "{e}");
}

#[test]
fn buckets_and_one_operation_per_parameter_reduce_to_the_same_weights() {
    let tmp = tempfile::tempdir().unwrap();
    let bucketed = train_on(&tmp.path().join("bucketed"), "cpu,cpu", &[]);
    let out = oomlab()
        .args([
            "train",
            "--devices",
            "cpu,cpu",
            "--set",
            "train.bucket_mib=0",
        ])
        .args(["--json", "--out"])
        .arg(tmp.path().join("each"))
        .args(SHAPE)
        .output()
        .unwrap();
    assert_exit(&out, 0);
    let each: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        each["final_params"]["fnv1a64"],
        bucketed["final_params"]["fnv1a64"]
    );
}

#[test]
fn compare_over_two_cpu_peers_adds_shard_optimizer_and_a_column_per_device() {
    let tmp = tempfile::tempdir().unwrap();
    let out = oomlab()
        .args([
            "compare",
            "--devices",
            "cpu,cpu",
            "--strategies",
            "baseline,shard-optimizer",
            "--max-steps",
            "3",
            "--batch",
            "8",
            "--set",
            "model.seq_len=16",
            "--quiet",
            "--json",
            "--out",
        ])
        .arg(tmp.path())
        .output()
        .unwrap();
    assert_exit(&out, 0);
    let c: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = c["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    let state = |row: &Value| -> Vec<u64> {
        row["per_device"]
            .as_array()
            .unwrap_or_else(|| panic!("no per_device: {row}"))
            .iter()
            .map(|d| d["optimizer_state_bytes"].as_u64().unwrap())
            .collect()
    };
    for row in rows {
        assert_eq!(row["status"]["kind"], "completed", "{row}");
        assert_eq!(row["per_device"].as_array().unwrap().len(), 2);
        // The whole-batch estimate does not predict one device's figure.
        assert!(row["predicted_peak_bytes"].is_null());
    }
    // Plain: every peer keeps all of AdamW's state; sharded: the two shares add up to it.
    let (plain, sharded) = (state(&rows[0]), state(&rows[1]));
    assert_eq!(plain[0], plain[1]);
    assert_eq!(sharded[0] + sharded[1], plain[0]);
    assert!(sharded.iter().all(|s| *s < plain[0]));
    // Every rendering has the per-device column.
    let md = std::fs::read_to_string(tmp.path().join("compare.md")).unwrap();
    assert!(md.contains("per device (optimizer state"), "{md}");
    let csv = std::fs::read_to_string(tmp.path().join("compare.csv")).unwrap();
    assert!(csv.lines().next().unwrap().ends_with("per_device"), "{csv}");
}

#[test]
fn shard_optimizer_in_compare_needs_several_devices() {
    let out = oomlab()
        .args(["compare", "--strategies", "baseline,shard-optimizer"])
        .output()
        .unwrap();
    assert_exit(&out, 2);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("give two or more with --devices"), "{err}");
}
