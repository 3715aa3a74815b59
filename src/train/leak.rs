//! The leak detector: after a warm-up, memory in use at the end of each step should stay
//! flat while the split stays the same (every step frees what it made). When it keeps
//! growing at a fixed split, something keeps tensors from earlier steps alive: a leak,
//! which no smaller batch fixes.

use crate::results::{LeakAlarm, LeakReport, LeakSpec};
use crate::strategy::StepPlan;
use crate::units::Bytes;

/// Watches the bytes in use after each step.
#[derive(Debug, Clone)]
pub struct LeakWatch {
    spec: LeakSpec,
    source: String,
    seen: usize,
    /// Consecutive (step, in use) at the current split.
    run: Vec<(usize, u64)>,
    plan: Option<StepPlan>,
    alarm: Option<LeakAlarm>,
}

impl LeakWatch {
    /// A detector reading `source`.
    pub fn new(spec: LeakSpec, source: &str) -> Self {
        Self {
            spec,
            source: source.to_string(),
            seen: 0,
            run: Vec::new(),
            plan: None,
            alarm: None,
        }
    }

    /// Records the bytes in use after `step` (run at `plan`); returns the alarm's line
    /// when this step raised it for the first time.
    pub fn observe(
        &mut self,
        step: usize,
        plan: StepPlan,
        in_use: Option<Bytes>,
    ) -> Option<String> {
        self.seen += 1;
        let in_use = in_use?;
        if self.spec.window == 0 || self.seen <= self.spec.warm_up {
            return None;
        }
        if self.plan != Some(plan) {
            // Another split needs other memory: start over.
            self.plan = Some(plan);
            self.run.clear();
        }
        self.run.push((step, in_use.0));
        let w = self.spec.window.max(3);
        if self.run.len() > w {
            self.run.remove(0);
        }
        if self.run.len() < w {
            return None;
        }
        let first_time = self.alarm.is_none();
        let found = self.assess(self.run.len());
        if found.is_some() {
            self.alarm = found;
        }
        if first_time {
            self.alarm.as_ref().map(|a| a.line(&self.source))
        } else {
            None
        }
    }

    /// Whether the last `n` (at least 3) steps at the current split grew as a leak does:
    /// a least-squares slope at or above the threshold, and growth in at least three steps
    /// of four (allocator noise may hold a step flat, a real leak does not shrink).
    fn assess(&self, n: usize) -> Option<LeakAlarm> {
        let n = n.max(3);
        if self.run.len() < n {
            return None;
        }
        let pts = &self.run[self.run.len() - n..];
        let mean_x = pts.iter().map(|p| p.0 as f64).sum::<f64>() / n as f64;
        let mean_y = pts.iter().map(|p| p.1 as f64).sum::<f64>() / n as f64;
        let (mut sxy, mut sxx) = (0.0, 0.0);
        for (x, y) in pts {
            sxy += (*x as f64 - mean_x) * (*y as f64 - mean_y);
            sxx += (*x as f64 - mean_x).powi(2);
        }
        let slope = if sxx > 0.0 { sxy / sxx } else { 0.0 };
        let rises = pts.windows(2).filter(|w| w[1].1 > w[0].1).count();
        let falls = pts.windows(2).filter(|w| w[1].1 < w[0].1).count();
        let leaking =
            slope >= self.spec.per_step.0 as f64 && rises * 4 >= (n - 1) * 3 && falls == 0;
        leaking.then(|| LeakAlarm {
            from_step: pts[0].0,
            to_step: pts[n - 1].0,
            micro_batch: self.plan.map_or(0, |p| p.micro_batch),
            per_step: Bytes(slope as u64),
            grown: Bytes(pts[n - 1].1.saturating_sub(pts[0].1)),
        })
    }

    /// At an out-of-memory failure: does the memory before it look like a leak? The
    /// raised alarm if there is one, else the same test over the (at least 5) steps seen
    /// at the current split, so a leak that runs out before a full window still counts
    /// (and is then the alarm).
    pub fn suspect(&mut self) -> Option<LeakAlarm> {
        if self.spec.window == 0 {
            return None;
        }
        if self.alarm.is_none() && self.run.len() >= 5 {
            self.alarm = self.assess(self.run.len());
        }
        self.alarm.clone()
    }

    /// The summary's part.
    pub fn report(&self) -> LeakReport {
        LeakReport {
            spec: self.spec,
            source: self.source.clone(),
            watched_steps: self.seen.saturating_sub(self.spec.warm_up),
            alarm: self.alarm.clone(),
        }
    }

    /// What the detector reads, for messages.
    pub fn source(&self) -> &str {
        &self.source
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIB: u64 = 1 << 20;

    fn feed(w: &mut LeakWatch, from: usize, values: &[u64], plan: StepPlan) -> Vec<usize> {
        let mut raised = Vec::new();
        for (i, v) in values.iter().enumerate() {
            if w.observe(from + i, plan, Some(Bytes(*v))).is_some() {
                raised.push(from + i);
            }
        }
        raised
    }

    fn spec() -> LeakSpec {
        LeakSpec {
            warm_up: 2,
            window: 6,
            per_step: Bytes(MIB),
        }
    }

    #[test]
    fn steady_growth_at_one_split_raises_the_alarm_once() {
        let mut w = LeakWatch::new(spec(), "host heap in use");
        let plan = StepPlan::even(8, 1);
        // Two warm-up steps (large jumps, ignored), then 38 MiB per step.
        let values: Vec<u64> = [500 * MIB, 900 * MIB]
            .into_iter()
            .chain((0..10).map(|i| 100 * MIB + i * 38 * MIB))
            .collect();
        let raised = feed(&mut w, 0, &values, plan);
        assert_eq!(raised, vec![7], "raised once, when the window was full");
        let a = w.report().alarm.unwrap();
        assert_eq!(a.per_step, Bytes(38 * MIB));
        assert_eq!((a.from_step, a.to_step, a.micro_batch), (6, 11, 8));
        assert!(
            a.line("host heap in use")
                .contains("grew 38.0 MiB per step over 6 steps"),
            "{}",
            a.line("x")
        );
    }

    #[test]
    fn flat_or_noisy_memory_and_a_change_of_split_raise_nothing() {
        let mut w = LeakWatch::new(spec(), "x");
        let plan = StepPlan::even(8, 1);
        let noisy: Vec<u64> = (0..30).map(|i| 100 * MIB + (i % 3) * 5 * MIB).collect();
        assert!(feed(&mut w, 0, &noisy, plan).is_empty());
        // A smaller split after a halving holds less, a larger one more: not a leak.
        let mut w = LeakWatch::new(spec(), "x");
        for (i, m) in [8usize, 4, 2, 1, 2, 4, 8, 4].iter().enumerate() {
            let steps: Vec<u64> = vec![*m as u64 * 10 * MIB; 3];
            assert!(feed(&mut w, i * 3, &steps, StepPlan::split(8, *m)).is_empty());
        }
        assert!(w.suspect().is_none());
    }

    #[test]
    fn a_short_run_of_growth_is_suspected_at_an_oom() {
        let mut w = LeakWatch::new(spec(), "x");
        let plan = StepPlan::even(8, 1);
        let values: Vec<u64> = (0..7).map(|i| 100 * MIB + i * 4 * MIB).collect();
        assert!(feed(&mut w, 0, &values, plan).is_empty());
        let s = w.suspect().unwrap();
        assert_eq!(s.per_step, Bytes(4 * MIB));
        // Off: never.
        let mut off = LeakWatch::new(
            LeakSpec {
                window: 0,
                ..spec()
            },
            "x",
        );
        feed(&mut off, 0, &values, plan);
        assert!(off.suspect().is_none());
    }
}
