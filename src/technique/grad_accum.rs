//! Gradient accumulation: K micro-batches per optimizer step, their gradients summed.

use super::story::{activations_only, activations_then};
use super::{BigFigures, Expect, Preset, Stage, StageNumbers, Technique, Topic, Variant};
use crate::words::Strategy;

/// The technique.
struct GradAccum;

/// Its row.
pub(super) const ROW: Variant = Variant(&GradAccum);

/// `oomlab explain grad-accum`.
const TOPIC: Topic = Topic {
    name: "grad-accum",
    summary: "K micro-batches per optimizer step, gradients summed",
    text: "\
What it does: `--steps K` splits each batch into K micro-batches. Each micro-batch's loss
is divided by K, its gradients are added to a running sum, and the optimizer steps once
with the sum. The update equals the one of the whole batch (oomlab's test suite checks it
to 1e-5), while only one micro-batch's activations are alive at a time.

When to use it: the batch size matters for your results (the learning rate and its
schedule were tuned for it) but does not fit. Choose the smallest K that fits. Two
caveats where the update is not the full batch's: BatchNorm computes its statistics per
micro-batch (LayerNorm, used here, does not care), and a loss averaged over tokens is
weighted differently when micro-batches hold different numbers of tokens (divide each
micro-batch's token sum by the whole batch's token count instead of by K). oomlab's
batches are all full-length, so dividing by K is exact here.

What it costs: time. K smaller passes use the GPU less well than one large pass, and the
gradient sum is one more set of parameter-sized buffers. Weights, gradients and optimizer
state do not shrink: only activations do.
",
    compared: crate::evidence::STRATEGY_COMPARISONS,
    more: String::new,
};

impl Technique for GradAccum {
    fn name(&self) -> &'static str {
        "grad-accum"
    }

    fn summary(&self) -> &'static str {
        "K micro-batches per optimizer step (--steps K)"
    }

    fn strategy(&self) -> Strategy {
        Strategy::GradAccum
    }

    fn preset(&self, p: &mut Preset<'_>) {
        let k = crate::config::count(p.accum_steps());
        p.set("train.grad_accum_steps", |f| f.train.grad_accum_steps = k);
    }

    fn topic(&self) -> Option<&'static Topic> {
        Some(&TOPIC)
    }

    fn stages(&self) -> &'static [Stage] {
        &[
            Stage {
                part: 1,
                order: 30,
                variant: ROW,
                title: "gradient accumulation (--strategy grad-accum --steps 4)",
                what: "The batch is cut into 4 micro-batches; each one's loss is divided by 4, the gradients are summed, and the optimizer steps once. Only one micro-batch's activations are alive at a time.",
                question: "Will gradient accumulation fit?",
                expect: Expect::Fits,
                gpu_only: false,
                max_steps: None,
            },
            Stage {
                part: 2,
                order: 30,
                variant: ROW,
                title: "gradient accumulation on the big model (2 micro-batches)",
                what: "As in part 1: half the batch's activations at a time, plus a running sum of the gradients.",
                question: "Will gradient accumulation fit the big model?",
                expect: Expect::OutOfMemory,
                gpu_only: false,
                max_steps: None,
            },
        ]
    }

    fn after_batch_stage(&self, this: &StageNumbers, base: &StageNumbers) -> Vec<String> {
        let micro = match (this.micro_batch, base.micro_batch) {
            (Some(m), Some(b)) => Some(format!(
                "A micro-batch of {m} instead of {b}; the update is still the whole batch's (tested to 1e-5 in f32), paid for in time with smaller passes. Weights, gradients and optimizer state do not shrink (`oomlab explain grad-accum`)."
            )),
            _ => None,
        };
        activations_then(this, base, micro)
    }

    fn after_model_stage(
        &self,
        fig: &BigFigures,
        this: &StageNumbers,
        base: &StageNumbers,
    ) -> Vec<String> {
        activations_only(fig, this, base)
    }
}
