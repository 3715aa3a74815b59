//! A diagnosis as text for a person: what the message says, which case it is, why, and
//! what to do, with the measured effect of each technique.

use std::fmt::Write;

use super::classify::{Aside, Verdict};
use super::parse::Source;
use super::DiagnoseReport;
use crate::units::Bytes;

/// The committed H200 error of a PyTorch process that held no tensor: its memory is the
/// CUDA context alone.
const CONTEXT_EVIDENCE: &str =
    include_str!("../../tests/data/oom-messages/h200-shortage-one-tensor.txt");

/// "; a PyTorch process with no tensors held X on the H200 (file)", read from the file.
fn context_size() -> String {
    let f = super::parse(CONTEXT_EVIDENCE);
    match (f.this_process, f.allocated) {
        (Some(p), Some(Bytes(0))) => format!(
            "; a PyTorch process with no tensors held {p} on an H200: tests/data/oom-messages/h200-shortage-one-tensor.txt"
        ),
        _ => String::new(),
    }
}

fn source_name(s: Source) -> &'static str {
    match s {
        Source::Pytorch => "PyTorch's CUDA caching allocator",
        Source::PytorchLegacy => "PyTorch's CUDA caching allocator (message format before 2.1)",
        Source::CudaRuntime => "the CUDA runtime (outside PyTorch's caching allocator)",
        Source::Cublas => "cuBLAS",
        Source::Cubecl => "cubecl (burn's CUDA runtime; oomlab)",
        Source::Tensorflow => "TensorFlow's allocator",
        Source::Xla => "XLA (JAX)",
        Source::HostRam => "PyTorch's CPU allocator (host memory, not the GPU)",
    }
}

fn ratio(a: Bytes, b: Bytes) -> String {
    if b.0 == 0 {
        return "n/a".into();
    }
    format!("{:.1}x", a.0 as f64 / b.0 as f64)
}

/// The report as text.
pub(super) fn render(r: &DiagnoseReport) -> String {
    let mut s = String::new();
    let f = &r.facts;
    let d = &r.diagnosis;
    if let Some(src) = f.source {
        let rocm = if f.hip { " on ROCm (HIP)" } else { "" };
        let _ = writeln!(
            s,
            "Read: an out-of-memory error from {}{rocm}.",
            source_name(src)
        );
    }
    if f.messages > 1 {
        s.push_str(&crate::text::hang("  ", &format!("The text holds {} out-of-memory messages; the figures below are the last one's (two messages are two moments: their figures do not add up).",
            f.messages)));
    }
    let mut figures = Vec::new();
    let named = |label: &str, v: Option<Bytes>| v.map(|b| format!("{label} {b}"));
    figures.extend(named("asked for", f.requested));
    figures.extend(named("card", f.total));
    figures.extend(named("free on the card", f.free));
    figures.extend(named("this process", f.this_process));
    figures.extend(named("in PyTorch tensors", f.allocated));
    figures.extend(named("cached, in no tensor", f.reserved_unallocated));
    figures.extend(named("non-releasable (memory_summary)", f.non_releasable));
    if !figures.is_empty() {
        let gpu = f.gpu.map(|g| format!("GPU {g}: ")).unwrap_or_default();
        s.push_str(&crate::text::hang(
            "  ",
            &format!("{gpu}{}", figures.join("; ")),
        ));
    }
    for (i, (used, total)) in f.smi_devices.iter().enumerate() {
        s.push_str(&crate::text::hang(
            "  ",
            &format!("nvidia-smi (pasted along), GPU row {i}: {used} used of {total}"),
        ));
    }
    let own = d.asides.iter().find_map(|a| match a {
        Aside::OwnProcessListed { pid } => Some(*pid),
        _ => None,
    });
    for (pid, b) in &f.other_processes {
        if Some(*pid) == own {
            s.push_str(&crate::text::hang("  ", &format!("process {pid} holds {b}: this process itself (a container's PID for it), not another")));
        } else {
            s.push_str(&crate::text::hang(
                "  ",
                &format!("process {pid} holds {b}"),
            ));
        }
    }
    if let Some(p) = f.smi_processes.iter().find(|p| Some(p.pid) == own) {
        if !f.other_processes.iter().any(|(pid, _)| *pid == p.pid) {
            let used = p.used.map(|u| format!(" ({u})")).unwrap_or_default();
            s.push_str(&crate::text::hang("  ", &format!("nvidia-smi's PID {}, {}{used}, is this process itself (the message's 'this process'), not another holder",
                p.pid, p.name)));
        }
    }
    for a in &d.asides {
        if let Aside::NonPytorch { bytes } = a {
            s.push_str(&crate::text::hang("  ", &format!("outside PyTorch's tensors and cache, this process holds {bytes}: the CUDA context and libraries' workspaces")));
        }
    }
    if !d.arithmetic.is_empty() {
        let _ = writeln!(s, "\nFrom the message's own figures (GiB):");
        for line in &d.arithmetic {
            let _ = writeln!(s, "{}", wrap_item(line));
        }
    }
    s.push('\n');
    let conf = if f.hip {
        "PYTORCH_HIP_ALLOC_CONF"
    } else {
        "PYTORCH_CUDA_ALLOC_CONF"
    };
    let (title, body, todo) = verdict_text(&d.verdict, f.expandable_segments_set, conf);
    let _ = writeln!(s, "Case: {title}\n");
    s.push_str(&crate::text::wrap(&body, ""));
    s.push('\n');
    for a in &d.asides {
        match a {
            Aside::OthersHold { held } => {
                s.push_str(&crate::text::wrap(
                    &format!(
                        "Also: other processes hold {held} of this card (`oomlab gpu` lists them)."
                    ),
                    "",
                ));
                s.push('\n');
            }
            Aside::Capped { free, allowed } => {
                let cap = allowed
                    .map(|a| format!(" ({a} allowed)"))
                    .unwrap_or_default();
                s.push_str(&crate::text::wrap(&format!("Also: the card itself had {free} free; this process is capped{cap} (torch.cuda.set_per_process_memory_fraction; oomlab's --vram-budget is the same kind of cap)."), ""));
                s.push('\n');
            }
            Aside::FreeCoversRequest { free } => {
                s.push_str(&crate::text::wrap(&format!("Also: the driver reported {free} free, enough for this request, yet it failed, and the message names no cap (PyTorch prints 'X allowed' when torch.cuda.set_per_process_memory_fraction is set). What else it can be: free memory in pieces too small for the segment PyTorch asked for (requests are rounded up to 2 MiB, large ones to whole segments), memory another process took between the failure and the report, or Windows' WDDM keeping part of the card."), ""));
                s.push('\n');
            }
            Aside::SmallCache { cache } => {
                s.push_str(&crate::text::wrap(&format!("Also: PyTorch's cache held {cache} in no tensor, enough for this request but a small share of the card: defragmenting it (expandable_segments) recovers at most {cache}, and the shortage behind it remains for the next allocations."), ""));
                s.push('\n');
            }
            Aside::BeyondTheCard => {
                s.push_str(&crate::text::wrap("Also: this process's figures exceed the card: on Windows the driver lets a process spill into shared system memory (slow), so the card's own figures cannot show who holds it.", ""));
                s.push('\n');
            }
            Aside::NonPytorch { .. } | Aside::OwnProcessListed { .. } => {}
        }
    }
    if !todo.is_empty() {
        let _ = writeln!(s, "What to do:");
        for t in todo {
            let _ = writeln!(s, "{}", wrap_item(&t));
        }
    }
    match &r.fixed_state {
        Some(fs) => {
            let _ = writeln!(s, "\nYour model's fixed state (--params):");
            for line in fs.lines() {
                let _ = writeln!(s, "{}", wrap_item(&line));
            }
        }
        None if matches!(
            d.verdict,
            Verdict::Shortage { .. } | Verdict::LargerThanCard { .. } | Verdict::ProcessCap { .. }
        ) =>
        {
            let _ = writeln!(s, "\n{}", crate::text::wrap("`oomlab diagnose --params N` (your model's parameter count, e.g. 1.1B) weighs its fixed state, 16 bytes per parameter with AdamW in f32, against this card, and names what acts on it when it is most of the card.", "").trim_end());
        }
        None => {}
    }
    if !r.savings.is_empty() {
        s.push('\n');
        s.push_str(&crate::text::wrap(
            "What each technique did to the peak where it was measured (PyTorch rows: a 25.4M-parameter GPT; oomlab rows: a 110k-parameter GPT whose memory is nearly all activations). Your model's mix of fixed state and activations decides yours:",
            "",
        ));
        for x in &r.savings {
            let _ = writeln!(
                s,
                "{}",
                wrap_item(&format!(
                    "{:.2}x  {} [oomlab: {}] ({})",
                    x.ratio, x.technique, x.oomlab, x.measured
                ))
            );
        }
    }
    if let Some(live) = &r.live {
        if !live.is_empty() {
            let _ = writeln!(s, "\nHolding VRAM on this machine now (oomlab gpu):");
            for h in live {
                let _ = writeln!(s, "  {h}");
            }
        }
    }
    s
}

/// A list item: "  - " on its first line, aligned below.
fn wrap_item(text: &str) -> String {
    let wrapped = crate::text::wrap(text, "    ");
    let mut out = String::from("  - ");
    out.push_str(wrapped.trim_start());
    out.pop();
    out
}

fn verdict_text(v: &Verdict, expandable_set: bool, conf: &str) -> (String, String, Vec<String>) {
    let who_holds = "`oomlab gpu` (or nvidia-smi) lists who holds the card now and flags stale holders: zombies, processes of another container, a notebook kernel that still holds its tensors".to_string();
    match v {
        Verdict::LargerThanCard { requested, total } => (
            "one tensor larger than the whole card".into(),
            format!("A single allocation of {requested} is {} the card's {total}. No technique that shrinks the other terms (weights, optimizer state, the cache) can make it fit: the tensor itself must get smaller.", ratio(*requested, *total)),
            vec![
                "Find the operation in the traceback above the error and the shape it makes. The usual culprits are activations that grow with batch x sequence: attention scores [batch, heads, seq, seq], logits [batch, seq, vocab], a concatenation of a whole dataset moved to the GPU at once.".into(),
                "Cut the dimension that makes it: a smaller micro-batch (gradient accumulation keeps the effective batch), a shorter sequence, chunked loss or logits; memory-efficient attention (F.scaled_dot_product_attention) never builds the [seq, seq] scores.".into(),
            ],
        ),
        Verdict::Fragmentation { requested, unallocated } => (
            "fragmentation: free memory in the cache, but in pieces".into(),
            format!("PyTorch's cache held {unallocated} that no tensor used ({} the {requested} requested), yet no free piece was {requested} long. Before raising, PyTorch already released every cached segment it could; what is left sits inside segments that also hold live tensors, so torch.cuda.empty_cache() will not help.", ratio(*unallocated, *requested)),
            {
                let mut t = Vec::new();
                if expandable_set {
                    t.push("expandable_segments is already set: the pieces are then a cap or a shortage in disguise; compare 'cached, in no tensor' with what the step needs.".to_string());
                } else {
                    t.push(format!("{conf}=expandable_segments:True: segments grow in place instead of being cut into blocks, so freed space can be reused for a larger tensor."));
                }
                t.push(format!("Or {conf}=max_split_size_mb:N: blocks above N MiB are never cut, so large requests find whole blocks (costs some reuse of small ones)."));
                t.push("Keep shapes steady: variable sequence lengths leave holes of every size; pad to a few fixed lengths (buckets).".into());
                t.push("oomlab shows the same on its own allocator: `oomlab explain pool` (growth pool vs exact pool, measured).".into());
                t
            },
        ),
        Verdict::OtherProcesses { held, named, freeing_them_fits_this_request } => {
            let names: Vec<String> = named
                .iter()
                .map(|h| {
                    let mut x = format!("PID {}", h.pid);
                    if let Some(n) = &h.name {
                        let _ = write!(x, " {n}");
                    }
                    if let Some(b) = h.used {
                        let _ = write!(x, " ({b})");
                    }
                    x
                })
                .collect();
            let who = if names.is_empty() { String::new() } else { format!(": {}", names.join(", ")) };
            (
                "other processes hold the memory".into(),
                format!("Other processes hold {held} of this card{who}. {}The PIDs are the driver's: inside a container they may not match `ps`.",
                    if *freeing_them_fits_this_request { "Without them, this request would have fit. " } else { "" }),
                vec![
                    who_holds,
                    "End the ones you own; a notebook's previous kernel often still holds its tensors (restart it). `oomlab gpu --kill PID` signals a holder after checking it is the same process.".into(),
                    "Use a free card (CUDA_VISIBLE_DEVICES=N) or wait; to share a card on purpose, cap each process (torch.cuda.set_per_process_memory_fraction).".into(),
                ],
            )
        }
        Verdict::ProcessCap { requested, free, allowed } => (
            "a per-process limit, not the card".into(),
            format!("The card had {free} free, more than the {requested} requested, yet this process could not have it: a limit inside the process refused it{}.", allowed.map(|a| format!(" (the message says {a} allowed)")).unwrap_or_default()),
            vec![
                "Look for torch.cuda.set_per_process_memory_fraction (in your code or your framework's settings) and raise or remove it; oomlab's --vram-budget is the same kind of cap.".into(),
                "Or keep the cap and treat it as the card: the techniques of a real shortage apply (`oomlab explain`).".into(),
            ],
        ),
        Verdict::FiguresContradict { requested, free } => (
            "the figures do not explain the failure".into(),
            format!("The message says the card had {free} free, enough for the {requested} requested (and for the segment PyTorch asks the driver for), and it names no per-process cap. So neither a shortage, nor other processes, nor pieces in PyTorch's cache explain why it failed: something the message does not show does."),
            vec![
                "A cap set in code that this version's message does not print: look for torch.cuda.set_per_process_memory_fraction, or a framework's own memory limit.".into(),
                "Another device or host memory: the allocation that failed may be on another GPU (check the device in the traceback, and CUDA_VISIBLE_DEVICES) or pinned host memory (pin_memory, a full host RAM).".into(),
                "Memory freed between the failure and the message: PyTorch releases its cache before it writes the figures, and another process may have exited meanwhile; run the job under `oomlab run` to see the card at the moment it failed.".into(),
                "A platform whose free figure is not what it can give: Windows (WDDM) and its shared system memory, WSL, a vGPU or MIG slice, an integrated GPU (APU) whose memory is the system's.".into(),
            ],
        ),
        Verdict::ImpossibleFigures { why } => (
            "impossible figures: the message cannot be taken at its word".into(),
            format!("No card can show these figures: {why}. The other figures come from the same broken source, so no case can be read from them. This happens where the driver's memory figures are not a GPU's own: an integrated GPU (APU) whose memory is the system's, WSL, a vGPU or MIG slice."),
            vec![
                "Read the card's memory another way: nvidia-smi (or rocm-smi), and torch.cuda.mem_get_info() in the same process; `oomlab gpu` lists who holds it.".into(),
                "On an APU, the memory the GPU may use is set in the firmware (the VRAM carve-out) or by the driver's GTT size: raise it there.".into(),
                "Run the job under `oomlab run` to record each process's memory while it runs.".into(),
            ],
        ),
        Verdict::Shortage { short_by, allocated, total } => {
            let mut body = if short_by.0 > 0 {
                format!("This process needed at least {short_by} more for this one allocation: the request, less what was free on the card and in its cache.")
            } else {
                "What was free on the card and free in PyTorch's cache together cover this request, but neither alone did: the cache's free pieces are smaller than the request and the card's free memory is less than the new segment PyTorch asked the driver for. The card is all but full.".to_string()
            };
            if let (Some(a), Some(t)) = (allocated, total) {
                let _ = write!(body, " Its tensors already held {a} of the card's {t} ({:.0}%).", 100.0 * a.0 as f64 / t.0.max(1) as f64);
            }
            body.push_str(" The failed allocation is the last straw, not the whole need: later allocations of the same step need more, so measure the peak at a batch that fits (torch.cuda.max_memory_allocated) and scale.");
            (
                "a real shortage".into(),
                body,
                vec![
                    "Shrink what grows with the batch first: mixed precision, a smaller micro-batch with gradient accumulation (same effective batch), activation checkpointing, memory-efficient attention; then the fixed terms: an optimizer without state (SGD) or with 8-bit state, sharding the optimizer state over GPUs.".into(),
                    "`oomlab estimate` predicts the peak of oomlab's own model term by term; `oomlab explain` shows each technique on oomlab's model with what it measured.".into(),
                ],
            )
        }
        Verdict::OutsideAllocator { source } => {
            let body = match source {
                Source::Cublas => "cuBLAS could not allocate its workspace (CUBLAS_STATUS_ALLOC_FAILED): the card was full when this process (or a new stream) ran its first matrix multiplication. The message gives no sizes.".to_string(),
                _ => format!("The CUDA runtime itself ran out, outside PyTorch's caching allocator: most often while creating the CUDA context (the first CUDA call of a process{}) on a card someone else has filled, or a library's workspace (cuBLAS, cuDNN, NCCL). The message gives no sizes.", context_size()),
            };
            (
                "the card was full before PyTorch's allocator was asked".into(),
                body,
                vec![
                    who_holds,
                    "CUDA_LAUNCH_BLOCKING=1 makes the traceback point at the call that failed.".into(),
                ],
            )
        }
        Verdict::Cubecl { requested } => {
            let mut body = "cubecl (burn's CUDA runtime) could not allocate. cubecl asks the driver for pages, not tensors: a tensor goes into a page of its size class, and pages are fractions of the memory cubecl saw at start (the largest a quarter, then a sixteenth, ...). With burn 0.21 the panic happens on the device thread and the tensor reads as zeros: run under oomlab, whose detector catches it.".to_string();
            if let Some(r) = requested {
                let cards: Vec<String> = (1..=3u32)
                    .map(|k| Bytes(r.0.saturating_mul(4u64.pow(k))))
                    .filter(|b| b.gib() >= 4.0 && b.gib() <= 300.0)
                    .map(|b| b.to_string())
                    .collect();
                if !cards.is_empty() {
                    let _ = write!(body, "\n\nThe request, {r}, is a page (not a tensor) if the memory cubecl saw was about {}.", cards.join(" or "));
                }
            }
            (
                "cubecl (burn) ran out".into(),
                body,
                vec![
                    "oomlab train --vram-budget SIZE shows where it fails and why; `oomlab explain pool` explains the pages; `oomlab estimate` predicts the peak.".into(),
                    who_holds,
                ],
            )
        }
        Verdict::HostRam { requested } => (
            "host memory (RAM), not the GPU".into(),
            format!("The computer's own memory ran out{}: PyTorch's CPU allocator could not get the bytes from the system. The GPU's memory is not involved; nvidia-smi will not show it.", requested.map(|r| format!(" for a request of {r}")).unwrap_or_default()),
            vec![
                "Find what builds a large tensor on the CPU: a whole dataset loaded at once, a checkpoint loaded onto the CPU before moving to the GPU (torch.load(..., map_location='cuda'), or load_state_dict(..., assign=True) with mmap=True), DataLoader workers each holding a copy (fewer num_workers).".into(),
                "`free -h` shows the machine's memory; a container's limit may be lower than the machine's (cat /sys/fs/cgroup/memory.max).".into(),
            ],
        ),
        Verdict::TooFewFigures { source, missing } => {
            let mut todo = Vec::new();
            match source {
                Some(Source::Xla) => todo.push("JAX preallocates most of the card when it starts, so nvidia-smi shows it full from the first step: XLA_PYTHON_CLIENT_PREALLOCATE=false allocates on demand, XLA_PYTHON_CLIENT_MEM_FRACTION=.F sets the share it takes.".to_string()),
                Some(Source::Tensorflow) => todo.push("TensorFlow takes nearly the whole card when it starts unless memory growth is on: tf.config.experimental.set_memory_growth(gpu, True) (or TF_FORCE_GPU_ALLOW_GROWTH=true) allocates on demand; the shape[...] in the message names the tensor it could not place.".to_string()),
                _ => {}
            }
            (
                "an out-of-memory error without the figures to tell which case".into(),
                format!("This reads as an out-of-memory error{}, but it lacks {missing}.", source.map(|s| format!(" from {}", source_name(s))).unwrap_or_default()),
                todo,
            )
        }
        Verdict::Unknown => (
            "cannot classify".into(),
            "No out-of-memory message oomlab knows is in this text (PyTorch's CUDA OOM, CUDA runtime or cuBLAS errors, cubecl/burn, TensorFlow, XLA). Paste the full error, from 'Traceback' to the last line.".into(),
            vec![],
        ),
    }
}
