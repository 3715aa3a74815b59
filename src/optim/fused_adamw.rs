//! AdamW as burn's `SimpleOptimizer`, each update with state one call of the backend's
//! [`AdamWKernelBackend::adamw_update`] where the backend runs it on a kernel, burn's
//! `AdamW` itself otherwise (the first update, the CPU, `kernels.adamw=burn`). Its state is
//! burn's `AdamWState`, so its record, and a checkpoint's, is the one burn's `AdamW` writes
//! and reads.

use burn::optim::{
    AdamW, AdamWConfig, AdamWState, AdaptiveMomentumState, LearningRate, SimpleOptimizer,
};
use burn::prelude::*;
use burn::tensor::{DType, TensorPrimitive};

use super::{AdamWKernelBackend, AdamWScalars};

/// AdamW with burn's default β₁, β₂ and ε and a decoupled weight decay.
#[derive(Clone)]
pub struct FusedAdamW {
    burn: AdamW,
    weight_decay: f32,
}

impl FusedAdamW {
    /// With the decoupled weight decay `weight_decay`.
    pub fn new(weight_decay: f32) -> Self {
        let burn = AdamWConfig::new()
            .with_beta_1(AdamWScalars::BETA_1)
            .with_beta_2(AdamWScalars::BETA_2)
            .with_epsilon(AdamWScalars::EPSILON)
            .with_weight_decay(weight_decay)
            .build();
        FusedAdamW { burn, weight_decay }
    }

    /// The numbers of an update at `lr` that makes the moments' time `time`.
    fn scalars(&self, lr: LearningRate, time: usize) -> AdamWScalars {
        AdamWScalars::with_defaults(self.weight_decay, lr, time)
    }
}

impl<B: AdamWKernelBackend> SimpleOptimizer<B> for FusedAdamW {
    type State<const D: usize> = AdamWState<B, D>;

    fn step<const D: usize>(
        &self,
        lr: LearningRate,
        tensor: Tensor<B, D>,
        grad: Tensor<B, D>,
        state: Option<Self::State<D>>,
    ) -> (Tensor<B, D>, Option<Self::State<D>>) {
        let on_kernel = |s: &AdamWState<B, D>| {
            let m = &s.momentum;
            [&tensor, &grad, &m.moment_1, &m.moment_2]
                .iter()
                .all(|t| t.dtype() == DType::F32)
                && m.max_moment_2.is_none()
                && B::adamw_on_kernel(DType::F32)
        };
        let state = match state {
            Some(s) if on_kernel(&s) => s,
            state => return self.burn.step(lr, tensor, grad, state),
        };
        let AdaptiveMomentumState {
            time,
            moment_1,
            moment_2,
            ..
        } = state.momentum;
        let time = time + 1;
        let [param, moment_1, moment_2] = B::adamw_update(
            tensor.into_primitive().tensor(),
            grad.into_primitive().tensor(),
            moment_1.into_primitive().tensor(),
            moment_2.into_primitive().tensor(),
            self.scalars(lr, time),
        );
        let wrap = |t| Tensor::<B, D>::from_primitive(TensorPrimitive::Float(t));
        let momentum = AdaptiveMomentumState::new(time, wrap(moment_1), wrap(moment_2));
        (wrap(param), Some(AdamWState::new(momentum)))
    }

    fn to_device<const D: usize>(state: Self::State<D>, device: &B::Device) -> Self::State<D> {
        <AdamW as SimpleOptimizer<B>>::to_device(state, device)
    }
}
