//! The peers' vote at the end of each half of a step: did every GPU's step work?
//!
//! burn 0.21 on CUDA does not report a failed allocation (oomlab's detector finds it
//! after the fact), and burn's collective blocks until every peer has joined an
//! operation. A peer whose step failed must therefore never leave the others waiting in
//! an all-reduce, and a step must be applied everywhere or nowhere (otherwise the
//! replicas drift apart). So before the gradients are all-reduced, and again before the
//! updated weights are kept, every peer casts a ballot here: its own detector's verdict
//! and its share of the loss. This is coordination between the threads of one process on
//! the host, not a reduction of tensors: those go through burn's collective.

use std::sync::{Condvar, Mutex};

use crate::oom::OomEvent;

/// What went wrong on one peer.
#[derive(Debug, Clone, PartialEq)]
pub enum Failure {
    /// Its detector found an out-of-memory failure.
    OutOfMemory(OomEvent),
    /// Anything else (the device, the collective).
    Other(String),
}

/// One peer's report for one half of a step.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Ballot {
    /// `None`: this peer's half-step worked.
    pub failure: Option<Failure>,
    /// The sum of this peer's per-sample losses (the mean loss times its rows).
    pub loss_sum: f64,
    /// A stop (Ctrl-C, SIGTERM) was requested when it voted.
    pub stop: bool,
}

/// Every peer's ballot, by rank.
#[derive(Debug, Clone, PartialEq)]
pub struct Tally(pub Vec<Ballot>);

impl Tally {
    /// The failure of the lowest rank that failed, with its rank: the one every peer
    /// acts on, so that all of them take the same decision.
    pub fn first_failure(&self) -> Option<(usize, &Failure)> {
        self.0
            .iter()
            .enumerate()
            .find_map(|(rank, b)| b.failure.as_ref().map(|f| (rank, f)))
    }

    /// The losses of all peers, summed.
    pub fn loss_sum(&self) -> f64 {
        self.0.iter().map(|b| b.loss_sum).sum()
    }

    /// Any peer saw a stop request.
    pub fn stop(&self) -> bool {
        self.0.iter().any(|b| b.stop)
    }
}

/// A peer stopped taking part (its loop ended or its thread panicked): a vote can no
/// longer complete.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("peer {rank} stopped taking part in the run, so this peer cannot go on either")]
pub struct PeerGone {
    /// The peer that left.
    pub rank: usize,
}

struct Round {
    generation: u64,
    ballots: Vec<Option<Ballot>>,
    last: Option<Tally>,
    gone: Vec<bool>,
}

/// A reusable vote among `world` peers (a barrier that carries ballots).
pub struct StepVote {
    world: usize,
    round: Mutex<Round>,
    changed: Condvar,
}

impl StepVote {
    /// A vote among `world` peers.
    pub fn new(world: usize) -> Self {
        Self {
            world,
            round: Mutex::new(Round {
                generation: 0,
                ballots: vec![None; world],
                last: None,
                gone: vec![false; world],
            }),
            changed: Condvar::new(),
        }
    }

    /// Peers taking part.
    pub fn world(&self) -> usize {
        self.world
    }

    /// Casts `rank`'s ballot and waits for every other peer's. Fails when a peer has left.
    pub fn cast(&self, rank: usize, ballot: Ballot) -> Result<Tally, PeerGone> {
        let mut round = self.round.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(rank) = round.gone.iter().position(|g| *g) {
            return Err(PeerGone { rank });
        }
        let generation = round.generation;
        round.ballots[rank] = Some(ballot);
        if round.ballots.iter().all(Option::is_some) {
            let ballots = round.ballots.iter_mut().filter_map(Option::take).collect();
            round.last = Some(Tally(ballots));
            round.generation += 1;
            self.changed.notify_all();
        }
        loop {
            if round.generation != generation {
                // The next round cannot end before this peer votes again, so `last` is
                // still this round's.
                return round.last.clone().ok_or(PeerGone { rank });
            }
            if let Some(rank) = round.gone.iter().position(|g| *g) {
                return Err(PeerGone { rank });
            }
            round = self.changed.wait(round).unwrap_or_else(|p| p.into_inner());
        }
    }

    /// `rank` takes no further part; peers waiting for it are released with [`PeerGone`].
    pub fn leave(&self, rank: usize) {
        let mut round = self.round.lock().unwrap_or_else(|p| p.into_inner());
        round.gone[rank] = true;
        self.changed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn ok(loss: f64) -> Ballot {
        Ballot {
            loss_sum: loss,
            ..Default::default()
        }
    }

    #[test]
    fn every_peer_gets_every_ballot_round_after_round() {
        let vote = Arc::new(StepVote::new(3));
        let peers: Vec<_> = (0..3)
            .map(|rank| {
                let vote = vote.clone();
                std::thread::spawn(move || {
                    (0..50)
                        .map(|round| vote.cast(rank, ok((round * 10 + rank) as f64)).unwrap())
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let results: Vec<Vec<Tally>> = peers.into_iter().map(|p| p.join().unwrap()).collect();
        for round in 0..50 {
            let expected = (0..3).map(|r| (round * 10 + r) as f64).sum::<f64>();
            for peer in &results {
                assert_eq!(peer[round].loss_sum(), expected);
                assert_eq!(peer[round], results[0][round]);
            }
        }
    }

    #[test]
    fn the_lowest_failed_rank_is_the_one_everybody_acts_on() {
        let t = Tally(vec![
            ok(1.0),
            Ballot {
                failure: Some(Failure::Other("b".into())),
                ..Default::default()
            },
            Ballot {
                failure: Some(Failure::Other("c".into())),
                stop: true,
                ..Default::default()
            },
        ]);
        assert_eq!(t.first_failure(), Some((1, &Failure::Other("b".into()))));
        assert!(t.stop());
        assert_eq!(Tally(vec![ok(1.0), ok(2.0)]).first_failure(), None);
    }

    #[test]
    fn a_peer_that_leaves_releases_the_ones_waiting_for_it() {
        let vote = Arc::new(StepVote::new(2));
        let waiting = {
            let vote = vote.clone();
            std::thread::spawn(move || vote.cast(0, ok(0.0)))
        };
        std::thread::sleep(std::time::Duration::from_millis(50));
        vote.leave(1);
        assert_eq!(waiting.join().unwrap(), Err(PeerGone { rank: 1 }));
        assert_eq!(vote.cast(0, ok(0.0)), Err(PeerGone { rank: 1 }));
    }
}
