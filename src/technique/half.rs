//! Pure half precision: weights, gradients and optimizer state all in bf16 or f16.

use super::story::smaller_state;
use super::{BigFigures, Expect, Preset, Stage, StageNumbers, Technique, Topic, Variant};
use crate::words::{Precision, Strategy};

/// The technique in one half type.
struct Half {
    name: &'static str,
    summary: &'static str,
    half: Precision,
}

/// Its row in bf16.
pub(super) const BF16: Variant = Variant(&Half {
    name: "half-bf16",
    summary: "--strategy half --precision bf16",
    half: Precision::Bf16,
});

/// Its row in f16.
pub(super) const F16: Variant = Variant(&Half {
    name: "half-f16",
    summary: "--strategy half --precision f16",
    half: Precision::F16,
});

/// `oomlab explain half`.
const TOPIC: Topic = Topic {
    name: "half",
    summary: "pure half: weights, gradients and optimizer state all in bf16/f16",
    text: "\
What it does: `--strategy half --precision bf16|f16` casts the model itself to half, so
weights, activations, gradients and AdamW's moments are all half: 8 bytes per parameter
instead of 16. It is the contrast to mixed precision: it shows what AMP keeps in f32
and why. Without --precision it runs in bf16.

When to use it: inference, or bf16 training of a model whose state (not activations)
does not fit, with care. Updates smaller than the weight's last bit vanish. In f16,
AdamW's second moment (the squared gradient) underflows to zero for gradients below
about 2.4e-4 (f16's smallest positive number is about 6e-8), which leaves burn's
epsilon (1e-5) as the only divisor of the update, and anything past 65504 overflows.

What it costs: accuracy, and with f16 often the run: expect skipped steps and a
diverging loss (the measured f16 rows below).
",
    compared: crate::evidence::STRATEGY_COMPARISONS,
    more: String::new,
};

impl Technique for Half {
    fn name(&self) -> &'static str {
        self.name
    }

    fn summary(&self) -> &'static str {
        self.summary
    }

    fn strategy(&self) -> Strategy {
        Strategy::Half
    }

    fn preset(&self, p: &mut Preset<'_>) {
        let half = self.half;
        p.set("train.precision", |f| f.train.precision = half);
    }

    fn topic(&self) -> Option<&'static Topic> {
        Some(&TOPIC)
    }

    fn stages(&self) -> &'static [Stage] {
        if self.half != Precision::Bf16 {
            return &[];
        }
        &[Stage {
            part: 2,
            order: 50,
            variant: BF16,
            title: "pure half precision (--strategy half --precision bf16)",
            what: "The model itself in bf16: weights, gradients and AdamW's moments all 2 bytes a value, 8 bytes per parameter instead of 16. Updates smaller than a weight's last bit are lost (`oomlab explain half`).",
            question: "Will pure bf16 fit the big model?",
            expect: Expect::Fits,
            gpu_only: false,
            max_steps: None,
        }]
    }

    fn after_model_stage(
        &self,
        fig: &BigFigures,
        _this: &StageNumbers,
        base: &StageNumbers,
    ) -> Vec<String> {
        vec![smaller_state("All in half precision", fig, base)]
    }
}
