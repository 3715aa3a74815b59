//! What each lesson stage says after it ran, computed from that run's numbers and the
//! baseline's: every ratio and every direction ("less", "more") in these sentences comes
//! from the figures beside it, so a text cannot claim a saving its run did not show
//! (issue 27: "mixed precision halves the activations" next to a -16% peak).

use crate::results::anatomy::of;
use crate::results::{Category, StepAnatomy, StepPoint};
use crate::technique::story::relative;
pub use crate::technique::StageNumbers;
use crate::technique::Variant;
use crate::units::Bytes;

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
}

/// What `variant`'s stage of lesson part `part` says after it ran: the technique's own
/// sentences, computed from its figures and the baseline's.
pub fn after_text(
    part: usize,
    variant: Variant,
    this: &StageNumbers,
    base: &StageNumbers,
) -> String {
    let technique = variant.technique();
    if part != 2 {
        return technique.after_batch_stage(this, base).join(" ");
    }
    // Part 2: the fixed state against the budget, and what changed it.
    let Some(fig) = this.big_figures() else {
        return fit_clause(this).unwrap_or_default();
    };
    let mut out = technique.after_model_stage(&fig, this, base);
    out.extend(fit_clause(this));
    out.extend(technique.after_model_fit(this));
    out.join(" ")
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
    fn a_technique_that_kept_more_says_more_and_never_halves() {
        let base = stage(None, Some(50), false);
        let amp = stage(Some(55), Some(25), true);
        let text = after_text(1, Variant::named("amp-bf16"), &amp, &base);
        assert!(text.contains("55.0 MiB, 10% more than the baseline's 50.0 MiB (predicted: it never finished a step)"), "{text}");
        assert!(!text.contains("halve"), "{text}");
        let fit = stage(Some(20), Some(25), true);
        let text = after_text(1, Variant::named("checkpointing"), &fit, &base);
        assert!(text.contains("60% less than"), "{text}");
    }

    #[test]
    fn auto_halve_says_its_peak_was_the_failed_attempts() {
        let mut a = stage(Some(20), Some(20), true);
        a.oom_retries = 1;
        a.split = "48 x 2".into();
        let text = after_text(
            1,
            Variant::named("auto-halve"),
            &a,
            &stage(None, Some(50), false),
        );
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
            Variant::BASELINE,
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
        let text = after_text(2, Variant::BASELINE, &base, &base);
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
            Variant::named("checkpointing"),
            &big(48, 84, Some(70), false),
            &base,
        );
        assert!(
            text.contains("it acts on the activations only: the update still needs 84.0 MiB"),
            "{text}"
        );
        let amp = after_text(
            2,
            Variant::named("amp-bf16"),
            &big(48, 84, Some(70), false),
            &base,
        );
        assert!(
            amp.contains("29% more than the 65.0 MiB budget, as in the baseline"),
            "{amp}"
        );
        let half = big(24, 42, Some(52), true);
        let text = after_text(2, Variant::named("half-bf16"), &half, &base);
        assert!(text.contains("take 24.0 MiB by oomlab estimate's count (8 bytes per parameter), 50% less than the f32 AdamW baseline's 48.0 MiB"), "{text}");
        assert!(
            text.contains("It fits (peak 52.0 MiB, 20% less than the 65.0 MiB budget)."),
            "{text}"
        );
        // A technique that did not fit is not said to fit, whatever it saved.
        let text = after_text(
            2,
            Variant::named("sgd"),
            &big(32, 36, Some(66), false),
            &base,
        );
        assert!(
            text.contains("It ran out of memory.") && !text.contains("It fits"),
            "{text}"
        );
        let mut amp = big(48, 84, Some(77), false);
        amp.failed_step = Some(1);
        let text = after_text(2, Variant::named("amp-bf16"), &amp, &base);
        assert!(
            text.contains("It ran out of memory in step 2, after 1 step that fitted."),
            "{text}"
        );
        // The moments in host memory: the card's share against the baseline's, then the cost.
        let text = after_text(
            2,
            Variant::named("offload-optimizer"),
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
        let text = after_text(2, Variant::named("amp-bf16"), &cut, &base);
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
