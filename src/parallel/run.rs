//! A data-parallel run: one thread per device, as burn-train's DDP does, each running
//! the ordinary training loop as one peer; rank 0 reports.

use std::sync::Arc;

use super::peer::Peer;
use super::report::{ParallelReport, PeerReport};
use super::vote::StepVote;
use crate::config::RunConfig;
use crate::data::Corpus;
use crate::report::DeviceInfo;
use crate::train::{RunKit, RunResult, StepObserver, StopFlag, TrainBackend};
use crate::units::Bytes;

/// One device of the run, with the instruments that measure it.
pub struct PeerSetup<B: TrainBackend> {
    /// The device.
    pub device: B::Device,
    /// What it is, for reports.
    pub info: DeviceInfo,
    /// Its detector, probes and settings.
    pub kit: RunKit,
}

struct Quiet;
impl StepObserver for Quiet {}

/// Trains `cfg` over `peers`: `cfg.train.batch` is the effective batch, split evenly
/// (the caller checked it divides). Rank 0's progress goes to `observer`; its summary
/// is returned, with every peer's figures in [`RunSummary::parallel`](crate::report::RunSummary).
pub fn train_parallel<B: TrainBackend>(
    cfg: &RunConfig,
    corpus: Arc<Corpus>,
    peers: Vec<PeerSetup<B>>,
    sharded: bool,
    stop: &StopFlag,
    observer: &mut dyn StepObserver,
) -> RunResult {
    let world = peers.len().max(1);
    let labels: Vec<String> = peers.iter().map(|p| p.info.label.clone()).collect();
    let vote = Arc::new(StepVote::new(world));
    let mut share = cfg.clone();
    share.train.batch = cfg.train.batch / world;
    let share = &share;
    let links: Vec<Arc<Peer>> = (0..world)
        .map(|rank| {
            Arc::new(Peer::new(
                rank,
                labels.clone(),
                vote.clone(),
                sharded,
                stop.clone(),
            ))
        })
        .collect();
    let run_peer = |rank: usize, setup: PeerSetup<B>, observer: &mut dyn StepObserver| {
        let mut kit = setup.kit;
        kit.peer = Some(links[rank].clone());
        crate::train::train::<B>(
            share,
            corpus.clone(),
            setup.device,
            setup.info,
            kit,
            stop,
            observer,
        )
    };
    let results: Vec<RunResult> = std::thread::scope(|scope| {
        let mut setups = peers.into_iter();
        let first = setups.next();
        let handles: Vec<_> = setups
            .enumerate()
            .map(|(i, setup)| {
                let run_peer = &run_peer;
                std::thread::Builder::new()
                    .name(format!("oomlab-peer-{}", i + 1))
                    .spawn_scoped(scope, move || run_peer(i + 1, setup, &mut Quiet))
            })
            .collect();
        let mut results = Vec::with_capacity(world);
        if let Some(first) = first {
            results.push(run_peer(0, first, observer));
        }
        for h in handles {
            match h {
                Ok(h) => {
                    if let Ok(r) = h.join() {
                        results.push(r);
                    }
                }
                Err(e) => observer.on_note(&format!("could not start a peer thread: {e}")),
            }
        }
        results
    });
    merge(results, &links, share, sharded)
}

/// Whether `batch` splits evenly over `n` devices (each takes `batch / n` samples per
/// step); the error says which batches would.
pub fn check_split(batch: usize, n: usize) -> Result<(), String> {
    if n == 0 || batch % n == 0 {
        return Ok(());
    }
    let fits: Vec<String> = [batch - batch % n, batch + (n - batch % n)]
        .iter()
        .filter(|b| **b > 0)
        .map(|b| b.to_string())
        .collect();
    Err(format!(
        "--batch {batch} does not split evenly over {n} devices: each device takes batch / {n} samples per step; use a multiple of {n} (e.g. {})",
        fits.join(" or ")
    ))
}

/// Optimizer-state bytes per parameter element: AdamW's two f32 moments; oomlab's SGD
/// has no momentum.
pub fn state_bytes_per_element(kind: crate::config::OptimKind) -> u64 {
    match kind {
        crate::config::OptimKind::AdamW => 8,
        crate::config::OptimKind::Sgd => 0,
    }
}

/// Rank 0's result, its batch figures for the whole run, and every peer's report.
fn merge(
    mut results: Vec<RunResult>,
    links: &[Arc<Peer>],
    share: &RunConfig,
    sharded: bool,
) -> RunResult {
    let world = links.len();
    let peers: Vec<PeerReport> = results
        .iter()
        .zip(links)
        .enumerate()
        .map(|(rank, (r, link))| {
            let s = &r.summary;
            // The plan is made when the peer joins; unsharded, every peer keeps all.
            let (params, elements) = match link.plan() {
                Some(p) if sharded => (p.params_of(rank), p.elements_of(rank)),
                Some(p) => (p.owner.len(), p.total_elements()),
                None => (0, 0),
            };
            PeerReport {
                rank,
                device: s.device.label.clone(),
                steps_completed: s.steps_completed,
                stop: s.stop.clone(),
                process_peak: s.memory.process_peak,
                allocator_peak_in_use: s.memory.allocator_peak_in_use,
                allocator_peak_reserved: s.memory.allocator_peak_reserved,
                optimizer_params: params,
                optimizer_elements: elements,
                optimizer_state: Some(Bytes(
                    elements as u64 * state_bytes_per_element(share.optim.kind),
                )),
                final_params: s.final_params.clone(),
            }
        })
        .collect();
    let mut first = results.remove(0);
    let s = &mut first.summary;
    s.effective_batch *= world;
    s.samples_per_s = s.samples_per_s.map(|x| x * world as f64);
    s.parallel = Some(ParallelReport {
        sharded,
        world,
        batch_per_peer: share.train.batch,
        engine: "burn-collective 0.21 (all-reduce: mean of gradients; broadcast: initial weights and, sharded, each owner's updated parameters)".into(),
        replicas_identical: ParallelReport::identical(&peers),
        replica_spread: ParallelReport::spread(&peers),
        peers,
    });
    first
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::CpuBackend;
    use crate::config::{load, ConfigSource};
    use crate::oom::{NoDetector, OomDetector, Phase, ScriptedDetector};
    use crate::report::{AttemptOutcome, StopReason};
    use crate::train::Instruments;

    /// burn's collective server is one per process: these tests take turns.
    static TURN: std::sync::Mutex<()> = std::sync::Mutex::new(());

    fn run(strategy: &str, detectors: [Arc<dyn OomDetector>; 2]) -> crate::report::RunSummary {
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
        let peers = detectors
            .into_iter()
            .map(|detector| PeerSetup::<CpuBackend> {
                device: Default::default(),
                info: DeviceInfo {
                    kind: "cpu".into(),
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
            })
            .collect();
        train_parallel::<CpuBackend>(&cfg, corpus, peers, false, &StopFlag::new(), &mut Quiet)
            .summary
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
