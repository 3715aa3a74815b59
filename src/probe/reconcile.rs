//! The memory section of a run summary: the figures of every source, and how they add up.
//!
//! Figures are reconciled at one moment (the end of the run, every source read together),
//! because peaks of different sources happen at different times and do not add up.

use serde::{Deserialize, Serialize};

use super::allocator::AllocatorStats;
use super::base::MemoryReading;
use super::sampler::Timeline;
use crate::units::Bytes;
use crate::words::MemoryKind;

/// Highest allocator figures seen at the end of each phase of a step.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct PhasePeaks {
    /// After the forward pass.
    pub forward: Option<AllocatorStats>,
    /// After the backward pass.
    pub backward: Option<AllocatorStats>,
    /// After the optimizer step.
    pub optimizer: Option<AllocatorStats>,
}

impl PhasePeaks {
    /// Keeps the higher in-use reading per phase.
    pub fn record(slot: &mut Option<AllocatorStats>, s: AllocatorStats) {
        match slot {
            Some(old) if old.in_use >= s.in_use => {
                old.reserved = old.reserved.max(s.reserved);
            }
            _ => *slot = Some(s),
        }
    }

    /// Highest in-use of any phase.
    pub fn peak_in_use(&self) -> Option<Bytes> {
        [self.forward, self.backward, self.optimizer]
            .iter()
            .flatten()
            .map(|s| s.in_use)
            .max()
    }

    /// Highest reserved of any phase.
    pub fn peak_reserved(&self) -> Option<Bytes> {
        [self.forward, self.backward, self.optimizer]
            .iter()
            .flatten()
            .map(|s| s.reserved)
            .max()
    }
}

/// One line of the reconciliation: a component and what it is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReconLine {
    /// Component.
    pub label: String,
    /// Its size (a difference of two readings, floored at 0).
    pub bytes: Bytes,
    /// What it is.
    pub explanation: String,
}

/// Everything the run measured about memory.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MemoryReport {
    /// `gpu` (NVML + allocator) or `host` (counting allocator + RSS).
    pub kind: MemoryKind,
    /// Sources that answered.
    pub sources: Vec<String>,
    /// Sources that did not, and why.
    pub notes: Vec<String>,
    /// Readings before the model existed.
    pub baseline: MemoryReading,
    /// Readings at the end of the run, taken together.
    pub end: MemoryReading,
    /// Allocator statistics at the end of the run.
    pub allocator_end: Option<AllocatorStats>,
    /// Allocator figures at phase ends.
    pub phases: PhasePeaks,
    /// Highest allocator in-use oomlab read: at its checks (step ends, or phase ends) and
    /// at the phase boundaries of the step it recorded by category; the true peak inside a
    /// phase can be higher, and is not seen.
    pub allocator_peak_in_use: Option<Bytes>,
    /// Highest allocator reserved at a phase end.
    pub allocator_peak_reserved: Option<Bytes>,
    /// Highest per-process figure from the sampler (NVML process VRAM or host RSS).
    pub process_peak: Option<Bytes>,
    /// Mean per-process figure from the sampler.
    pub process_mean: Option<Bytes>,
    /// Highest whole-device use from the sampler.
    pub device_used_peak: Option<Bytes>,
    /// Device capacity (or host RAM).
    pub device_total: Option<Bytes>,
    /// Highest host heap in use (counting allocator), CPU runs.
    pub host_heap_peak: Option<Bytes>,
    /// VRAM held outside burn to emulate a smaller card (`--vram-budget`).
    pub ballast: Option<Bytes>,
    /// The budget the run trained under: `--vram-budget` (a GPU) or `--memory-budget`
    /// (the CPU, SIMULATED OOMs). Absent without one, and in summaries older than it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<Bytes>,
    /// How the end-of-run figures add up.
    pub reconciliation: Vec<ReconLine>,
    /// Samples taken by the background sampler.
    pub samples: usize,
    /// Sampler interval.
    pub sample_interval_ms: f64,
    /// Mean cost of one sample on the sampler thread.
    pub sample_cost_us: f64,
}

/// The line of what a GPU process holds beyond burn's pool (CUDA context, modules).
pub(super) const OUTSIDE_THE_POOL: &str = "+ outside the pool";
/// The line of what a CPU process holds beyond its counted heap.
pub(super) const OUTSIDE_THE_HEAP: &str = "+ outside the heap count";
/// The line of heap counted but not resident (a CPU process whose heap exceeds its RSS).
pub(super) const HEAP_NOT_RESIDENT: &str = "- heap not resident";

impl MemoryReport {
    /// The bytes of the reconciliation line `label`.
    pub fn line(&self, label: &str) -> Option<Bytes> {
        self.reconciliation
            .iter()
            .find(|l| l.label == label)
            .map(|l| l.bytes)
    }

    /// What the process holds beyond its tensors: `OUTSIDE_THE_POOL` on a GPU,
    /// `OUTSIDE_THE_HEAP` on the host.
    pub fn overhead(&self) -> Option<Bytes> {
        match self.kind {
            MemoryKind::Gpu => self.line(OUTSIDE_THE_POOL),
            MemoryKind::Host => self.line(OUTSIDE_THE_HEAP),
        }
    }
}

fn sub(a: Bytes, b: Bytes) -> Bytes {
    Bytes(a.0.saturating_sub(b.0))
}

/// Builds the reconciliation lines from readings taken at one moment.
pub fn reconcile(
    kind: MemoryKind,
    end: MemoryReading,
    allocator: Option<AllocatorStats>,
    ballast: Option<Bytes>,
) -> Vec<ReconLine> {
    let mut lines = Vec::new();
    let mut line = |label: &str, bytes: Bytes, explanation: &str| {
        lines.push(ReconLine {
            label: label.into(),
            bytes,
            explanation: explanation.into(),
        })
    };
    if kind == MemoryKind::Gpu {
        if let Some(a) = allocator {
            line(
                "allocator in use",
                a.in_use,
                "live tensors: weights, optimizer state, anything not yet dropped",
            );
            line(
                "+ pool slack",
                sub(a.reserved, a.in_use),
                "pages burn's pool keeps reserved for reuse (freed tensors, padding); nvidia-smi counts them as used",
            );
            line(
                "= allocator reserved",
                a.reserved,
                "everything burn's allocator holds from the driver",
            );
            if let Some(p) = end.process {
                let outside = sub(p, a.reserved);
                let ballast_b = ballast.unwrap_or_default();
                if ballast.is_some() {
                    line("+ ballast", ballast_b, "held by oomlab outside burn's pool to emulate a smaller card (--vram-budget)");
                }
                line(
                    OUTSIDE_THE_POOL,
                    sub(outside, ballast_b),
                    "CUDA context, loaded kernels (modules), library workspaces: memory no allocator statistic shows",
                );
                line(
                    "= NVML: this process",
                    p,
                    "what nvidia-smi lists for this PID",
                );
            }
        }
        if let (Some(d), Some(p)) = (end.device_used, end.process) {
            line(
                "+ others and the driver",
                sub(d, p),
                "other processes' VRAM and the driver's own reservation",
            );
            line(
                "= NVML: device used",
                d,
                "the 'Memory-Usage' column of nvidia-smi",
            );
        }
    } else {
        if let Some(h) = end.in_use {
            line(
                "host heap in use",
                h,
                "live heap blocks counted by oomlab's global allocator: tensors, data, buffers",
            );
            if let Some(r) = end.process {
                line(
                    OUTSIDE_THE_HEAP,
                    sub(r, h),
                    "code, thread stacks, and memory the system allocator keeps after frees",
                );
                // Always a line (0 where RSS covers the heap), so a run prints the same
                // rows on any machine. Seen non-zero with RAYON_NUM_THREADS=64 on a 2-core
                // machine: one buffer per thread, most of each never written.
                line(
                    HEAP_NOT_RESIDENT,
                    sub(h, r),
                    "heap allocated but not resident, net of the line above: blocks whose pages were never written (the matrix library reserves an L2-sized buffer on every compute thread and may write only part of it)",
                );
                line(
                    "= resident set size (RSS)",
                    r,
                    "what top/ps show for this process",
                );
            }
        } else if let Some(r) = end.process {
            line(
                "resident set size (RSS)",
                r,
                "what top/ps show; the heap count needs oomlab's global allocator",
            );
        }
    }
    lines
}

impl MemoryReport {
    /// Fills the sampler-derived fields from a timeline.
    pub fn with_timeline(mut self, t: &Timeline) -> Self {
        self.process_peak = t.peak_process();
        self.process_mean = t.mean_process();
        self.device_used_peak = t.peak_device_used();
        self.samples = t.samples.len();
        self.sample_interval_ms = t.interval_ms;
        self.sample_cost_us = t.mean_read_us;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gpu_figures_add_up_from_tensors_to_the_device() {
        let a = AllocatorStats {
            allocs: 10,
            in_use: Bytes(1000),
            padding: Bytes(0),
            reserved: Bytes(4000),
        };
        let end = MemoryReading {
            process: Some(Bytes(4500)),
            device_used: Some(Bytes(7000)),
            ..Default::default()
        };
        let lines = reconcile(MemoryKind::Gpu, end, Some(a), None);
        let get = |l: &str| lines.iter().find(|x| x.label == l).unwrap().bytes;
        assert_eq!(get("+ pool slack"), Bytes(3000));
        assert_eq!(get("+ outside the pool"), Bytes(500));
        assert_eq!(get("+ others and the driver"), Bytes(2500));
        assert_eq!(
            get("allocator in use").0 + 3000 + 500 + 2500,
            get("= NVML: device used").0
        );
    }

    #[test]
    fn ballast_is_its_own_line_not_part_of_the_context() {
        let a = AllocatorStats {
            in_use: Bytes(100),
            reserved: Bytes(200),
            ..Default::default()
        };
        let end = MemoryReading {
            process: Some(Bytes(1200)),
            ..Default::default()
        };
        let lines = reconcile(MemoryKind::Gpu, end, Some(a), Some(Bytes(900)));
        let get = |l: &str| lines.iter().find(|x| x.label == l).unwrap().bytes;
        assert_eq!(get("+ ballast"), Bytes(900));
        assert_eq!(get("+ outside the pool"), Bytes(100));
    }

    #[test]
    fn host_figures_say_what_rss_adds_to_the_heap() {
        let end = MemoryReading {
            in_use: Some(Bytes(300)),
            process: Some(Bytes(1000)),
            ..Default::default()
        };
        let lines = reconcile(MemoryKind::Host, end, None, None);
        assert_eq!(lines[1].bytes, Bytes(700));
        assert_eq!(lines[2].label, HEAP_NOT_RESIDENT);
        assert_eq!(lines[2].bytes, Bytes(0));
        assert!(lines[3].label.contains("RSS"));
    }

    #[test]
    fn a_heap_larger_than_rss_is_said_to_be_not_resident_and_still_adds_up() {
        let end = MemoryReading {
            in_use: Some(Bytes(1000)),
            process: Some(Bytes(400)),
            ..Default::default()
        };
        let lines = reconcile(MemoryKind::Host, end, None, None);
        let get = |l: &str| lines.iter().find(|x| x.label == l).unwrap().bytes;
        assert_eq!(get(OUTSIDE_THE_HEAP), Bytes(0));
        assert_eq!(get(HEAP_NOT_RESIDENT), Bytes(600));
        assert_eq!(1000 - 600, lines.last().unwrap().bytes.0);
        assert!(lines.last().unwrap().label.contains("RSS"));
    }
}
