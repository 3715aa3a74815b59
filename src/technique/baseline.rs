//! The baseline: the whole batch in one forward and one backward pass, the row every
//! other is measured against.

use super::story::{per_param, ratio_words, relative};
use super::{BigFigures, Expect, Stage, StageNumbers, Technique, Topic, Variant};

/// The technique.
struct Baseline;

/// Its row.
pub(super) const ROW: Variant = Variant(&Baseline);

/// `oomlab explain baseline`.
const TOPIC: Topic = Topic {
    name: "baseline",
    summary: "the whole batch in one forward and one backward pass",
    text: "\
What it does: every optimizer step runs the whole batch through the model at once. The
forward pass keeps every layer's activations for the backward pass, so activation memory
grows linearly with the batch (and, for attention, with the square of the context).

When to use it: when it fits. It is the fastest per sample on a GPU (the largest
kernels), and the reference every other strategy is measured against.

What it costs: the most memory of all strategies. When it does not fit, burn 0.21 on CUDA
does not even say so (the failed allocation reads as zeros); oomlab detects it, discards
the step, and stops with exit code 3.
",
    compared: crate::evidence::STRATEGY_COMPARISONS,
    more: String::new,
};

impl Technique for Baseline {
    fn name(&self) -> &'static str {
        "baseline"
    }

    fn summary(&self) -> &'static str {
        "the whole batch in one pass: the reference"
    }

    fn topic(&self) -> Option<&'static Topic> {
        Some(&TOPIC)
    }

    fn stages(&self) -> &'static [Stage] {
        &[
            Stage {
                part: 1,
                order: 10,
                variant: ROW,
                title: "the baseline: the whole batch at once",
                what: "Every sample of the batch goes through the model in one forward pass, which keeps every layer's activations for the backward pass.",
                question: "Will the baseline fit in the budget?",
                expect: Expect::OutOfMemory,
                gpu_only: false,
                max_steps: None,
            },
            Stage {
                part: 2,
                order: 10,
                variant: ROW,
                title: "the big model's baseline: f32 weights, AdamW",
                what: "Weights, gradients and AdamW's two moments in f32: 16 bytes per parameter, whatever the batch. During the update oomlab keeps the new weights and moments beside the old ones until the step has passed its checks.",
                question: "Will the big model fit?",
                expect: Expect::OutOfMemory,
                gpu_only: false,
                max_steps: None,
            },
        ]
    }

    fn after_batch_stage(&self, this: &StageNumbers, _base: &StageNumbers) -> Vec<String> {
        let (Some(f), Some((a, how))) = (this.fixed, this.activations()) else {
            return Vec::new();
        };
        vec![format!(
            "Weights and AdamW's two moments take {f} whatever the batch (with the gradients, 16 bytes per parameter in f32); the activations after the forward pass, {a} ({how}), grow with the batch: {} of the fixed state here, so the next stages shrink them.",
            ratio_words(a, f)
        )]
    }

    fn after_model_stage(
        &self,
        fig: &BigFigures,
        _this: &StageNumbers,
        _base: &StageNumbers,
    ) -> Vec<String> {
        let BigFigures {
            params,
            fixed,
            update,
            budget,
        } = *fig;
        vec![format!(
            "{params} parameters: by oomlab estimate's count, weights, gradients and AdamW's moments take {fixed} ({} bytes per parameter), and the update {update} ({} bytes per parameter) while the new weights and moments sit beside the old: {} the {budget} budget before a single activation.",
            per_param(fixed, params),
            per_param(update, params),
            relative(update, budget)
        )]
    }

    fn after_model_fit(&self, this: &StageNumbers) -> Vec<String> {
        // Said once, where the part's first failure shows it.
        if this.failed_step.is_some_and(|n| n > 0) {
            vec!["AdamW makes its moments in the first update, so only from the second on does an update hold old and new moments together.".into()]
        } else {
            Vec::new()
        }
    }
}
