//! What a run measures with on its device: the probes, the OOM detector, cubecl's kernel
//! cache, the `--vram-budget` ballast; and each further device's own instruments.

use std::sync::Arc;

use super::preflight::{
    device_state_lower_bound, gpu_fit_check, host_preflight, offload_host_check, preflight,
};
use super::train_plan::TrainPlan;
use crate::data::Corpus;
use crate::device::{
    configure_cubecl, hold_budget, install_tuned, Ballast, BudgetError, CubeclSettings, Selected,
};
use crate::error::Error;
use crate::oom::{DevicePanicDetector, HostBudgetDetector, NoDetector, OomDetector};
use crate::probe::{host, HostProbe, MemoryProbe, NvmlProbe, NvmlView};
use crate::train::{Instruments, RunKit};

/// What a run holds for its whole length besides the kit: the `--vram-budget` ballast
/// (freed on drop) and cubecl's setup (its scratch folder removed at the end).
#[derive(Default)]
pub(crate) struct Held {
    pub(crate) ballast: Option<Ballast>,
    pub(crate) cubecl: Option<crate::device::CubeclSetup>,
}

/// The CPU's instruments: host probe, counting heap, the simulated budget; refuses a run
/// that cannot fit in RAM.
pub(crate) fn cpu_instruments(
    plan: &TrainPlan,
    corpus: &Corpus,
    kit: &mut RunKit,
    say: &dyn Fn(&str),
) -> Result<(), Error> {
    host::configure(plan.config.train.host_heap);
    if plan.vram_budget.is_some() {
        return Err(BudgetError::NotCuda.into());
    }
    if plan.memory_budget.is_some() && host::turned_off() {
        return Err(BudgetError::HeapNotCounted.into());
    }
    // Before anything uses rayon's pool (the fit check below reads its size).
    if plan.memory_budget.is_some() {
        let threads = crate::device::BUDGET_THREADS;
        let note = match crate::device::pin_compute_threads(threads) {
            Ok(()) => format!("--memory-budget: {threads} compute threads, so the heap (the matrix library keeps an L2-sized buffer per thread) and the SIMULATED OOMs are the same on any machine"),
            Err(e) => format!("--memory-budget: could not fix the compute threads at {threads} ({e}): the heap, and so the SIMULATED OOMs, depend on this machine's thread count"),
        };
        say(&note);
        kit.notes.push(note);
    }
    if let Some(available) = host::host_available() {
        host_preflight(&plan.config, corpus.vocab.len(), available)?;
        crate::estimate::check_fits(
            &plan.config,
            corpus.vocab.len(),
            crate::estimate::Target::this_cpu(),
            available,
            "the host RAM available now",
        )
        .map_err(|e| Error::WontFit(e.to_string()))?;
    }
    if plan.config.train.empty_cache_every.is_some() {
        let note = "--empty-cache-every on the CPU: burn's Flex backend keeps no pool, so a cleanup has nothing to return; the figures show the call's cost, not a release".to_string();
        say(&note);
        kit.notes.push(note);
    }
    kit.memory_kind = crate::words::MemoryKind::Host;
    kit.sampled = Some(Arc::new(HostProbe) as Arc<dyn MemoryProbe>);
    if host::turned_off() {
        kit.notes.push(host::NOT_COUNTED_NOTE.into());
    } else if !host::counting() {
        kit.notes
                    .push("host heap count unavailable: oomlab's counting allocator is not installed in this program".into());
    }
    let detector: Arc<dyn OomDetector> = match plan.memory_budget {
        Some(b) => {
            say(&format!(
                "--memory-budget {b}: exceeding it is a SIMULATED out-of-memory event"
            ));
            Arc::new(HostBudgetDetector::new(b))
        }
        None => Arc::new(NoDetector),
    };
    kit.instruments = Instruments {
        detector,
        allocator: None,
        memory: Some(Arc::new(HostProbe)),
        check_every_phase: plan.check_every_phase,
    };
    Ok(())
}

/// CUDA's instruments: cubecl's configuration and kernel cache, NVML, the preflight
/// warnings, the `--vram-budget` ballast, the device-thread OOM detector.
pub(crate) fn cuda_instruments(
    plan: &TrainPlan,
    index: usize,
    name: &str,
    corpus: &Corpus,
    kit: &mut RunKit,
    say: &dyn Fn(&str),
) -> Result<Held, Error> {
    host::configure(plan.config.train.host_heap);
    let mut held = Held::default();
    if plan.memory_budget.is_some() {
        say("--memory-budget applies to the CPU backend; on CUDA use --vram-budget");
    }
    kit.memory_kind = crate::words::MemoryKind::Gpu;
    if let Some(available) = host::host_available() {
        offload_host_check(&plan.config, corpus.vocab.len(), available)?;
    }
    if let Some(note) = host::off_on_cuda() {
        kit.notes.push(note.into());
    }
    // A dry step at a size that fits before the first real one (Trainer::warm_up).
    kit.warm_up_rows = Some(32);
    let setup = configure_cubecl(&CubeclSettings {
        kernel_cache: plan.kernel_cache.clone(),
        exact_memory: plan.config.train.memory_mode == crate::config::MemoryMode::Exact,
    });
    for note in &setup.notes {
        say(note);
    }
    if let (Some(dir), true) = (&setup.kernel_cache, plan.tuned_pack) {
        let card = crate::device::CardId {
            name,
            compute_capability: crate::device::compute_capability(index),
        };
        if !setup.autotune.matches_shipped() {
            // At another level their keys would not match: say so once, in the note.
        } else if let Some(line) = install_tuned(dir, &card, index) {
            say(&line);
            kit.notes.push(line);
        }
        if let Some(done) =
            crate::device::install_compiled(dir, &card, crate::device::driver_version())
        {
            let line = done.note();
            say(&line);
            kit.notes.push(line);
        }
    }
    kit.notes.push(setup.autotune.note());
    kit.kernel_cache = setup.kernel_cache.clone();
    held.cubecl = Some(setup);
    let nvml = match NvmlView::init() {
        Ok(v) => Some(v),
        Err(e) => {
            say(&e.to_string());
            kit.notes.push(e.to_string());
            None
        }
    };
    if let Some(view) = &nvml {
        let need = device_state_lower_bound(&plan.config, corpus.vocab.len());
        for w in preflight(view, index as u32, need) {
            say(&w);
            kit.notes.push(w);
        }
        gpu_fit_check(plan, view, index, corpus.vocab.len(), &say)?;
    }
    if let Some(budget) = plan.vram_budget {
        let setup = hold_budget(index, budget)?;
        say(&setup.note);
        kit.notes.push(setup.note);
        kit.ballast = setup.ballast.as_ref().map(|b| b.bytes());
        held.ballast = setup.ballast;
    }
    let probe: Option<Arc<dyn MemoryProbe>> =
        nvml.map(|v| Arc::new(NvmlProbe::new(v, index as u32)) as Arc<dyn MemoryProbe>);
    kit.sampled = probe.clone();
    kit.instruments = Instruments {
        detector: Arc::new(DevicePanicDetector::install()),
        allocator: None, // filled in by the backend dispatch
        memory: probe,
        check_every_phase: plan.check_every_phase,
    };
    Ok(held)
}

/// One peer per device: each gets its own OOM detector and its device's NVML probe; the
/// rest (settings, notes) is the first device's.
pub(crate) fn peer_kit(kit: &RunKit, selected: &Selected, plan: &TrainPlan) -> RunKit {
    let mut kit = kit.clone();
    // Rank 0 reports: it alone writes the summary of a stop the loop cannot see.
    kit.abandon = None;
    match selected {
        Selected::Cpu { .. } => {
            kit.instruments.detector = match plan.memory_budget {
                Some(b) => Arc::new(HostBudgetDetector::new(b)),
                None => Arc::new(NoDetector),
            };
        }
        Selected::Cuda { index, .. } => {
            kit.instruments.detector = Arc::new(DevicePanicDetector::install());
            let probe = NvmlView::init()
                .ok()
                .map(|v| Arc::new(NvmlProbe::new(v, *index as u32)) as Arc<dyn MemoryProbe>);
            kit.sampled = probe.clone();
            kit.instruments.memory = probe;
        }
    }
    kit
}
