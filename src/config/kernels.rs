//! `[kernels]`: how a step's operations run. Each key chooses between oomlab's faster way
//! of running one operation (cuBLAS, a kernel of oomlab's, a product in place of a
//! scatter...) and burn's plain tensor operations, or between two shapes of the same
//! computation. `auto`, every key's default, is what oomlab measured fastest on the card
//! and dtype the run has; the other words are for measuring one way against the other, or
//! for going back to burn's operations when a kernel is in doubt.
//!
//! A run's config.toml and summary hold the section, so a resume that changes it is
//! refused like any other change, and `compare --set kernels.KEY=WORD` runs every row
//! with it. The list below is the one place the keys, their words and their defaults are
//! written: the schema, `oomlab explain step-speed` and the run's header read it.

use serde::{Deserialize, Serialize};

/// One key of `[kernels]` as the user sees it: its name, words, default and meaning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KernelChoice {
    /// The key (`layer_norm`).
    pub key: &'static str,
    /// Its words besides `auto`, `|` between them (`kernel|burn`).
    pub values: &'static str,
    /// What `auto` runs, on CUDA and on the CPU.
    pub auto: &'static str,
    /// What it chooses.
    pub what: &'static str,
    /// The word this configuration has.
    pub word: &'static str,
}

/// Declares each key's type (`auto` and its two words, a vocabulary like every other word
/// oomlab reads) and the section holding them all.
macro_rules! kernels_section {
    ($(
        $field:ident: $ty:ident { $on:ident = $on_word:literal, $off:ident = $off_word:literal }
            auto $auto:literal,
            what $what:literal;
    )*) => {
        $(
            crate::words::vocabulary! {
                #[doc = concat!("`kernels.", stringify!($field), "`: ", $what, ".")]
                pub enum $ty {
                    #[doc = concat!("oomlab's choice: ", $auto, ".")]
                    Auto = "auto",
                    #[doc = concat!("`", $on_word, "`.")]
                    $on = $on_word,
                    #[doc = concat!("`", $off_word, "`.")]
                    $off = $off_word,
                }
            }

            impl Default for $ty {
                fn default() -> Self {
                    Self::Auto
                }
            }

            impl $ty {
                #[doc = concat!("`Some(true)` for `", $on_word, "`, `Some(false)` for `", $off_word, "`, `None` for `auto` (the backend's default).")]
                pub fn choice(self) -> Option<bool> {
                    match self {
                        Self::Auto => None,
                        Self::$on => Some(true),
                        Self::$off => Some(false),
                    }
                }
            }
        )*

        /// `[kernels]`: one choice per operation of the step; every key `auto` by default.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
        #[serde(deny_unknown_fields, default)]
        pub struct KernelsSection {
            $(
                #[doc = concat!($what, ". `auto`: ", $auto, ".")]
                pub $field: $ty,
            )*
        }

        impl KernelsSection {
            /// The section as the operations read it: each key's choice, `None` for `auto`.
            pub fn to_choices(&self) -> oomlab_kernels::Choices {
                oomlab_kernels::Choices {
                    $($field: self.$field.choice(),)*
                }
            }

            /// Every key, in the order of the section, with this configuration's words.
            pub fn choices(&self) -> Vec<KernelChoice> {
                vec![$(
                    KernelChoice {
                        key: stringify!($field),
                        values: concat!($on_word, "|", $off_word),
                        auto: $auto,
                        what: $what,
                        word: self.$field.name(),
                    },
                )*]
            }
        }
    };
}

kernels_section! {
    linear_products: LinearProducts { Cublas = "cublas", Burn = "burn" }
        auto "CUDA: cublas for f32 and bf16 where libcublas loads, burn for f16; CPU: burn (no cuBLAS there)",
        what "the linear layers' matrix products on cuBLAS, queued on cubecl's stream, or burn's matmul";
    column_sums: ColumnSums { Split = "split", One = "one" }
        auto "CUDA: split for f32 and bf16, one for f16; CPU: one",
        what "sums over every token (LayerNorm's dγ and dβ, a bias's gradient) in two stages or one";
    embedding_grad: EmbeddingGrad { Dense = "dense", Scatter = "scatter" }
        auto "CUDA: dense for f32 and bf16, scatter for f16; CPU: scatter",
        what "the embeddings' gradients as a product with a one-hot matrix, or burn's scatter";
    linear: Linear { TwoD = "2d", Burn = "burn" }
        auto "CUDA: burn; CPU: 2d",
        what "where cuBLAS does not run a linear layer: burn's linear on the input seen as one matrix, or burn's Linear";
    linear_grads: LinearGrads { Together = "together", Apart = "apart" }
        auto "CUDA: together; CPU: apart",
        what "a linear layer's two gradient products (dW, dX) as one operation, on CUDA both cuBLAS calls behind one handshake with cubecl's stream, or two operations";
    attention_pairs: AttentionPairs { Together = "together", Apart = "apart" }
        auto "CUDA: together where the products run on cuBLAS and are joined in place; CPU: apart (its products do not run on a library)",
        what "attention's backward products that do not depend on each other (dV with dP, dQ with dK) as one operation a pair, on CUDA both cuBLAS calls behind one handshake with cubecl's stream, or one operation each";
    amp_cast: AmpCast { Step = "step", MicroBatch = "micro-batch" }
        auto "micro-batch",
        what "where AMP casts the f32 parameters to half precision: once a step, every micro-batch running on the same half-precision copy and its gradients cast back to f32 after each backward pass, or in each micro-batch's graph (the same gradients; once a step, a new user's first AMP step compiled 3 kernels beyond the shipped pack)";
    attention_forward: AttentionForward { Written = "written", Fused = "fused" }
        auto "written wherever the softmax kernels run (CUDA: f32 and bf16), else fused",
        what "the efficient attention's forward pass written out around the softmax kernel, or burn-cubecl's attention";
    qkv: Qkv { Fused = "fused", Three = "three" }
        auto "three",
        what "Q, K and V from one product of x with the three weights side by side, or three products";
    attention_products: AttentionProducts { Cublas = "cublas", Burn = "burn" }
        auto "CUDA: cublas where cuBLAS runs the dtype (f32, bf16); CPU: burn (no cuBLAS there)",
        what "the efficient attention's batched products as cuBLAS strided batched calls, or burn's matmul";
    attention_heads: AttentionHeads { Offset = "offset", Slice = "slice" }
        auto "offset",
        what "where the efficient attention takes a group of heads to cuBLAS: read at an offset into Q, K, V and dO, or sliced first (a copy unless the slice is 512-byte aligned)";
    attention_join: AttentionJoin { InPlace = "in-place", Cat = "cat" }
        auto "in-place where the batched products run on cuBLAS, else cat",
        what "how the efficient attention gathers its groups of heads (the output, dQ, dK, dV): each product written into its heads of one buffer, or tensors of their own joined by burn's cat";
    backward_probs: BackwardProbs { Inputs = "inputs", F32 = "f32" }
        auto "CUDA: inputs for bf16, f32 for f16; CPU: f32",
        what "the dtype of the probabilities the efficient attention's backward pass recomputes: the inputs' (bf16 under AMP; no cast for dV, the softmax's gradient reads them so) or f32";
    attention_softmax: AttentionSoftmax { Kernel = "kernel", Burn = "burn" }
        auto "CUDA: kernel for f32 and bf16, burn for f16; CPU: burn (no kernel there)",
        what "the attention's causal softmax and its gradient as one kernel of oomlab's each, or burn's tensor operations";
    layer_norm: LayerNorm { Kernel = "kernel", Burn = "burn" }
        auto "CUDA: kernel for f32 and bf16, burn for f16; CPU: burn (no kernel there)",
        what "LayerNorm's forward and backward passes as kernels of oomlab's, or burn's tensor operations";
    gelu: Gelu { Kernel = "kernel", Burn = "burn" }
        auto "CUDA: kernel for f32 and bf16, burn for f16; CPU: burn (no kernel there)",
        what "the feed-forward layer's bias and GELU as one kernel of oomlab's each way, or burn's tensor operations";
    adamw: Adamw { Kernel = "kernel", Burn = "burn" }
        auto "CUDA: kernel for f32 parameters (AMP's included), burn for half-precision ones (the kernel's one dtype is f32); CPU: burn (no kernel there)",
        what "AdamW's update of each parameter (both moments, their bias corrections, the decay and the step) as one kernel of oomlab's, or burn's AdamW (thirteen tensor operations)";
}

impl KernelsSection {
    /// The keys set to something other than `auto`, as `key=word`, in the section's
    /// order: what a run's header names.
    pub fn chosen(&self) -> Vec<String> {
        self.choices()
            .into_iter()
            .filter(|c| c.word != "auto")
            .map(|c| format!("{}={}", c.key, c.word))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_reads_its_two_words_and_auto_from_toml() {
        let s: KernelsSection =
            toml::from_str("layer_norm = \"burn\"\nqkv = \"fused\"\namp_cast = \"micro-batch\"")
                .unwrap();
        assert_eq!(s.layer_norm.choice(), Some(false));
        assert_eq!(s.qkv.choice(), Some(true));
        assert_eq!(s.amp_cast, AmpCast::MicroBatch);
        assert_eq!(s.gelu, Gelu::Auto);
        assert_eq!(s.gelu.choice(), None);
        assert_eq!(
            s.chosen(),
            ["amp_cast=micro-batch", "qkv=fused", "layer_norm=burn"]
        );
        // Every key's words go out and come back as they were.
        for c in KernelsSection::default().choices() {
            for word in c.values.split('|').chain(["auto"]) {
                let text = format!("{} = \"{word}\"", c.key);
                let back: KernelsSection = toml::from_str(&text).unwrap();
                let again = toml::to_string(&back).unwrap();
                assert!(again.contains(&text), "{text}: {again}");
            }
        }
    }

    #[test]
    fn a_misspelled_word_or_key_is_refused_naming_the_words() {
        let e = toml::from_str::<KernelsSection>("gelu = \"kernels\"").unwrap_err();
        let m = e.to_string();
        assert!(
            m.contains("auto") && m.contains("kernel") && m.contains("burn"),
            "{m}"
        );
        assert!(toml::from_str::<KernelsSection>("gelu_kernel = \"kernel\"").is_err());
    }
}
