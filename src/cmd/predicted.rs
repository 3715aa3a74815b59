//! The peak `oomlab estimate` predicts for a compare row, on the kind of memory the row
//! measured: read by compare when it runs the rows and by report when it rebuilds a
//! comparison from its run folders.

use crate::results::Row;
use crate::words::MemoryKind;

/// `oomlab estimate`'s peak for a row's config, on the kind of memory the row measured.
pub(crate) fn predicted(
    row: &Row,
    cfg: &crate::config::RunConfig,
    vocab: usize,
    total: Option<crate::units::Bytes>,
    simulated: bool,
) -> Option<u64> {
    use crate::estimate::{Estimate, Target};
    // Over several devices the row's process figure is one device's (CUDA) or the
    // shared process's (CPU peers), neither of which the whole-batch estimate predicts:
    // `oomlab estimate --devices` gives each device's.
    if !row.per_device.is_empty() {
        return None;
    }
    let target = match row.memory_kind? {
        MemoryKind::Gpu => Target::Cuda { total: total? },
        // Under a SIMULATED budget the run fixed its compute threads.
        MemoryKind::Host if simulated => Target::budgeted_cpu(),
        MemoryKind::Host => Target::this_cpu(),
    };
    Some(Estimate::of(cfg, vocab, target).peak.0)
}
