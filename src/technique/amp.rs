//! Mixed precision: the passes and the kept activations in half, the master weights and
//! AdamW's moments in f32. Two rows, bf16 and f16 (with loss scaling).

use super::story::{activations_then, relative};
use super::{BigFigures, Expect, Preset, Stage, StageNumbers, Technique, Topic, Variant};
use crate::words::Precision;

/// The technique in one half type.
struct Amp {
    name: &'static str,
    summary: &'static str,
    half: Precision,
}

/// Its row in bf16.
pub(super) const BF16: Variant = Variant(&Amp {
    name: "amp-bf16",
    summary: "the baseline with --precision bf16 (mixed precision)",
    half: Precision::Bf16,
});

/// Its row in f16.
pub(super) const F16: Variant = Variant(&Amp {
    name: "amp-f16",
    summary: "the baseline with --precision f16 (mixed, loss scaling)",
    half: Precision::F16,
});

/// `oomlab explain amp`.
const TOPIC: Topic = Topic {
    name: "amp",
    summary: "mixed precision: f32 master weights, bf16/f16 passes, loss scaling",
    text: "\
What it does: `--precision bf16` or `--precision f16` (with any strategy). The model and
AdamW's moments stay in f32. Each micro-batch casts the weights to half (burn's cast is
differentiable), runs forward and backward in half, and the cast's backward hands the
gradients back in f32 for the update (`--set kernels.amp_cast=step` casts the weights
once a step and each micro-batch's gradients after its backward pass: the same gradients,
fewer operations; not yet shown faster). The matrix products run in half. As with
torch.autocast, LayerNorm statistics and cross-entropy run in f32: oomlab's own LayerNorm
operation keeps only its half input and recomputes the statistics in f32 in the backward
pass (on CUDA, for bf16, as kernels of oomlab's). Attention's softmax is computed in f32
too; under bf16 on CUDA the backward pass keeps the probabilities it recomputes in bf16
for the product that reads them. `--set model.norm_in_f32=false` runs burn's own
LayerNorm in half instead, whose autodiff keeps the centred and normalised input as well.
burn 0.21 has no autocast: oomlab does this itself, and the summary reads the dtypes back
from the tensors (asking burn's CUDA backend for bf16 alone would still make f32
tensors). For f16, dynamic loss scaling (as PyTorch's GradScaler): the loss is
multiplied by the scale (2^16 at first) so small gradients survive f16's range; when any
gradient comes back inf/NaN the update is skipped and the scale halved; after 2000 clean
steps it doubles ([loss_scale] in the config; skipped steps are counted in the summary
and the table).

When to use it: activations dominate memory (they are stored in half) or the GPU has
fast half-precision matrix units. bf16 needs no scaling (f32's exponent range); f16
keeps more mantissa but needs the scaler.

What it costs: the half copy of the weights during a step (18 bytes per parameter with
AdamW instead of 16) and a little accuracy; on burn 0.21 the first step at a new dtype
compiles its own kernels (on a GPU oomlab ships no kernels for: minutes, once, then
cached; `oomlab warm-up` compiles them ahead of a class).
",
    compared: crate::evidence::STRATEGY_COMPARISONS,
    more: String::new,
};

impl Technique for Amp {
    fn name(&self) -> &'static str {
        self.name
    }

    fn summary(&self) -> &'static str {
        self.summary
    }

    fn preset(&self, p: &mut Preset<'_>) {
        let half = self.half;
        p.set("train.precision", |f| f.train.precision = half);
    }

    fn topic(&self) -> Option<&'static Topic> {
        Some(&TOPIC)
    }

    fn stages(&self) -> &'static [Stage] {
        if self.half != Precision::Bf16 {
            return &[];
        }
        &[
            Stage {
                part: 1,
                order: 20,
                variant: BF16,
                title: "mixed precision (--precision bf16)",
                what: "The forward and backward passes run in bf16, 2 bytes a value instead of f32's 4, and the activations kept for the backward pass are stored in it; the master weights and AdamW's moments stay in f32.",
                question: "Will mixed precision fit?",
                expect: Expect::Fits,
                gpu_only: false,
                max_steps: None,
            },
            Stage {
                part: 2,
                order: 20,
                variant: BF16,
                title: "mixed precision on the big model",
                what: "As in part 1: the passes and the kept activations in bf16, the master weights and the moments in f32, plus a bf16 copy of the weights.",
                question: "Will mixed precision fit the big model?",
                expect: Expect::OutOfMemory,
                gpu_only: false,
                max_steps: None,
            },
        ]
    }

    fn after_batch_stage(&self, this: &StageNumbers, base: &StageNumbers) -> Vec<String> {
        activations_then(
            this,
            base,
            ["The master weights and AdamW's moments stay in f32 and a half copy of the weights is added: mixed precision shrinks the activations only (`oomlab explain amp`).".into()],
        )
    }

    fn after_model_stage(
        &self,
        fig: &BigFigures,
        this: &StageNumbers,
        base: &StageNumbers,
    ) -> Vec<String> {
        activations_then(
            this,
            base,
            [format!(
                "It acts on the activations; the weights, gradients and moments are still {} and the update {} (predicted), {} the {} budget, as in the baseline.",
                fig.fixed,
                fig.update,
                relative(fig.update, fig.budget),
                fig.budget
            )],
        )
    }
}
