//! Gradient accumulation must change nothing but memory and time: K micro-batches with
//! the loss scaled by 1/K give the update of one full batch.

use std::sync::Arc;

use oomlab::backend::CpuBackend;
use oomlab::config::{load, ConfigSource, RunConfig, Split};
use oomlab::data::Corpus;
use oomlab::model::flat_params;
use oomlab::strategy::{for_split, StepPlan};
use oomlab::train::Trainer;

/// f32 on the CPU: summation order differs between one batch and four micro-batches, so
/// the updates agree to rounding, not bit for bit. With lr = 1, an SGD update is the
/// gradient itself, so this bounds the gradient difference.
const TOLERANCE: f32 = 1e-5;

fn config(split: Split) -> RunConfig {
    let overrides = vec![
        ("optim.kind".to_string(), toml::Value::String("sgd".into())),
        ("optim.lr".to_string(), toml::Value::Float(1.0)),
        ("train.batch".to_string(), toml::Value::Integer(16)),
        ("model.seq_len".to_string(), toml::Value::Integer(32)),
    ];
    let (_, mut cfg) = load(&ConfigSource::Builtin("tiny".into()), &overrides).unwrap();
    cfg.train.split = split;
    cfg
}

fn params_after_one_step(cfg: &RunConfig, plan: StepPlan) -> (Vec<f32>, Vec<f32>) {
    let corpus = Arc::new(Corpus::load(&cfg.data, cfg.model.seq_len).unwrap());
    let mut t = Trainer::<CpuBackend>::new(cfg, corpus, plan, Default::default());
    let before = flat_params(t.model());
    t.step(0).unwrap();
    (before, flat_params(t.model()))
}

fn max_abs_diff(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f32::max)
}

#[test]
fn four_micro_batches_give_the_update_of_one_full_batch() {
    let base = config(Split::Whole);
    let accum = config(Split::GradAccum { steps: 4 });
    let full_plan = for_split(base.train.split).plan(16);
    let accum_plan = for_split(accum.train.split).plan(16);
    assert_eq!((accum_plan.micro_batch, accum_plan.accumulation), (4, 4));

    let (before_full, after_full) = params_after_one_step(&base, full_plan);
    let (before_acc, after_acc) = params_after_one_step(&accum, accum_plan);
    assert_eq!(
        before_full, before_acc,
        "both runs must start from the same weights"
    );

    let update = max_abs_diff(&before_full, &after_full);
    assert!(
        update > 1e-3,
        "the step must move the weights (moved {update})"
    );
    let diff = max_abs_diff(&after_full, &after_acc);
    assert!(
        diff <= TOLERANCE,
        "grad-accum K=4 differs from the full batch by {diff} (> {TOLERANCE})"
    );
}

#[test]
fn a_single_micro_batch_is_not_the_full_batch() {
    // The check above would be hollow if any split gave the same update: one micro-batch
    // of the four (without the others) must differ by far more than the tolerance.
    let base = config(Split::Whole);
    let (_, after_full) = params_after_one_step(&base, StepPlan::even(16, 1));
    let (_, after_quarter) = params_after_one_step(&base, StepPlan::even(4, 1));
    assert!(max_abs_diff(&after_full, &after_quarter) > 100.0 * TOLERANCE);
}
