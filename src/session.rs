//! `oomlab train` from a validated plan to a written run folder. No clap types here.

use std::path::PathBuf;
use std::sync::Arc;

use burn::tensor::backend::AutodiffBackend;

use crate::backend::{dispatch, BackendJob};
use crate::config::{ConfigFile, RunConfig};
use crate::data::Corpus;
use crate::device::{reexec_with_library_dir, select, DeviceRequest, Selected};
use crate::error::Error;
use crate::progress::TrainProgress;
use crate::report::{DeviceInfo, RunSummary};
use crate::run_dir::{default_run_path, RunDir};
use crate::train::{self, StepObserver, StepRecord, StopFlag};

/// Everything `train` needs, already validated.
#[derive(Debug, Clone)]
pub struct TrainPlan {
    /// The merged config file (written to the run folder).
    pub file: ConfigFile,
    /// The checked config.
    pub config: RunConfig,
    /// Where to train.
    pub device: DeviceRequest,
    /// Run folder; `None` picks `runs/<time>-<strategy>`.
    pub out: Option<PathBuf>,
    /// No progress lines on stderr.
    pub quiet: bool,
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
}

struct TrainJob<'a> {
    config: &'a RunConfig,
    corpus: Arc<Corpus>,
    stop: &'a StopFlag,
    observer: Both<'a>,
}

impl BackendJob for TrainJob<'_> {
    type Output = RunSummary;
    fn run<B: AutodiffBackend>(mut self, device: B::Device, info: DeviceInfo) -> RunSummary {
        train::train::<B>(
            self.config,
            self.corpus,
            device,
            info,
            self.stop,
            &mut self.observer,
        )
    }
}

/// Picks the device, prepares the data and the run folder, trains, writes the summary.
pub fn run_train(plan: &TrainPlan, stop: &StopFlag) -> Result<TrainOutcome, Error> {
    let selected = select(plan.device)?;
    match &selected {
        Selected::Cpu { note: Some(note) } if !plan.quiet => eprintln!("oomlab: {note}"),
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

    let corpus = Arc::new(Corpus::load(&plan.config.data, plan.config.model.seq_len)?);
    let path = plan.out.clone().unwrap_or_else(|| {
        default_run_path(
            std::path::Path::new("runs"),
            plan.config.train.strategy.name(),
        )
    });
    let device_label = match &selected {
        Selected::Cpu { .. } => "cpu".to_string(),
        Selected::Cuda { index, name, .. } => format!("cuda:{index} {name}"),
    };
    let mut run_dir = RunDir::create(path, &plan.file, &device_label)?;
    if !plan.quiet {
        eprintln!(
            "oomlab: training on {device_label}, run folder {}",
            run_dir.path().display()
        );
    }
    let mut progress = TrainProgress::new(plan.quiet);
    let summary = dispatch(
        &selected,
        TrainJob {
            config: &plan.config,
            corpus,
            stop,
            observer: Both(&mut progress, &mut run_dir),
        },
    );
    progress.finish();
    run_dir.write_summary(&summary)?;
    Ok(TrainOutcome {
        summary,
        run_dir: run_dir.path().to_path_buf(),
    })
}
