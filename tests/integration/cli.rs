//! The real binary on the CPU backend with the tiny config.

use std::path::Path;
use std::process::Command as StdCommand;
use std::time::Duration;

use predicates::prelude::*;
use serde_json::Value;

use crate::util::{assert_exit, estimate_without_gpu, oomlab};

/// Runs `train` on the CPU with 30 steps, returns the parsed `--json` summary.
fn train_json(dir: &Path, extra: &[&str]) -> Value {
    crate::util::train_json(dir, &[&["--max-steps", "30"][..], extra].concat())
}

fn f(v: &Value, key: &str) -> f64 {
    v[key]
        .as_f64()
        .unwrap_or_else(|| panic!("{key} missing in {v}"))
}

#[test]
fn baseline_finishes_and_the_loss_falls() {
    let dir = tempfile::tempdir().unwrap();
    let s = train_json(dir.path(), &["--strategy", "baseline"]);
    assert_eq!(s["steps_completed"], 30);
    assert_eq!(s["stop"]["kind"], "completed");
    assert_eq!(s["plan"]["accumulation"], 1);
    assert!(f(&s, "final_loss") < f(&s, "first_loss") - 0.5, "{s}");
    assert_eq!(s["device"]["kind"], "cpu");
    assert_eq!(s["params"]["dtypes"][0], "f32");
}

#[test]
fn grad_accum_finishes_with_the_configured_split_and_the_loss_falls() {
    let dir = tempfile::tempdir().unwrap();
    let s = train_json(dir.path(), &["--strategy", "grad-accum", "--steps", "4"]);
    assert_eq!(s["strategy"]["name"], "grad-accum");
    assert_eq!(s["plan"]["micro_batch"], 8);
    assert_eq!(s["plan"]["accumulation"], 4);
    assert_eq!(s["effective_batch"], 32);
    assert!(f(&s, "final_loss") < f(&s, "first_loss") - 0.5, "{s}");
}

#[test]
fn the_mlp_model_trains_too() {
    let dir = tempfile::tempdir().unwrap();
    let s = train_json(dir.path(), &["--model", "mlp", "--seq-len", "16"]);
    assert_eq!(s["model"]["kind"], "mlp");
    assert!(f(&s, "final_loss") < f(&s, "first_loss"), "{s}");
}

/// The config's `[kernels]` keys on the CPU, in three sets: the custom linear product
/// (`linear_products = "cublas"`) with the broadcast position embedding
/// (`embedding_grad = "dense"`; the token table keeps burn's scatter on the CPU), burn's
/// linear on 2-D inputs (`linear = "2d"`, the CPU's `auto`, set so that the run names it),
/// and Q, K and V from one product with the attention's forward written out
/// (`qkv = "fused"`, `attention_forward = "written"`; with `attention_products`,
/// `attention_softmax`, `layer_norm` and `gelu` asking for cuBLAS and kernels, which the
/// CPU does not have: they are only named); each with the two-stage column sums
/// (`column_sums = "split"`), which then also sum the linear layers' bias gradients. Each
/// set lands where the defaults do (the same arithmetic in another order: the loss within
/// 1e-4), its final weights differ in their last bits from the same set without the split
/// sums (so they ran), and the run names the keys that are not `auto`, in its header, its
/// config.toml and its summary. `one` and `scatter`, the CPU's `auto`, give the defaults'
/// bits.
#[test]
fn the_kernels_keys_train_to_the_defaults_loss_and_the_run_keeps_them() {
    let run = |keys: &[(&str, &str)]| {
        let dir = tempfile::tempdir().unwrap();
        let mut args = vec!["--max-steps".to_string(), "5".to_string()];
        for (k, v) in keys {
            args.push("--set".into());
            args.push(format!("kernels.{k}={v}"));
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (s, stderr) = crate::util::train_json_with_env(dir.path(), &args, &[]);
        let config = std::fs::read_to_string(dir.path().join("config.toml")).unwrap();
        let config: toml::Table = config.parse().unwrap();
        for (k, v) in keys {
            assert_eq!(config["kernels"][*k].as_str(), Some(*v), "{config}");
            assert_eq!(s["kernels"][*k], *v, "{s}");
        }
        let params = s["final_params"]["fnv1a64"].clone();
        (f(&s, "final_loss"), params, stderr)
    };
    let (without, default_params, plain) = run(&[]);
    assert!(!plain.contains("kernels chosen"), "{plain}");
    // `one` and `scatter` ask for what the CPU does by default: the same bits.
    let (_, off_params, _) = run(&[("column_sums", "one"), ("embedding_grad", "scatter")]);
    assert_eq!(off_params, default_params);
    let split = ("column_sums", "split");
    for (others, line) in [
        (
            &[("embedding_grad", "dense"), ("linear_products", "cublas")][..],
            "kernels chosen in the config: linear_products=cublas, column_sums=split, embedding_grad=dense",
        ),
        (
            &[("linear", "2d")][..],
            "kernels chosen in the config: column_sums=split, linear=2d",
        ),
        (
            &[
                ("qkv", "fused"),
                ("attention_forward", "written"),
                ("attention_products", "cublas"),
                ("attention_softmax", "kernel"),
                ("layer_norm", "kernel"),
                ("gelu", "kernel"),
            ][..],
            "kernels chosen in the config: column_sums=split, attention_forward=written, qkv=fused, attention_products=cublas, attention_softmax=kernel, layer_norm=kernel, gelu=kernel",
        ),
    ] {
        let (with, with_params, stderr) = run(&[&[split][..], others].concat());
        let (_, unsplit_params, _) = run(others);
        assert!(with_params.is_string(), "{with_params}");
        assert_ne!(with_params, unsplit_params, "{others:?}: the split sums changed nothing");
        assert!(crate::util::flat(&stderr).contains(line), "{stderr}");
        assert!(
            (with - without).abs() <= 1e-4 * without.abs(),
            "{others:?}: final loss {with} with the keys, {without} without"
        );
    }
}

/// A misspelled `[kernels]` word is refused before anything runs, naming the words there
/// are; a resume that changes a key is refused unless forced, like any other key.
#[test]
fn a_kernels_key_is_checked_and_a_resume_may_not_change_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = crate::util::oomlab()
        .args(["train", "--max-steps", "2", "--set", "kernels.gelu=kernels"])
        .arg("--out")
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = crate::util::flat(&String::from_utf8_lossy(&out.stderr));
    assert!(
        err.contains("kernels.gelu") && err.contains("`burn`"),
        "{err}"
    );
    let run = dir.path().join("run");
    let (_s, _) = crate::util::train_json_with_env(
        &run,
        &["--max-steps", "4", "--checkpoint-every", "2"],
        &[],
    );
    let out = crate::util::oomlab()
        .arg("train")
        .arg("--resume")
        .arg(&run)
        .args(["--set", "kernels.layer_norm=burn"])
        .output()
        .unwrap();
    assert_ne!(out.status.code(), Some(0), "{out:?}");
    let err = crate::util::flat(&String::from_utf8_lossy(&out.stderr));
    assert!(err.contains("kernels.layer_norm"), "{err}");
}

#[test]
fn every_run_leaves_config_step_log_and_summary_in_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    let s = train_json(dir.path(), &["--batch", "16"]);
    let cfg = std::fs::read_to_string(dir.path().join("config.toml")).unwrap();
    let parsed: toml::Table = cfg.parse().expect("config.toml is TOML");
    assert_eq!(parsed["train"]["batch"].as_integer(), Some(16));
    let steps = std::fs::read_to_string(dir.path().join("steps.jsonl")).unwrap();
    assert_eq!(steps.lines().count(), 30);
    let first: Value = serde_json::from_str(steps.lines().next().unwrap()).unwrap();
    assert_eq!(first["step"], 0);
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("summary.json")).unwrap())
            .unwrap();
    assert_eq!(saved, s);
    assert!(dir.path().join("summary.txt").exists());
}

#[test]
fn a_user_text_file_can_be_the_data() {
    let dir = tempfile::tempdir().unwrap();
    let text = dir.path().join("text.txt");
    std::fs::write(
        &text,
        "the quick brown fox jumps over the lazy dog. ".repeat(200),
    )
    .unwrap();
    let s = train_json(&dir.path().join("run"), &["--data", text.to_str().unwrap()]);
    assert_eq!(s["vocab"], 28);
    assert!(f(&s, "final_loss") < f(&s, "first_loss"), "{s}");
}

#[test]
fn the_human_summary_goes_to_stdout_and_progress_to_stderr() {
    let dir = tempfile::tempdir().unwrap();
    oomlab()
        .args(["train", "--device", "cpu", "--max-steps", "3", "--out"])
        .arg(dir.path())
        .assert()
        .success()
        .stdout(predicate::str::contains("samples/s").and(predicate::str::contains("run folder")))
        .stderr(predicate::str::contains("step 3/3"));
}

fn usage_error(args: &[&str], needle: &str) {
    let dir = tempfile::tempdir().unwrap();
    oomlab()
        .args(["train", "--device", "cpu", "--max-steps", "2", "--out"])
        .arg(dir.path())
        .args(args)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(needle));
}

#[test]
fn steps_that_do_not_divide_the_batch_exit_2_and_list_the_divisors() {
    usage_error(
        &["--strategy", "grad-accum", "--steps", "5"],
        "1, 2, 4, 8, 16, 32",
    );
}

#[test]
fn a_zero_batch_exits_2_naming_the_key_and_flag() {
    usage_error(
        &["--batch", "0"],
        "`train.batch` (from --batch 0; flag --batch)",
    );
}

#[test]
fn a_negative_size_via_set_exits_2() {
    usage_error(&["--set", "model.d_ff=-8"], "model.d_ff");
}

#[test]
fn an_unknown_key_exits_2_and_names_it() {
    usage_error(&["--set", "train.bacth=3"], "bacth");
}

#[test]
fn steps_with_baseline_exits_2() {
    usage_error(&["--strategy", "baseline", "--steps", "4"], "grad-accum");
}

#[test]
fn a_broken_toml_file_exits_2_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "[train]\nbatch = = 3\n").unwrap();
    usage_error(&["--config", bad.to_str().unwrap()], "bad.toml");
}

#[test]
fn a_missing_config_file_exits_2_and_lists_the_builtin_ones() {
    usage_error(&["--config", "nope.toml"], "tiny, gpu, h200");
}

#[test]
fn a_missing_data_file_exits_2() {
    usage_error(&["--data", "/nonexistent/text.txt"], "--data");
}

#[test]
fn a_bad_device_name_exits_2() {
    oomlab()
        .args(["train", "--device", "tpu"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cuda:N"));
}

#[test]
fn asking_for_cuda_without_a_gpu_exits_2_with_what_to_do() {
    // An empty CUDA_VISIBLE_DEVICES hides every GPU from the driver, so this path runs on
    // any machine.
    oomlab()
        .env("CUDA_VISIBLE_DEVICES", "")
        .args(["train", "--device", "cuda", "--max-steps", "2"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--device cpu"));
}

#[test]
fn auto_on_a_machine_without_a_gpu_says_so_in_one_line_and_uses_the_cpu() {
    let dir = tempfile::tempdir().unwrap();
    let out = oomlab()
        .env("CUDA_VISIBLE_DEVICES", "")
        .args(["train", "--max-steps", "2", "--json", "--out"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    let notes: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("no CUDA GPU"))
        .collect();
    assert_eq!(notes.len(), 1, "{stderr}");
    let s: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["device"]["kind"], "cpu");
}

#[test]
fn ctrl_c_stops_after_the_current_step_and_still_writes_the_summary() {
    let dir = tempfile::tempdir().unwrap();
    let bin = assert_cmd::cargo::cargo_bin("oomlab");
    let child = StdCommand::new(bin)
        .args([
            "train",
            "--device",
            "cpu",
            "--max-steps",
            "100000",
            "--json",
            "--out",
        ])
        .arg(dir.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Wait until a few steps are logged, then send SIGINT as a terminal would.
    let log = dir.path().join("steps.jsonl");
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    while std::fs::read_to_string(&log)
        .map(|s| s.lines().count())
        .unwrap_or(0)
        < 3
    {
        assert!(std::time::Instant::now() < deadline, "no steps logged");
        std::thread::sleep(Duration::from_millis(50));
    }
    let killed = StdCommand::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    let s: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["stop"]["kind"], "interrupted");
    let done = s["steps_completed"].as_u64().unwrap();
    assert!((3..100000).contains(&done));
    let logged = std::fs::read_to_string(&log).unwrap().lines().count() as u64;
    assert_eq!(logged, done, "every finished step is in the log");
    assert!(dir.path().join("summary.json").exists());
}

#[test]
fn dataset_prints_the_checked_in_sample() {
    let sample = std::fs::read_to_string("datasets/mix-sample.txt").unwrap();
    oomlab()
        .args(["dataset", "--task", "mix", "--chars", "4096", "--seed", "7"])
        .assert()
        .success()
        .stdout(sample);
}

#[test]
fn configs_lists_the_builtin_configs() {
    oomlab()
        .arg("configs")
        .assert()
        .success()
        .stdout(predicate::str::contains("tiny").and(predicate::str::contains("h200")));
}

#[test]
fn help_teaches_the_strategies() {
    oomlab()
        .args(["train", "--help"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("grad-accum").and(predicate::str::contains("micro-batch")),
        );
}

#[test]
fn a_run_over_its_memory_budget_stops_with_a_simulated_oom_and_exit_3() {
    let dir = tempfile::tempdir().unwrap();
    let out = oomlab()
        .args([
            "train",
            "--device",
            "cpu",
            "--max-steps",
            "5",
            "--json",
            "--memory-budget",
            "8MiB",
            "--out",
        ])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("SIMULATED"));
    let s: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["stop"]["kind"], "out-of-memory");
    let e = &s["stop"]["detail"];
    assert_eq!(e["simulated"], true);
    assert!(e["message"].as_str().unwrap().starts_with("SIMULATED"));
    assert!(e["requested"].as_u64().unwrap() > 0);
    assert_eq!(
        s["steps_completed"], 0,
        "the step hit by the OOM is not applied"
    );
    assert_eq!(s["oom_detector"], "host memory budget (simulated)");
    // The human summary says so too.
    let txt = std::fs::read_to_string(dir.path().join("summary.txt")).unwrap();
    assert!(txt.contains("SIMULATED out of memory"), "{txt}");
}

#[test]
fn a_budget_that_fits_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let s = train_json(dir.path(), &["--memory-budget", "4GiB"]);
    assert_eq!(s["stop"]["kind"], "completed");
    assert_eq!(s["steps_completed"], 30);
}

#[test]
fn the_host_heap_count_turned_off_trains_the_same_without_its_figures() {
    let counted_dir = tempfile::tempdir().unwrap();
    let counted = crate::util::train_json(counted_dir.path(), &["--max-steps", "3"]);
    assert!(counted["memory"]["host_heap_peak"].as_u64().unwrap() > 0);
    let off_dir = tempfile::tempdir().unwrap();
    let (off, _) = crate::util::train_json_with_env(
        off_dir.path(),
        &["--max-steps", "3", "--set", "memory.host_heap=off"],
        &[],
    );
    // Counting is all it changes: the same training, bit for bit.
    assert_eq!(off["final_loss"], counted["final_loss"]);
    let m = &off["memory"];
    assert!(m["host_heap_peak"].is_null(), "{m}");
    assert!(
        m["notes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n.as_str().unwrap().contains("memory.host_heap = \"off\"")),
        "{m}"
    );
    // The CPU's budget needs the count: refused, with what to do.
    let out = oomlab()
        .args([
            "train",
            "--device",
            "cpu",
            "--max-steps",
            "3",
            "--memory-budget",
            "4GiB",
            "--set",
            "memory.host_heap=off",
            "--out",
        ])
        .arg(off_dir.path().join("budget"))
        .output()
        .unwrap();
    assert_exit(&out, 2);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("drop that setting"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A value it does not know names the two it does.
    let out = oomlab()
        .args(["train", "--device", "cpu", "--max-steps", "3"])
        .args(["--set", "memory.host_heap=none", "--out"])
        .arg(off_dir.path().join("bogus"))
        .output()
        .unwrap();
    assert_exit(&out, 2);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("`count`") && stderr.contains("`off`"),
        "{stderr}"
    );
}

#[test]
fn every_run_reports_host_memory_reconciled_and_a_timeline() {
    let dir = tempfile::tempdir().unwrap();
    let s = train_json(dir.path(), &[]);
    let m = &s["memory"];
    assert_eq!(m["kind"], "host");
    let heap_peak = m["host_heap_peak"].as_u64().unwrap();
    let rss_peak = m["process_peak"].as_u64().unwrap();
    // Both read (the heap may exceed RSS: see below).
    assert!(heap_peak > 1 << 20 && rss_peak > 1 << 20, "{m}");
    let hwm = s["host_peak_rss"].as_u64().unwrap();
    let lines = m["reconciliation"].as_array().unwrap();
    // The end-of-run lines against figures read by other means: the heap at the end is
    // at most its peak (counting allocator), RSS at the end at most the kernel's VmHWM.
    // The lines add up: heap + outside it (- heap never made resident, where the heap
    // exceeds RSS: many compute threads each reserve a matrix buffer they barely write).
    let heap = lines[0]["bytes"].as_u64().unwrap();
    let rss = lines.last().unwrap()["bytes"].as_u64().unwrap();
    let line = |label: &str| {
        lines
            .iter()
            .find(|l| l["label"] == label)
            .map_or(0, |l| l["bytes"].as_u64().unwrap())
    };
    assert_eq!(
        heap + line("+ outside the heap count") - line("- heap not resident"),
        rss,
        "{lines:?}"
    );
    assert!(
        heap > 0 && heap <= heap_peak,
        "{lines:?} vs heap peak {heap_peak}"
    );
    assert!(rss > 1 << 20 && rss <= hwm, "{lines:?} vs VmHWM {hwm}");
    assert!(m["samples"].as_u64().unwrap() >= 2);
    let csv = std::fs::read_to_string(dir.path().join("memory.csv")).unwrap();
    assert!(csv.starts_with("t_s,step,"));
    assert!(csv.lines().count() >= 3);
}

#[test]
fn a_vram_budget_on_the_cpu_exits_2_and_points_at_memory_budget() {
    usage_error(&["--vram-budget", "4GiB"], "--memory-budget");
}

#[test]
fn a_nonsense_budget_size_exits_2() {
    usage_error(&["--memory-budget", "lots"], "8GiB");
}

#[test]
fn the_gpu_view_without_nvml_says_why_and_exits_1() {
    // A library path that does not exist makes NVML unavailable on any machine.
    oomlab()
        .env("OOMLAB_NVML_LIB", "/nonexistent/libnvidia-ml.so.1")
        .arg("gpu")
        .assert()
        .code(1)
        .stderr(predicate::str::contains("NVML unavailable"));
}

#[test]
fn kill_refuses_to_run_without_a_holder_list() {
    // Without NVML there is no list of holders, so nothing may be signalled. PID 2 is
    // not protected by the PID-1 rule: the refusal must come from the missing list.
    oomlab()
        .env("OOMLAB_NVML_LIB", "/nonexistent/libnvidia-ml.so.1")
        .args(["gpu", "--kill", "2", "--yes"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("NVML unavailable"));
}

#[test]
fn bad_inputs_exit_2_and_say_what_is_wrong() {
    let cases: [(&[&str], &str); 5] = [
        (&["estimate", "--card", "0GiB"], "at least 256.0 MiB"),
        (&["estimate", "--card", "1B"], "at least 256.0 MiB"),
        (&["estimate", "--card", "-5GiB"], "must be positive"),
        (&["train", "--leak-threshold", "-1"], "must be positive"),
        (
            &["report", "/nonexistent/oomlab-folder"],
            "/nonexistent/oomlab-folder",
        ),
    ];
    for (args, says) in cases {
        let out = oomlab().args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            crate::util::flat(&stderr).contains(says),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn flags_a_run_would_refuse_are_refused_up_front() {
    let cases: [(&[&str], &str); 6] = [
        (
            &["estimate", "--device", "cpu", "--vram-budget", "2GiB"],
            "--memory-budget",
        ),
        (
            &["estimate", "--card", "24GiB", "--vram-budget", "2GiB"],
            "give one of them",
        ),
        (
            &["compare", "--device", "cpu", "--vram-budget", "1GiB"],
            "--memory-budget",
        ),
        (
            &["estimate", "--model", "gpt2", "--batch", "0"],
            "--batch 0",
        ),
        (
            &["estimate", "--model", "gpt2", "--seq-len", "0"],
            "--seq-len 0",
        ),
        (&["estimate", "--model", "gpt2", "--gpus", "0"], "--gpus 0"),
    ];
    for (args, says) in cases {
        let out = oomlab()
            .args(args)
            .env("OOMLAB_NVML_LIB", "/nonexistent/libnvidia-ml.so.1")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            crate::util::flat(&stderr).contains(says),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn estimate_sizes_for_the_vram_budget() {
    let out = estimate_without_gpu(&[
        "--config",
        "gpu",
        "--batch",
        "96",
        "--strategy",
        "baseline",
        "--vram-budget",
        "7.5GiB",
    ]);
    assert_exit(&out, 0);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        crate::util::flat(&stdout).contains("Capacity: 7.50 GiB (--vram-budget"),
        "{stdout}"
    );
}

#[test]
fn a_budget_the_model_alone_crosses_stops_as_out_of_memory_before_the_first_step() {
    // One device: nothing to join; the model and optimizer crossed the budget.
    let dir = tempfile::tempdir().unwrap();
    let out = oomlab()
        .args(["train", "--device", "cpu", "--max-steps", "2", "--json"])
        .args(["--memory-budget", "1KiB", "--out"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_exit(&out, 3);
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["steps_completed"], 0);
    let message = s["stop"]["detail"]["message"].as_str().unwrap_or_default();
    assert!(message.starts_with("while building the model"), "{s}");
}

#[test]
fn a_new_run_is_refused_where_an_earlier_run_left_checkpoints() {
    let dir = tempfile::tempdir().unwrap();
    let run = |extra: &[&str]| {
        oomlab()
            .args([
                "train",
                "--device",
                "cpu",
                "--max-steps",
                "2",
                "--quiet",
                "--out",
            ])
            .arg(dir.path())
            .args(extra)
            .output()
            .unwrap()
    };
    assert_exit(&run(&["--checkpoint-every", "1"]), 0);
    let again = run(&["--strategy", "grad-accum"]);
    assert_exit(&again, 2);
    assert!(String::from_utf8_lossy(&again.stderr).contains("--resume"));
    // The earlier run's summary is untouched.
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("summary.json")).unwrap())
            .unwrap();
    assert_eq!(s["strategy"]["name"], "baseline");
}

#[test]
fn report_on_a_folder_no_command_wrote_is_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let out = oomlab().arg("report").arg(dir.path()).output().unwrap();
    assert_exit(&out, 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("holds neither compare.json"));
}
