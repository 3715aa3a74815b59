//! What a technique says in the lesson: its stages (what runs, the question put to the
//! learner, what the story expects) and the figures its after-run sentences are computed
//! from. Every ratio and every direction ("less", "more") in those sentences comes from the
//! figures beside it, so a text cannot claim a saving its run did not show.

use crate::units::Bytes;

use super::Variant;

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
    /// The lesson part it belongs to, from 1.
    pub part: usize,
    /// Its place in the part: stages run in increasing order.
    pub order: u8,
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

/// The figures of one stage the texts use.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StageNumbers {
    /// The run's peak (NVML process on a GPU, the heap on the CPU), over every attempt.
    pub peak: Option<Bytes>,
    /// The activations after the forward pass: measured when a step completed.
    pub activations: Option<Bytes>,
    /// ... as `oomlab estimate` predicted them for the same split.
    pub predicted_activations: Option<Bytes>,
    /// Weights and optimizer state between steps, as predicted.
    pub fixed: Option<Bytes>,
    /// Its split, e.g. `24 x 4`.
    pub split: String,
    /// The micro-batch.
    pub micro_batch: Option<usize>,
    /// Out-of-memory failures on the way.
    pub oom_retries: u64,
    /// Whether it finished.
    pub completed: bool,
    /// The budget standing in for the card.
    pub budget: Option<Bytes>,
    /// Parameters, from the estimate.
    pub params: Option<u64>,
    /// Weights, gradients and optimizer state, as predicted: what no batch technique
    /// shrinks.
    pub fixed_state: Option<Bytes>,
    /// Those plus the new weights and state the update makes beside them, as predicted.
    pub update: Option<Bytes>,
    /// The step (from 0) whose out-of-memory failure stopped the run.
    pub failed_step: Option<usize>,
    /// Whether an out-of-memory failure stopped it (not a time limit, Ctrl-C or an
    /// error).
    pub out_of_memory: bool,
}

impl StageNumbers {
    /// Measured activations, else predicted, and which it was.
    pub fn activations(&self) -> Option<(Bytes, &'static str)> {
        self.activations
            .map(|a| (a, "measured"))
            .or(self.predicted_activations.map(|a| (a, "predicted")))
    }

    /// The figures part 2's sentences need, when all are known.
    pub fn big_figures(&self) -> Option<BigFigures> {
        Some(BigFigures {
            params: self.params?,
            fixed: self.fixed_state?,
            update: self.update?,
            budget: self.budget?,
        })
    }
}

/// Part 2's figures of a stage: the fixed state against the budget.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BigFigures {
    /// Parameters, from the estimate.
    pub params: u64,
    /// Weights, gradients and optimizer state, as predicted.
    pub fixed: Bytes,
    /// Those plus the new weights and state the update makes beside them, as predicted.
    pub update: Bytes,
    /// The budget standing in for the card.
    pub budget: Bytes,
}

/// `new` against `old` in words: "62% less than", "8% more than", "the same as".
pub fn relative(new: Bytes, old: Bytes) -> String {
    if old.0 == 0 {
        return "not comparable with".into();
    }
    let r = new.0 as f64 / old.0 as f64 - 1.0;
    if r.abs() < 0.005 {
        "the same as".into()
    } else if r < 0.0 {
        format!("{:.0}% less than", -r * 100.0)
    } else {
        format!("{:.0}% more than", r * 100.0)
    }
}

/// Bytes per parameter, e.g. "16".
pub fn per_param(b: Bytes, params: u64) -> String {
    if params == 0 {
        return "n/a".into();
    }
    format!("{:.0}", b.0 as f64 / params as f64)
}

/// The activations of `this` against the baseline's, in a sentence (none when either
/// is unknown).
pub fn activations_line(this: &StageNumbers, base: &StageNumbers) -> Option<String> {
    let (a, how) = this.activations()?;
    let (b, base_how) = base.activations()?;
    Some(format!(
        "The activations after the forward pass ({how}) were {a}, {} the baseline's {b} ({base_how}{}).",
        relative(a, b),
        if base.completed { "" } else { ": it never finished a step" }
    ))
}

/// A part-2 stage's fixed state against the baseline's, e.g. ", 50% less than the
/// baseline's 48.0 MiB; the update 36.0 MiB, 57% less than its 84.0 MiB" (`whose` names
/// the baseline).
pub fn state_against(fig: &BigFigures, base: &StageNumbers, whose: &str) -> String {
    let (fixed, update) = (fig.fixed, fig.update);
    match (base.fixed_state, base.update) {
        (Some(bf), Some(bu)) => format!(
            ", {} {whose} {bf}; the update {update}, {} its {bu}",
            relative(fixed, bf),
            relative(update, bu)
        ),
        _ => format!("; the update {update}"),
    }
}

/// `a` against `b` as a multiple or a fraction: "3.2x", "0.40x".
pub fn ratio_words(a: Bytes, b: Bytes) -> String {
    if b.0 == 0 {
        return "n/a".into();
    }
    let r = a.0 as f64 / b.0 as f64;
    if r >= 10.0 {
        format!("{r:.0}x")
    } else {
        format!("{r:.2}x")
    }
}

/// The activations line against the baseline's (when both are known), then `more`.
pub fn activations_then(
    this: &StageNumbers,
    base: &StageNumbers,
    more: impl IntoIterator<Item = String>,
) -> Vec<String> {
    activations_line(this, base)
        .into_iter()
        .chain(more)
        .collect()
}

/// Part 2's sentences for a technique that acts on the activations only (grad-accum,
/// checkpointing): what it saved, and that the update still needs the same.
pub fn activations_only(fig: &BigFigures, this: &StageNumbers, base: &StageNumbers) -> Vec<String> {
    activations_then(
        this,
        base,
        [format!(
            "Like mixed precision, it acts on the activations only: the update still needs {}.",
            fig.update
        )],
    )
}

/// Part 2's sentence for a technique that shrinks the fixed state on the card (`what`:
/// "All in half precision"), against the f32 AdamW baseline's.
pub fn smaller_state(what: &str, fig: &BigFigures, base: &StageNumbers) -> String {
    format!(
        "{what}, weights, gradients and optimizer state take {} by oomlab estimate's count ({} bytes per parameter){}.",
        fig.fixed,
        per_param(fig.fixed, fig.params),
        state_against(fig, base, "the f32 AdamW baseline's")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mib(n: u64) -> Bytes {
        Bytes(n << 20)
    }

    #[test]
    fn the_direction_and_size_come_from_the_numbers() {
        assert_eq!(relative(mib(30), mib(60)), "50% less than");
        assert_eq!(relative(mib(66), mib(60)), "10% more than");
        assert_eq!(relative(mib(60), mib(60)), "the same as");
        assert_eq!(per_param(mib(16), 1 << 20), "16");
    }
}
