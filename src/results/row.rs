//! One row of a comparison, read from a run's `summary.json`.

use serde::{Deserialize, Serialize};

use super::{RunSummary, StopReason};
use crate::technique::Variant;
use crate::words::MemoryKind;

/// How a strategy's run ended, as the comparison reports it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind", content = "detail")]
pub enum RowStatus {
    /// Every step ran.
    Completed,
    /// Stopped by an out-of-memory failure it could not adapt to (the message says why).
    OutOfMemory(String),
    /// The run failed or could not start (the message says why).
    Failed(String),
    /// Not run: the comparison was interrupted first.
    NotRun,
}

/// One strategy's figures. Memory is VRAM on a GPU and host memory on the CPU
/// (`memory_kind` says which); a figure the run could not measure is `None`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// The row, as given to `--strategies`.
    pub strategy: Variant,
    /// The process that ran it.
    pub pid: Option<u64>,
    /// Micro-batch x accumulation of the last applied step, e.g. `8 x 4`.
    pub split: Option<String>,
    /// Samples per optimizer step.
    pub effective_batch: Option<u64>,
    /// Parameter dtypes read back from the tensors.
    pub precision: Option<String>,
    /// `gpu` or `host`.
    pub memory_kind: Option<MemoryKind>,
    /// Peak sampled memory of the process: NVML per-process VRAM (GPU) or RSS (CPU). Under
    /// `--vram-budget` the ballast (held from before the model to the end) is taken off,
    /// so the figure is what the run itself used of its budget.
    pub peak_process_bytes: Option<u64>,
    /// Peak bytes in live tensors: the highest of burn's allocator readings, taken when
    /// oomlab checks (after each phase or step; a peak inside a phase is not seen) on a
    /// GPU, the counting allocator's true high-water mark of the host heap on the CPU.
    pub peak_in_use_bytes: Option<u64>,
    /// Peak bytes burn's pool held (GPU).
    pub peak_reserved_bytes: Option<u64>,
    /// At the end: what the process holds beyond its tensors' pool: CUDA context and
    /// modules (GPU), or code, stacks and freed-but-kept heap (CPU).
    pub overhead_bytes: Option<u64>,
    /// `oomlab estimate`'s analytic peak for this row's config: NVML process memory on a
    /// GPU (compare with `peak_process_bytes`), host heap on the CPU (compare with
    /// `peak_in_use_bytes`).
    #[serde(default)]
    pub predicted_peak_bytes: Option<u64>,
    /// Time to the end of the first step (kernel compilation and autotune on a GPU).
    pub time_to_first_step_s: Option<f64>,
    /// Median step time after the first.
    pub steady_step_s: Option<f64>,
    /// Samples per second at the steady step time.
    pub samples_per_s: Option<f64>,
    /// Out-of-memory attempts the strategy recovered from (or stopped at).
    pub oom_retries: u64,
    /// Steps whose update was skipped (dynamic loss scaling backs off on overflow).
    pub skipped_steps: u64,
    /// Steps applied.
    pub steps_completed: u64,
    /// Mean loss of the last 10% of steps.
    pub final_loss: Option<f64>,
    /// Peak process memory relative to the baseline row.
    pub memory_vs_baseline: Option<f64>,
    /// Steady step time relative to the baseline row.
    pub time_vs_baseline: Option<f64>,
    /// How the run ended.
    pub status: RowStatus,
    /// What the figures do not show, e.g. that a cleanup has nothing to free on the CPU.
    #[serde(default)]
    pub note: Option<String>,
    /// The run folder, relative to the comparison folder.
    pub run_dir: String,
    /// A data-parallel row (`compare --devices`): every device's figures, by rank.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub per_device: Vec<DeviceFigures>,
}

/// One device of a data-parallel row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeviceFigures {
    /// `cuda:1 NVIDIA H200`, `cpu`.
    pub device: String,
    /// NVML's figure for this process on this device (CPU peers: the whole process's
    /// heap, which they share).
    pub process_peak_bytes: Option<u64>,
    /// burn's allocator peak in use on this device (CUDA; at phase ends).
    pub peak_in_use_bytes: Option<u64>,
    /// The optimizer state this device keeps (all of it, or its shard).
    pub optimizer_state_bytes: Option<u64>,
}

/// What a diverged run's row says.
fn diverged_note(s: &RunSummary) -> String {
    format!(
        "DIVERGED: the loss rose from {:.4} to {:.4}; the updates broke the weights{}",
        s.first_loss.unwrap_or(f32::NAN),
        s.final_loss.unwrap_or(f32::NAN),
        if s.precision.weight_dtypes.iter().any(|d| d == "f16") {
            " (pure f16: AdamW's second moment underflows, `oomlab explain half`)"
        } else {
            ""
        }
    )
}

impl Row {
    /// The measured figure `predicted_peak_bytes` predicts: NVML process peak on a GPU,
    /// the heap peak on the CPU.
    pub fn measured_for_estimate(&self) -> Option<u64> {
        match self.memory_kind? {
            MemoryKind::Gpu => self.peak_process_bytes,
            MemoryKind::Host => self.peak_in_use_bytes,
        }
    }

    /// How far the prediction is from the measurement, in percent of the measurement.
    pub fn estimate_error_pct(&self) -> Option<f64> {
        let (p, m) = (self.predicted_peak_bytes?, self.measured_for_estimate()?);
        (m > 0).then(|| (p as f64 / m as f64 - 1.0) * 100.0)
    }

    /// A row without figures.
    pub fn empty(strategy: Variant, run_dir: &str, status: RowStatus) -> Self {
        Self {
            strategy,
            pid: None,
            split: None,
            effective_batch: None,
            precision: None,
            memory_kind: None,
            peak_process_bytes: None,
            predicted_peak_bytes: None,
            peak_in_use_bytes: None,
            peak_reserved_bytes: None,
            overhead_bytes: None,
            time_to_first_step_s: None,
            steady_step_s: None,
            samples_per_s: None,
            oom_retries: 0,
            skipped_steps: 0,
            steps_completed: 0,
            final_loss: None,
            memory_vs_baseline: None,
            time_vs_baseline: None,
            status,
            note: None,
            run_dir: run_dir.to_string(),
            per_device: Vec::new(),
        }
    }

    /// The row of a run whose summary is `s`.
    pub fn from_summary(strategy: Variant, run_dir: &str, s: &RunSummary) -> Self {
        let m = &s.memory;
        let gpu = m.kind == MemoryKind::Gpu;
        let status = match &s.stop {
            StopReason::Completed => RowStatus::Completed,
            StopReason::OutOfMemory(event) => RowStatus::OutOfMemory(
                s.adaptation
                    .gave_up
                    .clone()
                    .unwrap_or_else(|| event.message.clone()),
            ),
            StopReason::Interrupted => RowStatus::Failed("interrupted (Ctrl-C)".into()),
            StopReason::Failed(why) => RowStatus::Failed(why.clone()),
        };
        // weights/compute, both read back from the tensors by the run.
        let weights = &s.params.dtypes;
        let compute = &s.precision.compute_dtypes;
        let precision = match (weights.is_empty(), compute.is_empty()) {
            (true, _) => None,
            (false, true) => Some(weights.join("+")),
            (false, false) => Some(format!("{}/{}", weights.join("+"), compute.join("+"))),
        };
        let bytes = |b: Option<crate::units::Bytes>| b.map(|b| b.0);
        Self {
            pid: Some(u64::from(s.pid)),
            split: Some(s.plan.to_string()),
            effective_batch: Some(s.effective_batch as u64),
            precision,
            memory_kind: Some(m.kind),
            peak_process_bytes: bytes(m.process_peak)
                .map(|p| p.saturating_sub(bytes(m.ballast).unwrap_or(0))),
            predicted_peak_bytes: None,
            peak_in_use_bytes: bytes(if gpu {
                m.allocator_peak_in_use
            } else {
                m.host_heap_peak
            }),
            peak_reserved_bytes: bytes(if gpu { m.allocator_peak_reserved } else { None }),
            overhead_bytes: bytes(m.overhead()),
            time_to_first_step_s: s.time_to_first_step_s,
            steady_step_s: s.steady_step_s,
            samples_per_s: s.samples_per_s,
            oom_retries: s.adaptation.oom_attempts as u64,
            skipped_steps: s.loss_scale.as_ref().map_or(0, |l| l.skipped_steps as u64),
            steps_completed: s.steps_completed as u64,
            final_loss: s.final_loss.map(f64::from),
            note: [
                (s.cache_cleanups.is_some() && !gpu).then(|| {
                    "no pool on the CPU: the cleanup frees nothing, only its call is measured"
                        .to_string()
                }),
                s.diverged().then(|| diverged_note(s)),
            ]
            .into_iter()
            .flatten()
            .reduce(|a, b| format!("{a}; {b}")),
            per_device: s.parallel.as_ref().map_or_else(Vec::new, |p| {
                p.peers
                    .iter()
                    .map(|peer| DeviceFigures {
                        device: peer.device.clone(),
                        process_peak_bytes: bytes(peer.process_peak),
                        peak_in_use_bytes: bytes(peer.allocator_peak_in_use),
                        optimizer_state_bytes: bytes(peer.optimizer_state),
                    })
                    .collect()
            }),
            ..Self::empty(strategy, run_dir, status)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_runs_row_leaves_the_ballast_out_of_its_peak() {
        // The H200 lesson's baseline under --vram-budget 8GiB.
        let text =
            include_str!("../../docs/results/2026-12-01-h200-lesson/lesson/baseline/summary.json");
        let s: RunSummary = serde_json::from_str(text).unwrap();
        let ballast = s.memory.ballast.unwrap().0;
        let process = s.memory.process_peak.unwrap().0;
        let row = Row::from_summary(Variant::BASELINE, "baseline", &s);
        assert_eq!(row.peak_process_bytes, Some(process - ballast));
        assert!(row.peak_process_bytes.unwrap() < 8 << 30);
    }

    #[test]
    fn a_run_whose_loss_rose_says_it_diverged() {
        // Pure f16 on the CPU: the loss rose to 70.2; pure bf16 trained.
        let read = |name: &str| -> RunSummary {
            let path = format!(
                "{}/docs/results/2026-12-05-cpu-compare-precision/{name}/summary.json",
                env!("CARGO_MANIFEST_DIR")
            );
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
        };
        let f16 = read("half-f16");
        assert!(f16.diverged());
        let note = Row::from_summary(Variant::named("half-f16"), "half-f16", &f16)
            .note
            .unwrap();
        assert!(
            note.starts_with("DIVERGED") && note.contains("explain half"),
            "{note}"
        );
        // Three steps whose loss rose are AdamW's first updates as often as a divergence:
        // not called one; a loss that is no number is one at any step.
        let mut short = f16.clone();
        short.steps_completed = 3;
        assert!(!short.diverged());
        short.final_loss = Some(f32::NAN);
        assert!(short.diverged());
        let bf16 = read("half-bf16");
        assert!(!bf16.diverged());
        assert_eq!(
            Row::from_summary(Variant::named("half-bf16"), "half-bf16", &bf16).note,
            None
        );
    }
}
