//! `oomlab lesson`: a guided run for a class or a first hour with out-of-memory errors.
//! Under a budget that stands in for a small card (a VRAM budget on a GPU, a SIMULATED
//! host-heap budget on the CPU), the baseline runs out of memory; then mixed precision,
//! gradient accumulation, checkpointing and auto-halve are tried one by one, each with
//! `oomlab estimate`'s prediction beside the measurement (and the learner's guess, when
//! asked), ending with the comparison table.

use crate::lesson::{after_text, StageNumbers, STAGES};

use std::io::{BufRead, Write};
use std::path::PathBuf;

use crate::cmd::compare::{finish, prepare, run_row, ComparePlan, RowRun};
use crate::data::Corpus;
use crate::error::Error;
use crate::estimate::{Estimate, Target};
use crate::results::{Comparison, RowStatus};
use crate::text::wrap;
use crate::train::StopFlag;
use crate::units::Bytes;

/// A validated lesson.
#[derive(Debug, Clone)]
pub struct LessonPlan {
    /// The stages as compare rows, in lesson order, sharing the budget.
    pub compare: ComparePlan,
    /// The budget standing in for the small card.
    pub budget: Bytes,
    /// Whether it is a VRAM budget (real OOMs) or a host-heap one (SIMULATED).
    pub gpu: bool,
    /// The card's real capacity, for the estimate's page model (GPU).
    pub card_total: Option<Bytes>,
    /// Ask the learner to guess before each stage.
    pub ask: bool,
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

/// Runs the lesson: the narration goes to stdout as it happens; returns the comparison.
pub fn run_lesson(plan: &LessonPlan, stop: &StopFlag) -> Result<Comparison, Error> {
    let exe = prepare(&plan.compare)?;
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
    let _ = write!(
        out,
        "oomlab lesson: {} stages, each a training run in a fresh process, under\n{}",
        STAGES.len(),
        wrap(&what, "  ")
    );
    let mut runs: Vec<RowRun> = Vec::new();
    // The first stage's numbers, the others' reference.
    let mut baseline: Option<StageNumbers> = None;
    for (i, stage) in STAGES.iter().enumerate() {
        if stop.requested() {
            break;
        }
        let Some((variant, config)) = plan.compare.rows.iter().find(|(v, _)| *v == stage.variant)
        else {
            continue;
        };
        let _ = writeln!(out, "\nStage {}/{}: {}", i + 1, STAGES.len(), stage.title);
        let _ = write!(out, "{}", wrap(stage.what, "  "));
        // The prediction, before the run.
        let predicted = config.as_ref().ok().and_then(|(_, cfg)| {
            let corpus = Corpus::load(&cfg.data, cfg.model.seq_len).ok()?;
            let target = if plan.gpu {
                Target::Cuda {
                    total: plan.card_total?,
                }
            } else {
                Target::budgeted_cpu()
            };
            Some(Estimate::of(cfg, corpus.vocab.len(), target).peak)
        });
        if let Some(p) = predicted {
            let _ = writeln!(
                out,
                "  oomlab estimate predicts a peak of {p} against the {} budget: {}.",
                plan.budget,
                if p <= plan.budget {
                    "it fits"
                } else {
                    "it does not fit"
                }
            );
        }
        let _ = out.flush();
        let guess = if plan.ask {
            ask(stage.question)
        } else {
            Guess::Skipped
        };
        let r = run_row(&plan.compare, *variant, config, &exe);
        let measured = r.row.measured_for_estimate().map(Bytes);
        let fitted = r.row.status == RowStatus::Completed && r.row.oom_retries == 0;
        let result = match &r.row.status {
            RowStatus::Completed if r.row.oom_retries > 0 => format!(
                "ran out of memory{sim} {} time(s), recovered, finished at {}",
                r.row.oom_retries,
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
                "; peak {m} ({})",
                if plan.gpu {
                    "NVML, this process"
                } else {
                    "host heap"
                }
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
        match guess {
            Guess::Fits if fitted => line.push_str(" Your guess was right."),
            Guess::DoesNotFit if !fitted => line.push_str(" Your guess was right."),
            Guess::Skipped => {}
            _ => line.push_str(" Not what you guessed: read on."),
        }
        let _ = write!(out, "{}", wrap(&line, "  "));
        let anatomy = read_anatomy(&plan.compare.out.join(&r.row.run_dir));
        if let Some(a) = &anatomy {
            let _ = write!(
                out,
                "{}",
                crate::report::anatomy_text(a, Some(plan.budget), "  ")
            );
        }
        // What to take from it, from this run's numbers and the baseline's.
        let numbers = StageNumbers {
            peak: measured,
            split: r.row.split.clone().unwrap_or_default(),
            oom_retries: r.row.oom_retries,
            completed: r.row.status == RowStatus::Completed,
            ..Default::default()
        };
        let numbers = match &anatomy {
            Some(a) => numbers.with_anatomy(a),
            None => numbers,
        };
        let base = baseline.get_or_insert_with(|| numbers.clone()).clone();
        let _ = write!(
            out,
            "{}",
            wrap(&after_text(stage.variant, &numbers, &base), "  ")
        );
        let _ = out.flush();
        runs.push(r);
    }
    let cmp = finish(&plan.compare, runs)?;
    let _ = writeln!(
        out,
        "\nAll stages side by side{sim}:\n{}\nfolder: {} (compare.md, memory.svg, report.html, one folder per run). Next: `oomlab explain order`, `oomlab explain <technique>`.",
        cmp.to_terminal_brief(),
        plan.compare.out.display()
    );
    Ok(cmp)
}

/// One step by category, from a stage's run folder (none when its summary lacks it).
fn read_anatomy(run_dir: &std::path::Path) -> Option<crate::results::StepAnatomy> {
    let text = std::fs::read_to_string(run_dir.join("summary.json")).ok()?;
    serde_json::from_str::<crate::results::RunSummary>(&text)
        .ok()?
        .anatomy
}

/// Where the lesson's folder goes by default.
pub fn default_out() -> PathBuf {
    crate::run_dir::default_run_path(std::path::Path::new("runs"), "lesson")
}
