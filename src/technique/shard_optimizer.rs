//! Sharding the optimizer state: data parallel over several devices, each keeping AdamW's
//! state for 1/N of the parameters (ZeRO stage 1).

use super::{Technique, Variant};
use crate::words::Strategy;

/// The technique.
struct ShardOptimizer;

/// Its row.
pub(super) const ROW: Variant = Variant(&ShardOptimizer);

impl Technique for ShardOptimizer {
    fn name(&self) -> &'static str {
        "shard-optimizer"
    }

    fn summary(&self) -> &'static str {
        "1/N of AdamW's state on each of --devices (ZeRO stage 1)"
    }

    fn strategy(&self) -> Strategy {
        Strategy::ShardOptimizer
    }

    fn in_all(&self, several_devices: bool) -> bool {
        several_devices
    }

    fn needs_several_devices(&self) -> bool {
        true
    }
}
