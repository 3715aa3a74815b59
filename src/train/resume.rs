//! The trainer's side of checkpoints: what goes into one at a step boundary, when the loop
//! writes one, and how a resumed run is put back where the checkpoint left it.

use std::path::PathBuf;
use std::time::Instant;

use super::trainer::{StepRecord, Trainer};
use crate::checkpoint::{self, Checkpoint, CheckpointMeta, ResumeMark};
use crate::results::AttemptRecord;
use crate::results::CheckpointReport;
use crate::strategy::{StepPlan, Strategy};
use crate::units::Bytes;

/// A checkpoint that could not be written (the run goes on without it).
#[derive(Debug, thiserror::Error)]
#[error("checkpoint before step {next_step} not written: {error}")]
pub struct NotWritten {
    /// The step it was to resume at.
    pub next_step: usize,
    /// Why it was not written.
    pub error: checkpoint::CheckpointError,
}
/// Where and how often a run writes checkpoints.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckpointPlan {
    /// The folder (the run folder's `checkpoints/`).
    pub dir: PathBuf,
    /// Every this many steps; 0: only when the run stops (Ctrl-C, SIGTERM, an
    /// out-of-memory stop, the end).
    pub every: usize,
    /// How many to keep (the newest).
    pub keep: usize,
}

/// What a resumed run starts from: a checkpoint that passed its checksum and the steps
/// and attempts the run folder logged before it.
#[derive(Debug, Clone)]
pub struct ResumeFrom {
    /// The checkpoint.
    pub checkpoint: Checkpoint,
    /// How this resume is recorded (file, skipped files, forced keys).
    pub mark: ResumeMark,
    /// Steps `0..next_step` from steps.jsonl.
    pub records: Vec<StepRecord>,
    /// Attempts before `next_step` from retries.jsonl.
    pub attempts: Vec<AttemptRecord>,
    /// Start a fresh split and strategy state instead of the checkpoint's (a forced
    /// change of the batch or the strategy).
    pub fresh_plan: bool,
}

/// Writes the checkpoints of one run.
pub struct Checkpointer {
    plan: CheckpointPlan,
    seed: u64,
    report: CheckpointReport,
    resumed_at: Option<usize>,
}

impl Checkpointer {
    /// For a run with `seed`; `resumes` is the history so far (this resume last).
    pub fn new(plan: CheckpointPlan, seed: u64, resumes: Vec<ResumeMark>) -> Self {
        // A resumed run's checkpoint already holds the state at its step.
        let resumed_at = resumes.last().map(|r| r.at_step);
        let report = CheckpointReport {
            dir: plan.dir.display().to_string(),
            every: plan.every,
            keep: plan.keep,
            resumes,
            ..Default::default()
        };
        Self {
            plan,
            seed,
            report,
            resumed_at,
        }
    }

    /// Whether a checkpoint is due after step `step` finished.
    pub fn due(&self, step: usize) -> bool {
        self.plan.every > 0 && (step + 1) % self.plan.every == 0
    }

    /// `--checkpoint-every`.
    pub fn every(&self) -> usize {
        self.plan.every
    }

    /// Whether the newest checkpoint already holds `next_step` steps.
    pub fn has(&self, next_step: usize) -> bool {
        self.report.last_next_step.or(self.resumed_at) == Some(next_step)
    }

    /// Writes the state before step `next_step` (split `plan` next): `Ok` is a line to
    /// show. A failure is recorded and returned; the run goes on.
    pub fn save<B: super::TrainBackend>(
        &mut self,
        trainer: &Trainer<B>,
        strategy: &dyn Strategy,
        next_step: usize,
        plan: StepPlan,
        reason: &str,
    ) -> Result<String, NotWritten> {
        let started = Instant::now();
        let result = crate::oom::contained(|| trainer.snapshot())
            .unwrap_or(Err(super::StateError::PanickedReading))
            .map_err(|e| checkpoint::CheckpointError::Record(e.to_string()))
            .and_then(|(model, optim)| {
                let ckpt = Checkpoint {
                    meta: CheckpointMeta {
                        oomlab_version: env!("CARGO_PKG_VERSION").to_string(),
                        next_step,
                        plan,
                        strategy_state: strategy.save_state(),
                        scaler: trainer.scaler().cloned(),
                        seed: self.seed,
                        reason: reason.to_string(),
                        created_unix: time::OffsetDateTime::now_utc().unix_timestamp(),
                        every: self.plan.every,
                        keep: self.plan.keep,
                        resumes: self.report.resumes.clone(),
                    },
                    model,
                    optim,
                };
                checkpoint::write_atomic(&self.plan.dir, &ckpt, self.plan.keep)
            });
        self.report.seconds += started.elapsed().as_secs_f64();
        match result {
            Ok(path) => {
                self.report.written += 1;
                self.report.last_next_step = Some(next_step);
                self.report.last_bytes = std::fs::metadata(&path).ok().map(|m| Bytes(m.len()));
                let line = format!(
                    "checkpoint: {} ({next_step} steps, {reason})",
                    path.display()
                );
                self.report.last = Some(path.display().to_string());
                Ok(line)
            }
            Err(error) => {
                let failed = NotWritten { next_step, error };
                self.report.errors.push(failed.to_string());
                Err(failed)
            }
        }
    }

    /// The summary's part.
    pub fn report(&self) -> CheckpointReport {
        self.report.clone()
    }
}

/// Puts a resumed run back: weights, optimizer state, loss scaler, the strategy's search
/// and split. Returns the first step to run and the split.
pub(super) fn restore<B: super::TrainBackend>(
    trainer: &mut Trainer<B>,
    strategy: &mut dyn Strategy,
    from: &ResumeFrom,
    fresh_plan: StepPlan,
) -> Result<(usize, StepPlan), super::StateError> {
    let c = &from.checkpoint;
    crate::oom::contained(|| {
        trainer.restore(c.model.clone(), c.optim.clone(), c.meta.scaler.clone())
    })
    .unwrap_or(Err(super::StateError::PanickedDecoding))?;
    let plan = if from.fresh_plan {
        fresh_plan
    } else {
        strategy.load_state(&c.meta.strategy_state)?;
        c.meta.plan
    };
    Ok((c.meta.next_step, plan))
}
