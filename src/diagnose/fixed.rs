//! The fixed state of the user's model (`oomlab diagnose --params N`): weights, gradients
//! and AdamW's two moments, which no batch-side technique shrinks, weighed against the
//! card the message names, with the fixes that act on it.

use serde::Serialize;

use crate::units::Bytes;

/// Bytes per parameter of each term with AdamW in f32 (mixed precision keeps these too,
/// plus a half copy of the weights during the passes).
const WEIGHTS: u64 = 4;
const GRADIENTS: u64 = 4;
const ADAMW: u64 = 8;

/// A share of the card above which the fixed state, not the activations, is the problem.
const DOMINATES: f64 = 0.5;

/// Weights, gradients and optimizer state of a model of `params` parameters.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FixedState {
    /// Parameters.
    pub params: u64,
    /// Weights in f32.
    pub weights: Bytes,
    /// Gradients in f32.
    pub gradients: Bytes,
    /// AdamW's two moments in f32.
    pub optimizer: Bytes,
    /// The three together.
    pub total: Bytes,
    /// The card (or cap) the message names, when it does.
    pub card: Option<Bytes>,
    /// `total` as a share of the card.
    pub share_of_card: Option<f64>,
    /// Whether the fixed state takes half the card or more: batch-side techniques
    /// (smaller micro-batch, accumulation, checkpointing, AMP) cannot fix that.
    pub dominates: bool,
    /// Fixes that act on the fixed state, each with its one-line PyTorch / Hugging Face
    /// form and what it saves per parameter.
    pub fixes: Vec<Fix>,
}

/// One fix of the fixed state.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fix {
    /// What it is.
    pub name: &'static str,
    /// How to write it.
    pub code: &'static str,
    /// What it changes.
    pub effect: &'static str,
}

const FIXES: &[Fix] = &[
    Fix {
        name: "8-bit AdamW",
        code: "bnb.optim.AdamW8bit(model.parameters(), lr=...)  # bitsandbytes; Trainer: optim=\"adamw_bnb_8bit\"",
        effect: "optimizer state 8 -> 2 bytes per parameter",
    },
    Fix {
        name: "Adafactor",
        code: "transformers.optimization.Adafactor(model.parameters(), lr=..., scale_parameter=False, relative_step=False)  # Trainer: optim=\"adafactor\"",
        effect: "factored second moment, no first moment: optimizer state near 0 bytes per parameter of a matrix",
    },
    Fix {
        name: "LoRA (frozen base)",
        code: "model = peft.get_peft_model(model, peft.LoraConfig(r=16, target_modules=[\"q_proj\", \"v_proj\"]))",
        effect: "gradients and optimizer state only for the adapters; the base keeps its weights alone (load it in bf16: 2 bytes per parameter)",
    },
    Fix {
        name: "optimizer offload",
        code: "DeepSpeed ZeRO: \"zero_optimization\": {\"stage\": 2, \"offload_optimizer\": {\"device\": \"cpu\"}}",
        effect: "AdamW's 8 bytes per parameter move to host memory (slower steps)",
    },
    Fix {
        name: "pure bf16",
        code: "model.to(torch.bfloat16)  # weights and gradients 2 bytes each; keep an optimizer that tolerates bf16 state",
        effect: "weights 4 -> 2, gradients 4 -> 2 bytes per parameter (with a bf16 optimizer state too, 16 -> 8 in all)",
    },
];

impl FixedState {
    /// The fixed state of `params` parameters against `card`.
    pub fn new(params: u64, card: Option<Bytes>) -> Self {
        let weights = Bytes(params * WEIGHTS);
        let gradients = Bytes(params * GRADIENTS);
        let optimizer = Bytes(params * ADAMW);
        let total = Bytes(weights.0 + gradients.0 + optimizer.0);
        let share = card.map(|c| total.0 as f64 / c.0.max(1) as f64);
        FixedState {
            params,
            weights,
            gradients,
            optimizer,
            total,
            card,
            share_of_card: share,
            dominates: share.is_some_and(|s| s >= DOMINATES),
            fixes: FIXES.to_vec(),
        }
    }

    /// The lines for the terminal.
    pub fn lines(&self) -> Vec<String> {
        let mut out = vec![format!(
            "{} parameters: weights {} + gradients {} + AdamW's moments {} = {} in f32 (16 bytes per parameter), before any activation{}",
            self.params,
            self.weights,
            self.gradients,
            self.optimizer,
            self.total,
            match (self.card, self.share_of_card) {
                (Some(c), Some(s)) => format!(", {:.0}% of the {c} card", 100.0 * s),
                _ => String::new(),
            }
        )];
        if self.dominates {
            out.push("That is most of the card: a smaller micro-batch, gradient accumulation, checkpointing or mixed precision shrink the activations, not this. What acts on it:".into());
        } else {
            out.push("If this fixed state is most of what the card holds, these act on it (batch-side techniques do not):".into());
        }
        for f in &self.fixes {
            out.push(format!("{}: {} ({})", f.name, f.code, f.effect));
        }
        out
    }
}

/// Reads a parameter count: 124439808, 124M, 1.1B, 7e9.
pub fn parse_params(text: &str) -> Result<u64, String> {
    let t = text.trim().replace('_', "");
    let (number, scale) = match t.chars().last() {
        Some('k' | 'K') => (&t[..t.len() - 1], 1e3),
        Some('m' | 'M') => (&t[..t.len() - 1], 1e6),
        Some('b' | 'B' | 'g' | 'G') => (&t[..t.len() - 1], 1e9),
        _ => (t.as_str(), 1.0),
    };
    let v: f64 = number.parse().map_err(|_| {
        format!("'{text}' is not a parameter count (e.g. 124439808, 124M, 1.1B, 7e9)")
    })?;
    let n = (v * scale).round();
    if !n.is_finite() || n < 1.0 {
        return Err(format!("'{text}': the parameter count must be at least 1"));
    }
    // Its fixed state, 16 bytes a parameter, is counted in 64 bits (`as u64` would
    // saturate silently).
    if n * 16.0 >= u64::MAX as f64 {
        return Err(format!(
            "'{text}': 16 bytes per parameter would be more than 16 EiB; no model is that large"
        ));
    }
    Ok(n as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_parameter_count_out_of_range_is_refused_not_saturated() {
        assert_eq!(parse_params("1.1B"), Ok(1_100_000_000));
        assert!(parse_params("1e30").unwrap_err().contains("16 EiB"));
        assert!(parse_params("0.3").unwrap_err().contains("at least 1"));
        assert!(parse_params("0").is_err());
    }

    #[test]
    fn sixteen_bytes_per_parameter_weighed_against_the_card() {
        let f = FixedState::new(1_000_000_000, Some(Bytes(24 << 30)));
        assert_eq!(f.total, Bytes(16_000_000_000));
        assert!(f.dominates);
        assert!((f.share_of_card.unwrap() - 16e9 / (24u64 << 30) as f64).abs() < 1e-12);
        assert!(f.lines()[0].contains("62%"), "{:?}", f.lines());
        assert!(!FixedState::new(10_000_000, Some(Bytes(24 << 30))).dominates);
        assert!(!FixedState::new(10_000_000_000, None).dominates);
    }

    #[test]
    fn parameter_counts_read_as_people_write_them() {
        assert_eq!(parse_params("124439808"), Ok(124_439_808));
        assert_eq!(parse_params("124M"), Ok(124_000_000));
        assert_eq!(parse_params("1.1B"), Ok(1_100_000_000));
        assert_eq!(parse_params("7e9"), Ok(7_000_000_000));
        assert!(parse_params("-3").is_err());
        assert!(parse_params("lots").is_err());
    }
}
