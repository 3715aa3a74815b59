//! Unscaling gradients and finding inf/NaN among them, with one read from the device.

use burn::module::{AutodiffModule, ModuleVisitor, Param};
use burn::optim::GradientsParams;
use burn::prelude::*;
use burn::tensor::backend::AutodiffBackend;
use burn::tensor::FloatDType;

/// Multiplies every gradient of `model`'s parameters by `factor` (1/scale) and says
/// whether all of them are finite. Each gradient is summed in f32 on the device and only
/// the per-parameter sums are read back: an inf or NaN anywhere makes its sum non-finite.
pub fn unscale_and_check<B: AutodiffBackend, M: AutodiffModule<B>>(
    mut grads: GradientsParams,
    model: &M,
    factor: f64,
) -> (GradientsParams, bool) {
    let mut v = Unscale::<B::InnerBackend> {
        grads: &mut grads,
        factor,
        sums: Vec::new(),
    };
    model.visit(&mut v);
    let sums = std::mem::take(&mut v.sums);
    if sums.is_empty() {
        return (grads, true);
    }
    let finite = Tensor::cat(sums, 0)
        .into_data()
        .iter::<f32>()
        .all(f32::is_finite);
    (grads, finite)
}

/// `grads` of the half-precision leaves AMP casts once a step to ([`super::cast_once_a_step`]), each cast to f32 as the
/// autodiff cast's backward pass does (burn's `float_cast` of the gradient), under the ids
/// of `model`'s parameters (the same ids).
pub fn grads_in_f32<B: AutodiffBackend, M: AutodiffModule<B>>(
    mut grads: GradientsParams,
    model: &M,
) -> GradientsParams {
    model.visit(&mut InF32 { grads: &mut grads });
    grads
}

struct InF32<'a> {
    grads: &'a mut GradientsParams,
}

impl<B: AutodiffBackend> ModuleVisitor<B> for InF32<'_> {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<B, D>>) {
        if let Some(g) = self.grads.remove::<B::InnerBackend, D>(param.id) {
            self.grads.register(param.id, g.cast(FloatDType::F32));
        }
    }
}

struct Unscale<'a, I: Backend> {
    grads: &'a mut GradientsParams,
    factor: f64,
    sums: Vec<Tensor<I, 1>>,
}

impl<B: AutodiffBackend> ModuleVisitor<B> for Unscale<'_, B::InnerBackend> {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<B, D>>) {
        let Some(g) = self.grads.remove::<B::InnerBackend, D>(param.id) else {
            return;
        };
        let g = if self.factor == 1.0 {
            g
        } else {
            g.mul_scalar(self.factor)
        };
        self.sums
            .push(g.clone().cast(FloatDType::F32).sum().reshape([1]));
        self.grads.register(param.id, g);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::CpuBackend;
    use burn::nn::{Linear, LinearConfig};

    fn grads_of(model: &Linear<CpuBackend>, scale: f32) -> GradientsParams {
        let x = Tensor::<CpuBackend, 2>::ones([2, 3], &Default::default());
        let loss = model.forward(x).sum().mul_scalar(scale);
        GradientsParams::from_grads(loss.backward(), model)
    }

    #[test]
    fn finite_gradients_are_unscaled() {
        let model = LinearConfig::new(3, 2).init::<CpuBackend>(&Default::default());
        let plain = grads_of(&model, 1.0);
        let (unscaled, finite) = unscale_and_check(grads_of(&model, 1024.0), &model, 1.0 / 1024.0);
        assert!(finite);
        let id = model.weight.id;
        let a = plain.get::<burn::backend::Flex, 2>(id).unwrap().into_data();
        let b = unscaled
            .get::<burn::backend::Flex, 2>(id)
            .unwrap()
            .into_data();
        a.assert_approx_eq::<f32>(&b, burn::tensor::Tolerance::default());
    }

    #[test]
    fn an_overflowed_gradient_is_found() {
        let model = LinearConfig::new(3, 2).init::<CpuBackend>(&Default::default());
        let (_, finite) = unscale_and_check(grads_of(&model, f32::MAX), &model, 1.0);
        // d(sum * MAX)/dw = MAX * 2 rows -> inf in f32.
        assert!(!finite);
    }
}
