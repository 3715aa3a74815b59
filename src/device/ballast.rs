//! `--vram-budget`: give the card the free memory of a smaller one by holding the rest of
//! its memory in one plain device allocation outside burn's pool. burn then hits real,
//! driver-level allocation failures at the budget, NVML shows the ballast as this
//! process's memory, and the summary lists it on a line of its own. What it does not
//! change: cubecl sizes its pool's pages from the physical card (the largest a quarter of
//! it), so under any budget on an H200 a 128 MiB tensor takes a page of 2.2 GiB, where a
//! real 8 GiB card would give it one of 512 MiB (`estimate::pool`'s tests).

use cudarc::driver::{result, sys};

use crate::probe::{MemoryProbe, NvmlProbe, NvmlView};
use crate::units::Bytes;

/// Why a budget cannot be set up.
#[derive(Debug, thiserror::Error)]
pub enum BudgetError {
    /// Larger than the card.
    #[error("--vram-budget {budget} is larger than the card ({total}); choose a smaller size, e.g. --vram-budget 8GiB")]
    LargerThanCard {
        /// Asked.
        budget: Bytes,
        /// Card capacity.
        total: Bytes,
    },
    /// Smaller than what the process already holds (the CUDA context).
    #[error("--vram-budget {budget} is smaller than what this process already holds on the GPU ({held}: the CUDA context and loaded kernels); choose more, e.g. --vram-budget {suggest}")]
    BelowContext {
        /// Asked.
        budget: Bytes,
        /// Held now.
        held: Bytes,
        /// A workable size.
        suggest: String,
    },
    /// Only on CUDA.
    #[error("--vram-budget needs a CUDA device; on the CPU use --memory-budget (simulated OOM)")]
    NotCuda,
    /// The driver refused.
    #[error("--vram-budget: {0}")]
    Driver(String),
    /// The CPU's budget with the host heap not counted.
    #[error("--memory-budget needs the host heap counted, and memory.host_heap = \"off\" turned the count off: drop that setting, or set it to \"auto\"")]
    HeapNotCounted,
}

/// The held allocation; freed on drop.
pub struct Ballast {
    bytes: Bytes,
    ptr: sys::CUdeviceptr,
}

impl Ballast {
    /// Bytes held.
    pub fn bytes(&self) -> Bytes {
        self.bytes
    }
}

impl Drop for Ballast {
    fn drop(&mut self) {
        // SAFETY: `ptr` came from cuMemAlloc in the primary context, which is current on
        // this thread, and is freed once.
        unsafe {
            let _ = result::free_sync(self.ptr);
        }
    }
}

/// What setting up the budget did.
pub struct BudgetSetup {
    /// The ballast, if one was needed.
    pub ballast: Option<Ballast>,
    /// A line for the user.
    pub note: String,
}

/// Holds `free − (budget − held by this process)` bytes on device `index`, so that this
/// process can use at most `budget` in all (its CUDA context included).
pub fn hold_budget(index: usize, budget: Bytes) -> Result<BudgetSetup, BudgetError> {
    fn drv(what: &'static str) -> impl Fn(result::DriverError) -> BudgetError {
        move |e| BudgetError::Driver(format!("{what} failed: {e}"))
    }
    // Loads and initialises the driver (cudarc panics on a call when it is missing).
    let driver = crate::device::cuda_driver().map_err(|e| BudgetError::Driver(e.to_string()))?;
    if index >= driver.devices {
        return Err(BudgetError::Driver(format!(
            "no CUDA device {index}: the driver sees {}",
            driver.devices
        )));
    }
    // SAFETY: the CUDA driver API through cudarc; the primary context is the one cudarc
    // (under burn) retains too, so the ballast lives in the same context as the training
    // tensors.
    unsafe {
        let dev = result::device::get(index as i32).map_err(drv("cuDeviceGet"))?;
        let ctx = result::primary_ctx::retain(dev).map_err(drv("cuDevicePrimaryCtxRetain"))?;
        result::ctx::set_current(ctx).map_err(drv("cuCtxSetCurrent"))?;
        let (free, total) = result::mem_get_info().map_err(drv("cuMemGetInfo"))?;
        let (free, total) = (free as u64, total as u64);

        if budget.0 > total {
            return Err(BudgetError::LargerThanCard {
                budget,
                total: Bytes(total),
            });
        }
        // What this process holds now (the context): NVML's per-process figure.
        let held = NvmlView::init()
            .ok()
            .and_then(|v| NvmlProbe::new(v, index as u32).read().process)
            .unwrap_or(Bytes(0));
        if budget.0 <= held.0 {
            return Err(BudgetError::BelowContext {
                budget,
                held,
                suggest: format!("{}MiB", held.0 / (1024 * 1024) + 512),
            });
        }
        let room = budget.0 - held.0;
        if room >= free {
            return Ok(BudgetSetup {
                ballast: None,
                note: format!(
                    "--vram-budget {budget}: only {} is free on the card, less than the budget; no ballast needed, the card's free memory is the limit",
                    Bytes(free)
                ),
            });
        }
        let bytes = free - room;
        let ptr = result::malloc_sync(bytes as usize).map_err(drv("cuMemAlloc of the ballast"))?;
        Ok(BudgetSetup {
            ballast: Some(Ballast {
                bytes: Bytes(bytes),
                ptr,
            }),
            note: format!(
                "--vram-budget {budget}: holding {} of VRAM outside burn (this process held {held} before; {} left for training)",
                Bytes(bytes),
                Bytes(room)
            ),
        })
    }
}
