//! The optimizer the config names, behind one type so the trainer is instantiated once.

use burn::optim::decay::WeightDecayConfig;
use burn::optim::{adaptor::OptimizerAdaptor, GradientsParams, Optimizer, Sgd, SgdConfig};

use crate::config::{OptimKind, OptimSpec};
use crate::model::Net;
use crate::optim::FusedAdamW;

/// AdamW (burn's, its update one kernel a parameter where the backend has one: crate::optim)
/// or SGD over a [`Net`].
#[derive(Clone)]
pub enum AnyOptim<B: super::TrainBackend> {
    /// AdamW.
    AdamW(OptimizerAdaptor<FusedAdamW, Net<B>, B>),
    /// SGD.
    Sgd(OptimizerAdaptor<Sgd<B::InnerBackend>, Net<B>, B>),
}

impl<B: super::TrainBackend> AnyOptim<B> {
    /// Builds the optimizer of `spec`.
    pub fn new(spec: &OptimSpec) -> Self {
        match spec.kind {
            OptimKind::AdamW => AnyOptim::AdamW(OptimizerAdaptor::from(FusedAdamW::new(
                spec.weight_decay as f32,
            ))),
            OptimKind::Sgd => {
                let decay = (spec.weight_decay > 0.0)
                    .then(|| WeightDecayConfig::new(spec.weight_decay as f32));
                AnyOptim::Sgd(SgdConfig::new().with_weight_decay(decay).init())
            }
        }
    }

    /// Moment tensors per parameter: 2 for AdamW, 0 for SGD (no momentum here).
    pub fn moments(&self) -> u64 {
        match self {
            AnyOptim::AdamW(_) => 2,
            AnyOptim::Sgd(_) => 0,
        }
    }

    /// Whether it holds state yet (burn makes it at the first update).
    pub fn holds_state(&self) -> bool {
        match self {
            AnyOptim::AdamW(o) => !o.to_record().is_empty(),
            AnyOptim::Sgd(o) => !o.to_record().is_empty(),
        }
    }

    /// One update of `model` with `grads`.
    pub fn step(&mut self, lr: f64, model: Net<B>, grads: GradientsParams) -> Net<B> {
        match self {
            AnyOptim::AdamW(o) => o.step(lr, model, grads),
            AnyOptim::Sgd(o) => o.step(lr, model, grads),
        }
    }
}
