//! The topics about reading and reacting to an out-of-memory error, rather than one
//! technique: where the memory goes, how to read the message, fragmentation, what to try
//! first, the same knobs in PyTorch, TensorFlow and JAX, and a glossary. Their measured
//! parts are computed from committed files (the H200 error corpus, auto-halve's retry log,
//! a run summary), each named with its card and date.

use serde_json::Value;

use super::layout::row;
use super::older_defaults;
use crate::diagnose::{measured_savings, parse, DiagnoseReport, Verdict};
use crate::estimate::pool::pools;
use crate::evidence::Evidence;
use crate::units::Bytes;

/// Topics, their one-line summary and their text (the measured part is appended).
pub(super) const TOPICS: &[(&str, &str, &str)] = &[
    (
        "anatomy",
        "where training memory goes: bytes per parameter, activations, slack",
        "\
Per parameter, for training with AdamW:
| per parameter | f32 | mixed precision (AMP) | all half (bf16/f16) |
| weights | 4 B | 4 B (+ a 2 B half copy) | 2 B |
| gradients | 4 B | 4 B | 2 B |
| AdamW's 2 moments | 8 B | 8 B | 4 B |
| total | 16 B | 16 B (+2) | 8 B |
SGD without momentum keeps no state: 8 B per parameter in f32. These do not depend on the
batch.

Activations: what the forward pass keeps for the backward pass. Per layer and sample they
grow with the sequence length (x the width: layer norms, the inputs of every linear
layer, the MLP's hidden layer) and, with attention written out, with its square (the
[heads, seq, seq] scores and their softmax). They scale with the batch, which is why
batch-side techniques (AMP, accumulation, checkpointing, efficient attention) come first.

Then what the allocator and the runtime hold: the pool's slack (memory kept for reuse,
`oomlab explain pool`), the CUDA context and libraries' workspaces (hundreds of MiB per
process before any tensor), and the update step's temporaries (AdamW computes its update
in new buffers of the parameters' size, and oomlab keeps the new weights and state beside
the old ones until the step has passed its checks). `oomlab estimate` adds these up term
by term.
",
    ),
    (
        "sgd",
        "a lighter optimizer state: SGD keeps no moments, AdamW two per parameter",
        "\
What it does: `--set optim.kind=sgd` (the compare and lesson row `sgd`) trains with plain
SGD, which keeps no state: each step is the weights minus the learning rate times the
gradient. AdamW keeps two f32 moments per parameter, 8 of its 16 bytes per parameter in
f32; SGD needs 8 (weights and gradients). During the update oomlab keeps the new weights
and state beside the old ones until the step has passed its checks (each gradient is
freed as its parameter is updated), so its update moment holds 24 bytes per parameter
with AdamW in f32 and 8 with SGD.

When to use it: when the fixed state (weights, gradients, optimizer state) is what does
not fit, not the activations: a big model on a small card. Batch-side techniques (AMP,
accumulation, checkpointing) cannot help there. Other ways to shrink the state: pure half
precision (`oomlab explain half`), sharding it over several devices (`oomlab explain
shard-optimizer`); outside oomlab, 8-bit AdamW, Adafactor, or LoRA (a frozen base).

What it costs: SGD is not AdamW: it needs its own learning rate (often 10-100x AdamW's)
and usually more steps, and transformers train worse with it. The lesson's `sgd` row keeps
AdamW's learning rate, so its loss is not a fair comparison; its memory is.
",
    ),
    (
        "read-oom",
        "how to read an out-of-memory message: PyTorch's figures, oomlab's",
        "\
PyTorch's message (2.1 and later) gives six figures; read them in this order:
- Tried to allocate R: the one allocation that failed: the last straw, not the whole
  need of the step.
- total capacity T, F free: the card, and what the driver had left for anyone.
- Process N has X in use: other processes (the driver's PIDs; in a container they may
  not match `ps`).
- this process has P: everything of this process: tensors, cache, the CUDA context and
  libraries' workspaces.
- A allocated by PyTorch: bytes in live tensors.
- U reserved but unallocated: cached by PyTorch, in no tensor. PyTorch has already
  released every cached segment it could before raising.
Then: R > T: one tensor larger than the card. U >= R: fragmentation (free bytes, in
pieces). Others hold much and F + theirs >= R: other processes. F >= R: a cap inside the
process (set_per_process_memory_fraction prints \"X allowed\"). Otherwise a real
shortage of at least R - F - U. `oomlab diagnose` does exactly this reading.

oomlab's own messages (burn 0.21, cubecl 0.10) name the failed request in bytes too. With
the exact pool (the default) the request is one tensor's own buffer. With `--memory-mode
growth` cubecl asks the driver for pages, not tensors: a tensor goes into a page of its
size class, and the pages are fractions of the memory cubecl saw at start (the largest a
quarter, then a sixteenth, ...). A request that equals a page size is a new page: the
tensor that needed it may be much smaller (the figures below are of the growth pool).
",
    ),
    (
        "fragmentation",
        "out of memory with memory free: the cache holds the bytes, but in pieces",
        "\
What it is: an allocator that keeps freed blocks for reuse (PyTorch's caching allocator,
burn's pool) can hold many free bytes and still fail a request, because no single free
piece is as long as the request and the card has too little left for a new segment or
page. Freed blocks between live ones cannot be merged; they can only be reused by
requests that fit them.

How to see it: PyTorch's message says \"reserved by PyTorch but unallocated\" above the
request; torch.cuda.memory_summary() shows it as non-releasable memory. With the growth
pool, oomlab's retry log shows reserved far above in use at the failure, and a request the
size of a page.

What helps: expandable segments (PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True: a
segment grows in place and its free pages can be unmapped and reused), max_split_size_mb
(large blocks are never cut), steady shapes (pad variable lengths to a few buckets),
allocating long-lived tensors first. In oomlab, `--memory-mode exact` (the default) gives
every tensor its own exact-size buffer (`oomlab explain pool`). torch.cuda.empty_cache() does not help
here: the pieces sit in segments that still hold live tensors.
Expandable segments fix a request that fails beside enough free pieces; they are no
general saving: on an NVIDIA H200, 2026-12-04, over 27 Hugging Face training runs without memory pressure,
they reserved less than the default allocator in 18 and more in 9
(docs/results/2026-12-04-h200-hf-expandable).
",
    ),
    (
        "order",
        "what to try first after an OOM, and why in that order",
        "\
1. Look before you change anything: is it your process? `oomlab diagnose` on the
   message, `oomlab gpu` for who holds the card. Another process, a stale notebook kernel or a cap
   is fixed without touching the training.
2. Mixed precision (autocast bf16): activations at half width, usually faster too; the
   weights and AdamW's moments stay f32 (no saving on those).
3. Memory-efficient attention (SDPA / flash): the [batch, heads, seq, seq] scores are
   never kept; the saving grows with the square of the context.
4. A smaller micro-batch with gradient accumulation: the same update (caveats: BatchNorm,
   token-mean losses, `oomlab explain grad-accum`), activations of one micro-batch; costs
   some speed.
5. Activation checkpointing: recompute instead of keep; costs compute in the backward pass.
6. The fixed terms: an optimizer without state (SGD) or with 8-bit state; sharding the
   optimizer state (and gradients, weights) over GPUs; a smaller model.
7. Fragmentation only when the message says so (`oomlab explain fragmentation`).
Activations are the term that grows with the batch, which is why 2-5 come first; the
fixed terms need a different model, optimizer or machine. Measure after every change:
the savings below are what each did on the model it was measured on.
",
    ),
    (
        "pytorch",
        "oomlab's flags next to their PyTorch, TensorFlow and JAX equivalents",
        "\
Each oomlab flag, then what does the same in PyTorch, TensorFlow and JAX (\"-\": none):
- --precision bf16|f16: PyTorch torch.autocast(dtype=...), with GradScaler for f16;
  TensorFlow (Keras) mixed_precision.set_global_policy('mixed_bfloat16'); JAX jmp
  policies.
- --strategy half: PyTorch model.to(torch.bfloat16); TensorFlow the policy 'bfloat16';
  JAX the parameters in bf16.
- --strategy grad-accum --steps K: PyTorch loss / K, backward K times, optimizer.step()
  once; TensorFlow gradients summed over K tf.GradientTape passes; JAX
  optax.MultiSteps(every_k_schedule=K).
- --strategy checkpointing: PyTorch torch.utils.checkpoint; TensorFlow
  tf.recompute_grad; JAX jax.checkpoint.
- --attention efficient: PyTorch F.scaled_dot_product_attention; TensorFlow -; JAX
  jax.nn.dot_product_attention.
- --memory-mode growth: PyTorch its caching allocator; TensorFlow
  tf.config.experimental.set_memory_growth(gpu, True); JAX
  XLA_PYTHON_CLIENT_PREALLOCATE=false.
- --memory-mode prealloc[=F]: PyTorch -; TensorFlow its default (the whole card); JAX
  its default (XLA_PYTHON_CLIENT_MEM_FRACTION=F).
- --memory-mode exact (oomlab's default): PyTorch
  PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True is the nearest (less slack, not exact
  sizes); TensorFlow -; JAX XLA_PYTHON_CLIENT_ALLOCATOR=platform (exact, slow).
- --empty-cache-every N: PyTorch torch.cuda.empty_cache(); TensorFlow -; JAX
  jax.clear_caches() (kernels, not memory).
- --vram-budget SIZE: PyTorch torch.cuda.set_per_process_memory_fraction(SIZE / total);
  TensorFlow tf.config.set_logical_device_configuration(memory_limit=...); JAX
  XLA_PYTHON_CLIENT_MEM_FRACTION.
- --strategy auto-halve: PyTorch none built in (by hand: catch torch.OutOfMemoryError,
  free, retry smaller; Lightning's BatchSizeFinder searches before training).
- oomlab estimate: PyTorch none built in (accelerate estimate-memory counts weights,
  gradients and optimizer state only).
- oomlab gpu: nvidia-smi or nvtop, whatever the framework.
",
    ),
    (
        "glossary",
        "the words oomlab uses: slack, page, size class, phase, ballast, NVML...",
        "\
- allocator in use: bytes in live tensors, as the allocator counts them.
- reserved: what the allocator holds from the driver: in use + slack.
- slack: reserved but in no tensor: freed blocks kept for reuse, the unused rest of
  pages.
- exact pool: oomlab's default on CUDA: every tensor a buffer of its own exact size,
  reused by the next tensor of that size.
- page: the unit burn's growth pool (cubecl) takes from the driver: one allocation of the
  driver's.
- size class: the pool a tensor's size sends it to under the growth pool; each class has
  its own page size, a fraction of the card (cubecl 0.10: a quarter, a sixteenth...).
- context: what a CUDA process holds before any tensor: the CUDA context, loaded kernels
  (modules), library workspaces.
- NVML: NVIDIA's management library: what nvidia-smi shows, per device and per process.
- RSS: resident set size: the host memory a process occupies (top, ps).
- host heap: bytes in live heap blocks, counted by oomlab's global allocator.
- phase: forward, backward or optimizer: where in the step a figure was read or an OOM
  happened.
- micro-batch: the samples in one forward/backward pass; batch = micro-batch x
  accumulation steps.
- effective batch: the samples behind one optimizer step.
- ballast: the allocation --vram-budget holds outside burn so that the rest of the card
  is the budget.
- SIMULATED: an OOM on the CPU when the host heap crosses --memory-budget: nothing ran out
  of memory; every output that shows one says so.
- fragmentation: free bytes in the cache, but no free piece as long as the request.
",
    ),
];

const ADAMW: Evidence = Evidence::OptimizerStateAdamW;
const SGD: Evidence = Evidence::OptimizerStateSgd;

/// AdamW against SGD on the same model: the state per parameter at the end and at the peak.
fn optimizer_state() -> String {
    let read = |t: &str| -> Option<(u64, u64, u64)> {
        let v: Value = serde_json::from_str(t).ok()?;
        let end = v["memory"]["reconciliation"]
            .as_array()?
            .iter()
            .find(|l| l["label"] == "host heap in use")?["bytes"]
            .as_u64()?;
        Some((
            v["params"]["count"].as_u64()?,
            v["memory"]["host_heap_peak"].as_u64()?,
            end,
        ))
    };
    let (Some((n, a_peak, a_end)), Some((_, s_peak, s_end))) =
        (read(ADAMW.text()), read(SGD.text()))
    else {
        return String::new();
    };
    let per = |a: u64, b: u64| a.saturating_sub(b) as f64 / n.max(1) as f64;
    format!(
        "\nMeasured by oomlab ({}, {}; {} and {}): a wide, shallow GPT (d_model 1024, one \
         layer) at batch 2.{}\n- {n} parameters; host heap peak AdamW {}, SGD {}; at the \
         end AdamW {}, SGD {}.\n- AdamW minus SGD: {:.1} bytes per parameter at the end (the \
         two f32 moments), {:.1} at the peak (the moments and the update step's temporaries).\n",
        ADAMW.card(),
        ADAMW.date(),
        ADAMW.path(),
        SGD.path(),
        older_defaults(ADAMW),
        Bytes(a_peak),
        Bytes(s_peak),
        Bytes(a_end),
        Bytes(s_end),
        per(a_end, s_end),
        per(a_peak, s_peak),
    )
}

const CORPUS: &[(&str, &str)] = &[
    (
        "shortage-filled",
        include_str!("../../tests/data/oom-messages/h200-shortage-filled.txt"),
    ),
    (
        "shortage-one-tensor",
        include_str!("../../tests/data/oom-messages/h200-shortage-one-tensor.txt"),
    ),
    (
        "other-process",
        include_str!("../../tests/data/oom-messages/h200-other-process.txt"),
    ),
    (
        "fragmentation",
        include_str!("../../tests/data/oom-messages/h200-fragmentation.txt"),
    ),
    (
        "context",
        include_str!("../../tests/data/oom-messages/h200-context.txt"),
    ),
];
const EXPANDABLE: &str =
    include_str!("../../tests/data/oom-messages/h200-fragmentation-expandable.txt");
/// Where the error corpus comes from: it ships with oomlab's test data, not under
/// docs/results, so its card and date are said here.
const CORPUS_ORIGIN: &str = "PyTorch 2.11, NVIDIA H200, 2026-12-01; the messages ship \
                             with oomlab's test data";
const RETRIES: Evidence = Evidence::AutoHalveRetries;
const RUN: Evidence = Evidence::H200PairedF32Run;

fn case_name(v: &Verdict) -> &'static str {
    match v {
        Verdict::LargerThanCard { .. } => "one tensor larger than the card",
        Verdict::Fragmentation { .. } => "fragmentation",
        Verdict::OtherProcesses { .. } => "other processes",
        Verdict::ProcessCap { .. } => "a per-process cap",
        Verdict::Shortage { .. } => "a real shortage",
        Verdict::OutsideAllocator { .. } => "outside the allocator",
        Verdict::Cubecl { .. } => "cubecl",
        Verdict::HostRam { .. } => "host memory (RAM)",
        Verdict::FiguresContradict { .. } => "figures that do not explain it",
        Verdict::ImpossibleFigures { .. } => "impossible figures",
        Verdict::TooFewFigures { .. } => "too few figures",
        Verdict::Unknown => "not an OOM message",
    }
}

fn opt(b: Option<Bytes>) -> String {
    b.map_or_else(|| "-".into(), |b| b.to_string())
}

/// Each real H200 error: its figures and what `oomlab diagnose` reads in them.
fn corpus_table() -> String {
    let reports: Vec<_> = CORPUS
        .iter()
        .map(|(name, text)| (name, DiagnoseReport::new(text, None, None)))
        .collect();
    let card = reports
        .iter()
        .find_map(|(_, r)| r.facts.total)
        .map_or_else(String::new, |t| format!(", a card of {t}"));
    let mut out = format!(
        "\nMeasured by oomlab on real errors, provoked on purpose ({CORPUS_ORIGIN}{card}):\n{}",
        row(&[
            "case",
            "asked",
            "free",
            "process",
            "tensors",
            "cached free",
            "read as"
        ])
    );
    for (name, r) in reports {
        let f = &r.facts;
        out.push_str(&row(&[
            name.replace('-', " "),
            opt(f.requested),
            opt(f.free),
            opt(f.this_process),
            opt(f.allocated),
            opt(f.reserved_unallocated),
            case_name(&r.diagnosis.verdict).to_string(),
        ]));
    }
    out
}

/// auto-halve's failed attempts on the H200, each request read as a page of cubecl's
/// classes (the classes of a card of four times the largest page).
fn page_requests() -> String {
    let attempts: Vec<Value> = RETRIES
        .text()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let largest = attempts
        .iter()
        .filter_map(|a| a["requested"].as_u64())
        .max()
        .unwrap_or(0);
    let classes = pools(Bytes(largest * 4));
    let mut out = format!(
        "\nMeasured by oomlab, auto-halve's failed attempts on the growth pool ({}): tiny GPT \
         (110,255 parameters), batch 524288.{}\n",
        RETRIES.cite(),
        older_defaults(RETRIES)
    );
    for a in &attempts {
        let (Some(n), Some(req)) = (a["attempt"].as_u64(), a["requested"].as_u64()) else {
            continue;
        };
        let class = classes
            .iter()
            .find(|p| p.page.abs_diff(req) <= 256)
            .map(|p| {
                if p.max_slice == p.page {
                    " = the largest page (a quarter of the memory cubecl saw)".to_string()
                } else {
                    format!(
                        " = one page of the class for tensors up to {}",
                        Bytes(p.max_slice)
                    )
                }
            })
            .unwrap_or_default();
        let (in_use, reserved) = (
            a["in_use"].as_u64().unwrap_or(0),
            a["reserved"].as_u64().unwrap_or(0),
        );
        out.push_str(&format!(
            "- attempt {n}, micro-batch {}: asked the driver for {}{class}; pool in use {}, \
             reserved {} (slack {}), device free {}\n",
            a["micro_batch"],
            Bytes(req),
            Bytes(in_use),
            Bytes(reserved),
            Bytes(reserved.saturating_sub(in_use)),
            Bytes(a["device_free"].as_u64().unwrap_or(0)),
        ));
    }
    out
}

fn fragmentation_case() -> String {
    let f = parse(
        CORPUS
            .iter()
            .find(|c| c.0 == "fragmentation")
            .map_or("", |c| c.1),
    );
    let mut out = format!(
        "\nMeasured by oomlab on a deliberate case ({CORPUS_ORIGIN}): under a cap of {}, a \
         cached segment cut into 120 MiB blocks and every other block freed; then a request \
         of {} failed with {} cached and free ({} non-releasable in memory_summary), {} free \
         on the card.",
        opt(f.allowed),
        opt(f.requested),
        opt(f.reserved_unallocated),
        opt(f.non_releasable),
        opt(f.free),
    );
    out.push_str(&format!(
        " The same sequence with PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True: {}.\n",
        if EXPANDABLE.starts_with("no error") {
            "no out-of-memory error"
        } else {
            "it still ran out of memory"
        }
    ));
    out
}

fn savings() -> String {
    let mut out = String::from(
        "\nMeasured by oomlab and PyTorch, each technique's process peak with it over the peak \
         without (PyTorch rows on a 25.4M-parameter GPT, oomlab rows on a 110k-parameter one \
         whose memory is nearly all activations; read from the files named):\n",
    );
    let mut files: Vec<Evidence> = Vec::new();
    for s in measured_savings() {
        // The file each saving names, for its card and date.
        let file = Evidence::ALL
            .iter()
            .copied()
            .find(|e| s.measured.contains(e.path()));
        let when = file.map_or_else(String::new, |e| format!(" ({}, {})", e.card(), e.date()));
        out.push_str(&format!(
            "- {:.2}x: {} [{}]. {}{when}\n",
            s.ratio, s.technique, s.oomlab, s.measured
        ));
        // Only oomlab's rows are of oomlab's defaults.
        if let Some(e) = file.filter(|_| s.measured.starts_with("oomlab")) {
            if !files.contains(&e) {
                files.push(e);
            }
        }
    }
    for e in files {
        let note = older_defaults(e);
        if !note.is_empty() {
            out.push_str(&format!("{}:{note}\n", e.path()));
        }
    }
    out
}

/// One run's figures under the glossary's names.
fn glossary_example() -> String {
    let v: Value = serde_json::from_str(RUN.text()).unwrap_or(Value::Null);
    let m = &v["memory"];
    let get = |k: &str| m[k].as_u64().map(Bytes);
    let (Some(in_use), Some(reserved), Some(process)) = (
        get("allocator_peak_in_use"),
        get("allocator_peak_reserved"),
        get("process_peak"),
    ) else {
        return String::new();
    };
    format!(
        "\nMeasured by oomlab, one run in these words ({}): the `gpu` config, f32, batch 64, \
         the growth pool.{}\n- allocator in use (peak at phase ends) {in_use}; reserved \
         {reserved}, so slack {}; NVML process peak {process}, so the context and what else \
         lies outside the pool {}.\n",
        RUN.cite(),
        older_defaults(RUN),
        Bytes(reserved.0.saturating_sub(in_use.0)),
        Bytes(process.0.saturating_sub(reserved.0)),
    )
}

/// The measured part of `topic`, if it is one of these.
pub(super) fn measured(topic: &str) -> Option<String> {
    Some(match topic {
        "anatomy" => optimizer_state() + &glossary_example(),
        "sgd" => optimizer_state(),
        "read-oom" => corpus_table() + &page_requests(),
        "fragmentation" => fragmentation_case() + &page_requests(),
        "order" => savings(),
        "pytorch" => fragmentation_case() + &savings(),
        "glossary" => glossary_example(),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_corpus_reads_as_the_cases_it_was_made_to_show() {
        let t = corpus_table();
        for (name, case) in [
            ("shortage-filled", "a real shortage"),
            ("shortage-one-tensor", "one tensor larger than the card"),
            ("other-process", "other processes"),
            ("fragmentation", "fragmentation"),
            ("context", "outside the allocator"),
        ] {
            let name = name.replace('-', " ");
            let line = t.lines().find(|l| l.starts_with(&format!("| {name} |")));
            assert!(
                line.is_some_and(|l| l.ends_with(&format!("| {case} |"))),
                "{name}: {t}"
            );
        }
    }

    #[test]
    fn adamws_two_moments_show_as_8_bytes_per_parameter() {
        let t = optimizer_state();
        assert!(
            t.contains("AdamW minus SGD: 8.0 bytes per parameter at the end"),
            "{t}"
        );
    }

    #[test]
    fn auto_halves_failed_requests_are_read_as_pages() {
        let t = page_requests();
        assert!(
            t.contains("attempt 1") && t.contains("the largest page"),
            "{t}"
        );
        assert!(
            t.contains("attempt 3") && t.contains("class for tensors up to"),
            "{t}"
        );
    }
}
