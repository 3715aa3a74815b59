//! The job's memory over time (memory.svg): one line per process of its tree, VRAM where
//! NVML charged any to the job, host memory (RSS) otherwise, read back from timeline.csv a
//! line at a time and thinned to what a chart can show, peaks kept.

use std::collections::BTreeMap;
use std::path::Path;

use super::report::JobReport;
use crate::compare::{memory_svg_over, Series};

/// The chart of `timeline.csv` (`seconds,pid,rss_bytes,vram_bytes`), one line per PID
/// named by its command; none when the file cannot be read or holds no sample.
pub fn timeline_svg(csv: &Path, report: &JobReport) -> Option<String> {
    use std::io::BufRead;
    let file = std::io::BufReader::new(std::fs::File::open(csv).ok()?);
    let vram = report.watched.tree_peak_vram.is_some();
    let mut lines: BTreeMap<u32, Thinned> = BTreeMap::new();
    for row in file.lines().skip(1).map_while(Result::ok) {
        let f: Vec<&str> = row.split(',').collect();
        let (Some(t), Some(pid)) = (
            f.first().and_then(|t| t.parse::<f64>().ok()),
            f.get(1).and_then(|p| p.parse::<u32>().ok()),
        ) else {
            continue;
        };
        let bytes = if vram { f.get(3) } else { f.get(2) };
        if let Some(b) = bytes.and_then(|b| b.parse::<u64>().ok()) {
            lines.entry(pid).or_default().push(t, b);
        }
    }
    if lines.is_empty() {
        return None;
    }
    let name = |pid: u32| {
        let command = report
            .watched
            .processes
            .iter()
            .find(|p| p.pid == pid)
            .map(|p| p.command.chars().take(40).collect::<String>())
            .unwrap_or_default();
        format!("{pid} {command}")
    };
    let series: Vec<Series> = lines
        .into_iter()
        .map(|(pid, thinned)| Series {
            label: name(pid),
            points: thinned.finish(),
            heap: false,
        })
        .collect();
    memory_svg_over(
        &format!("oomlab run: {}", report.command.join(" ")),
        "seconds since the launch",
        if vram {
            "VRAM NVML charges to the process (MiB)"
        } else {
            "resident host memory (MiB)"
        },
        &series,
        None,
    )
    .ok()
}

/// The most points a process's line keeps: a chart is a few hundred pixels wide, and a
/// job sampled every 100 ms for days would otherwise hold millions.
const MAX_POINTS: usize = 2000;

/// One process's samples, read one at a time and kept to at most [`MAX_POINTS`]: when
/// full, each pair of neighbours becomes the one with more bytes (a peak is never lost)
/// and later samples are taken two at a time, then four, ...
#[derive(Default)]
struct Thinned {
    points: Vec<(f64, u64, Option<u64>)>,
    /// Samples per point now.
    stride: usize,
    /// The point being filled: its highest sample and how many it has seen.
    pending: Option<((f64, u64), usize)>,
}

impl Thinned {
    fn push(&mut self, t: f64, bytes: u64) {
        let stride = self.stride.max(1);
        let ((pt, pb), n) = match self.pending.take() {
            Some(((pt, pb), n)) if bytes <= pb => ((pt, pb), n + 1),
            Some((_, n)) => ((t, bytes), n + 1),
            None => ((t, bytes), 1),
        };
        if n < stride {
            self.pending = Some(((pt, pb), n));
            return;
        }
        self.points.push((pt, pb, None));
        if self.points.len() >= MAX_POINTS {
            self.points = self
                .points
                .chunks(2)
                .filter_map(|pair| pair.iter().copied().max_by_key(|p| p.1))
                .collect();
            self.stride = stride * 2;
        }
    }

    /// The points, the last samples' point among them.
    fn finish(mut self) -> Vec<(f64, u64, Option<u64>)> {
        if let Some(((t, b), _)) = self.pending.take() {
            self.points.push((t, b, None));
        }
        self.points
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_timeline_is_thinned_and_keeps_its_peak() {
        let mut line = Thinned::default();
        for i in 0..1_000_000u64 {
            let bytes = if i == 777_777 { 1 << 40 } else { i % 1000 };
            line.push(i as f64 * 0.1, bytes);
        }
        let points = line.finish();
        assert!(points.len() <= MAX_POINTS, "{}", points.len());
        assert!(points.len() >= MAX_POINTS / 4, "{}", points.len());
        assert!(points.iter().any(|p| p.1 == 1 << 40));
        assert!(points.windows(2).all(|w| w[0].0 < w[1].0));
        // A short one is kept whole.
        let mut short = Thinned::default();
        for i in 0..10u64 {
            short.push(i as f64, i);
        }
        assert_eq!(short.finish().len(), 10);
    }
}
