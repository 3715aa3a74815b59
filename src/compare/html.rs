//! The one-page HTML report of a comparison: the table, memory over time for every row
//! (step boundaries marked), each run's memory by phase and its reconciliation, and the
//! explain text of each technique. One self-contained file: styles, chart and script are
//! inline and nothing is fetched when it is viewed, so it works offline in a lecture hall.

use std::fmt::Write;

use serde_json::Value;

use super::{Comparison, Series};
use crate::text::html_escape as esc;
use crate::units::Bytes;

/// What the report shows of one run beyond its table row, read from its `summary.json`.
#[derive(Debug, Clone, Default)]
pub struct RunDetail {
    /// The row's name.
    pub name: String,
    /// The run's summary, as written (read leniently: older summaries lack fields).
    pub summary: Option<Value>,
    /// `oomlab explain` for the row's technique.
    pub explain: Option<String>,
}

use super::plot::COLORS;

/// The chart: one polyline per series (class `series`), a tick at every step boundary.
fn chart(series: &[Series], y_label: &str, budget: Option<Bytes>) -> String {
    let (w, h, left, right, top, bottom) = (960.0, 420.0, 80.0, 20.0, 16.0, 44.0);
    let (x_max, y_max) = super::plot::bounds(series, budget);
    let x = |t: f64| left + (w - left - right) * t / x_max;
    let y = |mib: f64| top + (h - top - bottom) * (1.0 - mib / y_max);
    let mut s = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="100%" role="img" aria-label="memory over time">"#
    );
    for i in 0..=5 {
        let v = y_max * f64::from(i) / 5.0;
        let _ = write!(
            s,
            r##"<line x1="{left}" x2="{}" y1="{yy:.1}" y2="{yy:.1}" stroke="#ddd"/><text x="{}" y="{:.1}" text-anchor="end" font-size="11">{v:.0}</text>"##,
            w - right,
            left - 6.0,
            y(v) + 4.0,
            yy = y(v),
        );
    }
    // A label at each step's start (at most about 20 of them).
    let every = ((x_max / 20.0).ceil() as usize).max(1);
    for k in (0..=x_max as usize).step_by(every) {
        let _ = write!(
            s,
            r#"<text x="{:.1}" y="{}" text-anchor="middle" font-size="11">{}</text>"#,
            x(k as f64),
            h - bottom + 16.0,
            k + 1
        );
    }
    let _ = write!(
        s,
        r#"<text x="{}" y="{}" text-anchor="middle" font-size="12">{}</text><text x="14" y="{}" font-size="12" transform="rotate(-90 14 {})" text-anchor="middle">{}</text>"#,
        (left + w - right) / 2.0,
        h - 6.0,
        esc(super::plot::X_TITLE),
        h / 2.0,
        h / 2.0,
        esc(y_label)
    );
    if let Some(b) = budget {
        let yy = y(b.mib());
        let _ = write!(
            s,
            r##"<line class="budget" x1="{left}" x2="{}" y1="{yy:.1}" y2="{yy:.1}" stroke="#000" stroke-dasharray="6 4"/><text x="{}" y="{:.1}" text-anchor="end" font-size="11">budget {}</text>"##,
            w - right,
            w - right - 4.0,
            yy - 4.0,
            esc(&b.to_string())
        );
    }
    for (i, ser) in series.iter().enumerate() {
        let color = COLORS[i % COLORS.len()];
        let stride = (ser.points.len() / 1500).max(1);
        let pts: Vec<String> = ser
            .points
            .iter()
            .step_by(stride)
            .map(|p| format!("{:.1},{:.1}", x(p.0), y(Bytes(p.1).mib())))
            .collect();
        let name = esc(&ser.label);
        let _ = write!(
            s,
            r#"<g data-name="{name}"><polyline class="series" data-name="{name}" fill="none" stroke="{color}" stroke-width="1.6" points="{}"/>"#,
            pts.join(" ")
        );
        let mut last = None;
        for p in &ser.points {
            if p.2.is_some() && p.2 != last {
                let (px, py) = (x(p.0), y(Bytes(p.1).mib()));
                let _ = write!(
                    s,
                    r#"<line class="step-mark" x1="{px:.1}" x2="{px:.1}" y1="{:.1}" y2="{:.1}" stroke="{color}"/>"#,
                    py - 5.0,
                    py + 5.0
                );
            }
            last = p.2.or(last);
        }
        s.push_str("</g>");
    }
    s.push_str("</svg>");
    s
}

/// The comparison's table: one column per run when there are few runs (it then fits a
/// projector's width without breaking words), else one row per run; every measure's
/// header carries its meaning as a tooltip.
fn comparison_table(cmp: &Comparison) -> String {
    let headers = cmp.headers();
    let notes = cmp.column_notes();
    let cells = cmp.cells();
    let note = |i: usize| notes.get(i).map(|n| esc(n)).unwrap_or_default();
    let mut s = String::new();
    if cells.len() <= 7 {
        s.push_str("<table class=\"runs\"><thead><tr><th></th>");
        for r in &cells {
            let _ = write!(s, "<th>{}</th>", esc(&r[0]));
        }
        s.push_str("</tr></thead><tbody>");
        for (i, h) in headers.iter().enumerate().skip(1) {
            let _ = write!(s, "<tr><th title=\"{}\">{}</th>", note(i), esc(h));
            for r in &cells {
                let _ = write!(s, "<td>{}</td>", esc(r.get(i).map_or("", |c| c)));
            }
            s.push_str("</tr>");
        }
        s.push_str("</tbody></table>");
    } else {
        s.push_str("<div class=\"fit\"><table><thead><tr>");
        for (i, h) in headers.iter().enumerate() {
            let _ = write!(s, "<th title=\"{}\">{}</th>", note(i), esc(h));
        }
        s.push_str("</tr></thead><tbody>");
        for r in &cells {
            s.push_str("<tr>");
            for c in r {
                let _ = write!(s, "<td>{}</td>", esc(c));
            }
            s.push_str("</tr>");
        }
        s.push_str("</tbody></table></div>");
    }
    s.push_str("<details><summary>What each measure means</summary><dl>");
    for (h, n) in headers.iter().zip(&notes) {
        let _ = write!(s, "<dt>{}</dt><dd>{}</dd>", esc(h), esc(n));
    }
    s.push_str("</dl></details>");
    s
}

/// The shared arguments as typed, with each byte count also in its unit.
fn shown_args(args: &[String]) -> String {
    let mut out = Vec::new();
    let mut after_size = false;
    for a in args {
        match (after_size, a.parse::<u64>()) {
            (true, Ok(n)) => out.push(format!("{a} ({})", Bytes(n))),
            _ => out.push(a.clone()),
        }
        after_size = a.ends_with("-budget");
    }
    out.join(" ")
}

fn table(headers: &[String], rows: &[Vec<String>]) -> String {
    let mut s = String::from("<table><thead><tr>");
    for h in headers {
        let _ = write!(s, "<th>{}</th>", esc(h));
    }
    s.push_str("</tr></thead><tbody>");
    for r in rows {
        s.push_str("<tr>");
        for c in r {
            let _ = write!(s, "<td>{}</td>", esc(c));
        }
        s.push_str("</tr>");
    }
    s.push_str("</tbody></table>");
    s
}

fn bytes_cell(v: &Value) -> String {
    v.as_u64()
        .map(|b| Bytes(b).to_string())
        .unwrap_or_else(|| "-".into())
}

/// One run's step by category, measured beside predicted (nothing for a run whose summary
/// has none).
fn anatomy(d: &RunDetail, budget: Option<Bytes>) -> Option<String> {
    let a = d.summary.as_ref().and_then(|v| {
        serde_json::from_value::<crate::results::StepAnatomy>(v["anatomy"].clone()).ok()
    })?;
    Some(format!(
        "<h3>{}</h3>{}",
        esc(&d.name),
        crate::render::anatomy_svg(&a, budget)
    ))
}

/// Memory by phase and the reconciliation of one run.
fn detail(d: &RunDetail) -> String {
    let mut s = format!("<details><summary>{}</summary>", esc(&d.name));
    if let Some(sum) = &d.summary {
        let m = &sum["memory"];
        if let Some(phases) = m["phases"].as_object() {
            let rows: Vec<Vec<String>> = ["forward", "backward", "optimizer"]
                .iter()
                .filter_map(|p| phases.get(*p).map(|v| (p, v)))
                .map(|(p, v)| {
                    vec![
                        p.to_string(),
                        bytes_cell(&v["in_use"]),
                        bytes_cell(&v["reserved"]),
                    ]
                })
                .collect();
            if !rows.is_empty() {
                s.push_str("<h4>Allocator at the end of each phase (highest over the run): up in the forward pass, down in the backward pass</h4>");
                s.push_str(&table(
                    &["phase".into(), "in use".into(), "reserved".into()],
                    &rows,
                ));
            }
        }
        if let Some(lines) = m["reconciliation"].as_array() {
            let rows: Vec<Vec<String>> = lines
                .iter()
                .map(|l| {
                    vec![
                        l["label"].as_str().unwrap_or("").to_string(),
                        bytes_cell(&l["bytes"]),
                        l["explanation"].as_str().unwrap_or("").to_string(),
                    ]
                })
                .collect();
            s.push_str("<h4>How the end-of-run figures add up</h4>");
            s.push_str(&table(
                &["".into(), "bytes".into(), "what it is".into()],
                &rows,
            ));
        }
    }
    if let Some(e) = &d.explain {
        // The technique only: the explain text's measured part is other runs', and this
        // page is about these.
        let own = e
            .split("\nMeasured by oomlab")
            .next()
            .unwrap_or(e)
            .trim_end();
        let _ = write!(
            s,
            "<h4>The technique</h4><pre>{}</pre><p><small>Other runs' measurements of it: <code>oomlab explain {}</code>.</small></p>",
            esc(own),
            esc(&d.name)
        );
    }
    s.push_str("</details>");
    s
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:1100px;padding:0 1rem;color:#222}
table{border-collapse:collapse;font-size:13px;margin:.5rem 0}td,th{border:1px solid #ccc;padding:3px 6px;text-align:left}
th{background:#f3f3f3}.runs th[title]{cursor:help;text-align:left;font-weight:600}.runs td,.runs th{font-size:12px}dt{font-weight:600;font-size:13px}dd{font-size:13px;margin:0 0 .3rem 1rem}.sim{background:#fff3cd;padding:.5rem;border:1px solid #e0c36a}pre{white-space:pre-wrap;font-size:13px}
#legend label{margin-right:1rem;font-size:14px}.wide{overflow-x:auto}.fit table{width:100%;table-layout:fixed;font-size:11px}.fit td,.fit th{overflow-wrap:break-word;vertical-align:top;padding:2px 3px}.fit th:last-child{width:20%}details{margin:.4rem 0}summary{cursor:pointer;font-weight:600}";

const SCRIPT: &str = "(function(){
var boxes=document.querySelectorAll('#legend input');
for(var i=0;i<boxes.length;i++){boxes[i].addEventListener('change',function(e){
var name=e.target.getAttribute('data-series');var g=document.querySelectorAll('svg g[data-name]');
for(var j=0;j<g.length;j++){if(g[j].getAttribute('data-name')===name){g[j].style.display=e.target.checked?'':'none';}}});}
document.body.setAttribute('data-series',String(document.querySelectorAll('svg .series').length));
document.body.setAttribute('data-ready','1');
})();";

/// What a report page shows: a comparison's rows, or one `oomlab train` run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Page {
    /// `oomlab compare`'s folder: one row per strategy, each in its own process.
    Compare,
    /// One run's folder (`oomlab report RUN_DIR`): a single row.
    Run,
}

/// The whole page.
pub fn report_html(
    page: Page,
    cmp: &Comparison,
    series: &[Series],
    details: &[RunDetail],
) -> String {
    let gpu = cmp.memory_kind == Some(crate::words::MemoryKind::Gpu);
    let what = if gpu { "VRAM" } else { "HOST memory" };
    let y_label = super::plot::y_label(gpu, series);
    let mut s = String::from("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">");
    let device = esc(&cmp.device);
    match page {
        Page::Compare => {
            let _ = write!(
                s,
                "<title>oomlab compare: {device}</title><style>{STYLE}</style></head><body>\
                 <h1>oomlab compare on {device}</h1><p>Memory is {what}. Arguments shared by every row: <code>{}</code>. Each row ran in its own process.</p>",
                esc(&shown_args(&cmp.common_args))
            );
        }
        Page::Run => {
            let name = cmp
                .rows
                .first()
                .map(|r| esc(&r.run_dir))
                .unwrap_or_default();
            let _ = write!(
                s,
                "<title>oomlab run: {name} on {device}</title><style>{STYLE}</style></head><body>\
                 <h1>oomlab run: {name} on {device}</h1><p>Memory is {what}. One <code>oomlab train</code> run, read from its folder (its config.toml says how it was set up).</p>"
            );
        }
    }
    if cmp.simulated {
        s.push_str("<p class=\"sim\">The out-of-memory failures on this page are SIMULATED: --memory-budget on the CPU makes crossing a host-heap budget count as an out-of-memory failure; nothing ran out of memory.</p>");
    }
    s.push_str("<h2>The table</h2><div class=\"wide\">");
    s.push_str(&comparison_table(cmp));
    s.push_str("</div>");
    let (lines, untick) = match page {
        Page::Compare => (
            "Each line is one row's process,",
            " Untick a row to hide it.",
        ),
        Page::Run => ("The line is the run's process,", ""),
    };
    let _ = write!(
        s,
        "<h2>{what} over time</h2><p>{lines} step by step: each optimizer step is one unit wide however long it took (a first step on a GPU is mostly kernel compilation), and a tick marks its first sample.{}{untick}</p><div id=\"legend\">",
        if cmp.budget().is_some() {
            " The dashed line is the budget."
        } else {
            ""
        }
    );
    for (i, ser) in series.iter().enumerate() {
        let name = esc(&ser.label);
        let _ = write!(
            s,
            "<label><input type=\"checkbox\" checked data-series=\"{name}\"><span style=\"color:{}\">&#9632;</span> {name}</label>",
            COLORS[i % COLORS.len()]
        );
    }
    s.push_str("</div>");
    s.push_str(&chart(series, y_label, cmp.budget()));
    let charts: Vec<String> = details
        .iter()
        .filter_map(|d| anatomy(d, cmp.budget()))
        .collect();
    if !charts.is_empty() {
        s.push_str("<h2>One step's memory by category</h2><p>For each run, one training step read at its phase boundaries: the pale dashed bars are what <code>oomlab estimate</code> predicted, the solid ones what was measured. Weights, gradients, optimizer state and the AMP copy are known from the parameters; the activations are the bytes in use less those. Hover a block for its size. The estimate's peak is inside the backward pass, between two boundaries.</p>");
        for c in charts {
            s.push_str(&c);
        }
    }
    s.push_str("<h2>Each run</h2>");
    for d in details {
        s.push_str(&detail(d));
    }
    let _ = writeln!(
        s,
        "<p><small>oomlab {} (schema {}). Regenerate with <code>oomlab report FOLDER</code>.</small></p><script>{SCRIPT}</script></body></html>",
        esc(&cmp.oomlab_version),
        cmp.schema_version
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::{Row, RowStatus, Variant};

    #[test]
    fn the_page_has_one_series_per_row_and_fetches_nothing() {
        let rows = vec![
            Row::empty(Variant::BASELINE, "baseline", RowStatus::Completed),
            Row::empty(
                Variant::named("grad-accum"),
                "grad-accum",
                RowStatus::Completed,
            ),
        ];
        let cmp = Comparison::new("cpu".into(), vec![], true, rows);
        let series = vec![
            Series {
                label: "baseline".into(),
                points: vec![(0.0, 1 << 20, Some(0)), (1.0, 3 << 20, Some(1))],
                heap: false,
            },
            Series {
                label: "grad-accum".into(),
                points: vec![(0.0, 1 << 20, Some(0))],
                heap: false,
            },
        ];
        let html = report_html(Page::Compare, &cmp, &series, &[]);
        assert_eq!(html.matches("class=\"series\"").count(), 2);
        assert_eq!(html.matches("class=\"step-mark\"").count(), 3);
        assert!(html.contains("SIMULATED"));
        // Self-contained: no script, style or image is loaded from anywhere.
        for needle in ["src=\"http", "href=\"http", "@import", "url("] {
            assert!(!html.contains(needle), "{needle}");
        }
    }

    #[test]
    fn text_from_runs_is_escaped() {
        assert_eq!(esc("<b>&\""), "&lt;b&gt;&amp;&quot;");
    }
}
