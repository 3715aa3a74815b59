//! A whole run: build, step until done or stopped, summarise.

use std::sync::Arc;
use std::time::Instant;

use burn::tensor::backend::AutodiffBackend;

use super::stop::StopFlag;
use super::trainer::{StepRecord, Trainer};
use crate::config::RunConfig;
use crate::data::Corpus;
use crate::model::ParamStats;
use crate::report::{DeviceInfo, RunSummary, StopReason, SUMMARY_SCHEMA_VERSION};
use crate::strategy;

/// Receives progress as the loop runs (the progress bar, the run folder's step log).
pub trait StepObserver {
    /// Before the first step.
    fn on_start(&mut self, _steps: usize) {}
    /// After every step.
    fn on_step(&mut self, _record: &StepRecord) {}
}

/// Trains with `cfg` on `device` until all steps ran, `stop` is requested, or a step
/// fails; the summary is returned in every case.
pub fn train<B: AutodiffBackend>(
    cfg: &RunConfig,
    corpus: Arc<Corpus>,
    device: B::Device,
    device_info: DeviceInfo,
    stop: &StopFlag,
    observer: &mut dyn StepObserver,
) -> RunSummary {
    let started = Instant::now();
    let strategy = strategy::from_spec(cfg.train.strategy);
    let plan = strategy.plan(cfg.train.batch);
    let vocab = corpus.vocab.len();
    let data = corpus.origin.clone();
    let mut trainer = Trainer::<B>::new(cfg, corpus, plan, device);
    let params = ParamStats::of(trainer.model());

    observer.on_start(cfg.train.max_steps);
    let mut records: Vec<StepRecord> = Vec::with_capacity(cfg.train.max_steps);
    let mut time_to_first_step = None;
    let mut reason = StopReason::Completed;
    for step in 0..cfg.train.max_steps {
        if stop.requested() {
            reason = StopReason::Interrupted;
            break;
        }
        match trainer.step(step) {
            Ok(rec) => {
                if step == 0 {
                    time_to_first_step = Some(started.elapsed().as_secs_f64());
                }
                observer.on_step(&rec);
                records.push(rec);
            }
            Err(e) => {
                reason = StopReason::Failed(e.to_string());
                break;
            }
        }
    }
    if reason == StopReason::Completed && stop.requested() && records.len() < cfg.train.max_steps {
        reason = StopReason::Interrupted;
    }

    let losses: Vec<f32> = records.iter().map(|r| r.loss).collect();
    let tail = (losses.len() / 10).max(1).min(losses.len());
    let final_loss = (!losses.is_empty())
        .then(|| losses[losses.len() - tail..].iter().sum::<f32>() / tail as f32);
    let mut steady: Vec<f64> = records
        .iter()
        .skip(1)
        .map(|r| r.duration.as_secs_f64())
        .collect();
    steady.sort_by(f64::total_cmp);
    let steady_step_s = (!steady.is_empty()).then(|| steady[steady.len() / 2]);

    RunSummary {
        schema_version: SUMMARY_SCHEMA_VERSION,
        oomlab_version: env!("CARGO_PKG_VERSION").to_string(),
        strategy: cfg.train.strategy,
        plan,
        effective_batch: plan.effective_batch(),
        device: device_info,
        model: cfg.model.clone(),
        params,
        data,
        vocab,
        steps_planned: cfg.train.max_steps,
        steps_completed: records.len(),
        stop: reason,
        first_loss: losses.first().copied(),
        final_loss,
        time_to_first_step_s: time_to_first_step,
        steady_step_s,
        samples_per_s: steady_step_s.map(|s| plan.effective_batch() as f64 / s),
        wall_s: started.elapsed().as_secs_f64(),
        host_peak_rss: crate::host_mem::peak_rss(),
    }
}
