//! The gradient-sync seam for several devices: burn's collective reduces the gradients
//! and broadcasts weights, a vote keeps the devices in step when one of them fails.

use std::sync::Arc;

use burn::optim::GradientsParams;

use super::collective::{all_reduce_grads, broadcast_from_first, gather_shards, keep_own};
use super::elements::param_elements;
use super::error::ParallelError;
use super::peer::Peer;
use super::vote::StepVote;
use crate::model::Net;
use crate::train::{GradSync, StopFlag, SyncError, TrainBackend, TrainError};

/// One device of a data-parallel run, linked to the others through burn's collective.
pub struct Collective {
    peer: Arc<Peer>,
    /// f32 elements a collective operation sends at most (`None`: one a parameter).
    bucket: Option<usize>,
}

/// The links of a run over the devices `labels` name, one per device in rank order
/// (`sharded`: each keeps the optimizer state of its share of the parameters only;
/// `bucket`: elements a collective operation sends at most, `None` one a parameter).
pub fn connect<B: TrainBackend>(
    labels: &[String],
    sharded: bool,
    bucket: Option<usize>,
    stop: &StopFlag,
) -> Vec<Arc<dyn GradSync<B>>> {
    let vote = Arc::new(StepVote::new(labels.len().max(1)));
    (0..labels.len())
        .map(|rank| {
            Arc::new(Collective {
                peer: Arc::new(Peer::new(
                    rank,
                    labels.to_vec(),
                    vote.clone(),
                    sharded,
                    stop.clone(),
                )),
                bucket,
            }) as Arc<dyn GradSync<B>>
        })
        .collect()
}

impl<B: TrainBackend> GradSync<B> for Collective {
    fn rank(&self) -> usize {
        self.peer.rank
    }

    fn world(&self) -> usize {
        self.peer.world()
    }

    /// Registers with burn's collective (blocks until every device has), takes rank 0's
    /// weights and makes the shard plan from the sizes every device shares.
    fn join(&self, model: Net<B>, device: &B::Device) -> Result<Net<B>, SyncError> {
        use burn::collective::{register, CollectiveConfig, PeerId};
        register::<B::InnerBackend>(
            PeerId::from(self.peer.rank),
            device.clone(),
            CollectiveConfig::default().with_num_devices(self.peer.world()),
        )
        .map_err(ParallelError::Register)?;
        let model = broadcast_from_first(model, self.peer.rank)?;
        let _ = self.peer.shard_plan(&param_elements(&model));
        Ok(model)
    }

    fn agree(
        &self,
        step: usize,
        own: Option<&TrainError>,
        own_loss: &dyn Fn() -> f64,
    ) -> Result<Option<f64>, TrainError> {
        self.peer
            .agree(step, own, own_loss())
            .map(|tally| Some(tally.loss_sum()))
    }

    fn reduce(
        &self,
        model: &Net<B>,
        grads: GradientsParams,
        device: &B::Device,
    ) -> Result<GradientsParams, SyncError> {
        Ok(all_reduce_grads(
            model,
            grads,
            self.peer.rank,
            self.bucket,
            device,
        )?)
    }

    fn own_share(&self, model: &Net<B>, grads: GradientsParams) -> GradientsParams {
        match self.peer.plan().filter(|_| self.peer.sharded) {
            Some(plan) => keep_own(model, grads, plan, self.peer.rank),
            None => grads,
        }
    }

    fn after_update(&self, updated: Net<B>, device: &B::Device) -> Result<Net<B>, SyncError> {
        match self.peer.plan().filter(|_| self.peer.sharded) {
            Some(plan) => Ok(gather_shards(
                updated,
                plan,
                self.peer.rank,
                self.bucket,
                device,
            )?),
            None => Ok(updated),
        }
    }

    fn stop_requested(&self, _stop: &StopFlag) -> bool {
        self.peer.stop_agreed()
    }

    /// Leaves the vote (peers still waiting are released) and the collective.
    fn leave(&self) {
        self.peer.leave();
        let _ = burn::collective::finish_collective::<B::InnerBackend>(
            burn::collective::PeerId::from(self.peer.rank),
        );
    }

    fn optimizer_share(&self) -> Option<(usize, usize)> {
        let rank = self.peer.rank;
        // The plan is made when the device joins; unsharded, every device keeps all.
        self.peer.plan().map(|p| {
            if self.peer.sharded {
                (p.params_of(rank), p.elements_of(rank))
            } else {
                (p.owner.len(), p.total_elements())
            }
        })
    }

    fn sharded(&self) -> bool {
        self.peer.sharded
    }

    fn engine(&self) -> String {
        "burn-collective 0.21 (all-reduce: mean of gradients; broadcast: initial weights and, sharded, each owner's updated parameters)".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::CpuBackend;
    use crate::config::{load, ConfigSource};
    use crate::data::Corpus;
    use crate::oom::{NoDetector, OomDetector, Phase, ScriptedDetector};
    use crate::results::{AttemptOutcome, DeviceInfo, StopReason};
    use crate::train::{train_on, DeviceRun, Instruments, RunKit, StepObserver};

    struct Quiet;
    impl StepObserver for Quiet {}

    /// burn's collective server is one per process: these tests take turns.
    static TURN: std::sync::Mutex<()> = std::sync::Mutex::new(());

    fn run(strategy: &str, detectors: [Arc<dyn OomDetector>; 2]) -> crate::results::RunSummary {
        let over = vec![
            (
                "train.strategy".to_string(),
                toml::Value::String(strategy.into()),
            ),
            ("train.batch".to_string(), toml::Value::Integer(8)),
            ("train.max_steps".to_string(), toml::Value::Integer(4)),
            ("model.seq_len".to_string(), toml::Value::Integer(16)),
        ];
        let (_, cfg) = load(&ConfigSource::Builtin("tiny".into()), &over).unwrap();
        let corpus = Arc::new(Corpus::load(&cfg.data, 16).unwrap());
        let labels = vec!["cpu".to_string(), "cpu".to_string()];
        let syncs = connect::<CpuBackend>(&labels, false, Some(64 << 18), &StopFlag::new());
        let devices = detectors
            .into_iter()
            .zip(syncs)
            .map(|(detector, sync)| DeviceRun::<CpuBackend> {
                device: Default::default(),
                info: DeviceInfo {
                    kind: crate::words::DeviceKind::Cpu,
                    index: 0,
                    backend: "flex".into(),
                    label: "cpu".into(),
                },
                kit: RunKit {
                    instruments: Instruments {
                        detector,
                        ..Default::default()
                    },
                    ..Default::default()
                },
                sync,
            })
            .collect();
        train_on::<CpuBackend>(&cfg, corpus, devices, &StopFlag::new(), &mut Quiet).summary
    }

    #[test]
    fn one_devices_oom_makes_every_device_discard_the_step_and_halve_together() {
        let _turn = TURN.lock().unwrap_or_else(|p| p.into_inner());
        // Only peer 1 runs out of memory, in step 2's backward pass.
        let s = run(
            "auto-halve",
            [
                Arc::new(NoDetector),
                Arc::new(ScriptedDetector::new(vec![(2, Phase::Backward)])),
            ],
        );
        assert_eq!(s.stop, StopReason::Completed);
        assert_eq!(s.steps_completed, 4);
        let oom: Vec<_> = s
            .adaptation
            .attempts
            .iter()
            .filter(|a| a.outcome == AttemptOutcome::Oom)
            .collect();
        // Rank 0's own detector saw nothing; it still discarded the step and halved.
        assert_eq!(oom.len(), 1);
        assert_eq!((oom[0].step, oom[0].micro_batch), (2, 4));
        assert_eq!((s.plan.micro_batch, s.plan.accumulation), (2, 2));
        let p = s.parallel.expect("a parallel report");
        assert!(p.peers.iter().all(|peer| peer.steps_completed == 4));
        assert_eq!(p.replicas_identical, Some(true));
    }

    #[test]
    fn an_oom_in_one_devices_optimizer_step_stops_every_device_with_the_same_weights() {
        let _turn = TURN.lock().unwrap_or_else(|p| p.into_inner());
        let s = run(
            "baseline",
            [
                Arc::new(NoDetector),
                Arc::new(ScriptedDetector::new(vec![(1, Phase::Optimizer)])),
            ],
        );
        assert!(matches!(s.stop, StopReason::OutOfMemory(_)), "{:?}", s.stop);
        assert_eq!(s.steps_completed, 1);
        let p = s.parallel.expect("a parallel report");
        assert!(p.peers.iter().all(
            |peer| peer.steps_completed == 1 && matches!(peer.stop, StopReason::OutOfMemory(_))
        ));
        // Rank 1's update was discarded: had rank 0 kept its own, the hashes would differ.
        assert_eq!(p.replicas_identical, Some(true));
    }
}
