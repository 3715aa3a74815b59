//! One GPU's (or CPU peer's) place in a data-parallel run: its rank, the vote it shares
//! with the others, and, with `shard-optimizer`, which parameters it owns.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use super::shard::ShardPlan;
use super::vote::{Ballot, Failure, StepVote, Tally};
use crate::train::{StopFlag, TrainError};

/// What a trainer needs to know to be one of several.
pub struct Peer {
    /// 0-based; rank 0 reports (progress, run folder, summary).
    pub rank: usize,
    /// Device labels of every rank (`cuda:1`, `cpu`), for messages.
    pub labels: Vec<String>,
    /// The vote shared by all peers.
    pub vote: Arc<StepVote>,
    /// `shard-optimizer`: the owner of every parameter's optimizer state. Set by the
    /// trainer from its model before the first step.
    pub sharded: bool,
    /// The process's stop flag; a stop any peer saw at a vote stops all of them before
    /// the same step.
    pub stop: StopFlag,
    agreed_stop: AtomicBool,
    plan: std::sync::OnceLock<ShardPlan>,
}

impl Peer {
    /// Rank `rank` of `labels.len()` peers.
    pub fn new(
        rank: usize,
        labels: Vec<String>,
        vote: Arc<StepVote>,
        sharded: bool,
        stop: StopFlag,
    ) -> Self {
        Self {
            rank,
            labels,
            vote,
            sharded,
            stop,
            agreed_stop: AtomicBool::new(false),
            plan: std::sync::OnceLock::new(),
        }
    }

    /// Peers in the run.
    pub fn world(&self) -> usize {
        self.labels.len()
    }

    /// The shard plan, computed once from the parameter sizes (the same on every peer).
    pub fn shard_plan(&self, elements: &[usize]) -> &ShardPlan {
        self.plan
            .get_or_init(|| ShardPlan::balance(elements, self.world()))
    }

    /// The shard plan, when [`shard_plan`](Self::shard_plan) has made it.
    pub fn plan(&self) -> Option<&ShardPlan> {
        self.plan.get()
    }

    /// Whether the peers agreed to stop (a stop request any of them saw at the last
    /// vote). Every peer reads the same answer before the same step.
    pub fn stop_agreed(&self) -> bool {
        self.agreed_stop.load(Ordering::SeqCst)
    }

    /// Votes with `own` (this peer's result for this half of the step) and returns the
    /// outcome every peer shares: `Ok` with the tally when every peer's half-step worked,
    /// otherwise the failure of the lowest failed rank, as this peer's error (so every
    /// peer's strategy sees the same event and takes the same decision).
    pub fn agree(
        &self,
        step: usize,
        own: Option<&TrainError>,
        loss_sum: f64,
    ) -> Result<Tally, TrainError> {
        let ballot = Ballot {
            failure: own.map(|e| match e {
                TrainError::OutOfMemory(event) => Failure::OutOfMemory((**event).clone()),
                other => Failure::Other(other.to_string()),
            }),
            loss_sum,
            stop: self.stop.requested(),
        };
        let tally = self
            .vote
            .cast(self.rank, ballot)
            .map_err(|gone| TrainError::Device {
                step,
                message: format!("{gone} ({}); see its message above", self.label(gone.rank)),
            })?;
        if tally.stop() {
            self.agreed_stop.store(true, Ordering::SeqCst);
        }
        match tally.first_failure() {
            None => Ok(tally),
            Some((rank, failure)) => Err(match failure {
                Failure::OutOfMemory(event) => {
                    let mut event = event.clone();
                    if rank != self.rank || self.world() > 1 {
                        event.message = format!(
                            "{} (found by {}'s check; every peer discards the step)",
                            event.message,
                            self.label(rank)
                        );
                    }
                    TrainError::OutOfMemory(Box::new(event))
                }
                Failure::Other(message) => TrainError::Device {
                    step,
                    message: format!("{}: {message}", self.label(rank)),
                },
            }),
        }
    }

    /// Leaves the vote (the loop ended): peers still waiting are released.
    pub fn leave(&self) {
        self.vote.leave(self.rank);
    }

    fn label(&self, rank: usize) -> String {
        format!(
            "peer {rank} ({})",
            self.labels.get(rank).map(String::as_str).unwrap_or("?")
        )
    }
}
