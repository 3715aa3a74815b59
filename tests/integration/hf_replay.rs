//! The replayed estimate of a Hugging Face run (src/hf/replay.rs) against the H200: each
//! template of src/hf/templates/ replayed for the small models it was read from must give
//! the peaks their traces give; replayed for the built-in shapes, the peaks the H200
//! measured where those were traced, and within the issue's +-10% in every counted row of
//! the validation runs.

use std::collections::HashMap;
use std::path::PathBuf;

use oomlab::hf::allocator::CachingAllocator;
use oomlab::hf::replay::{self, dims, template_name};
use oomlab::hf::template::Template;
use oomlab::hf::{estimate, Precision, Setup, Shape};
use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every row of a bench run.
fn rows(run: &str) -> Vec<Value> {
    std::fs::read_to_string(root().join(run).join("rows.jsonl"))
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn setup(row: &Value) -> Setup {
    let precision = match row["precision"].as_str().unwrap() {
        "f32" => Precision::F32,
        "amp-bf16" => Precision::AmpBf16,
        "bf16" => Precision::Bf16,
        p => panic!("precision {p}"),
    };
    let mut s = Setup::new(
        row["seq"].as_u64().unwrap(),
        row["batch"].as_u64().unwrap(),
        precision,
    );
    s.checkpointing = row["checkpointing"].as_bool().unwrap();
    s
}

/// The trace replayed through the allocator's model from the state every row starts in
/// (cuBLAS's workspace and a small block made before recording): (reserved, allocated) peaks.
fn trace_peaks(run: &str, file: &str) -> (u64, u64) {
    let mut a = CachingAllocator::new();
    let _workspace = a.malloc(32 << 20);
    let _small = a.malloc(512);
    let mut live = HashMap::new();
    for (action, addr, size) in crate::hf_allocator::events(run, file) {
        match action.as_str() {
            "alloc" => {
                live.insert(addr, a.malloc(size));
            }
            "free_completed" => {
                if let Some(b) = live.remove(&addr) {
                    a.free(b);
                }
            }
            _ => {}
        }
    }
    (a.peak_reserved(), a.peak_allocated())
}

#[test]
fn each_template_replays_the_small_models_it_was_read_from() {
    let (mut checked, mut close) = (0, 0);
    for run in [
        "docs/results/2026-12-04-h200-hf-templates/templates/hf-memory",
        "docs/results/2026-12-04-h200-hf-templates/templates-gqa/hf-memory",
        "docs/results/2026-12-04-h200-hf-templates/templates-untied/hf-memory",
    ] {
        for row in rows(run) {
            let model = row["model"].as_str().unwrap();
            let shape =
                Shape::from_file(&root().join(format!("configs/hf-templates/{model}.json")))
                    .unwrap();
            let s = setup(&row);
            let name = template_name(&shape, &s).unwrap();
            // shape b of the grouped-query families (one key/value head) is not what the
            // templates were read from: its multi-query kernels differ
            let used = model.starts_with("gpt2") || !model.ends_with("-b");
            let t = Template::builtin(&name).unwrap().unwrap();
            let r = replay::replay(&t, &dims(&shape, &s)).unwrap();
            let (reserved, allocated) = trace_peaks(run, row["trace"]["file"].as_str().unwrap());
            if used {
                assert_eq!(
                    (r.reserved_peak, r.allocated_peak),
                    (reserved, allocated),
                    "{model} {name}"
                );
                // and what torch reported for the row: within the 2 MiB small segment the
                // context may hold on 63 of these 72 small rows; on nine (all f32 or AMP)
                // the allocator's model reserves a segment of 6 to 36 MiB more or fewer
                // than torch did for the same events (not found why; replay.rs says so)
                let measured = row["peak_reserved_bytes"].as_u64().unwrap();
                let off = r.reserved_peak.abs_diff(measured);
                assert!(
                    off <= 36 << 20,
                    "{model} {name}: {} vs {measured}",
                    r.reserved_peak
                );
                close += usize::from(off <= 2 << 20);
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 72);
    assert!(close >= 63, "{close} of 72 within 2 MiB");
}

#[test]
fn replayed_for_the_built_in_shapes_the_templates_give_the_traced_peaks() {
    let mut checked = 0;
    for run in [
        "docs/results/2026-12-04-h200-hf-allocator-trace/hf-memory",
        "docs/results/2026-12-04-h200-hf-allocator-trace2/hf-memory",
    ] {
        for row in rows(run) {
            let model = row["model"].as_str().unwrap();
            let shape = Shape::builtin(model).unwrap();
            let s = setup(&row);
            let r = replay::for_run(&shape, &s).unwrap().unwrap();
            let measured = row["peak_reserved_bytes"].as_u64().unwrap() as f64;
            let err = r.reserved_peak as f64 / measured - 1.0;
            // 0.5%: these rows ran large kernels the small models do not (a reduction's or
            // cuBLAS's workspace, asked for and freed at once), and some rows followed
            // another in the same worker
            assert!(err.abs() < 0.005, "{model} {}: {err:+.4}", r.template);
            checked += 1;
        }
    }
    assert_eq!(checked, 14);
}

#[test]
fn every_counted_row_of_the_validation_is_within_the_bound() {
    let mut worst: f64 = 0.0;
    let mut checked = 0;
    for run in [
        "docs/results/2026-12-04-h200-hf-fresh-rows/validation/hf-memory",
        "docs/results/2026-12-04-h200-hf-fresh-rows/holdout/hf-memory",
        "docs/results/2026-12-04-h200-hf-templates/holdout/hf-memory",
        "docs/results/2026-12-04-h200-hf-templates/holdout-untied/hf-memory",
    ] {
        for row in rows(run) {
            if row["status"] != "completed" {
                continue;
            }
            let model = row["model"].as_str().unwrap();
            let e = estimate(&Shape::builtin(model).unwrap(), setup(&row));
            assert!(e.replay.is_some(), "{model}: no template");
            let measured = row["peak_reserved_bytes"].as_u64().unwrap() as f64;
            let err = e.reserved.0 as f64 / measured - 1.0;
            assert!(err.abs() <= 0.10, "{model} {row}: {err:+.3}");
            worst = worst.max(err.abs());
            checked += 1;
        }
    }
    assert_eq!(checked, 45);
    assert!(worst < 0.05, "worst {worst}");
}
