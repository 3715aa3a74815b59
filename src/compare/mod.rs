//! `oomlab compare`: every chosen strategy in a fresh process, then one table (terminal,
//! Markdown, CSV, JSON) and one memory-over-time chart.
//!
//! Each strategy runs as `oomlab train` in its own process, so an allocator pool, a CUDA
//! context or a kernel cache in memory warmed by one strategy cannot flatter the next.
//! (The on-disk kernel cache is shared: it removes compilation time, not memory.)

mod html;
mod plot;
mod preset;
mod table;

pub use crate::results::{Comparison, Row, RowStatus, COMPARE_SCHEMA_VERSION};
pub use crate::vocab::Variant;
pub use html::{report_html, RunDetail};
pub use plot::{memory_svg, Series};

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::config::ConfigFile;
use crate::error::Error;
use crate::results::RunSummary;
use crate::train::StopFlag;
use crate::vocab::MemoryKind;

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

/// Parses `--strategies`: `all` or a comma-separated list of [`Variant`] words.
pub fn parse_variants(list: &str, several_devices: bool) -> Result<Vec<Variant>, String> {
    if list.trim() == "all" {
        // shard-optimizer splits the optimizer state across devices: a row only with them.
        return Ok(Variant::ALL
            .iter()
            .copied()
            .filter(|v| several_devices || *v != Variant::ShardOptimizer)
            .collect());
    }
    let mut out = Vec::new();
    for word in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let v = Variant::from_name(word).ok_or_else(|| {
            format!(
                "unknown strategy '{word}'; known: {} (or all)",
                Variant::words()
            )
        })?;
        if !out.contains(&v) {
            out.push(v);
        }
    }
    if out.is_empty() {
        return Err(format!(
            "no strategy given; known: {} (or all)",
            Variant::words()
        ));
    }
    Ok(out)
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
    cmd.arg("train")
        .arg("--config")
        .arg(&config_path)
        .args(plan.run_args.iter())
        .args(["--quiet", "--json", "--out"])
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

/// `oomlab estimate`'s peak for a row's config, on the kind of memory the row measured.
fn predicted(
    row: &Row,
    cfg: &crate::config::RunConfig,
    vocab: usize,
    total: Option<crate::units::Bytes>,
    simulated: bool,
) -> Option<u64> {
    use crate::estimate::{Estimate, Target};
    // Over several devices the row's process figure is one device's (CUDA) or the
    // shared process's (CPU peers), neither of which the whole-batch estimate predicts:
    // `oomlab estimate --devices` gives each device's.
    if !row.per_device.is_empty() {
        return None;
    }
    let target = match row.memory_kind? {
        MemoryKind::Gpu => Target::Cuda { total: total? },
        // Under a SIMULATED budget the run fixed its compute threads.
        MemoryKind::Host if simulated => Target::budgeted_cpu(),
        MemoryKind::Host => Target::this_cpu(),
    };
    Some(Estimate::of(cfg, vocab, target).peak.0)
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

/// `oomlab explain` for a row: its own topic, else its family's (amp-bf16 -> amp).
fn explain_of(name: &str) -> Option<String> {
    crate::explain::explain(Some(name))
        .or_else(|_| crate::explain::explain(name.split('-').next()))
        .ok()
}

/// Each row's summary and explain text, read from its run folder under `dir`.
fn details(dir: &Path, cmp: &Comparison) -> Vec<RunDetail> {
    cmp.rows
        .iter()
        .map(|r| {
            let name = r.strategy.name().to_string();
            let summary = fs::read_to_string(dir.join(&name).join("summary.json"))
                .ok()
                .and_then(|t| serde_json::from_str(&t).ok());
            RunDetail {
                explain: explain_of(&name),
                name,
                summary,
            }
        })
        .collect()
}

/// Rebuilds the one-page HTML report of a compare folder (or of one run's folder) from
/// the files in it.
pub fn report_from_dir(dir: &Path) -> Result<String, Error> {
    // A folder that is not there is the user's to fix (exit 2), not a failure.
    if let Err(source) = fs::metadata(dir) {
        return Err(Error::InputDir {
            path: dir.to_path_buf(),
            source,
        });
    }
    let compare_json = dir.join("compare.json");
    let cmp: Comparison = if compare_json.exists() {
        let text = fs::read_to_string(&compare_json).map_err(|source| Error::Input {
            path: compare_json.clone(),
            source,
        })?;
        serde_json::from_str(&text)
            .map_err(|e| Error::Report(format!("{}: {e}", compare_json.display())))?
    } else if dir.join("summary.json").exists() {
        return report_from_run_dir(dir);
    } else {
        // A compare stopped before its table (killed, timed out): the rows whose runs
        // finished are rebuilt from their folders.
        rebuild_from_runs(dir)?
    };
    let series: Vec<Series> = cmp
        .rows
        .iter()
        .filter_map(|r| Series::from_run_dir(r.strategy.name(), &dir.join(r.strategy.name())))
        .collect();
    Ok(report_html(&cmp, &series, &details(dir, &cmp)))
}

fn unreachable_report(dir: &Path) -> Result<String, Error> {
    Err(Error::Report(format!(
        "{} holds neither compare.json (an `oomlab compare` folder) nor summary.json (an `oomlab train` run folder)",
        dir.display()
    )))
}

/// The rows of a compare folder without its compare.json, from each row's folder
/// (`<row>/summary.json`, `<row>.toml` for the prediction); rows without a summary are
/// "not run". Also writes the rebuilt compare.json and compare.md, so later tools and
/// readers find them.
pub fn rebuild_from_runs(dir: &Path) -> Result<Comparison, Error> {
    let mut rows = Vec::new();
    let mut device = None;
    let mut simulated = false;
    for v in Variant::ALL {
        let name = v.name();
        let Ok(text) = fs::read_to_string(dir.join(name).join("summary.json")) else {
            if dir.join(format!("{name}.toml")).exists() {
                rows.push(Row::empty(*v, name, RowStatus::NotRun));
            }
            continue;
        };
        let s: RunSummary = serde_json::from_str(&text)
            .map_err(|e| Error::Report(format!("{name}/summary.json: {e}")))?;
        // A budget on the CPU is the only source of SIMULATED OOMs; its detector says so.
        let this_simulated = s.oom_detector.contains("simulated");
        simulated |= this_simulated;
        let mut row = Row::from_summary(*v, name, &s);
        let cfg = crate::config::load(
            &crate::config::ConfigSource::File(dir.join(format!("{name}.toml"))),
            &[],
        );
        if let Ok((_, cfg)) = cfg {
            row.predicted_peak_bytes =
                predicted(&row, &cfg, s.vocab, s.memory.device_total, this_simulated);
        }
        device = device.or(Some(s.device.label.clone()));
        rows.push(row);
    }
    if rows.is_empty() {
        unreachable_report(dir)?;
    }
    let cmp = Comparison::new(
        device.unwrap_or_else(|| "unknown device".into()),
        vec![format!(
            "(rebuilt from the run folders in {})",
            dir.display()
        )],
        simulated,
        rows,
    );
    let json = serde_json::to_string_pretty(&cmp).map_err(|e| Error::Report(e.to_string()))?;
    for (file, text) in [
        ("compare.json", json + "\n"),
        ("compare.md", cmp.to_markdown() + "\n"),
    ] {
        fs::write(dir.join(file), text).map_err(|source| Error::RunDir {
            path: dir.join(file),
            source,
        })?;
    }
    Ok(cmp)
}

/// The report of one `oomlab train` run folder.
fn report_from_run_dir(dir: &Path) -> Result<String, Error> {
    let read =
        |p: PathBuf| fs::read_to_string(&p).map_err(|source| Error::Input { path: p, source });
    let summary_json = dir.join("summary.json");
    let text = read(summary_json.clone())?;
    let s: RunSummary = serde_json::from_str(&text)
        .map_err(|e| Error::Report(format!("{}: {e}", summary_json.display())))?;
    let name = s.strategy.name().to_string();
    let v = Variant::from_name(&name).unwrap_or(Variant::Baseline);
    let cmp = Comparison::new(
        s.device.label.clone(),
        vec![],
        false,
        vec![Row::from_summary(v, &name, &s)],
    );
    let series: Vec<Series> = Series::from_run_dir(&name, dir).into_iter().collect();
    let detail = RunDetail {
        explain: explain_of(&name),
        summary: serde_json::from_str(&text).ok(),
        name,
    };
    Ok(report_html(&cmp, &series, &[detail]))
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
    write("compare.txt", cmp.to_terminal() + "\n")?;
    write("compare.md", cmp.to_markdown() + "\n")?;
    write(
        "compare.csv",
        cmp.to_csv().map_err(|e| Error::Report(e.to_string()))?,
    )?;
    write(
        "compare.json",
        serde_json::to_string_pretty(&cmp).map_err(|e| Error::Report(e.to_string()))? + "\n",
    )?;
    let (title, y) = if cmp.memory_kind == Some(MemoryKind::Gpu) {
        (
            format!(
                "VRAM over time, each strategy in its own process ({})",
                cmp.device
            ),
            "NVML process VRAM (MiB)",
        )
    } else {
        (
            format!(
                "HOST memory over time, each strategy in its own process ({})",
                cmp.device
            ),
            "resident set size, HOST (MiB)",
        )
    };
    match memory_svg(&title, y, &series) {
        Ok(svg) => write("memory.svg", svg)?,
        Err(e) => eprintln!("oomlab: warning: no memory.svg: {e}"),
    }
    write(
        "report.html",
        report_html(&cmp, &series, &details(&plan.out, &cmp)),
    )?;
    Ok(cmp)
}
