//! `oomlab estimate`'s result: one row per strategy, built once, rendered as text or JSON.

use serde::{Deserialize, Serialize};

use super::calibrate::Calibration;
use super::fit::{largest_batch, largest_sharded_batch, smallest_card};
use super::model::{Estimate, Target, TermKind};
use crate::config::RunConfig;
use crate::strategy::for_split;
use crate::units::Bytes;

/// One configuration's prediction.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EstimateRow {
    /// `your run` or a `compare` row (`grad-accum`, `amp-bf16`, ...).
    pub label: String,
    /// Strategy word.
    pub strategy: crate::vocab::Strategy,
    /// Precision (`f32`, `amp-bf16`, ...).
    pub precision: crate::vocab::PrecisionKind,
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
    /// The terminal table: the terms of every row, then the fit.
    pub fn to_terminal(&self) -> String {
        use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, CellAlignment, Table};
        let mut out = format!(
            "Predicted peak memory, {} ({}), config {}, batch {}{}, {} parameters\n",
            match self.target {
                Target::Cuda { total } => format!("GPU with {total}: NVML process memory"),
                Target::Cpu { threads } => format!("CPU: host heap, {threads} threads"),
            },
            "analytic, from the model's shapes",
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
            self.params
        );
        let mut t = Table::new();
        t.load_preset(UTF8_FULL_CONDENSED);
        let mut header = vec!["term".to_string()];
        header.extend(self.rows.iter().map(|r| r.label.clone()));
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
        let mut row = |label: &str, cells: Vec<Cell>| {
            let mut r = vec![Cell::new(label)];
            r.extend(cells);
            t.add_row(r);
        };
        row(
            "split (micro x steps)",
            self.rows
                .iter()
                .map(|r| {
                    right(format!(
                        "{} x {}{}",
                        r.estimate.plan.micro_batch,
                        r.estimate.plan.accumulation,
                        if r.checkpointing { ", ckpt" } else { "" }
                    ))
                })
                .collect(),
        );
        row(
            "precision",
            self.rows
                .iter()
                .map(|r| right(r.precision.to_string()))
                .collect(),
        );
        for kind in kinds {
            if self.rows.iter().all(|r| r.estimate.term(kind).0 == 0) {
                continue;
            }
            row(
                kind.label(),
                self.rows
                    .iter()
                    .map(|r| {
                        let term = r.estimate.terms.iter().find(|t| t.kind == kind);
                        right(match term {
                            Some(t) if t.bytes.0 > 0 && t.at_peak => t.bytes.to_string(),
                            Some(t) if t.bytes.0 > 0 => format!("({})", t.bytes),
                            _ => "-".into(),
                        })
                    })
                    .collect(),
            );
        }
        row(
            "= predicted peak",
            self.rows
                .iter()
                .map(|r| right(r.estimate.peak.to_string()))
                .collect(),
        );
        if self.rows.iter().any(|r| r.estimate.peak_high.is_some()) {
            row(
                "growth pool: up to (a page more per pool)",
                self.rows
                    .iter()
                    .map(|r| {
                        right(match r.estimate.peak_high {
                            Some(h) => h.to_string(),
                            None => "-".into(),
                        })
                    })
                    .collect(),
            );
        }
        row(
            "peaks during",
            self.rows
                .iter()
                .map(|r| right(format!("{:?}", r.estimate.moment).to_lowercase()))
                .collect(),
        );
        if self.rows.iter().any(|r| r.calibration.is_some()) {
            row(
                "calibrated peak (measured fit)",
                self.rows
                    .iter()
                    .map(|r| {
                        right(match &r.calibration {
                            Some(c) => format!(
                                "{} ({:+.0}%)",
                                c.predicted,
                                (r.estimate.peak.0 as f64 / c.predicted.0.max(1) as f64 - 1.0)
                                    * 100.0
                            ),
                            None => "-".into(),
                        })
                    })
                    .collect(),
            );
        }
        row(
            &format!("largest batch in {}", self.capacity),
            self.rows
                .iter()
                .map(|r| {
                    right(match (r.largest_batch, r.strategy) {
                        (None, _) => "none fits".into(),
                        (Some(n), crate::vocab::Strategy::AutoHalve) => format!("micro {n}"),
                        (Some(n), _) => n.to_string(),
                    })
                })
                .collect(),
        );
        row(
            "smallest card (GPU peak)",
            self.rows
                .iter()
                .map(|r| {
                    right(match &r.smallest_card {
                        Some(c) => c.split(" (").next().unwrap_or(c).to_string(),
                        None => "none listed".into(),
                    })
                })
                .collect(),
        );
        out.push_str(&t.to_string());
        out.push_str(&format!(
            "\n(values in parentheses belong to the other moment and are not in the peak)\ncapacity: {} ({})\ncards: {}\n",
            self.capacity,
            self.capacity_from,
            super::cards::CARDS
                .iter()
                .map(|(gb, names)| format!("{gb} GB = {names}"))
                .collect::<Vec<_>>()
                .join("; ")
        ));
        if self.rows.iter().any(|r| r.calibration.is_some()) {
            out.push_str("calibrated: peak = a + b x micro-batch fitted to short runs on this device; the % is the analytic figure's difference from it\n");
        } else {
            out.push_str("how each term is computed: oomlab explain estimate; --calibrate checks it against short runs on this device\n");
        }
        out
    }
}
