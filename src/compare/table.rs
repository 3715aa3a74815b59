//! The comparison as data, built once, then rendered for the terminal, Markdown, CSV and
//! JSON.

use comfy_table::{presets, ContentArrangement, Table};

use crate::results::{Comparison, Row, RowStatus, COMPARE_SCHEMA_VERSION};
use crate::technique::Variant;
use crate::text::{table_for, Footnotes, Width};
use crate::units::{fmt_duration, Bytes};
use crate::words::{CompareColumn, MemoryKind};

/// `s` with a full stop at its end.
fn sentence(s: &str) -> String {
    let mut out = s.to_string();
    if !out.is_empty() && !out.ends_with(['.', ')', '!']) {
        out.push('.');
    }
    out
}

impl Comparison {
    /// Builds the comparison and the ratios to the `baseline` row (if it completed).
    pub fn new(
        device: String,
        common_args: Vec<String>,
        simulated: bool,
        mut rows: Vec<Row>,
    ) -> Self {
        let base = rows
            .iter()
            .find(|r| r.strategy == Variant::BASELINE && r.status == RowStatus::Completed)
            .map(|r| (r.peak_process_bytes, r.steady_step_s));
        if let Some((mem, time)) = base {
            for r in &mut rows {
                r.memory_vs_baseline = ratio(
                    r.peak_process_bytes.map(|b| b as f64),
                    mem.map(|b| b as f64),
                );
                r.time_vs_baseline = ratio(r.steady_step_s, time);
            }
        }
        let memory_kind = rows.iter().find_map(|r| r.memory_kind);
        let budget = budget_in(&common_args);
        Self {
            schema_version: COMPARE_SCHEMA_VERSION,
            oomlab_version: env!("CARGO_PKG_VERSION").to_string(),
            memory_kind,
            simulated,
            device,
            common_args,
            budget,
            rows,
        }
    }

    /// The budget the rows shared: the recorded one, else (a compare.json older than the
    /// field) `--vram-budget` or `--memory-budget` in the arguments.
    pub fn budget(&self) -> Option<Bytes> {
        self.budget.or_else(|| budget_in(&self.common_args))
    }

    /// Rows that failed or could not start (a row that ran out of memory is a result,
    /// not a failure; a row not run because of Ctrl-C is neither).
    pub fn failed_rows(&self) -> usize {
        self.rows
            .iter()
            .filter(|r| matches!(r.status, crate::results::RowStatus::Failed(_)))
            .count()
    }

    fn gpu(&self) -> bool {
        self.memory_kind == Some(MemoryKind::Gpu)
    }

    /// Column titles, naming what memory means on this device.
    pub fn headers(&self) -> Vec<String> {
        let (process, in_use, reserved, overhead) = if self.gpu() {
            (
                "peak VRAM (NVML process)",
                "allocator in use (highest read)",
                "peak reserved",
                "context + overhead",
            )
        } else {
            (
                "peak HOST RSS",
                "peak HOST heap in use",
                "peak reserved",
                "outside the heap",
            )
        };
        [
            "strategy",
            "split",
            "dtype (weights/compute)",
            process,
            "vs baseline",
            in_use,
            "predicted peak (oomlab estimate)",
            reserved,
            overhead,
            "first step",
            "steady step",
            "vs baseline",
            "samples/s",
            if self.simulated {
                "OOMs hit (SIMULATED)"
            } else {
                "OOMs hit"
            },
            "skipped steps",
            "final loss",
            "status",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain(self.several_devices().then(|| {
            if self.gpu() {
                "per device (NVML process peak, allocator in use, optimizer state)".to_string()
            } else {
                "per device (optimizer state; CPU peers share one heap)".to_string()
            }
        }))
        .collect()
    }

    /// What each column of [`headers`](Self::headers) means, in the same order: the
    /// report's tooltips and footnotes.
    pub fn column_notes(&self) -> Vec<String> {
        let gpu = self.gpu();
        let mut notes: Vec<&str> = vec![
            "The row: a strategy, or the baseline with one setting changed.",
            "Micro-batch x micro-batches per optimizer step, as the run ended.",
            "The weights' dtype / the dtype the passes compute in.",
            if gpu {
                "The highest VRAM NVML attributed to the run's process, less the ballast --vram-budget holds."
            } else {
                "The highest resident set size of the run's process."
            },
            "This row's peak over the baseline's; n/a when the baseline did not complete.",
            if gpu {
                "The highest in-use burn's allocator reported when oomlab read it: at step ends, and at the phase boundaries of the one step recorded by category (after the forward pass, activations alive). A peak inside the backward pass falls between reads, so this is below the process peak."
            } else {
                "The highest bytes the heap held, from oomlab's counting allocator: what --memory-budget counts."
            },
            "oomlab estimate's peak for the configured split, with its error against the measured peak for rows that completed without an out-of-memory failure.",
            if gpu {
                "The most burn's pool held at a check, in use or cached."
            } else {
                "The CPU backend has no pool: n/a."
            },
            if gpu {
                "At the end: the process beyond the pool, the CUDA context, modules and libraries' workspaces."
            } else {
                "At the end: the process beyond the heap, code, stacks and freed memory the C allocator keeps."
            },
            "From the run's start to the end of its first step: on a GPU mostly kernel compilation and autotuning.",
            "The median step time after the first.",
            "This row's steady step over the baseline's; n/a when the baseline did not complete.",
            "Samples per second at the steady step time.",
            "Out-of-memory failures during the run; auto-halve retries after each.",
            "Steps the loss scaler skipped (f16: gradients not finite).",
            "The mean loss of the last 10% of the steps applied (a row stopped by an out-of-memory failure: of the steps before it).",
            "How the run ended.",
        ];
        if self.simulated {
            notes[13] = "SIMULATED out-of-memory failures: the heap crossed --memory-budget; auto-halve retries after each.";
        }
        if self.several_devices() {
            notes.push("Each device's figures: its NVML process peak, allocator in use and optimizer state (CPU peers share one heap).");
        }
        notes.into_iter().map(String::from).collect()
    }

    /// Whether some row ran over several devices (`compare --devices`): then every
    /// rendering has a per-device column.
    fn several_devices(&self) -> bool {
        self.rows.iter().any(|r| !r.per_device.is_empty())
    }

    /// A row's per-device figures, one device after another.
    fn per_device_cell(&self, r: &Row) -> String {
        if r.per_device.is_empty() {
            return "n/a".into();
        }
        let b = |x: Option<u64>| x.map(|v| Bytes(v).to_string());
        r.per_device
            .iter()
            .enumerate()
            .map(|(i, d)| {
                let figures: Vec<String> = [
                    self.gpu().then(|| b(d.process_peak_bytes)).flatten(),
                    b(d.peak_in_use_bytes).map(|v| format!("in use {v}")),
                    b(d.optimizer_state_bytes).map(|v| format!("state {v}")),
                ]
                .into_iter()
                .flatten()
                .collect();
                format!("#{i} {}: {}", d.device, figures.join(", "))
            })
            .collect::<Vec<_>>()
            .join(" | ")
    }

    /// The cells of every row, formatted for people (units from [`crate::units`]).
    pub fn cells(&self) -> Vec<Vec<String>> {
        let b = |x: Option<u64>| {
            x.map(|v| Bytes(v).to_string())
                .unwrap_or_else(|| "n/a".into())
        };
        let t = |x: Option<f64>| {
            x.map(|s| fmt_duration(std::time::Duration::from_secs_f64(s)))
                .unwrap_or_else(|| "n/a".into())
        };
        let x = |r: Option<f64>| {
            r.map(|v| format!("{v:.2}x"))
                .unwrap_or_else(|| "n/a".into())
        };
        // The figures of a row that never ran, or failed before its summary, are unknown,
        // not zero.
        let unknown = |r: &Row, cell: String| {
            if r.status == RowStatus::NotRun || r.memory_kind.is_none() {
                "-".to_string()
            } else {
                cell
            }
        };
        self.rows
            .iter()
            .map(|r| {
                vec![
                    r.strategy.to_string(),
                    r.split.clone().unwrap_or_else(|| "n/a".into()),
                    r.precision.clone().unwrap_or_else(|| "n/a".into()),
                    b(r.peak_process_bytes),
                    x(r.memory_vs_baseline),
                    b(r.peak_in_use_bytes),
                    // The error only where the run kept the split predicted: a run
                    // stopped or retried by an OOM peaked in its failed attempt.
                    match (
                        r.predicted_peak_bytes,
                        r.estimate_error_pct()
                            .filter(|_| r.status == RowStatus::Completed && r.oom_retries == 0),
                    ) {
                        (Some(p), Some(e)) => format!("{} ({e:+.0}%)", Bytes(p)),
                        (Some(p), None) => Bytes(p).to_string(),
                        _ => "n/a".into(),
                    },
                    b(r.peak_reserved_bytes),
                    b(r.overhead_bytes),
                    t(r.time_to_first_step_s),
                    t(r.steady_step_s),
                    x(r.time_vs_baseline),
                    r.samples_per_s
                        .map(|v| format!("{v:.1}"))
                        .unwrap_or_else(|| "n/a".into()),
                    unknown(r, r.oom_retries.to_string()),
                    unknown(r, r.skipped_steps.to_string()),
                    r.final_loss
                        .map(|v| format!("{v:.4}"))
                        .unwrap_or_else(|| "n/a".into()),
                    match &r.status {
                        RowStatus::Completed => "completed".to_string(),
                        RowStatus::OutOfMemory(why) => format!("OOM{}: {why}", self.sim()),
                        RowStatus::Failed(why) => format!("failed: {why}"),
                        RowStatus::NotRun => "not run (interrupted)".to_string(),
                    } + &r
                        .note
                        .as_ref()
                        .map(|n| format!(" ({n})"))
                        .unwrap_or_default(),
                ]
                .into_iter()
                .chain(self.several_devices().then(|| self.per_device_cell(r)))
                .collect()
            })
            .collect()
    }

    fn sim(&self) -> &'static str {
        if self.simulated {
            " (SIMULATED)"
        } else {
            ""
        }
    }

    /// The line above every rendering when the OOMs are simulated.
    fn simulated_note(&self) -> String {
        if self.simulated {
            "OOMs in this table are SIMULATED: --memory-budget on the CPU makes crossing a host-heap budget count as an out-of-memory failure; nothing ran out of memory.\n".into()
        } else {
            String::new()
        }
    }

    fn table(&self, preset: &str) -> Table {
        let mut t = Table::new();
        t.load_preset(preset)
            .set_content_arrangement(ContentArrangement::Disabled)
            .set_header(self.headers());
        for row in self.cells() {
            t.add_row(row);
        }
        t
    }

    /// The columns the terminal shows by default: strategy, split, peak, peak vs baseline,
    /// step, OOMs, loss and status (and each device's figures over several devices).
    pub const KEY_COLUMNS: &'static [CompareColumn] = &[
        CompareColumn::Strategy,
        CompareColumn::Split,
        CompareColumn::Peak,
        CompareColumn::PeakVsBaseline,
        CompareColumn::Step,
        CompareColumn::Ooms,
        CompareColumn::Loss,
        CompareColumn::Status,
        CompareColumn::Devices,
    ];

    /// `--brief` and the lesson: what a budget decides, strategy, split, peak, in use (what
    /// a host-heap budget counts), OOMs, final loss, status.
    pub const BRIEF_COLUMNS: &'static [CompareColumn] = &[
        CompareColumn::Strategy,
        CompareColumn::Split,
        CompareColumn::Peak,
        CompareColumn::InUse,
        CompareColumn::Ooms,
        CompareColumn::Loss,
        CompareColumn::Status,
        CompareColumn::Devices,
    ];

    /// A column's title on the terminal (shorter than the files' titles, which say more).
    fn short_header(&self, c: CompareColumn) -> String {
        let gpu = self.gpu();
        match c {
            CompareColumn::Strategy => "strategy",
            CompareColumn::Split => "split",
            CompareColumn::Dtype => "dtype",
            CompareColumn::Peak if gpu => "peak VRAM",
            CompareColumn::Peak => "peak HOST RSS",
            CompareColumn::PeakVsBaseline => "peak vs baseline",
            CompareColumn::InUse if gpu => "allocator in use",
            CompareColumn::InUse => "HOST heap peak",
            CompareColumn::Predicted => "predicted peak",
            CompareColumn::Reserved => "reserved",
            CompareColumn::Overhead if gpu => "context + overhead",
            CompareColumn::Overhead => "outside the heap",
            CompareColumn::FirstStep => "first step",
            CompareColumn::Step => "step",
            CompareColumn::StepVsBaseline => "step vs baseline",
            CompareColumn::SamplesPerS => "samples/s",
            CompareColumn::Ooms => "OOMs",
            CompareColumn::Skipped => "skipped steps",
            CompareColumn::Loss => "final loss",
            CompareColumn::Status => "status",
            CompareColumn::Devices => "per device",
        }
        .to_string()
    }

    /// The table on the terminal with `columns`, laid out for `width`: a status's reason,
    /// a peak that includes a failed attempt and a ratio to a baseline that ran out of
    /// memory get numbered notes under the table.
    pub fn to_terminal_columns(&self, columns: &[CompareColumn], width: Width) -> String {
        let columns: Vec<CompareColumn> = columns
            .iter()
            .copied()
            .filter(|c| *c != CompareColumn::Devices || self.several_devices())
            .collect();
        let index = |c: CompareColumn| CompareColumn::ALL.iter().position(|x| *x == c);
        let mut notes = Footnotes::new();
        // A baseline that ran out of memory needed more than its measured peak: a row's
        // ratio to that peak is an upper bound.
        let failed_base = self
            .rows
            .iter()
            .find(|r| r.strategy == Variant::BASELINE)
            .filter(|r| matches!(r.status, RowStatus::OutOfMemory(_)))
            .and_then(|r| r.peak_process_bytes);
        let bound_note = failed_base
            .filter(|_| columns.contains(&CompareColumn::PeakVsBaseline))
            .map(|p| {
            notes.mark(format!(
                "The baseline ran out of memory after reaching {}: it needed more, so each row's ratio to it is at most the one shown.",
                Bytes(p)
            ))
        });
        let mut t = table_for(width);
        t.set_header(columns.iter().map(|&c| {
            let mut h = self.short_header(c);
            if let (CompareColumn::PeakVsBaseline, Some(mark)) = (c, &bound_note) {
                h = format!("{h} {mark}");
            }
            h
        }));
        let cells = self.cells();
        for (row, r) in cells.into_iter().zip(&self.rows) {
            let mut out = Vec::with_capacity(columns.len());
            for &c in &columns {
                let Some(i) = index(c) else { continue };
                let cell = match c {
                    CompareColumn::Status => {
                        let (word, why) = match &r.status {
                            RowStatus::Completed => ("completed".to_string(), None),
                            RowStatus::OutOfMemory(why) => {
                                (format!("OOM{}", self.sim()), Some(why.clone()))
                            }
                            RowStatus::Failed(why) => ("failed".to_string(), Some(why.clone())),
                            RowStatus::NotRun => ("not run (interrupted)".to_string(), None),
                        };
                        let why = match (why, &r.note) {
                            (Some(w), Some(n)) => Some(format!("{w} ({n})")),
                            (Some(w), None) => Some(w),
                            (None, Some(n)) => Some(n.clone()),
                            (None, None) => None,
                        };
                        match why {
                            Some(w) => format!(
                                "{word} {}",
                                notes.mark(format!("{}: {}", r.strategy, sentence(&w)))
                            ),
                            None => word,
                        }
                    }
                    CompareColumn::Peak | CompareColumn::InUse
                        if r.oom_retries > 0 && r.status == RowStatus::Completed =>
                    {
                        format!(
                            "{} {}",
                            row[i],
                            notes.mark(
                                "The highest over every attempt: the attempt that ran out of memory is included, so it can be above the budget; the split the row finished at needed less."
                            )
                        )
                    }
                    CompareColumn::PeakVsBaseline if r.memory_vs_baseline.is_none() => {
                        match (failed_base, r.peak_process_bytes) {
                            (Some(base), Some(q))
                                if base > 0 && r.strategy != Variant::BASELINE =>
                            {
                                format!("≤{:.2}x", q as f64 / base as f64)
                            }
                            _ => row[i].clone(),
                        }
                    }
                    _ => row[i].clone(),
                };
                out.push(cell);
            }
            t.add_row(out);
        }
        let mut text = self.simulated_note_wrapped(width);
        text.push_str(&format!("{t}\n"));
        text.push_str(&notes.render_for(width));
        text.trim_end().to_string()
    }

    /// For the terminal, the columns a budget decides (`compare --brief`, the lesson).
    pub fn to_terminal_brief(&self) -> String {
        self.to_terminal_columns(Self::BRIEF_COLUMNS, crate::text::width())
    }

    /// For the terminal: a title and the key columns.
    pub fn to_terminal(&self) -> String {
        format!(
            "{}{}",
            self.title(),
            self.to_terminal_columns(Self::KEY_COLUMNS, crate::text::width())
        )
    }

    /// Every column at its natural width, for `compare.txt`.
    pub fn to_text_file(&self) -> String {
        format!(
            "{}{}{}",
            self.title(),
            self.simulated_note(),
            self.table(presets::UTF8_FULL_CONDENSED)
        )
    }

    /// The line above the terminal's table: the device and what memory means on it.
    fn title(&self) -> String {
        let title = if self.gpu() {
            format!("oomlab compare on {} (memory: VRAM)", self.device)
        } else {
            format!(
                "oomlab compare on {} (memory: HOST memory, no GPU involved)",
                self.device
            )
        };
        crate::text::wrap(&title, "")
    }

    /// [`Self::simulated_note`] wrapped to the output's width.
    fn simulated_note_wrapped(&self, width: Width) -> String {
        match self.simulated {
            true => crate::text::hang_for("", self.simulated_note().trim_end(), width),
            false => String::new(),
        }
    }

    /// A GitHub Markdown table.
    pub fn to_markdown(&self) -> String {
        format!(
            "{}{}",
            self.simulated_note().replace('\n', "\n\n"),
            self.table(presets::ASCII_MARKDOWN)
        )
    }

    /// CSV with raw numbers (bytes, seconds), one header line.
    pub fn to_csv(&self) -> Result<String, csv::Error> {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record([
            "strategy",
            "split",
            "effective_batch",
            "precision",
            "memory_kind",
            "peak_process_bytes",
            "peak_in_use_bytes",
            "predicted_peak_bytes",
            "peak_reserved_bytes",
            "overhead_bytes",
            "time_to_first_step_s",
            "steady_step_s",
            "samples_per_s",
            if self.simulated {
                "simulated_oom_retries"
            } else {
                "oom_retries"
            },
            "skipped_steps",
            "steps_completed",
            "final_loss",
            "memory_vs_baseline",
            "time_vs_baseline",
            "note",
            "status",
            "per_device",
        ])?;
        let o = |v: Option<String>| v.unwrap_or_default();
        for r in &self.rows {
            w.write_record([
                r.strategy.to_string(),
                o(r.split.clone()),
                o(r.effective_batch.map(|v| v.to_string())),
                o(r.precision.clone()),
                o(r.memory_kind.map(|k| k.to_string())),
                o(r.peak_process_bytes.map(|v| v.to_string())),
                o(r.peak_in_use_bytes.map(|v| v.to_string())),
                o(r.predicted_peak_bytes.map(|v| v.to_string())),
                o(r.peak_reserved_bytes.map(|v| v.to_string())),
                o(r.overhead_bytes.map(|v| v.to_string())),
                o(r.time_to_first_step_s.map(|v| v.to_string())),
                o(r.steady_step_s.map(|v| v.to_string())),
                o(r.samples_per_s.map(|v| v.to_string())),
                r.oom_retries.to_string(),
                r.skipped_steps.to_string(),
                r.steps_completed.to_string(),
                o(r.final_loss.map(|v| v.to_string())),
                o(r.memory_vs_baseline.map(|v| v.to_string())),
                o(r.time_vs_baseline.map(|v| v.to_string())),
                r.note.clone().unwrap_or_default(),
                match &r.status {
                    RowStatus::Completed => "completed".into(),
                    RowStatus::OutOfMemory(w) => format!("out-of-memory{}: {w}", self.sim()),
                    RowStatus::Failed(w) => format!("failed: {w}"),
                    RowStatus::NotRun => "not-run".into(),
                },
                // device=process_peak/in_use/optimizer_state bytes, `|` between devices.
                r.per_device
                    .iter()
                    .map(|d| {
                        format!(
                            "{}={}/{}/{}",
                            d.device,
                            o(d.process_peak_bytes.map(|v| v.to_string())),
                            o(d.peak_in_use_bytes.map(|v| v.to_string())),
                            o(d.optimizer_state_bytes.map(|v| v.to_string()))
                        )
                    })
                    .collect::<Vec<_>>()
                    .join("|"),
            ])?;
        }
        let bytes = w.into_inner().map_err(|e| e.into_error())?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }
}

/// `--vram-budget SIZE` or `--memory-budget SIZE` among `train` arguments.
fn budget_in(args: &[String]) -> Option<Bytes> {
    args.iter()
        .position(|a| a == "--vram-budget" || a == "--memory-budget")
        .and_then(|i| args.get(i + 1))
        .and_then(|v| crate::units::parse_size(v).ok())
}

fn ratio(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(a), Some(b)) if b > 0.0 => Some(a / b),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(v: Variant, mem: u64, step: f64) -> Row {
        Row {
            peak_process_bytes: Some(mem),
            steady_step_s: Some(step),
            memory_kind: Some(MemoryKind::Host),
            ..Row::empty(v, v.name(), RowStatus::Completed)
        }
    }

    #[test]
    fn ratios_are_relative_to_the_baseline_row() {
        let c = Comparison::new(
            "cpu".into(),
            vec![],
            false,
            vec![
                row(Variant::BASELINE, 100, 2.0),
                row(Variant::named("grad-accum"), 50, 3.0),
            ],
        );
        assert_eq!(c.rows[1].memory_vs_baseline, Some(0.5));
        assert_eq!(c.rows[1].time_vs_baseline, Some(1.5));
        assert_eq!(c.rows[0].memory_vs_baseline, Some(1.0));
    }

    #[test]
    fn a_failed_row_keeps_its_reason_in_every_rendering() {
        let mut rows = vec![row(Variant::BASELINE, 100, 2.0)];
        rows.push(Row::empty(
            Variant::named("auto-halve"),
            "auto-halve",
            RowStatus::Failed("exit 1: boom".into()),
        ));
        let c = Comparison::new("cpu".into(), vec![], false, rows);
        assert!(c.to_terminal().contains("auto-halve: exit 1: boom."));
        assert!(c.to_text_file().contains("failed: exit 1: boom"));
        assert!(c.to_markdown().contains("failed: exit 1: boom"));
        assert!(c.to_csv().unwrap().contains("failed: exit 1: boom"));
        assert!(c.to_terminal().contains("HOST"));
    }

    #[test]
    fn the_brief_table_keeps_seven_columns_and_drops_the_advice() {
        let mut failed = row(Variant::BASELINE, 100, 1.0);
        failed.status = RowStatus::OutOfMemory("try --strategy auto-halve".into());
        let c = Comparison::new("cpu".into(), vec![], true, vec![failed]);
        let brief = c.to_terminal_brief();
        let header = brief.lines().find(|l| l.contains("strategy")).unwrap_or("");
        assert_eq!(header.matches('┆').count(), 6, "{brief}");
        assert!(brief.contains("OOM (SIMULATED) [1]"), "{brief}");
        // The advice leaves the table for the note under it.
        let table_end = brief.rfind('┘').unwrap_or(0);
        assert!(!brief[..table_end].contains("try --strategy"), "{brief}");
        assert!(
            brief[table_end..].contains("[1] baseline: try --strategy auto-halve."),
            "{brief}"
        );
        assert!(
            brief.starts_with("OOMs in this table are SIMULATED"),
            "{brief}"
        );
    }

    #[test]
    fn csv_has_one_line_per_row_and_raw_numbers() {
        let c = Comparison::new(
            "cpu".into(),
            vec![],
            false,
            vec![row(Variant::BASELINE, 1234, 0.5)],
        );
        let csv = c.to_csv().unwrap();
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 2);
        assert!(
            lines[1].starts_with("baseline,,,,host,1234,"),
            "{}",
            lines[1]
        );
    }

    #[test]
    fn a_simulated_comparison_says_so_in_every_rendering() {
        let oom = Row {
            oom_retries: 2,
            ..Row::empty(
                Variant::BASELINE,
                "baseline",
                RowStatus::OutOfMemory("gave up at micro-batch 1".into()),
            )
        };
        let c = Comparison::new("cpu".into(), vec![], true, vec![oom]);
        assert!(c.to_terminal().contains("SIMULATED"));
        assert!(c.to_markdown().contains("SIMULATED"));
        assert!(c.to_csv().unwrap().contains("SIMULATED"));
        let json = serde_json::to_string(&c).unwrap();
        let back: Comparison = serde_json::from_str(&json).unwrap();
        assert_eq!(back, c);
        assert!(back.simulated);
    }
}
