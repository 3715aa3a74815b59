//! Activation checkpointing: element-wise outputs recomputed in the backward pass
//! instead of kept.

use super::story::{activations_only, activations_then};
use super::{BigFigures, Expect, Stage, StageNumbers, Technique, Topic, Variant};
use crate::words::Strategy;

/// The technique.
struct Checkpointing;

/// Its row.
pub(super) const ROW: Variant = Variant(&Checkpointing);

/// `oomlab explain checkpointing`.
const TOPIC: Topic = Topic {
    name: "checkpointing",
    summary: "activation checkpointing: recompute instead of keeping activations",
    text: "\
What it does: `--strategy checkpointing` trains the whole batch with burn's balanced
gradient checkpointing. burn marks each operation compute-bound (matrix products: their
outputs are kept) or memory-bound (element-wise operations, cheap to redo: their outputs
are dropped after the forward pass and recomputed from their inputs during the backward
pass).

When to use it: activations dominate memory (long contexts, many layers) and grad-accum
is not an option (BatchNorm statistics would change with the micro-batch, or the
micro-batch is already 1).

What it costs: recomputation time in the backward pass, where compute is the bottleneck:
the measurements below show it on the CPU and not on the H200, where this small model's
step is bound by kernel launches and matrix products rather than by the element-wise
work that is redone. How much memory it saves depends on how much of the forward pass is
element-wise work; PyTorch's torch.utils.checkpoint, which recomputes whole blocks, saves
more and costs more.
",
    compared: crate::evidence::STRATEGY_COMPARISONS,
    more: String::new,
};

impl Technique for Checkpointing {
    fn name(&self) -> &'static str {
        "checkpointing"
    }

    fn summary(&self) -> &'static str {
        "burn's balanced activation checkpointing"
    }

    fn strategy(&self) -> Strategy {
        Strategy::Checkpointing
    }

    fn topic(&self) -> Option<&'static Topic> {
        Some(&TOPIC)
    }

    fn stages(&self) -> &'static [Stage] {
        &[
            Stage {
                part: 1,
                order: 40,
                variant: ROW,
                title: "activation checkpointing (--strategy checkpointing)",
                what: "The outputs of cheap element-wise operations are not kept for the backward pass; they are recomputed from their inputs when it needs them. The matrix multiplications' outputs are kept.",
                question: "Will checkpointing fit?",
                expect: Expect::Fits,
                gpu_only: false,
                max_steps: None,
            },
            Stage {
                part: 2,
                order: 40,
                variant: ROW,
                title: "activation checkpointing on the big model",
                what: "As in part 1: element-wise outputs recomputed in the backward pass instead of kept.",
                question: "Will checkpointing fit the big model?",
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
            ["What it saves depends on how much of the forward pass is element-wise work; the recomputation costs time (`oomlab explain checkpointing`).".into()],
        )
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
