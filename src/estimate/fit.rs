//! What fits: the largest batch for a capacity, the smallest card for a batch.

use super::cards::{cards, Card};
use super::model::{Estimate, Target};
use crate::config::{RunConfig, Split};
use crate::strategy::{for_split, StepPlan};
use crate::units::Bytes;

/// The largest `n` in 1..=2^24 with `peak(n) <= capacity`, for a `peak` that grows with
/// `n`; `None` when even 1 does not fit.
pub fn largest(capacity: Bytes, peak: impl Fn(usize) -> Bytes) -> Option<usize> {
    const MAX: usize = 1 << 24;
    if peak(1) > capacity {
        return None;
    }
    let (mut fits, mut fails) = (1usize, None::<usize>);
    while fails.is_none() {
        let next = fits * 2;
        if next > MAX {
            return Some(fits);
        }
        if peak(next) <= capacity {
            fits = next;
        } else {
            fails = Some(next);
        }
    }
    let mut fails = fails.unwrap_or(MAX);
    while fails - fits > 1 {
        let mid = fits + (fails - fits) / 2;
        if peak(mid) <= capacity {
            fits = mid;
        } else {
            fails = mid;
        }
    }
    Some(fits)
}

/// The largest batch `cfg`'s strategy can run on `capacity`: the largest multiple of K
/// for grad-accum, the largest micro-batch (one pass per step) for auto-halve, the largest
/// whole batch otherwise.
pub fn largest_batch(
    cfg: &RunConfig,
    vocab: usize,
    target: Target,
    capacity: Bytes,
) -> Option<usize> {
    match cfg.train.split {
        Split::GradAccum { steps } => largest(capacity, |n| {
            Estimate::with_plan(cfg, vocab, target, StepPlan::even(n, steps)).peak
        })
        .map(|n| n * steps),
        Split::AutoHalve(_) => largest_micro_batch(cfg, vocab, target, capacity),
        Split::Whole => largest(capacity, |n| Estimate::at_batch(cfg, vocab, target, n).peak),
    }
}

/// The largest batch per device when the optimizer state is split over `shards`
/// devices (`shard-optimizer`: one pass per step on each device).
pub fn largest_sharded_batch(
    cfg: &RunConfig,
    vocab: usize,
    target: Target,
    capacity: Bytes,
    shards: usize,
) -> Option<usize> {
    largest(capacity, |n| {
        Estimate::sharded(cfg, vocab, target, StepPlan::even(n, 1), shards).peak
    })
}

/// The largest micro-batch one pass can take on `capacity` (what auto-halve's search
/// looks for).
pub fn largest_micro_batch(
    cfg: &RunConfig,
    vocab: usize,
    target: Target,
    capacity: Bytes,
) -> Option<usize> {
    largest(capacity, |n| {
        Estimate::with_plan(cfg, vocab, target, StepPlan::even(n, 1)).peak
    })
}

/// The smallest card of the built-in list that holds `cfg`'s predicted peak on it, and
/// that peak.
pub fn smallest_card(cfg: &RunConfig, vocab: usize, shards: usize) -> Option<(Card, Bytes)> {
    let plan = for_split(cfg.train.split).plan(cfg.train.batch);
    cards().into_iter().find_map(|c| {
        let peak =
            Estimate::sharded(cfg, vocab, Target::Cuda { total: c.bytes }, plan, shards).peak;
        (peak <= c.bytes).then_some((c, peak))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_search_finds_the_last_size_that_fits() {
        let peak = |n: usize| Bytes(1000 + 10 * n as u64);
        assert_eq!(largest(Bytes(1000 + 10 * 777), peak), Some(777));
        assert_eq!(largest(Bytes(1005), peak), None);
        assert_eq!(largest(Bytes(u64::MAX), peak), Some(1 << 24));
    }
}
