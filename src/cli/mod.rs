//! The command line: clap types and their conversion into validated plans. Clap types
//! never leave this module.

mod args;

mod gpu;

pub use args::{Cli, Command, CompareArgs, DatasetArgs, GpuArgs, StrategyArg, TrainArgs};

use std::io::Write;

use crate::config::{self, builtin_config, ConfigSource, BUILTIN_CONFIGS};
use crate::error::{Error, EXIT_INTERRUPTED};
use crate::report::{render_summary, StopReason};
use crate::session::{run_train, TrainPlan};
use crate::train::StopFlag;

/// Runs a parsed command line; returns the exit code.
pub fn run(cli: Cli) -> Result<i32, Error> {
    match cli.command {
        Command::Train(args) => train(args),
        Command::Compare(args) => compare(args),
        Command::Explain { topic } => {
            print!("{}", crate::explain::explain(topic.as_deref())?);
            Ok(0)
        }
        Command::Gpu(args) => gpu::run(args),
        Command::Dataset(args) => {
            let text = crate::data::generate(args.task.into(), args.chars, args.seed);
            print!("{text}");
            Ok(0)
        }
        Command::Configs { name } => {
            match name {
                Some(n) => match builtin_config(&n) {
                    Some(text) => print!("{text}"),
                    None => {
                        return Err(config::ConfigError::Parse {
                            origin: format!("configs {n}"),
                            message: format!(
                                "no built-in config named '{n}'; built-in: {}",
                                BUILTIN_CONFIGS
                                    .iter()
                                    .map(|(n, _)| *n)
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            ),
                        }
                        .into())
                    }
                },
                None => {
                    for (n, text) in BUILTIN_CONFIGS {
                        let about = text
                            .lines()
                            .next()
                            .unwrap_or("")
                            .trim_start_matches('#')
                            .trim();
                        println!("{n:6} {about}");
                    }
                }
            }
            Ok(0)
        }
    }
}

fn train(args: TrainArgs) -> Result<i32, Error> {
    let json = args.json;
    let plan = resolve(args)?;
    // A second Ctrl-C quits at once; the step log already holds every finished step.
    let stop = stop_on_ctrl_c();
    let outcome = run_train(&plan, &stop)?;
    let mut out = std::io::stdout().lock();
    let written = if json {
        serde_json::to_writer_pretty(&mut out, &outcome.summary)
            .map_err(std::io::Error::other)
            .and_then(|_| writeln!(out))
    } else {
        writeln!(
            out,
            "{}\nrun folder: {}",
            render_summary(&outcome.summary),
            outcome.run_dir.display()
        )
    };
    // A closed pipe (`| head`) is not a training failure.
    drop(written);
    Ok(match outcome.summary.stop {
        StopReason::Completed => 0,
        StopReason::Interrupted => EXIT_INTERRUPTED,
        StopReason::Failed(_) => crate::error::EXIT_FAILURE,
        StopReason::OutOfMemory(_) => crate::error::EXIT_OOM,
    })
}

/// Ctrl-C asks the loop to stop; a second one quits at once.
fn stop_on_ctrl_c() -> StopFlag {
    let stop = StopFlag::new();
    let flag = stop.clone();
    let _ = ctrlc::set_handler(move || {
        if flag.requested() {
            std::process::exit(EXIT_INTERRUPTED);
        }
        flag.request();
        eprintln!("\noomlab: stopping after the current step (Ctrl-C again to quit now)");
    });
    stop
}

fn compare(args: CompareArgs) -> Result<i32, Error> {
    let json = args.json;
    let plan = resolve_compare(args)?;
    let stop = stop_on_ctrl_c();
    let cmp = crate::compare::run_compare(&plan, &stop)?;
    let mut out = std::io::stdout().lock();
    let written = if json {
        serde_json::to_writer_pretty(&mut out, &cmp)
            .map_err(std::io::Error::other)
            .and_then(|_| writeln!(out))
    } else {
        writeln!(
            out,
            "{}\nfolder: {} (compare.md, compare.csv, compare.json, memory.svg, one folder per run)",
            cmp.to_terminal(),
            plan.out.display()
        )
    };
    drop(written);
    Ok(if stop.requested() {
        EXIT_INTERRUPTED
    } else {
        0
    })
}

/// Turns `compare` flags into a plan; the config is loaded once here so a mistake is
/// reported once (exit 2), not as one failed row per strategy.
pub fn resolve_compare(args: CompareArgs) -> Result<crate::compare::ComparePlan, Error> {
    let strategies = crate::compare::parse_strategies(&args.strategies).map_err(|reason| {
        config::ConfigError::Override {
            given: format!("--strategies {}", args.strategies),
            reason,
        }
    })?;
    let mut common = vec!["--config".to_string(), args.config.clone()];
    let mut overrides = args::set_overrides(&args.set)?;
    let mut flag = |name: &str, value: String| {
        common.push(name.to_string());
        common.push(value);
    };
    flag("--device", args.device.clone());
    if let Some(b) = args.batch {
        flag("--batch", b.to_string());
        overrides.insert(
            0,
            ("train.batch".to_string(), toml::Value::Integer(b as i64)),
        );
    }
    if let Some(n) = args.max_steps {
        flag("--max-steps", n.to_string());
        overrides.insert(
            0,
            (
                "train.max_steps".to_string(),
                toml::Value::Integer(n as i64),
            ),
        );
    }
    if let Some(b) = args.vram_budget {
        flag("--vram-budget", b.0.to_string());
    }
    if let Some(b) = args.memory_budget {
        flag("--memory-budget", b.0.to_string());
    }
    for s in &args.set {
        flag("--set", s.clone());
    }
    // The same checks `train` makes, once.
    config::load(&ConfigSource::from_arg(&args.config), &overrides)?;
    args.device
        .parse::<crate::device::DeviceRequest>()
        .map_err(|reason| config::ConfigError::Override {
            given: format!("--device {}", args.device),
            reason,
        })?;
    Ok(crate::compare::ComparePlan {
        strategies,
        common_args: common,
        accum_steps: args.steps,
        out: args.out.unwrap_or_else(|| {
            crate::run_dir::default_run_path(std::path::Path::new("runs"), "compare")
        }),
        quiet: args.quiet,
    })
}

/// Turns raw flags into a validated plan: config file, then flags on top, then checks.
pub fn resolve(args: TrainArgs) -> Result<TrainPlan, Error> {
    let source = ConfigSource::from_arg(&args.config);
    let overrides = args.overrides()?;
    let (file, config) = config::load(&source, &overrides)?;
    let auto_halve = matches!(config.train.strategy, config::StrategySpec::AutoHalve(_));
    let check_every_phase = match args.check_every {
        args::CheckEvery::Auto => auto_halve,
        args::CheckEvery::Phase => true,
        args::CheckEvery::Step => false,
    };
    if !check_every_phase && auto_halve {
        return Err(Error::Unsupported(
            "--check-every step with --strategy auto-halve: auto-halve needs --check-every phase, to tell an OOM in the optimizer phase (which no smaller batch fixes) from one in the forward or backward pass".into(),
        ));
    }
    Ok(TrainPlan {
        file,
        config,
        device: args.device,
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
