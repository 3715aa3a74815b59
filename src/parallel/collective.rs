//! The tensor traffic of data parallelism, all through burn's collective (burn-collective
//! 0.21): gradients all-reduced, the initial weights and, with `shard-optimizer`, each
//! owner's updated parameters broadcast. Parameters are walked in the model's visiting
//! order, which is the same on every peer (their parameter ids are not: burn draws them
//! at random when each peer builds its model).

use burn::collective::{self, PeerId, ReduceOperation};
use burn::module::{Module, ModuleMapper, ModuleVisitor, Param};
use burn::optim::GradientsParams;
use burn::prelude::*;
use burn::tensor::backend::AutodiffBackend;
use burn::tensor::ops::FloatTensor;
use burn::tensor::TensorPrimitive;

use super::error::ParallelError;
use super::shard::ShardPlan;
use crate::model::Net;

/// Replaces each parameter by what `f` returns for (its index, its value on the inner
/// backend), keeping its id and whether it requires a gradient. The first error stops the
/// calls to `f` and is returned.
fn map_params<B: AutodiffBackend>(
    model: Net<B>,
    mut f: impl FnMut(
        usize,
        FloatTensor<B::InnerBackend>,
    ) -> Result<FloatTensor<B::InnerBackend>, ParallelError>,
) -> Result<Net<B>, ParallelError> {
    struct Mapper<'a, B: AutodiffBackend> {
        index: usize,
        error: Option<ParallelError>,
        #[allow(clippy::type_complexity)]
        f: &'a mut dyn FnMut(
            usize,
            FloatTensor<B::InnerBackend>,
        ) -> Result<FloatTensor<B::InnerBackend>, ParallelError>,
    }
    impl<B: AutodiffBackend> ModuleMapper<B> for Mapper<'_, B> {
        fn map_float<const D: usize>(&mut self, param: Param<Tensor<B, D>>) -> Param<Tensor<B, D>> {
            let index = self.index;
            self.index += 1;
            if self.error.is_some() {
                return param;
            }
            let (id, tensor, mapper) = param.consume();
            let grad = tensor.is_require_grad();
            let inner = tensor.clone().inner().into_primitive().tensor();
            match (self.f)(index, inner) {
                Ok(value) => {
                    let value =
                        Tensor::<B::InnerBackend, D>::from_primitive(TensorPrimitive::Float(value));
                    Param::from_mapped_value(
                        id,
                        Tensor::from_inner(value).set_require_grad(grad),
                        mapper,
                    )
                }
                Err(e) => {
                    self.error = Some(e);
                    Param::from_mapped_value(id, tensor, mapper)
                }
            }
        }
    }
    let mut mapper = Mapper::<B> {
        index: 0,
        error: None,
        f: &mut f,
    };
    let model = model.map(&mut mapper);
    match mapper.error {
        None => Ok(model),
        Some(e) => Err(e),
    }
}

/// Every peer ends with rank 0's weights (each built its own model; with the same seed
/// they agree on the CPU, and this makes sure of it on any device).
pub fn broadcast_from_first<B: AutodiffBackend>(
    model: Net<B>,
    rank: usize,
) -> Result<Net<B>, ParallelError> {
    let peer = PeerId::from(rank);
    map_params(model, |_, value| {
        collective::broadcast::<B::InnerBackend>(peer, (rank == 0).then_some(value))
            .map_err(ParallelError::Broadcast)
    })
}

/// The mean of every peer's gradients, parameter by parameter in visiting order, through
/// burn's all-reduce.
pub fn all_reduce_grads<B: AutodiffBackend>(
    model: &Net<B>,
    grads: GradientsParams,
    rank: usize,
    bucket: Option<usize>,
    device: &B::Device,
) -> Result<GradientsParams, ParallelError> {
    if let Some(limit) = bucket {
        return super::bucket::all_reduce_grads(model, grads, rank, limit, device);
    }
    struct Reduce<B: AutodiffBackend> {
        peer: PeerId,
        grads: GradientsParams,
        error: Option<ParallelError>,
        _b: std::marker::PhantomData<B>,
    }
    impl<B: AutodiffBackend> ModuleVisitor<B> for Reduce<B> {
        fn visit_float<const D: usize>(&mut self, p: &Param<Tensor<B, D>>) {
            if self.error.is_some() {
                return;
            }
            let Some(g) = self.grads.remove::<B::InnerBackend, D>(p.id) else {
                self.error = Some(ParallelError::MissingGradient);
                return;
            };
            match collective::all_reduce::<B::InnerBackend>(
                self.peer,
                g.into_primitive().tensor(),
                ReduceOperation::Mean,
            ) {
                Ok(r) => self.grads.register::<B::InnerBackend, D>(
                    p.id,
                    Tensor::from_primitive(TensorPrimitive::Float(r)),
                ),
                Err(e) => self.error = Some(ParallelError::AllReduce(e)),
            }
        }
    }
    let mut r = Reduce::<B> {
        peer: PeerId::from(rank),
        grads,
        error: None,
        _b: std::marker::PhantomData,
    };
    model.visit(&mut r);
    match r.error {
        None => Ok(r.grads),
        Some(e) => Err(e),
    }
}

/// Only the gradients of the parameters `rank` owns: the optimizer then updates (and
/// keeps AdamW moments for) those alone.
pub fn keep_own<B: AutodiffBackend>(
    model: &Net<B>,
    mut grads: GradientsParams,
    plan: &ShardPlan,
    rank: usize,
) -> GradientsParams {
    struct Drop<'a, B: AutodiffBackend> {
        index: usize,
        plan: &'a ShardPlan,
        rank: usize,
        grads: &'a mut GradientsParams,
        _b: std::marker::PhantomData<B>,
    }
    impl<B: AutodiffBackend> ModuleVisitor<B> for Drop<'_, B> {
        fn visit_float<const D: usize>(&mut self, p: &Param<Tensor<B, D>>) {
            if self.plan.owner.get(self.index) != Some(&self.rank) {
                let _ = self.grads.remove::<B::InnerBackend, D>(p.id);
            }
            self.index += 1;
        }
    }
    model.visit(&mut Drop::<B> {
        index: 0,
        plan,
        rank,
        grads: &mut grads,
        _b: std::marker::PhantomData,
    });
    grads
}

/// Every parameter as its owner updated it: each owner broadcasts its parameters, the
/// others receive them.
pub fn gather_shards<B: AutodiffBackend>(
    model: Net<B>,
    plan: &ShardPlan,
    rank: usize,
    bucket: Option<usize>,
    device: &B::Device,
) -> Result<Net<B>, ParallelError> {
    if let Some(limit) = bucket {
        return super::bucket::gather_shards(model, plan, rank, limit, device);
    }
    let peer = PeerId::from(rank);
    map_params(model, |index, value| {
        let mine = plan.owner.get(index) == Some(&rank);
        collective::broadcast::<B::InnerBackend>(peer, mine.then_some(value))
            .map_err(ParallelError::Broadcast)
    })
}
