//! A comparison of strategies as data (`compare.json`); built and rendered by `compare`.

use serde::{Deserialize, Serialize};

use super::Row;
use crate::words::MemoryKind;

/// Bumped when a field of `compare.json` changes meaning or disappears. Documented in
/// docs/compare-json.md.
pub const COMPARE_SCHEMA_VERSION: u32 = 1;

/// Every strategy's row, with the baseline ratios filled in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// [`COMPARE_SCHEMA_VERSION`].
    pub schema_version: u32,
    /// oomlab's version.
    pub oomlab_version: String,
    /// `gpu` or `host`: what the memory columns measure (absent when no run reported).
    pub memory_kind: Option<MemoryKind>,
    /// True when the OOMs are SIMULATED (`--memory-budget` on the CPU): every rendering
    /// says so.
    #[serde(default)]
    pub simulated: bool,
    /// The device of the runs, e.g. `cuda:0 NVIDIA H200` or `cpu`.
    pub device: String,
    /// The `train` flags every run shared beyond its config file (device, budgets); each
    /// run's config is `<strategy>.toml` beside compare.json.
    pub common_args: Vec<String>,
    /// The budget the rows shared (`--vram-budget` or `--memory-budget`), from the
    /// arguments, or, for a table rebuilt from run folders, from the runs' summaries.
    /// Files older than this field have it only in `common_args`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<crate::units::Bytes>,
    /// One row per strategy, in the order asked for.
    pub rows: Vec<Row>,
}
