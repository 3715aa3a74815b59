//! Terminal rendering of a [`RunSummary`].

use crate::vocab::MemoryKind;
use comfy_table::{presets::UTF8_FULL_CONDENSED, ContentArrangement, Table};

use crate::results::{AttemptOutcome, AttemptRecord};
use crate::results::{RunSummary, StopReason};
use crate::units::fmt_duration;

fn opt<T>(v: Option<T>, f: impl Fn(T) -> String) -> String {
    v.map(f).unwrap_or_else(|| "n/a".into())
}

/// The summary as a two-column table for the terminal.
pub fn render_summary(s: &RunSummary) -> String {
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_header(vec!["oomlab run", ""]);
    let secs = |x: f64| fmt_duration(std::time::Duration::from_secs_f64(x));
    let rows: Vec<(&str, String)> = vec![
        (
            "strategy",
            s.strategy_label(),
        ),
        ("batch", {
            let a = &s.adaptation;
            let mut text = format!(
                "{} micro-batch x {} accumulation{}{} = {} samples per optimizer step",
                s.plan.micro_batch,
                s.plan.accumulation,
                s.plan
                    .short_last()
                    .map(|l| format!(" (the last of {l})"))
                    .unwrap_or_default(),
                s.parallel
                    .as_ref()
                    .map(|p| format!(" x {} devices", p.world))
                    .unwrap_or_default(),
                s.effective_batch
            );
            if a.initial_plan != s.plan {
                text.push_str(&format!(
                    " (started at {}; {} attempts, {} out of memory, {} in failed attempts)",
                    a.initial_plan.with_total(),
                    a.attempts_made,
                    a.oom_attempts,
                    secs(a.failed_attempts_s)
                ));
            }
            text
        }),
        (
            "device",
            format!("{} ({})", s.device.label, s.device.backend),
        ),
        (
            "model",
            format!(
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
            .to_lowercase(),
        ),
        ("memory mode", s.memory_mode.name().to_string()),
        (
            "parameters",
            format!(
                "{} ({}, dtype read from the tensors: {})",
                s.params.count,
                s.params.bytes,
                s.params.dtypes.join(", ")
            ),
        ),
        (
            "precision",
            format!(
                "{}: weights {}, forward/backward {} (read from the tensors); {:.1} bytes/param for weights, grads, optimizer moments{}",
                s.precision.mode,
                s.precision.weight_dtypes.join(", "),
                s.precision.compute_dtypes.join(", "),
                s.precision.bytes_per_param,
                if s.precision.mode.is_mixed() { " and the half copy" } else { "" }
            ),
        ),
        ("data", format!("{} (vocab {})", s.data, s.vocab)),
        (
            "steps",
            format!(
                "{} of {}{}",
                s.steps_completed,
                s.steps_planned,
                match &s.stop {
                    StopReason::Completed => String::new(),
                    StopReason::Interrupted => match &s.stopped_during {
                        Some(during) => format!(" ({during})"),
                        None => " (stopped by Ctrl-C or SIGTERM after a finished step)".into(),
                    },
                    StopReason::Failed(m) => format!(" (failed: {m})"),
                    StopReason::OutOfMemory(e) => format!(
                        " (stopped by {} at step {}: that step was discarded, not applied)",
                        e.label(),
                        e.step + 1,
                    ),
                }
            ),
        ),
        (
            "loss",
            format!(
                "{} -> {}{}",
                opt(s.first_loss, |l| format!("{l:.4}")),
                opt(s.final_loss, |l| format!("{l:.4}")),
                match s.steps_completed {
                    0 | 1 => String::new(),
                    n => format!(
                        " (first step; mean of the last {} steps){}",
                        (n / 10).max(1),
                        if s.diverged() {
                            ": the loss ROSE, training diverged (the updates broke the weights; pure f16: `oomlab explain half`)"
                        } else {
                            ""
                        }
                    ),
                }
            ),
        ),
        (
            "time to first step",
            match s.warm_up_s {
                Some(w) => format!(
                    "{} (including a dry warm-up step at a small batch: {})",
                    opt(s.time_to_first_step_s, secs),
                    secs(w)
                ),
                None => opt(s.time_to_first_step_s, secs),
            },
        ),
        (
            "steady step",
            match s.steady_step_s {
                // The first step is left out: it compiles, tunes and allocates.
                Some(t) => match s.steps_completed.saturating_sub(1) {
                    1 => format!("{} (the one step after the first)", secs(t)),
                    n => format!("{} (median of the {n} steps after the first)", secs(t)),
                },
                None => "n/a (no step after the first, which is left out)".to_string(),
            },
        ),
        ("samples/s", opt(s.samples_per_s, |x| format!("{x:.1}"))),
        ("wall time", secs(s.wall_s)),
        (
            "OOM detector",
            format!(
                "{} ({})",
                s.oom_detector,
                if s.checks == crate::vocab::Checks::Phase {
                    "checked after every phase"
                } else {
                    "checked once per step, at its end"
                }
            ),
        ),
        ("host peak RSS", opt(s.host_peak_rss, |b| b.to_string())),
    ];
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
        format!("{}\n", render_attempts(&s.adaptation.attempts))
    } else {
        String::new()
    };
    let peers = s
        .parallel
        .as_ref()
        .map(|p| format!("{}\n", render_peers(p)))
        .unwrap_or_default();
    let anatomy = s
        .anatomy
        .as_ref()
        .map(|a| format!("\n{}", super::anatomy_text(a, None, "")))
        .unwrap_or_default();
    format!("{t}\n{attempts}{peers}{}{anatomy}", render_memory(s))
}

/// Every device of a data-parallel run: its share, its memory, its weights' hash.
pub fn render_peers(p: &crate::results::ParallelReport) -> String {
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_header(vec![
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
pub fn render_attempts(attempts: &[AttemptRecord]) -> String {
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_header(vec![
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
        ]);
    let b = |x: Option<crate::units::Bytes>| x.map(|b| b.to_string()).unwrap_or_default();
    for a in attempts {
        let outcome = match (a.outcome, a.simulated) {
            (AttemptOutcome::Ok, _) => "ok",
            (AttemptOutcome::Oom, true) => "OOM (SIMULATED)",
            (AttemptOutcome::Oom, false) => "OOM",
        };
        t.add_row(vec![
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
            a.next.clone().unwrap_or_default(),
        ]);
    }
    t.to_string()
}

/// The memory section: figures by source, then how they add up.
pub fn render_memory(s: &RunSummary) -> String {
    let m = &s.memory;
    let mut t = Table::new();
    let title = if m.kind == MemoryKind::Gpu {
        "memory (GPU: NVML + burn allocator)"
    } else {
        "memory (HOST memory: counting allocator + RSS)"
    };
    t.load_preset(UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_header(vec![title, "", ""]);
    let b =
        |x: Option<crate::units::Bytes>| x.map(|b| b.to_string()).unwrap_or_else(|| "n/a".into());
    let process_label = if m.kind == MemoryKind::Gpu {
        "NVML process VRAM"
    } else {
        "RSS"
    };
    t.add_row(vec![
        format!("peak {process_label} (sampled)"),
        b(m.process_peak),
        format!("{} samples every {:.0} ms", m.samples, m.sample_interval_ms),
    ]);
    t.add_row(vec![
        format!("mean {process_label}"),
        b(m.process_mean),
        String::new(),
    ]);
    if m.kind == MemoryKind::Gpu {
        let (label, when) = match s.checks {
            crate::vocab::Checks::Phase => (
                "allocator in use, highest at phase ends",
                "live tensors at the end of forward, backward and optimizer; a peak inside a phase is not seen",
            ),
            crate::vocab::Checks::Step => (
                "allocator in use, highest at step ends",
                "live tensors when each step ended; a peak inside a step is not seen (NVML's process peak above is sampled)",
            ),
        };
        t.add_row(vec![label.into(), b(m.allocator_peak_in_use), when.into()]);
        t.add_row(vec![
            "peak allocator reserved".into(),
            b(m.allocator_peak_reserved),
            "pool pages held".into(),
        ]);
        t.add_row(vec![
            "peak NVML device used".into(),
            b(m.device_used_peak),
            format!("of {}", b(m.device_total)),
        ]);
    } else {
        t.add_row(vec![
            "peak host heap in use".into(),
            b(m.host_heap_peak),
            "counting allocator".into(),
        ]);
    }
    let baseline_note = if m.kind == MemoryKind::Gpu && m.baseline.process.is_none() {
        "n/a: no CUDA context yet, so NVML lists no memory for this process"
    } else {
        "process figure before any tensor"
    };
    t.add_row(vec![
        "before the model (baseline)".into(),
        b(m.baseline.process),
        baseline_note.into(),
    ]);
    for line in &m.reconciliation {
        t.add_row(vec![
            format!("end: {}", line.label),
            line.bytes.to_string(),
            line.explanation.clone(),
        ]);
    }
    for n in &m.notes {
        t.add_row(vec!["note".to_string(), String::new(), n.clone()]);
    }
    t.to_string()
}
