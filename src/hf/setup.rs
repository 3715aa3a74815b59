//! The run to size: its numeric set-up, its optimizer, and the batch, parallelism and
//! offload around them; what the term-by-term estimate and the replay of a traced
//! template both read.

use serde::Serialize;

/// The numeric set-up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Precision {
    /// Everything in f32.
    F32,
    /// f32 weights, gradients and optimizer state; forward under torch.autocast(bfloat16).
    AmpBf16,
    /// The model in bf16 (weights, gradients, AdamW state): `model.to(torch.bfloat16)`.
    Bf16,
}

impl Precision {
    /// How the table names it.
    pub fn label(self) -> &'static str {
        match self {
            Precision::F32 => "f32",
            Precision::AmpBf16 => "AMP bf16",
            Precision::Bf16 => "pure bf16",
        }
    }

    /// Bytes of a parameter (and of its gradient and of each AdamW moment).
    pub(super) fn param_bytes(self) -> u64 {
        match self {
            Precision::Bf16 => 2,
            _ => 4,
        }
    }
}

/// The optimizer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Optimizer {
    /// torch.optim.AdamW: two moments per parameter.
    Adamw,
    /// torch.optim.SGD without momentum: no state.
    Sgd,
    /// bitsandbytes' 8-bit AdamW: two moments of one byte (what-if, not measured).
    #[value(name = "adamw-8bit")]
    Adamw8bit,
    /// transformers' Adafactor without a first moment: factored second moment, about a
    /// row plus a column per matrix (what-if, not measured).
    Adafactor,
}

impl Optimizer {
    /// How the table names it.
    pub fn label(self) -> &'static str {
        match self {
            Optimizer::Adamw => "AdamW",
            Optimizer::Sgd => "SGD",
            Optimizer::Adamw8bit => "8-bit AdamW",
            Optimizer::Adafactor => "Adafactor",
        }
    }
}

/// One run to size.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Setup {
    /// Tokens per sequence.
    pub seq: u64,
    /// Sequences per micro-batch (per GPU).
    pub micro_batch: u64,
    /// Micro-batches per optimizer step (gradient accumulation).
    pub accum: u64,
    /// The numeric set-up.
    pub precision: Precision,
    /// The optimizer.
    pub optimizer: Optimizer,
    /// `model.gradient_checkpointing_enable()`: each layer keeps its input only.
    pub checkpointing: bool,
    /// Data-parallel GPUs.
    pub gpus: u64,
    /// ZeRO stage (0 = plain DDP): 1 shards the optimizer state, 2 also the gradients,
    /// 3 also the weights.
    pub zero: u8,
    /// LoRA: the base weights frozen, so no gradients or optimizer state for them
    /// (adapters neglected).
    pub lora: bool,
    /// Optimizer state (and its step) on the CPU (DeepSpeed's offload_optimizer).
    pub offload: bool,
}

impl Setup {
    /// A single-GPU run with AdamW, no accumulation, checkpointing, LoRA or offload.
    pub fn new(seq: u64, micro_batch: u64, precision: Precision) -> Self {
        Setup {
            seq,
            micro_batch,
            accum: 1,
            precision,
            optimizer: Optimizer::Adamw,
            checkpointing: false,
            gpus: 1,
            zero: 0,
            lora: false,
            offload: false,
        }
    }
}
