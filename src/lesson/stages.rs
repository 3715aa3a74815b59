//! The lesson's parts: each a model, a batch and a budget, its stages the techniques'
//! own (each technique module declares its stages, what they say before they run and what
//! the story expects; what they say after is computed from the numbers, `verdict`).

use crate::technique::Variant;
pub use crate::technique::{Expect, Stage};

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
    /// grad-accum's micro-batches per step (`--steps`), dividing the part's batch.
    pub accum_steps: u64,
}

impl Part {
    /// Its stages, in order: every technique's stage for this part, by their order.
    pub fn stages(&self) -> Vec<Stage> {
        let mut out: Vec<Stage> = Variant::ALL
            .iter()
            .flat_map(|v| v.technique().stages())
            .filter(|s| s.part == self.number)
            .copied()
            .collect();
        out.sort_by_key(|s| s.order);
        out
    }

    /// The stages a lesson on a GPU (`gpu`) or on the CPU runs, in order.
    pub fn stages_on(&self, gpu: bool) -> impl Iterator<Item = Stage> {
        self.stages()
            .into_iter()
            .filter(move |s| gpu || !s.gpu_only)
    }
}

/// The lesson's parts, in order.
pub const PARTS: [Part; 2] = [
    Part {
        number: 1,
        title: "a batch too big for the card",
        intro: "The activations, what the forward pass keeps for the backward pass, grow with the batch; the model's own state is small. Each technique below shrinks the activations in its own way.",
        folder: "",
        accum_steps: 4,
    },
    Part {
        number: 2,
        title: "a model too big for the card",
        intro: "The same card, a much bigger model at a small batch: now the weights, gradients and AdamW's two moments (16 bytes per parameter in f32), with the new weights and moments the update makes beside them, do not fit before a single activation is kept. The techniques of part 1 shrink activations; what shrinks the fixed state, or moves it off the card?",
        folder: "big-model",
        accum_steps: 2,
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
        assert_eq!(gpu.len(), big.stages().len());
        let for_a_gpu: Vec<Variant> = big
            .stages()
            .iter()
            .filter(|s| s.gpu_only)
            .map(|s| s.variant)
            .collect();
        assert!(!for_a_gpu.is_empty());
        assert_eq!(cpu.len() + for_a_gpu.len(), gpu.len());
        assert!(for_a_gpu.iter().all(|v| !cpu.contains(v)));
        assert_eq!(PARTS[0].stages_on(false).count(), PARTS[0].stages().len());
    }

    #[test]
    fn each_part_opens_with_the_baseline_and_runs_a_row_once() {
        for part in PARTS {
            let stages = part.stages();
            assert!(stages[0].variant.is_baseline(), "part {}", part.number);
            let mut rows: Vec<&str> = stages.iter().map(|s| s.variant.name()).collect();
            let n = rows.len();
            rows.dedup();
            assert_eq!(rows.len(), n, "part {}", part.number);
        }
    }
}
