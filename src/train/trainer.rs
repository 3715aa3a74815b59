//! One optimizer step at a time: the model, its optimizer and the data, with an OOM check
//! at the end of every phase.
//!
//! A step hit by OOM never reaches the model or the optimizer: the trainer keeps the
//! model and optimizer of the last good step until the new ones have passed every check.
//! (Keeping them costs memory: during the optimizer step the old weights and optimizer
//! state stay alive next to the new ones instead of being updated in place.)

use std::sync::Arc;
use std::time::{Duration, Instant};

use burn::module::AutodiffModule;
use burn::optim::{GradientsAccumulator, GradientsParams, Optimizer};
use burn::prelude::*;
use burn::tensor::backend::AutodiffBackend;
use serde::{Deserialize, Serialize};

use super::anatomy::{AnatomyRecorder, Held};
use super::error::{SyncError, TrainError};
use super::optim::AnyOptim;
use super::state_error::StateError;
use super::sync::{Alone, GradSync};
use crate::config::RunConfig;
use crate::data::{BatchSampler, Corpus, HostBatch};
use crate::model::Net;
use crate::oom::{NoDetector, OomDetector, OomEvent, Phase};
use crate::precision::{self, LossScaler, PrecisionMode};
use crate::probe::{host, AllocatorProbe, MemoryProbe, PhasePeaks};
use crate::results::{PointReading, StepPoint};
use crate::strategy::StepPlan;
use crate::units::Bytes;
use crate::words::LeakDemo;

/// What one optimizer step did (one line of the run folder's steps.jsonl).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StepRecord {
    /// 0-based optimizer step.
    pub step: usize,
    /// Mean loss over the step's samples (micro-batch means weighted by their size).
    pub loss: f32,
    /// Samples per forward/backward pass.
    pub micro_batch: usize,
    /// Passes per optimizer step.
    pub accumulation: usize,
    /// Samples per optimizer step.
    pub batch: usize,
    /// Wall time of the step, data to updated weights, synchronised with the device.
    #[serde(with = "secs")]
    pub duration: Duration,
    /// Memory after the step: burn's allocator reserved bytes on a GPU, the host heap in
    /// use on the CPU (when oomlab's counting allocator is installed).
    pub memory: Option<crate::units::Bytes>,
    /// The loss scale this step's loss was multiplied by (f16 with loss scaling).
    pub loss_scale: Option<f64>,
    /// The update was skipped: a gradient came back inf or NaN (the loss scaler backed
    /// off). The model and optimizer are as before the step.
    pub skipped: bool,
    /// Bytes in tensors after the step: burn's allocator in use on a GPU, the host heap
    /// in use on the CPU. What the leak detector watches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_use: Option<crate::units::Bytes>,
}

mod secs {
    use serde::Deserialize;
    use std::time::Duration;
    pub(super) fn serialize<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(d.as_secs_f64())
    }
    pub(super) fn deserialize<'de, D: serde::Deserializer<'de>>(
        d: D,
    ) -> Result<Duration, D::Error> {
        let secs = f64::deserialize(d)?;
        Duration::try_from_secs_f64(secs).map_err(serde::de::Error::custom)
    }
}

/// What the trainer measures with, beyond the model: the OOM detector and the memory
/// sources read at phase boundaries.
#[derive(Clone)]
pub struct Instruments {
    /// Finds OOM failures.
    pub detector: Arc<dyn OomDetector>,
    /// burn's allocator statistics (CUDA), read at phase ends.
    pub allocator: Option<AllocatorProbe>,
    /// NVML or host reading attached to an OOM event.
    pub memory: Option<Arc<dyn MemoryProbe>>,
    /// Synchronise, read the allocator and ask the detector after every phase (`true`),
    /// or only after the optimizer step (an OOM is then found at the end of the step,
    /// still before anything is applied, and reported as [`Phase::Step`]).
    pub check_every_phase: bool,
}

impl Default for Instruments {
    fn default() -> Self {
        Self {
            detector: Arc::new(NoDetector),
            allocator: None,
            memory: None,
            check_every_phase: true,
        }
    }
}

/// Why [`Trainer::join`] failed.
#[derive(Debug)]
pub enum JoinError {
    /// The memory ran out (or the CPU's budget was crossed) before the first step.
    OutOfMemory(Box<OomEvent>),
    /// The other devices could not be joined.
    Failed(SyncError),
}

/// Holds the model and optimizer between steps.
pub struct Trainer<B: super::TrainBackend> {
    model: Net<B>,
    optim: AnyOptim<B>,
    lr: f64,
    sampler: BatchSampler,
    plan: StepPlan,
    device: B::Device,
    inst: Instruments,
    phases: PhasePeaks,
    /// Allocator (GPU) or heap (CPU) bytes in use when the current step started.
    step_start_in_use: Option<Bytes>,
    precision: PrecisionMode,
    /// Dynamic loss scaling (f16).
    scaler: Option<LossScaler>,
    /// Never return pool pages to the driver (`--memory-mode prealloc`).
    keep_pool: bool,
    /// `--memory-mode exact`: a freed buffer serves only a tensor of its own size.
    exact_pool: bool,
    /// Rows of the last micro-batch that ran since the pool was last emptied.
    last_rows: Option<usize>,
    /// With dropout, the backend's generator is re-seeded from this seed and the step
    /// number before every step, so a resumed run draws the masks an uninterrupted one
    /// draws (burn's generator state cannot be saved).
    reseed: Option<u64>,
    /// `--leak-demo`: a classic mistake made on purpose (see [`LeakDemo`]).
    leak_demo: Option<LeakDemo>,
    /// What the mistake keeps alive between steps.
    leaked: Vec<Tensor<B, 1>>,
    /// The other devices of the run ([`Alone`] when there are none).
    sync: Arc<dyn GradSync<B>>,
    /// One step's memory by category.
    anatomy: AnatomyRecorder,
    /// What the recorded step holds besides activations.
    held: Held,
    /// The host heap's peak before the recorded step's own windows (CPU).
    run_heap_peak: Bytes,
}

impl<B: super::TrainBackend> Trainer<B> {
    /// Seeds the backend, builds the model and optimizer of `cfg` on `device`.
    pub fn new(cfg: &RunConfig, corpus: Arc<Corpus>, plan: StepPlan, device: B::Device) -> Self {
        Self::with_instruments(cfg, corpus, plan, device, Instruments::default())
    }

    /// As [`new`](Self::new), measuring with `inst`.
    pub fn with_instruments(
        cfg: &RunConfig,
        corpus: Arc<Corpus>,
        plan: StepPlan,
        device: B::Device,
        inst: Instruments,
    ) -> Self {
        // The backend's RNG is process-wide: seeding and initialising happen under one
        // lock, so trainers built on several threads at once still get the weights of
        // their seed. burn initialises parameters lazily, on first use, so the
        // initialisation is forced here, inside the lock.
        static SEED_LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
        let model = {
            let _guard = SEED_LOCK
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            B::seed(&device, cfg.train.seed);
            let model = Net::init(&cfg.model, corpus.vocab.len(), &device);
            let _ = crate::model::ParamStats::of(&model);
            // With fusion (CUDA) the random fills run when the stream is flushed, and
            // each draws its seeds then: flush inside the lock, or another thread's
            // trainer (a data-parallel peer) could draw in between. Measured on the
            // H200: without this, a peer's first loss differed from a single run's.
            let _ = B::sync(&device);
            model
        };
        // Pure half: the weights themselves are half (initialised in f32 from the same
        // seed, then cast), so the optimizer's state will be too.
        let model = match cfg.train.precision {
            PrecisionMode::Pure(h) => precision::into_half(model, h.dtype()),
            _ => model,
        };
        Self {
            model,
            optim: AnyOptim::new(&cfg.optim, cfg.train.offload_optimizer),
            lr: cfg.optim.lr,
            sampler: BatchSampler::new(corpus, cfg.model.seq_len, cfg.train.seed),
            plan,
            device,
            inst,
            phases: PhasePeaks::default(),
            step_start_in_use: None,
            precision: cfg.train.precision,
            scaler: cfg.train.loss_scale.map(LossScaler::new),
            keep_pool: false,
            exact_pool: matches!(cfg.train.memory_mode, crate::config::MemoryMode::Exact),
            last_rows: None,
            reseed: (cfg.model.dropout > 0.0).then_some(cfg.train.seed),
            leak_demo: None,
            leaked: Vec::new(),
            sync: Arc::new(Alone),
            anatomy: AnatomyRecorder::default(),
            held: Held::default(),
            run_heap_peak: Bytes(0),
        }
    }

    /// Makes this trainer one of the devices `sync` connects: from now on every step is
    /// agreed with the others and its gradients reduced, and the model is the one every
    /// device starts from (rank 0's weights). Call on every device at once.
    pub fn join(&mut self, sync: Arc<dyn GradSync<B>>) -> Result<(), JoinError> {
        self.inst.detector.arm();
        let model = sync.join(self.model.clone(), &self.device);
        let _ = B::sync(&self.device);
        // Memory the model and optimizer took when they were built shows here too: on one
        // device this is the first look, before any step.
        if let Some(mut e) = self.inst.detector.check(0, Phase::Step) {
            self.inst.detector.arm();
            let what = if sync.world() > 1 {
                "while receiving rank 0's initial weights"
            } else {
                "while building the model and its optimizer, before the first step"
            };
            e.message = format!("{what}: {}", e.message);
            return Err(JoinError::OutOfMemory(Box::new(e)));
        }
        self.model = model.map_err(JoinError::Failed)?;
        self.sync = sync;
        Ok(())
    }

    /// Ends this trainer's part in the run: devices still waiting for it are released.
    pub fn leave(&mut self) {
        self.sync.leave();
        self.sync = Arc::new(Alone);
    }

    /// Whether the loop should stop before the next step: the stop flag, or with several
    /// devices what they agreed at the last vote (so that all stop before the same step).
    pub fn stop_requested(&self, stop: &super::StopFlag) -> bool {
        self.sync.stop_requested(stop)
    }

    /// Asks the OOM detector after device work outside a step (a checkpoint's read or
    /// load): burn 0.21 on CUDA does not report a failed allocation, whose tensor would
    /// read as zeros, so a checkpoint must not be written or trusted without this look.
    /// Call after the work, with the detector armed before it.
    fn checked<T>(
        &self,
        what: &'static str,
        result: Result<T, StateError>,
    ) -> Result<T, StateError> {
        let _ = B::sync(&self.device);
        if let Some(e) = self.inst.detector.check(0, Phase::Step) {
            self.inst.detector.arm();
            return Err(StateError::OutOfMemory {
                label: e.label().to_string(),
                what,
                message: e.message,
            });
        }
        result
    }

    /// The model's and the optimizer's state as burn records (bincode, f32), for a
    /// checkpoint. Reads every tensor back to the host; fails on an out-of-memory failure
    /// found meanwhile.
    pub fn snapshot(&self) -> Result<(Vec<u8>, Vec<u8>), StateError> {
        self.inst.detector.arm();
        let result = self.snapshot_unchecked();
        self.checked("reading the weights for a checkpoint", result)
    }

    fn snapshot_unchecked(&self) -> Result<(Vec<u8>, Vec<u8>), StateError> {
        use burn::record::{BinBytesRecorder, FullPrecisionSettings, Recorder};
        let rec = BinBytesRecorder::<FullPrecisionSettings>::default();
        let model = Recorder::<B>::record(&rec, self.model.clone().into_record(), ())?;
        let optim = match &self.optim {
            AnyOptim::AdamW(o) => Recorder::<B>::record(&rec, o.to_record(), ())?,
            AnyOptim::Sgd(o) => Recorder::<B>::record(&rec, o.to_record(), ())?,
            AnyOptim::Offload(o) => o.to_bytes(),
        };
        Ok((model, optim))
    }

    /// Puts back what [`snapshot`](Self::snapshot) took, and the loss scaler. The bytes
    /// must have passed the checkpoint's checksum: burn's recorder panics on bytes it
    /// cannot decode (the caller contains that panic). Fails on an out-of-memory failure
    /// found while the tensors were placed on the device.
    pub fn restore(
        &mut self,
        model: Vec<u8>,
        optim: Vec<u8>,
        scaler: Option<LossScaler>,
    ) -> Result<(), StateError> {
        self.inst.detector.arm();
        let result = self.restore_unchecked(model, optim, scaler);
        self.checked("placing the checkpoint's tensors on the device", result)
    }

    fn restore_unchecked(
        &mut self,
        model: Vec<u8>,
        optim: Vec<u8>,
        scaler: Option<LossScaler>,
    ) -> Result<(), StateError> {
        use burn::record::{BinBytesRecorder, FullPrecisionSettings, Recorder};
        let rec = BinBytesRecorder::<FullPrecisionSettings>::default();
        let record = Recorder::<B>::load(&rec, model, &self.device)?;
        self.model = self.model.clone().load_record(record);
        self.optim = match &self.optim {
            AnyOptim::AdamW(o) => AnyOptim::AdamW(o.clone().load_record(Recorder::<B>::load(
                &rec,
                optim,
                &self.device,
            )?)),
            AnyOptim::Sgd(o) => AnyOptim::Sgd(o.clone().load_record(Recorder::<B>::load(
                &rec,
                optim,
                &self.device,
            )?)),
            AnyOptim::Offload(o) => AnyOptim::Offload(o.with_bytes(&optim)?),
        };
        if scaler.is_some() {
            self.scaler = scaler;
        }
        Ok(())
    }

    /// `true`: a failed step's memory goes back to burn's pool but the pool keeps its
    /// pages (preallocated memory stays preallocated). `false` (default): the pages go
    /// back to the driver too.
    pub fn set_keep_pool(&mut self, keep: bool) {
        self.keep_pool = keep;
    }

    /// `--leak-demo`: make a classic leaking mistake on purpose, for the leak detector to
    /// catch.
    pub fn set_leak_demo(&mut self, demo: Option<LeakDemo>) {
        self.leak_demo = demo;
    }

    /// The loss scaler's state, when the run scales losses.
    pub fn scaler(&self) -> Option<&LossScaler> {
        self.scaler.as_ref()
    }

    /// For AMP casting once a step ([`precision::cast_once_a_step`]): the half-precision
    /// leaves every micro-batch of the step runs on ([`precision::into_half`]); `None`
    /// where each micro-batch runs on [`Self::compute_model`].
    fn step_model(&self, model: &Net<B>) -> Option<Net<B>> {
        match self.precision {
            PrecisionMode::Mixed(h) if precision::cast_once_a_step() => {
                Some(precision::into_half(model.clone(), h.dtype()))
            }
            _ => None,
        }
    }

    /// The model the passes run on: for AMP the half-precision cast of the f32 weights
    /// (a graph node, so gradients flow back to the f32 leaves), otherwise the model.
    fn compute_model(&self, model: &Net<B>) -> Net<B> {
        match self.precision {
            PrecisionMode::Mixed(h) => precision::compute_copy(model.clone(), h.dtype()),
            PrecisionMode::F32 | PrecisionMode::Pure(_) => model.clone(),
        }
    }

    /// The parameters as the forward pass sees them (dtype read back from the tensors).
    pub fn compute_param_stats(&self) -> crate::model::ParamStats {
        crate::model::ParamStats::of(&self.compute_model(&self.model))
    }

    /// Record the next step that completes at every phase boundary, by category (one
    /// device only: with peers the known categories would be each one's share).
    pub fn record_anatomy(&mut self) {
        if self.sync.world() == 1 {
            self.anatomy.arm();
        }
    }

    /// The recorded step: its number, split and readings.
    pub fn anatomy(&self) -> Option<&(usize, StepPlan, Vec<PointReading>)> {
        self.anatomy.recorded()
    }

    /// An armed step starts: what it holds besides activations, from the tensors.
    fn anatomy_begin(&mut self) {
        if !self.anatomy.armed() {
            return;
        }
        self.anatomy.begin();
        let stats = crate::model::ParamStats::of(&self.model);
        let moments = self.optim.moments();
        self.held = Held {
            weights: stats.bytes,
            state: match self.optim.holds_state() {
                true => Bytes(stats.bytes.0 * moments),
                false => Bytes(0),
            },
            new_state: Bytes(stats.bytes.0 * moments),
            half_copy: match self.precision {
                PrecisionMode::Mixed(_) => Bytes(stats.count * 2),
                PrecisionMode::F32 | PrecisionMode::Pure(_) => Bytes(0),
            },
            accumulation: self.plan.accumulation,
        };
    }

    /// An armed step's reading at `at`, after waiting for the device.
    fn anatomy_read(&mut self, at: StepPoint) {
        if !self.anatomy.armed() {
            return;
        }
        let _ = B::sync(&self.device);
        let (in_use, reserved, peak) = match &self.inst.allocator {
            Some(a) => a.stats().map_or((None, None, None), |s| {
                (Some(s.in_use), Some(s.reserved), None)
            }),
            None if host::counting() => {
                // The heap's peak counter over the phase that ends here, then a new
                // window; the run's own peak is put back when the step ends.
                let peak = host::heap_peak();
                self.run_heap_peak = self.run_heap_peak.max(peak);
                host::reset_peak();
                (Some(host::heap_in_use()), None, Some(peak))
            }
            None => (None, None, None),
        };
        let process = self.inst.memory.as_ref().and_then(|m| m.read().process);
        self.anatomy.read(PointReading {
            at,
            in_use,
            reserved,
            process,
            peak: peak.filter(|_| at != StepPoint::Start),
            known: self.held.known(at),
        });
    }

    /// The model as it is now (after the last applied step).
    pub fn model(&self) -> &Net<B> {
        &self.model
    }

    /// The split every step uses.
    pub fn plan(&self) -> StepPlan {
        self.plan
    }

    /// Changes the split for the following steps (the data of a step does not depend on
    /// the split, only on the step number and the effective batch).
    pub fn set_plan(&mut self, plan: StepPlan) {
        self.plan = plan;
    }

    /// Allocator figures at phase ends so far.
    pub fn phase_peaks(&self) -> PhasePeaks {
        self.phases
    }

    /// The device.
    pub fn device(&self) -> &B::Device {
        &self.device
    }

    /// Synchronises, records allocator figures for `phase`, and asks the detector (with
    /// `check_every_phase` off, only at the end of the step).
    fn phase_check(&mut self, step: usize, phase: Phase) -> Result<(), TrainError> {
        if !self.inst.check_every_phase && phase != Phase::Optimizer {
            return Ok(());
        }
        let synced = B::sync(&self.device);
        let stats = self.inst.allocator.as_ref().and_then(|a| a.stats());
        if let Some(event) = self.inst.detector.check(step, phase) {
            let mut event = event;
            if !self.inst.check_every_phase {
                // Found at the end of the step: which phase failed is not known.
                event.phase = Phase::Step;
            }
            event.allocator = stats;
            event.memory = self.inst.memory.as_ref().map(|m| m.read());
            self.estimate_headroom(&mut event);
            return Err(TrainError::OutOfMemory(Box::new(event)));
        }
        synced.map_err(|e| TrainError::Device {
            step,
            message: format!("{e:?}"),
        })?;
        if let Some(s) = stats {
            let slot = match phase {
                Phase::Forward => &mut self.phases.forward,
                Phase::Backward => &mut self.phases.backward,
                Phase::Optimizer | Phase::Step => &mut self.phases.optimizer,
            };
            PhasePeaks::record(slot, s);
        }
        Ok(())
    }

    /// Runs optimizer step `step`: its batch is split as the plan says, each micro-batch
    /// loss is scaled by `1 / accumulation`, so the summed gradient is that of the whole
    /// batch's mean loss. On any failure the step is discarded and memory released.
    pub fn step(&mut self, step: usize) -> Result<StepRecord, TrainError> {
        self.inst.detector.arm();
        let result = self.try_step(step);
        if self.run_heap_peak.0 > 0 {
            // The recorded step read the heap's peak in windows: the run's peak back.
            host::raise_peak(self.run_heap_peak);
        }
        if result.is_err() {
            self.release_failed_step();
        }
        result
    }

    /// A dry step: forward, backward and optimizer on the first `rows` samples of step 0,
    /// then everything is thrown away (model and optimizer as before, memory released).
    ///
    /// On CUDA this builds burn's fusion plans and kernels at a size that fits before the
    /// first real step. Measured on the H200 with an empty kernel cache: a first-ever step
    /// that ran out of memory while those were being built left burn-fusion's stream
    /// broken (the process died in burn-fusion's client, exit 101), while the same OOM
    /// after one successful small step was caught and recovered from 100 times in a row.
    pub fn warm_up(&mut self, rows: usize) -> Result<Duration, TrainError> {
        let started = Instant::now();
        let saved_plan = self.plan;
        let (model, optim, scaler) = (self.model.clone(), self.optim.clone(), self.scaler.clone());
        self.plan = StepPlan::even(rows.clamp(1, saved_plan.micro_batch.max(1)), 1);
        self.inst.detector.arm();
        let result = self.try_step(0);
        self.model = model;
        self.optim = optim;
        self.scaler = scaler;
        self.plan = saved_plan;
        self.release_failed_step();
        result.map(|_| started.elapsed())
    }

    /// Frees what a failed step left behind. The step's tensors are dropped by now, but
    /// burn's autodiff (0.21) keeps the nodes of a forward pass that never reached
    /// `backward`, with their saved activations, because they hang off the parameters'
    /// graph, which lives on with the model. Measured: 2.4 GiB stayed in use on the H200
    /// after an OOM in the forward phase, 517 MiB on the CPU test, enough to make a retry
    /// at half the batch fail too. Re-wrapping the parameters as fresh autodiff leaves
    /// (same values, same parameter ids, so the optimizer state still matches) leaves
    /// that graph unreachable, and the next `backward` call (a one-element one, here)
    /// drops orphaned graphs. Then the pool's pages go back to the driver.
    fn release_failed_step(&mut self) {
        let _ = B::sync(&self.device);
        self.model = Net::<B>::from_inner(self.model.valid());
        let probe = Tensor::<B, 1>::zeros([1], &self.device).require_grad();
        drop(probe.sum().backward());
        let _ = B::sync(&self.device);
        if !self.keep_pool {
            B::memory_cleanup(&self.device);
            let _ = B::sync(&self.device);
            self.last_rows = None;
        }
        self.inst.detector.arm();
    }

    /// Before a micro-batch of another size than the last one (the short last micro-batch
    /// of an uneven split, auto-halve's next size), the exact pool's free buffers go back
    /// to the driver: that pool hands a freed buffer only to a tensor of its own size, so
    /// the last size's activation buffers would stay reserved, unusable, beside the new
    /// size's. On the H200 under a 3 GiB budget, auto-halve's probe at 24 (micro-batches
    /// 24, 24, 16) failed with 0.7 GB in use of 2.66 GB reserved while a fresh run at 26
    /// trained (docs/results/2026-12-04-h200-bisect); with this, the probe at 26 trained
    /// (docs/results/2026-12-04-h200-bisect-split). The growth pool's pages serve any
    /// size, and prealloc keeps its pages on purpose: neither is touched.
    fn free_buffers_before_new_size(&mut self, rows: usize) {
        if self.exact_pool && !self.keep_pool && self.last_rows.is_some_and(|r| r != rows) {
            let _ = B::sync(&self.device);
            B::memory_cleanup(&self.device);
        }
        self.last_rows = Some(rows);
    }

    fn in_use_now(&self) -> Option<Bytes> {
        match &self.inst.allocator {
            Some(a) => a.stats().map(|s| s.in_use),
            None => host::counting().then(host::heap_in_use),
        }
    }

    /// Fills in how much the failed step needed at least and how much it could have had,
    /// so an adaptive strategy can skip sizes that cannot fit.
    fn estimate_headroom(&self, event: &mut OomEvent) {
        let Some(start) = self.step_start_in_use else {
            return;
        };
        let requested = event.requested.unwrap_or(Bytes(0));
        match (&event.allocator, &event.memory) {
            (Some(a), Some(m)) => {
                event.step_needed_at_least =
                    Some(Bytes(a.in_use.0.saturating_sub(start.0) + requested.0));
                event.step_available = m
                    .device_free()
                    .map(|free| Bytes((free.0 + a.reserved.0).saturating_sub(start.0)));
            }
            _ if event.simulated => {
                event.step_needed_at_least = Some(Bytes(
                    host::heap_in_use().0.saturating_sub(start.0) + requested.0,
                ));
                event.step_available = host::budget().map(|b| Bytes(b.0.saturating_sub(start.0)));
            }
            _ => {}
        }
    }

    /// This step's samples: the whole batch, or with several peers this peer's share of
    /// the batch all of them take together (the same rows a single device would see).
    fn step_batch(&self, step: usize, plan: StepPlan) -> HostBatch {
        match (self.sync.rank(), self.sync.world()) {
            (_, 1) => self.sampler.batch(step, plan.batch),
            (rank, world) => self
                .sampler
                .batch(step, plan.batch * world)
                .rows(rank * plan.batch, plan.batch),
        }
    }

    /// The forward and backward passes of every micro-batch of `batch`, gradients summed
    /// as the plan says. Stops at the first failed check.
    fn passes(
        &mut self,
        step: usize,
        plan: StepPlan,
        model: &Net<B>,
        batch: &HostBatch,
        loss_scale: Option<f64>,
    ) -> Result<Passes<B>, TrainError> {
        let mut loss_sum = 0.0f64;
        // Without phase checks the loss is read once, after the step, so nothing waits for
        // the device in between.
        let mut deferred: Vec<Tensor<B::InnerBackend, 1>> = Vec::new();
        let mut acc = GradientsAccumulator::<Net<B>>::new();
        let mut single = None;
        let step_model = self.step_model(model);
        for i in 0..plan.accumulation {
            let (first, rows) = plan.chunk(i);
            self.free_buffers_before_new_size(rows);
            let b = batch.rows(first, rows).to_device::<B>(&self.device);
            // AMP casts in each micro-batch's graph, which its backward pass consumes, or
            // (kernels.amp_cast=step) runs on the step's half-precision leaves.
            let compute = match &step_model {
                Some(half) => half.clone(),
                None => self.compute_model(model),
            };
            let loss = compute.loss(b.inputs, b.targets);
            self.phase_check(step, Phase::Forward)?;
            self.anatomy_read(StepPoint::Forward);
            match (self.leak_demo, i) {
                // The mistakes, on purpose: tensors that live on and reference this
                // step's graph.
                (Some(LeakDemo::LossTotal), _) => {
                    let total = match self.leaked.pop() {
                        Some(total) => total + loss.clone(),
                        None => loss.clone(),
                    };
                    self.leaked.push(total);
                }
                (Some(LeakDemo::EvalGraph), 0) => {
                    let b = batch.rows(first, rows).to_device::<B>(&self.device);
                    let eval = self.compute_model(model).loss(b.inputs, b.targets);
                    self.phase_check(step, Phase::Forward)?;
                    self.leaked.push(eval);
                }
                _ => {}
            }
            let value = if self.inst.check_every_phase {
                f64::from(loss.clone().into_scalar().elem::<f32>())
            } else {
                deferred.push(loss.clone().inner().mul_scalar(rows as f64));
                0.0
            };
            // Each micro-batch's mean loss is weighted by its share of the batch, so the
            // summed gradient is that of the whole batch's mean loss.
            let scaled = if plan.accumulation == 1 {
                loss
            } else if plan.is_even() {
                loss.div_scalar(plan.accumulation as f64)
            } else {
                loss.mul_scalar(rows as f64 / plan.batch as f64)
            };
            let scaled = match loss_scale {
                Some(s) => scaled.mul_scalar(s),
                None => scaled,
            };
            let grads = match &step_model {
                Some(half) => precision::grads_in_f32(
                    GradientsParams::from_grads(scaled.backward(), half),
                    model,
                ),
                None => GradientsParams::from_grads(scaled.backward(), model),
            };
            self.phase_check(step, Phase::Backward)?;
            self.anatomy_read(StepPoint::Backward);
            loss_sum += value * rows as f64;
            if plan.accumulation == 1 {
                single = Some(grads);
            } else {
                acc.accumulate(model, grads);
            }
        }
        Ok(Passes {
            grads: single.unwrap_or_else(|| acc.grads()),
            loss_sum,
            deferred,
        })
    }

    /// The step's log line; `loss_sum` over `rows` samples.
    fn record(
        &self,
        step: usize,
        started: Instant,
        loss: f64,
        loss_scale: Option<f64>,
        skipped: bool,
    ) -> StepRecord {
        let plan = self.plan;
        // One read of the allocator (a round trip to the device thread) for both.
        let (memory, in_use) = match &self.inst.allocator {
            Some(a) => a
                .stats()
                .map_or((None, None), |s| (Some(s.reserved), Some(s.in_use))),
            None => {
                let heap = host::counting().then(host::heap_in_use);
                (heap, heap)
            }
        };
        StepRecord {
            step,
            loss: loss as f32,
            micro_batch: plan.micro_batch,
            accumulation: plan.accumulation,
            batch: plan.batch,
            duration: started.elapsed(),
            memory,
            loss_scale,
            skipped,
            in_use,
        }
    }

    /// One step on this device, in step with the others: the passes, a vote, the
    /// gradients reduced, the update (with a sharded optimizer only of the parameters this
    /// device owns, then the whole model gathered), a second vote, and only then the step
    /// becomes real, on every device or on none. Alone, the votes and the reduction are
    /// the identity.
    fn try_step(&mut self, step: usize) -> Result<StepRecord, TrainError> {
        let start = Instant::now();
        if let Some(seed) = self.reseed {
            B::seed(
                &self.device,
                seed ^ (step as u64 + 1).wrapping_mul(0xD1B5_4A32_D192_ED03),
            );
        }
        self.step_start_in_use = self.in_use_now();
        self.anatomy_begin();
        self.anatomy_read(StepPoint::Start);
        let plan = self.plan;
        let batch = self.step_batch(step, plan);
        // A shallow copy: tensors are shared. `self.model` stays the last good model.
        let model = self.model.clone();
        let loss_scale = self.scaler.as_ref().map(LossScaler::scale);
        let sync = self.sync.clone();
        let passes = self.passes(step, plan, &model, &batch, loss_scale);
        let agreed = sync.agree(step, passes.as_ref().err(), &|| {
            passes.as_ref().map_or(0.0, Passes::own_loss)
        })?;
        let passes = passes?;
        let applied = self.update(sync.as_ref(), step, model, passes.grads, loss_scale);
        sync.agree(step, applied.as_ref().err(), &|| 0.0)?;
        let applied = applied?;
        // Without phase checks the loss is read only now, after the update is queued, so
        // nothing waited for the device in between.
        let loss_sum = match agreed {
            Some(total) => total,
            None if passes.deferred.is_empty() => passes.loss_sum,
            None => Passes::<B>::read(&passes.deferred),
        };
        let mean = loss_sum / (plan.batch * sync.world()) as f64;
        let skipped = applied.is_none();
        if let Some((updated, optim)) = applied {
            // Every check passed: the step becomes real.
            self.model = updated;
            self.optim = optim;
        }
        if let Some(s) = self.scaler.as_mut() {
            s.update(!skipped);
        }
        if !skipped {
            self.anatomy.finish(step, plan);
        }
        Ok(self.record(step, start, mean, loss_scale, skipped))
    }

    /// Reduce, unscale, update and gather; `None` when the loss scaler skips the step
    /// (skipped as GradScaler does: no update, the scale backs off; every device sees the
    /// same reduced gradients, so all skip).
    #[allow(clippy::type_complexity)]
    fn update(
        &mut self,
        sync: &dyn GradSync<B>,
        step: usize,
        model: Net<B>,
        grads: GradientsParams,
        loss_scale: Option<f64>,
    ) -> Result<Option<(Net<B>, AnyOptim<B>)>, TrainError> {
        let collective = |e: SyncError| TrainError::Device {
            step,
            message: e.to_string(),
        };
        let grads = sync
            .reduce(&model, grads, &self.device)
            .map_err(collective)?;
        let grads = match loss_scale {
            None => grads,
            Some(scale) => {
                let (grads, finite) =
                    precision::unscale_and_check::<B, Net<B>>(grads, &model, 1.0 / scale);
                if !finite {
                    // The step's look for a failed allocation in this phase; it comes
                    // before the scaler moves, so a discarded step does not count.
                    self.phase_check(step, Phase::Optimizer)?;
                    return Ok(None);
                }
                grads
            }
        };
        let grads = sync.own_share(&model, grads);
        let mut optim = self.optim.clone();
        let updated = optim.step(self.lr, model, grads);
        let updated = sync
            .after_update(updated, &self.device)
            .map_err(collective)?;
        self.phase_check(step, Phase::Optimizer)?;
        self.anatomy_read(StepPoint::Optimizer);
        Ok(Some((updated, optim)))
    }
}

/// What the passes of one step produced.
struct Passes<B: AutodiffBackend> {
    grads: GradientsParams,
    /// Sum of per-sample losses, read as the passes ran (with phase checks).
    loss_sum: f64,
    /// Without phase checks: the losses times their rows, still on the device.
    deferred: Vec<Tensor<B::InnerBackend, 1>>,
}

impl<B: AutodiffBackend> Passes<B> {
    /// This device's loss sum, read now.
    fn own_loss(&self) -> f64 {
        if self.deferred.is_empty() {
            self.loss_sum
        } else {
            Self::read(&self.deferred)
        }
    }

    /// The sum of the deferred losses (one read of the device).
    fn read(deferred: &[Tensor<B::InnerBackend, 1>]) -> f64 {
        let total = Tensor::cat(deferred.to_vec(), 0).sum().into_scalar();
        f64::from(total.elem::<f32>())
    }
}

/// The tiny config with a 16-character context, `batch` samples per step and `extra`
/// overrides, and its corpus: what the trainer's unit tests build on.
#[cfg(test)]
fn tiny_fixture(batch: i64, extra: &[(&str, toml::Value)]) -> (RunConfig, Arc<Corpus>) {
    use crate::config::{load, ConfigSource};
    let mut over = vec![
        ("train.batch".to_string(), toml::Value::Integer(batch)),
        ("model.seq_len".to_string(), toml::Value::Integer(16)),
    ];
    over.extend(extra.iter().map(|(k, v)| (k.to_string(), v.clone())));
    let (_, cfg) = load(&ConfigSource::Builtin("tiny".into()), &over).unwrap();
    let corpus = Arc::new(Corpus::load(&cfg.data, 16).unwrap());
    (cfg, corpus)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::CpuBackend;
    use crate::model::flat_params;
    use crate::oom::ScriptedDetector;

    fn trainer(detector: ScriptedDetector) -> Trainer<CpuBackend> {
        let (cfg, corpus) = tiny_fixture(8, &[]);
        let plan = StepPlan::even(4, 2);
        Trainer::with_instruments(
            &cfg,
            corpus,
            plan,
            Default::default(),
            Instruments {
                detector: Arc::new(detector),
                ..Default::default()
            },
        )
    }

    #[test]
    fn an_oom_in_any_phase_leaves_the_model_as_it_was() {
        for phase in [Phase::Forward, Phase::Backward, Phase::Optimizer] {
            let mut t = trainer(ScriptedDetector::new(vec![(1, phase)]));
            t.step(0).unwrap();
            let before = flat_params(t.model());
            let err = t.step(1).unwrap_err();
            assert!(
                matches!(err, TrainError::OutOfMemory(ref e) if e.phase == phase),
                "{err}"
            );
            assert_eq!(
                flat_params(t.model()),
                before,
                "{phase}: the failed step leaked into the model"
            );
            // The same step, retried, is applied.
            t.step(1).unwrap();
            assert_ne!(flat_params(t.model()), before);
        }
    }

    #[test]
    fn a_discarded_step_does_not_touch_the_optimizer_state() {
        // Two trainers: one has an OOM at step 1 (optimizer phase) and retries it, the
        // other never fails. AdamW's moments would differ if the failed step had reached
        // them.
        let mut failing = trainer(ScriptedDetector::new(vec![(1, Phase::Optimizer)]));
        let mut clean = trainer(ScriptedDetector::new(vec![]));
        for t in [&mut failing, &mut clean] {
            t.step(0).unwrap();
        }
        assert!(failing.step(1).is_err());
        assert_eq!(flat_params(failing.model()), flat_params(clean.model()));
        for t in [&mut failing, &mut clean] {
            t.step(1).unwrap();
            t.step(2).unwrap();
        }
        assert_eq!(flat_params(failing.model()), flat_params(clean.model()));
    }
}

#[cfg(test)]
mod rewrap_tests {
    use super::*;
    use crate::backend::CpuBackend;
    use crate::config::{load, ConfigSource};
    use burn::module::{ModuleVisitor, Param};

    struct Flags(Vec<bool>);
    impl<B: Backend> ModuleVisitor<B> for Flags {
        fn visit_float<const D: usize>(&mut self, p: &Param<Tensor<B, D>>) {
            self.0.push(p.val().is_require_grad());
        }
    }

    #[test]
    fn rewrapped_parameters_still_require_grad() {
        let (_, cfg) = load(&ConfigSource::Builtin("tiny".into()), &[]).unwrap();
        let net = Net::<CpuBackend>::init(&cfg.model, 47, &Default::default());
        let mut before = Flags(vec![]);
        net.visit(&mut before);
        let again = Net::<CpuBackend>::from_inner(net.valid());
        let mut after = Flags(vec![]);
        again.visit(&mut after);
        assert_eq!(before.0, after.0);
    }
}

#[cfg(test)]
mod warm_up_tests {
    use super::*;
    use crate::backend::CpuBackend;
    use crate::model::flat_params;

    fn trainer() -> Trainer<CpuBackend> {
        let (cfg, corpus) = tiny_fixture(8, &[]);
        Trainer::new(&cfg, corpus, StepPlan::even(8, 1), Default::default())
    }

    #[test]
    fn a_warm_up_step_changes_nothing_the_run_can_see() {
        let mut warmed = trainer();
        let mut plain = trainer();
        let before = flat_params(warmed.model());
        warmed.warm_up(2).unwrap();
        assert_eq!(flat_params(warmed.model()), before);
        assert_eq!(warmed.plan(), StepPlan::even(8, 1));
        for t in [&mut warmed, &mut plain] {
            t.step(0).unwrap();
            t.step(1).unwrap();
        }
        assert_eq!(flat_params(warmed.model()), flat_params(plain.model()));
    }
}

#[cfg(test)]
mod snapshot_tests {
    use super::*;
    use crate::backend::CpuBackend;
    use crate::model::flat_params;

    #[test]
    fn a_restored_trainer_continues_exactly_as_the_original() {
        let (cfg, corpus) = tiny_fixture(8, &[]);
        let make = || {
            Trainer::<CpuBackend>::new(
                &cfg,
                corpus.clone(),
                StepPlan::even(8, 1),
                Default::default(),
            )
        };
        let mut original = make();
        for s in 0..3 {
            original.step(s).unwrap();
        }
        let (model, optim) = original.snapshot().unwrap();
        // A fresh trainer (other initial weights would do too) takes the saved state.
        let mut restored = make();
        restored.restore(model, optim, None).unwrap();
        assert_eq!(flat_params(restored.model()), flat_params(original.model()));
        for s in 3..5 {
            original.step(s).unwrap();
            restored.step(s).unwrap();
        }
        // AdamW's moments and step count came back too, or these would differ.
        assert_eq!(flat_params(restored.model()), flat_params(original.model()));
    }
}

#[cfg(test)]
mod loss_scale_tests {
    use super::*;
    use crate::backend::CpuBackend;
    use crate::model::flat_params;

    #[test]
    fn an_overflowing_step_is_skipped_and_leaves_the_model_as_it_was() {
        let (cfg, corpus) = tiny_fixture(
            4,
            &[
                ("train.precision", toml::Value::String("f16".into())),
                // loss x 1e38 overflows even f32.
                ("loss_scale.init_scale", toml::Value::Float(1e38)),
            ],
        );
        let mut t =
            Trainer::<CpuBackend>::new(&cfg, corpus, StepPlan::even(4, 1), Default::default());
        let before = flat_params(t.model());
        let rec = t.step(0).unwrap();
        assert!(rec.skipped);
        assert_eq!(rec.loss_scale, Some(1e38));
        assert_eq!(flat_params(t.model()), before);
        assert_eq!(
            t.scaler().map(|s| (s.skipped(), s.scale())),
            Some((1, 5e37))
        );
    }
}
