//! Offloading the optimizer state: AdamW's moments in host memory. After the backward
//! pass the gradients go to the host, the update runs there on every core, and the new
//! weights come back; the card keeps weights and gradients only. The ZeRO-Offload and FSDP
//! CPU offload idea, for one device.
//!
//! This module holds all of it: the compare row, the explain topic and the lesson stage
//! (here), the optimizer whose moments live on the host (`host_adamw`), and what the
//! estimate and the preflight count for it (`terms`). Its one setting,
//! `train.offload_optimizer`, is in the typed configuration; the loop builds this module's
//! optimizer, and the estimate adds its terms, when that setting is on.

mod host_adamw;
mod terms;

use serde_json::Value;

use super::story::{per_param, state_against};
use super::{BigFigures, Expect, Stage, StageNumbers, Technique, Topic, Variant};
use crate::evidence::Evidence;
use crate::units::Bytes;
use crate::words::Strategy;

pub use host_adamw::{OffloadAdamW, OffloadRecordError};
pub use terms::{host_need, host_refusal, OffloadTerms};

/// The technique.
struct OffloadOptimizer;

/// Its row.
pub(super) const ROW: Variant = Variant(&OffloadOptimizer);

/// `oomlab explain offload-optimizer`: its measured part is read from the committed H100
/// runs, oomlab's compare rows in f32 and AMP bf16, and PyTorch's GPT on the same config
/// with AdamW on the GPU and on the host.
const TOPIC: Topic = Topic {
    name: "offload-optimizer",
    summary: "AdamW's moments in host memory, the update on the CPU",
    text: "\
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
    compared: &[
        (
            Evidence::H100OffloadF32,
            "gpu config, batch 64, 30 steps, f32",
        ),
        (
            Evidence::H100OffloadBf16,
            "gpu config, batch 64, 30 steps, AMP bf16",
        ),
    ],
    more: pytorch,
};

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
        e.cite(),
        Bytes(gpu_peak.saturating_sub(host_peak)),
        Bytes(host_peak),
        Bytes(gpu_peak),
        host_step * 1000.0,
        gpu_step * 1000.0,
        host_step / gpu_step.max(f64::MIN_POSITIVE),
    )
}

impl Technique for OffloadOptimizer {
    fn name(&self) -> &'static str {
        "offload-optimizer"
    }

    fn summary(&self) -> &'static str {
        "AdamW's moments in host memory, the update on the CPU"
    }

    fn strategy(&self) -> Strategy {
        Strategy::OffloadOptimizer
    }

    fn topic(&self) -> Option<&'static Topic> {
        Some(&TOPIC)
    }

    fn stages(&self) -> &'static [Stage] {
        &[Stage {
            part: 2,
            order: 70,
            variant: ROW,
            title: "AdamW's moments in host memory (--strategy offload-optimizer)",
            what: "The same f32 weights, gradients and AdamW, but the two moments live in the host's RAM: after the backward pass every gradient goes to the host, the update runs there on every core, and the new weights come back. The card keeps 8 bytes per parameter instead of 16; the price is the bus and the host's speed, so this stage runs 3 steps (`oomlab explain offload-optimizer`).",
            question: "Will offloading AdamW's state fit the big model?",
            expect: Expect::Fits,
            gpu_only: true,
            // Its steps are several seconds each on the big model (7.3 s on an H100, against
            // pure bf16's 1.4): three show it fits and trains, in about 40 s.
            max_steps: Some(3),
        }]
    }

    fn after_model_stage(
        &self,
        fig: &BigFigures,
        _this: &StageNumbers,
        base: &StageNumbers,
    ) -> Vec<String> {
        vec![format!(
            "With AdamW's moments in host memory, the card keeps weights and gradients: {} by oomlab estimate's count ({} bytes per parameter){}.",
            fig.fixed,
            per_param(fig.fixed, fig.params),
            state_against(fig, base, "the baseline's")
        )]
    }

    fn after_model_fit(&self, _this: &StageNumbers) -> Vec<String> {
        vec!["It is the baseline's training, to rounding: only where the update runs has moved. Each step sends every gradient over the bus and every new weight back, so its steps are slower (its step time is in the table below).".into()]
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn pytorchs_sentence_reads_both_runs() {
        let text = super::pytorch();
        assert!(text.contains("AdamW on the host"), "{text}");
        assert!(text.contains("NVIDIA H100 80GB HBM3, 2026-12-07"), "{text}");
    }
}
