//! Every technique, one line each, in the order compare runs and lists them. The lesson
//! orders its stages by their own `order`.

use super::{
    amp, attention_math, auto_halve, baseline, checkpointing, empty_cache, grad_accum, half,
    offload_optimizer, pool, sgd, shard_optimizer, Variant,
};

/// Every technique.
pub const ALL: &[Variant] = &[
    baseline::ROW,
    grad_accum::ROW,
    auto_halve::ROW,
    checkpointing::ROW,
    empty_cache::ROW,
    amp::BF16,
    amp::F16,
    half::BF16,
    half::F16,
    attention_math::ROW,
    pool::GROWTH,
    pool::EXACT,
    shard_optimizer::ROW,
    offload_optimizer::ROW,
    sgd::ROW,
];
