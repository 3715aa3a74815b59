//! CPU benchmarks: one training step of the tiny config per strategy (baseline,
//! grad-accum, checkpointing), and the cost of one host memory reading (what the sampler
//! does every 10 ms). Run: `cargo bench`.
//! Figures belong in result files, not in tests.

// Benchmark setup: a failed unwrap is a broken benchmark.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion};
use oomlab::backend::{CpuBackend, CpuCheckpointed};
use oomlab::config::{load, ConfigSource};
use oomlab::data::Corpus;
use oomlab::probe::{HostProbe, MemoryProbe};
use oomlab::strategy::StepPlan;
use oomlab::train::Trainer;

fn train_step(c: &mut Criterion) {
    let (_, cfg) = load(&ConfigSource::Builtin("tiny".into()), &[]).unwrap();
    let corpus = Arc::new(Corpus::load(&cfg.data, cfg.model.seq_len).unwrap());
    let mut group = c.benchmark_group("tiny config, one optimizer step of 32 samples (CPU)");
    group.sample_size(20);
    for (name, plan) in [
        ("baseline 32x1", StepPlan::even(32, 1)),
        ("grad-accum 8x4", StepPlan::even(8, 4)),
    ] {
        let mut t = Trainer::<CpuBackend>::new(&cfg, corpus.clone(), plan, Default::default());
        let mut step = 0;
        group.bench_function(name, |b| {
            b.iter(|| {
                t.step(step).unwrap();
                step += 1;
            })
        });
    }
    // auto-halve's step is baseline's until an OOM happens; checkpointing is a backend.
    let mut t = Trainer::<CpuCheckpointed>::new(
        &cfg,
        corpus.clone(),
        StepPlan::even(32, 1),
        Default::default(),
    );
    let mut step = 0;
    group.bench_function("checkpointing 32x1", |b| {
        b.iter(|| {
            t.step(step).unwrap();
            step += 1;
        })
    });
    group.finish();
}

fn probe_read(c: &mut Criterion) {
    c.bench_function("host memory probe: one reading", |b| {
        b.iter(|| HostProbe.read())
    });
}

criterion_group!(benches, train_step, probe_read);
criterion_main!(benches);
