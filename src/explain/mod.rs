//! `oomlab explain`: what each technique does, when to use it, what it costs, ending with
//! figures oomlab itself measured (the committed results under docs/results/, compiled in
//! through the evidence manifest so the binary carries them, each with its card and date).
//!
//! The texts are written as plain paragraphs, lists and tables and laid out for the
//! output's width when they are printed (the `layout` module).

mod crash;
mod layout;
mod parallel;
mod reading;
mod speed;

use serde_json::Value;

use crate::config::ConfigError;
use crate::evidence::Evidence;
use crate::results::{Comparison, Row, RowStatus};
use crate::technique::{Topic, Variant};
use crate::text::Width;
use crate::units::Bytes;
use crate::words::MemoryKind;

use layout::row;

/// Topics, their one-line summary and their text.
const TOPICS: &[(&str, &str, &str)] = &[
    (
        "prealloc",
        "memory growth vs TensorFlow-style preallocation of the GPU",
        "\
What it does: `--memory-mode exact` (the default) and `--memory-mode growth` let burn's
pool take memory from the driver when tensors need it (`oomlab explain pool` tells the
two apart). `--memory-mode prealloc[=FRACTION]` reserves FRACTION (0.9) of the free VRAM
before the model exists, as TensorFlow and JAX do by default: oomlab asks burn's pool
for page-sized tensors, class by class, and drops them; the empty pages stay reserved
(burn only returns pages on a cleanup, which oomlab then never calls). nvidia-smi shows
the memory as the process's from the start.

When to use it: one training per GPU that should not be disturbed by anyone else
starting later, or to see why a second process on a 'busy' GPU fails.

What it costs: everyone else's memory. And burn's pool is split in size classes (pages
of 1/4, 1/16, 1/64... of the card): a page serves only tensors of its class, so a step
can still need new pages while preallocated ones sit empty; the summary reports how much
the pool grew after preallocating.
",
    ),
    (
        "attention",
        "memory-efficient attention: keep Q, K, V, recompute the scores",
        "\
What it does: attention compares every position with every earlier one, so its scores
and their softmax are [batch, heads, seq, seq] tensors: 134 MB each per layer for the
`gpu` config in f32 (64 x 8 x 256 x 256 x 4 bytes), 2.1 GB for the `h200` config.
Written out (`--attention math`), autodiff keeps them for the backward pass of every
layer, so they are all alive at the end of the forward pass.

`--attention efficient` (the default) is one operation of its own for burn's autodiff,
and it keeps only Q, K and V. Its forward pass computes the output a group of heads at a
time (as many heads as fit in 256 MiB of f32 scores: all 8 of the `gpu` config, 2 of the
`h200` config's 16) and drops each group's scores before the next. Its backward pass
recomputes them the same way, group by group, and returns the gradients of Q, K and V:
no score tensor outlives its layer's backward pass. On CUDA, for f32 and bf16, every
product (Q times K transposed, the probabilities times V, and those of the backward pass)
runs on cuBLAS, reading each group's heads where they lie in Q, K and V and writing each
result into its heads of one output; the causal softmax (scale, mask, maximum,
exponentials, sum and division) is one kernel of oomlab's, and so is its gradient. With
f16, and on the CPU, the forward pass is burn's fused attention and the rest burn's tensor
operations. `oomlab explain step-speed` lists the variables that choose each of these.

FlashAttention and PyTorch's scaled_dot_product_attention save the same memory another
way: they never write the scores to the GPU's memory at all (they work on tiles in the
chip's own memory). oomlab writes one group's scores at a time and reads them back.

When to use it: always, unless you want to see what the scores cost. The saving grows
with the square of the context length.

What it costs: the backward pass computes the scores and the softmax once more, and a
group's scores make a round trip through the GPU's memory that a fused kernel avoids.
The figures below show what it saves and what a step takes today.
",
    ),
    (
        "estimate",
        "how `oomlab estimate` predicts the peak, term by term, and how far off",
        "\
What it does: `oomlab estimate` (the flags of `train`) adds up, for the moment memory
peaks, what the config's shapes say will be alive:
- weights, AdamW's two moments (4 bytes each per parameter; 2 in pure half), the AMP half
  copy of the weights (2 bytes), the accumulation buffer under grad-accum (4 bytes);
- the activations autodiff keeps, counted operation by operation from burn 0.21's
  autodiff: per token and layer, each of the two LayerNorm operations keeps its input (1 x
  d_model; burn's own LayerNorm, with model.norm_in_f32 = false, keeps its centred and
  normalised input, 2 x d_model), the linears keep their inputs (3 x d_model), the
  attention operation keeps q, k, v (3 x d_model), the feed-forward keeps the GELU input
  and the second linear's input (2 x d_ff); math attention adds 3 x heads x seq_len;
  checkpointing keeps only the outputs of compute-bound operations (6 x d_model + d_ff),
  and on CUDA two more d_model tensors per layer (measured, not derived). These counts
  match the tensors alive at the end of the forward pass on the CPU and on the H200's
  allocator;
- the backward pass's working set: 3 x d_ff per token (the feed-forward's gradients); on
  the CPU in f32, whose linear layers take the input as one matrix, 2 x d_ff + d_model
  less the loss's, head's and final norm's kept tensors, which the heap has freed by then;
- the optimizer step (the other candidate moment): the trainer keeps the last good
  weights and state until the new step passed its out-of-memory checks, and the update
  frees each gradient as it makes that parameter's new weights and state, so the larger
  of its start (weights, state, gradients) and its end (old and new weights and state);
- GPU only: burn's pool. With the exact pool (the default) 10% over the tensors
  (measured). With the growth pool tensors share pages of size classes that follow from
  the card's size (a quarter of the card, then quarters of that); the estimate places
  every live tensor in its class, packs them whole into pages (a tensor never spans two
  pages: eight 1 GiB tensors fill an 8.8 GiB page, a ninth opens another), and gives a
  range: that packing at the bottom, up to one more page per pool in use (freed slices a
  later tensor does not fit). Plus the CUDA context (measured, 0.53 GiB on the H200). The
  pool's 10% and the context are read from one run on an NVIDIA H200, 2026-12-02
  (docs/results/2026-12-02-h200-memory-defaults).
- CPU only: the data (5 bytes a character) and the matrix library's packing buffer, the
  size of a core's L2 cache, per thread that multiplies (the main thread, and the workers
  once a product is large enough for the CPU backend to split).
The largest batch is the largest one whose predicted peak fits (--card, the GPU's
memory less other processes, or the CPU's available RAM); the smallest card is the first
of the built-in list whose predicted peak fits on it. `train` refuses a run whose
prediction exceeds the machine by more than 10% and names the batch, accumulation,
checkpointing or precision that would fit.

Your own model: `oomlab estimate --model NAME` (built-in shapes: gpt2, gpt2-medium,
qwen2.5-0.5b, llama-3.2-1b, mistral-7b, llama-3-8b, qwen2.5-7b) or `--hf-config
PATH/config.json` sizes training a Hugging Face decoder-only model with PyTorch and transformers (GPT-2,
Llama, Mistral, Qwen2) from its shapes alone: weights, gradients and AdamW in the
parameters' dtype (PyTorch updates in place, so none of oomlab's own trainer's rows),
AdamW's multi-tensor temporary, autocast's bf16 copies of the weights, the activations
autograd keeps per layer as transformers' code makes them (SDPA attention; RMSNorm,
RoPE and gelu_new are written out in Python and keep more than a fused kernel would), the
logits (the loss upcasts them to f32: 12 bytes a logit at the backward pass's start, often
the largest single term), PyTorch's caching allocator and the CUDA context. It starts with
the fixed state against the card and lists what acts on each term. The peaks are replayed:
for each architecture (GPT-2; Qwen2; Llama; Mistral with an untied head),
precision and checkpointing, every tensor the allocator is asked for and gives back, from
building the model to the optimizer step, was traced on two small models on an NVIDIA
H200, 2026-12-04 (docs/results/2026-12-04-h200-hf-templates), and is replayed for your
model's sizes through a model of the allocator. Where none was traced (another head,
accumulation, several GPUs, LoRA, another optimizer) a measured factor stands in. It was
checked against real transformers training on the same H200, 2026-12-04
(docs/results/2026-12-04-hf-estimate-validation.md).

When to use it: before a run, to choose batch, strategy and card; after an OOM, to see
which term is too large.

What it misses: the counts are exact, the allocator is not. Checked in
docs/results/2026-12-02-estimate-validation.md (an NVIDIA H200 from 2026-12-02 to
2026-12-04, 2 CPU cores on 2026-12-05; the calibration run left out): on the exact pool every
H200 row of the gpu and h200 configs and of the big-model lesson, every strategy and
precision, within 10%; on the CPU's heap the tiny config within 10%, every strategy at five
batches (8-128) with the CPU's 2-D linear layers; on
the growth pool the range held every measured peak. The largest batch: under a 3 GiB
budget the estimate says 28 where auto-halve's bisect found 26 and a fresh run trained 26
and failed at 27 (two sizes too high, 7.7%); under 4.5 GiB 47, where the bisect found 48
and a fresh run trained 47 (an NVIDIA H200, 2026-12-04:
docs/results/2026-12-04-h200-bisect-split). The bisect found
that much only once the exact pool's free buffers went back to the driver before a
micro-batch of another size; before, its probes failed with most of the pool reserved
but not in use, and it found 16 and 32. --calibrate fits peak = a + b x micro-batch to
two short real runs; it is exact for the exact pool and wrong for the growth pool, whose
memory jumps a page at a time.

For a Hugging Face model the uncertain term was PyTorch's caching allocator, not the
tensors: each f32 logits tensor is a segment of its own, and where best fit puts AdamW's
state at the first optimizer step decides whether a later step needs one, two or three
more of them (docs/results/2026-12-04-h200-hf-allocator-trace); no factor holds that. The
replay follows it: on every traced row of the built-in shapes within 0.07% of torch's
reserved peak (docs/results/2026-12-04-h200-hf-templates/check.md), every counted row of
the validation within 10%. It holds for torch 2.11 and transformers 5.17 with a plain
loop; other versions may run other kernels, and the large shapes' kernels ask for
workspaces the small models do not. Expandable segments
(PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True) are no cure: measured, they reserved less in some rows and more in others
(docs/results/2026-12-04-h200-hf-expandable).
",
    ),
    (
        "pool",
        "the GPU pool: exact buffers, or pages of size classes (growth)",
        "\
What it does: burn's GPU allocator (cubecl) does not ask the driver for each tensor.
With `--memory-mode exact` (the default) cubecl's persistent pool gives every tensor a
buffer of its exact size and hands a freed buffer to the next tensor of the same size; the
configs' training steps repeat the same shapes, so buffers are reused step after step.
With `--memory-mode growth` (burn's own default, and oomlab's until 2026-12-02) it takes
pages of a few size classes (up to a quarter of the card) and places tensors in them, so
a tensor of 1 GiB sits in an 8.8 GiB page: the page's unused rest is slack that
nvidia-smi counts as the process's, and the pool grows a page at a time, as TensorFlow's
`allow_growth` does.

When to use it: keep the default. `growth` shows what page slack looks like (the lesson
and `compare`'s pool-growth row contrast the two), and suits a run whose shapes keep
changing, where exact buffers of old sizes are not reused.

What it costs: measured on the gpu config, nothing in step time (below). Buffers are only
reused for the same size, so a run whose shapes change (auto-halve, bisect) holds buffers
of old sizes until oomlab's cleanup after a failed step returns them. On the CPU tensors
come from the system allocator, exactly sized already: the two modes are the same there.
",
    ),
    (
        "memory",
        "reading memory numbers: allocated, reserved, NVML, and why they differ",
        "\
Four numbers, from the inside out:
- allocator in use: bytes in live tensors (burn's pool, read at the end of every phase).
- reserved: what burn's pool holds from the driver, in use + slack. burn keeps freed
  memory for reuse, so reserved stays high after a peak until a cleanup returns it.
- NVML process: what nvidia-smi shows for the PID: reserved + the CUDA context, loaded
  kernels and cuBLAS workspaces (hundreds of MiB before any tensor).
- NVML device used: every process on the card + the driver.
Every `oomlab train` summary prints a reconciliation that adds these up at one moment.

Why nvidia-smi shows more than you use: the slack of the pool and the context. Why an
allocation can fail with memory free: the pool asks the driver for whole buffers (exact
sizes, or pages of the growth pool); a tensor that fits no free buffer needs a new one,
and the free memory may be scattered (fragmentation). On the CPU the same table shows
the host heap (oomlab's counting allocator) and RSS.
",
    ),
];

/// The first day of measurements with today's defaults on CUDA.
const CUDA_DEFAULTS_SINCE: &str = "2026-12-07";

/// The first day of measurements with today's defaults on the CPU.
const CPU_DEFAULTS_SINCE: &str = "2026-12-04";

/// For a measurement made before today's defaults, a sentence (with a space before it)
/// that says so and what changed since; empty for one of today's defaults.
pub(crate) fn older_defaults(e: Evidence) -> String {
    let day = e.date().get(..10).unwrap_or(e.date());
    if e.card().starts_with("NVIDIA") {
        if day >= CUDA_DEFAULTS_SINCE {
            return String::new();
        }
        let slack = if day < "2026-12-02" {
            ", and today's process figures hold less pool slack"
        } else {
            ""
        };
        format!(
            " Measured with the defaults of {day}: today's steps are faster{slack} (`oomlab \
             explain step-speed` has today's figures)."
        )
    } else if day < CPU_DEFAULTS_SINCE {
        format!(
            " Measured with the CPU's defaults of {day}: today's heap peaks of the tiny config \
             are about 6% lower (docs/results/2026-12-04-cpu-linear-default)."
        )
    } else {
        String::new()
    }
}

/// The two-process demonstration of `--memory-mode` (its `demo.json`).
fn measured_prealloc() -> String {
    let e = Evidence::H200PreallocDemo;
    let Ok(v) = serde_json::from_str::<Value>(e.text()) else {
        return String::new();
    };
    // Sizes as every oomlab table prints them.
    let size = |x: &Value| {
        x.as_u64()
            .map(|b| Bytes(b).to_string())
            .unwrap_or_else(|| "n/a".into())
    };
    let mut out = format!(
        "\nMeasured by oomlab on two processes at once ({}): tiny GPT, batch 2048; process B \
         starts after A's first step. Growth was the default then; the exact pool, today's, \
         takes memory when tensors need it too.\n",
        e.cite()
    );
    for key in ["growth/a", "growth/b", "prealloc/a", "prealloc/b"] {
        let r = &v[key];
        let outcome = match r["stop"].as_str() {
            Some("out-of-memory") => format!(
                "OUT OF MEMORY at step {} ({} phase, allocation of {}), detected and reported",
                r["oom"]["step"].as_u64().map_or(0, |s| s + 1),
                r["oom"]["phase"].as_str().unwrap_or("?"),
                size(&r["oom"]["requested"])
            ),
            Some(kind) => format!("{kind}, {} steps", r["steps_completed"]),
            None => "n/a".into(),
        };
        let reserved = match r["prealloc"].is_object() {
            true => format!(
                ", preallocated {} in {} pages, pool grew {} more",
                size(&r["prealloc"]["reserved_after"]),
                r["prealloc"]["pages"].as_array().map_or(0, Vec::len),
                size(&r["prealloc"]["grew_after"])
            ),
            false => String::new(),
        };
        out.push_str(&format!(
            "- {key}: peak VRAM (NVML process) {}{reserved}: {outcome}\n",
            size(&r["nvml_process_peak"])
        ));
    }
    out
}

/// The rows of a paired yardstick (benches' `paired.json`) that `pick` keeps, as a table:
/// the median steady step, its ratio to PyTorch's SDPA row of the same precision, the
/// median NVML process peak and final loss. `what` says what the rows ran.
pub(crate) fn measured_paired(e: Evidence, what: &str, pick: impl Fn(&str) -> bool) -> String {
    let Ok(v) = serde_json::from_str::<Value>(e.text()) else {
        return String::new();
    };
    let runs = v["runs"].as_array().cloned().unwrap_or_default();
    let median = |name: &str, key: &str| crate::diagnose::paired_median(&runs, name, key);
    let mut names: Vec<&str> = Vec::new();
    for name in runs.iter().filter_map(|r| r["name"].as_str()) {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    let meta = &v["meta"];
    let mut out = format!(
        "\nMeasured by oomlab's paired yardstick against PyTorch ({}): the `{}` config, batch \
         {}, {} steps, medians of {} runs, each configuration in fresh processes, interleaved. \
         {what}{}\n",
        e.cite(),
        meta["config"].as_str().unwrap_or("?"),
        meta["batch"],
        meta["steps"],
        meta["repeats"],
        older_defaults(e)
    );
    // PyTorch's row of the same precision, for the ratio.
    let pytorch_of = |name: &str| -> Option<&'static str> {
        if !name.starts_with("oomlab") {
            None
        } else if name.contains(" f32 ") {
            Some("pytorch f32 sdpa")
        } else if name.contains(" bf16 ") {
            Some("pytorch amp-bf16 sdpa")
        } else {
            None
        }
    };
    out.push_str(&row(&[
        "configuration",
        "steady step",
        "vs PyTorch SDPA",
        "NVML process peak",
        "final loss",
    ]));
    for name in names.into_iter().filter(|n| pick(n)) {
        let step = median(name, "step");
        let ratio = pytorch_of(name).and_then(|p| Some(step? / median(p, "step")?));
        out.push_str(&row(&[
            name.to_string(),
            step.map_or_else(|| "-".into(), |s| format!("{:.1} ms", s * 1e3)),
            ratio.map_or_else(|| "-".into(), |r| format!("{r:.2}x")),
            median(name, "peak_nvml").map_or_else(|| "-".into(), |b| Bytes(b as u64).to_string()),
            median(name, "final_loss").map_or_else(|| "-".into(), |l| format!("{l:.4}")),
        ]));
    }
    out
}

/// The validation table's summary lines and a worked example on the `gpu` config against
/// its measured run.
fn measured_estimate() -> String {
    measured_estimate_own() + &hf_example()
}

/// A worked example of a Hugging Face model, computed now by the estimate itself.
fn hf_example() -> String {
    use crate::hf::{HfReport, Precision, Setup, Shape};
    let Ok(shape) = Shape::builtin("llama-3.2-1b") else {
        return String::new();
    };
    let card = crate::estimate::parse_card("24GiB").ok();
    let r = HfReport::new(shape, Setup::new(2048, 1, Precision::AmpBf16), card);
    let mut out = String::from(
        "\nYour own model, worked example: `oomlab estimate --model llama-3.2-1b --seq 2048 \
         --precision bf16 --card 24GiB` (Llama-3.2-1B, AMP bf16, AdamW, micro-batch 1), as \
         this build of oomlab computes it (a prediction: nothing ran).\n",
    );
    out.push_str(&r.fixed_state_line());
    out.push('\n');
    let e = &r.estimate;
    out.push_str(&row(&["term", "size"]));
    for t in e.terms.iter().filter(|t| t.at_peak && t.bytes.0 > 0) {
        out.push_str(&row(&[t.kind.label().to_string(), t.bytes.to_string()]));
    }
    out.push_str(&format!(
        "Process peak {} at {} (on a card with room); a full card must hold {} (allocated and \
         context: PyTorch frees its cached blocks before it gives up); largest micro-batch on \
         24 GiB: {}. What to change:\n",
        e.process,
        e.moment.label(),
        e.needs(),
        r.largest_micro_batch.unwrap_or(0)
    ));
    out.push_str(&row(&[
        "change",
        "process peak",
        "largest micro-batch",
        "checked against transformers",
    ]));
    for w in &r.what_ifs {
        out.push_str(&row(&[
            w.change.clone(),
            w.process.to_string(),
            w.largest_micro_batch.unwrap_or(0).to_string(),
            if w.checked { "yes" } else { "formula only" }.to_string(),
        ]));
    }
    out
}

fn measured_estimate_own() -> String {
    let table = Evidence::EstimateValidation;
    let run = Evidence::H200DefaultsF32Run;
    let mut out = format!(
        "\nMeasured by oomlab compare and the paired yardstick ({}): the estimate against \
         measured peaks.{}\n",
        table.cite(),
        older_defaults(table)
    );
    for line in table.text().lines().filter(|l| l.starts_with("- ")) {
        out.push_str(line);
        out.push('\n');
    }
    // Read untyped: the run predates fields the current summary has.
    let Ok(v) = serde_json::from_str::<serde_json::Value>(run.text()) else {
        return out;
    };
    let field = |path: &[&str]| {
        path.iter()
            .try_fold(&v, |v, k| v.get(k))
            .and_then(|v| v.as_u64())
    };
    let (Some(vocab), Some(total), Some(measured)) = (
        field(&["vocab"]),
        field(&["memory", "device_total"]),
        field(&["memory", "process_peak"]),
    ) else {
        return out;
    };
    let (total, measured) = (Bytes(total), Bytes(measured));
    let Ok((_, cfg)) =
        crate::config::load(&crate::config::ConfigSource::Builtin("gpu".into()), &[])
    else {
        return out;
    };
    let e = crate::estimate::Estimate::of(
        &cfg,
        vocab as usize,
        crate::estimate::Target::Cuda { total },
    );
    out.push_str(&format!(
        "\nWorked example: the `gpu` config (f32, batch {}, the exact pool) on the card of one \
         f32 run ({total}), against that run's NVML process peak ({}).{}\n",
        cfg.train.batch,
        run.cite(),
        older_defaults(run)
    ));
    out.push_str(&row(&["term", "size", "how"]));
    for t in e.terms.iter().filter(|t| t.at_peak && t.bytes.0 > 0) {
        out.push_str(&row(&[
            t.kind.label().to_string(),
            t.bytes.to_string(),
            t.how.clone(),
        ]));
    }
    out.push_str(&row(&[
        "= predicted peak".to_string(),
        e.peak.to_string(),
        String::new(),
    ]));
    out.push_str(&row(&[
        "measured".to_string(),
        measured.to_string(),
        format!(
            "predicted {:+.1}%",
            (e.peak.0 as f64 / measured.0 as f64 - 1.0) * 100.0
        ),
    ]));
    out
}

/// Every topic: the techniques' own (each once), then the concepts here, reading and
/// reacting to an OOM (`reading`), crashes, several devices and step speed.
fn all_topics() -> impl Iterator<Item = (&'static str, &'static str, &'static str)> {
    technique_topics()
        .map(|t| (t.name, t.summary, t.text))
        .chain(TOPICS.iter().copied())
        .chain(reading::TOPICS.iter().copied())
        .chain(crash::TOPICS.iter().copied())
        .chain(parallel::TOPICS.iter().copied())
        .chain(speed::TOPICS.iter().copied())
}

/// The topics the techniques hold, in the registry's order, each once (the two rows of
/// mixed precision share one).
fn technique_topics() -> impl Iterator<Item = &'static Topic> {
    let mut seen = Vec::new();
    Variant::ALL
        .iter()
        .filter_map(|v| v.technique().topic())
        .filter(move |t| {
            let new = !seen.contains(&t.name);
            seen.push(t.name);
            new
        })
}

/// The measured part of `topic`, laid out as its text is.
fn measured(topic: &str) -> String {
    if let Some(t) = technique_topics().find(|t| t.name == topic) {
        return measured_compare_in(topic, t.compared) + &(t.more)();
    }
    if let Some(text) = reading::measured(topic)
        .or_else(|| crash::measured(topic))
        .or_else(|| parallel::measured(topic))
        .or_else(|| speed::measured(topic))
    {
        return text;
    }
    match topic {
        "estimate" => measured_estimate(),
        "prealloc" => measured_prealloc(),
        "attention" => {
            measured_paired(
                Evidence::H200Paired,
                "Rows of math and efficient attention on the growth pool (the default then) and \
                 PyTorch's written-out attention (math) and SDPA.",
                |n| (n.contains("growth") && !n.contains("checks")) || n.starts_with("pytorch"),
            ) + &measured_paired(
                Evidence::H100Paired,
                "Today's defaults (efficient attention) and PyTorch's SDPA.",
                |_| true,
            )
        }
        "pool" => measured_paired(
            Evidence::H200DefaultsPaired,
            "\"defaults\": the efficient attention, the LayerNorm operation and the exact pool; \
             \"efficient growth\": the same on the growth pool.",
            |_| true,
        ),
        _ => measured_compare(topic),
    }
}

/// The committed comparisons' rows for `topic` (with the baseline's), as tables.
fn measured_compare(topic: &str) -> String {
    measured_compare_in(topic, crate::evidence::STRATEGY_COMPARISONS)
}

/// The rows for `topic` (with the baseline's) of the comparisons `evidence`, as tables.
pub(crate) fn measured_compare_in(topic: &str, evidence: &[(Evidence, &str)]) -> String {
    let mut out = String::new();
    for &(e, what) in evidence {
        let Ok(cmp) = serde_json::from_str::<Comparison>(e.text()) else {
            continue;
        };
        let gpu = cmp.memory_kind == Some(MemoryKind::Gpu);
        let base = cmp
            .rows
            .iter()
            .find(|r| r.strategy.name() == "baseline" && r.status == RowStatus::Completed);
        let picked: Vec<&Row> = cmp
            .rows
            .iter()
            .filter(|r| {
                let name = r.strategy.name();
                topic == "memory"
                    || name == topic
                    || name == "baseline"
                    || name
                        .strip_prefix(topic)
                        .is_some_and(|rest| rest.starts_with('-'))
            })
            .collect();
        if picked.is_empty() {
            continue;
        }
        let ooms = cmp.simulated || picked.iter().any(|r| r.oom_retries > 0);
        let skipped = picked.iter().any(|r| r.skipped_steps > 0);
        let stopped = picked
            .iter()
            .any(|r| !matches!(r.status, RowStatus::Completed));
        // The arguments as a user types them: a budget's bytes as a size.
        let mut args = cmp.common_args.clone();
        for i in 1..args.len() {
            if matches!(args[i - 1].as_str(), "--memory-budget" | "--vram-budget") {
                if let Ok(b) = args[i].parse::<u64>() {
                    args[i] = Bytes(b).flag();
                }
            }
        }
        out.push_str(&format!(
            "\nMeasured by oomlab compare ({}): {what}; arguments: {}.{}\n",
            e.cite(),
            args.join(" "),
            older_defaults(e)
        ));
        let mut header = vec![
            "row",
            "split",
            if gpu {
                "peak VRAM (NVML process)"
            } else {
                "peak host RSS"
            },
        ];
        if gpu {
            header.push("in tensors");
        }
        header.extend(["steady step", "final loss"]);
        if ooms {
            header.push(if cmp.simulated {
                "OOMs hit (SIMULATED)"
            } else {
                "OOMs hit"
            });
        }
        if skipped {
            header.push("updates skipped by the loss scaler");
        }
        if stopped {
            header.push("outcome");
        }
        out.push_str(&row(&header));
        // (x): the ratio to the baseline row.
        let x = |v: Option<f64>| v.map(|x| format!(" ({x:.2}x)")).unwrap_or_default();
        let mut notes = String::new();
        for r in &picked {
            let mut cells = vec![
                r.strategy.name().to_string(),
                r.split.clone().unwrap_or_default(),
                r.peak_process_bytes.map_or_else(
                    || "-".to_string(),
                    |b| format!("{:.1} MiB{}", Bytes(b).mib(), x(r.memory_vs_baseline)),
                ),
            ];
            if gpu {
                cells.push(r.peak_in_use_bytes.map_or_else(
                    || "-".to_string(),
                    |b| {
                        let ratio = base
                            .and_then(|base| base.peak_in_use_bytes)
                            .map(|t| b as f64 / t.max(1) as f64);
                        format!("{:.1} MiB{}", Bytes(b).mib(), x(ratio))
                    },
                ));
            }
            cells.push(r.steady_step_s.map_or_else(
                || "-".to_string(),
                |t| format!("{:.1} ms{}", t * 1000.0, x(r.time_vs_baseline)),
            ));
            cells.push(
                r.final_loss
                    .map_or_else(|| "-".to_string(), |l| format!("{l:.4}")),
            );
            if ooms {
                cells.push(r.oom_retries.to_string());
            }
            if skipped {
                cells.push(r.skipped_steps.to_string());
            }
            if stopped {
                cells.push(
                    match &r.status {
                        RowStatus::Completed => "completed",
                        RowStatus::OutOfMemory(_) => "stopped: out of memory",
                        RowStatus::Failed(_) => "stopped: failed",
                        RowStatus::NotRun => "not run",
                    }
                    .to_string(),
                );
            }
            out.push_str(&row(&cells));
            if let Some(note) = &r.note {
                notes.push_str(&format!("- {}: {note}\n", r.strategy.name()));
            }
        }
        out.push_str(&notes);
        out.push_str("(x): this row / the baseline row");
        match (base, gpu) {
            (None, _) => out.push_str("; none here: the baseline did not finish"),
            (Some(b), true) => out.push_str(&format!(
                ". The process figure also holds the pool's slack and {:.1} MiB outside the pool \
                 (CUDA context, modules: the baseline's), which do not shrink with the batch; so \
                 its ratios sit above the ratios of the bytes in tensors",
                Bytes(b.overhead_bytes.unwrap_or(0)).mib()
            )),
            (Some(_), false) => {}
        }
        out.push_str(".\n");
    }
    out
}

/// The text for `topic`, or the list of topics, laid out for the output's width.
pub fn explain(topic: Option<&str>) -> Result<String, ConfigError> {
    explain_at(topic, crate::text::width())
}

/// [`explain`] laid out for `width` (the pages in docs/techniques are made at
/// [`crate::text::PIPE_WIDTH`]).
pub(crate) fn explain_at(topic: Option<&str>, width: Width) -> Result<String, ConfigError> {
    let Some(topic) = topic else {
        let columns = layout::prose_columns(width);
        let mut out = String::from("oomlab explain TOPIC, where TOPIC is one of:\n");
        for (name, summary, _) in all_topics() {
            out.push_str(&layout::hang_to(
                &format!("  {name:<15} "),
                summary,
                columns,
            ));
        }
        return Ok(out);
    };
    // A compare row's name (amp-bf16, half-f16, attention-math, pool-growth) is explained
    // under its technique's topic.
    let under = Variant::from_name(topic).map(|v| v.technique().topic_name());
    let found = all_topics()
        .find(|(n, _, _)| *n == topic)
        .or_else(|| all_topics().find(|(n, _, _)| Some(*n) == under));
    let Some((name, summary, text)) = found else {
        return Err(ConfigError::Override {
            given: format!("oomlab explain {topic}"),
            reason: format!(
                "no such topic; topics: {}",
                all_topics().map(|t| t.0).collect::<Vec<_>>().join(", ")
            ),
        });
    };
    let text = format!("{name}: {summary}\n\n{text}{}", measured(name));
    Ok(layout::layout(&text, width))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every text explain prints: the list, then each topic, at `width`.
    fn every_text(width: Width) -> Vec<(String, String)> {
        let mut texts = vec![("the list".to_string(), explain_at(None, width).unwrap())];
        for (name, _, _) in all_topics() {
            texts.push((name.to_string(), explain_at(Some(name), width).unwrap()));
        }
        texts
    }

    #[test]
    fn every_compiled_in_comparison_reads_as_the_typed_comparison() {
        let compared = Variant::ALL
            .iter()
            .filter_map(|v| v.technique().topic())
            .flat_map(|t| t.compared.iter());
        for (e, _) in compared.chain(crate::evidence::STRATEGY_COMPARISONS) {
            let parsed = serde_json::from_str::<Comparison>(e.text());
            assert!(parsed.is_ok(), "{}: {:?}", e.path(), parsed.err());
        }
    }

    #[test]
    fn the_technique_pages_in_docs_are_the_explain_texts() {
        // docs/techniques/<topic>.md is `oomlab explain <topic>` piped (laid out for
        // PIPE_WIDTH) in a text block; regenerate with scripts/docs-techniques.sh when a
        // text or a result changes.
        for (name, _, _) in all_topics() {
            let path = format!("{}/docs/techniques/{name}.md", env!("CARGO_MANIFEST_DIR"));
            let page = std::fs::read_to_string(&path).unwrap_or_default();
            let text = explain_at(Some(name), Width::Columns(crate::text::PIPE_WIDTH)).unwrap();
            assert!(
                page.contains(&text),
                "{path} is not current: run scripts/docs-techniques.sh"
            );
        }
    }

    #[test]
    fn every_line_fits_the_width() {
        for columns in [80, 100, 120] {
            for (name, text) in every_text(Width::Columns(columns)) {
                for line in text.lines() {
                    assert!(
                        line.chars().count() <= columns,
                        "{name} at {columns} columns: {line}"
                    );
                }
            }
        }
        // The topic list stays one line a topic where the pages are made, so that
        // scripts/docs-techniques.sh reads one name a line.
        let list = explain_at(None, Width::Columns(crate::text::PIPE_WIDTH)).unwrap();
        assert_eq!(list.lines().count(), all_topics().count() + 1, "{list}");
    }

    #[test]
    fn no_text_names_a_commit_an_issue_a_source_path_or_a_rust_type() {
        for (name, text) in every_text(Width::Unlimited) {
            let found = crate::text::internals(&text);
            assert!(found.is_empty(), "{name}: {found:?}");
        }
    }

    #[test]
    fn a_figure_of_older_defaults_says_so_and_todays_do_not() {
        let old = older_defaults(Evidence::H200Paired);
        assert!(
            old.contains("Measured with the defaults of 2026-11-30"),
            "{old}"
        );
        assert!(older_defaults(Evidence::H100Paired).is_empty());
        assert!(older_defaults(Evidence::CpuComparePrecision).is_empty());
        assert!(older_defaults(Evidence::CpuCompareBudget).contains("2026-11-30"));
        let attention = explain_at(Some("attention"), Width::Unlimited)
            .unwrap()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert!(attention.contains("NVIDIA H200, 2026-11-30"), "{attention}");
        assert!(
            attention.contains("NVIDIA H100 80GB HBM3, 2026-12-07"),
            "{attention}"
        );
    }

    #[test]
    fn a_compare_rows_name_opens_its_topic() {
        for (row, topic) in [
            ("amp-bf16", "amp"),
            ("half-f16", "half"),
            ("pool-growth", "pool"),
        ] {
            let text = explain(Some(row)).unwrap();
            assert!(text.starts_with(&format!("{topic}: ")), "{row}: {text}");
        }
        assert!(explain(Some("amp-f64")).is_err());
    }

    #[test]
    fn every_strategy_compare_runs_has_a_topic() {
        // amp-bf16 and amp-f16 are explained under `amp`, half-* under `half`.
        for v in Variant::ALL {
            let under = v.technique().topic_name();
            assert!(all_topics().any(|t| t.0 == under), "{v}: no topic {under}");
            assert!(explain(Some(v.name())).is_ok(), "{v}");
        }
    }

    #[test]
    fn the_estimate_topics_figures_are_the_estimates_constants() {
        // The text is written by hand; the figures it states are the ones the estimate
        // computes with, so a change of either fails here.
        let words = |t: String| t.split_whitespace().collect::<Vec<_>>().join(" ");
        let text = words(explain(Some("estimate")).unwrap());
        let pct = (crate::estimate::measured::EXACT_POOL_FACTOR - 1.0) * 100.0;
        let said = format!("With the exact pool (the default) {pct:.0}% over the tensors");
        assert!(text.contains(&said), "{said}");
        let context = crate::estimate::measured::CUDA_CONTEXT.0 as f64 / (1u64 << 30) as f64;
        let said = format!("the CUDA context (measured, {context:.2} GiB on the H200)");
        assert!(text.contains(&said), "{said}");
        let amp = words(explain(Some("amp")).unwrap());
        assert!(amp.contains("(18 bytes per parameter with AdamW instead of 16)"));
        // The largest-batch figures are the validation table's rows.
        let table = crate::evidence::Evidence::EstimateValidation.text();
        assert!(
            table.contains("| 3GiB | 26 | 26 | 27 | 28 | +7.7% | yes |"),
            "{table}"
        );
        assert!(
            table.contains("| 4608MiB | 48 | 47 | 48 | 47 | -2.1% | yes |"),
            "{table}"
        );
        assert!(text.contains(
            "the estimate says 28 where auto-halve's bisect found 26 and a fresh run trained 26 and failed at 27"
        ));
        assert!(
            text.contains("under 4.5 GiB 47, where the bisect found 48 and a fresh run trained 47")
        );
    }

    #[test]
    fn each_topic_ends_with_measured_numbers() {
        for (name, _, _) in all_topics() {
            let text = explain(Some(name)).unwrap();
            assert!(text.contains("Measured by oomlab"), "{name}: {text}");
        }
    }

    #[test]
    fn an_unknown_topic_lists_the_known_ones() {
        let e = explain(Some("magic")).unwrap_err().to_string();
        assert!(e.contains("grad-accum"), "{e}");
    }
}
