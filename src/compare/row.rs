//! One row of a comparison, read from a run's `summary.json`.

use serde::Serialize;
use serde_json::Value;

/// How a strategy's run ended, as the comparison reports it.
#[derive(Debug, Clone, PartialEq, Serialize)]
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
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// Strategy as given to `--strategies`.
    pub strategy: String,
    /// The process that ran it.
    pub pid: Option<u64>,
    /// Micro-batch x accumulation of the last applied step, e.g. `8 x 4`.
    pub split: Option<String>,
    /// Samples per optimizer step.
    pub effective_batch: Option<u64>,
    /// Parameter dtypes read back from the tensors.
    pub precision: Option<String>,
    /// `gpu` or `host`.
    pub memory_kind: Option<String>,
    /// Peak sampled memory of the process: NVML per-process VRAM (GPU) or RSS (CPU).
    pub peak_process_bytes: Option<u64>,
    /// Peak bytes in live tensors: burn's allocator at phase ends (GPU) or the host heap
    /// (CPU).
    pub peak_in_use_bytes: Option<u64>,
    /// Peak bytes burn's pool held (GPU).
    pub peak_reserved_bytes: Option<u64>,
    /// At the end: what the process holds beyond its tensors' pool: CUDA context and
    /// modules (GPU), or code, stacks and freed-but-kept heap (CPU).
    pub overhead_bytes: Option<u64>,
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
    /// The run folder, relative to the comparison folder.
    pub run_dir: String,
}

fn u(v: &Value) -> Option<u64> {
    v.as_u64()
}

fn recon(summary: &Value, label: &str) -> Option<u64> {
    summary["memory"]["reconciliation"]
        .as_array()?
        .iter()
        .find(|l| l["label"] == label)
        .and_then(|l| l["bytes"].as_u64())
}

impl Row {
    /// A row without figures.
    pub fn empty(strategy: &str, run_dir: &str, status: RowStatus) -> Self {
        Self {
            strategy: strategy.to_string(),
            pid: None,
            split: None,
            effective_batch: None,
            precision: None,
            memory_kind: None,
            peak_process_bytes: None,
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
            run_dir: run_dir.to_string(),
        }
    }

    /// The row of a run whose summary is `s` (the JSON of [`crate::report::RunSummary`]).
    pub fn from_summary(strategy: &str, run_dir: &str, s: &Value) -> Self {
        let m = &s["memory"];
        let gpu = m["kind"] == "gpu";
        let status = match s["stop"]["kind"].as_str() {
            Some("completed") => RowStatus::Completed,
            Some("out-of-memory") => RowStatus::OutOfMemory(
                s["adaptation"]["gave_up"]
                    .as_str()
                    .or_else(|| s["stop"]["detail"]["message"].as_str())
                    .unwrap_or("out of memory")
                    .to_string(),
            ),
            Some("interrupted") => RowStatus::Failed("interrupted (Ctrl-C)".into()),
            Some("failed") => {
                RowStatus::Failed(s["stop"]["detail"].as_str().unwrap_or("failed").to_string())
            }
            _ => RowStatus::Failed("the summary has no stop reason".into()),
        };
        fn dtypes(v: &serde_json::Value) -> Vec<&str> {
            v.as_array()
                .map(|a| a.iter().filter_map(|d| d.as_str()).collect())
                .unwrap_or_default()
        }
        let weights = dtypes(&s["params"]["dtypes"]);
        let compute = dtypes(&s["precision"]["compute_dtypes"]);
        // weights/compute, both read back from the tensors by the run.
        let precision = match (weights.is_empty(), compute.is_empty()) {
            (true, _) => None,
            (false, true) => Some(weights.join("+")),
            (false, false) => Some(format!("{}/{}", weights.join("+"), compute.join("+"))),
        };
        Self {
            pid: u(&s["pid"]),
            split: Some(format!(
                "{} x {}",
                s["plan"]["micro_batch"], s["plan"]["accumulation"]
            )),
            effective_batch: u(&s["effective_batch"]),
            precision,
            memory_kind: m["kind"].as_str().map(str::to_string),
            peak_process_bytes: u(&m["process_peak"]),
            peak_in_use_bytes: if gpu {
                u(&m["allocator_peak_in_use"])
            } else {
                u(&m["host_heap_peak"])
            },
            peak_reserved_bytes: if gpu {
                u(&m["allocator_peak_reserved"])
            } else {
                None
            },
            overhead_bytes: if gpu {
                recon(s, "+ outside the pool")
            } else {
                recon(s, "+ outside the heap count")
            },
            time_to_first_step_s: s["time_to_first_step_s"].as_f64(),
            steady_step_s: s["steady_step_s"].as_f64(),
            samples_per_s: s["samples_per_s"].as_f64(),
            oom_retries: u(&s["adaptation"]["oom_attempts"]).unwrap_or(0),
            skipped_steps: u(&s["loss_scale"]["skipped_steps"]).unwrap_or(0),
            steps_completed: u(&s["steps_completed"]).unwrap_or(0),
            final_loss: s["final_loss"].as_f64(),
            ..Self::empty(strategy, run_dir, status)
        }
    }
}
