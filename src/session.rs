//! `oomlab train` from a validated plan to a written run folder. No clap types here.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crate::backend::{dispatch, BackendExtras, BackendJob};
use crate::config::{ConfigFile, OptimKind, RunConfig};
use crate::data::Corpus;
use crate::device::{
    configure_cubecl, hold_budget, install_tuned, reexec_with_library_dir, select, Ballast,
    BudgetError, CubeclSettings, DeviceRequest, Selected,
};
use crate::error::Error;
use crate::gpu::process_state;
use crate::model::param_count;
use crate::oom::{DevicePanicDetector, HostBudgetDetector, NoDetector, OomDetector};
use crate::probe::{host, HostProbe, MemoryProbe, NvmlProbe, NvmlView};
use crate::progress::TrainProgress;
use crate::results::AttemptRecord;
use crate::results::{DeviceInfo, RunSummary};
use crate::run_dir::{default_run_path, RunDir};
use crate::train::{
    self, Alone, DeviceRun, GradSync, Instruments, RunKit, RunResult, StepObserver, StepRecord,
    StopFlag,
};
use crate::units::Bytes;

/// Everything `train` needs, already validated.
#[derive(Debug, Clone)]
pub struct TrainPlan {
    /// The merged config file (written to the run folder).
    pub file: ConfigFile,
    /// The checked config.
    pub config: RunConfig,
    /// Where to train: one device, or several (`--devices`, `--gpus`) for a data-parallel
    /// run, one peer per entry. Never empty.
    pub devices: Vec<DeviceRequest>,
    /// Run folder; `None` picks `runs/<time>-<strategy>`.
    pub out: Option<PathBuf>,
    /// No progress lines on stderr.
    pub quiet: bool,
    /// CPU: simulated OOM past this much host heap.
    pub memory_budget: Option<Bytes>,
    /// GPU: emulate a card of this size with real driver-level OOMs.
    pub vram_budget: Option<Bytes>,
    /// Memory sampler interval.
    pub probe_interval: Duration,
    /// Where compiled kernels and autotune results persist; `None` turns it off.
    pub kernel_cache: Option<PathBuf>,
    /// Install the autotune results oomlab ships for this card into the kernel cache.
    pub tuned_pack: bool,
    /// Synchronise and look for OOM after every phase (`false`: once per step).
    pub check_every_phase: bool,
    /// `--checkpoint-every N` (0: only when the run stops); `None`: no checkpoints
    /// (a resumed run keeps its checkpoint's setting).
    pub checkpoint_every: Option<usize>,
    /// `--keep-checkpoints K`.
    pub keep_checkpoints: Option<usize>,
    /// `--resume RUN_DIR`: continue that run, in that folder.
    pub resume: Option<ResumeRequest>,
    /// The leak detector's settings.
    pub leak: crate::results::LeakSpec,
    /// `--leak-demo`: a deliberate leak.
    pub leak_demo: Option<crate::vocab::LeakDemo>,
    /// `--json`: the summary goes to stdout as JSON.
    pub json: bool,
    /// A SIMULATED slow start before step 1, for tests of the stop path.
    pub simulated_slow_start: Option<Duration>,
}

/// Prints a train run's result on stdout: the summary as JSON, or the rendered summary
/// and the run folder. A closed pipe is not the run's failure, so write errors are
/// dropped.
pub fn print_train_result(json: bool, summary: &RunSummary, run_dir: &std::path::Path) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = if json {
        serde_json::to_writer_pretty(&mut out, summary)
            .map_err(std::io::Error::other)
            .and_then(|_| writeln!(out))
    } else {
        write!(
            out,
            "{}\nrun folder: {}\n",
            crate::report::render_summary(summary),
            run_dir.display()
        )
    };
    let _ = out.flush();
}

/// The exit code of a run that ended with `stop`.
pub fn exit_code(stop: &crate::results::StopReason, flag: &StopFlag) -> i32 {
    use crate::results::StopReason;
    match stop {
        StopReason::Completed => 0,
        StopReason::Interrupted if flag.terminated() => crate::error::EXIT_TERMINATED,
        StopReason::Interrupted => crate::error::EXIT_INTERRUPTED,
        StopReason::Failed(_) => crate::error::EXIT_FAILURE,
        StopReason::OutOfMemory(_) => crate::error::EXIT_OOM,
    }
}

/// A checked `--resume`: the run folder and the configuration keys `--force` let change.
#[derive(Debug, Clone, PartialEq)]
pub struct ResumeRequest {
    /// The run folder.
    pub dir: PathBuf,
    /// `key: old -> new` for each key changed with `--force`.
    pub forced: Vec<String>,
}

/// Checkpoints kept when `--keep-checkpoints` is not given.
pub const DEFAULT_KEEP_CHECKPOINTS: usize = 3;

/// Config keys whose change sends a resumed run to a fresh split and strategy state.
const SPLIT_KEYS: [&str; 4] = [
    "train.batch",
    "train.strategy",
    "train.grad_accum_steps",
    "auto_halve.",
];

/// Finds the checkpoint to resume from (saying which unusable ones were skipped),
/// reopens the run folder's logs at its step and builds what the loop starts from.
fn prepare_resume(
    req: &ResumeRequest,
    say: &dyn Fn(&str),
) -> Result<(RunDir, crate::train::ResumeFrom), Error> {
    let dir = req.dir.join(crate::checkpoint::DIR);
    let (checkpoint, path, skipped) = crate::checkpoint::latest_usable(&dir).map_err(|e| {
        Error::Resume(format!(
            "cannot resume {}: {e}. Start a new run instead (without --resume), with --checkpoint-every N so the next one can be resumed",
            req.dir.display()
        ))
    })?;
    for line in &skipped {
        say(&format!("checkpoint unusable, skipped: {line}"));
    }
    let next = checkpoint.meta.next_step;
    let (run_dir, resumed) = RunDir::reopen(req.dir.clone(), next)?;
    say(&format!(
        "resuming {} at step {next} from {} (written: {}; {} logged step(s) after it will be done again)",
        req.dir.display(),
        path.display(),
        checkpoint.meta.reason,
        resumed.steps_dropped
    ));
    let fresh_plan = req
        .forced
        .iter()
        .any(|k| SPLIT_KEYS.iter().any(|p| k.starts_with(p)));
    let from = crate::train::ResumeFrom {
        mark: crate::checkpoint::ResumeMark {
            at_step: next,
            from: path.display().to_string(),
            skipped,
            forced: req.forced.clone(),
            steps_redone: resumed.steps_dropped,
        },
        checkpoint,
        records: resumed.records,
        attempts: resumed.attempts,
        fresh_plan,
    };
    Ok((run_dir, from))
}

/// What a finished (or stopped) run left behind.
#[derive(Debug)]
pub struct TrainOutcome {
    /// The summary, also written to the run folder.
    pub summary: RunSummary,
    /// The run folder.
    pub run_dir: PathBuf,
}

struct Both<'a>(&'a mut TrainProgress, &'a mut RunDir);

impl StepObserver for Both<'_> {
    fn on_start(&mut self, steps: usize) {
        self.0.on_start(steps);
        self.1.on_start(steps);
    }
    fn on_step(&mut self, r: &StepRecord) {
        self.0.on_step(r);
        self.1.on_step(r);
    }
    fn on_attempt(&mut self, a: &AttemptRecord) {
        self.0.on_attempt(a);
        self.1.on_attempt(a);
    }
    fn on_note(&mut self, line: &str) {
        self.0.on_note(line);
    }
    fn on_warm_up(&mut self, kernel_cache: Option<&std::path::Path>) {
        self.0.on_warm_up(kernel_cache);
    }
    fn on_warm_up_done(&mut self) {
        self.0.on_warm_up_done();
    }
}

struct TrainJob<'a> {
    config: &'a RunConfig,
    corpus: Arc<Corpus>,
    stop: &'a StopFlag,
    /// One per device, rank 0 first.
    kits: Vec<RunKit>,
    labels: Vec<String>,
    sharded: bool,
    observer: Both<'a>,
}

impl BackendJob for TrainJob<'_> {
    type Output = RunResult;
    fn run<B: train::TrainBackend>(
        mut self,
        devices: Vec<(B::Device, DeviceInfo, BackendExtras)>,
    ) -> RunResult {
        // The one place where one device and several differ: who the trainer keeps in
        // step with.
        let syncs: Vec<Arc<dyn GradSync<B>>> = if devices.len() == 1 {
            vec![Arc::new(Alone)]
        } else {
            crate::parallel::connect::<B>(&self.labels, self.sharded, self.stop)
        };
        let runs = devices
            .into_iter()
            .zip(self.kits)
            .zip(syncs)
            .map(|(((device, info, extras), mut kit), sync)| {
                kit.instruments.allocator = extras.allocator;
                kit.pool = extras.pool;
                DeviceRun::<B> {
                    device,
                    info,
                    kit,
                    sync,
                }
            })
            .collect();
        train::train_on::<B>(
            self.config,
            self.corpus,
            runs,
            self.stop,
            &mut self.observer,
        )
    }
}

/// Lower bound of what training needs on the device: weights, gradients and optimizer
/// state (AdamW keeps two moments), 4 bytes each, before any activation.
pub fn state_bytes_lower_bound(config: &RunConfig, vocab: usize) -> Bytes {
    let per_param = match config.optim.kind {
        OptimKind::AdamW => 16,
        OptimKind::Sgd => 8,
    };
    Bytes(param_count(&config.model, vocab) * per_param)
}

/// Refuses a CPU run whose weights, gradients and optimizer state alone exceed the host
/// RAM available now: the first allocation past it would abort the process (Rust's
/// allocator aborts; no summary could be written). Names the widths that would fit.
pub fn host_preflight(config: &RunConfig, vocab: usize, available: Bytes) -> Result<(), Error> {
    let need = state_bytes_lower_bound(config, vocab);
    if need <= available {
        return Ok(());
    }
    let mut smaller = config.clone();
    while state_bytes_lower_bound(&smaller, vocab) > available && smaller.model.d_model > 1 {
        smaller.model.d_model = (smaller.model.d_model / 2).max(1);
        smaller.model.d_ff = (smaller.model.d_ff / 2).max(1);
        // Heads must divide the width; keep the config's heads where they still do.
        while smaller.model.d_model % smaller.model.n_heads != 0 {
            smaller.model.n_heads -= 1;
        }
    }
    let fits = state_bytes_lower_bound(&smaller, vocab);
    let hint = if fits <= available {
        format!(
            "; halving the widths until it fits: --d-model {} --set model.d_ff={}{} ({fits} of state)",
            smaller.model.d_model,
            smaller.model.d_ff,
            if smaller.model.n_heads != config.model.n_heads {
                format!(" --set model.n_heads={}", smaller.model.n_heads)
            } else {
                String::new()
            }
        )
    } else {
        "; even the narrowest model does not fit: fewer --n-layers or a smaller vocabulary".into()
    };
    Err(Error::WontFit(format!(
        "this run cannot fit in host RAM: {} parameters need at least {need} for weights, gradients and {} state (activations come on top), and this machine has {available} available{hint}",
        param_count(&config.model, vocab),
        match config.optim.kind {
            OptimKind::AdamW => "AdamW",
            OptimKind::Sgd => "SGD",
        }
    )))
}

/// Warnings before the first step: other processes holding VRAM, too little free memory.
fn preflight(view: &NvmlView, index: u32, need: Bytes) -> Vec<String> {
    let mut warnings = Vec::new();
    let me = std::process::id();
    if let Ok(procs) = view.processes(index) {
        for p in procs.into_iter().filter(|p| p.pid != me) {
            let what = process_state(p.pid).describe();
            warnings.push(format!(
                "preflight: PID {} already holds {} on cuda:{index} ({what}); see `oomlab gpu`",
                p.pid,
                p.used
                    .map(|b| b.to_string())
                    .unwrap_or_else(|| "VRAM".into()),
            ));
        }
    }
    if let Ok(d) = view.device(index) {
        if d.free < need {
            warnings.push(format!(
                "preflight: cuda:{index} has {} free, less than the {need} that weights, gradients and optimizer state alone need (activations come on top): expect an out-of-memory failure",
                d.free
            ));
        }
    }
    warnings
}

/// Refuses a CUDA run whose predicted peak exceeds the card minus what other processes
/// hold. Under `--vram-budget` (made to show real OOMs) it only says what to expect.
fn gpu_fit_check(
    plan: &TrainPlan,
    view: &NvmlView,
    index: usize,
    vocab: usize,
    say: &dyn Fn(&str),
) -> Result<(), Error> {
    let Ok(d) = view.device(index as u32) else {
        return Ok(());
    };
    let me = std::process::id();
    let others: u64 = view
        .processes(index as u32)
        .unwrap_or_default()
        .iter()
        .filter(|p| p.pid != me)
        .filter_map(|p| p.used.map(|b| b.0))
        .sum();
    let target = crate::estimate::Target::Cuda { total: d.total };
    if let Some(budget) = plan.vram_budget {
        let peak = crate::estimate::Estimate::of(&plan.config, vocab, target).peak;
        if peak > budget {
            say(&format!(
                "--vram-budget {budget}: `oomlab estimate` predicts a peak of {peak}: expect an out-of-memory failure"
            ));
        }
        return Ok(());
    }
    crate::estimate::check_fits(
        &plan.config,
        vocab,
        target,
        Bytes(d.total.0.saturating_sub(others)),
        &format!("cuda:{index}'s memory less what other processes hold"),
    )
    .map_err(Error::WontFit)
}

/// What a run holds for its whole length besides the kit: the `--vram-budget` ballast
/// (freed on drop) and cubecl's setup (its scratch folder removed at the end).
#[derive(Default)]
struct Held {
    ballast: Option<Ballast>,
    cubecl: Option<crate::device::CubeclSetup>,
}

/// Picks the devices, prepares data, memory instruments and run folder, trains, writes
/// the summary. One device is the N = 1 case of a data-parallel run.
pub fn run_train(plan: &TrainPlan, stop: &StopFlag) -> Result<TrainOutcome, Error> {
    let n = plan.devices.len().max(1);
    if n > 1 {
        check_parallel(plan)?;
    }
    let selected = select_devices(&plan.devices)?;
    let say = |line: &str| {
        if !plan.quiet {
            eprintln!("oomlab: {line}");
        }
    };
    announce(&selected[0], &say);
    // Instruments and fit checks see one device's share of the batch.
    let mut share = plan.clone();
    share.config.train.batch = plan.config.train.batch / n;
    let corpus = Arc::new(Corpus::load(&plan.config.data, plan.config.model.seq_len)?);
    let mut kit = RunKit {
        sample_interval: plan.probe_interval,
        ..Default::default()
    };
    let held = match &selected[0] {
        Selected::Cpu { .. } => {
            cpu_instruments(&share, &corpus, &mut kit, &say)?;
            Held::default()
        }
        Selected::Cuda { index, name, .. } => {
            cuda_instruments(&share, *index, name, &corpus, &mut kit, &say)?
        }
    };
    check_support(&share, &selected[0], &mut kit, &say)?;
    let labels: Vec<String> = selected.iter().map(device_label).collect();
    let device_label = labels.join(" + ");
    let sharded = plan.config.train.strategy == crate::config::StrategySpec::ShardOptimizer;
    if n > 1 {
        for note in split_notes(plan, &labels, share.config.train.batch, sharded) {
            say(&note);
            kit.notes.push(note);
        }
    }
    kit.leak = plan.leak;
    kit.leak_demo = plan.leak_demo;
    if let Some(demo) = plan.leak_demo {
        say(&format!(
            "--leak-demo {}: a DELIBERATE leak, for the leak detector to catch: {}",
            demo.name(),
            match demo {
                crate::vocab::LeakDemo::EvalGraph => "each step also evaluates its first micro-batch with the training model and keeps the loss tensor in a list, graph and activations attached",
                crate::vocab::LeakDemo::LossTotal => "each step's loss is added, graph attached, to a running total that outlives the step",
            }
        ));
    }
    let (mut run_dir, resumed_every) = match &plan.resume {
        Some(req) => {
            let (run_dir, from) = prepare_resume(req, &say)?;
            if !req.forced.is_empty() {
                // The run goes on with the changed config: a later resume continues it.
                crate::run_dir::write_config(run_dir.path(), &plan.file, &device_label)?;
            }
            let meta = (from.checkpoint.meta.every, from.checkpoint.meta.keep);
            kit.resume = Some(Arc::new(from));
            (run_dir, Some(meta))
        }
        None => {
            let path = plan.out.clone().unwrap_or_else(|| {
                default_run_path(
                    std::path::Path::new("runs"),
                    plan.config.train.strategy.name(),
                )
            });
            (RunDir::create(path, &plan.file, &device_label)?, None)
        }
    };
    let every = plan.checkpoint_every.or(resumed_every.map(|(e, _)| e));
    kit.checkpoints = every.map(|every| crate::train::CheckpointPlan {
        dir: run_dir.path().join(crate::checkpoint::DIR),
        every,
        keep: plan
            .keep_checkpoints
            .or(resumed_every.map(|(_, k)| k))
            .unwrap_or(DEFAULT_KEEP_CHECKPOINTS),
    });
    say(&format!(
        "training on {device_label}, run folder {}",
        run_dir.path().display()
    ));
    kit.simulated_slow_start = plan.simulated_slow_start;
    kit.abandon = Some(abandon_action(
        plan,
        run_dir.path(),
        held.cubecl.as_ref().and_then(|c| c.scratch.clone()),
        stop,
    ));
    // Rank 0 keeps the kit built above; every other device gets its own instruments.
    let kits = std::iter::once(kit.clone())
        .chain(selected[1..].iter().map(|s| peer_kit(&kit, s, plan)))
        .collect();
    let mut progress = TrainProgress::new(plan.quiet);
    let result = dispatch(
        &selected,
        plan.config.train.checkpointing,
        TrainJob {
            config: &plan.config,
            corpus,
            stop,
            kits,
            labels,
            sharded,
            observer: Both(&mut progress, &mut run_dir),
        },
    );
    progress.finish();
    if let Some(setup) = &held.cubecl {
        setup.remove_scratch();
    }
    drop(held.ballast);
    run_dir.write_summary(&result.summary)?;
    run_dir.write_timeline(&result.timeline)?;
    Ok(TrainOutcome {
        summary: result.summary,
        run_dir: run_dir.path().to_path_buf(),
    })
}

/// What the reports call a selected device.
fn device_label(selected: &Selected) -> String {
    match selected {
        Selected::Cpu { .. } => "cpu".to_string(),
        Selected::Cuda { index, name, .. } => format!("cuda:{index} {name}"),
    }
}

/// Finds every requested device; several must be all CUDA or all CPU.
fn select_devices(requests: &[DeviceRequest]) -> Result<Vec<Selected>, Error> {
    let listed = || {
        requests
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    match requests {
        [] => Ok(vec![select(DeviceRequest::Auto)?]),
        [one] => Ok(vec![select(*one)?]),
        several => {
            let selected: Vec<Selected> = several
                .iter()
                .map(|d| select(*d))
                .collect::<Result<_, _>>()
                .map_err(|e| {
                    Error::Unsupported(format!(
                        "--devices {}: {e}. Without GPUs, --devices cpu,cpu runs the same data-parallel code on two CPU peers",
                        listed()
                    ))
                })?;
            let cuda = selected
                .iter()
                .filter(|s| matches!(s, Selected::Cuda { .. }))
                .count();
            if cuda != 0 && cuda != selected.len() {
                return Err(Error::Unsupported(format!(
                    "--devices {}: a run is either all CUDA or all CPU (burn's collective reduces tensors of one backend)",
                    listed()
                )));
            }
            Ok(selected)
        }
    }
}

/// What a run over several devices tells the user before it starts: how the batch is
/// split, and when several peers share one device.
fn split_notes(
    plan: &TrainPlan,
    labels: &[String],
    per_device: usize,
    sharded: bool,
) -> Vec<String> {
    let mut notes = Vec::new();
    let mut seen = labels.to_vec();
    seen.sort();
    seen.dedup();
    if seen.len() < labels.len() {
        let cpu = labels.iter().all(|l| l == "cpu");
        notes.push(format!(
            "--devices {}: several peers share one device{}; they compete for its memory and compute, so this tests the code, not the scaling",
            plan.devices.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(","),
            if cpu { " (CPU peers are threads of this process on its cores)" } else { "" }
        ));
    }
    notes.push(format!(
        "data parallel over {} devices ({}): {} samples per step, {per_device} per device, gradients all-reduced by burn-collective{}",
        labels.len(),
        labels.join(", "),
        plan.config.train.batch,
        if sharded {
            "; optimizer state sharded (each device keeps AdamW's moments of its share of the parameters)"
        } else {
            ""
        }
    ));
    notes
}

/// What a stop does when the device is too busy for the loop to see it (see
/// `train::stall`): write the summary the watchdog made, print it as the run would, and
/// end the process with the stop's exit code (130 Ctrl-C, 143 SIGTERM).
fn abandon_action(
    plan: &TrainPlan,
    dir: &std::path::Path,
    scratch: Option<PathBuf>,
    stop: &StopFlag,
) -> Arc<dyn Fn(crate::train::RunResult) + Send + Sync> {
    let dir = dir.to_path_buf();
    let json = plan.json;
    let quiet = plan.quiet;
    let stop = stop.clone();
    Arc::new(move |result: crate::train::RunResult| {
        if !quiet {
            if let Some(during) = &result.summary.stopped_during {
                eprintln!("\noomlab: {during}; the summary is written");
            }
        }
        if let Err(e) = crate::run_dir::write_summary_at(&dir, &result.summary) {
            eprintln!("oomlab: error: {e}");
        }
        if let Some(s) = &scratch {
            let _ = std::fs::remove_dir_all(s);
        }
        print_train_result(json, &result.summary, &dir);
        let code = exit_code(&result.summary.stop, &stop);
        // The device thread is still inside the compiler: `exit` would run the CUDA
        // libraries' exit handlers beside it (on the H200 that ended in a segmentation
        // fault, exit 139, after the summary was written). `_exit` ends the process
        // without them; the files and stdout are written and flushed above.
        let _ = std::io::Write::flush(&mut std::io::stderr());
        // SAFETY: `_exit` takes an int and never returns; nothing of this process is
        // needed after it.
        unsafe { libc::_exit(code) }
    })
}

/// The device line, or the restart that puts NVRTC on the library path.
fn announce(selected: &Selected, say: &dyn Fn(&str)) {
    match selected {
        Selected::Cpu { note: Some(note) } => say(note),
        Selected::Cuda {
            restart_with: Some(dir),
            ..
        } => {
            eprintln!(
                "oomlab: NVRTC found in {} (not on the library path); restarting with it added to LD_LIBRARY_PATH",
                dir.display()
            );
            let err = reexec_with_library_dir(dir);
            eprintln!("oomlab: restart failed ({err}); set LD_LIBRARY_PATH yourself: export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:{}", dir.display());
        }
        _ => {}
    }
}

/// The CPU's instruments: host probe, counting heap, the simulated budget; refuses a run
/// that cannot fit in RAM.
fn cpu_instruments(
    plan: &TrainPlan,
    corpus: &Corpus,
    kit: &mut RunKit,
    say: &dyn Fn(&str),
) -> Result<(), Error> {
    if plan.vram_budget.is_some() {
        return Err(BudgetError::NotCuda.into());
    }
    // Before anything uses rayon's pool (the fit check below reads its size).
    if plan.memory_budget.is_some() {
        let threads = crate::device::BUDGET_THREADS;
        let note = match crate::device::pin_compute_threads(threads) {
            Ok(()) => format!("--memory-budget: {threads} compute threads, so the heap (the matrix library keeps an L2-sized buffer per thread) and the SIMULATED OOMs are the same on any machine"),
            Err(e) => format!("--memory-budget: could not fix the compute threads at {threads} ({e}): the heap, and so the SIMULATED OOMs, depend on this machine's thread count"),
        };
        say(&note);
        kit.notes.push(note);
    }
    if let Some(available) = host::host_available() {
        host_preflight(&plan.config, corpus.vocab.len(), available)?;
        crate::estimate::check_fits(
            &plan.config,
            corpus.vocab.len(),
            crate::estimate::Target::this_cpu(),
            available,
            "the host RAM available now",
        )
        .map_err(Error::WontFit)?;
    }
    if plan.config.train.empty_cache_every.is_some() {
        let note = "--empty-cache-every on the CPU: burn's Flex backend keeps no pool, so a cleanup has nothing to return; the figures show the call's cost, not a release".to_string();
        say(&note);
        kit.notes.push(note);
    }
    kit.memory_kind = crate::vocab::MemoryKind::Host;
    kit.sampled = Some(Arc::new(HostProbe) as Arc<dyn MemoryProbe>);
    if !host::counting() {
        kit.notes
                    .push("host heap count unavailable: oomlab's counting allocator is not installed in this program".into());
    }
    let detector: Arc<dyn OomDetector> = match plan.memory_budget {
        Some(b) => {
            say(&format!(
                "--memory-budget {b}: exceeding it is a SIMULATED out-of-memory event"
            ));
            Arc::new(HostBudgetDetector::new(b))
        }
        None => Arc::new(NoDetector),
    };
    kit.instruments = Instruments {
        detector,
        allocator: None,
        memory: Some(Arc::new(HostProbe)),
        check_every_phase: plan.check_every_phase,
    };
    Ok(())
}

/// CUDA's instruments: cubecl's configuration and kernel cache, NVML, the preflight
/// warnings, the `--vram-budget` ballast, the device-thread OOM detector.
fn cuda_instruments(
    plan: &TrainPlan,
    index: usize,
    name: &str,
    corpus: &Corpus,
    kit: &mut RunKit,
    say: &dyn Fn(&str),
) -> Result<Held, Error> {
    let mut held = Held::default();
    if plan.memory_budget.is_some() {
        say("--memory-budget applies to the CPU backend; on CUDA use --vram-budget");
    }
    kit.memory_kind = crate::vocab::MemoryKind::Gpu;
    // A dry step at a size that fits before the first real one (Trainer::warm_up).
    kit.warm_up_rows = Some(32);
    let setup = configure_cubecl(&CubeclSettings {
        kernel_cache: plan.kernel_cache.clone(),
        exact_memory: plan.config.train.memory_mode == crate::config::MemoryMode::Exact,
    });
    for note in &setup.notes {
        say(note);
    }
    if let (Some(dir), true) = (&setup.kernel_cache, plan.tuned_pack) {
        if !setup.autotune.matches_shipped() {
            // At another level their keys would not match: say so once, in the note.
        } else if let Some(line) = install_tuned(dir, name, index) {
            say(&line);
            kit.notes.push(line);
        }
        if let Some(done) =
            crate::device::install_compiled(dir, name, crate::device::driver_version())
        {
            let line = done.note(name);
            say(&line);
            kit.notes.push(line);
        }
    }
    kit.notes.push(setup.autotune.note());
    kit.kernel_cache = setup.kernel_cache.clone();
    held.cubecl = Some(setup);
    let nvml = match NvmlView::init() {
        Ok(v) => Some(v),
        Err(e) => {
            say(&e.to_string());
            kit.notes.push(e.to_string());
            None
        }
    };
    if let Some(view) = &nvml {
        let need = state_bytes_lower_bound(&plan.config, corpus.vocab.len());
        for w in preflight(view, index as u32, need) {
            say(&w);
            kit.notes.push(w);
        }
        gpu_fit_check(plan, view, index, corpus.vocab.len(), &say)?;
    }
    if let Some(budget) = plan.vram_budget {
        let setup = hold_budget(index, budget)?;
        say(&setup.note);
        kit.notes.push(setup.note);
        kit.ballast = setup.ballast.as_ref().map(|b| b.bytes());
        held.ballast = setup.ballast;
    }
    let probe: Option<Arc<dyn MemoryProbe>> =
        nvml.map(|v| Arc::new(NvmlProbe::new(v, index as u32)) as Arc<dyn MemoryProbe>);
    kit.sampled = probe.clone();
    kit.instruments = Instruments {
        detector: Arc::new(DevicePanicDetector::install()),
        allocator: None, // filled in by the backend dispatch
        memory: probe,
        check_every_phase: plan.check_every_phase,
    };
    Ok(held)
}

/// What the configuration asks that this device cannot do (a half type, a memory mode).
fn check_support(
    plan: &TrainPlan,
    selected: &Selected,
    kit: &mut RunKit,
    say: &dyn Fn(&str),
) -> Result<(), Error> {
    if let Some(h) = plan.config.train.precision.half() {
        let ok = crate::backend::supports_dtype(selected, h.dtype());
        if !ok {
            return Err(Error::Unsupported(format!(
                "--precision {0}: burn's backend on this device does not fully support {0} (its supports_dtype says no); use --precision f32{1}",
                h.name(),
                if h == crate::config::HalfDtype::F16 { " or bf16" } else { " or f16" }
            )));
        }
        kit.supports_half = Some(ok);
    }
    match (plan.config.train.memory_mode, selected) {
        (crate::config::MemoryMode::Prealloc { .. }, Selected::Cpu { .. }) => {
            return Err(Error::Unsupported(
                "--memory-mode prealloc needs a CUDA device: on the CPU, tensors come from the system allocator, which has no pool to fill (use --memory-mode growth, the default)".into(),
            ));
        }
        (crate::config::MemoryMode::Exact, Selected::Cpu { .. }) => {
            let note = "--memory-mode exact on the CPU: tensors come from the system allocator, exactly sized already; nothing changes".to_string();
            say(&note);
            kit.notes.push(note);
        }
        _ => {}
    }

    Ok(())
}

/// What a data-parallel run cannot do (yet), refused before anything starts.
pub fn check_parallel(plan: &TrainPlan) -> Result<(), Error> {
    let n = plan.devices.len();
    let refuse = |what: &str| {
        Err(Error::Unsupported(format!(
            "{what} with {n} devices: not built for data-parallel runs yet; train on one device for it"
        )))
    };
    if plan.checkpoint_every.is_some() || plan.resume.is_some() {
        return refuse("--checkpoint-every / --resume (one checkpoint would have to hold every device's optimizer shard)");
    }
    if plan.vram_budget.is_some() {
        return refuse("--vram-budget (its ballast holds memory on one card)");
    }
    if matches!(
        plan.config.train.precision,
        crate::config::PrecisionMode::Pure(_)
    ) {
        return refuse("--strategy half");
    }
    if plan.leak_demo.is_some() {
        return refuse("--leak-demo");
    }
    crate::train::check_split(plan.config.train.batch, n).map_err(Error::Unsupported)
}

/// One peer per device: each gets its own OOM detector and its device's NVML probe; the
/// rest (settings, notes) is the first device's.
fn peer_kit(kit: &RunKit, selected: &Selected, plan: &TrainPlan) -> RunKit {
    let mut kit = kit.clone();
    // Rank 0 reports: it alone writes the summary of a stop the loop cannot see.
    kit.abandon = None;
    match selected {
        Selected::Cpu { .. } => {
            kit.instruments.detector = match plan.memory_budget {
                Some(b) => Arc::new(HostBudgetDetector::new(b)),
                None => Arc::new(NoDetector),
            };
        }
        Selected::Cuda { index, .. } => {
            kit.instruments.detector = Arc::new(DevicePanicDetector::install());
            let probe = NvmlView::init()
                .ok()
                .map(|v| Arc::new(NvmlProbe::new(v, *index as u32)) as Arc<dyn MemoryProbe>);
            kit.sampled = probe.clone();
            kit.instruments.memory = probe;
        }
    }
    kit
}
