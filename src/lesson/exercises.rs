//! `oomlab lesson --exercises`: predict-then-run questions for a class, on the lesson's
//! own models, budget and device, with the commands that measure each answer and an answer
//! key computed by `oomlab estimate` (predictions, said as such: the runs measure them).

use crate::config::RunConfig;
use crate::estimate::{largest_batch, Estimate, Target, TermKind};
use crate::technique::Variant;
use crate::units::Bytes;

use crate::technique::story::relative;

/// One part of the lesson as the handout needs it: its rows' configs and the flags that
/// make its model and batch on the command line.
#[derive(Debug, Clone)]
pub struct HandoutPart<'a> {
    /// `--config tiny --batch 96`, and the part's `--set`s.
    pub flags: String,
    /// Its rows' validated configs.
    pub rows: Vec<(Variant, &'a RunConfig)>,
    /// The corpus's vocabulary.
    pub vocab: usize,
}

impl HandoutPart<'_> {
    fn row(&self, name: &str) -> Option<&RunConfig> {
        self.rows
            .iter()
            .find(|(w, _)| w.name() == name)
            .map(|(_, c)| *c)
    }
}

/// What the handout is for.
#[derive(Debug, Clone)]
pub struct Handout<'a> {
    /// Where the estimate sizes for.
    pub target: Target,
    /// The lesson's budget.
    pub budget: Bytes,
    /// Whether the budget is a VRAM one (real OOMs) or the CPU's heap (SIMULATED).
    pub gpu: bool,
    /// `--device cpu --memory-budget 67MiB`.
    pub run_flags: String,
    /// Part 1's model.
    pub small: HandoutPart<'a>,
    /// Part 2's model, when the lesson has it.
    pub big: Option<HandoutPart<'a>>,
}

/// One exercise.
#[derive(Debug, Clone, PartialEq)]
pub struct Exercise {
    /// Its heading.
    pub title: String,
    /// What the class predicts.
    pub question: String,
    /// The command that measures it.
    pub run: String,
    /// oomlab estimate's answer and the arithmetic behind it.
    pub answer: String,
}

fn fits(peak: Bytes, budget: Bytes) -> &'static str {
    if peak <= budget {
        "fits"
    } else {
        "does not fit"
    }
}

/// `flags` at batch `to` instead of `from` (added when the flags leave the batch to the
/// config).
fn with_batch(flags: &str, from: usize, to: usize) -> String {
    let given = format!("--batch {from}");
    if flags.contains(&given) {
        flags.replace(&given, &format!("--batch {to}"))
    } else {
        format!("{flags} --batch {to}")
    }
}

/// The exercises, in class order.
pub fn exercises(h: &Handout) -> Vec<Exercise> {
    let mut out = Vec::new();
    let s = &h.small;
    let Some(base) = s.row("baseline") else {
        return out;
    };
    let e0 = Estimate::of(base, s.vocab, h.target);
    let batch = base.train.batch;
    let params = e0.params;
    let acts = |e: &Estimate| e.term(TermKind::Activations);
    let train = |flags: &str, extra: &str| {
        format!("oomlab train {flags}{extra} {} --max-steps 5", h.run_flags)
    };
    out.push(Exercise {
        title: "The fixed state".into(),
        question: format!(
            "The lesson's model has {params} parameters. Trained in f32 with AdamW, how much do its weights, gradients and AdamW's two moments take together? Does that depend on the batch?"
        ),
        run: format!("oomlab estimate {} {}", s.flags, h.run_flags),
        answer: format!(
            "{} = 16 bytes x {params}: weights {}, gradients {}, moments {}. None of them depends on the batch.",
            e0.fixed_state(),
            e0.term(TermKind::Weights),
            e0.term(TermKind::Gradients),
            e0.term(TermKind::OptimizerState)
        ),
    });
    let half_batch = (batch / 2).max(1);
    let e_half = Estimate::at_batch(base, s.vocab, h.target, half_batch);
    out.push(Exercise {
        title: "Half the batch".into(),
        question: format!(
            "At batch {batch} the activations kept for the backward pass come to {} and the predicted peak to {} against a {} budget. What do you expect at batch {half_batch}: activations, peak, and does the baseline fit?",
            acts(&e0),
            e0.peak,
            h.budget
        ),
        run: train(&with_batch(&s.flags, batch, half_batch), ""),
        answer: format!(
            "Activations {} ({} at batch {batch}: they are proportional to the batch); predicted peak {}, which {} the {} budget. The fixed state is unchanged.",
            acts(&e_half),
            relative(acts(&e_half), acts(&e0)),
            e_half.peak,
            fits(e_half.peak, h.budget),
            h.budget
        ),
    });
    if let Some(cfg) = s.row("grad-accum") {
        let e = Estimate::of(cfg, s.vocab, h.target);
        out.push(Exercise {
            title: "Gradient accumulation".into(),
            question: format!(
                "With --strategy grad-accum --steps {} at batch {batch}: what is the micro-batch, which terms shrink, and which one is added?",
                e.plan.accumulation
            ),
            run: train(&s.flags, &format!(" --strategy grad-accum --steps {}", e.plan.accumulation)),
            answer: format!(
                "Micro-batch {}. The activations shrink from {} to {}; the weights, gradients and moments do not ({}), and a running sum of the gradients is added ({}). Predicted peak {} ({} the baseline's {}): it {} the {} budget.",
                e.plan.micro_batch,
                acts(&e0),
                acts(&e),
                e.fixed_state(),
                e.term(TermKind::AccumulationBuffer),
                e.peak,
                relative(e.peak, e0.peak),
                e0.peak,
                fits(e.peak, h.budget),
                h.budget
            ),
        });
    }
    if let Some(cfg) = s.row("amp-bf16") {
        let e = Estimate::of(cfg, s.vocab, h.target);
        out.push(Exercise {
            title: "Mixed precision".into(),
            question: format!(
                "Mixed precision (--precision bf16) runs the passes in bf16 and keeps the activations in it. Predict the activations and what happens to the weights and AdamW's moments at batch {batch}."
            ),
            run: train(&s.flags, " --precision bf16"),
            answer: format!(
                "Activations {} ({} the f32 run's {}{}). The weights and moments stay in f32 ({} with the gradients), and a bf16 copy of the weights ({}) is made for each micro-batch. Predicted peak {} ({} the f32 baseline's {}).",
                acts(&e),
                relative(acts(&e), acts(&e0)),
                acts(&e0),
                if acts(&e).0 * 2 > acts(&e0).0 * 101 / 100 {
                    ": not every kept tensor is in bf16"
                } else {
                    ""
                },
                e.fixed_state(),
                e.term(TermKind::HalfCopy),
                e.peak,
                relative(e.peak, e0.peak),
                e0.peak
            ),
        });
    }
    let largest = largest_batch(base, s.vocab, h.target, h.budget);
    out.push(Exercise {
        title: "The largest batch".into(),
        question: format!(
            "What is the largest batch the f32 baseline can train under the {} budget?",
            h.budget
        ),
        run: train(&s.flags, " --strategy auto-halve --search bisect"),
        answer: match largest {
            Some(n) => format!(
                "oomlab estimate: {n} (peak {}). auto-halve with --search bisect starts at batch {batch}, halves on each out-of-memory failure, then probes back up: the micro-batch it settles on is the measured answer.",
                Estimate::at_batch(base, s.vocab, h.target, n).peak
            ),
            None => "oomlab estimate: not even one sample fits.".into(),
        },
    });
    if let Some(b) = &h.big {
        if let Some(big) = b.row("baseline") {
            let e = Estimate::of(big, b.vocab, h.target);
            let mut lines = Vec::new();
            for (v, what) in [
                ("baseline", "f32 AdamW"),
                ("checkpointing", "f32 AdamW with checkpointing"),
                ("half-bf16", "pure bf16"),
                ("sgd", "f32 SGD"),
            ] {
                if let Some(cfg) = b.row(v) {
                    let ev = Estimate::of(cfg, b.vocab, h.target);
                    lines.push(format!(
                        "{what}: fixed state {}, predicted peak {} ({})",
                        ev.fixed_state(),
                        ev.peak,
                        fits(ev.peak, h.budget)
                    ));
                }
            }
            out.push(Exercise {
                title: "A model too big for the card".into(),
                question: format!(
                    "Part 2's model has {} parameters at batch {}. Which of these fits the {} budget: f32 AdamW with activation checkpointing, pure bf16, or f32 SGD? Count 16 bytes per parameter for f32 AdamW, 8 for pure bf16 or SGD, and remember that the update holds new weights and moments beside the old ones.",
                    e.params, big.train.batch, h.budget
                ),
                // The lesson's own flags: the same device and budget as exercises 1-5.
                run: format!(
                    "oomlab lesson --part 2 --yes {}",
                    h.run_flags
                        .replace("--memory-budget", "--budget")
                        .replace("--vram-budget", "--budget")
                ),
                answer: format!(
                    "{}. Checkpointing shrinks activations only; the fixed state is what does not fit.",
                    lines.join("; ")
                ),
            });
        }
    }
    out
}

/// The handout in Markdown: the questions, then the answer key.
pub fn handout_markdown(h: &Handout, device: &str) -> String {
    let ex = exercises(h);
    let sim = if h.gpu {
        String::new()
    } else {
        " On the CPU the budget is on the host heap and its out-of-memory failures are SIMULATED."
            .into()
    };
    let mut s = format!(
        "# oomlab exercises: {device}, a {} budget\n\nPredict first, then run the command and compare. The answer key at the end is `oomlab estimate`'s prediction for this device and budget; the runs measure it.{sim}\n",
        h.budget
    );
    for (i, e) in ex.iter().enumerate() {
        s.push_str(&format!(
            "\n## {}. {}\n\n{}\n\nThen run: `{}`\n",
            i + 1,
            e.title,
            e.question,
            e.run
        ));
    }
    s.push_str("\n---\n\n# Answer key (predicted by oomlab estimate)\n");
    for (i, e) in ex.iter().enumerate() {
        s.push_str(&format!("\n{}. {}: {}\n", i + 1, e.title, e.answer));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_half_batch_command_always_names_its_batch() {
        assert_eq!(
            with_batch("--config tiny --batch 96", 96, 48),
            "--config tiny --batch 48"
        );
        assert_eq!(
            with_batch("--config mine.toml", 32, 16),
            "--config mine.toml --batch 16"
        );
    }
}
