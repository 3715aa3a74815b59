//! The lesson's stages: which compare row each runs, and what it says before it runs
//! (what it says after is computed from the numbers, `verdict`).

use crate::vocab::Variant;

/// One stage of the lesson.
#[derive(Debug, Clone, Copy)]
pub struct Stage {
    /// The compare row it runs.
    pub variant: Variant,
    /// Its heading.
    pub title: &'static str,
    /// What changes, said before it runs.
    pub what: &'static str,
    /// The question put to the learner before it runs.
    pub question: &'static str,
}

/// The stages, in the order the lesson runs them.
pub const STAGES: &[Stage] = &[
    Stage {
        variant: Variant::Baseline,
        title: "the baseline: the whole batch at once",
        what: "Every sample of the batch goes through the model in one forward pass, which keeps every layer's activations for the backward pass.",
        question: "Will the baseline fit in the budget?",
    },
    Stage {
        variant: Variant::AmpBf16,
        title: "mixed precision (--precision bf16)",
        what: "The forward and backward passes run in bf16, 2 bytes a value instead of f32's 4, and the activations kept for the backward pass are stored in it; the master weights and AdamW's moments stay in f32.",
        question: "Will mixed precision fit?",
    },
    Stage {
        variant: Variant::GradAccum,
        title: "gradient accumulation (--strategy grad-accum --steps 4)",
        what: "The batch is cut into 4 micro-batches; each one's loss is divided by 4, the gradients are summed, and the optimizer steps once. Only one micro-batch's activations are alive at a time.",
        question: "Will gradient accumulation fit?",
    },
    Stage {
        variant: Variant::Checkpointing,
        title: "activation checkpointing (--strategy checkpointing)",
        what: "The outputs of cheap element-wise operations are not kept for the backward pass; they are recomputed from their inputs when it needs them. The matrix multiplications' outputs are kept.",
        question: "Will checkpointing fit?",
    },
    Stage {
        variant: Variant::AutoHalve,
        title: "auto-halve (--strategy auto-halve)",
        what: "Start with the whole batch; when a step runs out of memory, discard it (model and optimizer untouched), halve the micro-batch, double the accumulation, and retry the same step.",
        question: "Will auto-halve finish?",
    },
];
