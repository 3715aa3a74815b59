//! Memory-efficient attention against the written-out one, through the real binary on
//! the CPU: the same training, less memory kept.

use std::path::Path;

use serde_json::Value;

use crate::util::train_json as train;

fn losses(dir: &Path) -> Vec<f64> {
    crate::util::steps(dir)
        .iter()
        .map(|s| s["loss"].as_f64().unwrap())
        .collect()
}

#[test]
fn efficient_attention_trains_like_the_written_out_one_and_keeps_less() {
    let args = ["--max-steps", "20", "--seq-len", "128"];
    let math_dir = tempfile::tempdir().unwrap();
    let math = train(
        math_dir.path(),
        &[&args[..], &["--attention", "math"]].concat(),
    );
    let eff_dir = tempfile::tempdir().unwrap();
    let eff = train(
        eff_dir.path(),
        &[&args[..], &["--attention", "efficient"]].concat(),
    );
    assert_eq!(math["model"]["attention"], "math");
    assert_eq!(eff["model"]["attention"], "efficient");

    let (a, b) = (losses(eff_dir.path()), losses(math_dir.path()));
    assert_eq!(a.len(), 20);
    for (step, (e, m)) in a.iter().zip(&b).enumerate() {
        assert!(
            ((e - m) / m).abs() <= 1e-4,
            "step {step}: efficient {e} vs math {m}"
        );
    }

    // The host heap peak (oomlab's counting allocator): math keeps every layer's
    // [batch, heads, seq, seq] scores and probabilities until backward.
    let peak = |s: &Value| s["memory"]["host_heap_peak"].as_u64().unwrap();
    assert!(
        peak(&eff) < peak(&math),
        "efficient {} B vs math {} B",
        peak(&eff),
        peak(&math)
    );
}

#[test]
fn attention_is_a_flag_and_a_config_key_with_a_helpful_error() {
    let dir = tempfile::tempdir().unwrap();
    let s = train(
        dir.path(),
        &["--max-steps", "2", "--set", "model.attention=math"],
    );
    assert_eq!(s["model"]["attention"], "math");
    let out = crate::util::oomlab()
        .args(["train", "--device", "cpu", "--set", "model.attention=flash"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("model.attention") && err.contains("efficient") && err.contains("--attention"),
        "{err}"
    );
}
