//! GPU-only: a step that does not fit the VRAM budget is caught, never applied, and memory
//! returns to its baseline. Ignored by default (CI has no GPU); run on the H200 with
//! `scripts/h200-memory.sh`, which runs this binary with `--ignored --nocapture`.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use burn::backend::cuda::CudaDevice;
use burn::tensor::backend::Backend;
use oomlab::backend::{cuda_allocator, CudaBackend};
use oomlab::config::{load, ConfigSource};
use oomlab::data::Corpus;
use oomlab::device::{configure_kernel_cache, default_kernel_cache, hold_budget};
use oomlab::model::flat_params;
use oomlab::oom::{DevicePanicDetector, OomKind};
use oomlab::probe::{MemoryProbe, NvmlProbe, NvmlView};
use oomlab::strategy::StepPlan;
use oomlab::train::{Instruments, TrainError, Trainer};
use oomlab::units::{parse_size, Bytes};

const CYCLES: usize = 5;

#[test]
#[ignore = "needs a CUDA GPU: run on the GPU machine with --ignored"]
fn steps_past_the_vram_budget_are_caught_discarded_and_memory_returns_to_baseline() {
    println!("{}", configure_kernel_cache(default_kernel_cache()));
    let budget =
        parse_size(&std::env::var("OOMLAB_TEST_VRAM_BUDGET").unwrap_or("4GiB".into())).unwrap();
    let setup = hold_budget(0, budget).expect("--vram-budget setup");
    println!("{}", setup.note);
    let view = NvmlView::init().expect("NVML");
    let nvml = NvmlProbe::new(view, 0);
    let allocator = cuda_allocator(0);

    let over = vec![("train.batch".to_string(), toml::Value::Integer(32))];
    let (_, cfg) = load(&ConfigSource::Builtin("tiny".into()), &over).unwrap();
    let corpus = Arc::new(Corpus::load(&cfg.data, cfg.model.seq_len).unwrap());
    let small = StepPlan {
        micro_batch: 32,
        accumulation: 1,
    };
    let huge = StepPlan {
        micro_batch: 32 * 512,
        accumulation: 1,
    };
    let device = CudaDevice::new(0);
    let mut t = Trainer::<CudaBackend>::with_instruments(
        &cfg,
        corpus,
        small,
        device.clone(),
        Instruments {
            detector: Arc::new(DevicePanicDetector::install()),
            allocator: Some(allocator.clone()),
            memory: Some(Arc::new(nvml.clone())),
        },
    );

    let mut step = 0;
    for _ in 0..2 {
        let r = t.step(step).expect("warm-up steps fit");
        println!("warm-up step {step}: loss {:.4}", r.loss);
        step += 1;
    }
    CudaBackend::memory_cleanup(&device);
    let _ = CudaBackend::sync(&device);
    let base_alloc = allocator.stats().unwrap();
    let base_nvml = nvml
        .read()
        .process
        .expect("NVML attributes VRAM to this PID");
    println!(
        "baseline after warm-up and cleanup: allocator {} in use / {} reserved, NVML process {}",
        base_alloc.in_use, base_alloc.reserved, base_nvml
    );

    // Measure every cycle first, assert afterwards, so one GPU run reports everything.
    let mut caught = 0;
    let mut problems = Vec::new();
    for cycle in 0..CYCLES {
        let before = flat_params(t.model());
        t.set_plan(huge);
        let err = t
            .step(step)
            .expect_err("a 16384-sample step cannot fit the budget");
        let TrainError::OutOfMemory(e) = err else {
            panic!("expected an OOM, got {err}");
        };
        assert_eq!(e.kind, OomKind::OutOfMemory, "{e:?}");
        assert!(!e.simulated);
        caught += 1;
        assert_eq!(
            flat_params(t.model()),
            before,
            "cycle {cycle}: the failed step leaked into the model"
        );
        let after_alloc = allocator.stats().unwrap();
        let after_nvml = nvml.read().process.unwrap();
        println!(
            "cycle {cycle}: caught {} in the {} phase (requested {}); right after recovery: allocator {} in use / {} reserved, NVML process {}",
            e.label(),
            e.phase,
            e.requested.map(|b| b.to_string()).unwrap_or("n/a".into()),
            after_alloc.in_use,
            after_alloc.reserved,
            after_nvml
        );
        if after_alloc.in_use != base_alloc.in_use {
            problems.push(format!(
                "cycle {cycle}: {} in use after recovery, baseline {}",
                after_alloc.in_use, base_alloc.in_use
            ));
        }
        let tolerance = Bytes((base_nvml.0 / 100).max(16 << 20));
        if after_nvml.0.abs_diff(base_nvml.0) > tolerance.0 {
            problems.push(format!("cycle {cycle}: NVML {after_nvml} after recovery, baseline {base_nvml} (tolerance {tolerance})"));
        }

        t.set_plan(small);
        let r = t.step(step).expect("the same step fits at the small batch");
        assert!(r.loss.is_finite() && r.loss > 0.0, "loss {}", r.loss);
        assert_ne!(
            flat_params(t.model()),
            before,
            "the retried step must be applied"
        );
        CudaBackend::memory_cleanup(&device);
        let _ = CudaBackend::sync(&device);
        let post = allocator.stats().unwrap();
        println!(
            "cycle {cycle}: step {step} retried at {} samples: loss {:.4}; after it and a cleanup: allocator {} in use / {} reserved, NVML process {}",
            small.micro_batch,
            r.loss,
            post.in_use,
            post.reserved,
            nvml.read().process.unwrap()
        );
        step += 1;
    }
    println!("OOMs caught: {caught} of {CYCLES} attempts that could not fit; silent OOMs: 0");
    assert!(
        problems.is_empty(),
        "memory did not return to baseline:\n{}",
        problems.join("\n")
    );
    drop(setup);
}
