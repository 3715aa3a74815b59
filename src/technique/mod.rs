//! The techniques: each way oomlab fits a training run into memory, or measures how one
//! setting changes it, is one module here. A technique declares what it is in one place:
//! its compare row and the settings that row sets, whether `--strategies all` runs it, its
//! explain topic, its lesson stages and what each says after it ran. The commands iterate
//! over [`registry::ALL`]; adding a technique is its module and one line there.
//!
//! What a technique changes in training itself is a setting of the typed configuration
//! (its preset writes it); the loop reads settings, never technique names. A technique
//! that brings a mechanism of its own keeps it in its module too (offload-optimizer: the
//! optimizer whose moments live on the host, and the estimate's terms for it), and the
//! loop and the estimate call it when its setting is on.

mod amp;
mod attention_math;
mod auto_halve;
mod baseline;
mod checkpointing;
mod empty_cache;
mod grad_accum;
mod half;
mod offload_optimizer;
mod pool;
mod preset;
pub mod registry;
mod sgd;
mod shard_optimizer;
pub mod story;
mod topic;

use std::fmt;

pub use offload_optimizer::{
    host_need, host_refusal, OffloadAdamW, OffloadRecordError, OffloadTerms,
};
pub use preset::Preset;
pub use registry::rows_help;
pub use story::{BigFigures, Expect, Stage, StageNumbers};
pub use topic::Topic;

/// One technique: a compare row, its settings and what oomlab says about it.
pub trait Technique: Sync {
    /// The row's word, as `--strategies` takes it and compare.json writes it.
    fn name(&self) -> &'static str;

    /// What the row is, in one line.
    fn summary(&self) -> &'static str;

    /// The strategy its run trains with (`--strategy`); the baseline's when the row is the
    /// baseline with one setting changed.
    fn strategy(&self) -> crate::words::Strategy {
        crate::words::Strategy::Baseline
    }

    /// Writes the settings it changes beside the strategy into `p`.
    fn preset(&self, p: &mut Preset<'_>) {
        let _ = p;
    }

    /// Whether `--strategies all` runs it, with `several_devices` or on one.
    fn in_all(&self, several_devices: bool) -> bool {
        let _ = several_devices;
        true
    }

    /// Whether it runs only over several devices (`compare --devices`).
    fn needs_several_devices(&self) -> bool {
        false
    }

    /// Whether it changes anything before training (`compare --estimate`'s rows leave out
    /// those that do not).
    fn changes_the_plan(&self) -> bool {
        true
    }

    /// The explain topic it is explained under: its own topic's, else its name (a topic
    /// `oomlab explain` holds among its concepts).
    fn topic_name(&self) -> &'static str {
        self.topic().map_or(self.name(), |t| t.name)
    }

    /// Its own explain topic, when this module holds it.
    fn topic(&self) -> Option<&'static Topic> {
        None
    }

    /// Its stages in the lesson's parts.
    fn stages(&self) -> &'static [Stage] {
        &[]
    }

    /// What its stage in lesson part 1 (a batch too big) says after it ran, against the
    /// baseline's figures.
    fn after_batch_stage(&self, this: &StageNumbers, base: &StageNumbers) -> Vec<String> {
        let _ = (this, base);
        Vec::new()
    }

    /// What its stage in lesson part 2 (a model too big) says after it ran, before the
    /// sentence on whether it fitted.
    fn after_model_stage(
        &self,
        fig: &BigFigures,
        this: &StageNumbers,
        base: &StageNumbers,
    ) -> Vec<String> {
        let _ = (fig, this, base);
        Vec::new()
    }

    /// What its stage in lesson part 2 says after the sentence on whether it fitted.
    fn after_model_fit(&self, this: &StageNumbers) -> Vec<String> {
        let _ = this;
        Vec::new()
    }
}

/// A technique as a value: what a compare row, a lesson stage or compare.json names.
/// Two are equal when their names are.
#[derive(Clone, Copy)]
pub struct Variant(&'static dyn Technique);

impl Variant {
    /// Writes the row's settings into `draft`: its strategy, then what it changes;
    /// `accum_steps` is grad-accum's micro-batches per step.
    pub fn apply(self, draft: &mut crate::config::Draft, accum_steps: u64) {
        preset::apply(self, draft, accum_steps);
    }

    /// Every technique, in compare's order.
    pub const ALL: &'static [Variant] = registry::ALL;

    /// The baseline: the row every other is measured against.
    pub const BASELINE: Variant = baseline::ROW;

    /// The technique behind the row.
    pub fn technique(self) -> &'static dyn Technique {
        self.0
    }

    /// Its word.
    pub fn name(self) -> &'static str {
        self.0.name()
    }

    /// The technique named `word`.
    pub fn from_name(word: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.name() == word)
    }

    /// Every word, comma-separated, for messages.
    pub fn words() -> String {
        Self::ALL
            .iter()
            .map(|v| v.name())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The technique named `word`, for tests.
    #[cfg(test)]
    pub(crate) fn named(word: &str) -> Self {
        Self::from_name(word).unwrap_or_else(|| panic!("no technique {word}"))
    }

    /// Whether it is the baseline.
    pub fn is_baseline(self) -> bool {
        self == Self::BASELINE
    }
}

impl PartialEq for Variant {
    fn eq(&self, other: &Self) -> bool {
        self.name() == other.name()
    }
}

impl Eq for Variant {}

impl std::hash::Hash for Variant {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.name().hash(state);
    }
}

impl fmt::Debug for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Variant({})", self.name())
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl serde::Serialize for Variant {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for Variant {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let word = String::deserialize(d)?;
        Variant::from_name(&word).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "unknown strategy '{word}'; known: {}",
                Variant::words()
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_is_one_technique_and_reads_back() {
        let mut seen = std::collections::BTreeSet::new();
        for v in Variant::ALL {
            assert!(seen.insert(v.name()), "{} twice", v.name());
            assert_eq!(Variant::from_name(v.name()), Some(*v));
            let json = serde_json::to_value(v).unwrap();
            assert_eq!(json, serde_json::json!(v.name()));
            let back: Variant = serde_json::from_value(json).unwrap();
            assert_eq!(back, *v);
        }
        let err = serde_json::from_value::<Variant>(serde_json::json!("grad_accum"))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("grad-accum") && err.contains("auto-halve"),
            "{err}"
        );
        assert!(Variant::BASELINE.is_baseline());
    }
}
