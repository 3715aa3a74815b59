//! The command line: clap types and their conversion into validated plans. Clap types
//! never leave this module.

mod args;
mod gpu;
mod resolve;

pub use args::{
    Cli, Command, CompareArgs, DatasetArgs, DiagnoseArgs, EstimateArgs, GpuArgs, LessonArgs,
    TrainArgs, WarmUpArgs,
};
pub use resolve::{resolve, resolve_compare, resolve_estimate, resolve_lesson, resolve_warm_up};

use std::io::Write;

use crate::cmd::train::run_train;
use crate::config::{self, builtin_config, BUILTIN_CONFIGS};
use crate::error::{Error, EXIT_INTERRUPTED};
use crate::train::StopFlag;

/// Runs a parsed command line; returns the exit code.
pub fn run(cli: Cli) -> Result<i32, Error> {
    crate::text::set_width(if cli.wide {
        crate::text::Width::Unlimited
    } else {
        crate::text::Width::detect()
    });
    match cli.command {
        Command::Train(args) => train(args),
        Command::Compare(args) => compare(args),
        Command::Explain { topic } => {
            print!("{}", crate::explain::explain(topic.as_deref())?);
            Ok(0)
        }
        Command::Gpu(args) => gpu::run(args),
        Command::Run(args) => crate::cmd::run::run_job(&resolve::resolve_run(args)?),
        Command::Estimate(args) => estimate(args),
        Command::Diagnose(args) => diagnose(args),
        Command::Report { dir, out } => {
            let html = crate::cmd::report::report_from_dir(&dir)?;
            let path = out.unwrap_or_else(|| dir.join("report.html"));
            std::fs::write(&path, html).map_err(|source| Error::RunDir {
                path: path.clone(),
                source,
            })?;
            println!("{}", path.display());
            Ok(0)
        }
        Command::Lesson(args) => {
            let exercises = args.exercises;
            let mut plan = resolve_lesson(args)?;
            let stop = stop_on_ctrl_c();
            crate::cmd::lesson::measure_card(&mut plan, &stop)?;
            if exercises {
                if let Some(n) = &plan.card_note {
                    eprint!("{}", crate::text::hang("oomlab lesson: ", n));
                }
                print!("{}", crate::cmd::lesson::exercises_markdown(&plan)?);
                return Ok(0);
            }
            crate::cmd::lesson::run_lesson(&plan, &stop)?;
            Ok(if stop.requested() {
                EXIT_INTERRUPTED
            } else {
                0
            })
        }
        Command::WarmUp(args) => {
            let json = args.json;
            let plan = resolve_warm_up(args)?;
            let stop = stop_on_ctrl_c();
            let report = crate::cmd::warm_up::run_warm_up(&plan, &stop)?;
            print_result(json, &report, || report.to_terminal());
            let failed = report
                .rows
                .iter()
                .filter(|r| r.status.starts_with("failed"))
                .count();
            Ok(if report.interrupted {
                EXIT_INTERRUPTED
            } else if failed > 0 {
                // As compare: a row that failed is the command's failure; the table says why.
                eprint!(
                    "{}",
                    crate::text::hang(
                        "oomlab warm-up: ",
                        &format!(
                            "{failed} of {} runs failed (each row's status says why)",
                            report.rows.len()
                        )
                    )
                );
                1
            } else {
                0
            })
        }
        Command::Dataset(args) => {
            let text = crate::data::generate(args.task, args.chars, args.seed);
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
                        print!("{}", crate::text::hang(&format!("{n:6} "), about));
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
    crate::cmd::train::print_train_result(json, &outcome.summary, &outcome.run_dir);
    let code = crate::cmd::train::exit_code(&outcome.summary.stop, &stop);
    if crate::oom::backend_broke() {
        // Summary and results are written; tearing the broken backend down can crash.
        crate::oom::exit_without_teardown(code);
    }
    Ok(code)
}

/// Writes a command's result to stdout: as JSON with `--json`, else the text `terminal`
/// makes. A closed pipe (`| head`) is not the command's failure, so write errors are
/// dropped.
fn print_result<T: serde::Serialize>(json: bool, value: &T, terminal: impl FnOnce() -> String) {
    let mut out = std::io::stdout().lock();
    let written = if json {
        serde_json::to_writer_pretty(&mut out, value)
            .map_err(std::io::Error::other)
            .and_then(|_| writeln!(out))
    } else {
        write!(out, "{}", terminal())
    };
    drop(written);
}

/// Ctrl-C or SIGTERM asks the loop to stop after the current step; a second Ctrl-C quits
/// at once.
fn stop_on_ctrl_c() -> StopFlag {
    let stop = StopFlag::new();
    if let Err(e) = stop.on_sigterm() {
        eprintln!("oomlab: warning: SIGTERM cannot be caught ({e}): it will end the run without a summary");
    }
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

fn estimate(args: EstimateArgs) -> Result<i32, Error> {
    let json = args.run.json;
    if let Some((shape, setup, card)) = resolve::resolve_hf_estimate(&args)? {
        let report = crate::hf::HfReport::new(shape, setup, card);
        print_result(json, &report, || report.to_terminal());
        return Ok(0);
    }
    let plan = resolve_estimate(args)?;
    let report = crate::cmd::estimate::run_estimate(&plan)?;
    print_result(json, &report, || report.to_terminal());
    Ok(0)
}

fn diagnose(args: DiagnoseArgs) -> Result<i32, Error> {
    use std::io::{IsTerminal, Read};
    let text = match args.file.as_deref() {
        Some(path) if path.as_os_str() != "-" => {
            std::fs::read_to_string(path).map_err(|source| Error::Input {
                path: path.to_path_buf(),
                source,
            })?
        }
        _ => {
            let mut stdin = std::io::stdin();
            if stdin.is_terminal() {
                eprintln!("oomlab diagnose: paste the error message, then press Ctrl-D");
            }
            let mut text = String::new();
            stdin
                .read_to_string(&mut text)
                .map_err(|source| Error::Input {
                    path: "standard input".into(),
                    source,
                })?;
            text
        }
    };
    // Who holds VRAM now, where NVML answers (not in CI, not without a GPU).
    let live = crate::probe::NvmlView::init()
        .ok()
        .map(|v| crate::holders::snapshot(&v));
    let report = crate::diagnose::DiagnoseReport::new(&text, live.as_ref(), args.params);
    print_result(args.json, &report, || report.to_terminal());
    Ok(if report.classified() { 0 } else { 1 })
}

fn compare(args: CompareArgs) -> Result<i32, Error> {
    let (json, brief, html) = (args.json, args.brief, args.html.clone());
    let columns = args.columns.clone();
    let plan = resolve_compare(args)?;
    let stop = stop_on_ctrl_c();
    let cmp = crate::cmd::compare::run_compare(&plan, &stop)?;
    if let Some(path) = html {
        std::fs::copy(plan.out.join("report.html"), &path).map_err(|source| Error::RunDir {
            path: path.clone(),
            source,
        })?;
    }
    print_result(json, &cmp, || {
        format!(
            "{}\n{}",
            match (&columns, brief) {
                (Some(c), _) => cmp.to_terminal_columns(c, crate::text::width()),
                (None, true) => cmp.to_terminal_brief(),
                (None, false) => cmp.to_terminal(),
            },
            crate::text::wrap(
                &format!(
                    "folder: {} (compare.md, compare.csv, compare.json, memory.svg, report.html, one folder per run)",
                    plan.out.display()
                ),
                ""
            )
        )
    });
    Ok(if stop.requested() {
        EXIT_INTERRUPTED
    } else if cmp.failed_rows() > 0 {
        eprint!(
            "{}",
            crate::text::hang(
                "oomlab compare: ",
                &format!(
                    "{} of {} rows failed (each failed row's status says why; the table and files are written)",
                    cmp.failed_rows(),
                    cmp.rows.len()
                )
            )
        );
        1
    } else {
        0
    })
}
