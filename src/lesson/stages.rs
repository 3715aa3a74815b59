//! The lesson's stages: which compare row each runs, and what it says before and after.

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
    /// What to take from it, said after it ran.
    pub lesson: &'static str,
}

/// The stages, in the order the lesson runs them.
pub const STAGES: &[Stage] = &[
    Stage {
        variant: Variant::Baseline,
        title: "the baseline: the whole batch at once",
        what: "Every sample of the batch goes through the model in one forward pass, which keeps every layer's activations for the backward pass.",
        question: "Will the baseline fit in the budget?",
        lesson: "Weights, gradients and AdamW's two moments take 16 bytes per parameter whatever the batch; the activations grow with the batch, and they are what does not fit here. The next stages shrink the activations.",
    },
    Stage {
        variant: Variant::AmpBf16,
        title: "mixed precision (--precision bf16)",
        what: "The forward and backward passes run in bf16, so the activations kept for the backward pass take about half the bytes; the master weights and AdamW's moments stay in f32.",
        question: "Will mixed precision fit?",
        lesson: "Mixed precision halves the activations, not the weights or the optimizer state: it saves most where activations dominate, and on a GPU it is usually faster too (`oomlab explain amp`).",
    },
    Stage {
        variant: Variant::GradAccum,
        title: "gradient accumulation (--strategy grad-accum --steps 4)",
        what: "The batch is cut into 4 micro-batches; each one's loss is divided by 4, the gradients are summed, and the optimizer steps once. Only one micro-batch's activations are alive at a time.",
        question: "Will gradient accumulation fit?",
        lesson: "The update is the full batch's (tested to 1e-5 in f32); the price is time, 4 smaller passes. Weights, gradients and optimizer state do not shrink (`oomlab explain grad-accum`).",
    },
    Stage {
        variant: Variant::Checkpointing,
        title: "activation checkpointing (--strategy checkpointing)",
        what: "The outputs of cheap element-wise operations are not kept for the backward pass; they are recomputed from their inputs when it needs them. The matrix multiplications' outputs are kept.",
        question: "Will checkpointing fit?",
        lesson: "How much it saves depends on how much of the forward pass is element-wise work; it costs recomputation where compute is the bottleneck (`oomlab explain checkpointing`).",
    },
    Stage {
        variant: Variant::AutoHalve,
        title: "auto-halve (--strategy auto-halve)",
        what: "Start with the whole batch; when a step runs out of memory, discard it (model and optimizer untouched), halve the micro-batch, double the accumulation, and retry the same step.",
        question: "Will auto-halve finish?",
        lesson: "The out-of-memory error becomes part of the run: every attempt is in retries.jsonl in its folder, and the run keeps the effective batch, so it makes the same updates as gradient accumulation at the split it found (`oomlab explain auto-halve`).",
    },
];
