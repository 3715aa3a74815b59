//! What each lesson stage says after it ran, computed from that run's numbers and the
//! baseline's: every ratio and every direction ("less", "more") in these sentences comes
//! from the figures beside it, so a text cannot claim a saving its run did not show
//! (issue 27: "mixed precision halves the activations" next to a -16% peak).

use crate::results::anatomy::of;
use crate::results::{Category, StepAnatomy, StepPoint};
use crate::units::Bytes;
use crate::words::Variant;

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

    /// The fixed state and the update of `e`, the estimate made before the run.
    pub fn with_estimate(mut self, e: &crate::estimate::Estimate) -> Self {
        let fixed = e.fixed_state();
        self.params = Some(e.params);
        self.fixed_state = Some(fixed);
        self.update = Some(e.update());
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
pub(super) fn relative(new: Bytes, old: Bytes) -> String {
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

/// What `variant`'s stage of lesson part `part` says after it ran.
pub fn after_text(
    part: usize,
    variant: Variant,
    this: &StageNumbers,
    base: &StageNumbers,
) -> String {
    if part == 2 {
        return big_model_text(variant, this, base);
    }
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
                    "It ran out of memory {}, discarded each failed attempt and finished at {}: its peak ({}) includes the failed attempt, not only the split it kept. Every attempt is in retries.jsonl; the effective batch is kept, so the updates are gradient accumulation's at the split it found (`oomlab explain auto-halve`).",
                    crate::text::count(this.oom_retries, "time", "times"),
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

/// Bytes per parameter, e.g. "16".
fn per_param(b: Bytes, params: u64) -> String {
    if params == 0 {
        return "n/a".into();
    }
    format!("{:.0}", b.0 as f64 / params as f64)
}

/// Whether the run fitted, with its peak against the budget.
fn fit_clause(this: &StageNumbers) -> Option<String> {
    let budget = this.budget?;
    let peak = this
        .peak
        .map(|p| format!("peak {p}, {} the {budget} budget", relative(p, budget)));
    Some(if this.completed && this.oom_retries == 0 {
        format!("It fits ({}).", peak.unwrap_or_default())
    } else if this.completed {
        format!(
            "It finished after {}.",
            crate::text::count(
                this.oom_retries,
                "out-of-memory failure",
                "out-of-memory failures"
            )
        )
    } else if this.out_of_memory {
        match this.failed_step {
            Some(n) if n > 0 => format!(
                "It ran out of memory in step {}, after {} that fitted.",
                n + 1,
                crate::text::count(n as u64, "step", "steps")
            ),
            _ => "It ran out of memory.".to_string(),
        }
    } else {
        "It did not finish, for another reason than memory: its status says why.".to_string()
    })
}

/// Part 2's texts: the fixed state against the budget, and what changed it.
fn big_model_text(variant: Variant, this: &StageNumbers, base: &StageNumbers) -> String {
    let mut out = Vec::new();
    let (Some(params), Some(fixed), Some(update), Some(budget)) =
        (this.params, this.fixed_state, this.update, this.budget)
    else {
        return fit_clause(this).unwrap_or_default();
    };
    match variant {
        Variant::Baseline => out.push(format!(
            "{params} parameters: by oomlab estimate's count, weights, gradients and AdamW's moments take {fixed} ({} bytes per parameter), and the update {update} ({} bytes per parameter) while the new weights and moments sit beside the old: {} the {budget} budget before a single activation.",
            per_param(fixed, params),
            per_param(update, params),
            relative(update, budget)
        )),
        Variant::AmpBf16 | Variant::AmpF16 => {
            out.extend(activations_line(this, base));
            out.push(format!(
                "It acts on the activations; the weights, gradients and moments are still {fixed} and the update {update} (predicted), {} the {budget} budget, as in the baseline.",
                relative(update, budget)
            ));
        }
        Variant::GradAccum | Variant::Checkpointing => {
            out.extend(activations_line(this, base));
            out.push(format!(
                "Like mixed precision, it acts on the activations only: the update still needs {update}."
            ));
        }
        Variant::HalfBf16 | Variant::HalfF16 | Variant::Sgd => {
            let what = if variant == Variant::Sgd {
                "Without optimizer state"
            } else {
                "All in half precision"
            };
            let against = match (base.fixed_state, base.update) {
                (Some(bf), Some(bu)) => format!(
                    ", {} the f32 AdamW baseline's {bf}; the update {update}, {} its {bu}",
                    relative(fixed, bf),
                    relative(update, bu)
                ),
                _ => format!("; the update {update}"),
            };
            out.push(format!(
                "{what}, weights, gradients and optimizer state take {fixed} by oomlab estimate's count ({} bytes per parameter){against}.",
                per_param(fixed, params)
            ));
        }
        Variant::OffloadOptimizer => {
            let against = match (base.fixed_state, base.update) {
                (Some(bf), Some(bu)) => format!(
                    ", {} the baseline's {bf}; the update {update}, {} its {bu}",
                    relative(fixed, bf),
                    relative(update, bu)
                ),
                _ => format!("; the update {update}"),
            };
            out.push(format!(
                "With AdamW's moments in host memory, the card keeps weights and gradients: {fixed} by oomlab estimate's count ({} bytes per parameter){against}.",
                per_param(fixed, params)
            ));
        }
        _ => {}
    }
    out.extend(fit_clause(this));
    if variant == Variant::OffloadOptimizer {
        out.push("It is the baseline's training, to rounding: only where the update runs has moved. Each step sends every gradient over the bus and every new weight back, so its steps are slower (its step time is in the table below).".into());
    }
    // Said once, where the part's first failure shows it.
    if this.failed_step.is_some_and(|n| n > 0) && variant == Variant::Baseline {
        out.push("AdamW makes its moments in the first update, so only from the second on does an update hold old and new moments together.".into());
    }
    if variant == Variant::Sgd {
        out.push("Its loss is not comparable with the others': SGD at AdamW's learning rate is another training, not the same one in less memory.".into());
    }
    out.join(" ")
}

/// What several devices would do for the big model, predicted: the per-device peaks with
/// AdamW's state split over N devices (`shard-optimizer`), against the budget.
pub fn several_devices_text(
    one_device: Bytes,
    state: Bytes,
    per_device: &[(usize, Bytes)],
    budget: Bytes,
) -> String {
    let each: Vec<String> = per_device
        .iter()
        .map(|(n, p)| {
            format!(
                "{n} devices {p} each ({})",
                if *p <= budget { "fits" } else { "does not fit" }
            )
        })
        .collect();
    format!(
        "With several devices (predicted by oomlab estimate, not run: this lesson runs on one device): data parallel with --strategy shard-optimizer gives each device its share of the batch and 1/N of AdamW's state ({state} in all). The f32 AdamW baseline's peak, {one_device} on one device, becomes {} against the {budget} budget. Weights and gradients stay whole on every device (`oomlab explain shard-optimizer`).",
        each.join(", ")
    )
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
            ..Default::default()
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
        let text = after_text(1, Variant::AmpBf16, &amp, &base);
        assert!(text.contains("55.0 MiB, 10% more than the baseline's 50.0 MiB (predicted: it never finished a step)"), "{text}");
        assert!(!text.contains("halve"), "{text}");
        let fit = stage(Some(20), Some(25), true);
        let text = after_text(1, Variant::Checkpointing, &fit, &base);
        assert!(text.contains("60% less than"), "{text}");
    }

    #[test]
    fn auto_halve_says_its_peak_was_the_failed_attempts() {
        let mut a = stage(Some(20), Some(20), true);
        a.oom_retries = 1;
        a.split = "48 x 2".into();
        let text = after_text(1, Variant::AutoHalve, &a, &stage(None, Some(50), false));
        assert!(text.contains("ran out of memory 1 time,"), "{text}");
        assert!(
            text.contains("finished at 48 x 2: its peak (60.0 MiB) includes the failed attempt"),
            "{text}"
        );
    }

    #[test]
    fn the_baseline_sets_its_activations_against_the_fixed_state() {
        let text = after_text(
            1,
            Variant::Baseline,
            &stage(None, Some(50), false),
            &StageNumbers::default(),
        );
        assert!(text.contains("take 2.0 MiB whatever the batch"), "{text}");
        assert!(text.contains("50.0 MiB (predicted)"), "{text}");
        assert!(text.contains("25x of the fixed state"), "{text}");
    }

    fn big(fixed: u64, update: u64, peak: Option<u64>, completed: bool) -> StageNumbers {
        StageNumbers {
            peak: peak.map(mib),
            completed,
            out_of_memory: !completed,
            budget: Some(mib(65)),
            params: Some(3 << 20),
            fixed_state: Some(mib(fixed)),
            update: Some(mib(update)),
            ..Default::default()
        }
    }

    #[test]
    fn the_big_model_texts_weigh_the_fixed_state_against_the_budget() {
        let base = big(48, 84, Some(70), false);
        let text = after_text(2, Variant::Baseline, &base, &base);
        assert!(
            text.contains("take 48.0 MiB (16 bytes per parameter)"),
            "{text}"
        );
        assert!(
            text.contains("the update 84.0 MiB (28 bytes per parameter)"),
            "{text}"
        );
        assert!(text.contains("29% more than the 65.0 MiB budget"), "{text}");
        assert!(text.ends_with("It ran out of memory."), "{text}");
        let text = after_text(
            2,
            Variant::Checkpointing,
            &big(48, 84, Some(70), false),
            &base,
        );
        assert!(
            text.contains("it acts on the activations only: the update still needs 84.0 MiB"),
            "{text}"
        );
        let amp = after_text(2, Variant::AmpBf16, &big(48, 84, Some(70), false), &base);
        assert!(
            amp.contains("29% more than the 65.0 MiB budget, as in the baseline"),
            "{amp}"
        );
        let half = big(24, 42, Some(52), true);
        let text = after_text(2, Variant::HalfBf16, &half, &base);
        assert!(text.contains("take 24.0 MiB by oomlab estimate's count (8 bytes per parameter), 50% less than the f32 AdamW baseline's 48.0 MiB"), "{text}");
        assert!(
            text.contains("It fits (peak 52.0 MiB, 20% less than the 65.0 MiB budget)."),
            "{text}"
        );
        // A technique that did not fit is not said to fit, whatever it saved.
        let text = after_text(2, Variant::Sgd, &big(32, 36, Some(66), false), &base);
        assert!(
            text.contains("It ran out of memory.") && !text.contains("It fits"),
            "{text}"
        );
        let mut amp = big(48, 84, Some(77), false);
        amp.failed_step = Some(1);
        let text = after_text(2, Variant::AmpBf16, &amp, &base);
        assert!(
            text.contains("It ran out of memory in step 2, after 1 step that fitted."),
            "{text}"
        );
        // The moments in host memory: the card's share against the baseline's, then the cost.
        let text = after_text(
            2,
            Variant::OffloadOptimizer,
            &big(24, 36, Some(50), true),
            &base,
        );
        assert!(text.contains("the card keeps weights and gradients: 24.0 MiB by oomlab estimate's count (8 bytes per parameter), 50% less than the baseline's 48.0 MiB"), "{text}");
        assert!(text.contains("It fits (peak 50.0 MiB"), "{text}");
        assert!(
            text.ends_with("(its step time is in the table below)."),
            "{text}"
        );
        // A run stopped by a time limit did not run out of memory, and does not say so.
        let mut cut = big(48, 84, Some(20), false);
        cut.out_of_memory = false;
        let text = after_text(2, Variant::AmpBf16, &cut, &base);
        assert!(!text.contains("ran out of memory"), "{text}");
    }

    #[test]
    fn several_devices_say_which_fit_and_that_they_were_not_run() {
        let t = several_devices_text(mib(90), mib(24), &[(2, mib(70)), (4, mib(60))], mib(65));
        assert!(t.contains("not run"), "{t}");
        assert!(
            t.contains("2 devices 70.0 MiB each (does not fit), 4 devices 60.0 MiB each (fits)"),
            "{t}"
        );
    }
}
