//! One optimizer step at a time: the model, its optimizer and the data, nothing else.

use std::sync::Arc;
use std::time::{Duration, Instant};

use burn::optim::{GradientsAccumulator, GradientsParams};
use burn::prelude::*;
use burn::tensor::backend::AutodiffBackend;
use serde::Serialize;

use super::optim::AnyOptim;
use crate::config::RunConfig;
use crate::data::{BatchSampler, Corpus};
use crate::model::Net;
use crate::strategy::StepPlan;

/// A step that could not finish.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// The backend reported an error when synchronising after the step.
    #[error("step {step}: the device reported an error: {message}")]
    Device {
        /// The step.
        step: usize,
        /// The backend's message.
        message: String,
    },
}

/// What one optimizer step did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StepRecord {
    /// 0-based optimizer step.
    pub step: usize,
    /// Mean loss over the step's samples (mean of the micro-batch means).
    pub loss: f32,
    /// Samples per forward/backward pass.
    pub micro_batch: usize,
    /// Passes per optimizer step.
    pub accumulation: usize,
    /// Wall time of the step, data to updated weights, synchronised with the device.
    #[serde(with = "secs")]
    pub duration: Duration,
}

mod secs {
    use std::time::Duration;
    pub fn serialize<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(d.as_secs_f64())
    }
}

/// Holds the model and optimizer between steps.
pub struct Trainer<B: AutodiffBackend> {
    model: Option<Net<B>>,
    optim: AnyOptim<B>,
    lr: f64,
    sampler: BatchSampler,
    plan: StepPlan,
    device: B::Device,
}

impl<B: AutodiffBackend> Trainer<B> {
    /// Seeds the backend, builds the model and optimizer of `cfg` on `device`.
    pub fn new(cfg: &RunConfig, corpus: Arc<Corpus>, plan: StepPlan, device: B::Device) -> Self {
        B::seed(&device, cfg.train.seed);
        let model = Net::init(&cfg.model, corpus.vocab.len(), &device);
        Self {
            model: Some(model),
            optim: AnyOptim::new(&cfg.optim),
            lr: cfg.optim.lr,
            sampler: BatchSampler::new(corpus, cfg.model.seq_len, cfg.train.seed),
            plan,
            device,
        }
    }

    /// The model as it is now.
    pub fn model(&self) -> &Net<B> {
        // Only `step` takes the model out, and it always puts it back.
        self.model
            .as_ref()
            .unwrap_or_else(|| unreachable!("model is only moved inside step"))
    }

    /// The split every step uses.
    pub fn plan(&self) -> StepPlan {
        self.plan
    }

    /// Runs optimizer step `step`: its batch is split as the plan says, each micro-batch
    /// loss is scaled by `1 / accumulation`, so the summed gradient is that of the whole
    /// batch's mean loss.
    pub fn step(&mut self, step: usize) -> Result<StepRecord, TrainError> {
        let start = Instant::now();
        let StepPlan {
            micro_batch,
            accumulation,
        } = self.plan;
        let batch = self.sampler.batch(step, micro_batch * accumulation);
        let model = self
            .model
            .take()
            .unwrap_or_else(|| unreachable!("model is only moved inside step"));

        let mut loss_sum = 0.0f64;
        let grads = if accumulation == 1 {
            let b = batch.to_device::<B>(&self.device);
            let loss = model.loss(b.inputs, b.targets);
            let grads = GradientsParams::from_grads(loss.backward(), &model);
            loss_sum += f64::from(loss.into_scalar().elem::<f32>());
            grads
        } else {
            let mut acc = GradientsAccumulator::<Net<B>>::new();
            for i in 0..accumulation {
                let b = batch
                    .rows(i * micro_batch, micro_batch)
                    .to_device::<B>(&self.device);
                let loss = model.loss(b.inputs, b.targets);
                let scaled = loss.clone().div_scalar(accumulation as f64);
                acc.accumulate(
                    &model,
                    GradientsParams::from_grads(scaled.backward(), &model),
                );
                loss_sum += f64::from(loss.into_scalar().elem::<f32>());
            }
            acc.grads()
        };

        let model = self.optim.step(self.lr, model, grads);
        self.model = Some(model);
        // Wait for the device so the step's time is the step's, not the next one's.
        B::sync(&self.device).map_err(|e| TrainError::Device {
            step,
            message: format!("{e:?}"),
        })?;
        Ok(StepRecord {
            step,
            loss: (loss_sum / accumulation as f64) as f32,
            micro_batch,
            accumulation,
            duration: start.elapsed(),
        })
    }
}
