//! `oomlab estimate --model NAME | --hf-config PATH` through the real binary: a Hugging
//! Face model's training sized without a GPU, the refusals, and each built-in shape's
//! parameter count against the one transformers reported on the H200.

use serde_json::Value;

use crate::util::estimate_without_gpu as estimate;

/// Sequence 2048, bf16, on a 24 GiB card (for a built-in shape or a config.json).
const AT_2048_BF16_ON_24GIB: [&str; 6] =
    ["--seq", "2048", "--precision", "bf16", "--card", "24GiB"];

/// Llama-3.2-1B with [`AT_2048_BF16_ON_24GIB`].
fn llama_1b_on_24gib() -> Vec<&'static str> {
    [&["--model", "llama-3.2-1b"][..], &AT_2048_BF16_ON_24GIB].concat()
}

fn json(args: &[&str]) -> Value {
    let mut a = args.to_vec();
    a.push("--json");
    let out = estimate(&a);
    assert!(
        out.status.success(),
        "stderr:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn a_built_in_shape_and_its_config_json_give_the_same_answer() {
    let named = json(&llama_1b_on_24gib());
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/configs/hf/llama-3.2-1b.json");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("config.json");
    std::fs::copy(path, &file).unwrap();
    let from_file = json(
        &[
            &["--hf-config", file.to_str().unwrap()][..],
            &AT_2048_BF16_ON_24GIB,
        ]
        .concat(),
    );
    assert_eq!(named["estimate"], from_file["estimate"]);
    assert_eq!(named["params"], 1_235_814_400u64);
    // The peak is the sum of the terms alive at it, plus nothing else.
    let e = &named["estimate"];
    let sum: u64 = e["terms"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["at_peak"] == true)
        .map(|t| t["bytes"].as_u64().unwrap())
        .sum();
    assert_eq!(sum, e["process"].as_u64().unwrap(), "{e}");
    // The fixed state comes first on the terminal, with its share of the card.
    let out = estimate(&llama_1b_on_24gib());
    let text = String::from_utf8_lossy(&out.stdout);
    let fixed = text.find("Fixed state:").expect("fixed-state line");
    assert!(
        fixed < text.find("│ * ┆ weights").expect("the term table"),
        "{text}"
    );
    assert!(
        crate::util::flat(&text).contains("% of a 24 GB card (23.64 GiB visible"),
        "{text}"
    );
    assert!(text.contains("What to change"), "{text}");
}

#[test]
fn more_batch_means_more_memory_and_checkpointing_less() {
    let peak = |extra: &[&str]| {
        let mut a = vec!["--model", "gpt2", "--precision", "bf16"];
        a.extend_from_slice(extra);
        json(&a)["estimate"]["allocated"].as_u64().unwrap()
    };
    let (b4, b8) = (peak(&["--batch", "4"]), peak(&["--batch", "8"]));
    assert!(b8 > b4);
    assert!(peak(&["--batch", "8", "--checkpointing"]) < b8);
    // Accumulation: --batch 8 --steps 2 is micro-batch 4 with the gradients kept through
    // the passes, so between micro-batch 4 alone and micro-batch 8.
    let accum = peak(&["--batch", "8", "--steps", "2"]);
    assert!(accum > b4 && accum < b8, "{b4} {accum} {b8}");
}

#[test]
fn what_does_not_apply_is_refused_naming_the_flag() {
    for (args, says) in [
        (
            &["--model", "gpt5"][..],
            "not gpt or mlp, nor a built-in shape",
        ),
        (&["--model", "gpt2", "--config", "gpu"][..], "--config"),
        (&["--model", "gpt2", "--zero", "2"][..], "--gpus N"),
        (
            &["--model", "gpt2", "--batch", "3", "--steps", "2"][..],
            "multiple of 2",
        ),
        (
            &["--model", "gpt2", "--precision", "f16"][..],
            "--precision f16",
        ),
        (&["--config", "gpu", "--lora"][..], "add --model NAME"),
    ] {
        let out = estimate(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
    let dir = tempfile::tempdir().unwrap();
    let t5 = dir.path().join("config.json");
    std::fs::write(&t5, r#"{"model_type": "t5", "d_model": 512}"#).unwrap();
    let out = estimate(&["--hf-config", t5.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("`model_type` = \"t5\""));
    // train does not take a Hugging Face shape.
    let out = crate::util::oomlab()
        .args(["train", "--model", "gpt2", "--max-steps", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("oomlab estimate --model gpt2"));
}

#[test]
fn every_built_in_shape_counts_its_parameters_as_transformers_did_on_the_h200() {
    // Read on the H200 by benches/hf_memory.py (transformers 5.17, the meta device), every
    // config of configs/hf/ at the time: the six of the validation run, and qwen2.5-7b's
    // added later
    let counts: Value = serde_json::from_str(include_str!(
        "../../docs/results/2026-12-04-h200-hf-templates/holdout-untied/hf-memory/param-counts.json"
    ))
    .unwrap();
    let counts = counts.as_object().unwrap();
    assert_eq!(counts.len(), 7, "{counts:?}");
    assert_eq!(counts["qwen2.5-7b"]["params"], 7_615_616_512u64);
    for (name, c) in counts {
        let ours = json(&["--model", name])["params"].as_u64().unwrap();
        assert_eq!(ours, c["params"].as_u64().unwrap(), "{name}");
    }
    assert_eq!(counts["gpt2"]["params"], 124_439_808u64);
}
