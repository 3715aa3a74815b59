//! `oomlab estimate --model NAME | --hf-config PATH`: the table for a Hugging Face model
//! trained with PyTorch, the fixed-state check first, the largest micro-batch, the
//! smallest card and what to change.

use serde::Serialize;

use super::memory::{estimate, largest_micro_batch, Estimate, Optimizer, Precision, Setup};
use super::shape::Shape;
use crate::estimate::{cards::cards, Card};
use crate::units::Bytes;

/// One what-if: the run with one change.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WhatIf {
    /// The change in words.
    pub change: String,
    /// The flag that asks oomlab for it.
    pub flags: String,
    /// The process peak with it.
    pub process: Bytes,
    /// Weights + gradients + optimizer state with it.
    pub fixed_state: Bytes,
    /// The largest micro-batch with it on the card (None without a card).
    pub largest_micro_batch: Option<u64>,
    /// Measured on the H200 against transformers (false: the formula only).
    pub checked: bool,
}

/// The whole answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HfReport {
    /// Always false: these are predictions from shapes, nothing ran.
    pub simulated: bool,
    /// The model.
    pub shape: Shape,
    /// Its parameters.
    pub params: u64,
    /// The estimate of the run asked for.
    pub estimate: Estimate,
    /// The card sized for.
    pub card: Option<Card>,
    /// Fixed state's share of the card.
    pub fixed_share: Option<f64>,
    /// The largest micro-batch that fits the card.
    pub largest_micro_batch: Option<u64>,
    /// The smallest card of the built-in list that holds this run.
    pub smallest_card: Option<Card>,
    /// One change at a time.
    pub what_ifs: Vec<WhatIf>,
}

impl HfReport {
    /// Estimate `setup` for `shape`, against `card` where given.
    pub fn new(shape: Shape, setup: Setup, card: Option<Card>) -> Self {
        let e = estimate(&shape, setup);
        let largest = card
            .as_ref()
            .map(|c| largest_micro_batch(&shape, setup, c.bytes));
        let smallest_card = cards().into_iter().find(|c| e.needs() <= c.bytes);
        let mut changes: Vec<(String, String, Setup, bool)> = Vec::new();
        let accum_flags = format!(
            "--batch {} --steps {}",
            setup.micro_batch * setup.accum * setup.gpus,
            setup.accum * 2
        );
        let mut add = |change: &str, flags: &str, s: Setup, checked: bool| {
            if s != setup {
                changes.push((change.to_string(), flags.to_string(), s, checked));
            }
        };
        add(
            "AMP bf16 (autocast)",
            "--precision bf16",
            Setup {
                precision: Precision::AmpBf16,
                ..setup
            },
            true,
        );
        add(
            "pure bf16 (model.to(bfloat16))",
            "--precision bf16 --strategy half",
            Setup {
                precision: Precision::Bf16,
                ..setup
            },
            true,
        );
        add(
            "gradient checkpointing",
            "--checkpointing",
            Setup {
                checkpointing: true,
                ..setup
            },
            true,
        );
        if setup.micro_batch > 1 {
            add(
                "half the micro-batch, twice the accumulation",
                &accum_flags,
                Setup {
                    micro_batch: setup.micro_batch / 2,
                    accum: setup.accum * 2,
                    ..setup
                },
                false,
            );
        }
        add(
            "8-bit AdamW (bitsandbytes)",
            "--optimizer adamw-8bit",
            Setup {
                optimizer: Optimizer::Adamw8bit,
                ..setup
            },
            false,
        );
        add(
            "Adafactor",
            "--optimizer adafactor",
            Setup {
                optimizer: Optimizer::Adafactor,
                ..setup
            },
            false,
        );
        add(
            "LoRA (base frozen)",
            "--lora",
            Setup {
                lora: true,
                ..setup
            },
            false,
        );
        add(
            "optimizer state offloaded to the CPU",
            "--offload",
            Setup {
                offload: true,
                ..setup
            },
            false,
        );
        let what_ifs = changes
            .into_iter()
            .map(|(change, flags, s, checked)| {
                let w = estimate(&shape, s);
                WhatIf {
                    change,
                    flags,
                    process: w.process,
                    fixed_state: w.fixed_state,
                    largest_micro_batch: card
                        .as_ref()
                        .map(|c| largest_micro_batch(&shape, s, c.bytes)),
                    checked,
                }
            })
            .collect();
        HfReport {
            simulated: false,
            params: shape.params(),
            fixed_share: card
                .as_ref()
                .map(|c| e.fixed_state.0 as f64 / c.bytes.0 as f64),
            shape,
            estimate: e,
            card,
            largest_micro_batch: largest,
            smallest_card,
            what_ifs,
        }
    }

    /// The fixed-state sentence: weights, gradients and optimizer state against the card.
    pub fn fixed_state_line(&self) -> String {
        let e = &self.estimate;
        let part = |k| {
            e.terms
                .iter()
                .find(|t| t.kind == k)
                .map(|t| t.bytes)
                .unwrap_or(Bytes(0))
        };
        use super::memory::Kind;
        let what = format!(
            "weights {} + gradients {} + {} state {} = {}",
            part(Kind::Weights),
            part(Kind::Gradients),
            e.setup.optimizer.label(),
            part(Kind::OptimizerState),
            e.fixed_state
        );
        match (&self.card, self.fixed_share) {
            (Some(c), Some(share)) if share >= 0.8 => format!(
                "Fixed state: {what} = {:.0}% of {}: no batch technique fits this; act on the state (below: pure bf16, 8-bit AdamW, Adafactor, LoRA, offload, more GPUs with ZeRO).",
                share * 100.0,
                c.name
            ),
            (Some(c), Some(share)) => format!(
                "Fixed state: {what} = {:.0}% of {}; the rest is for activations, logits and the allocator.",
                share * 100.0,
                c.name
            ),
            _ => format!("Fixed state: {what}."),
        }
    }

    /// The table for the terminal.
    pub fn to_terminal(&self) -> String {
        let e = &self.estimate;
        let s = &e.setup;
        let mut out = String::new();
        out.push_str(&format!(
            "oomlab estimate: {} ({}, {} parameters) trained with PyTorch / Hugging Face transformers\n",
            self.shape.name,
            self.shape.model_type,
            crate::text::thousands(self.params)
        ));
        out.push_str(&format!("  {}\n", self.shape.describe()));
        out.push_str(&format!(
            "  sequence {}, micro-batch {}{}, {}, {}, SDPA attention{}{}\n",
            s.seq,
            s.micro_batch,
            if s.accum > 1 {
                format!(" x {} accumulated", s.accum)
            } else {
                String::new()
            },
            s.precision.label(),
            s.optimizer.label(),
            if s.checkpointing {
                ", gradient checkpointing"
            } else {
                ""
            },
            if s.gpus > 1 {
                format!(
                    ", {} GPUs, ZeRO stage {} (several GPUs: formula only, not measured)",
                    s.gpus, s.zero
                )
            } else {
                String::new()
            },
        ));
        out.push_str("  From the model's shapes alone: nothing was loaded or run.\n\n");
        out.push_str(&self.fixed_state_line());
        out.push_str("\n\n");
        let w = e
            .terms
            .iter()
            .map(|t| t.kind.label().len())
            .max()
            .unwrap_or(10);
        for t in &e.terms {
            out.push_str(&format!(
                "  {} {:<w$} {:>11}  {}\n",
                if t.at_peak { "*" } else { " " },
                t.kind.label(),
                t.bytes.to_string(),
                t.how
            ));
        }
        out.push_str(&format!("  (* alive at the peak: {})\n", e.moment.label()));
        if let Some(r) = &e.replay {
            out.push_str(&format!(
                "  The peaks below are replayed (src/hf/templates/{}.tpl); by formula the terms make an allocated peak of {}.\n",
                r.template, r.terms_allocated
            ));
        }
        out.push('\n');
        out.push_str(&format!(
            "Predicted peak: allocated {} (torch.cuda.max_memory_allocated), reserved {} (max_memory_reserved), process {} (nvidia-smi on a card with room).\nA card must hold {}: the allocated peak and the context (on a full card PyTorch frees its cached blocks and retries before it raises out-of-memory).\n",
            e.allocated, e.reserved, e.process, e.needs()
        ));
        match (&self.card, self.largest_micro_batch) {
            (Some(c), Some(0)) => out.push_str(&format!(
                "On {}: does not fit even at micro-batch 1.\n",
                c.name
            )),
            (Some(c), Some(b)) => out.push_str(&format!(
                "On {}: largest micro-batch {b} at sequence {}{}.\n",
                c.name,
                s.seq,
                if b < s.micro_batch {
                    format!(
                        " (you asked for {}: use --batch {b} with accumulation for the rest)",
                        s.micro_batch
                    )
                } else {
                    String::new()
                }
            )),
            _ => {}
        }
        match &self.smallest_card {
            Some(c) => out.push_str(&format!("Smallest card for this run: {}.\n", c.name)),
            None => out.push_str("No single card of the list holds this run: see the changes below, or more GPUs with ZeRO (--gpus N --zero 3).\n"),
        }
        out.push_str("\nWhat to change (one change at a time):\n");
        for w in &self.what_ifs {
            out.push_str(&format!(
                "  {:<46} process {:>11}  fixed state {:>11}{}{}\n      {}\n",
                w.change,
                w.process.to_string(),
                w.fixed_state.to_string(),
                match w.largest_micro_batch {
                    Some(0) => "  does not fit".to_string(),
                    Some(b) => format!("  largest micro-batch {b}"),
                    None => String::new(),
                },
                if w.checked {
                    ""
                } else {
                    "  (formula only, not measured)"
                },
                w.flags
            ));
        }
        out.push_str(
            "\nChecked against real transformers training on an H200: docs/results/2026-12-04-hf-estimate-validation.md. `oomlab explain estimate` says how each term is made.\n",
        );
        out
    }
}
