//! Terminal rendering of a [`RunSummary`].

use comfy_table::{presets::UTF8_FULL_CONDENSED, ContentArrangement, Table};

use super::summary::{RunSummary, StopReason};
use crate::units::fmt_duration;

fn opt<T>(v: Option<T>, f: impl Fn(T) -> String) -> String {
    v.map(f).unwrap_or_else(|| "n/a".into())
}

/// The summary as a two-column table for the terminal.
pub fn render_summary(s: &RunSummary) -> String {
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_header(vec!["oomlab run", ""]);
    let secs = |x: f64| fmt_duration(std::time::Duration::from_secs_f64(x));
    let rows: Vec<(&str, String)> = vec![
        ("strategy", s.strategy.name().to_string()),
        (
            "batch",
            format!(
                "{} micro-batch x {} accumulation = {} samples per optimizer step",
                s.plan.micro_batch, s.plan.accumulation, s.effective_batch
            ),
        ),
        (
            "device",
            format!("{} ({})", s.device.label, s.device.backend),
        ),
        (
            "model",
            format!(
                "{:?} d_model={} layers={} heads={} d_ff={} seq_len={}",
                s.model.kind,
                s.model.d_model,
                s.model.n_layers,
                s.model.n_heads,
                s.model.d_ff,
                s.model.seq_len
            )
            .to_lowercase(),
        ),
        (
            "parameters",
            format!(
                "{} ({}, dtype read from the tensors: {})",
                s.params.count,
                s.params.bytes,
                s.params.dtypes.join(", ")
            ),
        ),
        ("data", format!("{} (vocab {})", s.data, s.vocab)),
        (
            "steps",
            format!(
                "{} of {}{}",
                s.steps_completed,
                s.steps_planned,
                match &s.stop {
                    StopReason::Completed => String::new(),
                    StopReason::Interrupted => " (interrupted by Ctrl-C)".into(),
                    StopReason::Failed(m) => format!(" (failed: {m})"),
                }
            ),
        ),
        (
            "loss",
            format!(
                "{} -> {}",
                opt(s.first_loss, |l| format!("{l:.4}")),
                opt(s.final_loss, |l| format!("{l:.4}"))
            ),
        ),
        ("time to first step", opt(s.time_to_first_step_s, secs)),
        ("steady step", opt(s.steady_step_s, secs)),
        ("samples/s", opt(s.samples_per_s, |x| format!("{x:.1}"))),
        ("wall time", secs(s.wall_s)),
        ("host peak RSS", opt(s.host_peak_rss, |b| b.to_string())),
    ];
    for (k, v) in rows {
        t.add_row(vec![k.to_string(), v]);
    }
    t.to_string()
}
