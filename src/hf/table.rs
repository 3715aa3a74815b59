//! `oomlab estimate --model NAME | --hf-config PATH`: the table for a Hugging Face model
//! trained with PyTorch, the fixed-state check first, the largest micro-batch, the
//! smallest card and what to change.

use serde::Serialize;

use super::memory::{estimate, largest_micro_batch, Estimate};
use super::setup::{Optimizer, Precision, Setup};
use super::shape::Shape;
use crate::estimate::{cards::cards, Card};
use crate::text::{table, wrap, Footnotes};
use crate::units::Bytes;

/// Whether a run fits a card, by one criterion everywhere: the predicted process peak
/// (what nvidia-smi shows on a card with room) against the card's capacity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Fit {
    /// The process peak is at most the capacity.
    Fits,
    /// Over the capacity, but the allocated peak and the context are not: it fits only if
    /// PyTorch's cache gives back enough of the blocks it holds (it frees them and retries
    /// before it raises out-of-memory). Not counted as fitting.
    OnlyIfTheCacheShrinks,
    /// Even the allocated peak and the context are over the capacity.
    DoesNotFit,
}

/// The fit of `e` on `capacity`.
pub fn fit_of(e: &Estimate, capacity: Bytes) -> Fit {
    if e.process <= capacity {
        Fit::Fits
    } else if e.needs() <= capacity {
        Fit::OnlyIfTheCacheShrinks
    } else {
        Fit::DoesNotFit
    }
}

/// The largest micro-batch whose predicted process peak fits `capacity` (0: not even 1).
pub fn largest_fitting(shape: &Shape, setup: Setup, capacity: Bytes) -> u64 {
    let fits = |b: u64| {
        estimate(
            shape,
            Setup {
                micro_batch: b,
                ..setup
            },
        )
        .process
            <= capacity
    };
    if !fits(1) {
        return 0;
    }
    let (mut lo, mut hi) = (1u64, 2u64);
    while fits(hi) {
        lo = hi;
        hi *= 2;
        if hi > 1 << 20 {
            return lo;
        }
    }
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// Several changes together.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Combination {
    /// The changes, in words.
    pub changes: Vec<String>,
    /// The flags that ask oomlab for them.
    pub flags: String,
    /// The process peak at the micro-batch asked for.
    pub process: Bytes,
    /// The largest micro-batch with them on the card.
    pub largest_micro_batch: u64,
    /// Every change in it was measured on the H200 against transformers.
    pub checked: bool,
}

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
    /// Whether the run asked for fits the card.
    pub fit: Option<Fit>,
    /// The card's capacity less the predicted process peak (negative: over it).
    pub headroom_bytes: Option<i64>,
    /// The largest micro-batch whose predicted process peak fits the card.
    pub largest_micro_batch: Option<u64>,
    /// The largest micro-batch whose allocated peak and context fit: reachable only if
    /// PyTorch's cache gives back what it holds.
    pub largest_if_the_cache_shrinks: Option<u64>,
    /// The smallest card of the built-in list whose capacity holds the process peak.
    pub smallest_card: Option<Card>,
    /// One change at a time.
    pub what_ifs: Vec<WhatIf>,
    /// The fewest changes that reach the micro-batch asked for on the card (none when the
    /// run fits as it is, or nothing reaches it).
    pub fewest_changes: Option<Combination>,
    /// The largest micro-batch changes measured against transformers reach together.
    pub largest_combination: Option<Combination>,
}

impl HfReport {
    /// Estimate `setup` for `shape`, against `card` where given.
    pub fn new(shape: Shape, setup: Setup, card: Option<Card>) -> Self {
        let e = estimate(&shape, setup);
        let largest = card
            .as_ref()
            .map(|c| largest_fitting(&shape, setup, c.bytes));
        let smallest_card = cards().into_iter().find(|c| e.process <= c.bytes);
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
                    largest_micro_batch: card.as_ref().map(|c| largest_fitting(&shape, s, c.bytes)),
                    checked,
                }
            })
            .collect();
        let (fewest_changes, largest_combination) = match &card {
            Some(c) => combinations(&shape, setup, c.bytes),
            None => (None, None),
        };
        HfReport {
            simulated: false,
            params: shape.params(),
            fixed_share: card
                .as_ref()
                .map(|c| e.fixed_state.0 as f64 / c.bytes.0 as f64),
            fit: card.as_ref().map(|c| fit_of(&e, c.bytes)),
            headroom_bytes: card.as_ref().map(|c| c.bytes.0 as i64 - e.process.0 as i64),
            largest_if_the_cache_shrinks: card
                .as_ref()
                .map(|c| largest_micro_batch(&shape, setup, c.bytes)),
            shape,
            estimate: e,
            card,
            largest_micro_batch: largest,
            smallest_card,
            what_ifs,
            fewest_changes,
            largest_combination,
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

    /// The report for the terminal, laid out for the output's width.
    pub fn to_terminal(&self) -> String {
        let e = &self.estimate;
        let s = &e.setup;
        let mut out = wrap(
            &format!(
                "oomlab estimate: {} ({}, {} parameters) trained with PyTorch and Hugging Face transformers. From the model's shapes alone: nothing was loaded or run.",
                self.shape.name,
                self.shape.model_type,
                crate::text::thousands(self.params)
            ),
            "",
        );
        out.push_str(&wrap(&self.shape.describe(), "  "));
        out.push_str(&wrap(
            &format!(
                "sequence {}, micro-batch {}{}, {}, {}, SDPA attention{}{}",
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
            ),
            "  ",
        ));
        out.push('\n');
        out.push_str(&wrap(&self.fixed_state_line(), ""));
        out.push('\n');
        let mut t = table();
        t.set_header(vec!["", "term", "size", "how it is counted"]);
        for term in &e.terms {
            t.add_row(vec![
                if term.at_peak { "*" } else { "" }.to_string(),
                term.kind.label().to_string(),
                term.bytes.to_string(),
                term.how.clone(),
            ]);
        }
        out.push_str(&format!("{t}\n"));
        out.push_str(&wrap(
            &format!(
                "* alive at the peak: {}.{}",
                e.moment.label(),
                match &e.replay {
                    Some(r) => format!(
                        " The peaks are replayed through a model of PyTorch's caching allocator; by formula the terms make an allocated peak of {}.",
                        r.terms_allocated
                    ),
                    None => String::new(),
                }
            ),
            "",
        ));
        out.push('\n');
        out.push_str(&wrap(
            &format!(
                "Predicted peak: allocated {} (torch.cuda.max_memory_allocated), reserved {} (max_memory_reserved), process {} (what nvidia-smi shows on a card with room).",
                e.allocated, e.reserved, e.process
            ),
            "",
        ));
        if let (Some(c), Some(fit), Some(room)) = (&self.card, self.fit, self.headroom_bytes) {
            out.push('\n');
            out.push_str(&wrap(&self.fit_line(c, fit, room), ""));
            if let Some(note) = &c.note {
                out.push_str(&wrap(&format!("({note}.)"), ""));
            }
        }
        match &self.smallest_card {
            Some(c) => out.push_str(&wrap(
                &format!(
                    "Smallest card of the list for this run (process peak {}): {}.",
                    e.process, c.name
                ),
                "",
            )),
            None => out.push_str(&wrap(
                "No single card of the list holds this run: see the changes below, or more GPUs with ZeRO (--gpus N --zero 3).",
                "",
            )),
        }
        out.push_str("\nWhat to change, one change at a time:\n");
        let mut notes = Footnotes::new();
        let mut t = table();
        let mut header = vec!["change", "flags", "process peak"];
        if self.card.is_some() {
            header.push("largest micro-batch");
        }
        t.set_header(header);
        for w in &self.what_ifs {
            let mut row = vec![
                if w.checked {
                    w.change.clone()
                } else {
                    format!(
                        "{} {}",
                        w.change,
                        notes.mark("Formula only: not measured against transformers training.")
                    )
                },
                w.flags.clone(),
                w.process.to_string(),
            ];
            if let Some(b) = w.largest_micro_batch {
                row.push(match b {
                    0 => "does not fit".to_string(),
                    b => b.to_string(),
                });
            }
            t.add_row(row);
        }
        out.push_str(&format!("{t}\n{}", notes.render()));
        for (label, c) in [
            (
                format!("Fewest changes that fit micro-batch {}", s.micro_batch),
                &self.fewest_changes,
            ),
            (
                "Largest micro-batch from measured changes together".to_string(),
                &self.largest_combination,
            ),
        ] {
            if let Some(c) = c {
                out.push_str(&wrap(
                    &format!(
                        "{label}: {} ({}): largest micro-batch {}, process peak {} at micro-batch {}{}.",
                        c.changes.join(" + "),
                        c.flags,
                        c.largest_micro_batch,
                        c.process,
                        s.micro_batch,
                        if c.checked {
                            ""
                        } else {
                            "; formula only, not measured"
                        }
                    ),
                    "",
                ));
            }
        }
        out.push('\n');
        out.push_str(&wrap(
            "Checked against real transformers training on an NVIDIA H200 (2026-12-04): docs/results/2026-12-04-hf-estimate-validation.md. `oomlab explain estimate` says how each term is made.",
            "",
        ));
        out
    }

    /// Whether the run fits the card, with the headroom, by the process peak.
    fn fit_line(&self, c: &Card, fit: Fit, room: i64) -> String {
        let e = &self.estimate;
        let pct = room as f64 / c.bytes.0.max(1) as f64 * 100.0;
        let largest = match (self.largest_micro_batch, self.largest_if_the_cache_shrinks) {
            (Some(0), Some(0)) | (Some(0), None) => "not even micro-batch 1 fits".to_string(),
            (Some(0), Some(t)) => format!(
                "no micro-batch fits with room; up to {t} only if PyTorch's cache gives back what it holds"
            ),
            (Some(b), Some(t)) if t > b => format!(
                "largest micro-batch {b} (up to {t} only if PyTorch's cache gives back what it holds)"
            ),
            (Some(b), _) => format!("largest micro-batch {b}"),
            (None, _) => String::new(),
        };
        match fit {
            Fit::Fits => format!(
                "On {}: it fits, with {} of headroom ({pct:.1}% of the card){}; {largest}.",
                c.name,
                Bytes(room.max(0) as u64),
                if pct < crate::estimate::cards::THIN_HEADROOM * 100.0 {
                    ": WARNING, under 5%: another driver or library version can take that much, so it may not fit on another machine"
                } else {
                    ""
                }
            ),
            Fit::OnlyIfTheCacheShrinks => format!(
                "On {}: it does NOT fit with room: the process peak is {} over the card. The allocated peak and the context ({}) would fit, so it may run if PyTorch's cache gives back enough of what it holds, which the estimate does not count on; {largest}.",
                c.name,
                Bytes((-room).max(0) as u64),
                e.needs()
            ),
            Fit::DoesNotFit => format!(
                "On {}: it does NOT fit: the process peak is {} over the card, and even the allocated peak and the context ({}) are over it; {largest}.",
                c.name,
                Bytes((-room).max(0) as u64),
                e.needs()
            ),
        }
    }
}

/// The changes that combine (each a change to one part of the run), with their flag and
/// whether the estimate was measured against transformers with it.
fn combinable(setup: Setup) -> Vec<(&'static str, &'static str, Setup, bool)> {
    let all = [
        (
            "AMP bf16",
            "--precision bf16",
            Setup {
                precision: Precision::AmpBf16,
                ..setup
            },
            true,
        ),
        (
            "pure bf16",
            "--precision bf16 --strategy half",
            Setup {
                precision: Precision::Bf16,
                ..setup
            },
            true,
        ),
        (
            "gradient checkpointing",
            "--checkpointing",
            Setup {
                checkpointing: true,
                ..setup
            },
            true,
        ),
        (
            "8-bit AdamW",
            "--optimizer adamw-8bit",
            Setup {
                optimizer: Optimizer::Adamw8bit,
                ..setup
            },
            false,
        ),
        (
            "Adafactor",
            "--optimizer adafactor",
            Setup {
                optimizer: Optimizer::Adafactor,
                ..setup
            },
            false,
        ),
        (
            "LoRA",
            "--lora",
            Setup {
                lora: true,
                ..setup
            },
            false,
        ),
        (
            "optimizer offload",
            "--offload",
            Setup {
                offload: true,
                ..setup
            },
            false,
        ),
    ];
    all.into_iter().filter(|c| c.2 != setup).collect()
}

/// `setup` with the changes of `picked` applied (each change sets one part of the run;
/// two that set the same part, such as AMP and pure bf16, do not combine: `None`).
fn apply(setup: Setup, picked: &[&(&str, &str, Setup, bool)]) -> Option<Setup> {
    let mut s = setup;
    let mut parts = (false, false, false, false, false);
    for (_, _, c, _) in picked {
        if c.precision != setup.precision {
            if parts.0 {
                return None;
            }
            parts.0 = true;
            s.precision = c.precision;
        }
        if c.checkpointing != setup.checkpointing {
            if parts.1 {
                return None;
            }
            parts.1 = true;
            s.checkpointing = c.checkpointing;
        }
        if c.optimizer != setup.optimizer {
            if parts.2 {
                return None;
            }
            parts.2 = true;
            s.optimizer = c.optimizer;
        }
        if c.lora != setup.lora {
            if parts.3 {
                return None;
            }
            parts.3 = true;
            s.lora = c.lora;
        }
        if c.offload != setup.offload {
            if parts.4 {
                return None;
            }
            parts.4 = true;
            s.offload = c.offload;
        }
    }
    Some(s)
}

/// The fewest changes (up to three) that reach the micro-batch asked for on `capacity`,
/// preferring measured changes, then the larger micro-batch; and the largest micro-batch
/// up to three measured changes reach together (fewer changes on a tie). Neither when the
/// run already reaches the micro-batch asked for.
fn combinations(
    shape: &Shape,
    setup: Setup,
    capacity: Bytes,
) -> (Option<Combination>, Option<Combination>) {
    let changes = combinable(setup);
    let mut picks: Vec<Vec<usize>> = Vec::new();
    let n = changes.len();
    for a in 0..n {
        picks.push(vec![a]);
        for b in a + 1..n {
            picks.push(vec![a, b]);
            for c in b + 1..n {
                picks.push(vec![a, b, c]);
            }
        }
    }
    let made: Vec<Combination> = picks
        .iter()
        .filter_map(|idx| {
            let chosen: Vec<&(&str, &str, Setup, bool)> =
                idx.iter().map(|&i| &changes[i]).collect();
            let s = apply(setup, &chosen)?;
            Some(Combination {
                changes: chosen.iter().map(|c| c.0.to_string()).collect(),
                flags: chosen.iter().map(|c| c.1).collect::<Vec<_>>().join(" "),
                process: estimate(shape, s).process,
                largest_micro_batch: largest_fitting(shape, s, capacity),
                checked: chosen.iter().all(|c| c.3),
            })
        })
        .collect();
    if largest_fitting(shape, setup, capacity) >= setup.micro_batch {
        return (None, None);
    }
    let fewest = made
        .iter()
        .filter(|c| c.largest_micro_batch >= setup.micro_batch)
        .min_by_key(|c| {
            (
                c.changes.len(),
                !c.checked,
                std::cmp::Reverse(c.largest_micro_batch),
            )
        })
        .cloned();
    let largest = made
        .iter()
        .filter(|c| c.checked && c.largest_micro_batch > 0)
        .max_by_key(|c| (c.largest_micro_batch, std::cmp::Reverse(c.changes.len())))
        .filter(|best| {
            fewest
                .as_ref()
                .is_none_or(|f| best.largest_micro_batch > f.largest_micro_batch)
        })
        .cloned();
    (fewest, largest)
}
