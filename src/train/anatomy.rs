//! Records one step's memory by category ([`StepAnatomy`]): armed after the first
//! applied step (that step also builds the optimizer's state and, on CUDA, its kernels),
//! the next step that completes is read at each [`StepPoint`]. Only that step waits for
//! the device at every phase boundary; a step that fails leaves the recorder armed for
//! the next one.

use crate::results::{Category, PointReading, Slice, StepPoint};
use crate::strategy::StepPlan;
use crate::units::Bytes;

/// What the trainer holds besides activations, in bytes, for the known categories.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct Held {
    /// The stored parameters (read from the tensors: count x dtype).
    pub weights: Bytes,
    /// Optimizer state per copy (0 before the optimizer's first update, or for SGD).
    pub state: Bytes,
    /// The optimizer's state after the update (moments x weights).
    pub new_state: Bytes,
    /// AMP's half copy (0 unless mixed precision).
    pub half_copy: Bytes,
    /// Micro-batches per step.
    pub accumulation: usize,
}

impl Held {
    /// The known categories at `at` (gradients share the weights' dtype and count).
    pub(super) fn known(&self, at: StepPoint) -> Vec<Slice> {
        let w = self.weights;
        let accum = if self.accumulation > 1 { w } else { Bytes(0) };
        let mut out = match at {
            StepPoint::Start => vec![
                (Category::Weights, w),
                (Category::OptimizerState, self.state),
            ],
            StepPoint::Forward => vec![
                (Category::Weights, w),
                (Category::OptimizerState, self.state),
                (Category::HalfCopy, self.half_copy),
                (Category::AccumulationBuffer, accum),
            ],
            StepPoint::Backward => vec![
                (Category::Weights, w),
                (Category::OptimizerState, self.state),
                (Category::Gradients, w),
                (Category::AccumulationBuffer, accum),
            ],
            // The last good weights and state are kept beside the new ones.
            StepPoint::Optimizer => vec![
                (Category::Weights, Bytes(2 * w.0)),
                (
                    Category::OptimizerState,
                    Bytes(self.state.0 + self.new_state.0),
                ),
            ],
        };
        out.retain(|(_, b)| b.0 > 0);
        out.into_iter()
            .map(|(category, bytes)| Slice { category, bytes })
            .collect()
    }
}

/// The recorder's state.
#[derive(Debug, Clone, Default)]
pub(super) struct AnatomyRecorder {
    armed: bool,
    points: Vec<PointReading>,
    done: Option<(usize, StepPlan, Vec<PointReading>)>,
}

impl AnatomyRecorder {
    /// Record the next step that completes (no-op once one is recorded).
    pub(super) fn arm(&mut self) {
        if self.done.is_none() {
            self.armed = true;
        }
    }

    /// Whether this step is read.
    pub(super) fn armed(&self) -> bool {
        self.armed
    }

    /// A step starts: forget a failed step's readings.
    pub(super) fn begin(&mut self) {
        self.points.clear();
    }

    /// A reading at `r.at`; a later one at the same point (the next micro-batch's)
    /// replaces it, so the last micro-batch's stays.
    pub(super) fn read(&mut self, r: PointReading) {
        self.points.retain(|p| p.at != r.at);
        self.points.push(r);
    }

    /// The step completed: keep its readings, in step order.
    pub(super) fn finish(&mut self, step: usize, plan: StepPlan) {
        if !self.armed {
            return;
        }
        let mut points = std::mem::take(&mut self.points);
        points.sort_by_key(|p| StepPoint::ALL.iter().position(|a| *a == p.at));
        self.done = Some((step, plan, points));
        self.armed = false;
    }

    /// The recorded step, its split and its readings.
    pub(super) fn recorded(&self) -> Option<&(usize, StepPlan, Vec<PointReading>)> {
        self.done.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::anatomy::of;

    #[test]
    fn after_the_optimizer_the_old_weights_and_state_sit_beside_the_new() {
        let h = Held {
            weights: Bytes(100),
            state: Bytes(200),
            new_state: Bytes(200),
            half_copy: Bytes(50),
            accumulation: 2,
        };
        let o = h.known(StepPoint::Optimizer);
        assert_eq!(of(&o, Category::Weights), Bytes(200));
        assert_eq!(of(&o, Category::OptimizerState), Bytes(400));
        let f = h.known(StepPoint::Forward);
        assert_eq!(of(&f, Category::HalfCopy), Bytes(50));
        assert_eq!(of(&f, Category::AccumulationBuffer), Bytes(100));
        assert_eq!(
            of(&h.known(StepPoint::Start), Category::Gradients),
            Bytes(0)
        );
    }

    #[test]
    fn a_failed_step_is_forgotten_and_the_next_completed_one_kept_in_order() {
        let mut r = AnatomyRecorder::default();
        let reading = |at| PointReading {
            at,
            in_use: Some(Bytes(1)),
            reserved: None,
            process: None,
            peak: None,
            known: Vec::new(),
        };
        r.arm();
        r.begin();
        r.read(reading(StepPoint::Start));
        // The step failed: the next begins again.
        r.begin();
        r.read(reading(StepPoint::Backward));
        r.read(reading(StepPoint::Start));
        r.finish(3, StepPlan::even(4, 1));
        let (step, _, points) = r.recorded().unwrap();
        assert_eq!(*step, 3);
        let at: Vec<StepPoint> = points.iter().map(|p| p.at).collect();
        assert_eq!(at, [StepPoint::Start, StepPoint::Backward]);
        assert!(!r.armed());
        r.arm();
        assert!(!r.armed(), "one step is recorded per run");
    }
}
