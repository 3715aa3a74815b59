//! What each technique saved when it was measured: read from the committed results, so the
//! advice a diagnosis prints is a measurement with its file, never a typed-in figure.

use serde::Serialize;
use serde_json::Value;

const PAIRED: &str = crate::evidence::Evidence::H200Paired.text();
const PAIRED_FILE: &str = crate::evidence::Evidence::H200Paired.path();
const PRECISION: &str = crate::evidence::Evidence::H200Precision.text();
const PRECISION_FILE: &str = crate::evidence::Evidence::H200Precision.path();

/// One technique's measured effect on the process's peak memory (NVML).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Saving {
    /// What to do, in PyTorch terms.
    pub technique: &'static str,
    /// The oomlab flag that shows the same (`oomlab explain ...`).
    pub oomlab: &'static str,
    /// Peak with the technique / peak without.
    pub ratio: f64,
    /// What was measured and where the figures are.
    pub measured: String,
}

/// The median of `key` over the completed runs called `name` in a paired yardstick's
/// `runs` (benches/paired.py's paired.json).
pub fn paired_median(runs: &[Value], name: &str, key: &str) -> Option<f64> {
    let mut v: Vec<f64> = runs
        .iter()
        .filter(|r| r["name"] == name && r["stop"] == "completed")
        .filter_map(|r| r[key].as_f64())
        .collect();
    v.sort_by(f64::total_cmp);
    // As Python's statistics.median, which wrote paired.md: the mean of the middle two
    // of an even count.
    match v.len() {
        0 => None,
        n if n % 2 == 1 => Some(v[n / 2]),
        n => Some((v[n / 2 - 1] + v[n / 2]) / 2.0),
    }
}

/// `memory_vs_baseline` of the compare row for `strategy`.
fn compare_ratio(rows: &[Value], strategy: &str) -> Option<f64> {
    rows.iter()
        .find(|r| r["strategy"] == strategy)
        .and_then(|r| r["memory_vs_baseline"].as_f64())
}

/// The measured savings, largest saving first; empty if a file lacks a row.
pub fn measured_savings() -> Vec<Saving> {
    let mut out = Vec::new();
    let paired: Value = serde_json::from_str(PAIRED).unwrap_or(Value::Null);
    let runs = paired["runs"].as_array().cloned().unwrap_or_default();
    let base = paired_median(&runs, "pytorch f32 math", "peak_nvml");
    let pt = |technique, oomlab, name: &str| {
        let ratio = paired_median(&runs, name, "peak_nvml")? / base?;
        Some(Saving {
            technique,
            oomlab,
            ratio,
            measured: format!(
                "PyTorch, `gpu` GPT (25.4M parameters, d512, 8 layers, seq 256), batch 64, H200: '{name}' vs 'pytorch f32 math', median of 3 ({PAIRED_FILE})"
            ),
        })
    };
    out.extend(pt(
        "mixed precision (torch.autocast bf16) and memory-efficient attention (F.scaled_dot_product_attention) together",
        "--precision bf16 --attention efficient",
        "pytorch amp-bf16 sdpa",
    ));
    out.extend(pt(
        "memory-efficient attention (F.scaled_dot_product_attention instead of softmax(QK^T)V)",
        "--attention efficient",
        "pytorch f32 sdpa",
    ));
    out.extend(pt(
        "mixed precision (torch.autocast(dtype=torch.bfloat16))",
        "--precision bf16",
        "pytorch amp-bf16 math",
    ));
    let compare: Value = serde_json::from_str(PRECISION).unwrap_or(Value::Null);
    let rows = compare["rows"].as_array().cloned().unwrap_or_default();
    let ol = |technique, oomlab, strategy: &str| {
        Some(Saving {
            technique,
            oomlab,
            ratio: compare_ratio(&rows, strategy)?,
            measured: format!(
                "oomlab, tiny GPT (110k parameters: nearly all its memory is activations), batch 2048, H200: '{strategy}' vs 'baseline' ({PRECISION_FILE})"
            ),
        })
    };
    out.extend(ol(
        "gradient accumulation, 4 micro-batches of a quarter (loss / 4, optimizer step every 4)",
        "--strategy grad-accum --steps 4",
        "grad-accum",
    ));
    out.extend(ol(
        "activation checkpointing (oomlab's: element-wise outputs recomputed in the backward pass; torch.utils.checkpoint is the PyTorch counterpart, not measured here)",
        "--strategy checkpointing",
        "checkpointing",
    ));
    out.sort_by(|a, b| a.ratio.total_cmp(&b.ratio));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_of_an_even_count_is_the_mean_of_the_middle_two_as_paired_md_has_it() {
        let run = |v: f64, stop: &str| serde_json::json!({"name": "a", "stop": stop, "k": v});
        let runs = [
            run(3.0, "completed"),
            run(1.0, "completed"),
            run(9.0, "failed"),
        ];
        assert_eq!(paired_median(&runs, "a", "k"), Some(2.0));
        assert_eq!(paired_median(&runs[..1], "a", "k"), Some(3.0));
        assert_eq!(paired_median(&runs[2..], "a", "k"), None);
    }

    #[test]
    fn every_saving_is_read_from_its_file_and_saves_memory() {
        let s = measured_savings();
        assert_eq!(s.len(), 5, "{s:?}");
        for x in &s {
            assert!(x.ratio > 0.0 && x.ratio < 1.0, "{x:?}");
            assert!(x.measured.contains("docs/results/"), "{x:?}");
        }
        assert!(s.windows(2).all(|w| w[0].ratio <= w[1].ratio));
    }
}
