//! Raw flags to typed settings, in one conversion (ripgrep's low-args to high-args).
//!
//! A config is read and `--set` applied ([`Draft::read`]); then every named flag writes
//! its typed value into the draft, saying which key it set, so that a message about the
//! key names the flag the user typed; then the draft is validated. Nothing downstream
//! sees a flag.

use super::args::{CheckEvery, CompareArgs, TrainArgs};
use crate::cmd::train::TrainPlan;
use crate::config::{self, count, ConfigError, ConfigFile, ConfigSource, Draft};
use crate::device::DeviceRequest;
use crate::error::Error;
use crate::units::Bytes;
use crate::words::{PoolMode, Strategy};

/// Writes the named `train` flags into `draft`.
fn apply_train_flags(a: &TrainArgs, d: &mut Draft) -> Result<(), ConfigError> {
    if let Some(s) = a.strategy {
        d.flag(format!("--strategy {s}"), "train.strategy", |f| {
            f.train.strategy = s
        });
    }
    if let Some(k) = a.steps {
        match a.strategy {
            Some(Strategy::AutoHalve) => {
                d.flag(format!("--steps {k}"), "auto_halve.start_steps", |f| {
                    f.auto_halve.start_steps = count(k)
                });
            }
            None | Some(Strategy::GradAccum) => {
                // --steps alone implies grad-accum: it means nothing else.
                d.flag(format!("--steps {k}"), "train.strategy", |f| {
                    f.train.strategy = Strategy::GradAccum
                });
                d.flag(format!("--steps {k}"), "train.grad_accum_steps", |f| {
                    f.train.grad_accum_steps = count(k)
                });
            }
            Some(other) => {
                return Err(ConfigError::Override {
                    given: format!("--steps {k}"),
                    reason: format!(
                        "--steps applies to --strategy grad-accum (micro-batches per step) or auto-halve (micro-batches to start with), not {other}"
                    ),
                })
            }
        }
    }
    let auto_only = [
        ("--keep-effective-batch", a.keep_effective_batch.is_some()),
        ("--search", a.search.is_some()),
        ("--min-micro-batch", a.min_micro_batch.is_some()),
    ];
    for (flag, given) in auto_only {
        if let Some(s) = a.strategy.filter(|s| given && *s != Strategy::AutoHalve) {
            return Err(ConfigError::Override {
                given: flag.to_string(),
                reason: format!("{flag} applies to --strategy auto-halve only, not {s}"),
            });
        }
    }
    if let Some(v) = a.keep_effective_batch {
        d.flag(
            format!("--keep-effective-batch {v}"),
            "auto_halve.keep_effective_batch",
            |f| f.auto_halve.keep_effective_batch = v,
        );
    }
    if let Some(v) = a.search {
        d.flag(format!("--search {v}"), "auto_halve.search", |f| {
            f.auto_halve.search = v
        });
    }
    if let Some(v) = a.min_micro_batch {
        d.flag(
            format!("--min-micro-batch {v}"),
            "auto_halve.min_micro_batch",
            |f| f.auto_halve.min_micro_batch = count(v),
        );
    }
    if let Some(v) = a.precision {
        d.flag(format!("--precision {v}"), "train.precision", |f| {
            f.train.precision = v
        });
    }
    if let Some(m) = a.memory_mode {
        d.flag(format!("--memory-mode {}", m.mode), "memory.mode", |f| {
            f.memory.mode = m.mode
        });
        if let (PoolMode::Prealloc, Some(x)) = (m.mode, m.fraction) {
            d.flag(
                format!("--memory-mode prealloc={x}"),
                "memory.prealloc_fraction",
                |f| f.memory.prealloc_fraction = x,
            );
        }
    }
    if a.checkpointing {
        d.flag("--checkpointing", "train.checkpointing", |f| {
            f.train.checkpointing = true
        });
    }
    if a.offload_optimizer {
        d.flag("--offload-optimizer", "train.offload_optimizer", |f| {
            f.train.offload_optimizer = true
        });
    }
    if let Some(v) = a.attention {
        d.flag(format!("--attention {v}"), "model.attention", |f| {
            f.model.attention = v
        });
    }
    match &a.model {
        Some(super::args::ModelArg::Own(v)) => {
            let v = *v;
            d.flag(format!("--model {v}"), "model.kind", |f| f.model.kind = v);
        }
        Some(super::args::ModelArg::Hf(name)) => {
            return Err(ConfigError::Override {
                given: format!("--model {name}"),
                reason: format!("a Hugging Face shape: `oomlab estimate --model {name}` sizes its training with PyTorch; oomlab itself trains its own networks (--model gpt or mlp)"),
            })
        }
        None => {}
    }
    type Slot = fn(&mut ConfigFile) -> &mut i64;
    let counts: [(&str, &str, Option<u64>, Slot); 7] = [
        ("--batch", "train.batch", a.batch, |f| &mut f.train.batch),
        (
            "--empty-cache-every",
            "train.empty_cache_every",
            a.empty_cache_every,
            |f| &mut f.train.empty_cache_every,
        ),
        ("--max-steps", "train.max_steps", a.max_steps, |f| {
            &mut f.train.max_steps
        }),
        ("--seq-len", "model.seq_len", a.seq_len, |f| {
            &mut f.model.seq_len
        }),
        ("--d-model", "model.d_model", a.d_model, |f| {
            &mut f.model.d_model
        }),
        ("--n-layers", "model.n_layers", a.n_layers, |f| {
            &mut f.model.n_layers
        }),
        ("--seed", "train.seed", a.seed, |f| &mut f.train.seed),
    ];
    for (flag, key, value, slot) in counts {
        if let Some(v) = value {
            d.flag(format!("{flag} {v}"), key, |f| *slot(f) = count(v));
        }
    }
    if let Some(v) = a.lr {
        d.flag(format!("--lr {v}"), "optim.lr", |f| f.optim.lr = v);
    }
    if let Some(p) = &a.data {
        let path = p.display().to_string();
        d.flag(format!("--data {path}"), "data.file", |f| {
            f.data.file = Some(path.clone())
        });
    }
    Ok(())
}

/// `(key, --flag)` for every `train` flag that sets a config key, read from the flags' own
/// help texts (each names its keys), so that no key-to-flag table is kept by hand.
pub(super) fn flags_by_key() -> Vec<(String, String)> {
    use clap::CommandFactory;
    let keys = Draft::keys();
    let cli = super::args::Cli::command();
    let Some(train) = cli.find_subcommand("train") else {
        return Vec::new();
    };
    let mut pairs = Vec::new();
    for arg in train.get_arguments() {
        let (Some(long), Some(help)) = (arg.get_long(), arg.get_help()) else {
            continue;
        };
        let help = help.to_string();
        let words = help.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'));
        for word in words.map(|w| w.trim_end_matches('.')) {
            if keys.iter().any(|k| k == word) && long != "set" {
                pairs.push((word.to_string(), format!("--{long}")));
            }
        }
    }
    pairs
}

/// The configuration file of a run folder given to `--resume`.
fn run_config(dir: &std::path::Path) -> Result<std::path::PathBuf, Error> {
    let path = dir.join("config.toml");
    if path.is_file() {
        Ok(path)
    } else {
        Err(Error::Resume(format!(
            "--resume {}: not a run folder (no config.toml in it); give the folder `oomlab train` printed as `run folder: ...`",
            dir.display()
        )))
    }
}

/// Compares the configuration a resume resolved with the run's own: changes are refused
/// (with the keys) unless `force`; model shapes and the optimizer kind are refused always.
fn check_resume(
    dir: &std::path::Path,
    source: &ConfigSource,
    now: &config::ConfigFile,
    force: bool,
) -> Result<crate::cmd::train::ResumeRequest, Error> {
    let (saved, _) = config::load(source, &[])?;
    let changed = crate::checkpoint::changed_keys(&saved, now);
    let fixed: Vec<&String> = changed
        .iter()
        .filter(|k| k.starts_with("model.") || k.starts_with("optim.kind"))
        .collect();
    if !fixed.is_empty() {
        return Err(Error::Resume(format!(
            "--resume {}: these keys cannot change on a resume, the saved weights and optimizer state have the run's shapes: {}. Start a new run for another model",
            dir.display(),
            fixed.iter().map(|k| k.as_str()).collect::<Vec<_>>().join(", ")
        )));
    }
    if !changed.is_empty() && !force {
        return Err(Error::Resume(format!(
            "--resume {}: the flags change the run's configuration ({}): the resumed run would not continue the same run. Drop those flags, or add --force to continue with the change",
            dir.display(),
            changed.join(", ")
        )));
    }
    Ok(crate::cmd::train::ResumeRequest {
        dir: dir.to_path_buf(),
        forced: changed,
    })
}

/// Turns raw flags into a validated plan: config file, `--set`, the named flags, checks.
pub fn resolve(args: TrainArgs) -> Result<TrainPlan, Error> {
    let source = match &args.resume {
        Some(dir) => ConfigSource::File(run_config(dir)?),
        None => ConfigSource::from_arg(&args.config),
    };
    let mut draft = Draft::read(
        &source,
        &super::args::set_overrides(&args.set)?,
        flags_by_key(),
    )?;
    apply_train_flags(&args, &mut draft)?;
    let (file, config) = draft.validate()?;
    let auto_halve = matches!(config.train.split, config::Split::AutoHalve(_));
    let check_every_phase = match args.check_every {
        CheckEvery::Auto => auto_halve,
        CheckEvery::Phase => true,
        CheckEvery::Step => false,
    };
    if !check_every_phase && auto_halve {
        return Err(Error::Unsupported(
            "--check-every step with --strategy auto-halve: auto-halve needs --check-every phase, to tell an OOM in the optimizer phase (which no smaller batch fixes) from one in the forward or backward pass".into(),
        ));
    }
    let resume = match &args.resume {
        Some(dir) => Some(check_resume(dir, &source, &file, args.force)?),
        None => None,
    };
    let checkpoints_wanted = args.checkpoint_every.is_some() || resume.is_some();
    if let (true, Some(h)) = (
        checkpoints_wanted,
        matches!(config.train.precision, config::PrecisionMode::Pure(_))
            .then(|| config.train.precision.half())
            .flatten(),
    ) {
        return Err(Error::Unsupported(format!(
            "checkpoints with --strategy half ({}): burn 0.21's record API stores floats as f32 and loads them as the backend's float type, so pure-half weights and optimizer state would come back as f32. Use mixed precision (--precision {} without --strategy half), whose master weights are f32",
            h.name(),
            h.name()
        )));
    }
    let devices = devices_of(&args, &config)?;
    Ok(TrainPlan {
        checkpoint_every: args.checkpoint_every.map(|n| n as usize),
        keep_checkpoints: args.keep_checkpoints.map(|n| n as usize),
        resume,
        leak: crate::results::LeakSpec {
            window: args.leak_window as usize,
            per_step: args.leak_threshold,
            ..Default::default()
        },
        leak_demo: args.leak_demo,
        json: args.json,
        simulated_slow_start: args
            .simulate_slow_start
            .filter(|s| s.is_finite() && *s > 0.0)
            .map(std::time::Duration::from_secs_f64),
        file,
        config,
        devices,
        out: args.out,
        quiet: args.quiet,
        memory_budget: args.memory_budget,
        vram_budget: args.vram_budget,
        probe_interval: std::time::Duration::from_millis(args.probe_interval_ms.max(1)),
        kernel_cache: match args.kernel_cache.as_deref() {
            Some("off") => None,
            Some(dir) => Some(dir.into()),
            None => crate::device::default_kernel_cache(),
        },
        tuned_pack: !args.no_tuned_pack,
        check_every_phase,
    })
}

/// `--device`, `--devices` and `--gpus` as the run's devices: one, or several for a
/// data-parallel run (then the batch must split evenly over them).
fn devices_of(args: &TrainArgs, config: &config::RunConfig) -> Result<Vec<DeviceRequest>, Error> {
    let devices = match args.gpus {
        Some(0) => {
            return Err(Error::Unsupported(
                "--gpus 0: give the number of GPUs to train on (1 or more), or --device cpu".into(),
            ))
        }
        Some(n) => (0..n as usize).map(DeviceRequest::Cuda).collect(),
        None => args.devices.clone(),
    };
    let devices = if devices.is_empty() {
        vec![args.device]
    } else {
        devices
    };
    if config.train.shard_optimizer && devices.len() < 2 {
        return Err(shard_needs_devices("--strategy"));
    }
    if devices.len() > 1 {
        crate::train::check_split(config.train.batch, devices.len())
            .map_err(|e| Error::Unsupported(e.to_string()))?;
    }
    Ok(devices)
}

/// `FLAG shard-optimizer` on one device, refused with the way out.
fn shard_needs_devices(flag: &str) -> Error {
    Error::Unsupported(format!(
        "{flag} shard-optimizer splits the optimizer state across devices: give two or more with --devices (e.g. --devices cuda:0,cuda:1; --devices cpu,cpu runs it on two CPU peers)"
    ))
}

/// Turns `compare` flags into a plan: one typed config per row, each checked here, so a
/// mistake in the shared settings is reported once (exit 2), and a row whose preset does
/// not fit them (e.g. `--steps 3` with batch 32) becomes a row that says why.
pub fn resolve_compare(args: CompareArgs) -> Result<crate::cmd::compare::ComparePlan, Error> {
    let several = args.devices.len() > 1;
    let variants = crate::compare::parse_variants(&args.strategies, several).map_err(|reason| {
        ConfigError::Override {
            given: format!("--strategies {}", args.strategies),
            reason,
        }
    })?;
    let mut shared = Draft::read(
        &ConfigSource::from_arg(&args.config),
        &super::args::set_overrides(&args.set)?,
        flags_by_key(),
    )?;
    if let Some(b) = args.batch {
        shared.flag(format!("--batch {b}"), "train.batch", |f| {
            f.train.batch = count(b)
        });
    }
    if let Some(n) = args.max_steps {
        shared.flag(format!("--max-steps {n}"), "train.max_steps", |f| {
            f.train.max_steps = count(n)
        });
    }
    // The shared settings must hold on their own.
    let (_, common) = shared.clone().validate()?;
    let device = args
        .device
        .parse::<crate::device::DeviceRequest>()
        .map_err(|reason| ConfigError::Override {
            given: format!("--device {}", args.device),
            reason,
        })?;
    // What every row would refuse, refused once before any row runs.
    if device == DeviceRequest::Cpu && args.devices.is_empty() {
        if let Some(b) = args.vram_budget {
            return Err(ConfigError::Override {
                given: format!("--vram-budget {b}"),
                reason: "it is a CUDA card's budget; on the CPU the budget is --memory-budget (simulated OOM)".into(),
            }
            .into());
        }
    }
    let mut run_args = match args.devices.as_slice() {
        [] => vec!["--device".to_string(), args.device.clone()],
        [one] => vec!["--device".to_string(), one.to_string()],
        many => {
            let list: Vec<String> = many.iter().map(|d| d.to_string()).collect();
            vec!["--devices".to_string(), list.join(",")]
        }
    };
    if several && args.vram_budget.is_some() {
        return Err(Error::Unsupported(
            "--vram-budget with --devices: its ballast holds memory on one card; compare over several devices without it".into(),
        ));
    }
    if !several
        && variants
            .iter()
            .any(|v| v.technique().needs_several_devices())
    {
        return Err(shard_needs_devices("--strategies"));
    }
    if several {
        crate::train::check_split(common.train.batch, args.devices.len())
            .map_err(|e| Error::Unsupported(e.to_string()))?;
    }
    if let Some(b) = args.vram_budget {
        run_args.extend(["--vram-budget".to_string(), b.0.to_string()]);
    }
    if let Some(b) = args.memory_budget {
        run_args.extend(["--memory-budget".to_string(), b.0.to_string()]);
    }
    let rows = variants
        .into_iter()
        .map(|v| {
            let mut d = shared.clone();
            v.apply(&mut d, args.steps);
            let config = d.validate().map_err(|e| e.to_string());
            (v, config)
        })
        .collect();
    Ok(crate::cmd::compare::ComparePlan {
        rows,
        run_args,
        simulated: args.memory_budget.is_some(),
        out: args.out.unwrap_or_else(|| {
            crate::run_dir::default_run_path(std::path::Path::new("runs"), "compare")
        }),
        quiet: args.quiet,
    })
}

/// Turns `warm-up` flags into passes of compare rows: every row at each config's batch,
/// then the baseline at each halving.
pub fn resolve_warm_up(
    args: super::args::WarmUpArgs,
) -> Result<crate::cmd::warm_up::WarmUpPlan, Error> {
    let out = args.out.clone().unwrap_or_else(|| {
        crate::run_dir::default_run_path(std::path::Path::new("runs"), "warm-up")
    });
    let configs: Vec<&str> = args
        .config
        .split(',')
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    if configs.is_empty() {
        return Err(ConfigError::Override {
            given: format!("--config {}", args.config),
            reason: "no config given".into(),
        }
        .into());
    }
    let pass = |config: &str, strategies: &str, batch: Option<u64>| {
        let stem = std::path::Path::new(config)
            .file_stem()
            .map_or_else(|| config.to_string(), |s| s.to_string_lossy().into_owned());
        let folder = match batch {
            Some(b) => format!("{stem}-batch-{b}"),
            None => stem,
        };
        let compare = resolve_compare(CompareArgs {
            strategies: strategies.to_string(),
            config: config.to_string(),
            steps: 4,
            batch,
            max_steps: Some(args.max_steps),
            device: args.device.clone(),
            devices: Vec::new(),
            vram_budget: None,
            memory_budget: None,
            set: Vec::new(),
            out: Some(out.join(folder)),
            json: false,
            brief: true,
            columns: None,
            html: None,
            quiet: true,
        })?;
        let batch = compare
            .rows
            .iter()
            .find_map(|(_, c)| c.as_ref().ok().map(|(_, rc)| rc.train.batch as u64))
            .unwrap_or(0);
        Ok::<_, Error>(crate::cmd::warm_up::WarmUpPass {
            config: config.to_string(),
            batch,
            compare,
        })
    };
    // Every config is read and checked first: a misspelled one is refused on a machine
    // without a GPU too.
    let mut passes = Vec::new();
    for config in configs {
        let first = pass(config, &args.strategies, None)?;
        let batch = first.batch;
        passes.push(first);
        for k in 1..=args.halvings {
            let b = batch >> k;
            if b == 0 {
                break;
            }
            passes.push(pass(config, "baseline", Some(b))?);
        }
    }
    if args.device == "auto" {
        let selected = crate::device::select(crate::device::DeviceRequest::Auto)?;
        if let crate::device::Selected::Cpu { note } = selected {
            return Ok(crate::cmd::warm_up::WarmUpPlan {
                passes: Vec::new(),
                out,
                quiet: args.quiet,
                nothing_to_do: Some(format!(
                    "oomlab warm-up: nothing to warm up: {}. The CPU backend compiles nothing at run time; --device cpu runs the warm-up on the CPU anyway, e.g. to try it.",
                    note.as_deref()
                        .map(|n| n.trim_end_matches(": training on the CPU"))
                        .unwrap_or("no GPU here")
                )),
            });
        }
    }
    Ok(crate::cmd::warm_up::WarmUpPlan {
        passes,
        out,
        quiet: args.quiet,
        nothing_to_do: None,
    })
}

/// The lesson's batch with its own model (`tiny` on the CPU, `gpu` on a GPU).
pub(super) const LESSON_BATCH: u64 = 96;

/// The CPU lesson's budget before the matrix library's buffers. With 6.1 MiB of them (2
/// MiB of L2 per core) part 1's baseline crossed the 67 MiB this makes at 69.2 MiB of heap
/// and checkpointing, the largest stage that fits, peaked at 62.7
/// (docs/results/2026-12-05-cpu-lesson): a few MiB either side, whatever the L2.
pub(super) const LESSON_CPU_TENSORS: Bytes = Bytes(60 << 20);

/// The CPU lesson's default budget: [`LESSON_CPU_TENSORS`] plus the packing buffers this
/// processor's matrix library keeps for the budget's threads, rounded up to a whole MiB
/// (so that the command lines the lesson prints stay short): 62 MiB with 512 KiB of L2
/// per core, 67 MiB with 2 MiB.
pub(super) fn lesson_cpu_budget() -> Bytes {
    let buffers = crate::estimate::measured::cpu_workspace(crate::device::BUDGET_THREADS);
    let mib = 1u64 << 20;
    Bytes((LESSON_CPU_TENSORS.0 + buffers.0).div_ceil(mib) * mib)
}

/// Turns `lesson` flags into a plan: the device decides the config, the budget's kind
/// and size; the stages are compare rows sharing them.
pub fn resolve_lesson(
    args: super::args::LessonArgs,
) -> Result<crate::cmd::lesson::LessonPlan, Error> {
    use crate::device::{select, DeviceRequest, Selected};
    let request = args
        .device
        .parse::<DeviceRequest>()
        .map_err(|reason| ConfigError::Override {
            given: format!("--device {}", args.device),
            reason,
        })?;
    let selected = select(request)?;
    let (gpu, device, index) = match &selected {
        Selected::Cpu { note } => {
            if let Some(n) = note {
                eprint!("{}", crate::text::hang("oomlab: ", n));
            }
            (false, "cpu".to_string(), 0)
        }
        Selected::Cuda { index, .. } => (true, format!("cuda:{index}"), *index),
    };
    // The lesson's own model and batch: `tiny` on the CPU, `gpu` on a GPU, both at batch
    // 96, where every stage is well away from the budget. On the H200 the `gpu` config's
    // f32 baseline fell to 5.67 GiB (exact pool) after issue 26's LayerNorm operation,
    // under the old 8 GiB; at batch 96 the estimate gives 8.2 GiB against 7.5 and
    // checkpointing 6.7. On the CPU the heap holds a packing buffer of the L2 cache's size
    // per multiplying thread (`estimate::measured::cpu_workspace`: 1.6 MiB with 512 KiB
    // of L2 per core, 6.1 MiB with 2 MiB), more than the distance from the budget to its
    // nearest stage, so the CPU's budget is [`LESSON_CPU_TENSORS`] plus this processor's
    // buffers ([`lesson_cpu_budget`]).
    let lesson_model = args
        .config
        .as_deref()
        .is_none_or(|c| c == if gpu { "gpu" } else { "tiny" })
        && !args
            .set
            .iter()
            .any(|s| s.trim_start().starts_with("train.batch"));
    let budget = args.budget.unwrap_or(match (gpu, lesson_model) {
        (true, true) => Bytes(15 << 29),
        (true, false) => Bytes(8 << 30),
        (false, true) => lesson_cpu_budget(),
        // Another model or batch on the CPU: the budget the lesson had before.
        (false, false) => Bytes(30 << 20),
    });
    let card_total = if gpu {
        crate::probe::NvmlView::init()
            .and_then(|v| v.device(index as u32))
            .ok()
            .map(|d| d.total)
    } else {
        None
    };
    let out = args.out.unwrap_or_else(crate::cmd::lesson::default_out);
    let max_steps = Some(args.max_steps.unwrap_or(if gpu { 10 } else { 20 }));
    let config = args
        .config
        .unwrap_or_else(|| if gpu { "gpu" } else { "tiny" }.into());
    let compare_of = |part: &crate::lesson::Part, set: Vec<String>, batch: Option<u64>| {
        resolve_compare(CompareArgs {
            strategies: part
                .stages_on(gpu)
                .map(|s| s.variant.name())
                .collect::<Vec<_>>()
                .join(","),
            config: config.clone(),
            steps: part.accum_steps,
            batch,
            max_steps,
            device: device.clone(),
            devices: Vec::new(),
            vram_budget: gpu.then_some(budget),
            memory_budget: (!gpu).then_some(budget),
            set,
            out: Some(match part.folder {
                "" => out.clone(),
                folder => out.join(folder),
            }),
            json: false,
            brief: true,
            columns: None,
            html: None,
            quiet: true,
        })
    };
    let mut parts = Vec::new();
    let mut skipped = None;
    for part in &crate::lesson::PARTS {
        if args.part.is_some_and(|p| p as usize != part.number) {
            continue;
        }
        if part.number == 1 {
            let batch = lesson_model.then_some(LESSON_BATCH);
            parts.push(crate::cmd::lesson::PartPlan {
                part,
                compare: compare_of(part, args.set.clone(), batch)?,
                flags: train_flags(&config, &args.set, batch),
            });
        } else if lesson_model {
            // The lesson's model, bigger, at a small batch: its own settings come after the
            // user's, so that the shape is the one the part is written for.
            let big = big_model(gpu);
            let set: Vec<String> = args
                .set
                .iter()
                .cloned()
                .chain(big.set.iter().map(|s| s.to_string()))
                .collect();
            let mut compare = compare_of(part, set.clone(), Some(big.batch))?;
            for stage in part.stages_on(gpu) {
                let Some(cap) = stage.max_steps else { continue };
                for (_, row) in compare.rows.iter_mut().filter(|(v, _)| *v == stage.variant) {
                    if let Ok((file, cfg)) = row {
                        file.train.max_steps = file.train.max_steps.min(cap as i64);
                        cfg.train.max_steps = cfg.train.max_steps.min(cap as usize);
                    }
                }
            }
            parts.push(crate::cmd::lesson::PartPlan {
                part,
                flags: train_flags(&config, &set, Some(big.batch)),
                compare,
            });
        } else {
            skipped = Some(format!(
                "Part {} ({}) is written for the lesson's own model and batch; with --config or --set train.batch it is left out.",
                part.number, part.title
            ));
        }
    }
    if parts.is_empty() {
        return Err(Error::Unsupported(
            skipped.unwrap_or_else(|| "no part to run".into()),
        ));
    }
    Ok(crate::cmd::lesson::LessonPlan {
        parts,
        budget,
        // On a GPU the lesson's own model measures the card before it sets the budget:
        // the default fitted an H200 and let the baseline fit on an H100.
        measure_card: gpu && lesson_model && args.budget.is_none(),
        card_note: None,
        gpu,
        card_total,
        ask: !args.yes && std::io::IsTerminal::is_terminal(&std::io::stdin()),
        skipped,
        device_flags: format!(
            "--device {device} --{}-budget {}",
            if gpu { "vram" } else { "memory" },
            budget.flag()
        ),
    })
}

/// `--config NAME [--set K=V ...] [--batch N]` for `oomlab train`, as a user would type it.
fn train_flags(config: &str, set: &[String], batch: Option<u64>) -> String {
    let mut out = format!("--config {config}");
    for s in set {
        out.push_str(&format!(" --set {s}"));
    }
    if let Some(b) = batch {
        out.push_str(&format!(" --batch {b}"));
    }
    out
}

/// Part 2's model: the lesson's own, bigger, at a small batch.
pub(super) struct BigModel {
    /// The config keys that make it (on top of `tiny` or `gpu`).
    pub set: &'static [&'static str],
    /// Its batch.
    pub batch: u64,
}

/// Part 2's model on a GPU (`gpu` with 128 blocks instead of 8: the same layer shapes,
/// whose kernels the H200 pack ships, where a wider model compiled and autotuned for 200 s
/// before its first step on a fresh H200) or on the CPU (`tiny` 4x wider, which compiles
/// nothing). Sized with `oomlab estimate` against the default budgets: the f32 AdamW
/// update (24 bytes per parameter while old and new weights and moments are both held)
/// is well over the budget, pure bf16 (12) and SGD (8) well under it.
pub(super) fn big_model(gpu: bool) -> BigModel {
    if gpu {
        BigModel {
            set: &["model.n_layers=128"],
            batch: 2,
        }
    } else {
        BigModel {
            set: &["model.d_model=256", "model.n_layers=4", "model.d_ff=1024"],
            batch: 4,
        }
    }
}

/// `--card`, when given, as a card (a size or a GPU's name).
fn card_flag(card: Option<&str>) -> Result<Option<crate::estimate::Card>, ConfigError> {
    card.map(|c| {
        crate::estimate::parse_card(c).map_err(|reason| ConfigError::Override {
            given: format!("--card {c}"),
            reason,
        })
    })
    .transpose()
}

/// Turns `estimate` flags into a plan: the run as `train` would resolve it, and (without
/// `--strategy`) every `compare` row over the same settings.
pub fn resolve_estimate(
    args: super::args::EstimateArgs,
) -> Result<crate::cmd::estimate::EstimatePlan, Error> {
    let only_yours = args.run.strategy.is_some();
    let source = ConfigSource::from_arg(&args.run.config);
    let mut draft = Draft::read(
        &source,
        &super::args::set_overrides(&args.run.set)?,
        flags_by_key(),
    )?;
    apply_train_flags(&args.run, &mut draft)?;
    let (file, config) = draft.clone().validate()?;
    let world = devices_of(&args.run, &config)?.len();
    if world > 1 && args.calibrate {
        return Err(Error::Unsupported(format!(
            "--calibrate with {world} devices: the probes train on one device; calibrate one device's share instead (--batch {} without --devices)",
            config.train.batch / world
        )));
    }
    let mut rows = vec![("your run".to_string(), file, config)];
    if !only_yours {
        let steps = match rows[0].2.train.split {
            config::Split::GradAccum { steps } => steps as u64,
            _ => rows[0].1.train.grad_accum_steps.max(1) as u64,
        };
        for v in crate::technique::Variant::ALL {
            // Those that change nothing before training (empty-cache, the default pool)
            // and those that need devices the plan lacks are left out.
            let t = v.technique();
            if !t.changes_the_plan() || (t.needs_several_devices() && world < 2) {
                continue;
            }
            let mut d = draft.clone();
            v.apply(&mut d, steps);
            // A preset that does not fit the settings (e.g. K does not divide the batch)
            // is left out, as compare would report it.
            if let Ok((file, config)) = d.validate() {
                rows.push((v.name().to_string(), file, config));
            }
        }
    }
    let card = card_flag(args.card.as_deref())?;
    if let Some(b) = args.run.vram_budget {
        let clash = if card.is_some() {
            Some("--card already gives the card's size: give one of them")
        } else if args.run.device == DeviceRequest::Cpu {
            Some("it is a CUDA card's budget; on the CPU the budget is --memory-budget")
        } else {
            None
        };
        if let Some(reason) = clash {
            return Err(ConfigError::Override {
                given: format!("--vram-budget {b}"),
                reason: reason.to_string(),
            }
            .into());
        }
    }
    Ok(crate::cmd::estimate::EstimatePlan {
        origin: args.run.config.clone(),
        rows,
        device: args.run.device,
        card,
        calibrate: args.calibrate,
        memory_budget: args.run.memory_budget,
        vram_budget: args.run.vram_budget,
        world,
        quiet: args.run.quiet,
    })
}

/// `oomlab estimate --model NAME` (a Hugging Face shape) or `--hf-config PATH`: the shape,
/// the run and the card; None for oomlab's own model.
pub(super) fn resolve_hf_estimate(
    args: &super::args::EstimateArgs,
) -> Result<
    Option<(
        crate::hf::Shape,
        crate::hf::Setup,
        Option<crate::estimate::Card>,
    )>,
    Error,
> {
    use super::args::ModelArg;
    use crate::hf::{Precision as P, Setup, Shape};
    let a = &args.run;
    let named = match &a.model {
        Some(ModelArg::Hf(n)) => Some(n.clone()),
        _ => None,
    };
    let shape = match (&args.hf_config, named) {
        (None, None) => {
            let hf_only = [
                ("--optimizer", args.optimizer != crate::hf::Optimizer::Adamw),
                ("--zero", args.zero > 0),
                ("--lora", args.lora),
                ("--offload", args.offload),
            ];
            if let Some((flag, _)) = hf_only.iter().find(|(_, given)| *given) {
                return Err(ConfigError::Override {
                    given: flag.to_string(),
                    reason: "sizes a Hugging Face model: add --model NAME or --hf-config PATH (oomlab's own optimizer is --set optim.kind=sgd)".into(),
                }
                .into());
            }
            return Ok(None);
        }
        (Some(_), Some(n)) => {
            return Err(ConfigError::Override {
                given: format!("--hf-config with --model {n}"),
                reason: "give one model: a config.json or a built-in shape".into(),
            }
            .into())
        }
        (Some(path), None) => Shape::from_file(path)?,
        (None, Some(n)) => Shape::builtin(&n)?,
    };
    let refuse = |flag: &str, why: &str| -> Error {
        ConfigError::Override {
            given: flag.to_string(),
            reason: format!("does not apply to a Hugging Face model ({why})"),
        }
        .into()
    };
    if args.calibrate {
        return Err(refuse("--calibrate", "the probes train oomlab's own model; benches/hf_memory.py measures transformers on a GPU"));
    }
    if a.config != "tiny" {
        return Err(refuse(
            "--config",
            "the model comes from --model or --hf-config",
        ));
    }
    if !a.devices.is_empty() {
        return Err(refuse("--devices", "use --gpus N with --zero 0-3"));
    }
    for (flag, given) in [
        ("--d-model", a.d_model.is_some()),
        ("--n-layers", a.n_layers.is_some()),
        ("--attention", a.attention.is_some()),
        ("--memory-mode", a.memory_mode.is_some()),
        ("--vram-budget", a.vram_budget.is_some()),
        ("--memory-budget", a.memory_budget.is_some()),
        ("--set", !a.set.is_empty()),
    ] {
        if given {
            return Err(refuse(flag, "its shapes come from config.json; PyTorch's SDPA and caching allocator are assumed"));
        }
    }
    let precision = match (a.precision, a.strategy) {
        (None | Some(crate::words::Precision::F32), Some(Strategy::Half)) => {
            return Err(refuse("--strategy half", "pure half needs --precision bf16"))
        }
        (None | Some(crate::words::Precision::F32), _) => P::F32,
        (Some(crate::words::Precision::Bf16), Some(Strategy::Half)) => P::Bf16,
        (Some(crate::words::Precision::Bf16), _) => P::AmpBf16,
        (Some(crate::words::Precision::F16), _) => {
            return Err(refuse("--precision f16", "the estimate models bf16; f16 AMP keeps the same bytes plus a loss scaler, so read --precision bf16"))
        }
    };
    if let Some(s) = a.strategy {
        if !matches!(
            s,
            Strategy::Baseline | Strategy::GradAccum | Strategy::Checkpointing | Strategy::Half
        ) {
            return Err(refuse(&format!("--strategy {s}"), "it is oomlab's own; for PyTorch give --steps K, --checkpointing, --precision bf16 [--strategy half]"));
        }
    }
    let zero = [
        ("--batch", a.batch == Some(0)),
        ("--seq-len", a.seq_len == Some(0)),
        ("--steps", a.steps == Some(0)),
        ("--gpus", a.gpus == Some(0)),
    ];
    if let Some((flag, _)) = zero.iter().find(|(_, is_zero)| *is_zero) {
        return Err(ConfigError::Override {
            given: format!("{flag} 0"),
            reason: "it counts something: give 1 or more".into(),
        }
        .into());
    }
    let gpus = a.gpus.unwrap_or(1).max(1);
    if args.zero > 0 && gpus < 2 {
        return Err(ConfigError::Override {
            given: format!("--zero {}", args.zero),
            reason: "ZeRO shards across GPUs: add --gpus N (N >= 2)".into(),
        }
        .into());
    }
    let accum = a.steps.unwrap_or(1).max(1);
    let batch = a.batch.unwrap_or(accum * gpus);
    if batch % (accum * gpus) != 0 {
        return Err(ConfigError::Override {
            given: format!("--batch {batch}"),
            reason: format!(
                "the batch is split into {accum} micro-batches on each of {gpus} GPUs: give a multiple of {}",
                accum * gpus
            ),
        }
        .into());
    }
    let setup = Setup {
        seq: a.seq_len.unwrap_or(1024).max(1),
        micro_batch: batch / (accum * gpus),
        accum,
        precision,
        optimizer: args.optimizer,
        checkpointing: a.checkpointing || a.strategy == Some(Strategy::Checkpointing),
        gpus,
        zero: args.zero,
        lora: args.lora,
        offload: args.offload,
    };
    // Every term is bytes per token times tokens: refuse a run whose terms would not fit
    // the byte counts (they would wrap around), with room to add them up.
    let tokens = u128::from(setup.seq) * u128::from(setup.micro_batch);
    let per_token = (u128::from(shape.vocab)
        + u128::from(shape.hidden.max(shape.intermediate)) * u128::from(shape.layers.max(1)))
        * 64;
    if tokens.saturating_mul(per_token) > u128::from(u64::MAX >> 8) {
        return Err(ConfigError::Override {
            given: format!("--seq-len {} --batch {batch}", setup.seq),
            reason: format!(
                "{tokens} tokens a micro-batch is beyond what any card holds (the activations alone would pass 2^56 bytes): give a sequence and batch a GPU can train"
            ),
        }
        .into());
    }
    let card = card_flag(args.card.as_deref())?;
    Ok(Some((shape, setup, card)))
}

/// The longest `--wait`: 30 days.
const MAX_WAIT_S: f64 = 30.0 * 86400.0;

/// Turns `run` flags into a plan: the job, the check before it, the sampling interval and
/// the folder. CUDA_VISIBLE_DEVICES is read here, once, as the job will see it.
pub(super) fn resolve_run(args: super::args::RunArgs) -> Result<crate::cmd::run::RunPlan, Error> {
    if args.interval == 0 {
        return Err(ConfigError::Override {
            given: "--interval 0".into(),
            reason: "the milliseconds between samples: give 1 or more (100 is the default)".into(),
        }
        .into());
    }
    if let Some(w) = args
        .wait
        .filter(|w| !w.is_finite() || *w < 0.0 || *w > MAX_WAIT_S)
    {
        return Err(ConfigError::Override {
            given: format!("--wait {w}"),
            reason: format!("seconds to wait: give 0 to {MAX_WAIT_S} (30 days)"),
        }
        .into());
    }
    Ok(crate::cmd::run::RunPlan {
        need: args.need.map(|bytes| crate::watch::Need {
            bytes,
            wait: args.wait.map(std::time::Duration::from_secs_f64),
            reap_stale: args.reap_stale,
        }),
        command: args.command,
        interval: std::time::Duration::from_millis(args.interval),
        out: args.out.unwrap_or_else(crate::cmd::run::default_out),
        quiet: args.quiet,
        visible: crate::env::cuda_visible_devices(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_a_named_flag_sets_is_found_in_its_help() {
        let pairs = flags_by_key();
        for (key, flag) in [
            ("train.batch", "--batch"),
            ("train.strategy", "--strategy"),
            ("train.precision", "--precision"),
            ("train.grad_accum_steps", "--steps"),
            ("auto_halve.start_steps", "--steps"),
            ("auto_halve.search", "--search"),
            ("auto_halve.keep_effective_batch", "--keep-effective-batch"),
            ("auto_halve.min_micro_batch", "--min-micro-batch"),
            ("train.empty_cache_every", "--empty-cache-every"),
            ("memory.mode", "--memory-mode"),
            ("memory.prealloc_fraction", "--memory-mode"),
            ("model.attention", "--attention"),
            ("model.kind", "--model"),
            ("model.d_model", "--d-model"),
            ("optim.lr", "--lr"),
            ("data.file", "--data"),
            ("train.checkpointing", "--checkpointing"),
        ] {
            assert!(
                pairs.iter().any(|(k, f)| k == key && f == flag),
                "{flag} does not name {key} in its help: {pairs:?}"
            );
        }
    }
}
