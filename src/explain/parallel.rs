//! The topic about several devices: data parallelism and sharding the optimizer state
//! (ZeRO stage 1). Its measured part is read from the committed runs: two peers sharing
//! one H200 (docs/results/2026-12-01-h200-parallel-one-gpu) and two CPU peers
//! (docs/results/2026-12-02-cpu-parallel), each named with its card and date. No two-GPU
//! run exists yet, and the text says so.

use serde_json::Value;

use super::layout::row;
use super::older_defaults;
use crate::evidence::Evidence;
use crate::units::Bytes;

/// Topics, their one-line summary and their text (the measured part is appended).
pub(super) const TOPICS: &[(&str, &str, &str)] = &[(
    "shard-optimizer",
    "several devices: data parallel, each keeping 1/N of the optimizer state",
    "\
What it does: `--devices cuda:0,cuda:1` (or `--gpus 2`) trains data parallel: one trainer
thread per device, each on batch/N samples of every batch, the gradients averaged over
the devices by burn-collective's all-reduce (in 64 MiB buckets), rank 0's initial weights
broadcast to the others. Every device still holds all weights, all gradients and, with
plain data parallelism, all of AdamW's state: data parallelism alone divides only the
activations (each device's share of the batch). `--strategy shard-optimizer` (ZeRO stage
1) gives each parameter one owner: only the owner keeps its two AdamW moments and updates
it, then broadcasts the new values. Per device that is weights + gradients + 1/N of the
optimizer state: with AdamW in f32, 4 + 4 + 8/N bytes per parameter instead of 16.

When to use it: the model trains on several GPUs already and the optimizer state is a
large share of each one's memory (big models, AdamW, small per-device batches). When
activations dominate, grad-accum, checkpointing or mixed precision save more; `oomlab
estimate --devices cuda:0,cuda:1 [--strategy shard-optimizer]` shows each term per device.

What it costs: one more collective operation per step (the owners' updated parameters go
to every device), and a step is only as fast as the slowest device. oomlab sends the
all-reduce and the gather in 64 MiB buckets (train.bucket_mib; 0 sends one operation per
parameter): far fewer, larger operations, much faster on CUDA, but their packed copies
come on top at the gather, which follows the update, when memory is highest, and take
back part of what sharding saves (measured below; `oomlab estimate` does not count them
yet). An out-of-memory failure on any device discards the step on all of them: the
devices vote before the all-reduce and before keeping the update (burn 0.21 on CUDA does
not report the failure, so without the vote the others would wait for it forever or
apply a step made from zeros), and auto-halve then halves on every device together.
",
)];

use crate::evidence::Evidence::*;

const H200_RUNS: [(&str, &str); 5] = [
    ("one device, batch 64", ParallelH200Single.text()),
    ("2 peers, data parallel", ParallelH200Dp.text()),
    ("2 peers, shard-optimizer", ParallelH200Zero.text()),
    (
        "2 peers, data parallel, per param",
        ParallelH200DpPerParam.text(),
    ),
    (
        "2 peers, shard-optimizer, per param",
        ParallelH200ZeroPerParam.text(),
    ),
];
/// Each CPU run three times (two peers in one process: where their phases overlap moves
/// the process's peak).
const CPU_RUNS: [(&str, [&str; 3]); 5] = [
    (
        "one device, batch 4",
        [
            CpuParallelOne1.text(),
            CpuParallelOne2.text(),
            CpuParallelOne3.text(),
        ],
    ),
    (
        "2 peers, data parallel",
        [
            CpuParallelDp1.text(),
            CpuParallelDp2.text(),
            CpuParallelDp3.text(),
        ],
    ),
    (
        "2 peers, shard-optimizer",
        [
            CpuParallelZero1.text(),
            CpuParallelZero2.text(),
            CpuParallelZero3.text(),
        ],
    ),
    (
        "2 peers, data parallel, per param",
        [
            CpuParallelDpPerParam1.text(),
            CpuParallelDpPerParam2.text(),
            CpuParallelDpPerParam3.text(),
        ],
    ),
    (
        "2 peers, shard-optimizer, per param",
        [
            CpuParallelZeroPerParam1.text(),
            CpuParallelZeroPerParam2.text(),
            CpuParallelZeroPerParam3.text(),
        ],
    ),
];

/// What each peer of a run kept: `allocator` adds burn's allocator peak (CUDA); otherwise
/// only the optimizer state is shown (CPU peers share one heap).
fn peers(s: &Value, allocator: bool) -> String {
    let Some(peers) = s["parallel"]["peers"].as_array() else {
        return "-".to_string();
    };
    let each: Vec<String> = peers
        .iter()
        .map(|p| {
            let state = Bytes(p["optimizer_state"].as_u64().unwrap_or(0));
            if allocator {
                format!(
                    "state {state}, in tensors {}",
                    Bytes(p["allocator_peak_in_use"].as_u64().unwrap_or(0))
                )
            } else {
                format!("state {state}")
            }
        })
        .collect();
    each.join("; ")
}

/// The folder of the runs `e` is one of, for the heading.
fn folder(e: Evidence) -> &'static str {
    let path = e.path();
    let end = path
        .match_indices('/')
        .nth(2)
        .map_or(path.len(), |(i, _)| i);
    &path[..end]
}

fn h200() -> String {
    let e = ParallelH200Single;
    let mut out = format!(
        "\nMeasured by oomlab ({}, {}; {}): the `gpu` config, 20 steps, f32, per parameter or \
         in 64 MiB buckets. Only one GPU was lent, so both peers share cuda:0: its compute \
         and its NVML total. Not a scaling figure.{}\n",
        e.card(),
        e.date(),
        folder(e),
        older_defaults(e)
    );
    out.push_str(&row(&[
        "run",
        "steady step",
        "NVML process peak",
        "loss",
        "per peer",
    ]));
    for (label, json) in H200_RUNS {
        let Ok(s) = serde_json::from_str::<Value>(json) else {
            continue;
        };
        out.push_str(&row(&[
            label.to_string(),
            format!(
                "{:.1} ms",
                s["steady_step_s"].as_f64().unwrap_or(f64::NAN) * 1e3
            ),
            Bytes(s["memory"]["process_peak"].as_u64().unwrap_or(0)).to_string(),
            format!("{:.6}", s["final_loss"].as_f64().unwrap_or(f64::NAN)),
            peers(&s, true),
        ]));
    }
    out
}

fn cpu() -> String {
    let e = CpuParallelOne1;
    let params = serde_json::from_str::<Value>(CPU_RUNS[0].1[0])
        .ok()
        .and_then(|s| s["params"]["count"].as_u64())
        .unwrap_or(0);
    let mut out = format!(
        "\nMeasured by oomlab ({}, {}; {}): a wide, shallow GPT of {params} parameters where \
         AdamW's state dominates. Both peers are threads of one process, so the heap is both \
         peers'.{}\n",
        e.card(),
        e.date(),
        folder(e),
        older_defaults(e)
    );
    out.push_str(&row(&["run", "host heap peak", "loss", "per peer"]));
    let mut medians = Vec::new();
    for (label, repeats) in CPU_RUNS {
        let runs: Vec<Value> = repeats
            .iter()
            .filter_map(|j| serde_json::from_str(j).ok())
            .collect();
        let Some(first) = runs.first() else {
            continue;
        };
        let mut peaks: Vec<u64> = runs
            .iter()
            .filter_map(|s| s["memory"]["host_heap_peak"].as_u64())
            .collect();
        peaks.sort_unstable();
        let median = Bytes(peaks.get(peaks.len() / 2).copied().unwrap_or(0));
        medians.push(median);
        out.push_str(&row(&[
            label.to_string(),
            format!("{median} (median of {})", peaks.len()),
            format!("{:.6}", first["final_loss"].as_f64().unwrap_or(f64::NAN)),
            peers(first, false),
        ]));
    }
    if let [_, dp, zero, dp_each, zero_each] = medians[..] {
        out.push_str(&format!(
            "Sharding lowered the process's heap peak by {} in 64 MiB buckets (the default) and \
             by {} with one operation per parameter: the buckets' packed copies come on top at \
             the gather, which follows the update, when memory is highest.\n",
            Bytes(dp.0.saturating_sub(zero.0)),
            Bytes(dp_each.0.saturating_sub(zero_each.0))
        ));
    }
    out.push_str(
        "\nNot measured: two GPUs. No machine with two was lent, so the two-GPU throughput, \
         each GPU's VRAM with and without sharding, and PyTorch DDP / ZeroRedundancyOptimizer \
         beside them are still to be run.\n",
    );
    out
}

/// The measured part of `topic`, if it is this module's.
pub(super) fn measured(topic: &str) -> Option<String> {
    (topic == "shard-optimizer").then(|| h200() + &cpu())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_runs_show_what_the_topic_says() {
        let h = h200();
        let rows = h
            .lines()
            .filter(|l| l.starts_with("| ") && l.contains(" ms |"))
            .count();
        assert_eq!(rows, 5, "{h}");
        // Sharded peers each keep about half of the state plain peers keep.
        assert!(
            h.contains("shard-optimizer") && h.contains("97.0 MiB"),
            "{h}"
        );
        let c = cpu();
        assert!(c.contains("Sharding lowered"), "{c}");
        assert_eq!(c.matches("median of 3").count(), 5, "{c}");
        assert!(c.contains("Not measured: two GPUs"), "{c}");
    }
}
