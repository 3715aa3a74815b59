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
use burn::tensor::TensorPrimitive;

use super::shard::ShardPlan;
use crate::model::Net;

/// Elements of every parameter of `model`, in visiting order.
pub fn param_elements<B: Backend, M: Module<B>>(model: &M) -> Vec<usize> {
    struct Sizes(Vec<usize>);
    impl<B: Backend> ModuleVisitor<B> for Sizes {
        fn visit_float<const D: usize>(&mut self, p: &Param<Tensor<B, D>>) {
            self.0.push(p.shape().num_elements());
        }
    }
    let mut s = Sizes(Vec::new());
    model.visit(&mut s);
    s.0
}

/// Replaces each parameter by what `f` returns for (its index, its value flattened, on
/// the inner backend), reshaped back and keeping its id and whether it requires a
/// gradient. The first error stops the calls to `f` and is returned.
fn map_params<B: AutodiffBackend>(
    model: Net<B>,
    mut f: impl FnMut(usize, Flat<B>) -> Result<Flat<B>, String>,
) -> Result<Net<B>, String> {
    struct Mapper<'a, B: AutodiffBackend> {
        index: usize,
        error: Option<String>,
        f: &'a mut dyn FnMut(usize, Flat<B>) -> Result<Flat<B>, String>,
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
            let dims: [usize; D] = tensor.shape().dims();
            let flat = tensor
                .clone()
                .inner()
                .reshape([dims.iter().product::<usize>()]);
            match (self.f)(index, flat) {
                Ok(value) => Param::from_mapped_value(
                    id,
                    Tensor::from_inner(value.reshape(dims)).set_require_grad(grad),
                    mapper,
                ),
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
) -> Result<Net<B>, String> {
    let peer = PeerId::from(rank);
    map_params(model, |_, value| {
        let sent = (rank == 0).then(|| value.into_primitive().tensor());
        collective::broadcast::<B::InnerBackend>(peer, sent)
            .map(|t| Tensor::from_primitive(TensorPrimitive::Float(t)))
            .map_err(|e| format!("burn-collective broadcast: {e:?}"))
    })
}

/// Most elements in one collective operation (64 MiB of f32). burn-collective 0.21 runs
/// each operation through its server thread, and every one costs a round trip and a
/// synchronisation; measured on the H200 with one operation per parameter, the `gpu`
/// config's step took 2.4 s instead of 0.08 s. Parameters are packed into buckets of up
/// to this size (as PyTorch's DDP packs 25 MiB buckets), at the cost of one bucket's
/// copy in memory.
pub const BUCKET_ELEMENTS: usize = 16 << 20;

/// Consecutive parameter indices, each group under [`BUCKET_ELEMENTS`] (a larger
/// parameter is a bucket of its own); only parameters `keep` accepts.
pub fn buckets(elements: &[usize], keep: impl Fn(usize) -> bool) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = Vec::new();
    let mut size = 0;
    for (i, &n) in elements.iter().enumerate().filter(|(i, _)| keep(*i)) {
        match out.last_mut() {
            Some(b) if size + n <= BUCKET_ELEMENTS => {
                b.push(i);
                size += n;
            }
            _ => {
                out.push(vec![i]);
                size = n;
            }
        }
    }
    out
}

type Flat<B> = Tensor<<B as AutodiffBackend>::InnerBackend, 1>;

/// Each parameter's tensor from `pick` (its index, id), flattened, in visiting order.
fn flatten_each<B: AutodiffBackend>(
    model: &Net<B>,
    mut pick: impl FnMut(usize, burn::module::ParamId, &Param<Tensor<B, 1>>) -> Option<Flat<B>>,
) -> Vec<Option<Flat<B>>> {
    // A visitor cannot be generic over the closure's rank, so each parameter is seen as
    // its id and flattened value through this adaptor.
    struct Visit<'a, B: AutodiffBackend> {
        index: usize,
        out: Vec<Option<Flat<B>>>,
        #[allow(clippy::type_complexity)]
        pick: &'a mut dyn FnMut(
            usize,
            burn::module::ParamId,
            &Param<Tensor<B, 1>>,
        ) -> Option<Flat<B>>,
    }
    impl<B: AutodiffBackend> ModuleVisitor<B> for Visit<'_, B> {
        fn visit_float<const D: usize>(&mut self, p: &Param<Tensor<B, D>>) {
            let n = p.shape().num_elements();
            let flat = Param::initialized(p.id, p.val().reshape([n]));
            let v = (self.pick)(self.index, p.id, &flat);
            self.out.push(v);
            self.index += 1;
        }
    }
    let mut v = Visit::<B> {
        index: 0,
        out: Vec::new(),
        pick: &mut pick,
    };
    model.visit(&mut v);
    v.out
}

/// `values[i]` laid out as one tensor per bucket, and back.
fn pack<B: AutodiffBackend>(values: &mut [Option<Flat<B>>], bucket: &[usize]) -> Option<Flat<B>> {
    let parts: Option<Vec<Flat<B>>> = bucket.iter().map(|&i| values[i].take()).collect();
    parts.map(|p| Tensor::cat(p, 0))
}

fn unpack<B: AutodiffBackend>(
    values: &mut [Option<Flat<B>>],
    bucket: &[usize],
    elements: &[usize],
    packed: Flat<B>,
) {
    let mut start = 0;
    for &i in bucket {
        let n = elements[i];
        values[i] = Some(packed.clone().slice([start..start + n]));
        start += n;
    }
}

/// The mean of every peer's gradients, through burn's all-reduce, a bucket of
/// parameters (in visiting order) per operation.
pub fn all_reduce_grads<B: AutodiffBackend>(
    model: &Net<B>,
    mut grads: GradientsParams,
    rank: usize,
) -> Result<GradientsParams, String> {
    let peer = PeerId::from(rank);
    let elements = param_elements(model);
    let mut ids = Vec::new();
    let mut values = flatten_each(model, |_, id, p| {
        ids.push(id);
        let n = p.shape().num_elements();
        // `remove` is typed by rank but does not check it; the reshape reads the
        // stored shape, whatever its rank, and flattens it.
        grads
            .remove::<B::InnerBackend, 1>(id)
            .map(|g| g.reshape([n]))
    });
    if values.iter().any(Option::is_none) {
        return Err("a parameter has no gradient: every peer must reduce the same tensors".into());
    }
    for bucket in buckets(&elements, |_| true) {
        let packed = pack::<B>(&mut values, &bucket).ok_or("a bucket lost a gradient")?;
        let reduced = collective::all_reduce::<B::InnerBackend>(
            peer,
            packed.into_primitive().tensor(),
            ReduceOperation::Mean,
        )
        .map_err(|e| format!("burn-collective all-reduce: {e:?}"))?;
        unpack::<B>(
            &mut values,
            &bucket,
            &elements,
            Tensor::from_primitive(TensorPrimitive::Float(reduced)),
        );
    }
    register_all::<B>(model, &mut grads, values);
    Ok(grads)
}

/// Puts each flattened gradient back at its parameter, in the parameter's shape.
fn register_all<B: AutodiffBackend>(
    model: &Net<B>,
    grads: &mut GradientsParams,
    values: Vec<Option<Flat<B>>>,
) {
    struct Put<'a, B: AutodiffBackend> {
        values: std::vec::IntoIter<Option<Flat<B>>>,
        grads: &'a mut GradientsParams,
    }
    impl<B: AutodiffBackend> ModuleVisitor<B> for Put<'_, B> {
        fn visit_float<const D: usize>(&mut self, p: &Param<Tensor<B, D>>) {
            if let Some(Some(v)) = self.values.next() {
                let dims: [usize; D] = p.shape().dims();
                self.grads
                    .register::<B::InnerBackend, D>(p.id, v.reshape(dims));
            }
        }
    }
    model.visit(&mut Put::<B> {
        values: values.into_iter(),
        grads,
    });
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

/// Every parameter as its owner updated it: each owner broadcasts its parameters, a
/// bucket at a time, the others receive them.
pub fn gather_shards<B: AutodiffBackend>(
    model: Net<B>,
    plan: &ShardPlan,
    rank: usize,
) -> Result<Net<B>, String> {
    let peer = PeerId::from(rank);
    let elements = param_elements(&model);
    let mut values = flatten_each(&model, |i, _, p| {
        (plan.owner.get(i) == Some(&rank)).then(|| p.val().inner())
    });
    for owner in 0..plan.world {
        for bucket in buckets(&elements, |i| plan.owner.get(i) == Some(&owner)) {
            let sent = if owner == rank {
                let parts: Option<Vec<Flat<B>>> =
                    bucket.iter().map(|&i| values[i].clone()).collect();
                let parts = parts.ok_or("an owned parameter is missing")?;
                Some(Tensor::cat(parts, 0).into_primitive().tensor())
            } else {
                None
            };
            let got = collective::broadcast::<B::InnerBackend>(peer, sent)
                .map_err(|e| format!("burn-collective broadcast: {e:?}"))?;
            if owner != rank {
                unpack::<B>(
                    &mut values,
                    &bucket,
                    &elements,
                    Tensor::from_primitive(TensorPrimitive::Float(got)),
                );
            }
        }
    }
    // Every entry is now filled: owned ones with this peer's update, the rest received.
    let mut values = values.into_iter();
    map_params(model, |_, mine| Ok(values.next().flatten().unwrap_or(mine)))
}
