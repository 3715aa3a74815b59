//! What each lesson stage says after it ran, computed from that run's numbers and the
//! baseline's: every ratio and every direction ("less", "more") in these sentences comes
//! from the figures beside it, so a text cannot claim a saving its run did not show
//! (issue 27: "mixed precision halves the activations" next to a -16% peak).

use crate::results::anatomy::of;
use crate::results::{Category, StepAnatomy, StepPoint};
use crate::units::Bytes;
use crate::vocab::Variant;

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
}

impl StageNumbers {
    /// The activations and fixed state of a run's [`StepAnatomy`].
    pub fn with_anatomy(mut self, a: &StepAnatomy) -> Self {
        let measured = a.measured_stacks();
        self.activations = measured
            .iter()
            .find(|(at, _)| *at == StepPoint::Forward)
            .map(|(_, s)| of(s, Category::Activations));
        if let Some(p) = a.predicted_stack(StepPoint::Forward) {
            self.predicted_activations = Some(of(p, Category::Activations));
        }
        if let Some(p) = a.predicted_stack(StepPoint::Start) {
            self.fixed = Some(Bytes(
                of(p, Category::Weights).0 + of(p, Category::OptimizerState).0,
            ));
        }
        self.micro_batch = Some(a.plan.micro_batch);
        self
    }

    /// Measured activations, else predicted, and which it was.
    fn activations(&self) -> Option<(Bytes, &'static str)> {
        self.activations
            .map(|a| (a, "measured"))
            .or(self.predicted_activations.map(|a| (a, "predicted")))
    }
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

/// The activations of `this` against the baseline's, in a sentence (none when either
/// is unknown).
fn activations_line(this: &StageNumbers, base: &StageNumbers) -> Option<String> {
    let (a, how) = this.activations()?;
    let (b, base_how) = base.activations()?;
    Some(format!(
        "The activations after the forward pass ({how}) were {a}, {} the baseline's {b} ({base_how}{}).",
        relative(a, b),
        if base.completed { "" } else { ": it never finished a step" }
    ))
}

/// What `variant`'s stage says after it ran.
pub fn after_text(variant: Variant, this: &StageNumbers, base: &StageNumbers) -> String {
    let mut out = Vec::new();
    match variant {
        Variant::Baseline => {
            if let (Some(f), Some((a, how))) = (this.fixed, this.activations()) {
                out.push(format!(
                    "Weights and AdamW's two moments take {f} whatever the batch (with the gradients, 16 bytes per parameter in f32); the activations after the forward pass, {a} ({how}), grow with the batch: {} of the fixed state here, so the next stages shrink them.",
                    ratio_words(a, f)
                ));
            }
        }
        Variant::AmpBf16 | Variant::AmpF16 => {
            out.extend(activations_line(this, base));
            out.push(
                "The master weights and AdamW's moments stay in f32 and a half copy of the weights is added: mixed precision shrinks the activations only (`oomlab explain amp`)."
                    .into(),
            );
        }
        Variant::GradAccum => {
            out.extend(activations_line(this, base));
            if let (Some(m), Some(b)) = (this.micro_batch, base.micro_batch) {
                out.push(format!(
                    "A micro-batch of {m} instead of {b}; the update is still the whole batch's (tested to 1e-5 in f32), paid for in time with smaller passes. Weights, gradients and optimizer state do not shrink (`oomlab explain grad-accum`)."
                ));
            }
        }
        Variant::Checkpointing => {
            out.extend(activations_line(this, base));
            out.push(
                "What it saves depends on how much of the forward pass is element-wise work; the recomputation costs time (`oomlab explain checkpointing`)."
                    .into(),
            );
        }
        Variant::AutoHalve => {
            if this.oom_retries > 0 && this.completed {
                out.push(format!(
                    "It ran out of memory {} time(s), discarded each failed attempt and finished at {}: its peak ({}) includes the failed attempt, not only the split it kept. Every attempt is in retries.jsonl; the effective batch is kept, so the updates are gradient accumulation's at the split it found (`oomlab explain auto-halve`).",
                    this.oom_retries,
                    this.split,
                    this.peak.map_or("n/a".to_string(), |p| p.to_string())
                ));
            } else if this.completed {
                out.push(format!(
                    "It never ran out of memory, so it trained at {} like the baseline would (`oomlab explain auto-halve`).",
                    this.split
                ));
            }
        }
        _ => {}
    }
    out.join(" ")
}

/// `a` against `b` as a multiple or a fraction: "3.2x", "0.40x".
fn ratio_words(a: Bytes, b: Bytes) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn mib(n: u64) -> Bytes {
        Bytes(n << 20)
    }

    fn stage(activations: Option<u64>, predicted: Option<u64>, completed: bool) -> StageNumbers {
        StageNumbers {
            peak: Some(mib(60)),
            activations: activations.map(mib),
            predicted_activations: predicted.map(mib),
            fixed: Some(mib(2)),
            split: "96 x 1".into(),
            micro_batch: Some(96),
            oom_retries: 0,
            completed,
        }
    }

    #[test]
    fn the_direction_and_size_come_from_the_numbers() {
        assert_eq!(relative(mib(30), mib(60)), "50% less than");
        assert_eq!(relative(mib(66), mib(60)), "10% more than");
        assert_eq!(relative(mib(60), mib(60)), "the same as");
    }

    #[test]
    fn a_technique_that_kept_more_says_more_and_never_halves() {
        let base = stage(None, Some(50), false);
        let amp = stage(Some(55), Some(25), true);
        let text = after_text(Variant::AmpBf16, &amp, &base);
        assert!(text.contains("55.0 MiB, 10% more than the baseline's 50.0 MiB (predicted: it never finished a step)"), "{text}");
        assert!(!text.contains("halve"), "{text}");
        let fit = stage(Some(20), Some(25), true);
        let text = after_text(Variant::Checkpointing, &fit, &base);
        assert!(text.contains("60% less than"), "{text}");
    }

    #[test]
    fn auto_halve_says_its_peak_was_the_failed_attempts() {
        let mut a = stage(Some(20), Some(20), true);
        a.oom_retries = 1;
        a.split = "48 x 2".into();
        let text = after_text(Variant::AutoHalve, &a, &stage(None, Some(50), false));
        assert!(text.contains("ran out of memory 1 time(s)"), "{text}");
        assert!(
            text.contains("finished at 48 x 2: its peak (60.0 MiB) includes the failed attempt"),
            "{text}"
        );
    }

    #[test]
    fn the_baseline_sets_its_activations_against_the_fixed_state() {
        let text = after_text(
            Variant::Baseline,
            &stage(None, Some(50), false),
            &StageNumbers::default(),
        );
        assert!(text.contains("take 2.0 MiB whatever the batch"), "{text}");
        assert!(text.contains("50.0 MiB (predicted)"), "{text}");
        assert!(text.contains("25x of the fixed state"), "{text}");
    }
}
