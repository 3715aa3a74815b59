//! The lesson's stages: which compare row each runs, and what it says before it runs
//! (what it says after is computed from the numbers, `verdict`).

use crate::words::Variant;

/// What the lesson's story says a stage does under the budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    /// It runs out of memory and stops.
    OutOfMemory,
    /// It fits: every step completes without an out-of-memory failure.
    Fits,
    /// It runs out of memory, recovers by itself and finishes.
    Recovers,
}

impl Expect {
    /// The outcome in words, as the story tells it.
    pub fn words(self) -> &'static str {
        match self {
            Expect::OutOfMemory => "run out of memory",
            Expect::Fits => "fit",
            Expect::Recovers => "run out of memory, then recover and finish",
        }
    }

    /// Whether the learner's "yes" to this stage's question is right when the run
    /// `completed` after `oom_retries` out-of-memory failures: "Will it fit?" is yes when
    /// it completed without one, "Will it finish?" when it completed at all.
    pub fn yes_is_right(self, completed: bool, oom_retries: u64) -> bool {
        match self {
            Expect::Recovers => completed,
            Expect::OutOfMemory | Expect::Fits => completed && oom_retries == 0,
        }
    }

    /// Whether a run that `completed` after `oom_retries` failures, or stopped by one
    /// (`out_of_memory`), did what the story says.
    pub fn happened(self, completed: bool, oom_retries: u64, out_of_memory: bool) -> bool {
        match self {
            Expect::OutOfMemory => out_of_memory,
            Expect::Fits => completed && oom_retries == 0,
            Expect::Recovers => completed && oom_retries > 0,
        }
    }
}

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
    /// What the story says it does under the budget.
    pub expect: Expect,
    /// Run on a GPU only: on the CPU the host's memory is the budgeted one, so the stage
    /// would move nothing off it.
    pub gpu_only: bool,
    /// At most this many steps, when fewer than the lesson's tell its story (a slow
    /// stage).
    pub max_steps: Option<u64>,
}

/// A part of the lesson: its stages share one model, batch and budget.
#[derive(Debug, Clone, Copy)]
pub struct Part {
    /// Its number, from 1.
    pub number: usize,
    /// Its heading.
    pub title: &'static str,
    /// What it is about, said before its first stage.
    pub intro: &'static str,
    /// Its folder under the lesson's (empty: the lesson's own).
    pub folder: &'static str,
    /// Its stages, in order (on the CPU without those that are for a GPU only).
    pub stages: &'static [Stage],
    /// grad-accum's micro-batches per step (`--steps`), dividing the part's batch.
    pub accum_steps: u64,
}

impl Part {
    /// The stages a lesson on a GPU (`gpu`) or on the CPU runs, in order.
    pub fn stages_on(&self, gpu: bool) -> impl Iterator<Item = &'static Stage> {
        self.stages.iter().filter(move |s| gpu || !s.gpu_only)
    }
}

/// The lesson's parts, in order.
pub const PARTS: [Part; 2] = [
    Part {
        number: 1,
        title: "a batch too big for the card",
        intro: "The activations, what the forward pass keeps for the backward pass, grow with the batch; the model's own state is small. Each technique below shrinks the activations in its own way.",
        folder: "",
        stages: STAGES,
        accum_steps: 4,
    },
    Part {
        number: 2,
        title: "a model too big for the card",
        intro: "The same card, a much bigger model at a small batch: now the weights, gradients and AdamW's two moments (16 bytes per parameter in f32), with the new weights and moments the update makes beside them, do not fit before a single activation is kept. The techniques of part 1 shrink activations; what shrinks the fixed state, or moves it off the card?",
        folder: "big-model",
        stages: BIG_MODEL_STAGES,
        accum_steps: 2,
    },
];

/// Part 1's stages, in the order the lesson runs them.
pub const STAGES: &[Stage] = &[
    Stage {
        variant: Variant::Baseline,
        title: "the baseline: the whole batch at once",
        what: "Every sample of the batch goes through the model in one forward pass, which keeps every layer's activations for the backward pass.",
        question: "Will the baseline fit in the budget?",
        expect: Expect::OutOfMemory,
        gpu_only: false,
        max_steps: None,
    },
    Stage {
        variant: Variant::AmpBf16,
        title: "mixed precision (--precision bf16)",
        what: "The forward and backward passes run in bf16, 2 bytes a value instead of f32's 4, and the activations kept for the backward pass are stored in it; the master weights and AdamW's moments stay in f32.",
        question: "Will mixed precision fit?",
        expect: Expect::Fits,
        gpu_only: false,
        max_steps: None,
    },
    Stage {
        variant: Variant::GradAccum,
        title: "gradient accumulation (--strategy grad-accum --steps 4)",
        what: "The batch is cut into 4 micro-batches; each one's loss is divided by 4, the gradients are summed, and the optimizer steps once. Only one micro-batch's activations are alive at a time.",
        question: "Will gradient accumulation fit?",
        expect: Expect::Fits,
        gpu_only: false,
        max_steps: None,
    },
    Stage {
        variant: Variant::Checkpointing,
        title: "activation checkpointing (--strategy checkpointing)",
        what: "The outputs of cheap element-wise operations are not kept for the backward pass; they are recomputed from their inputs when it needs them. The matrix multiplications' outputs are kept.",
        question: "Will checkpointing fit?",
        expect: Expect::Fits,
        gpu_only: false,
        max_steps: None,
    },
    Stage {
        variant: Variant::AutoHalve,
        title: "auto-halve (--strategy auto-halve)",
        what: "Start with the whole batch; when a step runs out of memory, discard it (model and optimizer untouched), halve the micro-batch, double the accumulation, and retry the same step.",
        question: "Will auto-halve finish?",
        expect: Expect::Recovers,
        gpu_only: false,
        max_steps: None,
    },
];

/// Part 2's stages: the model whose fixed state does not fit.
pub const BIG_MODEL_STAGES: &[Stage] = &[
    Stage {
        variant: Variant::Baseline,
        title: "the big model's baseline: f32 weights, AdamW",
        what: "Weights, gradients and AdamW's two moments in f32: 16 bytes per parameter, whatever the batch. During the update oomlab keeps the new weights and moments beside the old ones until the step has passed its checks.",
        question: "Will the big model fit?",
        expect: Expect::OutOfMemory,
        gpu_only: false,
        max_steps: None,
    },
    Stage {
        variant: Variant::AmpBf16,
        title: "mixed precision on the big model",
        what: "As in part 1: the passes and the kept activations in bf16, the master weights and the moments in f32, plus a bf16 copy of the weights.",
        question: "Will mixed precision fit the big model?",
        expect: Expect::OutOfMemory,
        gpu_only: false,
        max_steps: None,
    },
    Stage {
        variant: Variant::GradAccum,
        title: "gradient accumulation on the big model (2 micro-batches)",
        what: "As in part 1: half the batch's activations at a time, plus a running sum of the gradients.",
        question: "Will gradient accumulation fit the big model?",
        expect: Expect::OutOfMemory,
        gpu_only: false,
        max_steps: None,
    },
    Stage {
        variant: Variant::Checkpointing,
        title: "activation checkpointing on the big model",
        what: "As in part 1: element-wise outputs recomputed in the backward pass instead of kept.",
        question: "Will checkpointing fit the big model?",
        expect: Expect::OutOfMemory,
        gpu_only: false,
        max_steps: None,
    },
    Stage {
        variant: Variant::HalfBf16,
        title: "pure half precision (--strategy half --precision bf16)",
        what: "The model itself in bf16: weights, gradients and AdamW's moments all 2 bytes a value, 8 bytes per parameter instead of 16. Updates smaller than a weight's last bit are lost (`oomlab explain half`).",
        question: "Will pure bf16 fit the big model?",
        expect: Expect::Fits,
        gpu_only: false,
        max_steps: None,
    },
    Stage {
        variant: Variant::Sgd,
        title: "a lighter optimizer state (SGD: no moments)",
        what: "f32 weights and gradients, and an optimizer that keeps nothing between steps: 8 bytes per parameter instead of 16. It is another optimizer with its own learning rate, not a free saving (`oomlab explain sgd`).",
        question: "Will SGD fit the big model?",
        expect: Expect::Fits,
        gpu_only: false,
        max_steps: None,
    },
    Stage {
        variant: Variant::OffloadOptimizer,
        title: "AdamW's moments in host memory (--strategy offload-optimizer)",
        what: "The same f32 weights, gradients and AdamW, but the two moments live in the host's RAM: after the backward pass every gradient goes to the host, the update runs there on every core, and the new weights come back. The card keeps 8 bytes per parameter instead of 16; the price is the bus and the host's speed, so this stage runs 3 steps (`oomlab explain offload-optimizer`).",
        question: "Will offloading AdamW's state fit the big model?",
        expect: Expect::Fits,
        gpu_only: true,
        // Its steps are several seconds each on the big model (7.3 s on an H100, against
        // pure bf16's 1.4): three show it fits and trains, in about 40 s.
        max_steps: Some(3),
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cpu_runs_every_stage_but_those_for_a_gpu_only() {
        let big = &PARTS[1];
        let gpu: Vec<Variant> = big.stages_on(true).map(|s| s.variant).collect();
        let cpu: Vec<Variant> = big.stages_on(false).map(|s| s.variant).collect();
        assert_eq!(gpu.len(), big.stages.len());
        assert_eq!(gpu.last(), Some(&Variant::OffloadOptimizer));
        assert_eq!(cpu.len() + 1, gpu.len());
        assert!(!cpu.contains(&Variant::OffloadOptimizer));
        assert_eq!(PARTS[0].stages_on(false).count(), PARTS[0].stages.len());
    }
}
