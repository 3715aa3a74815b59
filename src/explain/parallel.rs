//! The topic about several devices: data parallelism and sharding the optimizer state
//! (ZeRO stage 1). Its measured part is read from the committed runs: two peers sharing
//! one H200 (docs/results/2026-12-01-h200-parallel-one-gpu) and two CPU peers
//! (docs/results/2026-12-02-cpu-parallel). No two-GPU run exists yet, and the text says so.

use serde_json::Value;

use crate::units::Bytes;

/// Topics, their one-line summary and their text (the measured part is appended).
pub const TOPICS: &[(&str, &str, &str)] = &[(
    "shard-optimizer",
    "several devices: data parallel, and each device keeping 1/N of the optimizer state",
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
all-reduce and the gather in 64 MiB buckets (OOMLAB_BUCKET_MIB; 0 sends one operation per
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

const H200: &str = "docs/results/2026-12-01-h200-parallel-one-gpu, H200";
const H200_RUNS: [(&str, &str); 5] = [
    (
        "one device, batch 64",
        crate::evidence::Evidence::ParallelH200Single.text(),
    ),
    (
        "2 peers, data parallel",
        crate::evidence::Evidence::ParallelH200Dp.text(),
    ),
    (
        "2 peers, shard-optimizer",
        crate::evidence::Evidence::ParallelH200Zero.text(),
    ),
    (
        "2 peers, data parallel, per param",
        crate::evidence::Evidence::ParallelH200DpPerParam.text(),
    ),
    (
        "2 peers, shard-optimizer, per param",
        crate::evidence::Evidence::ParallelH200ZeroPerParam.text(),
    ),
];
const CPU: &str = "docs/results/2026-12-02-cpu-parallel, 2 CPU cores";
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

/// What one peer of a run kept: `allocator` picks burn's allocator peak (CUDA), otherwise
/// only the optimizer state is shown (CPU peers share one heap).
fn peers(s: &Value, allocator: bool) -> String {
    let Some(peers) = s["parallel"]["peers"].as_array() else {
        return String::new();
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
    format!("\n  {:<36}   per peer: {}", "", each.join(" | "))
}

fn h200() -> String {
    let mut out = format!(
        "\nMeasured by oomlab ({H200}; `gpu` config, 20 steps,\nf32, per parameter or in 64 MiB buckets). Only one GPU was lent, so both peers share\ncuda:0: its compute and its NVML total. Not a scaling figure:\n"
    );
    for (label, json) in H200_RUNS {
        let Ok(s) = serde_json::from_str::<Value>(json) else {
            continue;
        };
        out.push_str(&format!(
            "  {label:<36} steady step {:.1} ms, NVML process peak {}, loss {:.6}{}\n",
            s["steady_step_s"].as_f64().unwrap_or(f64::NAN) * 1e3,
            Bytes(s["memory"]["process_peak"].as_u64().unwrap_or(0)),
            s["final_loss"].as_f64().unwrap_or(f64::NAN),
            peers(&s, true)
        ));
    }
    out
}

fn cpu() -> String {
    let params = serde_json::from_str::<Value>(CPU_RUNS[0].1[0])
        .ok()
        .and_then(|s| s["params"]["count"].as_u64())
        .unwrap_or(0);
    let mut out = format!(
        "\nMeasured by oomlab ({CPU}; a wide, shallow\nGPT of {params} parameters where AdamW's state dominates). Both peers are threads of one\nprocess, so the heap is both peers':\n"
    );
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
        out.push_str(&format!(
            "  {label:<36} host heap peak {median} (median of {}), loss {:.6}{}\n",
            peaks.len(),
            first["final_loss"].as_f64().unwrap_or(f64::NAN),
            peers(first, false)
        ));
    }
    if let [_, dp, zero, dp_each, zero_each] = medians[..] {
        out.push_str(&format!(
            "  sharding lowered the process's heap peak by {} in 64 MiB buckets (the default) and by\n  {} with one operation per parameter: the buckets' packed copies come on top at the\n  gather, which follows the update, when memory is highest\n",
            Bytes(dp.0.saturating_sub(zero.0)),
            Bytes(dp_each.0.saturating_sub(zero_each.0))
        ));
    }
    out.push_str(
        "\nNot measured: two GPUs. No machine with two was lent, so the two-GPU throughput, each\nGPU's VRAM with and without sharding, and PyTorch DDP / ZeroRedundancyOptimizer beside\nthem are still to be run (`MODE=two-gpus bash scripts/gpu/run.sh data-parallel`).\n",
    );
    out
}

/// The measured part of `topic`, if it is this module's.
pub fn measured(topic: &str) -> Option<String> {
    (topic == "shard-optimizer").then(|| h200() + &cpu())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_runs_show_what_the_topic_says() {
        let h = h200();
        assert_eq!(h.matches("steady step").count(), 5, "{h}");
        // Sharded peers each keep about half of the state plain peers keep.
        assert!(
            h.contains("shard-optimizer") && h.contains("97.0 MiB"),
            "{h}"
        );
        let c = cpu();
        assert!(c.contains("sharding lowered"), "{c}");
        assert_eq!(c.matches("median of 3").count(), 5, "{c}");
        assert!(c.contains("Not measured: two GPUs"), "{c}");
    }
}
