//! Data parallelism over several devices: one trainer per device, each on its share of
//! every batch, gradients all-reduced through burn's collective; with `shard-optimizer`
//! each device keeps the optimizer state of its share of the parameters only (ZeRO
//! stage 1). `vote.rs` keeps the peers in step when one of them runs out of memory.

mod bucket;
mod collective;
mod elements;
mod error;
mod peer;
mod shard;
mod sync;
mod vote;

pub use bucket::buckets;
pub use collective::{all_reduce_grads, broadcast_from_first, gather_shards, keep_own};
pub use elements::param_elements;
pub use error::ParallelError;
pub use peer::Peer;
pub use shard::ShardPlan;
pub use sync::{connect, Collective};
pub use vote::{Ballot, Failure, PeerGone, StepVote, Tally};
