//! `oomlab train` from a validated plan to a written run folder. No clap types here.

use std::path::PathBuf;
use std::sync::Arc;

use super::instruments::{cpu_instruments, cuda_instruments, peer_kit, Held};
use super::preflight::{check_parallel, check_support};
use crate::backend::{dispatch, BackendExtras, BackendJob};
use crate::config::RunConfig;
use crate::data::Corpus;
use crate::device::{reexec_with_library_dir, select, DeviceRequest, Selected};
use crate::error::Error;
use crate::progress::TrainProgress;
use crate::results::AttemptRecord;
use crate::results::{DeviceInfo, RunSummary};
use crate::run_dir::{default_run_path, RunDir};
use crate::train::{
    self, Alone, DeviceRun, GradSync, RunKit, RunResult, StepObserver, StepRecord, StopFlag,
};

pub use super::train_plan::{ResumeRequest, TrainPlan};

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
            crate::render::render_summary(summary, crate::text::width()),
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
        "resuming {} at step {} from {} (written: {}; {} logged step(s) after it will be done again)",
        req.dir.display(),
        next + 1,
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
            crate::parallel::connect::<B>(
                &self.labels,
                self.sharded,
                self.config.train.bucket_elements,
                self.stop,
            )
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

/// Picks the devices, prepares data, memory instruments and run folder, trains, writes
/// the summary. One device is the N = 1 case of a data-parallel run.
pub fn run_train(plan: &TrainPlan, stop: &StopFlag) -> Result<TrainOutcome, Error> {
    let n = plan.devices.len().max(1);
    if n > 1 {
        check_parallel(plan)?;
    }
    // Before anything reads them: the device's header lines name where operations run.
    crate::model::use_kernels(plan.config.kernels);
    let selected = select_devices(&plan.devices)?;
    let say = |line: &str| {
        if !plan.quiet {
            eprint!("{}", crate::text::hang("oomlab: ", line));
        }
    };
    let announced = announce(&selected[0], &plan.config.kernels, &say);
    // Instruments and fit checks see one device's share of the batch.
    let mut share = plan.clone();
    share.config.train.batch = plan.config.train.batch / n;
    let corpus = Arc::new(Corpus::load(&plan.config.data, plan.config.model.seq_len)?);
    let mut kit = RunKit {
        sample_interval: plan.probe_interval,
        budget: plan.vram_budget.or(plan.memory_budget),
        ..Default::default()
    };
    // In the summary too: a --quiet run's settings are known from its files alone.
    kit.notes.extend(announced);
    let held = match &selected[0] {
        Selected::Cpu { .. } => {
            cpu_instruments(&share, &corpus, &mut kit, &say)?;
            Held::default()
        }
        Selected::Cuda { index, name, .. } => {
            cuda_instruments(&share, *index, name, &corpus, &mut kit, &say)?
        }
    };
    check_support(&share, &selected[0], &mut kit)?;
    let labels: Vec<String> = selected.iter().map(device_label).collect();
    let device_label = labels.join(" + ");
    let sharded = plan.config.train.shard_optimizer;
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
                crate::words::LeakDemo::EvalGraph => "each step also evaluates its first micro-batch with the training model and keeps the loss tensor in a list, graph and activations attached",
                crate::words::LeakDemo::LossTotal => "each step's loss is added, graph attached, to a running total that outlives the step",
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
                    plan.config.train.preset.name(),
                )
            });
            refuse_earlier_checkpoints(&path)?;
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
    let train = &plan.config.train;
    let split = match train.split {
        crate::config::Split::GradAccum { steps } if steps > 1 => format!(
            ", each {steps} micro-batches of {} (--steps {steps})",
            train.batch / steps.max(1)
        ),
        _ => String::new(),
    };
    say(&format!(
        "training on {device_label}: {} optimizer steps of {} samples{split}; run folder {}",
        train.max_steps,
        train.batch,
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
    let mut result = result;
    if n == 1 {
        add_prediction(&share, &mut result.summary);
    }
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
                eprint!(
                    "\n{}",
                    crate::text::hang("oomlab: ", &format!("{during}; the summary is written"))
                );
            }
        }
        if let Err(e) = crate::run_dir::write_summary_at(&dir, &result.summary) {
            eprint!("{}", crate::text::hang("oomlab: error: ", &e.to_string()));
        }
        if let Some(s) = &scratch {
            let _ = std::fs::remove_dir_all(s);
        }
        print_train_result(json, &result.summary, &dir);
        let code = exit_code(&result.summary.stop, &stop);
        // The device thread is still inside the compiler: `exit` would run the CUDA
        // libraries' exit handlers beside it (on the H200 that ended in a segmentation
        // fault, exit 139, after the summary was written). The files are written above.
        crate::oom::exit_without_teardown(code)
    })
}

/// The device line, or the restart that puts NVRTC on the library path; then the config's
/// `[kernels]` keys that are not `auto`, where any is. Returns the CUDA engine line and the
/// kernels line, for the summary's notes.
fn announce(
    selected: &Selected,
    kernels: &crate::config::KernelsSection,
    say: &dyn Fn(&str),
) -> Vec<String> {
    let mut said = Vec::new();
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
        Selected::Cuda { .. } => {
            for line in [
                oomlab_kernels::cuda::cublas::engine(),
                crate::device::kernels_line(),
            ] {
                say(&line);
                said.push(line);
            }
        }
        _ => {}
    }
    if let Some(line) = crate::model::chosen_line(kernels) {
        say(&line);
        said.push(line);
    }
    said
}

/// `oomlab estimate`'s prediction at the phase boundaries of the step the run read by
/// category (or, when no step completed, of the split it started with), for the memory
/// the run measured: the card's (GPU) or this machine's heap (CPU, with the fixed compute
/// threads under a SIMULATED budget).
fn add_prediction(plan: &TrainPlan, summary: &mut RunSummary) {
    use crate::estimate::{Estimate, Target};
    use crate::words::MemoryKind;
    let target = match summary.memory.kind {
        MemoryKind::Gpu => match summary.memory.device_total {
            Some(total) => Target::Cuda { total },
            None => return,
        },
        MemoryKind::Host if plan.memory_budget.is_some() => Target::budgeted_cpu(),
        MemoryKind::Host => Target::this_cpu(),
    };
    let (plan_started, kind) = (summary.adaptation.initial_plan, summary.memory.kind);
    let anatomy = summary
        .anatomy
        .get_or_insert_with(|| crate::results::StepAnatomy::empty(None, plan_started, kind));
    // The phases are read during the step's last micro-batch: where that one is shorter,
    // it is the one predicted.
    let read = crate::strategy::StepPlan {
        micro_batch: anatomy
            .plan
            .short_last()
            .unwrap_or(anatomy.plan.micro_batch),
        ..anatomy.plan
    };
    anatomy.predicted = Estimate::with_plan(&plan.config, summary.vocab, target, read).points();
}

/// A new run in a folder that holds another run's checkpoints would leave them beside its
/// own, and a later `--resume` would take the newest of either run: refused before
/// anything is written.
fn refuse_earlier_checkpoints(path: &std::path::Path) -> Result<(), Error> {
    let dir = path.join(crate::checkpoint::DIR);
    let held = std::fs::read_dir(&dir).map(|d| d.count()).unwrap_or(0);
    if held == 0 {
        return Ok(());
    }
    Err(Error::Unsupported(format!(
        "--out {0}: it holds an earlier run's checkpoints ({held} files in {1}); a new run there would leave them beside its own and a later --resume could continue the wrong run. Continue that run with `oomlab train --resume {0}`, give another --out, or delete {1}",
        path.display(),
        dir.display()
    )))
}
