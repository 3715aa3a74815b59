//! Each row of `oomlab compare` as a preset over the typed config: a strategy, or the
//! baseline with one independent setting changed (precision, cache cleanup, attention,
//! memory mode).

use crate::config::{ConfigFile, Draft};
use crate::words::{AttentionKind, OptimKind, PoolMode, Precision, Strategy, Variant};

impl Variant {
    /// Writes this row's settings into `draft`; `accum_steps` is grad-accum's K.
    pub fn apply(self, draft: &mut Draft, accum_steps: u64) {
        let given = if self == Variant::GradAccum {
            format!("--strategies {self} (--steps {accum_steps})")
        } else {
            format!("--strategies {self}")
        };
        let mut set = |key: &str, edit: &dyn Fn(&mut ConfigFile)| {
            draft.flag(given.clone(), key, edit);
        };
        let strategy = match self {
            Variant::GradAccum => Strategy::GradAccum,
            Variant::AutoHalve => Strategy::AutoHalve,
            Variant::Checkpointing => Strategy::Checkpointing,
            Variant::HalfBf16 | Variant::HalfF16 => Strategy::Half,
            Variant::ShardOptimizer => Strategy::ShardOptimizer,
            Variant::OffloadOptimizer => Strategy::OffloadOptimizer,
            _ => Strategy::Baseline,
        };
        set("train.strategy", &|f| f.train.strategy = strategy);
        let k = crate::config::count(accum_steps);
        match self {
            Variant::GradAccum => set("train.grad_accum_steps", &|f| f.train.grad_accum_steps = k),
            Variant::EmptyCache => set("train.empty_cache_every", &|f| {
                f.train.empty_cache_every = 1
            }),
            Variant::AmpBf16 | Variant::HalfBf16 => {
                set("train.precision", &|f| f.train.precision = Precision::Bf16)
            }
            Variant::AmpF16 | Variant::HalfF16 => {
                set("train.precision", &|f| f.train.precision = Precision::F16)
            }
            Variant::AttentionMath => set("model.attention", &|f| {
                f.model.attention = AttentionKind::Math
            }),
            Variant::PoolExact => set("memory.mode", &|f| f.memory.mode = PoolMode::Exact),
            Variant::PoolGrowth => set("memory.mode", &|f| f.memory.mode = PoolMode::Growth),
            Variant::Sgd => set("optim.kind", &|f| f.optim.kind = OptimKind::Sgd),
            Variant::Baseline
            | Variant::AutoHalve
            | Variant::Checkpointing
            | Variant::ShardOptimizer
            | Variant::OffloadOptimizer => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{ConfigSource, PrecisionMode, Split};

    fn resolved(v: Variant) -> crate::config::RunConfig {
        let mut d = Draft::read(&ConfigSource::Builtin("tiny".into()), &[], vec![]).unwrap();
        v.apply(&mut d, 4);
        d.validate().unwrap().1
    }

    #[test]
    fn every_row_changes_only_its_own_settings() {
        let base = resolved(Variant::Baseline);
        assert_eq!(base.train.split, Split::Whole);
        let ga = resolved(Variant::GradAccum);
        assert_eq!(ga.train.split, Split::GradAccum { steps: 4 });
        let amp = resolved(Variant::AmpF16);
        assert_eq!(
            amp.train.precision,
            PrecisionMode::Mixed(crate::config::HalfDtype::F16)
        );
        assert_eq!(amp.train.split, Split::Whole);
        let half = resolved(Variant::HalfBf16);
        assert_eq!(
            half.train.precision,
            PrecisionMode::Pure(crate::config::HalfDtype::Bf16)
        );
        let math = resolved(Variant::AttentionMath);
        assert_eq!(math.model.attention, AttentionKind::Math);
        assert_eq!(math.train, base.train);
        assert_eq!(base.train.memory_mode, crate::config::MemoryMode::Exact);
        let growth = resolved(Variant::PoolGrowth);
        assert_eq!(growth.train.memory_mode, crate::config::MemoryMode::Growth);
        assert_eq!(growth.model, base.model);
        let exact = resolved(Variant::PoolExact);
        assert_eq!(exact.train, base.train);
        assert_eq!(
            resolved(Variant::EmptyCache).train.empty_cache_every,
            Some(1)
        );
    }

    #[test]
    fn a_row_that_does_not_fit_the_shared_settings_names_the_row() {
        let mut d = Draft::read(&ConfigSource::Builtin("tiny".into()), &[], vec![]).unwrap();
        Variant::GradAccum.apply(&mut d, 5);
        let err = d.validate().unwrap_err().to_string();
        assert!(err.contains("--strategies grad-accum (--steps 5)"), "{err}");
    }
}
