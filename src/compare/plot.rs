//! Memory over time for every strategy on one chart (SVG, plotters), with a marker at
//! every step boundary.

use plotters::prelude::*;

use crate::units::Bytes;

/// One strategy's memory samples: `(seconds since its run started, bytes, step)`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Series {
    /// Legend label.
    pub label: String,
    /// Samples in time order.
    pub points: Vec<(f64, u64, Option<u64>)>,
}

impl Series {
    /// Reads a run's `memory.csv` (`t_s,step,in_use_bytes,process_bytes,device_used_bytes`):
    /// the process column (NVML VRAM or RSS), or `in_use` where the process is unknown.
    pub fn from_memory_csv(label: &str, csv_text: &str) -> Self {
        let points = crate::probe::read_memory_csv(csv_text)
            .into_iter()
            .filter_map(|r| {
                Some((
                    r.t_s,
                    r.process_bytes.or(r.in_use_bytes)?,
                    r.step.map(|s| s as u64),
                ))
            })
            .collect();
        Self {
            label: label.to_string(),
            points,
        }
        .cut_before_first_step()
    }

    /// The series from the start of its first step: on a GPU the seconds before it are
    /// mostly kernel compilation, which would take most of the chart's width and leave a
    /// step's rise and fall a few pixels wide. The cut is said in the label.
    fn cut_before_first_step(mut self) -> Self {
        let Some(first) = self.points.iter().position(|p| p.2.is_some()) else {
            return self;
        };
        let cut = self.points[first].0;
        if first == 0 || cut <= 0.0 {
            return self;
        }
        self.points.drain(..first);
        for p in &mut self.points {
            p.0 -= cut;
        }
        self.label = format!(
            "{} (from step 1; {cut:.1} s of setup and compilation before it cut)",
            self.label
        );
        self
    }
}

impl Series {
    /// A run folder's `memory.csv`, less the `--vram-budget` ballast its `summary.json`
    /// names (held from before the model to the end: not the run's own memory).
    pub fn from_run_dir(label: &str, dir: &std::path::Path) -> Option<Self> {
        let text = std::fs::read_to_string(dir.join("memory.csv")).ok()?;
        let mut s = Self::from_memory_csv(label, &text);
        let ballast = std::fs::read_to_string(dir.join("summary.json"))
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .and_then(|v| v["memory"]["ballast"].as_u64())
            .unwrap_or(0);
        for p in &mut s.points {
            p.1 = p.1.saturating_sub(ballast);
        }
        Some(s)
    }
}

/// The axes' ends for `series`: the last second, and the highest MiB with 8% headroom.
pub(crate) fn bounds(series: &[Series]) -> (f64, f64) {
    let x_max = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.0))
        .fold(1e-3, f64::max);
    let y_max = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| Bytes(p.1).mib()))
        .fold(1.0, f64::max)
        * 1.08;
    (x_max, y_max)
}

/// Errors come from plotters' drawing backend, as text.
pub type PlotError = String;

/// The SVG document.
pub fn memory_svg(title: &str, y_label: &str, series: &[Series]) -> Result<String, PlotError> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1000, 560)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let (x_max, y_max) = bounds(series);
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(80)
            .build_cartesian_2d(0f64..x_max, 0f64..y_max)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc("seconds since the first step began (what came before, setup and kernel compilation, is cut: see each legend)")
            .y_desc(y_label)
            .draw()
            .map_err(|e| e.to_string())?;
        for (i, s) in series.iter().enumerate() {
            let color = Palette99::pick(i).to_rgba();
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
    fn the_chart_starts_at_the_first_step_and_says_what_it_cut() {
        let csv = "t_s,step,in_use_bytes,process_bytes,device_used_bytes\n0.0,,,100,\n30.0,,,200,\n40.0,0,,300,\n41.0,1,,400,\n";
        let s = Series::from_memory_csv("baseline", csv);
        assert_eq!(s.points.first().map(|p| (p.0, p.2)), Some((0.0, Some(0))));
        assert_eq!(s.points.len(), 2);
        assert!(
            s.label
                .contains("40.0 s of setup and compilation before it cut"),
            "{}",
            s.label
        );
    }

    #[test]
    fn reads_the_process_column_and_the_step() {
        let s = Series::from_memory_csv(
            "x",
            "t_s,step,in_use_bytes,process_bytes,device_used_bytes\n0.0,,10,,\n0.5,0,20,3000,\n",
        );
        // The sample before step 1 is cut, and the label says so.
        assert_eq!(s.points, vec![(0.0, 3000, Some(0))]);
        assert!(s.label.starts_with("x (from step 1; 0.5 s"), "{}", s.label);
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
        };
        let b = Series {
            label: "grad-accum".into(),
            points: vec![(0.0, 1 << 20, None), (1.5, 2 << 20, Some(0))],
        };
        let svg = memory_svg("memory", "MiB", &[a, b]).unwrap();
        assert!(svg.starts_with("<svg"));
        assert!(svg.matches("<polyline").count() >= 2, "{svg}");
        assert!(svg.contains("baseline") && svg.contains("grad-accum"));
    }
}
