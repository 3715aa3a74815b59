//! The optimizer the config names, behind one type so the trainer is instantiated once.

use burn::optim::decay::WeightDecayConfig;
use burn::optim::{adaptor::OptimizerAdaptor, GradientsParams, Optimizer, Sgd, SgdConfig};

use crate::config::{OptimKind, OptimSpec};
use crate::model::Net;
use crate::optim::FusedAdamW;
use crate::technique::OffloadAdamW;

/// AdamW (burn's, its update one kernel a parameter where the backend has one: crate::optim)
/// or SGD over a [`Net`].
#[derive(Clone)]
pub enum AnyOptim<B: super::TrainBackend> {
    /// AdamW.
    AdamW(OptimizerAdaptor<FusedAdamW, Net<B>, B>),
    /// SGD.
    Sgd(OptimizerAdaptor<Sgd<B::InnerBackend>, Net<B>, B>),
    /// AdamW with its moments in host memory (the `offload-optimizer` strategy).
    Offload(OffloadAdamW),
}

impl<B: super::TrainBackend> AnyOptim<B> {
    /// Builds the optimizer of `spec`; AdamW's moments in host memory with `offload`.
    pub fn new(spec: &OptimSpec, offload: bool) -> Self {
        if offload && spec.kind == OptimKind::AdamW {
            return AnyOptim::Offload(OffloadAdamW::new(spec.weight_decay as f32));
        }
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

    /// Moment tensors per parameter on the device: 2 for AdamW, 0 for SGD (no momentum
    /// here) and for AdamW whose moments are in host memory.
    pub fn moments(&self) -> u64 {
        match self {
            AnyOptim::AdamW(_) => 2,
            AnyOptim::Sgd(_) | AnyOptim::Offload(_) => 0,
        }
    }

    /// Whether it holds state yet (burn makes it at the first update).
    pub fn holds_state(&self) -> bool {
        match self {
            AnyOptim::AdamW(o) => !o.to_record().is_empty(),
            AnyOptim::Sgd(o) => !o.to_record().is_empty(),
            AnyOptim::Offload(o) => o.holds_state(),
        }
    }

    /// One update of `model` with `grads`.
    pub fn step(&mut self, lr: f64, model: Net<B>, grads: GradientsParams) -> Net<B> {
        match self {
            AnyOptim::AdamW(o) => o.step(lr, model, grads),
            AnyOptim::Sgd(o) => o.step(lr, model, grads),
            AnyOptim::Offload(o) => o.step(lr, model, grads),
        }
    }
}
