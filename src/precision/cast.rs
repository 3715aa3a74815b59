//! Casting a model's parameters, keeping their ids so gradients and optimizer state still
//! find them.

use burn::module::{ModuleMapper, Param};
use burn::prelude::*;
use burn::tensor::backend::AutodiffBackend;
use burn::tensor::FloatDType;

use crate::model::Net;

/// The half-precision copy of `model` the forward pass of AMP runs on. Each parameter is
/// the autodiff cast of the f32 one: not a new leaf, so the backward pass flows through the
/// cast (which turns the gradient back into f32) to the f32 parameter, and
/// `GradientsParams::from_grads(grads, &f32_model)` finds it there.
pub fn compute_copy<B: AutodiffBackend>(model: Net<B>, dtype: FloatDType) -> Net<B> {
    model.map(&mut CastMapper {
        dtype,
        leaves: false,
    })
}

/// Whether AMP casts the parameters once a step (`kernels.amp_cast` says `step`; not
/// the default): then every micro-batch of a step runs on one half-precision copy, each
/// parameter cast once, outside autodiff, as a leaf of its own with the f32 parameter's id
/// ([`into_half`], as pure half makes them). Each micro-batch's backward pass ends at these
/// leaves, and [`super::grads_in_f32`] casts their gradients to f32 as the autodiff cast of
/// [`compute_copy`] would have: the same values (a CPU test holds them to it bit for bit,
/// and on an H100 the gpu config's final loss after 20 steps was the same), but the
/// parameters are cast once a step instead of once a micro-batch. Not the default: on an
/// H100 (docs/results/2026-12-06-h100-grads-together, `gpu-ac6cb6e/`) the gpu config's
/// AMP bf16 step did not come out shorter within that machine's noise, and with it a new
/// user's first AMP bf16 step compiled 3 kernels beyond the shipped pack on the gpu
/// config and 4 on the h200 config (`verify-ac6cb6e/`; most likely its fused casts, which
/// meet fusion elsewhere than the autodiff casts do).
pub fn cast_once_a_step() -> bool {
    oomlab_kernels::chosen().amp_cast == Some(true)
}

/// `model` stored in half: every parameter becomes a new half-precision leaf with the same
/// id. The optimizer then keeps its state in half as well.
pub fn into_half<B: AutodiffBackend>(model: Net<B>, dtype: FloatDType) -> Net<B> {
    model.map(&mut CastMapper {
        dtype,
        leaves: true,
    })
}

struct CastMapper {
    dtype: FloatDType,
    leaves: bool,
}

impl<B: AutodiffBackend> ModuleMapper<B> for CastMapper {
    fn map_float<const D: usize>(&mut self, param: Param<Tensor<B, D>>) -> Param<Tensor<B, D>> {
        let (id, tensor, mapper) = param.consume();
        let cast = if self.leaves {
            // Cast outside autodiff, then track the result as a leaf of its own.
            let grad = tensor.is_require_grad();
            Tensor::from_inner(tensor.inner().cast(self.dtype)).set_require_grad(grad)
        } else {
            tensor.cast(self.dtype)
        };
        Param::from_mapped_value(id, cast, mapper)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::CpuBackend;
    use crate::config::{load, ConfigSource};
    use crate::model::ParamStats;
    use burn::optim::GradientsParams;

    fn net() -> Net<CpuBackend> {
        let (_, cfg) = load(&ConfigSource::Builtin("tiny".into()), &[]).unwrap();
        let net = Net::init(&cfg.model, 47, &Default::default());
        // burn initialises parameters lazily; a clone of an uninitialised model would
        // initialise its own, different, tensors.
        let _ = ParamStats::of(&net);
        net
    }

    fn batch() -> (Tensor<CpuBackend, 2, Int>, Tensor<CpuBackend, 2, Int>) {
        let dev = Default::default();
        let x = Tensor::<CpuBackend, 1, Int>::arange(0..128, &dev)
            .remainder_scalar(47)
            .reshape([2, 64]);
        let y = Tensor::<CpuBackend, 1, Int>::arange(1..129, &dev)
            .remainder_scalar(47)
            .reshape([2, 64]);
        (x, y)
    }

    #[test]
    fn amp_runs_in_half_and_hands_back_f32_gradients() {
        for dtype in [FloatDType::BF16, FloatDType::F16] {
            let model = net();
            let half = compute_copy(model.clone(), dtype);
            let name = burn::tensor::DType::from(dtype).name().to_string();
            assert_eq!(ParamStats::of(&half).dtypes, vec![name.clone()]);
            assert_eq!(ParamStats::of(&model).dtypes, vec!["f32".to_string()]);
            let (x, y) = batch();
            let loss = half.loss(x, y);
            assert_eq!(
                loss.dtype(),
                burn::tensor::DType::F32,
                "{name}: loss in f32"
            );
            let value: f32 = loss.clone().into_scalar().elem();
            assert!(value.is_finite() && value > 1.0, "{name}: loss {value}");
            let grads = GradientsParams::from_grads(loss.backward(), &model);
            // Every parameter has a gradient, in f32 (grad_bits checks both).
            let seen = grad_bits(&grads, &model).len();
            assert!(seen > 10, "{name}: {seen} gradients");
        }
    }

    /// Every parameter's gradient in `grads`, as f32 bits, in `model`'s order.
    fn grad_bits(grads: &GradientsParams, model: &Net<CpuBackend>) -> Vec<Vec<u32>> {
        struct Bits<'a>(&'a GradientsParams, Vec<Vec<u32>>);
        impl<B: AutodiffBackend> burn::module::ModuleVisitor<B> for Bits<'_> {
            fn visit_float<const D: usize>(&mut self, p: &Param<Tensor<B, D>>) {
                let g = self
                    .0
                    .get::<B::InnerBackend, D>(p.id)
                    .expect("every parameter has a gradient");
                assert_eq!(g.dtype(), burn::tensor::DType::F32);
                let values = g.into_data().to_vec::<f32>().expect("f32 values");
                self.1.push(values.iter().map(|v| v.to_bits()).collect());
            }
        }
        let mut bits = Bits(grads, Vec::new());
        model.visit(&mut bits);
        bits.1
    }

    #[test]
    fn casting_once_a_step_gives_the_gradients_of_casting_in_each_micro_batch() {
        use burn::optim::GradientsAccumulator;
        for dtype in [FloatDType::BF16, FloatDType::F16] {
            let model = net();
            let (x, y) = batch();
            let half = into_half(model.clone(), dtype);
            let mut each = GradientsAccumulator::<Net<CpuBackend>>::new();
            let mut once = GradientsAccumulator::<Net<CpuBackend>>::new();
            // Two micro-batches, their gradients summed as the trainer sums them.
            for row in 0..2 {
                let x = x.clone().slice([row..row + 1, 0..64]);
                let y = y.clone().slice([row..row + 1, 0..64]);
                let loss = compute_copy(model.clone(), dtype).loss(x.clone(), y.clone());
                each.accumulate(&model, GradientsParams::from_grads(loss.backward(), &model));
                let loss = half.clone().loss(x, y);
                let grads = GradientsParams::from_grads(loss.backward(), &half);
                once.accumulate(&model, super::super::grads_in_f32(grads, &model));
            }
            let (each, once) = (each.grads(), once.grads());
            let name = burn::tensor::DType::from(dtype).name().to_string();
            let (each, once) = (grad_bits(&each, &model), grad_bits(&once, &model));
            assert!(each.len() > 10, "{name}: {} gradients", each.len());
            assert_eq!(each.len(), once.len(), "{name}: gradient counts");
            for (i, (a, b)) in each.iter().zip(&once).enumerate() {
                assert!(a == b, "{name}: parameter {i}'s gradient differs");
                assert!(
                    a.iter().any(|&v| v != 0),
                    "{name}: parameter {i}'s gradient is zero"
                );
            }
        }
    }

    #[test]
    fn pure_half_keeps_ids_and_stores_half() {
        let model = net();
        let ids_before = crate::model::param_ids(&model);
        let half = into_half(model, FloatDType::BF16);
        assert_eq!(crate::model::param_ids(&half), ids_before);
        assert_eq!(ParamStats::of(&half).dtypes, vec!["bf16".to_string()]);
        let (x, y) = batch();
        let loss = half.loss(x, y);
        let grads = GradientsParams::from_grads(loss.backward(), &half);
        assert_eq!(grads.len(), ids_before.len());
    }
}
