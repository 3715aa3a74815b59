//! A run over one or more devices: one training loop per device, each with the
//! gradient-sync seam that connects it to the others. One device runs on the calling
//! thread; with several, each further device gets a thread (as burn-train's DDP does) and
//! rank 0 reports. The per-device figures are merged into rank 0's summary.

use std::sync::Arc;

use super::run::{train, RunKit, RunResult, StepObserver};
use super::stop::StopFlag;
use super::sync::GradSync;
use super::TrainBackend;
use crate::config::RunConfig;
use crate::data::Corpus;
use crate::results::{DeviceInfo, ParallelReport, PeerReport};
use crate::units::Bytes;

/// One device of the run, with the instruments that measure it and its link to the
/// others.
pub struct DeviceRun<B: TrainBackend> {
    /// The device.
    pub device: B::Device,
    /// What it is, for reports.
    pub info: DeviceInfo,
    /// Its detector, probes and settings.
    pub kit: RunKit,
    /// How it keeps in step with the others ([`Alone`](super::Alone) for one device).
    pub sync: Arc<dyn GradSync<B>>,
}

struct Quiet;
impl StepObserver for Quiet {}

/// Trains `cfg` over `devices`: `cfg.train.batch` is the effective batch, split evenly
/// (the caller checked it divides, see [`check_split`]). Rank 0's progress goes to
/// `observer`; its summary is returned, with every device's figures in
/// [`RunSummary::parallel`](crate::results::RunSummary) when there are several.
pub fn train_on<B: TrainBackend>(
    cfg: &RunConfig,
    corpus: Arc<Corpus>,
    devices: Vec<DeviceRun<B>>,
    stop: &StopFlag,
    observer: &mut dyn StepObserver,
) -> RunResult {
    let world = devices.len().max(1);
    let mut share = cfg.clone();
    share.train.batch = cfg.train.batch / world;
    let share = &share;
    let syncs: Vec<Arc<dyn GradSync<B>>> = devices.iter().map(|d| d.sync.clone()).collect();
    let run_one = |run: DeviceRun<B>, observer: &mut dyn StepObserver| {
        train::<B>(
            share,
            corpus.clone(),
            run.device,
            run.info,
            run.kit,
            run.sync,
            stop,
            observer,
        )
    };
    let results: Vec<RunResult> = std::thread::scope(|scope| {
        let mut runs = devices.into_iter();
        let first = runs.next();
        let handles: Vec<_> = runs
            .enumerate()
            .map(|(i, run)| {
                let run_one = &run_one;
                std::thread::Builder::new()
                    .name(format!("oomlab-peer-{}", i + 1))
                    .spawn_scoped(scope, move || run_one(run, &mut Quiet))
            })
            .collect();
        let mut results = Vec::with_capacity(world);
        if let Some(first) = first {
            results.push(run_one(first, observer));
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
    merge(results, &syncs, share)
}

/// A batch that does not split evenly over the devices.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("--batch {batch} does not split evenly over {devices} devices: each device takes batch / {devices} samples per step; use a multiple of {devices} (e.g. {})", self.nearest())]
pub struct UnevenSplit {
    /// The batch asked for.
    pub batch: usize,
    /// The devices it was to split over.
    pub devices: usize,
}

impl UnevenSplit {
    /// The multiples of the device count nearest the batch, below and above it.
    fn nearest(&self) -> String {
        let (batch, n) = (self.batch, self.devices);
        [batch - batch % n, batch + (n - batch % n)]
            .iter()
            .filter(|b| **b > 0)
            .map(|b| b.to_string())
            .collect::<Vec<_>>()
            .join(" or ")
    }
}

/// Whether `batch` splits evenly over `n` devices (each takes `batch / n` samples per
/// step); the error says which batches would.
pub fn check_split(batch: usize, n: usize) -> Result<(), UnevenSplit> {
    if n == 0 || batch % n == 0 {
        return Ok(());
    }
    Err(UnevenSplit { batch, devices: n })
}

/// Rank 0's result; with several devices, its batch figures for the whole run and every
/// device's report.
fn merge<B: TrainBackend>(
    mut results: Vec<RunResult>,
    syncs: &[Arc<dyn GradSync<B>>],
    share: &RunConfig,
) -> RunResult {
    let world = syncs.len();
    if world <= 1 || results.is_empty() {
        return results.remove(0);
    }
    let sharded = syncs[0].sharded();
    let peers: Vec<PeerReport> = results
        .iter()
        .zip(syncs)
        .enumerate()
        .map(|(rank, (r, sync))| {
            let s = &r.summary;
            let (params, elements) = sync.optimizer_share().unwrap_or((0, 0));
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
                    elements as u64 * share.optim.kind.state_bytes_per_element(),
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
        engine: syncs[0].engine(),
        replicas_identical: ParallelReport::identical(&peers),
        replica_spread: ParallelReport::spread(&peers),
        peers,
    });
    first
}
