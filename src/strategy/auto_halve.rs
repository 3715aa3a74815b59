//! Auto-halving: on OOM, retry the step with half the micro-batch; keep the effective
//! batch by doubling the accumulation (default) or shrink it (Accelerate's
//! `find_executable_batch_size`); optionally bisect back up towards the largest
//! micro-batch that fits.

use serde::{Deserialize, Serialize};

use super::{OomResponse, StepPlan, Strategy};
use crate::config::{AutoHalveSpec, SearchMode};
use crate::oom::{OomEvent, Phase};

/// The auto-halve strategy and the state of its search.
#[derive(Debug, Clone)]
pub struct AutoHalve {
    spec: AutoHalveSpec,
    search: Search,
}

/// What auto-halve has learnt so far (kept in checkpoints).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
struct Search {
    /// The configured effective batch.
    batch: usize,
    /// Largest micro-batch that has run a whole step.
    fit: Option<usize>,
    /// Smallest micro-batch that has failed.
    fail: Option<usize>,
    /// Upward probes made so far (bounded by `max_search_attempts`).
    probes: usize,
    /// Whether the plan in flight is an upward probe.
    probing: bool,
}

impl AutoHalve {
    /// A fresh search for `spec`.
    pub fn new(spec: AutoHalveSpec) -> Self {
        Self {
            spec,
            search: Search::default(),
        }
    }

    fn plan_for(&self, micro: usize) -> StepPlan {
        if self.spec.keep_effective_batch {
            StepPlan::split(self.search.batch, micro)
        } else {
            StepPlan::even(micro, self.spec.start_steps)
        }
    }

    /// Whether bisection has nothing left to gain: the micro-batch known to fit is
    /// within 10% of the largest one that could (which is below the smallest failure).
    fn converged(fit: usize, fail: usize) -> bool {
        fail <= fit + 1 || fit * 10 >= (fail - 1) * 9
    }
}

impl Strategy for AutoHalve {
    fn name(&self) -> &'static str {
        "auto-halve"
    }

    fn plan(&self, batch: usize) -> StepPlan {
        StepPlan::split(batch, batch / self.spec.start_steps)
    }

    fn on_oom(&mut self, plan: StepPlan, oom: &OomEvent) -> OomResponse {
        if self.search.batch == 0 {
            self.search.batch = plan.batch;
        }
        let m = plan.micro_batch;
        self.search.fail = Some(self.search.fail.map_or(m, |f| f.min(m)));
        if self.search.fit.is_some_and(|f| f >= m) {
            // It fitted before and does not now (longer data, fragmentation): forget it.
            self.search.fit = None;
        }
        if self.search.probing {
            self.search.probing = false;
            if let Some(fit) = self.search.fit {
                return OomResponse::Retry {
                    plan: self.plan_for(fit),
                    note: format!("probe at {m} failed; back to {fit}, which fits"),
                };
            }
        }
        let min = self.spec.min_micro_batch;
        if m <= min {
            let phase_hint = if oom.phase == Phase::Optimizer {
                " The failure was in the optimizer step, whose memory (weights, gradients, optimizer state) does not depend on the batch."
            } else {
                ""
            };
            return OomResponse::Stop(format!(
                "out of memory at micro-batch {m}, the minimum (--min-micro-batch {min}).{phase_hint} What would help: a smaller model (--d-model, --n-layers), a shorter context (--seq-len), SGD instead of AdamW (--set optim.kind=sgd: no optimizer state), freeing VRAM held by other processes (oomlab gpu), or a larger --vram-budget"
            ));
        }
        let mut next = (m / 2).max(min);
        let mut note = format!("halved {m} -> {next}");
        // Sizes the failure already shows cannot fit are skipped: in the forward pass the
        // step's memory is activations, which grow with the micro-batch, so a size
        // needing more than the step could have had fails for certain.
        if let (Phase::Forward, Some(need), Some(avail)) =
            (oom.phase, oom.step_needed_at_least, oom.step_available)
        {
            let needs = |size: usize| (need.0 as f64) * size as f64 / m as f64;
            let mut skipped = Vec::new();
            while next > min && needs(next) > avail.0 as f64 {
                skipped.push(next);
                next = (next / 2).max(min);
            }
            if !skipped.is_empty() {
                let list: Vec<String> = skipped.iter().map(|s| s.to_string()).collect();
                note = format!(
                    "halved {m} -> {next}, skipping {} (the failed attempt needed at least {need}, {avail} was available: those sizes cannot fit)",
                    list.join(", ")
                );
                self.search.fail = skipped.last().copied().or(self.search.fail);
            }
        }
        OomResponse::Retry {
            plan: self.plan_for(next),
            note,
        }
    }

    fn on_success(&mut self, plan: StepPlan) -> StepPlan {
        if self.search.batch == 0 {
            self.search.batch = plan.batch;
        }
        let m = plan.micro_batch;
        self.search.fit = Some(self.search.fit.map_or(m, |f| f.max(m)));
        self.search.probing = false;
        let (Some(fit), Some(fail)) = (self.search.fit, self.search.fail) else {
            return plan;
        };
        if self.spec.search == SearchMode::Bisect
            && self.search.probes < self.spec.max_search_attempts
            && !Self::converged(fit, fail)
        {
            self.search.probes += 1;
            self.search.probing = true;
            return self.plan_for((fit + fail) / 2);
        }
        self.plan_for(fit)
    }

    fn save_state(&self) -> serde_json::Value {
        serde_json::to_value(self.search).unwrap_or_default()
    }

    fn load_state(&mut self, state: &serde_json::Value) -> Result<(), serde_json::Error> {
        self.search = serde_json::from_value(state.clone())?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oom::OomKind;
    use crate::units::Bytes;

    fn spec(search: SearchMode, keep: bool) -> AutoHalveSpec {
        AutoHalveSpec {
            start_steps: 1,
            keep_effective_batch: keep,
            search,
            min_micro_batch: 1,
            max_search_attempts: 8,
        }
    }

    fn oom(phase: Phase) -> OomEvent {
        OomEvent {
            kind: OomKind::OutOfMemory,
            simulated: true,
            phase,
            step: 0,
            requested: None,
            message: String::new(),
            allocator: None,
            memory: None,
            step_needed_at_least: None,
            step_available: None,
        }
    }

    /// Drives the strategy against a memory limit: micro-batches above `limit` fail.
    fn drive(s: &mut AutoHalve, batch: usize, limit: usize, steps: usize) -> Vec<StepPlan> {
        let mut plan = s.plan(batch);
        let mut tried = vec![];
        let mut done = 0;
        while done < steps {
            tried.push(plan);
            if plan.micro_batch > limit {
                match s.on_oom(plan, &oom(Phase::Forward)) {
                    OomResponse::Retry { plan: p, .. } => plan = p,
                    OomResponse::Stop(m) => panic!("{m}"),
                }
            } else {
                plan = s.on_success(plan);
                done += 1;
            }
        }
        tried
    }

    #[test]
    fn halves_until_the_step_fits_and_keeps_the_effective_batch() {
        let mut s = AutoHalve::new(spec(SearchMode::Halve, true));
        let tried = drive(&mut s, 64, 10, 3);
        let micro: Vec<usize> = tried.iter().map(|p| p.micro_batch).collect();
        assert_eq!(micro, vec![64, 32, 16, 8, 8, 8]);
        assert!(tried.iter().all(|p| p.effective_batch() == 64));
        assert_eq!(tried[3].accumulation, 8);
    }

    #[test]
    fn without_keeping_the_effective_batch_the_batch_shrinks() {
        let mut s = AutoHalve::new(spec(SearchMode::Halve, false));
        let tried = drive(&mut s, 64, 10, 1);
        let last = tried[tried.len() - 1];
        assert_eq!((last.micro_batch, last.accumulation, last.batch), (8, 1, 8));
    }

    #[test]
    fn bisect_lands_within_ten_percent_of_the_largest_fit() {
        for limit in [1, 5, 10, 23, 37, 50, 63, 100, 129, 200, 255] {
            let mut s = AutoHalve::new(spec(SearchMode::Bisect, true));
            let tried = drive(&mut s, 256, limit, 12);
            let last = tried[tried.len() - 1].micro_batch;
            assert!(last <= limit, "limit {limit}: ended above it at {last}");
            assert!(
                last * 10 >= limit * 9,
                "limit {limit}: ended at {last}, more than 10% below"
            );
        }
    }

    #[test]
    fn bisect_stops_after_its_attempt_budget() {
        let mut s = AutoHalve::new(AutoHalveSpec {
            max_search_attempts: 1,
            ..spec(SearchMode::Bisect, true)
        });
        let tried = drive(&mut s, 256, 100, 6);
        let probes = tried
            .windows(2)
            .filter(|w| w[1].micro_batch > w[0].micro_batch);
        assert_eq!(probes.count(), 1);
    }

    #[test]
    fn below_the_minimum_it_stops_and_says_what_would_help() {
        let mut s = AutoHalve::new(AutoHalveSpec {
            min_micro_batch: 4,
            ..spec(SearchMode::Halve, true)
        });
        let r = s.on_oom(StepPlan::split(32, 4), &oom(Phase::Forward));
        let OomResponse::Stop(msg) = r else {
            panic!("{r:?}")
        };
        assert!(msg.contains("--min-micro-batch 4"), "{msg}");
        assert!(msg.contains("--seq-len"), "{msg}");
    }

    #[test]
    fn sizes_the_failure_rules_out_are_skipped() {
        let mut s = AutoHalve::new(spec(SearchMode::Halve, true));
        let mut e = oom(Phase::Forward);
        // At 64 the step had taken 8 GiB when it failed; 1 GiB was available: 32, 16 and
        // 8 would need at least 4, 2 and 1 GiB (+), so 4 is next.
        e.step_needed_at_least = Some(Bytes(8 << 30));
        e.step_available = Some(Bytes((1 << 30) - 1));
        let OomResponse::Retry { plan, note } = s.on_oom(StepPlan::split(64, 64), &e) else {
            panic!()
        };
        assert_eq!(plan.micro_batch, 4, "{note}");
        assert!(note.contains("skipping 32, 16, 8"), "{note}");
    }

    #[test]
    fn a_restored_search_continues_as_the_saved_one_would() {
        let mut a = AutoHalve::new(spec(SearchMode::Bisect, true));
        drive(&mut a, 64, 20, 2);
        let mut b = AutoHalve::new(spec(SearchMode::Bisect, true));
        b.load_state(&a.save_state()).unwrap();
        assert_eq!(drive(&mut a, 64, 20, 4), drive(&mut b, 64, 20, 4));
        assert!(b.load_state(&serde_json::json!({"fit": "x"})).is_err());
    }

    #[test]
    fn a_later_oom_at_a_size_that_fitted_halves_again() {
        let mut s = AutoHalve::new(spec(SearchMode::Halve, true));
        let p = s.on_success(StepPlan::split(32, 32));
        assert_eq!(p.micro_batch, 32);
        let OomResponse::Retry { plan, .. } = s.on_oom(p, &oom(Phase::Backward)) else {
            panic!()
        };
        assert_eq!((plan.micro_batch, plan.accumulation), (16, 2));
    }
}
