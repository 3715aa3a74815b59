//! `train`'s fit check: a run whose predicted peak is beyond what the machine has is
//! refused before it starts, with the settings that would fit.

use super::fit::{largest_batch, largest_micro_batch};
use super::model::{Estimate, Target};
use crate::config::{HalfDtype, PrecisionMode, RunConfig, Split};
use crate::units::Bytes;

/// The estimate's error bound, validated on the CPU (`tiny`, every strategy): a run is
/// refused only when even a prediction this much too high would not fit.
pub const MARGIN: f64 = 0.10;

/// A run refused because its predicted peak is beyond what the machine has.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("this run cannot fit: `oomlab estimate` predicts a peak of {peak} and {what} is {capacity} (refused only when the prediction exceeds it by more than {:.0}%); {}. `oomlab estimate` with the same flags shows every term", MARGIN * 100.0, self.hint())]
pub struct WontFit {
    /// The predicted peak.
    pub peak: Bytes,
    /// What the machine has.
    pub capacity: Bytes,
    /// What the capacity is ("the host RAM available now").
    pub what: String,
    /// The flags that would each fit, in the order tried.
    pub would: Vec<String>,
}

impl WontFit {
    /// What would fit, or that nothing oomlab changes would.
    fn hint(&self) -> String {
        if self.would.is_empty() {
            "nothing oomlab can change at this model size fits: a narrower model (--d-model, --n-layers) or a larger machine (`oomlab estimate` shows the card)".to_string()
        } else {
            format!("each of these would fit: {}", self.would.join("; "))
        }
    }
}

/// `Ok` when `cfg` may fit `capacity` (`what` names it, e.g. "host RAM available");
/// otherwise the predicted peak, the capacity, and what would fit.
pub fn check_fits(
    cfg: &RunConfig,
    vocab: usize,
    target: Target,
    capacity: Bytes,
    what: &str,
) -> Result<(), WontFit> {
    let fits = |c: &RunConfig| {
        let peak = Estimate::of(c, vocab, target).peak;
        (peak.0 as f64) * (1.0 - MARGIN) <= capacity.0 as f64
    };
    let auto_halve = matches!(cfg.train.split, Split::AutoHalve(_));
    if auto_halve {
        // auto-halve finds its own micro-batch: refuse only when one sample cannot fit.
        if largest_micro_batch(
            cfg,
            vocab,
            target,
            Bytes((capacity.0 as f64 / (1.0 - MARGIN)) as u64),
        )
        .is_some()
        {
            return Ok(());
        }
    } else if fits(cfg) {
        return Ok(());
    }
    let peak = Estimate::of(cfg, vocab, target).peak;
    let mut would = Vec::new();
    if let Some(n) = largest_batch(cfg, vocab, target, capacity).filter(|_| !auto_halve) {
        would.push(format!("--batch {n}"));
    }
    let batch = cfg.train.batch;
    let mut k = 2;
    while k <= batch {
        if batch % k == 0 {
            let mut c = cfg.clone();
            c.train.split = Split::GradAccum { steps: k };
            if fits(&c) {
                would.push(format!("--strategy grad-accum --steps {k}"));
                break;
            }
        }
        k *= 2;
    }
    let mut c = cfg.clone();
    c.train.checkpointing = true;
    if !cfg.train.checkpointing && fits(&c) {
        would.push("--checkpointing".into());
    }
    if cfg.train.precision == PrecisionMode::F32 {
        let mut c = cfg.clone();
        c.train.precision = PrecisionMode::Mixed(HalfDtype::Bf16);
        if fits(&c) {
            would.push("--precision bf16".into());
        }
    }
    Err(WontFit {
        peak,
        capacity,
        what: what.to_string(),
        would,
    })
}
