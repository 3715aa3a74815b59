//! The topic about moving AdamW's state to host memory (`offload-optimizer`). Its measured
//! part is read from the committed H100 runs: oomlab's compare rows in f32 and AMP bf16,
//! and PyTorch's GPT on the same config with AdamW on the GPU and on the host.

use serde_json::Value;

use super::{cite, measured_compare_in};
use crate::evidence::Evidence;
use crate::units::Bytes;

/// Topics, their one-line summary and their text (the measured part is appended).
pub(super) const TOPICS: &[(&str, &str, &str)] = &[(
    "offload-optimizer",
    "AdamW's moments in host memory, the update on the CPU",
    "\
What it does: `--strategy offload-optimizer` (or `--offload-optimizer` with any other
strategy) keeps AdamW's two moments in host memory instead of on the device. After the
backward pass each parameter's gradient and weights are read back to the host, the update
runs there on every core, and the new weights are written back. The device then holds
weights and gradients only: in f32, 8 bytes per parameter instead of 16, and none of the
moments' second copy that exists while an update is checked. This is the idea of
DeepSpeed's ZeRO-Offload and of FSDP's CPU offload, for one device.

When to use it: the optimizer state is what does not fit (a large model whose weights and
gradients fit but whose AdamW moments do not), and the host has the memory: twice the
moments at the update (`oomlab estimate` shows the host memory and the bytes that cross
the bus each step; oomlab refuses to start when the host lacks them).

What it costs: time. Every step sends the gradients and weights over the bus and back and
waits for the host's update; oomlab's copies go one parameter at a time and wait for each,
so its step grows far more than PyTorch's does with pinned memory (measured below).
Activations do not shrink: when they dominate, grad-accum, checkpointing or mixed
precision save more. On the CPU backend the host is the device, and nothing moves.
",
)];

/// PyTorch's two runs, AdamW on the GPU and on the host, in a sentence.
fn pytorch() -> String {
    let e = Evidence::H100OffloadPytorch;
    let Ok(Value::Array(runs)) = serde_json::from_str::<Value>(e.text()) else {
        return String::new();
    };
    let first = |offload: bool| {
        runs.iter()
            .find(|r| r["offload"].as_bool() == Some(offload))
            .map(|r| {
                (
                    r["peak_nvml_process_bytes"].as_u64().unwrap_or(0),
                    r["steady_step_s"].as_f64().unwrap_or(0.0),
                )
            })
    };
    let (Some((gpu_peak, gpu_step)), Some((host_peak, host_step))) = (first(false), first(true))
    else {
        return String::new();
    };
    format!(
        "\nPyTorch's GPT on the same config, f32 with TF32 and SDPA ({}): AdamW on the host \
         (pinned f32 master weights and moments, torch.optim.AdamW on the CPU) peaked {} below \
         its AdamW on the GPU ({} against {}), its step {:.1} ms against {:.1} ms ({:.1}x).\n",
        cite(e),
        Bytes(gpu_peak.saturating_sub(host_peak)),
        Bytes(host_peak),
        Bytes(gpu_peak),
        host_step * 1000.0,
        gpu_step * 1000.0,
        host_step / gpu_step.max(f64::MIN_POSITIVE),
    )
}

/// The measured part of `topic`, if it is this module's.
pub(super) fn measured(topic: &str) -> Option<String> {
    (topic == "offload-optimizer").then(|| {
        measured_compare_in(
            topic,
            &[
                (
                    Evidence::H100OffloadF32,
                    "gpu config, batch 64, 30 steps, f32",
                ),
                (
                    Evidence::H100OffloadBf16,
                    "gpu config, batch 64, 30 steps, AMP bf16",
                ),
            ],
        ) + &pytorch()
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_measured_part_has_both_rows_and_pytorchs_sentence() {
        let text = super::measured("offload-optimizer").unwrap();
        assert!(
            text.contains("offload-optimizer") && text.contains("baseline"),
            "{text}"
        );
        assert!(text.contains("AdamW on the host"), "{text}");
        assert!(text.contains("NVIDIA H100 80GB HBM3, 2026-12-07"), "{text}");
    }
}
