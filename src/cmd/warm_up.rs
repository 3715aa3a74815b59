//! `oomlab warm-up`: compile and autotune, ahead of time, the kernels a lesson or a
//! compare will need, so that the class (or the measurement) does not wait for them.
//!
//! On a GPU, burn 0.21's first step at each new shape and precision compiles its kernels
//! with NVRTC and may benchmark candidates; both are kept in the kernel cache folder, so
//! a later process finds them. Warm-up runs every `compare` row of each config for a
//! step or two, each in a fresh `oomlab train` process as compare does (so what it
//! leaves in the cache is exactly what those runs look up), plus the baseline at the
//! micro-batches auto-halve falls back to. It reports each run's first step and what it
//! added to the cache, and how long the whole warm-up took.

use std::path::PathBuf;
use std::time::Instant;

use serde::Serialize;

use crate::cmd::compare::{run_row, ComparePlan};
use crate::error::Error;
use crate::results::{RunSummary, StopReason};
use crate::train::StopFlag;

/// One group of rows sharing a config and a batch.
#[derive(Debug, Clone)]
pub struct WarmUpPass {
    /// The config's name or path.
    pub config: String,
    /// Samples per step of every row of the pass.
    pub batch: u64,
    /// The rows, as compare runs them.
    pub compare: ComparePlan,
}

/// What `oomlab warm-up` will run.
#[derive(Debug, Clone)]
pub struct WarmUpPlan {
    /// The passes, in order.
    pub passes: Vec<WarmUpPass>,
    /// Where the runs go.
    pub out: PathBuf,
    /// No progress on stderr.
    pub quiet: bool,
    /// Why nothing runs (the CPU, which compiles nothing at run time), when so.
    pub nothing_to_do: Option<String>,
}

/// One warm-up run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WarmUpRow {
    /// Config name or path.
    pub config: String,
    /// Samples per step.
    pub batch: u64,
    /// The compare row it ran.
    pub strategy: String,
    /// `completed`, `oom`, `failed: ...`, `not run`.
    pub status: String,
    /// Seconds from the start of the run to the end of its first step.
    pub first_step_s: Option<f64>,
    /// Kernels this run compiled (new entries in the kernel cache).
    pub kernels_compiled: Option<u64>,
    /// Operations this run autotuned (new autotune results).
    pub autotuned: Option<u64>,
    /// Seconds the whole process took, start to exit.
    pub process_s: f64,
}

/// What warm-up did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WarmUpReport {
    /// The device the runs used, as their summaries name it.
    pub device: Option<String>,
    /// The kernel cache folder the runs filled.
    pub kernel_cache: Option<String>,
    /// Every run.
    pub rows: Vec<WarmUpRow>,
    /// Seconds for the whole warm-up.
    pub total_s: f64,
    /// Ctrl-C or SIGTERM stopped it.
    pub interrupted: bool,
    /// Why nothing ran, when so.
    pub note: Option<String>,
}

fn status_of(s: &RunSummary) -> String {
    match &s.stop {
        StopReason::Completed => "completed".into(),
        StopReason::OutOfMemory(_) => "out of memory (its kernels are cached all the same)".into(),
        StopReason::Interrupted => "interrupted".into(),
        StopReason::Failed(why) => format!("failed: {why}"),
    }
}

/// Runs every pass's rows, one fresh process each, and reports.
pub fn run_warm_up(plan: &WarmUpPlan, stop: &StopFlag) -> Result<WarmUpReport, Error> {
    let started = Instant::now();
    let total: usize = plan.passes.iter().map(|p| p.compare.rows.len()).sum();
    let bar = crate::progress::bar(
        total as u64,
        "{elapsed_precise} [{bar:30}] {pos}/{len} runs {msg}",
    );
    let mut report = WarmUpReport {
        device: None,
        kernel_cache: None,
        rows: Vec::new(),
        total_s: 0.0,
        interrupted: false,
        note: plan.nothing_to_do.clone(),
    };
    if plan.nothing_to_do.is_some() {
        return Ok(report);
    }
    for pass in &plan.passes {
        let exe = crate::cmd::compare::prepare(&pass.compare)?;
        for (v, config) in &pass.compare.rows {
            let mut row = WarmUpRow {
                config: pass.config.clone(),
                batch: pass.batch,
                strategy: v.name().to_string(),
                status: "not run".into(),
                first_step_s: None,
                kernels_compiled: None,
                autotuned: None,
                process_s: 0.0,
            };
            if stop.requested() {
                report.interrupted = true;
                report.rows.push(row);
                bar.inc(1);
                continue;
            }
            let what = format!("{} batch {}: {}", pass.config, pass.batch, v.name());
            bar.set_message(format!("({what})"));
            if !plan.quiet && bar.is_hidden() {
                eprintln!("warm-up: {what}");
            }
            let t = Instant::now();
            let run = run_row(&pass.compare, *v, config, &exe);
            row.process_s = t.elapsed().as_secs_f64();
            let summary =
                std::fs::read_to_string(pass.compare.out.join(v.name()).join("summary.json"))
                    .ok()
                    .and_then(|t| serde_json::from_str::<RunSummary>(&t).ok());
            match summary {
                Some(s) => {
                    row.status = status_of(&s);
                    row.first_step_s = s.time_to_first_step_s;
                    if let Some(k) = &s.kernel_cache {
                        row.kernels_compiled = Some(k.added_in_run.kernels);
                        row.autotuned = Some(k.added_in_run.tuned);
                        report.kernel_cache.get_or_insert_with(|| k.dir.clone());
                    }
                    report.device.get_or_insert(s.device.label);
                }
                None => {
                    row.status = match run.row.status {
                        crate::compare::RowStatus::Failed(why) => format!("failed: {why}"),
                        crate::compare::RowStatus::OutOfMemory(why) => {
                            format!("out of memory: {why}")
                        }
                        crate::compare::RowStatus::NotRun => "not run".into(),
                        crate::compare::RowStatus::Completed => "completed".into(),
                    }
                }
            }
            if !plan.quiet && bar.is_hidden() {
                eprintln!("warm-up: {what}: {} in {:.1} s", row.status, row.process_s);
            }
            report.rows.push(row);
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
    report.interrupted |= stop.requested();
    report.total_s = started.elapsed().as_secs_f64();
    let path = plan.out.join("warm-up.json");
    let json = serde_json::to_string_pretty(&report).map_err(|e| Error::Report(e.to_string()))?;
    std::fs::write(&path, json + "\n").map_err(|source| Error::RunDir { path, source })?;
    Ok(report)
}

impl WarmUpReport {
    /// The table for the terminal.
    pub fn to_terminal(&self) -> String {
        let secs = |s: Option<f64>| s.map_or("-".to_string(), |s| format!("{s:.1} s"));
        let count = |n: Option<u64>| n.map_or("-".to_string(), |n| n.to_string());
        let mut t = crate::text::table();
        t.set_header([
            "config",
            "batch",
            "row",
            "first step",
            "process",
            "kernels compiled",
            "autotuned",
            "status",
        ]);
        for r in &self.rows {
            t.add_row([
                r.config.clone(),
                r.batch.to_string(),
                r.strategy.clone(),
                secs(r.first_step_s),
                format!("{:.1} s", r.process_s),
                count(r.kernels_compiled),
                count(r.autotuned),
                r.status.clone(),
            ]);
        }
        let compiled: u64 = self.rows.iter().filter_map(|r| r.kernels_compiled).sum();
        let tuned: u64 = self.rows.iter().filter_map(|r| r.autotuned).sum();
        if let Some(note) = &self.note {
            return crate::text::wrap(note, "");
        }
        let mut out = format!("{t}\n");
        out += &crate::text::wrap(&format!(
            "warm-up took {:.0} s on {}: {compiled} kernels compiled, {tuned} operations autotuned{}.",
            self.total_s,
            self.device.as_deref().unwrap_or("an unknown device"),
            match &self.kernel_cache {
                Some(dir) => format!(", kept in {dir}"),
                None => String::new(),
            }
        ), "");
        if self.device.as_deref().is_some_and(|d| d.starts_with("cpu")) {
            out += "The CPU backend compiles nothing at run time: on the CPU there is nothing to warm up.\n";
        } else if compiled == 0 && tuned == 0 && !self.rows.is_empty() {
            out += "Nothing new was compiled: the cache already held everything these runs need.\n";
        }
        if self.interrupted {
            out += "Stopped before every run was made (Ctrl-C or SIGTERM): run it again to finish; what was compiled is kept.\n";
        }
        out
    }
}
