//! One step's memory by category ([`StepAnatomy`]), drawn: as letter bars for the
//! terminal (the lesson, `summary.txt`) and as a stacked SVG chart for report.html. Each
//! phase boundary gets two bars, the estimate's prediction and the measurement.

use std::fmt::Write;

use super::labels::{write_all as write_labels, Label};
use crate::results::anatomy::total;
use crate::results::{Category, Slice, StepAnatomy, StepPoint};
use crate::text::{html_escape as esc, wrap_to, Width, PROSE_WIDTH};
use crate::units::Bytes;

/// What the bars are of.
fn what(a: &StepAnatomy) -> &'static str {
    match a.on_host() {
        true => "host heap in use",
        false => "NVML process VRAM",
    }
}

fn heading(a: &StepAnatomy) -> String {
    match a.step {
        Some(step) => format!(
            "One step's memory by category ({}; step {} at {}{}): predicted by oomlab estimate, measured at the phase boundaries",
            what(a),
            step + 1,
            a.plan,
            a.plan
                .short_last()
                .map(|l| format!(", read during its last micro-batch of {l}"))
                .unwrap_or_default()
        ),
        None => format!(
            "One step's memory by category ({}; predicted for {}): the step it reads (the run's second, or its only one) did not complete, so nothing was measured",
            what(a),
            a.plan
        ),
    }
}

/// The largest figure either chart draws: the budget, every stack's total, every peak.
fn top_of(a: &StepAnatomy, measured: &[(StepPoint, Vec<Slice>)], budget: Option<Bytes>) -> Bytes {
    let stacks = a.predicted.iter().map(|p| total(&p.stack));
    let peaks = StepPoint::ALL
        .iter()
        .flat_map(|&at| [a.predicted_peak(at), a.measured_peak(at)]);
    stacks
        .chain(measured.iter().map(|(_, s)| total(s)))
        .chain(peaks.flatten())
        .chain(budget)
        .max()
        .unwrap_or(Bytes(0))
}

/// One bar of `width` characters for `stack`, scaled so that `max` fills it.
fn bar(stack: &[Slice], max: Bytes, width: usize) -> String {
    let mut out = String::new();
    let mut used = 0.0f64;
    for s in stack {
        let cells = s.bytes.0 as f64 / max.0.max(1) as f64 * width as f64;
        // Cumulative rounding keeps the bar's length true to the total.
        let before = used.round() as usize;
        used += cells;
        let n = (used.round() as usize).saturating_sub(before);
        out.extend(std::iter::repeat_n(s.category.letter(), n));
    }
    out
}

/// The terminal chart: per phase boundary, the predicted and the measured bar, with the
/// totals, and a key of the letters used, laid out for `width` (the bars shrink to fit,
/// at most 50 cells). `budget` is drawn as a `|` where it falls.
pub fn anatomy_text(a: &StepAnatomy, budget: Option<Bytes>, indent: &str, width: Width) -> String {
    let measured = a.measured_stacks();
    let max = top_of(a, &measured, budget);
    // indent, two spaces, the phase (15), a space, predicted/measured (9), a space, the
    // bar, a space, the total and the peak inside the phase (up to 26).
    let fixed = indent.chars().count() + 2 + 15 + 1 + 9 + 1 + 1 + 26;
    let bar_cells = width
        .columns()
        .map_or(50, |c| c.saturating_sub(fixed))
        .clamp(10, 50);
    let columns = width.columns().unwrap_or(PROSE_WIDTH).min(PROSE_WIDTH);
    let mut out = wrap_to(&heading(a), indent, columns);
    let mark =
        budget.map(|b| (b.0 as f64 / max.0.max(1) as f64 * bar_cells as f64).round() as usize);
    let line = |phase: &str, side: &str, stack: &[Slice], peak: Option<Bytes>, out: &mut String| {
        let mut b = bar(stack, max, bar_cells);
        let len = b.chars().count();
        if let Some(m) = mark {
            if m >= len {
                b.push_str(&" ".repeat(m - len));
                b.push('|');
            } else {
                b = b
                    .chars()
                    .enumerate()
                    .map(|(i, c)| if i == m { '|' } else { c })
                    .collect();
            }
        }
        let peak = peak
            .filter(|p| p.0 as f64 > total(stack).0 as f64 * 1.01)
            .map(|p| format!(", peak {p}"))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "{indent}  {phase:<15} {side:<9} {b:<w$} {}{peak}",
            total(stack),
            w = bar_cells + 1
        );
    };
    let mut used: Vec<Category> = Vec::new();
    for at in StepPoint::ALL {
        let p = a.predicted_stack(at);
        let m = measured.iter().find(|(x, _)| *x == at).map(|(_, s)| s);
        if p.is_none() && m.is_none() {
            continue;
        }
        for s in p.into_iter().flatten().chain(m.into_iter().flatten()) {
            if s.bytes.0 > 0 && !used.contains(&s.category) {
                used.push(s.category);
            }
        }
        let mut phase = at.label();
        if let Some(p) = p {
            line(phase, "predicted", p, a.predicted_peak(at), &mut out);
            phase = "";
        }
        if let Some(m) = m {
            line(phase, "measured", m, a.measured_peak(at), &mut out);
        }
    }
    let mut key: Vec<String> = Category::ALL
        .iter()
        .filter(|c| used.contains(c))
        .map(|c| format!("{} {}", c.letter(), c.label()))
        .collect();
    key.push("peak: the highest inside the phase".into());
    if let Some(b) = budget {
        key.push(format!("| the budget, {b}"));
    }
    let key_indent = format!("{indent}  ");
    out.push_str(&wrap_to(&key.join(", "), &key_indent, columns));
    out
}

/// Colours of the categories, in [`Category::ALL`]'s order.
const COLORS: [&str; 8] = [
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#bab0ac", "#9c755f",
];

fn color(c: Category) -> &'static str {
    let i = Category::ALL.iter().position(|x| *x == c).unwrap_or(0);
    COLORS[i]
}

/// The SVG chart: for every phase boundary a predicted (hatched outline) and a measured
/// bar, stacked by category, with a legend, the totals above the bars and the budget as a
/// dashed line. Each rectangle's tooltip names its category and size.
pub fn anatomy_svg(a: &StepAnatomy, budget: Option<Bytes>) -> String {
    let measured = a.measured_stacks();
    let max = top_of(a, &measured, budget);
    let max = max.0.max(1) as f64 * 1.1;
    let (w, h, left, top, bottom) = (760.0, 330.0, 70.0, 20.0, 60.0);
    let plot_h = h - top - bottom;
    let y = |b: u64| top + plot_h - b as f64 / max * plot_h;
    let group_w = (w - left - 20.0) / 4.0;
    let bar_w = group_w * 0.3;
    let mut s = format!(
        "<svg class=\"anatomy\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {}\" width=\"100%\" style=\"max-width:760px\" role=\"img\" aria-label=\"{}\">",
        h + 40.0, // room for two legend rows
        esc(&heading(a))
    );
    // The y axis: four gridlines.
    for i in 0..=4 {
        let v = (max / 1.1) * i as f64 / 4.0;
        let yy = y(v as u64);
        let _ = write!(
            s,
            "<line x1=\"{left}\" x2=\"{}\" y1=\"{yy:.1}\" y2=\"{yy:.1}\" stroke=\"#ddd\"/><text x=\"{}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"end\">{}</text>",
            w - 10.0,
            left - 4.0,
            yy + 4.0,
            Bytes(v as u64)
        );
    }
    // The totals and peaks above the bars, placed at the end so that none covers another.
    let mut labels: Vec<Label> = Vec::new();
    let stack_rects = |s: &mut String,
                       labels: &mut Vec<Label>,
                       x: f64,
                       stack: &[Slice],
                       peak: Option<Bytes>,
                       predicted: bool| {
        let mut base = 0u64;
        for sl in stack.iter().filter(|sl| sl.bytes.0 > 0) {
            let (y0, y1) = (y(base), y(base + sl.bytes.0));
            let style = if predicted {
                format!(
                    "fill=\"{}\" fill-opacity=\"0.35\" stroke=\"{}\" stroke-dasharray=\"3 2\"",
                    color(sl.category),
                    color(sl.category)
                )
            } else {
                format!("fill=\"{}\" stroke=\"#fff\"", color(sl.category))
            };
            let _ = write!(
                s,
                "<rect x=\"{x:.1}\" y=\"{y1:.1}\" width=\"{bar_w:.1}\" height=\"{:.1}\" {style}><title>{}: {} {}</title></rect>",
                (y0 - y1).max(0.0),
                if predicted { "predicted" } else { "measured" },
                sl.category.label(),
                sl.bytes
            );
            base += sl.bytes.0;
        }
        if let Some(p) = peak.filter(|p| p.0 as f64 > base as f64 * 1.01) {
            let (yp, yb) = (y(p.0), y(base));
            let _ = write!(
                s,
                "<g class=\"peak\"><line x1=\"{:.1}\" x2=\"{:.1}\" y1=\"{yp:.1}\" y2=\"{yp:.1}\" stroke=\"#222\" stroke-width=\"2\"/><line x1=\"{:.1}\" x2=\"{:.1}\" y1=\"{yp:.1}\" y2=\"{yb:.1}\" stroke=\"#222\" stroke-dasharray=\"2 2\"/><title>{}: highest inside the phase {p}</title></g>",
                x - 2.0,
                x + bar_w + 2.0,
                x + bar_w / 2.0,
                x + bar_w / 2.0,
                if predicted { "predicted" } else { "measured" },
            );
            labels.push(Label {
                x: x + bar_w / 2.0,
                y: yp - 3.0,
                size: 10.0,
                text: format!("peak {p}"),
            });
        }
        labels.push(Label {
            x: x + bar_w / 2.0,
            y: y(base) - 3.0,
            size: 10.0,
            text: Bytes(base).to_string(),
        });
    };
    let mut used: Vec<Category> = Vec::new();
    for (i, at) in StepPoint::ALL.iter().enumerate() {
        let x0 = left + group_w * i as f64 + group_w * 0.15;
        if let Some(p) = a.predicted_stack(*at) {
            let peak = a
                .predicted
                .iter()
                .find(|x| x.at == *at)
                .and_then(|x| x.peak);
            stack_rects(&mut s, &mut labels, x0, p, peak, true);
            used.extend(p.iter().filter(|x| x.bytes.0 > 0).map(|x| x.category));
        }
        if let Some((_, m)) = measured.iter().find(|(x, _)| x == at) {
            let peak = a.measured_peak(*at);
            stack_rects(&mut s, &mut labels, x0 + bar_w + 4.0, m, peak, false);
            used.extend(m.iter().filter(|x| x.bytes.0 > 0).map(|x| x.category));
        }
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\" text-anchor=\"middle\">{}</text><text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\" text-anchor=\"middle\" fill=\"#555\">predicted | measured</text>",
            x0 + bar_w + 2.0,
            top + plot_h + 16.0,
            at.label(),
            x0 + bar_w + 2.0,
            top + plot_h + 30.0
        );
    }
    write_labels(&mut s, labels);
    if let Some(b) = budget {
        let yy = y(b.0);
        let _ = write!(
            s,
            "<line x1=\"{left}\" x2=\"{}\" y1=\"{yy:.1}\" y2=\"{yy:.1}\" stroke=\"#c00\" stroke-dasharray=\"6 3\"/><text x=\"{}\" y=\"{:.1}\" font-size=\"11\" fill=\"#c00\" text-anchor=\"end\">budget {b}</text>",
            w - 10.0,
            w - 12.0,
            yy - 4.0
        );
    }
    // The legend under the axis labels, in as many rows as it needs.
    let (mut x, mut row) = (left, 0.0);
    for c in Category::ALL.iter().filter(|c| used.contains(c)) {
        let item = 18.0 + c.label().len() as f64 * 6.5;
        if x + item > w && x > left {
            x = left;
            row += 16.0;
        }
        let _ = write!(
            s,
            "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"10\" height=\"10\" fill=\"{}\"/><text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\">{}</text>",
            h + 4.0 + row,
            color(*c),
            x + 13.0,
            h + 13.0 + row,
            c.label()
        );
        x += item;
    }
    s.push_str("</svg>");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::{PointPrediction, PointReading};
    use crate::strategy::StepPlan;

    fn anatomy() -> StepAnatomy {
        let slice = |category, b: u64| Slice {
            category,
            bytes: Bytes(b << 20),
        };
        StepAnatomy {
            step: Some(1),
            plan: StepPlan::even(32, 1),
            in_use_source: "host heap".into(),
            process_source: "rss".into(),
            measured: vec![
                PointReading {
                    at: StepPoint::Start,
                    in_use: Some(Bytes(4 << 20)),
                    reserved: None,
                    process: Some(Bytes(30 << 20)),
                    peak: None,
                    known: vec![slice(Category::Weights, 1)],
                },
                PointReading {
                    at: StepPoint::Forward,
                    in_use: Some(Bytes(24 << 20)),
                    reserved: None,
                    process: Some(Bytes(40 << 20)),
                    peak: Some(Bytes(30 << 20)),
                    known: vec![slice(Category::Weights, 1)],
                },
            ],
            predicted: vec![PointPrediction {
                at: StepPoint::Forward,
                stack: vec![
                    slice(Category::Weights, 1),
                    slice(Category::Activations, 18),
                    slice(Category::Runtime, 3),
                ],
                peak: None,
            }],
        }
    }

    #[test]
    fn the_terminal_bars_are_as_long_as_their_totals_and_say_what_the_letters_are() {
        let text = anatomy_text(&anatomy(), Some(Bytes(20 << 20)), "", Width::Unlimited);
        // The forward pass's measured bar: the line after its predicted one.
        let fwd = text
            .lines()
            .skip_while(|l| !l.contains("after forward"))
            .find(|l| l.contains("measured "))
            .unwrap();
        // 24 MiB of a 30 MiB maximum (the peak inside the phase): 40 of the 50 cells,
        // the budget's mark inside.
        let bar = fwd.split_whitespace().find(|t| t.starts_with('W')).unwrap();
        assert_eq!(bar.chars().count(), 40, "{fwd}");
        assert!(fwd.contains("peak 30.0 MiB"), "{fwd}");
        assert!(fwd.contains('|') && fwd.contains("24.0 MiB"), "{fwd}");
        assert!(text.contains("A activations and temporaries"), "{text}");
        assert!(text.contains("the budget, 20.0 MiB"), "{text}");
    }

    #[test]
    fn the_chart_fits_a_narrow_terminal() {
        for columns in [80, 100] {
            let text = anatomy_text(
                &anatomy(),
                Some(Bytes(20 << 20)),
                "  ",
                Width::Columns(columns),
            );
            assert!(
                text.lines().all(|l| l.chars().count() <= columns),
                "{columns}:\n{text}"
            );
        }
    }

    #[test]
    fn the_svg_has_a_bar_per_reading_and_prediction_and_names_each_rectangle() {
        let svg = anatomy_svg(&anatomy(), Some(Bytes(20 << 20)));
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
        assert!(
            svg.contains("<title>measured: activations and temporaries 20.0 MiB</title>"),
            "{svg}"
        );
        assert!(
            svg.contains("<title>predicted: activations and temporaries 18.0 MiB</title>"),
            "{svg}"
        );
        assert!(svg.contains("budget 20.0 MiB"));
    }
}
