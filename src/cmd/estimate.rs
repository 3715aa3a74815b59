//! From a validated plan to the report: where to predict for, how much memory there is,
//! every row, and (with `--calibrate`) the probes.

use std::sync::Arc;

use crate::config::{ConfigFile, RunConfig};
use crate::data::Corpus;
use crate::device::DeviceRequest;
use crate::error::Error;
use crate::estimate::{Card, EstimateReport, EstimateRow, Prober, Target};
use crate::probe::{host, NvmlView};
use crate::units::Bytes;

/// Everything `estimate` needs, already validated.
#[derive(Debug, Clone)]
pub struct EstimatePlan {
    /// `--config` as given.
    pub origin: String,
    /// `your run` first, then the compare rows: label, complete config, checked config.
    pub rows: Vec<(String, ConfigFile, RunConfig)>,
    /// `--device`.
    pub device: DeviceRequest,
    /// `--card`.
    pub card: Option<Card>,
    /// `--calibrate`.
    pub calibrate: bool,
    /// `--memory-budget`: on the CPU, the SIMULATED host-heap budget sized for, with the
    /// compute threads a run under it has (`device::BUDGET_THREADS`).
    pub memory_budget: Option<Bytes>,
    /// `--vram-budget`: the card a run under it emulates, sized for as `--card` would.
    pub vram_budget: Option<Bytes>,
    /// Devices of a data-parallel run (`--devices`, `--gpus`; 1: one device).
    pub world: usize,
    /// No progress on stderr.
    pub quiet: bool,
}

/// Where the prediction is for and how much memory it may use.
struct Sizing {
    target: Target,
    capacity: Bytes,
    from: String,
    /// `cuda:N NAME` or `cpu`, for the calibration cache.
    device_label: String,
}

fn sizing(plan: &EstimatePlan) -> Result<Sizing, Error> {
    if let Some(card) = &plan.card {
        return Ok(Sizing {
            target: Target::Cuda { total: card.bytes },
            capacity: card.bytes,
            from: format!("--card {}", card.name),
            device_label: format!("card {}", card.name),
        });
    }
    if let Some(budget) = plan.vram_budget {
        return Ok(Sizing {
            target: Target::Cuda { total: budget },
            capacity: budget,
            from: format!(
                "--vram-budget {budget} (the card a run under it emulates, whatever the GPU here)"
            ),
            device_label: format!("budget {budget}"),
        });
    }
    let index = match plan.device {
        DeviceRequest::Cpu => None,
        DeviceRequest::Auto => Some(0),
        DeviceRequest::Cuda(n) => Some(n),
    };
    if let Some(index) = index {
        match NvmlView::init().and_then(|v| {
            let d = v.device(index as u32)?;
            let others: u64 = v
                .processes(index as u32)
                .unwrap_or_default()
                .iter()
                .filter(|p| p.pid != std::process::id())
                .filter_map(|p| p.used.map(|b| b.0))
                .sum();
            Ok((d, others))
        }) {
            Ok((d, others)) => {
                return Ok(Sizing {
                    target: Target::Cuda { total: d.total },
                    capacity: Bytes(d.total.0.saturating_sub(others)),
                    from: format!(
                        "cuda:{index} {}: {} total, {} held by other processes",
                        d.name,
                        d.total,
                        Bytes(others)
                    ),
                    device_label: format!("cuda:{index} {}", d.name),
                })
            }
            Err(e) if plan.device != DeviceRequest::Auto => {
                return Err(Error::Unsupported(format!(
                    "--device {}: cannot read the GPU's memory ({e}); size for a card instead with --card 24GiB (or a name: RTX 4090, H100)",
                    plan.device
                )))
            }
            Err(_) => {}
        }
    }
    if let Some(budget) = plan.memory_budget {
        // A run under --memory-budget fixes its compute threads, and the heap depends on
        // them (the matrix library's per-thread buffers): size for that run.
        let target = Target::budgeted_cpu();
        return Ok(Sizing {
            target,
            capacity: budget,
            from: format!(
                "--memory-budget {budget} (SIMULATED host-heap budget; a run under it computes on {} threads)",
                target_threads(target)
            ),
            device_label: format!("cpu-{}", target_threads(target)),
        });
    }
    let target = Target::this_cpu();
    Ok(Sizing {
        target,
        capacity: host::host_available().unwrap_or(Bytes(0)),
        from: "host RAM available now (MemAvailable); --card sizes for a GPU".into(),
        device_label: format!("cpu-{}", target_threads(target)),
    })
}

fn target_threads(t: Target) -> usize {
    match t {
        Target::Cpu { threads } => threads,
        Target::Cuda { .. } => 0,
    }
}

/// Builds the report for `plan`.
pub fn run_estimate(plan: &EstimatePlan) -> Result<EstimateReport, Error> {
    let sizing = sizing(plan)?;
    let Some((_, _, first)) = plan.rows.first() else {
        return Err(Error::Unsupported(
            "estimate: no configuration to estimate".into(),
        ));
    };
    let corpus = Arc::new(Corpus::load(&first.data, first.model.seq_len)?);
    let vocab = corpus.vocab.len();
    let mut rows: Vec<EstimateRow> = plan
        .rows
        .iter()
        .map(|(label, _, cfg)| {
            EstimateRow::new(
                label,
                cfg,
                vocab,
                sizing.target,
                sizing.capacity,
                plan.world,
            )
        })
        .collect();
    if plan.calibrate {
        if plan.card.is_some() {
            return Err(Error::Unsupported(
                "--calibrate measures this machine's device; it cannot measure a --card (leave --card out to calibrate here)".into(),
            ));
        }
        let exe = std::env::current_exe().map_err(|source| Error::RunDir {
            path: "current executable".into(),
            source,
        })?;
        let scratch = std::env::temp_dir().join(format!("oomlab-calibrate-{}", std::process::id()));
        let run_args = vec!["--device".to_string(), plan.device.to_string()];
        let prober = Prober {
            exe: &exe,
            run_args: &run_args,
            device: &sizing.device_label,
            scratch: &scratch,
            threads: match sizing.target {
                Target::Cpu { threads } if plan.memory_budget.is_some() => Some(threads),
                _ => None,
            },
        };
        let bar = crate::progress::bar(
            rows.len() as u64,
            "{elapsed_precise} [{bar:30}] {pos}/{len} calibrating {msg}",
        );
        for (row, (label, file, _)) in rows.iter_mut().zip(&plan.rows) {
            bar.set_message(label.clone());
            if !plan.quiet && bar.is_hidden() {
                eprintln!("estimate: calibrating {label} (two short runs)");
            }
            let plan_split = row.estimate.plan;
            let c = prober
                .calibrate(
                    &label.replace(' ', "-"),
                    file,
                    plan_split.micro_batch,
                    plan_split.accumulation,
                )
                .map_err(|e| Error::Unsupported(e.to_string()))?;
            row.calibration = Some(c);
            bar.inc(1);
        }
        bar.finish_and_clear();
        let _ = std::fs::remove_dir_all(&scratch);
    }
    Ok(EstimateReport {
        config: plan.origin.clone(),
        target: sizing.target,
        capacity: sizing.capacity,
        capacity_from: sizing.from,
        batch: first.train.batch,
        world: plan.world,
        params: rows.first().map(|r| r.estimate.params).unwrap_or(0),
        rows,
    })
}
