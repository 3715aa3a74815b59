//! The command line: clap types and their conversion into validated plans. Clap types
//! never leave this module.

mod args;

mod gpu;

pub use args::{Cli, Command, DatasetArgs, GpuArgs, StrategyArg, TrainArgs};

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
    let stop = StopFlag::new();
    {
        let stop = stop.clone();
        // A second Ctrl-C quits at once; the step log already holds every finished step.
        let _ = ctrlc::set_handler(move || {
            if stop.requested() {
                std::process::exit(EXIT_INTERRUPTED);
            }
            stop.request();
            eprintln!("\noomlab: stopping after the current step (Ctrl-C again to quit now)");
        });
    }
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

/// Turns raw flags into a validated plan: config file, then flags on top, then checks.
pub fn resolve(args: TrainArgs) -> Result<TrainPlan, Error> {
    let source = ConfigSource::from_arg(&args.config);
    let overrides = args.overrides()?;
    let (file, config) = config::load(&source, &overrides)?;
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
    })
}
