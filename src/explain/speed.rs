//! The topic about the step's speed on CUDA: what runs where by default and the config's
//! `[kernels]` keys that choose it (listed from the section's own table), ending with
//! today's paired yardsticks against PyTorch (docs/results/2026-12-07-h100-done-when).

use crate::config::KernelsSection;
use crate::evidence::Evidence;

/// Topics, their one-line summary and their text (the keys and the measured part are
/// appended).
pub(super) const TOPICS: &[(&str, &str, &str)] = &[(
    "step-speed",
    "why a CUDA step takes as long as it does; the settings that change it",
    "\
What it does: a training step is a few hundred GPU kernels. burn 0.21's CUDA backend
(cubecl 0.10) compiles its own matrix products, slower than cuBLAS's on an H100 or H200,
and builds LayerNorm, softmax and GELU from chains of small element-wise kernels and
reductions, each reading and writing whole activations. oomlab replaces the largest of
them on CUDA, for f32 and bf16:
- the linear layers' and attention's matrix products run on cuBLAS (the GPT's head stays
  on cubecl), queued on cubecl's stream without the host waiting; a linear layer's two
  gradient products, and attention's backward products that do not depend on each other,
  go to cuBLAS together; `oomlab train` prints a line saying where the products run;
- attention's causal softmax and its gradient, LayerNorm's forward and backward passes,
  and the first feed-forward layer's bias and GELU run as kernels of oomlab's, and so does
  AdamW's update of each f32 parameter (one kernel a parameter instead of burn's thirteen
  tensor operations);
- attention's products read each group of heads where it lies in Q, K, V and the
  output's gradient, instead of a copy, and write it into its heads of one output instead of
  joining the groups afterwards; under AMP bf16 the backward pass recomputes the
  probabilities in bf16, so the product that reads them needs no cast;
- the embeddings' gradients are a product with a one-hot matrix instead of burn's scatter,
  and the sums over every token (LayerNorm's and the biases' gradients) run in two stages.
The keys of the config's [kernels] section below choose each of these: in a config
file, or `--set kernels.layer_norm=burn` on `train` and on `compare` (every row). A
run's config.toml and summary keep the section, a resume that changes it is refused
unless forced, and a run prints the keys that are not `auto` and a line saying where
softmax, LayerNorm and GELU ran.

When to use them: the defaults are the levers that stepped faster on the paired
yardstick against PyTorch with the final loss after 100 steps close to the run before's
(within 1e-3, relative; for bf16 on the mean over five seeds) and the NVML peak no
higher, or a few MiB higher for bf16's cuBLAS workspace; docs/results/step-history.md
lists every yardstick run, card by card. The other words are for measuring one lever
against another, or for going back to burn's own operations when a kernel of oomlab's is
in doubt. On the CPU there are no kernels of oomlab's and no cuBLAS: the softmax,
LayerNorm, GELU, AdamW and product keys change nothing there, and the others choose
between tensor operations.

What it costs: f16 keeps burn's operations for softmax, LayerNorm and GELU (its rows have
not been measured on the kernels). A bf16 change of rounding moves the final loss after
100 steps by about as much as another seed does, so bf16's kernels were judged on the mean
over five seeds (an NVIDIA H100, 2026-12-06:
docs/results/2026-12-06-h100-bf16-kernels/seeds/table.md).
",
)];

/// The keys, then the paired yardstick's rows.
pub(super) fn measured(topic: &str) -> Option<String> {
    (topic == "step-speed").then(|| variables() + &paired())
}

/// Every `[kernels]` key, one item each.
fn variables() -> String {
    let mut out = String::from("\nThe [kernels] keys (each `auto` by default):\n");
    for c in KernelsSection::default().choices() {
        out.push_str(&format!(
            "- kernels.{} = auto|{}: {}. auto: {}.\n",
            c.key, c.values, c.what, c.auto
        ));
    }
    out
}

/// Today's paired rows of the `gpu` and `h200` configs.
fn paired() -> String {
    let gpu = super::measured_paired(
        Evidence::H100Paired,
        "Today's defaults, with the settings oomlab chooses itself (autotune level minimal, \
         the kernels it ships in the kernel cache). PyTorch's steps in this run were among the slowest of all the \
         H100 runs (docs/results/step-history.md), so the ratios are lower than most.",
        |_| true,
    );
    let h200 = super::measured_paired(
        Evidence::H100PairedH200,
        "The `h200` config is a larger GPT (d_model 1024, 16 layers, seq 512) sized to fill a \
         large share of an H200; here it ran on the H100. Today's defaults, AMP bf16, the \
         same settings.",
        |_| true,
    );
    gpu + &h200
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_topic_lists_every_key_and_the_committed_rows() {
        let text = measured("step-speed").unwrap();
        for c in KernelsSection::default().choices() {
            let item = format!("- kernels.{} = auto|{}: ", c.key, c.values);
            assert!(text.contains(&item), "{item}: {text}");
        }
        // Both configs' rows, oomlab's and PyTorch's, each with a steady step read from
        // the committed file.
        assert_eq!(text.matches("Measured by oomlab").count(), 2, "{text}");
        for row in [
            "| oomlab bf16 defaults | ",
            "| pytorch f32 sdpa | ",
            "| pytorch amp-bf16 sdpa | ",
        ] {
            assert!(text.contains(row), "{row}: {text}");
        }
        assert!(!text.contains("| oomlab bf16 defaults | - |"), "{text}");
        assert!(text.contains("NVIDIA H100 80GB HBM3, 2026-12-07"), "{text}");
    }
}
