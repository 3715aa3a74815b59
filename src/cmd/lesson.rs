//! `oomlab lesson`: a guided run for a class or a first hour with out-of-memory errors.
//! Under a budget that stands in for a small card (a VRAM budget on a GPU, a SIMULATED
//! host-heap budget on the CPU), part 1 (a batch too big for the card) lets the baseline
//! run out of memory, then tries mixed precision, gradient accumulation, checkpointing and
//! auto-halve one by one; part 2 (a model too big for it) shows those fail where pure half
//! precision and SGD fit, with sharding predicted. Each stage has `oomlab estimate`'s
//! prediction beside the measurement (and the learner's guess, when asked); each part ends
//! with its comparison table. `--exercises` prints questions for a class instead.

use crate::lesson::{after_text, several_devices_text, Expect, Part, StageNumbers};

use std::io::{BufRead, Write};
use std::path::PathBuf;

use crate::cmd::compare::{finish, prepare, run_row, ComparePlan, RowRun};
use crate::data::Corpus;
use crate::error::Error;
use crate::estimate::{Estimate, Target, TermKind};
use crate::results::{Comparison, RowStatus};
use crate::technique::Variant;
use crate::text::wrap;
use crate::train::StopFlag;
use crate::units::Bytes;

/// One part of the lesson: its stages as compare rows sharing one model and the budget.
#[derive(Debug, Clone)]
pub struct PartPlan {
    /// Which part.
    pub part: &'static Part,
    /// Its stages as compare rows, in lesson order, in its own folder.
    pub compare: ComparePlan,
    /// The flags that make its model and batch for `oomlab train` (`--config tiny
    /// --batch 96`), for the exercises' commands.
    pub flags: String,
}

/// A validated lesson.
#[derive(Debug, Clone)]
pub struct LessonPlan {
    /// The parts to run, in order.
    pub parts: Vec<PartPlan>,
    /// The budget standing in for the small card.
    pub budget: Bytes,
    /// Set the budget from this card's own runs before the stages ([`measure_card`]).
    pub measure_card: bool,
    /// What measuring the card found, said before the stages.
    pub card_note: Option<String>,
    /// Whether it is a VRAM budget (real OOMs) or a host-heap one (SIMULATED).
    pub gpu: bool,
    /// The card's real capacity, for the estimate's page model (GPU).
    pub card_total: Option<Bytes>,
    /// Ask the learner to guess before each stage.
    pub ask: bool,
    /// A part left out, and why.
    pub skipped: Option<String>,
    /// The flags that put a run on this device under this budget.
    pub device_flags: String,
}

impl LessonPlan {
    /// Where the estimate sizes for: the card (GPU) or the budgeted heap (CPU).
    fn target(&self) -> Option<Target> {
        if self.gpu {
            Some(Target::Cuda {
                total: self.card_total?,
            })
        } else {
            Some(Target::budgeted_cpu())
        }
    }
}

/// The fewest bytes between the baseline's peak and the largest fitting stage's for a
/// budget between them to tell them apart on every run of a card.
const MEASURED_GAP: Bytes = Bytes(256 << 20);

/// Budgets are set in whole steps of this size.
const BUDGET_STEP: u64 = 64 << 20;

/// Measures this card before the stages (when [`LessonPlan::measure_card`]): part 1's
/// baseline and the stage its story needs to fit with the largest predicted peak, each a
/// short run in a fresh process without a budget; the budget then goes halfway between
/// their peaks, so that on this card the baseline runs out of memory and the others fit
/// (a budget tuned on one card let the baseline fit on another). Says what it measured in
/// `plan.card_note`; when it cannot measure, the default budget stays and the note says so.
pub fn measure_card(plan: &mut LessonPlan, stop: &StopFlag) -> Result<(), Error> {
    if !plan.measure_card || stop.requested() {
        return Ok(());
    }
    let Some(first) = plan.parts.iter().find(|p| p.part.number == 1) else {
        return Ok(());
    };
    let Some(target) = plan.target() else {
        plan.card_note = Some(format!(
            "This card's size could not be read, so the lesson keeps its default budget of {}.",
            plan.budget
        ));
        return Ok(());
    };
    // The stage the story needs to fit with the largest predicted peak.
    let predicted = |v: Variant| -> Option<Bytes> {
        let (_, cfg) = first
            .compare
            .rows
            .iter()
            .find(|(x, _)| *x == v)?
            .1
            .as_ref()
            .ok()?;
        let corpus = Corpus::load(&cfg.data, cfg.model.seq_len).ok()?;
        Some(Estimate::of(cfg, corpus.vocab.len(), target).peak)
    };
    let largest_fit = first
        .part
        .stages()
        .into_iter()
        .filter(|s| s.expect == Expect::Fits)
        .filter_map(|s| predicted(s.variant).map(|p| (s.variant, p)))
        .max_by_key(|(_, p)| *p)
        .map(|(v, _)| v);
    let mut measure = first.compare.clone();
    measure.set_vram_budget(None);
    measure.out = first.compare.out.join("measure-card");
    measure
        .rows
        .retain(|(v, _)| v.is_baseline() || Some(*v) == largest_fit);
    for (_, row) in measure.rows.iter_mut() {
        if let Ok((file, cfg)) = row {
            file.train.max_steps = 3;
            cfg.train.max_steps = 3;
        }
    }
    eprint!(
        "{}",
        crate::text::hang(
            "oomlab lesson: ",
            "measuring this card first: two short runs side by side, without a budget"
        )
    );
    let exe = prepare(&measure)?;
    // Both at once: each is its own process, and NVML gives each its own peak.
    let runs: Vec<_> = std::thread::scope(|scope| {
        let handles: Vec<_> = measure
            .rows
            .iter()
            .map(|(v, config)| {
                let (measure, exe) = (&measure, &exe);
                scope.spawn(move || (*v, run_row(measure, *v, config, exe)))
            })
            .collect();
        handles.into_iter().filter_map(|h| h.join().ok()).collect()
    });
    if stop.requested() {
        return Ok(());
    }
    let mut peaks = Vec::new();
    for (v, r) in &runs {
        let v = *v;
        match (&r.row.status, r.row.peak_process_bytes) {
            (RowStatus::Completed, Some(p)) => peaks.push((v, Bytes(p))),
            (status, _) => {
                plan.card_note = Some(format!(
                    "Measuring this card failed ({} did not finish: {status:?}), so the lesson keeps its default budget of {}, set on an NVIDIA H200; if a stage does not do what the text says, the text says so.",
                    v.name(),
                    plan.budget
                ));
                return Ok(());
            }
        }
    }
    let base = peaks.iter().find(|(v, _)| v.is_baseline()).map(|(_, p)| *p);
    let fit = peaks.iter().find(|(v, _)| !v.is_baseline()).copied();
    let (Some(base), Some((fit_variant, fit))) = (base, fit) else {
        return Ok(());
    };
    if base.0 < fit.0 + MEASURED_GAP.0 {
        plan.card_note = Some(format!(
            "Measured on this card without a budget: the baseline peaked at {base} and {}, the largest stage the story needs to fit, at {fit}: too close to set a budget between them, so the lesson keeps its default budget of {}; where a stage does not do what the text says, the text says so.",
            fit_variant.name(),
            plan.budget
        ));
        return Ok(());
    }
    let budget = Bytes((fit.0 + (base.0 - fit.0) / 2) / BUDGET_STEP * BUDGET_STEP);
    for part in plan.parts.iter_mut() {
        part.compare.set_vram_budget(Some(budget));
    }
    plan.device_flags = plan.device_flags.replace(
        &format!("--vram-budget {}", plan.budget.flag()),
        &format!("--vram-budget {}", budget.flag()),
    );
    plan.card_note = Some(format!(
        "Measured on this card first, in two short runs side by side without a budget: the baseline peaked at {base}, and {}, the largest of the stages the story needs to fit, at {fit}. The budget goes halfway between: {budget}.",
        fit_variant.name()
    ));
    plan.budget = budget;
    Ok(())
}

/// `oomlab lesson --exercises`: the handout for this device and budget, in Markdown.
pub fn exercises_markdown(plan: &LessonPlan) -> Result<String, Error> {
    let target = plan.target().ok_or_else(|| {
        Error::Unsupported("the card's size could not be read through NVML".into())
    })?;
    let part = |n: usize| -> Option<crate::lesson::HandoutPart<'_>> {
        let p = plan.parts.iter().find(|p| p.part.number == n)?;
        let rows: Vec<_> = p
            .compare
            .rows
            .iter()
            .filter_map(|(v, c)| c.as_ref().ok().map(|(_, cfg)| (*v, cfg)))
            .collect();
        let cfg = rows.first()?.1;
        let vocab = Corpus::load(&cfg.data, cfg.model.seq_len).ok()?.vocab.len();
        Some(crate::lesson::HandoutPart {
            flags: p.flags.clone(),
            rows,
            vocab,
        })
    };
    let small = part(1).ok_or_else(|| {
        Error::Unsupported("the exercises are written for part 1; run without --part 2".into())
    })?;
    let handout = crate::lesson::Handout {
        target,
        budget: plan.budget,
        gpu: plan.gpu,
        run_flags: plan.device_flags.clone(),
        small,
        big: part(2),
    };
    let device = plan
        .parts
        .first()
        .and_then(|p| p.compare.run_args.get(1).cloned())
        .unwrap_or_default();
    Ok(crate::lesson::handout_markdown(&handout, &device))
}

/// What the learner said before a stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Guess {
    Fits,
    DoesNotFit,
    Skipped,
}

fn ask(question: &str) -> Guess {
    eprint!("  {question} [y/n, Enter to skip] ");
    let _ = std::io::stderr().flush();
    let mut line = String::new();
    if std::io::stdin().lock().read_line(&mut line).is_err() {
        return Guess::Skipped;
    }
    match line.trim().to_ascii_lowercase().as_str() {
        "y" | "yes" => Guess::Fits,
        "n" | "no" => Guess::DoesNotFit,
        _ => Guess::Skipped,
    }
}

/// Runs the lesson: the narration goes to stdout as it happens; returns each part's
/// comparison.
pub fn run_lesson(plan: &LessonPlan, stop: &StopFlag) -> Result<Vec<Comparison>, Error> {
    let mut out = std::io::stdout();
    let sim = if plan.gpu { "" } else { " (SIMULATED)" };
    let what = if plan.gpu {
        format!(
            "a VRAM budget of {}: the rest of the card is held by a ballast allocation, so allocations past the budget fail in the driver, for real. burn's page sizes still follow the physical card ({}), so this is a small card's free memory, not a small card in every respect.",
            plan.budget,
            plan.card_total.map_or_else(|| "its size".to_string(), |t| t.to_string())
        )
    } else {
        format!(
            "a host-heap budget of {}: crossing it counts as an out-of-memory failure. The OOMs in this lesson are SIMULATED: nothing really runs out of memory on a CPU here, and every output says so.",
            plan.budget
        )
    };
    let stages: usize = plan.parts.iter().map(|p| p.compare.rows.len()).sum();
    let _ = write!(
        out,
        "oomlab lesson: {}, {stages} stages, each a training run in a fresh process, under\n{}",
        crate::text::count(plan.parts.len() as u64, "part", "parts"),
        wrap(&what, "  ")
    );
    if let Some(s) = &plan.skipped {
        let _ = write!(out, "{}", wrap(s, "  "));
    }
    if let Some(n) = &plan.card_note {
        let _ = write!(out, "{}", wrap(n, "  "));
    }
    let mut tables = Vec::new();
    for part in &plan.parts {
        if stop.requested() {
            break;
        }
        let cmp = run_part(plan, part, stop, &mut out)?;
        let _ = write!(
            out,
            "\nPart {}, all stages side by side{sim}:\n{}\n{}",
            part.part.number,
            cmp.to_terminal_brief(),
            wrap(
                &format!(
                    "folder: {} (compare.md, memory.svg, report.html, one folder per run).",
                    part.compare.out.display()
                ),
                ""
            )
        );
        tables.push(cmp);
    }
    let _ = write!(
        out,
        "\n{}",
        wrap(
            "Next: `oomlab explain order`, `oomlab explain <technique>`, `oomlab lesson --exercises` (questions for a class).",
            ""
        )
    );
    Ok(tables)
}

/// Runs one part's stages and writes its table.
fn run_part(
    plan: &LessonPlan,
    part: &PartPlan,
    stop: &StopFlag,
    out: &mut impl Write,
) -> Result<Comparison, Error> {
    let sim = if plan.gpu { "" } else { " (SIMULATED)" };
    let exe = prepare(&part.compare)?;
    let _ = writeln!(
        out,
        "\n== Part {}: {} ==",
        part.part.number, part.part.title
    );
    let _ = write!(out, "{}", wrap(part.part.intro, "  "));
    if !plan.gpu {
        for left_out in part.part.stages().iter().filter(|s| s.gpu_only) {
            let note = format!(
                "On a GPU this part also runs \"{}\"; on the CPU the host's memory is the budgeted one, so it would move nothing off it and is left out.",
                left_out.title
            );
            let _ = write!(out, "{}", wrap(&note, "  "));
        }
    }
    let total = part.compare.rows.len();
    let mut runs: Vec<RowRun> = Vec::new();
    // The first stage's numbers, the others' reference.
    let mut baseline: Option<StageNumbers> = None;
    // The baseline's config and vocabulary, for part 2's prediction over several devices.
    let mut base_config = None;
    for (i, stage) in part.part.stages_on(plan.gpu).enumerate() {
        if stop.requested() {
            break;
        }
        let Some((variant, config)) = part.compare.rows.iter().find(|(v, _)| *v == stage.variant)
        else {
            continue;
        };
        let _ = writeln!(out, "\nStage {}/{total}: {}", i + 1, stage.title);
        let _ = write!(out, "{}", wrap(stage.what, "  "));
        let _ = out.flush();
        // The learner's guess first, then what the estimate says.
        let guess = if plan.ask {
            ask(stage.question)
        } else {
            Guess::Skipped
        };
        // The prediction, before the run.
        let estimate = config.as_ref().ok().and_then(|(_, cfg)| {
            let corpus = Corpus::load(&cfg.data, cfg.model.seq_len).ok()?;
            if variant.is_baseline() {
                base_config = Some((cfg.clone(), corpus.vocab.len()));
            }
            Some(Estimate::of(cfg, corpus.vocab.len(), plan.target()?))
        });
        if let Some(e) = &estimate {
            let said = format!(
                "oomlab estimate predicts a peak of {} against the {} budget: {}.",
                e.peak,
                plan.budget,
                if e.peak <= plan.budget {
                    "it fits"
                } else {
                    "it does not fit"
                }
            );
            let _ = write!(out, "{}", wrap(&said, "  "));
        }
        let _ = out.flush();
        let r = run_row(&part.compare, *variant, config, &exe);
        let measured = r.row.measured_for_estimate().map(Bytes);
        let fitted = r.row.status == RowStatus::Completed && r.row.oom_retries == 0;
        let result = match &r.row.status {
            RowStatus::Completed if r.row.oom_retries > 0 => format!(
                "ran out of memory{sim} {}, recovered, finished at {}",
                crate::text::count(r.row.oom_retries, "time", "times"),
                r.row.split.clone().unwrap_or_default()
            ),
            RowStatus::Completed => format!(
                "fits: finished at {}",
                r.row.split.clone().unwrap_or_default()
            ),
            RowStatus::OutOfMemory(why) => format!("OUT OF MEMORY{sim}: {why}"),
            RowStatus::Failed(why) => format!("failed: {why}"),
            RowStatus::NotRun => "not run".into(),
        };
        let mut line = format!("Measured: {result}");
        if let Some(m) = measured {
            line.push_str(&format!(
                "; peak {m} ({}{})",
                if plan.gpu {
                    "NVML, this process"
                } else {
                    "host heap"
                },
                if fitted { "" } else { ", over every attempt" }
            ));
            // The estimate is for the configured split; a run that ran out of memory
            // peaked in its failed attempt, so the two are not comparable.
            if let (true, Some(e)) = (fitted, r.row.estimate_error_pct()) {
                line.push_str(&format!(", estimate {e:+.0}%"));
            }
        }
        if let (Some(l), RowStatus::Completed) = (r.row.final_loss, &r.row.status) {
            line.push_str(&format!(", final loss {l:.4}"));
        }
        line.push('.');
        let completed = r.row.status == RowStatus::Completed;
        let yes = stage.expect.yes_is_right(completed, r.row.oom_retries);
        match guess {
            Guess::Fits if yes => line.push_str(" Your guess was right."),
            Guess::DoesNotFit if !yes => line.push_str(" Your guess was right."),
            Guess::Skipped => {}
            _ => line.push_str(" Not what you guessed: read on."),
        }
        let _ = write!(out, "{}", wrap(&line, "  "));
        let summary = read_summary(&part.compare.out.join(&r.row.run_dir));
        let anatomy = summary.as_ref().and_then(|s| s.anatomy.clone());
        if let Some(a) = &anatomy {
            let _ = write!(
                out,
                "{}",
                crate::render::anatomy_text(a, Some(plan.budget), "  ", crate::text::width())
            );
        }
        // What to take from it, from this run's numbers and the baseline's.
        let mut numbers = StageNumbers {
            peak: measured,
            split: r.row.split.clone().unwrap_or_default(),
            oom_retries: r.row.oom_retries,
            completed: r.row.status == RowStatus::Completed,
            out_of_memory: matches!(r.row.status, RowStatus::OutOfMemory(_)),
            budget: Some(plan.budget),
            failed_step: summary.as_ref().and_then(|s| match &s.stop {
                crate::results::StopReason::OutOfMemory(e) => Some(e.step),
                _ => None,
            }),
            ..Default::default()
        };
        if let Some(e) = &estimate {
            numbers = numbers.with_estimate(e);
        }
        if let Some(a) = &anatomy {
            numbers = numbers.with_anatomy(a);
        }
        let base = baseline.get_or_insert_with(|| numbers.clone()).clone();
        let _ = write!(
            out,
            "{}",
            wrap(
                &after_text(part.part.number, stage.variant, &numbers, &base),
                "  "
            )
        );
        if let Some(off) = off_story(plan, stage.expect, &numbers) {
            let _ = write!(out, "{}", wrap(&off, "  "));
        }
        let _ = out.flush();
        runs.push(r);
    }
    // Part 2: what several devices would do, predicted (the lesson runs on one).
    if part.part.number == 2 && !stop.requested() {
        if let (Some((base_cfg, vocab)), Some(target)) = (&base_config, plan.target()) {
            // Each device takes its share of the batch and keeps 1/N of AdamW's state.
            let batch = base_cfg.train.batch;
            let per_device: Vec<(usize, Bytes)> = [2, 4]
                .into_iter()
                .filter(|n| batch % n == 0)
                .map(|n| {
                    let mut c = base_cfg.clone();
                    c.train.batch = batch / n;
                    let plan = crate::strategy::StepPlan::even(batch / n, 1);
                    (n, Estimate::sharded(&c, *vocab, target, plan, n).peak)
                })
                .collect();
            let one = Estimate::of(base_cfg, *vocab, target);
            let _ = write!(
                out,
                "\n{}",
                wrap(
                    &several_devices_text(
                        one.peak,
                        one.term(TermKind::OptimizerState),
                        &per_device,
                        plan.budget
                    ),
                    "  "
                )
            );
        }
    }
    finish(&part.compare, runs)
}

/// When a stage did not do what the story says: which outcome it had instead, and why,
/// from its numbers against the budget.
fn off_story(plan: &LessonPlan, expect: Expect, n: &StageNumbers) -> Option<String> {
    if expect.happened(n.completed, n.oom_retries, n.out_of_memory) {
        return None;
    }
    let budget = plan.budget;
    let peak = n.peak.map_or("n/a".to_string(), |p| p.to_string());
    let why = match expect {
        Expect::OutOfMemory | Expect::Recovers if n.completed && n.oom_retries == 0 => format!(
            "it fitted: its peak, {peak}, stayed under the {budget} budget{}",
            if plan.measure_card {
                ", set from this card's own short runs: a later step or another process on the card moved it"
            } else {
                ": on this card it needs less than where the budget was set (give a smaller one with --budget)"
            }
        ),
        Expect::Fits | Expect::Recovers if n.out_of_memory => format!(
            "it ran out of memory: it needed more than the {budget} budget on this card (peak {peak} when it failed; give a larger one with --budget)"
        ),
        Expect::Fits => format!(
            "it ran out of memory {} on the way (peak {peak} against the {budget} budget)",
            crate::text::count(n.oom_retries, "time", "times")
        ),
        _ => "it stopped for another reason than memory: its status says why".to_string(),
    };
    Some(format!(
        "NOTE: this is not what the lesson is written for: this stage should {}, but {why}.",
        expect.words()
    ))
}

/// A stage's `summary.json` (none when its run wrote none).
fn read_summary(run_dir: &std::path::Path) -> Option<crate::results::RunSummary> {
    let text = std::fs::read_to_string(run_dir.join("summary.json")).ok()?;
    serde_json::from_str(&text).ok()
}

/// Where the lesson's folder goes by default.
pub fn default_out() -> PathBuf {
    crate::run_dir::default_run_path(std::path::Path::new("runs"), "lesson")
}
