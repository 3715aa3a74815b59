//! The estimate at a step's phase boundaries, by category: what the trainer's
//! [`StepAnatomy`](crate::results::StepAnatomy) measures is set beside this.
//!
//! At the boundaries (not inside a phase, where the estimate's peak is):
//! - step start: weights and optimizer state;
//! - after forward: + the AMP copy, the accumulation buffer, the activations kept;
//! - after backward: the activations are freed with the graph; weights, state, the
//!   gradients and the accumulation buffer;
//! - after the optimizer: the last good weights and state beside the new ones.
//!
//! On a GPU the pool keeps the pages of the step's peak (growth) or its freed buffers
//! (exact) for the next step, so what is reserved stays at the peak's level at every
//! point: the slack is that level less the point's tensors. On the CPU freed blocks go
//! back to the system allocator: no slack.

use super::model::{Estimate, Moment, Target, TermKind};
use crate::results::{Category, PointPrediction, Slice, StepPoint};
use crate::units::Bytes;

impl Estimate {
    /// The prediction at every [`StepPoint`].
    pub fn points(&self) -> Vec<PointPrediction> {
        let t = |k| self.term(k);
        let weights = t(TermKind::Weights);
        let state = t(TermKind::OptimizerState);
        // The optimizer step's copy is the new weights (of the owned parameters) and
        // their new state.
        let new_weights = Bytes(t(TermKind::OptimizerStepCopy).0.saturating_sub(state.0));
        let gpu = matches!(self.target, Target::Cuda { .. });
        let level = Bytes(self.tensors_peak.0 + t(TermKind::AllocatorOverhead).0);
        StepPoint::ALL
            .iter()
            .map(|&at| {
                let slice = |category, bytes: Bytes| Slice { category, bytes };
                let mut stack = match at {
                    StepPoint::Start => vec![
                        slice(Category::Weights, weights),
                        slice(Category::OptimizerState, state),
                    ],
                    StepPoint::Forward => vec![
                        slice(Category::Weights, weights),
                        slice(Category::OptimizerState, state),
                        slice(Category::HalfCopy, t(TermKind::HalfCopy)),
                        slice(
                            Category::AccumulationBuffer,
                            t(TermKind::AccumulationBuffer),
                        ),
                        slice(Category::Activations, t(TermKind::Activations)),
                    ],
                    StepPoint::Backward => vec![
                        slice(Category::Weights, weights),
                        slice(Category::OptimizerState, state),
                        slice(Category::Gradients, t(TermKind::Gradients)),
                        slice(
                            Category::AccumulationBuffer,
                            t(TermKind::AccumulationBuffer),
                        ),
                    ],
                    StepPoint::Optimizer => vec![
                        slice(Category::Weights, Bytes(weights.0 + new_weights.0)),
                        slice(Category::OptimizerState, Bytes(2 * state.0)),
                    ],
                };
                stack.retain(|s| s.bytes.0 > 0);
                let tensors: u64 = stack.iter().map(|s| s.bytes.0).sum();
                if gpu {
                    stack.push(slice(
                        Category::PoolSlack,
                        Bytes(level.0.saturating_sub(tensors)),
                    ));
                }
                stack.push(slice(Category::Runtime, t(TermKind::Runtime)));
                let peak_here = matches!(
                    (self.moment, at),
                    (Moment::Backward, StepPoint::Backward)
                        | (Moment::Optimizer, StepPoint::Optimizer)
                );
                PointPrediction {
                    at,
                    stack,
                    peak: peak_here.then_some(self.peak),
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use crate::config::{load, ConfigSource};
    use crate::estimate::{Estimate, Target};
    use crate::results::anatomy::{of, total};
    use crate::results::{Category, StepPoint};

    fn estimate(precision: &str, target: Target) -> Estimate {
        let set = [(
            "train.precision".to_string(),
            toml::Value::String(precision.into()),
        )];
        let (_, cfg) = load(&ConfigSource::Builtin("gpu".into()), &set).unwrap();
        Estimate::of(&cfg, 47, target)
    }

    #[test]
    fn activations_appear_after_forward_and_the_optimizer_doubles_weights_and_state() {
        let e = estimate("f32", Target::Cpu { threads: 2 });
        let p = e.points();
        let at = |s: StepPoint| p.iter().find(|x| x.at == s).unwrap();
        let w = e.term(crate::estimate::TermKind::Weights);
        assert_eq!(of(&at(StepPoint::Start).stack, Category::Activations).0, 0);
        assert_eq!(
            of(&at(StepPoint::Forward).stack, Category::Activations),
            e.term(crate::estimate::TermKind::Activations)
        );
        assert_eq!(
            of(&at(StepPoint::Optimizer).stack, Category::Weights).0,
            2 * w.0
        );
        assert_eq!(of(&at(StepPoint::Backward).stack, Category::Gradients), w);
        // No pool on the CPU.
        assert!(p.iter().all(|x| of(&x.stack, Category::PoolSlack).0 == 0));
    }

    #[test]
    fn on_a_gpu_every_point_reaches_the_pools_level_and_amp_adds_the_half_copy() {
        let total_card = crate::units::Bytes(141 << 30);
        let e = estimate("bf16", Target::Cuda { total: total_card });
        let p = e.points();
        for x in &p {
            assert_eq!(total(&x.stack), e.peak, "{:?}", x.at);
        }
        let fwd = p.iter().find(|x| x.at == StepPoint::Forward).unwrap();
        assert!(of(&fwd.stack, Category::HalfCopy).0 > 0);
    }
}
