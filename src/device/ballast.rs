//! `--vram-budget`: make the card behave like a smaller one by holding the rest of its
//! memory in one plain device allocation outside burn's pool. burn then hits real,
//! driver-level allocation failures at the budget, NVML shows the ballast as this
//! process's memory, and the summary lists it on a line of its own.

use std::ffi::{c_int, c_uint, c_void};

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
}

/// The held allocation; freed on drop.
pub struct Ballast {
    bytes: Bytes,
    ptr: u64,
    free_fn: unsafe extern "C" fn(u64) -> c_int,
    _lib: libloading::Library,
}

impl Ballast {
    /// Bytes held.
    pub fn bytes(&self) -> Bytes {
        self.bytes
    }
}

impl Drop for Ballast {
    fn drop(&mut self) {
        // SAFETY: `ptr` came from cuMemAlloc_v2 in the current primary context and is
        // freed once.
        unsafe {
            (self.free_fn)(self.ptr);
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

type CuInit = unsafe extern "C" fn(c_uint) -> c_int;
type CuDeviceGet = unsafe extern "C" fn(*mut c_int, c_int) -> c_int;
type CuPrimaryCtxRetain = unsafe extern "C" fn(*mut *mut c_void, c_int) -> c_int;
type CuCtxSetCurrent = unsafe extern "C" fn(*mut c_void) -> c_int;
type CuMemGetInfo = unsafe extern "C" fn(*mut usize, *mut usize) -> c_int;
type CuMemAlloc = unsafe extern "C" fn(*mut u64, usize) -> c_int;
type CuMemFree = unsafe extern "C" fn(u64) -> c_int;

/// Holds `free − (budget − held by this process)` bytes on device `index`, so that this
/// process can use at most `budget` in all (its CUDA context included).
pub fn hold_budget(index: usize, budget: Bytes) -> Result<BudgetSetup, BudgetError> {
    let drv = |e: String| BudgetError::Driver(e);
    // SAFETY: the CUDA driver API called with its documented C signatures; the primary
    // context is the one cudarc (under burn) retains too, so the ballast lives in the
    // same context as the training tensors.
    unsafe {
        let lib = libloading::Library::new("libcuda.so.1").map_err(|e| drv(e.to_string()))?;
        macro_rules! sym {
            ($t:ty, $n:literal) => {
                *lib.get::<$t>($n).map_err(|e| drv(e.to_string()))?
            };
        }
        let init: CuInit = sym!(CuInit, b"cuInit\0");
        let get: CuDeviceGet = sym!(CuDeviceGet, b"cuDeviceGet\0");
        let retain: CuPrimaryCtxRetain = sym!(CuPrimaryCtxRetain, b"cuDevicePrimaryCtxRetain\0");
        let set_current: CuCtxSetCurrent = sym!(CuCtxSetCurrent, b"cuCtxSetCurrent\0");
        let mem_info: CuMemGetInfo = sym!(CuMemGetInfo, b"cuMemGetInfo_v2\0");
        let alloc: CuMemAlloc = sym!(CuMemAlloc, b"cuMemAlloc_v2\0");
        let free_fn: CuMemFree = sym!(CuMemFree, b"cuMemFree_v2\0");

        let check = |rc: c_int, what: &str| {
            if rc == 0 {
                Ok(())
            } else {
                Err(drv(format!("{what} failed with CUDA error {rc}")))
            }
        };
        check(init(0), "cuInit")?;
        let mut dev: c_int = 0;
        check(get(&mut dev, index as c_int), "cuDeviceGet")?;
        let mut ctx: *mut c_void = std::ptr::null_mut();
        check(retain(&mut ctx, dev), "cuDevicePrimaryCtxRetain")?;
        check(set_current(ctx), "cuCtxSetCurrent")?;
        let (mut free, mut total) = (0usize, 0usize);
        check(mem_info(&mut free, &mut total), "cuMemGetInfo")?;
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
        let mut ptr: u64 = 0;
        check(alloc(&mut ptr, bytes as usize), "cuMemAlloc of the ballast")?;
        Ok(BudgetSetup {
            ballast: Some(Ballast {
                bytes: Bytes(bytes),
                ptr,
                free_fn,
                _lib: lib,
            }),
            note: format!(
                "--vram-budget {budget}: holding {} of VRAM outside burn (this process held {held} before; {} left for training)",
                Bytes(bytes),
                Bytes(room)
            ),
        })
    }
}
