//! `oomlab compare`: every chosen strategy in a fresh process, then one table (terminal,
//! Markdown, CSV, JSON) and one memory-over-time chart.
//!
//! Each strategy runs as `oomlab train` in its own process, so an allocator pool, a CUDA
//! context or a kernel cache in memory warmed by one strategy cannot flatter the next.
//! (The on-disk kernel cache is shared: it removes compilation time, not memory.)

mod plot;
mod row;
mod table;

pub use plot::{memory_svg, Series};
pub use row::{Row, RowStatus};
pub use table::{Comparison, COMPARE_SCHEMA_VERSION};

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::error::Error;
use crate::train::StopFlag;

/// The strategies `compare` knows, in the order `all` runs them, with the `train`
/// arguments each one adds.
pub const STRATEGIES: &[(&str, &[&str])] = &[
    ("baseline", &["--strategy", "baseline"]),
    ("grad-accum", &["--strategy", "grad-accum"]),
    ("auto-halve", &["--strategy", "auto-halve"]),
    ("checkpointing", &["--strategy", "checkpointing"]),
    (
        "empty-cache",
        &["--strategy", "baseline", "--empty-cache-every", "1"],
    ),
    (
        "amp-bf16",
        &["--strategy", "baseline", "--precision", "bf16"],
    ),
    ("amp-f16", &["--strategy", "baseline", "--precision", "f16"]),
    ("half-bf16", &["--strategy", "half", "--precision", "bf16"]),
    ("half-f16", &["--strategy", "half", "--precision", "f16"]),
    (
        "attention-math",
        &["--strategy", "baseline", "--attention", "math"],
    ),
    (
        "pool-exact",
        &["--strategy", "baseline", "--memory-mode", "exact"],
    ),
];

/// A validated comparison request.
#[derive(Debug, Clone)]
pub struct ComparePlan {
    /// Strategy names from [`STRATEGIES`].
    pub strategies: Vec<String>,
    /// Arguments every `train` run gets (config, device, sizes, budgets).
    pub common_args: Vec<String>,
    /// `--steps K` for grad-accum.
    pub accum_steps: u64,
    /// Where the runs and the outputs go.
    pub out: PathBuf,
    /// No progress on stderr.
    pub quiet: bool,
}

/// Parses `--strategies`: `all` or a comma-separated list of known names.
pub fn parse_strategies(list: &str) -> Result<Vec<String>, String> {
    if list.trim() == "all" {
        return Ok(STRATEGIES.iter().map(|(n, _)| n.to_string()).collect());
    }
    let known: Vec<&str> = STRATEGIES.iter().map(|(n, _)| *n).collect();
    let mut out = Vec::new();
    for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        if !known.contains(&name) {
            return Err(format!(
                "unknown strategy '{name}'; known: {} (or all)",
                known.join(", ")
            ));
        }
        if !out.iter().any(|n: &String| n == name) {
            out.push(name.to_string());
        }
    }
    if out.is_empty() {
        return Err(format!(
            "no strategy given; known: {} (or all)",
            known.join(", ")
        ));
    }
    Ok(out)
}

/// What one run left behind.
struct Finished {
    row: Row,
    series: Option<Series>,
    device: Option<String>,
}

fn run_one(plan: &ComparePlan, name: &str, exe: &Path) -> Finished {
    let dir = plan.out.join(name);
    let stderr_path = plan.out.join(format!("{name}.stderr.txt"));
    let mut cmd = Command::new(exe);
    cmd.arg("train").args(plan.common_args.iter()).args(
        STRATEGIES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, a)| *a)
            .unwrap_or_default(),
    );
    if name == "grad-accum" {
        cmd.args(["--steps", &plan.accum_steps.to_string()]);
    }
    cmd.args(["--quiet", "--json", "--out"])
        .arg(&dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null());
    let stderr_file = fs::File::create(&stderr_path).ok();
    match stderr_file {
        Some(f) => cmd.stderr(f),
        None => cmd.stderr(Stdio::null()),
    };
    let status = cmd.status();
    let summary = fs::read_to_string(dir.join("summary.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok());
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
        (_, Some(s)) => Row::from_summary(name, name, s),
        (Ok(st), None) => Row::empty(
            name,
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
            name,
            name,
            RowStatus::Failed(format!("could not start {}: {e}", exe.display())),
        ),
    };
    let series = fs::read_to_string(dir.join("memory.csv"))
        .ok()
        .map(|t| Series::from_memory_csv(name, &t));
    let device = summary
        .as_ref()
        .and_then(|s| s["device"]["label"].as_str().map(str::to_string));
    Finished {
        row,
        series,
        device,
    }
}

/// Runs every strategy, writes `compare.{txt,md,csv,json}` and `memory.svg` into
/// `plan.out`, and returns the comparison.
pub fn run_compare(plan: &ComparePlan, stop: &StopFlag) -> Result<Comparison, Error> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| Error::RunDir { path, source }
    };
    fs::create_dir_all(&plan.out).map_err(io(&plan.out))?;
    let exe = std::env::current_exe().map_err(io(Path::new("current executable")))?;
    let bar = crate::progress::bar(
        plan.strategies.len() as u64,
        "{elapsed_precise} [{bar:30}] {pos}/{len} strategies {msg}",
    );
    let mut rows = Vec::new();
    let mut series = Vec::new();
    let mut device = None;
    for name in &plan.strategies {
        if stop.requested() {
            rows.push(Row::empty(name, name, RowStatus::NotRun));
            continue;
        }
        bar.set_message(format!("(running {name} in a fresh process)"));
        if !plan.quiet && bar.is_hidden() {
            eprintln!("compare: running {name} in a fresh process");
        }
        let f = run_one(plan, name, &exe);
        bar.inc(1);
        device = device.or(f.device);
        series.extend(f.series);
        rows.push(f.row);
    }
    bar.finish_and_clear();
    let cmp = Comparison::new(
        device.unwrap_or_else(|| "unknown device".into()),
        plan.common_args.clone(),
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
    let (title, y) = if cmp.memory_kind == "gpu" {
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
    Ok(cmp)
}
