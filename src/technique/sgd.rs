//! SGD as a row: the baseline with an optimizer that keeps no state (the lesson's big-model
//! part). Another optimizer, so not a way to fit the same training, and not in
//! `--strategies all`.

use super::story::smaller_state;
use super::{BigFigures, Expect, Preset, Stage, StageNumbers, Technique, Variant};
use crate::words::OptimKind;

/// The technique.
struct Sgd;

/// Its row.
pub(super) const ROW: Variant = Variant(&Sgd);

impl Technique for Sgd {
    fn name(&self) -> &'static str {
        "sgd"
    }

    fn summary(&self) -> &'static str {
        "the baseline with optim.kind=sgd: no state, another optimizer"
    }

    fn preset(&self, p: &mut Preset<'_>) {
        p.set("optim.kind", |f| f.optim.kind = OptimKind::Sgd);
    }

    fn in_all(&self, _several_devices: bool) -> bool {
        false
    }

    fn stages(&self) -> &'static [Stage] {
        &[Stage {
            part: 2,
            order: 60,
            variant: ROW,
            title: "a lighter optimizer state (SGD: no moments)",
            what: "f32 weights and gradients, and an optimizer that keeps nothing between steps: 8 bytes per parameter instead of 16. It is another optimizer with its own learning rate, not a free saving (`oomlab explain sgd`).",
            question: "Will SGD fit the big model?",
            expect: Expect::Fits,
            gpu_only: false,
            max_steps: None,
        }]
    }

    fn after_model_stage(
        &self,
        fig: &BigFigures,
        _this: &StageNumbers,
        base: &StageNumbers,
    ) -> Vec<String> {
        vec![smaller_state("Without optimizer state", fig, base)]
    }

    fn after_model_fit(&self, _this: &StageNumbers) -> Vec<String> {
        vec!["Its loss is not comparable with the others': SGD at AdamW's learning rate is another training, not the same one in less memory.".into()]
    }
}
