//! The pool modes as rows: the baseline on burn's growth pool, and on the exact pool (the
//! default, so the same run as the baseline: a row kept so that earlier comparisons still
//! read).

use super::{Preset, Technique, Variant};
use crate::words::PoolMode;

/// The baseline on one pool mode.
struct Pool {
    name: &'static str,
    summary: &'static str,
    mode: PoolMode,
}

/// The growth pool's row.
pub(super) const GROWTH: Variant = Variant(&Pool {
    name: "pool-growth",
    summary: "the baseline with --memory-mode growth (paged pool)",
    mode: PoolMode::Growth,
});

/// The exact pool's row.
pub(super) const EXACT: Variant = Variant(&Pool {
    name: "pool-exact",
    summary: "the baseline with --memory-mode exact, the default",
    mode: PoolMode::Exact,
});

impl Technique for Pool {
    fn name(&self) -> &'static str {
        self.name
    }

    fn summary(&self) -> &'static str {
        self.summary
    }

    fn preset(&self, p: &mut Preset<'_>) {
        let mode = self.mode;
        p.set("memory.mode", |f| f.memory.mode = mode);
    }

    /// The exact pool is the default: the same run as the baseline.
    fn in_all(&self, _several_devices: bool) -> bool {
        self.mode != PoolMode::Exact
    }

    fn changes_the_plan(&self) -> bool {
        self.mode != PoolMode::Exact
    }

    fn topic_name(&self) -> &'static str {
        "pool"
    }
}
