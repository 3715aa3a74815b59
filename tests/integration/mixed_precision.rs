//! Mixed precision, pure half and the loss scaler through the real binary on the CPU
//! (burn's Flex backend computes in bf16 and f16 too).

use serde_json::Value;

use crate::util::{oomlab, steps, train_json as train};

fn strings(v: &Value) -> Vec<&str> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap())
        .collect()
}

#[test]
fn amp_ends_within_two_percent_of_f32_on_the_default_task() {
    // The tiny config as the README's main command runs it: 80 steps of the default task,
    // in f32, bf16 and f16 (three processes at once: the suite's longest test otherwise).
    let runs: Vec<(&str, Value)> = std::thread::scope(|scope| {
        let handles: Vec<_> = ["f32", "bf16", "f16"]
            .into_iter()
            .map(|precision| {
                scope.spawn(move || {
                    let dir = tempfile::tempdir().unwrap();
                    (precision, train(dir.path(), &["--precision", precision]))
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let full_loss = runs[0].1["final_loss"].as_f64().unwrap();
    for (precision, amp) in &runs[1..] {
        let loss = amp["final_loss"].as_f64().unwrap();
        assert_eq!(amp["steps_completed"], 80);
        assert!(
            (loss - full_loss).abs() / full_loss <= 0.02,
            "{precision}: AMP final loss {loss} vs f32 {full_loss}"
        );
        assert!(
            loss < amp["first_loss"].as_f64().unwrap() - 1.0,
            "{precision}: did not learn"
        );
    }
}

#[test]
fn every_mode_reports_the_dtypes_its_tensors_really_had() {
    let cases = [
        (&["--precision", "f32"][..], "f32", "f32", "f32", 16.0),
        (
            &["--precision", "bf16"][..],
            "amp-bf16",
            "f32",
            "bf16",
            18.0,
        ),
        (&["--precision", "f16"][..], "amp-f16", "f32", "f16", 18.0),
        (
            &["--strategy", "half", "--precision", "bf16"][..],
            "half-bf16",
            "bf16",
            "bf16",
            8.0,
        ),
        (
            &["--strategy", "half", "--precision", "f16"][..],
            "half-f16",
            "f16",
            "f16",
            8.0,
        ),
    ];
    for (args, mode, weights, compute, per_param) in cases {
        let dir = tempfile::tempdir().unwrap();
        let mut all = vec!["--max-steps", "2", "--batch", "8"];
        all.extend_from_slice(args);
        let s = train(dir.path(), &all);
        let p = &s["precision"];
        assert_eq!(p["mode"], mode);
        assert_eq!(strings(&p["weight_dtypes"]), vec![weights], "{mode}");
        assert_eq!(strings(&s["params"]["dtypes"]), vec![weights], "{mode}");
        assert_eq!(strings(&p["compute_dtypes"]), vec![compute], "{mode}");
        assert_eq!(p["bytes_per_param"].as_f64().unwrap(), per_param, "{mode}");
        // The figure is a formula; what it claims is checked against the heap in
        // bytes_per_param_is_what_the_heap_holds_during_a_step.
        // Parameter bytes follow the dtype: 2 bytes each in half, 4 in f32.
        let bytes = s["params"]["bytes"].as_u64().unwrap();
        let count = s["params"]["count"].as_u64().unwrap();
        assert_eq!(
            bytes / count,
            if weights == "f32" { 4 } else { 2 },
            "{mode}"
        );
        // Loss scaling exactly where f16 is.
        assert_eq!(
            s["loss_scale"].is_object(),
            mode.ends_with("-f16"),
            "{mode}"
        );
    }
}

#[test]
fn a_forced_overflow_makes_the_scaler_skip_back_off_and_recover() {
    // A scale of 2^30 overflows f16 gradients: the scaler must skip those updates and halve
    // until the gradients fit, then train, and grow again after 3 clean steps.
    let dir = tempfile::tempdir().unwrap();
    let s = train(
        dir.path(),
        &[
            "--precision",
            "f16",
            "--set",
            "loss_scale.init_scale=1073741824",
            "--set",
            "loss_scale.growth_interval=3",
            "--max-steps",
            "24",
            "--batch",
            "8",
            "--seq-len",
            "32",
        ],
    );
    let log = steps(dir.path());
    assert_eq!(log.len(), 24);
    assert_eq!(log[0]["skipped"], true, "2^30 must overflow f16");
    // While skipping, every step's scale is half the one before.
    let first_clean = log.iter().position(|r| r["skipped"] == false).unwrap();
    assert!(first_clean >= 2, "only {first_clean} skipped step(s)");
    for w in log[..=first_clean].windows(2) {
        assert_eq!(
            w[1]["loss_scale"].as_f64().unwrap(),
            w[0]["loss_scale"].as_f64().unwrap() / 2.0
        );
    }
    // After 3 clean steps in a row, the scale doubles.
    let ls = &s["loss_scale"];
    assert!(ls["growths"].as_u64().unwrap() >= 1, "{ls}");
    assert_eq!(
        ls["skipped_steps"].as_u64().unwrap() as usize,
        log.iter().filter(|r| r["skipped"] == true).count()
    );
    assert!(ls["final_scale"].as_f64().unwrap() < 1073741824.0);
    // It recovered: the loss fell once updates went through.
    let last = log.last().unwrap()["loss"].as_f64().unwrap();
    assert!(last < log[0]["loss"].as_f64().unwrap() - 0.5, "loss {last}");
}

#[test]
fn skipped_steps_leave_the_weights_untouched() {
    // With a scale no gradient survives, every step is skipped: the final weights must be
    // the initial ones, whatever the number of steps.
    let fingerprint = |steps: &str| {
        let dir = tempfile::tempdir().unwrap();
        let s = train(
            dir.path(),
            &[
                "--precision",
                "f16",
                "--set",
                "loss_scale.init_scale=1e38",
                "--max-steps",
                steps,
                "--batch",
                "4",
                "--seq-len",
                "16",
            ],
        );
        assert_eq!(
            s["loss_scale"]["skipped_steps"].as_u64().unwrap(),
            steps.parse::<u64>().unwrap()
        );
        s["final_params"]["fnv1a64"].as_str().unwrap().to_string()
    };
    assert_eq!(fingerprint("1"), fingerprint("3"));
}

/// `oomlab train ARGS` that must be refused as a usage error (exit 2): its stderr.
fn refused(args: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let out = oomlab()
        .arg("train")
        .args(args)
        .arg("--out")
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn half_refuses_an_explicit_f32_and_prealloc_needs_a_gpu() {
    let err = refused(&[
        "--device",
        "cpu",
        "--strategy",
        "half",
        "--precision",
        "f32",
    ]);
    assert!(err.contains("--precision bf16 or f16"), "{err}");
    let err = refused(&["--device", "cpu", "--memory-mode", "prealloc"]);
    assert!(err.contains("needs a CUDA device"), "{err}");
    refused(&["--memory-mode", "prealloc=2"]);
}

#[test]
fn bytes_per_param_is_what_the_heap_holds() {
    // A model whose parameters dwarf everything else (batch 1, 8 characters of context,
    // a small corpus), so the host heap is mostly parameter state.
    for args in [
        &["--precision", "f32"][..],
        &["--precision", "bf16"][..],
        &["--strategy", "half", "--precision", "bf16"][..],
    ] {
        let dir = tempfile::tempdir().unwrap();
        let mut all = vec![
            "--max-steps",
            "2",
            "--batch",
            "1",
            "--seq-len",
            "8",
            "--d-model",
            "384",
            "--set",
            "model.d_ff=1536",
            "--set",
            "data.corpus_chars=20000",
        ];
        all.extend_from_slice(args);
        let s = train(dir.path(), &all);
        let count = s["params"]["count"].as_f64().unwrap();
        let weight = s["params"]["bytes"].as_f64().unwrap() / count;
        let stated = s["precision"]["bytes_per_param"].as_f64().unwrap();
        let peak = s["memory"]["host_heap_peak"].as_f64().unwrap() / count;
        // During a step the stated bytes (weights, gradients, moments, AMP's copy) all
        // exist at once: the heap's peak is at least that (the optimizer's temporaries
        // come on top).
        assert!(
            peak >= stated * 0.95,
            "{args:?}: the summary states {stated} bytes per parameter, the heap peaked at {peak:.2}"
        );
        // Between steps the weights and AdamW's two moments remain, in the weights' dtype.
        let end = s["memory"]["end"]["in_use"].as_f64().unwrap() / count;
        assert!(
            end >= weight * 3.0 * 0.95 && end <= weight * 3.0 * 1.15,
            "{args:?}: {weight} bytes per weight, the heap held {end:.2} per parameter after the run"
        );
    }
}

/// `kernels.amp_cast=step` (the parameters cast once a step, each micro-batch's gradients
/// cast to f32 after its backward pass) trains to the bits of the default, which casts in
/// each micro-batch's graph: the same gradients, in bf16 and in f16 (with its loss scale),
/// over steps of two micro-batches; the run names the key.
#[test]
fn casting_once_a_step_trains_to_the_bits_of_casting_every_micro_batch() {
    for precision in ["bf16", "f16"] {
        let run = |extra: &[&str]| {
            let dir = tempfile::tempdir().unwrap();
            let args = [
                "--precision",
                precision,
                "--strategy",
                "grad-accum",
                "--steps",
                "2",
                "--max-steps",
                "4",
            ];
            crate::util::train_json_with_env(dir.path(), &[&args[..], extra].concat(), &[])
        };
        let (each, _) = run(&[]);
        let (once, stderr) = run(&["--set", "kernels.amp_cast=step"]);
        assert_eq!(
            each["final_params"]["fnv1a64"], once["final_params"]["fnv1a64"],
            "{precision}"
        );
        assert!(each["final_params"]["fnv1a64"].is_string(), "{each}");
        assert_eq!(each["final_loss"], once["final_loss"], "{precision}");
        assert!(stderr.contains("amp_cast=step"), "{stderr}");
    }
}
