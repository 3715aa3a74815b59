//! Gradients all-reduced and shards gathered in buckets: parameters flattened and
//! concatenated, one collective operation per bucket instead of one per parameter
//! (`train.bucket_mib`, 64 MiB by default; 0 goes back to one per parameter).
//!
//! Measured on the H200 (docs/results/2026-12-01-h200-parallel-one-gpu), two peers on
//! one GPU, `gpu` config: 2.58 s per step with one operation per parameter, 0.13 s with
//! buckets. Without a flush of each peer's fusion stream around every operation, the
//! first bucketed run died in burn-fusion before its first step ("Should have handle for
//! tensor", then "Ordering is bigger than operations"): tensors made lazily on one
//! thread's stream (the reshape, the concatenation) were consumed on the collective
//! server's and the other peer's streams. So each peer here syncs before and after
//! every operation.

use burn::collective::{self, PeerId, ReduceOperation};
use burn::module::{Module, ModuleMapper, ModuleVisitor, Param};
use burn::optim::GradientsParams;
use burn::prelude::*;
use burn::tensor::backend::AutodiffBackend;
use burn::tensor::TensorPrimitive;

use super::elements::param_elements;
use super::error::ParallelError;
use super::shard::ShardPlan;
use crate::model::Net;

/// Replaces each parameter by what `f` returns for (its index, its value flattened, on
/// the inner backend), reshaped back and keeping its id and whether it requires a
/// gradient. The first error stops the calls to `f` and is returned.
fn map_flat<B: AutodiffBackend>(
    model: Net<B>,
    mut f: impl FnMut(usize, Flat<B>) -> Result<Flat<B>, ParallelError>,
) -> Result<Net<B>, ParallelError> {
    struct Mapper<'a, B: AutodiffBackend> {
        index: usize,
        error: Option<ParallelError>,
        f: &'a mut dyn FnMut(usize, Flat<B>) -> Result<Flat<B>, ParallelError>,
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

/// Consecutive parameter indices, each group of at most `limit` elements (a larger
/// parameter is a bucket of its own); only parameters `keep` accepts. burn-collective
/// 0.21 runs each operation through its server thread, each a round trip; measured on
/// the H200 with one operation per parameter, two peers sharing one GPU took 2.4 s per
/// step of the `gpu` config where one device alone took 0.08 s. PyTorch's DDP packs 25
/// MiB buckets for the same reason, at the cost of one bucket's copy in memory.
pub fn buckets(elements: &[usize], limit: usize, keep: impl Fn(usize) -> bool) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = Vec::new();
    let mut size = 0;
    for (i, &n) in elements.iter().enumerate().filter(|(i, _)| keep(*i)) {
        match out.last_mut() {
            Some(b) if size + n <= limit => {
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
        #[allow(clippy::single_range_in_vec_init)] // one dimension: its range
        let part = packed.clone().slice([start..start + n]);
        values[i] = Some(part);
        start += n;
    }
}

/// The mean of every peer's gradients, through burn's all-reduce, a bucket of
/// parameters (in visiting order) per operation.
pub(super) fn all_reduce_grads<B: AutodiffBackend>(
    model: &Net<B>,
    mut grads: GradientsParams,
    rank: usize,
    limit: usize,
    device: &B::Device,
) -> Result<GradientsParams, ParallelError> {
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
        return Err(ParallelError::MissingGradient);
    }
    for bucket in buckets(&elements, limit, |_| true) {
        let packed = pack::<B>(&mut values, &bucket).ok_or(ParallelError::BucketLostGradient)?;
        let _ = B::sync(device);
        let reduced = collective::all_reduce::<B::InnerBackend>(
            peer,
            packed.into_primitive().tensor(),
            ReduceOperation::Mean,
        )
        .map_err(ParallelError::AllReduce)?;
        let _ = B::sync(device);
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

/// Every parameter as its owner updated it: each owner broadcasts its parameters, a
/// bucket at a time, the others receive them.
pub(super) fn gather_shards<B: AutodiffBackend>(
    model: Net<B>,
    plan: &ShardPlan,
    rank: usize,
    limit: usize,
    device: &B::Device,
) -> Result<Net<B>, ParallelError> {
    let peer = PeerId::from(rank);
    let elements = param_elements(&model);
    let mut values = flatten_each(&model, |i, _, p| {
        (plan.owner.get(i) == Some(&rank)).then(|| p.val().inner())
    });
    for owner in 0..plan.world {
        for bucket in buckets(&elements, limit, |i| plan.owner.get(i) == Some(&owner)) {
            let sent = if owner == rank {
                let parts: Option<Vec<Flat<B>>> =
                    bucket.iter().map(|&i| values[i].clone()).collect();
                let parts = parts.ok_or(ParallelError::MissingOwned)?;
                Some(Tensor::cat(parts, 0).into_primitive().tensor())
            } else {
                None
            };
            let _ = B::sync(device);
            let got = collective::broadcast::<B::InnerBackend>(peer, sent)
                .map_err(ParallelError::Broadcast)?;
            let _ = B::sync(device);
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
    map_flat(model, |_, mine| Ok(values.next().flatten().unwrap_or(mine)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_keep_the_order_and_stay_under_the_limit_unless_one_parameter_is_larger() {
        let sizes = [3, 4, 2, 10, 1, 1];
        assert_eq!(
            buckets(&sizes, 7, |_| true),
            vec![vec![0, 1], vec![2], vec![3], vec![4, 5]]
        );
        // Only one owner's parameters, as the sharded gather asks.
        assert_eq!(buckets(&sizes, 100, |i| i % 2 == 1), vec![vec![1, 3, 5]]);
        assert!(buckets(&sizes, 7, |_| false).is_empty());
    }
}
