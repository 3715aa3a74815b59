//! The words flags, config files and reports share.
//!
//! One enum per vocabulary, each word spelled once: clap parses it (`--strategy
//! grad-accum`), serde reads and writes it (`strategy = "grad-accum"` in TOML, the same in
//! summary.json), and `Display` prints it in tables. A misspelled value fails in the
//! parser that met it, naming the words that exist.

/// Declares a vocabulary enum: every variant with the one word users write for it.
macro_rules! vocabulary {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $word:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(
            Debug, Clone, Copy, PartialEq, Eq, Hash,
            clap::ValueEnum, serde::Serialize, serde::Deserialize,
        )]
        pub enum $name {
            $(
                $(#[$vmeta])*
                #[value(name = $word)]
                #[serde(rename = $word)]
                $variant,
            )+
        }

        impl $name {
            /// Every word, in the order declared.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The word, as written in flags, configs and reports.
            pub fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $word,)+
                }
            }

            /// Parses the word.
            pub fn from_name(word: &str) -> Option<Self> {
                match word {
                    $($word => Some($name::$variant),)+
                    _ => None,
                }
            }

            /// The words, comma-separated, for messages.
            pub fn words() -> String {
                [$($word),+].join(", ")
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

/// The config's `[kernels]` keys declare their words with it too.
pub(crate) use vocabulary;

vocabulary! {
    /// A training strategy (`--strategy`, `train.strategy`): how one optimizer step is
    /// split and what it does on an out-of-memory failure.
    pub enum Strategy {
        /// The whole batch in one forward and one backward pass.
        Baseline = "baseline",
        /// K micro-batches per optimizer step (--steps K).
        GradAccum = "grad-accum",
        /// On OOM: discard the step, halve the micro-batch, retry.
        AutoHalve = "auto-halve",
        /// The whole batch with burn's balanced activation checkpointing.
        Checkpointing = "checkpointing",
        /// Weights, gradients and optimizer state all in half (bf16, or f16 with --precision f16).
        Half = "half",
        /// Data parallel over --devices, each device keeping the optimizer state of 1/N
        /// of the parameters (ZeRO stage 1).
        ShardOptimizer = "shard-optimizer",
        /// The whole batch, with AdamW's moments in host memory: gradients go to the
        /// host after the backward pass, the update runs there, the new weights come back.
        OffloadOptimizer = "offload-optimizer",
    }
}

vocabulary! {
    /// The float type of the passes (`--precision`, `train.precision`).
    pub enum Precision {
        /// Everything in f32.
        F32 = "f32",
        /// bfloat16 compute (f32's range, 8 mantissa bits); no loss scaling needed.
        Bf16 = "bf16",
        /// IEEE half compute (max 65504); dynamic loss scaling.
        F16 = "f16",
    }
}

vocabulary! {
    /// How burn's GPU pool gets its memory (`--memory-mode`, `memory.mode`).
    pub enum PoolMode {
        /// Every tensor its own buffer of its exact size (oomlab's default).
        Exact = "exact",
        /// burn's default: the pool grows when tensors need memory.
        Growth = "growth",
        /// Reserve a share of the free VRAM before training.
        Prealloc = "prealloc",
    }
}

vocabulary! {
    /// Whether oomlab's allocator counts the host heap (`memory.host_heap`).
    pub enum HostHeap {
        /// Counted on the CPU, not on CUDA (the default: one counter every allocation of
        /// burn's threads writes slowed host-bound CUDA steps).
        Auto = "auto",
        /// Counted on every device.
        Count = "count",
        /// Counted on none: no host heap figure and no `--memory-budget`.
        Off = "off",
    }
}

vocabulary! {
    /// How auto-halve looks for a micro-batch that fits (`--search`, `auto_halve.search`).
    pub enum SearchMode {
        /// Only ever halve.
        Halve = "halve",
        /// After the first fit, bisect back up to within 10% of the largest fit.
        Bisect = "bisect",
    }
}

vocabulary! {
    /// A generated language with known structure, so that loss visibly falls
    /// (`--task`, `data.task`).
    pub enum Task {
        /// `417+38=455` lines.
        Arith = "arith",
        /// `c:qzkv|qzkv` lines.
        Copy = "copy",
        /// Balanced bracket strings.
        Brackets = "brackets",
        /// All three, interleaved.
        Mix = "mix",
    }
}

vocabulary! {
    /// Which network to train (`--model`, `model.kind`).
    pub enum ModelKind {
        /// Decoder-only transformer (GPT-style), character level.
        Gpt = "gpt",
        /// Next-character MLP over the flattened context.
        Mlp = "mlp",
    }
}

vocabulary! {
    /// Which optimizer (`optim.kind`).
    pub enum OptimKind {
        /// AdamW.
        AdamW = "adamw",
        /// Plain SGD (its update is `-lr * grad`, handy for checking gradients).
        Sgd = "sgd",
    }
}

impl OptimKind {
    /// Optimizer-state bytes per parameter element: AdamW's two f32 moments; oomlab's SGD
    /// has no momentum.
    pub fn state_bytes_per_element(self) -> u64 {
        match self {
            OptimKind::AdamW => 8,
            OptimKind::Sgd => 0,
        }
    }
}

vocabulary! {
    /// How attention is computed (`--attention`, `model.attention`).
    #[derive(Default)]
    pub enum AttentionKind {
        /// softmax(QKᵀ/√d)·V as separate tensor operations: autodiff keeps the scores and
        /// probabilities of every layer until the backward pass.
        Math = "math",
        /// A fused forward (flash attention where the backend has it) that keeps only Q, K,
        /// V; the backward pass recomputes the scores one layer at a time.
        #[default]
        Efficient = "efficient",
    }
}

vocabulary! {
    /// Which memory a run's figures are (`memory.kind` in summary.json, `memory_kind` in
    /// compare.json). The default is the host: what every run has, GPU or not.
    #[derive(Default)]
    pub enum MemoryKind {
        /// VRAM: NVML per process and device, burn's allocator.
        Gpu = "gpu",
        /// Host memory: resident set size and the counting heap allocator.
        #[default]
        Host = "host",
    }
}

vocabulary! {
    /// When oomlab waits for the device to look for a failed allocation (`checks` in the
    /// summary).
    pub enum Checks {
        /// After the forward pass, the backward pass and the optimizer step.
        Phase = "phase",
        /// Once, after the optimizer step.
        Step = "step",
    }
}

vocabulary! {
    /// A column of `oomlab compare`'s table (`--columns`), in the order every rendering
    /// prints them.
    pub enum CompareColumn {
        /// The row's name.
        Strategy = "strategy",
        /// Micro-batch x micro-batches per optimizer step.
        Split = "split",
        /// The weights' and the passes' dtypes.
        Dtype = "dtype",
        /// The process's peak (NVML on a GPU, RSS on the CPU).
        Peak = "peak",
        /// The peak over the baseline's.
        PeakVsBaseline = "peak-vs-baseline",
        /// The allocator's (or the host heap's) highest in-use.
        InUse = "in-use",
        /// oomlab estimate's predicted peak.
        Predicted = "predicted",
        /// The pool's highest reserved.
        Reserved = "reserved",
        /// The process beyond the pool or heap, at the end.
        Overhead = "overhead",
        /// Time to the end of the first step.
        FirstStep = "first-step",
        /// The median step after the first.
        Step = "step",
        /// The step over the baseline's.
        StepVsBaseline = "step-vs-baseline",
        /// Samples per second.
        SamplesPerS = "samples-per-s",
        /// Out-of-memory failures.
        Ooms = "ooms",
        /// Steps the loss scaler skipped.
        Skipped = "skipped",
        /// The final loss.
        Loss = "loss",
        /// How the run ended.
        Status = "status",
        /// Each device's figures (several devices only).
        Devices = "devices",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::ValueEnum;

    #[test]
    fn clap_serde_and_display_spell_every_word_the_same() {
        fn check<T>(all: &[T], name: fn(&T) -> &'static str)
        where
            T: ValueEnum
                + serde::Serialize
                + serde::de::DeserializeOwned
                + PartialEq
                + std::fmt::Debug
                + std::fmt::Display,
        {
            for v in all {
                let word = name(v);
                assert_eq!(v.to_string(), word);
                let clap_word = v.to_possible_value().map(|p| p.get_name().to_string());
                assert_eq!(clap_word.as_deref(), Some(word));
                assert_eq!(serde_json::to_value(v).unwrap(), serde_json::json!(word));
                let back: T = serde_json::from_value(serde_json::json!(word)).unwrap();
                assert_eq!(&back, v);
            }
        }
        check(Strategy::ALL, |v| v.name());
        check(Precision::ALL, |v| v.name());
        check(PoolMode::ALL, |v| v.name());
        check(SearchMode::ALL, |v| v.name());
        check(Task::ALL, |v| v.name());
        check(ModelKind::ALL, |v| v.name());
        check(OptimKind::ALL, |v| v.name());
        check(AttentionKind::ALL, |v| v.name());
        check(MemoryKind::ALL, |v| v.name());
        check(Checks::ALL, |v| v.name());
    }

    #[test]
    fn an_unknown_word_names_the_ones_that_exist() {
        let err =
            toml::from_str::<std::collections::BTreeMap<String, Strategy>>("s = \"grad_accum\"")
                .unwrap_err()
                .to_string();
        assert!(
            err.contains("grad-accum") && err.contains("auto-halve"),
            "{err}"
        );
        assert_eq!(Strategy::from_name("auto-halve"), Some(Strategy::AutoHalve));
        assert_eq!(Strategy::from_name("auto_halve"), None);
    }
}

vocabulary! {
    /// Which kind of device a run used (`device.kind` in summary.json).
    pub enum DeviceKind {
        /// The host, burn's Flex backend.
        Cpu = "cpu",
        /// An NVIDIA GPU, burn's CUDA backend.
        Cuda = "cuda",
    }
}

vocabulary! {
    /// The float types of a run, as one word (`precision.mode` in summary.json, the
    /// estimate's precision column).
    pub enum PrecisionKind {
        /// Everything in f32.
        F32 = "f32",
        /// Mixed precision in bf16.
        AmpBf16 = "amp-bf16",
        /// Mixed precision in f16.
        AmpF16 = "amp-f16",
        /// Pure bf16.
        HalfBf16 = "half-bf16",
        /// Pure f16.
        HalfF16 = "half-f16",
    }
}

impl PrecisionKind {
    /// Mixed precision: f32 master weights beside a half copy for the passes.
    pub fn is_mixed(self) -> bool {
        matches!(self, PrecisionKind::AmpBf16 | PrecisionKind::AmpF16)
    }
}

vocabulary! {
    /// `--leak-demo`: which classic mistake to make on purpose.
    pub enum LeakDemo {
        /// Every step also evaluates its first micro-batch with the training (autodiff)
        /// model and keeps the loss tensor in a list: its graph and saved activations
        /// stay alive (PyTorch: an eval loss kept without `torch.no_grad()` or `.item()`).
        EvalGraph = "eval-graph",
        /// Every step's training loss is added, graph attached, to a running total that
        /// outlives the step (PyTorch's FAQ: `total_loss += loss`). burn's backward pass
        /// frees the saved activations, so little stays: measure it.
        LossTotal = "loss-total",
    }
}
