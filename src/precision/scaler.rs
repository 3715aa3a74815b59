//! Dynamic loss scaling, as PyTorch's GradScaler does it: multiply the loss so that small
//! f16 gradients do not flush to zero, and back off when that makes them overflow.

use serde::{Deserialize, Serialize};

use crate::config::LossScaleSpec;

/// What the scaler decided after a step's gradients were checked.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum ScaleUpdate {
    /// Gradients were finite; the step was applied and the scale kept.
    Kept,
    /// Gradients were finite for `growth_interval` steps in a row: the scale grew.
    Grew {
        /// The new scale.
        to: f64,
    },
    /// Some gradient was inf or NaN: the step was skipped and the scale reduced.
    BackedOff {
        /// The new scale.
        to: f64,
    },
}

/// The state of dynamic loss scaling.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LossScaler {
    spec: LossScaleSpec,
    scale: f64,
    clean_steps: usize,
    skipped: usize,
    backoffs: usize,
    growths: usize,
}

impl LossScaler {
    /// Starts at `spec.init_scale`.
    pub fn new(spec: LossScaleSpec) -> Self {
        Self {
            scale: spec.init_scale,
            spec,
            clean_steps: 0,
            skipped: 0,
            backoffs: 0,
            growths: 0,
        }
    }

    /// The factor the loss is multiplied by now.
    pub fn scale(&self) -> f64 {
        self.scale
    }

    /// Steps skipped so far because of inf/NaN gradients.
    pub fn skipped(&self) -> usize {
        self.skipped
    }

    /// Times the scale grew.
    pub fn growths(&self) -> usize {
        self.growths
    }

    /// Records the outcome of a step: `finite` says whether every gradient was finite.
    /// A non-finite step is skipped by the caller.
    pub fn update(&mut self, finite: bool) -> ScaleUpdate {
        if !finite {
            self.skipped += 1;
            self.backoffs += 1;
            self.clean_steps = 0;
            // Never below the smallest positive f32, so the scale stays usable.
            self.scale = (self.scale * self.spec.backoff_factor).max(f64::from(f32::MIN_POSITIVE));
            return ScaleUpdate::BackedOff { to: self.scale };
        }
        self.clean_steps += 1;
        if self.clean_steps >= self.spec.growth_interval {
            self.clean_steps = 0;
            let grown = self.scale * self.spec.growth_factor;
            // Growing to inf would make every later step overflow.
            if grown.is_finite() && grown <= f64::from(f32::MAX) {
                self.scale = grown;
                self.growths += 1;
                return ScaleUpdate::Grew { to: grown };
            }
        }
        ScaleUpdate::Kept
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(interval: usize) -> LossScaleSpec {
        LossScaleSpec {
            init_scale: 65536.0,
            growth_factor: 2.0,
            backoff_factor: 0.5,
            growth_interval: interval,
        }
    }

    #[test]
    fn an_overflow_halves_the_scale_and_counts_a_skipped_step() {
        let mut s = LossScaler::new(spec(2000));
        assert_eq!(s.update(false), ScaleUpdate::BackedOff { to: 32768.0 });
        assert_eq!(s.update(false), ScaleUpdate::BackedOff { to: 16384.0 });
        assert_eq!(s.skipped(), 2);
        assert_eq!(s.update(true), ScaleUpdate::Kept);
        assert_eq!(s.scale(), 16384.0);
    }

    #[test]
    fn the_scale_doubles_after_growth_interval_clean_steps_in_a_row() {
        let mut s = LossScaler::new(spec(3));
        assert_eq!(s.update(true), ScaleUpdate::Kept);
        assert_eq!(s.update(true), ScaleUpdate::Kept);
        // An overflow resets the count of clean steps.
        assert_eq!(s.update(false), ScaleUpdate::BackedOff { to: 32768.0 });
        assert_eq!(s.update(true), ScaleUpdate::Kept);
        assert_eq!(s.update(true), ScaleUpdate::Kept);
        assert_eq!(s.update(true), ScaleUpdate::Grew { to: 65536.0 });
        assert_eq!((s.skipped(), s.growths()), (1, 1));
    }

    #[test]
    fn the_scale_stays_finite_and_positive() {
        let mut s = LossScaler::new(LossScaleSpec {
            init_scale: f64::from(f32::MAX),
            ..spec(1)
        });
        assert_eq!(s.update(true), ScaleUpdate::Kept);
        assert_eq!(s.scale(), f64::from(f32::MAX));
        for _ in 0..400 {
            s.update(false);
        }
        assert!(s.scale() > 0.0);
    }
}
