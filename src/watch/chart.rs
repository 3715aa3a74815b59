//! The job's memory over time (memory.svg): one line per process of its tree, VRAM where
//! NVML charged any to the job, host memory (RSS) otherwise, read back from timeline.csv.

use std::collections::BTreeMap;
use std::path::Path;

use super::report::JobReport;
use crate::compare::{memory_svg_over, Series};

/// The chart of `timeline.csv` (`seconds,pid,rss_bytes,vram_bytes`), one line per PID
/// named by its command; none when the file cannot be read or holds no sample.
pub fn timeline_svg(csv: &Path, report: &JobReport) -> Option<String> {
    let text = std::fs::read_to_string(csv).ok()?;
    let vram = report.watched.tree_peak_vram.is_some();
    let mut lines: BTreeMap<u32, Vec<(f64, u64, Option<u64>)>> = BTreeMap::new();
    for row in text.lines().skip(1) {
        let f: Vec<&str> = row.split(',').collect();
        let (Some(t), Some(pid)) = (
            f.first().and_then(|t| t.parse::<f64>().ok()),
            f.get(1).and_then(|p| p.parse::<u32>().ok()),
        ) else {
            continue;
        };
        let bytes = if vram { f.get(3) } else { f.get(2) };
        if let Some(b) = bytes.and_then(|b| b.parse::<u64>().ok()) {
            lines.entry(pid).or_default().push((t, b, None));
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
        .map(|(pid, points)| Series {
            label: name(pid),
            points,
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
