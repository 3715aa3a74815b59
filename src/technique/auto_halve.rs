//! Auto-halve: on an out-of-memory failure, discard the step, halve the micro-batch and
//! retry, keeping the effective batch.

use super::{Expect, Stage, StageNumbers, Technique, Topic, Variant};
use crate::words::Strategy;

/// The technique.
struct AutoHalve;

/// Its row.
pub(super) const ROW: Variant = Variant(&AutoHalve);

/// `oomlab explain auto-halve`.
const TOPIC: Topic = Topic {
    name: "auto-halve",
    summary: "on OOM: discard the step, halve the micro-batch, retry, keep the batch",
    text: "\
What it does: starts at the configured batch. When a step runs out of memory, oomlab's
detector catches it, the step is discarded (the model and AdamW's moments are exactly as
before), the memory it held is released, and the same step is retried with half the
micro-batch and twice the accumulation, so the optimizer still sees the configured batch.
Sizes the failure already proves too large are skipped (the failed attempt's own memory,
scaled to the smaller size, would exceed what was available). `--search bisect` probes
back up after the first fit, to within 10% of the largest micro-batch that fits. Every
attempt is in retries.jsonl and in the summary.

When to use it: you do not know what fits on the card in front of you (a shared GPU, a
new model, a class with different cards), or memory use varies during the run.

What it costs: every failed attempt (its time is in the retry log) and, on CUDA, the
first step at every new shape compiles and autotunes its kernels unless they are cached
(minutes for a shape that neither the kernel cache nor the kernels oomlab ships for the
H100 and H200 cover; oomlab keeps the cache in ~/.cache/oomlab/cubecl). A recovered run
ends with exactly the weights of a run configured from the start with the final split
(checked bit for bit on the CPU by oomlab's test suite).
",
    compared: crate::evidence::STRATEGY_COMPARISONS,
    more: String::new,
};

impl Technique for AutoHalve {
    fn name(&self) -> &'static str {
        "auto-halve"
    }

    fn summary(&self) -> &'static str {
        "on OOM, discard the step, halve the micro-batch, retry"
    }

    fn strategy(&self) -> Strategy {
        Strategy::AutoHalve
    }

    fn topic(&self) -> Option<&'static Topic> {
        Some(&TOPIC)
    }

    fn stages(&self) -> &'static [Stage] {
        &[Stage {
            part: 1,
            order: 50,
            variant: ROW,
            title: "auto-halve (--strategy auto-halve)",
            what: "Start with the whole batch; when a step runs out of memory, discard it (model and optimizer untouched), halve the micro-batch, double the accumulation, and retry the same step.",
            question: "Will auto-halve finish?",
            expect: Expect::Recovers,
            gpu_only: false,
            max_steps: None,
        }]
    }

    fn after_batch_stage(&self, this: &StageNumbers, _base: &StageNumbers) -> Vec<String> {
        if this.oom_retries > 0 && this.completed {
            vec![format!(
                "It ran out of memory {}, discarded each failed attempt and finished at {}: its peak ({}) includes the failed attempt, not only the split it kept. Every attempt is in retries.jsonl; the effective batch is kept, so the updates are gradient accumulation's at the split it found (`oomlab explain auto-halve`).",
                crate::text::count(this.oom_retries, "time", "times"),
                this.split,
                this.peak.map_or("n/a".to_string(), |p| p.to_string())
            )]
        } else if this.completed {
            vec![format!(
                "It never ran out of memory, so it trained at {} like the baseline would (`oomlab explain auto-halve`).",
                this.split
            )]
        } else {
            Vec::new()
        }
    }
}
