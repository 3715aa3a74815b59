//! The topic about the step's speed on CUDA: what runs where by default and the variables
//! that choose it ([`crate::model::STEP_OPTIONS`], listed from that one table), ending with
//! the latest paired yardsticks against PyTorch (docs/results/2026-12-06-h100-in-place-join,
//! docs/results/2026-12-06-h100-probs-bf16).

use crate::evidence::Evidence;
use crate::model::STEP_OPTIONS;

/// Topics, their one-line summary and their text (the variables and the measured part are
/// appended).
pub const TOPICS: &[(&str, &str, &str)] = &[(
    "step-speed",
    "why a step takes as long as it does on CUDA, and the variables that change what runs",
    "\
What it does: a training step is a few hundred GPU kernels. burn 0.21's CUDA backend
(cubecl 0.10) compiles its own matrix products, slower than cuBLAS's on an H100 or H200,
and builds LayerNorm, softmax and GELU from chains of small
element-wise kernels and reductions, each reading and writing whole activations. oomlab
replaces the largest of them on CUDA: the linear layers' and attention's matrix products
run on cuBLAS for f32 and bf16 (the GPT's head stays on cubecl), ordered with cubecl's
stream on the device without the host waiting (`oomlab train` prints a line saying
where the products run); and for f32 and bf16, attention's causal softmax, LayerNorm and
the first feed-forward layer's bias and GELU run as kernels of oomlab's own. The
embeddings' gradients are a product with a one-hot matrix instead of burn's scatter, and
attention's products read each group of heads where it sits in Q, K, V and dO instead of
a copy (burn's slice copies a group that starts off its 512-byte alignment) and write it
into its heads of one output instead of joining the groups afterwards; under AMP bf16
the backward pass recomputes the probabilities in bf16, so dV's product needs no cast of
them. The variables
below choose each of these; a run prints the ones that are set, and a line saying where
softmax, LayerNorm and GELU ran.

When to use them: the defaults are the levers that stepped faster on the paired
yardstick against PyTorch with the final loss after 100 steps close to the run before's
(within 1e-3, relative; for bf16 on the mean over five seeds) and the NVML peak no higher, or a few MiB higher for
bf16's cuBLAS workspace; the README's CUDA section cites each measurement. The variables
are for measuring one lever against another (scripts/gpu/step-levers.sh does that,
paired with PyTorch), or for going back to burn's own operations when a kernel of
oomlab's is in doubt. On the CPU there are no kernels of oomlab's and no cuBLAS: the
softmax, LayerNorm, GELU and attention-product variables change nothing there, and the
others choose between tensor operations.

What it costs: f16 keeps burn's operations for softmax, LayerNorm and GELU (its rows have
not been measured on the kernels). A bf16 change of rounding moves the final loss after
100 steps by about as much as another seed does, so bf16's kernels were judged on the mean
over five seeds (scripts/seed-spread.py has the rule; the figures are in
docs/results/2026-12-06-h100-bf16-kernels/seeds/table.md).
",
)];

/// The variables, then the paired yardstick's rows.
pub fn measured(topic: &str) -> Option<String> {
    (topic == "step-speed").then(|| variables() + &paired())
}

/// [`STEP_OPTIONS`], one block per variable.
fn variables() -> String {
    let mut out = String::from("\nThe variables (unset: the default):\n");
    for o in STEP_OPTIONS {
        out.push_str(&format!(
            "  {}={}\n      {}\n      default: {}\n",
            o.name, o.values, o.what, o.default
        ));
    }
    out
}

/// The committed paired rows of the `gpu` and `h200` configs.
fn paired() -> String {
    let gpu = (
        "docs/results/2026-12-06-h100-in-place-join/gpu-298fc73/paired: NVIDIA H100, binary 298fc73 (bf16 with f32's dense embeddings and split sums, attention's groups of heads read at an offset and written into one buffer), `gpu` config, 20 steps, medians of 2 runs, CUBECL_AUTOTUNE_LEVEL=minimal set",
        Evidence::H100StepPaired.text(),
    );
    let h200 = (
        "docs/results/2026-12-06-h100-probs-bf16/h200-a3b32e1/paired: another H100, binary a3b32e1, `h200` config, AMP bf16, 2 runs each, the same setting; the variant p16: the backward pass's probabilities recomputed in bf16 (OOMLAB_BACKWARD_PROBS=inputs), bf16's default since f044144, so p16's row is today's default and the defaults row is the one before",
        Evidence::H100StepPairedH200.text(),
    );
    super::measured_paired(gpu, |_| true) + &super::measured_paired(h200, |_| true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_topic_lists_every_variable_and_the_committed_rows() {
        let text = measured("step-speed").unwrap();
        for o in STEP_OPTIONS {
            assert!(text.contains(&format!("{}={}", o.name, o.values)), "{text}");
        }
        // Both configs' rows, oomlab's and PyTorch's, each with a steady step read from
        // the committed file.
        assert_eq!(text.matches("Measured by oomlab").count(), 2, "{text}");
        for row in [
            "oomlab bf16 defaults",
            "pytorch f32 sdpa",
            "pytorch amp-bf16 sdpa",
        ] {
            assert!(text.contains(row), "{row}: {text}");
        }
        assert!(!text.contains("steady step n/a"), "{text}");
    }
}
