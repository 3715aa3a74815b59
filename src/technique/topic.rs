//! A technique's own `oomlab explain` topic: its text, and where its measured part comes
//! from.

use crate::evidence::Evidence;

/// An explain topic a technique's module holds.
#[derive(Debug, Clone, Copy)]
pub struct Topic {
    /// Its name (`oomlab explain NAME`).
    pub name: &'static str,
    /// One line, for the list of topics.
    pub summary: &'static str,
    /// The text; the measured part follows it.
    pub text: &'static str,
    /// The committed comparisons whose rows for this topic (with the baseline's) the
    /// measured part shows, each with what was run.
    pub compared: &'static [(Evidence, &'static str)],
    /// More of the measured part, after those tables (empty when there is none).
    pub more: fn() -> String,
}
