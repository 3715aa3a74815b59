//! `oomlab estimate`'s result: one row per strategy, built once, rendered as text or JSON.

use serde::{Deserialize, Serialize};

use super::calibrate::Calibration;
use super::fit::{largest_batch, largest_sharded_batch, smallest_card};
use super::model::{Estimate, Target, TermKind};
use crate::config::RunConfig;
use crate::strategy::for_split;
use crate::text::Footnotes;
use crate::units::Bytes;

/// One configuration's prediction.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EstimateRow {
    /// `your run` or a `compare` row (`grad-accum`, `amp-bf16`, ...).
    pub label: String,
    /// Strategy word.
    pub strategy: crate::words::Strategy,
    /// Precision (`f32`, `amp-bf16`, ...).
    pub precision: crate::words::PrecisionKind,
    /// Checkpointing on.
    pub checkpointing: bool,
    /// The analytic estimate at the configured batch.
    pub estimate: Estimate,
    /// The largest batch that fits the capacity (auto-halve: the largest micro-batch).
    pub largest_batch: Option<usize>,
    /// The smallest card of the built-in list that holds the predicted GPU peak.
    pub smallest_card: Option<String>,
    /// The predicted peak on that card (page sizes depend on the card).
    pub gpu_peak: Option<Bytes>,
    /// Measured fit, when `--calibrate` ran.
    pub calibration: Option<Calibration>,
}

/// Everything `oomlab estimate` prints.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EstimateReport {
    /// The config's origin (built-in name or file).
    pub config: String,
    /// Where the peaks are predicted for.
    pub target: Target,
    /// The memory the largest batch is sized for.
    pub capacity: Bytes,
    /// Where that figure comes from (the card, the GPU's free memory, host RAM).
    pub capacity_from: String,
    /// The configured batch (the whole run's, over every device).
    pub batch: usize,
    /// Devices of a data-parallel run (1: one device); each row is one device's.
    #[serde(default = "one")]
    pub world: usize,
    /// Parameters.
    pub params: u64,
    /// One row per configuration.
    pub rows: Vec<EstimateRow>,
}

fn one() -> usize {
    1
}

impl EstimateRow {
    /// Predicts `cfg` for `target`, sized against `capacity`, on each of `world` devices
    /// (1: one device): each takes `batch / world` samples, and with `shard-optimizer`
    /// keeps the optimizer state of its share of the parameters. The largest batch is
    /// then the whole run's (per device x `world`).
    pub fn new(
        label: &str,
        cfg: &RunConfig,
        vocab: usize,
        target: Target,
        capacity: Bytes,
        world: usize,
    ) -> Self {
        let world = world.max(1);
        let shards = if cfg.train.shard_optimizer { world } else { 1 };
        let mut share = cfg.clone();
        share.train.batch = (cfg.train.batch / world).max(1);
        let cfg = &share;
        let plan = for_split(cfg.train.split).plan(cfg.train.batch);
        let estimate = Estimate::sharded(cfg, vocab, target, plan, shards);
        let card = smallest_card(cfg, vocab, shards);
        let largest = if shards > 1 {
            largest_sharded_batch(cfg, vocab, target, capacity, shards)
        } else {
            largest_batch(cfg, vocab, target, capacity)
        };
        Self {
            label: label.to_string(),
            strategy: cfg.train.preset,
            precision: cfg.train.precision.kind(),
            checkpointing: cfg.train.checkpointing,
            largest_batch: largest.map(|n| n * world),
            gpu_peak: card.as_ref().map(|(_, peak)| *peak),
            smallest_card: card.map(|(c, _)| c.name),
            estimate,
            calibration: None,
        }
    }
}

impl EstimateReport {
    /// The terminal report, laid out for the output's width: one row per configuration
    /// (its peak, fit, largest batch and smallest card), the terms of the first row, then
    /// the notes. `--wide` prints every row's terms side by side instead.
    pub fn to_terminal(&self) -> String {
        let width = crate::text::width();
        let mut out = crate::text::wrap(
            &format!(
                "Predicted peak memory ({}, analytic, from the model's shapes): config {}, batch {}{}, {} parameters.",
                match self.target {
                    Target::Cuda { .. } => format!(
                        "a GPU with {}: NVML process memory",
                        self.capacity
                    ),
                    Target::Cpu { threads } => format!("CPU: host heap, {threads} threads"),
                },
                self.config,
                self.batch,
                if self.world > 1 {
                    format!(
                        " over {} devices: each device's peak, at {} samples per device",
                        self.world,
                        self.batch / self.world
                    )
                } else {
                    String::new()
                },
                crate::text::thousands(self.params)
            ),
            "",
        );
        let mut notes = Footnotes::new();
        let mut t = crate::text::table();
        let calibrated = self.rows.iter().any(|r| r.calibration.is_some());
        let mut header = vec![
            "configuration".to_string(),
            "split".to_string(),
            "precision".to_string(),
            "predicted peak".to_string(),
            format!("fits {}?", self.capacity),
            "largest batch".to_string(),
            "smallest card".to_string(),
        ];
        if calibrated {
            header.push("calibrated peak".to_string());
        }
        t.set_header(header);
        for r in &self.rows {
            let room = self.capacity.0 as i64 - r.estimate.peak.0 as i64;
            let share = room as f64 / self.capacity.0.max(1) as f64;
            let fits = if room < 0 {
                format!("no, {} over", Bytes((-room) as u64))
            } else if share < super::cards::THIN_HEADROOM {
                format!(
                    "yes, {:.1}% left {}",
                    share * 100.0,
                    notes.mark("Under 5% of headroom: another driver or library version can take that much, so the run may not fit on another machine.")
                )
            } else {
                format!("yes, {:.0}% left", share * 100.0)
            };
            let mut row = vec![
                r.label.clone(),
                format!(
                    "{} x {}{}",
                    r.estimate.plan.micro_batch,
                    r.estimate.plan.accumulation,
                    if r.checkpointing { ", ckpt" } else { "" }
                ),
                r.precision.to_string(),
                r.estimate.peak.to_string(),
                fits,
                match (r.largest_batch, r.strategy) {
                    (None, _) => "none fits".into(),
                    (Some(n), crate::words::Strategy::AutoHalve) => format!("micro {n}"),
                    (Some(n), _) => n.to_string(),
                },
                match &r.smallest_card {
                    Some(c) => c.split(" (").next().unwrap_or(c).to_string(),
                    None => "none listed".into(),
                },
            ];
            if calibrated {
                row.push(match &r.calibration {
                    Some(c) => format!(
                        "{} ({:+.0}%)",
                        c.predicted,
                        (r.estimate.peak.0 as f64 / c.predicted.0.max(1) as f64 - 1.0) * 100.0
                    ),
                    None => "-".into(),
                });
            }
            t.add_row(row);
        }
        crate::text::keep_whole(&mut t, 0, self.rows.iter().map(|r| r.label.chars().count()));
        if width.columns().is_none_or(|c| c >= crate::text::PIPE_WIDTH) {
            // Room for "yes, 93% left" on one line.
            crate::text::keep_whole(&mut t, 4, ["yes, 93% left".len()]);
        }

        out.push_str(&format!("{t}\n"));
        out.push_str(&notes.render());
        // The terms: the first row's, or every row's side by side under --wide.
        let shown: Vec<&EstimateRow> = match width {
            crate::text::Width::Unlimited => self.rows.iter().collect(),
            crate::text::Width::Columns(_) => self.rows.iter().take(1).collect(),
        };
        out.push('\n');
        out.push_str(&crate::text::wrap(
            &match shown.len() {
                1 => format!(
                    "Where the peak of {} comes from (a size in parentheses belongs to another moment of the step and is not in the peak; `--wide` shows every configuration's terms):",
                    shown.first().map_or("", |r| r.label.as_str())
                ),
                _ => "Where each peak comes from (a size in parentheses belongs to another moment of the step and is not in the peak):".to_string(),
            },
            "",
        ));
        out.push_str(&terms_table(&shown));
        for r in &self.rows {
            if let Some(o) = r.estimate.offload {
                out.push_str(&crate::text::wrap(&o.sentence(&r.label), ""));
            }
        }
        out.push('\n');
        out.push_str(&crate::text::wrap(
            &format!("Capacity: {} ({}).", self.capacity, self.capacity_from),
            "",
        ));
        out.push_str(&crate::text::wrap(
            &format!(
                "Cards (GiB a framework sees): {}.",
                super::cards::list_line()
            ),
            "",
        ));
        out.push_str(&crate::text::wrap(
            if calibrated {
                "Calibrated: peak = a + b x micro-batch fitted to short runs on this device; the % is the analytic figure's difference from it."
            } else {
                "How each term is computed: oomlab explain estimate; --calibrate checks it against short runs on this device."
            },
            "",
        ));
        out
    }
}

/// The terms of `rows` side by side: one column per row.
fn terms_table(rows: &[&EstimateRow]) -> String {
    use comfy_table::{Cell, CellAlignment};
    let mut t = crate::text::table();
    let mut header = vec!["term".to_string()];
    header.extend(rows.iter().map(|r| r.label.clone()));
    t.set_header(header);
    let kinds = [
        TermKind::Weights,
        TermKind::Gradients,
        TermKind::OptimizerState,
        TermKind::HalfCopy,
        TermKind::AccumulationBuffer,
        TermKind::Activations,
        TermKind::BackwardWorkingSet,
        TermKind::OptimizerStepCopy,
        TermKind::AllocatorOverhead,
        TermKind::Runtime,
    ];
    let right = |s: String| Cell::new(s).set_alignment(CellAlignment::Right);
    for kind in kinds {
        if rows.iter().all(|r| r.estimate.term(kind).0 == 0) {
            continue;
        }
        let mut cells = vec![Cell::new(kind.label())];
        cells.extend(rows.iter().map(|r| {
            let term = r.estimate.terms.iter().find(|t| t.kind == kind);
            right(match term {
                Some(t) if t.bytes.0 > 0 && t.at_peak => t.bytes.to_string(),
                Some(t) if t.bytes.0 > 0 => format!("({})", t.bytes),
                _ => "-".into(),
            })
        }));
        t.add_row(cells);
    }
    let mut total = vec![Cell::new("= predicted peak")];
    total.extend(rows.iter().map(|r| right(r.estimate.peak.to_string())));
    t.add_row(total);
    if rows.iter().any(|r| r.estimate.peak_high.is_some()) {
        let mut high = vec![Cell::new("growth pool: up to (a page more per pool)")];
        high.extend(rows.iter().map(|r| {
            right(match r.estimate.peak_high {
                Some(h) => h.to_string(),
                None => "-".into(),
            })
        }));
        t.add_row(high);
    }
    let mut during = vec![Cell::new("peaks during")];
    during.extend(
        rows.iter()
            .map(|r| right(format!("{:?}", r.estimate.moment).to_lowercase())),
    );
    t.add_row(during);
    format!("{t}\n")
}
