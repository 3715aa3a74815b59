//! Checks before a run starts: will its state fit, does the device support what the
//! configuration asks, can several devices do it. Each refusal says what to change.

use super::train_plan::TrainPlan;
use crate::config::{OptimKind, RunConfig};
use crate::device::Selected;
use crate::error::Error;
use crate::holders::process_state;
use crate::model::param_count;
use crate::probe::NvmlView;
use crate::train::RunKit;
use crate::units::Bytes;

/// Lower bound of what training needs on the device: f32 weights and gradients (4 bytes
/// each) and the optimizer's state, before any activation.
pub fn state_bytes_lower_bound(config: &RunConfig, vocab: usize) -> Bytes {
    let per_param = 8 + config.optim.kind.state_bytes_per_element();
    Bytes(param_count(&config.model, vocab) * per_param)
}

/// Device bytes a run on a GPU holds before any activation: weights and gradients, and
/// the optimizer's state unless it lives in host memory (`offload-optimizer`).
pub fn device_state_lower_bound(config: &RunConfig, vocab: usize) -> Bytes {
    if config.train.offload_optimizer {
        Bytes(param_count(&config.model, vocab) * 8)
    } else {
        state_bytes_lower_bound(config, vocab)
    }
}

/// Refuses a GPU run whose optimizer state, offloaded to host memory, would not fit the
/// host RAM available now: at the update the last good moments are kept beside the new
/// ones, 16 bytes a parameter (two f32 moments, twice).
pub fn offload_host_check(config: &RunConfig, vocab: usize, available: Bytes) -> Result<(), Error> {
    if !config.train.offload_optimizer {
        return Ok(());
    }
    let need = crate::technique::host_need(param_count(&config.model, vocab));
    if need <= available {
        return Ok(());
    }
    Err(Error::WontFit(crate::technique::host_refusal(
        need, available,
    )))
}

/// Refuses a CPU run whose weights, gradients and optimizer state alone exceed the host
/// RAM available now: the first allocation past it would abort the process (Rust's
/// allocator aborts; no summary could be written). Names the widths that would fit.
pub fn host_preflight(config: &RunConfig, vocab: usize, available: Bytes) -> Result<(), Error> {
    let need = state_bytes_lower_bound(config, vocab);
    if need <= available {
        return Ok(());
    }
    let mut smaller = config.clone();
    while state_bytes_lower_bound(&smaller, vocab) > available && smaller.model.d_model > 1 {
        smaller.model.d_model = (smaller.model.d_model / 2).max(1);
        smaller.model.d_ff = (smaller.model.d_ff / 2).max(1);
        // Heads must divide the width; keep the config's heads where they still do.
        while smaller.model.d_model % smaller.model.n_heads != 0 {
            smaller.model.n_heads -= 1;
        }
    }
    let fits = state_bytes_lower_bound(&smaller, vocab);
    let hint = if fits <= available {
        format!(
            "; halving the widths until it fits: --d-model {} --set model.d_ff={}{} ({fits} of state)",
            smaller.model.d_model,
            smaller.model.d_ff,
            if smaller.model.n_heads != config.model.n_heads {
                format!(" --set model.n_heads={}", smaller.model.n_heads)
            } else {
                String::new()
            }
        )
    } else {
        "; even the narrowest model does not fit: fewer --n-layers or a smaller vocabulary".into()
    };
    Err(Error::WontFit(format!(
        "this run cannot fit in host RAM: {} parameters need at least {need} for weights, gradients and {} state (activations come on top), and this machine has {available} available{hint}",
        param_count(&config.model, vocab),
        match config.optim.kind {
            OptimKind::AdamW => "AdamW",
            OptimKind::Sgd => "SGD",
        }
    )))
}

/// Warnings before the first step: other processes holding VRAM, too little free memory.
pub(crate) fn preflight(view: &NvmlView, index: u32, need: Bytes) -> Vec<String> {
    let mut warnings = Vec::new();
    let me = std::process::id();
    if let Ok(procs) = view.processes(index) {
        for p in procs.into_iter().filter(|p| p.pid != me) {
            let what = process_state(p.pid).describe();
            warnings.push(format!(
                "preflight: PID {} already holds {} on cuda:{index} ({what}); see `oomlab gpu`",
                p.pid,
                p.used
                    .map(|b| b.to_string())
                    .unwrap_or_else(|| "VRAM".into()),
            ));
        }
    }
    if let Ok(d) = view.device(index) {
        if d.free < need {
            warnings.push(format!(
                "preflight: cuda:{index} has {} free, less than the {need} that weights, gradients and optimizer state alone need (activations come on top): expect an out-of-memory failure",
                d.free
            ));
        }
    }
    warnings
}

/// Refuses a CUDA run whose predicted peak exceeds the card minus what other processes
/// hold. Under `--vram-budget` (made to show real OOMs) it only says what to expect.
pub(crate) fn gpu_fit_check(
    plan: &TrainPlan,
    view: &NvmlView,
    index: usize,
    vocab: usize,
    say: &dyn Fn(&str),
) -> Result<(), Error> {
    let Ok(d) = view.device(index as u32) else {
        return Ok(());
    };
    let me = std::process::id();
    let others: u64 = view
        .processes(index as u32)
        .unwrap_or_default()
        .iter()
        .filter(|p| p.pid != me)
        .filter_map(|p| p.used.map(|b| b.0))
        .sum();
    let target = crate::estimate::Target::Cuda { total: d.total };
    if let Some(budget) = plan.vram_budget {
        let peak = crate::estimate::Estimate::of(&plan.config, vocab, target).peak;
        if peak > budget {
            say(&format!(
                "--vram-budget {budget}: `oomlab estimate` predicts a peak of {peak}: expect an out-of-memory failure"
            ));
        }
        return Ok(());
    }
    crate::estimate::check_fits(
        &plan.config,
        vocab,
        target,
        Bytes(d.total.0.saturating_sub(others)),
        &format!("cuda:{index}'s memory less what other processes hold"),
    )
    .map_err(|e| Error::WontFit(e.to_string()))
}

/// What the configuration asks that this device cannot do (a half type, a memory mode).
pub(crate) fn check_support(
    plan: &TrainPlan,
    selected: &Selected,
    kit: &mut RunKit,
) -> Result<(), Error> {
    if let Some(h) = plan.config.train.precision.half() {
        let ok = crate::backend::supports_dtype(selected, h.dtype());
        if !ok {
            return Err(Error::Unsupported(format!(
                "--precision {0}: burn's backend on this device does not fully support {0} (its supports_dtype says no); use --precision f32{1}",
                h.name(),
                if h == crate::config::HalfDtype::F16 { " or bf16" } else { " or f16" }
            )));
        }
        kit.supports_half = Some(ok);
    }
    if let (crate::config::MemoryMode::Prealloc { .. }, Selected::Cpu { .. }) =
        (plan.config.train.memory_mode, selected)
    {
        return Err(Error::Unsupported(
            "--memory-mode prealloc needs a CUDA device: on the CPU, tensors come from the system allocator, which has no pool to fill (leave --memory-mode out: exact and growth are the same there)".into(),
        ));
    }

    Ok(())
}

/// What a data-parallel run cannot do (yet), refused before anything starts.
pub fn check_parallel(plan: &TrainPlan) -> Result<(), Error> {
    let n = plan.devices.len();
    let refuse = |what: &str| {
        Err(Error::Unsupported(format!(
            "{what} with {n} devices: not built for data-parallel runs yet; train on one device for it"
        )))
    };
    if plan.checkpoint_every.is_some() || plan.resume.is_some() {
        return refuse("--checkpoint-every / --resume (one checkpoint would have to hold every device's optimizer shard)");
    }
    if plan.vram_budget.is_some() {
        return refuse("--vram-budget (its ballast holds memory on one card)");
    }
    if matches!(
        plan.config.train.precision,
        crate::config::PrecisionMode::Pure(_)
    ) {
        return refuse("--strategy half");
    }
    if plan.leak_demo.is_some() {
        return refuse("--leak-demo");
    }
    crate::train::check_split(plan.config.train.batch, n)
        .map_err(|e| Error::Unsupported(e.to_string()))
}
