//! Memory over time for every strategy on one chart (SVG, plotters), with a marker at
//! every step boundary.

use plotters::prelude::*;

use crate::units::Bytes;

/// The series' colours, in row order, in memory.svg and in report.html's chart alike (a
/// lecturer showing both sees each row in one colour).
pub(super) const COLORS: [&str; 12] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf", "#393b79", "#637939",
];

/// Series `i`'s colour for plotters.
fn color(i: usize) -> RGBColor {
    let hex = COLORS[i % COLORS.len()];
    let byte = |k: usize| u8::from_str_radix(&hex[k..k + 2], 16).unwrap_or(0);
    RGBColor(byte(1), byte(3), byte(5))
}

/// One strategy's memory samples: `(position, bytes, step)`, the position in optimizer
/// steps from the start of the first one (step 3 half done: 2.5).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Series {
    /// Legend label.
    pub label: String,
    /// Samples in time order.
    pub points: Vec<(f64, u64, Option<u64>)>,
    /// The bytes are the host heap (a CPU run under --memory-budget, whose budget is on
    /// the heap), not the process figure.
    pub heap: bool,
}

impl Series {
    /// Reads a run's `memory.csv` (`t_s,step,in_use_bytes,process_bytes,device_used_bytes`):
    /// the process column (NVML VRAM or RSS), or `in_use` where the process is unknown or
    /// `heap` asks for it; placed on the step axis.
    pub fn from_memory_csv(label: &str, csv_text: &str, heap: bool) -> Self {
        let points = crate::probe::read_memory_csv(csv_text)
            .into_iter()
            .filter_map(|r| {
                let bytes = if heap {
                    r.in_use_bytes.or(r.process_bytes)
                } else {
                    r.process_bytes.or(r.in_use_bytes)
                };
                Some((r.t_s, bytes?, r.step.map(|s| s as u64)))
            })
            .collect();
        Self {
            label: label.to_string(),
            points,
            heap,
        }
        .on_step_axis()
    }

    /// Seconds to steps: each step's samples spread evenly over its own unit of width, so
    /// that a first step of mostly kernel compilation is as wide as the others and every
    /// step's rise and fall can be seen. Samples before the first step (setup, loading)
    /// are cut; the last step's width is the median step's duration.
    fn on_step_axis(mut self) -> Self {
        let Some(first) = self.points.iter().position(|p| p.2.is_some()) else {
            return self;
        };
        self.points.drain(..first);
        // Where each step's samples begin, in order of appearance.
        let mut starts: Vec<(u64, f64)> = Vec::new();
        for p in &self.points {
            if let Some(s) = p.2 {
                if starts.last().is_none_or(|l| l.0 != s) {
                    starts.push((s, p.0));
                }
            }
        }
        let mut durations: Vec<f64> = starts.windows(2).map(|w| w[1].1 - w[0].1).collect();
        durations.sort_by(f64::total_cmp);
        let median = durations.get(durations.len() / 2).copied().unwrap_or(1.0);
        let first_step = starts.first().map_or(0, |s| s.0);
        let mut at = 0usize;
        for p in &mut self.points {
            while at + 1 < starts.len() && p.0 >= starts[at + 1].1 {
                at += 1;
            }
            let (step, begin) = starts[at];
            let end = starts.get(at + 1).map_or(begin + median, |n| n.1);
            let width = (end - begin).max(1e-9);
            let frac = ((p.0 - begin) / width).clamp(0.0, 0.999);
            p.0 = (step - first_step) as f64 + frac;
        }
        self
    }
}

impl Series {
    /// A run folder's `memory.csv`, less the `--vram-budget` ballast its `summary.json`
    /// names (held from before the model to the end: not the run's own memory).
    /// A CPU run under `--memory-budget` is read on the heap, where its budget is.
    pub fn from_run_dir(label: &str, dir: &std::path::Path) -> Option<Self> {
        let text = std::fs::read_to_string(dir.join("memory.csv")).ok()?;
        let summary = std::fs::read_to_string(dir.join("summary.json"))
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok());
        let heap = summary.as_ref().is_some_and(|v| {
            v["oom_detector"]
                .as_str()
                .is_some_and(|d| d.contains("simulated"))
        });
        let mut s = Self::from_memory_csv(label, &text, heap);
        let ballast = summary
            .as_ref()
            .and_then(|v| v["memory"]["ballast"].as_u64())
            .unwrap_or(0);
        for p in &mut s.points {
            p.1 = p.1.saturating_sub(ballast);
        }
        Some(s)
    }
}

/// The axes' ends for `series`: the end of the last step, and the highest MiB (or the
/// budget) with 8% headroom.
pub(crate) fn bounds(series: &[Series], budget: Option<Bytes>) -> (f64, f64) {
    let x_max = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.0.floor() + 1.0))
        .fold(1.0, f64::max);
    let y_max = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| Bytes(p.1).mib()))
        .chain(budget.map(|b| b.mib()))
        .fold(1.0, f64::max)
        * 1.08;
    (x_max, y_max)
}

/// The y axis's title: VRAM on a GPU, the heap when every series is on it (a CPU budget),
/// else RSS.
pub fn y_label(gpu: bool, series: &[Series]) -> &'static str {
    if gpu {
        "NVML process VRAM (MiB)"
    } else if !series.is_empty() && series.iter().all(|s| s.heap) {
        "host heap in use, where the budget is (MiB)"
    } else {
        "resident set size, HOST (MiB)"
    }
}

/// The x axis's title.
pub(crate) const X_TITLE: &str =
    "optimizer steps from the first (each step one unit wide, whatever it took; setup before it cut)";

/// Errors come from plotters' drawing backend, as text.
pub(super) type PlotError = String;

/// The SVG document.
pub fn memory_svg(
    title: &str,
    y_label: &str,
    series: &[Series],
    budget: Option<Bytes>,
) -> Result<String, PlotError> {
    memory_svg_over(title, X_TITLE, y_label, series, budget)
}

/// [`memory_svg`] with another title for the x axis (`x_label`).
pub fn memory_svg_over(
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &[Series],
    budget: Option<Bytes>,
) -> Result<String, PlotError> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1000, 560)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let (x_max, y_max) = bounds(series, budget);
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(80)
            .build_cartesian_2d(0f64..x_max, 0f64..y_max)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc(x_label)
            .y_desc(y_label)
            .draw()
            .map_err(|e| e.to_string())?;
        for (i, s) in series.iter().enumerate() {
            let color = color(i);
            let line: Vec<(f64, f64)> = s.points.iter().map(|p| (p.0, Bytes(p.1).mib())).collect();
            chart
                .draw_series(LineSeries::new(line, color.stroke_width(2)))
                .map_err(|e| e.to_string())?
                .label(s.label.clone())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
            // A marker where a new step begins.
            let marks: Vec<(f64, f64)> = s
                .points
                .windows(2)
                .filter(|w| w[1].2 != w[0].2 && w[1].2.is_some())
                .map(|w| (w[1].0, Bytes(w[1].1).mib()))
                .collect();
            chart
                .draw_series(marks.into_iter().map(|p| Circle::new(p, 2, color.filled())))
                .map_err(|e| e.to_string())?;
        }
        if let Some(b) = budget {
            let y = b.mib();
            chart
                .draw_series(DashedLineSeries::new(
                    vec![(0.0, y), (x_max, y)],
                    6,
                    4,
                    BLACK.stroke_width(1),
                ))
                .map_err(|e| e.to_string())?
                .label(format!("budget {b}"))
                .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK));
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()
            .map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_row_has_the_colour_of_its_row_in_the_report() {
        let csv =
            "t_s,step,in_use_bytes,process_bytes,device_used_bytes\n0.0,0,,100,\n1.0,1,,200,\n";
        let rows: Vec<Series> = ["a", "b", "c"]
            .iter()
            .map(|l| Series::from_memory_csv(l, csv, false))
            .collect();
        let svg = memory_svg("memory", "MiB", &rows, None)
            .unwrap()
            .to_lowercase();
        for hex in &COLORS[..3] {
            assert!(svg.contains(hex), "{hex} not in memory.svg");
        }
    }

    #[test]
    fn the_chart_counts_steps_not_seconds() {
        // 40 s of setup, a first step of 10 s (compilation), then steps of 1 s.
        let csv = "t_s,step,in_use_bytes,process_bytes,device_used_bytes\n0.0,,,100,\n30.0,,,200,\n40.0,0,,300,\n45.0,0,,350,\n50.0,1,,400,\n50.5,1,,500,\n51.0,2,,400,\n";
        let s = Series::from_memory_csv("baseline", csv, false);
        let xs: Vec<f64> = s.points.iter().map(|p| p.0).collect();
        // The setup is cut; the first step is one unit wide like the others.
        assert_eq!(xs, vec![0.0, 0.5, 1.0, 1.5, 2.0]);
        assert_eq!(s.label, "baseline");
    }

    #[test]
    fn reads_the_process_column_or_the_heap() {
        let csv =
            "t_s,step,in_use_bytes,process_bytes,device_used_bytes\n0.0,,10,,\n0.5,0,20,3000,\n";
        let s = Series::from_memory_csv("x", csv, false);
        // The sample before step 1 is cut.
        assert_eq!(s.points, vec![(0.0, 3000, Some(0))]);
        let heap = Series::from_memory_csv("x", csv, true);
        assert_eq!(heap.points, vec![(0.0, 20, Some(0))]);
    }

    #[test]
    fn draws_one_polyline_per_strategy_with_legend() {
        let a = Series {
            label: "baseline".into(),
            points: vec![
                (0.0, 1 << 20, None),
                (1.0, 4 << 20, Some(0)),
                (2.0, 4 << 20, Some(1)),
            ],
            heap: false,
        };
        let b = Series {
            label: "grad-accum".into(),
            points: vec![(0.0, 1 << 20, None), (1.5, 2 << 20, Some(0))],
            heap: false,
        };
        let svg = memory_svg("memory", "MiB", &[a, b], Some(Bytes(3 << 20))).unwrap();
        assert!(svg.starts_with("<svg"));
        assert!(svg.contains("budget 3.0 MiB"), "{svg}");
        assert!(svg.matches("<polyline").count() >= 2, "{svg}");
        assert!(svg.contains("baseline") && svg.contains("grad-accum"));
    }
}
