//! Terminal rendering of a [`RunSummary`].

use crate::text::{table_for, Footnotes, Width};
use crate::words::MemoryKind;

use crate::results::{AttemptOutcome, AttemptRecord};
use crate::results::{RunSummary, StopReason};
use crate::units::fmt_duration;

fn opt<T>(v: Option<T>, f: impl Fn(T) -> String) -> String {
    v.map(f).unwrap_or_else(|| "n/a".into())
}

/// The summary as a two-column table laid out for `width`, long explanations as numbered
/// notes under it; then the retry log, the devices, the memory section and the step's
/// memory by category.
pub fn render_summary(s: &RunSummary, width: Width) -> String {
    let mut notes = Footnotes::new();
    let mut t = table_for(width);
    t.set_header(vec!["oomlab run", ""]);
    let secs = |x: f64| fmt_duration(std::time::Duration::from_secs_f64(x));
    let mut noted = |value: String, note: Option<String>| match note {
        Some(n) => format!("{value} {}", notes.mark(n)),
        None => value,
    };
    let a = &s.adaptation;
    let batch = noted(
        format!(
            "{} samples per optimizer step{}",
            s.effective_batch,
            if s.plan.accumulation > 1 {
                format!(
                    ": {} micro-batches of {}{}",
                    s.plan.accumulation,
                    s.plan.micro_batch,
                    s.plan
                        .short_last()
                        .map(|l| format!(" (the last of {l})"))
                        .unwrap_or_default()
                )
            } else {
                String::new()
            }
        ) + &s
            .parallel
            .as_ref()
            .map(|p| format!(" on {} devices", p.world))
            .unwrap_or_default(),
        (a.initial_plan != s.plan).then(|| {
            format!(
                "Started at {}; {} attempts, {} out of memory, {} spent in failed attempts.",
                a.initial_plan.with_total(),
                a.attempts_made,
                a.oom_attempts,
                secs(a.failed_attempts_s)
            )
        }),
    );
    let model = format!(
        "{} d_model={} layers={} heads={} d_ff={} seq_len={}{}",
        s.model.kind,
        s.model.d_model,
        s.model.n_layers,
        s.model.n_heads,
        s.model.d_ff,
        s.model.seq_len,
        match s.model.kind {
            crate::config::ModelKind::Gpt => format!(
                " attention={}{}",
                s.model.attention.name(),
                if s.model.norms_in_f32 {
                    " layer-norm=f32"
                } else {
                    ""
                }
            ),
            crate::config::ModelKind::Mlp => String::new(),
        }
    )
    .to_lowercase();
    let precision = noted(
        format!(
            "{}: weights {}, compute {}",
            s.precision.mode,
            s.precision.weight_dtypes.join(", "),
            s.precision.compute_dtypes.join(", "),
        ),
        Some(if s.offload_optimizer {
            format!(
                "{:.1} bytes per parameter for the weights and gradients{}; AdamW's two moments, 8 bytes per parameter in f32, are in host memory (offload-optimizer). The types are read from the tensors.",
                s.precision.bytes_per_param,
                if s.precision.mode.is_mixed() { " and the half copy" } else { "" }
            )
        } else {
            format!(
                "{:.1} bytes per parameter for the weights, gradients and optimizer moments{}; the types are read from the tensors.",
                s.precision.bytes_per_param,
                if s.precision.mode.is_mixed() { " and the half copy" } else { "" }
            )
        }),
    );
    let (stop_value, stop_note) = match &s.stop {
        StopReason::Completed => (String::new(), None),
        StopReason::Interrupted => (
            ", stopped".to_string(),
            Some(match &s.stopped_during {
                Some(during) => format!("Stopped {during}."),
                None => "Stopped by Ctrl-C or SIGTERM after a finished step.".into(),
            }),
        ),
        StopReason::Failed(m) => (", FAILED".to_string(), Some(format!("Failed: {m}"))),
        StopReason::OutOfMemory(e) => (
            format!(", OUT OF MEMORY at step {}", e.step + 1),
            Some(format!(
                "Stopped by {}: that step was discarded, not applied.",
                e.label()
            )),
        ),
    };
    let steps = noted(
        format!(
            "{} of {} optimizer steps{stop_value}",
            s.steps_completed, s.steps_planned
        ),
        stop_note,
    );
    let loss = noted(
        format!(
            "{} -> {}{}",
            opt(s.first_loss, |l| format!("{l:.4}")),
            opt(s.final_loss, |l| format!("{l:.4}")),
            if s.diverged() { ": ROSE, diverged" } else { "" }
        ),
        match s.steps_completed {
            0 | 1 => None,
            n => Some(format!(
                "The first step's loss, then the mean of the last {} steps.{}",
                (n / 10).max(1),
                if s.diverged() {
                    " The loss rose: the updates broke the weights (pure f16: oomlab explain half)."
                } else {
                    ""
                }
            )),
        },
    );
    let first_step = noted(
        opt(s.time_to_first_step_s, secs),
        s.warm_up_s.map(|w| {
            format!(
                "Including a dry warm-up step at a small batch, which took {}.",
                secs(w)
            )
        }),
    );
    let steady = match s.steady_step_s {
        // The first step is left out: it compiles, tunes and allocates.
        Some(t) => noted(
            match s.steps_completed.saturating_sub(1) {
                1 => format!("{} (the one step after the first)", secs(t)),
                n => format!("{} (median of {n} steps)", secs(t)),
            },
            Some(
                if s.memory.kind == MemoryKind::Gpu {
                    "The first step is left out of the steady step: it compiles, tunes and allocates."
                } else {
                    "The first step is left out of the steady step: it allocates what later steps reuse."
                }
                .into(),
            ),
        ),
        None => "n/a (no step after the first)".to_string(),
    };
    let detector = noted(
        s.oom_detector.to_string(),
        Some(
            if s.checks == crate::words::Checks::Phase {
                "Out-of-memory failures are checked after every phase."
            } else {
                "Out-of-memory failures are checked once per step, at its end."
            }
            .into(),
        ),
    );
    let mut rows: Vec<(&str, String)> = vec![
        ("strategy", s.strategy_label()),
        ("batch", batch),
        (
            "device",
            format!("{} ({})", s.device.label, s.device.backend),
        ),
        ("model", model),
        ("memory mode", s.memory_mode.name().to_string()),
        (
            "parameters",
            format!(
                "{} ({}, {})",
                crate::text::thousands(s.params.count),
                s.params.bytes,
                s.params.dtypes.join(", ")
            ),
        ),
        ("precision", precision),
        ("data", format!("{} (vocab {})", s.data, s.vocab)),
        ("steps", steps),
        ("loss", loss),
        ("time to first step", first_step),
        ("steady step", steady),
        ("samples/s", opt(s.samples_per_s, |x| format!("{x:.1}"))),
        ("wall time", secs(s.wall_s)),
        ("OOM detector", detector),
    ];
    // On the CPU the memory section's sampled RSS is this figure; on a GPU it is the
    // host's only one.
    if s.memory.kind == MemoryKind::Gpu {
        rows.push(("host peak RSS", opt(s.host_peak_rss, |b| b.to_string())));
    }
    for (k, v) in rows {
        t.add_row(vec![k.to_string(), v]);
    }
    if let StopReason::OutOfMemory(e) = &s.stop {
        let mut detail = format!("{} in the {} phase", e.label(), e.phase);
        if let Some(b) = e.requested {
            detail.push_str(&format!("; allocation of {b} failed"));
        }
        if let Some(a) = e.allocator {
            detail.push_str(&format!(
                "; allocator then: {} in use, {} reserved",
                a.in_use, a.reserved
            ));
        }
        if let Some(m) = e.memory {
            if let Some(p) = m.process {
                detail.push_str(&format!("; process: {p}"));
            }
            if let (Some(u), Some(t)) = (m.device_used, m.device_total) {
                detail.push_str(&format!("; device: {u} of {t} used"));
            }
        }
        t.add_row(vec!["out of memory".to_string(), detail]);
        t.add_row(vec!["message".to_string(), e.message.clone()]);
    }
    if let Some(l) = &s.loss_scale {
        t.add_row(vec![
            "loss scaling".to_string(),
            format!(
                "scale {} -> {}; {} step(s) skipped for inf/NaN gradients; grew {} time(s) (every {} clean steps)",
                l.init_scale, l.final_scale, l.skipped_steps, l.growths, l.growth_interval
            ),
        ]);
    }
    if let Some(c) = &s.checkpoints {
        let mut text = match (&c.last, c.last_next_step) {
            (Some(path), Some(n)) => format!(
                "{} written ({}every {} steps, newest {} kept; {} spent writing); newest: {path} ({n} steps{}); resume with `oomlab train --resume RUN_DIR`",
                c.written,
                if c.every == 0 { "not " } else { "" },
                c.every,
                c.keep,
                secs(c.seconds),
                c.last_bytes.map(|b| format!(", {b}")).unwrap_or_default()
            ),
            _ => format!("none written by this process (every {} steps)", c.every),
        };
        for r in &c.resumes {
            text.push_str(&format!(
                "; resumed at step {} from {} ({} step(s) done again{}{})",
                r.at_step + 1,
                r.from,
                r.steps_redone,
                if r.skipped.is_empty() {
                    String::new()
                } else {
                    format!("; unusable and skipped: {}", r.skipped.join(", "))
                },
                if r.forced.is_empty() {
                    String::new()
                } else {
                    format!("; changed with --force: {}", r.forced.join(", "))
                }
            ));
        }
        for e in &c.errors {
            text.push_str(&format!("; {e}"));
        }
        t.add_row(vec!["checkpoints".to_string(), text]);
    }
    if let Some(l) = &s.leak {
        let text = match &l.alarm {
            Some(a) => a.line(&l.source),
            None if l.spec.window == 0 => "leak detector off (--leak-window 0)".into(),
            None if l.watched_steps == 0 => format!(
                "not checked: the run ended within the detector's {} warm-up steps",
                l.spec.warm_up
            ),
            None => format!(
                "none: {} grew less than {}/step ({} steps watched)",
                l.source, l.spec.per_step, l.watched_steps
            ),
        };
        t.add_row(vec!["leak check".to_string(), text]);
    }
    if let Some(k) = &s.kernel_cache {
        t.add_row(vec![
            "kernels".to_string(),
            format!(
                "the warm-up step compiled {} kernels and autotuned {} operations ({} and {} in the whole run); {} and {} were in the cache {} already",
                k.added_in_warm_up.kernels,
                k.added_in_warm_up.tuned,
                k.added_in_run.kernels,
                k.added_in_run.tuned,
                k.before.kernels,
                k.before.tuned,
                k.dir
            ),
        ]);
    }
    if let Some(p) = &s.prealloc {
        t.add_row(vec![
            "preallocation".to_string(),
            format!(
                "{} of {} free asked; {} pool pages reserved ({} reserved after, {} in use) in {:.2} s; the pool grew by {} more during training",
                p.target,
                p.free_before,
                p.pages.len(),
                p.reserved_after,
                p.in_use_after,
                p.seconds,
                p.grew_after.map(|b| b.to_string()).unwrap_or_else(|| "n/a".into())
            ),
        ]);
    }
    if let Some(c) = &s.cache_cleanups {
        let freed = match (c.freed_total, c.freed_max) {
            (Some(t), Some(m)) => format!(
                "returned {t} to the driver in all (at most {m} at once; {} reserved after the last)",
                c.reserved_after_last.map(|b| b.to_string()).unwrap_or_else(|| "n/a".into())
            ),
            _ => "freed: n/a (this backend has no pool statistics)".into(),
        };
        t.add_row(vec![
            "empty cache".to_string(),
            format!(
                "every {} steps: {} cleanups, {} in the cleanups themselves; {freed}",
                c.every,
                c.count,
                secs(c.seconds)
            ),
        ]);
    }
    if let Some(why) = &s.adaptation.gave_up {
        t.add_row(vec!["gave up".to_string(), why.clone()]);
    }
    if let Some(p) = &s.parallel {
        t.add_row(vec![
            "devices".to_string(),
            format!(
                "{} peers, data parallel, {} samples each per step; {}; weights at the end: {}",
                p.world,
                p.batch_per_peer,
                if p.sharded {
                    "optimizer state sharded (ZeRO stage 1)"
                } else {
                    "every device keeps the whole optimizer state"
                },
                match (p.replicas_identical, p.replica_spread) {
                    (Some(true), _) => "identical on every device".to_string(),
                    (Some(false), Some(d)) if d < 1e-6 => format!(
                        "equal up to rounding (sums differ by {d:.1e} relative: burn's kernels round differently per device thread)"
                    ),
                    (Some(false), d) => format!(
                        "DIFFERENT across devices (sums differ by {} relative): the replicas drifted apart, please report it",
                        d.map_or("?".into(), |d| format!("{d:.1e}"))
                    ),
                    (None, _) => "n/a (a device could not be read)".to_string(),
                }
            ),
        ]);
    }
    let attempts = if s.adaptation.oom_attempts > 0 {
        format!("{}\n", render_attempts(&s.adaptation.attempts, width))
    } else {
        String::new()
    };
    let peers = s
        .parallel
        .as_ref()
        .map(|p| format!("{}\n", render_peers(p, width)))
        .unwrap_or_default();
    let anatomy = s
        .anatomy
        .as_ref()
        .map(|a| format!("\n{}", super::anatomy_text(a, None, "", width)))
        .unwrap_or_default();
    format!(
        "{t}\n{}{attempts}{peers}{}{anatomy}",
        notes.render_for(width),
        render_memory(s, width)
    )
}

/// Every device of a data-parallel run: its share, its memory, its weights' hash.
pub fn render_peers(p: &crate::results::ParallelReport, width: Width) -> String {
    let mut t = table_for(width);
    t.set_header(vec![
        "rank",
        "device",
        "steps",
        "peak process memory",
        "peak allocator in use",
        "peak reserved",
        "optimizer state of",
        "state (predicted)",
        "weights hash",
    ]);
    for peer in &p.peers {
        let b = |v: Option<crate::units::Bytes>| opt(v, |b| b.to_string());
        t.add_row(vec![
            peer.rank.to_string(),
            peer.device.clone(),
            format!("{} ({})", peer.steps_completed, peer.stop.label()),
            b(peer.process_peak),
            b(peer.allocator_peak_in_use),
            b(peer.allocator_peak_reserved),
            format!(
                "{} tensors, {} elements",
                peer.optimizer_params, peer.optimizer_elements
            ),
            b(peer.optimizer_state),
            opt(peer.final_params.as_ref(), |f| f.fnv1a64.clone()),
        ]);
    }
    t.to_string()
}

/// The retry log as a table: one row per attempt.
pub fn render_attempts(attempts: &[AttemptRecord], width: Width) -> String {
    let b = |x: Option<crate::units::Bytes>| x.map(|b| b.to_string()).unwrap_or_default();
    let mut notes = Footnotes::new();
    let header = [
        "#",
        "step",
        "split",
        "outcome",
        "phase",
        "failed alloc",
        "in use",
        "reserved",
        "device free",
        "time",
        "next",
    ];
    let rows: Vec<Vec<String>> = attempts
        .iter()
        .map(|a| {
            let outcome = match (a.outcome, a.simulated) {
                (AttemptOutcome::Ok, _) => "ok",
                (AttemptOutcome::Oom, true) => "OOM (SIMULATED)",
                (AttemptOutcome::Oom, false) => "OOM",
            };
            vec![
                a.attempt.to_string(),
                (a.step + 1).to_string(),
                crate::strategy::StepPlan {
                    micro_batch: a.micro_batch,
                    accumulation: a.accumulation,
                    batch: a.effective_batch,
                }
                .with_total(),
                outcome.to_string(),
                a.phase.map(|p| p.to_string()).unwrap_or_default(),
                b(a.requested),
                b(a.in_use),
                b(a.reserved),
                b(a.device_free),
                fmt_duration(std::time::Duration::from_secs_f64(a.seconds)),
                a.next.clone().map(|n| notes.mark(n)).unwrap_or_default(),
            ]
        })
        .collect();
    // A column no attempt has a figure for (the CPU has no pool and no device) is left out.
    let keep: Vec<usize> = (0..header.len())
        .filter(|&i| i < 4 || rows.iter().any(|r| !r[i].is_empty()))
        .collect();
    let mut t = table_for(width);
    t.set_header(keep.iter().map(|&i| header[i]));
    for r in &rows {
        t.add_row(keep.iter().map(|&i| r[i].clone()));
    }
    format!("{t}\n{}", notes.render_for(width))
        .trim_end()
        .to_string()
}

/// The memory section: figures by source, then how they add up; notes longer than a
/// few words are numbered under the table.
pub fn render_memory(s: &RunSummary, width: Width) -> String {
    let m = &s.memory;
    let mut t = table_for(width);
    let mut notes = Footnotes::new();
    let title = if m.kind == MemoryKind::Gpu {
        "memory (GPU: NVML + burn allocator)"
    } else {
        "memory (HOST memory: counting allocator + RSS)"
    };
    t.set_header(vec![title, "", ""]);
    let b =
        |x: Option<crate::units::Bytes>| x.map(|b| b.to_string()).unwrap_or_else(|| "n/a".into());
    // Short notes stay in their cell; longer ones become numbered notes.
    let mut row = |label: String, bytes: String, note: String| {
        let note = if note.chars().count() > 32 {
            notes.mark(capitalized(&note))
        } else {
            note
        };
        t.add_row(vec![label, bytes, note]);
    };
    let process_label = if m.kind == MemoryKind::Gpu {
        "NVML process VRAM"
    } else {
        "RSS"
    };
    row(
        format!("peak {process_label} (sampled)"),
        b(m.process_peak),
        format!("{} samples every {:.0} ms", m.samples, m.sample_interval_ms),
    );
    row(
        format!("mean {process_label}"),
        b(m.process_mean),
        String::new(),
    );
    if m.kind == MemoryKind::Gpu {
        let (label, when) = match s.checks {
            crate::words::Checks::Phase => (
                "allocator in use, highest at phase ends",
                "Live tensors at the end of forward, backward and optimizer; a peak inside a phase is not seen.",
            ),
            crate::words::Checks::Step => (
                "allocator in use, highest at step ends",
                "Live tensors when each step ended; a peak inside a step is not seen (NVML's process peak above is sampled).",
            ),
        };
        row(label.into(), b(m.allocator_peak_in_use), when.into());
        row(
            "peak allocator reserved".into(),
            b(m.allocator_peak_reserved),
            "pool pages held".into(),
        );
        row(
            "peak NVML device used".into(),
            b(m.device_used_peak),
            format!("of {}", b(m.device_total)),
        );
    } else {
        row(
            "peak host heap in use".into(),
            b(m.host_heap_peak),
            "counting allocator".into(),
        );
    }
    let baseline_note = if m.kind == MemoryKind::Gpu && m.baseline.process.is_none() {
        "n/a: no CUDA context yet, so NVML lists no memory for this process"
    } else {
        "before any tensor"
    };
    row(
        format!("{process_label} before the model"),
        b(m.baseline.process),
        baseline_note.into(),
    );
    for line in &m.reconciliation {
        row(
            format!("end: {}", line.label),
            line.bytes.to_string(),
            line.explanation.clone(),
        );
    }
    for n in &m.notes {
        row("note".to_string(), String::new(), n.clone());
    }
    format!("{t}\n{}", notes.render_for(width))
}

/// `s` as a note: its first letter upper case and a full stop at the end.
fn capitalized(s: &str) -> String {
    let mut chars = s.chars();
    let mut out = match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect::<String>(),
        None => return String::new(),
    };
    if !out.ends_with('.') {
        out.push('.');
    }
    out
}
