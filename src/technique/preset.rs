//! A compare row's settings, written into the run's typed configuration: each key set
//! with the row as the flag that set it, so a row that does not fit the shared settings
//! names itself in the error.

use crate::config::{ConfigFile, Draft};
use crate::words::Strategy;

/// The configuration a technique's preset writes into.
pub struct Preset<'a> {
    draft: &'a mut Draft,
    given: String,
    accum_steps: u64,
}

impl<'a> Preset<'a> {
    /// A preset for the row `name` over `draft`; `accum_steps` is compare's `--steps`.
    pub fn new(draft: &'a mut Draft, name: &str, accum_steps: u64) -> Self {
        Preset {
            draft,
            given: format!("--strategies {name}"),
            accum_steps,
        }
    }

    /// Sets `key` (as the config file spells it) by `edit`.
    pub fn set(&mut self, key: &str, edit: impl FnOnce(&mut ConfigFile)) {
        self.draft.flag(self.given.clone(), key, edit);
    }

    /// compare's `--steps`: grad-accum's micro-batches per step. Errors name it beside
    /// the row from here on.
    pub fn accum_steps(&mut self) -> u64 {
        self.given = format!("{} (--steps {})", self.given, self.accum_steps);
        self.accum_steps
    }
}

/// Writes `v`'s settings into `draft`: its strategy, then the settings it changes.
pub(crate) fn apply(v: super::Variant, draft: &mut Draft, accum_steps: u64) {
    let mut p = Preset::new(draft, v.name(), accum_steps);
    let strategy: Strategy = v.technique().strategy();
    p.set("train.strategy", |f| f.train.strategy = strategy);
    v.technique().preset(&mut p);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{ConfigSource, PrecisionMode, Split};
    use crate::technique::Variant;
    use crate::words::AttentionKind;

    fn row(name: &str) -> Variant {
        Variant::from_name(name).unwrap()
    }

    fn resolved(v: Variant) -> crate::config::RunConfig {
        let mut d = Draft::read(&ConfigSource::Builtin("tiny".into()), &[], vec![]).unwrap();
        v.apply(&mut d, 4);
        d.validate().unwrap().1
    }

    #[test]
    fn every_row_changes_only_its_own_settings() {
        let base = resolved(row("baseline"));
        assert_eq!(base.train.split, Split::Whole);
        let ga = resolved(row("grad-accum"));
        assert_eq!(ga.train.split, Split::GradAccum { steps: 4 });
        let amp = resolved(row("amp-f16"));
        assert_eq!(
            amp.train.precision,
            PrecisionMode::Mixed(crate::config::HalfDtype::F16)
        );
        assert_eq!(amp.train.split, Split::Whole);
        let half = resolved(row("half-bf16"));
        assert_eq!(
            half.train.precision,
            PrecisionMode::Pure(crate::config::HalfDtype::Bf16)
        );
        let math = resolved(row("attention-math"));
        assert_eq!(math.model.attention, AttentionKind::Math);
        assert_eq!(math.train, base.train);
        assert_eq!(base.train.memory_mode, crate::config::MemoryMode::Exact);
        let growth = resolved(row("pool-growth"));
        assert_eq!(growth.train.memory_mode, crate::config::MemoryMode::Growth);
        assert_eq!(growth.model, base.model);
        let exact = resolved(row("pool-exact"));
        assert_eq!(exact.train, base.train);
        assert_eq!(
            resolved(row("empty-cache")).train.empty_cache_every,
            Some(1)
        );
    }

    #[test]
    fn a_row_that_does_not_fit_the_shared_settings_names_the_row() {
        let mut d = Draft::read(&ConfigSource::Builtin("tiny".into()), &[], vec![]).unwrap();
        row("grad-accum").apply(&mut d, 5);
        let err = d.validate().unwrap_err().to_string();
        assert!(err.contains("--strategies grad-accum (--steps 5)"), "{err}");
    }
}
