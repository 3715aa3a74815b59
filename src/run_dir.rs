//! The run folder: every run writes its resolved config, a step log and a retry log as it
//! goes, and its summary, so nothing is lost when a run stops early.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use time::OffsetDateTime;

use crate::config::ConfigFile;
use crate::error::Error;
use crate::probe::Timeline;
use crate::results::RunSummary;

use crate::render::render_summary;
use crate::results::AttemptRecord;
use crate::train::{StepObserver, StepRecord};

/// A run's folder.
#[derive(Debug)]
pub struct RunDir {
    path: PathBuf,
    steps: Option<File>,
    retries: Option<File>,
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> Error + '_ {
    move |source| Error::RunDir {
        path: path.to_path_buf(),
        source,
    }
}

/// `runs/<UTC date>-<time>-<strategy>`, with a suffix if that folder already exists.
pub fn default_run_path(root: &Path, strategy: &str) -> PathBuf {
    let base = format!("{}-{strategy}", utc_stamp(OffsetDateTime::now_utc()));
    let mut path = root.join(&base);
    let mut n = 2;
    while path.exists() {
        path = root.join(format!("{base}-{n}"));
        n += 1;
    }
    path
}

/// `YYYYMMDD-HHMMSS` in UTC.
fn utc_stamp(t: OffsetDateTime) -> String {
    let format = time::macros::format_description!("[year][month][day]-[hour][minute][second]");
    t.to_offset(time::UtcOffset::UTC)
        .format(&format)
        .unwrap_or_else(|_| t.unix_timestamp().to_string())
}

impl RunDir {
    /// Creates the folder (and parents) and writes the resolved config as `config.toml`.
    pub fn create(path: PathBuf, config: &ConfigFile, device: &str) -> Result<Self, Error> {
        fs::create_dir_all(&path).map_err(io_err(&path))?;
        write_config(&path, config, device)?;
        let open = |name: &str| {
            let p = path.join(name);
            OpenOptions::new()
                .create(true)
                .truncate(true)
                .write(true)
                .open(&p)
                .map_err(io_err(&p))
        };
        let steps = open("steps.jsonl")?;
        let retries = open("retries.jsonl")?;
        Ok(Self {
            path,
            steps: Some(steps),
            retries: Some(retries),
        })
    }

    /// Opens the folder of a run being resumed before step `next_step`: the step and
    /// retry logs keep their lines for earlier steps (those after the checkpoint are
    /// done again, so their lines go) and are appended to from there. Returns the kept
    /// records and how many step lines were dropped.
    pub fn reopen(path: PathBuf, next_step: usize) -> Result<(Self, Resumed), Error> {
        let (steps, records, dropped) =
            reopen_log::<StepRecord>(&path.join("steps.jsonl"), |r| r.step < next_step)?;
        let (retries, attempts, _) =
            reopen_log::<AttemptRecord>(&path.join("retries.jsonl"), |a| a.step < next_step)?;
        Ok((
            Self {
                path,
                steps: Some(steps),
                retries: Some(retries),
            },
            Resumed {
                records,
                attempts,
                steps_dropped: dropped,
            },
        ))
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes `memory.csv`: the sampler's readings with the step each falls in.
    pub fn write_timeline(&self, timeline: &Timeline) -> Result<(), Error> {
        if timeline.samples.is_empty() {
            return Ok(());
        }
        let path = self.path.join("memory.csv");
        fs::write(&path, timeline.to_csv()).map_err(io_err(&path))
    }

    /// Writes `summary.json` and `summary.txt`.
    pub fn write_summary(&self, summary: &RunSummary) -> Result<(), Error> {
        write_summary_at(&self.path, summary)
    }
}

/// Writes `summary.json` and `summary.txt` into run folder `dir`.
pub fn write_summary_at(dir: &Path, summary: &RunSummary) -> Result<(), Error> {
    let json_path = dir.join("summary.json");
    let json = serde_json::to_string_pretty(summary).unwrap_or_default();
    fs::write(&json_path, json + "\n").map_err(io_err(&json_path))?;
    let txt_path = dir.join("summary.txt");
    fs::write(
        &txt_path,
        render_summary(
            summary,
            crate::text::Width::Columns(crate::text::PIPE_WIDTH),
        ) + "\n",
    )
    .map_err(io_err(&txt_path))?;
    Ok(())
}

/// Writes `config.toml`: the resolved config (file + flags), so the folder says how the
/// run was made and `--resume` knows how to continue it.
pub fn write_config(dir: &Path, config: &ConfigFile, device: &str) -> Result<(), Error> {
    let toml_text = toml::to_string_pretty(config).unwrap_or_default();
    let cfg_path = dir.join("config.toml");
    fs::write(
        &cfg_path,
        format!(
            "# Resolved configuration of this run (file + flags). Device: {device}\n{toml_text}"
        ),
    )
    .map_err(io_err(&cfg_path))
}

/// What a resumed run folder already held.
#[derive(Debug, Clone, Default)]
pub struct Resumed {
    /// Steps before the checkpoint, from steps.jsonl.
    pub records: Vec<StepRecord>,
    /// Attempts before the checkpoint, from retries.jsonl.
    pub attempts: Vec<AttemptRecord>,
    /// Step lines after the checkpoint (work that is done again), plus unreadable lines
    /// (a line cut by a kill).
    pub steps_dropped: usize,
}

/// Keeps the lines of a JSON-lines log that parse and pass `keep`, rewrites the file with
/// them (temporary file, then rename) and opens it for appending.
fn reopen_log<T: serde::de::DeserializeOwned + serde::Serialize>(
    path: &Path,
    keep: impl Fn(&T) -> bool,
) -> Result<(File, Vec<T>, usize), Error> {
    let text = fs::read_to_string(path).unwrap_or_default();
    let mut kept = Vec::new();
    let mut dropped = 0;
    let mut out = String::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        match serde_json::from_str::<T>(line) {
            Ok(r) if keep(&r) => {
                out.push_str(line);
                out.push('\n');
                kept.push(r);
            }
            _ => dropped += 1,
        }
    }
    let tmp = path.with_extension("jsonl.tmp");
    fs::write(&tmp, out).map_err(io_err(&tmp))?;
    fs::rename(&tmp, path).map_err(io_err(path))?;
    let file = OpenOptions::new()
        .append(true)
        .open(path)
        .map_err(io_err(path))?;
    Ok((file, kept, dropped))
}

/// Appends `record` as one JSON line and flushes, so a crash keeps every line written;
/// on failure warns once and stops writing that log.
fn append_line(file: &mut Option<File>, record: &impl serde::Serialize, path: &Path) {
    if let Some(f) = file {
        let ok = serde_json::to_string(record)
            .ok()
            .map(|line| writeln!(f, "{line}").and_then(|_| f.flush()).is_ok())
            .unwrap_or(false);
        if !ok {
            eprintln!(
                "oomlab: warning: cannot append to {}; that log stops here",
                path.display()
            );
            *file = None;
        }
    }
}

impl StepObserver for RunDir {
    fn on_step(&mut self, record: &StepRecord) {
        append_line(&mut self.steps, record, &self.path.join("steps.jsonl"));
    }

    fn on_attempt(&mut self, record: &AttemptRecord) {
        append_line(&mut self.retries, record, &self.path.join("retries.jsonl"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamps_are_utc_calendar_dates() {
        let at = |secs| OffsetDateTime::from_unix_timestamp(secs).unwrap();
        assert_eq!(utc_stamp(at(0)), "19700101-000000");
        // 2026-11-30 08:52:34 UTC
        assert_eq!(utc_stamp(at(1_796_028_754)), "20261130-085234");
        // Leap day.
        assert_eq!(utc_stamp(at(1_709_164_800)), "20240229-000000");
    }

    #[test]
    fn a_taken_name_gets_a_suffix() {
        let dir = tempfile::tempdir().unwrap();
        let a = default_run_path(dir.path(), "baseline");
        fs::create_dir_all(&a).unwrap();
        let b = default_run_path(dir.path(), "baseline");
        assert_ne!(a, b);
    }
}
