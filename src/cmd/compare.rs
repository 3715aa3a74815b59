//! `oomlab compare`: every chosen strategy in a fresh process, then one table (terminal,
//! Markdown, CSV, JSON) and one memory-over-time chart.
//!
//! Each strategy runs as `oomlab train` in its own process, so an allocator pool, a CUDA
//! context or a kernel cache in memory warmed by one strategy cannot flatter the next.
//! (The on-disk kernel cache is shared: it removes compilation time, not memory.)

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::predicted::predicted;
use super::report::details;
use crate::compare::{memory_svg, report_html, Page, Series, Variant};
use crate::config::ConfigFile;
use crate::error::Error;
use crate::results::{Comparison, Row, RowStatus, RunSummary};
use crate::train::StopFlag;
use crate::words::MemoryKind;

/// A row's complete config and its checked form, or why its preset does not fit.
pub type RowConfig = Result<(ConfigFile, crate::config::RunConfig), String>;

/// A validated comparison request.
#[derive(Debug, Clone)]
pub struct ComparePlan {
    /// Each row with its complete config, or why its preset does not fit the shared
    /// settings.
    pub rows: Vec<(Variant, RowConfig)>,
    /// `train` flags that are not config keys (device, budgets), the same for every run.
    pub run_args: Vec<String>,
    /// `--memory-budget`: every OOM in the comparison is SIMULATED.
    pub simulated: bool,
    /// Where the runs and the outputs go.
    pub out: PathBuf,
    /// No progress on stderr.
    pub quiet: bool,
}

impl ComparePlan {
    /// Every row's `--vram-budget` set to `budget` (none: removed).
    pub fn set_vram_budget(&mut self, budget: Option<crate::units::Bytes>) {
        if let Some(i) = self.run_args.iter().position(|a| a == "--vram-budget") {
            self.run_args.drain(i..(i + 2).min(self.run_args.len()));
        }
        if let Some(b) = budget {
            self.run_args
                .extend(["--vram-budget".to_string(), b.0.to_string()]);
        }
    }
}

/// What one run left behind.
struct Finished {
    row: Row,
    /// The run's vocabulary size and device memory (for the estimate beside it).
    vocab: Option<usize>,
    device_total: Option<crate::units::Bytes>,
    series: Option<Series>,
    device: Option<String>,
}

fn run_one(plan: &ComparePlan, v: Variant, file: &ConfigFile, exe: &Path) -> Finished {
    let name = v.name();
    let dir = plan.out.join(name);
    let config_path = plan.out.join(format!("{name}.toml"));
    let stderr_path = plan.out.join(format!("{name}.stderr.txt"));
    let failed = |why: String| Finished {
        row: Row::empty(v, name, RowStatus::Failed(why)),
        vocab: None,
        device_total: None,
        series: None,
        device: None,
    };
    let written = toml::to_string(file)
        .map_err(|e| e.to_string())
        .and_then(|t| fs::write(&config_path, t).map_err(|e| e.to_string()));
    if let Err(e) = written {
        return failed(format!("cannot write {}: {e}", config_path.display()));
    }
    let mut cmd = Command::new(exe);
    // --wide: the child's messages stay on one line each, so the row's status can quote
    // its last one.
    cmd.arg("train")
        .arg("--config")
        .arg(&config_path)
        .args(plan.run_args.iter())
        .args(["--quiet", "--json", "--wide", "--out"])
        .arg(&dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null());
    match fs::File::create(&stderr_path) {
        Ok(f) => cmd.stderr(f),
        Err(_) => cmd.stderr(Stdio::null()),
    };
    let status = cmd.status();
    let summary_path = dir.join("summary.json");
    let summary = fs::read_to_string(&summary_path).ok().map(|t| {
        serde_json::from_str::<RunSummary>(&t)
            .map_err(|e| format!("{}: {e}", summary_path.display()))
    });
    let last_stderr = || {
        fs::read_to_string(&stderr_path)
            .ok()
            .and_then(|t| {
                t.lines()
                    .rev()
                    .find(|l| !l.trim().is_empty())
                    .map(str::to_string)
            })
            .unwrap_or_default()
    };
    let row = match (&status, &summary) {
        (_, Some(Ok(s))) => Row::from_summary(v, name, s),
        (_, Some(Err(e))) => Row::empty(v, name, RowStatus::Failed(e.clone())),
        (Ok(st), None) => Row::empty(
            v,
            name,
            RowStatus::Failed(format!(
                "exit {}: {}",
                st.code()
                    .map(|c| c.to_string())
                    .unwrap_or("by signal".into()),
                last_stderr()
            )),
        ),
        (Err(e), None) => Row::empty(
            v,
            name,
            RowStatus::Failed(format!("could not start {}: {e}", exe.display())),
        ),
    };
    let series = Series::from_run_dir(name, &dir);
    let (device, vocab, device_total) = match summary {
        Some(Ok(s)) => (Some(s.device.label), Some(s.vocab), s.memory.device_total),
        _ => (None, None, None),
    };
    Finished {
        row,
        vocab,
        device_total,
        series,
        device,
    }
}

/// One finished row and its memory timeline.
#[derive(Debug)]
pub struct RowRun {
    /// The row.
    pub row: Row,
    /// Its memory over time, for the chart.
    pub series: Option<Series>,
    /// The device the run used, as its summary names it.
    pub device: Option<String>,
}

/// Runs one row in a fresh `oomlab train` process (`exe`) and reads its summary; a row
/// whose config did not validate becomes a failed row without running.
pub fn run_row(plan: &ComparePlan, v: Variant, config: &RowConfig, exe: &Path) -> RowRun {
    let (file, run_config) = match config {
        Ok((file, run_config)) => (file, run_config),
        Err(why) => {
            return RowRun {
                row: Row::empty(v, v.name(), RowStatus::Failed(why.clone())),
                series: None,
                device: None,
            }
        }
    };
    let mut f = run_one(plan, v, file, exe);
    f.row.predicted_peak_bytes = f
        .vocab
        .and_then(|voc| predicted(&f.row, run_config, voc, f.device_total, plan.simulated));
    RowRun {
        row: f.row,
        series: f.series,
        device: f.device,
    }
}

/// The folder `plan.out` exists, and the executable that runs each row.
pub fn prepare(plan: &ComparePlan) -> Result<PathBuf, Error> {
    fs::create_dir_all(&plan.out).map_err(|source| Error::RunDir {
        path: plan.out.clone(),
        source,
    })?;
    std::env::current_exe().map_err(|source| Error::RunDir {
        path: "current executable".into(),
        source,
    })
}

/// Runs every strategy, writes `compare.{txt,md,csv,json}` and `memory.svg` into
/// `plan.out`, and returns the comparison.
pub fn run_compare(plan: &ComparePlan, stop: &StopFlag) -> Result<Comparison, Error> {
    let exe = prepare(plan)?;
    let bar = crate::progress::bar(
        plan.rows.len() as u64,
        "{elapsed_precise} [{bar:30}] {pos}/{len} strategies {msg}",
    );
    let mut runs = Vec::new();
    for (v, config) in &plan.rows {
        let name = v.name();
        if stop.requested() {
            runs.push(RowRun {
                row: Row::empty(*v, name, RowStatus::NotRun),
                series: None,
                device: None,
            });
            continue;
        }
        if config.is_ok() {
            bar.set_message(format!("(running {name} in a fresh process)"));
            if !plan.quiet && bar.is_hidden() {
                eprintln!("compare: running {name} in a fresh process");
            }
        }
        runs.push(run_row(plan, *v, config, &exe));
        bar.inc(1);
    }
    bar.finish_and_clear();
    finish(plan, runs)
}

/// Builds the comparison from finished rows and writes `compare.{txt,md,csv,json}` and
/// `memory.svg` into `plan.out`.
pub fn finish(plan: &ComparePlan, runs: Vec<RowRun>) -> Result<Comparison, Error> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| Error::RunDir { path, source }
    };
    let mut rows = Vec::new();
    let mut series = Vec::new();
    let mut device = None;
    for r in runs {
        device = device.or(r.device);
        series.extend(r.series);
        rows.push(r.row);
    }
    let cmp = Comparison::new(
        device.unwrap_or_else(|| "unknown device".into()),
        plan.run_args.clone(),
        plan.simulated,
        rows,
    );
    let write = |file: &str, text: String| {
        let p = plan.out.join(file);
        fs::write(&p, text).map_err(io(&p))
    };
    write("compare.txt", cmp.to_text_file() + "\n")?;
    write("compare.md", cmp.to_markdown() + "\n")?;
    write(
        "compare.csv",
        cmp.to_csv().map_err(|e| Error::Report(e.to_string()))?,
    )?;
    write(
        "compare.json",
        serde_json::to_string_pretty(&cmp).map_err(|e| Error::Report(e.to_string()))? + "\n",
    )?;
    let gpu = cmp.memory_kind == Some(MemoryKind::Gpu);
    let title = format!(
        "{} over time, each strategy in its own process ({})",
        if gpu { "VRAM" } else { "HOST memory" },
        cmp.device
    );
    let y = crate::compare::y_label(gpu, &series);
    let budget = cmp.budget();
    match memory_svg(&title, y, &series, budget) {
        Ok(svg) => write("memory.svg", svg)?,
        Err(e) => eprintln!("oomlab: warning: no memory.svg: {e}"),
    }
    write(
        "report.html",
        report_html(Page::Compare, &cmp, &series, &details(&plan.out, &cmp)),
    )?;
    Ok(cmp)
}
