//! AdamW's update of one parameter as a backend choice: on CUDA one kernel of oomlab's
//! (crate::cuda's adamw_kernels module), for f32 parameters unless `kernels.adamw=burn`;
//! elsewhere burn's tensor operations ([`burn_adamw_update`]).

use burn::prelude::*;
use burn::tensor::ops::FloatTensor;
use burn::tensor::{DType, TensorMetadata, TensorPrimitive};

use crate::ops::{custom_op, Operands};

/// What `kernels.adamw` asks for (read once: a run's graph does not change halfway):
/// `Some(true)` for `kernel`, `Some(false)` for `burn`, `None` otherwise.
pub fn adamw_setting() -> Option<bool> {
    crate::choices::chosen().adamw
}

/// One update's numbers: AdamW's settings, the step's learning rate and the moments' time
/// after it (1 at the first update).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AdamWScalars {
    /// β₁.
    pub beta_1: f32,
    /// β₂.
    pub beta_2: f32,
    /// ε.
    pub epsilon: f32,
    /// The decoupled weight decay.
    pub weight_decay: f32,
    /// The learning rate.
    pub lr: f64,
    /// The moments' time after this update.
    pub time: usize,
}

impl AdamWScalars {
    /// burn's `AdamWConfig` default β₁, which oomlab's AdamW uses.
    pub const BETA_1: f32 = 0.9;
    /// burn's default β₂.
    pub const BETA_2: f32 = 0.999;
    /// burn's default ε.
    pub const EPSILON: f32 = 1e-5;

    /// An update with burn's default β₁, β₂ and ε, the decoupled weight decay
    /// `weight_decay`, at `lr`, making the moments' time `time`.
    pub fn with_defaults(weight_decay: f32, lr: f64, time: usize) -> Self {
        AdamWScalars {
            beta_1: Self::BETA_1,
            beta_2: Self::BETA_2,
            epsilon: Self::EPSILON,
            weight_decay,
            lr,
            time,
        }
    }

    /// 1 − β₁ and 1 − β₂, in f32 as burn computes them.
    pub fn factors(&self) -> (f32, f32) {
        (1.0 - self.beta_1, 1.0 - self.beta_2)
    }

    /// The bias corrections 1 − β₁ᵗ and 1 − β₂ᵗ, in f32 as burn computes them.
    pub fn corrections(&self) -> (f32, f32) {
        let t = self.time as i32;
        (1f32 - self.beta_1.powi(t), 1f32 - self.beta_2.powi(t))
    }

    /// The factor the decoupled weight decay multiplies the parameter by, 1 − lr·λ (in f64,
    /// as burn computes it); `None` where lr·λ is 0 (burn multiplies by nothing then).
    pub fn keep(&self) -> Option<f64> {
        let rate = self.lr * self.weight_decay as f64;
        (rate != 0.0).then_some(1.0 - rate)
    }
}

/// A backend's AdamW update of one parameter. The default is burn's tensor operations.
pub trait AdamWKernelBackend: Backend {
    /// Whether [`Self::adamw_update`] is a kernel of the backend's own, which the optimizer
    /// should call for parameters of `dtype`: not by default.
    fn adamw_on_kernel(_dtype: DType) -> bool {
        false
    }

    /// The parameter and both moments after one update ([`burn_adamw_update`]).
    ///
    /// # Shapes
    /// - param, grad, moment_1, moment_2: one shape, any rank
    /// - output: the same shape, three times (param, moment_1, moment_2)
    fn adamw_update(
        param: FloatTensor<Self>,
        grad: FloatTensor<Self>,
        moment_1: FloatTensor<Self>,
        moment_2: FloatTensor<Self>,
        scalars: AdamWScalars,
    ) -> [FloatTensor<Self>; 3] {
        burn_adamw_update::<Self>(param, grad, moment_1, moment_2, scalars)
    }
}

/// [`AdamWKernelBackend::adamw_update`] as burn's `AdamW` computes an update with state
/// (not AMSGrad, no cautious weight decay): the same tensor operations in the same order,
/// on the tensors seen as vectors.
pub fn burn_adamw_update<B: Backend>(
    param: FloatTensor<B>,
    grad: FloatTensor<B>,
    moment_1: FloatTensor<B>,
    moment_2: FloatTensor<B>,
    scalars: AdamWScalars,
) -> [FloatTensor<B>; 3] {
    let shape = param.shape();
    let n = shape.num_elements();
    let flat = |t: FloatTensor<B>| {
        Tensor::<B, 1>::from_primitive(TensorPrimitive::Float(B::float_reshape(t, Shape::new([n]))))
    };
    let back = |t: Tensor<B, 1>| B::float_reshape(t.into_primitive().tensor(), shape.clone());
    let (param, grad) = (flat(param), flat(grad));
    let (factor_1, factor_2) = scalars.factors();
    let (correction_1, correction_2) = scalars.corrections();
    let moment_1 = flat(moment_1)
        .mul_scalar(scalars.beta_1)
        .add(grad.clone().mul_scalar(factor_1));
    let moment_2 = flat(moment_2)
        .mul_scalar(scalars.beta_2)
        .add(grad.square().mul_scalar(factor_2));
    let corrected_1 = moment_1.clone().div_scalar(correction_1);
    let corrected_2 = moment_2.clone().div_scalar(correction_2);
    let delta = corrected_1.div(corrected_2.sqrt().add_scalar(scalars.epsilon));
    let decayed = match scalars.keep() {
        Some(keep) => param.mul_scalar(keep),
        None => param,
    };
    let updated = decayed - delta.mul_scalar(scalars.lr);
    [back(updated), back(moment_1), back(moment_2)]
}

/// The CPU: burn's `AdamW` (oomlab's `FusedAdamW` calls it whole).
impl AdamWKernelBackend for burn::backend::Flex {}

/// burn's fusion backend: the update as one custom operation of the backend it wraps
/// (super::fusion_op), where it runs; else the default.
impl<B: burn_fusion::FusionBackend + AdamWKernelBackend> AdamWKernelBackend
    for burn_fusion::Fusion<B>
{
    fn adamw_on_kernel(dtype: DType) -> bool {
        B::adamw_on_kernel(dtype)
    }

    fn adamw_update(
        param: FloatTensor<Self>,
        grad: FloatTensor<Self>,
        moment_1: FloatTensor<Self>,
        moment_2: FloatTensor<Self>,
        scalars: AdamWScalars,
    ) -> [FloatTensor<Self>; 3] {
        let outs = [
            (param.shape.clone(), param.dtype),
            (moment_1.shape.clone(), moment_1.dtype),
            (moment_2.shape.clone(), moment_2.dtype),
        ];
        custom_op::<B, AdamWOp, 4, 3>(
            "oomlab_adamw",
            [param, grad, moment_1, moment_2],
            outs,
            AdamWOp(scalars),
        )
    }
}

/// The update's numbers, as fusion's custom operation.
#[derive(Debug, Clone, Copy)]
struct AdamWOp(AdamWScalars);

impl<B: AdamWKernelBackend> Operands<B, 4, 3> for AdamWOp {
    fn run(self, [param, grad, moment_1, moment_2]: [FloatTensor<B>; 4]) -> [FloatTensor<B>; 3] {
        B::adamw_update(param, grad, moment_1, moment_2, self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use burn::optim::{AdamWConfig, SimpleOptimizer};
    use burn::tensor::Distribution;

    type B = burn::backend::Flex;

    #[test]
    fn the_tensor_operations_are_burns_adamw_update_bit_for_bit() {
        let device = Default::default();
        for weight_decay in [0.0, 0.1] {
            let burn = AdamWConfig::new().with_weight_decay(weight_decay).build();
            let param = Tensor::<B, 2>::random([6, 9], Distribution::Normal(0.0, 1.0), &device);
            let grad = |seed| {
                B::seed(&device, seed);
                Tensor::<B, 2>::random([6, 9], Distribution::Normal(0.0, 0.1), &device)
            };
            let (param, state) = burn.step(1e-3, param, grad(1), None);
            let state = state.unwrap().momentum;
            let g2 = grad(2);
            let (theirs, their_state) = burn.step(
                2e-3,
                param.clone(),
                g2.clone(),
                Some(burn::optim::AdamWState::new(state.clone())),
            );
            let scalars = AdamWScalars {
                beta_1: 0.9,
                beta_2: 0.999,
                epsilon: 1e-5,
                weight_decay,
                lr: 2e-3,
                time: 2,
            };
            let p = |t: Tensor<B, 2>| t.into_primitive().tensor();
            let [ours, m, v] = burn_adamw_update::<B>(
                p(param),
                p(g2),
                p(state.moment_1),
                p(state.moment_2),
                scalars,
            );
            let t = |x| Tensor::<B, 2>::from_primitive(TensorPrimitive::Float(x)).into_data();
            let their_state = their_state.unwrap().momentum;
            assert_eq!(their_state.time, scalars.time);
            assert_eq!(t(ours), theirs.into_data());
            assert_eq!(t(m), their_state.moment_1.into_data());
            assert_eq!(t(v), their_state.moment_2.into_data());
        }
    }

    #[test]
    fn the_scalars_are_burns_corrections_and_decay() {
        let s = AdamWScalars {
            beta_1: 0.9,
            beta_2: 0.999,
            epsilon: 1e-5,
            weight_decay: 0.0,
            lr: 1e-3,
            time: 3,
        };
        assert_eq!(
            s.corrections(),
            (1f32 - 0.9f32.powi(3), 1f32 - 0.999f32.powi(3))
        );
        assert_eq!(s.keep(), None);
        let decayed = AdamWScalars {
            weight_decay: 0.5,
            ..s
        };
        assert_eq!(decayed.keep(), Some(1.0 - 1e-3 * 0.5f32 as f64));
    }
}
